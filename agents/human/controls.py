"""What a human at the table has chosen so far for one decision, and the inputs that change it.

:class:`Controls` is the human seat's state machine without pygame: table clicks and pointer
moves (in table metres), and named commands from keys and the on-screen menu (see
:data:`COMMANDS`), until :attr:`Controls.done` holds the :data:`~kinghill.envs.Action` to play.
A shot is checked by the referee (``validate_shot``) before it is handed over; what is wrong
stays in :attr:`Controls.message` and nothing is played.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from kinghill.envs import Action, ChoiceAction, FrameView, ShotAction
from kinghill.envs.planning import pocket_target
from kinghill.envs.rules import MAX_TOUCHES, Call, Decision, Touch, validate_shot
from kinghill.physics import BREAK_BALL, COLOURED, MAX_SPEED, MISCUE_LIMIT, Cushion, Pocket, Shot
from kinghill.physics.state import TableState

Point = tuple[float, float]

KINDS = ("whites", "plain", "double", "abricol", "combination", "carom")
"""The kinds of call on the menu: whites only (no call, 5.1), then the builders of :class:`Call`."""
ROUTE_HELP = {
    "whites": "no call: whites only (5.1)",
    "plain": "the cue ball drives the coloured ball straight in",
    "double": "route: the coloured ball's cushions, in order",
    "abricol": "route: the cue ball's cushions before it meets the coloured ball",
    "combination": "route: the balls between cue ball and coloured ball; cushions: the colour's",
    "carom": "cue ball 0; route: the balls and cushions it touches before it drops (8.3)",
}
MIN_SPEED = 0.1
"""Slowest speed the controls set (m/s)."""
SPEED_STEP = 0.25
TIP_STEP = 0.05
AIM_STEP = math.radians(0.1)
POCKET_PICK = 0.07
"""A click this close to a pocket's aim point (m) picks that pocket for the call."""
BREAK_SPEED = 7.0
SHOT_SPEED = 2.5
COMMANDS = (
    "shoot",
    "speed+",
    "speed-",
    "aim+",
    "aim-",
    "tip-up",
    "tip-down",
    "tip-left",
    "tip-right",
    "tip-centre",
    "clear-route",
    "play-on",
    "hand-back",
    "extension",
    *(f"kind:{kind}" for kind in KINDS),
    *(f"pocket:{pocket.name}" for pocket in Pocket),
    *(f"touch:{cushion.name}" for cushion in Cushion),
    *(f"touch:{ball}" for ball in range(1, 8)),
)
"""Every command :meth:`Controls.command` takes: keys and menu buttons map onto these."""


