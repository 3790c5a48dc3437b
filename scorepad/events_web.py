"""The club nights' pages (docs/events.md): the director's (create an event on a phone, every table at a glance,
start the next round, a late pair, confirm), the table cards (a QR code and room code each; the card follows its
table from round to round), the wall screen (standings, the round's tables, the clock; a poll every 2 s answered
304 while nothing changed), and Confirm on a finished table's scoreboard for the other pair."""

from __future__ import annotations

import functools
import re
import time
from datetime import UTC, datetime, timedelta
from typing import Any, NamedTuple

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.blueprints import BlueprintSetupState
from flask.typing import ResponseReturnValue
from flask_babel import gettext, lazy_gettext, ngettext
from jinja2_fragments.flask import render_block
from markupsafe import Markup, escape

from . import delivery, document, event_service, event_store, events, rights, store
from .rules import RuleError
from .web import language_of_environ, load_or_404, qr_svg, render, translated

bp = Blueprint("events_web", __name__, url_prefix="/events")

# As the scoreboard's poll (share.POLL_SECONDS): a save shows on the wall within this and one answer's time.
POLL_SECONDS = 2
PAIR_ROWS = 12  # rows of the new-event form; a club with more pairs adds them through the API
NO_EVENT = lazy_gettext("There is no club night at this address. Check the link, or ask the director.")


def _load(event_id: str, games: bool = True) -> event_store.StoredEvent:
    try:
        return event_store.load_event(event_id, games)
    except event_store.EventNotFound:
        abort(404, NO_EVENT)


def _is_director(held: event_store.StoredEvent) -> bool:
    device = rights.device_hash(create=False)
    return device is not None and device == held.record.director_device


def _director_or_403(held: event_store.StoredEvent) -> None:
    if not _is_director(held):
        abort(403, gettext("Only the director's phone (the one that created this club night) can do that."))


# --- Creating an event on a phone --------------------------------------------------------------------------


def recent_names() -> list[str]:
    """Pair and player names from this phone's recent games, for the new event's fields to offer."""
    names: dict[str, None] = {}
    for row in rights.kept_games()[:40]:
        for side in row.sides or []:
            names.update(dict.fromkeys([side.get("name", ""), *side.get("players", [])]))
    return sorted(name for name in names if name)


def _number(text: str) -> Any:
    text = text.strip()
    return int(text) if text.isdigit() else (text or None)


def form_document(form: Any) -> dict[str, Any]:
    """The event document the new-event form describes (the pure package checks it)."""
    pairs = []
    for i in range(PAIR_ROWS):
        name = form.get(f"pair-{i}-name", "").strip()
        players = [p.strip() for p in (form.get(f"pair-{i}-p1", ""), form.get(f"pair-{i}-p2", "")) if p.strip()]
        if name or players:
            pairs.append({"name": name, "players": players})
    game_rules: dict[str, Any] = {"preset": form.get("preset", "modern")}
    target = _number(form.get("target", ""))
    if target is not None:
        game_rules["target"] = target
    hands = _number(form.get("hands_per_game", ""))
    if hands is not None:
        game_rules["hands_per_game"] = hands
        counts = form.get("minimum_counts_by_hand", "").replace(",", " ").replace("/", " ").split()
        if counts:
            game_rules["minimum_counts_by_hand"] = [_number(count) for count in counts]
    movement = form.get("movement", "mitchell")
    rounds = _number(form.get("rounds", ""))
    if form.get("rounds", "").strip() == "" and movement in events.MOVEMENTS and len(pairs) >= 2:
        rounds = events.most_rounds(movement, len(pairs))  # empty: every round, until pairs would meet again
    return {
        "format": events.FORMAT,
        "version": events.VERSION,
        "name": form.get("name", ""),
        "rules": game_rules,
        "pairs": pairs,
        "movement": movement,
        "rounds": rounds,
        "round_minutes": _number(form.get("round_minutes", "")),
        "scoring": form.get("scoring", "match_points"),
        "bye": form.get("bye", "average"),
    }


