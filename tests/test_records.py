"""Shot records: every decision kept exactly, replayed bit for bit, rendered, exported as
arrays; broken or missing records are clear errors."""

import gzip
import json
from pathlib import Path

import numpy as np
import pytest
from gymnasium import spaces
from PIL import Image

from kinghill.agents import make_agent
from kinghill.envs import Action, FrameView, ShotAction
from kinghill.envs.rl.encoding import decode_action, encode_observation, observation_space
from kinghill.envs.rules import Decision, apply
from kinghill.experiments import cli
from kinghill.experiments.records.codec import encode_shot
from kinghill.experiments.records.dataset import export_dataset
from kinghill.experiments.records.store import (
    RecordError,
    encode_frame_shots,
    frames_in,
    load_frame,
    record_path,
)
from kinghill.experiments.tournaments.frame_player import play_frame
from kinghill.experiments.tournaments.options import FrameOptions

OPTIONS = FrameOptions(max_shots=60)


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Frames 4 and 5 of heuristic against random, noise on (seeds chosen so that the frames
    hold a called colour, fouls and 10.4 choices)."""
    folder = tmp_path_factory.mktemp("records")
    play_frame("heuristic", "random", 2, OPTIONS, record=folder, frame_index=4)
    play_frame("random", "heuristic", 3, OPTIONS, record=folder, frame_index=5)
    return folder


def test_a_record_holds_every_decision_of_the_frame(recorded: Path) -> None:
    for index, seed in ((4, 2), (5, 3)):
        agents = ("heuristic", "random") if index == 4 else ("random", "heuristic")
        again = play_frame(*agents, seed, OPTIONS)  # the same frame, not recorded
        shots = load_frame(recorded, index)
        assert (shots.frame, shots.seed, shots.agents) == (index, seed, agents)
        assert shots.options == OPTIONS.record_fields()
        assert len(shots.decisions) == sum(again.decisions)
        assert sum(d.ruling is not None and d.ruling.shot_played for d in shots.decisions) == (
            again.shots
        )
        assert shots.result is not None and shots.result.winner == again.winner
    decisions = [d for i in (4, 5) for d in load_frame(recorded, i).decisions]
    kinds = {d.decision for d in decisions}
    assert kinds == {Decision.BREAK, Decision.SHOT, Decision.CHOICE}
    assert any(d.call is not None for d in decisions)
    assert any(d.ruling is not None and d.ruling.is_foul for d in decisions)
    assert all(d.seconds is not None and d.seconds >= 0 for d in decisions)


def test_the_shot_as_played_is_after_noise(recorded: Path) -> None:
    """With noise on, every shot played differs from the shot chosen, by a little."""
    for d in load_frame(recorded, 4).decisions:
        if d.played is not None:
            assert isinstance(d.action, ShotAction) and d.played != d.action.shot
            assert abs(d.played.phi - d.action.shot.phi) < 0.05


def test_replaying_a_record_reproduces_its_event_log_bit_for_bit(recorded: Path) -> None:
    """Each shot simulated again from the recorded position gives the recorded events (times
    included, compared exactly) and, through the recorded ruling, the next recorded position."""
    for index in (4, 5):
        shots = load_frame(recorded, index)
        played = 0
        for k, d in enumerate(shots.decisions):
            after = shots.decisions[k + 1].view.state if k + 1 < len(shots.decisions) else None
            if d.played is None:
                continue
            result = d.resimulate()
            assert result.events == d.events
            assert [e.t for e in result.events] == [e.t for e in d.events]
            _, state = apply(d.view.frame, d.ruling, result.final)
            assert state == (after if after is not None else shots.final)
            played += 1
        assert played > 5


def test_a_record_reads_back_to_the_same_json(recorded: Path) -> None:
    """Decoding then encoding changes nothing: floats are stored exactly."""
    for index in frames_in(recorded):
        with gzip.open(record_path(recorded, index), "rt") as handle:
            stored = json.load(handle)
        assert encode_frame_shots(load_frame(recorded, index)) == stored


class Broken:
    """Raises on every decision (a fault charged as a foul, 12.4)."""

    def act(self, view: FrameView) -> Action:
        raise RuntimeError("out of order")


def test_faults_are_recorded_with_no_action(tmp_path: Path) -> None:
    def build(name: str, seed: int) -> object:
        return Broken() if name == "broken" else make_agent(name, seed)

    play_frame("broken", "heuristic", 1, OPTIONS, build=build, record=tmp_path)  # type: ignore[arg-type]
    faults = [d for d in load_frame(tmp_path).decisions if d.fault is not None]
    assert len(faults) == 2  # the second foul loses the frame (10.5)
    for d in faults:
        assert d.action is None and d.played is None and d.events == ()
        assert "out of order" in d.fault and d.ruling is not None
        assert d.ruling.fouls[0].rules == ("12.4",)


def test_broken_or_missing_records_are_clear_errors(recorded: Path, tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="no record of frame 9 .*recorded: 4, 5"):
        load_frame(recorded, 9)
    with pytest.raises(RecordError, match="choose one with --frame"):
        load_frame(recorded)
    with pytest.raises(RecordError, match="holds no shot records"):
        load_frame(tmp_path)
    path = tmp_path / "x.json.gz"
    path.write_bytes(gzip.compress(b'{"format": "something else"}'))
    with pytest.raises(RecordError, match="not a kinghill shot record"):
        load_frame(path)
    path.write_bytes(gzip.compress(b"{not json"))
    with pytest.raises(RecordError, match="not a readable shot record"):
        load_frame(path)
    with gzip.open(record_path(recorded, 4), "rt") as handle:
        data = json.load(handle)
    del data["decisions"][3]["events"]
    path.write_bytes(gzip.compress(json.dumps(data).encode()))
    with pytest.raises(RecordError, match="broken record, decision 3: missing 'events'"):
        load_frame(path)
    data["decisions"][3]["events"] = [["ball", 1, 2, "soon"]]
    path.write_bytes(gzip.compress(json.dumps(data).encode()))
    with pytest.raises(RecordError, match="decision 3: expected a number, got 'soon'"):
        load_frame(path)


def test_export_gives_observation_action_outcome_rows(recorded: Path, tmp_path: Path) -> None:
    summary = export_dataset([recorded], tmp_path / "data.npz")
    data = np.load(summary.path)
    decisions = [(i, d) for i in (4, 5) for d in load_frame(recorded, i).decisions]
    assert summary.rows == len(decisions) == len(data["observations"]) and summary.frames == 2
    space = observation_space()
    for row, (frame, d) in enumerate(decisions):
        flat = spaces.flatten(space, encode_observation(d.view)).astype(np.float32)
        assert np.array_equal(data["observations"][row], flat)
        assert data["frame"][row] == frame and data["player"][row] == d.player
        point = {key[7:]: data[key][row] for key in data.files if key.startswith("action_")}
        decoded = decode_action(point, d.view)
        if isinstance(d.action, ShotAction):
            assert isinstance(decoded, ShotAction)
            assert decoded.shot.cue_ball == d.action.shot.cue_ball
            assert str(decoded.call) == str(d.action.call)
            assert data["played"][row].tolist() == encode_shot(d.played)  # exact
        else:
            assert decoded == d.action
        assert data["fouled"][row] == (d.ruling is not None and d.ruling.is_foul)
    assert set(np.unique(data["agent"])) == {"heuristic", "random"}
    assert set(data["source"].tolist()) == {str(recorded)}  # frames of two folders share indices
    assert set(np.unique(data["frame_won"])) <= {-1, 1}


def test_export_refuses_a_name_numpy_would_change(recorded: Path, tmp_path: Path) -> None:
    """numpy writes ``data.csv`` as ``data.csv.npz``: the summary would name a file not there."""
    with pytest.raises(ValueError, match="out must be an .npz file, got '.*data.csv'"):
        export_dataset([recorded], tmp_path / "data.csv")
    assert not list(tmp_path.iterdir())


def test_tournament_and_play_record_replay_and_export_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "t"
    argv = ["tournament", "--agents", "heuristic", "random", "--frames", "2", "--jobs", "1"]
    assert cli.main([*argv, "--max-shots", "4", "--record", "--out", str(out)]) == 0
    assert frames_in(out) == [0, 1]
    replay = ["replay", str(out), "--frame", "1", "--width", "300", "--fps", "10"]
    assert cli.main([*replay, "--out-file", str(tmp_path / "f.gif")]) == 0
    with Image.open(tmp_path / "f.gif") as gif:
        assert gif.n_frames > 10 and gif.size[0] == 300
    play = tmp_path / "p"
    assert cli.main(["play", "heuristic", "random", "--max-shots", "4", "--record", str(play)]) == 0
    assert cli.main(["export", str(out), str(play), "--out-file", str(tmp_path / "d.npz")]) == 0
    assert "from 3 frames" in capsys.readouterr().out
    assert (
        cli.main(["replay", str(out), "--frame", "7", "--out-file", str(tmp_path / "x.gif")]) == 2
    )
    assert "no record of frame 7" in capsys.readouterr().err
    assert (
        cli.main(["export", str(tmp_path / "nothing"), "--out-file", str(tmp_path / "e.npz")]) == 2
    )
    assert "no shot records" in capsys.readouterr().err
    custom = ["--player", "kinghill.experiments.tournaments.frame_player:new_game", "--record"]
    assert cli.main([*argv, *custom, "--out", str(tmp_path / "c")]) == 2
    assert "--record: needs the built-in frame player" in capsys.readouterr().err


def test_play_never_replaces_a_record_and_leaves_a_tournaments_records_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 39 item 1: a second ``play --record`` into one folder adds a record beside the
    first; a tournament's folder is refused in one line, its record and frame log untouched."""
    play = tmp_path / "p"
    argv = ["play", "heuristic", "random", "--max-shots", "4", "--record", str(play)]
    assert cli.main([*argv, "--seed", "1"]) == 0
    assert cli.main([*argv, "--seed", "2"]) == 0
    assert frames_in(play) == [0, 1]
    assert [(load_frame(play, i).frame, load_frame(play, i).seed) for i in (0, 1)] == [
        (0, 1),
        (1, 2),
    ]
    assert "kinghill replay" in capsys.readouterr().out
    out = tmp_path / "t"
    tournament = ["tournament", "--agents", "heuristic", "random", "--frames", "2"]
    assert cli.main([*tournament, "--max-shots", "4", "--record", "--out", str(out)]) == 0
    before = (record_path(out, 0).read_bytes(), (out / "frames.jsonl").read_bytes())
    capsys.readouterr()
    assert cli.main(["play", "random", "heuristic", "--seed", "9", "--record", str(out)]) == 2
    error = capsys.readouterr().err.strip()
    assert "holds a tournament" in error and len(error.splitlines()) == 1
    assert (record_path(out, 0).read_bytes(), (out / "frames.jsonl").read_bytes()) == before
    assert frames_in(out) == [0, 1]