@dataclass
class Controls:
    """The choices of one decision: cue ball, aim, speed, tip, call, house placement, claim.

    :param view: the position and the frame the decision is made in.
    :param cue_ball: the ball to strike (white 1 on the break, 1.3).
    :param phi: aim angle (rad, 0 = toward the rear cushion, counter-clockwise).
    :param speed: the cue ball's speed (m/s).
    :param tip: side and height tip offsets (a, b) in ball radii.
    :param kind: one of :data:`KINDS`.
    :param pocket: the called pocket.
    :param route: the touches of the call's route, as the kind reads them (:data:`ROUTE_HELP`).
    :param place: on the break, where white 1 stands in the house.
    :param aim_locked: a click on the cloth fixed the aim; pointer moves no longer change it.
    :param claim: the 12.5 extension is claimed with this decision.
    :param message: what the player should know now (an error, or a hint).
    :param done: the action, once chosen.
    """

    view: FrameView
    cue_ball: int
    phi: float = 0.0
    speed: float = SHOT_SPEED
    tip: tuple[float, float] = (0.0, 0.0)
    kind: str = "whites"
    pocket: Pocket | None = None
    route: list[Touch] = field(default_factory=list)
    place: Point | None = None
    aim_locked: bool = False
    claim: bool = False
    message: str = ""
    done: Action | None = None

    @classmethod
    def start(cls, view: FrameView) -> Controls:
        """The controls at the start of a decision: the break ball where it stands, aimed at
        the apex; otherwise the lowest white on the table aimed at the coloured ball."""
        state = view.state
        if view.decision is Decision.BREAK:
            x, y = state.xy(BREAK_BALL)
            return cls(view, BREAK_BALL, speed=BREAK_SPEED, place=(x, y), message=_hint(view))
        on_table = state.balls_on_table()
        cue = next((b for b in on_table if b != COLOURED), on_table[0])
        controls = cls(view, cue, message=_hint(view))
        if state.on_table[COLOURED] and cue != COLOURED:
            controls.phi = _angle(state.xy(cue), state.xy(COLOURED))
        return controls

    # ---- reading ------------------------------------------------------------------------------
    @property
    def state(self) -> TableState:
        """The table as the shot would start: on the break, white 1 where it is placed."""
        if self.place is None:
            return self.view.state
        return self.view.state.place(BREAK_BALL, self.place)

    @property
    def is_choice(self) -> bool:
        return self.view.decision is Decision.CHOICE

    def call(self) -> Call | None:
        """The call as chosen, built with :class:`Call`'s builders; ``ValueError`` names what
        is missing or wrong."""
        if self.kind == "whites":
            return None
        if self.pocket is None:
            raise ValueError(f"a {self.kind} call needs a pocket: click one, or pick it below")
        cue, pocket = self.cue_ball, self.pocket
        cushions = [t for t in self.route if isinstance(t, Cushion)]
        balls = [t for t in self.route if not isinstance(t, Cushion)]
        if self.kind == "plain":
            return Call.plain(cue, pocket)
        if self.kind == "double":
            return Call.double(cue, pocket, cushions)
        if self.kind == "abricol":
            return Call.abricol(cue, pocket, cushions)
        if self.kind == "combination":
            return Call.combination(cue, balls, pocket, colour_leg=cushions)
        if cue != COLOURED:
            raise ValueError("a carom is played with the coloured ball as cue ball (8.3)")
        return Call.carom(pocket, self.route)

    def shot(self) -> Shot:
        return Shot(self.cue_ball, self.phi, self.speed, self.tip[0], self.tip[1])

    # ---- pointer ------------------------------------------------------------------------------
    def point(self, xy: Point) -> None:
        """The pointer is over the table at ``xy``: the aim follows it unless fixed."""
        if not self.aim_locked and not self.is_choice:
            self.phi = _angle(self.state.xy(self.cue_ball), xy)

    def click(self, xy: Point) -> None:
        """A click on the table: a ball becomes the cue ball (after the break, 1.4); on the
        break a point in the house places white 1 there (4.1); near a pocket, the pocket is
        called; anywhere else the aim is fixed at that point."""
        if self.is_choice:
            return
        state, spec = self.state, self.view.state.spec
        ball = _ball_at(state, xy)
        if self.place is not None and xy[0] < spec.house_line_x and ball in (None, BREAK_BALL):
            self.place = _in_house(state, xy)
            self.aim_locked, self.message = False, "white 1 placed in the house"
            return
        if ball is not None and self.place is None:
            self.cue_ball, self.aim_locked = ball, False
            self.message = f"cue ball {ball}"
            return
        pocket = _pocket_at(xy, state)
        if pocket is not None and self.place is None:
            self.command(f"pocket:{pocket.name}")
            return
        self.aim_at(xy)

    def aim_at(self, xy: Point) -> None:
        """Fix the aim at ``xy`` (a click on the cloth, or a right click anywhere on the table,
        balls included); arrows fine-tune it, a click elsewhere moves it."""
        if self.is_choice:
            return
        self.phi, self.aim_locked = _angle(self.state.xy(self.cue_ball), xy), True
        self.message = "aim fixed (right-click to re-aim, left/right arrows to fine-tune)"

    # ---- commands -----------------------------------------------------------------------------
    def command(self, name: str) -> None:
        """Carry out one of :data:`COMMANDS` (unknown names raise ``ValueError``)."""
        if name not in COMMANDS:
            raise ValueError(f"unknown command {name!r}")
        head, _, arg = name.partition(":")
        if name == "extension":
            self._claim()
            return
        if self.is_choice:
            if name in ("play-on", "hand-back"):
                self.done = ChoiceAction(name == "play-on", self.claim)
            return
        if head == "kind":
            self._set_kind(arg)
        elif head == "pocket":
            self.pocket = Pocket[arg]
            if self.kind == "whites":
                self._set_kind("plain")
            self.message = f"pocket {arg}"
        elif head == "touch":
            self._add_touch(Cushion[arg] if arg in Cushion.__members__ else int(arg))
        elif name == "clear-route":
            self.route = []
        elif name in ("speed+", "speed-"):
            step = SPEED_STEP if name == "speed+" else -SPEED_STEP
            self.speed = round(min(max(self.speed + step, MIN_SPEED), MAX_SPEED), 3)
        elif name in ("aim+", "aim-"):
            self.phi += AIM_STEP if name == "aim+" else -AIM_STEP
            self.aim_locked = True
        elif head.startswith("tip"):
            self._nudge_tip(name)
        elif name == "shoot":
            self._shoot()

    def set_tip(self, a: float, b: float) -> None:
        """Put the cue tip at (a, b) ball radii, pulled into the miscue disc (a² + b² ≤ 0.25)."""
        norm = math.hypot(a, b)
        if norm > MISCUE_LIMIT:
            a, b = a * MISCUE_LIMIT / norm, b * MISCUE_LIMIT / norm
        self.tip = (round(a, 4), round(b, 4))

    def _nudge_tip(self, name: str) -> None:
        a, b = self.tip
        if name == "tip-centre":
            a, b = 0.0, 0.0
        else:
            da, db = {"tip-up": (0, 1), "tip-down": (0, -1), "tip-left": (-1, 0)}.get(name, (1, 0))
            a, b = a + da * TIP_STEP, b + db * TIP_STEP
        self.set_tip(a, b)

    def _claim(self) -> None:
        """Claim the 12.5 extension: on the decision's clock when one runs (granted only before
        the base time is over, 12.7; it cannot be taken back), else as the action's flag."""
        clock = self.view.clock
        if clock is None or not clock.timed:
            self.claim = not self.claim
            self.message = "extension claimed (12.5)" if self.claim else "extension not claimed"
            return
        if self.claim:
            return
        self.claim = clock.claim_extension()
        self.message = "15 s more (12.5, 12.6)" if self.claim else "no extension left (12.5, 12.7)"

    def _set_kind(self, kind: str) -> None:
        if self.place is not None and kind != "whites":
            self.message = "no call on the break (4.4)"
            return
        self.kind, self.route = kind, []
        if kind == "carom" and self.view.state.on_table[COLOURED]:
            self.cue_ball, self.aim_locked = COLOURED, False
        self.message = ROUTE_HELP[kind]

    def _add_touch(self, touch: Touch) -> None:
        if self.kind in ("whites", "plain"):
            self.message = f"a {self.kind} call has no route to add to; choose another kind"
            return
        if len(self.route) >= MAX_TOUCHES + (2 if self.kind == "combination" else 0):
            self.message = "the route is full (clear it to start again)"
            return
        self.route.append(touch)
        self.message = ""

    def _shoot(self) -> None:
        try:
            call = self.call()
            validate_shot(self.view.frame, self.state, self.cue_ball, call)
            shot = self.shot()
        except ValueError as error:
            self.message = str(error)
            return
        self.done = ShotAction(shot, call, self.place, self.claim)


