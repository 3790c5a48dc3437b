"""What every page blueprint stands on: page or fragment, a game or its 404, the scoresheet's figures, points."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from flask import Flask, Response, abort, make_response, render_template
from htmx_flask import request
from jinja2_fragments.flask import render_block

from . import rules, sheet, store


def render(template: str, block: str | None = None, status: int = 200, **context: Any) -> Response:
    """The whole page, or for an htmx request only its `block`: the one place that decides."""
    # A boosted request (a form sent through htmx) or a history restore wants the whole page.
    fragment = bool(block and request.htmx and not request.htmx.boosted and not request.htmx.history_restore_request)
    if fragment and block:
        body = render_block(template, block, fragment=True, **context)
    else:
        body = render_template(template, fragment=False, **context)
    response = make_response(body, status)
    response.vary.update(("HX-Request", "HX-Target", "HX-Boosted", "HX-History-Restore-Request"))
    if request.htmx.boosted and request.method == "POST":
        # A form answered with a page (refused, or changed meanwhile): the address stays the form's,
        # whose URL can be reloaded; a POST-only URL in the address bar would answer 405.
        response.headers["HX-Push-Url"] = "false"
    return response


NO_SUCH_GAME = "There is no game at this address. Check the link, or start a new game."


def load_or_404(game_id: str) -> store.Stored:
    """A stored game, or the 404 page in words."""
    try:
        return store.load_game(game_id)
    except store.GameNotFound:
        abort(404, NO_SUCH_GAME)


def scoresheet_context(stored: store.Stored) -> dict:
    """What the scoresheet shows: every figure comes from the rules."""
    score = stored.score
    table = stored.game.table
    tied_on = max(score.totals) if not score.finished and max(score.totals) >= stored.game.rules.target else None
    return {
        "stored": stored,
        "game": stored.game,
        "score": score,
        "table": table,
        "tied_on": tied_on,
        "preset": rules.PRESETS[stored.game.rules.preset],
        "margin": score.margin,
        "rows": list(zip(stored.game.hands, score.hands, strict=False)),
        "next_hand_number": len(stored.game.hands) + 1,
        "next_dealer_name": table.player_of_seat(score.next_dealer),
    }


def points(value: int | None) -> str:
    """Points as a card player writes them: 1,685 and \u22122,060."""
    if value is None:
        return ""
    return f"\u2212{abs(value):,}" if value < 0 else f"{value:,}"


def day(moment: datetime) -> str:
    """The day a stored time fell on, in UTC whatever the database: 24 Nov 2026."""
    return store.utc(moment).strftime("%-d %b %Y")


def init_app(app: Flask) -> None:
    """Give every template the points filter, the names of special hands and what each side did in a hand."""
    app.add_template_filter(points, "points")
    app.add_template_filter(day, "day")
    app.add_template_global(rules.special_hand_name, "special_hand_name")
    app.add_template_global(sheet.hand_marks, "hand_marks")
