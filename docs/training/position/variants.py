"""The search with a wider candidate set, for the ablations of docs/training.md (issue 35): the
search's module constants set in the agent's own process (a tournament plays each seat in a
process of its own), then a plain ``SearchAgent``. Played as a plug-in agent:

    PYTHONPATH=docs/training/position kinghill tournament \\
        --agents "variants:wide?pots=8" search --frames 400 --seed 1000 --jobs 2 --out DIR

Lists of factors are written with ``_`` between them (``,`` separates options).
"""

import kinghill.agents.search as search


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
