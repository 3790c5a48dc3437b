"""Stored games: the one set of functions the pages and the JSON API both call.

Each function checks with the rules first and saves only what they accept.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import re
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from functools import cached_property
from typing import Any, NamedTuple

from sqlalchemy import JSON, Select, bindparam, func, type_coerce
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import undefer_group
from sqlalchemy.orm.exc import StaleDataError

from . import document, rules
from .document import Game
from .models import (
    EventRecord,
    EventRoundRecord,
    EventTableRecord,
    GameRecord,
    GameRight,
    HandRecord,
    IdempotentRequest,
    db,
)
from .rules import Problem, RuleError
from .rules.errors import Message


class GameNotFound(Exception):
    """No game has that id."""


class GameFinished(Exception):
    """The game is over: no hand can be added."""


class EditConflict(Exception):
    """Someone else changed the game at the same moment; reload and try again."""


# Bump when the figures the rules work out change for the same stored game (a scoring fix): figures kept
# in an older format are worked out again on their next read.
FIGURES_FORMAT = 2  # 2: a 3 drawn last is its own value (older cla games charge it 5 again)


class Stored:
    """A game as stored, with the rules' view of it (built when first asked for) and its figures; `at_event`: the club
    night's table it is played at, read with its row (_fetch), None for a game of no event or one loaded without it
    (load_games)."""

    def __init__(
        self,
        record: GameRecord,
        game: Game | None = None,
        score: rules.GameScore | None = None,
        entries: list[list[dict]] | None = None,
        notes: list[str] | None = None,
        at_event: TableOfGame | None = None,
    ):
        self.record = record
        self.at_event = at_event
        # The revision read, and the rematch the game led to then: a change is made only on the game as read
        # (_writing), even if the record is read again meanwhile (a commit of something else expires it).
        self.seen: tuple[int, str | None] = (record.version, record.rematch_id)
        if notes is not None:
            self.__dict__["hand_notes"] = notes
        if game is not None:
            self.__dict__["game"] = game
        if score is not None:
            self.__dict__["score"] = score
        if entries is not None:
            self.__dict__["hand_entries"] = entries

    @property
    def id(self) -> str:
        """The game's public id."""
        return self.record.id

    @cached_property
    def game(self) -> Game:
        """The rules' view of the stored game (its hands parsed: a list of games needs only what follows).

        Stored data is trusted: it was checked when it came in, so it is not run through the checks new input gets,
        and a stricter check or a value taken out of the catalogue since never locks anyone out of an old game."""
        hands = tuple(document.hand_from_json({"sides": sides}) for sides in self.hand_entries)
        return Game(rules=self.game_rules, table=self.table, hands=hands, **self.notes())

    def notes(self) -> dict[str, Any]:
        """The game's note and its hands' notes, as document.Game takes them."""
        return {"note": self.record.note or "", "hand_notes": document.kept_notes(self.hand_notes)}

    @cached_property
    def hand_notes(self) -> list[str]:
        """Each hand's note ("" for none): read with the game (_read), else from its hands' rows."""
        return [hand.note or "" for hand in self.record.hands]

    @cached_property
    def hand_entries(self) -> list[list[dict]]:
        """Each hand's side entries as stored (JSON): read with the game (_read), else from its hands' rows."""
        return [hand.sides for hand in self.record.hands]

    @cached_property
    def game_rules(self) -> rules.Rules:
        """The game's rules, without reading its hands."""
        return rules.rules_from_json(self.record.rules)

    @property
    def scoring_rules(self) -> rules.Rules:
        """The rules its figures are worked out by: the game's own, and, when a club night's clock ended it, its end
        after that hand (games.clock_ended_after; its rules themselves stay as they are)."""
        return _ended_after(self.game_rules, self.record.clock_ended_after)

    @cached_property
    def table(self) -> rules.Table:
        """The game's sides and first dealer, without reading its hands."""
        return _table(self.record)

    @property
    def hand_count(self) -> int:
        """How many hands were played (from the kept figures: no hand read)."""
        return len(self.score.hands)

    @cached_property
    def score(self) -> rules.GameScore:
        """Every figure of the game: those kept with this version of the game, or worked out now (and kept).
        Stored hands were checked when saved: they are scored as they are, so a check added later never
        locks anyone out of an old game."""
        kept = _kept_figures(self.record)
        # The hands, if read already (with the game, or by a list's loader), must be the figures' hands.
        hands = self.__dict__.get("hand_entries", self.record.__dict__.get("hands"))
        if kept is not None and (hands is None or len(hands) == len(kept.hands)):
            return kept
        score = rules.score_game(self.scoring_rules, self.game.table, self.game.hands, check=False)
        figures = self.record.figures
        if figures is None or figures.get("format") != FIGURES_FORMAT:
            # Else the figures are another revision's: a change came in between this read's two statements
            # (_read), and kept its own.
            _keep_figures_now(self.record, score)
        return score

    def document(self) -> dict:
        """The game document with every output."""
        record = self.record
        # The entries as stored (each one checked when it came in): no hand parsed into the rules' types.
        game = Game(rules=self.game_rules, table=self.table, hands=(), **self.notes())
        entries = self.hand_entries
        doc = document.game_document(
            game,
            record.id,
            self.score,
            room_code=record.room_code,
            revision=record.version,
            created=record.created_at,
            updated=record.updated_at,
            entries=entries,
        )
        if self.at_event is not None:  # a club night's table: "event": {"id", "round", "table"} (docs/events.md)
            doc["event"] = self.at_event.json()
        return doc


def _ended_after(game_rules: rules.Rules, hands: int | None) -> rules.Rules:
    """The rules a game is scored by when a club night's clock ended it after `hands` hands (None: not ended)."""
    if hands is None or (game_rules.hands_per_game is not None and game_rules.hands_per_game <= hands):
        return game_rules
    return replace(game_rules, hands_per_game=hands)


def _figures_json(score: rules.GameScore) -> dict:
    return {"format": FIGURES_FORMAT, **rules.score_json(score)}


def figures_current(version: int, figures_version: int | None, figures_format: object) -> bool:
    """Whether the figures kept with a game are its own: worked out for this version, in this format. (A reader
    that takes them from the row past the ORM, event_store.load_standings, asks the same.)"""
    return figures_version == version and figures_format == FIGURES_FORMAT


