"""What the pockets accept: the character of a pyramid table's pockets, measured on a 1 mm grid
of lateral offsets (each bound below is exact on that grid)."""

from pathlib import Path

import pytest
from physics_support import SPEC

from kinghill.experiments.cli.pockets import write_pockets
from kinghill.experiments.figures.acceptance import (
    DROP,
    HANG,
    OUT,
    Chart,
    chart,
    trial,
    window_table,
)

MM = [k / 1000 for k in range(-12, 13)]


def dropping(approach: str, speed: float) -> list[int]:
    c = chart(SPEC, approach, (speed,), MM)
    return [round(1000 * o) for o in c.dropping(speed)]


def test_corner_diagonal_at_2_m_s_takes_a_few_mm_and_rattles_8_mm_out() -> None:
    """Along the corner's diagonal at 2 m/s every offset within 3 mm drops and 8 mm off (either
    side) rattles out."""
    drops = dropping("corner-diagonal", 2.0)
    assert all(o in drops for o in range(-3, 4))
    assert 8 not in drops and -8 not in drops
    assert trial(SPEC, "corner-diagonal", 2.0, 0.008).touches >= 1  # it met a jaw


def test_corner_acceptance_narrows_with_speed() -> None:
    """At 5 m/s the corner takes fewer offsets than at 2 m/s, and at 0.5 m/s more: a fast ball
    thrown off a tip crosses the hole before it can sink."""
    slow, medium, fast = (len(dropping("corner-diagonal", v)) for v in (0.5, 2.0, 5.0))
    assert slow > medium > fast


def test_middle_acceptance_narrows_with_speed() -> None:
    """Into a middle pocket perpendicular: at 1 m/s a ball 13 mm off (it clips a tip) drops, at
    5 m/s the same ball and one 12 mm off rattle out (the far facing throws them back before
    they sink) while 8 mm off still drops; 5 m/s takes fewer offsets than 1 m/s (README table:
    +-14 at 1 m/s, +-10 at 5 m/s; the bounds here leave 1-2 mm of tolerance)."""
    mm = [-0.013, -0.012, -0.008, 0.008, 0.012, 0.013]
    slow, fast = chart(SPEC, "middle-0", (1.0, 5.0), mm).outcomes
    assert slow == (DROP,) * 6
    assert fast == (OUT, OUT, DROP, DROP, OUT, OUT)
    wide = [k / 1000 for k in range(-16, 17)]
    c = chart(SPEC, "middle-0", (1.0, 5.0), wide)
    assert len(c.dropping(5.0)) < len(c.dropping(1.0))


def test_middle_at_3_m_s_takes_4_mm_and_not_14() -> None:
    """Into a middle pocket perpendicular at 3 m/s: +-4 mm drops, +-14 mm does not."""
    c = chart(SPEC, "middle-0", (3.0,), [-0.014, -0.004, 0.004, 0.014])
    assert c.outcomes[0] == (OUT, DROP, DROP, OUT)


def test_a_frozen_rail_ball_stops_dropping_between_1_2_and_1_5_m_s() -> None:
    """Frozen to the long cushion, the corner takes the ball up to 1.2 m/s and not at 1.5."""
    c = chart(SPEC, "corner-rail", (0.8, 1.2, 1.5), [0.0])
    assert [row[0] for row in c.outcomes] == [DROP, DROP, OUT]


def test_window_is_the_widest_run_and_the_table_shows_it() -> None:
    c = Chart(
        "middle-0", (1.0,), (-0.002, -0.001, 0.0, 0.001, 0.002), ((DROP, OUT, DROP, DROP, HANG),)
    )
    assert c.window(1.0) == (0.0, 0.001)
    assert "| middle-0 | +0..+1 |" in window_table([c])
    with pytest.raises(ValueError, match="approach"):
        trial(SPEC, "corner-sideways", 1.0, 0.0)


def test_pockets_command_writes_drawing_charts_and_table(tmp_path: Path) -> None:
    table = write_pockets(tmp_path, SPEC, speeds=(1.0, 3.0))
    assert {p.name for p in tmp_path.iterdir()} == {
        "pockets.png",
        "acceptance.png",
        "acceptance.md",
    }
    assert table.count("\n") == 1 + 5 and "corner-rail" in table
