"""The benchmark of docs/issue 10: Scorepad under the Procfile's server (granian, 2 workers of 2 threads; --server
gunicorn: gunicorn's 2 sync workers, as before 27 November 2026) on a database of 10,000 finished
games, driven by locust, each figure beside the static file's p50 taken in the same run, and the bytes a phone
fetches for a game page in Chromium. Run it through scripts/bench.sh (docs/performance.md), which installs
what it needs and starts a throw-away PostgreSQL server when it can.

    .venv/bin/python scripts/bench.py [--postgres URL] [--seconds 20] [--games 10000] [--server gunicorn]

Each step that must not share a process runs as its own: seeding (the app, in-process), the load (locust patches
the standard library with gevent), the browser (Playwright), the server.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
BIN = Path(PYTHON).parent
SECRET = "bench-secret-key"
DEVICE = "bench-device"  # the session's device key of the phone whose history is read
KEPT = 300  # games that phone keeps (the history page shows 50 at a time)

# Budgets of the issue: (what, limit, unit); a ratio is to the static file's p50 in the same run.
READS = [
    ("static file", "static"),
    ("unchanged scoreboard poll", "poll_unchanged"),
    ("changed scoreboard poll", "poll_changed"),
    ("game page, 10 hands", "page_10"),
    ("game page, 200 hands", "page_200"),
    ("game page, 10 hands, made afresh (first look after a change)", "page_10_fresh"),
    ("game page, 200 hands, made afresh", "page_200_fresh"),
    ("JSON GET", "json"),
    ("history page", "history"),
]
RATIO_BUDGET = {"poll_unchanged": 1.3, "page_10": 2.0, "page_200": 2.0, "json": 2.0, "history": 2.0}
SAVE_P95_BUDGET_MS = {"save_10": 25.0}
PAGE_200_OVER_10 = 1.5
FIRST_VISIT_KB = 45.0
JS_KB = 30.0


# --- Seeding: 10,000 finished games of about 25 hands, made by the rules, inserted in bulk ----------------


def hand_kinds():
    """The hands the seeded games are made of, as the API takes them: each is checked by the rules once."""
    kinds = []
    for out in (0, 1):
        for count_out, count_other in ((0, 45), (20, 50), (60, 95), (15, 120)):
            sides = [{}, {}]
            sides[out] = {"mixed_canastas": 2, "went_out": True, "count": count_out}
            sides[1 - out] = {"mixed_canastas": 1, "count": count_other}
            kinds.append({"sides": sides})
    # Low-scoring hands for the 200-hand game (it must not reach the target): 700 against −50.
    low = []
    for out in (0, 1):
        sides = [{}, {}]
        sides[out] = {"mixed_canastas": 2, "went_out": True, "count": 0}
        sides[1 - out] = {"count": -50}
        low.append({"sides": sides})
    return kinds, low


def seed(url: str, games: int, fixture: Path) -> None:
    """Fill an empty database through the app's own migrations and models, in bulk."""
    import hashlib
    import random
    from datetime import UTC, datetime, timedelta

    from scorepad import create_app, document, rules
    from scorepad.models import GameRecord, GameRight, HandRecord, db
    from scorepad.store import FIGURES_FORMAT, ROOM_CODE_LETTERS

    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://") :]  # the driver the app uses (scorepad.database_url)
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": SECRET})
    kinds, low = hand_kinds()
    game_rules = rules.make_rules("modern", target=12000)
    table = rules.Table(sides=(rules.Side("Us", ("Ann", "Cy")), rules.Side("Them", ("Bo", "Dot"))), first_dealer=0)
    for kind in kinds + low:  # every kind of hand passes the rules' checks once, at any place in a game
        document.check_hand(game_rules, table, kind, 0)
    parsed = [document.hand_from_json(k) for k in kinds]
    parsed_low = [document.hand_from_json(k) for k in low]
    random.seed(10)
    now = datetime.now(UTC)

    def room_code(n: int) -> str:
        letters = []
        for _ in range(6):
            n, r = divmod(n, len(ROOM_CODE_LETTERS))
            letters.append(ROOM_CODE_LETTERS[r])
        return "".join(letters)

    def make(n: int, game_rules, hands_json, hands, finished_wanted: bool):
        score = rules.score_game(game_rules, table, hands, check=False)
        assert score.finished == finished_wanted, (n, len(hands), score.totals)
        gid = f"bench{n:07d}"
        created = now - timedelta(minutes=games - n)
        game = {
            "id": gid,
            "edit_token_hash": hashlib.sha256(f"token-{gid}".encode()).hexdigest(),
            "rules": document.rules_json(game_rules),
            "sides": document.table_json(table)["sides"],
            "first_dealer": 0,
            "version": 1,
            "created_at": created,
            "updated_at": created,
            "room_code": room_code(n),
            "handover_generation": 0,
            "figures": {"format": FIGURES_FORMAT, **rules.score_json(score)},
            "figures_version": 1,
        }
        rows = [
            {"game_id": gid, "position": i, "sides": h["sides"], "created_at": created}
            for i, h in enumerate(hands_json)
        ]
        return game, rows

    started = time.monotonic()
    with app.app_context():
        games_table, hands_table = GameRecord.__table__, HandRecord.__table__
        batch_games, batch_hands, lengths = [], [], []
        for n in range(games):
            hands_json, hands, score = [], [], None
            while score is None or not score.finished:  # play until a side passes 12,000: about 25 hands
                k = random.randrange(len(kinds))
                hands_json.append(kinds[k])
                hands.append(parsed[k])
                score = (
                    rules.score_next_hand(game_rules, table, score, parsed[k])
                    if score
                    else rules.score_game(game_rules, table, hands, check=False)
                )
            lengths.append(len(hands))
            game, rows = make(n, game_rules, hands_json, hands, True)
            batch_games.append(game)
            batch_hands += rows
            if len(batch_games) == 1000:
                db.session.execute(games_table.insert(), batch_games)
                db.session.execute(hands_table.insert(), batch_hands)
                db.session.commit()
                batch_games, batch_hands = [], []
        # Two games in progress, read by the benchmark: 10 hands and 200 hands.
        endless = rules.make_rules("modern", target=100_000)
        special = {}
        for n, count in ((games, 10), (games + 1, 200)):
            hands_json = [low[i % 2] for i in range(count)]
            hands = [parsed_low[i % 2] for i in range(count)]
            game, rows = make(n, endless, hands_json, hands, False)
            batch_games.append(game)
            batch_hands += rows
            special[count] = game["id"]
        db.session.execute(games_table.insert(), batch_games)
        db.session.execute(hands_table.insert(), batch_hands)
        # The phone whose history is read keeps the newest KEPT games.
        device = hashlib.sha256(DEVICE.encode()).hexdigest()
        db.session.execute(
            GameRight.__table__.insert(),
            [
                {
                    "device_hash": device,
                    "game_id": f"bench{n:07d}",
                    "via": "created",
                    "label": "bench",
                    "created_at": now,
                    "last_used_at": now,
                    "game_created_at": now - timedelta(minutes=games - n),  # its game's, as make() set it
                    "game_version": 1,
                }
                for n in range(max(0, games - KEPT), games)
            ],
        )
        db.session.commit()
        with app.test_request_context():
            cookie = app.session_interface.get_signing_serializer(app).dumps({"device": DEVICE})
        if db.engine.dialect.name == "postgresql":
            # As after any bulk load (PostgreSQL's manual, "Populating a Database"): the planner's statistics and
            # the visibility map that index-only scans need, which autovacuum keeps on a database in use.
            with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
                connection.exec_driver_sql("VACUUM ANALYZE")
        db.engine.dispose()
    fixture.write_text(
        json.dumps(
            {
                "game_10": special[10],
                "game_200": special[200],
                "cookie_name": app.config["SESSION_COOKIE_NAME"],
                "cookie": cookie,
                "hands_per_game": statistics.mean(lengths),
                "seconds": round(time.monotonic() - started, 1),
            }
        )
    )


