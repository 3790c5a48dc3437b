"""Installable and offline: the web app manifest, the service worker (served from the root scope), the offline page."""

from __future__ import annotations

import hashlib
import re
from datetime import UTC, datetime

from flask import Blueprint, current_app, make_response, render_template, url_for

bp = Blueprint("pwa", __name__)

# The app shell a phone keeps for offline use.
PRECACHE = (
    "css/scorepad.css",
    "js/htmx-2.0.11.min.js",
    "js/early.min.js",
    "js/scorepad.min.js",  # built from assets/js/, the scoring rules for hands entered offline included
    "icons/icon.svg",
    "icons/icon-192.png",
    "icons/icon-512.png",
)


def cache_version() -> str:
    """The cache's name follows the static files' content: a deploy that changes one starts a new cache."""
    versions = current_app.config["STATIC_VERSIONS"]
    digest = hashlib.sha256("".join(versions[name] for name in sorted(versions)).encode()).hexdigest()[:12]
    return f"scorepad-{digest}"


@bp.app_context_processor
def page_time() -> dict[str, str]:
    """`rendered_at`: when the server made this page (UTC, ISO 8601), for base.html's <html> tag.

    A page the service worker later serves from the phone's copy tells its age from it: the phone
    cannot (its clock says when it was shown, not when the figures were worked out).
    """
    return {"rendered_at": datetime.now(UTC).isoformat(timespec="seconds")}


@bp.get("/manifest.webmanifest")
def manifest():
    """The web app manifest: name, colours and icons for installing Scorepad on a phone."""
    body = {
        "name": "Scorepad",
        "short_name": "Scorepad",
        "description": "The canasta scoresheet: every figure computed, every hand checked.",
        "start_url": url_for("games.home"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#fbf8f1",
        "theme_color": "#14532d",
        "icons": [
            {"src": url_for("static", filename="icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": url_for("static", filename="icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {"src": url_for("static", filename="icons/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    response = make_response(body)
    response.mimetype = "application/manifest+json"
    return response


@bp.get("/sw.js")
def service_worker():
    """The service worker, served from the root so that its scope covers every page."""
    versions = current_app.config["STATIC_VERSIONS"]
    precache = [url_for("static", filename=name) for name in PRECACHE if name in versions]
    # A game can be started with no connection too: the new-game page and the scoresheet of a game
    # started on the phone (filled by offline.js from IndexedDB) are on the phone from the start.
    precache += [url_for("games.new_game"), url_for("pwa.offline_game")]
    # The hand form for the next hand and the rules page are kept too: a hand can be entered offline
    # (assets/js/offline.js keeps it in a queue), and the table's rules read.
    pages = [
        url_for("games.home"),
        url_for("games.show", game_id="GAME"),
        url_for("share.scoreboard", game_id="GAME"),
        url_for("games.new_hand", game_id="GAME"),
        url_for("share.game_rules", game_id="GAME"),
        url_for("games.new_game"),
        url_for("pwa.offline_game"),
    ]
    response = make_response(
        render_template(
            "sw.js",
            version=cache_version(),
            precache=precache,
            offline_url=url_for("pwa.offline"),
            static_prefix=url_for("static", filename=""),
            page_patterns=["^" + re.escape(page).replace("GAME", "[^/]+") + "$" for page in pages],
        )
    )
    response.mimetype = "text/javascript"
    # The browser must always fetch a fresh copy to notice a new version.
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/offline")
def offline():
    """Shown when a page is asked for with no connection and no copy of it on the phone."""
    return render_template("offline.html")


@bp.get("/offline/game")
def offline_game():
    """The scoresheet of a game started with no connection, kept on the phone: offline.js fills it from
    IndexedDB (/offline/game#<the game's id on the phone>) until the game reaches the server."""
    return render_template("offline_game.html")