def _angle(origin: Point, point: Point) -> float:
    if math.isclose(origin[0], point[0]) and math.isclose(origin[1], point[1]):
        return 0.0
    return math.atan2(point[1] - origin[1], point[0] - origin[0])


def _ball_at(state: TableState, xy: Point) -> int | None:
    """The ball under ``xy`` (within its radius), if any."""
    for ball in state.balls_on_table():
        bx, by = state.xy(ball)
        if math.hypot(bx - xy[0], by - xy[1]) <= state.spec.radius:
            return ball
    return None


def _pocket_at(xy: Point, state: TableState) -> Pocket | None:
    for pocket in Pocket:
        px, py = pocket_target(pocket, state.spec)
        if math.hypot(px - xy[0], py - xy[1]) <= POCKET_PICK:
            return pocket
    return None


def _in_house(state: TableState, xy: Point) -> Point:
    """``xy`` moved into the house, clear of the cushions and the house line (R-rack)."""
    spec, r = state.spec, state.spec.radius
    x = min(max(xy[0], r + 1e-4), spec.house_line_x - 1e-4)
    y = min(max(xy[1], r + 1e-4), spec.width - r - 1e-4)
    return (x, y)


def _hint(view: FrameView) -> str:
    if view.decision is Decision.BREAK:
        return "break: click in the house to place white 1, aim with the mouse, Enter to shoot"
    if view.decision is Decision.CHOICE:
        return "the opponent fouled (10.4): play on (P) or hand the shot back (H)"
    return "click a ball for the cue ball, aim with the mouse, pick a call, Enter to shoot"