# --- The load: locust as a library, exact response times per request -----------------------------------


def load(host: str, fixture_path: Path, seconds: float, out: Path) -> None:
    """Three short runs: reads at c = 1 (the static file among them), saves at c = 1, saves at c = 10."""
    import uuid

    import gevent
    from locust import FastHttpUser, between, constant, events, task
    from locust.env import Environment

    fixture = json.loads(fixture_path.read_text())
    g10, g200 = fixture["game_10"], fixture["game_200"]
    times: dict[str, list[float]] = {}
    failures: dict[str, int] = {}

    @events.request.add_listener
    def record(name, response_time, exception, **kwargs):
        if exception is None:
            times.setdefault(name, []).append(response_time)
        else:
            failures[name] = failures.get(name, 0) + 1

    with urllib.request.urlopen(f"{host}/games/{g10}") as response:
        page = response.read().decode()
    css = page.split('href="/static/css/scorepad.css', 1)[1].split('"', 1)[0]
    static_url = "/static/css/scorepad.css" + css.replace("&amp;", "&")
    try:
        urllib.request.urlopen(f"{host}/games/{g10}/scoreboard/live").close()
        poll = f"/games/{g10}/scoreboard/live"
    except urllib.error.HTTPError:
        poll = f"/games/{g10}/scoreboard"  # no poll endpoint of its own: a conditional GET of the scoreboard
    with urllib.request.urlopen(f"{host}{poll}") as response:
        poll_tag = response.headers["ETag"]
    try:
        urllib.request.urlopen(f"{host}/history").close()
        history = "/history"
    except urllib.error.HTTPError:
        history = "/"
    gz = {"Accept-Encoding": "gzip"}
    cookie = {"Cookie": f"{fixture['cookie_name']}={fixture['cookie']}"}
    reads = [
        ("static", static_url, gz, 200),
        ("poll_unchanged", poll, {**gz, "If-None-Match": poll_tag}, 304),
        ("poll_changed", poll, {**gz, "If-None-Match": 'W/"0"'}, 200),
        ("page_10", f"/games/{g10}", gz, 200),
        ("page_200", f"/games/{g200}", gz, 200),
        ("json", f"/api/games/{g10}", gz, 200),
        ("history", history, {**gz, **cookie}, 200),
    ]

    # The game pages made afresh, as on the first look after a change: an address not seen before, each time.
    # A run of their own, so the work they leave behind (garbage to collect) does not fall on the reads above.
    fresh = [("page_10_fresh", f"/games/{g10}?look=", gz, 200), ("page_200_fresh", f"/games/{g200}?look=", gz, 200)]

    def reader(asked):
        class Reader(FastHttpUser):
            wait_time = constant(0)

            @task
            def cycle(self):
                for name, url, headers, status in asked:
                    if url.endswith("?look="):
                        url += uuid.uuid4().hex
                    with self.client.get(url, name=name, headers=headers, catch_response=True) as response:
                        if response.status_code != status:
                            response.failure(f"{response.status_code}")

        return Reader

    document = {
        "format": "scorepad-game",
        "version": 1,
        "rules": {"preset": "modern", "target": 100_000},
        "sides": [{"name": "Us", "players": ["Ann", "Cy"]}, {"name": "Them", "players": ["Bo", "Dot"]}],
        "first_dealer": 0,
        "hands": [],
    }
    hand = {"sides": [{"mixed_canastas": 2, "went_out": True, "count": 20}, {"mixed_canastas": 1, "count": 50}]}

    def saver(prefix: str, pause):
        class Scorekeeper(FastHttpUser):
            wait_time = pause

            def on_start(self):
                self.new_game()

            def new_game(self):
                body = self.client.post("/api/games", json=document, name="create").json()
                self.game, self.hands = body["id"], 0
                self.auth = {"Authorization": f"Bearer {body['edit_token']}", **gz}

            @task
            def save(self):
                if self.hands >= 25:  # a game's worth: a new game, as a table would
                    self.new_game()
                headers = {**self.auth, "Idempotency-Key": uuid.uuid4().hex}
                url = f"/api/games/{self.game}/hands"
                with self.client.post(url, json=hand, headers=headers, name=prefix, catch_response=True) as r:
                    if r.status_code != 201:
                        r.failure(f"{r.status_code}")
                self.hands += 1

        return Scorekeeper

    def run(user_class, users: int, duration: float):
        env = Environment(user_classes=[user_class], events=events, host=host)
        runner = env.create_local_runner()
        runner.start(users, spawn_rate=users)
        gevent.sleep(duration)
        runner.quit()

    run(reader(reads + fresh), 2, min(5.0, seconds / 2))  # warm up: templates compiled, connections open
    run(saver("warm_up", constant(0)), 2, 2.0)
    times.clear()
    failures.clear()
    run(reader(reads), 1, seconds)
    run(reader(fresh), 1, seconds / 2)
    run(saver("save_1", constant(0)), 1, seconds / 2)
    # Ten scorekeepers at once, each saving a hand, looking at the answer for a moment (0.2 to 1 s) and saving
    # the next: about 15 saves a second, where a real table saves a hand every two or three minutes.
    run(saver("save_10", between(0.2, 1.0)), 10, seconds)
    # For comparison, not a budget: ten saving back to back with no pause, as fast as two workers can take them.
    run(saver("save_10_flat_out", constant(0)), 10, seconds / 2)
    out.write_text(json.dumps({"times": times, "failures": failures, "poll": poll, "history": history}))


