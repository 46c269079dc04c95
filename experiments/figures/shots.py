"""Canonical shots drawn as PNG trajectory plots on the table, for people to look at.

Stun, draw, follow, a cut with throw, side spin off a cushion and a rail shot into a corner:
each is simulated with :func:`kinghill.physics.simulate` and drawn with the cushion noses, jaws
and pocket captures of :class:`kinghill.physics.TableGeometry`.
"""

from __future__ import annotations

import math
from pathlib import Path

from kinghill.physics import (
    BallBall,
    BallCushion,
    Pocketed,
    Shot,
    ShotResult,
    TableGeometry,
    TableSpec,
    TableState,
    simulate,
)

SPEC = TableSpec()
R, L, W = SPEC.radius, SPEC.length, SPEC.width


def canonical_shots() -> dict[str, tuple[TableState, Shot, str]]:
    """Name -> (layout, shot, caption) of every canonical shot."""
    y = W / 2
    cut = math.radians(30)
    return {
        "stun": (
            TableState.of(SPEC, {1: (1.2, y), 0: (1.8, y)}),
            Shot(1, 0.0, 2.5, 0.0, -0.12),
            "stun: centre-ish hit, the cue ball stops dead",
        ),
        "draw": (
            TableState.of(SPEC, {1: (1.2, y), 0: (1.8, y)}),
            Shot(1, 0.0, 3.0, 0.0, -0.45),
            "draw (b = -0.45): the cue ball comes back",
        ),
        "follow": (
            TableState.of(SPEC, {1: (0.9, y), 0: (1.5, y)}),
            Shot(1, 0.0, 2.5, 0.0, 0.45),
            "follow (b = +0.45): the cue ball goes on",
        ),
        "cut_throw": (
            TableState.of(
                SPEC,
                {1: (1.0, y), 0: (1.0 + 0.5 + 2 * R * math.cos(cut), y + 2 * R * math.sin(cut))},
            ),
            Shot(1, 0.0, 2.0),
            "30 deg stun cut: the object ball is thrown off the line of centres",
        ),
        "side_spin_cushion": (
            TableState.of(SPEC, {1: (L - 0.9, y)}),
            Shot(1, 0.0, 2.0, 0.45, 0.0),
            "right english into the rear cushion: the ball comes off to the shooter's right",
        ),
        "rail_into_corner": (
            TableState.of(SPEC, {1: (L - 1.2, R)}),
            Shot(1, 0.0, 1.2, 0.0, 0.4),
            "rolling along the right cushion into the rear-right corner",
        ),
    }


def draw(res: ShotResult, caption: str, path: Path) -> None:
    """Draw one simulated shot (paths, start and end positions, events) to ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    geometry = TableGeometry.from_spec(res.final.spec)
    fig, ax = plt.subplots(figsize=(12, 6.6))
    ax.set_facecolor("#2e7d32")
    ax.add_patch(plt.Rectangle((0, 0), L, W, fill=False, ec="#a5d6a7", lw=0.5, ls=":"))
    for c in geometry.cushions.values():
        (px, py), (qx, qy) = c.nose
        ax.plot([px, qx], [py, qy], color="#5d4037", lw=2)
        xs, ys = zip(*c.outline, strict=True)
        ax.plot(xs, ys, color="#5d4037", lw=1.2)
    for p in geometry.pockets.values():
        ax.add_patch(plt.Circle(p.capture_centre, p.capture_radius, fill=False, ls="--", ec="k"))
        ax.plot(*p.aim, "k+", ms=5)
    ax.axvline(L / 2, color="#a5d6a7", lw=0.6)
    tr = res.trajectory
    assert tr is not None
    for b in range(8):
        if not tr.on_table[0, b]:
            continue
        colour = "#d32f2f" if b == 0 else ("#fff176" if b == res.shot.cue_ball else "white")
        ax.plot(tr.positions[:, b, 0], tr.positions[:, b, 1], color=colour, lw=1.2)
        ax.add_patch(plt.Circle(tr.positions[0, b], R, fc="none", ec=colour, ls=":"))
        if res.final.on_table[b]:
            ax.add_patch(plt.Circle(res.final.positions[b], R, fc=colour, ec="k", alpha=0.9))
    names = []
    for e in res.events:
        if isinstance(e, BallBall):
            names.append(f"{e.t:.2f}s {e.a}->{e.b}")
        elif isinstance(e, BallCushion):
            names.append(f"{e.t:.2f}s {e.ball}|{e.cushion.name.lower()}")
        elif isinstance(e, Pocketed):
            names.append(f"{e.t:.2f}s {e.ball} in {e.pocket.name.lower()}")
    ax.set_title(caption + "\n" + ", ".join(names[:8]), fontsize=9)
    ax.set_xlim(-0.08, L + 0.08)
    ax.set_ylim(-0.08, W + 0.08)
    ax.set_aspect("equal")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def write_shots(out: Path, fps: float = 240.0) -> list[Path]:
    """Simulate each canonical shot and draw it as ``out/NAME.png`` (sampled at ``fps``)."""
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, (state, shot, caption) in canonical_shots().items():
        res = simulate(state, shot, trajectory=True, trajectory_fps=fps)
        path = out / f"{name}.png"
        draw(res, caption, path)
        paths.append(path)
    return paths
