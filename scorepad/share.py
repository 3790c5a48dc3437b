"""The read-only side of a game: joining by room code, the live scoreboard for the other players, its rules
in words, and export."""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import UTC

from flask import Blueprint, Response, abort, current_app, make_response, redirect, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext, lazy_gettext
from htmx_flask import request
from jinja2_fragments.flask import render_block, render_blocks
from markupsafe import Markup

from . import delivery, event_store, rules, store
from .rules.errors import Message, Points
from .web import load_or_404, qr_svg, render, scoresheet_context, translated

bp = Blueprint("share", __name__)

NO_GAME = lazy_gettext("There is no game at this address. Check the link, or start a new game.")
# How often an open scoreboard asks whether the game changed (docs/architecture.md): a save shows within
# this and one answer's time, well inside 3 seconds.
POLL_SECONDS = 2


# --- Joining by room code ----------------------------------------------------------------------------

# Read aloud or typed from across the table: case does not matter, nor do spaces and dashes between groups.
ROOM_CODE_SPACING = re.compile(r"[\s\-\u2010-\u2015\u2212_.]+")
LONGEST_ROOM_CODE_TYPED = 40  # generous for spaces and dashes; anything longer is not a room code


def format_room_code(code: str | None) -> str:
    """A room code as the scoresheet shows it and players read it aloud: two groups of three, "KXT 4MP"."""
    if not code:
        return ""
    half = len(code) // 2
    return f"{code[:half]} {code[half:]}"


def read_room_code(typed: str) -> tuple[str | None, str | None]:
    """The room code a player typed, as stored (upper case, no spaces), or None and what is wrong with it.

    Nothing is guessed: a character that is not in a room code (O, 0, 1, I, S, ...) is refused, never taken
    for a look-alike, so a mistyped code can never lead to someone else's game."""
    if len(typed) > LONGEST_ROOM_CODE_TYPED:
        return None, Message("That's not a room code: a room code has 6 letters and digits.")
    code = ROOM_CODE_SPACING.sub("", typed).upper()
    if not code:
        return None, Message("Type the room code shown on the scorekeeper's phone: 6 letters and digits.")
    strangers = sorted({c for c in code if c not in store.ROOM_CODE_LETTERS})
    if strangers:
        quoted: list[str] = [f"\u201c{c}\u201d" for c in strangers if c.isprintable()]
        if len(quoted) < len(strangers):
            quoted.append(Message("an invisible character"))
        listed: str = quoted[0]
        for between in quoted[1:-1]:
            listed = Message("{first}, {then}", first=listed, then=between)
        if len(quoted) > 1:
            listed = Message("{first} or {last}", first=listed, last=quoted[-1])
        return None, Message(
            "That's not a room code: a room code never has {listed}. It uses only {letters}. "
            "Check it on the scorekeeper's phone.",
            listed=listed,
            letters=" ".join(store.ROOM_CODE_LETTERS),
        )
    if len(code) != store.ROOM_CODE_LENGTH:
        return None, Message(
            "That's not a room code: a room code has {length} letters and digits, and this has {has}.",
            length=store.ROOM_CODE_LENGTH,
            has=len(code),
        )
    return code, None


@bp.get("/join")
def join() -> ResponseReturnValue:
    """Join a game's scoreboard by its room code: the form, or with ?code= straight to the scoreboard."""
    typed = request.args.get("code")
    if typed is None:
        return render("share/join.html", typed="", problem=None)
    code, problem = read_room_code(typed)
    if code is None:
        return render("share/join.html", status=422, typed=typed, problem=problem)
    game_id = store.game_id_of_room_code(code)
    place = event_store.place_of_room_code(code) if game_id is None else None  # a club night's wall or table card
    if place is not None:
        event_id, table = place
        if table is None:
            return redirect(url_for("events_web.wall", event_id=event_id), 303)
        return redirect(url_for("events_web.table", event_id=event_id, table=table), 303)
    if game_id is None:
        problem = Message(
            "No game has the room code {code}. Check it on the scorekeeper's phone: the game may also have been "
            "deleted.",
            code=format_room_code(code),
        )
        return render("share/join.html", status=404, typed=typed, problem=problem)
    return redirect(url_for("share.scoreboard", game_id=game_id), 303)


