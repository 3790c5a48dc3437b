"""What every page blueprint stands on: page or fragment, a game or its 404, the scoresheet's figures, points."""

from __future__ import annotations

import string
from datetime import datetime
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

from babel.numbers import format_decimal
from flask import Flask, Response, abort, make_response, redirect, render_template, url_for
from flask import request as plain_request
from flask_babel import format_date, get_locale, get_translations, gettext, lazy_gettext
from htmx_flask import request
from jinja2_fragments.flask import render_block
from werkzeug.http import HTTP_STATUS_CODES
from werkzeug.wrappers import Response as BaseResponse

from . import rules, sheet, store
from .rules.errors import Message, Plural


def render(template: str, block: str | None = None, status: int = 200, **context: Any) -> Response:
    """The whole page, or for an htmx request only its `block`: the one place that decides."""
    # A boosted request (a form sent through htmx) or a history restore wants the whole page.
    fragment = bool(block and request.htmx and not request.htmx.boosted and not request.htmx.history_restore_request)
    if fragment and block:
        body = render_block(template, block, fragment=True, **context)
    else:
        body = render_template(template, fragment=False, **context)
    response = make_response(body, status)
    response.vary.update(("HX-Request", "HX-Target", "HX-Boosted", "HX-History-Restore-Request"))
    if request.htmx.boosted and request.method == "POST":
        # A form answered with a page (refused, or changed meanwhile): the address stays the form's,
        # whose URL can be reloaded; a POST-only URL in the address bar would answer 405.
        response.headers["HX-Push-Url"] = "false"
    return response


NO_SUCH_GAME = lazy_gettext("There is no game at this address. Check the link, or start a new game.")


def game_links(game_id: str, token: str) -> dict[str, str]:
    """Where a game can be seen, kept and exported, as the API gives it with its edit token (POST /api/games, a
    club night's tables)."""
    return {
        # The key after "#": a browser never sends it to a server; the scoresheet's script claims it by POST.
        "scoresheet": url_for("games.show", game_id=game_id, _anchor=f"key={token}", _external=True),
        "scoreboard": url_for("share.scoreboard", game_id=game_id, _external=True),
        "export_json": url_for("share.export_json", game_id=game_id, _external=True),
        "export_csv": url_for("share.export_csv", game_id=game_id, _external=True),
    }


def load_or_404(game_id: str) -> store.Stored:
    """A stored game, or the 404 page in words."""
    try:
        return store.load_game(game_id)
    except store.GameNotFound:
        abort(404, NO_SUCH_GAME)


def scoresheet_context(stored: store.Stored) -> dict:
    """What the scoresheet shows: every figure comes from the rules."""
    score = stored.score
    table = stored.game.table
    tied_on = max(score.totals) if not score.finished and max(score.totals) >= stored.game.rules.target else None
    return {
        "stored": stored,
        "game": stored.game,
        "score": score,
        "table": table,
        "tied_on": tied_on,
        "preset": rules.PRESETS[stored.game.rules.preset],
        "margin": score.margin,
        "rows": list(zip(stored.game.hands, score.hands, strict=False)),
        "next_hand_number": len(stored.game.hands) + 1,
        "next_dealer_name": table.player_of_seat(score.next_dealer),
    }


# --- The page's language (docs/i18n.md) ---------------------------------------------------------------

# The languages Scorepad speaks, each by its own name (the chooser in base.html), with the tag <html lang> takes.
LANGUAGES = {"en": "English", "es": "Español", "pt_BR": "Português", "it": "Italiano"}
HTML_LANG = {"en": "en", "es": "es", "pt_BR": "pt-BR", "it": "it"}
# The language chosen on this phone, kept as long as the session (400 days, the longest a browser keeps a cookie).
LANGUAGE_COOKIE = "lang"
LANGUAGE_COOKIE_AGE = 60 * 60 * 24 * 400
# What a page's answer depends on for its language: the chosen language's cookie, else the phone's own.
LANGUAGE_VARY = ("Accept-Language", "Cookie")


def phone_language() -> str:
    """The phone's own language (Accept-Language) matched to one Scorepad speaks: any Spanish is Spanish, any
    Portuguese Brazilian Portuguese, any Italian Italian; else English."""
    for tag, quality in plain_request.accept_languages:
        primary = tag.replace("_", "-").split("-")[0].lower()
        if quality > 0 and primary in ("en", "es", "it", "pt"):
            return "pt_BR" if primary == "pt" else primary
    return "en"


def pick_language() -> str:
    """The language of this request (Flask-Babel's locale selector): the one chosen on this phone (its cookie), else
    the phone's own. The API follows Accept-Language alone: its callers are programs, not phones."""
    chosen = plain_request.cookies.get(LANGUAGE_COOKIE)
    if chosen in LANGUAGES and not plain_request.path.startswith("/api/"):
        return chosen
    return phone_language()


def language() -> str:
    """The language this request is answered in (en, es, pt_BR, it); English outside a request."""
    locale = get_locale()
    return "en" if locale is None else str(locale)


