"""Variants of the search for the ablations of docs/training.md (issue 35): each is a search with
a candidate set or a leaf of its own: a tournament's agent process hosts one seat's agent, then
the other's when the seats swap, so a variant that changed the search's module would change its
opponent too (as the variants measured before 2026-12-04 20:00 did). Played as plug-in agents:

    PYTHONPATH=docs/training/position kinghill tournament \\
        --agents "variants:wide?pots=8" search --frames 400 --seed 1000 --jobs 2 --out DIR

Lists of factors are written with ``_`` between them (``,`` separates options). ``phase`` is
the hand-made leaf with the pot chance weighed by what its shooter needs; ``guided_position``
the prior-guided search (``expert``) with the position net at its leaves; ``two_level`` the
guided search whose leaves are scored by a second guided search (two levels of planning);
``stakes`` the guided search with more simulations where a player needs only the colour;
``refine`` the ``expert-refine`` search with its refinement widened (other grids, a halving
among the variants, more pots, more steps; ``?value=PATH``: a position net at its leaves,
``&value_at=halving`` or ``refinement`` at one phase's only; ``&safeties=true``: a chosen
safety refined too; ``&draws=latin``: the common noise drawn as a Latin hypercube;
``&choose=quadratic`` or ``shrink``: the refinement's winner chosen on a fitted surface);
``refine_phase`` ``expert-refine`` with ``phase``'s leaf (``PhaseLeaf``, batched).
Common random numbers and the chosen pot refined are the search's own options
(``?common_noise=true``, ``?refine=N``).
"""

import math
from collections.abc import Sequence
from dataclasses import replace

import numpy as np
from scipy.special import ndtri

import kinghill.agents.search as search
from kinghill.agents import make_agent
from kinghill.agents.builtins import data_path
from kinghill.agents.position_value import PositionNet, PositionValue
from kinghill.agents.prior import GUMBEL_C_SCALE, PriorNet, PriorSearchAgent
from kinghill.envs import Action, FrameView, ShotAction
from kinghill.envs.planning.candidates import best_chances
from kinghill.envs.rules import Decision, Frame
from kinghill.physics import N_BALLS, TableState


def _floats(text: str) -> tuple[float, ...]:
    return tuple(float(x) for x in text.split("_"))


def wide(
    seed: int | None = None,
    pots: int = search.NARROW.pots,
    safeties: int = search.NARROW.safeties,
    safety_speeds: str = "1.0_1.5",
    speeds: str = "1.0_1.4",
    spins: str = "0.0_-0.3_0.3",
    budget: int = search.DEFAULT_BUDGET,
) -> search.SearchAgent:
    """``search`` over ``pots`` pots, each at ``speeds`` (factors) and ``spins`` (tip height
    changes), and ``safeties`` safeties at ``safety_speeds``, ``budget`` simulations a decision
    (``pots=8&safeties=8&safety_speeds=0.6_1.0_1.5`` is ``search?candidates=wide``)."""
    shots = search.CandidateSet(
        pots=int(pots),
        safeties=int(safeties),
        safety_speeds=_floats(str(safety_speeds)),
        speeds=_floats(str(speeds)),
        spins=_floats(str(spins)),
    )
    return search.SearchAgent(seed, int(budget), candidates=shots)


def phase(
    seed: int | None = None, colour: float = 1.0, budget: int = search.DEFAULT_BUDGET
) -> search.SearchAgent:
    """``search`` whose hand-made leaf weighs the next shooter's pot chance by ``colour``
    instead of ``search.POSITION_VALUE`` when that player needs only the coloured ball (a chance
    at the colour ends the frame; a chance at a white is one white of three). The leaf is the
    agent's own: its opponent in the same process keeps the hand-made one."""
    scale = float(colour) / search.POSITION_VALUE

    def leaf(frame: Frame, state: TableState, me: int) -> float:
        if frame.result is not None:
            return search.position_value(frame, state, me)
        mover = frame.to_move
        chance = search._best_chance(state, frame, mover)
        # the hand-made score is linear in the chance: scaling it weighs it by ``colour``
        if frame.whites_needed(mover) == 0:
            chance *= scale
        return search._standing(frame, me, mover, chance)

    return search.SearchAgent(seed, int(budget), leaf=leaf)


