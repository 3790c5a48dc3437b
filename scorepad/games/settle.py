"""Settling up: the money due at the end of a finished game."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from babel.numbers import format_decimal
from htmx_flask import request

from .. import document, rules, store
from ..rules.errors import Message
from ..web import language

MAX_STAKE = Decimal(1_000_000)


def _amount(value: Decimal) -> str:
    """Money as people write it, in the page's language: 4, 0.5, 1,250.75 (1.250,75 in Spanish)."""
    return format_decimal(value.quantize(Decimal("0.01")), format="#,##0.##", locale=language())


def settlement(stored: store.Stored) -> dict | None:
    """The money due at the end of a finished game, when the table gave a stake (docs/rules.md §6)."""
    if not stored.score.finished or "stake" not in request.args:
        return None
    try:
        # A decimal comma is common on phones set to many languages: 1,5 is one and a half.
        stake = Decimal((request.args.get("stake") or "0").strip().replace(",", "."))
        per_special = Decimal((request.args.get("per_special") or "0").strip().replace(",", "."))
    except InvalidOperation:
        return {
            "error": Message(
                "Enter the stake and the amount per special as numbers, like {two} or {half}.",
                two=_amount(Decimal(2)),
                half=_amount(Decimal("0.5")),
            )
        }
    if (
        not (stake.is_finite() and per_special.is_finite())
        or not (0 <= stake <= MAX_STAKE)
        or not (0 <= per_special <= MAX_STAKE)
    ):
        return {"error": Message("Enter a stake and an amount per special from 0 to {most:,}.", most=int(MAX_STAKE))}
    game = stored.game
    specials = rules.specials_made(game.hands, len(game.table.sides))
    settlement = rules.settle_up(
        game.rules, stored.score.totals, stake, per_special, specials, winners=stored.score.winners
    )
    lines = []
    # A shared win: each losing side settles with each winner; the winners settle nothing between them.
    for debt in settlement.debts:
        payer, payee = (debt.payer, debt.payee) if debt.amount >= 0 else (debt.payee, debt.payer)
        working = Message(
            "{margin:,} rounds to {rounded:,} \u2192 {thousands} \u00d7 {stake}",
            margin=debt.margin,
            rounded=debt.thousands * 1000,
            thousands=debt.thousands,
            stake=_amount(stake),
        )
        if per_special:
            working = Message(
                "{working}; specials {won} against {lost} at {each} each",
                working=working,
                won=specials[debt.payee],
                lost=specials[debt.payer],
                each=_amount(per_special),
            )
        lines.append(
            {
                "payer": game.table.sides[payer].name,
                "payee": game.table.sides[payee].name,
                "amount": _amount(Decimal(-debt.amount if debt.amount < 0 else debt.amount)),
                "working": working,
            }
        )
    return {"lines": lines, "note": _shared_win(game, settlement)}


def _shared_win(game: document.Game, settlement: rules.Settlement) -> Message | None:
    """What a shared win means for the money (None for one winner): the sides that share it, and who pays."""
    if len(settlement.winners) <= 1:
        return None
    named = [game.table.sides[w].name for w in settlement.winners]
    names = Message("{some} and {last}", some=", ".join(named[:-1]), last=named[-1])
    if settlement.debts:
        return Message("{names} share the win: each losing side pays each of them.", names=names)
    return Message("{names} share the win: nobody pays.", names=names)
