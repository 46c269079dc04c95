"""The compiled engine is its Python source compiled: run as plain Python (``NUMBA_DISABLE_JIT=1``,
:mod:`kinghill.physics.jit`) it gives the same results bit for bit; and the uncompiled source
lets a test swap a contact model, which shows the loop's last-resort guards at work."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from physics_fixture import case_of, encode_events, load

from kinghill.physics import simulate

TESTS = Path(__file__).parent
SAMPLE = range(0, 10_501, 750)
"""Fixture shots replayed on both paths (every law, peer and random shots)."""


def _uncompiled(script: str) -> Any:
    """What ``script`` prints (JSON), run in a fresh process with the kernels uncompiled."""
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    env["PYTHONPATH"] = os.pathsep.join([str(TESTS), env.get("PYTHONPATH", "")])
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=900
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _replayed(ks: list[int]) -> list[tuple[list, list, list]]:
    specs, a = load()
    out = []
    for k in ks:
        state, shot = case_of(specs[int(a["spec"][k])], a["positions"][k], a["shot"][k])
        res = simulate(state, shot)
        ids, times = encode_events(res.events)
        final = [[float(v) for v in p] for p in res.final.positions]
        out.append((ids.tolist(), times.tolist(), final))
    return out


def test_uncompiled_source_gives_the_compiled_results_bit_for_bit() -> None:
    ks = list(SAMPLE)
    script = (
        "import json, numba\n"
        "assert numba.config.DISABLE_JIT\n"
        "import test_physics_compiled as t\n"
        f"print(json.dumps(t._replayed({ks})))\n"
    )
    plain = _uncompiled(script)
    compiled = json.loads(json.dumps(_replayed(ks)))  # NaN -> NaN the same way on both sides
    assert len(plain) == len(ks)
    assert plain == compiled


@pytest.mark.parametrize(
    ("patch", "shot", "want"),
    [
        # a ball-ball model that does nothing: the pair stays closing after the response, so
        # both balls stop where they touch; nothing loops
        (
            "responses.impact = lambda m, nx, ny, *ab: ab",
            "{1: (1.0, 0.8875), 2: (1.5, 0.8875)}, Shot(1, 0.0, 3.0)",
            {"kinds": ["BallBall"], "x1": 1.5 - 2 * 0.034, "ball2": [1.5, 0.8875]},
        ),
        # a cushion law that does nothing: the ball stays pressed into the cushion and stops
        # on it instead of touching it again and again at the same instant
        (
            "responses.rubber_impact = lambda law, nx, ny, *m: m",
            "{1: (1.0, 0.8875)}, Shot(1, math.pi / 2, 3.0)",
            {"kinds": ["BallCushion"], "y1": 1.775 - 0.034},
        ),
    ],
)
def test_a_response_that_leaves_a_contact_closing_stops_the_balls(
    patch: str, shot: str, want: dict[str, Any]
) -> None:
    """Last resort against any stuck contact (the models swapped in the uncompiled source)."""
    script = (
        "import json, math\n"
        "from kinghill.physics import Shot\n"
        "from kinghill.physics.kernel import responses\n"
        "from physics_support import play\n"
        f"{patch}\n"
        f"out = play({shot})\n"
        "print(json.dumps({'kinds': [type(e).__name__ for e in out.events],\n"
        "                  'positions': out.positions}))\n"
    )
    got = _uncompiled(script)
    assert got["kinds"] == want["kinds"]
    if "x1" in want:
        assert got["positions"][1][0] == pytest.approx(want["x1"])
        assert got["positions"][2] == want["ball2"]
    else:
        assert got["positions"][1][1] == pytest.approx(want["y1"])
