"""Shot planning, as a ghost-ball player sees the table: aiming (:mod:`.aim`), the object balls'
routes into the pockets (:mod:`.object_routes`), candidate pots with their chance under noise
(:mod:`.candidates`), the shots on offer in a position (:mod:`.menu`: the break, the legal pots
and their actions, safeties, a fallback) and the path a call draws (:mod:`.call_path`).

The planner's arithmetic runs compiled (:mod:`.pot_kernel`, :mod:`.safety_kernel`;
:func:`warm_up` loads it). Geometry and estimates only, no simulation: the heuristic and search
agents and the masked training env build on it. No Gymnasium, no PettingZoo.
"""

from kinghill.envs.planning.aim import ghost_aim, ghost_point, pocket_target
from kinghill.envs.planning.call_path import call_path
from kinghill.envs.planning.candidates import PotCandidate, best_chance, object_routes, pots
from kinghill.envs.planning.menu import (
    break_action,
    fallback_action,
    legal_pots,
    permitted_early,
    pot_action,
    safety_actions,
)
from kinghill.envs.planning.object_routes import ObjectRoute
from kinghill.envs.planning.warm_up import warm_up

__all__ = [
    "ObjectRoute",
    "PotCandidate",
    "best_chance",
    "break_action",
    "call_path",
    "fallback_action",
    "ghost_aim",
    "ghost_point",
    "legal_pots",
    "object_routes",
    "permitted_early",
    "pocket_target",
    "pot_action",
    "pots",
    "safety_actions",
    "warm_up",
]
