"""The search guided by a learned prior, the player of expert iteration (``expert:PATH``).

A small network scores every candidate shot of the search (:func:`kinghill.agents.search.
candidates`) from features of the shot and of the position, before anything is simulated; the
search then spends its simulations on the ``arms`` shots the network likes best (their aim
calibrated, then successive halving under noise), and may score its leaves with a learned
value. The network is trained on the searches of an expert (:mod:`kinghill.experiments.
training.expert_iteration`): which shots the expert's search spent its simulations on. Inference
is plain numpy, a millisecond a decision.

Without the search (``expert-policy:PATH``) the network's best shot is played as it is, its aim
calibrated: the raw policy.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from kinghill.agents.learned_break import LearnedBreak
from kinghill.agents.position_value import FEATURES as POSITION_NET_FEATURES
from kinghill.agents.position_value import LAYERS as POSITION_LAYERS
from kinghill.agents.position_value import PositionNet, PositionValue
from kinghill.agents.search import (
    CLOCK_MARGIN,
    KICK,
    POT,
    SAFETY,
    SPIN_STEP,
    Arm,
    Candidate,
    CandidateSet,
    LeafValue,
    SearchAgent,
    candidates,
    position_value,
)
from kinghill.agents.value import FEATURES as POSITION_FEATURES
from kinghill.agents.value import (
    LAYERS,
    LearnedValue,
    ValueNet,
    check_layers,
    read_net_file,
    value_features,
)
from kinghill.envs import Action, FrameView, ShotAction
from kinghill.envs.planning.menu import fallback_action, legal_pots
from kinghill.envs.rl.masked import leave_chance
from kinghill.envs.rules import Decision
from kinghill.physics import COLOURED, MAX_SPEED, NoiseModel, Pocket

ARM_FEATURES = (
    "white_pot",
    "colour_pot",
    "kick",
    "safety",
    "chance",
    "cut",
    "cue_path",
    "object_path",
    "double",
    "abricol",
    "middle_pocket",
    "speed",
    "tip_height",
    "faster",
    "spin_step",
    "rank",
    "leave",
    "colour_cue",
)
"""What the network sees of a candidate shot (see :func:`arm_features`)."""
FEATURES = (*ARM_FEATURES, *POSITION_FEATURES, "my_fouls", "their_fouls")
"""Each row of the network's input: the shot's features, then the position's (the same for
every candidate of a decision; :func:`kinghill.agents.value.value_features`, and the fouls
standing)."""
N_FEATURES = len(FEATURES)
DEFAULT_ARMS = 8
"""Candidate shots the guided search simulates by default (of about forty)."""
DEFAULT_BUDGET = 150
"""Noisy simulations a decision by default: with eight arms calibrated instead of about thirty,
about 10% more time a decision than ``search`` at its 120 in tournaments (at 120, about a
quarter less: docs/training.md, issue 19)."""
_MIDDLES = (Pocket.MIDDLE_LEFT, Pocket.MIDDLE_RIGHT)
HALVINGS = ("plain", "gumbel")
"""How the guided search's successive halving ranks its arms: by mean score alone, or by the
prior's logit plus the scaled mean (:meth:`PriorSearchAgent._ranked`)."""
GUMBEL_C_VISIT = 50.0
GUMBEL_C_SCALE = 1.0
"""The scale of the mean against the logits in the ``gumbel`` halving, ``(c_visit + most
samples) * c_scale`` on a mean in [0, 1] (Gumbel MuZero's values, Danihelka et al., ICLR 2022)."""


