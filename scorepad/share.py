"""The read-only side of a game: the scoreboard for the other players, and export."""

from __future__ import annotations

import csv
import io
import json

from flask import Blueprint, Response

from .web import load_or_404, render, scoresheet_context

bp = Blueprint("share", __name__)


@bp.get("/games/<game_id>/scoreboard")
def scoreboard(game_id: str):
    """The read-only scoreboard for the other players; it refreshes itself while the game is on."""
    stored = load_or_404(game_id)
    return render("share/scoreboard.html", "scoresheet", editable=False, **scoresheet_context(stored))


@bp.get("/games/<game_id>/export.json")
def export_json(game_id: str):
    """The game document, to keep, move to another phone or import again."""
    stored = load_or_404(game_id)
    body = json.dumps(stored.document(), indent=2, ensure_ascii=False)
    return Response(body, mimetype="application/json",
                    headers={"Content-Disposition": f'attachment; filename="scorepad-{game_id}.json"'})


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
    return Response(out.getvalue(), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="scorepad-{game_id}.csv"'})
