"""The index map of the flattened observation, checked against Gymnasium's real flattening of
the env's observations (``FlattenObservation``)."""

from __future__ import annotations

import re

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.wrappers import FlattenObservation

import kinghill.envs  # noqa: F401  (registers the env)
from kinghill.envs.rl.encoding import (
    DECISIONS,
    FLAT_OBSERVATION_DOC,
    flat_observation_index,
    flatten_observation,
)


def _documented() -> dict[str, tuple[int, int]]:
    """The table's (first, last) indices per key, the two halves of a pair keyed by
    ``key (me)`` / ``key (opponent)``."""
    rows = re.findall(r"^\| (\d+)(?:-(\d+))? \| `(\w+)`( \(\w+\))? \|", FLAT_OBSERVATION_DOC, re.M)
    return {key + half: (int(a), int(b or a)) for a, b, key, half in rows}


@pytest.fixture(scope="module")
def observations() -> list[tuple[dict, np.ndarray]]:
    """(Dict observation, flat observation) pairs along a frame with fouls and credits."""
    env = gym.make("kinghill/KingOfTheHill-v0", breaker="learner")
    flat = FlattenObservation(gym.make("kinghill/KingOfTheHill-v0", breaker="learner"))
    pairs = []
    for seed in range(6):
        obs, _ = env.reset(seed=seed)
        flat_obs, _ = flat.reset(seed=seed)
        env.action_space.seed(seed)
        done = False
        while not done:
            pairs.append((obs, flat_obs))
            action = env.action_space.sample()
            obs, _, terminated, truncated, _ = env.step(action)
            flat_obs, *_ = flat.step(action)
            done = terminated or truncated
    return pairs


def test_the_table_covers_every_index_once_in_the_order_gymnasium_flattens() -> None:
    index = flat_observation_index()
    documented = _documented()
    for key, part in index.items():
        halves = [v for k, v in documented.items() if k.split()[0] == key]
        assert (min(h[0] for h in halves), max(h[1] for h in halves) + 1) == (part.start, part.stop)
    spans = sorted(documented.values())
    assert spans[0][0] == 0
    assert all(a[1] + 1 == b[0] for a, b in zip(spans, spans[1:], strict=False))
    size = gym.make("kinghill/KingOfTheHill-v0").observation_space
    assert spans[-1][1] + 1 == gym.spaces.flatdim(size) == 77


def test_each_index_holds_what_the_table_says(observations: list) -> None:
    index = flat_observation_index()
    assert len(observations) > 10
    assert any(obs["fouls"][0] for obs, _ in observations)
    for obs, flat in observations:
        np.testing.assert_array_equal(flat[0:8], obs["action_mask"])
        np.testing.assert_allclose(flat[8:24].reshape(8, 2), obs["balls"], atol=1e-6)
        np.testing.assert_allclose(flat[8 + 2 * 3], obs["balls"][3, 0], atol=1e-6)
        np.testing.assert_allclose(flat[9 + 2 * 3], obs["balls"][3, 1], atol=1e-6)
        assert flat[24 + obs["credited"][0]] == 1 and flat[32 + obs["credited"][1]] == 1
        assert flat[24:40].sum() == 2
        assert flat[40 + int(obs["decision"])] == 1 and flat[40:44].sum() == 1
        np.testing.assert_array_equal(flat[44:46], obs["extension"])
        assert flat[46 + obs["fouls"][0]] == 1 and flat[49 + obs["fouls"][1]] == 1
        np.testing.assert_array_equal(flat[52:60], obs["on_table"])
        assert flat[60 + obs["required"][0]] == 1 and flat[68 + obs["required"][1]] == 1
        assert flat[76] == pytest.approx(float(obs["shots"][0]))
        np.testing.assert_allclose(flat[index["balls"]].reshape(8, 2), obs["balls"], atol=1e-6)
    assert DECISIONS[1].value == "shot"  # index 41 is the shot decision, as documented
    assert any(flat[41] == 1 for _, flat in observations)


def test_flatten_observation_writes_what_gymnasium_flattens(observations: list) -> None:
    """The masked env's fast flattening gives Gymnasium's ``FlattenObservation`` exactly, on
    the frames' observations and on samples of the whole space."""
    space = gym.make("kinghill/KingOfTheHill-v0").observation_space
    space.seed(0)
    samples = list(observations)
    samples += [(s, gym.spaces.flatten(space, s)) for s in (space.sample() for _ in range(200))]
    for obs, expected in samples:
        out = np.full(77, np.nan, np.float32)
        flatten_observation(obs, out)
        assert np.array_equal(out, np.asarray(expected, np.float32))
