"""The two-level search of issue 35's ablations (docs/training/position/variants.py's
``two_level``): a leave that hands someone a shot is scored by a second guided search from it,
for the player or against them as the next shooter is the player or the opponent; a finished
frame or a 10.4 choice by the hand-made score; the agent plays a legal decision."""

from __future__ import annotations

import importlib.util
from dataclasses import replace
from pathlib import Path
from types import ModuleType

import pytest
from frame_support import midframe

from kinghill.agents.builtins import data_path
from kinghill.agents.prior import PriorNet, PriorSearchAgent
from kinghill.agents.search import position_value
from kinghill.envs import FrameView, Game, ShotAction
from kinghill.envs.rules import Decision, EndReason, FrameResult

VARIANTS = Path(__file__).resolve().parents[1] / "docs" / "training" / "position" / "variants.py"
SMALL = {"budget": 4, "arms": 2, "inner_budget": 6, "inner_arms": 2}


@pytest.fixture(scope="module")
def variants() -> ModuleType:
    spec = importlib.util.spec_from_file_location("variants", VARIANTS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_leave_with_a_shot_is_the_next_shooters_search_value(variants: ModuleType) -> None:
    frame, state = midframe()  # player 1 to shoot
    inner = PriorSearchAgent(
        PriorNet.load(data_path("expert-gumbel.npz")), 1, 6, 2, halving="gumbel"
    )
    _, expected = inner._search(FrameView(state, frame, 1), 6, None)
    shooter = variants.two_level(0, **SMALL).leaf(frame, state, 1)
    opponent = variants.two_level(0, **SMALL).leaf(frame, state, 0)
    assert shooter == pytest.approx(expected)
    assert opponent == pytest.approx(-expected)
    assert shooter != pytest.approx(position_value(frame, state, 1))  # not the hand-made score


def test_a_result_or_a_choice_is_scored_by_the_hand_made_score(variants: ModuleType) -> None:
    frame, state = midframe()
    leaf = variants.two_level(0, **SMALL).leaf
    won = replace(frame, result=FrameResult(0, EndReason.COLOUR_POTTED))
    assert leaf(won, state, 0) == 1.0 and leaf(won, state, 1) == -1.0
    choice = replace(frame, decision=Decision.CHOICE)
    assert leaf(choice, state, 0) == position_value(choice, state, 0)


def test_the_two_level_search_plays_a_shot_the_referee_takes(variants: ModuleType) -> None:
    game = Game()
    game.reset(seed=0)
    agent = variants.two_level(0, **SMALL)
    game.play(agent.act(game.view()))  # the learnt break
    action = agent.act(game.view())
    assert isinstance(action, ShotAction)
    game.play(action)
    assert game.frame.shots == 2 or game.is_over
