"""Pictures of the pockets: a labelled drawing of a corner and a middle pocket (from the same
:class:`~kinghill.physics.TableGeometry` the engine plays on), and the acceptance charts."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kinghill.experiments.figures.acceptance import DROP, HANG, OUT, Chart
from kinghill.physics import Pocket, TableGeometry, TableSpec

COLOURS = {DROP: "#2e7d32", HANG: "#f9a825", OUT: "#c62828"}
"""Chart colours: dropped, came to rest hanging in the mouth, rattled out."""


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _draw_pocket(ax: Any, geometry: TableGeometry, pocket: Pocket) -> None:
    """One pocket in its own frame (mm; across the mouth to the right, into the pocket up)."""
    spec, shape = geometry.spec, geometry.pockets[pocket]
    ox, oy = shape.mouth_centre
    ax_, ay_ = shape.axis

    def local(p: tuple[float, float]) -> tuple[float, float]:
        dx, dy = p[0] - ox, p[1] - oy
        return (1000 * (dx * ay_ - dy * ax_), 1000 * (dx * ax_ + dy * ay_))

    dims = spec.pocket(shape.kind)
    mouth, radius, opening = dims.mouth, dims.jaw_radius, dims.facing_angle
    depth, cut = dims.fall_depth, dims.fall_radius
    plt = _pyplot()
    # the slate's cut (the hole), then the cushions over it
    cx, cy = local(shape.capture_centre)
    ax.add_patch(plt.Circle((cx, cy), 1000 * cut, fc="#212121", ec="none", zorder=1))
    for cushion in pocket.adjacent_cushions:
        outline = [local(p) for p in geometry.cushions[cushion].outline]
        ax.add_patch(plt.Polygon(outline, fc="#1b5e20", ec="#a5d6a7", lw=1.0, zorder=2))
        ax.annotate(
            cushion.name.lower(),
            outline[len(outline) // 2],
            fontsize=7,
            color="w",
            zorder=5,
            ha="center",
        )
    for el in geometry.elements:
        if el[0] == "circle" and el[1] in pocket.adjacent_cushions:
            tip = local((el[2], el[3]))
            if math.hypot(*tip) < 0.2 * 1000:
                ax.add_patch(
                    plt.Circle(
                        tip, 1000 * el[4], fill=False, ec="#fff59d", lw=0.8, ls=":", zorder=3
                    )
                )
    # the mouth: the free gap between the tips, on the mouth line through their centres
    (ex0, ey0), (ex1, ey1) = (local(p) for p in shape.mouth_ends)
    ax.annotate(
        "",
        (ex0, ey0),
        (ex1, ey1),
        zorder=6,
        arrowprops={"arrowstyle": "<->", "color": "#fff59d", "lw": 1.2},
    )
    ax.text(
        0,
        2,
        f"mouth {1000 * mouth:.1f} mm\n(free gap, narrowest)",
        color="#fff59d",
        ha="center",
        va="bottom",
        fontsize=8,
        zorder=6,
    )
    ax.plot([-70, 70], [0, 0], color="#fff59d", lw=0.5, ls="--", zorder=4)
    # the fall edge on the axis, and a hanging ball on the shelf in front of it
    ax.plot([0], [1000 * depth], "w+", ms=9, zorder=6)
    ax.annotate(
        f"fall edge {1000 * depth:+.1f} mm on the axis\n"
        f"(edge of the slate's cut, r {1000 * cut:.0f} mm)",
        (0, 1000 * depth),
        (-72, 45),
        color="w",
        fontsize=8,
        zorder=6,
        arrowprops={"arrowstyle": "->", "color": "w", "lw": 0.8},
    )
    rx = 1000 * spec.radius
    rest = 1000 * depth - 1.0  # a ball hanging 1 mm in front of the fall edge
    ax.add_patch(plt.Circle((0, rest), rx, fc="#fffde7", ec="k", alpha=0.3, zorder=4))
    ax.text(
        0,
        rest - rx - 2,
        "ball hanging on the shelf",
        ha="center",
        va="top",
        fontsize=7,
        color="w",
        zorder=6,
    )
    edge = [local(p) for p in _playing_edge(geometry, shape)]
    ax.plot([p[0] for p in edge], [p[1] for p in edge], color="#c5e1a5", lw=0.8, ls=":", zorder=4)
    ax.text(
        -72,
        -72,
        "dotted: edge of the playing area for ball centres",
        color="#c5e1a5",
        fontsize=7,
        zorder=6,
    )
    ax.text(
        0.98,
        0.02,
        f"jaw tip radius {1000 * radius:.0f} mm\n"
        f"facings {'open' if opening >= 0 else 'close in'} {abs(math.degrees(opening)):.0f} deg "
        f"from the axis\nball {1000 * spec.ball_diameter:.0f} mm",
        transform=ax.transAxes,
        ha="right",
        va="bottom",
        fontsize=8,
        color="w",
    )
    ax.set_facecolor("#2e7d32")
    ax.set_xlim(-75, 75)
    ax.set_ylim(-75, 60)
    ax.set_aspect("equal")
    ax.set_xlabel("across the mouth (mm)")
    ax.set_ylabel("into the pocket (mm), 0 = mouth line")
    ax.set_title(f"{shape.kind} pocket ({pocket.name.lower()})")


def _playing_edge(geometry: TableGeometry, shape: Any) -> list[tuple[float, float]]:
    """Points of the playing area's edge for ball centres (R inside the noses) near a pocket."""
    spec, r = geometry.spec, geometry.spec.radius
    x0, y0, x1, y1 = r, r, spec.length - r, spec.width - r
    mx, my = shape.mouth_centre
    cx, cy = min(max(mx, x0), x1), min(max(my, y0), y1)
    if shape.kind == "middle":
        return [(cx - 0.08, cy), (cx + 0.08, cy)]
    sx = 1.0 if cx == x0 else -1.0
    sy = 1.0 if cy == y0 else -1.0
    return [(cx + 0.1 * sx, cy), (cx, cy), (cx, cy + 0.1 * sy)]