def guided_position(
    seed: int | None = None,
    prior: str = "docs/training/position/distilled-1920.npz",
    value: str = "",
    budget: int = 120,
    arms: int = 8,
) -> search.SearchAgent:
    """The search guided by the prior net at ``prior`` over its ``arms`` best shots, its leaves
    scored by the position net at ``value`` (default: the shipped one)."""
    net = PositionNet.load(value) if value else PositionNet.load(data_path("position.npz"))
    agent = PriorSearchAgent(PriorNet.load(prior), seed, int(budget), int(arms))
    agent.leaf = PositionValue(net)
    return agent


def _prior(path: str) -> PriorNet:
    """The prior net at ``path``, or the shipped ``expert-gumbel``'s where ``path`` is empty."""
    return PriorNet.load(path or data_path("expert-gumbel.npz"))


class SearchLeaf:
    """A leaf scored by a second, smaller search: where the simulated shot leaves a shot to play,
    the guided search ``inner`` looks for the next shooter's best shot (sampled under noise), and
    its value counts for the leaf (for or against ``me``, as the next shooter is ``me`` or not);
    a result or a 10.4 choice is scored by the hand-made score. Two levels of planning, the
    prior narrowing both. With ``fresh`` the value is the mean of that many new samples of the
    shot the second search chose, not of the samples it chose by (which favour the chosen)."""

    def __init__(self, inner: PriorSearchAgent, fresh: int = 0) -> None:
        self.inner = inner
        self.fresh = fresh

    def __call__(self, frame: Frame, state: TableState, me: int) -> float:
        if frame.result is not None or frame.decision is not Decision.SHOT:
            return search.position_value(frame, state, me)
        mover = frame.to_move
        view = FrameView(state, frame, mover)
        action, value = self.inner._search(view, self.inner.budget, None)
        if self.fresh and self.inner.last_arms:  # not the fallback of a table with no shot
            chosen = search.Arm(action)
            self.inner._score(view, [(chosen, self.fresh)])
            value = chosen.mean
        return value if mover == me else -value


def two_level(
    seed: int | None = None,
    prior: str = "",
    budget: int = 48,
    arms: int = 6,
    inner_budget: int = 16,
    inner_arms: int = 4,
    fresh: int = 0,
) -> search.SearchAgent:
    """The prior-guided search (Gumbel halving) over its ``arms`` best shots with ``budget``
    simulations, each leaf scored by a guided search over the next shooter's ``inner_arms``
    best shots with ``inner_budget`` simulations and valued by ``fresh`` new samples of its
    choice where ``fresh`` > 0 (:class:`SearchLeaf`); ``prior`` defaults to
    the shipped ``expert-gumbel`` net."""
    net = _prior(prior)
    inner = PriorSearchAgent(
        net,
        None if seed is None else seed + 1,
        int(inner_budget),
        int(inner_arms),
        halving="gumbel",
    )
    agent = PriorSearchAgent(net, seed, int(budget), int(arms), halving="gumbel")
    agent.leaf = SearchLeaf(inner, int(fresh))
    return agent


class StakesSearchAgent(PriorSearchAgent):
    """The guided search spending ``colour_budget`` simulations where a player needs only the
    coloured ball (a shot that can end the frame, or leave it to the opponent) and its budget
    elsewhere."""

    def __init__(self, net: PriorNet, seed: int | None, budget: int, colour_budget: int,
                 arms: int, both: bool) -> None:  # fmt: skip
        super().__init__(net, seed, budget, arms, halving="gumbel")
        self.base_budget, self.colour_budget, self.both = budget, colour_budget, both

    def act(self, view: FrameView) -> Action:
        frame = view.frame
        on_colour = frame.whites_needed(view.player) == 0
        if self.both:
            on_colour = on_colour or frame.whites_needed(1 - view.player) == 0
        self.budget = self.colour_budget if on_colour else self.base_budget
        return super().act(view)


