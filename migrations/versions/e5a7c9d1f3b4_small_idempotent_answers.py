"""small idempotent answers, forgotten after a day whatever the game

- idempotency_keys.request_hash: the digest of what a hand's request sent, so the same key with another hand is
  refused;
- ix_idempotency_keys_created_at: the keys older than a day, deleted on every keyed write, are a range of it;
- keys older than a day are deleted (a finished game kept them for good), and a remembered answer that is a whole
  game document becomes a reference to its hand, {"hand": n}, as the app now writes them.

Revision ID: e5a7c9d1f3b4
Revises: e7a3c9d1f5b2
Create Date: 2026-11-26 08:50:00

"""

from datetime import UTC, datetime, timedelta

import sqlalchemy as sa
from alembic import op

revision = "e5a7c9d1f3b4"
down_revision = "e7a3c9d1f5b2"
branch_labels = None
depends_on = None

KEYS = sa.table(
    "idempotency_keys",
    sa.column("game_id", sa.String(32)),
    sa.column("key", sa.String(200)),
    sa.column("body", sa.JSON()),
    sa.column("created_at", sa.DateTime(timezone=True)),
)


def upgrade():
    with op.batch_alter_table("idempotency_keys") as batch:
        batch.add_column(sa.Column("request_hash", sa.String(length=64), nullable=True))
    op.create_index("ix_idempotency_keys_created_at", "idempotency_keys", ["created_at"])
    connection = op.get_bind()
    connection.execute(sa.delete(KEYS).where(KEYS.c.created_at < datetime.now(UTC) - timedelta(days=1)))
    for game_id, key, body in connection.execute(sa.select(KEYS.c.game_id, KEYS.c.key, KEYS.c.body)).all():
        if isinstance(body, dict) and isinstance(body.get("hands"), list):  # a whole document: its last hand
            connection.execute(
                sa.update(KEYS)
                .where(KEYS.c.game_id == game_id, KEYS.c.key == key)
                .values(body={"hand": len(body["hands"]) - 1})
            )


def downgrade():
    op.drop_index("ix_idempotency_keys_created_at", table_name="idempotency_keys")
    with op.batch_alter_table("idempotency_keys") as batch:
        batch.drop_column("request_hash")
