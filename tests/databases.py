"""The database each test runs on: a fresh SQLite file, or a fresh schema on a PostgreSQL server.

By default every test gets its own SQLite file in its tmp_path. With SCOREPAD_TEST_DATABASE_URL set to a
PostgreSQL database (postgresql://user:password@host:port/dbname, a role that may create schemas in it),
every test gets a new, empty schema of its own in that database instead, and only that schema on its
search_path; the schema is dropped when the test ends. Either way the database starts empty and the app
makes its tables with the migrations, at start-up, as in production (scorepad.ensure_schema).
scripts/test.sh runs the suite both ways, on a throw-away PostgreSQL server it starts.

A schema rather than a database per test: creating a PostgreSQL database takes about half a second,
a schema about a millisecond, and it isolates the tables (and their sequences) just as well.
"""

from __future__ import annotations

import os
import secrets
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy import URL, create_engine, make_url, text
from sqlalchemy.exc import OperationalError
from sqlalchemy.pool import NullPool

VARIABLE = "SCOREPAD_TEST_DATABASE_URL"


def server_url() -> URL | None:
    """The PostgreSQL database the tests make their schemas in, or None to run on SQLite."""
    raw = os.environ.get(VARIABLE, "").strip()
    if not raw:
        return None
    url = make_url(raw)
    if url.get_backend_name() not in ("postgresql", "postgres"):
        raise pytest.UsageError(f"{VARIABLE} must be a postgresql:// URL, not {url.drivername}://")
    return url.set(drivername="postgresql+psycopg")  # the driver the app uses (psycopg 3)


def describe() -> str:
    """One line for pytest's header: which database this run uses (the server's version, for PostgreSQL).

    A PostgreSQL server out of reach is a UsageError: the run stops with one line, not an error per test.
    """
    url = server_url()
    if url is None:
        return f"database: SQLite, a fresh file per test (set {VARIABLE} to run on PostgreSQL)"
    where = url.render_as_string(hide_password=True)
    engine = create_engine(url, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            version = connection.execute(text("SHOW server_version")).scalar_one()
    except OperationalError as error:
        raise pytest.UsageError(f"{VARIABLE}: cannot connect to {where}: {error.orig}") from None
    finally:
        engine.dispose()
    return f"database: PostgreSQL {version} at {where}, a fresh schema per test ({VARIABLE})"


@contextmanager
def fresh_database(tmp_path: Path, template: Path | None = None) -> Iterator[str]:
    """The SQLAlchemy URI of a new database for one test: on SQLite a copy of `template` (a file the migrations
    made, migrated_sqlite) or else an empty file; on PostgreSQL an empty schema, dropped afterwards."""
    url = server_url()
    if url is None:
        path = tmp_path / "scorepad.sqlite"
        if template is not None:
            shutil.copyfile(template, path)
        yield f"sqlite:///{path}"
        return
    schema = f"scorepad_test_{secrets.token_hex(8)}"
    admin = create_engine(url, poolclass=NullPool)
    try:
        with admin.begin() as connection:
            connection.execute(text(f'CREATE SCHEMA "{schema}"'))
        try:
            # The app's connections see only this schema, and carry its name: none outlives the test.
            options = {"options": f"-csearch_path={schema}", "application_name": schema}
            yield url.update_query_dict(options).render_as_string(hide_password=False)
        finally:
            with admin.begin() as connection:
                connection.execute(
                    text(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                        " WHERE application_name = :schema AND pid <> pg_backend_pid()"
                    ),
                    {"schema": schema},
                )
                connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
    finally:
        admin.dispose()
