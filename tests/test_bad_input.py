"""Issue 10: bad input thrown at every public entry point. Each is refused with an error that
names what is wrong (a ``TypeError`` for a wrong type, a ``ValueError`` for a wrong value), and a
running frame is left exactly as it was. The command line's side is in ``test_cli_errors.py``."""

from __future__ import annotations

import math
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kinghill.envs  # noqa: F401  (registers the env)
from kinghill.agents import AgentSpecError, make_agent
from kinghill.envs import ChoiceAction, Game, RewardWeights, ShotAction
from kinghill.envs.rl.aec_env import raw_env
from kinghill.envs.rl.encoding import action_space
from kinghill.envs.rl.gym_env import KingOfTheHillEnv
from kinghill.envs.rl.wrappers import make_sb3_env
from kinghill.envs.rules import Call, Frame, ShotClock
from kinghill.experiments import cli
from kinghill.physics import (
    BREAK_BALL,
    Cushion,
    NoiseModel,
    Pocket,
    Shot,
    TableSpec,
    TableState,
    simulate,
)

SETTINGS = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.text(max_size=3),
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-(10**6), 10**6),
    st.lists(st.integers(-3, 10), max_size=5),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
)
"""Values of every kind, for entries that must refuse most of them."""


# ---- physics: constructors and simulate ---------------------------------------------------------
@pytest.mark.parametrize("name", ["gravity", "length", "mu_slide", "e_ball", "ball_mass"])
@pytest.mark.parametrize("value", [True, False, math.nan, "1.0", None])
def test_table_spec_refuses_what_is_not_a_number(name: str, value: object) -> None:
    """TableSpec(gravity=True) and the like: a bool is no length or coefficient."""
    with pytest.raises(ValueError, match=f"TableSpec.{name} must be a finite number"):
        TableSpec(**{name: value})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("make", "error", "message"),
    [
        (lambda: TableState(None, np.zeros((8, 2))), TypeError, "TableState.spec: expected a"),
        (lambda: TableState(TableSpec(), None), TypeError, "TableState.positions: expected an"),
        (lambda: TableState(TableSpec(), "balls"), TypeError, "TableState.positions"),
        (lambda: TableState(TableSpec(), [["a", "b"]] * 8), TypeError, "not an array of numbers"),
        (lambda: TableState(TableSpec(), np.zeros((7, 2))), ValueError, r"shape \(8, 2\)"),
        (
            lambda: TableState.of(TableSpec(), {True: (1.0, 0.5)}),
            ValueError,
            "ball id must be an integer 0-7, got True",
        ),
        (lambda: TableState.of(TableSpec(), None), TypeError, "TableState.of balls: a mapping"),
        (lambda: TableState.of(TableSpec(), {8: (1.0, 0.5)}), ValueError, "got 8"),
        (lambda: TableState.of(TableSpec(), {1: (9.0, 0.5)}), ValueError, "not on the playing"),
        (lambda: TableState.of(TableSpec(), {1: (math.nan, 0.5)}), ValueError, "not a finite"),
        (lambda: TableState.rack().place(0, TableState.rack().xy(1)), ValueError, "overlap"),
        (lambda: TableState.rack().xy(np.True_), ValueError, "got np.True_"),
        (lambda: Shot(True, 0.0, 1.0), ValueError, "Shot.cue_ball must be an integer"),
        (lambda: Shot(1, math.nan, 1.0), ValueError, "Shot.phi must be finite"),
        (lambda: Shot(1, 0.0, None), ValueError, "Shot.speed must be a number"),  # type: ignore[arg-type]
        (lambda: NoiseModel(sigma_speed=-1.0), ValueError, "NoiseModel.sigma_speed"),
    ],
)
def test_physics_constructors_name_what_is_wrong(make: Any, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        make()


STATE = TableState.rack()
SHOT = Shot(BREAK_BALL, 0.0, 7.0)


@pytest.mark.parametrize(
    ("args", "kwargs", "name"),
    [
        ((None, SHOT), {}, "state must be a TableState, got NoneType"),
        ((STATE, {"cue_ball": 1, "phi": 0.0, "speed": 7.0}), {}, "shot must be a Shot, got dict"),
        ((STATE, SHOT, 0), {}, "rng must be a Generator or None, got int"),
        ((STATE, SHOT), {"noise": True}, "noise must be a NoiseModel or None, got bool"),
        ((STATE, SHOT), {"trajectory": "yes"}, "trajectory must be a bool, got str"),
    ],
)
def test_simulate_type_errors_name_the_argument(
    args: tuple[Any, ...], kwargs: dict[str, Any], name: str
) -> None:
    with pytest.raises(TypeError, match=f"^simulate: {name}$"):
        simulate(*args, **kwargs)


def test_simulate_refuses_a_cue_ball_not_on_the_table() -> None:
    state = STATE.remove(BREAK_BALL)
    with pytest.raises(ValueError, match="ball 1 is not on the table"):
        simulate(state, SHOT)
    assert not state.on_table[BREAK_BALL]  # the state is immutable: nothing to corrupt


# ---- the Gymnasium env -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"noise": "yes"}, TypeError, "noise: True, False, None or a NoiseModel, got 'yes'"),
        ({"noise": 1}, TypeError, "noise: True, False, None or a NoiseModel"),
        ({"reward_weights": "x"}, TypeError, "reward_weights: a RewardWeights or None"),
        ({"reward_weights": {"win": 2}}, TypeError, "reward_weights: a RewardWeights"),
        ({"breaker": "me"}, ValueError, "breaker must be"),
        ({"render_mode": "ascii"}, ValueError, "render_mode must be one of"),
        ({"required": (3, 9)}, ValueError, "required whites"),
        ({"required": 3}, ValueError, "required whites: two whole numbers 0-7, got 3"),
        ({"required": (3, True)}, ValueError, "required whites"),
        ({"shot_limit": 0}, ValueError, "shot_limit must be a whole number of at least 1"),
        ({"shot_limit": 1.5}, ValueError, "shot_limit must be a whole number"),
        ({"shot_limit": "10"}, ValueError, "shot_limit must be a whole number"),
        ({"shot_limit": 1, "breaker": "opponent"}, ValueError, "the learner would never shoot"),
        ({"time_round": 0}, ValueError, "round numbers are whole numbers from 1"),
        ({"time_round": "a"}, ValueError, "round numbers are whole numbers from 1, got 'a'"),
        ({"no_cushion_foul": "no"}, ValueError, "no_cushion_foul must be True or False"),
        ({"record_replay": "x"}, ValueError, "record_replay must be True or False"),
        ({"spec": "big"}, TypeError, "spec: a TableSpec or None, got str"),
    ],
)
def test_the_env_refuses_bad_options_when_made(
    kwargs: dict[str, Any], error: type, message: str
) -> None:
    with pytest.raises(error, match=message):
        gym.make("kinghill/KingOfTheHill-v0", **kwargs)


