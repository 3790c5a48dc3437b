"""The movements: who plays whom, at which table and on which side, in each round of an event.

Pure: the seating of a round follows from the movement, the number of pairs and the round alone, so a
server, a printed table card and a test all get the same answer. Indexes count from 0 (people see them
from 1).
"""

from __future__ import annotations

from dataclasses import dataclass

from scorepad.rules.errors import Message

MITCHELL = "mitchell"
ROUND_ROBIN = "round_robin"
MOVEMENTS = (MITCHELL, ROUND_ROBIN)
MOVEMENT_NAMES = {MITCHELL: Message("Mitchell"), ROUND_ROBIN: Message("round-robin")}


@dataclass(frozen=True)
class Seating:
    """One table in one round: its number and its two pairs, side 0 (North–South, or first-named) first."""

    table: int
    pairs: tuple[int, int]


@dataclass(frozen=True)
class RoundSeating:
    """Every table of one round, and the pair that sits out (None: nobody does)."""

    round: int
    tables: tuple[Seating, ...]
    bye: int | None = None


def tables_for(pairs: int) -> int:
    """Tables an event of `pairs` pairs needs: one for every two pairs, an odd pair out sharing the last."""
    return (pairs + 1) // 2


def most_rounds(movement: str, pairs: int) -> int:
    """The most rounds `movement` can seat without a pair meeting another twice."""
    if movement == MITCHELL:
        return tables_for(pairs)  # each moving pair visits every table once
    return pairs + pairs % 2 - 1  # round-robin: every other pair once (the phantom counted when odd)


def mitchell_round(pairs: int, round: int) -> RoundSeating:
    """A Mitchell round: pairs 0 … T−1 stay at tables 0 … T−1 (North–South); at table t the East–West pair is
    T + ((t − round) mod T). With an odd number of pairs the last East–West pair is a phantom, and the
    North–South pair facing it sits out (its table stays empty that round)."""
    tables = tables_for(pairs)
    seated: list[Seating] = []
    bye: int | None = None
    for table in range(tables):
        moving = tables + (table - round) % tables
        if moving >= pairs:  # the phantom
            bye = table
        else:
            seated.append(Seating(table, (table, moving)))
    return RoundSeating(round, tuple(seated), bye)


def _round_robin_sides(first: int, second: int, fixed: int, size: int) -> tuple[int, int]:
    """Which of two pairs sits on side 0, so that each pair has side 0 in half its rounds (one more or less).

    Against the fixed pair, an even-numbered pair has side 0; between two turning pairs i and j, i has side 0
    when (j − i) mod size is odd (size is odd, so exactly one of the two differences is)."""
    if first == fixed:
        return (second, first) if second % 2 == 0 else (first, second)
    return (first, second) if (second - first) % size % 2 == 1 else (second, first)


def round_robin_round(pairs: int, round: int) -> RoundSeating:
    """A round-robin round by the circle method: with an even count E (the phantom added when odd), the last
    pair F = E − 1 stays put and meets pair `round`; every other two pairs i and j meet in the round r where
    i + j ≡ 2r (mod E − 1). Tables are numbered in the order (F, r), (r + 1, r − 1), (r + 2, r − 2), …;
    the pair that meets the phantom sits out, and the tables that play are numbered from 0 without a gap."""
    even = pairs + pairs % 2
    turning = even - 1  # pairs 0 … E − 2 turn round the fixed pair F = E − 1
    fixed = turning
    meetings = [(fixed, round)] + [((round + k) % turning, (round - k) % turning) for k in range(1, even // 2)]
    seated: list[Seating] = []
    bye: int | None = None
    for first, second in meetings:
        if fixed >= pairs and first == fixed:
            bye = second
            continue
        seated.append(Seating(len(seated), _round_robin_sides(first, second, fixed, turning)))
    return RoundSeating(round, tuple(seated), bye)


def seating(movement: str, pairs: int, round: int) -> RoundSeating:
    """The seating of `round` (from 0) for an event of `pairs` pairs: ValueError for a round the movement
    does not have (the event's checks refuse such a choice in words before it gets here)."""
    if movement not in MOVEMENTS:
        raise ValueError(f"unknown movement {movement!r}")
    if pairs < 2 or not 0 <= round < most_rounds(movement, pairs):
        raise ValueError(f"a {movement} of {pairs} pairs has no round {round}")
    return mitchell_round(pairs, round) if movement == MITCHELL else round_robin_round(pairs, round)
