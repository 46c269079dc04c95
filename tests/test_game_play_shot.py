"""Issue 37 item 3: one path from a shot to a ruling. ``play_shot`` (one shot) and ``play_noisy``
(many noisy samples in one batch) simulate, judge (the referee's ruling) and apply it; the game
plays every shot through it, and ``play_noisy`` gives what as many ``play_shot`` calls give with
the same noise. Issue 37 item 4: the game's ``simulate`` hook sees every shot it plays."""

import math

import numpy as np
import pytest

from kinghill.agents.heuristic import HeuristicAgent
from kinghill.envs import ChoiceAction, Game, InvalidAction, ShotAction
from kinghill.envs.game import Played, play_noisy, play_shot, shot_position
from kinghill.envs.planning.menu import break_action
from kinghill.envs.rules import Decision, Frame
from kinghill.physics import (
    BREAK_BALL,
    COLOURED,
    NoiseModel,
    Shot,
    ShotResult,
    TableSpec,
    TableState,
    simulate,
    simulate_batch,
)


def same(a: Played, b: Played) -> bool:
    """Two shots played alike: the ruling, the frame after it, and the table to the bit."""
    return (
        a.ruling == b.ruling
        and a.frame == b.frame
        and np.array_equal(a.state.positions, b.state.positions, equal_nan=True)
        and np.array_equal(a.state.on_table, b.state.on_table)
    )


def test_the_game_plays_its_shots_through_play_shot() -> None:
    """A seeded noisy frame of the heuristic against itself: each turn's ruling and the game's
    frame and table after it are what play_shot gives from the position before, with the
    game's noise drawn from the same generator state (4.1 the break placed in the house)."""
    game = Game(noise=NoiseModel())
    game.reset(seed=3)
    agents = (HeuristicAgent(seed=0), HeuristicAgent(seed=1))
    shots = 0
    while not game.is_over and shots < 12:
        frame, state = game.frame, game.state
        action = agents[game.to_move].act(game.view())
        rng = np.random.default_rng()
        rng.bit_generator.state = game.rng.bit_generator.state
        turn = game.play(action)
        if frame.decision is Decision.CHOICE:
            continue
        assert isinstance(action, ShotAction)
        played = play_shot(frame, shot_position(frame, state, action), action, rng, game.noise)
        assert played.ruling == turn.ruling and played.frame == game.frame
        assert np.array_equal(played.state.positions, game.state.positions, equal_nan=True)
        shots += 1
    assert shots >= 3


def test_play_noisy_is_play_shot_many_times_with_the_same_noise() -> None:
    game = Game()
    for frame, state, actions in (
        (game.frame, game.state, [break_action(game.state)] * 3),  # a break, placed alike
        (
            Frame(decision=Decision.SHOT, shots=1),
            TableState.of(TableSpec(), {COLOURED: (1.0, 0.9), 1: (0.6, 0.9), 2: (2.2, 0.5)}),
            [ShotAction(Shot(1, 0.0, 3.0)), ShotAction(Shot(2, 2.5, 2.0), None)] * 2,
        ),
    ):
        batch = play_noisy(frame, state, actions, np.random.default_rng(7), NoiseModel())
        rng = np.random.default_rng(7)
        one_by_one = [
            play_shot(frame, shot_position(frame, state, a), a, rng, NoiseModel()) for a in actions
        ]
        assert len(batch) == len(actions)
        assert all(same(a, b) for a, b in zip(batch, one_by_one, strict=True))
    placed = shot_position(game.frame, game.state, break_action(game.state))
    assert placed.xy(BREAK_BALL) == break_action(game.state).place


def test_the_games_simulate_hook_plays_every_shot() -> None:
    seen: list[ShotResult] = []

    def counted(*args: object, **kwargs: object) -> ShotResult:
        result = simulate(*args, **kwargs)
        seen.append(result)
        return result

    game = Game(noise=NoiseModel(), simulate=counted)
    game.reset(seed=1)
    agent = HeuristicAgent(seed=0)
    turns = [game.play(agent.act(game.view())) for _ in range(4) if not game.is_over]
    played = [t.result for t in turns if t.result is not None]
    assert played and seen == played


def test_shots_of_one_ball_and_call_share_the_referees_ruling(monkeypatch) -> None:
    """The rulings kept for one frame (``Rulings``) are keyed by what the referee reads: the cue
    ball, the call and the event log's kinds and balls, not the stroke. Two strokes of white 1 at
    white 2 that touch the same balls in the same order are judged once, with the ruling
    ``play_shot`` gives each; a shot of another cue ball is judged apart."""
    import kinghill.envs.game.loop as loop

    judged = []
    real = loop.judge
    monkeypatch.setattr(loop, "judge", lambda *a: judged.append(a[1]) or real(*a))
    frame = Frame(decision=Decision.SHOT, shots=1)
    state = TableState.of(TableSpec(), {COLOURED: (1.0, 0.9), 1: (0.6, 0.9), 2: (2.2, 0.9)})
    strokes = [ShotAction(Shot(1, 0.0, 2.0)), ShotAction(Shot(1, 0.0, 2.1, 0.0, 0.1))]
    other = ShotAction(Shot(2, math.pi, 2.0))
    rulings = loop.Rulings(frame)
    batch = simulate_batch([state] * 3, [a.shot for a in (*strokes, other)])
    assert batch.log_keys()[0] == batch.log_keys()[1]  # the same balls touched in order
    ruled = rulings.rule([*strokes, other], batch)
    assert judged == [1, 2]
    for action, (ruling, after) in zip((*strokes, other), ruled, strict=True):
        played = play_shot(frame, state, action)
        assert ruling == played.ruling and after == played.frame


def test_a_place_is_for_the_break_only() -> None:
    """4.1: the break places white 1 in the house; a shot after it with a place would be played
    from where the balls are while saying otherwise (a record, a data set): it is refused and
    nothing changes."""
    game = Game()
    game.reset(seed=4)
    game.play(break_action(game.state))
    if game.frame.decision is Decision.CHOICE:
        game.play(ChoiceAction(play_on=True))
    before = (game.frame, game.state)
    cue = next(b for b in game.state.balls_on_table() if b != 0)
    placed = ShotAction(Shot(cue, 0.0, 2.0), place=(0.3, 0.8))
    with pytest.raises(InvalidAction, match="ShotAction.place is for the break only"):
        game.play(placed)
    assert (game.frame, game.state) == before
