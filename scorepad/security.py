"""Safe by default (OWASP ASVS level 1): same-origin posts, security headers, Secure cookies behind a proxy, and
rate limits on what a script could repeat (README, Configuration; docs/api.md, Rate limits)."""

from __future__ import annotations

import copy
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import cast
from urllib.parse import urlsplit
from wsgiref.types import StartResponse, WSGIApplication, WSGIEnvironment

from flask import Flask, Request, Response, abort, current_app, g, has_request_context, request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin
from flask.typing import ResponseReturnValue
from flask_babel import gettext, lazy_gettext
from flask_limiter import Limiter, RouteLimit
from flask_limiter.errors import RateLimitExceeded
from flask_limiter.util import get_remote_address
from itsdangerous import BadSignature
from werkzeug.middleware.proxy_fix import ProxyFix

from . import errors, ratelimits
from .delivery import ExcInfo, Writer
from .web import number

View = Callable[..., ResponseReturnValue]


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
        abort(
            403, gettext("This change didn't come from Scorepad's own page. Open the game in Scorepad and try again.")
        )
    return None


# --- Fields too long to be typed -----------------------------------------------------------------

# Characters in one field of a page's form: a name takes 40, a number a few digits; nothing typed needs more. A
# longer field is refused before any page could echo it back (a page shows a refused name up to three times).
# Only urlencoded forms are echoed; the multipart ones upload a file, and show none of their fields again.
LONGEST_FIELD = 1_000


def refuse_oversized_fields() -> None:
    """A before_request hook: a form (urlencoded) with a field or a field name over LONGEST_FIELD characters is
    refused with 413 in words, echoing none of it."""
    if request.method != "POST" or request.mimetype != "application/x-www-form-urlencoded":
        return None
    longest = max((max(len(key), len(value)) for key, value in request.form.items(multi=True)), default=0)
    if longest > LONGEST_FIELD:
        abort(
            413,
            gettext(
                "One of the fields sent holds %(longest)s characters: a field takes at most %(most)s (a name at "
                "most 40). Nothing was saved: go back, shorten it, and try again.",
                longest=number(longest),
                most=number(LONGEST_FIELD),
            ),
        )
    return None


# --- Headers on every answer ---------------------------------------------------------------

# Scripts and styles come only from Scorepad's own static files: no inline script, no style="" attribute,
# no eval (htmx's allowEval is off in base.html), and no page of another site may frame Scorepad's.
CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}
# Pages that carry a key in their content (the handover link's page) or take one: never kept by a browser's
# cache, a proxy or the service worker. A view elsewhere calls carries_key(); any address with ?key= is one too.
KEY_ENDPOINTS = frozenset({"games.handover", "games.claim", "api.create_game"})  # the last: the new edit token
# Over https (straight, or through a trusted proxy): browsers come back over https only for a year. This host only:
# another site under the same domain is not Scorepad's to decide for. Never sent over plain http (browsers
# ignore it there, and it would tell a proxy's http hop to lie).
STRICT_TRANSPORT_SECURITY = "max-age=31536000"


def carries_key() -> None:
    """Mark this request's answer as carrying a key (an edit token or handover key): Cache-Control: no-store."""
    g.carries_key = True


class SecurityHeaders:
    """WSGI middleware: the headers of SECURITY_HEADERS on every answer, static files (served by WhiteNoise, past
    Flask) included, and Strict-Transport-Security on those sent over https; an answer that sets one itself keeps
    its own."""

    def __init__(self, application: WSGIApplication) -> None:
        self.application = application

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        wanted = dict(SECURITY_HEADERS)
        if environ.get("wsgi.url_scheme") == "https":  # as the trusted proxies said (ProxyFix runs first)
            wanted["Strict-Transport-Security"] = STRICT_TRANSPORT_SECURITY

        def with_headers(status: str, headers: list[tuple[str, str]], exc_info: ExcInfo | None = None) -> Writer:
            present = {name.lower() for name, _ in headers}
            headers = list(headers) + [(k, v) for k, v in wanted.items() if k.lower() not in present]
            return start_response(status, headers, exc_info)

        return self.application(environ, with_headers)