@pytest.mark.parametrize(
    ("weights", "error"),
    [({"win": "x"}, TypeError), ({"foul": math.nan}, ValueError), ({"white": True}, TypeError)],
)
def test_reward_weights_refuse_what_is_not_a_finite_number(
    weights: dict[str, Any], error: type
) -> None:
    with pytest.raises(error, match=f"RewardWeights.{next(iter(weights))}"):
        RewardWeights(**weights)


def snapshot_of(env: KingOfTheHillEnv) -> tuple[Frame, TableState, str]:
    snap = env.snapshot()
    return snap.frame, snap.state, repr(snap.rng_state)


@pytest.fixture(scope="module")
def env() -> KingOfTheHillEnv:
    made = KingOfTheHillEnv(noise=False, breaker="learner")
    made.reset(seed=3)
    return made


def good_point() -> dict[str, Any]:
    space = action_space()
    space.seed(0)
    return space.sample()


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ({**good_point(), "cue_bal": 1}, r"action has unknown keys \['cue_bal'\]"),
        ({k: v for k, v in good_point().items() if k != "cue"}, r"missing keys \['cue'\]"),
        ({**good_point(), "cue": np.array([math.nan, 0, 0, 0])}, "cue"),
        ({**good_point(), "cue_ball": 9}, "cue_ball"),
        ([0, 1, 2], "action must be a dict"),
        (None, "action must be a dict"),
        (ShotAction(Shot(3, 0.0, 2.0)), r"white 1 \(1.3\)"),  # on the break
        (ChoiceAction(play_on=True), "expected a ShotAction"),
    ],
)
def test_a_bad_step_is_refused_and_the_frame_unchanged(
    env: KingOfTheHillEnv, action: Any, message: str
) -> None:
    before = snapshot_of(env)
    with pytest.raises(ValueError, match=message):
        env.step(action)
    assert snapshot_of(env) == before