# --- First and repeat visit of a game page in Chromium: bytes on the wire, by kind ----------------------


class CountingRelay:
    """Between Chromium and gunicorn: every byte the server sends, counted on its way to the browser by the kind of
    answer (its Content-Type). Gunicorn's sync workers answer one request per connection, so each connection's
    bytes are one answer's, headers included. What the browser takes from its own cache never reaches it."""

    def __init__(self, target_port: int):
        import threading

        self.threading = threading
        self.target = ("127.0.0.1", target_port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.lock = threading.Lock()
        self.open = 0
        self.reset()
        threading.Thread(target=self.accept, daemon=True).start()

    def reset(self) -> None:
        with self.lock:
            self.kinds: dict[str, int] = {}
            self.answers: list[tuple[int, str, str, str]] = []  # bytes, kind, status line, request line

    def accept(self) -> None:
        while True:
            client, _ = self.listener.accept()
            self.threading.Thread(target=self.relay, args=(client,), daemon=True).start()

    def relay(self, client: socket.socket) -> None:
        with self.lock:
            self.open += 1
        try:
            server = socket.create_connection(self.target)
            asked: list[bytes] = []
            self.threading.Thread(target=self.upstream, args=(client, server, asked), daemon=True).start()
            sent, head = 0, b""
            while data := server.recv(65536):
                client.sendall(data)
                sent += len(data)
                if len(head) < 16384:
                    head += data
            client.shutdown(socket.SHUT_WR)
            if sent:
                lines = head.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
                headers = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
                request_line = b"".join(asked)[:200].split(b"\r\n", 1)[0].decode()
                kind = _kind_of_type(headers.get("Content-Type", ""))
                if "Content-Type" not in headers:  # a 304: the kind of what was asked for again
                    path = request_line.split(" ")[1] if " " in request_line else ""
                    kind = "js" if ".js" in path else "css" if ".css" in path else "document"
                with self.lock:
                    self.kinds[kind] = self.kinds.get(kind, 0) + sent
                    self.answers.append((sent, kind, lines[0], request_line))
        except OSError:
            pass
        finally:
            with self.lock:
                self.open -= 1
            client.close()

    @staticmethod
    def upstream(client: socket.socket, server: socket.socket, asked: list[bytes]) -> None:
        try:
            while data := client.recv(65536):
                if not asked:
                    # One answer per connection, so each is counted apart: the browser's request says "close"
                    # (a server that keeps connections open, as granian does, then ends it after the answer).
                    head, _, rest = data.partition(b"\r\n\r\n")
                    lines = [line for line in head.split(b"\r\n") if not line.lower().startswith(b"connection:")]
                    data = b"\r\n".join([*lines, b"Connection: close"]) + b"\r\n\r\n" + rest
                    asked.append(data)
                server.sendall(data)
            server.shutdown(socket.SHUT_WR)
        except OSError:
            pass

    def settled(self) -> dict:
        """The counts once every connection has ended (up to 5 s)."""
        for _ in range(50):
            with self.lock:
                if self.open == 0:
                    break
            time.sleep(0.1)
        with self.lock:
            paths = sorted({answer[3].split(" ")[1] for answer in self.answers if answer[3].count(" ") >= 2})
            return {**self.kinds, "requests": len(self.answers), "paths": paths}


def browser(host: str, fixture_path: Path, out: Path) -> None:
    """The game page opened on a phone with an empty cache, then opened again: the bytes counted on the wire by a
    relay between the browser and the server, the service worker's fetches included."""
    from playwright.sync_api import sync_playwright

    fixture = json.loads(fixture_path.read_text())
    relay = CountingRelay(int(host.rsplit(":", 1)[1]))
    url = f"http://127.0.0.1:{relay.port}/games/{fixture['game_10']}"
    visits = {}
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path="/usr/bin/chromium")
        context = chromium.new_context(viewport={"width": 390, "height": 844})
        page = context.new_page()
        for visit in ("first", "repeat"):
            relay.reset()
            page.goto(url, wait_until="load")
            page.evaluate("navigator.serviceWorker ? navigator.serviceWorker.ready.then(() => true) : true")
            page.wait_for_load_state("networkidle")
            if visit == "first":  # let the service worker finish keeping the app shell
                page.wait_for_timeout(1500)
            visits[visit] = relay.settled()
        context.close()
        chromium.close()
    out.write_text(json.dumps({"visits": visits, "page": f"/games/{fixture['game_10']}"}))


