"""The recorded shots of ``tests/data/physics_fixture.npz`` (issue 18 item 2): what the engine
gives on the 501 shots of the peer suite (``benchmarks/peer/suite.json``) and on 10,000
seeded random shots on random layouts (frozen balls touching each other or a cushion, balls
hanging in the mouths, every cushion and jaw law and restitution relation, slow pushes and shots
at the pockets): each shot's event log (kind, balls, cushion or pocket, time) and final
positions.

It was recorded from the pure-Python engine before the compiled one replaced it, so the compiled
engine must reproduce it (``tests/test_physics_fixture.py``). Regenerate it only when the physics
is meant to change: ``python tests/physics_fixture.py``, then commit the file.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from kinghill.experiments.bench.physics import DEFAULT_SUITE
from kinghill.physics import (
    N_BALLS,
    BallBall,
    BallCushion,
    CentreLine,
    Event,
    Pocketed,
    Shot,
    ShotResult,
    TableSpec,
    TableState,
    simulate,
)
from kinghill.physics.geometry import TableGeometry

PATH = Path(__file__).parent / "data" / "physics_fixture.npz"
SUITE = DEFAULT_SUITE
RANDOM_SHOTS = 10_000
SEED = 18
LAWS = ("mathavan_2010", "han_2005", "simple")
RESTITUTIONS = ("constant", "han_2005")
BALL_BALL, BALL_CUSHION, POCKETED, CENTRE_LINE = 0, 1, 2, 3
"""Event kinds as recorded: ``(kind, ball, other ball / cushion / pocket / -1, time)``."""


def specs() -> list[TableSpec]:
    """The table specs of the fixture: the default first, then every pair of cushion and jaw
    law with every restitution relation (36), then a few with other coefficients."""
    out = [TableSpec()]
    for cl in LAWS:
        for jl in LAWS:
            for cr in RESTITUTIONS:
                for jr in RESTITUTIONS:
                    out.append(
                        TableSpec(
                            cushion_law=cl,
                            jaw_law=jl,
                            cushion_restitution=cr,
                            jaw_restitution=jr,
                        )
                    )
    base = TableSpec()
    out += [
        replace(base, e_cushion=0.98, mu_cushion=0.14),
        replace(base, mu_slide=0.15, mu_roll=0.015, e_ball=0.9),
        replace(base, e_jaw=0.6, fall_drop=0.004),
    ]
    return out


def spec_overrides(spec: TableSpec) -> dict[str, object]:
    """The fields of ``spec`` that differ from the defaults (for the record)."""
    base = TableSpec()
    return {
        k: v
        for k, v in vars(spec).items()
        if v != getattr(base, k)  # frozen dataclass without slots: vars() lists its fields
    }


@dataclass(frozen=True)
class Case:
    spec: int
    state: TableState
    shot: Shot


def peer_cases() -> list[Case]:
    """The peer suite's break and random shots, on the default table."""
    suite = json.loads(SUITE.read_text())
    spec = TableSpec()
    out = []
    for s in suite["shots"]:
        state = TableState(spec, np.array(s["balls"], dtype=float))
        out.append(Case(0, state, Shot(int(s["cue"]), s["aim"], s["speed"], s["a"], s["b"])))
    return out


def _hanging_spots(spec: TableSpec, rng: np.random.Generator, n: int) -> list[tuple[float, float]]:
    """Up to ``n`` positions where a ball hangs in a mouth (sampled near the pockets)."""
    geometry = TableGeometry.from_spec(spec)
    shapes = list(geometry.pockets.values())
    out: list[tuple[float, float]] = []
    for _ in range(200):
        if len(out) >= n:
            break
        ps = shapes[int(rng.integers(len(shapes)))]
        (mx, my), (ax, ay) = ps.mouth_centre, ps.axis
        d = rng.uniform(-2.0 * spec.radius, 0.02)
        s = rng.uniform(-0.02, 0.02)
        x, y = mx + ax * d - ay * s, my + ay * d + ax * s
        if geometry.hanging_in(x, y) is not None:
            out.append((x, y))
    return out


