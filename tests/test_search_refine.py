"""Issue 35: refinement of the chosen pot (``?refine=N``): after the halving, the pot it chose
and its variants of speed and spin (``REFINE_GRID``) are played N times each under the same
deviations of the cue, and the best is played; a safety or a kick is kept as chosen. Common
noise in the halving (``?common_noise=true``): the arms of a round meet the same deviations.
Both off by default (the search's decisions as before: test_search_fixture.py)."""

import math
import time

import pytest
from frame_support import midframe
from search_fixture import positions

from kinghill.agents import AgentSpecError, make_agent
from kinghill.agents.search import (
    REFINE_GRID,
    SAFETY,
    Arm,
    SearchAgent,
    candidates,
)
from kinghill.envs import FrameView
from kinghill.envs.rules import Decision
from kinghill.physics import MISCUE_LIMIT


def view() -> FrameView:
    frame, state = midframe()
    return FrameView(state, frame, frame.to_move)


def test_the_refined_shot_is_the_chosen_pot_or_one_of_its_variants() -> None:
    played = []
    for seed, position in positions()[:40]:
        if position.decision is not Decision.SHOT:
            continue
        chosen, _ = SearchAgent(seed, 40)._search(position, 40, None)
        refined, value = SearchAgent(seed, 40, refine=4)._search(position, 40, None)
        assert -1.0 <= value <= 1.0
        assert (refined.shot.cue_ball, refined.call) == (chosen.shot.cue_ball, chosen.call)
        step = (
            round(refined.shot.speed / chosen.shot.speed, 6),
            round(refined.shot.b - chosen.shot.b, 6),
        )
        assert step in {(1.0, 0.0), *REFINE_GRID} or abs(refined.shot.b) == MISCUE_LIMIT  # the tip
        played.append(step)  # height held at the miscue limit is the one other change
    assert len(played) > 20
    assert len(set(played)) > 3  # variants were played: refinement is not a no-op


def test_refinement_deals_every_variant_the_same_deviations() -> None:
    agent = SearchAgent(2, refine=4)
    shot = candidates(view())[0].action
    arms = [Arm(shot), Arm(shot), Arm(shot)]
    agent._score(view(), [(arm, 5) for arm in arms], common=True)
    assert arms[0].total == arms[1].total == arms[2].total
    with pytest.raises(ValueError, match="every arm sampled as often"):
        agent._score(view(), [(Arm(shot), 2), (Arm(shot), 3)], common=True)


def test_a_safety_is_kept_as_chosen() -> None:
    agent = SearchAgent(1, refine=4)
    safety = next(c for c in candidates(view()) if c.kind == SAFETY)
    agent.last_candidates, agent.last_kept = [safety], [0]
    arms = [Arm(safety.action)]
    assert agent._refined(view(), arms, arms[0]) is arms[0]


def test_refine_is_a_spec_option_and_a_bad_count_is_refused() -> None:
    assert make_agent("search?refine=4").refine == 4
    assert make_agent("expert-gumbel?refine=6").refine == 6
    assert make_agent("search").refine == 0
    with pytest.raises(AgentSpecError, match="refine"):
        make_agent("search?refine=-1")
    with pytest.raises(ValueError, match="refine"):
        SearchAgent(refine=-2)
    assert math.isclose(REFINE_GRID[0][0], 0.8)


@pytest.mark.parametrize("common", [True, False])
def test_common_noise_deals_the_arms_of_a_round_the_same_deviations(common: bool) -> None:
    shot = candidates(view())[0].action
    arms = [Arm(shot) for _ in range(4)]
    SearchAgent(3, common_noise=common)._halve(view(), arms, 16, None)
    dropped = [arm for arm in arms if arm.count == 2]  # played in the first round only
    assert len(dropped) == 2
    totals = {arm.total for arm in dropped}
    assert (len(totals) == 1) is common  # one shot, one luck: one total; else each its own


def test_common_noise_is_a_spec_option() -> None:
    assert make_agent("search?common_noise=true").common_noise is True
    assert make_agent("expert-gumbel?common_noise=true&refine=8").common_noise is True
    assert make_agent("expert-gumbel").common_noise is False


def test_a_time_budget_leaves_nothing_to_refine() -> None:
    seed, position = next((s, p) for s, p in positions() if p.decision is Decision.SHOT)
    agent = SearchAgent(seed, time_budget=0.02, refine=4)
    action, _ = agent._search(position, agent.budget, time.perf_counter() + 0.02)
    assert any(arm.action is action for arm in agent.last_arms)  # the halving's own choice
