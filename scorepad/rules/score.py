"""A game's figures hand by hand: each side's scores, the totals, the end of the game (§1) and §5.14."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .checks import check_hand
from .entries import Hand, Table
from .errors import Message, Plural, Problem, RuleError
from .scoring import minimum_count, side_base, side_count
from .table import Rules


@dataclass(frozen=True)
class SideScore:
    """One side's figures for one hand."""

    base: int
    count: int
    total: int
    cumulative: int
    min_count_next: int


@dataclass(frozen=True)
class HandScore:
    """A hand's dealer seat and each side's figures."""

    dealer: int
    sides: tuple[SideScore, ...]


@dataclass(frozen=True)
class GameScore:
    """Every hand's figures, the running totals and the state of the game."""

    hands: tuple[HandScore, ...]
    totals: tuple[int, ...]
    min_count: tuple[int, ...]
    finished: bool
    winners: tuple[int, ...]  # one side, or several sharing a tied win; none while the game goes on
    next_dealer: int
    ended_after: int | None = None  # index of the hand that ended the game

    @property
    def winner(self) -> int | None:
        """The side that won alone (None while the game goes on, or when a tied win is shared)."""
        return self.winners[0] if len(self.winners) == 1 else None

    @property
    def margin(self) -> int | None:
        """How far the winners finished ahead of the next side."""
        if not self.winners or len(self.winners) == len(self.totals):
            return None
        return self.totals[self.winners[0]] - max(t for i, t in enumerate(self.totals) if i not in self.winners)


def score_hand(
    rules: Rules,
    table: Table,
    hand: Hand,
    hand_index: int = 0,
    cumulative_before: Sequence[int] | None = None,
    check: bool = True,
) -> HandScore:
    """Check a hand (unless told it was checked when stored), then work out each side's figures."""
    if check:
        check_hand(rules, table, hand, hand_index)
    before = tuple(cumulative_before) if cumulative_before is not None else table.start_totals
    special_side = next((i for i, e in enumerate(hand.sides) if e.special_hand is not None), None)
    scores = []
    for i, entry in enumerate(hand.sides):
        if rules.wipeout and special_side is not None and special_side != i:
            base = count = 0
        else:
            base, count = side_base(rules, table, entry), side_count(rules, entry)
        cumulative = before[i] + base + count
        scores.append(
            SideScore(
                base=base,
                count=count,
                total=base + count,
                cumulative=cumulative,
                min_count_next=minimum_count(rules, cumulative, hand_index + 1),
            )
        )
    return HandScore(dealer=table.dealer(hand_index), sides=tuple(scores))


def game_over(
    rules: Rules, totals: Sequence[int], last_hand: Hand | None = None, hands_played: int | None = None
) -> tuple[int, ...]:
    """The winners once a side reaches the target after a hand, or after the last hand of a game of a fixed
    number of hands (`hands_played`: how many hands the totals are after); none while the game goes on.

    Leaders exactly tied at the top: the table's tie rule says whether they play on, share the win, or
    the one that went out in the last hand wins (play on if none of them did). After the last hand of a fixed
    number there is no hand to play on: where the rule would play on, the tied leaders share the win.
    """
    last = rules.hands_per_game is not None and hands_played is not None and hands_played >= rules.hands_per_game
    if max(totals) < rules.target and not last:
        return ()
    leader = max(totals)
    leaders = tuple(i for i, t in enumerate(totals) if t == leader)
    if len(leaders) == 1 or rules.tie == "shared":
        return leaders
    if rules.tie == "went_out" and last_hand is not None:
        out = tuple(i for i in leaders if last_hand.sides[i].went_out and last_hand.sides[i].special_hand is None)
        if out or not last:
            return out
    return leaders if last else ()