@SETTINGS
@given(key=st.sampled_from(sorted(action_space().spaces)), value=JUNK)
def test_junk_in_any_action_entry_leaves_the_frame_unchanged(
    env: KingOfTheHillEnv, key: str, value: object
) -> None:
    """Whatever one entry holds, the step either plays (a value inside the space) or is refused
    with a ValueError naming that entry, and a refused step changes nothing."""
    action = {**good_point(), key: value}
    snap = env.snapshot()
    before = snapshot_of(env)
    try:
        action_space().check(action)
    except ValueError as error:
        assert key in str(error)
        with pytest.raises(ValueError, match=key):
            env.step(action)
        assert snapshot_of(env) == before
    else:  # inside the space: the shot is played, then the frame is put back for the next value
        env.step(action)
        assert env.game.frame.shots > snap.frame.shots
        env.restore(snap)


def test_reset_and_restore_refuse_bad_arguments(env: KingOfTheHillEnv) -> None:
    before = snapshot_of(env)
    with pytest.raises(TypeError, match="restore: a GameSnapshot from snapshot"):
        env.restore(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="restore: a GameSnapshot"):
        env.game.restore({"frame": None})  # type: ignore[arg-type]
    with pytest.raises(gym.error.Error, match="Seed must be greater or equal to zero"):
        env.reset(seed=-1)
    assert snapshot_of(env) == before


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (np.r_[np.zeros(5), math.nan, np.zeros(36)], "got nan at index 5"),
        (np.zeros(3), r"got shape \(3,\)"),
        (None, "got None"),
        ("x", "got 'x'"),
    ],
)
def test_a_box_action_names_what_is_wrong_with_it(action: Any, message: str) -> None:
    env = make_sb3_env("aim")
    env.reset(seed=0)
    with pytest.raises(ValueError, match=f"action must be 42 finite numbers, {message}"):
        env.step(action)


def test_an_agent_spec_that_is_no_string_is_named() -> None:
    with pytest.raises(AgentSpecError, match="an agent spec is a string, got None"):
        make_agent(None)  # type: ignore[arg-type]


def test_a_game_refuses_noise_that_is_no_noise_model_when_made() -> None:
    with pytest.raises(TypeError, match="noise: a NoiseModel or None, got 'yes'"):
        Game(noise="yes")  # type: ignore[arg-type]


def test_the_env_refuses_a_step_before_its_first_reset() -> None:
    """Unwrapped (no Gymnasium OrderEnforcing, as the masked env is built) a step before reset
    would play an unseeded frame: it is refused; after restore() a step plays."""
    fresh = KingOfTheHillEnv(noise=False)
    with pytest.raises(RuntimeError, match=r"no frame yet: call reset\(\) before step\(\)"):
        fresh.step(good_point())
    other = KingOfTheHillEnv(noise=False, breaker="learner")
    other.reset(seed=3)
    fresh.restore(other.snapshot())
    fresh.step(good_point())
    assert fresh.game.frame.shots >= 1  # the learner's break, and the opponent's replies


