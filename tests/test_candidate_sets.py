"""Issue 35: the search's candidate sets (``search?candidates=wide``, ``expert:PATH?candidates=
wide``, ``kinghill train-expert --candidates wide``): the wide set holds the narrow one's shots
and more, its size bounds a decision's, and a set is named or refused by name."""

import pytest
from search_fixture import positions

from kinghill.agents import AgentSpecError, check_agent, make_agent
from kinghill.agents.search import (
    NARROW,
    POT,
    SAFETY,
    WIDE,
    CandidateSet,
    SearchAgent,
    candidate_set,
    candidates,
)
from kinghill.envs import FrameView
from kinghill.experiments.training.expert_iteration import expert_self_play


def view() -> FrameView:
    """A shot decision of the search fixture with eight pots and eight safeties on offer."""
    return dict(positions())[380]


def key(c):  # noqa: ANN001, ANN201
    return (c.kind, c.rank, c.action.shot)


def test_the_wide_set_tries_more_pots_and_safeties_and_every_narrow_pot() -> None:
    at = view()
    narrow, wide = candidates(at), candidates(at, WIDE)
    assert candidates(at, NARROW) == narrow
    assert len(narrow) <= NARROW.most == 41 and len(wide) <= WIDE.most == 75
    assert len(wide) > len(narrow)
    pots = {key(c) for c in narrow if c.kind == POT}
    assert pots <= {key(c) for c in wide if c.kind == POT}
    assert max(c.rank for c in wide if c.kind == POT) > max(c.rank for c in narrow if c.kind == POT)
    safety_steps = {c.speed_step for c in wide if c.kind == SAFETY}
    assert safety_steps == {0, 1, 2}  # 0.6, 1.0 and 1.5 times the planned speed
    slow = [c for c in wide if c.kind == SAFETY and c.speed_step == 0 and c.rank == 0]
    planned = [c for c in wide if c.kind == SAFETY and c.speed_step == 1 and c.rank == 0]
    assert slow[0].action.shot.speed == pytest.approx(0.6 * planned[0].action.shot.speed)


def test_a_set_is_chosen_by_name_and_a_wrong_name_is_refused() -> None:
    assert candidate_set("wide") is WIDE and candidate_set(NARROW) is NARROW
    own = CandidateSet(pots=2, safeties=1)
    assert SearchAgent(candidates=own).shots is own
    with pytest.raises(ValueError, match="candidates: one of narrow, wide, got 'all'"):
        SearchAgent(candidates="all")
    with pytest.raises(AgentSpecError, match="candidates"):
        check_agent("search?candidates=all")
    agent = make_agent("search?candidates=wide&budget=8", seed=0)
    assert isinstance(agent, SearchAgent) and agent.shots is WIDE
    agent.act(view())
    assert len(agent.last_arms) == len(candidates(view(), WIDE))


def test_the_expert_records_every_candidate_of_the_wide_set() -> None:
    data = expert_self_play(None, 0, 1, 8, 0, "wide")
    assert data.features.shape[1] == WIDE.most == data.mask.shape[1]
    assert data.mask.sum(axis=1).max() > NARROW.most  # more shots than the narrow set has