def _kept_figures(record: GameRecord) -> rules.GameScore | None:
    """The figures kept with the game, if they are this version's (kept figures are trusted: never re-checked)."""
    figures = record.figures
    if figures is None or not figures_current(record.version, record.figures_version, figures.get("format")):
        return None
    return rules.score_from_json(figures)


def _keep_figures_now(record: GameRecord, score: rules.GameScore) -> None:
    """Keep the figures of a game read before any were kept (stored before them, or by an older format).

    Written past the ORM, so the game's version does not change, and only if the game is still at the version
    they were worked out for. Skipped inside a change (it keeps its own figures)."""
    session = db.session
    if session.new or session.dirty or session.deleted or session.info.get(_HELD):
        return  # a change in progress keeps its own figures; and a held game can't be written from elsewhere
    version = record.version
    table = GameRecord.__table__
    try:
        # A connection of its own: the request's session keeps the version it read, for its own writes.
        with db.engine.begin() as connection:
            connection.execute(
                table.update()
                .where(table.c.id == record.id, table.c.version == version)
                .values(figures=_figures_json(score), figures_version=version)
            )
    except SQLAlchemyError:
        pass  # kept next time: the figures are right either way


def token_hash(token: str) -> str:
    """An edit token as the database keeps it."""
    return _hash(token)


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _table(record: GameRecord) -> rules.Table:
    return rules.Table(
        sides=tuple(rules.Side(name=side["name"], players=tuple(side["players"])) for side in record.sides),
        first_dealer=record.first_dealer,
        brought_forward=tuple(side["brought_forward"] for side in record.sides if "brought_forward" in side),
    )


def _sides_json(table: rules.Table) -> list[dict]:
    """The game's sides as stored: each side's name and players, and its total brought forward if any (kept with
    the side it belongs to, so no column was needed)."""
    sides: list[dict] = document.table_json(table)["sides"]
    for side, total in zip(sides, table.brought_forward, strict=False):
        side["brought_forward"] = total
    return sides


# Room codes are read aloud across a table: no 0/O, 1/I/L, 2/Z, 5/S, 8/B to mistake for each other.
ROOM_CODE_LETTERS = "ACDEFHJKMNPQRTUVWXY34679"
ROOM_CODE_LENGTH = 6  # 24**6, about 190 million codes


def new_room_code() -> str:
    """A random room code (its uniqueness is the database's to enforce)."""
    return "".join(secrets.choice(ROOM_CODE_LETTERS) for _ in range(ROOM_CODE_LENGTH))


def create_game(game: Game) -> tuple[Stored, str]:
    """Store a checked game; return it and its edit token (only its hash is kept)."""
    for _attempt in range(5):
        try:
            return _insert_game(game, new_room_code())
        except IntegrityError:  # the room code was taken (about one chance in millions); draw another
            db.session.rollback()
    raise EditConflict("no free room code")


def _insert_game(game: Game, room_code: str) -> tuple[Stored, str]:
    token = secrets.token_urlsafe(24)
    record = GameRecord(
        id=secrets.token_urlsafe(9),
        room_code=room_code,
        edit_token_hash=_hash(token),
        rules=document.rules_json(game.rules),
        sides=_sides_json(game.table),
        first_dealer=game.table.first_dealer,
        note=game.note or None,
    )
    for n, hand in enumerate(game.hands):
        record.hands.append(
            HandRecord(position=n, sides=document.hand_json(hand)["sides"], note=game.hand_note(n) or None)
        )
    score = rules.score_game(game.rules, game.table, game.hands, check=False)  # checked by the caller
    record.figures = _figures_json(score)
    record.figures_version = 1  # the version a new row is given
    db.session.add(record)
    db.session.commit()
    return Stored(record, game, score), token


def create_games(games: list[tuple[Game, str | None]], then: Callable[[list[tuple[str, datetime]]], None]) -> int:
    """Store many checked games at once (a file of every game restored): each with the id of the game it is a copy
    of (or None). One transaction: all of them are stored, or (on any failure) none. `then` is given each new
    game's (id, created) in order and runs in the same transaction (the device's rights to them). The games and
    their hands go in as two bulk inserts; each game is created a microsecond after the one before, so the
    history keeps their order. How many were stored."""
    for _attempt in range(5):
        now = datetime.now(UTC)
        game_rows: list[dict[str, Any]] = []
        hand_rows: list[dict[str, Any]] = []
        for n, (game, copy_of) in enumerate(games):
            game_id, created = secrets.token_urlsafe(9), now + timedelta(microseconds=n)
            score = rules.score_game(game.rules, game.table, game.hands, check=False)  # checked by the caller
            game_rows.append(
                {
                    "id": game_id,
                    "room_code": new_room_code(),
                    "edit_token_hash": _hash(secrets.token_urlsafe(24)),  # the token itself is never given out
                    "rules": document.rules_json(game.rules),
                    "sides": _sides_json(game.table),
                    "first_dealer": game.table.first_dealer,
                    "version": 1,
                    "created_at": created,
                    "updated_at": created,
                    "restored_from": copy_of if copy_of and GAME_ID.fullmatch(copy_of) else None,
                    "handover_generation": 0,
                    "figures": _figures_json(score),
                    "figures_version": 1,
                    "note": game.note or None,
                }
            )
            hand_rows += [
                {
                    "game_id": game_id,
                    "position": p,
                    "sides": document.hand_json(hand)["sides"],
                    "note": game.hand_note(p) or None,
                    "created_at": created,
                }
                for p, hand in enumerate(game.hands)
            ]
        if not game_rows:
            return 0
        try:
            db.session.execute(db.insert(GameRecord.__table__), game_rows)
            if hand_rows:
                db.session.execute(db.insert(HandRecord.__table__), hand_rows)
            then([(row["id"], row["created_at"]) for row in game_rows])
            db.session.commit()
            return len(game_rows)
        except IntegrityError:  # a room code was taken (about one chance in millions a game): all of them again
            db.session.rollback()
        except BaseException:
            db.session.rollback()
            raise
    raise EditConflict("no free room codes")


GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")  # what create_game makes (token_urlsafe); nothing else is looked up


def load_game(game_id: str) -> Stored:
    """A stored game by id, as of one moment: its row, figures and hands are of one revision (_read); GameNotFound
    if there is none (an id that can't be one is not looked up: some databases refuse a NUL character outright)."""
    if not GAME_ID.fullmatch(game_id):
        raise GameNotFound(game_id)
    return _read(game_id)


