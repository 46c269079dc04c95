"""``simulate_departures`` (the search's aim calibration) gives, bit for bit, the samples of the
watched ball that ``simulate`` with a trajectory gives: the first and the last strictly after
its first event, a contact with another ball, and before its next event or the run's end."""

from __future__ import annotations

import numpy as np
import pytest
from physics_fixture import case_of, load

from kinghill.physics import (
    BallBall,
    Event,
    Shot,
    TableState,
    simulate,
    simulate_departures,
)
from kinghill.physics.kernel.workspace import _WORKSPACES, Workspace

FPS = 30.0


def departure(state: TableState, shot: Shot, ball: int) -> np.ndarray | None:
    """The reference: read off a full run's events and trajectory."""
    result = simulate(state, shot, trajectory=True, trajectory_fps=FPS)
    assert result.trajectory is not None
    touches = [e for e in result.events if ball in balls_of(e)][:2]
    if not touches or not isinstance(touches[0], BallBall):
        return None
    end = touches[1].t if len(touches) > 1 else result.duration
    times = result.trajectory.times
    moving = np.flatnonzero((times > touches[0].t) & (times < end))
    if len(moving) < 2:
        return None
    return result.trajectory.positions[[moving[0], moving[-1]], ball].ravel()


def balls_of(event: Event) -> tuple[int, ...]:
    return (event.a, event.b) if isinstance(event, BallBall) else (event.ball,)


def test_departures_equal_those_read_off_a_full_trajectory() -> None:
    specs, a = load()
    kinds = {"stopped at its next event": 0, "to the run's end": 0, "none": 0}
    for k in [k for k in range(0, 3000, 29) if int(a["spec"][k]) == 0]:
        state, shot = case_of(specs[0], a["positions"][k], a["shot"][k])
        balls = [b for b in range(8) if state.on_table[b] and b != shot.cue_ball]
        lines, found = simulate_departures(state, [shot] * len(balls), balls, FPS)
        for ball, line, ok in zip(balls, lines, found, strict=True):
            want = departure(state, shot, ball)
            assert ok == (want is not None), (k, ball)
            if want is None:
                kinds["none"] += 1
                assert np.isnan(line).all()
                continue
            assert line.tobytes() == want.tobytes(), (k, ball)
            result = simulate(state, shot)
            touches = [e for e in result.events if ball in balls_of(e)]
            kinds["stopped at its next event" if len(touches) > 1 else "to the run's end"] += 1
    assert min(kinds.values()) >= 5, kinds  # every way a departure ends was checked


def test_a_batch_outgrowing_its_buffers_is_resumed_with_the_same_departures() -> None:
    specs, a = load()
    state, shot = case_of(specs[0], a["positions"][0], a["shot"][0])
    balls = [b for b in range(8) if state.on_table[b] and b != shot.cue_ball]
    want = simulate_departures(state, [shot] * len(balls), balls, FPS)
    _WORKSPACES.work = Workspace(events=4, segments=16)
    got = simulate_departures(state, [shot] * len(balls), balls, FPS)
    assert got.lines.tobytes() == want.lines.tobytes()
    assert got.found.tolist() == want.found.tolist() and want.found.any()


def test_bad_departure_batches_are_refused() -> None:
    state, shot = TableState.rack(), Shot(1, 0.0, 1.0)
    with pytest.raises(ValueError, match="2 shots but 1 balls"):
        simulate_departures(state, [shot, shot], [2], FPS)
    with pytest.raises(ValueError, match="fps must be positive"):
        simulate_departures(state, [shot], [2], 0.0)
    with pytest.raises(ValueError, match="no ball 8 to watch"):
        simulate_departures(state, [shot], [8], FPS)
    with pytest.raises(ValueError, match="ball 3 is not on the table"):
        simulate_departures(state.remove(3), [Shot(3, 0.0, 1.0)], [2], FPS)
    with pytest.raises(TypeError, match="shot must be a Shot"):
        simulate_departures(state, ["shot"], [2], FPS)  # type: ignore[list-item]
