"""Undo and Redo of the change just made, and the rematch that starts the next game."""

from __future__ import annotations

import secrets
import time
from typing import Any

from flask import abort, current_app, flash, redirect, session, url_for
from flask.sessions import SecureCookieSessionInterface
from flask.typing import ResponseReturnValue
from flask_babel import gettext, lazy_gettext
from htmx_flask import request

from .. import document, rights, rules, service, store
from ..rules import RuleError
from ..web import load_or_404, translated
from . import access, bp, start

REMATCH_TAP_SECONDS = 60  # a second Rematch of the same game this soon is the same tap again
# The most the session cookie's value may be with an offer in it: a browser drops a cookie of over 4,096 bytes whole
# (with its name and flags), and the page that follows adds what it says ("Hand 2 saved.").
COOKIE_ROOM = 3_800


# --- Undo and Redo: the change just made, offered on the page that follows it ------------------------
#
# The phone's session keeps one offer: the last change made on it (a hand added, edited or deleted, or taken
# back). It is "waiting" until the scoresheet is next made for this phone; that page shows it, with a one-time
# token, and no later page does (it is marked "left"). The post is taken only with that token, while the game
# is still at the version the change gave it and no rematch was started from it. Undo done offers Redo on the
# page that follows, under the same conditions, and Redo done offers Undo again.

KEEP_HEADER = "Scorepad-Keep"  # sent by the service worker fetching a page to keep for offline (templates/sw.js)
OFFERS = {  # (kind, redo): what the button says, and what the page says once it is done (said in the phone's language)
    ("add", False): (lazy_gettext("Undo: take back hand %(number)s"), lazy_gettext("Hand %(number)s taken back.")),
    ("edit", False): (
        lazy_gettext("Undo the change to hand %(number)s"),
        lazy_gettext("Hand %(number)s is back as it was."),
    ),
    ("delete", False): (lazy_gettext("Undo: bring back hand %(number)s"), lazy_gettext("Hand %(number)s is back.")),
    ("add", True): (lazy_gettext("Redo: put hand %(number)s back"), lazy_gettext("Hand %(number)s is back.")),
    ("edit", True): (
        lazy_gettext("Redo the change to hand %(number)s"),
        lazy_gettext("Hand %(number)s has its change again."),
    ),
    ("delete", True): (
        lazy_gettext("Redo: delete hand %(number)s again"),
        lazy_gettext("Hand %(number)s deleted again."),
    ),
}


def offer_words(offer: dict, done: bool, redo: bool | None = None) -> str:
    """What the offer's button says (or, `done`, what the page says once it is done), in the page's language."""
    words = OFFERS[offer["kind"], offer["redo"] if redo is None else redo][1 if done else 0]
    return str(words) % {"number": offer["position"] + 1}


def offer_undo(
    saved: store.Stored,
    kind: str,
    position: int,
    before: rules.Hand | list[dict] | None,
    after: rules.Hand | list[dict] | None,
    totals: tuple | list,
    redo: bool = False,
    notes: tuple | list | None = ("", ""),
    follows: str | None = None,
) -> None:
    """Keep on this phone how to take back the change just made (`redo`: how to make again the change just
    taken back), for the page that follows: hand `position` as it was `before` and `after` the change (None
    where there was no hand), the game's totals before and after it, and the hand's note before and after it
    ("" for none). `follows`: the token of the offer this one follows (an Undo or Redo just done)."""

    def sides(hand: rules.Hand | list[dict] | None) -> list[dict] | None:
        return document.hand_json(hand)["sides"] if isinstance(hand, rules.Hand) else hand

    offer = {
        "game": saved.id,
        "version": saved.record.version,
        "hands": saved.hand_count,
        "kind": kind,
        "redo": redo,
        "position": position,
        "before": sides(before),
        "after": sides(after),
        "totals": [list(totals[0]), list(totals[1])],
        "notes": list(notes) if notes is not None else None,  # None: an offer kept before notes were
        "token": None,  # waiting for the page that follows
        "gone": None,  # or why it is no longer offered: "left" (a later page), "rematch"
        "follows": follows,
        "rematch": saved.record.rematch_id,  # a rematch started from the game since (on any phone) ends the offer
    }
    if _fits(offer):
        session["undo"] = offer
    else:  # two long notes that hardly compress: the change is saved, and no Undo is offered rather than one lost
        session.pop("undo", None)


def _fits(offer: dict) -> bool:
    """Whether the session cookie, with this offer in it, stays within COOKIE_ROOM."""
    cookies = current_app.session_interface
    serializer = (
        cookies.get_signing_serializer(current_app) if isinstance(cookies, SecureCookieSessionInterface) else None
    )
    return serializer is None or len(serializer.dumps({**session, "undo": offer})) <= COOKIE_ROOM


