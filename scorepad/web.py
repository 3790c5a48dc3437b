"""What every page blueprint stands on: page or fragment, a game or its 404, the scoresheet's figures, points."""

from __future__ import annotations

import hashlib
import json
import re
import string
from collections.abc import Iterable
from datetime import datetime
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit
from wsgiref.types import WSGIEnvironment

import brotli
import segno
from babel.numbers import format_decimal
from flask import Flask, Response, abort, make_response, redirect, render_template, url_for
from flask import request as plain_request
from flask.globals import _cv_app
from flask_babel import force_locale, format_date, get_locale, get_translations, gettext, lazy_gettext
from htmx_flask import request
from jinja2_fragments.flask import render_block
from markupsafe import escape
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import HTTP_STATUS_CODES, parse_accept_header, parse_cookie
from werkzeug.wrappers import Response as BaseResponse

from . import document, rules, sheet, store
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


def matched_language(accepted: Iterable[tuple[str, float]]) -> str:
    """A phone's own languages (Accept-Language, best first) matched to one Scorepad speaks: any Spanish is Spanish,
    any Portuguese Brazilian Portuguese, any Italian Italian; else English."""
    for tag, quality in accepted:
        primary = tag.replace("_", "-").split("-")[0].lower()
        if quality > 0 and primary in ("en", "es", "it", "pt"):
            return "pt_BR" if primary == "pt" else primary
    return "en"


def chosen_language(chosen: str | None, accepted: Iterable[tuple[str, float]], path: str) -> str:
    """The language a request is answered in: the one chosen on this phone (its cookie, `chosen`), else the phone's
    own (`accepted`). The API follows Accept-Language alone: its callers are programs, not phones."""
    if chosen in LANGUAGES and not path.startswith("/api/"):
        return chosen
    return matched_language(accepted)


def pick_language() -> str:
    """The language of this request (Flask-Babel's locale selector): chosen_language of its cookie and headers."""
    return chosen_language(
        plain_request.cookies.get(LANGUAGE_COOKIE), plain_request.accept_languages, plain_request.path
    )


def language_of_environ(environ: WSGIEnvironment) -> str:
    """The same choice as pick_language, read from a WSGI environ before Flask has a request (delivery.RevisionGate
    answering a wall's unchanged poll)."""
    return chosen_language(
        parse_cookie(environ).get(LANGUAGE_COOKIE),
        parse_accept_header(environ.get("HTTP_ACCEPT_LANGUAGE"), LanguageAccept),
        environ.get("PATH_INFO", ""),
    )


def language() -> str:
    """The language this request is answered in (en, es, pt_BR, it); English outside a request.

    A page made afresh asks it for each figure (`number`, 1,600 on a 200-hand page): it is named once for the locale
    Flask-Babel chose for this request and kept beside it, in Babel's own place for the request's locale (the app
    context's `g`), so it lives exactly as long as Babel's choice and never reaches another request. Kept with the
    locale it names: inside `force_locale`, which puts another locale there for a while, the other is named."""
    context = _cv_app.get(None)
    babel = None if context is None else context.g.__dict__.get("_flask_babel")  # flask_babel._get_current_context
    locale = getattr(babel, "babel_locale", None)
    named = getattr(babel, "scorepad_language", None)
    if locale is not None and named is not None and named[0] is locale:
        return named[1]
    locale = get_locale()
    if locale is None:
        return "en"
    babel = _cv_app.get().g.__dict__.get("_flask_babel")
    if babel is not None:
        babel.scorepad_language = (locale, str(locale))
    return str(locale)


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


def _by_language(response: Response) -> Response:
    """vary_by_language, but for the phone's words, whose address names their language."""
    return response if plain_request.endpoint == "phone_messages" else vary_by_language(response)


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
    app.add_url_rule("/messages.<code>.json", "phone_messages", phone_messages)
    app.add_template_global(phone_words_url, "phone_words_url")
    app.after_request(_by_language)
    # The language's cookie chooses words, never rights: a look carrying only it may have an answer made for anyone
    # (delivery.RevisionGate).
    app.config.setdefault("PLAIN_COOKIES", (LANGUAGE_COOKIE,))
    app.jinja_env.finalize = translated
    app.add_template_filter(points, "points")
    app.add_template_filter(translated, "translated")
    app.add_template_global(error_name, "error_name")
    app.add_template_filter(day, "day")
    app.add_template_global(rules.special_hand_name, "special_hand_name")
    app.add_template_global(sheet.hand_marks, "hand_marks")


