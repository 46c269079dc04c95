"""Your own agent in a tournament: a class with ``act(view)``, rated against built-in agents.

    python3 examples/own_agent_tournament.py

The same agent from the command line, by its spec (the module must be importable):

    PYTHONPATH=examples kinghill tournament --agents own_agent_tournament:Softer random --frames 4
"""

from __future__ import annotations

from dataclasses import replace

from kinghill.agents import HeuristicAgent
from kinghill.envs import Action, FrameView, ShotAction
from kinghill.experiments import evaluate


class Softer:
    """Plays the heuristic's choice, every shot but the break struck ``factor`` as hard.

    Any object with ``act(view) -> Action`` is an agent; a ``seed`` parameter gets a seed
    derived from the frame's, so the agent is as reproducible as the built-in ones.
    """

    def __init__(self, seed: int = 0, factor: float = 0.85) -> None:
        self.heuristic = HeuristicAgent(seed=seed)
        self.factor = factor

    def act(self, view: FrameView) -> Action:
        action = self.heuristic.act(view)
        if isinstance(action, ShotAction) and action.place is None:  # a shot, not the break
            return replace(action, shot=replace(action.shot, speed=self.factor * action.shot.speed))
        return action  # the break, or the 10.4 choice after a foul


if __name__ == "__main__":  # evaluate spawns agent processes: the guard is required
    report = evaluate(
        {"softer": Softer, "heuristic": "heuristic", "random": "random"},
        frames=2,
        max_shots=30,
        seed=1,
    )
    for agent in report.ranking():
        rating, score = agent.rating.estimate, agent.score.estimate
        print(f"{agent.name:<12} rating {rating:+6.0f}  score {score:.2f}")
