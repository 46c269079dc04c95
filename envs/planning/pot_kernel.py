"""The pots of a position, compiled: the object balls' routes into the pockets, the balls in
their way, the cue ball's line to the ghost point (straight or off a cushion first), the cut and
the chance under noise (:mod:`.candidates` gives their meaning and wraps them).

numba kernels (:mod:`kinghill.physics.jit`) over plain arrays: the balls on the table (their
centres and ids, in ball order), a table's :class:`~.table_arrays.PlanningArrays`, and rows of
numbers for routes (:data:`ROUTE_COLUMNS`) and pots (:data:`POT_COLUMNS`). The arithmetic is that
of the Python planner it replaced, operation for operation (CPython's ``hypot``:
:mod:`kinghill.physics.norm`), so the menus are the same to the bit
(``tests/test_menu_fixture.py``); ``NUMBA_DISABLE_JIT=1`` runs it as Python.
"""

from __future__ import annotations

import math

import numpy as np

from kinghill.physics.geometry import GeometryArrays, hanging_pocket
from kinghill.physics.jit import njit
from kinghill.physics.names import COLOURED, N_BALLS
from kinghill.physics.norm import hypot

MAX_CUT = math.radians(60.0)
"""Cuts thinner than this are not attempted (the brief's "simple cut")."""
COS_MAX_CUT = math.cos(MAX_CUT)
STRAIGHT_CUT = math.radians(15.0)
"""Below this cut a rolling cue ball would follow the object ball toward the pocket..."""
DRAW = -0.4
"""...so such pots are played with this much draw (a fraction of R below centre)."""
BASE_SIGMA = math.radians(0.1)
"""Direction spread of the object ball beyond the cue's aim noise (throw, tip noise), rad."""
CUSHION_SHARE = 0.5
"""A pot off a cushion (a double or an abricol) counts at this share of its straight-line
chance: cushion rebounds are not mirror-true (throw and the rail's grip)."""
OPEN_MARGIN = 1e-9
"""Relative margin of the box round a path that the line checks skip balls by (a ball off the
box is clear of the path whatever the rounding; the exact distance decides the rest)."""
N_CUSHIONS = 6
ROLLING_FRACTION = 5.0 / 7.0
"""A ball struck at its centre rolls at 5/7 of its initial speed once sliding ends."""

ROUTE_COLUMNS = 16
"""A route's row: object ball, pocket, cushion of a double (-1 straight), the number of points
(2 or 3) and the points (x, y; the object ball, a double's rebound point, the pocket's aim),
the ghost point x, y, the approach angle, the window's half-width at it, the path's length, and
the object ball's place in the list asked about."""
POT_COLUMNS = 15
"""A pot's row: cue ball, object ball, pocket, cut, cue path, object path, chance, heading
(the object ball's direction), phi (the cue's aim), b (tip height), double's cushion,
abricol's cushion (-1 for none), then the keys it is ordered by after the chance: the cue
ball's and the object ball's places in the lists asked about and the way (0 straight, 1 + c
a double off cushion c, 7 + c an abricol off c)."""


@njit
def speed_needed(distance: float, arrival: float, deceleration: float, b: float) -> float:
    """The initial speed of a ball struck ``b`` R above centre that still rolls at ``arrival``
    m/s after ``distance`` m on a cloth that slows it by ``deceleration`` m/s^2 (sliding losses
    folded into the rolling fraction, 5/7 (1 + b))."""
    fraction = ROLLING_FRACTION * (1.0 + b)
    return math.sqrt(arrival * arrival + 2 * deceleration * distance) / fraction