def _kind_of_type(content_type: str) -> str:
    mimetype = content_type.split(";", 1)[0].strip()
    return {"text/html": "document", "text/css": "css", "text/javascript": "js", "application/javascript": "js"}.get(
        mimetype, "other"
    )


def js_sizes() -> dict[str, int]:
    """Every script in static/js, brotli-compressed as WhiteNoise serves it."""
    import brotli

    return {p.name: len(brotli.compress(p.read_bytes(), quality=11)) for p in sorted((ROOT / "static/js").glob("*.js"))}


# --- Running it all -----------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def step(*args: str, env: dict | None = None) -> None:
    subprocess.run([PYTHON, __file__, *args], check=True, env={**os.environ, **(env or {})})


def bench_database(label: str, url: str, args, work: Path, with_browser: bool) -> dict:
    fixture = work / f"{label}-fixture.json"
    print(f"=== {label}: seeding {args.games:,} finished games", flush=True)
    step("seed", url, str(args.games), str(fixture))
    seeded = json.loads(fixture.read_text())
    print(f"    {seeded['hands_per_game']:.1f} hands per game on average, seeded in {seeded['seconds']} s", flush=True)
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "SECRET_KEY": SECRET,
        "FLASK_RATELIMIT_ENABLED": "false",  # the benchmark is one client asking as fast as it can
    }
    if args.server == "procfile":  # the Procfile's web command, as a host runs it (granian: 2 workers of 2 threads)
        web = next(line[4:] for line in (ROOT / "Procfile").read_text().splitlines() if line.startswith("web:"))
        env.update(PORT=str(port), PATH=str(BIN) + os.pathsep + env.get("PATH", ""))
        command = ["bash", "-c", "exec " + web.replace("0.0.0.0", "127.0.0.1")]
    else:  # gunicorn's 2 sync workers, as the Procfile ran the app before 27 November 2026, to compare
        command = [str(BIN / "gunicorn"), "-w", "2", "-k", "sync", "-b", f"127.0.0.1:{port}", "scorepad:create_app()"]
    server = subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=open(work / f"{label}-server.log", "w"),  # noqa: SIM115 (open while the server runs)
    )
    host = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(host + "/offline").close()
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise SystemExit(f"the server did not start: see {work / f'{label}-server.log'}")
        print(f"=== {label}: load ({args.seconds:.0f} s reads, {args.seconds / 2:.0f} s + {args.seconds:.0f} s saves)")
        step("load", host, str(fixture), str(args.seconds), str(work / f"{label}-load.json"))
        result = json.loads((work / f"{label}-load.json").read_text())
        if with_browser:
            print(f"=== {label}: first and repeat visit in Chromium", flush=True)
            step("browser", host, str(fixture), str(work / "browser.json"))
            seen = json.loads((work / "browser.json").read_text())
            result["browser"], result["page_path"] = seen["visits"], seen["page"]
        return result
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def table(results: dict[str, dict]) -> str:
    labels = list(results)
    lines = []
    head = "| what | " + " | ".join(f"{db} p50 ms | p95 ms | ×static | n" for db in labels) + " | budget |"
    lines += [head, "|---|" + "---|---|---|---|" * len(labels) + "---|"]
    verdicts = []

    def row(name: str, key: str, budget: str, ok) -> None:
        cells = []
        for db in labels:
            t = results[db]["times"].get(key, [])
            static = statistics.median(results[db]["times"]["static"])
            if not t:
                cells.append("– | – | – | 0")
                continue
            p50, p95 = statistics.median(t), pct(t, 95)
            cells.append(f"{p50:.1f} | {p95:.1f} | {p50 / static:.2f} | {len(t)}")
        verdict = "" if ok is None else (" **pass**" if all(ok(results[db]) for db in labels) else " **FAIL**")
        lines.append(f"| {name} | " + " | ".join(cells) + f" | {budget}{verdict} |")

    def ratio(key):
        return lambda r: statistics.median(r["times"][key]) / statistics.median(r["times"]["static"])

    for name, key in READS:
        if key in RATIO_BUDGET:
            limit = RATIO_BUDGET[key]
            row(name, key, f"≤ {limit}× static", lambda r, k=key, lim=limit: ratio(k)(r) <= lim)
        else:
            row(name, key, "", None)

    def growth(r):
        return statistics.median(r["times"]["page_200"]) / statistics.median(r["times"]["page_10"])

    row(
        "200-hand page ÷ 10-hand page",
        "page_200",
        f"≤ {PAGE_200_OVER_10}×: " + ", ".join(f"{db} {growth(results[db]):.2f}×" for db in labels),
        lambda r: growth(r) <= PAGE_200_OVER_10,
    )
    row("hand save (API), 1 scorekeeper", "save_1", "", None)
    row(
        "hand save (API), 10 scorekeepers at once (each pausing 0.2–1 s)",
        "save_10",
        f"p95 < {SAVE_P95_BUDGET_MS['save_10']:.0f} ms",
        lambda r: pct(r["times"]["save_10"], 95) < SAVE_P95_BUDGET_MS["save_10"],
    )
    row("hand save (API), 10 saving back to back (no pause: the workers' limit)", "save_10_flat_out", "", None)
    del verdicts
    return "\n".join(lines)


