"""Trajectories for replays and renderers: a run's path segments sampled at a frame rate."""

from __future__ import annotations

import math

import numpy as np

from kinghill.physics.jit import njit
from kinghill.physics.names import N_BALLS
from kinghill.physics.result import Trajectory


def trajectory_of(segments: np.ndarray, fps: float) -> Trajectory:
    """The balls' positions sampled at ``fps`` from the path segments of a run."""
    times, positions = sample(segments, fps)
    return Trajectory(times=times, positions=positions, on_table=~np.isnan(positions[:, :, 0]))


@njit
def sample(segments: np.ndarray, fps: float) -> tuple[np.ndarray, np.ndarray]:
    """Positions at ``k / fps`` for k = 0 .. until the last ball stops (and the end itself),
    from segment rows ``(ball, t0, x, y, vx, vy, ax, ay)`` (each ball's in time order)."""
    end = 0.0
    for b in range(N_BALLS):
        for r in range(segments.shape[0] - 1, -1, -1):
            if segments[r, 0] == b:
                end = max(end, segments[r, 1])
                break
    n = int(math.floor(end * fps)) + 1
    extra = 1 if (n - 1) / fps < end else 0
    times = np.empty(n + extra)
    for k in range(n):
        times[k] = k / fps
    if extra:
        times[n] = end
    positions = np.full((len(times), N_BALLS, 2), np.nan)
    rows = np.empty(segments.shape[0], dtype=np.int64)
    for b in range(N_BALLS):
        count = 0
        for r in range(segments.shape[0]):
            if segments[r, 0] == b:
                rows[count] = r
                count += 1
        if count == 0:
            continue
        s = 0
        for k in range(len(times)):
            t = times[k]
            while s + 1 < count and segments[rows[s + 1], 1] <= t:
                s += 1
            positions[k, b, 0], positions[k, b, 1] = _on(segments[rows[s]], t)
    return times, positions


@njit
def ball_at(segments: np.ndarray, ball: int, t: float) -> tuple[float, float]:
    """Where ``ball`` is at time ``t`` on its path (segment rows as :func:`sample` reads them;
    the ball must have one): the position :func:`sample` gives at ``t``."""
    row = -1
    for r in range(segments.shape[0]):
        if segments[r, 0] == ball:
            if row >= 0 and segments[r, 1] > t:
                break
            row = r
    return _on(segments[row], t)


@njit
def _on(segment: np.ndarray, t: float) -> tuple[float, float]:
    """The position at time ``t`` on one path segment ``(ball, t0, x, y, vx, vy, ax, ay)``."""
    dt = t - segment[1]
    return segment[2] + (segment[4] + 0.5 * segment[6] * dt) * dt, (
        segment[3] + (segment[5] + 0.5 * segment[7] * dt) * dt
    )
