"""Stored club nights (docs/events.md): an event, its rounds, each round's tables and their games, the cards'
seats, confirmations and corrections. Beside `store.py` (games), below the service: it knows no HTTP status or
page. Each table's game is an ordinary stored game; this module keeps only which game a table plays.

The event's revision is its own version (a round started, a late pair, a confirmation) plus the versions of every
game of its tables: any save at any table raises it, read in one small statement (the wall screen's poll).
"""

from __future__ import annotations

import functools
import secrets
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, NamedTuple, Protocol

from sqlalchemy import Engine, bindparam, func, inspect, select
from sqlalchemy.exc import IntegrityError

from . import events, store
from .models import EventCorrection, EventRecord, EventRoundRecord, EventSeatRecord, EventTableRecord, GameRecord, db
from .rules import Problem, RuleError
from .rules.errors import Message


class EventNotFound(Exception):
    """No event has this id."""


class SeatedTable(Protocol):
    """One table of one round as the standings read it: an EventTableRecord, or a row of `load_standings`."""

    @property
    def round(self) -> int: ...
    @property
    def table(self) -> int: ...
    @property
    def pairs(self) -> Sequence[int]: ...
    @property
    def game_id(self) -> str: ...
    @property
    def confirmed_version(self) -> int | None: ...


class SeatRow(NamedTuple):
    """A table of a round as `load_standings` reads it (a SeatedTable)."""

    round: int
    table: int
    pairs: tuple[int, int]
    game_id: str
    confirmed_version: int | None


class TableFigures(NamedTuple):
    """What the standings need of a table's game: its version, each side's cumulative, finished, hands played."""

    version: int
    points: tuple[int, int]
    finished: bool
    hands: int

    @classmethod
    def of(cls, stored: store.Stored) -> TableFigures:
        score = stored.score
        return cls(stored.record.version, (score.totals[0], score.totals[1]), score.finished, len(score.hands))


