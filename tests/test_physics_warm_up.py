"""The kernels compile once per installation (numba's on-disk cache), and the compile says so:
one line on stderr the first time, nothing in the processes after it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SCRIPT = (
    "from kinghill.physics import TableState, Shot, simulate\n"
    "print(len(simulate(TableState.rack(), Shot(1, 0.0, 7.0)).events))\n"
)


def _fresh_process(cache: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    return subprocess.run(
        [sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=900
    )


def test_a_cold_compile_is_announced_once_then_the_cache_serves(tmp_path: Path) -> None:
    first = _fresh_process(tmp_path)
    assert first.returncode == 0, first.stderr
    lines = [line for line in first.stderr.splitlines() if "kinghill:" in line]
    assert len(lines) == 1
    assert "compiling the physics engine with numba, once per installation" in lines[0]
    assert lines[0].rstrip().endswith(" s")  # "... done in N s"
    assert any(tmp_path.rglob("*.nbi"))  # the machine code went to the cache
    second = _fresh_process(tmp_path)
    assert second.returncode == 0, second.stderr
    assert "kinghill:" not in second.stderr
    assert second.stdout == first.stdout  # the same shot, the same log length
