"""A player that looks ahead one shot: candidate shots simulated under execution noise, scored by
the referee's rulings and the position they leave, the best played. It breaks with the learnt
break (:mod:`kinghill.agents.learned_break`) on the rack it was learnt for.

Candidates are the heuristic's pots (their aim first calibrated by exact simulations, which
corrects throw), variants of them with other speeds and follow/draw, doubles and kicks, and
safeties. They are compared by successive halving: every candidate is simulated a few times
with noise, the better half simulated again, and so on until the budget is spent. Two options
sharpen the comparison: ``common_noise`` plays every arm of a round with the same deviations of
the cue, and ``refine`` then tries close variants of the pot chosen (a little slower or faster,
a little more follow or draw) on the luck they share.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass

import numpy as np

from kinghill.agents.learned_break import LearnedBreak, opening, package_break
from kinghill.envs import Action, ChoiceAction, FrameView, ShotAction
from kinghill.envs.game import Outcome, Played, Rulings, noisy_outcomes, play_shot
from kinghill.envs.game.noise import scaled
from kinghill.envs.planning.candidates import PotCandidate, best_chance, best_chances, pots
from kinghill.envs.planning.menu import (
    fallback_action,
    legal_pots,
    pot_action,
    safety_actions,
)
from kinghill.envs.rules import Decision, Frame, FrameResult, choose
from kinghill.physics import (
    COLOURED,
    MAX_SPEED,
    MISCUE_LIMIT,
    N_BALLS,
    WHITES,
    NoiseModel,
    Shot,
    TableState,
    simulate_departures,
)

DEFAULT_BUDGET = 120
"""Noisy simulations per decision by default, besides the exact ones that calibrate the pots'
aim (3-5 per pot variant); about 0.01 CPU s a decision (benchmarks/search/decision-time.md)."""
CLOCK_MARGIN = 1.0
"""Seconds the search keeps in hand before the clock's limit (the last simulation, returning the
action, a busy machine)."""
DEADLINE_BATCH = 16
"""Noisy simulations played in one batch when thinking to a deadline: the anytime search's
budget doubles, and one arm's samples in a single batch could run well past the clock."""
CALIBRATION_STEP = math.radians(0.05)
"""First aim change of the calibration's secant (rad)."""
CALIBRATION_STEPS = 2
CALIBRATION_TOLERANCE = math.radians(0.05)
"""A departure this close to the heading needs no correction (rad)."""
MAX_CALIBRATION = math.radians(3.0)
"""A correction larger than this means the model does not fit the shot: keep the plain aim."""
DEPARTURE_FPS = 30.0
"""Sampling rate of the trajectories that measure the object ball's departure."""


@dataclass(frozen=True)
class CandidateSet:
    """Which shots the search tries at a shot decision: the ``pots`` likeliest legal pots, each
    at every cue speed factor of ``speeds`` and change of the tip's height of ``spins`` (as
    planned, more draw, more follow); ``kicks`` doubles and kicks of whites; ``safeties``
    safeties, each at every speed factor of ``safety_speeds``."""

    pots: int = 5
    kicks: int = 3
    safeties: int = 4
    safety_speeds: tuple[float, ...] = (1.0, 1.5)
    speeds: tuple[float, ...] = (1.0, 1.4)
    spins: tuple[float, ...] = (0.0, -0.3, 0.3)

    @property
    def most(self) -> int:
        """The most candidates a decision can have from this set."""
        pots = self.pots * len(self.speeds) * len(self.spins)
        return pots + self.kicks + self.safeties * len(self.safety_speeds)


NARROW = CandidateSet()
"""The search's set: about thirty shots."""
WIDE = CandidateSet(pots=8, safeties=8, safety_speeds=(0.6, 1.0, 1.5))
"""About seventy shots: too many for ``search``'s 120 simulations (docs/training.md), the set a
prior net narrows (``expert:PATH?candidates=wide``)."""
CANDIDATE_SETS = {"narrow": NARROW, "wide": WIDE}
"""The sets by name (an agent spec's ``candidates`` option)."""
SPIN_STEP = 0.3
"""The change of the tip's height of the sets' draw and follow (a prior's feature scale)."""


