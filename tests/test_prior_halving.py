"""Issue 35: the guided search's Gumbel halving (``expert:PATH?halving=gumbel``): each round
ranks the arms by the prior's logit plus the mean scaled by the samples they have had, the last
arm left is not sampled again, and a bad name is refused."""

from dataclasses import replace

import pytest
from net_weights import random_layers

from kinghill.agents import AgentSpecError, check_agent, make_agent
from kinghill.agents.prior import (
    GUMBEL_C_SCALE,
    GUMBEL_C_VISIT,
    N_FEATURES,
    PriorNet,
    PriorSearchAgent,
    arm_features,
)
from kinghill.agents.search import Arm
from kinghill.envs import FrameView, ShotAction
from kinghill.envs.rules import Decision, Frame
from kinghill.physics import Shot, TableState


def net() -> PriorNet:
    return PriorNet(*random_layers(N_FEATURES, 0, 4))


def view() -> FrameView:
    """Player 0 to shoot with three whites to go: a few dozen candidate shots."""
    state = TableState.rack().remove(2).remove(3)
    frame = replace(Frame.new(), decision=Decision.SHOT, credited=((2,), (3,)), shots=4)
    return FrameView(state, frame, 0)


def arm(prior: float, mean: float, count: int) -> Arm:
    return Arm(ShotAction(Shot(1, 0.0, 1.0)), total=mean * count, count=count, prior=prior)


def test_gumbel_ranks_by_prior_where_the_means_tie_and_by_mean_where_they_differ() -> None:
    agent = PriorSearchAgent(net(), halving="gumbel")
    liked, disliked = arm(2.0, 0.1, 1), arm(-2.0, 0.1, 1)
    assert agent._ranked([disliked, liked]) == [liked, disliked]
    # a mean higher by 0.2 (0.1 on [0, 1]) outweighs 4 logits: (50 + 1) * 0.1 = 5.1
    better = arm(-2.0, 0.3, 1)
    assert agent._ranked([liked, better])[0] is better
    # the scale grows with the samples: 0.02 higher is 0.51 of a logit at one sample ...
    close = arm(0.0, 0.12, 1)
    assert agent._ranked([arm(0.6, 0.1, 1), close])[0] is not close
    # ... and 1.5 logits at a hundred
    assert agent._ranked([arm(0.6, 0.1, 100), arm(0.0, 0.12, 100)])[0].mean == pytest.approx(0.12)
    assert GUMBEL_C_VISIT == 50.0 and GUMBEL_C_SCALE == 1.0
    plain = PriorSearchAgent(net())
    assert plain._ranked([liked, better]) == [better, liked]


def test_gumbel_searches_the_same_arms_with_their_logits_and_does_not_resample_the_last() -> None:
    prior = net()
    at = view()
    gumbel = PriorSearchAgent(prior, seed=1, budget=150, arms=8, halving="gumbel")
    plain = PriorSearchAgent(prior, seed=1, budget=150, arms=8)
    action = gumbel.act(at)
    plain.act(at)
    assert gumbel.last_kept == plain.last_kept and len(gumbel.last_arms) == 8
    logits = prior.logits(arm_features(at, gumbel.last_candidates))
    assert [a.prior for a in gumbel.last_arms] == pytest.approx(logits[gumbel.last_kept].tolist())
    assert all(a.prior == 0.0 for a in plain.last_arms)
    # 8 arms over 3 rounds of 50: 6, 12, 25 samples an arm (48 + 48 + 50 = 146); the plain
    # halving then samples the one arm left 50 times more
    assert sum(a.count for a in gumbel.last_arms) == 146
    assert sum(a.count for a in plain.last_arms) == 196
    assert action in [a.action for a in gumbel.last_arms]


def test_a_lone_arm_is_still_sampled_for_its_value() -> None:
    agent = PriorSearchAgent(net(), seed=0, budget=10, arms=1, halving="gumbel")
    _, value = agent._search(view(), 10, None)
    assert len(agent.last_arms) == 1 and agent.last_arms[0].count == 10
    assert -1.0 <= value <= 1.0


def test_a_halving_the_search_does_not_know_is_refused_by_name(tmp_path) -> None:  # noqa: ANN001
    path = tmp_path / "prior.npz"
    net().save(path)
    with pytest.raises(ValueError, match="halving: one of plain, gumbel, got 'sorted'"):
        PriorSearchAgent(net(), halving="sorted")
    with pytest.raises(AgentSpecError, match="halving"):
        check_agent(f"expert:{path}?halving=sorted")
    agent = make_agent(f"expert:{path}?halving=gumbel&arms=4&budget=20", seed=0)
    assert isinstance(agent, PriorSearchAgent) and agent.gumbel and not agent._sample_last


def test_gumbel_plays_on_after_a_decision_with_no_candidate_shot() -> None:
    agent = PriorSearchAgent(net(), seed=0, budget=16, arms=4, halving="gumbel")
    agent.act(view())
    assert agent._kept_logits  # the last decision's logits
    hanging = view()
    state = hanging.state
    for ball in state.balls_on_table()[1:]:
        state = state.remove(ball)  # one ball left: no candidate shot
    alone = FrameView(state, hanging.frame, 0)
    assert agent._arms(alone) == []  # not the last decision's logits matched to no arm


def test_the_shipped_gumbel_expert_plays_its_measured_settings_unless_told_otherwise() -> None:
    agent = make_agent("expert-gumbel", seed=0)
    assert isinstance(agent, PriorSearchAgent)
    assert (agent.budget, agent.arms, agent.gumbel) == (180, 16, True)
    assert agent.break_shot is not None  # the package's learnt break (the net carries none)
    told = make_agent("expert-gumbel?budget=8,halving=plain", seed=0)
    assert isinstance(told, PriorSearchAgent)
    assert (told.budget, told.arms, told.gumbel) == (8, 16, False)