@dataclass
class StoredEvent:
    """An event as stored: its row, its document read back, its rounds, tables (by round, then table), seats,
    and the games of its tables (loaded with them); or, read for the standings alone (`load_standings`), each
    table's figures (`figures`, by game) in place of its game."""

    record: EventRecord
    rounds: list[EventRoundRecord]
    tables: list[EventTableRecord]
    seats: list[EventSeatRecord]
    games: dict[str, store.Stored] = field(default_factory=dict)
    figures: dict[str, TableFigures] | None = None
    read: tuple[Any, events.Event] | None = field(default=None, repr=False, compare=False)

    def table_figures(self) -> dict[str, TableFigures]:
        """Each table's figures by game: as read for the standings, else from the games loaded."""
        if self.figures is not None:
            return self.figures
        return {game_id: TableFigures.of(stored) for game_id, stored in self.games.items()}

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def event(self) -> events.Event:
        """The event's document read back: once for each document the row holds (a late pair gives it a new one)."""
        document = self.record.document
        if self.read is None or self.read[0] is not document:
            self.read = (document, events.event_from_json(document))
        return self.read[1]

    @property
    def revision(self) -> int:
        """The event's version plus its games' versions (as `event_revision` reads it)."""
        return self.record.version + sum(figures.version for figures in self.table_figures().values())

    def round_tables(self, round: int) -> list[EventTableRecord]:
        return [table for table in self.tables if table.round == round]

    @staticmethod
    def table_result(table: SeatedTable, closed: bool, figures: TableFigures | None) -> events.TableResult:
        """One table as it stands: each pair's cumulative, hands played, finished (or closed), confirmed."""
        if figures is None:  # its game was deleted: the table counts nothing, and holds no round up
            return events.TableResult(table.table, (table.pairs[0], table.pairs[1]), finished=True, game=None)
        return events.TableResult(
            table=table.table,
            pairs=(table.pairs[0], table.pairs[1]),
            points=figures.points,
            finished=figures.finished or closed,
            confirmed=figures.finished and table.confirmed_version == figures.version,
            hands=figures.hands,
            game=table.game_id,
        )

    def results(self) -> tuple[events.RoundResult, ...]:
        """Every round started, with its tables' results: what the standings are worked out from."""
        figures = self.table_figures()
        by_round: dict[int, list[events.TableResult]] = {held.round: [] for held in self.rounds}
        closed = {held.round: held.closed for held in self.rounds}
        for table in self.tables:  # in order: by round, then table
            if table.round in by_round:
                # A row of load_standings (hashable, never changed) is worked out once for its figures (_row_result).
                result = _row_result if isinstance(table, SeatRow) else self.table_result
                by_round[table.round].append(result(table, closed[table.round], figures.get(table.game_id)))
        return tuple(events.RoundResult(tuple(by_round[held.round]), held.bye) for held in self.rounds)

    def standings(self, results: tuple[events.RoundResult, ...]) -> tuple[events.Standing, ...]:
        """events.standings of these results, worked out once per version of the event and finished tables' results
        in this process: a hand saved at a table still playing changes no standing (only finished tables count, and
        a round's average for its bye only once every table has finished), so a night's wall, which is asked again
        after every such hand, ranks its 2,000 pairs again only when a table finishes or a finished one changes."""
        finished = tuple(
            (round, table.table, table.pairs, table.points)
            for round, result in enumerate(results)
            for table in result.tables
            if table.finished
        )
        key = (self.id, self.record.version, finished)
        with _STANDINGS_LOCK:
            kept = _STANDINGS_KEPT.get(self.id)
        if kept is not None and kept[0] == key:
            return kept[1]
        lines = events.standings(self.event, results)
        with _STANDINGS_LOCK:
            _STANDINGS_KEPT[self.id] = (key, lines)
            _STANDINGS_KEPT.move_to_end(self.id)
            while len(_STANDINGS_KEPT) > 64:
                _STANDINGS_KEPT.popitem(last=False)
        return lines

    def document(self, results: tuple[events.RoundResult, ...] | None = None) -> dict[str, Any]:
        """The event document with everything the server adds (docs/events.md); `results`: as results() gives them,
        if worked out already."""
        return events.event_document(
            self.event,
            self.results() if results is None else results,
            id=self.id,
            room_code=self.record.room_code,
            revision=self.revision,
            created=store.utc(self.record.created_at).isoformat(),
            updated=store.utc(self.record.updated_at).isoformat(),
        )

    def seat(self, table: int) -> EventSeatRecord | None:
        return next((seat for seat in self.seats if seat.table == table), None)

    def current_table(self, table: int) -> EventTableRecord | None:
        """Table `table` in the latest round (None: it plays no game this round, its pair sitting out)."""
        latest = self.rounds[-1].round if self.rounds else -1
        return next((t for t in self.tables if t.round == latest and t.table == table), None)

    def table_at(self, round: int, table: int) -> EventTableRecord | None:
        return next((t for t in self.tables if t.round == round and t.table == table), None)


# The standings last worked out for each event (StoredEvent.standings), by id: its key, then the lines.
_STANDINGS_KEPT: OrderedDict[str, tuple[tuple, tuple[events.Standing, ...]]] = OrderedDict()
_STANDINGS_LOCK = threading.Lock()


@functools.lru_cache(maxsize=50_000)
def _row_result(table: SeatRow, closed: bool, figures: TableFigures | None) -> events.TableResult:
    """StoredEvent.table_result of a row of load_standings, kept in this process: a wall screen's changed answer
    works out only the tables whose figures changed (a night of 1,000 tables has about 3,000 at a time)."""
    return StoredEvent.table_result(table, closed, figures)


def _new_code() -> str:
    return store.new_room_code()


def create_event(
    event: events.Event, seating: events.RoundSeating, games: list[store.Stored], director_device: str | None
) -> tuple[StoredEvent, str]:
    """Store a new event with its first round (the games already stored, one per table of `seating`): the event,
    round 0, its tables and a seat (a card's room code) for every table. Returns it and the director's token (only
    its hash is kept)."""
    for _attempt in range(5):
        token = secrets.token_urlsafe(24)
        now = datetime.now(UTC)
        record = EventRecord(
            id=secrets.token_urlsafe(9),
            director_token_hash=store.token_hash(token),
            director_device=director_device,
            document=events.event_json(event),
            room_code=_new_code(),
            version=1,
            created_at=now,
            updated_at=now,
        )
        seats = [EventSeatRecord(event_id=record.id, table=t, room_code=_new_code()) for t in range(event.tables)]
        db.session.add(record)
        db.session.flush()
        db.session.add_all(seats)
        try:
            held = _add_round(record, seating, games)
            db.session.commit()
        except IntegrityError:  # a room code was taken (about one chance in millions): draw them again
            db.session.rollback()
            continue
        return StoredEvent(record, [held[0]], held[1], seats, {g.id: g for g in games}), token
    raise store.EditConflict("no free room code")


