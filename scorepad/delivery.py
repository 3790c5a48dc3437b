"""Sending less: static files pre-compressed and kept for good, pages and JSON compressed, and a game's
revision as the ETag of what is made from it, so an unchanged game is answered 304 without scoring it."""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import os
import re
import shutil
import sqlite3
import tempfile
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from pathlib import Path
from types import TracebackType
from typing import Any, Generic, TypeVar
from urllib.parse import parse_qs
from wsgiref.types import StartResponse, WSGIApplication, WSGIEnvironment

import brotli
from flask import Flask, Response, current_app, request, session
from flask_babel import get_locale
from flask_compress import Compress
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.pool import ConnectionPoolEntry, Pool, PoolProxiedConnection
from werkzeug.datastructures import ETags
from werkzeug.http import parse_cookie, parse_etags, unquote_etag
from whitenoise import WhiteNoise
from whitenoise.compress import Compressor

compress = Compress()

# What Flask-Compress compresses (pages, fragments, JSON, CSV, the service worker and the manifest):
# brotli where the browser takes it (every current one does), else gzip.
COMPRESS_CONFIG = {
    "COMPRESS_ALGORITHM": ["br", "gzip"],
    "COMPRESS_BR_LEVEL": 5,  # about 1 ms for a 20 KB page; higher levels cost more than they save per request
    "COMPRESS_LEVEL": 6,
    "COMPRESS_MIN_SIZE": 500,  # below one packet, compressing saves nothing
    "COMPRESS_MIMETYPES": [
        "text/html",
        "text/css",
        "text/csv",
        "text/javascript",
        "application/javascript",
        "application/json",
        "application/manifest+json",
        "image/svg+xml",
    ],
}

# Cache-Control of a static file asked for without its current content hash (?v=): the browser asks again each
# time (a 304 when unchanged), so a deploy is never paired with an old copy.
UNVERSIONED = "no-cache"


# What a WSGI start_response is given besides status and headers, and what it gives back (PEP 3333): for the
# middleware's own start_response.
ExcInfo = tuple[type[BaseException], BaseException, TracebackType] | tuple[None, None, None]
Writer = Callable[[bytes], object]


class StaticFiles(WhiteNoise):
    """WhiteNoise for static/: each file read and compressed (brotli and gzip) once at start, served
    `immutable` when the URL carries its current content hash (url_for adds ?v=<hash>), else `no-cache`."""

    def __init__(self, application: WSGIApplication, root: Path, prefix: str, versions: dict[str, str]) -> None:
        self.versions = versions
        self.prefix = "/" + prefix.strip("/") + "/"
        super().__init__(application, root=str(root), prefix=prefix, immutable_file_test=lambda path, url: True)

    def serve(self, static_file: Any, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        """Serve as WhiteNoise does, but a URL without the file's current ?v= is not kept for good."""
        path = environ.get("PATH_INFO", "")[len(self.prefix) :]
        asked = parse_qs(environ.get("QUERY_STRING", "")).get("v", [None])[0]
        if asked is not None and asked == self.versions.get(path):
            return super().serve(static_file, environ, start_response)

        def revalidate(status: str, headers: list[tuple[str, str]], exc_info: ExcInfo | None = None) -> Writer:
            headers = [(k, UNVERSIONED if k.lower() == "cache-control" else v) for k, v in headers]
            return start_response(status, headers, exc_info)

        return super().serve(static_file, environ, revalidate)


def compressed_copy(static_folder: Path, versions: dict[str, str], instance_path: str) -> Path:
    """A copy of static/ with a .br and a .gz beside each text file, made once per content (several workers
    starting at once each build their own and the first to finish is used by all)."""
    digest = hashlib.sha256("".join(f"{k}={v};" for k, v in sorted(versions.items())).encode()).hexdigest()[:12]
    parent = Path(instance_path) / "static-compressed"
    target = parent / digest
    if target.is_dir():
        return target
    parent.mkdir(parents=True, exist_ok=True)
    draft = Path(tempfile.mkdtemp(prefix=f".{digest}.", dir=parent))
    try:
        shutil.copytree(static_folder, draft, dirs_exist_ok=True)
        compressor = Compressor(quiet=True)
        for name in versions:
            if compressor.should_compress(name):
                for _ in compressor.compress(str(draft / name)):
                    pass
        os.rename(draft, target)
    except OSError:
        if not target.is_dir():  # not another worker's win: a real failure
            raise
    finally:
        shutil.rmtree(draft, ignore_errors=True)
    return target


# SQLite's wait for the write lock polls (every 100 ms once it has waited a while) while newcomers poll sooner: under
# a burst of saves one writer may wait several times the burst's work. Far above a save; under gunicorn's timeout.
SQLITE_BUSY_SECONDS = 25


def quick_sqlite_commits(dbapi_connection: DBAPIConnection, connection_record: ConnectionPoolEntry) -> None:
    """SQLite only: write-ahead logging, so a commit appends to the log without waiting for the disk twice
    (synchronous=NORMAL: safe against a crash of the app; a power cut may lose the last commits, never the
    file), and readers never wait for a writer. Without it a saved hand waited ~30 ms on the disk. A writer waits
    up to SQLITE_BUSY_SECONDS for the one before it (store._lock): saves at the same moment queue, never fail."""
    if isinstance(dbapi_connection, sqlite3.Connection):
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_SECONDS * 1000}")
        cursor.close()


