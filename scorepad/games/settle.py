"""Settling up: the money due at the end of a finished game."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from htmx_flask import request

from .. import rules, store

MAX_STAKE = Decimal(1_000_000)


def _amount(value: Decimal) -> str:
    """Money as people write it: 4, 0.5, 1,250.75."""
    return f"{value.quantize(Decimal('0.01')).normalize():,f}"


def settlement(stored: store.Stored) -> dict | None:
    """The money due at the end of a finished game, when the table gave a stake (docs/rules.md §6)."""
    if not stored.score.finished or "stake" not in request.args:
        return None
    try:
        # A decimal comma is common on phones set to many languages: 1,5 is one and a half.
        stake = Decimal((request.args.get("stake") or "0").strip().replace(",", "."))
        per_special = Decimal((request.args.get("per_special") or "0").strip().replace(",", "."))
    except InvalidOperation:
        return {"error": "Enter the stake and the amount per special as numbers, like 2 or 0.5."}
    if (
        not (stake.is_finite() and per_special.is_finite())
        or not (0 <= stake <= MAX_STAKE)
        or not (0 <= per_special <= MAX_STAKE)
    ):
        return {"error": "Enter a stake and an amount per special from 0 to 1,000,000."}
    game = stored.game
    specials = rules.specials_made(game.hands, len(game.table.sides))
    settlement = rules.settle_up(
        game.rules, stored.score.totals, stake, per_special, specials, winners=stored.score.winners
    )
    lines = []
    # A shared win: each losing side settles with each winner; the winners settle nothing between them.
    for debt in settlement.debts:
        payer, payee = (debt.payer, debt.payee) if debt.amount >= 0 else (debt.payee, debt.payer)
        working = f"{debt.margin:,} rounds to {debt.thousands * 1000:,} \u2192 {debt.thousands} \u00d7 {_amount(stake)}"
        if per_special:
            working += (
                f"; specials {specials[debt.payee]} against {specials[debt.payer]} at {_amount(per_special)} each"
            )
        lines.append(
            {
                "payer": game.table.sides[payer].name,
                "payee": game.table.sides[payee].name,
                "amount": _amount(Decimal(-debt.amount if debt.amount < 0 else debt.amount)),
                "working": working,
            }
        )
    note = None
    if len(settlement.winners) > 1:
        names = " and ".join(game.table.sides[w].name for w in settlement.winners)
        note = f"{names} share the win: " + (
            "each losing side pays each of them." if settlement.debts else "nobody pays."
        )
    return {"lines": lines, "note": note}
