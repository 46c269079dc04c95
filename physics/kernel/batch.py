"""The event loop over a batch of shots, compiled too: what
:func:`kinghill.physics.simulate_many` plays its shots with (one entry into compiled code for
the whole batch instead of one a shot), and :func:`play_departures`, what
:func:`kinghill.physics.simulate_departures` measures its shots with."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from kinghill.physics.cue import motion_of
from kinghill.physics.jit import njit
from kinghill.physics.kernel.layout import BALL_BALL, ON, Start, TableArrays, Work, X, Y
from kinghill.physics.kernel.loop import play
from kinghill.physics.kernel.table import Table
from kinghill.physics.kernel.workspace import workspace
from kinghill.physics.names import N_BALLS
from kinghill.physics.sampling import ball_at, sample


class BatchRun(NamedTuple):
    """What :func:`play_batch` returns, as arrays over the batch's ``n`` shots: final positions
    (n x 8 x 2; where a ball left the table for one that did), on the table (n x 8), steps and
    durations (n), and the events of every shot in one log (``kinds_balls``: kind, ball, other;
    ``times``), shot k's rows ``offsets[k]:offsets[k + 1]``."""

    positions: np.ndarray
    on_table: np.ndarray
    steps: np.ndarray
    durations: np.ndarray
    offsets: np.ndarray
    kinds_balls: np.ndarray
    times: np.ndarray


def play_batch(
    table: Table,
    positions: np.ndarray,
    on: np.ndarray,
    cues: np.ndarray,
    shots: np.ndarray,
    radius: float,
) -> BatchRun:
    """Shot k from ``positions[k]``, ``on[k]`` with ball ``cues[k]`` struck as ``shots[k]``
    (phi, speed, a, b; :func:`~kinghill.physics.cue.motion_of` on balls of ``radius``), for
    every k: shot by shot into the outputs, resumed in a bigger workspace or with bigger outputs
    when one runs out of room. No paths or energies."""
    n = len(cues)
    finals = np.empty((n, N_BALLS, 2))
    on_out = np.empty((n, N_BALLS), dtype=np.bool_)
    steps = np.zeros(n, dtype=np.int64)
    durations = np.zeros(n)
    offsets = np.zeros(n + 1, dtype=np.int64)
    kinds = np.zeros((16 * n + 64, 3), dtype=np.int64)
    times = np.zeros(16 * n + 64)
    work = workspace()
    done = 0
    while done < n:
        done, room = _play_from(
            work.work, table.arrays, positions, on, cues, shots, radius, done,
            finals, on_out, steps, durations, offsets, kinds, times,
        )  # fmt: skip
        if done < n and room:
            work = work.grown()
        elif done < n:
            kinds = np.concatenate([kinds, np.zeros_like(kinds)])
            times = np.concatenate([times, np.zeros_like(times)])
    return BatchRun(
        finals, on_out, steps, durations, offsets, kinds[: offsets[n]], times[: offsets[n]]
    )


@njit
def _play_from(
    work: Work,
    table: TableArrays,
    positions: np.ndarray,
    on: np.ndarray,
    cues: np.ndarray,
    shots: np.ndarray,
    radius: float,
    first: int,
    finals: np.ndarray,
    on_out: np.ndarray,
    steps: np.ndarray,
    durations: np.ndarray,
    offsets: np.ndarray,
    kinds: np.ndarray,
    times: np.ndarray,
) -> tuple[int, bool]:
    """Shots ``first``.. of the batch: ``(shots done, whether the workspace ran out)``; stops
    early (the shot not done) when the workspace or the event outputs run out of room."""
    balls, flags, rec = work.balls, work.flags, work.records
    for k in range(first, len(cues)):
        m = shots[k]
        start = Start(positions[k], on[k], cues[k], motion_of(m[0], m[1], m[2], m[3], radius))
        ok, n_steps, duration = play(work, table, start, False, False, -1)
        if not ok:
            return k, True
        count = rec.counts[0]
        begin = offsets[k]
        if begin + count > kinds.shape[0]:
            return k, False
        kinds[begin : begin + count] = rec.events[:count]
        times[begin : begin + count] = rec.times[:count]
        offsets[k + 1] = begin + count
        for b in range(N_BALLS):
            finals[k, b, 0], finals[k, b, 1] = balls[b, X], balls[b, Y]
            on_out[k, b] = flags[b, ON] != 0
        steps[k], durations[k] = n_steps, duration
    return len(cues), False