def arm_features(view: FrameView, found: list[Candidate]) -> np.ndarray:
    """One row of :data:`FEATURES` per candidate of ``view`` (a shot decision), in [0, 1] or
    near: what kind of shot, the pot's chance, cut, paths, route and pocket, the cue speed and
    tip height and how they were varied, the pot's rank, what it leaves (the best other pot
    using neither of its balls), whether the coloured ball is the cue ball; then the position."""
    spec = view.state.spec
    rows = np.zeros((len(found), N_FEATURES), np.float32)
    pots = legal_pots(view)
    for k, c in enumerate(found):
        row, shot = rows[k], c.action.shot
        pot = c.pot
        if c.kind == POT and pot is not None:
            row[0 if pot.object_ball != COLOURED else 1] = 1.0
        row[2] = c.kind == KICK
        row[3] = c.kind == SAFETY
        if pot is not None:
            row[4] = pot.chance
            row[5] = pot.cut / (math.pi / 2)
            row[6] = min(pot.cue_path / (2 * spec.length), 1.0)
            row[7] = min(pot.object_path / (2 * spec.length), 1.0)
            row[8] = pot.double is not None
            row[9] = pot.abricol is not None
            row[10] = pot.pocket in _MIDDLES
            row[16] = leave_chance(pot, pots)
        row[11] = shot.speed / MAX_SPEED
        row[12] = shot.b
        row[13] = c.speed_step
        row[14] = c.spin_step / SPIN_STEP
        row[15] = c.rank / 5
        row[17] = shot.cue_ball == COLOURED
    me = view.player
    position = value_features(view.frame, view.state)
    rows[:, len(ARM_FEATURES) : -2] = position
    rows[:, -2], rows[:, -1] = view.frame.fouls[me], view.frame.fouls[1 - me]
    return rows


@dataclass(frozen=True)
class PriorNet:
    """A two-layer tanh network giving each candidate shot a logit (``w1``: features x hidden,
    ``w2``: hidden x 1), optionally the leaf value learnt beside it, a net of the whole position
    to score the leaves with instead (:class:`~kinghill.agents.position_value.PositionNet`,
    ``expert-position``'s) and the break learnt for the rack."""

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    value: ValueNet | None = None
    break_shot: LearnedBreak | None = None
    position: PositionNet | None = None

    def __post_init__(self) -> None:
        check_layers(self.w1, self.b1, self.w2, self.b2, N_FEATURES, "prior net")

    def logits(self, features: np.ndarray) -> np.ndarray:
        """One logit per row of ``features``."""
        return (np.tanh(features @ self.w1 + self.b1) @ self.w2 + self.b2)[:, 0]

    def save(self, path: str | Path) -> None:
        """Write the weights (and the feature names they expect) to an ``.npz`` file."""
        arrays: dict[str, Any] = {k: getattr(self, k) for k in LAYERS}
        if self.value is not None:
            arrays |= {f"value_{k}": getattr(self.value, k) for k in LAYERS}
        if self.break_shot is not None:
            arrays |= self.break_shot.arrays()
        if self.position is not None:
            arrays |= {f"position_{k}": getattr(self.position, k) for k in POSITION_LAYERS}
            arrays["position_features"] = np.array(POSITION_NET_FEATURES)
        np.savez(path, features=np.array(FEATURES), **arrays)

    @classmethod
    def load(cls, path: str | Path) -> PriorNet:
        """The net saved at ``path``.

        :raises FileNotFoundError: nothing is there.
        :raises ValueError: the file is not a prior net for these features.
        """
        weights = read_net_file(path, FEATURES, "prior net", "PriorNet.save")
        value = None
        if "value_w1" in weights:
            value = ValueNet(*(weights[f"value_{k}"] for k in LAYERS))
        w1, b1, w2, b2 = (weights[k] for k in LAYERS)
        learnt = LearnedBreak.read(path)
        return cls(w1, b1, w2, b2, value, learnt, _position_net(path, weights))


def _position_net(path: str | Path, weights: dict[str, np.ndarray]) -> PositionNet | None:
    """The position net a prior net's file at ``path`` holds beside it (None: none).

    :raises ValueError: it is not a position net for this version's features."""
    if "position_w1" not in weights:
        return None
    with np.load(path) as data:
        found = data["position_features"] if "position_features" in data.files else ()
        names = tuple(str(n) for n in found)
    if names != POSITION_NET_FEATURES:
        raise ValueError(f"{path}: its position net's features {names} are not this version's")
    return PositionNet(*(weights[f"position_{k}"] for k in POSITION_LAYERS))