# A pooled connection that sat unused this long is checked (a round trip) before it is handed out again; one in
# steady use is not. SQLAlchemy's pool_pre_ping checks every time, which on PostgreSQL is a round trip on every
# request; a server restarted within this time costs the requests that meet a dead connection (it is then
# thrown away, with the rest of the pool) instead.
PING_AFTER_IDLE_SECONDS = 10.0


def ping_if_idle(
    dbapi_connection: DBAPIConnection, connection_record: ConnectionPoolEntry, connection_proxy: PoolProxiedConnection
) -> None:
    """A pool checkout: check a connection that was idle for PING_AFTER_IDLE_SECONDS; if it is dead, the pool
    discards it and opens another (DisconnectionError, SQLAlchemy's recipe for custom pessimistic checks)."""
    returned = connection_record.info.get("scorepad_returned_at")
    if returned is None or time.monotonic() - returned < PING_AFTER_IDLE_SECONDS:
        return
    try:
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute("SELECT 1")
            cursor.fetchall()
        finally:
            with contextlib.suppress(Exception):  # a dead connection's cursor may fail to close: it is discarded
                cursor.close()
        # Out of the transaction the ping opened (psycopg opens one), so the connection can be put in autocommit.
        dbapi_connection.rollback()
    except Exception as error:  # whatever the driver raises for a dead connection
        raise DisconnectionError() from error


def note_return(dbapi_connection: DBAPIConnection, connection_record: ConnectionPoolEntry) -> None:
    connection_record.info["scorepad_returned_at"] = time.monotonic()


def init_app(app: Flask) -> None:
    """Compress dynamic answers and serve static/ through WhiteNoise (call after STATIC_VERSIONS is set)."""
    if not event.contains(Engine, "connect", quick_sqlite_commits):
        event.listen(Engine, "connect", quick_sqlite_commits)
    if not event.contains(Pool, "checkout", ping_if_idle):
        event.listen(Pool, "checkout", ping_if_idle)
        event.listen(Pool, "checkin", note_return)
    for key, value in COMPRESS_CONFIG.items():
        app.config.setdefault(key, value)
    compress.init_app(app)
    app.extensions["scorepad_made_once"] = MadeOnce[Kept](app.config.get("MADE_ONCE_SIZE", 256))
    versions = app.config["STATIC_VERSIONS"]
    static, static_url, templates = app.static_folder, app.static_url_path, app.template_folder
    if static is None or static_url is None or templates is None:  # create_app always gives both folders
        raise RuntimeError("Scorepad's app needs its static and templates folders")
    app.config["BUILD_ID"] = build_id(versions, Path(templates))
    root = compressed_copy(Path(static), versions, app.instance_path)
    app.wsgi_app = StaticFiles(RevisionGate(app.wsgi_app, app), root, static_url, versions)  # type: ignore[method-assign]


