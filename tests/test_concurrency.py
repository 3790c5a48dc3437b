"""Saves and reads at the same moment, against the app as it runs: the Procfile's web command (granian) with two
workers of four threads (so requests also race inside one process) on the test's database, an SQLite file or a
PostgreSQL schema.

Every append is stored, one after the other; nothing answers 5xx; every answer read during writes is one moment
of the game (its revision, hands and figures from the same commit). Rate limits are off: this is about races, not
about how fast one client may save.

The hands, worked out by hand from docs/rules.md (modern, played to 100,000 so no game ends here):
  hand(i): side 0 goes out with two mixed canastas and a Count of 0: 2 × 300 + 100 = 700.
           side 1 has no canasta and a Count of −5 × (i + 1): its total is that Count.
  So after the hands 0..n−1, whatever their order, side 0 has 700 × n and side 1 −5 × n(n + 1) / 2.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from scorepad import create_app, document
from scorepad.models import db

from . import databases
from .conftest import game_document

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent  # the venv's: granian, as the Procfile names it
TIMEOUT = 30.0  # seconds for any one request: far above a save, well under the test's bound


def hand(i: int) -> dict:
    return {"sides": [{"mixed_canastas": 2, "went_out": True, "count": 0}, {"count": -5 * (i + 1)}]}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """Scorepad under the Procfile's server on 127.0.0.1, and a small client for it."""

    def __init__(self, base: str):
        self.base = base

    def call(self, method: str, path: str, body=None, headers=None) -> tuple[int, dict, bytes]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=dict(headers or {}))
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
                return answer.status, dict(answer.headers), answer.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    def new_game(self) -> tuple[str, dict]:
        status, _, body = self.call("POST", "/api/games", game_document(target=100000))
        assert status == 201, body
        created = json.loads(body)
        return created["id"], {"Authorization": f"Bearer {created['edit_token']}"}

    def append(self, game_id: str, auth: dict, i: int, key: str | None = None) -> tuple[int, bytes]:
        headers = {**auth, **({"Idempotency-Key": key} if key else {})}
        status, _, body = self.call("POST", f"/api/games/{game_id}/hands", hand(i), headers)
        return status, body

    def document(self, game_id: str) -> dict:
        status, _, body = self.call("GET", f"/api/games/{game_id}")
        assert status == 200, body
        return json.loads(body)


@pytest.fixture(scope="module")
def database_uri(tmp_path_factory):
    """One fresh database for this file's tests (each plays its own games): the server starts once."""
    with databases.fresh_database(tmp_path_factory.mktemp("database")) as uri:
        yield uri


