"""Built-in agents play legal, sensible shots: the break (4.2), calls only when permitted (6.1,
R-early), never more whites than required (5.6), the 10.4 choice, safeties without R-fouls."""

import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from physics_support import state as table

from kinghill.agents import HeuristicAgent, PolicyAgent, SearchAgent, make_agent
from kinghill.agents import search as search_module
from kinghill.agents.policy import algorithm_of
from kinghill.agents.search import Arm
from kinghill.envs import ChoiceAction, FrameView, Game, ShotAction
from kinghill.envs.planning.candidates import pocket_point
from kinghill.envs.planning.menu import legal_pots, permitted_early, safety_actions
from kinghill.envs.rules import Call, Decision, Frame, judge
from kinghill.physics import COLOURED, Cushion, NoiseModel, Pocket, TableSpec, TableState, simulate

SPEC = TableSpec()
R = SPEC.radius


def shot_view(state: TableState, credited: tuple[int, ...] = (), fouls: int = 0) -> FrameView:
    frame = replace(Frame.new(), decision=Decision.SHOT, credited=(credited, ()), fouls=(0, fouls))
    return FrameView(state, frame, 0)


def near_pocket(pocket: Pocket, back: float) -> tuple[float, float]:
    """A point ``back`` metres from the pocket's target, toward the table's centre."""
    px, py = pocket_point(SPEC, pocket)
    cx, cy = SPEC.length / 2, SPEC.width / 2
    d = np.hypot(cx - px, cy - py)
    return (px + (cx - px) * back / d, py + (cy - py) * back / d)


# a white hanging over the rear-left corner, a cue ball behind it on the same line
HANGER = {2: near_pocket(Pocket.REAR_LEFT, 0.15), 3: near_pocket(Pocket.REAR_LEFT, 0.6)}
FAR = {5: (0.5, 0.3), 6: (0.9, 0.3)}


@pytest.mark.parametrize("name", ["random", "heuristic", "search:12"])
def test_agents_play_a_whole_frame_without_errors(name: str) -> None:
    game = Game(noise=NoiseModel(), shot_limit=16)
    game.reset(seed=5)
    agents = (make_agent(name, 1), make_agent("heuristic", 2))
    while not game.is_over:
        action = agents[game.to_move].act(game.view())
        game.play(action)  # raises ValueError on an action the game cannot play


@pytest.mark.parametrize("seed", range(6))
def test_heuristic_break_is_legal_with_noise(seed: int) -> None:
    """4.1, 4.2: from the house, two cushions or a cushion then the centre line."""
    game = Game(noise=NoiseModel())
    game.reset(seed=seed)
    action = HeuristicAgent(seed).act(game.view())
    assert isinstance(action, ShotAction) and action.call is None
    assert action.place is not None and action.place[0] < SPEC.house_line_x
    turn = game.play(action)
    assert turn.ruling is not None and not turn.ruling.is_foul


def test_heuristic_pots_the_hanging_white() -> None:
    state = table({COLOURED: (1.0, 0.9), **HANGER, **FAR})
    action = HeuristicAgent(0).act(shot_view(state))
    assert isinstance(action, ShotAction) and action.call is None
    result = simulate(state, action.shot)
    ruling = judge(shot_view(state).frame, action.shot.cue_ball, None, result.events)
    assert ruling.credited and not ruling.is_foul


def test_heuristic_calls_the_coloured_ball_after_the_required_whites() -> None:
    """6.1, 6.3: with three whites in, only the coloured ball is played, with a call."""
    state = table({COLOURED: HANGER[2], 3: HANGER[3], **FAR})
    view = shot_view(state, credited=(1, 2, 4))
    found = legal_pots(view)
    assert found and all(c.object_ball == COLOURED and c.call is not None for c in found)
    action = HeuristicAgent(0).act(view)
    assert isinstance(action, ShotAction) and action.call == Call.plain(3, Pocket.REAR_LEFT)
    ruling = judge(view.frame, 3, action.call, simulate(state, action.shot).events)
    assert ruling.legal_colour_pot


def test_heuristic_never_pots_whites_beyond_the_limit() -> None:
    """5.6: at the limit no white is a target, even a hanging one."""
    state = table({COLOURED: (1.0, 0.9), **HANGER, **FAR})
    view = shot_view(state, credited=(1, 4, 7))
    assert all(c.object_ball == COLOURED for c in legal_pots(view))


def test_early_colour_calls_are_only_permitted_kinds() -> None:
    """R-early: before the whites, a called pot is a double/abricol with a white cue ball, or a
    combination with two whites."""
    state = table({COLOURED: (2.6, 0.6), 3: (2.2, 0.9), 4: (1.2, 1.2), **FAR})
    for candidate in legal_pots(shot_view(state)):
        if candidate.call is not None:
            assert permitted_early(candidate.call)
    assert not permitted_early(Call.plain(3, Pocket.REAR_LEFT))
    assert permitted_early(Call.double(3, Pocket.REAR_LEFT, [Cushion.RIGHT_REAR]))
    assert not permitted_early(Call.abricol(3, Pocket.REAR_LEFT, [Cushion.REAR]))


