"""The table specification: dimensions, marks and the ball, cloth and cushion coefficients.

Defaults follow the МКП/ЕКП tournament requirements for a 12-ft pyramid table; coefficients follow
the pool literature (Alciatore; pooltool defaults) unless stated otherwise.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

from kinghill.physics.names import Pocket
from kinghill.physics.pocket_frame import PocketDimensions, check_pocket, kind_of
from kinghill.physics.resolve.ball_cushion import LAWS, RESTITUTIONS, Rubber, make_law

SPEC_CACHE_SIZE = 16
"""How many distinct specs keep their derived tables (geometry, engine table) cached: the most
recently used ones, so that a user drawing a new table per episode keeps flat memory."""


SIGNED = ("corner_fall_depth", "middle_fall_depth", "corner_facing_angle", "middle_facing_angle")
"""The spec's values that may be negative."""


@dataclass(frozen=True)
class TableSpec:
    """Every dimension (m, kg, s) and coefficient of the table; each value is overridable.

    Marks: front and rear spot at L/4 from their short cushions on the long axis; the house line
    through the front spot; the centre line at L/2.
    """

    length: float = 3.550
    """Playing-area length L (front to rear cushion nose)."""
    width: float = 1.775
    """Playing-area width W."""
    ball_diameter: float = 0.068
    ball_mass: float = 0.280
    corner_mouth: float = 0.073
    """Free gap of a corner pocket: between its rounded jaws at their narrowest point."""
    middle_mouth: float = 0.083
    """Free gap of a middle pocket: between its rounded jaws at their narrowest point."""
    corner_jaw_radius: float = 0.005
    """Rounding radius of a corner jaw tip (where the nose turns into the facing)."""
    middle_jaw_radius: float = 0.011
    """Rounding radius of a middle jaw tip."""
    corner_facing_angle: float = math.radians(4.0)
    """How far each corner facing opens from the pocket's axis behind the mouth (rad, 0 = parallel
    facings; negative: they close in, see :attr:`middle_facing_angle`)."""
    middle_facing_angle: float = math.radians(-14.0)
    """How far each middle facing opens from the pocket's axis behind the mouth (rad; negative:
    the facings close in, as a pool side pocket's do: the WPA's 104 degrees between nose and
    facing is -14 degrees here). A closing facing faces partly back toward the table: a ball
    that clips a tip is thrown across onto the far facing and, if it has not sunk by then (see
    ``fall_drop``), back out over the fall edge; so a fast ball that touches a jaw rattles out
    while a slow one drops. Facings may close in only over the slate's cut (every ball centre
    touching one is past the fall edge), so that the mouth stays the narrowest gap a ball on
    the slate meets; they end at the throat, where they leave a ball's width."""
    corner_fall_depth: float = -0.012
    """Where the fall edge (the point of no return) crosses a corner pocket's axis, measured
    behind the mouth line through the jaw tips' centres (negative: in front of it). The fall edge
    is the edge of the slate's circular cut, which reaches under the overhanging rubber tips; the
    slate between the playing area and the fall edge is the shelf, on which a ball can still rest
    hanging in the mouth. A ball whose centre passes the fall edge drops."""
    middle_fall_depth: float = -0.012
    """Where the fall edge crosses a middle pocket's axis, behind its mouth line (see
    :attr:`corner_fall_depth`): 12 mm in front of it, as at the corners, so that the cut reaches
    under the start of the closing facings (``middle_facing_angle``)."""
    corner_fall_radius: float = 0.060
    """Radius of the circular cut in the slate whose edge is the corner pocket's fall edge."""
    middle_fall_radius: float = 0.070
    """Radius of the slate's cut at a middle pocket."""
    fall_drop: float = 0.002
    """How far a ball whose centre has passed a fall edge must sink before no jaw can put it back
    on the slate (m). It takes ``sqrt(2 fall_drop / g)`` (20 ms by default): a ball that comes
    back over the edge sooner, thrown off a jaw, lands on the shelf and stays in play. This is why
    a fast ball that meets a jaw rattles out while a slow one drops."""
    cushion_height: float = 0.042
    """Height of the cushion nose above the cloth."""
    gravity: float = 9.81
    mu_slide: float = 0.2
    """Ball-cloth sliding friction."""
    mu_roll: float = 0.01
    """Rolling resistance coefficient."""
    mu_spin: float = 0.0151
    """Side-spin friction; spin decays at 5 mu_spin g / (2 R) rad/s^2 (pooltool: 0.444 R / R)."""
    e_ball: float = 0.95
    """Ball-ball coefficient of restitution."""
    cushion_law: str = "mathavan_2010"
    """The cushion noses' impact law, by name: ``"mathavan_2010"`` (Mathavan, Jackson & Parkin
    2010), ``"han_2005"`` (Han 2005) or ``"simple"`` (kinghill's constant-restitution baseline)."""
    e_cushion: float = 0.85
    """Ball-cushion coefficient of restitution, as the law means it (Mathavan: energetic, Han:
    along the tilted contact normal, simple: of the horizontal normal speed). 0.85 and 0.2 are
    pooltool's defaults; Mathavan et al.'s snooker fit (0.98, 0.14) holds below 2.5 m/s normal
    speed and would make a pyramid cushion livelier than the old model (README)."""
    cushion_restitution: str = "constant"
    """How the noses' restitution depends on the normal approach speed, by name:
    ``"constant"`` (``e_cushion`` at every speed, as Mathavan et al. fit their measured
    rebounds) or ``"han_2005"`` (Han 2005, eq. 26: ``0.39 + 0.257 V - 0.044 V^2``, in place of
    ``e_cushion``; dead at a slow pace, most lively at 2.9 m/s). Constant is the default: Han's
    fit gives 0.5-0.6 at the 0.5-1 m/s most cushion hits come at (README)."""
    mu_cushion: float = 0.2
    """Ball-cushion sliding friction."""
    jaw_law: str = "mathavan_2010"
    """The pocket jaws' (tips and facings) impact law, by name, as ``cushion_law``."""
    e_jaw: float = 0.8
    """Restitution of the pocket jaws (tips and facings): live rubber, a little deader than the
    noses (the tips are backed by less rubber). Chosen with ``fall_drop`` and the fall depths so
    that the pockets accept what a pyramid table's do (see ``kinghill pockets``)."""
    jaw_restitution: str = "constant"
    """How the jaws' restitution depends on the impact speed, as ``cushion_restitution``."""
    mu_jaw: float = 0.2
    """Ball-jaw sliding friction."""
    mu_ball_a: float = 0.00995
    """Ball-ball friction mu(v) = a + b exp(-c v_rel) (Alciatore, TP A-14 fit)."""
    mu_ball_b: float = 0.108
    mu_ball_c: float = 1.088

    def __post_init__(self) -> None:
        for name, known in (
            ("cushion_law", LAWS),
            ("jaw_law", LAWS),
            ("cushion_restitution", RESTITUTIONS),
            ("jaw_restitution", RESTITUTIONS),
        ):
            value = getattr(self, name)
            if not isinstance(value, str) or value not in known:
                raise ValueError(
                    f"TableSpec.{name} must be one of {', '.join(known)}, got {value!r}"
                )
        for f in fields(self):
            if f.type == "str":
                continue
            value = getattr(self, f.name)
            if (
                isinstance(value, bool)  # True is an int, but no length or coefficient
                or not isinstance(value, (int, float))
                or not math.isfinite(value)
            ):
                raise ValueError(f"TableSpec.{f.name} must be a finite number, got {value!r}")
            if value < 0 and f.name not in SIGNED:
                raise ValueError(f"TableSpec.{f.name} must not be negative, got {value!r}")
        for name in ("length", "width", "ball_diameter", "ball_mass", "gravity"):
            if getattr(self, name) <= 0:
                raise ValueError(f"TableSpec.{name} must be positive, got {getattr(self, name)!r}")
        for name in ("mu_slide", "mu_roll", "mu_spin"):
            if getattr(self, name) <= 0:
                raise ValueError(
                    f"TableSpec.{name} must be positive, got {getattr(self, name)!r}: the cloth "
                    "laws divide by it (a frictionless cloth never brings a ball to rest)"
                )
        for name in ("corner_mouth", "middle_mouth"):
            if getattr(self, name) <= self.ball_diameter:
                raise ValueError(
                    f"TableSpec.{name} ({getattr(self, name)} m) must be wider than a ball "
                    f"({self.ball_diameter} m)"
                )
        for name in ("corner_facing_angle", "middle_facing_angle"):
            if abs(getattr(self, name)) >= math.radians(60.0):
                raise ValueError(
                    f"TableSpec.{name} must be under 60 degrees (pi/3 rad) either way, "
                    f"got {getattr(self, name)}"
                )
        for name in ("e_ball", "e_cushion", "e_jaw"):
            if getattr(self, name) > 1:
                raise ValueError(f"TableSpec.{name} must be at most 1, got {getattr(self, name)}")
        if self.cushion_height < self.radius or self.cushion_height >= self.ball_diameter:
            raise ValueError(
                "TableSpec.cushion_height must lie between the ball's radius and its diameter, "
                f"got {self.cushion_height}"
            )
        if self.width < 8 * self.ball_diameter or self.length < 2 * self.width * 0.9:
            raise ValueError(
                f"TableSpec: a {self.length} x {self.width} m table is too small for 8 balls "
                "and a pyramid layout (length about twice the width)"
            )

        make_law(self.cushion_law, self.cushion_rubber)  # each law's own limits, said early
        make_law(self.jaw_law, self.jaw_rubber)
        for pocket in Pocket:  # what the pockets' shapes need of their dimensions
            check_pocket(pocket, self.pocket(kind_of(pocket)), self.radius, self.length, self.width)

    @property
    def cushion_rubber(self) -> Rubber:
        """The cushion noses' coefficients as the laws take them."""
        return Rubber(
            self.radius,
            self.cushion_height,
            self.e_cushion,
            self.mu_cushion,
            self.mu_slide,
            self.cushion_restitution,
        )

    @property
    def jaw_rubber(self) -> Rubber:
        """The jaws' coefficients (their nose at the cushion's height)."""
        return Rubber(
            self.radius,
            self.cushion_height,
            self.e_jaw,
            self.mu_jaw,
            self.mu_slide,
            self.jaw_restitution,
        )

    def pocket(self, kind: str) -> PocketDimensions:
        """The dimensions of the ``"corner"`` or ``"middle"`` pockets."""
        if kind not in ("corner", "middle"):
            raise ValueError(f"pocket kind must be 'corner' or 'middle', got {kind!r}")
        return PocketDimensions(
            *(
                getattr(self, f"{kind}_{name}")
                for name in ("mouth", "jaw_radius", "facing_angle", "fall_depth", "fall_radius")
            )
        )

    @property
    def radius(self) -> float:
        """Ball radius R."""
        return self.ball_diameter / 2

    @property
    def centre_line_x(self) -> float:
        """x of the centre line."""
        return self.length / 2

    @property
    def house_line_x(self) -> float:
        """x of the house line; a ball is in the house when its centre's x is below this."""
        return self.length / 4

    @property
    def front_spot(self) -> tuple[float, float]:
        return (self.length / 4, self.width / 2)

    @property
    def rear_spot(self) -> tuple[float, float]:
        return (3 * self.length / 4, self.width / 2)

    @property
    def rear_cushion_mid(self) -> tuple[float, float]:
        """Middle of the rear short cushion (its nose), the start of the spotting line."""
        return (self.length, self.width / 2)
