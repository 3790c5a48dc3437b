"""a club night's clock ends a game as the event's end, not as a table rule

- games.clock_ended_after: the hands after which a club night's round's time ended the game (the hand saved once the
  time was up was its last). Nullable: None for every game the clock did not end. A game ended by the clock before
  this migration kept its end in its rules (`hands_per_game`), and still ends there. A downgrade drops the column:
  the games the clock ended then go on (an older Scorepad knew no other end than the rules').

Revision ID: b8e4d2a6f0c7
Revises: a3d5f7b9c1e2
Create Date: 2026-11-26 22:00:00

"""

import sqlalchemy as sa
from alembic import op

revision = "b8e4d2a6f0c7"
down_revision = "a3d5f7b9c1e2"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("clock_ended_after", sa.Integer(), nullable=True))


def downgrade():
    with op.batch_alter_table("games") as batch:
        batch.drop_column("clock_ended_after")