def test_heuristic_safeties_are_no_fouls() -> None:
    """R-fouls (a), (b): a safety touches a ball and sends one to a cushion; nothing drops."""
    state = table({COLOURED: (1.8, 0.9), 3: (1.0, 0.9), 4: (1.3, 0.7), 5: (2.5, 1.2)})
    view = shot_view(state)
    safeties = safety_actions(view)
    assert safeties
    for action in safeties[:4]:
        result = simulate(state, action.shot)
        ruling = judge(view.frame, action.shot.cue_ball, None, result.events)
        assert not ruling.is_foul and not ruling.potted


def test_heuristic_plays_safe_when_nothing_is_on() -> None:
    lonely = table({COLOURED: (SPEC.length / 2, SPEC.width / 2), 3: (1.0, 0.3)})
    action = HeuristicAgent(0).act(shot_view(lonely))
    assert isinstance(action, ShotAction) and action.call is None
    ruling = judge(shot_view(lonely).frame, 3, None, simulate(lonely, action.shot).events)
    assert not ruling.is_foul


def test_choice_plays_on_with_a_makeable_shot_and_hands_back_without() -> None:
    """10.4: accept the position when a good pot is on, else give the shot back."""
    on = table({COLOURED: (1.0, 0.9), **HANGER, **FAR})
    lonely = table({COLOURED: (SPEC.length / 2, SPEC.width / 2), 3: (1.0, 0.3)})
    for state, play_on in ((on, True), (lonely, False)):
        frame = replace(Frame.new(), decision=Decision.CHOICE, fouls=(0, 1), fouled_by=1)
        action = HeuristicAgent(0).act(FrameView(state, frame, 0))
        assert action == ChoiceAction(play_on=play_on)


def test_search_pots_the_coloured_ball_to_win() -> None:
    """3.2: given the chance, the search calls and pots the coloured ball."""
    state = table({COLOURED: HANGER[2], 3: HANGER[3], **FAR})
    view = shot_view(state, credited=(1, 2, 4))
    action = SearchAgent(0, budget=40).act(view)
    assert isinstance(action, ShotAction) and action.call is not None
    result = simulate(state, action.shot)
    assert judge(view.frame, action.shot.cue_ball, action.call, result.events).legal_colour_pot


def test_search_with_a_time_budget_decides_in_about_that_time() -> None:
    state = table({COLOURED: (1.0, 0.9), **HANGER, **FAR})
    start = time.perf_counter()
    action = SearchAgent(0, time_budget=0.2).act(shot_view(state))
    assert isinstance(action, ShotAction)
    assert time.perf_counter() - start < 3.0  # the budget, plus one simulation per candidate


class SimulatedClock:
    """A stand-in for the ``time`` module of the search: its clock moves only when the agent
    scores a simulation (``tick`` seconds each), so the search's spending is counted, not
    timed."""

    def __init__(self, tick: float) -> None:
        self.now, self.tick, self.simulations = 0.0, tick, 0

    def perf_counter(self) -> float:
        return self.now

    def scored(self, n: int) -> None:
        self.simulations += n
        self.now += n * self.tick


def simulations_in(time_budget: float, monkeypatch: pytest.MonkeyPatch) -> int:
    """How many noisy simulations a search with ``time_budget`` seconds scores in a decision
    when each simulation costs 0.01 s of its clock."""
    clock = SimulatedClock(0.01)
    monkeypatch.setattr(search_module, "time", clock)
    agent = SearchAgent(0, time_budget=time_budget)
    score = agent._score

    def counted(view: FrameView, work: list[tuple[Arm, int]]) -> int:
        clock.scored(sum(n for _, n in work))  # a batch of n simulations takes n ticks
        return score(view, work)

    monkeypatch.setattr(agent, "_score", counted)
    state = table({COLOURED: (1.0, 0.9), **HANGER, **FAR})
    assert isinstance(agent.act(shot_view(state)), ShotAction)
    return clock.simulations


def test_search_spends_its_time_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """The time budget decides how much the search thinks: about budget / 0.01 s simulations
    (each candidate scored at least once), four times the budget at least twice as many."""
    short, long = simulations_in(0.3, monkeypatch), simulations_in(1.2, monkeypatch)
    assert 30 <= short <= 30 + 60  # the budget's worth, plus at most a round of candidates
    assert 120 <= long <= 120 + 60
    assert long >= 2 * short  # a search that ignored the budget would score the same number


def test_search_is_deterministic_given_its_seed() -> None:
    state = table({COLOURED: (1.0, 0.9), **HANGER, **FAR})
    first = SearchAgent(3, budget=30).act(shot_view(state))
    assert SearchAgent(3, budget=30).act(shot_view(state)) == first


@pytest.mark.parametrize("algo", ["PPO", "SAC"])
def test_policy_agent_loads_a_checkpoint_and_plays(algo: str, tmp_path: Path) -> None:
    import stable_baselines3

    from kinghill.envs.rl.wrappers import make_sb3_env

    env = make_sb3_env("aim")
    kwargs = {"n_steps": 8, "batch_size": 8} if algo == "PPO" else {"learning_starts": 10}
    model = getattr(stable_baselines3, algo)("MlpPolicy", env, seed=0, device="cpu", **kwargs)
    path = tmp_path / "policy.zip"
    model.save(path)
    assert algorithm_of(path) == algo
    agent = make_agent(f"policy:{path}", 0)
    assert isinstance(agent, PolicyAgent)
    game = Game(shot_limit=4)
    game.reset(seed=0)
    while not game.is_over:
        game.play(agent.act(game.view()))
