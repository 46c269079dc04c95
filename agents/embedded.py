"""An opponent for a game of your own: a shipped or trained net as a player, and a decision for
a position given as ball positions, with no training stack (torch, Stable-Baselines3 and Ray
never load).

- :func:`opponent`: a prior net of ``kinghill train-expert`` (``.npz``, plain numpy; with the
  search, ``expert:PATH``, or alone, ``expert-policy:PATH``), or a policy exported with
  ``kinghill export-policy`` (``.onnx``, onnxruntime).
- :func:`decide`: what it plays from a position (the balls where they stand, the whites each
  player has and needs, the fouls), as :class:`~kinghill.envs.ShotAction` (cue ball, aim,
  speed, tip offsets and the call) or the 10.4 choice.

``docs/guide/embedded.md`` lists the modules and packages it needs at run time, as measured by
``tests/test_embedded_opponent.py`` with torch blocked.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from kinghill.envs import Action, Agent, FrameView
from kinghill.envs.game import start_position
from kinghill.envs.rules import Decision
from kinghill.physics import TableSpec


def opponent(path: str | Path, *, budget: int | None = 120, seed: int | None = None) -> Agent:
    """The player saved at ``path``: an ``.onnx`` policy, or a prior net (``.npz``) searching
    ``budget`` simulations a decision (None: the net alone, a millisecond a decision).

    :raises FileNotFoundError: nothing at ``path``.
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no opponent at {path}")
    if path.suffix == ".onnx":
        from kinghill.agents.onnx_policy import OnnxPolicyAgent

        return OnnxPolicyAgent(path)
    from kinghill.agents.prior import PriorPolicyAgent, prior_search

    if budget is None:
        return PriorPolicyAgent(path, seed)
    return prior_search(path, seed, budget=budget)


def decide(
    agent: Agent,
    balls: Mapping[int, Sequence[float]],
    *,
    credited: tuple[int, int] = (0, 0),
    required: tuple[int, int] = (3, 3),
    fouls: tuple[int, int] = (0, 0),
    after_foul: bool = False,
) -> Action:
    """What ``agent`` plays as player 0 from the position ``balls`` ({ball id: (x, y)} in
    metres, the coloured ball 0 among them), with the whites already credited and required
    (5.3) and the fouls of the frame for (agent, opponent); ``after_foul``: the opponent has
    just fouled, so the 10.4 choice is due. A bad position raises ``ValueError`` naming it."""
    options = {"balls": dict(balls), "credited": credited, "required": required, "fouls": fouls}
    state, frame = start_position(options, TableSpec(), required, 200, True)
    if after_foul:  # mid-frame (a shot has been played): the choice leads to a shot, not a break
        frame = replace(frame, decision=Decision.CHOICE, fouled_by=1, shots=max(frame.shots, 1))
    return agent.act(FrameView(state, frame, 0))
