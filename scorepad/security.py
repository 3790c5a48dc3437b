"""Requests that change a game must come from Scorepad's own pages."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import abort, current_app, request


def refuse_cross_site_posts() -> None:
    """A before_request hook for page blueprints: refuse a change sent from another site.

    The session cookie is also SameSite=Lax; this covers browsers and same-site pages it does not.
    """
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return None
    site = request.headers.get("Sec-Fetch-Site")
    origin = request.headers.get("Origin")
    # Hosts are compared, not schemes: behind a TLS proxy the app may see http while the page was https.
    if site not in (None, "same-origin", "none") or (origin and urlsplit(origin).netloc != request.host):
        current_app.logger.warning(
            "Refused a cross-site %s %s (Sec-Fetch-Site %s, Origin %s)", request.method, request.path, site, origin
        )
        abort(403, "This change didn't come from Scorepad's own page. Open the game in Scorepad and try again.")
    return None