def test_a_replay_ends_on_the_result_when_the_frame_ends_on_a_foul_without_a_shot(
    tmp_path: Path,
) -> None:
    """Issue 39 item 5: the frame ends on the breaker's second 12.4 foul, which plays no shot;
    the replay shows each such ruling and ends on the table with the winner (10.5)."""
    import imageio.v3 as iio

    from kinghill.envs.drawing.render import TableRenderer
    from kinghill.experiments.records.replay import replay, replay_shots

    def build(name: str, seed: int) -> object:
        return Broken() if name == "broken" else make_agent(name, seed)

    play_frame("broken", "heuristic", 1, OPTIONS, build=build, record=tmp_path)  # type: ignore[arg-type]
    shots = load_frame(tmp_path)
    assert shots.decisions[-1].played is None and shots.result is not None
    replayed = replay_shots(shots, 10.0)
    faults = [d.ruling for d in shots.decisions if d.played is None and d.ruling is not None]
    assert [s.caption for s in replayed if len(s.trajectory.times) == 1][:-1] == [
        str(r) for r in faults
    ]
    caption = "player 1 (heuristic) wins the frame (second foul, 10.5)"
    assert replayed[-1].caption == caption
    path = replay(tmp_path, tmp_path / "frame.gif", fps=10, width_px=400)
    last = iio.imread(path, index=None)[-1]
    renderer = TableRenderer(shots.spec, 400, max(len(s.overlay) for s in replayed) + 1)
    expected = renderer.draw(shots.final.positions, shots.final.on_table, (caption,))
    assert np.abs(last.astype(int) - expected).mean() < 2


def test_play_out_ends_on_the_result(tmp_path: Path) -> None:
    """Issue 39 item 5, as ``kinghill play --out`` writes it: the last picture is the final
    table with the frame's result (here the shot limit's, R-truncate)."""
    import imageio.v3 as iio

    from kinghill.envs.drawing.render import TableRenderer

    gif, folder = tmp_path / "frame.gif", tmp_path / "p"
    argv = ["play", "heuristic", "random", "--max-shots", "2", "--width", "400", "--fps", "10"]
    assert cli.main([*argv, "--out-file", str(gif), "--record", str(folder)]) == 0
    shots = load_frame(folder)
    assert shots.result is not None and shots.result.winner is None
    renderer = TableRenderer(shots.spec, 400, 3)
    expected = renderer.draw(shots.final.positions, shots.final.on_table, (str(shots.result),))
    assert np.abs(iio.imread(gif, index=None)[-1].astype(int) - expected).mean() < 2