def _add_round(
    record: EventRecord, seating: events.RoundSeating, games: list[store.Stored]
) -> tuple[EventRoundRecord, list[EventTableRecord]]:
    held = EventRoundRecord(event_id=record.id, round=seating.round, bye=seating.bye, started_at=datetime.now(UTC))
    tables = [
        EventTableRecord(
            event_id=record.id, round=seating.round, table=seat.table, pairs=list(seat.pairs), game_id=game.id
        )
        for seat, game in zip(seating.tables, games, strict=True)
    ]
    db.session.add(held)
    db.session.add_all(tables)
    db.session.flush()
    return held, tables


def _touch(record: EventRecord) -> None:
    """Raise the event's version in the database itself (version = version + 1), so two changes at once each raise
    it; every caller commits at once, which reloads the new version."""
    record.version = EventRecord.version + 1  # an SQL expression, run by the UPDATE
    record.updated_at = datetime.now(UTC)


def load_event(event_id: str, games: bool = True, tables: bool = True) -> StoredEvent:
    """The event with its rounds, tables and seats, and (`games`) every table's game: EventNotFound if none.
    `tables` False: its rounds alone (load_standings reads the tables itself)."""
    record = db.session.get(EventRecord, event_id) if store.GAME_ID.fullmatch(event_id) else None
    if record is None:
        raise EventNotFound(event_id)
    rounds = list(
        db.session.scalars(
            select(EventRoundRecord).where(EventRoundRecord.event_id == event_id).order_by(EventRoundRecord.round)
        )
    )
    if not tables:
        return StoredEvent(record, rounds, [], [])
    seated = list(
        db.session.scalars(
            select(EventTableRecord)
            .where(EventTableRecord.event_id == event_id)
            .order_by(EventTableRecord.round, EventTableRecord.table)
        )
    )
    seats = list(
        db.session.scalars(
            select(EventSeatRecord).where(EventSeatRecord.event_id == event_id).order_by(EventSeatRecord.table)
        )
    )
    held = StoredEvent(record, rounds, seated, seats)
    if games:
        held.games = {stored.id: stored for stored in store.load_games([t.game_id for t in seated])}
    return held


_tables = EventTableRecord.__table__
_games = GameRecord.__table__
# Every table of an event with what the standings need of its game, from the figures kept with the game's version
# (store: "Figures kept until the next change"): one statement, no game loaded, no hand read, nothing scored.
_STANDINGS = (
    select(
        _tables.c.round,
        _tables.c.table,
        _tables.c.pairs[0].as_integer().label("north_south"),
        _tables.c.pairs[1].as_integer().label("east_west"),
        _tables.c.game_id,
        _tables.c.confirmed_version,
        _games.c.version,
        _games.c.figures_version,
        _games.c.figures["format"].as_integer().label("figures_format"),
        _games.c.figures[("totals", 0)].as_integer().label("first"),
        _games.c.figures[("totals", 1)].as_integer().label("second"),
        _games.c.figures["finished"].as_boolean().label("finished"),
        func.json_array_length(_games.c.figures["hands"]).label("hands"),
    )
    .select_from(_tables.outerjoin(_games, _games.c.id == _tables.c.game_id))
    .where(_tables.c.event_id == bindparam("event_id"))
    .order_by(_tables.c.round, _tables.c.table)
)


# Events read back, by id and version (the document changes only with the version: a late pair), for load_standings
# and the wall's glance: a wall screen of 2,000 pairs reads the same document on every change at a table.
_EVENTS_READ: OrderedDict[tuple[str, int], events.Event] = OrderedDict()
_EVENTS_LOCK = threading.Lock()


def _event_kept(event_id: str, version: int) -> events.Event | None:
    """The event's document as read back at this version in this process, if it was."""
    with _EVENTS_LOCK:
        read = _EVENTS_READ.get((event_id, version))
        if read is not None:
            _EVENTS_READ.move_to_end((event_id, version))
        return read