def no_store_where_a_key_is(response: Response) -> Response:
    """An after_request hook: Cache-Control: no-store on an answer that carries a key (KEY_ENDPOINTS,
    carries_key(), or a ?key= in the address)."""
    if g.get("carries_key") or request.endpoint in KEY_ENDPOINTS or "key" in request.args:
        response.headers["Cache-Control"] = "no-store"
    return response


# --- Secure cookies behind a TLS proxy -----------------------------------------------------


# How many verified session cookies a process remembers (SessionInterface.open_session): a few KB each at most. A club
# night of 1,000 tables has a scorekeeper's phone at each, and a director's.
VERIFIED_KEPT = 4096
# How old an unchanged permanent session's cookie gets before it is signed and sent again (its lifetime restarts).
REFRESH_AFTER = 24 * 60 * 60


class SessionInterface(SecureCookieSessionInterface):
    """The signed session cookie, marked Secure whenever the request came over https.

    Behind a proxy that ends TLS, the app sees https only through X-Forwarded-Proto, which it trusts only when
    TRUSTED_PROXIES says how many proxies stand in front of it (ProxyFix, in init_app).
    """

    def __init__(self) -> None:
        # Cookies this process has verified, by (keys, cookie): their data and when they were signed (VERIFIED_KEPT).
        self.verified: OrderedDict[tuple, tuple[dict, float]] = OrderedDict()
        self.lock = threading.Lock()

    def get_cookie_secure(self, app: Flask) -> bool:
        """Secure when SESSION_COOKIE_SECURE says so, or when this request came over https."""
        return bool(app.config["SESSION_COOKIE_SECURE"] or (has_request_context() and request.is_secure))

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        """Flask's session, its cookie's signature checked once per process: a phone sends the same cookie on every
        request until its session changes, and checking it (key derivation, HMAC, decoding) was a fifth of a kept
        history page. Only a cookie that passed the check is remembered, by its exact text and the keys that signed
        it, with its data (a copy is handed out each time) and the time it was signed: its age is checked again on
        each use, as the signature's own check would."""
        value = request.cookies.get(self.get_cookie_name(app))
        if not value or not app.secret_key:
            return super().open_session(app, request)
        key = (app.secret_key, tuple(app.config["SECRET_KEY_FALLBACKS"] or ()), value)
        lifetime = app.permanent_session_lifetime.total_seconds()
        with self.lock:
            found = self.verified.get(key)
            if found is not None:
                self.verified.move_to_end(key)  # in use: the least recently used go first
        if found is not None and time.time() - found[1] <= int(lifetime):
            return self._signed_at(self.session_class(copy.deepcopy(found[0])), found[1])
        serializer = self.get_signing_serializer(app)
        if serializer is None:
            return None
        try:
            data, signed = serializer.loads(value, max_age=int(lifetime), return_timestamp=True)
        except BadSignature:
            return self.session_class()
        with self.lock:
            self.verified[key] = (copy.deepcopy(data), signed.timestamp())
            while len(self.verified) > VERIFIED_KEPT:
                self.verified.popitem(last=False)
        return self._signed_at(self.session_class(data), signed.timestamp())

    @staticmethod
    def _signed_at(session: SecureCookieSession, moment: float) -> SecureCookieSession:
        session.scorepad_signed_at = moment  # type: ignore[attr-defined]  # read by should_set_cookie
        return session

    def should_set_cookie(self, app: Flask, session: SessionMixin) -> bool:
        """A changed session is sent at once; an unchanged permanent one is signed again (its 400 days counted from
        now) once its cookie is REFRESH_AFTER old, not on every answer as Flask does: a new cookie on every answer
        cost the signing and its bytes each time, and a cookie never the same twice is never one verified before."""
        if session.modified:
            return True
        if not (session.permanent and app.config["SESSION_REFRESH_EACH_REQUEST"]):
            return False
        signed = getattr(session, "scorepad_signed_at", None)
        return signed is None or time.time() - signed > REFRESH_AFTER


def trust_proxies(app: Flask) -> None:
    """Read the client's address and scheme from the X-Forwarded-For and X-Forwarded-Proto headers set by the
    TRUSTED_PROXIES proxies in front of the app (0, the default: no proxy is trusted, a client could forge them).

    The host is not taken from X-Forwarded-Host: links keep the Host header the proxy passes on."""
    hops = int(app.config.get("TRUSTED_PROXIES") or 0)
    if hops > 0:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)  # type: ignore[method-assign]


