"""The import contracts at run time (issue 20): the rules and the game load no RL framework and no
Pillow, and the envs' ids reach Gymnasium whichever of the two is imported first. Each check runs
in a fresh interpreter, so that nothing this test session imported leaks into it."""

import subprocess
import sys

import pytest

FRAMEWORKS = ("gymnasium", "pettingzoo", "PIL")


def run_python(code: str) -> str:
    """Run ``code`` in a fresh interpreter (this session's PYTHONPATH); return its stdout."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.parametrize("module", ["kinghill.envs.rules", "kinghill.envs.game"])
def test_rules_and_game_load_no_framework(module: str) -> None:
    loaded = run_python(
        f"import sys, {module}; print(','.join(m for m in {FRAMEWORKS!r} if m in sys.modules))"
    )
    assert loaded == "", f"import {module} loaded {loaded}"


def test_probe_sees_a_loaded_framework() -> None:
    """The check above can fail: the same probe after the Gymnasium env names what it loaded."""
    loaded = run_python(
        "import sys, kinghill.envs.rl.gym_env; "
        f"print(','.join(m for m in {FRAMEWORKS!r} if m in sys.modules))"
    )
    assert "gymnasium" in loaded.split(",")


MAKE = "env = gymnasium.make('kinghill/KingOfTheHill-v0'); env.reset(seed=0); print(env.spec.id)"


@pytest.mark.parametrize(
    "imports",
    ["import kinghill.envs; import gymnasium", "import gymnasium; import kinghill.envs"],
    ids=["kinghill-first", "gymnasium-first"],
)
def test_gym_make_works_in_both_import_orders(imports: str) -> None:
    assert run_python(f"{imports}; {MAKE}") == "kinghill/KingOfTheHill-v0"