def stakes(
    seed: int | None = None,
    prior: str = "",
    budget: int = 120,
    colour_budget: int = 480,
    arms: int = 16,
    both: bool = False,
) -> search.SearchAgent:
    """:class:`StakesSearchAgent` with the prior at ``prior`` (default: ``expert-gumbel``'s);
    ``both``: the larger budget also where the opponent needs only the colour."""
    net = _prior(prior)
    flag = both if isinstance(both, bool) else str(both).lower() == "true"
    return StakesSearchAgent(net, seed, int(budget), int(colour_budget), int(arms), flag)


GRIDS: dict[str, tuple[tuple[float, ...], ...]] = {
    "fine": search.REFINE_GRID,
    "side": (*search.REFINE_GRID, (1.0, 0.0, -0.15), (1.0, 0.0, 0.15)),
    "cube": tuple(
        (f, s, a)
        for f in (0.8, 1.0, 1.2)
        for s in (-0.15, 0.0, 0.15)
        for a in (-0.15, 0.0, 0.15)
        if (f, s, a) != (1.0, 0.0, 0.0)
    ),
    "four": ((0.8, 0.0), (1.2, 0.0), (1.0, -0.15), (1.0, 0.15)),
    "speed": ((0.7, 0.0), (0.85, 0.0), (1.15, 0.0), (1.3, 0.0)),
    "aim": (*search.REFINE_GRID, (1.0, 0.0, 0.0, -0.1), (1.0, 0.0, 0.0, 0.1)),
    "aim2": (
        *search.REFINE_GRID,
        *((1.0, 0.0, 0.0, degrees) for degrees in (-0.06, 0.06, -0.12, 0.12)),
    ),
}
"""Grids of refinement: each variant (factor on the speed, change of the tip's height[, change
of the side offset[, change of the aim in degrees, after the aim's calibration]])."""

Stroke = tuple[float, float, float]
"""A pot's stroke as refinement moves it: (speed factor, tip height change, side offset)."""


