"""Frames of agents played here, in this process, for data: the tournaments' one frame loop
(:func:`~kinghill.experiments.tournaments.frame_player.play_out`) with each decision handed
over with the view it was made from. Self-play for the leaf value, the position value and the
warm start's demonstrations record from it."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from kinghill.agents import make_agent
from kinghill.envs import Agent, Decided, FrameView, Game
from kinghill.envs.rules import Decision
from kinghill.experiments.tournaments.frame_player import InProcessSeat, play_out
from kinghill.experiments.training.config import TrainingError
from kinghill.physics import NoiseModel


def decisions(game: Game, agents: Sequence[Agent]) -> Iterator[tuple[FrameView, Decided]]:
    """Play the frame in ``game`` to its end, ``agents[p]`` deciding for player ``p``; yield
    each decision, as settled, with the view before it.

    :raises TrainingError: an agent raised or gave no playable action (in a tournament that
        is charged as a foul; data recorded from it would be wrong).
    """
    before = game.view()
    for decided in play_out(game, [InProcessSeat(agent) for agent in agents]):
        if decided.fault is not None:
            raise TrainingError(f"player {decided.turn.player} failed: {decided.fault}")
        yield before, decided
        before = game.view()


@dataclass(frozen=True)
class SelfPlayShot:
    """A shot decision of self-play: the view it was made from, the frame's seed and the
    frame's result for the player to move (1 won, 0 lost, 0.5 drawn)."""

    view: FrameView
    frame: int
    result: float


def self_play_shots(frames: int, seed: int, agent: str) -> Iterator[SelfPlayShot]:
    """Play ``frames`` frames of ``agent`` against itself, noise on (seeds ``seed``, ``seed +
    1``, ...; seat ``s % 2`` breaks frame ``s``, the seats' agents seeded ``2 s`` and ``2 s +
    1``); yield every shot decision, a frame's when it has ended. Each frame depends on its
    seed alone, so frames played in pieces give the same shots."""
    for frame in range(seed, seed + frames):
        game = Game(noise=NoiseModel())
        game.reset(seed=frame, breaker=frame % 2)
        players = [make_agent(agent, seed=2 * frame + seat) for seat in (0, 1)]
        views = [v for v, _ in decisions(game, players) if v.decision is Decision.SHOT]
        winner = game.frame.winner
        for view in views:
            result = 0.5 if winner is None else float(winner == view.player)
            yield SelfPlayShot(view, frame, result)
