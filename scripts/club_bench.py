"""The club-night load (docs/performance.md, "A club night"): how many tables one 2-core server holds.

An event of T tables (2T pairs, a Mitchell movement, three hands of 125 / 155 / 180 as club nights play) is made
through the event API. Then scripts/club_load.mjs (Node, on the same two cores) plays the night: every table has its
scorekeeper saving a hand at a table's pace (one every 120 to 180 s, the first at a random moment) and three phones
on its scoreboard, and two wall screens show the standings; every phone and wall polls every 2 s with the ETag it
holds, as the pages do (a 304 while nothing changed). Once every phone has had its first answer and two more polls
have gone by, every answer is timed for `--seconds`. T grows step by step; a step holds when every kind of request
has its p95 under 50 ms and none failed. The largest T that holds is reported, on SQLite and on PostgreSQL, with the
CPU each side used: the load generator and the server (its processes, from /proc; not PostgreSQL's own).

    .venv/bin/python scripts/club_bench.py [--postgres URL] [--tables 50,100,...] [--seconds 30] [--two-servers]
                                           [--server procfile|gunicorn] [--threads N]

Run it through scripts/bench.sh --club, which installs what it needs (the load's undici through npm ci) and starts a
throw-away PostgreSQL. The server is the Procfile's web command (granian, two workers of two threads); --server
gunicorn runs gunicorn with two sync workers (--threads N: gthread), as the Procfile did before, to compare. With
--two-servers (PostgreSQL only) two gunicorn servers share one port (SO_REUSEPORT: the kernel spreads the
connections; granian has no such option), as several app servers on one database would: the answers and 304s stay
right across processes because every cached answer is checked against the database's revision.
"""

from __future__ import annotations

import argparse
import html
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
NODE = shutil.which("node") or "node"
BIN = Path(PYTHON).parent
sys.path.insert(0, str(ROOT / "scripts"))

from bench import SECRET, free_port, machine, pct  # noqa: E402

from scorepad.events.event import MOST_PAIRS  # noqa: E402

P95_LIMIT_MS = 50.0
WARM_UP_WALLS = 12  # wall answers asked before the measure (see make_event)
RULES = {"preset": "modern", "hands_per_game": 3, "minimum_counts_by_hand": [125, 155, 180]}


def event_document(tables: int) -> dict:
    pairs = [{"name": f"Pair {n + 1}", "players": [f"A{n}", f"B{n}"]} for n in range(2 * tables)]
    return {
        "format": "scorepad-event",
        "version": 1,
        "name": f"Club night of {tables} tables",
        "rules": RULES,
        "pairs": pairs,
        "movement": "mitchell",
        "rounds": 1,
        "round_minutes": None,
        "scoring": "match_points",
        "bye": "average",
    }


def make_event(host: str, tables: int, out: Path) -> None:
    """POST /api/events: the event and round 0's games, with each table's game id and edit token."""
    request = urllib.request.Request(
        host + "/api/events",
        data=json.dumps(event_document(tables)).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=600) as response:
        made = json.loads(response.read())
    games = [{"game": t["game"], "token": t["edit_token"]} for t in made["tables"]]
    with urllib.request.urlopen(made["links"]["standings"], timeout=60) as response:
        wall = response.read().decode()
    live = re.search(r'id="wall"[^>]*hx-get="([^"]+)"', wall)  # what the open wall screen asks every 2 s
    assert live, "the wall screen names no address to poll"
    # Each worker's first wall answer makes every row of it and compiles its templates and statements, once: made
    # here, before the measure (each request a new connection, so the kernel hands them to both workers).
    for _ in range(WARM_UP_WALLS):
        warm = urllib.request.Request(host + html.unescape(live.group(1)), headers={"HX-Request": "true"})
        urllib.request.urlopen(warm, timeout=60).close()
    out.write_text(json.dumps({"event": made["id"], "wall_poll": html.unescape(live.group(1)), "games": games}))


# --- The server ---------------------------------------------------------------------------------------