def _hands_column(dialect: str) -> Any:
    """The game's hands as one JSON array of [position, side entries] (in no set order): a column of the game's own
    row, so the game and its hands are read by one statement, one moment of the game."""
    hands = HandRecord.__table__
    if dialect == "postgresql":
        each = func.json_agg(func.json_build_array(hands.c.position, hands.c.sides, hands.c.note))
    else:
        each = func.json_group_array(func.json_array(hands.c.position, func.json(hands.c.sides), hands.c.note))
    inner = db.select(each).where(hands.c.game_id == GameRecord.id).scalar_subquery()
    return type_coerce(inner, JSON).label("hand_entries")


_rights = GameRight.__table__
_keys = IdempotentRequest.__table__


@functools.cache
def _game_query(dialect: str, device: bool = False, key: bool = False) -> Any:
    """The statement that reads a game with its hands; `device`: with that device's right to it (rights.py);
    `key`: with the answer remembered for an Idempotency-Key, and the oldest key kept (to know when to forget)."""
    query = (
        db.select(GameRecord, _hands_column(dialect))
        .options(undefer_group("made"))
        .where(GameRecord.id == bindparam("game_id"))
    )
    query = _with_table_of_game(query)  # a club night's table: where it plays, read with the game
    if device:
        query = query.add_columns(_rights.c.via, _rights.c.last_used_at).outerjoin(
            _rights, (_rights.c.game_id == GameRecord.id) & (_rights.c.device_hash == bindparam("device"))
        )
    if key:
        oldest = db.select(func.min(_keys.c.created_at)).scalar_subquery()
        query = query.add_columns(
            _keys.c.status,
            _keys.c.body,
            _keys.c.request_hash,
            _keys.c.created_at.label("key_created_at"),
            oldest.label("oldest_key"),
        ).outerjoin(_keys, (_keys.c.game_id == GameRecord.id) & (_keys.c.key == bindparam("key")))
    return query


def _entries(column: Any) -> list[list[dict]]:
    """Each hand's side entries, in order, from the hands' column (_hands_column)."""
    return [row[1] for row in _hand_rows(column)]


def _notes(column: Any) -> list[str]:
    """Each hand's note ("" for none), in order, from the hands' column (_hands_column)."""
    return [row[2] or "" for row in _hand_rows(column)]


def _hand_rows(column: Any) -> list[list]:
    """The hands' column (_hands_column) as [position, side entries, note] in order."""
    if isinstance(column, str):  # a driver that hands JSON back as text
        column = json.loads(column)
    return sorted(column or [], key=lambda row: row[0])


def _fetch(game_id: str, device: str | None = None, key: str | None = None) -> Any:
    """The row of the game with its hands (and the right, the remembered key, when asked), or GameNotFound. Objects
    already in the session are read again; the game's hands are left unread on its record (Stored carries them)."""
    if not GAME_ID.fullmatch(game_id):
        raise GameNotFound(game_id)
    query = _game_query(db.session.get_bind().dialect.name, device is not None, key is not None)
    params = {"game_id": game_id, "device": device or "", "key": key or ""}
    row = db.session.execute(query, params, execution_options={"populate_existing": True}).first()
    if row is None:
        raise GameNotFound(game_id)
    record = row[0]
    if "hands" in record.__dict__:
        db.session.expire(record, ["hands"])  # an older read of them: read again if ever asked for
    return row


def _stored_of_row(row: Any) -> Stored:
    """The game of a row read by _fetch, with its hands and the club night's table it is played at."""
    entries, notes = _entries(row.hand_entries), _notes(row.hand_entries)
    return Stored(row[0], entries=entries, notes=notes, at_event=_table_in_row(row))


def _read(game_id: str) -> Stored:
    """The game as of one moment: one statement, its row with its rules, figures and hands (its hands a column of
    the row: _hands_column), so figures, hands and revision are always of the same commit. No transaction of its
    own: reads run in autocommit where reading_only was called."""
    return _stored_of_row(_fetch(game_id))


class Remembered(NamedTuple):
    """The answer remembered for an Idempotency-Key (within the last day)."""

    status: int
    body: Any  # {"hand": n}: the hand it stored
    request_hash: str | None


class Held(NamedTuple):
    """A game read to be changed, in one statement: the game with its hands; how this device came by its right to
    change it (rights.py: "created", "link", "token"), or None; when it got it or last used it; the answer
    remembered for the request's Idempotency-Key, if any; and whether keys older than a day wait to be forgotten."""

    stored: Stored
    right: str | None
    right_used_at: datetime | None
    remembered: Remembered | None
    forget_keys: bool


# Keys older than a day are forgotten by a keyed save once the oldest of them is this much older than that: about once
# an hour at most, rather than a DELETE on every keyed save (a key past its day is never honoured meanwhile).
FORGET_KEYS_EVERY = timedelta(hours=1)


def read_for_change(game_id: str, device: str | None = None, key: str | None = None) -> Held:
    """A game read to be changed, with this device's right to it and the answer remembered for this Idempotency-Key,
    all in one statement (no lock: the change's write checks the revision, see append_hand)."""
    row = _fetch(game_id, device, key)
    stored = _stored_of_row(row)
    right, used = (row.via, row.last_used_at) if device is not None else (None, None)
    remembered, forget = None, False
    if key is not None:
        oldest = utc(row.oldest_key) if row.oldest_key is not None else None
        since = datetime.now(UTC) - IDEMPOTENCY_KEY_LIFETIME
        if row.key_created_at is not None and utc(row.key_created_at) >= since:
            remembered = Remembered(row.status, row.body, row.request_hash)
        # This very key, past its day, is in the way of its new row: forgotten now whatever the others.
        forget = row.key_created_at is not None and remembered is None
        forget = forget or (oldest is not None and oldest < since - FORGET_KEYS_EVERY)
    return Held(stored, right, used, remembered, forget)


def reading_only() -> None:
    """Call first in a view that only reads (a write it may make is one statement, committed at once): the
    request's session then reads in autocommit, so PostgreSQL is not sent a BEGIN and a ROLLBACK around its
    queries (two round trips). SQLite reads without either anyway, so its connection is left as it is (switching it
    and back costs a PRAGMA: glancing)."""
    if not db.session().in_transaction() and db.session.get_bind().dialect.name != "sqlite":
        db.session.connection(execution_options={"isolation_level": "AUTOCOMMIT"})


