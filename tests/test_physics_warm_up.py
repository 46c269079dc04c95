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


AGENT_PROCESS = """
import pickle, sys
sys.path.insert(0, {tests!r})
from numba.core.registry import CPUDispatcher
from frame_support import midframe
from kinghill.agents import make_agent
from kinghill.envs import FrameView
from kinghill.envs.planning import warm_up

def specialisations():
    return {{
        (module, name): len(kernel.signatures)
        for module, found in list(sys.modules.items()) if module.startswith("kinghill")
        for name, kernel in list(vars(found).items()) if isinstance(kernel, CPUDispatcher)
    }}

warm_up()
agents = [make_agent(spec, 1) for spec in ("search", "expert-refine", "search-position")]
before = specialisations()
frame, state = midframe()
view = pickle.loads(pickle.dumps(FrameView(state, frame, frame.to_move)))  # as a seat gets it
assert view.state.positions.flags.writeable
for agent in agents:
    agent.act(view)
after = specialisations()
print(sorted(key for key in after if after[key] != before.get(key, 0)))
"""


def test_warm_up_compiles_what_an_agent_process_plays_with() -> None:
    """An agent in its own process gets the table unpickled, its arrays writable where a
    TableState's own are read-only, and numba compiles a kernel once for each: the warm-up
    makes both, so no kernel is compiled (or loaded) in an agent's first decision, on its
    clock (it was: 3 to 4 seconds, the first time after an install)."""
    script = AGENT_PROCESS.format(tests=str(Path(__file__).parent))
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=900
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_a_process_that_loads_the_kernels_writes_no_stray_terminal_codes() -> None:
    """numba's coloured errors went through colorama, whose exit hook wrote ESC[0m to a
    terminal from each process that loaded a kernel (a tournament's agent processes): the
    kernels' module turns the colouring off, so a pty sees only what the program prints."""
    import pty

    primary, secondary = pty.openpty()
    code = "import kinghill.envs.planning as p; p.warm_up(); print('done')"
    environ = {
        k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING"
    }
    process = subprocess.Popen(
        [sys.executable, "-c", code], stdout=secondary, stderr=secondary, env=environ
    )
    os.close(secondary)
    process.wait(timeout=300)
    output = b""
    while True:
        try:
            chunk = os.read(primary, 4096)
        except OSError:  # the child's end closed
            break
        if not chunk:
            break
        output += chunk
    os.close(primary)
    assert b"done" in output and b"\x1b[" not in output, output