def start_servers(url: str, port: int, count: int, work: Path, label: str, args) -> list[subprocess.Popen]:
    env = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": SECRET, "FLASK_RATELIMIT_ENABLED": "false"}
    if args.server == "procfile":
        # The Procfile's web command as a host runs it: granian, two workers of WEB_THREADS threads (--threads).
        procfile = (ROOT / "Procfile").read_text()
        web = next(line[len("web:") :] for line in procfile.splitlines() if line.startswith("web:"))
        env.update(
            PORT=str(port), WEB_CONCURRENCY=str(args.workers), WEB_THREADS=str(args.threads), GRANIAN_BACKLOG="4096"
        )
        env["PATH"] = str(BIN) + os.pathsep + env.get("PATH", "")
        command = ["bash", "-c", "exec " + web.replace("0.0.0.0", "127.0.0.1")]
    else:
        # gunicorn, as the Procfile ran it before 27 November 2026: two sync workers; --threads N: gthread, to compare.
        # gthread keeps a connection 5 s (its default, 2 s, is shorter than the phones' gap between polls).
        threaded = ["-k", "gthread", "--threads", str(args.threads), "--keep-alive", "5"]
        workers = threaded if args.threads > 1 else ["-k", "sync"]
        command = [
            str(BIN / "gunicorn"),
            "-w",
            str(args.workers),
            *workers,
            "-b",
            f"127.0.0.1:{port}",
            "--backlog",
            "4096",
        ]
        if count > 1:
            command.append("--reuse-port")
        command.append("scorepad:create_app()")
    servers = [
        subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=open(work / f"{label}-server-{n}.log", "w"),  # noqa: SIM115 (open while it runs)
            start_new_session=True,
        )
        for n in range(count)
    ]
    for _ in range(300):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/offline").close()
            return servers
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"the server did not start: see {work}/{label}-server-*.log")