_REVISION = db.select(GameRecord.version).where(GameRecord.id == bindparam("game_id"))


def game_revision(game_id: str, engine: Engine | None = None) -> int | None:
    """A game's revision alone, or None if there is no such game: one small query, no hand loaded, nothing
    scored (what an unchanged scoreboard costs, docs/architecture.md). `engine`: the app's (db.engine) unless
    given, as delivery.RevisionGate does outside Flask."""
    if not GAME_ID.fullmatch(game_id):
        return None
    rows = glance_rows(_REVISION, {"game_id": game_id}, engine)
    return rows[0][0] if rows else None


class ScoreboardRevision(NamedTuple):
    """What an open scoreboard shows of a game, as one small query finds it: its revision, and the rematch it led
    to (starting a rematch changes no figure of the game, so not its revision)."""

    version: int
    rematch_id: str | None


_SCOREBOARD_REVISION = db.select(GameRecord.version, GameRecord.rematch_id).where(GameRecord.id == bindparam("game_id"))


def scoreboard_revision(game_id: str, engine: Engine | None = None) -> ScoreboardRevision | None:
    """A game's revision and its rematch's id, or None if there is no such game: one small query of the game's
    row, no hand loaded, nothing scored (an unchanged scoreboard's poll, delivery.RevisionGate). `engine`: as
    game_revision."""
    if not GAME_ID.fullmatch(game_id):
        return None
    rows = glance_rows(_SCOREBOARD_REVISION, {"game_id": game_id}, engine)
    return ScoreboardRevision(*rows[0]) if rows else None


def glance_rows(statement: Select, values: dict[str, Any], engine: Engine | None = None) -> list[tuple]:
    """The rows of one small query of plain numbers and text (no value a column type converts: a date comes back
    as the driver gives it), straight on the driver's connection from the pool: what every unchanged poll asks (a
    game's or scoreboard's revision), and the history page's check before Flask (rights.kept_games_page_of).
    SQLAlchemy's Connection and Result around the same query cost more than the query: through them an unchanged
    scoreboard's poll took about 1.8 times as long in Python (docs/performance.md). In autocommit on PostgreSQL,
    so it is sent no BEGIN and ROLLBACK (two round trips of three); SQLite reads without either. A look that fails,
    for whatever reason, throws its connection away (the next checkout opens another): a dead one must not be
    handed out again, and one left in autocommit would have a request's session write each statement as its own
    commit. (Unlike SQLAlchemy's Connection, a dead one does not take the older connections of the pool with it:
    those are pinged once idle a while, delivery.ping_if_idle, or fail once each.) `engine`: the app's (db.engine)
    unless given, as delivery.RevisionGate does outside Flask."""
    engine = engine or db.engine
    sql, names = _driver_sql(statement, engine.dialect)  # before the checkout: nothing between it and the try below
    pooled = engine.raw_connection()  # the pool's checkout: a connection idle a while is pinged (ping_if_idle)
    driver: Any = pooled.driver_connection
    autocommit = engine.dialect.name != "sqlite"
    try:
        if autocommit:
            driver.autocommit = True
        cursor = pooled.cursor()
        try:
            cursor.execute(sql, values if names is None else tuple(values[name] for name in names))
            rows = cursor.fetchall()
        finally:
            cursor.close()
        if autocommit:
            driver.autocommit = False
    except BaseException as error:
        pooled.invalidate(error)
        raise
    finally:
        pooled.close()  # back to the pool (an invalidated one is discarded)
    return [tuple(row) for row in rows]


@functools.cache
def _driver_sql(statement: Select, dialect: Any) -> tuple[str, tuple[str, ...] | None]:
    """The statement as its driver takes it, compiled once: the SQL, and the order of its values when the driver
    takes them by position (SQLite's ?), else None (PostgreSQL's %(name)s)."""
    compiled = statement.compile(dialect=dialect)
    # Every value is a named bindparam given at each call: none fixed in the statement, none rendered late.
    assert not compiled.post_compile_params and all(bind.value is None for bind in compiled.binds.values())
    return str(compiled), tuple(compiled.positiontup or ()) if compiled.positional else None


def glancing(engine: Engine | None = None) -> Connection:
    """A connection of its own for a quick look before a view decides whether it must read anything else (a
    revision, a device's rights): outside the request's session, whose transaction costs more to set up and
    end than the look, and in autocommit, so PostgreSQL is sent no BEGIN and ROLLBACK around the query (two
    round trips of three). `engine`: the app's (db.engine) unless given, as delivery.RevisionGate does outside
    Flask. On SQLite, which reads without either, the connection is left as it is: switching it to autocommit and
    back costs a PRAGMA on its return to the pool, twice the look itself."""
    engine = engine or db.engine
    if engine.dialect.name == "sqlite":
        return engine.connect()
    return engine.connect().execution_options(isolation_level="AUTOCOMMIT")


def game_id_of_room_code(room_code: str) -> str | None:
    """The id of the game with this room code (store.ROOM_CODE_LETTERS, upper case), or None."""
    return db.session.scalar(db.select(GameRecord.id).where(GameRecord.room_code == room_code))


def load_games(game_ids: list[str]) -> list[Stored]:
    """The stored games among these ids, newest change first."""
    if not game_ids:
        return []
    records = db.session.scalars(
        db.select(GameRecord)
        .options(undefer_group("made"))
        .where(GameRecord.id.in_(game_ids))
        .order_by(GameRecord.updated_at.desc())
    ).all()
    return [Stored(record) for record in records]


def token_matches(stored: Stored, token: str | None) -> bool:
    """Whether this edit token is the game's."""
    return token is not None and token != "" and hmac.compare_digest(_hash(token), stored.record.edit_token_hash)


def _lock(game_id: str) -> int:
    """Hold the game for a change until the session's commit or rollback, and give its revision now: the game's
    row `FOR UPDATE` on PostgreSQL; on SQLite the database's write lock (`BEGIN IMMEDIATE`, waiting for a change in
    progress to end: delivery.SQLITE_BUSY_SECONDS). Changes to one game then happen one after the
    other, each on the game as the one before left it; reads never wait."""
    return _hold(game_id)[0]


