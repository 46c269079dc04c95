"""``kinghill serve``: play a frame against an agent in a web browser, or watch two agents play
one, on a local web server (Starlette and uvicorn, the ``serve`` extra).

:func:`serve` runs it; :func:`~.app.create_app` gives the application itself (for tests, or to
mount under another server); :class:`~.tables.Tables` holds the frames. Every frame played is
kept as a shot record (``OUT/records/NNNNNN.json.gz``, as ``--record`` writes), written after
every decision, for ``kinghill replay``, ``report.html`` and ``kinghill export``.
"""

from kinghill.experiments.serve.run import DEFAULT_AGENTS, serve

__all__ = ["DEFAULT_AGENTS", "serve"]