# More answers RevisionGate gives 304 before Flask, added by a blueprint (events_web: the wall screen's poll): each an
# address (a compiled pattern, matched in full) and what gives the ETag of the answer it would make now for this
# request, from the match, the request's environ and the engine (None: no such thing, the app answers).
REVISION_GATES = "scorepad_revision_gates"
Gate = tuple[re.Pattern[str], Callable[[re.Match[str], WSGIEnvironment, Engine], str | None]]


class RevisionGate:
    """WSGI middleware for what is asked most, answered before Flask builds a request, opens the session or runs a
    hook:

    - what an open scoreboard asks every few seconds (share.scoreboard_live): while the game is at the revision
      the scoreboard shows, the 304 is answered here from one query of the revision. The same for the addresses a
      blueprint adds (app.extensions[REVISION_GATES]: the wall screen's poll);
    - a look from a phone that holds no right (no session cookie: a watcher, a player who scanned the table's
      code) at a game's page, scoreboard or JSON document already made for that revision: the same answer again,
      from one query of the revision (Anyone).

    Anything else, a changed game included, goes on to the app, which answers the same way when it gets there."""

    LIVE = re.compile(r"/games/([^/]+)/scoreboard/live")

    def __init__(self, application: WSGIApplication, app: Flask) -> None:
        self.application = application
        self.app = app
        self.engine: Engine | None = None
        self.anyone = Anyone(app)

    def the_engine(self) -> Engine:
        from .models import db

        if self.engine is None:
            with self.app.app_context():
                self.engine = db.engine
        return self.engine

    def seen(self, game_id: str, environ: WSGIEnvironment) -> Any:
        """The game's revision and rematch (store.scoreboard_revision), read once per request, or None for no such
        game."""
        from . import store

        known = environ.get(_SEEN)
        if known is None or known[0] != game_id:
            known = environ[_SEEN] = (game_id, store.scoreboard_revision(game_id, self.the_engine()))
        return known[1]

    def revision(self, game_id: str, environ: WSGIEnvironment) -> str | None:
        """The live tag of what the game's scoreboard shows (live_tag), or None for no such game."""
        seen = self.seen(game_id, environ)
        return None if seen is None else live_tag(seen.version, seen.rematch_id)

    def tag_now(self, path: str, environ: WSGIEnvironment) -> str | None:
        """The tag of the answer this address would get now, if it is one answered here (else None)."""
        live = self.LIVE.fullmatch(path)
        if live is not None:
            return self.revision(live[1], environ)
        gate: Gate
        for gate in self.app.extensions.get(REVISION_GATES, ()):
            found = gate[0].fullmatch(path)
            if found is not None:
                return gate[1](found, environ, self.the_engine())
        return None

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        asked = environ.get("HTTP_IF_NONE_MATCH")
        if asked and environ.get("REQUEST_METHOD") in ("GET", "HEAD"):
            tag = self.tag_now(environ.get("PATH_INFO", ""), environ)
            if tag is not None and parse_etags(asked).contains_weak(tag):
                start_response("304 Not Modified", live_not_modified_headers(tag))
                return []
        key = self.anyone.key(environ)
        if key is None:
            return self.application(environ, start_response)
        kept = self.anyone.answers.get(key)
        if kept is not None:
            if not kept.current(self, environ):
                self.anyone.answers.forget(key)
            elif not asked:
                start_response(kept.status, kept.headers)
                return [kept.body]
            elif kept.names_this(asked):
                start_response("304 Not Modified", kept.not_modified_headers())
                return []
            elif kept.other_tags:  # a copy older than this answer's: this answer
                start_response(kept.status, kept.headers)
                return [kept.body]
            # Else the app reads the tag (the API takes `7:br` for its `7:gzip`).
        caught = _Caught(start_response)
        return self.anyone.keep(key, self.application(environ, caught), caught, environ)


