"""rate limits counted in the database

- rate_limits: one row per limit and client in its current window, when FLASK_RATELIMIT_STORAGE_URI=database
  (scorepad/ratelimits.py): every gunicorn worker and app machine shares the count.

Revision ID: 9e4f2a6c8b1d
Revises: 7d41c2a9e5b8
Create Date: 2026-11-24 05:40:00

"""

import sqlalchemy as sa
from alembic import op

revision = "9e4f2a6c8b1d"
down_revision = "7d41c2a9e5b8"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "rate_limits",
        sa.Column("key", sa.String(length=255), nullable=False),
        sa.Column("hits", sa.Integer(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("key"),
    )


def downgrade():
    op.drop_table("rate_limits")