def candidate_set(shots: str | CandidateSet) -> CandidateSet:
    """``shots`` itself, or the set of :data:`CANDIDATE_SETS` it names.

    :raises ValueError: no set has that name."""
    if isinstance(shots, CandidateSet):
        return shots
    if shots not in CANDIDATE_SETS:
        raise ValueError(f"candidates: one of {', '.join(CANDIDATE_SETS)}, got {shots!r}")
    return CANDIDATE_SETS[shots]


REFINE_GRID: tuple[tuple[float, float], ...] = (
    (0.8, 0.0),
    (1.2, 0.0),
    (1.0, -0.15),
    (1.0, 0.15),
    (0.8, -0.15),
    (0.8, 0.15),
    (1.2, -0.15),
    (1.2, 0.15),
)
"""The variants of the chosen pot that refinement plays besides it: (factor on its speed, change
of its tip height), finer than the candidate sets' steps (speed x1.4, tip height 0.3)."""


WHITE_VALUE = 0.12
"""Value of a white credited (a frame won is 1)."""
FOUL_VALUE = 0.3
"""Cost of a foul that does not lose the frame (the opponent's 10.4 choice, one foul from 10.5)."""
POSITION_VALUE = 0.35
"""Weight of the best pot chance of whoever shoots next."""


def _best_chance(state: TableState, frame: Frame, player: int) -> float:
    """The chance of ``player``'s most makeable straight pot (a cheap position estimate)."""
    whites = [b for b in WHITES if state.on_table[b]]
    targets = whites if frame.whites_needed(player) else [COLOURED]
    return best_chance(state, whites, targets)


def position_value(frame: Frame, state: TableState, me: int) -> float:
    """How good the frame and table are for ``me``, in [-1, 1]: a result counts fully; else
    whites credited, fouls, and the pot chance of whoever decides next."""
    return static_value(frame, state, me, frame.to_move)


def static_value(frame: Frame, state: TableState, me: int, mover: int) -> float:
    """:func:`position_value` with ``mover`` to shoot next instead of the frame's player to
    move (what a miss would hand over)."""
    if frame.result is not None:
        return _result_value(frame.result, me)
    return _standing(frame, me, mover, _best_chance(state, frame, mover))


def position_values(positions: Sequence[tuple[Frame, TableState]], me: int) -> list[float]:
    """:func:`position_value` of each ``(frame, state)`` for ``me``, the same numbers, the pot
    chances of the unfinished frames found in one compiled call
    (:func:`~kinghill.envs.planning.candidates.best_chances`)."""
    live = [(frame, state) for frame, state in positions if frame.result is None]
    on = np.array([state.on_table for _, state in live], dtype=bool).reshape(-1, N_BALLS)
    cues = on & _WHITE
    needs = np.array([frame.whites_needed(frame.to_move) > 0 for frame, _ in live], dtype=bool)
    targets = np.where(needs[:, None], cues, on & _COLOURED)
    chances = iter(best_chances([state for _, state in live], cues, targets).tolist())
    return [
        _result_value(frame.result, me)
        if frame.result is not None
        else _standing(frame, me, frame.to_move, next(chances))
        for frame, _ in positions
    ]


_WHITE = np.isin(np.arange(N_BALLS), WHITES)
_COLOURED = np.arange(N_BALLS) == COLOURED
"""Which ball ids are whites, which the coloured ball."""


def _result_value(result: FrameResult, me: int) -> float:
    """A finished frame for ``me``: 1 won, -1 lost, 0 truncated."""
    return 0.0 if result.winner is None else (1.0 if result.winner == me else -1.0)


