"""The benchmark's reads timed in-process (CPU time, time.process_time), without gunicorn or locust: for comparing a
change before and after on a busy machine, where the benchmark's own ratios move. Seeds a database as
scripts/bench.py does (a 10-hand and a 200-hand game in progress, the history phone's kept games), then asks each
address through Flask's test client many times and prints the median CPU time of one request, in ms.

    .venv/bin/python scripts/profile_pages.py [--postgres URL] [--games 400] [--repeat 300] [--profile NAME]

--profile NAME runs cProfile over that read instead (a name from the table: page_200_fresh, history, ...) and
prints the 25 dearest functions by their own time and by their cumulative time.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench  # noqa: E402  (scripts/bench.py: the same seed and the same phone)


def reads(fixture: dict) -> dict[str, tuple[str, dict[str, str]]]:
    """The benchmark's reads (scripts/bench.py's load), by name: address and headers."""
    g10, g200 = fixture["game_10"], fixture["game_200"]
    gz = {"Accept-Encoding": "gzip"}
    return {
        "poll_unchanged": (f"/games/{g10}/scoreboard/live", gz),
        "page_10": (f"/games/{g10}", gz),
        "page_200": (f"/games/{g200}", gz),
        "json": (f"/api/games/{g10}", gz),
        "history": ("/history", gz),
        "page_10_fresh": (f"/games/{g10}?look=", gz),
        "page_200_fresh": (f"/games/{g200}?look=", gz),
        "history_fresh": ("/history?look=", gz),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--postgres", help="a PostgreSQL URL to seed and read instead of a new SQLite file")
    parser.add_argument("--games", type=int, default=bench.KEPT + 100)
    parser.add_argument("--repeat", type=int, default=300)
    parser.add_argument("--profile", help="profile this read with cProfile instead of timing them all")
    parser.add_argument("--callees", help="with --profile: also what the functions matching this call, and their cost")
    parser.add_argument("--callers", help="with --profile: also what calls the functions matching this")
    parser.add_argument("--lines", type=int, default=25, help="with --profile: how many functions each list shows")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="scorepad-profile-"))
    url = args.postgres or f"sqlite:///{work / 'profile.sqlite'}"
    fixture_path = work / "fixture.json"
    bench.seed(url, args.games, fixture_path)
    fixture = json.loads(fixture_path.read_text())

    from scorepad import create_app

    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://") :]
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": bench.SECRET})
    # As the benchmark asks: the history with its phone's session cookie, the rest as a watcher's phone (no cookie).
    client, phone = app.test_client(), app.test_client()
    phone.set_cookie(fixture["cookie_name"], fixture["cookie"])
    asked = reads(fixture)
    live = client.get(asked["poll_unchanged"][0])
    poll, gz = asked["poll_unchanged"]
    asked["poll_unchanged"] = (poll, {**gz, "If-None-Match": live.headers["ETag"]})

    def once(name: str) -> int:
        path, headers = asked[name]
        if path.endswith("?look="):
            path += uuid.uuid4().hex
        return (phone if name.startswith("history") else client).get(path, headers=headers).status_code

    for name in asked:  # each once, to fill what is kept and check the answer
        status = once(name)
        assert status == (304 if name == "poll_unchanged" else 200), (name, status)
    listed = phone.get(asked["history"][0]).get_data(as_text=True).count('href="/games/')
    assert listed >= 50, f"the history lists {listed} games: is the phone's cookie sent?"
    if args.profile:
        profile = cProfile.Profile(time.process_time)
        profile.runcall(lambda: [once(args.profile) for _ in range(args.repeat)])
        stats = pstats.Stats(profile).strip_dirs()
        stats.sort_stats("tottime").print_stats(args.lines)
        stats.sort_stats("cumulative").print_stats(args.lines)
        if args.callees:
            stats.print_callees(args.callees)
        if args.callers:
            stats.print_callers(args.callers)
        return
    times: dict[str, list[float]] = {name: [] for name in asked}
    for _ in range(args.repeat):  # interleaved, so a busy moment of the machine falls on every read alike
        for name in asked:
            started = time.process_time()
            once(name)
            times[name].append((time.process_time() - started) * 1000)
    print(f"{'read':<16} {'median CPU ms':>14} {'p25':>7} {'p75':>7}  ({args.repeat} each)")
    for name, values in times.items():
        q = statistics.quantiles(values, n=4)
        print(f"{name:<16} {statistics.median(values):>14.3f} {q[0]:>7.3f} {q[2]:>7.3f}")


if __name__ == "__main__":
    main()