def bytes_table(visits: dict, js: dict[str, int], page_path: str) -> str:
    lines = ["| visit | document | css | js | other | total on the wire | budget |", "|---|---|---|---|---|---|---|"]
    for visit, kinds in visits.items():
        total = sum(v for k, v in kinds.items() if k not in ("requests", "paths"))

        def kb(key, kinds=kinds):
            return f"{kinds.get(key, 0) / 1024:.1f} KB"

        page_seen = page_path in kinds.get("paths", [])  # no answer counted is a relay that saw nothing, not a pass
        if visit == "first":
            fits = page_seen and total / 1024 <= FIRST_VISIT_KB
            budget = f"≤ {FIRST_VISIT_KB:.0f} KB: " + ("**pass**" if fits else "**FAIL**")
        else:
            others = [path for path in kinds.get("paths", []) if path != page_path]
            failed = f"**FAIL** (also {', '.join(others)})" if others else "**FAIL** (the page not seen)"
            budget = "only the page: " + ("**pass**" if page_seen and not others else failed)
        lines.append(
            f"| {visit} | {kb('document')} | {kb('css')} | {kb('js')} | {kb('other')} | {total / 1024:.1f} KB"
            f" ({kinds.get('requests', 0)} answers) | {budget} |"
        )
    total_js = sum(js.values())
    lines.append("")
    lines.append(
        "All JavaScript in static/js, brotli as served: "
        + ", ".join(f"{name} {size / 1024:.1f} KB" for name, size in js.items())
        + f"; total {total_js / 1024:.1f} KB (budget ≤ {JS_KB:.0f} KB: "
        + ("**pass**" if total_js / 1024 <= JS_KB else "**FAIL**")
        + ")"
    )
    return "\n".join(lines)