# --- The phone's words: its scripts' messages and labels in the page's language, sent as data ------------------
#
# The phone's script (assets/js/) writes no sentence of its own: each message is a key here with its values, as the
# rules' Message keeps text and values apart (rules.js says the rules' refusals with the same templates as
# scorepad/rules/checks.py; tests/e2e/test_rules_js.py holds every one to the server's, in English and Spanish). They
# go to the phone as one JSON document per language (`phone_words`, pwa.messages), made once, kept by the service
# worker. A key is short: it is what the script carries.

PHONE_MESSAGES: dict[str, str] = {
    # The rules' refusals (scorepad/rules/checks.py), by the check that says them.
    "notIn": Message("{label}: not part of this game's rules ({preset})."),
    "range": Message("{label}: a side can have 0 to {most}."),
    "neg": Message("{label}: can't be negative."),
    "player": Message("{label}: the side has only 1 player."),
    "players": Message("{label}: the side has only {players} players."),
    "fifty": Message("{label}: more than 50 in one hand? Check the number."),
    "redIn": Message("Red 3s left in hand: there are only {held} in the pack."),
    "wildK": Message("Wild-card canasta: choose seven 2s, four jokers and three 2s, or another mix."),
    "wildX": Message("Wild-card canasta of {kind}: this game doesn't play it."),
    "spec": Message("{special_hand} is not a special hand allowed in this game."),
    "last3": Message("The last card was a 3 left in hand: count it in 3s left in hand too."),
    "shut7": Message("A side with a closed sevens canasta can't also have an unfinished sevens meld."),
    "shutA": Message("A side with a closed pure aces canasta can't also have an unfinished pure aces meld."),
    "shutW": Message("A side with a closed wild cards canasta can't also have an unfinished wild cards meld."),
    "base2": Message("Base as reported: give the side's Base as one figure or as its entries ({listed}), not both."),
    "base5": Message("Base as reported: it must be a multiple of 5."),
    "baseR": Message("Base as reported: in this game a side's Base is between {lowest} and {highest:,}."),
    "out1": Message("Going out needs a closed canasta."),
    "out2": Message("Going out needs two closed canastas."),
    "outN": Message("Going out needs {need} closed canastas."),
    "outM": Message("Can't go out with an unfinished sevens, aces or wild-card meld on the table."),
    "melded": Message("A side with a canasta, or that went out, has melded."),
    "hid": Message("Concealed is only for a side that went out."),
    "noCut": Message("This game doesn't play the perfect-cut bonus."),
    "cutter": Message("Only the cutter's side ({cutter}) can have the perfect cut this hand."),
    "count2": Message("Give the Count as one number or as the counting grid, not both."),
    "black": Message("Black 3s are never melded or counted in modern canasta."),
    "pack": Message("{label}: the pack has only {most}."),
    "count5": Message("The Count must be a multiple of 5."),
    "countX": Message("The Count can't be more than the whole pack's {points:,} points."),
    "count0": Message("A side with no canasta counts every card against it: its Count can't be above 0."),
    "red3s": Message("The sides account for {held} red 3s; the pack has only {most}."),
    "black3s": Message("The sides account for {held} black 3s; the pack has only {most}."),
    "all3s": Message("The sides account for {held} 3s; the pack has only {most}."),
    "oneOut": Message("Only one side can go out."),
    "oneSp": Message("Only one special hand can end a hand."),
    "nobody": Message("Nobody goes out in a hand that ends with a special hand."),
    "oneLast": Message("Only one side can hold the last card of the stock."),
    "oneCut": Message("Only one side can have the perfect cut."),
    "one7": Message("Only one side can close a sevens canasta."),
    "oneA": Message("Only one side can close a pure aces canasta."),
    "oneW": Message("Only one side can close a wild-card canasta."),
    "fit": Message("{canastas} natural and mixed canastas: the pack can make at most {limit}."),
    "classic": Message(
        "{naturals} natural and {mixed} mixed canastas: the pack can't make them all (a natural canasta is seven "
        "cards of a rank; a mixed one at least four of a rank and a wild card)."
    ),
    "many7": Message(
        "Too many sevens: together the sides' entries need at least {need} (a sevens canasta is 7, an unfinished "
        "sevens meld 3 or more, a player dirty with 7s holds 3), but the pack has {most}."
    ),
    "manyA": Message(
        "Too many aces: together the sides' entries need at least {need} (a pure aces canasta is 7, an unfinished "
        "aces meld 3 or more, a player dirty with aces holds 3), but the pack has {most}."
    ),
    "manyW": Message(
        "Too many wild cards: together the sides' entries need at least {need} (a wild-card canasta is 7, an "
        "unfinished wild meld 3 or more, each mixed canasta 1), but the pack has {most}."
    ),
    "grids": Message("{cards}: the counting grids hold {held}; the pack has only {most}."),
    "whole": Message("{label}: enter a whole number."),
    "big": Message("{label}: that number is far too big for one hand."),
    "over": Message("This game is over: no more hands can be added."),
    # A hand body's shape (document.parse_hand, parse_side_entry), a game's last hand (store.check_new_hand) and a
    # change after which the game would end early (rules.hands_after_the_end). A JSON example is a Message's value:
    # phone_words puts it into the template.
    "unknown": Message("Unknown field {key}."),
    "yesNo": Message("{label}: true or false."),
    "named": Message('{label}: give its name, like "{example}".'),
    "gridS": document.GRID_SHAPE,
    "gridN": document.GRID_NUMBERS,
    "handS": document.HAND_SHAPE,
    "sidesL": document.SIDES_LISTED,
    "sides": Message("A hand has one entry for each of the {sides} sides."),
    "sideS": document.SIDE_SHAPE,
    "full": Message(
        "Hand {number}: a game holds at most {most} hands, and this one has them all. Start a new game to play on."
    ),
    "ends": Plural(
        "With this change the game would end after hand {after}, so the hand after it can't follow. Delete it first.",
        "With this change the game would end after hand {after}, so the {count} hands after it can't follow. "
        "Delete them first.",
        1,
        after="{after}",  # left for the script to put in (phone_words puts a value in: the same placeholder)
    ),
    # The hand form (handform.js, handpage.js, localgame.js): the server's own words for the same things.
    "like": Message("Enter a whole number, like {example}."),
    "less": Message("Can't be less than {min}."),
    "more": "(and %(number)s more, marked above)",
    "and": "and",
    "pm": ": plus or minus",
    "each": Message("({sign}{worth:,} each)"),
    "worth": Message("({sign}{worth:,})"),
    "cutAt": "(+%(points)s, exactly 52 cards: %(cutter)s cut)",
    "hand": "Hand %(number)s",
    "edit": "Edit hand %(number)s (not sent yet)",
    "save": "Save hand %(number)s",
    "saveC": "Save changes",
    "digits": Message("Digits only here: \u201c{typed}\u201d can't be part of a number."),
    "minus": Message("For a minus Count, tap \u2212."),
    # The scoresheet with hands waiting on the phone (sheet.js) and the home page's games started on it (localgame.js).
    "handOf": "Hand %(number)s:",
    "deals": "deals",
    "to": "playing to %(target)s",
    "withN": Plural("Figures with {count} hand", "Figures with {count} hands", 1),
    "needs": Plural("{count} hand needs you", "{count} hands need you", 1),
    "unsent": Plural("{count} hand, not sent yet", "{count} hands, not sent yet", 1),
    "side": "Side %(number)s",
    "specOf": Message("{name}: special hand"),
    "natural": Plural("{count} natural canasta", "{count} natural canastas", 1),
    "mixed": Plural("{count} mixed canasta", "{count} mixed canastas", 1),
    "red": Plural("{count} red 3", "{count} red 3s", 1),
    "out": "went out",
    "countOf": Message("Count {count}"),
    "grid": Message("Count by the grid"),
    "baseOf": Message("Base {base}"),
    "nothing": Message("nothing entered"),
    # Sending what waits (sync.js), a new game on the phone (newgame.js), sharing (share.js, shell.js).
    "noTake": Message("The server could not take this hand (error {code})."),
    "noStart": Message("The server could not start this game (error {code})."),
    "seat": Message("Player {player} of side {side}"),
    "bfNum": Message("{name}'s total brought forward: enter a whole number of points."),
    "bf5": Message("{name}'s total brought forward is {total:,}: canasta scores go in 5s, like {like:,}."),
    "bfOver": Message(
        "{name}'s total brought forward is {total:,}, at or past the target of {target:,}: that game is already over."
    ),
    "follow": Message("Follow the score with room code {room}."),
    "copied": Message("Link copied: paste it in a message."),
    "copy": Message("Copy this link:"),
    "link": "Scoreboard link",
    "got": Message("Link copied"),
    "picked": Message("Link selected: copy it from the box above"),
    "title": Message("Scorepad: keep score"),
}
# The API's own (scorepad/api.py: gettext's %(name)s), said by the phone as {name}.
_API_MESSAGES = {"noHand": "This game has %(hands)s hand(s); there is no hand %(n)s (hands count from 0)."}