@njit
def within(
    bx: float, by: float, diameter: float, sx: float, sy: float, ex: float, ey: float
) -> bool:
    """Whether a centre at (bx, by) lies within ``diameter`` of the segment (sx, sy)-(ex, ey):
    outside the box round it (by :data:`OPEN_MARGIN`) it is clear without the distance."""
    dx, dy = ex - sx, ey - sy
    reach = diameter * (1.0 + OPEN_MARGIN)
    if dx > 0:
        low_x, high_x = sx - reach, ex + reach
    else:
        low_x, high_x = ex - reach, sx + reach
    if dy > 0:
        low_y, high_y = sy - reach, ey + reach
    else:
        low_y, high_y = ey - reach, sy + reach
    if not (low_x < bx < high_x and low_y < by < high_y):
        return False
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else ((bx - sx) * dx + (by - sy) * dy) / length2
    t = 0.0 if t < 0.0 else 1.0 if t > 1.0 else t
    px, py = sx + t * dx - bx, sy + t * dy - by
    return px * px + py * py < diameter * diameter


@njit
def near(
    points: np.ndarray,
    ids: np.ndarray,
    diameter: float,
    segment: tuple[float, float, float, float],
    skip: tuple[int, int, int],
    limit: int,
    found: np.ndarray,
) -> int:
    """How many of the centres ``points`` (balls ``ids``, those in ``skip`` excepted) lie
    :func:`within` ``diameter`` of ``segment`` (sx, sy, ex, ey), up to ``limit``; their ids go
    into ``found`` in the order of ``points``."""
    sx, sy, ex, ey = segment
    count = 0
    for k in range(points.shape[0]):
        ball = ids[k]
        if ball == skip[0] or ball == skip[1] or ball == skip[2]:
            continue
        if within(points[k, 0], points[k, 1], diameter, sx, sy, ex, ey):
            found[count] = ball
            count += 1
            if count >= limit:
                break
    return count


@njit
def blockers(
    points: np.ndarray, ids: np.ndarray, diameter: float, route: np.ndarray
) -> tuple[int, int]:
    """The balls (its object ball excepted) in the way of ``route``: how many (counted up to
    two: a pot can have one, its cue ball, in the object ball's way) and the first."""
    found = np.empty(2, np.int64)
    count, first, ball = 0, -1, int(route[0])
    for leg in range(int(route[3]) - 1):
        segment = (route[4 + 2 * leg], route[5 + 2 * leg], route[6 + 2 * leg], route[7 + 2 * leg])
        k = near(points, ids, diameter, segment, (ball, first, -1), 2 - count, found)
        if k > 0 and count == 0:
            first = found[0]
        count += k
        if count >= 2:
            break
    return count, first


@njit
def ghost(ox: float, oy: float, tx: float, ty: float, radius: float) -> tuple[float, float]:
    """Where the cue ball's centre must be to send the ball at (ox, oy) toward (tx, ty)."""
    dx, dy = tx - ox, ty - oy
    d = hypot(dx, dy)
    if d == 0.0:
        d = 1.0
    return ox - 2 * radius * dx / d, oy - 2 * radius * dy / d


@njit
def mirror(x: float, y: float, cushion: int, scalars: np.ndarray) -> tuple[float, float]:
    """(x, y) reflected in the line a ball's centre touches ``cushion`` along."""
    if cushion == 0:
        return scalars[2] - x, y
    if cushion == 1:
        return scalars[3] - x, y
    if cushion == 2 or cushion == 3:
        return x, scalars[4] - y
    return x, scalars[2] - y


@njit
def cushion_point(
    sx: float, sy: float, ex: float, ey: float, line: np.ndarray
) -> tuple[float, float, bool]:
    """Where the path from (sx, sy) to the mirror image (ex, ey) meets a cushion's ``line``
    (across, at, low, high), and whether it lies along the cushion, off the jaws."""
    at = line[1]
    if line[0] == 1.0:
        span = ex - sx
        t = (at - sx) / (span if span != 0.0 else 1e-12)
        x, y = at, sy + t * (ey - sy)
        along = y
    else:
        span = ey - sy
        t = (at - sy) / (span if span != 0.0 else 1e-12)
        x, y = sx + t * (ex - sx), at
        along = x
    return x, y, line[2] < along < line[3]


@njit
def window_width(half: float, closes: float, approach: float) -> float:
    """The window's half-width (m) for a ball arriving ``approach`` rad off the pocket's axis,
    of a pocket whose window is ``half`` head on and closes at ``closes`` rad."""
    return half * max(0.0, 1.0 - (approach / closes) ** 2)


