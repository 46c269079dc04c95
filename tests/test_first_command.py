"""Issue 36 item 7: the first command a new user runs (the README's, and the getting-started
page's) writes a report whose HTML page replays its frames. Run as written, with fewer frames
and a folder of the test's own."""

import json
import re
import shlex
from pathlib import Path

import pytest

from kinghill.experiments import cli
from kinghill.experiments.tournaments.frame_log import FRAMES_FILE

ROOT = Path(__file__).resolve().parents[1]


def first_command(page: Path) -> list[str]:
    """The arguments of the first ``kinghill`` command of the page's "Two commands" block."""
    text = page.read_text(encoding="utf-8")
    block = re.search(r"## Two commands.*?```bash\n(.*?)```", text, flags=re.S)
    assert block is not None, f"{page} has no 'Two commands' block"
    line = next(line for line in block.group(1).splitlines() if "kinghill " in line)
    return shlex.split(line.split("kinghill ", 1)[1])


def test_the_readme_and_the_getting_started_page_give_the_same_first_command() -> None:
    assert first_command(ROOT / "README.md") == first_command(ROOT / "docs/getting-started.md")


def test_the_first_command_writes_a_page_whose_frames_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = first_command(ROOT / "README.md")
    assert argv[:1] == ["tournament"] and "--out" not in argv
    frames = argv.index("--frames") + 1
    argv[frames] = "2"  # two frames a pair: the command's every other setting as written
    assert cli.main([*argv, "--out", str(tmp_path)]) == 0
    capsys.readouterr()
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    data = re.search(r'<script type="application/json" id="kinghill-data">(.*?)</script>', page)
    assert data is not None
    replays = json.loads(data.group(1))["frames"]
    played = (tmp_path / FRAMES_FILE).read_text().splitlines()
    assert len(replays) == len(played) == 6  # three pairs, each frame on the page
    assert all(frame["decisions"] for frame in replays)