@bp.app_template_global()
def scoreboard_qr(game_id: str) -> Markup:
    """The QR code of the game's scoreboard link (absolute), made on the server: no script, no third party."""
    link = url_for("share.scoreboard", game_id=game_id, _external=True)
    return Markup(qr_svg(link, gettext("QR code of the scoreboard link")))


bp.add_app_template_filter(format_room_code, "room_code")


# --- The scoreboard: read-only, the latest hand first, kept up to date by a cheap poll ----------------


def _scoreboard_context(stored: store.Stored, seen: store.ScoreboardRevision) -> dict:
    """What the scoreboard shows: the scoresheet's figures, the latest hand first, nothing to change, and once
    the game is over the way to its rematch (if one has started and is still there)."""
    context = scoresheet_context(stored)
    context["rows"] = context["rows"][::-1]
    tag = delivery.live_tag(*seen)
    rematch_url = None
    if seen.rematch_id is not None and context["score"].finished and store.game_revision(seen.rematch_id) is not None:
        rematch_url = url_for("share.scoreboard", game_id=seen.rematch_id)
    return {
        **context,
        "editable": False,
        "newest_first": True,
        "live_tag": tag,
        "rematch_url": rematch_url,
        # Asked while the game is on, and once it is over until there is a rematch to follow.
        "polls": rematch_url is None,
        "poll_seconds": POLL_SECONDS,
        "poll_headers": {"If-None-Match": f'W/"{tag}"'},
    }


def _seen(stored: store.Stored) -> store.ScoreboardRevision:
    """What the scoreboard of a loaded game shows besides its figures (as store.scoreboard_revision reads it)."""
    return store.ScoreboardRevision(stored.record.version, stored.record.rematch_id)


def _page_tag(game_id: str, seen: store.ScoreboardRevision) -> str:
    """The scoreboard page's ETag: the game's revision, its rematch and the app's build (a new deploy is never
    answered with an old page)."""
    return f"{game_id}-{delivery.live_tag(*seen)}-scoreboard-{current_app.config['BUILD_ID']}"


def _not_modified(tag: str) -> Response:
    response = delivery.not_modified(tag)
    response.cache_control.no_cache = True
    return response


def _tagged(response: Response, tag: str) -> Response:
    return delivery.tagged(response, tag, vary=())


@bp.get("/games/<game_id>/scoreboard")
def scoreboard(game_id: str) -> ResponseReturnValue:
    """The read-only scoreboard for the other players; it keeps itself up to date while the game is on, and
    leads to the rematch once one starts."""
    if request.htmx:  # an older scoreboard page still open, asking for its fragment: answered as before
        stored = load_or_404(game_id)
        return render("share/scoreboard.html", "scoresheet", **_scoreboard_context(stored, _seen(stored)))
    if request.if_none_match:
        seen = store.scoreboard_revision(game_id)
        if seen is None:
            abort(404, NO_GAME)
        if request.if_none_match.contains_weak(_page_tag(game_id, seen)):
            return _not_modified(_page_tag(game_id, seen))
    stored = load_or_404(game_id)
    seen = _seen(stored)
    tag = _page_tag(game_id, seen)
    response = delivery.made_once(
        (tag,), lambda: render("share/scoreboard.html", "scoresheet", **_scoreboard_context(stored, seen))
    )
    delivery.for_anyone(game_id, *seen)  # the scoreboard is read-only for every phone
    return _tagged(response, tag)


# htmx's "stop polling" status: the answer is swapped in, and the element asks no more.
STOP_POLLING = 286


