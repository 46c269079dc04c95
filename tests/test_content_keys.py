"""Issue 39.2: stored frames are keyed by what decides the play (the spec plus the content of
any file it names; a plug-in's declared version or module file), so a tournament folder played
with a model that has since been replaced is refused, never resumed with stale frames."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from kinghill.experiments.tournaments.agent_content import content_key
from kinghill.experiments.tournaments.config import TournamentConfig
from kinghill.experiments.tournaments.errors import TournamentError
from kinghill.experiments.tournaments.frame_log import FrameLog


def test_a_spec_is_keyed_by_the_bytes_of_the_files_it_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("net.npz").write_bytes(b"first")
    first = content_key("expert:net.npz?budget=120")
    assert first.startswith("sha256:") and content_key("expert:net.npz?budget=120") == first
    assert content_key("search-value:net.npz") == first  # the file's bytes, not the spec
    Path("net.npz").write_bytes(b"second")
    assert content_key("expert:net.npz?budget=120") != first
    folder = Path("checkpoint")
    (folder / "sub").mkdir(parents=True)
    (folder / "sub" / "weights").write_bytes(b"w")
    before = content_key("rllib:checkpoint")
    (folder / "sub" / "weights").write_bytes(b"w2")
    assert content_key("rllib:checkpoint") not in ("", before)
    assert content_key("search:120") == content_key("heuristic") == ""  # names alone decide


def test_a_plugin_is_keyed_by_its_version_or_its_module_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(tmp_path))
    module = tmp_path / "careful_players.py"
    module.write_text("class Careful:\n    def act(self, view):\n        return None\n")
    key = content_key("careful_players:Careful")
    assert key.startswith("sha256:")
    module.write_text("class Careful:\n    def act(self, view):\n        return 1\n")
    sys.modules.pop("careful_players", None)
    assert content_key("careful_players:Careful") != key  # an edited plug-in is another agent
    module.write_text("class Careful:\n    version = '2'\n    def act(self, view):\n        pass\n")
    sys.modules.pop("careful_players", None)
    declared = content_key("careful_players:Careful")
    module.write_text("class Careful:\n    version = '2'\n    def act(self, view):\n        ...\n")
    sys.modules.pop("careful_players", None)
    assert content_key("careful_players:Careful") == declared  # its declared version decides
    import careful_players

    assert (
        content_key(careful_players.Careful) == content_key(careful_players.Careful()) == declared
    )
    sys.modules.pop("careful_players", None)


def test_a_tournament_played_with_another_model_file_is_not_resumed(tmp_path: Path) -> None:
    config = TournamentConfig(("a", "b"), 2, contents=("", "sha256:one"))
    log = FrameLog(tmp_path)
    log.claim(config)
    log.claim(config)  # the same files: resumed
    with pytest.raises(TournamentError, match="other files or code of b ") as error:
        log.claim(TournamentConfig(("a", "b"), 2, contents=("", "sha256:two")))
    assert error.value.parameter == "out"


def test_built_in_agents_store_what_they_always_stored(tmp_path: Path) -> None:
    """No content keys: tournament.json has no ``contents`` (folders of earlier versions are
    resumed as before), and one without it refuses agents that now name files."""
    config = TournamentConfig(("heuristic", "search"), 2)
    assert "contents" not in config.to_dict()
    FrameLog(tmp_path).claim(config)
    FrameLog(tmp_path).claim(TournamentConfig(("heuristic", "search"), 2, contents=("", "")))
    with pytest.raises(TournamentError, match="did not record the files or code of search"):
        FrameLog(tmp_path).claim(TournamentConfig(("heuristic", "search"), 2, contents=("", "k")))


def test_a_knockout_played_with_another_model_file_is_not_resumed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """run_knockout keys its folder by the entrants' files as the round robin does."""
    from kinghill.experiments.tournaments.knockout import KnockoutConfig, run_knockout
    from kinghill.experiments.tournaments.options import FrameOptions

    monkeypatch.chdir(tmp_path)
    Path("net.npz").write_bytes(b"first")
    config = KnockoutConfig(("heuristic", "expert:net.npz"), options=FrameOptions(max_shots=2))
    never = pytest.fail  # no frame is played: the folder is refused first
    played = ("", content_key("expert:net.npz"))  # the folder as a first run leaves it
    FrameLog(tmp_path / "ko").claim(
        KnockoutConfig(config.agents, options=config.options, contents=played)
    )
    Path("net.npz").write_bytes(b"retrained")
    with pytest.raises(TournamentError, match="other files or code of expert:net.npz"):
        run_knockout(config, tmp_path / "ko", never)  # type: ignore[arg-type]