# --- Answers for anyone, before Flask -------------------------------------------------------------------------

# A game's revision as RevisionGate read it for this request: (game id, store.scoreboard_revision's row or None).
_SEEN = "scorepad.seen"
# Set by a view (for_anyone) on an answer that is the same for every phone holding no right to the game.
FOR_ANYONE = "scorepad.for_anyone"
# Set by a view (for_this_phone) on an answer made for one phone's session, and the checks such an answer names:
# app.extensions[PHONE_CHECKS][name](engine, *args) gives what the answer was made from, in one query.
FOR_THIS_PHONE = "scorepad.for_this_phone"
PHONE_CHECKS = "scorepad_phone_checks"
# The request headers a kept answer may vary by (its Vary names no other): each is part of its key, the cookie as sent
# among them (the language's alone for an answer for anyone; the session's too for one for this phone).
_ANYONE_HEADERS = (
    "HTTP_COOKIE",
    "HTTP_ACCEPT_ENCODING",
    "HTTP_ACCEPT_LANGUAGE",
    "HTTP_HX_REQUEST",
    "HTTP_HX_TARGET",
    "HTTP_HX_BOOSTED",
    "HTTP_HX_HISTORY_RESTORE_REQUEST",
)
_ANYONE_VARY = frozenset(name[5:].replace("_", "-").lower() for name in _ANYONE_HEADERS)
# What a 304 for such an answer repeats of its 200 (RFC 9110 §15.4.5).
_NOT_MODIFIED_HEADERS = frozenset({"etag", "cache-control", "vary", "content-language"})
# Any rematch: the answer does not show whether one has started (the game's page and JSON document).
ANY_REMATCH = "*"


def for_anyone(game_id: str, version: int, rematch_id: str | None = ANY_REMATCH, other_tags: bool = True) -> None:
    """Mark this answer as made from this revision of the game (its version, and its rematch where it shows it),
    and the same for any phone that holds no right to the game and asks the same way: RevisionGate keeps it and
    gives it again, before Flask, while the game is at that revision. Only a plain 200 asked with no session
    cookie and no Authorization, and kept by nothing else (no cookie set, no no-store), is kept. If-None-Match
    naming its ETag is answered 304; naming another, with this answer, unless `other_tags` is False (the API,
    which reads a tag its own way: the app answers)."""
    request.environ[FOR_ANYONE] = (game_id, version, rematch_id, other_tags)


def for_this_phone(check: str, args: tuple, seen: object, until: float) -> None:
    """Mark this answer as made for this phone's session from what the check `check` gives for `args` now (`seen`):
    RevisionGate keeps it under the request's cookie as sent (with the rest of its key, as for_anyone's), and gives
    it again, before Flask, to a look with the very same cookie while the check gives the same, until `until` (when
    Flask would sign the session's cookie again, security.REFRESH_AFTER). Another cookie, even another session's of
    the same phone, never finds it."""
    request.environ[FOR_THIS_PHONE] = (check, args, seen, until)