def _problem_words(error: RuleError) -> list[str]:
    """Each problem in words, in the page's language, naming the pair row where it lies (pairs.2.name: "Pair 3:
    ...")."""
    return [
        gettext("Pair %(number)s: %(problem)s", number=p.path[1] + 1, problem=translated(p.message))
        if len(p.path) > 1 and p.path[0] == "pairs" and isinstance(p.path[1], int)
        else str(translated(p.message))
        for p in error.problems
    ]


@bp.route("/new", methods=["GET", "POST"])
def new_event() -> ResponseReturnValue:
    """The new-event form; on Start, the event and its first round, then the director's page."""
    form = request.form if request.method == "POST" else {}
    problems: list[str] = []
    if request.method == "POST":
        try:
            held, _token, _started = event_service.create_event(form_document(form), rights.device_hash())
        except RuleError as error:
            problems = _problem_words(error)
        except document.FormatError as error:
            problems = [str(translated(error.args[0]))]
        else:
            return redirect(url_for("events_web.director", event_id=held.id), 303)
    return render(
        "events/new.html",
        status=422 if problems else 200,
        form=form,
        problems=problems,
        pair_rows=PAIR_ROWS,
        names=recent_names(),
    )


# --- The director's page --------------------------------------------------------------------------------------


# Rows made once per figures and language and kept in this process (templates/events/_rows.html): a changed wall
# screen renders only the rows that changed. Bounded: a night of 1,000 tables has about 3,000 rows at a time.
ROWS_KEPT = 50_000


@functools.lru_cache(maxsize=ROWS_KEPT)
def _row(language: str, macro: str, *values: Any) -> Markup:
    """One row of templates/events/_rows.html, made in this request's language (`language` names it in the key)."""
    made = current_app.jinja_env.get_template("events/_rows.html").module
    return Markup(getattr(made, macro)(*values))


def table_lines(
    held: event_store.StoredEvent, round: int, results: Any = None, rows: slice = slice(None)
) -> list[dict[str, Any]]:
    """Each table of a round (or the `rows` of them a wall's page shows) as the pages show it: pairs' names, hands
    played, state, points, its game, its row."""
    event = held.event
    results = held.results() if results is None else results
    result = results[round] if round < len(results) else None
    language, pairs, of = delivery.language(), event.pairs, event.hands_per_game
    lines = []
    for table in result.tables[rows] if result else ():
        names = (pairs[table.pairs[0]].name, pairs[table.pairs[1]].name)
        state = "confirmed" if table.confirmed else "finished" if table.finished else "provisional"
        if state == "provisional" and not table.hands:
            state = "not-started"  # said so, not "provisional": no figure to be provisional yet
        row = _row(language, "table_row", table.table, names, table.hands, of, state, table.points)
        lines.append(
            {
                "table": table.table,
                "names": names,
                "hands": table.hands,
                "of": of,
                "state": state,
                "points": table.points,
                "game": table.game,
                "round": round,
                "row": row,
            }
        )
    return lines


def standings_body(event: events.Event, lines: tuple[events.Standing, ...]) -> Markup:
    """The standings' rows, best first: each one's rank, then its cells as made once (_row)."""
    language, scoring, pairs, row = delivery.language(), event.scoring, event.pairs, _row
    # Plain strings joined (adding a str to Markup would escape it): the cells are escaped markup already.
    return Markup(
        "\n".join(
            f'<tr><td class="rank">{rank}</td>'
            f"{row(language, 'standing_cells', pairs[pair].name, scoring, won, difference, points, played)}</tr>"
            for rank, pair, won, points, difference, played in lines
        )
    )


def clock(held: event_store.StoredEvent) -> dict[str, Any] | None:
    """The round's countdown: when it ends and the whole minutes left (0 once the time is up)."""
    minutes = held.event.round_minutes
    if not minutes or not held.rounds:
        return None
    ends = store.utc(held.rounds[-1].started_at) + timedelta(minutes=minutes)
    return {"ends": ends, "left": minutes_left(ends), "minutes": minutes}


