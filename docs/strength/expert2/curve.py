"""The iterations of the reference run against strength: each iteration's net (``?budget=120``)
against ``search`` over 200 frames, and iteration 0, the learnt break with no prior (``arms=0``).

    python3 docs/strength/expert2/curve.py    # writes docs/training/expert2-iterations.png

Reads the committed reports beside this file (``iteration_K.json``, ``no_prior.json``).
"""

import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

HERE = Path(__file__).resolve().parent
OUT = HERE.parents[1] / "training" / "expert2-iterations.png"


def score(name: str) -> tuple[float, float, float]:
    report = json.loads((HERE / f"{name}.json").read_text())
    agent = next(a for a in report["agents"] if a != "search")
    rate = report["win_rates"][agent]["search"]["win_rate"]
    return rate["estimate"], rate["low"], rate["high"]


points = [(0, score("no_prior"))] + [(k, score(f"iteration_{k}")) for k in range(1, 7)]
xs = [k for k, _ in points]
mid = [s[0] for _, s in points]
errors = [[s[0] - s[1] for _, s in points], [s[2] - s[0] for _, s in points]]
figure, axes = plt.subplots(figsize=(5.5, 3.4))
axes.errorbar(xs, mid, yerr=errors, marker="o", capsize=3)
axes.axhline(0.5, color="grey", linewidth=0.8)
axes.axhline(0.6, color="grey", linewidth=0.8, linestyle="--")
axes.set(xlabel="iteration (0: the learnt break, no prior)", ylabel="score against search")
axes.set(ylim=(0.3, 0.85), xticks=xs)
axes.set_title("The learnt break and each iteration's prior, 200 frames, Wilson 95%", fontsize=9)
figure.tight_layout()
figure.savefig(OUT, dpi=100)
print(OUT)