# ---- the PettingZoo AEC env ----------------------------------------------------------------------
def test_aec_env_refuses_bad_options_and_bad_points() -> None:
    with pytest.raises(TypeError, match="noise: True, False, None or a NoiseModel"):
        raw_env(noise="yes")
    with pytest.raises(TypeError, match="reward_weights"):
        raw_env(reward_weights=0.5)
    aec = raw_env(noise=False)
    aec.reset(seed=5)
    frame, state, mover = aec.game.frame, aec.game.state, aec.agent_selection
    for action in ({**good_point(), "extra": 0}, {**good_point(), "play_on": 5}, {"cue": 1}):
        with pytest.raises(ValueError, match="action"):
            aec.step(action)
        assert (aec.game.frame, aec.game.state, aec.agent_selection) == (frame, state, mover)
    for seed in (-1, 1.5, True):
        with pytest.raises(ValueError, match="reset: seed must be a whole number from 0 or None"):
            aec.reset(seed=seed)  # type: ignore[arg-type]
    assert (aec.game.frame, aec.game.state) == (frame, state)
    with pytest.raises(ValueError, match="no agent 'player_9'; the agents are"):
        aec.observe("player_9")


# ---- the rules: call builders and the clock ------------------------------------------------------
@SETTINGS
@given(touches=st.lists(st.integers(0, 7), min_size=1, max_size=3))
def test_double_and_abricol_take_cushions_not_balls(touches: list[int]) -> None:
    """A ball id where a cushion belongs is refused, never read as the cushion of that number."""
    for build in (Call.double, Call.abricol):
        with pytest.raises(ValueError, match="cushions: each is a Cushion"):
            build(1, Pocket.REAR_LEFT, touches)


@SETTINGS
@given(
    player=st.one_of(st.integers(-3, 5), st.booleans()),
    seconds=st.one_of(st.floats(-1e6, 1e6), st.sampled_from([math.nan, math.inf, -math.inf])),
)
def test_the_clock_judges_only_real_decisions(player: int, seconds: float) -> None:
    """R-clock: a player is 0 or 1 and a time finite and >= 0; anything else is a ValueError."""
    clock, frame = ShotClock(round=3), Frame.new()
    real = not isinstance(player, bool) and player in (0, 1)
    real = real and math.isfinite(seconds) and seconds >= 0
    if real:
        verdict = clock.judge_time(frame, player, seconds)
        assert verdict.in_time == (seconds <= 35.0)
    else:
        with pytest.raises(ValueError, match="player|seconds"):
            clock.judge_time(frame, player, seconds)


def test_call_pocket_and_cushion_types() -> None:
    with pytest.raises(ValueError, match="call pocket: expected a Pocket"):
        Call.plain(1, "REAR_LEFT")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="call chain: ball ids are 0-7"):
        Call.plain(True, Pocket.REAR_LEFT)  # type: ignore[arg-type]
    assert Call.double(1, Pocket.REAR_LEFT, [Cushion.RIGHT_REAR]).colour_leg == (
        Cushion.RIGHT_REAR,
    )


# ---- the command line: every count option of every subcommand ------------------------------------
COUNT_OPTIONS = [
    ("tournament", "--frames"),
    ("tournament", "--jobs"),
    ("tournament", "--rating-samples"),
    ("tournament", "--max-shots"),
    ("tournament", "--round"),
    ("play", "--width"),
    ("play", "--max-shots"),
    ("train sb3", "--steps"),
    ("train sb3", "--envs"),
    ("train sb3", "--n-steps"),
    ("train sb3", "--batch-size"),
    ("train sb3", "--torch-threads"),
    ("bench-physics", "--shots"),
    ("bench-physics", "--breaks"),
    ("bench-env", "--steps"),
    ("bench-env", "--vector-steps"),
]
POSITIONALS = {"play": ["random", "random"], "train sb3": ["--out", "run"]}


@SETTINGS
@given(option=st.sampled_from(COUNT_OPTIONS), value=st.integers(-(10**9), 0))
def test_every_count_option_refuses_zero_and_below_in_one_line(
    option: tuple[str, str],
    value: int,
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path_factory.mktemp("cli"))
    command, name = option
    argv = [*command.split(), *POSITIONALS.get(command, []), name, str(value)]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"kinghill {command}: error: {name}: ")
    assert f"(got {value})" in err
