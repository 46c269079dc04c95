"""Train a MaskablePPO agent on the masked shot menu for a few thousand steps, save it, and
play it against the random agent.

    python3 examples/train_maskable.py [STEPS]

A real run takes far longer (the training guide's reference command trains for 14 minutes);
this one only shows the pieces: the masked env, sb3-contrib's MaskablePPO, a checkpoint that
``policy:PATH`` loads anywhere an agent is named.
"""

from __future__ import annotations

import sys
from pathlib import Path

from sb3_contrib import MaskablePPO

from kinghill.envs.rl.wrappers import make_sb3_env
from kinghill.experiments import evaluate


def train(steps: int, out: Path) -> Path:
    """Train for ``steps`` env steps against the random agent (the env's default opponent);
    return the saved checkpoint."""
    env = make_sb3_env("masked")
    model = MaskablePPO("MlpPolicy", env, n_steps=256, batch_size=64, seed=0, verbose=0)
    model.learn(steps)
    out.parent.mkdir(parents=True, exist_ok=True)
    model.save(out)
    return out


if __name__ == "__main__":
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 1024
    model = train(steps, Path("runs/examples/maskable.zip"))
    print(f"trained {steps} steps: {model}")
    report = evaluate([f"policy:{model}", "random"], frames=2, max_shots=40, seed=1)
    pairing = report.win_rates[f"policy:{model}"]["random"]
    print(f"against random: {pairing.wins} won, {pairing.losses} lost of 2 frames")