def draw_pockets(spec: TableSpec, path: Path) -> None:
    """A labelled drawing of a corner and a middle pocket of ``spec``, written to ``path`` (PNG)."""
    plt = _pyplot()
    geometry = TableGeometry.from_spec(spec)
    fig, axes = plt.subplots(1, 2, figsize=(12, 5.6))
    _draw_pocket(axes[0], geometry, Pocket.REAR_RIGHT)
    _draw_pocket(axes[1], geometry, Pocket.MIDDLE_RIGHT)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def draw_charts(charts: Sequence[Chart], path: Path) -> None:
    """The acceptance charts, one panel per approach: offset (mm) against speed (m/s), each
    cell coloured by its outcome (dropped, hanging, out)."""
    plt = _pyplot()
    from matplotlib.colors import ListedColormap

    fig, axes = plt.subplots(1, len(charts), figsize=(3.2 * len(charts), 3.6), squeeze=False)
    order = [DROP, HANG, OUT]
    cmap = ListedColormap([COLOURS[k] for k in order])
    for ax, chart in zip(axes[0], charts, strict=True):
        grid = [[order.index(o) for o in row] for row in chart.outcomes]
        mm = [1000 * o for o in chart.offsets]
        step = (mm[1] - mm[0]) if len(mm) > 1 else 1.0
        ax.imshow(
            grid,
            cmap=cmap,
            vmin=0,
            vmax=2,
            aspect="auto",
            origin="lower",
            extent=(mm[0] - step / 2, mm[-1] + step / 2, -0.5, len(chart.speeds) - 0.5),
        )
        ax.set_yticks(range(len(chart.speeds)), [f"{v:g}" for v in chart.speeds])
        ax.set_xlabel("gap to cushion (mm)" if chart.approach == "corner-rail" else "offset (mm)")
        ax.set_title(chart.approach, fontsize=10)
    axes[0][0].set_ylabel("speed (m/s)")
    handles = [plt.Rectangle((0, 0), 1, 1, fc=COLOURS[k]) for k in order]
    fig.legend(
        handles,
        ["drops", "hangs in the mouth", "rattles out / misses"],
        loc="lower center",
        ncol=3,
        fontsize=9,
    )
    fig.tight_layout(rect=(0, 0.08, 1, 1))
    fig.savefig(path, dpi=110)
    plt.close(fig)