def phone_words(language: str) -> dict[str, Any]:
    """What the phone's script says, in `language` (a code of LANGUAGES): `m` each message's template by its key (a
    count's words as [one, many]), the labels of the side entries (`f`), the counting grid's cards (`c`), the wild-card
    canastas (`w`), the presets (`r`) and the special hands (`s`); `g` the digits' group separator and `p` true where 0
    takes the singular (Portuguese); and `k`, the rules' catalogue as the phone's rules read it (rules.phone_json).
    Needs an app context."""
    with force_locale(language):
        catalogue = get_translations()
        messages: dict[str, Any] = {}
        for key, text in {**PHONE_MESSAGES, **_API_MESSAGES}.items():
            if isinstance(text, Plural):
                messages[key] = [_filled(catalogue.ngettext(text.text, text.many, n), text) for n in (1, 2)]
            else:
                messages[key] = _filled(catalogue.gettext(text.text if isinstance(text, Message) else text), text)
        plural = getattr(catalogue, "plural", lambda n: int(n != 1))
        return {
            "g": _grouped(1000, language)[1],
            "p": plural(0) == 0,
            "m": messages,
            "f": {name: str(translated(label)) for name, label in rules.FIELD_LABELS.items()},
            "c": {kind: str(translated(label)) for kind, label in rules.CARD_LABELS.items()},
            "w": {kind: str(translated(name)) for kind, name in rules.WILD_CANASTA_NAMES.items()},
            "r": {key: str(translated(preset.name)) for key, preset in rules.PRESETS.items()},
            "s": {key: str(translated(name)) for key, name in rules.SPECIAL_HAND_NAMES.items()},
            "k": rules.phone_json(),  # the rules' catalogue (rules.js): data, the same in every language
        }