def play_departures(
    table: Table,
    positions: np.ndarray,
    on: np.ndarray,
    cues: np.ndarray,
    shots: np.ndarray,
    radius: float,
    balls: np.ndarray,
    fps: float,
) -> tuple[np.ndarray, np.ndarray]:
    """Shot k from ``positions`` (8 x 2) and ``on`` (one table for the batch) with ball
    ``cues[k]`` struck as ``shots[k]`` (as :func:`play_batch`'s), its paths recorded, for every
    k: ``(lines, found)``, ball ``balls[k]``'s departure from its first contact sampled at
    ``fps`` (:class:`kinghill.physics.Departures`); resumed in a bigger workspace when one
    runs out of room."""
    n = len(cues)
    lines = np.full((n, 4), np.nan)
    found = np.zeros(n, dtype=np.bool_)
    work, done = workspace(), 0
    while done < n:
        done = _departures_from(
            work.work,
            table.arrays,
            positions,
            on,
            cues,
            shots,
            radius,
            balls,
            fps,
            done,
            lines,
            found,
        )
        if done < n:
            work = work.grown()
    return lines, found


@njit
def _departures_from(
    work: Work,
    table: TableArrays,
    positions: np.ndarray,
    on: np.ndarray,
    cues: np.ndarray,
    shots: np.ndarray,
    radius: float,
    balls: np.ndarray,
    fps: float,
    first: int,
    lines: np.ndarray,
    found: np.ndarray,
) -> int:
    """Shots ``first``.. into ``lines`` and ``found``: the shots done (fewer when the workspace
    ran out of room for a shot's paths)."""
    rec = work.records
    for k in range(first, len(cues)):
        m = shots[k]
        start = Start(positions, on, cues[k], motion_of(m[0], m[1], m[2], m[3], radius))
        ball = balls[k]
        ok, _, duration = play(work, table, start, True, False, ball)
        if not ok:
            return k
        events, times = rec.events[: rec.counts[0]], rec.times
        touch, after = -1, -1
        for i in range(len(events)):  # the ball's first two events
            if events[i, 1] == ball or (events[i, 0] == BALL_BALL and events[i, 2] == ball):
                if touch < 0:
                    touch = i
                else:
                    after = i
                    break
        if touch < 0 or events[touch, 0] != BALL_BALL:
            continue
        segments = rec.segments[: rec.counts[1]]
        if after >= 0:  # the run stopped at the ball's next event: the samples k / fps before
            first_sample, last_sample = _samples_within(fps, times[touch], times[after])
            x0, y0 = ball_at(segments, ball, first_sample)
            x1, y1 = ball_at(segments, ball, last_sample)
            if last_sample > first_sample:
                lines[k, 0], lines[k, 1], lines[k, 2], lines[k, 3] = x0, y0, x1, y1
                found[k] = True
            continue
        sampled, path = sample(segments, fps)  # the whole run: to its end, as sampled
        i0, i1 = -1, -1
        for i in range(len(sampled)):
            if times[touch] < sampled[i] < duration:
                i0 = i if i0 < 0 else i0
                i1 = i
        if i0 >= 0 and i1 > i0:
            lines[k, 0], lines[k, 1] = path[i0, ball, 0], path[i0, ball, 1]
            lines[k, 2], lines[k, 3] = path[i1, ball, 0], path[i1, ball, 1]
            found[k] = True
    return len(cues)


@njit
def _samples_within(fps: float, begin: float, end: float) -> tuple[float, float]:
    """The first and the last of the sample times ``k / fps`` strictly between ``begin`` and
    ``end`` (the last below the first when there is none)."""
    k = max(0, int(begin * fps) - 1)
    while k / fps <= begin:
        k += 1
    first = k / fps
    if first >= end:
        return first, -1.0
    while (k + 1) / fps < end:
        k += 1
    return first, k / fps
