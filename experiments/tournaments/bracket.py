"""The single-elimination bracket as a pure function of the seeding and the match results.

Entrants are seeded 1..n (1 the strongest). The bracket has the next power of two of places;
the places left over are byes, given to the top seeds, who go through to round 2 without a
match. Seeds meet in the usual order (1 v 16, 8 v 9, ...), so that seeds 1 and 2 can only meet
in the final. A match's winner goes on to the next round; the higher seed of a pairing is named
first and breaks the first frame.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from kinghill.experiments.tournaments.errors import TournamentError
from kinghill.experiments.tournaments.race import RaceScore


@dataclass(frozen=True)
class Slot:
    """One place of the bracket: a match of round ``round`` (from 1) at position ``index``.

    ``agents`` holds the two entrants, the higher seed first; None where an entrant is not yet
    known. ``bye``: round 1 gave its entrant no opponent. ``score`` is the match's score
    (None for a bye or a match not yet set); ``winner`` the entrant going through.
    """

    round: int
    index: int
    agents: tuple[str | None, str | None]
    bye: bool = False
    score: RaceScore | None = None

    @property
    def winner(self) -> str | None:
        if self.bye:
            return self.agents[0]
        return None if self.score is None else self.score.winner

    @property
    def ready(self) -> bool:
        """Both entrants are known and the match is not decided: it is to be played."""
        return not self.bye and None not in self.agents and self.winner is None


Results = Callable[[Slot], RaceScore]
"""The score of a set match (both entrants known), from whatever has been played of it."""


def bracket_size(entrants: int) -> int:
    """Places in the bracket: the smallest power of two that holds every entrant."""
    if entrants < 2:
        raise TournamentError(f"a knockout needs at least two entrants (got {entrants})", "agents")
    size = 2
    while size < entrants:
        size *= 2
    return size


def seed_order(size: int) -> list[int]:
    """Seed numbers (1-based) place by place, so that seed s meets seed size + 1 - s in round 1
    and the top seeds meet as late as possible."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return order


def bracket(seeds: Sequence[str], results: Results) -> list[list[Slot]]:
    """Every round of the bracket as far as the results decide it.

    :param seeds: the entrants, seed 1 first.
    :param results: the score of each set match (called for every match with both entrants).
    :returns: the rounds in order, each a list of its slots; the last holds the final.
    """
    if len(set(seeds)) != len(seeds):
        raise TournamentError(f"every entrant once: {list(seeds)}", "agents")
    size = bracket_size(len(seeds))
    rank = {name: number for number, name in enumerate(seeds)}
    places = [seeds[s - 1] if s <= len(seeds) else None for s in seed_order(size)]
    rounds: list[list[Slot]] = []
    entrants: list[str | None] = places
    round_number = 1
    while len(entrants) > 1:
        slots = []
        for index in range(len(entrants) // 2):
            pair = entrants[2 * index : 2 * index + 2]
            known = sorted((a for a in pair if a is not None), key=rank.__getitem__)
            if round_number == 1 and len(known) == 1:
                slots.append(Slot(1, index, (known[0], None), bye=True))
                continue
            agents = (known + [None, None])[:2]
            slot = Slot(round_number, index, (agents[0], agents[1]))
            if None not in slot.agents:
                slot = Slot(round_number, index, slot.agents, score=results(slot))
            slots.append(slot)
        rounds.append(slots)
        entrants = [slot.winner for slot in slots]
        round_number += 1
    return rounds


def champion(rounds: Sequence[Sequence[Slot]]) -> str | None:
    """The winner of the final, once it is decided."""
    return rounds[-1][0].winner if rounds else None