def _hold(game_id: str) -> tuple[int, str | None]:
    """_lock, giving the game's revision and its rematch now (a rematch started changes no revision)."""
    db.session.info[_HELD] = True  # until the transaction ends: nothing else may write the game meanwhile
    connection = db.session.connection()
    if connection.dialect.name == "sqlite":
        driver = connection.connection.driver_connection
        if driver is not None and not driver.in_transaction:  # else a write of this session already holds it
            connection.exec_driver_sql("BEGIN IMMEDIATE")
    now = db.session.execute(_LOCK, {"game_id": game_id}).first()
    if now is None:
        raise GameNotFound(game_id)
    return now.version, now.rematch_id


_HELD = "scorepad_holds_a_game"
_LOCK = (
    db.select(GameRecord.version, GameRecord.rematch_id).where(GameRecord.id == bindparam("game_id")).with_for_update()
)


def _release() -> None:
    """Let go of the game without changing it (the lock ends with the transaction)."""
    db.session.rollback()
    db.session.info.pop(_HELD, None)


def _commit_as_written() -> None:
    """Commit, keeping in memory what was just written (the session would otherwise forget it, and the answer
    would read the game again, perhaps after another change): every answer to a change is that change."""
    session = db.session()
    expire = session.expire_on_commit
    session.expire_on_commit = False
    try:
        session.commit()
    finally:
        session.expire_on_commit = expire
    session.info.pop(_HELD, None)


@contextmanager
def _writing(
    stored: Stored, score: rules.GameScore, when: datetime | None = None, held: bool = False
) -> Iterator[None]:
    """Make a change to a game read at one revision, and commit it with the game's figures after it (`score`).

    The game is held first (_lock; `held`: it already is, at this revision); if it changed since it was read
    (another phone, another request at the same moment), or a rematch was started from it since, nothing is written:
    EditConflict. What was read is `stored.seen`, not the record's version now: a commit of something else in the
    same request (rights noting a use) reads the record again, the hands read stay. Changing a column makes
    the flush bump the game's version (a write based on a stale read would fail there too). The figures are kept
    for the version the flush gives the game, so the next read needs no scoring.
    """
    record = stored.record
    try:
        if record.version != stored.seen[0] or (not held and _hold(stored.id) != stored.seen):
            raise EditConflict()
        yield
        record.updated_at = when or datetime.now(UTC)
        record.figures = _figures_json(score)
        record.figures_version = record.version + 1  # the flush's bump (version_id_col counts up by one)
        _commit_as_written()
    except (StaleDataError, IntegrityError) as error:
        _release()
        raise EditConflict() from error
    except BaseException:
        _release()
        raise


def save_note(stored: Stored, note: str) -> Stored:
    """Keep the game's note (checked: document.clean_note); its figures stay as they are."""
    with _writing(stored, stored.score):
        stored.record.note = note or None
    return Stored(stored.record, score=stored.score, at_event=stored.at_event)


def check_new_hand(stored: Stored, data: Any) -> rules.Hand:
    """A hand from JSON checked as the game's next hand; GameFinished or RuleError when refused."""
    if stored.score.finished:
        raise GameFinished()
    if stored.hand_count >= document.MOST_HANDS:
        raise RuleError(
            [
                Problem(
                    ("sides",),
                    Message(
                        "Hand {number}: a game holds at most {most} hands, and this one has them all. Start a new "
                        "game to play on.",
                        number=stored.hand_count + 1,
                        most=document.MOST_HANDS,
                    ),
                )
            ]
        )
    return document.check_hand(stored.game_rules, stored.table, data, stored.hand_count)


def _append(stored: Stored, hand: rules.Hand, note: str | None = None) -> None:
    record = HandRecord(position=stored.hand_count, sides=document.hand_json(hand)["sides"], note=note or None)
    stored.record.hands.append(record)


def sent_note(data: Any) -> str:
    """The note a hand's body gives ("" for none), as kept (checked with the hand: document.check_hand)."""
    return document.hand_note_of(data, ("note",), [])[: document.LONGEST_NOTE]


def _after(stored: Stored, hands: list[rules.Hand], score: rules.GameScore) -> Stored:
    """The game as just stored: its hands and figures after the change (no second reading or scoring)."""
    notes = document.kept_notes([hand.note for hand in stored.record.hands])
    game = replace(stored.game, hands=tuple(hands), hand_notes=notes)
    return Stored(stored.record, game, score, at_event=stored.at_event)


def _score(stored: Stored, hands: list[rules.Hand]) -> rules.GameScore:
    """The figures of the game with these hands (worked out once per change: _check_sequence keeps them)."""
    checked = stored.__dict__.get("checked_sequence")
    if checked is not None and checked[0] == tuple(hands):
        return checked[1]
    return rules.score_game(stored.scoring_rules, stored.game.table, hands, check=False)


def save_checked_hand(stored: Stored, position: int, hand: rules.Hand, note: str | None = None) -> Stored:
    """Store a hand already checked as hand `position`: the next one, or in place of a past one (`note`: the hand's
    note as sent, "" for none; None keeps a corrected hand's note as it was).

    A new hand is scored alone, from the figures before it; a corrected one rescores the game once."""
    if position == stored.hand_count:  # no stored hand read or scored: the new one from the figures before it
        score = rules.score_next_hand(stored.scoring_rules, stored.table, stored.score, hand)
        with _writing(stored, score):
            _append(stored, hand, note)
        return Stored(stored.record, score=score, at_event=stored.at_event)
    hands = list(stored.game.hands)
    hands[position] = hand
    score = _score(stored, hands)
    with _writing(stored, score):
        stored.record.hands[position].sides = document.hand_json(hand)["sides"]
        if note is not None:
            stored.record.hands[position].note = note or None
    return _after(stored, hands, score)


def check_replaced_hand(stored: Stored, n: int, data: Any) -> rules.Hand:
    """Hand n replaced by a new one from JSON, checked alone and in the whole game."""
    if not 0 <= n < len(stored.game.hands):
        raise IndexError(n)
    hand = document.check_hand(stored.game.rules, stored.game.table, data, n)
    hands = list(stored.game.hands)
    hands[n] = hand
    _check_sequence(stored, hands)
    return hand