class RefineSearchAgent(PriorSearchAgent):
    """``expert-refine`` with its refinement widened: the variants of ``grid`` (side spin, aim
    offsets, other steps), the ``top`` pots the halving sampled most (not only the one it
    chose), a successive halving among the variants (``halve``; each round's arms under the
    same deviations) with ``refine_budget`` simulations in all, and ``steps`` rounds around the
    variant chosen; with ``safeties`` a safety the halving chose is refined too, at the speeds
    and tip heights of :data:`search.REFINE_GRID`. With the defaults it decides as
    ``expert-refine`` does. ``refine_leaf``,
    where set, scores the refinement's leaves instead of :attr:`leaf` (a learnt value in one
    phase of the decision only)."""

    refine_leaf: search.LeafValue | None = None
    draws: str = "independent"
    choose: str = "best"
    """How the refinement's winner is chosen: ``best`` mean, or by :meth:`_smoothed`."""
    """How a batch's common deviations of the cue are drawn: one of :data:`DRAWS`."""

    def _deviations(self, n: int) -> np.ndarray:
        if self.draws == "latin":
            return latin_normal(self.rng, n)
        return super()._deviations(n)

    def __init__(
        self,
        net: PriorNet,
        seed: int | None,
        budget: int,
        arms: int,
        grid: str,
        refine_budget: int,
        top: int,
        steps: int,
        halve: bool,
        safeties: bool = False,
    ) -> None:
        # refine=1 only turns the search's refinement step on; _refined below spends refine_budget
        super().__init__(net, seed, budget, arms, halving="gumbel", refine=1, common_noise=True)
        self.grid = GRIDS[grid]
        self.refine_budget, self.top, self.steps, self.halve = refine_budget, top, steps, halve
        self.safeties = safeties

    def _variants(
        self, view: FrameView, pot: search.Candidate, stroke: Stroke
    ) -> list[tuple[Stroke, ShotAction]]:
        """The grid's variants of ``pot`` played at ``stroke``, their aim calibrated, then
        turned by the grid's aim change."""
        assert pot.pot is not None
        planned = search.pot_action(pot.pot)
        speed, spin, side = stroke
        moved: list[tuple[Stroke, search.Candidate, float]] = []
        for step in self.grid:
            f, s, a, degrees = (*step, 0.0, 0.0)[:4]
            action = search._variant(planned, speed * f, spin + s)
            limit = math.sqrt(search.MISCUE_LIMIT**2 - action.shot.b**2)
            to = min(max(side + a, -limit), limit)
            shot = action.shot
            action = replace(action, shot=replace(shot, a=to))
            candidate = search.Candidate(action, pot.pot, search.POT, pot.rank)
            moved.append(((speed * f, spin + s, to), candidate, math.radians(degrees)))
        played = self.prepared_all(view.state, [c for _, c, _ in moved])
        return [
            (stroke, search._reshot(a, a.shot.phi + turn, a.shot.speed, a.shot.b))
            for (stroke, _, turn), a in zip(moved, played, strict=True)
        ]

    def _refined(self, view: FrameView, arms: list[search.Arm], best: search.Arm) -> search.Arm:
        leaf = self.leaf
        self.leaf = self.refine_leaf or leaf
        try:
            return self._widened(view, arms, best)
        finally:
            self.leaf = leaf

    def _widened(self, view: FrameView, arms: list[search.Arm], best: search.Arm) -> search.Arm:
        """The widened refinement of ``best`` (one of ``arms``), as the class says."""
        kinds = {id(a): self.last_candidates[self.last_kept[k]] for k, a in enumerate(arms)}
        if kinds[id(best)].kind == search.SAFETY and self.safeties:
            variants = (search._variant(best.action, f, s) for f, s in search.REFINE_GRID)
            return self._halved(view, [search.Arm(best.action), *map(search.Arm, variants)])
        if kinds[id(best)].kind != search.POT or kinds[id(best)].pot is None:
            return best
        pots = [(best, kinds[id(best)])]
        for arm in sorted(arms, key=lambda a: (a.count, a.mean), reverse=True):
            kind = kinds[id(arm)]
            if len(pots) < self.top and arm is not best and kind.kind == search.POT:
                pots.append((arm, kind))
        field: list[search.Arm] = []
        strokes: dict[int, tuple[search.Candidate, Stroke]] = {}
        for arm, pot in pots:
            field.append(search.Arm(arm.action))
            strokes[id(field[-1])] = pot, (self.shots.speeds[pot.speed_step], pot.spin_step, 0.0)
            field += self._grown(view, pot, strokes[id(field[-1])][1], strokes)
        for step in range(self.steps):
            winner = self._halved(view, field)
            if self.choose != "best":
                winner = self._smoothed(field, [strokes[id(a)][1] for a in field])
            if step + 1 < self.steps:
                pot, stroke = strokes[id(winner)]
                field = [winner, *self._grown(view, pot, stroke, strokes)]
        return winner

    def _smoothed(self, field: list[search.Arm], strokes: list[Stroke]) -> search.Arm:
        """The arm of ``field`` whose mean, smoothed by a quadratic surface in speed factor and
        tip height fitted to all of the field's means (least squares, weighted by count), is
        best: ``quadratic`` takes the surface's value, ``shrink`` half the surface's and half
        the arm's own mean (a choice among close variants under less of the samples' luck)."""
        base_speed, base_spin = strokes[0][0], strokes[0][1]
        x = np.array([s[0] / base_speed - 1.0 for s in strokes]) / 0.2
        y = np.array([s[1] - base_spin for s in strokes]) / 0.15
        design = np.stack([np.ones_like(x), x, y, x * x, y * y, x * y], axis=1)
        means = np.array([a.mean for a in field])
        weights = np.sqrt(np.array([a.count for a in field], float))
        if len(field) < design.shape[1] or not np.all(np.isfinite(means)):
            return max(field, key=lambda a: a.mean)
        coef = np.linalg.lstsq(design * weights[:, None], means * weights, rcond=None)[0]
        fitted = design @ coef
        scores = fitted if self.choose == "quadratic" else 0.5 * (fitted + means)
        return field[int(np.argmax(scores))]

    def _grown(
        self,
        view: FrameView,
        pot: search.Candidate,
        stroke: Stroke,
        strokes: dict[int, tuple[search.Candidate, Stroke]],
    ) -> list[search.Arm]:
        """Arms for the variants of ``pot`` at ``stroke``, each's stroke kept in ``strokes``."""
        grown = []
        for moved, action in self._variants(view, pot, stroke):
            grown.append(search.Arm(action))
            strokes[id(grown[-1])] = pot, moved
        return grown

    def _halved(self, view: FrameView, field: list[search.Arm]) -> search.Arm:
        """The best of ``field`` after :attr:`refine_budget` simulations under common noise:
        spread evenly, or by successive halving down to two arms."""
        if not self.halve:
            self._score(view, [(a, max(1, self.refine_budget // len(field))) for a in field], True)
            return max(field, key=lambda a: a.mean)
        rounds = max(1, math.ceil(math.log2(len(field))))
        left = list(field)
        while True:
            n = max(1, (self.refine_budget // rounds) // len(left))
            self._score(view, [(a, n) for a in left], common=True)
            left.sort(key=lambda a: a.mean, reverse=True)
            if len(left) <= 2:
                return left[0]
            left = left[: max(2, len(left) // 2)]


def _flag(value: bool | str) -> bool:
    """A spec's ``true``/``false`` (or a bool given in Python)."""
    return value if isinstance(value, bool) else str(value).lower() == "true"


DRAWS = ("independent", "latin")
"""How ``refine``'s common deviations of the cue are drawn: independently (the search's own
way) or as a Latin hypercube (:func:`latin_normal`)."""


def latin_normal(rng: np.random.Generator, n: int) -> np.ndarray:
    """``n`` standard-normal deviations of the cue (rows: phi, speed, a, b) as a randomised
    Latin hypercube: in each column one draw from each of the ``n`` equal-probability strata of
    the normal, the strata shuffled column by column. Each draw is a standard normal, so a mean
    over them is unbiased; over a shot whose outcome turns on one deviation (a pot on its aim)
    it varies less than a mean over independent draws."""
    strata = rng.permuted(np.tile(np.arange(n), (4, 1)), axis=1).T
    shares = (strata + rng.random((n, 4))) / n
    return ndtri(np.clip(shares, 2.0**-53, 1.0 - 2.0**-53))  # never a share of 0 or 1 (+-inf)


VALUE_AT = ("all", "halving", "refinement")
"""Where ``refine``'s ``value`` scores the leaves: everywhere, in the halving, in the
refinement."""


def refine(
    seed: int | None = None,
    prior: str = "",
    budget: int = 60,
    arms: int = 16,
    grid: str = "fine",
    refine_budget: int = 108,
    top: int = 1,
    steps: int = 1,
    halve: bool = False,
    colour: float = 0.0,
    value: str = "",
    value_at: str = "all",
    agent_class: type[RefineSearchAgent] = RefineSearchAgent,
    safeties: bool = False,
    draws: str = "independent",
    c_scale: float = GUMBEL_C_SCALE,
    choose: str = "best",
) -> RefineSearchAgent:
    """``agent_class`` (:class:`RefineSearchAgent` or a subclass) with the prior at ``prior``
    (default ``expert-gumbel``'s), and with ``colour`` > 0 :class:`PhaseLeaf` at its leaves, or
    with ``value`` the position net saved there (:class:`PositionValue`) at the leaves of
    ``value_at`` (``all``, ``halving`` or ``refinement``; the hand-made score at the others),
    with ``safeties`` a chosen safety refined as well, with ``draws`` the deviations of the cue
    drawn as :data:`DRAWS` names, ``c_scale`` the halving's weight of the mean against the
    prior's logits (:attr:`~kinghill.agents.prior.PriorSearchAgent.c_scale`), ``choose`` how
    the refinement's winner is chosen (:meth:`RefineSearchAgent._smoothed`); the defaults
    decide as ``expert-refine`` does (9 arms x 12 samples = 108)."""
    if int(steps) < 1:
        raise ValueError(f"steps: rounds of refinement, at least 1, got {steps}")
    if value and float(colour) > 0:
        raise ValueError("colour and value: one leaf, not both")
    if value_at not in VALUE_AT:
        raise ValueError(f"value_at: one of {', '.join(VALUE_AT)}, got {value_at!r}")
    if value_at != "all" and not value:
        raise ValueError("value_at: names where a value net scores the leaves; give value=PATH")
    agent = agent_class(
        _prior(prior), seed, int(budget), int(arms), str(grid), int(refine_budget), int(top),
        int(steps), _flag(halve), _flag(safeties),
    )  # fmt: skip
    if draws not in DRAWS:
        raise ValueError(f"draws: one of {', '.join(DRAWS)}, got {draws!r}")
    agent.draws = str(draws)
    if choose not in ("best", "quadratic", "shrink"):
        raise ValueError(f"choose: best, quadratic or shrink, got {choose!r}")
    agent.choose = str(choose)
    agent.c_scale = float(c_scale)
    if float(colour) > 0:
        agent.leaf = PhaseLeaf(float(colour))
    if value:
        learnt = PositionValue(PositionNet.load(value))
        agent.leaf, agent.refine_leaf = {
            "all": (learnt, None),
            "halving": (learnt, search.position_value),
            "refinement": (search.position_value, learnt),
        }[value_at]
    return agent


class PhaseLeaf:
    """The hand-made leaf with the next shooter's pot chance weighed by ``colour`` instead of
    ``search.POSITION_VALUE`` where that player needs only the coloured ball (:func:`phase`'s
    leaf), many leaves scored in one compiled call as :func:`search.position_values` does."""

    def __init__(self, colour: float) -> None:
        self.scale = colour / search.POSITION_VALUE

    def __call__(self, frame: Frame, state: TableState, me: int) -> float:
        return self.many([(frame, state)], me)[0]

    def many(self, positions: Sequence[tuple[Frame, TableState]], me: int) -> list[float]:
        live = [(frame, state) for frame, state in positions if frame.result is None]
        on = np.array([state.on_table for _, state in live], dtype=bool).reshape(-1, N_BALLS)
        cues = on & search._WHITE
        needs = np.array([frame.whites_needed(frame.to_move) > 0 for frame, _ in live], bool)
        targets = np.where(needs[:, None], cues, on & search._COLOURED)
        found = best_chances([state for _, state in live], cues, targets)
        chances = iter(np.where(needs, found, found * self.scale).tolist())
        return [
            search._result_value(frame.result, me)
            if frame.result is not None
            else search._standing(frame, me, frame.to_move, next(chances))
            for frame, _ in positions
        ]


def refine_phase(seed: int | None = None, colour: float = 1.0) -> search.SearchAgent:
    """``expert-refine`` with :class:`PhaseLeaf` (``colour``) at its leaves."""
    agent = make_agent("expert-refine", seed)
    assert isinstance(agent, search.SearchAgent)
    agent.leaf = PhaseLeaf(float(colour))
    return agent
