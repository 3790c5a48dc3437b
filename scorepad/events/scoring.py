"""Event scoring: each table's result, the byes, the standings; the rounds' results to and from JSON.

A table's result is each pair's cumulative in that table's game. Match points: a win 2, a tie 1, a loss 0.
The standings count every finished table and every bye of a round whose tables have all finished.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple

from .event import Event

WIN, TIE, LOSS = 2, 1, 0
BYE_MATCH_POINTS = 1  # a bye scored at the round's average is half a win


@dataclass(frozen=True)
class TableResult:
    """One table in one round: its pairs (side 0 first), each pair's cumulative as it stands, and its state."""

    table: int
    pairs: tuple[int, int]
    points: tuple[int, int] = (0, 0)
    finished: bool = False
    confirmed: bool = False
    hands: int = 0
    game: str | None = None

    @property
    def status(self) -> str:
        """The table's game status, as a game document gives it."""
        return "finished" if self.finished else "in_progress"


@dataclass(frozen=True)
class RoundResult:
    """One round started: its tables and the pair that sits out (None: nobody)."""

    tables: tuple[TableResult, ...]
    bye: int | None = None

    @property
    def finished(self) -> bool:
        """Whether every table of the round has finished its game."""
        return all(table.finished for table in self.tables)


class Standing(NamedTuple):
    """One pair's line of the standings (a tuple: a wall of 2,000 pairs makes 2,000 of them on each change)."""

    rank: int
    pair: int
    match_points: int
    points: int
    difference: int
    played: int


def match_points(points: tuple[int, int]) -> tuple[int, int]:
    """Each pair's match points for a table: by their cumulatives, a win 2, a tie 1, a loss 0."""
    first, second = points
    if first == second:
        return TIE, TIE
    return (WIN, LOSS) if first > second else (LOSS, WIN)


def nearest_five(value: Fraction) -> int:
    """A number rounded to the nearest multiple of 5, halves up (towards the higher score, negatives too)."""
    fives = value / 5 + Fraction(1, 2)
    return (fives.numerator // fives.denominator) * 5


def round_average(result: RoundResult) -> int | None:
    """The round's average result: every cumulative of the pairs that played it, rounded to a multiple of 5,
    halves up; None until every table of the round has finished (or when no table played)."""
    if not result.tables or not result.finished:
        return None
    cumulatives = [points for table in result.tables for points in table.points]
    return nearest_five(Fraction(sum(cumulatives), len(cumulatives)))


@dataclass(slots=True)
class _Tally:
    match_points: int = 0
    points: int = 0
    difference: int = 0
    played: int = 0

    def add(self, match_points: int, points: int, difference: int) -> None:
        self.match_points += match_points
        self.points += points
        self.difference += difference
        self.played += 1


def _tally(event: Event, results: Sequence[RoundResult]) -> list[_Tally]:
    """Each pair's sums over the finished tables and the counted byes."""
    tallies = [_Tally() for _ in event.pairs]
    for result in results:
        for table in result.tables:
            if not table.finished:
                continue
            first, second = table.points
            won = match_points(table.points)
            tallies[table.pairs[0]].add(won[0], first, first - second)
            tallies[table.pairs[1]].add(won[1], second, second - first)
        average = round_average(result)
        if result.bye is not None and average is not None:
            if event.bye == "average":
                tallies[result.bye].add(BYE_MATCH_POINTS, average, 0)
            else:
                tallies[result.bye].add(0, 0, 0)
    return tallies


def _ranking_key(event: Event, tally: _Tally) -> tuple[int, ...]:
    """What the standings rank by, best first: match points, then point difference, then points; or, for a
    total, points, then match points."""
    if event.scoring == "total":
        return (tally.points, tally.match_points)
    return (tally.match_points, tally.difference, tally.points)


def standings(event: Event, results: Sequence[RoundResult]) -> tuple[Standing, ...]:
    """Every pair, best first; pairs equal on every key share a rank (1, 2, 2, 4) and are listed in the order
    they registered."""
    tallies = _tally(event, results)
    keys = [_ranking_key(event, tally) for tally in tallies]
    # Best first; the sort is stable, so pairs with equal keys stay in the order they registered.
    order = sorted(range(len(tallies)), key=keys.__getitem__, reverse=True)
    lines: list[Standing] = []
    for place, pair in enumerate(order):
        tally = tallies[pair]
        tied = lines and keys[lines[-1].pair] == keys[pair]
        rank = lines[-1].rank if tied else place + 1
        lines.append(Standing(rank, pair, tally.match_points, tally.points, tally.difference, tally.played))
    return tuple(lines)


def event_status(event: Event, results: Sequence[RoundResult]) -> str:
    """ "finished" once the last round has started and every one of its tables has finished, else "in_progress"."""
    done = len(results) >= event.rounds and all(result.finished for result in results)
    return "finished" if done else "in_progress"


# --- JSON ---------------------------------------------------------------------------


def table_result_json(table: TableResult) -> dict[str, Any]:
    """One table of `round_results`."""
    return {
        "table": table.table,
        "pairs": list(table.pairs),
        "game": table.game,
        "hands": table.hands,
        "status": table.status,
        "confirmed": table.confirmed,
        "points": list(table.points),
    }


def round_results_json(results: Sequence[RoundResult]) -> list[dict[str, Any]]:
    """The document's `round_results`: one entry per round started."""
    return [{"tables": [table_result_json(t) for t in result.tables], "bye": result.bye} for result in results]


def round_results_from_json(data: Sequence[Mapping[str, Any]]) -> tuple[RoundResult, ...]:
    """`round_results` back (trusted: the server wrote them)."""
    return tuple(
        RoundResult(
            tables=tuple(
                TableResult(
                    table=table["table"],
                    pairs=(table["pairs"][0], table["pairs"][1]),
                    points=(table["points"][0], table["points"][1]),
                    finished=table["status"] == "finished",
                    confirmed=table["confirmed"],
                    hands=table["hands"],
                    game=table["game"],
                )
                for table in result["tables"]
            ),
            bye=result["bye"],
        )
        for result in data
    )


def standings_json(lines: Sequence[Standing]) -> list[dict[str, Any]]:
    """The document's `standings`."""
    return [
        {
            "rank": line.rank,
            "pair": line.pair,
            "match_points": line.match_points,
            "points": line.points,
            "difference": line.difference,
            "played": line.played,
        }
        for line in lines
    ]