@pytest.fixture(scope="module")
def server(database_uri, tmp_path_factory):
    """The Procfile's web command (granian, as a host runs it), two workers of four threads, on a free port of
    127.0.0.1; stopped (by its pid) after the tests, and its log then holds no traceback (no request failed)."""
    tmp_path = tmp_path_factory.mktemp("server")
    app = create_app({"SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": database_uri})  # the schema, made once
    with app.app_context():
        db.engine.dispose()
    port = _free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database_uri,
        "SECRET_KEY": "test",
        "FLASK_RATELIMIT_ENABLED": "false",
        "PORT": str(port),
        "WEB_CONCURRENCY": "2",
        "WEB_THREADS": "4",
        "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
    }
    web = next(line[4:] for line in (ROOT / "Procfile").read_text().splitlines() if line.startswith("web:"))
    log = (tmp_path / "server.log").open("wb")
    process = subprocess.Popen(
        ["bash", "-c", "exec " + web.replace("0.0.0.0", "127.0.0.1")],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            assert process.poll() is None, (tmp_path / "server.log").read_text()
            try:
                with urllib.request.urlopen(base + "/", timeout=2):
                    break
            except (urllib.error.URLError, ConnectionError, OSError):
                assert time.monotonic() < deadline, "the server did not answer within 30 s"
                time.sleep(0.1)
        yield Server(base)
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        log.close()
        server_log = (tmp_path / "server.log").read_text(errors="replace")
        assert "Traceback" not in server_log, server_log[-6000:]


def rescored(doc: dict) -> dict:
    """The document the rules give for the same hands, worked out again from the entries alone."""
    return document.game_document(document.parse_document(doc))


def assert_one_moment(doc: dict) -> None:
    """A document read while hands are only appended: its figures are its hands' (worked out again), and its
    revision is the one those hands were stored at (a new game is revision 1, each hand adds one)."""
    assert doc["revision"] == len(doc["hands"]) + 1, (doc["revision"], len(doc["hands"]))
    again = rescored(doc)
    for key in ("totals", "min_count", "next_dealer", "status", "hands"):
        assert doc[key] == again[key], key


def test_fifty_appends_at_once_are_all_stored_one_after_the_other(server):
    game_id, auth = server.new_game()
    with ThreadPoolExecutor(max_workers=16) as pool:
        answers = list(pool.map(lambda i: server.append(game_id, auth, i), range(50)))

    assert [status for status, _ in answers] == [201] * 50, [(s, b[:300]) for s, b in answers if s != 201]
    doc = server.document(game_id)
    assert len(doc["hands"]) == 50
    # Each hand stored once: side 1's Counts are −5 × (i + 1) for i = 0..49, in some order.
    assert sorted(h["sides"][1]["count"] for h in doc["hands"]) == sorted(-5 * (i + 1) for i in range(50))
    assert doc["totals"] == [700 * 50, -5 * 50 * 51 // 2]  # 35,000 and −6,375
    assert_one_moment(doc)
    # Every answer was built from what its own save wrote: the hands up to and including its own.
    for _, body in answers:
        assert_one_moment(json.loads(body))


def test_rounds_of_two_appends_at_once_never_fail(server):
    game_id, auth = server.new_game()
    rounds = 30
    with ThreadPoolExecutor(max_workers=2) as pool:
        for r in range(rounds):
            answers = list(pool.map(lambda i: server.append(game_id, auth, i), (2 * r, 2 * r + 1)))
            assert [status for status, _ in answers] == [201, 201], answers
    doc = server.document(game_id)
    assert len(doc["hands"]) == 2 * rounds
    assert doc["totals"] == [700 * 60, -5 * 60 * 61 // 2]  # 42,000 and −9,150
    assert_one_moment(doc)


def _page_is_one_moment(html: str) -> None:
    """The scoresheet: its embedded document, its version, its rows and its totals all of one revision."""
    found = re.search(r'id="game-document"[^>]*data-version="(\d+)"[^>]*>(.*?)</script>', html, re.S)
    assert found, html[:2000]
    version, doc = int(found.group(1)), json.loads(found.group(2))
    assert version == doc["revision"]
    assert_one_moment(doc)
    rows = re.findall(r'<tr id="hand-(\d+)"', html)
    assert [int(n) for n in rows] == list(range(1, len(doc["hands"]) + 1))
    shown = re.findall(r'<span class="total-figure">([^<]*)</span>', html)
    assert shown == [f"{t:,}".replace("-", "\u2212") for t in doc["totals"]]


def _csv_is_one_moment(text: str) -> None:
    """The spreadsheet of hands (a heading row, then a row per hand and side): each side's running total is the sum
    of its hand totals so far, row after row, and the hands are numbered 1, 2, 3 ... with no gap: one revision."""
    rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    heading = rows[0]
    assert heading[0] == "Hand"
    running, total_index = heading.index("Running total"), heading.index("Hand total")
    hand_rows = [row for row in rows[1:] if row]
    numbers = sorted({int(row[0]) for row in hand_rows})
    assert numbers == list(range(1, len(numbers) + 1))
    for side in ("Us", "Them"):
        mine = [row for row in hand_rows if row[2] == side]
        assert len(mine) == len(numbers)
        so_far = 0
        for row in mine:
            so_far += int(row[total_index])
            assert int(row[running]) == so_far


def test_reads_while_hands_are_saved_are_each_one_moment_of_the_game(server):
    game_id, auth = server.new_game()
    writes = 40
    problems: list[str] = []

    def write(i: int) -> int:
        status, body = server.append(game_id, auth, i)
        return status

    def read(n: int) -> None:
        kinds = ("document", "page", "csv", "json")
        kind = kinds[n % len(kinds)]
        path = {
            "document": f"/api/games/{game_id}",
            "page": f"/games/{game_id}",
            "csv": f"/games/{game_id}/export.csv",
            "json": f"/games/{game_id}/export.json",
        }[kind]
        status, _, body = server.call("GET", path)
        if status != 200:
            problems.append(f"{kind}: {status} {body[:300]!r}")
            return
        try:
            if kind in ("document", "json"):
                assert_one_moment(json.loads(body))
            elif kind == "page":
                _page_is_one_moment(body.decode())
            else:
                _csv_is_one_moment(body.decode("utf-8"))
        except AssertionError as error:
            problems.append(f"{kind}: {error}")

    with ThreadPoolExecutor(max_workers=8) as pool:
        written = [pool.submit(write, i) for i in range(writes)]
        reads = [pool.submit(read, n) for n in range(120)]
        statuses = [future.result(timeout=120) for future in written]
        for future in reads:
            future.result(timeout=120)

    assert statuses == [201] * writes
    assert problems == []
    assert_one_moment(server.document(game_id))


def test_edits_deletes_and_appends_racing_never_fail_and_the_figures_stay_the_hands(server):
    game_id, auth = server.new_game()
    for i in range(6):
        assert server.append(game_id, auth, i)[0] == 201

    def change(n: int) -> tuple[int, bytes]:
        if n % 3 == 0:
            return server.append(game_id, auth, 100 + n)
        if n % 3 == 1:
            status, _, body = server.call("PUT", f"/api/games/{game_id}/hands/1", hand(40 + n), auth)
        else:
            status, _, body = server.call("DELETE", f"/api/games/{game_id}/hands/2", None, auth)
        return status, body

    def read(_: int) -> dict:
        return server.document(game_id)

    with ThreadPoolExecutor(max_workers=8) as pool:
        changes = [pool.submit(change, n) for n in range(36)]
        reads = [pool.submit(read, n) for n in range(36)]
        answers = [future.result(timeout=120) for future in changes]
        documents = [future.result(timeout=120) for future in reads]

    # A change racing another may be refused for the race (409: docs/api.md), never fail on the server; appends
    # (every third change) are all stored.
    statuses = [status for status, _ in answers]
    allowed = (200, 201, 404, 409)  # 404: the hand to delete was already gone
    assert all(status in allowed for status in statuses), [a for a in answers if a[0] not in allowed]
    assert [statuses[n] for n in range(0, 36, 3)] == [201] * 12
    for doc in documents:  # edits and deletes move the revision on without a hand more: figures against hands
        again = rescored(doc)
        assert (doc["totals"], doc["hands"]) == (again["totals"], again["hands"])
    final = server.document(game_id)
    again = rescored(final)
    assert (final["totals"], final["hands"]) == (again["totals"], again["hands"])


def test_the_same_idempotency_key_sent_at_once_stores_the_hand_once(server):
    game_id, auth = server.new_game()
    with ThreadPoolExecutor(max_workers=8) as pool:
        answers = list(pool.map(lambda _: server.append(game_id, auth, 0, key="once-only"), range(8)))
    assert [status for status, _ in answers] == [201] * 8, answers
    doc = server.document(game_id)
    assert len(doc["hands"]) == 1
    assert doc["totals"] == [700, -5]