def _check_sequence(stored: Stored, hands: list[rules.Hand], first_moved: int | None = None) -> rules.GameScore:
    """Refuse a change after which the game would end before its last hand.

    After a delete, the hands from `first_moved` on have new dealers and cutters: they are checked
    again in full (a perfect cut may now be on the wrong side). Other stored hands are taken as they
    are, so a check added since they were saved never blocks correcting an old game.
    """
    game_rules, table = stored.game.rules, stored.game.table
    problems = []
    for n in range(first_moved if first_moved is not None else len(hands), len(hands)):
        try:
            rules.check_hand(game_rules, table, hands[n], n)
        except RuleError as error:
            problems += [
                Problem(("hands", n) + p.path, Message("Hand {number}: {message}", number=n + 1, message=p.message))
                for p in error.problems
            ]
    score = rules.score_game(stored.scoring_rules, table, hands, check=False)
    problems += rules.hands_after_the_end(score, len(hands))  # §5.14
    if problems:
        raise RuleError(problems)
    stored.__dict__["checked_sequence"] = (tuple(hands), score)  # for the save that follows
    return score


def replace_hand(stored: Stored, n: int, data: Any) -> Stored:
    """Check a hand and store it in place of hand n (0-based), with its note as sent; later figures follow."""
    return save_checked_hand(stored, n, check_replaced_hand(stored, n, data), sent_note(data))


def delete_hand(stored: Stored, n: int) -> Stored:
    """Remove hand n (0-based); the hands after it move up one."""
    if not 0 <= n < len(stored.game.hands):
        raise IndexError(n)
    hands = list(stored.game.hands)
    del hands[n]
    score = _check_sequence(stored, hands, first_moved=n)
    records = stored.record.hands
    with _writing(stored, score):
        records.remove(records[n])
        # (game, position) is unique: delete first, then move each later hand up one, lowest first.
        db.session.flush()
        for later in records[n:]:
            later.position -= 1
            db.session.flush()
    return _after(stored, hands, score)


def insert_hand(stored: Stored, position: int, hand: rules.Hand, note: str | None = None) -> Stored:
    """Put a hand back at `position` (undoing its delete), with its note: the hands from there on move down one.

    The hand was checked when first stored, and the game is as it was right after the delete, so
    putting it back gives the game exactly as it was before."""
    if not 0 <= position <= len(stored.game.hands):
        raise IndexError(position)
    hands = list(stored.game.hands)
    hands.insert(position, hand)
    score = _score(stored, hands)
    records = stored.record.hands
    with _writing(stored, score):
        # (game, position) is unique: move each later hand down one, highest first, then insert.
        for later in reversed(records[position:]):
            later.position += 1
            db.session.flush()
        records.insert(
            position, HandRecord(position=position, sides=document.hand_json(hand)["sides"], note=note or None)
        )
    return _after(stored, hands, score)


# An Idempotency-Key is remembered for a day (docs/api.md): a retry comes within minutes, and a key sent again
# after that is a new request.
IDEMPOTENCY_KEY_LIFETIME = timedelta(days=1)


def utc(moment: datetime) -> datetime:
    """A stored time in UTC, whatever the database gave back: SQLite the UTC time it was given without its zone,
    PostgreSQL the time in its session's zone."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def remembered_answer(stored: Stored, key: str) -> IdempotentRequest | None:
    """The answer already given to this Idempotency-Key for this game within the last day, if any."""
    remembered = db.session.get(IdempotentRequest, (stored.id, key))
    if remembered is None or utc(remembered.created_at) < datetime.now(UTC) - IDEMPOTENCY_KEY_LIFETIME:
        return None
    return remembered


def _forget_old_keys() -> None:
    """Delete every game's Idempotency-Keys older than a day (a range of their index on the time: cheap), so no
    game, finished or not, keeps them."""
    db.session.execute(
        db.delete(IdempotentRequest)
        .where(IdempotentRequest.created_at < datetime.now(UTC) - IDEMPOTENCY_KEY_LIFETIME)
        .execution_options(synchronize_session="fetch")
    )


def request_hash(data: Any) -> str:
    """What a request under an Idempotency-Key sent, as a short digest: the same JSON, whatever its spacing and
    the order of its keys, gives the same digest."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


KEY_USED_FOR_ANOTHER_HAND = Message(
    "This Idempotency-Key was already used for another hand of this game: nothing was stored. "
    "Send each new hand with a key of its own."
)


class Appended(NamedTuple):
    """What adding a hand answered: its status, the game document, whether it was a key already answered, and the
    game as this request left it (as it is now, for a key already answered)."""

    status: int
    body: dict  # the document as this request's hand left the game; for a key already answered, as the game is now
    replayed: bool
    stored: Stored


def same_hand_under_key(stored: Stored, remembered: Any, data: Any) -> bool:
    """Whether `data` is the hand a remembered Idempotency-Key stored (`remembered`: its row's body, {"hand": n}),
    read as the rules read it: the page's form and the phone's copy of the same Save send the same hand in JSON of
    their own. A hand no longer there (deleted since) can't be compared: not the same (the same JSON is found by
    its digest before this is asked)."""
    n = remembered.get("hand") if isinstance(remembered, dict) else None
    hands = stored.game.hands
    if not isinstance(n, int) or not 0 <= n < len(hands):
        return False
    sent, problems = document.parse_hand(data, len(stored.table.sides))
    return not problems and document.hand_json(sent) == document.hand_json(hands[n])


def append_hand(
    stored: Stored | Held, data: Any, key: str | None = None, *, follow: bool = True, hand: rules.Hand | None = None
) -> Appended:
    """Check a hand and store it as the game's next one; with an Idempotency-Key, at most once.

    `follow`: a hand sent with no version of the game in mind (the API) is checked and stored after whatever came
    before it, the game read again if it changed since it was read; otherwise (the phone's queue, the hand form,
    which entered it on that version) a changed game is EditConflict. A key already answered stores nothing and
    answers as the game is now; the same key with another hand is refused (RuleError) and stores nothing. `hand`:
    the hand `data` describes, checked already as the next one (the hand form's).

    A game read with read_for_change is changed in one pass: its read held everything (the game, its hands, the
    key's answer), and the write checks that the game's revision is still the one read (the version in the
    UPDATE's WHERE, which is also what takes the database's write lock on SQLite and the row's on PostgreSQL).
    If a change came in between, the save is done again held (_lock), as for a Stored."""
    if not isinstance(stored, Held):
        return _append_held(stored.id, stored.seen[0], stored, data, key, follow)
    game_id, version = stored.stored.id, stored.stored.seen[0]  # the record is expired if this fails
    try:
        return _append_read(stored, data, key, hand)
    except EditConflict:  # changed since it was read: again, held
        return _append_held(game_id, version, None, data, key, follow)


