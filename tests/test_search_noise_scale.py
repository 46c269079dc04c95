"""The noise a search plans for (``?noise_scale=K``): every searching agent simulates its shots
at K times each sigma of the default execution noise, so that at a table played at another
noise (``kinghill tournament --noise-scale K``) it plans for the noise it meets; the default, 1,
is the default noise (the search's decisions as before: test_search_fixture.py)."""

import math

import pytest
from frame_support import midframe

from kinghill.agents import AgentSpecError, make_agent
from kinghill.agents.search import Arm, SearchAgent, candidates
from kinghill.envs import FrameView
from kinghill.physics import NoiseModel

SEARCHING = (
    "search",
    "search-value",
    "search-position",
    "expert",
    "expert-gumbel",
    "expert-refine",
    "expert-position",
)
SIGMAS = ("sigma_phi", "sigma_speed", "sigma_a", "sigma_b")


@pytest.mark.parametrize("name", SEARCHING)
def test_every_searching_agent_simulates_at_the_noise_it_is_told(name: str) -> None:
    default = NoiseModel()
    assert make_agent(name).noise == default
    told = make_agent(f"{name}?noise_scale=5").noise
    for sigma in SIGMAS:
        assert math.isclose(getattr(told, sigma), 5 * getattr(default, sigma))


def test_at_noise_scale_0_every_sample_of_a_shot_is_the_shot_itself() -> None:
    frame, state = midframe()
    view = FrameView(state, frame, frame.to_move)
    shot = candidates(view)[0].action
    exact, once = Arm(shot), Arm(shot)
    SearchAgent(1, noise_scale=0)._score(view, [(exact, 6)])
    SearchAgent(2, noise_scale=0)._score(view, [(once, 1)])
    assert exact.count == 6 and math.isclose(exact.total, 6 * once.total)
    noisy = Arm(shot)
    SearchAgent(1, noise_scale=5)._score(view, [(noisy, 6)])
    assert noisy.count == 6  # and played: the noise is drawn, not the exact shot


@pytest.mark.parametrize("bad", [math.nan, math.inf, -1.0, "variable", True])
def test_a_noise_scale_that_is_not_a_finite_multiple_is_refused(bad: object) -> None:
    with pytest.raises(ValueError, match="noise_scale"):
        SearchAgent(noise_scale=bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["nan", "-1", "five", "inf"])
def test_a_bad_noise_scale_in_a_spec_is_a_one_line_error(text: str) -> None:
    with pytest.raises(AgentSpecError, match="noise_scale must be a number >= 0"):
        make_agent(f"expert-position?noise_scale={text}")