def server_cpu_seconds(servers: list[subprocess.Popen]) -> float:
    """CPU seconds used so far by each server's master and workers (from /proc)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for server in servers:
        for pid in [server.pid, *children(server.pid)]:
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def children(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def stop(servers: list[subprocess.Popen]) -> None:
    for server in servers:
        server.send_signal(signal.SIGTERM)
    for server in servers:
        server.wait(timeout=60)


def migrate(url: str) -> None:
    env = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": SECRET}
    subprocess.run([str(BIN / "flask"), "--app", "scorepad", "db", "upgrade"], cwd=ROOT, env=env, check=True)


def measured_server_cpu(load: subprocess.Popen, servers: list[subprocess.Popen]) -> float:
    """The cores the server used while the load measured (between its "measuring" and "measured" lines), once the
    load has ended well."""
    marks = {}
    assert load.stdout is not None
    for line in load.stdout:
        if line.strip() in ("measuring", "measured"):
            marks[line.strip()] = (server_cpu_seconds(servers), time.monotonic())
    if load.wait() != 0 or len(marks) != 2:
        raise SystemExit(f"the load ended badly (exit {load.returncode}, marks {sorted(marks)})")
    (cpu_before, began), (cpu_after, ended) = marks["measuring"], marks["measured"]
    return (cpu_after - cpu_before) / (ended - began)


def one_step(label: str, url: str, tables: int, args, work: Path) -> dict:
    """One event of `tables` tables on a fresh database, under load for args.seconds."""
    migrate(url)
    port = free_port()
    servers = start_servers(url, port, 2 if args.two_servers else 1, work, label, args)
    host = f"http://127.0.0.1:{port}"
    try:
        event_path = work / f"{label}-{tables}-event.json"
        started = time.monotonic()
        make_event(host, tables, event_path)
        made_in = time.monotonic() - started
        out = work / f"{label}-{tables}-load.json"
        load = [NODE, str(ROOT / "scripts" / "club_load.mjs"), host, str(event_path), str(args.seconds), str(out)]
        server_share = measured_server_cpu(subprocess.Popen(load, stdout=subprocess.PIPE, text=True), servers)
    finally:
        stop(servers)
    result = json.loads(out.read_text())
    result.update(tables=tables, made_in=made_in, server_cpu=server_share)
    return result


def fresh_url(label: str, base: str, tables: int, work: Path) -> str:
    if base.startswith("sqlite"):
        return f"sqlite:///{work / f'club-{tables}.sqlite'}"
    import psycopg

    name = f"club_{tables}_{uuid.uuid4().hex[:6]}"
    with psycopg.connect(base, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    return base.rsplit("/", 1)[0] + "/" + name


def holds(result: dict) -> bool:
    return not result["failures"] and all(pct(t, 95) < P95_LIMIT_MS for t in result["times"].values())


def cell(times: list[float] | None) -> str:
    return f"{pct(times, 95):.1f} ({pct(times, 50):.1f})" if times else "-"


def report(label: str, results: list[dict]) -> None:
    print(f"\n{label}: p95 ms of each kind of request (p50 in brackets); CPU in cores (2 in all)")
    names = sorted({name for r in results for name in r["times"]})
    print("| tables | phones | " + " | ".join(names) + " | failed | server CPU | load CPU | holds |")
    print("|---" * (len(names) + 6) + "|")
    for r in results:
        cells = [
            f"{pct(r['times'][n], 95):.1f} ({pct(r['times'][n], 50):.1f})" if n in r["times"] else "-" for n in names
        ]
        failed = sum(n for reasons in r["failures"].values() for n in reasons.values())
        print(
            f"| {r['tables']} | {4 * r['tables']} | " + " | ".join(cells) + f" | {failed} | {r['server_cpu']:.2f} | "
            f"{r['load_cpu']:.2f} | {'yes' if holds(r) else 'no'} |"
        )
    for r in results:
        if r["failures"]:
            print(f"Failed at {r['tables']} tables: {r['failures']}")
    held = [r["tables"] for r in results if holds(r)]
    print(f"Largest number of tables held: {max(held) if held else 'none of those tried'}")


def run_database(label: str, base: str, args, work: Path) -> list[dict]:
    results = []
    for tables in args.tables:
        print(f"=== {label}: {tables} tables ({4 * tables + 2} phones and walls) for {args.seconds:.0f} s", flush=True)
        result = one_step(label, fresh_url(label, base, tables, work), tables, args, work)
        results.append(result)
        p95 = ", ".join(f"{name} {cell(times)}" for name, times in sorted(result["times"].items()))
        print(
            f"    held: {holds(result)}; p95 ms (p50): {p95}; failed: {result['failures'] or 'none'}; CPU: server "
            f"{result['server_cpu']:.2f}, load {result['load_cpu']:.2f}; the event made in {result['made_in']:.1f} s",
            flush=True,  # each step as it ends: a later step that breaks loses nothing
        )
        if not holds(result) and len(results) > 1 and not holds(results[-2]):
            break  # two steps in a row over the limit: larger ones will not hold
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", help="a PostgreSQL server's database URL (postgresql://…) for a second run")
    parser.add_argument("--tables", default="25,50,100,200,300,500,750,1000")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--two-servers", action="store_true", help="two gunicorn servers on one port (PostgreSQL)")
    parser.add_argument("--only-postgres", action="store_true")
    parser.add_argument("--server", choices=("procfile", "gunicorn"), default="procfile", help="gunicorn: to compare")
    parser.add_argument("--workers", type=int, default=2, help="worker processes per server (2, as the Procfile)")
    parser.add_argument("--threads", type=int, help="threads per worker (Procfile: 2; gunicorn: 1, sync workers)")
    args = parser.parse_args()
    args.tables = [int(t) for t in args.tables.split(",")]
    if max(args.tables) > MOST_PAIRS // 2:
        parser.error(f"an event has at most {MOST_PAIRS:,} pairs: at most {MOST_PAIRS // 2:,} tables")
    if args.two_servers:
        args.server = "gunicorn"  # two servers on one port (SO_REUSEPORT): gunicorn's --reuse-port; granian has none
    if args.threads is None:
        args.threads = 2 if args.server == "procfile" else 1
    work = Path(tempfile.mkdtemp(prefix="scorepad-club."))
    try:
        workers = (
            f"{args.workers} workers of {args.threads} threads" if args.threads > 1 else f"{args.workers} sync workers"
        )
        server = "granian (the Procfile's)" if args.server == "procfile" else "gunicorn"
        print(f"Machine: {machine()}. {server}, {workers} per server; the load (Node) on the same machine.")
        if not args.only_postgres and not args.two_servers:
            report("SQLite", run_database("SQLite", "sqlite://", args, work))
        if args.postgres:
            label = "PostgreSQL, two servers on one port" if args.two_servers else "PostgreSQL"
            report(label, run_database("PostgreSQL", args.postgres, args, work))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