class PriorSearchAgent(SearchAgent):
    """The search over the ``arms`` candidate shots its prior net rates best (all of them with
    ``arms=0``), scored at its leaves by the hand-made
    :func:`~kinghill.agents.search.position_value`, or with ``value`` by the net's learnt value
    (it costs about twice as much a leaf), or by the net of the whole position its file holds
    where it holds one (``expert-position``). The clock, the 10.4
    choice and the budget work as in :class:`SearchAgent`. It breaks as the search does, with the
    learnt break on the rack it was learnt on: the net's own when its file holds one, else the
    package's (``learned_break=False``: the hand-made break).

    With ``halving="gumbel"`` each round of the halving ranks the arms by the prior's logit plus
    the mean score scaled by how many samples the arms have had (the sequential halving of Gumbel
    MuZero, Danihelka et al., ICLR 2022, without the Gumbel noise: play, not training): where a
    few noisy samples cannot tell two shots apart the prior does; and the last arm left is not
    sampled again. Measured at 0.54 [0.52, 0.56] against ``search`` over 2,000 frames at its time
    a decision (docs/training.md, issue 35).

    :attr:`last_kept` holds which candidates of the last shot were searched (their indices in
    :func:`~kinghill.agents.search.candidates`' order), for an expert's record.
    """

    c_scale: float = GUMBEL_C_SCALE
    """The ``gumbel`` halving's weight of the mean against the logits (a research variant may
    set another: docs/training/position/variants.py)."""

    def __init__(
        self,
        net: PriorNet,
        seed: int | None = None,
        budget: int = DEFAULT_BUDGET,
        arms: int = DEFAULT_ARMS,
        time_budget: float | None = None,
        noise: NoiseModel | None = None,
        margin: float = CLOCK_MARGIN,
        value: bool = False,
        lookahead: bool = False,
        learned_break: bool = True,
        halving: str = "plain",
        candidates: str | CandidateSet = "narrow",
        refine: int = 0,
        common_noise: bool = False,
        noise_scale: float = 1.0,
    ) -> None:
        if arms < 0:
            raise ValueError(f"arms: the number of shots searched, >= 0 (0: all), got {arms}")
        if halving not in HALVINGS:
            raise ValueError(f"halving: one of {', '.join(HALVINGS)}, got {halving!r}")
        leaf: LeafValue = position_value
        if value and net.position is not None:
            leaf = PositionValue(net.position)
        elif value and net.value is not None:
            leaf = LearnedValue(net.value)
        elif value:
            raise ValueError(
                "value=true: the prior net holds no learnt value to score the leaves with "
                "(neither a value net nor a position net); leave value false"
            )
        super().__init__(
            seed,
            budget,
            time_budget,
            noise,
            margin,
            leaf,
            lookahead,
            learned_break,
            candidates,
            refine,
            common_noise,
            noise_scale,
        )
        self.break_shot = _net_break(net, self.break_shot)
        self.net = net
        self.arms = arms
        self.gumbel = halving == "gumbel"
        self._sample_last = not self.gumbel
        self._kept_logits: list[float] = []

    def _candidates(self, view: FrameView) -> list[ShotAction]:
        found = self.last_candidates = candidates(view, self.shots)
        kept = list(range(len(found)))
        self._kept_logits = []
        truncated = bool(self.arms) and len(found) > self.arms
        if found and (truncated or self.gumbel):
            logits = self._logits(view, found)
            if truncated:
                kept = sorted(np.argsort(-logits, kind="stable")[: self.arms].tolist())
            self._kept_logits = [float(logits[k]) for k in kept]
        self.last_kept = kept
        return self.prepared_all(view.state, [found[k] for k in kept])

    def _logits(self, view: FrameView, found: list[Candidate]) -> np.ndarray:
        """The prior's logit of each of ``found`` (a research variant may add to them:
        docs/training/position/stroke_net.py)."""
        return self.net.logits(arm_features(view, found))

    def _arms(self, view: FrameView) -> list[Arm]:
        arms = super()._arms(view)
        if self.gumbel:
            for arm, logit in zip(arms, self._kept_logits, strict=True):
                arm.prior = logit
        return arms

    def _ranked(self, arms: list[Arm]) -> list[Arm]:
        if not self.gumbel:
            return super()._ranked(arms)
        scale = (GUMBEL_C_VISIT + max(a.count for a in arms)) * self.c_scale / 2
        return sorted(arms, key=lambda a: a.prior + scale * (a.mean + 1), reverse=True)