def minutes_left(ends: datetime) -> int:
    """The whole minutes left until `ends`, rounded up (0 once the time is up)."""
    return max(0, int((ends - datetime.now(UTC)).total_seconds() + 59) // 60)


class WallPages(NamedTuple):
    """The page of each of the wall's lists on show (0-based): the standings' and the round's tables'."""

    standings: int
    tables: int


# The wall shows what a 1920×1080 screen holds at the sizes a room reads (rank and names 48 px): a page of the
# standings and a page of the round's tables, both turned every WALL_PAGE_SECONDS by the server's clock, so every
# wall in the room shows the same page (tests/e2e/test_club_wall_pages.py measures that a page fits the screen).
WALL_STANDINGS_ROWS = 10
WALL_TABLE_ROWS = 10


def page_count(rows: int, per_page: int) -> int:
    """How many pages `rows` rows fill, `per_page` to a page (one, if there are none)."""
    return max(1, -(-rows // per_page))


def wall_pages(glance: event_store.WallGlance, seconds: float, now: float | None = None) -> WallPages:
    """The pages the wall shows now: the count of `seconds` since the epoch, modulo each list's number of pages (a
    list of one page always shows its first, so an unchanged wall of one page stays unchanged)."""
    turn = int((time.time() if now is None else now) // seconds)
    standings = page_count(glance.pairs, WALL_STANDINGS_ROWS)
    return WallPages(turn % standings, turn % page_count(glance.tables, WALL_TABLE_ROWS))


def _page(rows: int, page: int, per_page: int) -> slice:
    """The rows of page `page` of a list of `rows`. (The page was counted from the glance, read before the event: a
    list grown longer since shows the same rows; one shorter, its last page.)"""
    first = min(page, page_count(rows, per_page) - 1) * per_page
    return slice(first, first + per_page)


def event_context(held: event_store.StoredEvent, pages: WallPages | None = None) -> dict[str, Any]:
    """What the director's page (every row) and the wall screen (the rows of `pages`) show."""
    event = held.event
    results = held.results()
    round = len(held.rounds) - 1
    bye = held.rounds[-1].bye if held.rounds else None
    standings = held.standings(results)
    played = len(results[round].tables) if results else 0
    standings_rows = table_rows = slice(None)
    if pages is not None:
        standings_rows = _page(len(standings), pages.standings, WALL_STANDINGS_ROWS)
        table_rows = _page(played, pages.tables, WALL_TABLE_ROWS)
    tables = table_lines(held, round, results, table_rows)
    # What the wall says of a page of a list longer than one: the places ("Standings 11–20 of 47"), and the table
    # numbers, which are not the rows' (the table facing an odd Mitchell's missing pair plays no game and has no row).
    standings_page = tables_page = None
    if pages is not None and len(standings) > WALL_STANDINGS_ROWS:
        first, last, _ = standings_rows.indices(len(standings))
        standings_page = {"first": first + 1, "last": last, "count": len(standings)}
    if pages is not None and played > WALL_TABLE_ROWS and tables:
        tables_page = {"first": tables[0]["table"] + 1, "last": tables[-1]["table"] + 1, "count": event.tables}
    return {
        "held": held,
        "doc": {"name": event.name, "rounds": event.rounds, "movement": event.movement, "scoring": event.scoring},
        "pairs": event.pairs,
        "standings": standings_body(event, standings[standings_rows]),
        "standings_page": standings_page,
        "tables_page": tables_page,
        "round": round,
        "tables": tables,
        "tables_body": Markup("\n".join(line["row"] for line in tables)),
        "bye_name": event.pairs[bye].name if bye is not None and bye < len(event.pairs) else None,
        "clock": clock(held),
        "finished": events.event_status(event, results) == "finished",
    }


@bp.get("/<event_id>/director")
def director(event_id: str) -> ResponseReturnValue:
    """The director's page: every table's state, the next round, a late pair, the cards, the results."""
    held = _load(event_id)
    return render(
        "events/director.html",
        is_director=_is_director(held),
        corrections=event_store.corrections(event_id),
        late_pair_open=len(held.event.pairs) % 2 == 1 and len(held.rounds) < held.event.rounds,
        round_closed=bool(held.rounds) and held.rounds[-1].closed,
        **event_context(held),
    )


@bp.post("/<event_id>/rounds")
def start_round(event_id: str) -> ResponseReturnValue:
    """Start the next round from the director's page (refused in words while a table plays, unless closed)."""
    held = _load(event_id)
    _director_or_403(held)
    try:
        started = event_service.start_round(held, close=request.form.get("close") == "yes")
    except events.EventConflict as error:
        flash(str(translated(error.args[0])), "error")
    except store.EditConflict:
        flash(gettext("The round was started at the same moment on another phone."), "error")
    else:
        if started.ended:  # the last round closed
            flash(
                gettext(
                    "Round %(round)s is closed: the event is over, and its results are final.", round=len(held.rounds)
                ),
                "success",
            )
        else:
            flash(gettext("Round %(round)s started.", round=len(held.rounds)), "success")
    return redirect(url_for("events_web.director", event_id=event_id), 303)


@bp.post("/<event_id>/pairs")
def add_late_pair(event_id: str) -> ResponseReturnValue:
    """A late pair from the director's page."""
    held = _load(event_id)
    _director_or_403(held)
    players = [p.strip() for p in (request.form.get("p1", ""), request.form.get("p2", "")) if p.strip()]
    try:
        event_service.add_late_pair(held, {"name": request.form.get("name", "").strip(), "players": players})
    except events.EventConflict as error:
        flash(str(translated(error.args[0])), "error")
    except RuleError as error:
        flash(" ".join(str(translated(p.message)) for p in error.problems), "error")
    else:
        flash(gettext("%(pair)s joins from the next round.", pair=held.event.pairs[-1].name), "success")
    return redirect(url_for("events_web.director", event_id=event_id), 303)


@bp.post("/<event_id>/rounds/<int:round>/tables/<int:table>/confirm")
def confirm(event_id: str, round: int, table: int) -> ResponseReturnValue:
    """Confirm a finished table: the director, or a phone of the other pair (one that does not keep its score)."""
    held = _load(event_id)
    try:
        seated = event_service.table_of(held, round, table)
    except LookupError as error:
        abort(404, str(translated(error.args[0])))
    stored = held.games[seated.game_id]
    by = "director" if _is_director(held) else "pair"
    if by == "pair" and rights.can_edit(stored):
        abort(
            403,
            gettext("The other pair confirms the result, on a phone of theirs: this phone keeps the table's score."),
        )
    problem, already = None, None
    try:
        if not event_service.confirm(held, seated, by):  # confirmed before: said plainly, nothing recorded again
            already = confirmed_words(seated.confirmed_by, seated.confirmed_at, already=True)
    except event_service.NotFinished as error:
        problem = str(translated(error.args[0]))
    if request.form.get("back") != "scoreboard":
        if problem:
            flash(problem, "error")
        return redirect(url_for("events_web.director", event_id=event_id), 303)
    names = tuple(held.event.pairs[p].name for p in seated.pairs)
    return render(
        "events/confirmed.html",
        status=409 if problem else 200,
        problem=problem,
        already=already,
        table=table,
        names=names,
        points=stored.score.totals,
        game_id=stored.id,
        event_id=event_id,
    )


# --- The table cards -----------------------------------------------------------------------------------------


@bp.app_template_global()
def table_qr(event_id: str, table: int) -> Markup:
    """The QR code of a table's card: the table's own link, which leads to its current game."""
    link = url_for("events_web.table", event_id=event_id, table=table, _external=True)
    return Markup(qr_svg(link, gettext("QR code of the table's link")))


@bp.get("/<event_id>/cards")
def cards(event_id: str) -> ResponseReturnValue:
    """One card per table, to print or show: its number, QR code and room code."""
    held = _load(event_id, games=False)
    return render("events/cards.html", held=held, event=held.event)


@bp.get("/<event_id>/tables/<int:table>")
def table(event_id: str, table: int) -> ResponseReturnValue:
    """A table's card, scanned: the first phone keeps the table's score (its current game's scoresheet, and the
    next round's game when it starts); the director's phone goes to the scoresheet too; any other watches."""
    held = _load(event_id)
    seat = held.seat(table)
    if seat is None:
        abort(404, gettext("This club night has no table %(table)s.", table=table + 1))
    current = held.current_table(table)
    if current is None or current.game_id not in held.games:
        return render("events/table_waits.html", held=held, table=table, event=held.event)
    stored = held.games[current.game_id]
    device, director, unclaimed = rights.device_hash(), _is_director(held), seat.keeper_device is None
    if director or event_store.claim_seat(held, table, device):
        if not rights.can_edit(stored):
            rights.grant(stored, rights.LINK, device)
        if unclaimed and not director:  # said once, to the phone that has just become the keeper
            flash(
                gettext(
                    "This phone now keeps table %(table)s's score (the first phone to open a table's card does). "
                    "Other phones see its scoreboard.",
                    table=table + 1,
                ),
                "success",
            )
        return redirect(url_for("games.show", game_id=stored.id), 303)
    return redirect(url_for("share.scoreboard", game_id=stored.id), 303)


# --- The wall screen -----------------------------------------------------------------------------------------

WALL_LIVE = re.compile(r"/events/([^/]+)/live")


def wall_tag(event_id: str, glance: event_store.WallGlance, config: Any, language: str) -> tuple[WallPages, str]:
    """The pages the wall shows now (wall_pages), and its ETag: the event's revision, the minute of its clock (the
    countdown moves once a minute), those pages, the language it is said in and the build (a new deploy's
    templates)."""
    pages = wall_pages(glance, config["WALL_PAGE_SECONDS"])
    minute = minutes_left(glance.ends) if glance.ends is not None else ""
    return (
        pages,
        f"{event_id}-{glance.revision}-{minute}-{pages.standings}.{pages.tables}-{language}-{config['BUILD_ID']}",
    )


_GLANCED = "scorepad.wall_glance"  # the environ key where the gate leaves what it read (wall_gate)


def _glance(event_id: str) -> event_store.WallGlance:
    """The event's glance: the one the gate read for this request, if it read one (a changed poll), else afresh."""
    glanced = request.environ.get(_GLANCED)
    glance = glanced[1] if glanced is not None and glanced[0] == event_id else event_store.wall_glance(event_id)
    if glance is None:
        abort(404, NO_EVENT)
    return glance


def _wall_answer(event_id: str, block: str | None, pages: WallPages, tag: str) -> Response:
    """The wall screen (`block`: the board alone, what its poll swaps in), made once per tag (revision, minute and
    language: wall_tag) and shared by every wall (delivery.made_once). The tag is read first: what is made from the
    event read after it is as new or newer, so a kept answer is never older than its tag."""

    def make() -> Response:
        store.reading_only()  # reads alone: no BEGIN and ROLLBACK around them on PostgreSQL
        context = event_context(event_store.load_standings(event_id), pages)
        context.update(poll_seconds=POLL_SECONDS, poll_headers={"If-None-Match": f'W/"{tag}"'})
        if block is None:
            return render("events/wall.html", **context)
        # The poll's answer is the board alone, whoever asks (as the scoreboard's live fragment): one answer per tag.
        return make_response(render_block("events/wall.html", block, fragment=True, **context))

    return delivery.tagged(delivery.made_once(("wall", tag), make), tag, vary=("Accept-Language", "Cookie"))


@bp.get("/<event_id>")
def wall(event_id: str) -> ResponseReturnValue:
    """The wall screen: standings and the round's tables, the clock; it asks for changes every 2 s."""
    pages, tag = wall_tag(event_id, _glance(event_id), current_app.config, delivery.language())
    return _wall_answer(event_id, None, pages, tag)


@bp.get("/<event_id>/live")
def wall_live(event_id: str) -> ResponseReturnValue:
    """What an open wall screen asks every POLL_SECONDS: 304 while nothing changed (one small statement, nothing
    scored: answered before Flask by delivery.RevisionGate, through wall_gate), else the standings and tables to
    swap in."""
    pages, tag = wall_tag(event_id, _glance(event_id), current_app.config, delivery.language())
    if request.if_none_match.contains_weak(tag):
        return Response(status=304, headers=delivery.live_not_modified_headers(tag))
    return _wall_answer(event_id, "board", pages, tag)


@bp.record_once
def _gate_the_wall(state: BlueprintSetupState) -> None:
    """The wall's unchanged poll, answered 304 before Flask (delivery.RevisionGate): one statement."""
    config = state.app.config  # BUILD_ID is set once the blueprints are (delivery.init_app)

    def wall_gate(found: re.Match[str], environ: Any, engine: Any) -> str | None:
        glance = event_store.wall_glance(found[1], engine)
        environ[_GLANCED] = (found[1], glance)  # a changed poll goes on to wall_live, which need not read it again
        return None if glance is None else wall_tag(found[1], glance, config, language_of_environ(environ))[1]

    state.app.extensions.setdefault(delivery.REVISION_GATES, []).append((WALL_LIVE, wall_gate))


# --- A table's scoresheet -------------------------------------------------------------------------------------

TIME_UP = lazy_gettext("Time is up: this is the last hand.")


@bp.get("/games/<game_id>/clock")
def sheet_clock(game_id: str) -> ResponseReturnValue:
    """The clock line of a table's scoresheet (templates/events/_sheet_table.html): the minutes left in the round,
    or, once they are up, that the next hand saved is the table's last. One small statement, no game loaded."""
    store.reading_only()
    found = event_store.clock_of_game(game_id)
    body = ""
    round, started, minutes = found if found is not None else (0, None, None)
    if started is not None and minutes:
        left = minutes_left(started + timedelta(minutes=minutes))
        if left:
            words = ngettext(
                "%(num)s min left in round %(round)s", "%(num)s min left in round %(round)s", left, round=round + 1
            )
            body = f'<p class="event-clock">{escape(words)}</p>'
        else:
            body = f'<p class="event-clock flash flash-error">{escape(TIME_UP)}</p>'
    response = make_response(body)
    response.cache_control.no_store = True  # the time, now
    return response


# --- Confirm on a table's scoreboard -------------------------------------------------------------------------

CONFIRMED_BY = {"pair": lazy_gettext("the other pair"), "director": lazy_gettext("the director")}


def confirmed_words(by: str | None, at: datetime | None, already: bool = False) -> str:
    """Who confirmed a table's result and when, in words, in the page's language: "Confirmed by the other pair at
    21:14 UTC." (`already`: "Already confirmed by ...", the answer to a second Confirm)."""
    who = str(CONFIRMED_BY.get(by or "", CONFIRMED_BY["director"]))
    if at is None:
        return (
            gettext("Already confirmed by %(who)s.", who=who) if already else gettext("Confirmed by %(who)s.", who=who)
        )
    time = f"{store.utc(at):%H:%M}"
    if already:
        return gettext("Already confirmed by %(who)s at %(time)s UTC.", who=who, time=time)
    return gettext("Confirmed by %(who)s at %(time)s UTC.", who=who, time=time)


@bp.get("/games/<game_id>/confirmation")
def confirmation(game_id: str) -> ResponseReturnValue:
    """A finished table's Confirm, or who confirmed it and when: asked for by the table's scoreboard each time it is
    shown (the scoreboard itself is made once per revision of the game, which a confirmation does not change). One
    statement: the game, read with its table. Nothing for a game of no event, or one still on."""
    store.reading_only()
    stored = load_or_404(game_id)
    at = stored.at_event
    body = ""
    if at is not None and stored.score.finished:
        confirmed = at.confirmed(stored)
        body = render_template(
            "events/_confirmation.html",
            at=at,
            names=[side.name for side in stored.table.sides],
            confirmed=confirmed_words(at.confirmed_by, at.confirmed_at) if confirmed else None,
            keeper=rights.can_edit(stored) and not _is_director_of(at.event_id),
        )
    response = make_response(body)
    response.cache_control.no_store = True  # whose phone asks, and the confirmation now
    return response


def _is_director_of(event_id: str) -> bool:
    return _is_director(_load(event_id, games=False))
