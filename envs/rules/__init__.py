"""The rules of King of the Hill as pure functions over event logs: no function here simulates
a shot (the game's :func:`~kinghill.envs.game.play_shot` does, then calls them).

Per shot: :func:`validate_shot` before it is played, :func:`judge` on its event log, then
:func:`apply` to the frame and the final table; after a foul the opponent calls :func:`choose`
(10.4). :class:`ShotClock` and :func:`judge_overtime` cover time control (section 12).

The rules and project rulings that these functions and their rulings cite by number (``7.4``,
``R-route``) are written out in the repository's ``docs/rules.md``.

They read the physics' value types only (the event classes, ball names, ``TableState`` for
spotting), but importing them from :mod:`kinghill.physics` runs that package's ``__init__``,
which loads the whole engine (numba and Pymunk, not compiling anything): ``import
kinghill.envs.rules`` is not light. Importing the event types alone would need a physics
package that loads its engine on first use, which is the physics package's to offer.
"""

from kinghill.envs.rules.apply import apply, choose, ruled_frame
from kinghill.envs.rules.call import (
    MAX_CHAIN,
    MAX_TOUCHES,
    Call,
    Leg,
    ShotKind,
    Touch,
    validate_call,
)
from kinghill.envs.rules.clock import EXTENSION, ShotClock, TimeAllowance, TimeVerdict
from kinghill.envs.rules.frame import Decision, EndReason, Frame, FrameResult, is_whole, opponent
from kinghill.envs.rules.invariants import InvariantError, check_invariants, invariant_violations
from kinghill.envs.rules.referee import judge, judge_overtime, validate_shot
from kinghill.envs.rules.route import Route, RouteMatch, Verdict, match_route, observe_route
from kinghill.envs.rules.ruling import Foul, Ruling
from kinghill.envs.rules.spotting import spot, spot_point

__all__ = [
    "EXTENSION",
    "MAX_CHAIN",
    "MAX_TOUCHES",
    "Call",
    "Decision",
    "EndReason",
    "Foul",
    "Frame",
    "FrameResult",
    "InvariantError",
    "Leg",
    "Route",
    "RouteMatch",
    "Ruling",
    "ShotClock",
    "ShotKind",
    "TimeAllowance",
    "TimeVerdict",
    "Touch",
    "Verdict",
    "apply",
    "ruled_frame",
    "check_invariants",
    "choose",
    "invariant_violations",
    "judge",
    "judge_overtime",
    "match_route",
    "observe_route",
    "is_whole",
    "opponent",
    "spot",
    "spot_point",
    "validate_call",
    "validate_shot",
]
