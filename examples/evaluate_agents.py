"""Rate agents from a script with ``evaluate``, the Python API under ``kinghill tournament``.

python3 examples/evaluate_agents.py
"""

from kinghill.agents import HeuristicAgent
from kinghill.experiments import evaluate

if __name__ == "__main__":  # evaluate spawns agent processes: the guard is required
    report = evaluate(
        {"mine": HeuristicAgent(), "random": "random"}, frames=2, max_shots=30, seed=1
    )
    for agent in report.ranking():
        print(agent.name, agent.rating, agent.score.estimate, agent.legal_pots_per_visit)
    print(report.win_rates["mine"]["random"])