def score_game(rules: Rules, table: Table, hands: Sequence[Hand], check: bool = True) -> GameScore:
    """Score every hand in order; RuleError (paths under ("hands", n)) for any refused hand or a hand after the end.

    check=False scores hands that were checked when they were stored, as they are.
    """
    totals: tuple[int, ...] = table.start_totals
    scored: list[HandScore] = []
    problems: list[Problem] = []
    winners: tuple[int, ...] = ()
    ended_after: int | None = None
    for n, hand in enumerate(hands):
        if winners and check and ended_after is not None:
            problems.append(Problem(("hands", n), ended_message(rules, ended_after)))
            continue
        try:
            score = score_hand(rules, table, hand, n, totals, check)
        except RuleError as error:
            problems += error.prefixed("hands", n).problems
            continue
        scored.append(score)
        totals = tuple(s.cumulative for s in score.sides)
        winners = game_over(rules, totals, hand, n + 1)
        if winners and ended_after is None:
            ended_after = n
    if problems:
        raise RuleError(problems)
    return GameScore(
        hands=tuple(scored),
        totals=totals,
        min_count=tuple(minimum_count(rules, t, len(hands)) for t in totals),
        finished=bool(winners),
        winners=winners,
        next_dealer=table.dealer(len(hands)),
        ended_after=ended_after,
    )


def score_next_hand(rules: Rules, table: Table, score: GameScore, hand: Hand) -> GameScore:
    """The game's figures with one more hand (already checked) after the hands `score` covers: that hand alone
    is scored, from the running totals before it. The same figures as score_game over all the hands."""
    n = len(score.hands)
    hand_score = score_hand(rules, table, hand, n, score.totals, check=False)
    totals = tuple(s.cumulative for s in hand_score.sides)
    winners = game_over(rules, totals, hand, n + 1)
    return GameScore(
        hands=score.hands + (hand_score,),
        totals=totals,
        min_count=tuple(minimum_count(rules, t, n + 1) for t in totals),
        finished=bool(winners),
        winners=winners,
        next_dealer=table.dealer(n + 1),
        ended_after=score.ended_after if score.ended_after is not None or not winners else n,
    )


def ended_message(rules: Rules, ended_after: int) -> Message:
    """Why no hand can follow the hand that ended the game (§5.14), in words (a Message: any language)."""
    if rules.hands_per_game is not None and ended_after + 1 >= rules.hands_per_game:
        return Plural(
            "This game is {count} hand: it ended after hand {number}, so no hand can follow it.",
            "This game is {count} hands: it ended after hand {number}, so no hand can follow it.",
            rules.hands_per_game,
            number=ended_after + 1,
        )
    return Message("The game ended after hand {number}: no hand can follow it.", number=ended_after + 1)


def hands_of(count: int) -> str:
    """A number of hands in words: 1 hand, 3 hands."""
    return f"{count} hand" if count == 1 else f"{count} hands"


def score_json(score: GameScore) -> dict[str, Any]:
    """A game's figures as compact JSON, to keep with the game until its next change."""
    return {
        "hands": [
            [h.dealer, [[s.base, s.count, s.total, s.cumulative, s.min_count_next] for s in h.sides]]
            for h in score.hands
        ],
        "totals": list(score.totals),
        "min_count": list(score.min_count),
        "finished": score.finished,
        "winners": list(score.winners),
        "next_dealer": score.next_dealer,
        "ended_after": score.ended_after,
    }


def score_from_json(data: Mapping[str, Any]) -> GameScore:
    """Figures kept by score_json, as they were worked out (kept figures are trusted, like stored hands)."""
    return GameScore(
        hands=tuple(
            HandScore(dealer=dealer, sides=tuple(SideScore(*side) for side in sides)) for dealer, sides in data["hands"]
        ),
        totals=tuple(data["totals"]),
        min_count=tuple(data["min_count"]),
        finished=data["finished"],
        winners=tuple(data["winners"]),
        next_dealer=data["next_dealer"],
        ended_after=data["ended_after"],
    )


def hands_after_the_end(score: GameScore, hands: int) -> list[Problem]:
    """§5.14: a correction or a deletion after which the game would end before its last hand is refused
    (`score`: the figures of the `hands` hands as they would be, scored without checks)."""
    ended_after = score.ended_after
    if ended_after is None or ended_after >= hands - 1:
        return []
    return [
        Problem(
            ("hands", ended_after + 1),
            Plural(
                "With this change the game would end after hand {after}, so the hand after it can't follow. "
                "Delete it first.",
                "With this change the game would end after hand {after}, so the {count} hands after it can't "
                "follow. Delete them first.",
                hands - 1 - ended_after,
                after=ended_after + 1,
            ),
        )
    ]