@njit
def window_chance(
    window: float, radius: float, cut: float, cue_path: float, object_path: float, sigma_phi: float
) -> float:
    """The chance that the object ball drops through a window ``window`` wide each side: the
    cue's aim error turned into a cut error (``d theta = d_cue d_phi / (2R cos cut)``) and
    carried to the pocket, with :data:`BASE_SIGMA` beside it."""
    sigma_cut = cue_path * sigma_phi / (2 * radius * math.cos(cut))
    sigma = object_path * hypot(sigma_cut, BASE_SIGMA) + 1e-4
    return math.erf(window / (sigma * math.sqrt(2)))


@njit
def _route(
    out: np.ndarray,
    ball: int,
    pocket: int,
    double: int,
    points: tuple[float, float, float, float, float, float],
    n_points: int,
    approach: float,
    window: float,
    radius: float,
    place: int,
) -> None:
    """Fill ``out`` with the route through ``points`` (its second point leads the object ball
    off: the ghost point lies behind the ball on that line)."""
    ox, oy, px, py, qx, qy = points
    gx, gy = ghost(ox, oy, px, py, radius)
    path = hypot(ox - px, oy - py)
    if n_points == 3:
        path += hypot(px - qx, py - qy)
    out[0], out[1], out[2], out[3] = ball, pocket, double, n_points
    out[4], out[5], out[6], out[7], out[8], out[9] = points
    out[10], out[11], out[12], out[13], out[14], out[15] = gx, gy, approach, window, path, place


@njit
def ball_routes(
    out: np.ndarray,
    n: int,
    ball: int,
    place: int,
    ox: float,
    oy: float,
    hanging: int,
    ways: np.ndarray,
    pockets: np.ndarray,
    radius: float,
) -> int:
    """Add the open routes of ``ball`` at (ox, oy) to ``out`` after its first ``n`` rows; return
    the new count. Open: the pocket's window open at the angle the ball arrives, a double's
    rebound point along its cushion. A ball hanging in a mouth drops at a touch into that pocket
    (``hanging``), and into no other."""
    if hanging >= 0:
        tx, ty = pockets[hanging, 0], pockets[hanging, 1]
        window = window_width(pockets[hanging, 2], pockets[hanging, 3], 0.0)
        _route(out[n], ball, hanging, -1, (ox, oy, tx, ty, 0.0, 0.0), 2, 0.0, window, radius, place)
        return n + 1
    for w in range(ways.shape[0]):
        way = ways[w]
        tx, ty = way[2], way[3]
        sx, sy = ox, oy  # where the ball's last leg starts
        if way[8] < 0:
            points, n_points = (ox, oy, tx, ty, 0.0, 0.0), 2
        else:
            rx, ry, along = cushion_point(ox, oy, way[4], way[5], way[8:12])
            if not along:
                continue
            points, n_points, sx, sy = (ox, oy, rx, ry, tx, ty), 3, rx, ry
        dx, dy = tx - sx, ty - sy
        d = hypot(dx, dy)
        if d == 0.0:
            d = 1.0
        approach = math.acos(max(-1.0, min(1.0, (dx * way[6] + dy * way[7]) / d)))
        window = window_width(way[12], way[13], approach)
        if window <= 0:
            continue
        _route(
            out[n],
            ball,
            int(way[0]),
            int(way[1]),
            points,
            n_points,
            approach,
            window,
            radius,
            place,
        )
        n += 1
    return n


