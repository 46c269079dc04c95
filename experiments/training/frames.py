"""Frames of agents played here, in this process, for data: the tournaments' one frame loop
(:func:`~kinghill.experiments.tournaments.frame_player.play_out`) with each decision handed
over with the view it was made from. Self-play for the leaf value and the warm start's
demonstrations record from it."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from kinghill.envs import Agent, Decided, FrameView, Game
from kinghill.experiments.tournaments.frame_player import InProcessSeat, play_out
from kinghill.experiments.training.config import TrainingError


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