class _Caught:
    """A start_response that notes the status and headers the app answers with."""

    def __init__(self, start_response: StartResponse) -> None:
        self.start_response = start_response
        self.status = ""
        self.headers: list[tuple[str, str]] = []

    def __call__(self, status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
        self.status, self.headers = status, headers
        return self.start_response(status, headers, exc_info)


class KeptAnswer:
    """An answer RevisionGate keeps and gives again: its status, headers and body as Flask sent them (the security
    headers are added outside, on every answer). What makes it current is each kind's own (`current`)."""

    other_tags = True  # If-None-Match naming another ETag gets this answer (AnswerForAnyone may say otherwise)

    def __init__(self, status: str, headers: list[tuple[str, str]], body: bytes):
        self.status, self.headers, self.body = status, headers, body
        etag = next((value for name, value in headers if name.lower() == "etag"), None)
        self.etag = None if etag is None else unquote_etag(etag)[0]

    def current(self, gate: RevisionGate, environ: WSGIEnvironment) -> bool:
        raise NotImplementedError

    def names_this(self, asked: str) -> bool:
        """Whether If-None-Match names this answer's ETag (weakly, as a page's 304 is given)."""
        return self.etag is not None and parse_etags(asked).contains_weak(self.etag)

    def not_modified_headers(self) -> list[tuple[str, str]]:
        return [(name, value) for name, value in self.headers if name.lower() in _NOT_MODIFIED_HEADERS]


class AnswerForAnyone(KeptAnswer):
    """One kept answer for anyone (for_anyone): current while the game is at the revision it was made from."""

    def __init__(
        self, marked: tuple[str, int, str | None, bool], status: str, headers: list[tuple[str, str]], body: bytes
    ):
        super().__init__(status, headers, body)
        self.game_id, self.version, self.rematch_id, self.other_tags = marked

    def current(self, gate: RevisionGate, environ: WSGIEnvironment) -> bool:
        """Whether the game is still at the revision this answer shows (store.scoreboard_revision's row)."""
        seen = gate.seen(self.game_id, environ)
        return seen is not None and seen.version == self.version and self.rematch_id in (ANY_REMATCH, seen.rematch_id)


class AnswerForPhone(KeptAnswer):
    """One kept answer for one phone's session (for_this_phone): current while its check gives what it was made
    from, until the session's cookie is due to be signed again."""

    def __init__(
        self, marked: tuple[str, tuple, object, float], status: str, headers: list[tuple[str, str]], body: bytes
    ):
        super().__init__(status, headers, body)
        self.check, self.args, self.made_from, self.until = marked

    def current(self, gate: RevisionGate, environ: WSGIEnvironment) -> bool:
        check = gate.app.extensions.get(PHONE_CHECKS, {}).get(self.check)
        return check is not None and time.time() < self.until and check(gate.the_engine(), *self.args) == self.made_from


class Anyone:
    """RevisionGate's answers for anyone: which requests may get one (key), and keeping those the app marked."""

    def __init__(self, app: Flask) -> None:
        self.answers = MadeOnce[KeptAnswer](app.config.get("MADE_ONCE_SIZE", 256))
        # Cookies that only choose the language (web.LANGUAGE_COOKIE): a look carrying no other holds no right.
        self.plain_cookies = frozenset(app.config.get("PLAIN_COOKIES", ()))

    def key(self, environ: WSGIEnvironment) -> tuple | None:
        """What a request's kept answer is kept under (the cookie as sent among it), or None if this request may not
        have one: anything but a GET of a game's or the history's addresses, Authorization, an offline copy asked."""
        if (
            environ.get("REQUEST_METHOD") != "GET"
            or "HTTP_AUTHORIZATION" in environ
            or "HTTP_SCOREPAD_KEEP" in environ
            or not environ.get("PATH_INFO", "").startswith(("/games/", "/api/games/", "/history"))
        ):
            return None
        return (
            environ.get("wsgi.url_scheme"),
            environ.get("HTTP_HOST"),
            environ.get("SERVER_NAME"),
            environ.get("SERVER_PORT"),
            environ.get("SCRIPT_NAME"),
            environ.get("PATH_INFO"),
            environ.get("QUERY_STRING"),
            *(environ.get(name) for name in _ANYONE_HEADERS),
        )

    def keep(self, key: tuple, answer: Iterable[bytes], caught: _Caught, environ: WSGIEnvironment) -> Iterable[bytes]:
        """The app's answer, passed on; kept too if a view marked it, for anyone (and it was asked with no session
        cookie: at most the language's) or for this phone (asked with one), and it may be kept."""
        cookie = environ.get("HTTP_COOKIE")
        plain = not cookie or set(parse_cookie(cookie)) <= self.plain_cookies
        marked, phone = environ.get(FOR_ANYONE), environ.get(FOR_THIS_PHONE)
        make: Callable[..., KeptAnswer] | None = (
            AnswerForAnyone if plain and marked else AnswerForPhone if not plain and phone else None
        )
        if make is None or not caught.status.startswith("200") or not _keepable(caught.headers):
            return answer
        try:
            body = b"".join(answer)
        finally:
            close = getattr(answer, "close", None)
            if close is not None:
                close()
        self.answers.put(key, make(marked if plain else phone, caught.status, list(caught.headers), body))
        return [body]


def _keepable(headers: list[tuple[str, str]]) -> bool:
    """Whether an answer may be given again to anyone asking the same way: it sets no cookie, is not no-store, and
    varies by no request header outside the key."""
    for name, value in headers:
        lowered = name.lower()
        if lowered == "set-cookie" or (lowered == "cache-control" and "no-store" in value):
            return False
        if lowered == "vary" and not {v.strip().lower() for v in value.split(",")} <= _ANYONE_VARY:
            return False
    return True


def live_tag(version: int, rematch_id: str | None) -> str:
    """The ETag of what an open scoreboard shows: the game's revision, and once a rematch has started, the
    rematch's id after it (`7-<id>`): starting a rematch changes what a finished game's scoreboard shows (the
    way to the next game) but not the game's revision or its kept figures."""
    return str(version) if rematch_id is None else f"{version}-{rematch_id}"


def live_not_modified_headers(tag: str) -> list[tuple[str, str]]:
    """The headers of a live fragment's 304 (share.scoreboard_live, events_web.wall_live), wherever it is answered:
    how it may be kept, as its 200 says (tagged), since a 304 replaces the headers a browser keeps with the answer."""
    return [
        ("ETag", f'W/"{tag}"'),
        ("Cache-Control", "no-cache, private"),
        ("Vary", "Accept-Encoding, Accept-Language, Cookie"),
    ]


# --- ETags from a game's revision ------------------------------------------------------------------


def build_id(static_versions: dict[str, str], templates: Path) -> str:
    """A short hash of what makes a page besides its game: static files, templates and the kept figures' format.
    Every page's ETag carries it, so a new deploy is never answered 304 with a page the old one made."""
    from .store import FIGURES_FORMAT

    digest = hashlib.sha256(repr((sorted(static_versions.items()), FIGURES_FORMAT)).encode())
    for path in sorted(templates.rglob("*")):
        if path.is_file():
            digest.update(path.as_posix().encode() + path.read_bytes())
    return digest.hexdigest()[:8]


# What a page's answer depends on besides its address and the game's revision: htmx's headers (page or
# fragment, web.render), the session cookie (whether this phone may change the game) and the language (the one
# chosen on the phone, a cookie too, else the phone's own: Accept-Language).
PAGE_VARY = ("HX-Request", "HX-Target", "HX-Boosted", "HX-History-Restore-Request", "Cookie", "Accept-Language")


def language() -> str:
    """The language this request is answered in (web.pick_language chose it): part of every kept answer's key."""
    return str(get_locale())


def page_tag(version: int, *variant: object) -> str | None:
    """The weak ETag of a page made from this revision of a game for one variant of it (editable or not, and
    whatever else the page shows that is not the game's), or None for a page that must not be reused: one
    with a message shown once."""
    if session.get("_flashes"):
        return None
    fragment = bool(request.headers.get("HX-Request")) and not request.headers.get("HX-Boosted")
    key = (current_app.config["BUILD_ID"], language(), fragment, request.headers.get("HX-Target"), *variant)
    return f"{version}-{hashlib.sha256(repr(key).encode()).hexdigest()[:12]}"


def unchanged(tag: str) -> bool:
    """Whether the request's If-None-Match already names this tag."""
    return request.if_none_match.contains_weak(tag)


def revision_match(version: int) -> str | None:
    """The tag in If-None-Match naming this revision of a game, as the API's ETag gives it: the revision, with
    the suffix compression adds to a strong ETag (`3`, `3:br`, `3:gzip`); None if there is none."""
    for tag in request.if_none_match.as_set(include_weak=True):
        if tag and tag.split(":", 1)[0] == str(version):  # an empty tag ("") is read as None: it names nothing
            return tag
    return None


def names_revision(etags: ETags, version: int) -> bool:
    """Whether If-Match names this revision of a game, as the API's ETag gives it: `"7"`, or `"7:br"` and
    `"7:gzip"` as compression marks it (a strong ETag names one encoding of the answer)."""
    return etags.star_tag or any(tag and tag.split(":", 1)[0] == str(version) for tag in etags.as_set())


def not_modified(tag: str, vary: Iterable[str] = (), weak: bool = True) -> Response:
    """304 for a copy the browser already has."""
    response = Response(status=304)
    response.set_etag(tag, weak=weak)
    add_vary(response, vary)
    return response


def add_vary(response: Response, names: Iterable[str]) -> None:
    """Name these request headers in the answer's Vary, each once: as a string (werkzeug's response.vary parses
    the header and writes it back on each change, which costs more than the rest of a kept answer's headers)."""
    present = response.headers.get("Vary", "")
    known = {name.strip().lower() for name in present.split(",")}
    missing = [name for name in names if name.lower() not in known]
    if missing:
        response.headers["Vary"] = ", ".join(filter(None, (present, *missing)))


def tagged(response: Response, tag: str | None, vary: Iterable[str] = PAGE_VARY) -> Response:
    """A page with its ETag; the browser checks it again before each use (no-cache), at the cost of a 304.
    Private: it may differ from one phone to another."""
    add_vary(response, vary)
    if tag is not None:
        response.set_etag(tag, weak=True)
        response.headers["Cache-Control"] = "no-cache, private"  # as a string: werkzeug's setters cost more
    return response


# --- Answers made once per revision ------------------------------------------------------------------

# Headers an answer keeps from when it was made; the view sets the rest (ETag, Cache-Control) on each look.
_KEPT_HEADERS = frozenset({"content-type", "vary", "content-language"})


# Whitespace that starts a line (templates indent their markup): to a browser any run of it is one space, so it is
# kept as one newline; except inside <pre> and <textarea>, whose text is shown as typed. A 200-hand scoresheet is a
# fifth smaller, so a phone (and the benchmark's client) has less to inflate and parse.
_INDENT = re.compile(rb"\n[ \t\r\n]+")
_AS_TYPED = re.compile(rb"<(pre|textarea)\b.*?</\1\s*>", re.S | re.I)


def squeezed(body: bytes) -> bytes:
    """An HTML page without its indentation: each run of whitespace that starts a line becomes one newline."""
    parts, start = [], 0
    for kept in _AS_TYPED.finditer(body):
        parts += [_INDENT.sub(b"\n", body[start : kept.start()]), kept.group(0)]
        start = kept.end()
    parts.append(_INDENT.sub(b"\n", body[start:]))
    return b"".join(parts)


class Kept:
    """One answer as made: its body, a few headers, and its compressed forms (each made once, when first asked)."""

    def __init__(self, body: bytes, headers: list[tuple[str, str]]):
        self.body = body
        self.headers = headers
        # Each form as sent, made when first asked: its body and its headers, Content-Encoding and Vary included.
        self.encoded: dict[str | None, tuple[bytes, list[tuple[str, str]]]] = {}
        # The form each Accept-Encoding header as sent is given (browsers send a few): the header is read once.
        self.by_header: dict[str, tuple[bytes, list[tuple[str, str]]]] = {}

    def answer(self) -> Response:
        """The kept answer, compressed as this browser takes it (brotli, else gzip), as Flask-Compress would."""
        asked = request.environ.get("HTTP_ACCEPT_ENCODING", "")
        form = self.by_header.get(asked)
        if form is None:
            config = current_app.config
            encoding = None
            if len(self.body) >= config["COMPRESS_MIN_SIZE"]:
                encoding = request.accept_encodings.best_match(config["COMPRESS_ALGORITHM"])
            form = self.encoded.get(encoding)
            if form is None:
                form = self.encoded[encoding] = self._encode(encoding)
            if len(self.by_header) < 16:  # any header a client makes up is read each time beyond these
                self.by_header[asked] = form
        return Response(form[0], headers=form[1])

    def _encode(self, encoding: str | None) -> tuple[bytes, list[tuple[str, str]]]:
        config = current_app.config
        if encoding is None:
            return self.body, self.headers
        if encoding == "br":
            body = brotli.compress(self.body, quality=config["COMPRESS_BR_LEVEL"])
        else:
            body = gzip.compress(self.body, compresslevel=config["COMPRESS_LEVEL"], mtime=0)
        response = Response(body, headers=self.headers)
        response.headers["Content-Encoding"] = encoding  # Flask-Compress leaves an encoded answer alone
        add_vary(response, ("Accept-Encoding",))
        return body, list(response.headers.items())


V = TypeVar("V")


class MadeOnce(Generic[V]):
    """Answers made from one revision of a game (a page, a fragment, the JSON document), kept in this process
    with their compressed forms: a second look at an unchanged game costs the query that finds its revision,
    and no rendering, scoring or compressing. The key holds everything the answer depends on, the revision
    among it, so a kept answer is never stale: a change makes a new key, and old ones age out (least recently
    used first). Nothing here is state another process needs: a worker that never saw the game makes the
    answer itself, from the database. (RevisionGate keeps its answers for anyone in one too.)"""

    def __init__(self, size: int = 256):
        self.size = size
        self.kept: OrderedDict[tuple, V] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: tuple) -> V | None:
        with self.lock:
            kept = self.kept.get(key)
            if kept is not None:
                self.kept.move_to_end(key)
            return kept

    def put(self, key: tuple, kept: V) -> None:
        with self.lock:
            self.kept[key] = kept
            self.kept.move_to_end(key)
            while len(self.kept) > self.size:
                self.kept.popitem(last=False)

    def forget(self, key: tuple) -> None:
        with self.lock:
            self.kept.pop(key, None)

    def clear(self) -> None:
        with self.lock:
            self.kept.clear()


