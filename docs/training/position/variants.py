"""The search with a wider candidate set, for the ablations of docs/training.md (issue 35): the
search's module constants set in the agent's own process (a tournament plays each seat in a
process of its own), then a plain ``SearchAgent``. Played as a plug-in agent:

    PYTHONPATH=docs/training/position kinghill tournament \\
        --agents "variants:wide?pots=8" search --frames 400 --seed 1000 --jobs 2 --out DIR

Lists of factors are written with ``_`` between them (``,`` separates options). ``phase`` is
the hand-made leaf with the pot chance weighed by what its shooter needs; ``guided_position``
the prior-guided search (``expert``) with the position net at its leaves.
"""

import math

import kinghill.agents.search as search
from kinghill.agents.builtins import data_path
from kinghill.agents.position_value import PositionNet, PositionValue
from kinghill.agents.prior import PriorNet, PriorSearchAgent
from kinghill.envs.rules import Frame


def _floats(text: str) -> tuple[float, ...]:
    return tuple(float(x) for x in text.split("_"))


def wide(
    seed: int | None = None,
    pots: int = search.POT_CANDIDATES,
    safeties: int = search.SAFETY_CANDIDATES,
    safety_speeds: str = "1.0_1.5",
    speeds: str = "1.0_1.4",
    spins: str = "0.0_-0.3_0.3",
    budget: int = search.DEFAULT_BUDGET,
) -> search.SearchAgent:
    """``search`` over ``pots`` pots, each at ``speeds`` (factors) and ``spins`` (tip height
    changes), and ``safeties`` safeties at ``safety_speeds``, ``budget`` simulations a decision."""
    search.POT_CANDIDATES = int(pots)
    search.SAFETY_CANDIDATES = int(safeties)
    search.SAFETY_SPEED_FACTORS = _floats(str(safety_speeds))
    search.SPEED_FACTORS = _floats(str(speeds))
    search.SPIN_STEPS = _floats(str(spins))
    return search.SearchAgent(seed, int(budget))


def phase(
    seed: int | None = None, colour: float = 1.0, budget: int = search.DEFAULT_BUDGET
) -> search.SearchAgent:
    """``search`` whose hand-made leaf weighs the next shooter's pot chance by ``colour``
    instead of ``search.POSITION_VALUE`` when that player needs only the coloured ball (a chance
    at the colour ends the frame; a chance at a white is one white of three)."""
    scale = float(colour) / search.POSITION_VALUE
    hand_made = search._standing

    def standing(frame: Frame, me: int, mover: int, chance: float) -> float:
        # the hand-made score is linear in the chance: scaling it weighs it by ``colour``
        needs_colour = frame.whites_needed(mover) == 0
        return hand_made(frame, me, mover, chance * scale if needs_colour else chance)

    search._standing = standing
    return search.SearchAgent(seed, int(budget))


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


class GumbelHalving(PriorSearchAgent):
    """The guided search whose successive halving ranks arms by the prior's logit plus the
    scaled mean, ``logit + (c_visit + most samples) * c_scale * (mean + 1) / 2`` (the
    sequential halving of Gumbel MuZero without the Gumbel noise, Danihelka et al. 2022): the
    prior settles what a few noisy samples cannot; the last arm is not sampled again."""

    def __init__(self, net: PriorNet, seed, budget, arms, c_visit: float, c_scale: float):
        super().__init__(net, seed, budget, arms)
        self.c_visit, self.c_scale = c_visit, c_scale
        self._logit: dict[int, float] = {}

    def _candidates(self, view):
        actions = super()._candidates(view)
        found = self.last_candidates
        from kinghill.agents.prior import arm_features

        logits = self.net.logits(arm_features(view, found)) if found else []
        self._kept_logits = [float(logits[k]) for k in self.last_kept]
        return actions

    def _halve(self, view, arms, budget, deadline):
        logit = {id(arm): lg for arm, lg in zip(self.last_arms, self._kept_logits)}
        spent = 0
        rounds = max(1, math.ceil(math.log2(len(arms))))
        while len(arms) > 1:
            per_arm = max(1, (budget // rounds) // len(arms))
            spent += self._score(view, [(arm, per_arm) for arm in arms])
            most = max(arm.count for arm in arms)
            scale = (self.c_visit + most) * self.c_scale / 2

            def key(arm, scale=scale):
                return logit[id(arm)] + scale * (arm.mean + 1)

            arms = sorted(arms, key=key, reverse=True)[: max(1, len(arms) // 2)]
            if spent >= budget:
                break
        return arms[0]


def gumbel(
    seed: int | None = None,
    prior: str = "docs/training/position/distilled-1920.npz",
    budget: int = 150,
    arms: int = 12,
    c_visit: float = 50.0,
    c_scale: float = 1.0,
) -> search.SearchAgent:
    """:class:`GumbelHalving` with the prior at ``prior`` over its ``arms`` best shots."""
    return GumbelHalving(
        PriorNet.load(prior), seed, int(budget), int(arms), float(c_visit), float(c_scale)
    )


def early(
    seed: int | None = None,
    min_chance: float = 0.05,
    count: int = 3,
    abricols: bool = True,
    budget: int = search.DEFAULT_BUDGET,
) -> search.SearchAgent:
    """``search`` with up to ``count`` more early pots of the coloured ball (8.1, R-early: a
    double, or an abricol when ``abricols``, by a white cue ball) among its candidates while
    whites are needed, each at least ``min_chance`` likely (the menu offers only those at 0.3 or
    better, and only among the five likeliest pots): a legal one wins the frame at once."""
    from kinghill.envs.planning.candidates import pots
    from kinghill.envs.planning.menu import permitted_early, pot_action
    from kinghill.physics import COLOURED, WHITES

    base = search.candidates

    def with_early(view):
        found = base(view)
        state, frame = view.state, view.frame
        if not frame.whites_needed(view.player) or not state.on_table[COLOURED]:
            return found
        whites = [b for b in WHITES if state.on_table[b]]
        planned = {(c.pot.cue_ball, c.pot.pocket, c.pot.double, c.pot.abricol)
                   for c in found if c.pot is not None and c.pot.object_ball == COLOURED}
        extra = [
            c
            for c in pots(state, whites, [COLOURED], doubles=True, abricols=bool(abricols),
                          min_chance=float(min_chance))
            if (call := c.call) is not None and permitted_early(call)
            and (c.cue_ball, c.pocket, c.double, c.abricol) not in planned
        ]
        for rank, pot in enumerate(extra[: int(count)]):
            found.append(search.Candidate(pot_action(pot), pot, search.KICK, rank))
        return found

    search.candidates = with_early
    return search.SearchAgent(seed, int(budget))