def prior_search(
    path: str | Path,
    seed: int | None = None,
    budget: int = DEFAULT_BUDGET,
    arms: int = DEFAULT_ARMS,
    time_budget: float | None = None,
    margin: float = CLOCK_MARGIN,
    value: bool = False,
    lookahead: bool = False,
    learned_break: bool = True,
    halving: str = "plain",
    candidates: str = "narrow",
    refine: int = 0,
    common_noise: bool = False,
    noise_scale: float = 1.0,
) -> PriorSearchAgent:
    """The guided search with the prior net saved at ``path``: ``expert:PATH`` (``?budget=N``,
    ``?arms=K``, ``?value=true`` for the learnt leaf value instead of the hand-made score,
    ``?lookahead=true`` for leaves scored one shot deeper, ``?learned_break=false`` for the
    hand-made break instead of the net's, ``?halving=gumbel`` for arms ranked by the prior and
    the mean together, ``?candidates=wide`` for the wide candidate set the net was trained on,
    ``?refine=N`` for the chosen pot refined, ``?common_noise=true`` for the halving's arms
    played under the same noise and ``?noise_scale=K`` for simulations at K times the default
    noise, :class:`~kinghill.agents.search.SearchAgent`)."""
    return PriorSearchAgent(
        PriorNet.load(path),
        seed,
        budget,
        arms,
        time_budget,
        margin=margin,
        value=value,
        lookahead=lookahead,
        learned_break=learned_break,
        halving=halving,
        candidates=candidates,
        refine=refine,
        common_noise=common_noise,
        noise_scale=noise_scale,
    )


class PriorPolicyAgent:
    """The prior net alone (``expert-policy:PATH``): it plays the candidate it rates best, a
    pot's aim calibrated by exact simulations as the search does (no noisy simulation); the
    break and the 10.4 choice as the guided search makes them (the choice with one
    simulation)."""

    def __init__(
        self,
        path: str | Path,
        seed: int | None = None,
        learned_break: bool = True,
        candidates: str = "narrow",
    ) -> None:
        self.net = PriorNet.load(path)
        self.search = SearchAgent(
            seed, budget=1, learned_break=learned_break, candidates=candidates
        )
        self.search.break_shot = _net_break(self.net, self.search.break_shot)

    def act(self, view: FrameView) -> Action:
        if view.decision in (Decision.BREAK, Decision.CHOICE):
            return self.search.act(view)
        found = candidates(view, self.search.shots)
        if not found:
            return fallback_action(view)
        return self.search.prepared(view.state, found[self.choose(view, found)])

    def choose(self, view: FrameView, found: list[Candidate]) -> int:
        """Which of ``found`` (the candidates at ``view``) to play: the one the net rates best
        (a research variant may choose otherwise: docs/training/position/stroke_net.py)."""
        return int(np.argmax(self.net.logits(arm_features(view, found))))


def _net_break(net: PriorNet, learnt: LearnedBreak | None) -> LearnedBreak | None:
    """The break a searching agent with ``net`` plays: the net's own when it holds one (the
    break its run learnt and trained with), else ``learnt``; None (the hand-made break) when
    ``learnt`` is None, i.e. with ``learned_break=False``."""
    return None if learnt is None else net.break_shot or learnt
