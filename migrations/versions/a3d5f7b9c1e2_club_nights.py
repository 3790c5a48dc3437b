"""club nights: events, their rounds, tables, seats and corrections

- events: the director's document, the director's token (hashed), the wall screen's room code, a version.
- event_rounds: each round started (when, who sits out, closed by the director).
- event_tables: each table of each round: its pairs, its game (an ordinary game), the confirmation.
- event_seats: each table for the whole night: its card's room code and the phone that keeps its score.
- event_corrections: a hand of a table's game changed after it was saved (who, when, before, after).

New tables only: nothing stored before changes (docs/events.md).

Revision ID: a3d5f7b9c1e2
Revises: f2b8d4a6c0e1
Create Date: 2026-11-26 14:50:00

"""

import sqlalchemy as sa
from alembic import op

revision = "a3d5f7b9c1e2"
down_revision = "f2b8d4a6c0e1"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "events",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("director_token_hash", sa.String(length=64), nullable=False),
        sa.Column("director_device", sa.String(length=64), nullable=True),
        sa.Column("document", sa.JSON(), nullable=False),
        sa.Column("room_code", sa.String(length=8), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("room_code", name="uq_events_room_code"),
    )
    op.create_table(
        "event_rounds",
        sa.Column("event_id", sa.String(length=32), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("bye", sa.Integer(), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("event_id", "round"),
    )
    op.create_table(
        "event_tables",
        sa.Column("event_id", sa.String(length=32), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("table", sa.Integer(), nullable=False),
        sa.Column("pairs", sa.JSON(), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("confirmed_version", sa.Integer(), nullable=True),
        sa.Column("confirmed_by", sa.String(length=20), nullable=True),
        sa.Column("confirmed_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("event_id", "round", "table"),
    )
    op.create_index("ix_event_tables_game_id", "event_tables", ["game_id"])
    op.create_table(
        "event_seats",
        sa.Column("event_id", sa.String(length=32), nullable=False),
        sa.Column("table", sa.Integer(), nullable=False),
        sa.Column("room_code", sa.String(length=8), nullable=False),
        sa.Column("keeper_device", sa.String(length=64), nullable=True),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("event_id", "table"),
        sa.UniqueConstraint("room_code", name="uq_event_seats_room_code"),
    )
    op.create_table(
        "event_corrections",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.String(length=32), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("table", sa.Integer(), nullable=False),
        sa.Column("hand", sa.Integer(), nullable=False),
        sa.Column("who", sa.String(length=80), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("before", sa.JSON(), nullable=True),
        sa.Column("after", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_event_corrections_event_id", "event_corrections", ["event_id"])


def downgrade():
    op.drop_index("ix_event_corrections_event_id", table_name="event_corrections")
    op.drop_table("event_corrections")
    op.drop_table("event_seats")
    op.drop_index("ix_event_tables_game_id", table_name="event_tables")
    op.drop_table("event_tables")
    op.drop_table("event_rounds")
    op.drop_table("events")