def _standing(frame: Frame, me: int, mover: int, chance: float) -> float:
    """An unfinished frame for ``me``: whites credited and fouls, and ``mover``'s best pot
    ``chance`` (for or against ``me``), held inside [-0.95, 0.95]."""
    other = 1 - me
    credits = frame.credit_counts
    value = WHITE_VALUE * (credits[me] - credits[other])
    value -= FOUL_VALUE * (frame.fouls[me] - frame.fouls[other])
    value += POSITION_VALUE * chance if mover == me else -POSITION_VALUE * chance
    return min(max(value, -0.95), 0.95)  # np.clip's value on a float, without its cost


LeafValue = Callable[[Frame, TableState, int], float]
"""Scores the position a simulated shot leaves for player ``me``, in [-1, 1], as
:func:`position_value` does (a learned one: :class:`kinghill.agents.value.LearnedValue`)."""


@dataclass(frozen=True)
class LookAheadValue:
    """A two-shot leaf: the position is scored through the next shot. The next shooter's most
    likely pot (the planner's noise-aware chance ``c``) is played once without noise and the
    position after it scored by ``base``; a miss (``1 - c``) hands the table as it stands to
    the other player (:func:`static_value`). The leaf is ``c * after + (1 - c) * missed``:
    position play and what a leave hands the opponent both count (a search's decision takes
    about 1.7 times as long). A result, a 10.4 choice, no pot on, or a pot whose uncalibrated aim
    misses when played exactly is scored by ``base`` itself. Measured weaker than the static
    leaf at equal time (docs/training.md, issue 19's ablations)."""

    base: LeafValue = position_value

    def __call__(self, frame: Frame, state: TableState, me: int) -> float:
        if frame.result is not None or frame.decision is not Decision.SHOT:
            return self.base(frame, state, me)
        mover = frame.to_move
        found = legal_pots(FrameView(state, frame, mover))
        if not found:
            return self.base(frame, state, me)
        pot = found[0]
        played = play_shot(frame, state, pot_action(pot))
        ruling = played.ruling
        if ruling.is_foul or not (ruling.credited or ruling.legal_colour_pot):
            return self.base(frame, state, me)  # the uncalibrated aim missed: no look-ahead
        after = self.base(played.frame, played.state, me)
        missed = static_value(frame, state, me, 1 - mover)
        return pot.chance * after + (1 - pot.chance) * missed


def outcome_values(
    view: FrameView,
    action: ShotAction,
    rng: np.random.Generator,
    n: int,
    noise: NoiseModel,
    leaf: LeafValue = position_value,
) -> list[float]:
    """``action`` from ``view`` played ``n`` times under ``noise`` (drawn from ``rng``), each
    outcome ruled by the referee and scored by ``leaf`` for ``view``'s player: what the search
    learns of a shot."""
    plays = noisy_outcomes(view.frame, view.state, [action] * n, rng, noise)
    return leaf_values(leaf, plays, view.player)


def leaf_values(leaf: LeafValue, plays: Sequence[Played | Outcome], me: int) -> list[float]:
    """``leaf``'s score for ``me`` of the position each of ``plays`` left (its ``frame`` and
    ``state``), in order (the hand-made :func:`position_value` batched:
    :func:`position_values`; a leaf with a ``many`` method, such as
    :class:`~kinghill.agents.position_value.PositionValue`, scores them all in one call)."""
    if leaf is position_value:
        return position_values([(p.frame, p.state) for p in plays], me)
    many = getattr(leaf, "many", None)
    if many is not None:
        return list(many([(p.frame, p.state) for p in plays], me))
    return [leaf(p.frame, p.state, me) for p in plays]


POT, KICK, SAFETY = 0, 1, 2
"""The kinds of :class:`Candidate`."""


@dataclass(frozen=True)
class Candidate:
    """A shot the search may play, before a pot's aim is calibrated: its action, the pot it
    plays (None for a safety), its kind (:data:`POT`, :data:`KICK`, :data:`SAFETY`), its rank
    among the shots of its kind, and which speed (index) and spin step (a change of the tip's
    height) made it from the planned shot."""

    action: ShotAction
    pot: PotCandidate | None
    kind: int
    rank: int
    speed_step: int = 0
    spin_step: float = 0.0


