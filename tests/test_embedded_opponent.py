"""An opponent to take away: policies exported to ONNX choose what the originals choose, and an
embedded opponent (a prior net, or an exported policy) plays a whole frame in a process where
torch, Stable-Baselines3 and Ray cannot be imported; the packages it loads are those the manual
lists (docs/guide/embedded.md)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("onnxruntime", reason="needs the onnx extra")
pytest.importorskip("onnx", reason="needs the onnx extra")

from kinghill.agents.builtins import data_path  # noqa: E402
from kinghill.agents.embedded import decide, opponent  # noqa: E402
from kinghill.envs import ChoiceAction, ShotAction  # noqa: E402
from kinghill.experiments.cli.app import main  # noqa: E402
from kinghill.experiments.training.onnx_export import agreement, export_policy  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
EXPERT = data_path("expert2.npz")  # the shipped models (package data)
MASKED = data_path("maskable-heuristic.zip")
AIM = data_path("ppo-aim-random.zip")
RUN_TIME = {
    # what docs/guide/embedded.md lists: the packages an embedded opponent loads, besides
    # Python's own modules and kinghill (their import names)
    "numpy", "numba", "llvmlite", "pymunk", "cffi", "_cffi_backend", "pycparser", "gymnasium",
    "farama_notifications", "PIL", "scipy", "onnxruntime", "yaml", "certifi",
    "charset_normalizer", "colorama",
}  # fmt: skip
BLOCKED = ("torch", "stable_baselines3", "sb3_contrib", "ray", "tensorboard")


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return export_policy(MASKED, tmp_path_factory.mktemp("onnx") / "masked.onnx")


def test_the_exported_masked_policy_chooses_the_same_actions(exported: Path) -> None:
    found = agreement(MASKED, exported, 300)
    assert found.observations == 300 and found.all_same


def test_the_exported_aim_policy_chooses_the_same_actions(tmp_path: Path) -> None:
    out = export_policy(AIM, tmp_path / "aim.onnx")
    found = agreement(AIM, out, 300)
    assert found.observations == 300 and found.all_same
    assert found.largest_difference <= found.tolerance


def test_an_embedded_opponent_plays_with_torch_blocked(exported: Path) -> None:
    """A subprocess whose import system refuses torch and the training stack plays a frame of
    the prior net (alone) against the exported MaskablePPO policy, then asks the searching net
    for a shot from ball positions."""
    script = textwrap.dedent(
        f"""
        import importlib.abc, json, sys
        class Refuse(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path, target=None):
                if name.split(".")[0] in {BLOCKED!r}:
                    raise ImportError(name + " is blocked")
                return None
        sys.meta_path.insert(0, Refuse())
        from kinghill.agents.embedded import decide, opponent
        from kinghill.envs import Game, ask
        from kinghill.physics import NoiseModel
        players = (opponent({str(EXPERT)!r}, budget=None, seed=0), opponent({str(exported)!r}))
        game = Game(noise=NoiseModel())
        game.reset(seed=1)
        while not game.is_over:
            game.settle(ask(players[game.to_move].act, game.view()))
        searching = opponent({str(EXPERT)!r}, budget=30, seed=0)
        shot = decide(searching, {{0: (2.7, 0.9), 3: (2.0, 0.8), 5: (1.0, 0.5)}}, credited=(3, 2))
        loaded = sorted({{m.split(".")[0] for m in sys.modules}} - set(sys.stdlib_module_names))
        print(json.dumps({{"result": str(game.frame.result), "shot": str(shot), "loaded": loaded}}))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=600, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert "wins the frame" in report["result"] or "truncated" in report["result"]
    assert "cue_ball" in report["shot"]
    loaded = {
        m
        for m in report["loaded"]
        if (not m.startswith("_") or m == "_cffi_backend") and not m.endswith("__mypyc")
    }
    loaded -= {"kinghill", "cython_runtime"}
    assert not loaded & set(BLOCKED)
    assert loaded <= RUN_TIME, sorted(loaded - RUN_TIME)


def test_decide_reads_a_position_and_the_10_4_choice() -> None:
    net = opponent(EXPERT, budget=None, seed=0)
    balls = {0: (2.7, 0.9), 3: (2.0, 0.8), 5: (1.0, 0.5)}
    shot = decide(net, balls, credited=(3, 2))
    assert isinstance(shot, ShotAction) and shot.shot.cue_ball in (0, 3, 5)
    choice = decide(net, balls, credited=(3, 2), fouls=(0, 1), after_foul=True)
    assert isinstance(choice, ChoiceAction)
    with pytest.raises(ValueError, match="credited"):
        decide(net, balls)  # five whites off the table, none credited
    with pytest.raises(FileNotFoundError, match="no opponent"):
        opponent("nowhere.npz")


def test_the_command_exports_and_checks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "policy.onnx"
    assert main(["export-policy", str(MASKED), "--out-file", str(out), "--check", "40"]) == 0
    printed = capsys.readouterr().out
    assert out.is_file() and "the same action on 40 of 40 observations" in printed
    assert main(["export-policy", str(ROOT / "README.md"), "--out-file", str(out)]) == 2
