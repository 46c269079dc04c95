"""The models shipped in ``docs/training`` load by their agent specs and play: one frame each,
execution noise on, through the tournaments' frame loop, without a single decision failing
(a fault would be charged as a foul and the frame would go on, hiding a broken model)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kinghill.agents import make_agent
from kinghill.experiments.tournaments.frame_player import InProcessSeat, new_game, play_out, seeds
from kinghill.experiments.tournaments.options import FrameOptions

SHIPPED = Path(__file__).resolve().parent.parent / "docs" / "training"
OPTIONS = FrameOptions(noise=True, max_shots=24)
"""Noise on as in tournaments; a frame cut at 24 shots, enough for the break, shots after it
and fouls to come up, and quick (the RLlib checkpoint's frame takes about 9 s with Ray's
start, so it is not marked slow)."""


def play_one_frame(spec: str, seed: int = 7) -> int:
    """Play one frame of ``spec`` (breaking) against ``random``; return its decisions, after
    checking that none of them failed and that the frame ended."""
    game_seed, seed_a, seed_b = seeds(seed)
    agents = [make_agent(spec, seed_a), make_agent("random", seed_b)]
    game = new_game(OPTIONS)
    game.reset(seed=game_seed, breaker=0)
    made = 0
    for decided in play_out(game, [InProcessSeat(agent) for agent in agents]):
        assert decided.fault is None, f"{spec}: {decided.fault}"
        made += decided.turn.player == 0
    assert game.is_over
    return made


@pytest.mark.parametrize("model", sorted(p.name for p in SHIPPED.glob("*.zip")))
def test_each_shipped_policy_plays_a_frame(model: str) -> None:
    assert play_one_frame(f"policy:{SHIPPED / model}") > 0


def test_the_shipped_value_net_plays_a_frame() -> None:
    net = SHIPPED / "value-heuristic.npz"
    assert play_one_frame(f"search-value:{net}?budget=8") > 0


def test_the_shipped_rllib_checkpoint_plays_a_frame() -> None:
    pytest.importorskip("ray.rllib")
    assert play_one_frame(f"rllib:{SHIPPED / 'rllib-selfplay'}") > 0