@njit
def _pot(
    out: np.ndarray,
    cue_ball: int,
    cue: tuple[float, float],
    hanging: int,
    route: np.ndarray,
    abricol: int,
    min_chance: float,
    points: np.ndarray,
    ids: np.ndarray,
    table: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, float],
) -> bool:
    """Fill ``out`` (a :data:`POT_COLUMNS` row) with the pot of ``route`` by ``cue_ball`` at
    ``cue`` (off cushion ``abricol`` first, -1 for none) and say whether there is one at least
    ``min_chance`` likely: the cut no thinner than :data:`MAX_CUT`, the cue ball's legs clear,
    and a cue ball ``hanging`` in a mouth leaving it clear of the jaw tips."""
    scalars, lines, tips, tip_counts, sigma_phi = table
    radius, diameter = scalars[0], scalars[1]
    cx, cy = cue
    gx, gy = route[10], route[11]
    ax, ay = cx, cy  # where the cue ball's last leg starts
    if abricol >= 0:
        mx, my = mirror(gx, gy, abricol, scalars)
        ax, ay, along = cushion_point(cx, cy, mx, my, lines[abricol])
        if not along:
            return False
    ox, oy, tx, ty = route[4], route[5], route[6], route[7]
    ux, uy, vx, vy = gx - ax, gy - ay, tx - ox, ty - oy
    norms = math.sqrt((ux * ux + uy * uy) * (vx * vx + vy * vy))
    if norms == 0.0:
        norms = 1e-12
    cos_cut = (ux * vx + uy * vy) / norms
    if cos_cut < COS_MAX_CUT:
        return False
    cut = math.acos(min(1.0, cos_cut))
    if abricol >= 0:
        cue_path = hypot(cx - ax, cy - ay) + hypot(ax - gx, ay - gy)
    else:
        cue_path = hypot(cx - gx, cy - gy)
    chance = window_chance(route[13], radius, cut, cue_path, route[14], sigma_phi)
    if route[2] >= 0 or abricol >= 0:
        chance *= CUSHION_SHARE
    if chance <= 0 or chance < min_chance:
        return False
    found = np.empty(1, np.int64)
    skip = (cue_ball, int(route[0]), -1)
    if abricol >= 0 and near(points, ids, diameter, (cx, cy, ax, ay), skip, 1, found):
        return False
    if near(points, ids, diameter, (ax, ay, gx, gy), skip, 1, found):
        return False
    lx, ly = (ax, ay) if abricol >= 0 else (gx, gy)  # the first leg's end
    if hanging >= 0:
        for k in range(tip_counts[hanging]):
            tip = tips[hanging, k]
            if within(tip[0], tip[1], radius + tip[2], cx, cy, lx, ly):
                return False
    out[0], out[1], out[2], out[3], out[4], out[5], out[6] = (
        cue_ball,
        route[0],
        route[1],
        cut,
        cue_path,
        route[14],
        chance,
    )
    out[7] = math.atan2(ty - oy, tx - ox)
    out[8] = math.atan2(ly - cy, lx - cx)
    out[9] = DRAW if cut < STRAIGHT_CUT else 0.0
    out[10], out[11] = route[2], abricol
    return True