def _event_read(event_id: str, version: int, document: dict) -> events.Event:
    """The event document read back, once per version of the event in this process (64 kept)."""
    read = _event_kept(event_id, version)
    if read is not None:
        return read
    read = events.event_from_json(document)
    with _EVENTS_LOCK:
        _EVENTS_READ[(event_id, version)] = read
        while len(_EVENTS_READ) > 64:
            _EVENTS_READ.popitem(last=False)
    return read


def load_standings(event_id: str) -> StoredEvent:
    """The event read for its standings alone (the wall screen, the API's reads, the results): its row, its rounds,
    and its tables with their games' kept figures (`StoredEvent.figures`); EventNotFound if none. A game whose
    figures are not kept for its version (stored before figures were kept) is loaded and scored once.
    Read-only: its tables are rows (no seats, no games), its row and rounds as this process last read them for this
    version of the event, never to be changed or confirmed through.

    Made from what this process read last time, checked against the database (`_Kept`): one statement reads the
    event's version and each table's game and version; only the games whose version moved are read again (one
    statement more). A new version of the event (a round, a late pair, a confirmation, a correction) reads it all
    again. What is read is as new as the statement that read it, never older."""
    key = (db.engine, event_id)
    rows = db.session.execute(_VERSIONS, {"event_id": event_id}).all() if store.GAME_ID.fullmatch(event_id) else []
    if not rows:
        raise EventNotFound(event_id)
    with _KEPT_LOCK:
        kept = _KEPT.get(key)
    games = tuple(row[1] for row in rows if row[1] is not None)
    if kept is None or kept.version != rows[0][0] or kept.games != games:
        kept = _read_standings(event_id)
    else:
        kept = kept.moved_on({game_id: version for _, game_id, version in rows if game_id is not None})
    with _KEPT_LOCK:
        _KEPT[key] = kept
        _KEPT.move_to_end(key)
        while len(_KEPT) > 64:
            _KEPT.popitem(last=False)
    held = StoredEvent(kept.record, list(kept.rounds), [], [])
    held.read = (kept.record.document, kept.event)
    held.tables = list(kept.tables)  # type: ignore[arg-type]  # rows with an EventTableRecord's attributes
    held.figures = kept.figures
    return held


_events = EventRecord.__table__
# The event's version and each of its tables' game and that game's version (None: deleted), in the standings' order:
# what load_standings checks what it kept against.
_VERSIONS = (
    select(_events.c.version, _tables.c.game_id, _games.c.version)
    .select_from(
        _events.outerjoin(_tables, _tables.c.event_id == _events.c.id).outerjoin(
            _games, _games.c.id == _tables.c.game_id
        )
    )
    .where(_events.c.id == bindparam("event_id"))
    .order_by(_tables.c.round, _tables.c.table)
)
# The kept figures of some games (those whose version moved since they were read).
_FIGURES = select(
    _games.c.id,
    _games.c.version,
    _games.c.figures_version,
    _games.c.figures["format"].as_integer(),
    _games.c.figures[("totals", 0)].as_integer(),
    _games.c.figures[("totals", 1)].as_integer(),
    _games.c.figures["finished"].as_boolean(),
    func.json_array_length(_games.c.figures["hands"]),
).where(_games.c.id.in_(bindparam("ids", expanding=True)))


@dataclass(frozen=True)
class _Kept:
    """What load_standings read of one event, kept in this process for the next read: the event's row and rounds
    (detached from any session: as read), its document read back, its tables, each table's game (in order) and
    each game's figures. Never changed: a newer read makes a new one."""

    version: int
    record: EventRecord
    rounds: tuple[EventRoundRecord, ...]
    event: events.Event
    tables: tuple[SeatRow, ...]
    games: tuple[str, ...]
    figures: dict[str, TableFigures]

    def moved_on(self, versions: dict[str, int | None]) -> _Kept:
        """The same event with the figures of each game whose version is not the one kept read again (a deleted
        game's dropped)."""
        moved = [g for g, v in versions.items() if v is not None and getattr(self.figures.get(g), "version", 0) != v]
        gone = [g for g, v in versions.items() if v is None and g in self.figures]
        if not moved and not gone:
            return self
        figures = {g: f for g, f in self.figures.items() if g not in gone}
        figures.update(_figures_of(moved))
        return _Kept(self.version, self.record, self.rounds, self.event, self.tables, self.games, figures)


