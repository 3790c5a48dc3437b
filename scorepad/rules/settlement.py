"""Settling up at the end, for tables that play for money (docs/rules.md §6)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from .entries import Hand
from .table import Rules

Money = Decimal | int


@dataclass(frozen=True)
class Payment:
    """What one losing side pays one winner (a negative amount: the winner pays it, for specials)."""

    payer: int  # the losing side
    payee: int  # the winner
    margin: int  # points behind the winner
    thousands: int  # the margin rounded to thousands, halves up
    amount: Money


@dataclass(frozen=True)
class Settlement:
    """Who won and what each losing side pays: to each winner, and in all (a winner's own entry is 0)."""

    winners: tuple[int, ...]
    payments: tuple[Money, ...]  # each side's payments to every winner added up; whole numbers for a whole stake
    thousands: tuple[int, ...] = ()  # each side's margin behind the winners, rounded to thousands
    debts: tuple[Payment, ...] = ()  # losing side by losing side, winner by winner

    @property
    def winner(self) -> int | None:
        """The side that won alone (None when a tied win is shared)."""
        return self.winners[0] if len(self.winners) == 1 else None


def specials_made(hands: Sequence[Hand], sides: int) -> tuple[int, ...]:
    """How many specials (special canastas and special hands) each side made over the game."""
    made = [0] * sides
    for hand in hands:
        for i, entry in enumerate(hand.sides):
            made[i] += entry.special_canastas + int(entry.special_hand is not None)
    return tuple(made)


def settle_up(
    rules: Rules,
    totals: Sequence[int],
    stake: Money,
    per_special: Money = 0,
    specials: Sequence[int] | None = None,
    winners: Sequence[int] | None = None,
) -> Settlement:
    """The money due at the end (docs/rules.md §6): each losing side pays each winner its margin behind that
    winner, rounded to the nearest 1,000 (halves up), times the stake per 1,000, plus specials.

    `winners` are the game's (GameScore.winners): several share a tied win, and sides sharing it settle nothing
    between them. Left out, the sides level at the top win.
    """
    specials = tuple(specials) if specials is not None else (0,) * len(totals)
    if not winners:
        winners = tuple(i for i, total in enumerate(totals) if total == max(totals))
    debts = tuple(
        Payment(
            payer=i,
            payee=w,
            margin=totals[w] - totals[i],
            thousands=(totals[w] - totals[i] + 500) // 1000,
            amount=(totals[w] - totals[i] + 500) // 1000 * stake + (specials[w] - specials[i]) * per_special,
        )
        for i in range(len(totals))
        if i not in winners
        for w in winners
    )
    # Winners tied at the top share one total: a side's margin behind each of them is the same.
    thousands = tuple((totals[winners[0]] - total + 500) // 1000 for total in totals)
    payments = tuple(sum((d.amount for d in debts if d.payer == i), 0 * stake) for i in range(len(totals)))
    return Settlement(winners=tuple(winners), payments=payments, thousands=thousands, debts=debts)
