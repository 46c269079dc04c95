"""An RLlib checkpoint of ``kinghill train rllib`` as a player (``rllib:PATH``): its
RLModule is loaded from the checkpoint (no Ray cluster, no env runners) and plays the argmax of
the masked logits over the shot menu, so it is deterministic."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import numpy as np

from kinghill.agents.spec_errors import AgentSpecError
from kinghill.envs import Action, FrameView
from kinghill.envs.rl.masked_aec import decode_index, menu_inputs

MODULES = Path("learner_group") / "learner" / "rl_module"
"""Where an algorithm checkpoint keeps its RLModules, one folder per module id."""
MODULE_STATE = "module_state.pkl"
"""The file that marks a folder as one RLModule's checkpoint."""
SHARED = "shared"
"""The module id of the policy both seats share (self-play's default)."""


def import_rllib() -> Any:
    """``ray.rllib``, or an :class:`AgentSpecError` saying how to install it."""
    try:
        import ray.rllib
    except ImportError as error:
        raise AgentSpecError(
            f"rllib:PATH needs RLlib, which is not installed ({error}): "
            "pip install 'kinghill[rllib]'"
        ) from None
    return ray.rllib


def module_folder(path: str | Path, module: str | None = None) -> Path:
    """The RLModule checkpoint ``path`` names: ``path`` itself when it is one, else module
    ``module`` of the algorithm checkpoint at ``path`` (default: ``shared``, or the only one).

    :raises FileNotFoundError: no such checkpoint or module (the message lists the modules).
    """
    path = Path(path)
    folder = path / MODULES
    if not folder.is_dir() and (path / MODULE_STATE).is_file():
        return path
    found = sorted(p.parent.name for p in folder.glob(f"*/{MODULE_STATE}"))
    if not found:
        raise FileNotFoundError(f"no RLlib checkpoint at {path} (no {MODULES}/<module>/)")
    if module is None:
        module = SHARED if SHARED in found or len(found) > 1 else found[0]
    if module not in found:
        raise FileNotFoundError(
            f"the RLlib checkpoint {path} has no module {module!r}; it has {', '.join(found)} "
            "(choose one with rllib:PATH?module=NAME)"
        )
    return folder / module


class RLlibAgent:
    """An RLlib PPO checkpoint as a player.

    :param path: an algorithm checkpoint (``DIR/final``, ``DIR/checkpoints/iter_000010``) or
        one RLModule's folder inside it.
    :param module: the module id to play (``shared``, or ``player_0`` / ``player_1`` of a run
        with one policy per seat); default ``shared`` (or the only module).
    """

    def __init__(self, path: str | Path, module: str | None = None) -> None:
        import_rllib()
        from ray.rllib.core.rl_module.rl_module import RLModule

        self.path = module_folder(path, module)
        rllib_log = logging.getLogger("ray._common.deprecation")
        level = rllib_log.level
        rllib_log.setLevel(logging.ERROR)  # RLlib warns of its own deprecations on every load
        try:
            loaded: Any = RLModule.from_checkpoint(self.path.resolve())  # pyarrow: absolute
        except Exception as error:  # a damaged or foreign checkpoint: say which, and why
            raise AgentSpecError(
                f"{self.path} is not a loadable RLlib module checkpoint: "
                f"{type(error).__name__}: {error}"
            ) from error
        finally:
            rllib_log.setLevel(level)
        self.module = loaded
        self.module.eval()

    @classmethod
    def of_module(cls, module: Any) -> RLlibAgent:
        """A player of a live module (evaluation during training), without a checkpoint."""
        agent = cls.__new__(cls)
        agent.path = Path()
        agent.module = module
        return agent

    def act(self, view: FrameView) -> Action:
        return decode_index(*self.choose(view))

    def choose(self, view: FrameView) -> tuple[Any, int]:
        """The menu at ``view`` and the index of its highest masked logit."""
        import torch
        from ray.rllib.core.columns import Columns

        menu, obs = menu_inputs(view)
        batch = {Columns.OBS: {k: torch.from_numpy(v[None]) for k, v in obs.items()}}
        with torch.no_grad():
            out = self.module.forward_inference(batch)
        logits = np.asarray(out[Columns.ACTION_DIST_INPUTS][0])
        return menu, int(np.argmax(logits))