@bp.get("/games/<game_id>/scoreboard/live")
def scoreboard_live(game_id: str) -> ResponseReturnValue:
    """What an open scoreboard asks every POLL_SECONDS: 304 while it shows the game as it is (one small query:
    no hand loaded, nothing scored), else the scoreboard's figures to swap in; once a finished game's rematch has
    started, the rematch's scoreboard, which the page then follows. A game deleted meanwhile: a line saying so,
    and no more asking."""
    seen = store.scoreboard_revision(game_id)
    if seen is None:
        if not request.htmx:
            abort(404, NO_GAME)
        # Put above the last figures the page has (they stay), with htmx's status to stop the poll.
        response = make_response(render_block("share/scoreboard.html", "gone", fragment=True), STOP_POLLING)
        response.headers["HX-Reswap"] = "beforebegin"
        response.cache_control.no_store = True
        return response
    tag = delivery.live_tag(*seen)
    if request.if_none_match.contains_weak(tag):  # as delivery.RevisionGate answers it before Flask
        return Response(status=304, headers=delivery.live_not_modified_headers(tag))
    if seen.rematch_id is not None:
        followed = _follow_rematch(game_id, seen.rematch_id)
        if followed is not None:
            return _tagged(followed, tag)

    def make() -> Response:
        stored = load_or_404(game_id)
        body = render_block(
            "share/scoreboard.html", "scoresheet", fragment=True, **_scoreboard_context(stored, _seen(stored))
        )
        return make_response(body)

    delivery.for_anyone(game_id, *seen)
    return _tagged(delivery.made_once(("live", tag), make), tag)


def _follow_rematch(game_id: str, rematch_id: str) -> Response | None:
    """The answer that takes an open scoreboard of a finished game to its rematch: the rematch's scoreboard block,
    its heading out of band (the new room code and rules link), and the new address in place of the old one (no
    new entry in the phone's history, so Back never lands on a page that moves on again). None if the game is
    not finished (a hand deleted since) or the rematch is gone: the game's own block is answered then."""
    stored = load_or_404(game_id)
    if not stored.score.finished:
        return None
    try:
        rematch = store.load_game(rematch_id)
    except store.GameNotFound:
        return None
    context = _scoreboard_context(rematch, _seen(rematch))
    previous_url = url_for("share.scoreboard", game_id=game_id)
    body = render_blocks(
        "share/scoreboard.html", ["scoresheet", "heading"], fragment=True, previous_url=previous_url, **context
    )
    response = make_response(body)
    response.headers["HX-Replace-Url"] = url_for("share.scoreboard", game_id=rematch_id)
    return response


# --- The rules page: the game's own stored rules, in words and tables -------------------------------

CANASTA_KEYS = rules.CANASTA_VALUE_KEYS
# Each penalty the rules know, and when a side pays it (docs/rules.md sections 3 and 4): the catalogue's.
PENALTY_MEANINGS = {value.key: value.meaning for value in rules.CATALOGUE if value.penalty}


