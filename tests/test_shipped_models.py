"""The models shipped in the package (``kinghill/agents/data``) load by name and play: one frame
each, execution noise on, through the tournaments' frame loop, without a single decision failing
(a fault would be charged as a foul and the frame would go on, hiding a broken model)."""

from __future__ import annotations

import numpy as np
import pytest

from kinghill.agents import baselines, make_agent, missing_extra
from kinghill.experiments.tournaments.frame_player import InProcessSeat, new_game, play_out, seeds
from kinghill.experiments.tournaments.options import FrameOptions

OPTIONS = FrameOptions(noise=True, max_shots=24)
"""Noise on as in tournaments; a frame cut at 24 shots, enough for the break, shots after it
and fouls to come up, and quick (the RLlib checkpoint's frame takes about 9 s with Ray's
start, so it is not marked slow)."""
QUICK = {
    "expert": "?budget=8",
    "expert-gumbel": "?budget=8",
    "search-value": "?budget=8",
    "search-position": "?budget=8",
}
"""Options that keep the searching models' frame short."""


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


def test_the_shipped_models_are_in_the_package_with_their_runs() -> None:
    found = {b.name: b for b in baselines()}
    assert set(found) == {
        "expert",
        "expert-gumbel",
        "expert-refine",
        "expert-position",
        "expert-policy",
        "search-value",
        "search-position",
        "maskable-ppo",
        "ppo-aim",
        "rllib-selfplay",
    }
    assert all(b.path.exists() and "agents/data" in b.path.as_posix() for b in found.values())
    assert found["maskable-ppo"].run is not None
    assert found["maskable-ppo"].run["config"]["algo"] == "maskable-ppo"
    assert found["rllib-selfplay"].extra == "rllib"


@pytest.mark.parametrize("name", [b.name for b in baselines()])
def test_each_shipped_model_plays_a_frame_by_name(name: str) -> None:
    if missing_extra(name):
        pytest.skip(f"{name} needs the {missing_extra(name)} extra")
    assert play_one_frame(name + QUICK.get(name, "")) > 0


def test_an_old_docs_training_path_plays_the_shipped_model() -> None:
    """Specs of run folders and reports written before the models moved into the package."""
    old = make_agent("expert:docs/training/expert2.npz?budget=120", 0)
    shipped = make_agent("expert", 0)
    assert old.budget == 120  # type: ignore[attr-defined]
    assert np.array_equal(old.net.w1, shipped.net.w1)  # type: ignore[attr-defined]
