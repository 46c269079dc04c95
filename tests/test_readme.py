"""Every Python example in the README runs as written and gives what it says."""

import ast
import re
from collections.abc import Callable
from contextlib import redirect_stdout
from io import StringIO
from pathlib import Path
from typing import Any

import numpy as np
import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)


def test_readme_has_examples() -> None:
    assert len(BLOCKS) >= 4


@pytest.mark.parametrize("code", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_readme_example_runs(code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The example runs; every name it assigns is set (not None), one that prints prints, and
    the examples below give the results their text promises."""
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, Any] = {"__name__": "__readme__"}
    printed = StringIO()
    with redirect_stdout(printed):
        exec(compile(code, str(README), "exec"), namespace)  # raises if the example is broken
    assigned = assigned_names(code)
    assert all(namespace.get(name) is not None for name in assigned), assigned
    if "print(" in code:
        assert printed.getvalue().strip(), "the example printed nothing"
    for marker, check in PROMISES.items():
        if marker in code:
            assert check(namespace), marker


def assigned_names(code: str) -> set[str]:
    """The names a block assigns at its top level (plain assignments and loops), but ``_``."""
    names: set[str] = set()
    for node in ast.parse(code).body:
        targets = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, ast.For):
            targets = [node.target]
        for target in targets:
            names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name) and n.id != "_")
    return names


PROMISES: dict[str, Callable[[dict[str, Any]], bool]] = {
    "picture = env.render()": lambda ns: (
        ns["picture"].ndim == 3 and ns["picture"].shape[2] == 3 and ns["picture"].dtype == np.uint8
    ),
    "picture = renderer.draw_state(": lambda ns: ns["picture"].shape[2] == 3,
    'make_agent("search?budget=40"': lambda ns: ns["agent"].budget == 40,
    "report = evaluate(": lambda ns: {a.name for a in ns["report"].ranking()} == {"mine", "random"},
    'load_frame("runs/rec", frame=1)': lambda ns: ns["frame"].frame == 1,
    "state = run_knockout(": lambda ns: ns["state"].champion in ("heuristic", "random"),
    "model = PPO(": lambda ns: ns["model"].num_timesteps >= 128,
}
"""What an example promises, by a line that marks it (examples without one are checked as
running, setting their names and printing)."""