@njit
def _before(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether pot row ``a`` comes before ``b``: likelier first, then by the cue ball's and the
    object ball's places, the pocket and the way."""
    if a[6] != b[6]:
        return a[6] > b[6]
    for k in (12, 13, 2, 14):
        if a[k] != b[k]:
            return a[k] < b[k]
    return False


@njit
def find_pots(
    points: np.ndarray,
    ids: np.ndarray,
    cues: np.ndarray,
    objects: np.ndarray,
    ways: np.ndarray,
    abricols: bool,
    min_chance: float,
    best_only: bool,
    sigma_phi: float,
    scalars: np.ndarray,
    lines: np.ndarray,
    pockets: np.ndarray,
    tips: np.ndarray,
    tip_counts: np.ndarray,
    geometry: GeometryArrays,
) -> np.ndarray:
    """The pots (rows of :data:`POT_COLUMNS`, best first) of the balls ``objects`` by the cue
    balls ``cues`` (both on the table) along ``ways`` (the straight ways, or with the doubles),
    with abricols when asked, at least ``min_chance`` likely. ``best_only``: the first row is
    all that is wanted, so a pot less likely than one found already is not checked further
    (its legs' clearance) nor kept; the first row comes out the same."""
    radius, diameter = scalars[0], scalars[1]
    place = np.full(N_BALLS, -1, np.int64)
    hanging = np.full(N_BALLS, -1, np.int64)
    for k in range(ids.shape[0]):
        place[ids[k]] = k
        hanging[ids[k]] = hanging_pocket(geometry, points[k, 0], points[k, 1])
    routes = np.empty((objects.shape[0] * (ways.shape[0] + 1), ROUTE_COLUMNS))
    n_routes = 0
    for j in range(objects.shape[0]):
        ball = objects[j]
        x, y = points[place[ball], 0], points[place[ball], 1]
        n_routes = ball_routes(
            routes, n_routes, ball, j, x, y, hanging[ball], ways, pockets, radius
        )
    kicks = N_CUSHIONS + 1 if abricols else 1
    found = np.empty((max(1, n_routes * cues.shape[0] * kicks), POT_COLUMNS))
    table = (scalars, lines, tips, tip_counts, sigma_phi)
    n = 0
    for r in range(n_routes):
        route = routes[r]
        count, first = blockers(points, ids, diameter, route)
        if count > 1:
            continue
        ball = int(route[0])
        for i in range(cues.shape[0]):
            cue_ball = cues[i]
            if cue_ball == ball or (count == 1 and cue_ball != first):
                continue  # the one ball in the object ball's way must be the cue ball
            cue = (points[place[cue_ball], 0], points[place[cue_ball], 1])
            ways_here = kicks if route[2] < 0 and cue_ball != COLOURED else 1
            for way in range(ways_here):
                row = found[n]
                kick = way - 1
                if _pot(
                    row,
                    cue_ball,
                    cue,
                    hanging[cue_ball],
                    route,
                    kick,
                    min_chance,
                    points,
                    ids,
                    table,
                ):
                    double = int(route[2])
                    row[12], row[13] = i, route[15]
                    row[14] = 1 + double if double >= 0 else 0 if way == 0 else N_CUSHIONS + way
                    n += 1
                    if best_only:
                        min_chance = max(min_chance, row[6])
    order = np.arange(n)
    for k in range(1, n):  # insertion sort: a few dozen rows
        key = order[k]
        m = k - 1
        while m >= 0 and _before(found[key], found[order[m]]):
            order[m + 1] = order[m]
            m -= 1
        order[m + 1] = key
    return found[order]


@njit
def best_chances(
    positions: np.ndarray,
    on_table: np.ndarray,
    cue_masks: np.ndarray,
    object_masks: np.ndarray,
    ways: np.ndarray,
    sigma_phi: float,
    table: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, GeometryArrays],
) -> np.ndarray:
    """For each position ``k`` (``positions[k]``: 8 x 2, ``on_table[k]``), the chance of the
    likeliest pot along ``ways`` of the object balls ``object_masks[k]`` by the cue balls
    ``cue_masks[k]`` (those on the table, in ball order), no abricols, 0 without one: what
    :func:`find_pots` called for each in turn gives in its first row, in one call. ``table``:
    :func:`find_pots`' last six arguments (the table's planning arrays)."""
    scalars, lines, pockets, tips, tip_counts, geometry = table
    chances = np.zeros(positions.shape[0])
    for k in range(positions.shape[0]):
        n_on = 0
        n_cues = 0
        n_objects = 0
        for ball in range(N_BALLS):
            if on_table[k, ball]:
                n_on += 1
                n_cues += cue_masks[k, ball]
                n_objects += object_masks[k, ball]
        points = np.empty((n_on, 2))
        ids = np.empty(n_on, np.int64)
        cues = np.empty(n_cues, np.int64)
        objects = np.empty(n_objects, np.int64)
        i = c = o = 0
        for ball in range(N_BALLS):
            if on_table[k, ball]:
                points[i, 0], points[i, 1] = positions[k, ball, 0], positions[k, ball, 1]
                ids[i] = ball
                i += 1
                if cue_masks[k, ball]:
                    cues[c] = ball
                    c += 1
                if object_masks[k, ball]:
                    objects[o] = ball
                    o += 1
        rows = find_pots(
            points,
            ids,
            cues,
            objects,
            ways,
            False,
            0.0,
            True,
            sigma_phi,
            scalars,
            lines,
            pockets,
            tips,
            tip_counts,
            geometry,
        )
        if rows.shape[0]:
            chances[k] = rows[0, 6]
    return chances
