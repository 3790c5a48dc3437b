"""The scorekeeper's history: every game this device keeps, its players' statistics, one file of them all, and
deleting a whole game."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from . import delivery, document, rights, rulesets, security, store
from .security import refuse_cross_site_posts

bp = Blueprint("history", __name__)
bp.before_request(refuse_cross_site_posts)
# A history page kept for a phone is checked before Flask with the query that made it (delivery.for_this_phone).
HISTORY_CHECK = "history"
bp.record_once(
    lambda state: state.app.extensions.setdefault(delivery.PHONE_CHECKS, {}).__setitem__(
        HISTORY_CHECK, rights.kept_games_page_of
    )
)

PAGE_SIZE = 50  # games on one page of the history: a phone scrolls it easily, the server scores only these
# No page past this is asked for (a number beyond it shows the last page, as any page past the last does): a
# database can't take an offset of any size (a 64-bit integer at most).
LAST_PAGE_ASKED = 1_000_000


def _matches(sides: list, search: str, note: str | None = None) -> bool:
    """Whether a game's sides hold a player (or a side) whose name contains `search`, or its note does, case
    aside ("Ann's" finds the game noted "at Ann's"; a typed ’ finds a ' and the other way round)."""
    wanted = _plain(search)
    names = [name for side in sides for name in [side.get("name", ""), *side.get("players", [])]]
    return any(wanted in _plain(text) for text in [*names, note or ""])


def _plain(text: str) -> str:
    """Text as a search compares it: case aside, a curly apostrophe as a straight one."""
    return text.casefold().replace("\u2019", "'")


def _page_number() -> int:
    page = request.args.get("page", 1, type=int)
    return min(page, LAST_PAGE_ASKED) if page and page > 0 else 1


def _kept_page(device: str | None, page: int) -> tuple[int, list[tuple[str, str, int]]]:
    """How many games the phone hashed `device` keeps, and page `page` of them (none for a phone that never had
    one: no session, no device)."""
    if device is None:
        return 0, []
    return rights.kept_games_page_of(None, device, (page - 1) * PAGE_SIZE, PAGE_SIZE)


@bp.get("/history")
def history() -> ResponseReturnValue:
    """This device's games, newest first, a page at a time: in progress apart from finished; search by name."""
    search = (request.args.get("q") or "").strip()[:100]
    page = _page_number()
    if search:
        store.reading_only()
        kept = rights.kept_games()
        total = len(kept)
        found = [row for row in kept if _matches(row.sides, search, row.note)]
        pages = max(1, -(-len(found) // PAGE_SIZE))
        page = min(page, pages)
        shown = [(row.id, row.via, row.version) for row in found[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]]
        found_count = len(found)
    else:  # the page's rows alone (and the count): no name read
        device = rights.device_hash(create=False)
        total, shown = _kept_page(device, page)
        pages = max(1, -(-total // PAGE_SIZE))
        if page > pages:  # past the last page (a game was deleted meanwhile): the last one
            page = pages
            total, shown = _kept_page(device, page)
        found_count = total
        signed = getattr(session, "scorepad_signed_at", None)  # this phone's session cookie, as verified
        if device is not None and signed is not None:  # the same look again is answered before Flask
            until = signed + security.REFRESH_AFTER
            delivery.for_this_phone(HISTORY_CHECK, (device, (page - 1) * PAGE_SIZE, PAGE_SIZE), (total, shown), until)

    def make() -> Response:
        # Only this page's games are loaded and their figures read.
        store.reading_only()
        by_id = {stored.id: stored for stored in store.load_games([game_id for game_id, _, _ in shown])}
        games = [(by_id[game_id], via) for game_id, via, _ in shown if game_id in by_id]
        return make_response(
            render_template(
                "history/list.html",
                search=search,
                total=total,
                found=found_count,
                page=page,
                pages=pages,
                first=(page - 1) * PAGE_SIZE + 1,
                in_progress=[(stored, via) for stored, via in games if not stored.score.finished],
                finished=[(stored, via) for stored, via in games if stored.score.finished],
            )
        )

    # Made once for this list (each game's revision and right, the counts) and reused until one of them changes.
    key = ("history", page, pages, total, found_count, tuple(shown))  # (id, via, version) of each
    return delivery.made_once(key, make)


# --- Statistics per player ----------------------------------------------------------------------


@dataclass
class PlayerStatistics:
    """One player's figures across this device's games (their side's, for the hands and specials)."""

    name: str
    played: int = 0
    won: int = 0
    hands: int = 0
    points: int = 0
    sevens: int = 0
    aces: int = 0
    wild: int = 0
    special_hands: int = 0

    @property
    def average_hand(self) -> int | None:
        """Points per hand for the player's side, to the nearest point (None before any hand)."""
        if not self.hands:
            return None
        return int((self.points / self.hands) + (0.5 if self.points >= 0 else -0.5))


def player_statistics(games: list[store.Stored]) -> list[PlayerStatistics]:
    """Each player's statistics over these games, by name (Ann and ann are one player), most games first.

    Played: every game the player sat in, finished or not. Won: finished games whose winners include the
    player's side (a shared win counts). Average hand: the side's points over all its hands (its totals, since
    a total is the sum of its hands, less any total brought forward from paper). Special canastas and special
    hands: those the player's side made."""
    players: dict[str, PlayerStatistics] = {}
    for stored in games:  # newest first: the latest spelling of a name is the one shown
        score, table = stored.score, stored.game.table
        for i, side in enumerate(table.sides):
            entries = [hand.sides[i] for hand in stored.game.hands]
            for name in side.players:
                player = players.setdefault(name.casefold(), PlayerStatistics(name))
                player.played += 1
                player.won += int(score.finished and i in score.winners)
                player.hands += len(entries)
                player.points += score.totals[i] - (table.brought_forward[i] if table.brought_forward else 0)
                player.sevens += sum(entry.sevens_canasta for entry in entries)
                player.aces += sum(entry.aces_canasta for entry in entries)
                player.wild += sum(entry.wild_canasta is not None for entry in entries)
                player.special_hands += sum(entry.special_hand is not None for entry in entries)
    return sorted(players.values(), key=lambda p: (-p.played, -p.won, p.name.casefold()))


def counted_games(games: list[store.Stored]) -> list[store.Stored]:
    """The games statistics count, each once: not a game with no hand yet (a rematch never played), nor a
    restored copy of a game also among them (a copy and its original are one game: the original counts)."""
    played = [stored for stored in games if stored.hand_count]
    ids = {stored.id for stored in played}
    return [stored for stored in played if stored.record.restored_from not in ids]


@bp.get("/history/statistics")
def statistics() -> ResponseReturnValue:
    """Each player's games played and won, average hand, special canastas and special hands, across this
    device's games, each counted once (counted_games)."""
    games = counted_games(rights.kept_games_loaded())
    return render_template("history/statistics.html", players=player_statistics(games), games=len(games))


# --- One file of every game ---------------------------------------------------------------------


def saved_rule_sets() -> list[dict]:
    """The rule sets saved on this device, for the file of all games (docs/api.md, "rule_sets"); restoring the
    file hands them to games.start.restore_rule_sets."""
    return rulesets.export_json(rights.device_hash(create=False))


@bp.get("/history/export.json")
def export_all() -> ResponseReturnValue:
    """Every game this device keeps in one file (docs/api.md), to keep or to restore on another phone."""
    documents = [stored.document() for stored in rights.kept_games_loaded()]
    body = json.dumps(document.games_file(documents, saved_rule_sets()), ensure_ascii=False, separators=(",", ":"))
    day = datetime.now(UTC).strftime("%Y-%m-%d")
    return Response(
        body,
        mimetype="application/json",
        headers={
            "Content-Disposition": f'attachment; filename="scorepad-games-{day}.json"',
            "Cache-Control": "no-store",  # this device's games: not for a shared cache
        },
    )


# --- Deleting a whole game ----------------------------------------------------------------------


def _deletable(game_id: str) -> store.Stored:
    """The game, if this browser started or restored it; otherwise 403 (404 for no game)."""
    try:
        stored = store.load_game(game_id)
    except store.GameNotFound:
        abort(404, gettext("There is no game at this address: it may have been deleted already."))
    if not rights.is_scorekeeper(stored):
        abort(
            403,
            gettext("Only the phone that started this game (or restored it) can delete it. Nothing was deleted."),
        )
    return stored


@bp.get("/games/<game_id>/delete")
def confirm_delete_game(game_id: str) -> ResponseReturnValue:
    """Ask before deleting a whole game, saying what goes with it."""
    stored = _deletable(game_id)
    return render_template("history/delete.html", stored=stored, holders=len(rights.holders(stored.id)))


@bp.post("/games/<game_id>/delete")
def delete_game(game_id: str) -> ResponseReturnValue:
    """Delete a whole game, its hands and everyone's rights to it; back to the history."""
    stored = _deletable(game_id)
    title = " v ".join(side.name for side in stored.game.table.sides)
    try:
        store.delete_game(stored)
    except store.EditConflict:
        flash(gettext("The game changed on another phone at the same moment: nothing was deleted. Try again."), "error")
        return redirect(url_for("history.confirm_delete_game", game_id=game_id), 303)
    flash(gettext("Game deleted: %(title)s.", title=title), "success")
    return redirect(url_for("history.history"), 303)
