"""Who may do what on a game's pages: the scorekeeper's phones change it, the one that started it hands it over."""

from __future__ import annotations

from flask import abort
from flask_babel import gettext, lazy_gettext
from werkzeug.wrappers import Response as BaseResponse

from .. import rights, store
from ..web import load_or_404

# --- Edit rights (kept on the server by device: rights.py) ------------------------------


ONLY_THE_SCOREKEEPER = lazy_gettext(
    "Only the scorekeeper's phone can change this game. To keep score here too, ask the "
    "scorekeeper for the link under \u201cKeep score on another phone\u201d on the scoresheet."
)


def editable(game_id: str) -> store.Stored:
    """The game, if this browser keeps its score; otherwise 403."""
    return rights.editable_or_403(load_or_404(game_id), str(ONLY_THE_SCOREKEEPER))


def correctable(game_id: str) -> store.Stored:
    """The game, if this browser may change its hands: once the game is over, only the phone that started it
    may (a handover link kept after the game must not reopen a finished game by deleting its last hand)."""
    stored = editable(game_id)
    if stored.score.finished and not rights.is_scorekeeper(stored):
        abort(
            403,
            gettext(
                "This game is over: only the phone that started it can change its hands now. "
                "Ask the scorekeeper if a hand needs correcting."
            ),
        )
    return stored


def hand_position(stored: store.Stored, number: int) -> int:
    """A hand's 0-based position from the 1-based number in the address."""
    if not 1 <= number <= len(stored.game.hands):
        abort(404, gettext("This game has no hand %(number)s.", number=number))
    return number - 1


def no_store(response: BaseResponse) -> BaseResponse:
    """A page or answer that carries (or takes) a key: never kept by a browser, a proxy or the service worker."""
    response.headers["Cache-Control"] = "no-store"
    return response


def scorekeepers_only(game_id: str) -> store.Stored:
    """The game, if this browser started (or restored) it: only that phone hands the game over; otherwise 403."""
    stored = load_or_404(game_id)
    if not rights.is_scorekeeper(stored):
        abort(
            403,
            gettext(
                "Only the phone that started this game can give the link to keep score on another phone, "
                "or replace it. Ask the scorekeeper."
            ),
        )
    return stored
