"""a device's history read from one index

- game_rights.game_created_at, game_version: each right holds a copy of its game's start (games.created_at never
  changes) and of its version (kept in step by the app on every change of the game);
- ix_game_rights_history (device_hash, game_created_at DESC, game_id DESC, via, game_version): a device's games
  newest first, so a history page is a range of this index, not a sort of every game the device keeps.

Revision ID: c4e8a2f6d0b3
Revises: 9e4f2a6c8b1d
Create Date: 2026-11-24 09:00:00

"""

import sqlalchemy as sa
from alembic import op

revision = "c4e8a2f6d0b3"
down_revision = "9e4f2a6c8b1d"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("game_rights") as batch:
        batch.add_column(sa.Column("game_created_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("game_version", sa.Integer(), nullable=True))
    # Rights of a game no longer here (SQLite applies ON DELETE CASCADE only with foreign keys turned on) would
    # have nothing to copy.
    op.execute("DELETE FROM game_rights WHERE game_id NOT IN (SELECT id FROM games)")
    op.execute(
        "UPDATE game_rights SET"
        " game_created_at = (SELECT games.created_at FROM games WHERE games.id = game_rights.game_id),"
        " game_version = (SELECT games.version FROM games WHERE games.id = game_rights.game_id)"
    )
    with op.batch_alter_table("game_rights") as batch:
        batch.alter_column("game_created_at", existing_type=sa.DateTime(timezone=True), nullable=False)
        batch.alter_column("game_version", existing_type=sa.Integer(), nullable=False)
    op.create_index(
        "ix_game_rights_history",
        "game_rights",
        ["device_hash", sa.text("game_created_at DESC"), sa.text("game_id DESC"), "via", "game_version"],
    )


def downgrade():
    op.drop_index("ix_game_rights_history", table_name="game_rights")
    with op.batch_alter_table("game_rights") as batch:
        batch.drop_column("game_version")
        batch.drop_column("game_created_at")
