"""a finished game knows its rematch

- games.rematch_id: the game started as this one's rematch (games.rematch), so the scoreboard of a finished game
  can take its watchers to the next game. Nullable: no game stored before it has one.

Revision ID: e7a3c9d1f5b2
Revises: c4e8a2f6d0b3
Create Date: 2026-11-26 08:30:00

"""

import sqlalchemy as sa
from alembic import op

revision = "e7a3c9d1f5b2"
down_revision = "c4e8a2f6d0b3"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("rematch_id", sa.String(length=32), nullable=True))


def downgrade():
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rematch_id")
