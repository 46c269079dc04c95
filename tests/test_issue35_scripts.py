"""Issue 35's research scripts in docs/training/position/. The two-level search
(variants.py's ``two_level``): a leave that hands someone a shot is scored by a second guided
search from it, for the player or against them as the next shooter is the player or the
opponent; a finished frame or a 10.4 choice by the hand-made score; the agent plays a legal
decision. The value-target prior (q_selfplay.py): every candidate valued, the best played, and
the fit ranks shots as their means do. The widened refinement (``refine``): at its defaults it
is ``expert-refine``; its grids and its halving do what their names say, and a position net
can score its leaves. The phase leaf
(``PhaseLeaf``): the hand-made score, a chance at the colour alone weighed as asked. The
halving by strata (strata.py): a pot valued from the same samples by its made and missed
ones, its make rate shrunk towards a net's chance, fitted to collected make rates. The
self-play with two targets (backup_selfplay.py): each position's result for its mover and the
search's backed-up value. The common noise drawn as a Latin hypercube (``refine?draws=latin``):
standard normal deviations spread over their quantiles. The refinement's winner on a fitted
surface (``refine?choose=quadratic``): a lucky mean outvoted by its neighbours. The shipped
``expert-position`` (ship_expert_position.py): its file is what the script makes, and it
decides as the variant it ships.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from dataclasses import replace
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from frame_support import midframe

from kinghill.agents.builtins import data_path
from kinghill.agents.prior import (
    N_FEATURES,
    PriorNet,
    PriorPolicyAgent,
    PriorSearchAgent,
    arm_features,
)
from kinghill.agents.search import (
    MAX_SPEED,
    POT,
    REFINE_GRID,
    SAFETY,
    Arm,
    candidates,
    position_value,
)
from kinghill.envs import FrameView, Game, ShotAction
from kinghill.envs.rules import Decision, EndReason, FrameResult
from kinghill.physics import COLOURED, Shot, TableSpec, TableState

SCRIPTS = Path(__file__).resolve().parents[1] / "docs" / "training" / "position"
SMALL = {"budget": 4, "arms": 2, "inner_budget": 6, "inner_arms": 2}


def script(name: str) -> ModuleType:
    """The script ``name``.py of docs/training/position/, imported under its name (so that its
    dataclasses and the functions it hands to worker processes resolve)."""
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def variants() -> ModuleType:
    return script("variants")


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


@pytest.fixture(scope="module")
def q_selfplay() -> ModuleType:
    return script("q_selfplay")


def test_every_candidate_is_valued_and_the_best_played(q_selfplay: ModuleType) -> None:
    """The value-target self-play (q_selfplay.py): each shot decision records every candidate's
    mean of ``n`` noisy outcomes, and plays the best of them."""
    frame, state = midframe()
    view = FrameView(state, frame, 1)
    player = q_selfplay.Exhaustive(0, 3)
    action = player.act(view)
    features, means = player.rows[-1]
    found = candidates(view)
    assert len(means) == len(found) == len(features)
    assert np.all(np.abs(means) <= 1.0)
    assert action == player.prepared(state, found[int(np.argmax(means))])


def test_the_value_prior_learns_which_shot_is_better(q_selfplay: ModuleType) -> None:
    """Fitted to centred means, the net ranks a decision's shots as the means do: on data
    whose mean is the first feature, its best shot is the one with the largest."""
    rng = np.random.default_rng(0)
    n, width = 2560, q_selfplay.WIDTH
    features = rng.uniform(0, 1, (n, width, N_FEATURES)).astype(np.float32)
    mask = np.zeros((n, width), bool)
    mask[:, :20] = True
    means = np.where(mask, features[:, :, 0] - 0.5, 0).astype(np.float32)
    data = q_selfplay.Shots(features, mask, means, np.arange(n))
    net, error, agree = q_selfplay.fit_q(data, hidden=8, epochs=40)
    assert error < 0.01 and agree > 0.5
    row = features[0, :20]
    assert int(np.argmax(net.logits(row))) == int(np.argmax(row[:, 0]))


def test_the_stakes_search_spends_more_where_a_player_is_on_the_colour(
    variants: ModuleType,
) -> None:
    frame, state = midframe()  # player 1 to shoot, needing three whites; player 0 one
    on_colour = replace(frame, credited=((2,), (3, 4, 5)))
    state = state.remove(4).remove(5)
    agent = variants.stakes(0, budget=8, colour_budget=40, arms=2)
    agent.act(FrameView(state, frame, 1))
    assert agent.budget == 8 and sum(a.count for a in agent.last_arms) <= 8
    agent.act(FrameView(state, on_colour, 1))
    assert agent.budget == 40 and sum(a.count for a in agent.last_arms) > 8
    opponent = replace(frame, credited=((2, 3, 4), ()))
    agent.act(FrameView(state, opponent, 1))
    assert agent.budget == 8  # the opponent on the colour counts only with both=true
    both = variants.stakes(0, budget=8, colour_budget=40, arms=2, both="true")
    both.act(FrameView(state, opponent, 1))
    assert both.budget == 40


def test_a_fresh_leaf_is_valued_by_new_samples_of_the_chosen_shot(variants: ModuleType) -> None:
    frame, state = midframe()
    view = FrameView(state, frame, 1)
    inner = PriorSearchAgent(
        PriorNet.load(data_path("expert-gumbel.npz")), 1, 6, 2, halving="gumbel"
    )
    action, chosen_by = inner._search(view, 6, None)
    again = Arm(action)
    inner._score(view, [(again, 5)])
    fresh = variants.two_level(0, **SMALL, fresh=5).leaf(frame, state, 1)
    assert fresh == pytest.approx(again.mean)
    assert fresh != pytest.approx(chosen_by)


def test_the_widened_refinement_at_its_defaults_decides_as_expert_refine(
    variants: ModuleType,
) -> None:
    """``variants:refine`` with its defaults is ``expert-refine``: the same actions, seeded alike
    (the claim its ablation rows in docs/training.md rest on)."""
    from search_fixture import positions

    from kinghill.agents import make_agent

    shots = [(s, v) for s, v in positions() if v.decision is Decision.SHOT][:12]
    shipped, widened = make_agent("expert-refine", 0), variants.refine(0)
    for seed, view in shots:
        shipped.reset(seed)
        widened.reset(seed)
        assert shipped.act(view) == widened.act(view)


def test_the_refinement_with_a_value_scores_its_leaves_by_the_position_net(
    variants: ModuleType,
) -> None:
    """``variants:refine?value=PATH`` is the refined search with :class:`PositionValue` of the
    net at PATH at its leaves, nothing else changed: with the hand-made leaf put back it decides
    as ``expert-refine``; one leaf, not two (``colour`` and ``value`` together are refused)."""
    from search_fixture import positions

    from kinghill.agents import make_agent
    from kinghill.agents.position_value import PositionNet, PositionValue

    path = SCRIPTS / "net-16core.npz"
    agent = variants.refine(0, value=str(path))
    assert isinstance(agent.leaf, PositionValue)
    frame, state = midframe()
    assert agent.leaf(frame, state, 1) == PositionValue(PositionNet.load(path))(frame, state, 1)
    agent.leaf = position_value
    shipped = make_agent("expert-refine", 0)
    for seed, view in [(s, v) for s, v in positions() if v.decision is Decision.SHOT][:6]:
        shipped.reset(seed)
        agent.reset(seed)
        assert shipped.act(view) == agent.act(view)
    with pytest.raises(ValueError, match="one leaf"):
        variants.refine(0, colour=1.0, value=str(path))


def test_expert_position_is_the_equal_time_player_its_file_made_by_ship_expert_position(
    variants: ModuleType, tmp_path: Path
) -> None:
    """The shipped ``expert-position`` is the player measured at equal time,
    ``variants:refine?value=net-16core.npz&arms=12&budget=60&refine_budget=72``: its file is
    what ship_expert_position.py makes of ``expert-gumbel``'s net and ``net-16core`` (array for
    array), and it plays the same actions, seeded alike, as the variant it ships."""
    from search_fixture import positions

    from kinghill.agents import make_agent

    made = tmp_path / "expert-position.npz"
    argv = [str(data_path("expert-gumbel.npz")), str(SCRIPTS / "net-16core.npz"), str(made)]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sys, "argv", ["ship_expert_position.py", *argv])
        script("ship_expert_position").main()
    with np.load(made) as ours, np.load(data_path("expert-position.npz")) as shipped:
        assert sorted(ours.files) == sorted(shipped.files)
        assert all(np.array_equal(ours[k], shipped[k]) for k in ours.files)
    net = str(SCRIPTS / "net-16core.npz")
    measured = variants.refine(0, value=net, arms=12, budget=60, refine_budget=72)
    agent = make_agent("expert-position", 0)
    for seed, view in [(s, v) for s, v in positions() if v.decision is Decision.SHOT][:12]:
        agent.reset(seed)
        measured.reset(seed)
        assert agent.act(view) == measured.act(view)


def test_the_smoothed_refinement_chooses_on_a_surface_fitted_to_its_variants(
    variants: ModuleType,
) -> None:
    """``refine?choose=quadratic`` (or ``shrink``): the winner is the variant where a quadratic
    in speed factor and tip height fitted to the nine means (with half of each mean) is highest,
    so one lucky mean far from the best strokes is outvoted by its neighbours where the best
    mean (``best``) takes it; means that lie on a quadratic give the best of them."""
    shot = ShotAction(Shot(0, 0.0, 2.0))
    strokes = [(1.0, 0.0, 0.0)] + [(1.0 * f, s, 0.0) for f, s in REFINE_GRID]

    def worth(f: float, s: float) -> float:  # best at the slower stroke with some follow
        return 0.4 - 0.01 * ((f - 0.8) / 0.2) ** 2 - 0.01 * ((s - 0.1) / 0.15) ** 2

    true = [worth(f, s) for f, s, _ in strokes]
    lucky = list(true)
    lucky[2] += 0.05  # speed x1.2, no spin: 0.04 below the best, one lucky mean above it
    for choose in ("quadratic", "shrink"):
        agent = variants.refine(0, choose=choose)
        arms = [Arm(shot, total=8 * v, count=8) for v in lucky]
        chosen = arms.index(agent._smoothed(arms, strokes))
        assert chosen != 2 and true[chosen] > max(true) - 0.005, choose
    assert max(range(9), key=lambda k: lucky[k]) == 2  # what the best mean plays
    arms = [Arm(shot, total=8 * v, count=8) for v in true]
    assert variants.refine(0, choose="quadratic")._smoothed(arms, strokes) is arms[6]
    assert max(true) == true[6]
    with pytest.raises(ValueError, match="choose"):
        variants.refine(0, choose="kernel")


@pytest.mark.parametrize("n", [1, 2, 8, 9])
def test_latin_draws_meet_each_of_a_deviations_n_quantile_strata_once(
    variants: ModuleType, n: int
) -> None:
    from scipy.special import ndtr

    draws = variants.latin_normal(np.random.default_rng(n), n)
    assert draws.shape == (n, 4)
    for column in np.floor(ndtr(draws) * n).astype(int).T:
        assert sorted(column.tolist()) == list(range(n))
    rng = np.random.default_rng(7)
    many = np.concatenate([variants.latin_normal(rng, 5) for _ in range(4000)])
    assert np.allclose(many.mean(axis=0), 0.0, atol=0.02)  # 20,000 draws: the s.e. is 0.007
    assert np.allclose(many.std(axis=0), 1.0, atol=0.02)
    assert abs(np.corrcoef(many.T)[0, 1]) < 0.05  # the columns' strata shuffled apart


def test_latin_draws_estimate_a_pot_with_less_luck_and_keep_common_noise_common(
    variants: ModuleType,
) -> None:
    """``refine?draws=latin``: a pot's mean over 8 samples varies less from seed to seed than
    over independent draws, about the same mean; every arm of a batch still meets the same
    luck."""
    from search_fixture import positions

    view = positions()[0][1]
    pot = next(c for c in candidates(view) if c.kind == POT)
    means: dict[str, list[float]] = {"independent": [], "latin": []}
    for way, found in means.items():
        for seed in range(60):
            agent = variants.refine(seed, draws=way)
            arms = [Arm(agent.prepared(view.state, pot)) for _ in range(2)]
            agent._score(view, [(arm, 8) for arm in arms], common=True)
            assert arms[0].total == arms[1].total
            found.append(arms[0].mean)
    independent, other = np.array(means["independent"]), np.array(means["latin"])
    assert abs(other.mean() - independent.mean()) < 3 * independent.std() / np.sqrt(60)
    assert other.var() < 0.7 * independent.var()
    with pytest.raises(ValueError, match="draws"):
        variants.refine(0, draws="sobol")


def test_the_halvings_weight_of_the_mean_against_the_prior_is_the_variants_to_set(
    variants: ModuleType,
) -> None:
    """``refine?c_scale=W``: the Gumbel halving ranks its arms by logit + W-scaled mean; at 0 by
    the prior alone, at the default as ``expert-refine`` (Gumbel MuZero's 1)."""
    assert variants.refine(0).c_scale == 1.0
    agent = variants.refine(0, c_scale=0.0)
    frame, state = midframe()
    shot = candidates(FrameView(state, frame, 1))[0].action
    arms = [Arm(shot, prior=p) for p in (0.5, 2.0, 1.0)]
    for arm, total in zip(arms, (1.0, -1.0, 0.0), strict=True):
        arm.total, arm.count = total, 1
    assert [a.prior for a in agent._ranked(arms)] == [2.0, 1.0, 0.5]
    agent.c_scale = 1.0  # (50 + 1) / 2 a unit of mean outweighs the logits' spread of 1.5
    assert [a.prior for a in agent._ranked(arms)] == [0.5, 1.0, 2.0]


@pytest.mark.parametrize("value_at", ["halving", "refinement"])
def test_the_value_scores_the_leaves_of_the_phase_named(
    variants: ModuleType, value_at: str
) -> None:
    """``value_at=halving``: the position net scores the halving's leaves and the hand-made
    score the refinement's; ``refinement`` the other way round; the agent's leaf is its own
    again after the decision. Naming a phase without a net, or no phase, is refused."""
    from kinghill.agents.position_value import PositionValue

    path = str(SCRIPTS / "net-16core.npz")
    agent = variants.refine(0, budget=16, arms=4, refine_budget=18, value=path, value_at=value_at)
    leaves: list[object] = []
    score = agent._score

    def seen(view: FrameView, work: list[tuple[Arm, int]], common: bool = False) -> int:
        leaves.append(agent.leaf)
        return score(view, work, common)

    agent._score = seen  # type: ignore[method-assign]
    before = agent.leaf
    agent.act(_pot_view())
    learnt = [isinstance(leaf, PositionValue) for leaf in leaves]  # the last: the refinement's
    if value_at == "halving":
        assert all(learnt[:-1]) and leaves[-1] is position_value
    else:
        assert not any(learnt[:-1]) and learnt[-1]
    assert agent.leaf is before
    with pytest.raises(ValueError, match="give value=PATH"):
        variants.refine(0, value_at="halving")
    with pytest.raises(ValueError, match="value_at: one of"):
        variants.refine(0, value=path, value_at="leaves")


def _pot_view() -> FrameView:
    """The first shot decision of the search fixture with a pot among its candidates."""
    from search_fixture import positions

    return next(
        v
        for _, v in positions()
        if v.decision is Decision.SHOT and any(c.kind == POT for c in candidates(v))
    )


def test_the_widened_grids_move_the_stroke_as_named(variants: ModuleType) -> None:
    """``grid=side`` adds side offsets -0.15 and +0.15 (within the miscue limit); ``grid=aim``
    turns the calibrated aim 0.1 degrees either way; the other strokes are the shipped grid's."""
    view = _pot_view()
    side, aim = variants.refine(0, grid="side"), variants.refine(0, grid="aim")
    pot = next(c for c in candidates(view) if c.kind == POT)
    sides = side._variants(view, pot, (1.0, 0.0, 0.0))
    assert len(sides) == len(REFINE_GRID) + 2
    assert [round(a.shot.a, 2) for _, a in sides[-2:]] == [-0.15, 0.15]
    assert all(a.shot.a == 0.0 for _, a in sides[:-2])
    aimed = aim._variants(view, pot, (1.0, 0.0, 0.0))
    calibrated = aim.prepared(view.state, pot).shot.phi
    turns = [np.degrees(a.shot.phi - calibrated) for _, a in aimed[-2:]]
    assert turns == pytest.approx([-0.1, 0.1])
    assert [a for _, a in aimed[:-2]] == [a for _, a in sides[:-2]]


def test_the_widened_refinement_halves_the_chosen_pots_strokes(variants: ModuleType) -> None:
    """With ``halve=true`` the chosen pot and its eight variants share ``refine_budget``
    simulations by successive halving, each round's strokes on the same deviations: nine, then
    four, then the last two; the shot played is one of them."""
    view = _pot_view()
    agent = variants.refine(0, budget=16, arms=4, refine_budget=40, halve="true")
    rounds: list[list[Arm]] = []
    score = agent._score

    def counted(view: FrameView, work: list[tuple[Arm, int]], common: bool = False) -> int:
        rounds.append([arm for arm, _ in work])
        return score(view, work, common)

    agent._score = counted  # type: ignore[method-assign]
    action = agent.act(view)
    assert [len(r) for r in rounds[-3:]] == [9, 4, 2]
    assert action in [arm.action for arm in rounds[-3]]
    assert set(map(id, rounds[-1])) <= set(map(id, rounds[-2])) <= set(map(id, rounds[-3]))


def _safety_refined(variants: ModuleType, refined: bool) -> tuple[Arm, list, Arm]:
    """A safety of the search fixture's first position that has one, the batches that
    ``refine(safeties=refined)``'s refinement of it scored (all under common noise), and the
    arm it played."""
    from search_fixture import positions

    agent = variants.refine(0, arms=0, refine_budget=45, safeties=str(refined).lower())
    view = next(
        v
        for _, v in positions()
        if v.decision is Decision.SHOT and any(c.kind == SAFETY for c in candidates(v))
    )
    arms = agent._arms(view)
    best = arms[[agent.last_candidates[k].kind for k in agent.last_kept].index(SAFETY)]
    work: list[list[tuple[Arm, int]]] = []
    score = agent._score

    def counted(view: FrameView, batch: list[tuple[Arm, int]], common: bool = False) -> int:
        assert common
        work.append(batch)
        return score(view, batch, common)

    agent._score = counted  # type: ignore[method-assign]
    return best, work, agent._widened(view, arms, best)


def test_a_chosen_safety_is_refined_at_the_grids_speeds_and_tip_heights(
    variants: ModuleType,
) -> None:
    """With ``safeties=true`` a safety the halving chose and its eight variants of
    ``REFINE_GRID`` (speed factor, tip height) share ``refine_budget`` simulations evenly under
    the same deviations, and the best of them is played; without, the safety is played as
    chosen."""
    best, work, chosen = _safety_refined(variants, False)
    assert chosen is best and not work
    best, work, chosen = _safety_refined(variants, True)
    (batch,) = work
    field = [arm for arm, _ in batch]
    assert [n for _, n in batch] == [5] * 9 and field[0].action == best.action
    shot = best.action.shot
    for arm, (factor, spin) in zip(field[1:], REFINE_GRID, strict=True):
        assert arm.action.shot.phi == shot.phi and arm.action.call == best.action.call
        assert arm.action.shot.speed == pytest.approx(min(shot.speed * factor, MAX_SPEED))
        assert arm.action.shot.b == pytest.approx(shot.b + spin)
    assert chosen is max(field, key=lambda a: a.mean)


def test_the_phase_leaf_weighs_a_chance_at_the_colour_alone(variants: ModuleType) -> None:
    """``PhaseLeaf(colour)``: at the hand-made weight it is ``position_value`` on every leaf, a
    finished frame included; at ``colour`` the chance of a next shooter who needs only the
    coloured ball counts ``colour`` times, a shooter who needs whites keeps the hand-made
    weight."""
    from kinghill.agents import search

    frame, state = midframe()  # player 1 to shoot, needing whites
    on_colour = replace(frame, credited=((2,), (3, 4, 5)))  # player 1 needs only the colour
    cleared = TableState.of(TableSpec(), {COLOURED: (3.2, 1.5), 1: (2.6, 1.2)})
    won = replace(frame, result=FrameResult(0, EndReason.COLOUR_POTTED))
    leaves = [(frame, state), (on_colour, cleared), (won, state)]
    chance = search._best_chance(cleared, on_colour, 1)
    assert on_colour.whites_needed(1) == 0 and chance > 0
    for me in (0, 1):
        hand_made = search.position_values(leaves, me)
        assert variants.PhaseLeaf(search.POSITION_VALUE).many(leaves, me) == hand_made
        weighed = variants.PhaseLeaf(1.0).many(leaves, me)
        assert weighed[0] == hand_made[0] and weighed[2] == hand_made[2] == (1 if me == 0 else -1)
        full = search._standing(on_colour, me, 1, chance / search.POSITION_VALUE)
        assert weighed[1] == pytest.approx(full) and weighed[1] != pytest.approx(hand_made[1])
    assert isinstance(variants.refine(0, colour=1.0).leaf, variants.PhaseLeaf)


@pytest.fixture(scope="module")
def decision_quality() -> ModuleType:
    return script("decision_quality")


def test_the_quicker_measure_ranks_a_search_above_random_shots(
    decision_quality: ModuleType,
) -> None:
    """``decision_quality.py`` (docs/training.md, "A quicker measure of a shot choice"): an agent
    against itself gains exactly nothing and chooses the same shots; random shots are worth less
    than the search's on the same positions, and a net alone (nothing to seed) chooses better
    than they do; the figures do not depend on the processes."""
    specs = ["search?budget=16", "search?budget=16", "random", "expert-policy"]
    one = decision_quality.measure(specs, frames=1, samples=20, jobs=1)
    two = decision_quality.measure(specs, frames=2, samples=20, jobs=2)
    assert one[1].gain == 0.0 and one[1].same == 1.0
    assert one[2].gain < 0 and two[2].gain < 0
    assert one[3].value > one[2].value and two[3].value > two[2].value
    assert one[0].value == pytest.approx(
        decision_quality.measure(specs[:1], frames=1, samples=20, jobs=1)[0].value
    )
    alone = decision_quality.measure(specs, frames=2, samples=20, jobs=1)
    assert [q.value for q in alone] == [q.value for q in two]


def test_a_shot_is_valued_on_the_same_deviations_whatever_else_is_valued(
    decision_quality: ModuleType,
) -> None:
    """Each shot's value is its mean over the same deviations of the cue: one shot valued alone
    or beside another gets the same number, a shot repeated gets it again, and two shots differ."""
    view = _pot_view()
    first, second = (ShotAction(c.action.shot, c.action.call) for c in candidates(view)[:2])
    both = decision_quality.shot_values(view, [first, second, first], 30, 5)
    assert both[0] == both[2] and both[0] != both[1]
    assert decision_quality.shot_values(view, [first], 30, 5) == [both[0]]
    assert decision_quality.shot_values(view, [second], 30, 5) == [both[1]]


def test_a_shots_outcomes_are_scored_by_the_leaf_asked(decision_quality: ModuleType) -> None:
    """``--value NET``: the same outcomes of a shot (the same deviations) scored by the position
    net instead of the hand-made score, which stays the default."""
    from kinghill.agents.position_value import PositionNet, PositionValue
    from kinghill.agents.search import position_values
    from kinghill.envs.game.loop import Rulings, noisy_outcomes
    from kinghill.physics import NoiseModel

    view = _pot_view()
    action = ShotAction(candidates(view)[0].action.shot, candidates(view)[0].action.call)
    rng = np.random.default_rng(5)
    deviations = rng.standard_normal((30, 4))
    outcomes = noisy_outcomes(
        view.frame, view.state, [action] * 30, rng, NoiseModel(), Rulings(view.frame), deviations
    )
    positions = [(o.frame, o.state) for o in outcomes]
    learnt = PositionValue(PositionNet.load(SCRIPTS / "net-16core.npz"))
    by_net = decision_quality.shot_values(view, [action], 30, 5, learnt)
    by_hand = decision_quality.shot_values(view, [action], 30, 5)
    assert by_net == [pytest.approx(float(np.mean(learnt.many(positions, view.player))))]
    assert by_hand == [pytest.approx(float(np.mean(position_values(positions, view.player))))]
    assert by_net != by_hand


def test_every_calibration_agent_played_search_in_its_report(
    decision_quality: ModuleType,
) -> None:
    """Each agent the quicker measure is calibrated by played the report it names: 2,000
    frames against ``search``, under its own spec (the two shipped agents under the research
    spec they were measured as, the same net and options)."""
    for spec, report in decision_quality.CALIBRATION.items():
        played = json.loads((decision_quality.REPORTS / f"{report}.json").read_text())
        assert "search" in played["agents"] and len(played["agents"]) == 2, report
        assert [a["frames"] for a in played["agents"].values()] == [2000, 2000], report
        if spec not in ("expert-gumbel", "expert-refine"):
            assert spec in played["agents"], report


def test_a_gain_is_set_beside_its_agents_tournament_score(decision_quality: ModuleType) -> None:
    """``--compare`` reads an agent's score against ``search`` and the two times a decision from
    the tournament report it is mapped to; agents with no report are left out."""
    record = {"agents": [{"spec": "side", "gain": 0.01}, {"spec": "unplayed", "gain": 0.02}]}
    (row,) = decision_quality.compare(record, {"side": "r2-side-2000"})
    played = json.loads((decision_quality.REPORTS / "r2-side-2000.json").read_text())["agents"]
    side = played["variants:refine?grid=side&refine_budget=120"]
    assert row["score"] == side["score"]["estimate"] == 0.5545
    assert row["time"] == side["seconds_per_decision"] / played["search"]["seconds_per_decision"]
    assert row["gain"] == 0.01 and row["report"] == "r2-side-2000"


def test_where_the_raw_net_loses_is_measured_on_every_candidate(
    decision_quality: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``raw_net_loss.py`` (docs/training.md, "Where the raw net loses"): the search's column is
    its choice valued as the quicker measure values it; chosen on the outcomes that value them,
    the best candidate would be worth at least any rule's choice and the best stroke of the
    net's shot at least the net's own, so they are chosen on other outcomes, which takes the
    luck of the maximum away; the record pairs each rule with the search."""
    raw_net_loss = script("raw_net_loss")
    net = str(data_path("expert-gumbel.npz"))
    frames = range(decision_quality.FIRST, decision_quality.FIRST + 2)
    table = raw_net_loss.choices(frames, net, 20)
    search, raw, stroke, exact, *mixed, best, same = table.T
    assert len(table) > 3 and set(same) <= {0.0, 1.0}
    assert len(mixed) == len(raw_net_loss.WEIGHTS)
    quality = decision_quality.measure(["search"], frames=2, samples=20)[0]
    assert search.mean() == pytest.approx(quality.value)
    monkeypatch.setattr(raw_net_loss, "CHOOSING", 0)
    lucky = raw_net_loss.choices(frames, net, 20)
    assert np.all(lucky[:, -2] >= lucky[:, :-2].max(axis=1)) and np.all(lucky[:, 2] >= raw)
    assert lucky[:, -2].mean() > best.mean() and np.array_equal(lucky[:, :2], table[:, :2])
    monkeypatch.undo()
    record = raw_net_loss.measure(2, net, samples=20)
    assert [r["rule"] for r in record["rules"]][:2] == ["search", "raw"]
    assert record["rules"][0]["gain"] == 0.0 and record["positions"] == len(table)
    assert record["rules"][1]["gain"] == pytest.approx(raw.mean() - search.mean())


@pytest.fixture(scope="module")
def raw_net_loss(decision_quality: ModuleType) -> ModuleType:
    return script("raw_net_loss")


@pytest.fixture(scope="module")
def stroke_net(raw_net_loss: ModuleType) -> ModuleType:
    return script("stroke_net")


def test_a_stroke_seen_in_a_mirror_has_the_same_features(stroke_net: ModuleType) -> None:
    """The stroke net's input turns the table so that the cue ball lies in its first quarter:
    a position and stroke mirrored about either centre line (the aim, the pot's heading and the
    side spin mirrored with it) read the same; the other balls come nearest the object ball
    first, and a ball off the table is read as absent."""
    spec = TableSpec()
    rng = np.random.default_rng(3)
    places = np.column_stack([rng.uniform(0.1, 1.6, 8), rng.uniform(0.1, 0.8, 8)])
    places[5] = np.nan  # potted
    arms = rng.uniform(size=(1, N_FEATURES))
    shot = np.array([[1, 2, 0.7, 3.0, 0.1, -0.2, 0.4]])
    mirrors = [
        (np.column_stack([places[:, 0], spec.width - places[:, 1]]), lambda t: -t),
        (np.column_stack([spec.length - places[:, 0], places[:, 1]]), lambda t: np.pi - t),
    ]
    plain = stroke_net.features(arms, places[None], shot)
    for mirrored, turn in mirrors:
        flipped = shot.copy()
        flipped[0, 2], flipped[0, 6], flipped[0, 4] = (
            turn(shot[0, 2]),
            turn(shot[0, 6]),
            -shot[0, 4],
        )
        assert np.allclose(stroke_net.features(arms, mirrored[None], flipped), plain, atol=1e-6)
    others = plain[0, N_FEATURES + 11 :].reshape(-1, 4)
    distances = np.linalg.norm(places[[0, 3, 4, 6, 7]] - places[2], axis=1)
    assert np.allclose(
        others[:5, 0] * spec.length, places[[0, 3, 4, 6, 7]][np.argsort(distances), 0]
    )
    assert others[:5, 2].all() and not others[5].any()  # the potted ball last, absent
    assert others[:5, 3].sum() == 1  # the coloured ball (0) marked


def test_the_stroke_net_is_fitted_to_which_stroke_of_a_pot_is_better(
    stroke_net: ModuleType, tmp_path: Path
) -> None:
    """Collected strokes come six a pot with their values; the fitted net's values, centred on
    each pot's strokes, sum to nothing a pot, survive a save and a load, and in ``stroke_prior``
    move each pot's strokes' logits by its weight times those values, the prior's otherwise."""
    data = stroke_net.collect(range(5000, 5003), 6)
    assert len(data["x"]) % stroke_net.STROKES == 0 and len(data["x"]) == len(data["y"])
    net, report = stroke_net.fit(data, hidden=(8,), epochs=2)
    assert report["pots_fitted"] > 0 and report["pots_held_out"] > 0  # frame 5000 held out
    net.save(tmp_path / "n.npz")
    loaded = stroke_net.StrokeNet.load(tmp_path / "n.npz")
    assert np.array_equal(loaded.values(data["x"]), net.values(data["x"]))
    view = _pot_view()
    found = candidates(view)
    pots = [c for c in found if c.kind == POT]
    centred = loaded.centred(view, pots)
    for rank in {c.rank for c in pots}:
        assert abs(sum(v for v, c in zip(centred, pots, strict=True) if c.rank == rank)) < 1e-5
    agent = stroke_net.stroke_prior(0, str(tmp_path / "n.npz"))
    moved = agent._logits(view, found) - agent.net.logits(arm_features(view, found))
    at = [j for j, c in enumerate(found) if c.kind == POT]
    assert np.allclose(moved[at], stroke_net.WEIGHT * centred, atol=1e-5)
    assert not np.any(moved[[j for j in range(len(found)) if j not in at]])
    assert isinstance(agent.act(view), ShotAction)
    policy = stroke_net.stroke_policy(0, str(tmp_path / "n.npz"))
    raw, chosen = PriorPolicyAgent.choose(policy, view, found), policy.choose(view, found)
    assert found[raw].kind == POT and (found[chosen].kind, found[chosen].rank) == (
        POT,
        found[raw].rank,
    )
    assert centred[at.index(chosen)] == max(
        c for c, j in zip(centred, at, strict=True) if found[j].rank == found[raw].rank
    )
    assert isinstance(policy.act(view), ShotAction)


def test_the_stroke_nets_player_is_valued_as_the_raw_nets_loss_values_shots(
    stroke_net: ModuleType, tmp_path: Path
) -> None:
    """``stroke_net.py evaluate`` pairs the search's choice and the raw net's with the stroke
    net's player on the same values as ``raw_net_loss.py``: the first two columns are its."""
    net, _ = stroke_net.fit(stroke_net.collect(range(5000, 5003), 6), hidden=(8,), epochs=1)
    net.save(tmp_path / "n.npz")
    frames = range(stroke_net.FIRST, stroke_net.FIRST + 2)
    table = stroke_net._evaluated(frames, str(tmp_path / "n.npz"), 20)
    losses = script("raw_net_loss").choices(frames, str(data_path("expert-gumbel.npz")), 20)
    assert np.array_equal(table[:, :2], losses[:, :2])


@pytest.fixture(scope="module")
def strata(variants: ModuleType, stroke_net: ModuleType) -> ModuleType:
    return script("strata")


def test_a_pots_value_by_strata_shrinks_its_make_rate_towards_the_chance(
    strata: ModuleType,
) -> None:
    """The strata estimate: with no weight on the chance and the decision's strata as the
    arm's, it is the arm's mean; with a great weight, the chance times the made mean plus the
    rest times the missed; one missed sample of a likely pot is not read as a lost shot."""
    row = np.array([2, 0.8, 2, -0.4])  # two made (0.4 each), two missed (-0.2 each)
    assert strata.stratified(row, row, 0.9, 0.0) == pytest.approx(0.1)
    assert strata.stratified(row, row, 0.9, 1e9) == pytest.approx(0.9 * 0.4 + 0.1 * -0.2)
    one_miss = np.array([0, 0.0, 1, -0.3])
    pooled = np.array([5, 2.0, 5, -1.0])  # made 0.4, missed -0.2 on average
    rate = 16 * 0.8 / 17
    expected = rate * 0.4 + (1 - rate) * (-0.3 - 0.2) / 2
    assert strata.stratified(one_miss, pooled, 0.8, 16.0) == pytest.approx(expected)
    assert expected > 0.2  # the plain mean would be -0.3


def test_the_strata_agent_estimates_the_halvings_pots_from_the_same_samples(
    strata: ModuleType, variants: ModuleType
) -> None:
    """A round of the strata agent's halving plays the samples the plain refined search plays
    (seeded alike): each pot arm's value is :func:`stratified` of its made and missed samples,
    whether a sample made it being the referee's credit; a safety keeps its mean. Without a
    make net's file the player is refused."""
    view = _pot_view()
    net = str(SCRIPTS / "make-net.npz")
    agent = strata.refine_strata(0, net=net, budget=16, arms=4, refine_budget=18)
    plain = variants.refine(0, budget=16, arms=4, refine_budget=18)
    arms, twins = agent._arms(view), plain._arms(view)
    agent._strata = {}
    agent._score(view, [(a, 3) for a in arms], common=True)
    plain._score(view, [(a, 3) for a in twins], common=True)
    pooled = np.sum(list(agent._strata.values()), axis=0)
    for arm, twin in zip(arms, twins, strict=True):
        row = agent._strata[id(arm)]
        assert row[0] + row[2] == arm.count == twin.count == 3
        assert row[1] + row[3] == pytest.approx(twin.total)
        chance = agent._chance.get(id(arm))
        if chance is None or pooled[0] == 0 or pooled[2] == 0:
            assert arm.mean == pytest.approx(twin.mean)
        else:
            assert arm.mean == pytest.approx(strata.stratified(row, pooled, chance, agent.alpha))
    assert isinstance(agent.act(view), ShotAction)
    assert agent._strata is None  # between decisions, and in the refinement, plain means
    with pytest.raises(ValueError, match="make net"):
        strata.refine_strata(0)


def test_a_sample_made_it_when_the_referee_credited_its_pot(strata: ModuleType) -> None:
    """:func:`made` reads a pot from the frames before and after a shot: a white credited to
    the shooter or the frame won; it agrees with the referee's ruling on noisy outcomes."""
    from kinghill.envs.game.loop import noisy_outcomes
    from kinghill.physics import NoiseModel

    view = _pot_view()
    agent = strata.refine_strata(0, net=str(SCRIPTS / "make-net.npz"))
    pot = next(c for c in candidates(view) if c.kind == POT)
    action = agent.prepared(view.state, pot)
    outcomes = noisy_outcomes(
        view.frame, view.state, [action] * 40, np.random.default_rng(1), NoiseModel()
    )
    found = [strata.made(view.frame, o.frame, view.player) for o in outcomes]
    ruled = [bool(o.ruling.credited) or o.ruling.legal_colour_pot for o in outcomes]
    assert found == ruled and any(found)


def test_the_make_net_is_fitted_to_the_pots_make_rates(strata: ModuleType, tmp_path: Path) -> None:
    """Collected pots come with the prior's features and a make rate in [0, 1]; the fitted
    net's chances survive a save and a load and are probabilities; its report compares it with
    the planner's chance on the held-out frames."""
    data = strata.collect(range(5000, 5003), 4)
    assert data["x"].shape[1] == N_FEATURES and len(data["x"]) == len(data["y"])
    assert ((data["y"] >= 0) & (data["y"] <= 1)).all() and set(data["frame"]) <= {5000, 5001, 5002}
    net, report = strata.fit(data, hidden=(8,), epochs=2)
    assert report["pots_fitted"] > 0 and report["pots_held_out"] > 0  # frame 5000 held out
    net.save(tmp_path / "m.npz")
    chances = strata.MakeNet.load(tmp_path / "m.npz").chances(data["x"])
    assert np.array_equal(chances, net.chances(data["x"]))
    assert ((chances > 0) & (chances < 1)).all()
    assert {"held_out_mse", "planner_chance_mse", "held_out_variance"} <= set(report)


@pytest.fixture(scope="module")
def budget_where(decision_quality: ModuleType, variants: ModuleType) -> ModuleType:
    return script("budget_where")


def test_a_budget_set_by_where_it_pays_is_bounded_by_the_spread_of_the_gains(
    budget_where: ModuleType,
) -> None:
    """Equal gains everywhere: nothing to move. Two equal groups gaining 1 and 3 at e times the
    budget: budgets 1/2 and 3/2 of the even one buy (log 1/2 + 3 log 3/2) / 4 of the gain."""
    groups = np.array([0, 0, 1, 1])
    assert budget_where.bound(np.full(4, 0.01), groups, 2.5) == pytest.approx(0.0)
    gains = np.array([1.0, 1.0, 3.0, 3.0])
    expected = (np.log(0.5) + 3 * np.log(1.5)) / 4
    assert budget_where.bound(gains, groups, np.e) == pytest.approx(expected)


def test_the_statistics_read_the_halvings_arms(budget_where: ModuleType) -> None:
    """The spread of the sampled arms' means, the lead among the last round's, the mean of the
    most sampled arm."""
    action = _pot_view().frame  # any object: the statistics read only totals and counts
    arms = [Arm(action, 0.9, 3), Arm(action, 0.6, 3), Arm(action, 0.5, 1), Arm(action, 0.0, 0)]
    assert budget_where.spread(arms) == pytest.approx(np.std([0.3, 0.2, 0.5]))
    assert budget_where.gap(arms) == pytest.approx(0.3 - 0.2)
    assert budget_where.best(arms) == pytest.approx(0.3)
    assert budget_where.gap(arms[:1]) == 1.0 and budget_where.spread([]) == 0.0


def test_the_dear_settings_gain_is_split_by_what_the_cheap_search_saw(
    budget_where: ModuleType,
) -> None:
    """On two frames' positions: every statistic's quarters hold every position, their gains
    average to the whole gain, and the dear setting took longer."""
    record = budget_where.measure(2, 1)
    n = record["positions"]
    assert n > 4 and record["time_ratio"] > 1
    for found in record["statistics"].values():
        parts = found["quarters"]
        assert sum(q["positions"] for q in parts) == n
        total = sum(q["gain"] * q["positions"] for q in parts) / n
        assert total == pytest.approx(record["gain"])


@pytest.fixture(scope="module")
def backup_selfplay() -> ModuleType:
    module = script("backup_selfplay")
    module.SHARD = 2  # two frames a shard: the shape of the output, not its size
    return module


def test_self_play_keeps_each_position_with_its_result_and_backed_up_value(
    backup_selfplay: ModuleType,
) -> None:
    """Each shot position keeps the frame's result for its mover (the winner's positions 1, the
    loser's 0) and the kept arm's mean as a chance (1 where every sample won the frame)."""
    positions, backed = backup_selfplay.play((11, "search?budget=8"))
    assert len(positions) == len(backed) > 4
    assert set(np.unique(positions.results)) <= {0.0, 0.5, 1.0}
    assert ((backed >= 0) & (backed <= 1)).all() and len(np.unique(backed)) > 2
    for frame in np.unique(positions.frames):
        mine = positions.frames == frame
        assert set(np.unique(positions.results[mine])) in ({0.0, 1.0}, {0.5}, {0.0}, {1.0})
    # the kept arm's value follows the result: positions whose mover won were valued higher
    won, lost = positions.results == 1.0, positions.results == 0.0
    assert backed[won].mean() > backed[lost].mean()


@pytest.fixture(scope="module")
def chance_features() -> ModuleType:
    return script("chance_features")


@pytest.mark.parametrize("needed", [(2, 1), (0, 3), (1, 0)])
def test_the_ball_by_ball_chances_have_the_best_chance_as_their_best(
    chance_features: ModuleType, needed: tuple[int, int]
) -> None:
    """Each player's chances ball by ball are at its own target only (a player needing no
    white: the coloured ball alone), and the best of them is the position net's chance
    feature for that player."""
    from kinghill.agents.position_value import Positions, chances

    rng = np.random.default_rng(5)
    spec = TableSpec()
    places = rng.uniform([0.2, 0.2], [spec.length - 0.2, spec.width - 0.2], size=(6, 8, 2))
    on = np.ones((6, 8), bool)
    on[:, 4] = False
    positions = Positions(places, on, np.array([needed] * 6), np.zeros((6, 2)))
    found = chance_features.target_chances(positions, spec)
    assert found.shape == (6, 2, 8) and (found[:, :, 4] == 0).all()
    whites = [ball for ball in range(8) if ball != COLOURED]
    for side in range(2):
        target, other = ([COLOURED], whites) if needed[side] == 0 else (whites, [COLOURED])
        assert (found[:, side, other] == 0).all() and (found[:, side, target] > 0).any()
    assert np.allclose(found.max(axis=2), chances(positions, spec))
    rows = chance_features.chance_features(found)
    assert rows.shape == (6, 10)
    assert np.allclose(rows[:, [0, 3]], found.max(axis=2))
    assert ((rows[:, 6:] >= 0) & (rows[:, 6:] <= 1)).all()