def candidates(view: FrameView, shots: CandidateSet = NARROW) -> list[Candidate]:
    """The search's candidate shots at ``view``'s shot decision, those of ``shots``: the best
    legal pots with other speeds and follow or draw, doubles and kicks of whites, and safeties
    at other speeds."""
    found: list[Candidate] = []
    for rank, pot in enumerate(legal_pots(view)[: shots.pots]):
        planned = pot_action(pot)
        for speed_step, factor in enumerate(shots.speeds):
            for spin in shots.spins:
                found.append(
                    Candidate(_variant(planned, factor, spin), pot, POT, rank, speed_step, spin)
                )
    for rank, kick in enumerate(_kicks(view)[: shots.kicks]):
        found.append(Candidate(pot_action(kick), kick, KICK, rank))
    for rank, safety in enumerate(safety_actions(view, shots.safeties)):
        for speed_step, factor in enumerate(shots.safety_speeds):
            speed = min(safety.shot.speed * factor, MAX_SPEED)
            action = _reshot(safety, safety.shot.phi, speed, safety.shot.b)
            found.append(Candidate(action, None, SAFETY, rank, speed_step))
    return found


def _kicks(view: FrameView) -> list[PotCandidate]:
    """Doubles and kicks (abricols) of whites, while whites are needed."""
    if not view.frame.whites_needed(view.player):
        return []
    whites = [b for b in WHITES if view.state.on_table[b]]
    return [
        c
        for c in pots(view.state, whites, whites, doubles=True, abricols=True)
        if c.double is not None or c.abricol is not None
    ]


@dataclass
class Arm:
    """One candidate shot and the scores of its simulations so far; ``prior``: a learnt prior's
    logit for it, where a guided search ranks by it (:class:`~kinghill.agents.prior.
    PriorSearchAgent` with ``halving="gumbel"``)."""

    action: ShotAction
    total: float = 0.0
    count: int = 0
    prior: float = 0.0

    @property
    def mean(self) -> float:
        return self.total / self.count if self.count else -math.inf


