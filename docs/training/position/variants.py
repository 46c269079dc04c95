"""The search with a wider candidate set, for the ablations of docs/training.md (issue 35): the
search's module constants set in the agent's own process (a tournament plays each seat in a
process of its own), then a plain ``SearchAgent``. Played as a plug-in agent:

    PYTHONPATH=docs/training/position kinghill tournament \\
        --agents "variants:wide?pots=8" search --frames 400 --seed 1000 --jobs 2 --out DIR

Lists of factors are written with ``_`` between them (``,`` separates options). ``phase`` is
the hand-made leaf with the pot chance weighed by what its shooter needs; ``guided_position``
the prior-guided search (``expert``) with the position net at its leaves.
"""

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
) -> search.SearchAgent:
    """``search`` over ``pots`` pots, each at ``speeds`` (factors) and ``spins`` (tip height
    changes), and ``safeties`` safeties at ``safety_speeds``."""
    search.POT_CANDIDATES = int(pots)
    search.SAFETY_CANDIDATES = int(safeties)
    search.SAFETY_SPEED_FACTORS = _floats(str(safety_speeds))
    search.SPEED_FACTORS = _floats(str(speeds))
    search.SPIN_STEPS = _floats(str(spins))
    return search.SearchAgent(seed)


def phase(seed: int | None = None, colour: float = 1.0) -> search.SearchAgent:
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
    return search.SearchAgent(seed)


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