def minimum_count_rows(bands: tuple[rules.Band, ...]) -> list[tuple[str, int]]:
    """The Minimum Count table as a player reads it: (the scores a band covers, its minimum) per band, the scores
    as a Message (translated where the page shows it)."""
    rows: list[tuple[str, int]] = []
    for i, band in enumerate(bands):
        following = bands[i + 1].start if i + 1 < len(bands) else None
        scores: str
        if following is None:
            scores = Message("any score") if i == 0 else Message("{start} and up", start=Points(band.start or 0))
        elif i == 0:
            below = Message("below {score} (negative too)") if following > 0 else Message("below {score}")
            scores = Message(below.text, score=Points(following))
        else:
            # Scores go in fives: a band ends at the last multiple of 5 below the next band's start.
            last = Points((following - 1) // 5 * 5)
            scores = Message("{start} \u2013 {end}", start=Points(band.start or 0), end=last)
        rows.append((scores, band.minimum))
    return rows


def rules_context(game_rules: rules.Rules, table: rules.Table) -> dict:
    """What the rules page shows of one game's rules: each value it plays, with its label and meaning."""
    values = game_rules.values
    preset = rules.PRESETS.get(game_rules.preset)
    if game_rules.modern:
        red_threes = []
    elif table.pack.decks == 3:
        red_threes = [(rules.VALUE_LABELS[key], getattr(game_rules.red_threes, key)) for key in ("each", "five", "six")]
    else:
        red_threes = [(rules.VALUE_LABELS[key], getattr(game_rules.red_threes, key)) for key in ("each", "all_four")]
    return {
        "house_rules": preset is not None and game_rules != preset.rules,
        "minimum_counts": minimum_count_rows(game_rules.minimum_counts),
        "threes": list(enumerate(game_rules.threes)),
        "all_eight_threes_otherwise": 2 * game_rules.threes[-1],
        "red_threes": red_threes,
        "canastas": [
            (rules.VALUE_LABELS[key], getattr(values, key)) for key in CANASTA_KEYS if getattr(values, key) > 0
        ],
        "penalties": [
            (rules.VALUE_LABELS[key], meaning, -getattr(values, key))
            for key, meaning in PENALTY_MEANINGS.items()
            if getattr(values, key) > 0
        ],
        "unfinished_melds": any(
            getattr(values, key) > 0 for key in ("incomplete_sevens", "incomplete_aces", "incomplete_wild")
        ),
        "special_hands": [
            (rules.special_hand_name(key), rules.SPECIAL_HAND_HOLDS.get(key, ""), value)
            for key, value in game_rules.special_hands
        ],
    }


@bp.get("/games/<game_id>/rules")
def game_rules(game_id: str) -> ResponseReturnValue:
    """The rules this game is played by, in words and tables, from its own stored rules."""
    stored = load_or_404(game_id)
    game = stored.game
    return render(
        "share/rules.html",
        stored=stored,
        game=game,
        table=game.table,
        rules=game.rules,
        preset_name=game.rules.preset_name,
        **rules_context(game.rules, game.table),
    )


@bp.get("/games/<game_id>/export.json")
def export_json(game_id: str) -> ResponseReturnValue:
    """The game document, to keep, move to another phone or import again."""
    stored = load_or_404(game_id)
    body = json.dumps(stored.document(), indent=2, ensure_ascii=False)
    return Response(
        body,
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="scorepad-{game_id}.json"'},
    )


# --- The spreadsheet -----------------------------------------------------------------------------------
#
# Two files, each one table with its headings in the first row: the hands (a row per hand and side) and the
# game's facts (a row per side). A spreadsheet takes a CSV as one table, so a block of facts above the hands, or
# totals below them, would be sorted, filtered and summed as if they were hands.

# The entries a side may give for a hand (docs/api.md), in the order of the hand form; a game's file has only
# those its rules have. The Count is a figure of its own, with where it came from; the counting grid follows,
# a column per row of the grid, melded then in hand, in a game where the grid was used.
CSV_ENTRY_FIELDS = tuple(name for name in rules.SIDE_FIELDS if name not in ("count", "cards", "reported_base"))
CSV_FIGURES = (
    ("base", Message("Base")),
    ("count", Message("Count")),
    ("total", Message("Hand total")),
    ("cumulative", Message("Running total")),
)
# A cell a spreadsheet would run as a formula (OWASP's CSV injection list): shown as text instead.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_text(value: object) -> object:
    """A cell as a spreadsheet shows it: text that would start a formula gets a leading apostrophe."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def entry_cell(name: str, value: object) -> object:
    """One entry as a cell: numbers as numbers, yes or blank for a switch, a special hand by its name."""
    if value is None or value is False:
        return ""
    if value is True:
        return Message("yes")
    if name == "special_hand":
        return rules.special_hand_name(str(value))
    if name == "wild_canasta":
        return rules.WILD_CANASTA_NAMES.get(str(value), value)
    return value


def count_from(entry: rules.SideEntry) -> str:
    """Where a side's Count came from, in plain words."""
    if entry.special_hand is not None:
        return Message("special hand")  # its Count is 0 by the rules, whatever was entered
    if entry.cards is not None:
        return Message("counting grid")
    return Message("typed") if entry.count is not None else Message("not given")


def _winner(stored: store.Stored) -> str:
    score, sides = stored.score, stored.game.table.sides
    if score.finished and score.winners:
        names = [sides[i].name for i in score.winners]
        if len(names) == 1:
            return names[0]
        listed: str = names[0]
        for name in names[1:-1]:
            listed = Message("{first}, {then}", first=listed, then=name)
        return Message("{names} and {last} (shared)", names=listed, last=names[-1])
    return Message("in progress")


def csv_rows(stored: store.Stored) -> list[list[object]]:
    """The hands as a table: a heading row, then a row per side per hand with the entries the game's rules have
    (the counting grid only if the game used it), where the Count came from, and the figures."""
    game, score = stored.game, stored.score
    table, game_rules = game.table, game.rules
    entries = [side for hand in game.hands for side in hand.sides]
    fields = [name for name in CSV_ENTRY_FIELDS if game_rules.has(name)]
    if any(entry.reported_base is not None for entry in entries):
        fields.append("reported_base")
    # Modern: black 3s are never cards of the grid (rules.py refuses them there).
    kinds = [kind for kind in rules.CARD_KINDS if kind != "black_threes" or not game_rules.modern]
    grid = any(entry.cards is not None for entry in entries)
    header: list[object] = [Message("Hand"), Message("Dealer"), Message("Side"), Message("Players")]
    header += [rules.FIELD_LABELS[name] for name in fields]
    if grid:
        header += [
            Message("{where}: {kind}", where=where, kind=rules.CARD_LABELS[kind])
            for where in (Message("Melded"), Message("In hand"))
            for kind in kinds
        ]
    header += [Message("Count from")] + [label for _, label in CSV_FIGURES]
    notes = bool(game.hand_notes)
    if notes:
        header.append(Message("Note"))
    rows: list[list[object]] = [header]
    # A game moved in from paper: a line per side before hand 1, its total brought forward as its running total.
    for side, total in zip(table.sides, table.brought_forward, strict=False):
        line: list[object] = [Message("Brought forward"), "", side.name, " & ".join(side.players)]
        rows.append(line + [""] * (len(header) - 5 - notes) + [total] + [""] * notes)
    for number, (hand, hand_score) in enumerate(zip(game.hands, score.hands, strict=True), start=1):
        dealer = table.player_of_seat(hand_score.dealer)
        for side, entry, side_score in zip(table.sides, hand.sides, hand_score.sides, strict=True):
            row: list[object] = [number, dealer, side.name, " & ".join(side.players)]
            row += [entry_cell(name, getattr(entry, name)) for name in fields]
            if grid:
                cards = entry.cards
                for where in ("melded", "in_hand"):
                    row += [getattr(getattr(cards, where), kind) if cards else "" for kind in kinds]
            row.append(count_from(entry))
            row += [getattr(side_score, figure) for figure, _ in CSV_FIGURES]
            if notes:
                row.append(game.hand_note(number - 1))
            rows.append(row)
    return rows


def facts_rows(stored: store.Stored) -> list[list[object]]:
    """The game's facts as a table: a heading row, then a row per side with the game's date, rules, target and
    winner beside the side's name, players and total."""
    game, score, record = stored.game, stored.score, stored.record
    started = store.utc(record.created_at).astimezone(UTC).strftime("%Y-%m-%d %H:%M")
    title = " v ".join(side.name for side in game.table.sides)
    winner = _winner(stored)
    carried = game.table.brought_forward
    header: list[object] = [
        Message("Game"),
        Message("Started (UTC)"),
        Message("Rules"),
        Message("Playing to"),
        Message("Hands"),
        Message("Side"),
        Message("Players"),
        Message("Total"),
    ]
    rows: list[list[object]] = [
        header
        + [Message("Winner")]
        + ([Message("Brought forward")] if carried else [])
        + ([Message("Note")] if game.note else [])
    ]
    for i, (side, total) in enumerate(zip(game.table.sides, score.totals, strict=True)):
        rows.append(
            [
                title,
                started,
                game.rules.preset_name,
                game.rules.target,
                len(game.hands),
                side.name,
                " & ".join(side.players),
                total,
                winner,
            ]
            + ([carried[i]] if carried else [])
            + ([game.note] if game.note else [])
        )
    return rows


def _csv_file(rows: list[list[object]], filename: str) -> Response:
    """Rows as a CSV download: UTF-8 with a byte order mark, so Excel reads accented names right (LibreOffice and
    Numbers take it too), and lines ending CRLF as RFC 4180 says."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    for row in rows:
        # The headings and words in the page's language (docs/i18n.md); the figures stay plain integers.
        writer.writerow([spreadsheet_text(translated(cell)) for cell in row])
    return Response(
        "\ufeff" + out.getvalue(),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


@bp.get("/games/<game_id>/export.csv")
def export_csv(game_id: str) -> ResponseReturnValue:
    """The hands as a spreadsheet: a row per side per hand, with the entries the game's rules have and every
    figure."""
    return _csv_file(csv_rows(load_or_404(game_id)), f"scorepad-{game_id}.csv")


@bp.get("/games/<game_id>/game.csv")
def export_facts_csv(game_id: str) -> ResponseReturnValue:
    """The game's facts as a spreadsheet: sides, players, date, rules, totals and the winner."""
    return _csv_file(facts_rows(load_or_404(game_id)), f"scorepad-{game_id}-game.csv")