# --- Rate limits ---------------------------------------------------------------------------

# Limits a real table never meets and a script soon does, per client address (docs/api.md). Each is
# a Flask-Limiter limit string; several are separated by ";". Set in the config (FLASK_RATELIMIT_NEW_GAMES=...).
DEFAULT_LIMITS = {
    "RATELIMIT_NEW_GAMES": "30 per minute;300 per hour",
    "RATELIMIT_RESTORES": "10 per minute;100 per hour",
    "RATELIMIT_JOINS": "30 per minute;300 per hour",
    # Per game, not per address (a club night puts many tables behind one): a table saves a hand every few minutes.
    "RATELIMIT_HANDS": "60 per minute;600 per hour",
}
# The views each limit applies to, by endpoint name; a view elsewhere can be marked with limited(kind) instead.
ENDPOINTS = {
    "new-games": ("games.create_game", "games.rematch", "api.create_game", "sync.create_game"),
    "restores": ("games.import_game", "rulesets.upload"),
    # Restored games count as new games: each one (restored_games below).
    "restored-games": ("games.import_game",),
    "joins": ("share.join",),
    "hands": ("games.create_hand", "games.update_hand", "api.add_hand", "api.replace_hand", "sync.add_hand"),
}

# In the phone's language: each is made into words when a limit is met (Flask-Limiter calls error_message).
MESSAGES = {
    "new-games": lazy_gettext(
        "So many new games from your network in so short a time looks like a script, not a card table. "
        "Wait a minute and try again: nothing you typed is lost."
    ),
    "restores": lazy_gettext(
        "So many games restored from your network in so short a time looks like a script. "
        "Wait a minute and try again: your file is still on your phone."
    ),
    "restored-games": lazy_gettext(
        "So many new games from your network in so short a time (restored games count too) looks "
        "like a script, not a card table. Wait a while and try again: your file is still on your phone."
    ),
    "joins": lazy_gettext(
        "Too many room codes tried from your network in a short time. Check the code with the scorekeeper, "
        "wait a minute, then try again."
    ),
    "hands": lazy_gettext(
        "So many hands saved to this game in so short a time looks like a script, not a card table. "
        "Wait a minute and save again: the hand you typed is still on the form."
    ),
}


def _said(kind: str) -> Callable[[], str]:
    """A limit's message, made into words in the request's language when the limit is met."""
    return lambda: str(MESSAGES[kind])


def restored_games(count: int) -> None:
    """Count `count` games restored by this request as new games (the new-game limit: a restore is let through
    while the address may still start a game, then each game it restored counts)."""
    g.restored_games = count


def _restored_count() -> int:
    return int(g.get("restored_games") or 0)


def _hand_saved(response: Response) -> bool:
    """Only a hand saved counts toward the game's limit: a post refused (403 to a phone without the rights, 422
    for a hand the rules refuse) saves nothing, and must not use up the scorekeeper's saves."""
    return response.status_code < 400


def _game_of_request() -> str:
    """The key of the hands' limit: the game in the address."""
    return "game:" + str((request.view_args or {}).get("game_id", ""))


def _joining() -> bool:
    """Whether a request to /join tries a code (the empty form costs nothing)."""
    return bool(request.values.get("code"))


def _limits(app: Flask, limiter: Limiter) -> dict[str, RouteLimit]:
    """Each kind of limit: creating games (the pages and the API share one count, restored games count too),
    restoring, joining by code, saving hands (per game)."""
    config = {name: app.config.get(name) or default for name, default in DEFAULT_LIMITS.items()}
    return {
        "new-games": limiter.shared_limit(
            config["RATELIMIT_NEW_GAMES"], scope="new-games", methods=["POST"], error_message=_said("new-games")
        ),
        "restores": limiter.shared_limit(
            config["RATELIMIT_RESTORES"], scope="restores", methods=["POST"], error_message=_said("restores")
        ),
        "restored-games": limiter.shared_limit(
            config["RATELIMIT_NEW_GAMES"],
            scope="new-games",  # the new games' own count
            methods=["POST"],
            deduct_when=lambda response: _restored_count() > 0,
            cost=lambda: _restored_count() or 1,  # before the view: room for one game; after it: each one restored
            error_message=_said("restored-games"),
        ),
        "joins": limiter.shared_limit(
            config["RATELIMIT_JOINS"],
            scope="joins",
            exempt_when=lambda: not _joining(),
            error_message=_said("joins"),
        ),
        "hands": limiter.shared_limit(
            config["RATELIMIT_HANDS"],
            scope="hands",
            key_func=_game_of_request,
            methods=["POST", "PUT"],
            deduct_when=_hand_saved,
            error_message=_said("hands"),
        ),
    }


