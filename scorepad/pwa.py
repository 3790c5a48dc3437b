"""Installable and offline: the web app manifest, the service worker (served from the root scope), the offline page."""

from __future__ import annotations

import hashlib
import re
from datetime import UTC, datetime

from flask import Blueprint, Response, current_app, make_response, render_template, request, url_for
from flask_babel import force_locale, gettext

from . import rights, rules, web

bp = Blueprint("pwa", __name__)

# The app shell every phone keeps for offline use as the service worker installs: what reading a scoresheet or
# scoreboard needs (a watcher's first visit fetches no more). The PNG icons are the browser's own business when
# it installs the app; nothing offline shows them.
PRECACHE = (
    "css/scorepad.css",
    "js/early.min.js",
    "js/scorepad.min.js",  # built from assets/js/, the scoring rules for hands entered offline included
    "icons/icon.svg",
)
# htmx: only the pages that use it load it (a page sets `uses_htmx`: the new-game page, the hand form, the
# scoreboard); base.html names it.
HTMX = "js/htmx-2.0.11.min.js"


# The pages of it: drawn for the scripts of their version, so a new service worker fetches them anew (sw.js).
SCOREKEEPER_PAGES = ("games.new_game", "pwa.offline_game")


def scorekeeper_pages() -> list[str]:
    return [url_for(endpoint) for endpoint in SCOREKEEPER_PAGES]


def scorekeeper_keep() -> list[str]:
    """What a scorekeeper's phone keeps once one of its pages has been seen (base.html's data-keep, read by
    scorepad.js, kept by the service worker if it has no copy yet): a game can then be started and its hands
    entered with no connection. A page sets `keeps_scorekeeper_shell`: home, history, the new-game page, the hand
    form, a scoresheet this phone may change."""
    return [*scorekeeper_pages(), url_for("static", filename=HTMX)]


def cache_version() -> str:
    """The cache's name follows the static files' content: a deploy that changes one starts a new cache. And the
    language: the pages kept on a phone are in its language, so a phone that changes language gets a new service
    worker, whose cache fetches them anew in the new one (sw.js)."""
    versions = current_app.config["STATIC_VERSIONS"]
    digest = hashlib.sha256("".join(versions[name] for name in sorted(versions)).encode()).hexdigest()[:12]
    return f"scorepad-{digest}-{web.language()}"


@bp.app_context_processor
def offline_keeping() -> dict:
    """`scorekeeper_keep` and `htmx_file` for base.html."""
    return {"scorekeeper_keep": scorekeeper_keep, "htmx_file": HTMX}


@bp.app_context_processor
def page_time() -> dict[str, str]:
    """`rendered_at`: when the server made this page (UTC, ISO 8601), for base.html's <html> tag.

    A page the service worker later serves from the phone's copy tells its age from it: the phone
    cannot (its clock says when it was shown, not when the figures were worked out).
    """
    return {"rendered_at": datetime.now(UTC).isoformat(timespec="seconds")}


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """The web app manifest: name, colours and icons for installing Scorepad on a phone, in the page's language
    (base.html names it with ?lang=: a browser fetches a manifest without the phone's cookies)."""
    asked = request.args.get("lang")
    with force_locale(asked if asked in web.LANGUAGES else web.language()):
        return _manifest()


def _manifest() -> Response:
    body = {
        "name": "Scorepad",
        "short_name": "Scorepad",
        "description": gettext("The canasta scoresheet: every figure computed, every hand checked."),
        "lang": web.HTML_LANG[web.language()],
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
    response.headers["Content-Language"] = body["lang"]
    return response


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker, served from the root so that its scope covers every page."""
    versions = current_app.config["STATIC_VERSIONS"]
    precache = [url_for("static", filename=name) for name in PRECACHE if name in versions]
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
            words_url=web.phone_words_url(),
            offline_url=url_for("pwa.offline"),
            static_prefix=url_for("static", filename=""),
            page_patterns=["^" + re.escape(page).replace("GAME", "[^/]+") + "$" for page in pages],
            fetched_anew=scorekeeper_pages(),
            language=web.language(),
        )
    )
    response.mimetype = "text/javascript"
    # The browser must always fetch a fresh copy to notice a new version (and a new language: web.vary_by_language).
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/offline")
def offline() -> str:
    """Shown when a page is asked for with no connection and no copy of it on the phone."""
    return render_template("offline.html")


@bp.get("/offline/game")
def offline_game() -> str:
    """The scoresheet of a game started with no connection, kept on the phone: offline.js fills it from
    IndexedDB (/offline/game#<the game's id on the phone>) until the game reaches the server. Like the new-game
    page, it gives the phone its device key before the phone can go offline (games.new_game)."""
    rights.device_hash()
    # Every special hand and wild-card canasta, as a chip: the page's script keeps a game's own.
    return render_template(
        "offline_game.html", special_hands=rules.SPECIAL_HAND_NAMES, wild_canastas=rules.WILD_CANASTA_NAMES
    )
