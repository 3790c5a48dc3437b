"""Installable and offline: the web app manifest, the service worker (served from the root scope) and the offline page."""

from __future__ import annotations

from flask import Blueprint, make_response, render_template, url_for

bp = Blueprint("pwa", __name__)

# Bump when the precached files change, so phones drop the old cache.
CACHE_VERSION = "scorepad-v1"
PRECACHE = ("static", "css/scorepad.css"), ("static", "js/htmx-2.0.11.min.js"), ("static", "js/scorepad.js"), \
    ("static", "icons/icon.svg"), ("static", "icons/icon-192.png"), ("static", "icons/icon-512.png")


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
    precache = [url_for(endpoint, filename=name) for endpoint, name in PRECACHE] + [url_for("pwa.offline")]
    response = make_response(render_template("sw.js", version=CACHE_VERSION, precache=precache))
    response.mimetype = "text/javascript"
    # The browser must always fetch a fresh copy to notice a new version.
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/offline")
def offline():
    """Shown when a page is asked for with no connection and no copy of it on the phone."""
    return render_template("offline.html")