def _filled(template: str, text: str) -> str:
    """A template as the phone fills it: gettext's %(name)s (the templates' own words) as {name}, and a Message's own
    values (a JSON example, the same in every language) put in, so the script only puts in what it knows."""
    template = re.sub(r"%\((\w+)\)s", r"{\1}", template)
    if isinstance(text, Message):
        for name, value in text.values.items():
            if not (isinstance(text, Plural) and name == "count"):
                template = template.replace("{" + name + "}", str(value))
    return template


@lru_cache(maxsize=len(LANGUAGES))
def phone_words_json(language: str) -> tuple[str, str]:
    """The phone's words in `language` as the JSON sent, and its tag (a digest of it): made once per process, as the
    catalogues are read once (a new revision is a new process)."""
    body = json.dumps(phone_words(language), ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return body, hashlib.sha256(body.encode()).hexdigest()[:12]


@lru_cache(maxsize=len(LANGUAGES))
def _phone_words_brotli(language: str) -> bytes:
    return brotli.compress(phone_words_json(language)[0].encode(), quality=11)


def phone_messages(code: str) -> Response:
    """/messages.<code>.json: the phone's words in the language named (not the request's: the address says which, so
    no cache gives one language's to another). Asked with its tag (?v=, as phone_words_url names it) it never changes:
    kept a year; asked without, checked each time (ETag)."""
    if code not in LANGUAGES:
        abort(404)
    body, tag = phone_words_json(code)
    response = make_response(body)
    response.mimetype = "application/json"
    response.vary.add("Accept-Encoding")
    if "br" in plain_request.accept_encodings:  # compressed once, as tightly as brotli can (Flask-Compress leaves it)
        response.set_data(_phone_words_brotli(code))
        response.headers["Content-Encoding"] = "br"
    response.set_etag(tag)
    response.headers["Content-Language"] = HTML_LANG[code]
    current = plain_request.args.get("v") == tag
    response.headers["Cache-Control"] = "public, max-age=31536000, immutable" if current else "no-cache"
    response.make_conditional(plain_request)
    return response


def phone_words_url() -> str:
    """The address of the phone's words in this page's language, with their tag (base.html's script tag, sw.js)."""
    code = language()
    return url_for("phone_messages", code=code, v=phone_words_json(code)[1])


# --- QR codes ----------------------------------------------------------------------------------------------


@lru_cache(maxsize=1024)
def qr_svg(link: str, label: str) -> str:
    """A QR code of a link as inline SVG (the scoreboard's, a table card's: black on white, whatever the theme,
    as scanners read that best), named by `label` (in the page's language).

    Kept per link and label: making one takes about 6 ms (segno tries each mask), far more than the rest of the page."""
    svg = segno.make(link, error="m").svg_inline(
        scale=1, border=4, dark="#000", light="#fff", omitsize=True, svgclass="qr-code"
    )
    return svg.replace("<svg ", f'<svg role="img" aria-label="{escape(label)}" ', 1)
