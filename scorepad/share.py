"""The read-only side of a game: the scoreboard for the other players, its rules in words, and export."""

from __future__ import annotations

import csv
import io
import json

from flask import Blueprint, Response

from . import rules
from .web import load_or_404, points, render, scoresheet_context

bp = Blueprint("share", __name__)


@bp.get("/games/<game_id>/scoreboard")
def scoreboard(game_id: str):
    """The read-only scoreboard for the other players; it refreshes itself while the game is on."""
    stored = load_or_404(game_id)
    return render("share/scoreboard.html", "scoresheet", editable=False, **scoresheet_context(stored))


# --- The rules page: the game's own stored rules, in words and tables -------------------------------

CANASTA_KEYS = rules.CANASTA_VALUE_KEYS
# Each penalty the rules know, and when a side pays it (docs/rules.md sections 3 and 4).
PENALTY_MEANINGS = {
    "incomplete_sevens": "a sevens meld of fewer than seven cards on the table when the hand ends",
    "incomplete_aces": "a pure-aces meld of fewer than seven cards on the table when the hand ends",
    "incomplete_wild": "a wild-card meld of fewer than seven cards on the table when the hand ends",
    "dirty_sevens": "three or more 7s in hand at the end (\u201cdirty\u201d): each such player",
    "dirty_aces": "three or more aces in hand at the end: each such player",
    "three_in_hand": "still in a player's hand at the end; a 3 drawn as the last card of the stock too",
    "red_three_in_hand": "still in a player's hand at the end",
    "failed_go_out_ask": "asked partner \u201cmay I go out?\u201d, heard yes, then did not go out: each time",
    "failed_pile_take": "took the discard pile, then could not use its top card legally: each time",
}


def minimum_count_rows(bands: tuple[rules.Band, ...]) -> list[tuple[str, int]]:
    """The Minimum Count table as a player reads it: (the scores a band covers, its minimum) per band."""
    rows = []
    for i, band in enumerate(bands):
        following = bands[i + 1].start if i + 1 < len(bands) else None
        if i == 0 and following is None:
            scores = "any score"
        elif i == 0:
            scores = f"below {points(following)}" + (" (negative too)" if following > 0 else "")
        elif following is None:
            scores = f"{points(band.start)} and up"
        else:
            # Scores go in fives: a band ends at the last multiple of 5 below the next band's start.
            scores = f"{points(band.start)} \u2013 {points((following - 1) // 5 * 5)}"
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
def game_rules(game_id: str):
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
def export_json(game_id: str):
    """The game document, to keep, move to another phone or import again."""
    stored = load_or_404(game_id)
    body = json.dumps(stored.document(), indent=2, ensure_ascii=False)
    return Response(
        body,
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="scorepad-{game_id}.json"'},
    )


@bp.get("/games/<game_id>/export.csv")
def export_csv(game_id: str):
    """The scoresheet as a spreadsheet: a row per hand, Base, Count, hand total and total per side."""
    stored = load_or_404(game_id)
    table = stored.game.table
    out = io.StringIO()
    writer = csv.writer(out)

    def cell(value):
        # A name starting with = + - @ would run as a formula in a spreadsheet: make it plain text.
        return "'" + value if isinstance(value, str) and value[:1] in ("=", "+", "-", "@") else value

    header = ["hand", "dealer"]
    for side in table.sides:
        header += [f"{side.name} {figure}" for figure in ("base", "count", "hand total", "total")]
    writer.writerow([cell(h) for h in header])
    for n, hand_score in enumerate(stored.score.hands):
        row = [n + 1, cell(table.player_of_seat(hand_score.dealer))]
        for side_score in hand_score.sides:
            row += [side_score.base, side_score.count, side_score.total, side_score.cumulative]
        writer.writerow(row)
    return Response(
        out.getvalue(),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="scorepad-{game_id}.csv"'},
    )