_KEPT: OrderedDict[tuple[Engine, str], _Kept] = OrderedDict()
_KEPT_LOCK = threading.Lock()


def _figures_of(game_ids: list[str]) -> dict[str, TableFigures]:
    """The figures of these games as kept with their versions (a game without them loaded and scored)."""
    figures, unkept = {}, []
    if game_ids:
        for game_id, version, kept, kind, first, second, ended, hands in db.session.execute(
            _FIGURES, {"ids": game_ids}
        ):
            if not store.figures_current(version, kept, kind) or first is None:
                unkept.append(game_id)
            else:
                figures[game_id] = TableFigures(version, (first, second), bool(ended), hands)
    figures.update({stored.id: TableFigures.of(stored) for stored in store.load_games(unkept)})
    return figures


def _read_standings(event_id: str) -> _Kept:
    """Everything load_standings keeps, read afresh: the event's row and rounds (then let go of by the session, so
    they stay as read), and its tables with their games' kept figures in one statement."""
    held = load_event(event_id, games=False, tables=False)
    event = _event_read(event_id, held.record.version, held.record.document)
    for read in (held.record, *held.rounds):
        if inspect(read).unloaded:  # an attribute expired by an earlier commit in this session: read it now
            db.session.refresh(read)
        db.session.expunge(read)
    rows = db.session.execute(_STANDINGS, {"event_id": event_id}).all()
    figures, unkept, seated = {}, [], []
    for round, table, north, east, game_id, confirmed, version, kept, kind, first, second, ended, hands in rows:
        seated.append(SeatRow(round, table, (north, east), game_id, confirmed))
        if version is None:  # the game was deleted
            continue
        if not store.figures_current(version, kept, kind) or first is None:
            unkept.append(game_id)
            continue
        figures[game_id] = TableFigures(version, (first, second), bool(ended), hands)
    figures.update({stored.id: TableFigures.of(stored) for stored in store.load_games(unkept)})
    games = tuple(t.game_id for t in seated if t.game_id is not None)
    return _Kept(held.record.version, held.record, tuple(held.rounds), event, tuple(seated), games, figures)


def director_token_matches(held: StoredEvent, token: str | None) -> bool:
    """Whether `token` is the event's director's token."""
    return bool(token) and secrets.compare_digest(store.token_hash(token or ""), held.record.director_token_hash)


def add_round(held: StoredEvent, seating: events.RoundSeating, games: list[store.Stored], closed: bool) -> None:
    """Store the next round (its games already stored); `closed`: the round before it was closed by the director
    (its unfinished tables end as they stand). EditConflict when another start of the same round came first."""
    if closed and held.rounds:
        held.rounds[-1].closed = True
    try:
        round_record, tables = _add_round(held.record, seating, games)
        _touch(held.record)
        db.session.commit()
    except IntegrityError as error:  # the same round started at the same moment elsewhere
        db.session.rollback()
        raise store.EditConflict("round already started") from error
    held.rounds.append(round_record)
    held.tables.extend(tables)
    held.games.update({g.id: g for g in games})


def close_round(held: StoredEvent) -> bool:
    """Close the round being played (the last: no round follows it), its unfinished tables ending as they stand, and
    raise the event's revision. One statement decides, so two phones closing it at once close it once: False, and
    nothing changed, when it was closed already."""
    latest = held.rounds[-1]
    rounds = EventRoundRecord.__table__
    closed = db.session.scalar(
        rounds.update()
        .where(rounds.c.event_id == held.id, rounds.c.round == latest.round, rounds.c.closed.is_(False))
        .values(closed=True)
        .returning(rounds.c.round)
    )
    if closed is not None:
        _touch(held.record)
    db.session.commit()
    db.session.refresh(latest)
    return closed is not None


def save_event(held: StoredEvent, event: events.Event) -> None:
    """Keep the event's document as changed (a late pair), and its revision raised; a seat for a new table."""
    held.record.document = events.event_json(event)
    for table in range(len(held.seats), event.tables):
        seat = EventSeatRecord(event_id=held.id, table=table, room_code=_new_code())
        db.session.add(seat)
        held.seats.append(seat)
    _touch(held.record)
    db.session.commit()