def _replayed(now: Stored, remembered: Any, data: Any, sent: str | None) -> Appended:
    """The answer to a key already answered: the game as it is now (RuleError: the key was another hand's)."""
    if remembered.request_hash not in (None, sent) and not same_hand_under_key(now, remembered.body, data):
        raise RuleError([Problem((), KEY_USED_FOR_ANOTHER_HAND)])
    return Appended(remembered.status, now.document(), True, now)


def _append_read(held: Held, data: Any, key: str | None, hand: rules.Hand | None) -> Appended:
    """append_hand on a game read with read_for_change, no lock taken before the write (EditConflict if the game
    changed since it was read)."""
    stored, sent = held.stored, request_hash(data) if key is not None else None
    if key is not None and held.remembered is not None:
        return _replayed(stored, held.remembered, data, sent)
    if hand is None:
        hand = check_new_hand(stored, data)
    return _store_next(stored, hand, key, sent, forget=held.forget_keys, held=True, note=sent_note(data))


def _append_held(
    game_id: str, read_version: int, stored: Stored | None, data: Any, key: str | None, follow: bool
) -> Appended:
    """append_hand with the game held while it is checked and stored (_lock), so hands sent at the same moment are
    stored one after the other. `stored`: the game as read at `read_version`, if it may still be used."""
    sent = request_hash(data) if key is not None else None
    try:
        version = _lock(game_id)
        now = stored if stored is not None and version == read_version else None
        if key is not None:
            remembered = db.session.execute(_REMEMBERED, {"game_id": game_id, "key": key}).first()
            if remembered is not None and utc(remembered.created_at) >= datetime.now(UTC) - IDEMPOTENCY_KEY_LIFETIME:
                answer = _replayed(now or _read(game_id), remembered, data, sent)
                _commit_as_written()  # nothing written: the game as read stays in memory for the answer (not _release)
                return answer
        if version != read_version and not follow:
            raise EditConflict()
        now = now or _read(game_id)  # held: the game as the change before this one left it
        hand = check_new_hand(now, data)
    except BaseException:
        _release()
        raise
    return _store_next(now, hand, key, sent, forget=True, held=True, note=sent_note(data))


def _store_next(
    stored: Stored, hand: rules.Hand, key: str | None, sent: str | None, forget: bool, held: bool, note: str = ""
) -> Appended:
    """Store a checked hand as the game's next one (with the key's answer, in the same commit), scored alone from the
    figures before it; the answer is the game as written."""
    position, entry = stored.hand_count, document.hand_json(hand)["sides"]
    score = rules.score_next_hand(stored.scoring_rules, stored.table, stored.score, hand)
    ended = not score.finished and stored.at_event is not None and stored.at_event.time_up()
    if ended:  # a club night's round whose time is up: this hand is the table's last (docs/events.md)
        score = rules.score_next_hand(_ended_after(stored.game_rules, position + 1), stored.table, stored.score, hand)
    with _writing(stored, score, held=held):
        if ended:  # in the game's own row: the same UPDATE as the save, the revision moved once
            stored.record.clock_ended_after = position + 1
        if key is not None and forget:
            _forget_old_keys()  # an old row under this very key included: this is a new request
        db.session.add(HandRecord(game_id=stored.id, position=position, sides=entry, note=note or None))
        if key is not None:  # a reference to the hand, not the document: a few bytes
            db.session.add(
                IdempotentRequest(game_id=stored.id, key=key, status=201, body={"hand": position}, request_hash=sent)
            )
    entries, notes = [*stored.hand_entries, entry], [*stored.hand_notes, note]
    written = Stored(stored.record, score=score, entries=entries, notes=notes, at_event=stored.at_event)
    return Appended(201, written.document(), False, written)


_REMEMBERED = db.select(
    IdempotentRequest.status, IdempotentRequest.body, IdempotentRequest.request_hash, IdempotentRequest.created_at
).where(IdempotentRequest.game_id == bindparam("game_id"), IdempotentRequest.key == bindparam("key"))


def add_hand_once(stored: Stored | Held, data: Any, key: str, hand: rules.Hand | None = None) -> Appended:
    """Add a hand from the phone's queue (or the page's Save that its copy may follow) under its Idempotency-Key, on
    the version of the game it was entered on (`stored`'s: EditConflict if the game changed since); a repeat, even
    one racing the first, stores nothing (append_hand)."""
    return append_hand(stored, data, key, follow=False, hand=hand)


IDEMPOTENCY_KEY_LENGTH = 200  # the column's size


def idempotency_key_problem(key: str) -> str | None:
    """Why an Idempotency-Key can't be kept, or None (the API, the phone's queue and the new-game page ask)."""
    if len(key) > IDEMPOTENCY_KEY_LENGTH:
        return Message("An Idempotency-Key has at most {most} characters.", most=IDEMPOTENCY_KEY_LENGTH)
    if not key.isprintable():
        return Message("An Idempotency-Key is printable text: letters, digits and punctuation.")
    return None


def _start_key(device: str, key: str) -> str:
    """How a started game's key is kept: bound to the device that drew it, and apart from the keys API clients
    choose for hands (a hand's key can never name a started game, nor another device's key this one)."""
    return "start:" + hashlib.sha256(f"{device}:{key}".encode()).hexdigest()


def remember_start(game_id: str, device: str, key: str) -> None:
    """Keep the Idempotency-Key a phone drew for a game it started (sync.py: a game started offline):
    the same key sent again by the same device names this game, never a second one. Kept in the game's key
    table, under the game it made."""
    db.session.add(IdempotentRequest(game_id=game_id, key=_start_key(device, key), status=201, body={"id": game_id}))
    db.session.commit()


def game_started_with(device: str, key: str) -> str | None:
    """The id of the game this device started under this Idempotency-Key (remember_start), if any."""
    return db.session.execute(
        db.select(IdempotentRequest.game_id).where(IdempotentRequest.key == _start_key(device, key)).limit(1)
    ).scalar_one_or_none()


def mark_restored(stored: Stored, original_id: str) -> None:
    """Note the game a restored copy came from (its document's "id"), so the copy can be told from its original.

    Written past the ORM: noting where a game came from is not a change to the game (its version stays)."""
    if not GAME_ID.fullmatch(original_id) or original_id == stored.id:
        return  # not an id this app makes: nothing worth keeping
    table = GameRecord.__table__
    db.session.execute(table.update().where(table.c.id == stored.id).values(restored_from=original_id))
    db.session.commit()


