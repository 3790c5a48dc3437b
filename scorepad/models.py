"""Tables only: a game stores what was entered; the rules compute every figure."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, ClassVar

from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import JSON, DateTime, Float, ForeignKey, Index, Integer, String, Table, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


class Base(DeclarativeBase):
    """The declarative base of Scorepad's tables."""

    if TYPE_CHECKING:
        # Each of our tables is a plain Table (SQLAlchemy types it as any FromClause): Core statements take it.
        __table__: ClassVar[Table]


db = SQLAlchemy(model_class=Base)

# Flask-SQLAlchemy makes db.Model at run time from Base (adding its session's query and metadata), which a type
# checker cannot follow; to one, a table is what it is to SQLAlchemy: a mapped class of Base.
if TYPE_CHECKING:
    Model = Base
else:
    Model = db.Model


def _now() -> datetime:
    return datetime.now(UTC)


class GameRecord(Model):
    """A game: its rules, sides and first dealer as entered, and a version for safe concurrent edits."""

    __tablename__ = "games"
    __table_args__ = (UniqueConstraint("room_code", name="uq_games_room_code"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    edit_token_hash: Mapped[str] = mapped_column(String(64))
    # The rules and the figures (below) are read together, and only when asked for: a page made once per
    # revision and reused (delivery.made_once) needs neither.
    rules: Mapped[dict] = mapped_column(JSON, deferred=True, deferred_group="made")
    sides: Mapped[list] = mapped_column(JSON)
    first_dealer: Mapped[int] = mapped_column(Integer, default=0)
    version: Mapped[int] = mapped_column(Integer, nullable=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    # A short code to join the scoreboard, read aloud across the table (docs/api.md).
    room_code: Mapped[str | None] = mapped_column(String(8))
    # The game this one was restored from, so a restored copy can be told from its original.
    restored_from: Mapped[str | None] = mapped_column(String(32))
    # The game started as this one's rematch (the latest, if started twice): its scoreboard takes watchers there.
    rematch_id: Mapped[str | None] = mapped_column(String(32))
    # A club night's table whose round's time was up: the game ended after this many hands (docs/events.md), the
    # clock's end and not a table rule (its rules stay as the event gave them). None: no clock ended it.
    clock_ended_after: Mapped[int | None] = mapped_column(Integer)
    # What the table wants to remember ("at Ann's"): kept, shown and exported, never scored.
    note: Mapped[str | None] = mapped_column(String(500))
    # The handover link's key is derived from this (docs/architecture.md); revoking raises it, so old links fail.
    handover_generation: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # Every figure of the game as of `figures_version`: reading a game reuses them until its next change.
    figures: Mapped[dict | None] = mapped_column(JSON, deferred=True, deferred_group="made")
    figures_version: Mapped[int | None] = mapped_column(Integer)

    hands: Mapped[list[HandRecord]] = relationship(
        back_populates="game", order_by="HandRecord.position", cascade="all, delete-orphan"
    )

    # Every change bumps the version; a write based on a stale read fails instead of overwriting.
    __mapper_args__ = {"version_id_col": version}


class HandRecord(Model):
    """One hand: each side's entries as entered (the document's side objects, without results)."""

    __tablename__ = "hands"
    __table_args__ = (UniqueConstraint("game_id", "position", name="uq_hands_game_position"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    sides: Mapped[list] = mapped_column(JSON)
    note: Mapped[str | None] = mapped_column(String(500))  # "misdeal": kept, shown and exported, never scored
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)

    game: Mapped[GameRecord] = relationship(back_populates="hands")


class IdempotentRequest(Model):
    """A request with an Idempotency-Key already answered: what it did, so the same key sent again does nothing
    twice. Kept a day (store.IDEMPOTENCY_KEY_LIFETIME), then deleted, whatever the game."""

    __tablename__ = "idempotency_keys"
    __table_args__ = (Index("ix_idempotency_keys_created_at", "created_at"),)  # the keys a day old, for deleting

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    status: Mapped[int] = mapped_column(Integer)
    # A reference to what the request made, never a whole answer: {"hand": n} (the position the hand was stored
    # at) for a hand, {"id": game id} for a game started offline.
    body: Mapped[dict] = mapped_column(JSON)
    # The digest of what a hand's request sent (store.request_hash): the same key with another hand is refused.
    request_hash: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class GameRight(Model):
    """A device that may change a game: the one that started it, or one that opened its handover link."""

    __tablename__ = "game_rights"

    device_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True, index=True)
    via: Mapped[str] = mapped_column(String(10))  # "created" (started or restored here) or "link" (handover)
    label: Mapped[str] = mapped_column(String(80), default="")  # what the scorekeeper is shown: browser and phone
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    last_used_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    # The game's own start (games.created_at, which never changes) and its version (kept in step by
    # rights.carry_version), copied here so that a page of a device's history is read from the index below
    # alone: a range of it, newest first, with no join to sort and no game to look up.
    game_created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    game_version: Mapped[int] = mapped_column(Integer)

    __table_args__ = (
        Index("ix_game_rights_history", "device_hash", game_created_at.desc(), game_id.desc(), "via", "game_version"),
    )


class RuleSet(Model):
    """A table's rules saved under a name ("Tuesday club") on a device, to start the next game from."""

    __tablename__ = "rule_sets"
    __table_args__ = (UniqueConstraint("device_hash", "name", name="uq_rule_sets_device_name"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    device_hash: Mapped[str] = mapped_column(String(64), index=True)
    name: Mapped[str] = mapped_column(String(40))
    rules: Mapped[dict] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class RateLimitCount(Model):
    """One rate limit's count for one client in its current window (scorepad/ratelimits.py), when the limits
    count in the database: shared by every worker and machine."""

    __tablename__ = "rate_limits"

    key: Mapped[str] = mapped_column(String(255), primary_key=True)
    hits: Mapped[int] = mapped_column(Integer, nullable=False)
    expires_at: Mapped[float] = mapped_column(Float, nullable=False)  # when the window ends, in seconds since the epoch


# --- Club nights (docs/events.md): an event, its tables' games round by round, confirmations, corrections --------


class EventRecord(Model):
    """A club night: the director's document (pairs, movement, rounds, clock, scoring) as checked, the director's
    token (its hash) and the device that created it on the page, the wall screen's room code. `version` is raised
    by the event's own changes (a round started, a late pair, a confirmation); the event's revision adds its games'
    versions (scorepad/event_store.py)."""

    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("room_code", name="uq_events_room_code"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    director_token_hash: Mapped[str] = mapped_column(String(64))
    director_device: Mapped[str | None] = mapped_column(String(64))
    document: Mapped[dict] = mapped_column(JSON)
    room_code: Mapped[str] = mapped_column(String(8))
    version: Mapped[int] = mapped_column(Integer, nullable=False, default=1)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class EventRoundRecord(Model):
    """One round started: when (the clock counts from it), the pair that sits out, and whether the director
    closed it (its unfinished tables ended as they stood)."""

    __tablename__ = "event_rounds"

    event_id: Mapped[str] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    bye: Mapped[int | None] = mapped_column(Integer)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    closed: Mapped[bool] = mapped_column(default=False)


class EventTableRecord(Model):
    """One table in one round: its two pairs (side 0 first), its game (an ordinary game), and the confirmation:
    the game's version when the other pair or the director confirmed it (a later change clears it)."""

    __tablename__ = "event_tables"

    event_id: Mapped[str] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    table: Mapped[int] = mapped_column(Integer, primary_key=True)
    pairs: Mapped[list] = mapped_column(JSON)
    game_id: Mapped[str] = mapped_column(String(32), index=True)
    confirmed_version: Mapped[int | None] = mapped_column(Integer)
    confirmed_by: Mapped[str | None] = mapped_column(String(20))  # "pair" (a phone of the other pair), "director"
    confirmed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class EventSeatRecord(Model):
    """A table of the event for the whole night: its card's room code, and the phone that keeps its score (the
    first to scan the card); the card follows the table from round to round."""

    __tablename__ = "event_seats"
    __table_args__ = (UniqueConstraint("room_code", name="uq_event_seats_room_code"),)

    event_id: Mapped[str] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), primary_key=True)
    table: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_code: Mapped[str] = mapped_column(String(8))
    keeper_device: Mapped[str | None] = mapped_column(String(64))


class EventCorrection(Model):
    """A hand of a table's game changed after it was saved: who, when, which hand, its entries before and after
    (None: the hand was deleted)."""

    __tablename__ = "event_corrections"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[str] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    round: Mapped[int] = mapped_column(Integer)
    table: Mapped[int] = mapped_column(Integer)
    hand: Mapped[int] = mapped_column(Integer)
    who: Mapped[str] = mapped_column(String(80))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    before: Mapped[list | None] = mapped_column(JSON)
    after: Mapped[list | None] = mapped_column(JSON)
