"""edit rights by device, room codes, saved rule sets, kept figures

- game_rights: which device may change which game, kept on the server (no 40-game cookie limit);
- games.room_code: a short code to join a game's scoreboard; every stored game gets one here;
- games.restored_from: the original of a restored copy;
- games.handover_generation: raised when the scorekeeper revokes the handover link;
- games.figures / figures_version: a game's computed figures, reused until its next change;
- rule_sets: a table's rules saved under a name on a device.

Revision ID: 7d41c2a9e5b8
Revises: 2b7c1a0e9d34
Create Date: 2026-11-24 09:10:00

"""

import secrets

import sqlalchemy as sa
from alembic import op

revision = "7d41c2a9e5b8"
down_revision = "2b7c1a0e9d34"
branch_labels = None
depends_on = None

# Written out here, not imported, so later changes to the code never change what this migration does.
_ROOM_CODE_LETTERS = "ACDEFHJKMNPQRTUVWXY34679"


def upgrade():
    op.create_table(
        "game_rights",
        sa.Column("device_hash", sa.String(length=64), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("via", sa.String(length=10), nullable=False),
        sa.Column("label", sa.String(length=80), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("device_hash", "game_id"),
    )
    op.create_index("ix_game_rights_game_id", "game_rights", ["game_id"])
    op.create_table(
        "rule_sets",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("device_hash", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("device_hash", "name", name="uq_rule_sets_device_name"),
    )
    op.create_index("ix_rule_sets_device_hash", "rule_sets", ["device_hash"])
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("room_code", sa.String(length=8), nullable=True))
        batch.add_column(sa.Column("restored_from", sa.String(length=32), nullable=True))
        batch.add_column(sa.Column("handover_generation", sa.Integer(), server_default="0", nullable=False))
        batch.add_column(sa.Column("figures", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("figures_version", sa.Integer(), nullable=True))

    games = sa.table("games", sa.column("id", sa.String), sa.column("room_code", sa.String))
    connection = op.get_bind()
    used: set[str] = set()
    for (game_id,) in connection.execute(sa.select(games.c.id)).all():
        code = ""
        while not code or code in used:
            code = "".join(secrets.choice(_ROOM_CODE_LETTERS) for _ in range(6))
        used.add(code)
        connection.execute(games.update().where(games.c.id == game_id).values(room_code=code))
    with op.batch_alter_table("games") as batch:
        batch.create_unique_constraint("uq_games_room_code", ["room_code"])


def downgrade():
    with op.batch_alter_table("games") as batch:
        batch.drop_constraint("uq_games_room_code", type_="unique")
        batch.drop_column("figures_version")
        batch.drop_column("figures")
        batch.drop_column("handover_generation")
        batch.drop_column("restored_from")
        batch.drop_column("room_code")
    op.drop_index("ix_rule_sets_device_hash", table_name="rule_sets")
    op.drop_table("rule_sets")
    op.drop_index("ix_game_rights_game_id", table_name="game_rights")
    op.drop_table("game_rights")