def choose_language(code: str) -> BaseResponse:
    """The chooser's link: remember the language on this phone (a cookie) and go back to the page it was chosen on
    (`next`, an address of this site; home otherwise)."""
    if code not in LANGUAGES:
        abort(404)
    back = plain_request.args.get("next", "")
    parts = urlsplit(back)
    if not back.startswith("/") or back.startswith("//") or "\\" in back or parts.scheme or parts.netloc:
        back = "/"
    response = redirect(back, 303)
    response.set_cookie(LANGUAGE_COOKIE, code, max_age=LANGUAGE_COOKIE_AGE, samesite="Lax", httponly=True)
    response.headers["Cache-Control"] = "no-store"
    return response


def language_context() -> dict[str, Any]:
    """For base.html: this page's language (`html_lang`, `language`), and the chooser's languages by their own names."""
    current = language()
    return {"language": current, "html_lang": HTML_LANG[current], "languages": LANGUAGES}


def vary_by_language(response: Response) -> Response:
    """A page, fragment or JSON answer is made in the request's language: say what chose it (Vary), and in which
    language it is (Content-Language). A cache keeping one must not give it to a phone in another language."""
    if response.mimetype in ("text/html", "application/json", "application/manifest+json", "text/javascript"):
        present = response.headers.get("Vary", "")
        known = {name.strip().lower() for name in present.split(",")}
        missing = [name for name in LANGUAGE_VARY if name.lower() not in known]
        if missing:  # as a string, as delivery.add_vary does (web and delivery are siblings: neither imports the other)
            response.headers["Vary"] = ", ".join(filter(None, (present, *missing)))
        response.headers.setdefault("Content-Language", HTML_LANG[language()])
    return response


# --- Numbers, dates and the rules' messages in the page's language -------------------------------------------


@lru_cache(maxsize=8192)
def _grouped(value: int, language: str) -> str:
    """A number without its sign, grouped as `language` writes it (Babel's CLDR data): 11,550 or 11.550; from the
    first thousand in every language (2.105 too, as players write it)."""
    return format_decimal(value, format="#,##0", locale=language)


def number(value: int) -> str:
    """A whole number as the page's language writes it: 11,550 (English), 11.550 (Spanish, Portuguese, Italian),
    with a real minus sign: \u22122,105 and \u22122.105."""
    text = _grouped(abs(value), language())
    return f"\u2212{text}" if value < 0 else text


def points(value: int | None) -> str:
    """Points as a card player writes them: 1,685 and \u22122,060 (in English; 1.685 and \u22122.060 in Spanish)."""
    if value is None:
        return ""
    return number(value)


def day(moment: datetime) -> str:
    """The day a stored time fell on, in UTC whatever the database: 24 Nov 2026 (24 nov 2026 in Spanish)."""
    return format_date(store.utc(moment), "d MMM y")


class _InTheLanguage(string.Formatter):
    """str.format for a translated message: numbers written as the page's language writes them, and a value that is
    itself a message (a field's label) translated too. A format spec is English's (`{total:,}`) and is not used."""

    def format_field(self, value: object, format_spec: str) -> str:
        if isinstance(value, bool) or not isinstance(value, int | Message):
            return super().format_field(value, format_spec)
        if isinstance(value, Message):
            return str(translated(value))
        return number(value)


_IN_THE_LANGUAGE = _InTheLanguage()


def translated(message: object) -> object:
    """A rule's message (rules.Message) in the page's language, from the one catalogue (translations/): its text
    translated, then its values put in. Anything else as it is. The rules keep text and values apart and import no
    translation; every page shows their messages through here (Jinja's finalize) and the API answers with it."""
    if not isinstance(message, Message) or language() == "en":
        return message
    if isinstance(message, Plural):
        return _IN_THE_LANGUAGE.format(
            get_translations().ngettext(message.text, message.many, message.number), **message.values
        )
    return _IN_THE_LANGUAGE.format(gettext(message.text), **message.values)


# The names of the errors a page may show (werkzeug's, in English), said in the page's language (error.html).
ERROR_NAMES = {
    400: lazy_gettext("Bad Request"),
    403: lazy_gettext("Forbidden"),
    404: lazy_gettext("Not Found"),
    405: lazy_gettext("Method Not Allowed"),
    409: lazy_gettext("Conflict"),
    413: lazy_gettext("Request Entity Too Large"),
    415: lazy_gettext("Unsupported Media Type"),
    422: lazy_gettext("Unprocessable Entity"),
    429: lazy_gettext("Too Many Requests"),
    500: lazy_gettext("Internal Server Error"),
}


def error_name(code: int | None, name: str) -> str:
    """An error's name in the page's language: werkzeug's own where we have no translation of it."""
    known = ERROR_NAMES.get(code or 0)
    return str(known) if known is not None and code is not None and name == HTTP_STATUS_CODES.get(code) else name


def init_app(app: Flask) -> None:
    """Give every template the points filter, the names of special hands and what each side did in a hand; and the
    language: the chooser's address, base.html's <html lang>, and the rules' messages in the page's language."""
    app.add_url_rule("/language/<code>", "choose_language", choose_language)
    app.context_processor(language_context)
    app.after_request(vary_by_language)
    app.jinja_env.finalize = translated
    app.add_template_filter(points, "points")
    app.add_template_filter(translated, "translated")
    app.add_template_global(error_name, "error_name")
    app.add_template_filter(day, "day")
    app.add_template_global(rules.special_hand_name, "special_hand_name")
    app.add_template_global(sheet.hand_marks, "hand_marks")
