"""Tables only: a game stores what was entered; the rules compute every figure."""

from __future__ import annotations

from datetime import UTC, datetime

from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import JSON, DateTime, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


class Base(DeclarativeBase):
    """The declarative base of Scorepad's tables."""


db = SQLAlchemy(model_class=Base)


def _now() -> datetime:
    return datetime.now(UTC)


class GameRecord(db.Model):
    """A game: its rules, sides and first dealer as entered, and a version for safe concurrent edits."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    edit_token_hash: Mapped[str] = mapped_column(String(64))
    rules: Mapped[dict] = mapped_column(JSON)
    sides: Mapped[list] = mapped_column(JSON)
    first_dealer: Mapped[int] = mapped_column(Integer, default=0)
    version: Mapped[int] = mapped_column(Integer, nullable=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)

    hands: Mapped[list[HandRecord]] = relationship(
        back_populates="game", order_by="HandRecord.position", cascade="all, delete-orphan"
    )

    # Every change bumps the version; a write based on a stale read fails instead of overwriting.
    __mapper_args__ = {"version_id_col": version}


class HandRecord(db.Model):
    """One hand: each side's entries as entered (the document's side objects, without results)."""

    __tablename__ = "hands"
    __table_args__ = (UniqueConstraint("game_id", "position", name="uq_hands_game_position"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    sides: Mapped[list] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)

    game: Mapped[GameRecord] = relationship(back_populates="hands")


class IdempotentRequest(db.Model):
    """The answer given to a request with an Idempotency-Key, replayed when the same key comes again."""

    __tablename__ = "idempotency_keys"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    status: Mapped[int] = mapped_column(Integer)
    body: Mapped[dict] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
