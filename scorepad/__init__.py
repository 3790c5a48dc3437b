"""Scorepad: the canasta scoresheet. `create_app` builds the Flask app; nothing happens at import time."""

from __future__ import annotations

import hashlib
import os
import secrets
from pathlib import Path

from flask import Flask


def database_url(instance_path: str) -> str:
    """DATABASE_URL from the environment, or an SQLite file in instance/."""
    url = os.environ.get("DATABASE_URL")
    if not url:
        return "sqlite:///" + os.path.join(instance_path, "scorepad.sqlite")
    if url.startswith("postgres://"):  # the scheme some hosts hand out; SQLAlchemy wants postgresql://
        url = "postgresql://" + url[len("postgres://") :]
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://") :]
    return url


def secret_key(instance_path: str) -> str:
    """SECRET_KEY from the environment, or one generated once into instance/secret_key."""
    key = os.environ.get("SECRET_KEY")
    if key:
        return key
    path = Path(instance_path) / "secret_key"
    if path.exists() and path.read_text().strip():
        return path.read_text().strip()
    # Several workers may start at once: each writes a whole key to its own file (readable by the
    # owner only from the start) and links it into place; the first link wins, every worker reads
    # the winner's key, never a half-written file. An empty file left by a crash is replaced.
    draft = path.with_name(f".secret_key.{os.getpid()}.{secrets.token_hex(4)}")
    with os.fdopen(os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as handle:
        handle.write(secrets.token_hex(32))
    try:
        if path.exists():
            os.replace(draft, path)  # it was empty
        else:
            os.link(draft, path)
    except FileExistsError:
        pass
    finally:
        draft.unlink(missing_ok=True)
    return path.read_text().strip()


def static_versions(folder: Path) -> dict[str, str]:
    """A short hash of every static file's content, by its path under static/."""
    return {
        path.relative_to(folder).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()[:12]
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def create_app(test_config: dict | None = None) -> Flask:
    """Build the app: configuration, extensions, blueprints, and a schema for a fresh database."""
    root = Path(__file__).resolve().parent.parent
    app = Flask(
        __name__,
        instance_relative_config=True,
        template_folder=str(root / "templates"),
        static_folder=str(root / "static"),
    )
    os.makedirs(app.instance_path, exist_ok=True)
    configure(app, test_config)
    _register(app, root)
    if app.config["AUTO_CREATE_SCHEMA"]:
        with app.app_context():
            ensure_schema()
    return app


def configure(app: Flask, test_config: dict | None = None) -> None:
    """The app's settings: the defaults, then FLASK_* from the environment, then the tests' own."""
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=database_url(app.instance_path),
        # No pool_pre_ping (a round trip on every request): a connection idle for a while is checked instead
        # (delivery.ping_if_idle).
        SQLALCHEMY_ENGINE_OPTIONS={},
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        PERMANENT_SESSION_LIFETIME=60 * 60 * 24 * 400,
        MAX_CONTENT_LENGTH=1024 * 1024,
        AUTO_CREATE_SCHEMA=True,
        # Save of the next hand that has no answer in this time keeps the hand on the phone and leaves the form
        # (assets/js/offline.js): the table never waits for bad Wi-Fi.
        SAVE_ANSWER_WAIT_MS=700,
        # A club night's wall screen turns its pages of standings and tables this often (events_web.wall_pages).
        WALL_PAGE_SECONDS=10,
        # Static URLs carry a hash of their content (below), so a browser may keep them for a year.
        SEND_FILE_MAX_AGE_DEFAULT=60 * 60 * 24 * 365,
    )
    app.config.from_prefixed_env()  # FLASK_AUTO_CREATE_SCHEMA=false while writing a migration, for instance
    if test_config:
        app.config.update(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = secret_key(app.instance_path)


def _register(app: Flask, root: Path) -> None:
    """The extensions and blueprints, then what wraps them: compression and static files, security last."""
    from . import api, delivery, errors, games, history, pwa, rulesets, security, share, sync, web
    from .extensions import babel, htmx, migrate
    from .models import db

    db.init_app(app)
    errors.init_app(app)
    # Four languages: the phone's or the one chosen on it (web.pick_language), from translations/ (docs/i18n.md).
    babel.init_app(app, default_translation_directories=str(root / "translations"), locale_selector=web.pick_language)
    web.init_app(app)
    import flask_babel

    from . import chart

    chart.init_app(app, flask_babel)  # the game's chart and the statistics' bars (templates/_chart.html)
    migrate.init_app(app, db, directory=str(root / "migrations"))
    htmx.init_app(app)
    for blueprint in (games.bp, share.bp, api.bp, pwa.bp, history.bp, sync.bp, rulesets.bp):
        app.register_blueprint(blueprint)
    from .events_api import bp as events_api  # club nights: the API and the pages
    from .events_web import bp as events_web

    app.register_blueprint(events_api)
    app.register_blueprint(events_web)

    app.json.sort_keys = False  # type: ignore[attr-defined]  # keep the document in the order docs/api.md gives

    # Static files are addressed with a hash of their content, so phones may cache them for good
    # and a new deploy can never pair new pages with an old stylesheet.
    app.config["STATIC_VERSIONS"] = static_versions(root / "static")
    delivery.init_app(app)  # static/ pre-compressed and immutable (WhiteNoise); pages and JSON compressed
    security.init_app(app)  # last: headers on every answer, Secure cookies over https, rate limits (ASVS level 1)

    @app.url_defaults
    def version_static_urls(endpoint: str, values: dict) -> None:
        """Add ?v=<content hash> to every url_for('static', ...)."""
        if endpoint == "static" and "filename" in values:
            version = app.config["STATIC_VERSIONS"].get(values["filename"])
            if version:
                values["v"] = version


def ensure_schema() -> None:
    """Bring the database up to the newest migration, so plain `flask run` works on a fresh file and on one an
    older Scorepad made (a database already up to date is left as it is)."""
    from flask_migrate import upgrade
    from sqlalchemy import inspect
    from sqlalchemy.exc import SQLAlchemyError

    from .models import db

    try:
        upgrade()
    except SQLAlchemyError:
        # Another worker starting at the same moment brought it up first; that is all we wanted.
        if not inspect(db.engine).has_table("games"):
            raise