def confirm(held: StoredEvent, table: EventTableRecord, by: str) -> bool:
    """The table's result confirmed, as of its game's version now (any later change clears it). False, and nothing
    recorded, when it stands confirmed already (a second tap, a second phone): the first confirmation holds."""
    stored = held.games[table.game_id]
    if table.confirmed_version == stored.record.version:
        return False
    table.confirmed_version = stored.record.version
    table.confirmed_by = by
    table.confirmed_at = datetime.now(UTC)
    _touch(held.record)
    db.session.commit()
    return True


def record_correction(
    held: StoredEvent, table: EventTableRecord, hand: int, who: str, before: list | None, after: list | None
) -> None:
    """A hand of a table's game changed after it was saved: who, when, the hand and its entries before and after.
    The confirmation is cleared by the change itself (the game's version moved on)."""
    db.session.add(
        EventCorrection(
            event_id=held.id, round=table.round, table=table.table, hand=hand, who=who, before=before, after=after
        )
    )
    _touch(held.record)
    db.session.commit()


def corrections(event_id: str) -> list[EventCorrection]:
    """Every correction recorded for the event, oldest first."""
    return list(
        db.session.scalars(
            select(EventCorrection).where(EventCorrection.event_id == event_id).order_by(EventCorrection.id)
        )
    )


def claim_seat(held: StoredEvent, table: int, device: str) -> bool:
    """Whether this device keeps the score of table `table`: the first device to open the table's card claims it
    (one statement: only while nobody has); another device watches."""
    seat = held.seat(table)
    if seat is None:
        return False
    if seat.keeper_device is None:
        db.session.execute(
            EventSeatRecord.__table__.update()
            .where(
                EventSeatRecord.event_id == held.id,
                EventSeatRecord.table == table,
                EventSeatRecord.keeper_device.is_(None),
            )
            .values(keeper_device=device)
        )
        db.session.commit()
        db.session.refresh(seat)
    return seat.keeper_device == device


def keepers(held: StoredEvent) -> dict[int, str]:
    """The device keeping each table's score, by table."""
    return {seat.table: seat.keeper_device for seat in held.seats if seat.keeper_device}


# --- Looking up, cheaply -------------------------------------------------------------------------------------

_GAMES_VERSIONS = (
    select(func.coalesce(func.sum(GameRecord.version), 0))
    .select_from(EventTableRecord)
    .join(GameRecord, GameRecord.id == EventTableRecord.game_id)
    .where(EventTableRecord.event_id == bindparam("event_id"))
    .scalar_subquery()
)
_REVISION = select(EventRecord.version + _GAMES_VERSIONS).where(EventRecord.id == bindparam("event_id"))


def event_revision(event_id: str) -> int | None:
    """The event's revision in one statement (no game loaded, nothing scored), or None if there is no event."""
    if not store.GAME_ID.fullmatch(event_id):
        return None
    return db.session.execute(_REVISION, {"event_id": event_id}).scalar()


_LATEST_START = (
    select(EventRoundRecord.started_at)
    .where(EventRoundRecord.event_id == bindparam("event_id"))
    .order_by(EventRoundRecord.round.desc())
    .limit(1)
    .scalar_subquery()
)
_LATEST_ROUND = (
    select(func.max(EventRoundRecord.round)).where(EventRoundRecord.event_id == bindparam("event_id")).scalar_subquery()
)
_ROUND_TABLES = (
    select(func.count())
    .select_from(EventTableRecord)
    .where(EventTableRecord.event_id == bindparam("event_id"), EventTableRecord.round == _LATEST_ROUND)
    .scalar_subquery()
)
# No part of the document: a club night of 2,000 pairs is a document of 100 kB or more, which PostgreSQL parses again
# for each part of a json column asked for (1.6 ms each at 1,000 tables). Its pairs and minutes per round change only
# with the event's version, so they are read from the document once per version (_event_read).
_WALL_GLANCE = select(EventRecord.version, _GAMES_VERSIONS, _LATEST_START, _ROUND_TABLES).where(
    EventRecord.id == bindparam("event_id")
)
_VERSION_AND_DOCUMENT = select(EventRecord.version, EventRecord.document).where(EventRecord.id == bindparam("event_id"))


class WallGlance(NamedTuple):
    """What the wall screen's poll needs to know whether anything changed: the event's revision, when the round
    being played ends (None: no clock), and how many rows its two lists have (the pairs, and the round's tables),
    which tell how many pages the wall turns."""

    revision: int
    ends: datetime | None
    pairs: int
    tables: int