def mark_rematch(stored: Stored, rematch_id: str) -> str:
    """Note the game started as this finished game's rematch, so its scoreboard takes watchers there; unless another
    phone noted its own since this one read the game (both tapped Rematch at once): the rematch the game leads to.

    Written past the ORM, as mark_restored: starting the next game is not a change to this one (its version and
    kept figures stay); the scoreboard's poll finds it with the revision (scoreboard_revision)."""
    table = GameRecord.__table__
    seen = table.c.rematch_id.is_not_distinct_from(stored.seen[1])  # none, or one deleted since
    marked = db.session.scalar(
        table.update().where(table.c.id == stored.id, seen).values(rematch_id=rematch_id).returning(table.c.id)
    )
    now = db.select(table.c.rematch_id).where(table.c.id == stored.id)
    first = None if marked is not None else db.session.scalar(now)  # another phone's, noted first
    db.session.commit()
    return first or rematch_id


def delete_game(stored: Stored) -> None:
    """Delete a whole game: its hands, the devices' rights to it and its remembered API answers go with it."""
    try:
        # The game held first, as a save holds it (then its rights, rights.carry_version): the other order could
        # deadlock with a save on PostgreSQL. Changed on another phone since it was read: nothing deleted.
        if _lock(stored.id) != stored.seen[0]:
            raise EditConflict()
        db.session.execute(db.delete(GameRight).where(GameRight.game_id == stored.id))
        db.session.execute(db.delete(IdempotentRequest).where(IdempotentRequest.game_id == stored.id))
        _note_event_of_deleted(stored)  # a club night's table: its event's revision moves on all the same
        db.session.delete(stored.record)  # its hands go with it (the relationship's cascade)
        db.session.commit()
    except StaleDataError as error:  # changed on another phone at the same moment: nothing deleted
        _release()
        raise EditConflict() from error
    except BaseException:
        _release()
        raise


def restored_from(game_ids: list[str]) -> list[str]:
    """The games these games are restored copies of."""
    if not game_ids:
        return []
    return list(
        db.session.scalars(
            db.select(GameRecord.restored_from).where(
                GameRecord.id.in_(game_ids), GameRecord.restored_from.is_not(None)
            )
        )
    )


# --- The club night's table a game is played at, read with the game (docs/events.md) ----------------------------
# Here rather than in event_store.py, which imports this module: the game's one statement reads it (_game_query), so
# the store needs it, and event_store is above nothing the store imports.


@dataclass(frozen=True)
class TableOfGame:
    """Where a club night's table plays a game, read with the game's own row (_fetch: no statement of its own): the
    event, its name, the round (0-based) and table (0-based), whether the director closed the round, when it started,
    and its minutes (None: no clock)."""

    event_id: str
    event_name: str
    round: int
    table: int
    closed: bool
    started_at: datetime
    minutes: int | None
    confirmed_version: int | None = None
    confirmed_by: str | None = None
    confirmed_at: datetime | None = None

    def confirmed(self, stored: Stored) -> bool:
        """Whether the table's result stands confirmed: its game finished, and unchanged since it was confirmed."""
        return stored.score.finished and self.confirmed_version == stored.record.version

    @property
    def ends(self) -> datetime | None:
        """When the round's time is up (None: no clock)."""
        return utc(self.started_at) + timedelta(minutes=self.minutes) if self.minutes else None

    def time_up(self, now: datetime | None = None) -> bool:
        """Whether the round's time is up at `now` (never without a clock)."""
        ends = self.ends
        return ends is not None and (now or datetime.now(UTC)) >= ends

    def json(self) -> dict[str, Any]:
        """The game document's `event` member (docs/events.md): the event's id, the round and the table, 0-based."""
        return {"id": self.event_id, "round": self.round, "table": self.table}


_TABLE_OF_GAME = (
    EventTableRecord.event_id.label("at_event_id"),
    EventRecord.document["name"].as_string().label("at_event_name"),
    EventTableRecord.round.label("at_event_round"),
    EventTableRecord.table.label("at_event_table"),
    EventRoundRecord.closed.label("at_event_closed"),
    EventRoundRecord.started_at.label("at_event_started_at"),
    EventRecord.document["round_minutes"].as_integer().label("at_event_minutes"),
    EventTableRecord.confirmed_version.label("at_event_confirmed_version"),
    EventTableRecord.confirmed_by.label("at_event_confirmed_by"),
    EventTableRecord.confirmed_at.label("at_event_confirmed_at"),
)


def _with_table_of_game(query: Select) -> Select:
    """A game's read (_game_query) with the club night's table it is played at: outer joins on indexed keys, all NULL
    for a game of no event. The same one statement reads the game."""
    return (
        query.add_columns(*_TABLE_OF_GAME)
        .outerjoin(EventTableRecord, EventTableRecord.game_id == GameRecord.id)
        .outerjoin(
            EventRoundRecord,
            (EventRoundRecord.event_id == EventTableRecord.event_id)
            & (EventRoundRecord.round == EventTableRecord.round),
        )
        .outerjoin(EventRecord, EventRecord.id == EventTableRecord.event_id)
    )


def _table_in_row(row: Any) -> TableOfGame | None:
    """The table of a game's row read with _with_table_of_game, or None for a game of no event."""
    if row.at_event_id is None:
        return None
    return TableOfGame(
        row.at_event_id,
        row.at_event_name or "",
        row.at_event_round,
        row.at_event_table,
        bool(row.at_event_closed),
        row.at_event_started_at,
        row.at_event_minutes,
        row.at_event_confirmed_version,
        row.at_event_confirmed_by,
        row.at_event_confirmed_at,
    )


def _note_event_of_deleted(stored: Stored) -> None:
    """A club night's table's game is being deleted (delete_game, in its transaction): the event's own version goes
    up by the game's version and one, so its revision (its version plus its games' versions) still goes up, and no
    wall is answered 304 for what it showed before. Nothing for a game of no event."""
    at = stored.at_event
    if at is not None:
        events_table = EventRecord.__table__
        db.session.execute(
            events_table.update()
            .where(events_table.c.id == at.event_id)
            .values(version=events_table.c.version + stored.seen[0] + 1, updated_at=datetime.now(UTC))
        )
