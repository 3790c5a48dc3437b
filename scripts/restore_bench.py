"""How long restoring the largest file of games Scorepad accepts takes (issue 15: a restore finishes in a few
seconds for anything it accepts, never a gunicorn worker's 30 s), and how soon a file past the limits is refused.

    .venv/bin/python scripts/restore_bench.py [--postgres URL] [--budget 10]

Each file is restored through the home page's form (the Flask test client, in this process) on a fresh SQLite
database, and on PostgreSQL when a URL is given. The files, each at a limit of document.py:

- 25 games of 200 hands (5,000 hands, MOST_HANDS_IN_FILE), every hand with a counting grid for both sides;
- 1,000 games of 5 hands (MOST_GAMES_IN_FILE games; 5,000 hands);
- the 25 games of 200 hands with every hand refused (5 red 3s): each problem is named;
- 26 games of 200 hands (5,200 hands): refused before any game is read.

It prints one line per file and exits 1 when a restore it accepts takes over the budget (seconds).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorepad import create_app, database_url, document  # noqa: E402
from scorepad.models import GameRecord, db  # noqa: E402

# Side 0 goes out with two natural canastas, 14 high cards, 2 aces and a joker melded: 1,000 + 100 + 230 = 1,330;
# side 1 holds 14 high cards, 4 aces and 3 jokers: -370. Both counted with the grid, as the hand form's counting
# grid sends them: the dearest hands to check. 200 such hands, the sides taking turns, leave 96,000 each: the game
# (to 100,000) goes on.
GRID_OUT = {
    "sides": [
        {"natural_canastas": 2, "went_out": True, "cards": {"melded": {"high": 14, "aces": 2, "jokers": 1}}},
        {"cards": {"in_hand": {"high": 14, "aces": 4, "jokers": 3}}},
    ]
}
SIDES = [{"name": "Us", "players": ["Ann", "Cleo"]}, {"name": "Them", "players": ["Bea", "Dot"]}]


def game(hands: int) -> dict:
    flipped = {"sides": list(reversed(GRID_OUT["sides"]))}
    return {
        "format": "scorepad-game",
        "version": 1,
        "rules": {"preset": "modern", "target": 100_000},  # never reached: every hand is stored
        "sides": SIDES,
        "first_dealer": 0,
        "hands": [GRID_OUT if n % 2 == 0 else flipped for n in range(hands)],
    }


def games_file(games: int, hands: int) -> bytes:
    return json.dumps({"format": "scorepad-games", "version": 1, "games": [game(hands)] * games}).encode()


def restore(url: str, raw: bytes) -> tuple[int, float, int]:
    """(status, seconds, games stored) of restoring `raw` on a fresh app on `url`."""
    app = create_app({"SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": url, "RATELIMIT_ENABLED": False})
    client = app.test_client()
    start = time.perf_counter()
    response = client.post(
        "/games/import", data={"document": (io.BytesIO(raw), "all.json")}, content_type="multipart/form-data"
    )
    seconds = time.perf_counter() - start
    with app.app_context():
        stored = db.session.query(GameRecord).count()
        db.session.query(GameRecord).delete()  # the next file starts from none (hands go with their games)
        db.session.commit()
        db.engine.dispose()
    return response.status_code, seconds, stored


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--postgres", help="a PostgreSQL URL to measure on too (its tables are made if missing)")
    parser.add_argument("--budget", type=float, default=10.0, help="seconds a restore or a refusal may take")
    args = parser.parse_args()
    most = document.MOST_HANDS_IN_FILE
    broken = games_file(most // 200, 200).replace(b'"natural_canastas": 2', b'"natural_canastas": 2, "red_threes": 5')
    files = [
        (f"{most // 200} games of 200 hands ({most:,} hands)", games_file(most // 200, 200), 303),
        (f"{document.MOST_GAMES_IN_FILE:,} games of 5 hands", games_file(document.MOST_GAMES_IN_FILE, 5), 303),
        (f"{most // 200} games of 200 hands, every hand refused", broken, 422),
        (f"{most // 200 + 1} games of 200 hands (refused up front)", games_file(most // 200 + 1, 200), 422),
    ]
    over = False
    with tempfile.TemporaryDirectory() as folder:
        databases = [("SQLite", f"sqlite:///{folder}/restore.sqlite")]
        if args.postgres:
            os.environ["DATABASE_URL"] = args.postgres  # postgres:// and postgresql:// as the app reads them
            databases.append(("PostgreSQL", database_url(folder)))
        for label, url in databases:
            for name, raw, wanted in files:
                status, seconds, stored = restore(url, raw)
                ok = status == wanted and seconds <= args.budget
                over |= not ok
                print(
                    f"{label:10} {name:48} {len(raw) / 1e6:5.1f} MB  {status}  {seconds:6.2f} s  "
                    f"{stored:5} games stored  {'ok' if ok else 'OVER BUDGET OR WRONG ANSWER'}"
                )
    sys.exit(1 if over else 0)


if __name__ == "__main__":
    main()
