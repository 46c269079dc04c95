"""The Gymnasium environment kinghill/KingOfTheHill-v0 (issue 4): checker, seeding, rewards,
episode ends, bad input, snapshots, opponents."""

from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import kinghill.envs  # noqa: F401  (registers the env)
from kinghill.envs import ChoiceAction, FrameView, KingOfTheHillEnv, RewardWeights, ShotAction
from kinghill.envs.rules import Decision
from kinghill.physics import BREAK_BALL, Shot


def _make(**kwargs: Any) -> KingOfTheHillEnv:
    env = gym.make("kinghill/KingOfTheHill-v0", **kwargs)
    assert isinstance(env.unwrapped, KingOfTheHillEnv)
    return env.unwrapped


def test_gymnasium_env_checker_passes_with_render_checks() -> None:
    env = gym.make("kinghill/KingOfTheHill-v0", render_mode="rgb_array", breaker="learner")
    check_env(env.unwrapped)
    frame = env.unwrapped.render()
    assert frame is not None and frame.ndim == 3 and frame.shape[2] == 3 and frame.dtype == np.uint8


def _episode(seed: int) -> list[Any]:
    """Observations, rewards and rulings of up to 6 random steps from ``reset(seed)``."""
    env = _make()
    obs, _ = env.reset(seed=seed)
    env.action_space.seed(seed)
    trace = [obs["balls"].tobytes()]
    for _ in range(6):
        obs, reward, term, trunc, info = env.step(env.action_space.sample())
        trace += [obs["balls"].tobytes(), reward, info["ruling"]]
        if term or trunc:
            break
    return trace


def test_reset_with_seed_is_bit_identical() -> None:
    """Issue 4: reset(seed=...) makes episodes reproducible bit for bit."""
    assert _episode(11) == _episode(11)
    assert _episode(11) != _episode(12)


def _hand_back(view: FrameView) -> Any:
    """An opponent that always hands the shot back (10.4) and otherwise taps its lowest ball."""
    if view.decision is Decision.CHOICE:
        return ChoiceAction(play_on=False)
    return ShotAction(Shot(view.state.balls_on_table()[0], 0.0, 0.5))


def test_break_then_choice_and_rewards() -> None:
    """A learner's miss on the break is a foul (R-fouls a): reward = foul weight; the opponent
    (always handing back) makes the learner play again (10.4)."""
    weights = RewardWeights(white=0.5, foul=-2.0, win=10.0, loss=-10.0)
    env = _make(opponent=_hand_back, breaker="learner", reward_weights=weights, noise=False)
    env.reset(seed=3)
    # Break aimed straight at the front cushion (away from every ball): a miss.
    miss = ShotAction(Shot(BREAK_BALL, np.pi, 0.3), place=(0.4, 0.9))
    obs, reward, term, trunc, info = env.step(miss)
    assert reward == pytest.approx(-2.0)
    assert not term and not trunc
    assert obs["decision"] == 0 or obs["decision"] == 1  # handed back: the learner shoots again
    assert obs["fouls"][0] == 1
    assert "R-fouls" in info["ruling"]
    # A second foul loses the frame (10.5): terminated with the loss added.
    _, reward, term, trunc, info = env.step(ShotAction(Shot(BREAK_BALL, np.pi, 0.3)))
    assert term and not trunc
    assert reward == pytest.approx(-2.0 - 10.0)
    assert info["frame"].winner == 1


class _Sloppy:
    """Breaks away from every ball (a miss, a foul) and plays on after the opponent's foul."""

    def act(self, view: FrameView) -> Any:
        if view.decision is Decision.CHOICE:
            return ChoiceAction(play_on=True)
        return ShotAction(Shot(BREAK_BALL, np.pi, 0.3))


def test_loss_on_opponents_shot_is_rewarded() -> None:
    """The frame lost on the opponent's turn still reaches the learner's reward (issue 4)."""
    env = _make(opponent=_Sloppy(), breaker="opponent", noise=False, shot_limit=50)
    obs, info = env.reset(seed=0)
    assert obs["fouls"][1] == 1 and obs["decision"] == 2  # the learner's 10.4 choice
    _, reward, term, _, info = env.step(ChoiceAction(play_on=False))  # hand it back: foul again
    assert term and info["frame"].winner == 0
    assert reward == pytest.approx(RewardWeights().win)


