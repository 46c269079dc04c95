"""Play every row of the strength table again and compare its wins, losses and draws with the
committed report (the tournaments are seeded, so on unchanged agents they agree exactly).

    python3 docs/strength/rerun.py [ID ...] > rerun.jsonl    # one JSON line a row

Each row's tournament goes to ``runs/rerun/<id>`` with the command the table shows, played from
scratch (a folder left by an earlier rerun is removed first: a stored tournament would be
resumed, its old frames reported again).
"""

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
rows = json.loads((ROOT / "docs/strength/rows.json").read_text())["rows"]
only = sys.argv[1:]


def record(path: Path, agent: str, opponent: str) -> tuple[int, int, int]:
    rate = json.loads(path.read_text())["win_rates"][agent][opponent]
    return rate["wins"], rate["losses"], rate["draws"]


for row in rows:
    if only and row["id"] not in only:
        continue
    out = ROOT / "runs" / "rerun" / row["id"]
    agents = [row["agent"], row["opponent"]]
    frames = str(row.get("frames", 200))
    command = ["kinghill", "tournament", "--agents", *agents, "--frames", frames, "--jobs", "2"]
    shutil.rmtree(out, ignore_errors=True)
    start = time.time()
    done = subprocess.run([*command, "--out", str(out)], cwd=ROOT, capture_output=True, text=True)
    line: dict[str, object] = {"id": row["id"], "rc": done.returncode}
    line["seconds"] = round(time.time() - start)
    new, old = out / "report.json", ROOT / "docs" / "strength" / f"{row['id']}.json"
    if done.returncode == 0 and new.exists():
        line["new"] = record(new, *agents)
        if old.exists():
            line["old"] = record(old, *row.get("reported", agents))
            line["same"] = line["new"] == line["old"]
    else:
        line["error"] = done.stderr[-300:]
    print(json.dumps(line), flush=True)