def offer_of(game_id: str) -> dict | None:
    """This phone's offer, if it is for this game (and of this kind: one kept by an older Scorepad is ignored)."""
    offer = session.get("undo")
    return offer if isinstance(offer, dict) and offer.get("game") == game_id and "totals" in offer else None


def offer_waiting(game_id: str) -> bool:
    """Whether this phone has an offer for this game waiting for its page (the scoresheet right after a change)."""
    offer = offer_of(game_id)
    return offer is not None and offer.get("token") is None and offer.get("gone") is None


def offer_for_page(game_id: str, version: int) -> dict | None:
    """The offer the scoresheet about to be made shows, given its one-time token, or None. A later page of the
    game (this one made again, settling up, coming back to it) uses it up. The service worker's copy for offline
    shows none and leaves it alone, as does a fragment (which has no room for it)."""
    offer = offer_of(game_id)
    if (
        offer is None
        or request.headers.get(KEEP_HEADER)
        or (request.htmx and not request.htmx.boosted and not request.htmx.history_restore_request)
    ):
        return None
    if offer.get("token") is None and offer.get("gone") is None and offer.get("version") == version:
        offer = {**offer, "token": secrets.token_urlsafe(16)}
        session["undo"] = offer
        return {**offer, "label": offer_words(offer, done=False)}
    if offer.get("gone") is None:
        session["undo"] = {**offer, "gone": "left"}
    return None


def flash_once(message: str) -> None:
    """Say what was done on the next page, unless it is said there already (the same post sent again once the
    first was answered: the page that follows both shows what the first one left to say, too)."""
    if not any(tuple(said) == ("success", message) for said in session.get("_flashes", [])):
        flash(message, "success")


def offer_again(offer: dict) -> None:
    """Show this offer on the next page again (the same change sent twice: the page that follows the second)."""
    session["undo"] = {**offer, "token": None, "gone": None}


def _target(offer: dict) -> tuple[str, list[dict] | None]:
    """What taking up the offer does at its hand's place: "remove" it, "put" a hand in its place, or "insert"
    one there; and that hand."""
    kind, redo = offer["kind"], offer["redo"]
    if kind == "edit":
        return "put", offer["after"] if redo else offer["before"]
    if (kind == "add") != redo:  # an add taken back, a delete made again
        return "remove", None
    return "insert", offer["after"] if redo else offer["before"]


def _note(offer: dict) -> str | None:
    """The note of the hand taking up the offer puts back (None in an offer kept before notes were: the hand's
    note is then left as it is)."""
    notes = offer.get("notes")
    return notes[1 if offer["redo"] else 0] if isinstance(notes, list) and len(notes) == 2 else None


def _reached(stored: store.Stored, offer: dict) -> bool:
    """Whether the game is as taking up the offer leaves it, one change later: it was taken up already (the
    same post sent twice, the second before the first's answer came back)."""
    if stored.record.version != offer["version"] + 1:
        return False
    action, hand = _target(offer)
    hands, position = stored.game.hands, offer["position"]
    count = offer["hands"] + {"remove": -1, "put": 0, "insert": 1}[action]
    if len(hands) != count or list(stored.score.totals) != offer["totals"][1 if offer["redo"] else 0]:
        return False
    return action == "remove" or (position < count and document.hand_json(hands[position])["sides"] == hand)


def _turned(offer: dict) -> tuple[str, int, Any, Any, Any, bool, Any]:
    """The arguments of `_offer_undo` for the offer that follows this one taken up: Redo after Undo, and back."""
    kind, position, before, after, totals = (offer[k] for k in ("kind", "position", "before", "after", "totals"))
    return kind, position, before, after, totals, not offer["redo"], offer.get("notes")


def _take_up(stored: store.Stored, offer: dict) -> store.Stored:
    """Undo (or Redo) the offer's change."""
    action, hand = _target(offer)
    return service.put_back(stored, action, offer["position"], hand, _note(offer))


def _refuse_undo(game_id: str, words: str) -> ResponseReturnValue:
    flash(words + " " + gettext("Nothing was changed: edit or delete the hand instead, if it needs it."), "error")
    return redirect(url_for("games.show", game_id=game_id), 303)