def test_shot_limit_truncates() -> None:
    """R-truncate: truncated, not terminated, at the shot limit."""
    env = _make(breaker="learner", noise=False, shot_limit=1, required=(3, 3))
    env.reset(seed=0)
    _, _, term, trunc, info = env.step(ShotAction(Shot(BREAK_BALL, 0.0, 6.0), place=(0.4, 0.88)))
    if info["frame"].winner is None:
        assert trunc and not term


@pytest.mark.parametrize(
    "bad",
    [
        {"cue": np.array([np.nan, 0, 0, 0], np.float32)},
        {"cue_ball": 12},
        {"place": np.zeros(3, np.float32)},
    ],
)
def test_bad_action_is_a_clear_error_and_changes_nothing(bad: dict[str, Any]) -> None:
    env = _make(breaker="learner")
    env.reset(seed=5)
    before = env.snapshot()
    action = env.action_space.sample()
    action.update(bad)
    with pytest.raises(ValueError, match=next(iter(bad))):
        env.step(action)
    assert env.game.state == before.state and env.game.frame == before.frame


def test_wrong_structured_action_changes_nothing() -> None:
    env = _make(breaker="learner")
    env.reset(seed=5)
    before = env.snapshot()
    with pytest.raises(ValueError, match="white 1"):
        env.step(ShotAction(Shot(4, 0.0, 3.0)))  # the break is white 1's (1.3)
    assert env.game.frame == before.frame and env.game.state == before.state


def _steady(view: FrameView) -> Any:
    """A deterministic opponent: plays on, and strikes its lowest ball toward the rear."""
    if view.decision is Decision.CHOICE:
        return ChoiceAction(play_on=True)
    return ShotAction(Shot(view.state.balls_on_table()[0], 0.3, 2.5))


def test_snapshot_restore_replays_identically() -> None:
    """The snapshot holds the table, the frame and the noise generator; the opponent here is
    deterministic (an opponent's own random state is its business, not the snapshot's)."""
    env = _make(breaker="learner", opponent=_steady)
    env.reset(seed=9)
    snap = env.snapshot()
    action = env.action_space.sample()
    first = env.step(action)
    env.restore(snap)
    second = env.step(action)
    assert first[0]["balls"].tobytes() == second[0]["balls"].tobytes()
    assert first[1] == second[1] and first[4]["ruling"] == second[4]["ruling"]


def _broken(view: FrameView) -> Any:
    raise RuntimeError("boom")


def test_failing_opponent_is_charged_a_foul() -> None:
    env = _make(opponent=_broken, breaker="opponent")
    obs, info = env.reset(seed=1)
    assert obs["fouls"][1] == 1
    assert "boom" in str(info["turns"][0])


def test_human_render_mode_opens_a_window(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    env = _make(render_mode="human", breaker="learner")
    env.reset(seed=2)
    env.step(env.action_space.sample())
    assert env._display.is_open
    env.close()
    assert not env._display.is_open


def test_frame_replay_written_as_gif(tmp_path: Any) -> None:
    """Issue 4: a whole frame written as a GIF from the physics trajectories, rulings shown."""
    import imageio.v3 as iio

    env = _make(breaker="learner", record_replay=True)
    env.reset(seed=4)
    env.step(ShotAction(Shot(BREAK_BALL, 0.0, 6.0), place=(0.4, 0.88)))
    path = env.save_replay(tmp_path / "frame.gif")
    frames = iio.imread(path)
    assert frames.ndim == 4 and frames.shape[0] > 10 and frames.shape[3] in (3, 4)


def test_opponent_returning_garbage_is_charged_a_foul() -> None:
    env = _make(opponent=lambda view: "not an action", breaker="opponent")
    obs, info = env.reset(seed=1)
    assert obs["fouls"][1] == 1
    assert "invalid action" in info["turns"][0]
