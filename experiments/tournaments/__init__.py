"""Tournaments: frames between agents played in processes of their own (:mod:`.frame_player`,
:mod:`.agent_process`), logged and resumable, run locally or on Ray (:mod:`.ray_runner`); round
robins (:mod:`.round_robin`) and knockouts (:mod:`.bracket`, :mod:`.race`, :mod:`.knockout`) with
their reports and statistics (:mod:`.report`, :mod:`.bracket_report`, :mod:`.stats`)."""