class SearchAgent:
    """One-shot look-ahead by simulation under execution noise.

    With a time budget the search is anytime: it repeats the halving with doubled budgets,
    keeping every simulation's score, until the time is spent. It plays to the clock of the
    round (``view.clock``, section 12): it thinks for min(budget, time left - ``margin``) and,
    when its budget is longer than the base time allows, claims the 12.5 extension on a shot
    that can win the frame (its whites are in, 6.1), once a frame as the rules allow. A
    simulation budget is cut short by the clock too.

    :param seed: seeds the noise of the simulations (and so the agent's choices).
    :param budget: simulations per decision (a 10.4 choice spends it on both options).
    :param time_budget: seconds per decision instead; decisions then depend on the machine.
    :param noise: the execution noise assumed (default: the game's default ``NoiseModel``).
    :param margin: seconds kept in hand before the clock's limit (the last simulation, the
        return to the runner, a busy machine).
    :param leaf: how the position after each simulated shot is scored (default the hand-made
        :func:`position_value`).
    :param lookahead: score the leaves one shot deeper (:class:`LookAheadValue` over ``leaf``).
    :param learned_break: break with the package's learnt break
        (:func:`~kinghill.agents.learned_break.package_break`) on the rack it was learnt for;
        False: the hand-made break, as before issue 35.
    :param candidates: the shots tried, a :class:`CandidateSet` or its name in
        :data:`CANDIDATE_SETS` (``"narrow"``, the default, or ``"wide"``).
    :param common_noise: play every arm of a round of the halving with the same deviations of
        the cue (common random numbers), so that the arms' means differ by the shots rather
        than by the luck each was dealt (the anytime search's arm-by-arm batches draw their
        own).
    :param refine: where the halving chooses a pot, play it and each of its
        :data:`REFINE_GRID` variants ``refine`` times more, all with the same noise (common
        random numbers), and play the best of them (0: no refinement); see
        :meth:`_refined`. With ``time_budget`` the halving takes all the time and nothing is
        refined.
    :param noise_scale: the execution noise the simulations assume, as a multiple of
        ``noise`` (the table's noise scale: a search told the table plays at 5 times the
        default noise plans for it; 1, the default, plans for the default noise).
    """

    def __init__(
        self,
        seed: int | None = None,
        budget: int = DEFAULT_BUDGET,
        time_budget: float | None = None,
        noise: NoiseModel | None = None,
        margin: float = CLOCK_MARGIN,
        leaf: LeafValue = position_value,
        lookahead: bool = False,
        learned_break: bool = True,
        candidates: str | CandidateSet = "narrow",
        refine: int = 0,
        common_noise: bool = False,
        noise_scale: float = 1.0,
    ) -> None:
        self.shots = candidate_set(candidates)
        """The shots it tries (:class:`CandidateSet`)."""
        if budget < 1:
            raise ValueError(f"budget: at least one simulation per decision, got {budget}")
        if time_budget is not None and not time_budget > 0:
            raise ValueError(f"time_budget must be positive seconds, got {time_budget}")
        if not margin >= 0:
            raise ValueError(f"margin must be seconds >= 0, got {margin}")
        if refine < 0:
            raise ValueError(
                f"refine: samples of each variant of the chosen pot, >= 0, got {refine}"
            )
        self.refine = refine
        self.common_noise = common_noise
        self.budget = budget
        self.time_budget = time_budget
        self.margin = margin
        self.leaf: LeafValue = LookAheadValue(leaf) if lookahead else leaf
        number = isinstance(noise_scale, int | float) and not isinstance(noise_scale, bool)
        if not (number and math.isfinite(noise_scale) and noise_scale >= 0):
            raise ValueError(
                "noise_scale: the execution noise the search assumes, a multiple >= 0 of the "
                f"default (the table's noise scale), got {noise_scale!r}"
            )
        self.noise = scaled(noise or NoiseModel(), float(noise_scale))
        self.rng = np.random.default_rng(seed)
        self.break_shot: LearnedBreak | None = package_break() if learned_break else None
        """The learnt break played on its rack (None: always the hand-made one)."""
        self.last_arms: list[Arm] = []
        """The arms of the last shot searched (in the order of its candidates), with the
        simulations each got and their total score: what an expert's search found (the
        halving's arms; refinement's are not among them)."""
        self.last_candidates: list[Candidate] = []
        """The candidates of the last shot searched (:func:`candidates` of its set)."""
        self.last_kept: list[int] = []
        """Which of :attr:`last_candidates` were searched, one per arm of :attr:`last_arms`
        (all of them here; a guided search keeps those its prior rates best)."""
        self._aims_on: TableState | None = None
        self._aims: dict[tuple[Shot, int, float], float] = {}
        self._rulings: Rulings | None = None

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, view: FrameView) -> Action:
        if view.decision is Decision.BREAK:
            return opening(view.state, self.break_shot)
        deadline = self._deadline(view)
        if view.decision is Decision.CHOICE:
            return self._choose(view, deadline)
        return self._search(view, self.budget, deadline)[0]

    def _deadline(self, view: FrameView) -> float | None:
        """When to stop thinking: the time budget, cut to the clock's time left less the margin;
        claims the extension first when the budget needs it and the shot can win the frame."""
        now = time.perf_counter()
        deadline = None if self.time_budget is None else now + self.time_budget
        clock = view.clock
        if clock is None or not clock.timed:
            return deadline
        wants_more = self.time_budget is not None and (
            self.time_budget > clock.time_left() - self.margin
        )
        if wants_more and view.frame.has_required(view.player):
            clock.claim_extension()
        cutoff = now + clock.time_left() - self.margin
        return cutoff if deadline is None else min(deadline, cutoff)

    # ---- the 10.4 choice ----------------------------------------------------------------------
    def _choose(self, view: FrameView, deadline: float | None) -> ChoiceAction:
        """Play on when our best shot from here is worth more than the opponent's is to them."""
        me, half = view.player, max(1, self.budget // 2)
        mine = FrameView(view.state, choose(view.frame, play_on=True), me)
        theirs = FrameView(view.state, choose(view.frame, play_on=False), 1 - me)
        middle = None if deadline is None else (time.perf_counter() + deadline) / 2
        _, on = self._search(mine, half, middle)
        _, back = self._search(theirs, half, deadline)
        return ChoiceAction(play_on=on >= -back)

    # ---- shots --------------------------------------------------------------------------------
    def _search(
        self, view: FrameView, budget: int, deadline: float | None
    ) -> tuple[ShotAction, float]:
        """The best shot for the player to move in ``view`` and its estimated value."""
        arms = self.last_arms = self._arms(view)
        if not arms:
            return fallback_action(view), -1.0
        best = self._halve(view, arms, budget, deadline)
        while self.time_budget is not None and not _past(deadline):
            budget *= 2  # anytime: halve again with twice the budget, scores kept
            best = self._halve(view, arms, budget, deadline)
        if self.refine and not _past(deadline):
            best = self._refined(view, arms, best)
        return best.action, best.mean

    def _refined(self, view: FrameView, arms: list[Arm], best: Arm) -> Arm:
        """Where ``best`` (one of ``arms``) plays a pot: the best of it and its variants of
        :data:`REFINE_GRID`, each played :attr:`refine` times with the same deviations of the
        cue, the best mean of these samples alone (the halving's samples favour the arm it
        chose); else ``best``. The halving spreads its budget over shots far apart; this spends
        some on close variants of the one it chose, compared on the luck they share, where a
        slower or faster stroke, or a little more follow or draw, can drop the ball more often
        or leave the cue ball better."""
        chosen = self.last_candidates[
            self.last_kept[next(k for k, a in enumerate(arms) if a is best)]
        ]
        if chosen.kind != POT or chosen.pot is None:
            return best
        planned = pot_action(chosen.pot)
        factor = self.shots.speeds[chosen.speed_step]
        found = [
            Candidate(
                _variant(planned, factor * f, chosen.spin_step + spin), chosen.pot, POT, chosen.rank
            )
            for f, spin in REFINE_GRID
        ]
        field = [Arm(best.action), *(Arm(a) for a in self.prepared_all(view.state, found))]
        self._score(view, [(arm, self.refine) for arm in field], common=True)
        return max(field, key=lambda a: a.mean)

    def _arms(self, view: FrameView) -> list[Arm]:
        """The arms searched at ``view``: one per candidate shot."""
        return [Arm(a) for a in self._candidates(view)]

    def _ranked(self, arms: list[Arm]) -> list[Arm]:
        """``arms`` best first, as a round of the halving keeps them: by mean score."""
        return sorted(arms, key=lambda a: a.mean, reverse=True)

    _sample_last = True
    """Whether the halving samples its last arm again when the budget allows (the plain search
    does; only the value of that arm, which the 10.4 choice compares, gains from it)."""

    def _halve(self, view: FrameView, arms: list[Arm], budget: int, deadline: float | None) -> Arm:
        """Successive halving of ``arms`` with about ``budget`` simulations, stopped at
        ``deadline``; returns the best arm (scores accumulate on the arms)."""
        spent = 0
        rounds = max(1, math.ceil(math.log2(len(arms))))
        while True:
            per_arm = max(1, (budget // rounds) // len(arms))
            if deadline is None:  # the round's samples of every arm in one batch
                work = [(arm, per_arm) for arm in arms]
                spent += self._score(view, work, common=self.common_noise)
            else:
                spent += self._score_until(view, arms, per_arm, deadline)
            arms = self._ranked(arms)
            if len(arms) == 1 or _past(deadline) or spent >= budget:
                return arms[0]
            arms = arms[: max(1, len(arms) // 2)]
            if len(arms) == 1 and not self._sample_last:
                return arms[0]

    def _score_until(self, view: FrameView, arms: list[Arm], per_arm: int, deadline: float) -> int:
        """``per_arm`` samples of each of ``arms``, arm after arm, in batches of at most
        :data:`DEADLINE_BATCH` with the clock looked at between them; past ``deadline`` only an
        untried arm gets one. Returns the simulations played."""
        spent = 0
        for arm in arms:
            n = per_arm if not _past(deadline) else 0 if arm.count else 1
            while n > 0:
                batch = min(n, DEADLINE_BATCH)
                spent += self._score(view, [(arm, batch)])
                n = 0 if _past(deadline) else n - batch
        return spent

    def _score(self, view: FrameView, work: list[tuple[Arm, int]], common: bool = False) -> int:
        """Each ``(arm, n)`` of ``work``: ``n`` noisy outcomes of the arm's shot valued for the
        player to move and added to the arm, all in one batch of simulations (the noise drawn
        arm after arm, as one batch an arm would; ``common``: drawn once, every arm given the
        same ``n`` deviations); returns the simulations played. The referee's rulings on the
        frame are kept while the frame searched stays the same
        (:class:`~kinghill.envs.game.Rulings`)."""
        if self._rulings is None or self._rulings.frame is not view.frame:
            self._rulings = Rulings(view.frame)
        actions = [arm.action for arm, n in work for _ in range(n)]
        deviations = None
        if common:
            counts = {n for _, n in work}
            if len(counts) != 1:
                raise ValueError(f"common noise: every arm sampled as often, got {sorted(counts)}")
            deviations = np.tile(self._deviations(counts.pop()), (len(work), 1))
        plays = noisy_outcomes(
            view.frame, view.state, actions, self.rng, self.noise, self._rulings, deviations
        )
        values = iter(leaf_values(self.leaf, plays, view.player))
        for arm, n in work:
            for value in itertools.islice(values, n):
                arm.total += value
                arm.count += 1
        return len(actions)

    def _deviations(self, n: int) -> np.ndarray:
        """``n`` standard-normal deviations of the cue that every arm of a common-noise batch
        is sampled with, rows (phi, speed, a, b) (a research variant may draw them otherwise:
        docs/training/position/variants.py)."""
        return self.rng.standard_normal((n, 4))

    def _candidates(self, view: FrameView) -> list[ShotAction]:
        """The actions of :func:`candidates` of its set, the pots' aim calibrated."""
        found = self.last_candidates = candidates(view, self.shots)
        self.last_kept = list(range(len(found)))
        return self.prepared_all(view.state, found)

    def prepared(self, state: TableState, candidate: Candidate) -> ShotAction:
        """``candidate``'s action as played: a pot's aim calibrated (:meth:`prepared_all`)."""
        return self.prepared_all(state, [candidate])[0]

    def prepared_all(self, state: TableState, found: Sequence[Candidate]) -> list[ShotAction]:
        """The actions of ``found`` as played: each pot's action with its aim corrected so
        that, played exactly, the object ball leaves on the pot's heading (:func:`_aims`, the
        pots measured together); the aims found on the last table asked about are kept, so
        that the 10.4 choice's two searches from one table calibrate a pot they share once."""
        if self._aims_on is not state:
            self._aims_on, self._aims = state, {}
        keys = [_aim_key(c) for c in found]
        new = {key: c for key, c in zip(keys, found, strict=True) if key and key not in self._aims}
        aims = _aims(state, [(c.action.shot, c.pot) for c in new.values() if c.pot is not None])
        self._aims.update(zip(new, aims, strict=True))
        return [
            c.action if key is None else _reshot(c.action, self._aims[key], key[0].speed, key[0].b)
            for key, c in zip(keys, found, strict=True)
        ]


def _aim_key(candidate: Candidate) -> tuple[Shot, int, float] | None:
    """What a pot's calibrated aim depends on besides the table (None: not a pot, no aim)."""
    pot = candidate.pot
    if candidate.kind != POT or pot is None:
        return None
    return (candidate.action.shot, pot.object_ball, pot.heading)


def _past(deadline: float | None) -> bool:
    return deadline is not None and time.perf_counter() > deadline


def _aims(state: TableState, pots: Sequence[tuple[Shot, PotCandidate]]) -> list[float]:
    """For each ``(shot, pot)``, the aim at which the shot's object ball, played exactly from
    ``state``, leaves on the pot's heading (:func:`_secant`); the secants of all the pots step
    together, each step's exact shots played in one batch (:func:`_heading_errors`)."""
    secants = [_secant(shot.phi) for shot, _ in pots]
    asked = [next(secant) for secant in secants]
    aims: list[float] = [math.nan] * len(pots)
    going = list(range(len(pots)))
    while going:
        shots = [_aimed(pots[k][0], asked[k]) for k in going]
        errors = _heading_errors(state, shots, [pots[k][1] for k in going])
        still = []
        for k, error in zip(going, errors, strict=True):
            try:
                asked[k] = secants[k].send(error)
                still.append(k)
            except StopIteration as done:
                aims[k] = done.value
        going = still
    return aims


def _secant(phi: float) -> Generator[float, float | None, float]:
    """The calibration of one pot's aim from ``phi``: two secant steps on the departure's
    heading error (this corrects throw). Yields each aim to measure, is sent its error (None:
    the object ball not struck cleanly first), and returns the aim found."""
    step = CALIBRATION_STEP
    error = yield phi
    for steps_left in range(CALIBRATION_STEPS - 1, -1, -1):
        if error is None or abs(error) < CALIBRATION_TOLERANCE:
            break
        moved = yield phi + step
        if moved is None or moved == error:
            break
        step = -error * step / (moved - error)
        if abs(step) > MAX_CALIBRATION:
            break
        phi = phi + step
        if steps_left:  # the error at the last aim is not needed: no step follows it
            error = yield phi
    return phi


def _heading_errors(
    state: TableState, shots: Sequence[Shot], pots: Sequence[PotCandidate]
) -> list[float | None]:
    """How far (rad) each pot's object ball, played exactly by its shot, leaves off the pot's
    heading (its departure sampled at :data:`DEPARTURE_FPS`); None when the object ball is not
    struck cleanly first."""
    lines, found = simulate_departures(
        state, shots, [pot.object_ball for pot in pots], DEPARTURE_FPS
    )
    return [
        math.remainder(math.atan2(y1 - y0, x1 - x0) - pot.heading, 2 * math.pi) if ok else None
        for (x0, y0, x1, y1), ok, pot in zip(lines.tolist(), found.tolist(), pots, strict=True)
    ]


def leaf_search(
    leaf: LeafValue,
    seed: int | None,
    budget: int,
    time_budget: float | None,
    margin: float,
    learned_break: bool,
    noise_scale: float,
) -> SearchAgent:
    """The search (same candidates, budget, clock, learnt break and noise) with its leaves
    scored by ``leaf``: what the learnt values' agents (``search-value``, ``search-position``)
    build."""
    return SearchAgent(
        seed,
        budget,
        time_budget,
        margin=margin,
        leaf=leaf,
        learned_break=learned_break,
        noise_scale=noise_scale,
    )


def _variant(action: ShotAction, factor: float, spin: float) -> ShotAction:
    """The pot at another speed (``factor`` times) and tip height (``spin`` added): for
    position and to avoid scratches."""
    shot = action.shot
    speed = min(shot.speed * factor, MAX_SPEED)
    b = min(max(shot.b + spin, -MISCUE_LIMIT), MISCUE_LIMIT)
    return _reshot(action, shot.phi, speed, b)


def _reshot(action: ShotAction, phi: float, speed: float, b: float) -> ShotAction:
    """``action`` with its shot's aim, speed and tip height set, its call and place kept."""
    shot = action.shot
    return ShotAction(
        Shot(shot.cue_ball, phi, speed, shot.a, b),
        action.call,
        action.place,
        action.claim_extension,
    )


def _aimed(shot: Shot, phi: float) -> Shot:
    """``shot`` at aim ``phi``. Built directly, as :func:`_reshot` is: the search makes
    thousands, and ``dataclasses.replace`` costs several times as much."""
    return Shot(shot.cue_ball, phi, shot.speed, shot.a, shot.b)
