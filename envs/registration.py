"""The environments' ids in Gymnasium's and PettingZoo's registries.

``import kinghill.envs`` registers them without importing either framework itself, so that the
pure parts (:mod:`kinghill.envs.rules`, :mod:`kinghill.envs.game`) stay light: an id goes into a
framework's registry as soon as that framework is imported, before or after ``kinghill.envs``.
The entry points are strings: an env module is imported only when an env is made.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
from collections.abc import Callable, Sequence
from types import ModuleType

GYM_IDS = {
    "kinghill/KingOfTheHill-v0": "kinghill.envs.rl.gym_env:KingOfTheHillEnv",
    "kinghill/KingOfTheHill-Aim-v0": "kinghill.envs.rl.wrappers:make_aim_env",
    "kinghill/KingOfTheHill-Flat-v0": "kinghill.envs.rl.wrappers:make_flat_env",
    "kinghill/KingOfTheHill-Masked-v0": "kinghill.envs.rl.masked:make_masked_env",
}
"""Gymnasium ids and their entry points."""

AEC_IDS = {"kinghill/KingOfTheHill-v0": "kinghill.envs.rl.aec_env:env"}
"""PettingZoo AEC ids and their entry points."""


def register_gymnasium() -> None:
    """Put :data:`GYM_IDS` in Gymnasium's registry (once; a second call changes nothing)."""
    from gymnasium.envs.registration import register, registry

    for env_id, entry in GYM_IDS.items():
        if env_id not in registry:
            register(id=env_id, entry_point=entry, max_episode_steps=None)


def register_pettingzoo() -> None:
    """Put :data:`AEC_IDS` in PettingZoo's AEC registry (once)."""
    import pettingzoo

    for env_id, entry in AEC_IDS.items():
        if env_id not in pettingzoo.aec_registry:
            pettingzoo.register("aec", env_id, entry)


REGISTRARS: dict[str, Callable[[], None]] = {
    "gymnasium": register_gymnasium,
    "pettingzoo": register_pettingzoo,
}
"""Each framework, and what registers the ids with it."""


class _AfterImport(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Runs a framework's registrar right after the framework's own import finishes."""

    def __init__(self) -> None:
        self._loaders: dict[str, importlib.abc.Loader] = {}

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in REGISTRARS or fullname in sys.modules:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None:
            return None
        self._loaders[fullname] = spec.loader
        spec.loader = self
        return spec

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self._loaders[spec.name].create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        loader = self._loaders.pop(module.__name__)
        module.__spec__.loader = loader  # type: ignore[union-attr]
        module.__loader__ = loader
        loader.exec_module(module)
        REGISTRARS[module.__name__]()


def register_envs() -> None:
    """Register the ids with each framework already imported, and with the others on import."""
    for name, registrar in REGISTRARS.items():
        if name in sys.modules:
            registrar()
    if any(name not in sys.modules for name in REGISTRARS) and not any(
        isinstance(finder, _AfterImport) for finder in sys.meta_path
    ):
        sys.meta_path.insert(0, _AfterImport())
