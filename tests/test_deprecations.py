"""Issue 23, item 4: no deprecated calls. A DeprecationWarning attributed to one of kinghill's
own modules fails the suite (pyproject's ``filterwarnings``), one from elsewhere stays a
warning; the RLlib module is built with RLlib's current constructor, and the RLlib env passes
RLlib's own multi-agent env checks."""

from __future__ import annotations

import logging
import warnings

import pytest

DEPRECATED_CALL = "import warnings\nwarnings.warn('an old call', DeprecationWarning)\n"


def _warn_from(module: str) -> None:
    """Run a deprecated call as code of ``module`` (warnings attribute it by the frame's
    ``__name__``, as they do for code imported from that module)."""
    exec(compile(DEPRECATED_CALL, f"{module.replace('.', '/')}.py", "exec"), {"__name__": module})


def test_a_deprecated_call_from_a_kinghill_module_is_an_error() -> None:
    with pytest.raises(DeprecationWarning, match="an old call"):
        _warn_from("kinghill.experiments.training.sb3")
    with pytest.raises(DeprecationWarning, match="an old call"):
        _warn_from("kinghill")


def test_a_deprecated_call_from_another_module_stays_a_warning() -> None:
    for module in ("stable_baselines3.common.callbacks", "kinghillish"):
        with pytest.warns(DeprecationWarning, match="an old call"):
            _warn_from(module)


def test_the_masked_rllib_module_uses_the_current_constructor() -> None:
    """Built with keywords, no ``config=``: RLlib's own deprecation log (which its
    ``RLModule.__init__`` writes for every module) does not reach the user."""
    pytest.importorskip("ray.rllib")
    from ray.rllib.algorithms.ppo.ppo_catalog import PPOCatalog

    from kinghill.agents.rllib_module import RLLIB_OWN_DEPRECATION, MaskedMenuModule
    from kinghill.envs.rl.masked_aec import masked_env

    env = masked_env()
    seen: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: seen.append(record.getMessage())  # type: ignore[method-assign]
    logger = logging.getLogger("ray._common.deprecation")
    logger.addHandler(handler)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", DeprecationWarning)
            MaskedMenuModule(
                observation_space=env.observation_space("player_0"),
                action_space=env.action_space("player_0"),
                model_config={"fcnet_hiddens": [8]},
                catalog_class=PPOCatalog,
            )
        logger.warning("DeprecationWarning: something else has been deprecated")
    finally:
        logger.removeHandler(handler)
    assert not [message for message in seen if RLLIB_OWN_DEPRECATION in message]
    assert seen == ["DeprecationWarning: something else has been deprecated"]  # others pass


def test_the_rllib_env_passes_rllibs_multi_agent_checks() -> None:
    pytest.importorskip("ray.rllib")
    from ray.rllib.utils.pre_checks.env import check_multiagent_environments

    from kinghill.experiments.training.rllib_train import make_rllib_env

    check_multiagent_environments(make_rllib_env({"noise": True}))