def wall_glance(event_id: str, engine: Engine | None = None) -> WallGlance | None:
    """The event's revision, its round's end and the lengths of the wall's lists, on a connection of its own in
    autocommit (store.glancing: the wall's unchanged poll, also before Flask, delivery.RevisionGate), or None if
    there is no such event. One statement; a second, once per version of the event in this process, for its
    document (the pairs and the round's minutes)."""
    if not store.GAME_ID.fullmatch(event_id):
        return None
    with store.glancing(engine) as connection:
        row = connection.execute(_WALL_GLANCE, {"event_id": event_id}).first()
        if row is None:
            return None
        version, games, started, tables = row
        event = _event_kept(event_id, version)
        if event is None:  # read with its own version: a late pair added since is read as the newer version it is
            read = connection.execute(_VERSION_AND_DOCUMENT, {"event_id": event_id}).first()
            if read is None:
                return None
            event = _event_read(event_id, read[0], read[1])
    minutes = event.round_minutes
    ends = store.utc(started) + timedelta(minutes=minutes) if started is not None and minutes else None
    return WallGlance(version + games, ends, len(event.pairs), tables or 0)


def place_of_room_code(code: str) -> tuple[str, int | None] | None:
    """What a room code names besides a game: an event's wall screen (event id, None), or a table's card (event
    id, table); None if neither."""
    event_id = db.session.execute(select(EventRecord.id).where(EventRecord.room_code == code)).scalar()
    if event_id is not None:
        return event_id, None
    seat = db.session.execute(
        select(EventSeatRecord.event_id, EventSeatRecord.table).where(EventSeatRecord.room_code == code)
    ).first()
    return (seat[0], seat[1]) if seat is not None else None


def note_change(stored: store.Stored, position: int, before: list, device: str | None) -> None:
    """A saved hand of a game changed (service.py calls this after every correction, deletion, Undo or Redo of a
    hand): when the game is a club night's table, the change is recorded, said to be the director's when the
    director's phone made it, else the table's scorekeeper's. One indexed look-up for a game of no event."""
    row = db.session.execute(
        select(EventTableRecord, EventRecord)
        .join(EventRecord, EventRecord.id == EventTableRecord.event_id)
        .where(EventTableRecord.game_id == stored.id)
    ).first()
    if row is None:
        return
    table, record = row
    who = "director" if device is not None and device == record.director_device else "scorekeeper"
    after = stored.hand_entries[position] if position < stored.hand_count else None
    db.session.add(
        EventCorrection(
            event_id=record.id, round=table.round, table=table.table, hand=position, who=who, before=before, after=after
        )
    )
    _touch(record)
    db.session.commit()


# --- The table a game is played at, read with the game --------------------------------------------------------


# Read with the game's own row, by the store (its one statement); named here too, where club nights are kept.
TableOfGame = store.TableOfGame


_CLOCK_OF_GAME = (
    select(EventRoundRecord.round, EventRoundRecord.started_at, EventRecord.document["round_minutes"].as_integer())
    .select_from(EventTableRecord)
    .join(
        EventRoundRecord,
        (EventRoundRecord.event_id == EventTableRecord.event_id) & (EventRoundRecord.round == EventTableRecord.round),
    )
    .join(EventRecord, EventRecord.id == EventTableRecord.event_id)
    .where(EventTableRecord.game_id == bindparam("game_id"))
)


def clock_of_game(game_id: str) -> tuple[int, datetime, int | None] | None:
    """The round a game is played in, when it started and its minutes (None: no clock), in one small statement (the
    scoresheet's clock line); None for a game of no event."""
    if not store.GAME_ID.fullmatch(game_id):
        return None
    row = db.session.execute(_CLOCK_OF_GAME, {"game_id": game_id}).first()
    return None if row is None else (row[0], store.utc(row[1]), row[2])


ROUND_CLOSED = Message("This round is closed: ask the director to correct a hand.")


def refuse_new_hand(stored: store.Stored) -> None:
    """A new hand for a club night's table whose round the director closed is refused in words (RuleError: every
    door keeps what was typed); a correction of a saved hand is not (it does not come here)."""
    at = stored.at_event
    if at is not None and at.closed:
        raise RuleError([Problem((), ROUND_CLOSED)])