def limited(kind: str) -> Callable[[View], View]:
    """Mark a view for one of the limits ("new-games", "restores", "joins") when ENDPOINTS does not name it:
    @security.limited("joins") under its route. init_app applies the limit."""

    def mark(view: View) -> View:
        view.scorepad_limit = kind  # type: ignore[attr-defined]  # read by init_app
        return view

    return mark


limit_joins = limited("joins")


def too_many_requests(error: RateLimitExceeded) -> Response:
    """A 429 in words (a page, or the API's JSON) with Retry-After: the seconds until the limit's window ends."""
    response = current_app.make_response(errors.http_error(error))
    limiter: Limiter = current_app.extensions["scorepad_limiter"]
    limit = error.limit
    scope = limit.scope_for(limiter.identify_request() or "", request.method)
    stats = limiter.limiter.get_window_stats(limit.limit, limit.key_func(), scope)
    response.headers["Retry-After"] = str(max(1, math.ceil(stats.reset_time - time.time())))
    current_app.logger.warning("Rate limit reached on %s %s: %s", request.method, request.path, limit.limit)
    return response


# Limits Flask-Limiter would check on every request, before the view: the app-wide ones of its configuration. Scorepad
# sets none; an operator could (FLASK_RATELIMIT_DEFAULT=...), and then every request is checked as before.
_APP_WIDE_LIMITS = ("RATELIMIT_DEFAULT", "RATELIMIT_APPLICATION", "RATELIMIT_META")


def _check_only_limited_views(app: Flask, limiter: Limiter) -> None:
    """Take away Flask-Limiter's check before every request when no app-wide limit is set: Scorepad's limits are all
    on views (_limits), and each of those checks itself when its view is called, so the hook found nothing to count
    on any request, at a tenth of a kept page's time (resolving the route's limits and exemptions). The hooks after
    the request stay: they count a limit's conditional hits (deduct_when) and end the limiter's request context."""
    if any(app.config.get(name) for name in _APP_WIDE_LIMITS):
        return
    hooks = app.before_request_funcs.get(None, [])
    if limiter._check_request_limit in hooks:
        hooks.remove(limiter._check_request_limit)


def init_app(app: Flask) -> None:
    """Headers on every answer, Secure cookies over https, trusted proxies, and the rate limits.

    Called last in create_app: the limits wrap the blueprints' views by endpoint name, and the middleware wraps
    every other (static files included)."""
    app.session_interface = SessionInterface()
    app.before_request(refuse_oversized_fields)
    app.after_request(no_store_where_a_key_is)
    app.config.setdefault("RATELIMIT_STORAGE_URI", "memory://")
    ratelimits.configure(app)  # `database`: the counts in Scorepad's own database, shared by every process
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", False)
    # One limiter for each app: its counts (memory://) and settings are that app's alone.
    limiter = Limiter(get_remote_address, app=app, default_limits=[])
    app.extensions["scorepad_limiter"] = limiter
    _check_only_limited_views(app, limiter)
    app.register_error_handler(RateLimitExceeded, too_many_requests)
    limits = _limits(app, limiter)
    for endpoint, route in list(app.view_functions.items()):
        view = cast(View, route)  # Scorepad's views are all plain functions, none async
        kinds = [kind for kind, endpoints in ENDPOINTS.items() if endpoint in endpoints]
        marked = getattr(view, "scorepad_limit", None)
        if not kinds and marked:
            kinds = [marked]
        for kind in kinds:
            view = limits[kind](view)
        app.view_functions[endpoint] = view
    # Outermost: the headers on every answer, and the proxies' view of the request before anything reads it.
    app.wsgi_app = SecurityHeaders(app.wsgi_app)  # type: ignore[method-assign]
    trust_proxies(app)