@bp.post("/games/<game_id>/undo")
def undo(game_id: str) -> ResponseReturnValue:
    """Undo (or Redo) the change the page that followed it offered, if the game has not moved on since. Any phone
    keeping score may take back the change it just made, even the one that ended the game: the offer, kept in this
    phone's session for that one change and checked against the game's version, is the proof (access.correctable
    is for corrections chosen from the sheet)."""
    stored = access.editable(game_id)
    offer = offer_of(game_id)
    token = request.form.get("token") or ""
    redo = bool(offer and offer.get("redo"))
    if offer is not None and token and token == offer.get("follows"):
        # The Undo (or Redo) just done, sent again (a second tap): said as done, and its Redo offered again.
        if offer.get("gone") is None and offer["version"] == stored.record.version:
            offer_again(offer)
            flash_once(offer_words(offer, done=True, redo=not offer["redo"]))
            return redirect(url_for("games.show", game_id=game_id), 303)
        return _refuse_undo(game_id, gettext("That button was used already."))
    if offer is None or not token or token != offer.get("token"):
        return _refuse_undo(
            game_id,
            gettext("That button was used already, or was for an older change: Undo is only for the change just made."),
        )
    if offer.get("gone") == "rematch" or stored.record.rematch_id != offer.get("rematch"):  # here, or elsewhere
        return _refuse_undo(
            game_id,
            gettext("A rematch was started from this game since: Redo is no longer offered.")
            if redo
            else gettext("A rematch was started from this game since: Undo is no longer offered."),
        )
    if offer.get("gone") == "left":
        return _refuse_undo(
            game_id,
            gettext("Redo was offered only on the page that followed the change, left since.")
            if redo
            else gettext("Undo was offered only on the page that followed the change, left since."),
        )
    done = offer_words(offer, done=True)
    if _reached(stored, offer):  # the second of two taps, sent before the first was answered
        offer_undo(stored, *_turned(offer), follows=token)
        flash_once(done)
        return redirect(url_for("games.show", game_id=game_id), 303)
    if offer["version"] != stored.record.version or request.form.get("version", type=int) != stored.record.version:
        return _refuse_undo(
            game_id,
            gettext("The game has changed since (a hand was saved, changed or deleted, here or on another phone)."),
        )
    try:
        saved = _take_up(stored, offer)
    except (store.EditConflict, RuleError):
        return _refuse_undo(game_id, gettext("The game changed on another phone at the same moment."))
    offer_undo(saved, *_turned(offer), follows=token)
    flash(done, "success")
    return redirect(url_for("games.show", game_id=game_id), 303)


@bp.post("/games/<game_id>/rematch")
def rematch(game_id: str) -> ResponseReturnValue:
    """Start the next game at once: the same sides, seats and rules, dealt first by the seat after the last dealer."""
    stored = load_or_404(game_id)
    if not rights.can_edit(stored):
        abort(
            403,
            gettext(
                "Only the scorekeeper's phone can start a rematch of this game. To keep score of a new game "
                "on this phone, tap \u201cStart a new game\u201d on the home page."
            ),
        )
    if not stored.score.finished:
        abort(409, gettext("This game isn't over yet: a rematch starts once a side has won. No new game was started."))
    offer = offer_of(game_id)
    if offer is not None:  # the game has moved on: its last change is not taken back now
        session["undo"] = {**offer, "gone": "rematch"}
    started = session.get("rematch", {})
    if started.get("of") == game_id and started.get("at", 0) > time.time() - REMATCH_TAP_SECONDS:
        # Rematch tapped twice (or sent again on bad Wi-Fi): one new game, not two.
        return redirect(url_for("games.show", game_id=started["game"]), 303)
    if stored.record.rematch_id is not None:  # started already, on another of the table's scorekeeping phones
        joined = _join_rematch(stored, stored.record.rematch_id)
        if joined is not None:
            return joined
    # A new game, so it is checked as new input: the stored rules in full, the same seats, the next dealer.
    try:
        game = service.rematch_game(stored)
    except RuleError as error:
        abort(
            409,
            gettext(
                "This game's rules can't start a new game any more (%(why)s). No new game was started: tap "
                "\u201cStart a new game\u201d on the home page instead.",
                why=" ".join(str(translated(p.message)) for p in error.problems),
            ),
        )
    response = start.start(game)
    rematch_id = response.location.rsplit("/", 1)[-1]
    leads_to = store.mark_rematch(stored, rematch_id)  # the finished game's scoreboard takes its watchers there
    joined = _join_rematch(stored, leads_to) if leads_to != rematch_id else None
    if joined is not None:  # another phone's Rematch, at the same moment, came first: one next game for the table
        store.delete_game(store.load_game(rematch_id))  # this phone's, never played
        session["rematch"] = {"of": game_id, "game": leads_to, "at": time.time()}
        return joined
    flash(
        gettext("Rematch started: %(dealer)s deals first.", dealer=game.table.player_of_seat(game.table.first_dealer)),
        "success",
    )
    session["rematch"] = {"of": game_id, "game": rematch_id, "at": time.time()}
    return response


def _join_rematch(stored: store.Stored, rematch_id: str) -> ResponseReturnValue | None:
    """This phone keeps score of the rematch another phone started (with the rights it had on the finished game),
    or None if that game was deleted since."""
    try:
        rematch_game = store.load_game(rematch_id)
    except store.GameNotFound:
        return None
    rights.grant(rematch_game, rights.CREATED if rights.is_scorekeeper(stored) else rights.LINK)
    flash(gettext("The rematch had started already on another phone: this phone keeps score of it too."), "success")
    return redirect(url_for("games.show", game_id=rematch_game.id), 303)