def made_once(key: tuple | None, make: Callable[[], Response]) -> Response:
    """The answer `make` gives, made once for `key` in this process and reused while the key is the same.

    The key must name everything the answer shows (the game, its revision, whose phone, what is asked); the
    address, htmx's headers, the build and the language are added here. None: made afresh, as for a page with a message
    shown once (and any page while the session holds one). Only a plain 200 that sets no cookie is kept."""
    if key is None or session.get("_flashes"):
        return make()
    environ = request.environ  # read as it came: building request.url costs more than the rest of a kept answer
    full_key = (
        current_app.config["BUILD_ID"],
        environ.get("wsgi.url_scheme"),
        environ.get("HTTP_HOST"),
        environ.get("SCRIPT_NAME"),
        environ.get("PATH_INFO"),
        environ.get("QUERY_STRING"),
        environ.get("HTTP_HX_REQUEST"),
        environ.get("HTTP_HX_TARGET"),
        environ.get("HTTP_HX_BOOSTED"),
        environ.get("HTTP_HX_HISTORY_RESTORE_REQUEST"),
        language(),
        *key,
    )
    answers: MadeOnce[Kept] = current_app.extensions["scorepad_made_once"]
    kept = answers.get(full_key)
    if kept is None:
        response = make()
        # Flask writes the session's cookie after the view: a session changed while making it is the sign.
        if response.status_code != 200 or response.is_streamed or "Set-Cookie" in response.headers or session.modified:
            return response
        body = response.get_data()
        if response.mimetype == "text/html":
            body = squeezed(body)
        kept = Kept(body, [(k, v) for k, v in response.headers.items() if k.lower() in _KEPT_HEADERS])
        answers.put(full_key, kept)
    return kept.answer()


def strong_tag(response: Response, tag: str) -> Response:
    """A strong ETag for one encoding of an answer, marked as Flask-Compress marks those it compresses
    (`"7:br"`): revision_match and names_revision read both."""
    encoding = response.headers.get("Content-Encoding")
    response.set_etag(f"{tag}:{encoding}" if encoding else tag, weak=False)
    return response
