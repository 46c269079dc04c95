"""A wall-clock budget for training runs: ``kinghill train sb3|rllib --time-limit MINUTES``."""

from __future__ import annotations

import time

from stable_baselines3.common.callbacks import BaseCallback


class WallClockLimit(BaseCallback):
    """Ends ``learn`` once ``minutes`` of wall time have passed since training started, so a run
    fits a time budget whatever the machine's speed (the model is then saved as usual)."""

    def __init__(self, minutes: float) -> None:
        super().__init__()
        self.minutes = minutes
        self.deadline = 0.0

    def _on_training_start(self) -> None:
        self.deadline = time.perf_counter() + 60.0 * self.minutes

    def _on_step(self) -> bool:
        return time.perf_counter() < self.deadline
