"""Random weights of a net with one tanh hidden layer, for the value and prior nets' tests."""

import numpy as np


def random_layers(
    n_features: int, seed: int = 0, hidden: int = 4
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``w1``, ``b1``, ``w2``, ``b2`` drawn from a seeded normal (the output bias 0)."""
    rng = np.random.default_rng(seed)
    return (
        rng.normal(size=(n_features, hidden)).astype(np.float32),
        rng.normal(size=hidden).astype(np.float32),
        rng.normal(size=(hidden, 1)).astype(np.float32),
        np.zeros(1, np.float32),
    )
