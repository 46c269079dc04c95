"""The search's two-shot leaf (``search?lookahead=true``, ``expert:PATH?lookahead=true``): the
position a simulated shot leaves is scored through the next shooter's best pot, played once
exactly, against a miss that hands the table to the other player."""

from dataclasses import replace

import pytest

from kinghill.agents import make_agent
from kinghill.agents.heuristic import HeuristicAgent
from kinghill.agents.search import LookAheadValue, SearchAgent, position_value, static_value
from kinghill.envs import FrameView
from kinghill.envs.game.loop import Game
from kinghill.envs.planning.menu import legal_pots, pot_action
from kinghill.envs.rules import Decision, EndReason, Frame, FrameResult, apply, judge
from kinghill.physics import NoiseModel, TableState, simulate


def shot_positions() -> list[tuple[Frame, TableState]]:
    """The shot decisions with a pot on of a seeded frame between two heuristics (noise on)."""
    game, players = Game(noise=NoiseModel()), [HeuristicAgent(1), HeuristicAgent(2)]
    game.reset(seed=0)
    found = []
    while not game.is_over:
        view = game.view()
        if view.decision is Decision.SHOT and legal_pots(view):
            found.append((view.frame, view.state))
        game.play(players[game.to_move].act(view))
    return found


def exact_pot(frame: Frame, state: TableState) -> tuple[float, Frame, TableState, bool]:
    """The mover's best pot played exactly: its chance, the frame and table after, whether the
    ruling credits it."""
    pot = legal_pots(FrameView(state, frame, frame.to_move))[0]
    action = pot_action(pot)
    result = simulate(state, action.shot)
    ruling = judge(frame, action.shot.cue_ball, action.call, result.events)
    made = not ruling.is_foul and bool(ruling.credited or ruling.legal_colour_pot)
    return pot.chance, *apply(frame, ruling, result.final), made


@pytest.mark.parametrize("me", [0, 1])
def test_the_leaf_weighs_the_next_pot_by_its_chance_against_a_miss(me: int) -> None:
    """Where the exact pot goes in: c * (the position after it) + (1 - c) * (the table handed
    over); where its aim misses: the static leaf. Both kinds occur in the frame."""
    kinds = set()
    for frame, state in shot_positions():
        chance, after_frame, after_state, made = exact_pot(frame, state)
        value = LookAheadValue()(frame, state, me)
        if made:
            missed = static_value(frame, state, me, 1 - frame.to_move)
            expected = chance * position_value(after_frame, after_state, me)
            expected += (1 - chance) * missed
        else:
            expected = position_value(frame, state, me)
        assert value == pytest.approx(expected, abs=1e-12) and -1.0 <= value <= 1.0
        assert static_value(frame, state, me, frame.to_move) == position_value(frame, state, me)
        kinds.add(made)
    assert kinds == {True, False}


def test_a_finished_frame_or_a_choice_is_scored_by_the_base_leaf() -> None:
    frame, state = shot_positions()[0]
    won = replace(frame, result=FrameResult(1, EndReason.COLOUR_POTTED))
    assert LookAheadValue()(won, state, 1) == 1.0 and LookAheadValue()(won, state, 0) == -1.0
    choice = replace(frame, decision=Decision.CHOICE, fouled_by=1, fouls=(0, 1))
    assert LookAheadValue()(choice, state, 0) == position_value(choice, state, 0)


def test_the_spec_turns_it_on() -> None:
    assert isinstance(make_agent("search?lookahead=true", 0).leaf, LookAheadValue)
    assert make_agent("search", 0).leaf is position_value
    assert isinstance(SearchAgent(lookahead=True).leaf, LookAheadValue)
