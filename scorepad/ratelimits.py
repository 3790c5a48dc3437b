"""Flask-Limiter's counts in Scorepad's own database, so that several gunicorn workers and several app machines
share one count per client without another server (`FLASK_RATELIMIT_STORAGE_URI=database`).

A storage backend of the `limits` library (the one Flask-Limiter counts with), for its fixed-window strategy: each
key is one row of `rate_limits` (its hits and when its window ends), bumped by one upsert that starts a new window
once the old one has ended. SQLite and PostgreSQL both have the upsert (`ON CONFLICT … DO UPDATE … RETURNING`).
"""

from __future__ import annotations

import random
import time

from flask import Flask
from limits.storage import Storage
from sqlalchemy import case, delete, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine, Row
from sqlalchemy.exc import SQLAlchemyError

from .models import RateLimitCount, db

SCHEME = "scorepad-database"
# The value of FLASK_RATELIMIT_STORAGE_URI that picks this storage.
CONFIG_VALUES = frozenset({"database", "database://"})
SWEEP_ONE_IN = 200  # about once in this many hits, rows whose window ended are deleted


class DatabaseStorage(Storage):
    """Rate-limit counts as rows of `rate_limits`, in the app's database (its engine, its pool)."""

    STORAGE_SCHEME = [SCHEME]

    def __init__(
        self,
        uri: str | None = None,
        wrap_exceptions: bool = False,
        app: Flask | None = None,
        **options: float | str | bool,
    ):
        super().__init__(uri, wrap_exceptions, **options)
        if app is None:
            raise ValueError("The database storage of the rate limits needs the app (RATELIMIT_STORAGE_OPTIONS)")
        self.app = app
        self._engine: Engine | None = None

    @property
    def engine(self) -> Engine:
        if self._engine is None:
            with self.app.app_context():
                self._engine = db.engine
        return self._engine

    @property
    def base_exceptions(self) -> type[Exception]:
        return SQLAlchemyError

    def incr(self, key: str, expiry: float, amount: int = 1) -> int:
        """Add `amount` hits to the key's window (a new window of `expiry` seconds if it has none or it ended)."""
        now = time.time()
        table = RateLimitCount.__table__
        insert = postgresql.insert if self.engine.dialect.name == "postgresql" else sqlite.insert
        ended = table.c.expires_at <= now
        statement = (
            insert(table)
            .values(key=key, hits=amount, expires_at=now + expiry)
            .on_conflict_do_update(
                index_elements=[table.c.key],
                set_={
                    "hits": case((ended, amount), else_=table.c.hits + amount),
                    "expires_at": case((ended, now + expiry), else_=table.c.expires_at),
                },
            )
            .returning(table.c.hits)
        )
        with self.engine.begin() as connection:
            hits = connection.execute(statement).scalar_one()
            if random.randrange(SWEEP_ONE_IN) == 0:
                connection.execute(delete(table).where(table.c.expires_at <= now))
        return int(hits)

    def _row(self, key: str) -> Row[int, float] | None:
        table = RateLimitCount.__table__
        with self.engine.connect() as connection:
            return connection.execute(select(table.c.hits, table.c.expires_at).where(table.c.key == key)).first()

    def get(self, key: str) -> int:
        row = self._row(key)
        return int(row.hits) if row is not None and row.expires_at > time.time() else 0

    def get_expiry(self, key: str) -> float:
        row = self._row(key)
        return float(row.expires_at) if row is not None and row.expires_at > time.time() else time.time()

    def check(self) -> bool:
        try:
            with self.engine.connect() as connection:
                connection.execute(select(1))
            return True
        except SQLAlchemyError:
            return False

    def reset(self) -> int | None:
        with self.engine.begin() as connection:
            return connection.execute(delete(RateLimitCount.__table__)).rowcount

    def clear(self, key: str) -> None:
        table = RateLimitCount.__table__
        with self.engine.begin() as connection:
            connection.execute(delete(table).where(table.c.key == key))


def configure(app: Flask) -> None:
    """Point Flask-Limiter at the database when FLASK_RATELIMIT_STORAGE_URI says `database`."""
    if str(app.config.get("RATELIMIT_STORAGE_URI", "")).strip().lower() in CONFIG_VALUES:
        app.config["RATELIMIT_STORAGE_URI"] = f"{SCHEME}://"
        app.config["RATELIMIT_STORAGE_OPTIONS"] = {**app.config.get("RATELIMIT_STORAGE_OPTIONS", {}), "app": app}