def random_case(rng: np.random.Generator, n_specs: int) -> Case:
    """One random layout and shot (seeded): 1-8 balls, some frozen to a ball or a cushion, some
    hanging in a mouth; the cue ball sent anywhere, at a ball, or at a pocket."""
    k = int(rng.integers(n_specs)) if rng.random() < 0.7 else 0
    spec = specs_cache()[k]
    r, L, W = spec.radius, spec.length, spec.width
    n = int(rng.integers(1, N_BALLS + 1)) if rng.random() < 0.4 else N_BALLS
    pos: list[tuple[float, float]] = []
    hanging = _hanging_spots(spec, rng, int(rng.integers(1, 3))) if rng.random() < 0.15 else []
    tries = 0
    while len(pos) < n and tries < 1000:
        tries += 1
        u = rng.random()
        if hanging:
            p = hanging.pop()
        elif u < 0.15 and pos:  # frozen to another ball (exactly touching)
            q = pos[int(rng.integers(len(pos)))]
            a = rng.uniform(0.0, 2.0 * math.pi)
            p = (q[0] + 2 * r * math.cos(a), q[1] + 2 * r * math.sin(a))
        elif u < 0.25:  # frozen to a cushion
            side = int(rng.integers(4))
            t = rng.uniform(r + 0.1, 1.0 - 0.1)
            p = [(r, t * W), (L - r, t * W), (t * L, r), (t * L, W - r)][side]
        else:
            p = (rng.uniform(r + 1e-3, L - r - 1e-3), rng.uniform(r + 1e-3, W - r - 1e-3))
        try:
            candidate = TableState.of(spec, dict(enumerate([*pos, p])))
        except ValueError:
            continue
        del candidate
        pos.append(p)
    balls = list(range(N_BALLS))
    rng.shuffle(balls)
    placed = {balls[i]: p for i, p in enumerate(pos)}
    state = TableState.of(spec, placed)
    cue = int(rng.choice(sorted(placed)))
    cx, cy = placed[cue]
    u = rng.random()
    if u < 0.3 and len(placed) > 1:  # at another ball
        other = int(rng.choice([b for b in placed if b != cue]))
        ox, oy = placed[other]
        phi = math.atan2(oy - cy, ox - cx) + rng.normal(0.0, 0.02)
    elif u < 0.5:  # at a pocket's aim point
        ps = list(TableGeometry.from_spec(spec).pockets.values())[int(rng.integers(6))]
        phi = math.atan2(ps.aim[1] - cy, ps.aim[0] - cx) + rng.normal(0.0, 0.01)
    else:
        phi = rng.uniform(-math.pi, math.pi)
    w = rng.random()
    speed = rng.uniform(0.005, 0.3) if w < 0.1 else rng.uniform(0.3, 8.0)
    rad, ang = 0.5 * math.sqrt(rng.random()), rng.uniform(0, 2 * math.pi)
    shot = Shot(cue, phi, speed, rad * math.cos(ang), rad * math.sin(ang))
    return Case(k, state, shot)


_SPECS: list[TableSpec] = []


def specs_cache() -> list[TableSpec]:
    if not _SPECS:
        _SPECS.extend(specs())
    return _SPECS


def cases(n_random: int = RANDOM_SHOTS) -> list[Case]:
    """The peer suite's 501 shots, then ``n_random`` random ones (seeded)."""
    rng = np.random.default_rng(SEED)
    n_specs = len(specs_cache())
    return peer_cases() + [random_case(rng, n_specs) for _ in range(n_random)]


def encode_events(events: tuple[Event, ...]) -> tuple[np.ndarray, np.ndarray]:
    """``(ids (n, 3) int8: kind, ball, other), times (n,) float64)`` of an event log."""
    ids = np.zeros((len(events), 3), dtype=np.int8)
    times = np.zeros(len(events))
    for k, e in enumerate(events):
        if isinstance(e, BallBall):
            ids[k] = (BALL_BALL, e.a, e.b)
        elif isinstance(e, BallCushion):
            ids[k] = (BALL_CUSHION, e.ball, int(e.cushion))
        elif isinstance(e, Pocketed):
            ids[k] = (POCKETED, e.ball, int(e.pocket))
        else:
            assert isinstance(e, CentreLine)
            ids[k] = (CENTRE_LINE, e.ball, -1)
        times[k] = e.t
    return ids, times


def record(results: list[ShotResult], all_cases: list[Case]) -> dict[str, np.ndarray]:
    """The arrays of the fixture file."""
    n = len(all_cases)
    ids, times, offsets = [], [], [0]
    for res in results:
        i, t = encode_events(res.events)
        ids.append(i)
        times.append(t)
        offsets.append(offsets[-1] + len(t))
    return {
        "spec": np.array([c.spec for c in all_cases], dtype=np.int8),
        "positions": np.array([c.state.positions for c in all_cases]),
        "shot": np.array(
            [(c.shot.cue_ball, c.shot.phi, c.shot.speed, c.shot.a, c.shot.b) for c in all_cases]
        ),
        "final": np.array([r.final.positions for r in results]),
        "duration": np.array([r.duration for r in results]),
        "event_ids": np.concatenate(ids),
        "event_times": np.concatenate(times),
        "event_offsets": np.array(offsets, dtype=np.int64),
        "specs": np.array(json.dumps([spec_overrides(s) for s in specs_cache()])),
        "n": np.array(n),
    }


def load() -> tuple[list[TableSpec], dict[str, np.ndarray]]:
    """The fixture's specs and arrays."""
    with np.load(PATH) as data:
        arrays = {k: data[k] for k in data.files}
    return [TableSpec(**o) for o in json.loads(str(arrays["specs"]))], arrays


def case_of(spec: TableSpec, positions: np.ndarray, shot: np.ndarray) -> tuple[TableState, Shot]:
    """The recorded case's state and shot."""
    on = ~np.isnan(positions[:, 0])
    state = TableState(spec, np.where(on[:, None], positions, 0.0), on)
    return state, Shot(int(shot[0]), float(shot[1]), float(shot[2]), float(shot[3]), float(shot[4]))


def main() -> None:
    all_cases = cases()
    results = [simulate(c.state, c.shot) for c in all_cases]
    arrays = record(results, all_cases)
    PATH.parent.mkdir(exist_ok=True)
    np.savez_compressed(PATH, **arrays)  # type: ignore[arg-type]
    n_ev = len(arrays["event_times"])
    pots = int((arrays["event_ids"][:, 0] == POCKETED).sum())
    print(f"{PATH}: {len(all_cases)} shots, {n_ev} events, {pots} pots")


if __name__ == "__main__":
    main()