def machine() -> str:
    model = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if "model name" in line
        ),
        "unknown CPU",
    )
    usable = subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip()
    return f"{os.cpu_count()} cores ({usable} usable), {model}"


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] in ("seed", "load", "browser"):
        kind, rest = sys.argv[1], sys.argv[2:]
        if kind == "seed":
            seed(rest[0], int(rest[1]), Path(rest[2]))
        elif kind == "load":
            load(rest[0], Path(rest[1]), float(rest[2]), Path(rest[3]))
        else:
            browser(rest[0], Path(rest[1]), Path(rest[2]))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", help="an empty PostgreSQL database (postgresql://…) for a second run")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of the read run and the c = 10 run")
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument(
        "--server", choices=("procfile", "gunicorn"), default="procfile", help="the Procfile's (granian) or gunicorn"
    )
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="scorepad-bench."))
    try:
        results = {"SQLite": bench_database("SQLite", f"sqlite:///{work / 'bench.sqlite'}", args, work, True)}
        if args.postgres:
            results["PostgreSQL"] = bench_database("PostgreSQL", args.postgres, args, work, False)
        print()
        server = (
            "granian (the Procfile's), 2 workers of 2 threads"
            if args.server == "procfile"
            else "gunicorn, 2 sync workers"
        )
        print(f"Machine: {machine()}. Server: {server}; locust on the same machine.")
        print(f"Scoreboard poll: {results['SQLite']['poll']}; history page: {results['SQLite']['history']}.")
        print()
        print(table(results))
        print()
        print(bytes_table(results["SQLite"]["browser"], js_sizes(), results["SQLite"]["page_path"]))
        failures = {db: r["failures"] for db, r in results.items() if r["failures"]}
        if failures:
            print(f"\nFailed requests: {failures}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
