"""a note on a game and on a hand

- games.note, hands.note: what the table wants to remember ("at Ann's", "misdeal"), at most 500 characters
  (docs/api.md). Nullable: no game or hand stored before has one.

Revision ID: f2b8d4a6c0e1
Revises: e5a7c9d1f3b4
Create Date: 2026-11-26 12:40:00

"""

import sqlalchemy as sa
from alembic import op

revision = "f2b8d4a6c0e1"
down_revision = "e5a7c9d1f3b4"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("note", sa.String(length=500), nullable=True))
    with op.batch_alter_table("hands") as batch:
        batch.add_column(sa.Column("note", sa.String(length=500), nullable=True))


def downgrade():
    with op.batch_alter_table("hands") as batch:
        batch.drop_column("note")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("note")
