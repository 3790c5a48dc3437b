"""What a request costs besides its own work (docs/performance.md, "What the profiles found"): the page's language is
named once per request and never reaches another one; Flask-Limiter checks only the views that have a limit; a session
cookie's signature is checked once per process, and only a cookie that passed is remembered."""

from __future__ import annotations

import time

import flask
import pytest
from flask_babel import force_locale
from flask_limiter._manager import LimitManager
from itsdangerous import URLSafeTimedSerializer

from scorepad import create_app, web

from .conftest import game_document, statements
from .test_games import NEW_GAME

SPANISH = {"Accept-Language": "es-UY,es;q=0.9"}
ENGLISH = {"Accept-Language": "en-US"}
# Us go out with two natural canastas: with their bonuses, a total past a thousand, which English groups with a comma
# and Spanish with a point.
BIG_HAND = {"sides": [{"went_out": True, "natural_canastas": 2, "count": 120}, {"mixed_canastas": 1, "count": 40}]}


def _game_with_a_total_past_a_thousand(client) -> tuple[str, int]:
    made = client.post("/api/games", json=game_document(hands=[BIG_HAND]))
    assert made.status_code == 201, made.get_data(as_text=True)
    body = made.get_json()
    total = client.get(f"/api/games/{body['id']}").get_json()["totals"][0]
    assert total >= 1000
    return body["id"], total


@pytest.mark.parametrize("first, then", [(SPANISH, ENGLISH), (ENGLISH, SPANISH)])
def test_the_language_named_for_one_request_never_reaches_the_next(app, client, first, then):
    """A Spanish phone's request and then an English one on the same worker (and the other way round): each page
    writes its figures in its own language, made afresh each time (an address never asked before)."""
    game_id, total = _game_with_a_total_past_a_thousand(client)
    english, spanish = f"{total:,}", f"{total:,}".replace(",", ".")
    for look, headers in enumerate((first, then, first)):
        page = client.get(f"/games/{game_id}?look={look}", headers=headers).get_data(as_text=True)
        shown, not_shown = (spanish, english) if headers is SPANISH else (english, spanish)
        assert shown in page and not_shown not in page, (look, headers)
        assert f'lang="{"es" if headers is SPANISH else "en"}"' in page


def test_the_language_inside_force_locale_is_the_forced_one_and_after_it_the_requests_again(app):
    """force_locale (the phone's words in every language, made during any request) names its own language for a while;
    the request's is named again after it."""
    with app.test_request_context("/", headers=SPANISH):
        assert web.language() == "es" and web.number(11550) == "11.550"
        with force_locale("it"):
            assert web.language() == "it"
        with force_locale("en"):
            assert web.language() == "en" and web.number(11550) == "11,550"
        assert web.language() == "es" and web.number(-2105) == "\u22122.105"
    with app.test_request_context("/", headers=ENGLISH):
        assert web.language() == "en" and web.number(11550) == "11,550"
    assert web.language() == "en"  # outside a request


@pytest.fixture
def resolved(monkeypatch):
    """How many times Flask-Limiter works out which limits apply to a request (once per limited view called)."""
    calls = []

    def counting(self, *args, **kwargs):
        calls.append(args[1] if len(args) > 1 else kwargs.get("endpoint"))
        return real(self, *args, **kwargs)

    real = LimitManager.resolve_limits
    monkeypatch.setattr(LimitManager, "resolve_limits", counting)
    return calls


def test_a_page_without_a_limit_is_not_checked_and_a_limited_view_still_is(make_app, resolved):
    """The rate limits are all on views (a hand saved, a game started...): a page with none asks Flask-Limiter nothing,
    a limited one is checked when its view runs."""
    client = make_app().test_client()
    made = client.post("/api/games", json=game_document())
    assert made.status_code == 201
    assert resolved == ["api.create_game"]
    resolved.clear()
    game_id = made.get_json()["id"]
    for address in (f"/games/{game_id}", f"/games/{game_id}", f"/api/games/{game_id}", "/history", "/"):
        assert client.get(address).status_code == 200, address
    assert resolved == []


def test_a_limit_on_every_request_set_by_the_operator_still_holds(make_app):
    """An app-wide limit (FLASK_RATELIMIT_DEFAULT) is checked before every request, as Flask-Limiter does."""
    client = make_app(RATELIMIT_DEFAULT="2 per minute").test_client()
    assert [client.get("/history").status_code for _ in range(3)] == [200, 200, 429]


# --- The session cookie, checked once per process ------------------------------------------------------------------


def _cookie(app, data: dict) -> str:
    return app.session_interface.get_signing_serializer(app).dumps(data)


def _opened(app, cookie: str):
    with app.test_request_context("/", headers={"Cookie": f"{app.config['SESSION_COOKIE_NAME']}={cookie}"}):
        return app.session_interface.open_session(app, flask.request)


@pytest.fixture
def signatures_checked(monkeypatch):
    """How many times a session cookie's signature is checked."""
    calls = []
    real = URLSafeTimedSerializer.loads

    def counting(self, *args, **kwargs):
        calls.append(1)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(URLSafeTimedSerializer, "loads", counting)
    return calls


def test_a_session_cookie_is_checked_once_and_each_request_gets_its_own_copy(app, signatures_checked):
    cookie = _cookie(app, {"device": "d1", "undo": {"game": "g1", "totals": [5, 10]}})
    first = _opened(app, cookie)
    first["undo"]["totals"].append(15)  # a request changing its session changes no other request's
    first["device"] = "d2"
    second = _opened(app, cookie)
    assert second == {"device": "d1", "undo": {"game": "g1", "totals": [5, 10]}}
    assert len(signatures_checked) == 1


def test_a_cookie_changed_by_a_character_is_refused_after_the_real_one_was_remembered(app):
    cookie = _cookie(app, {"device": "d1"})
    assert _opened(app, cookie) == {"device": "d1"}
    body, signature = cookie.rsplit(".", 1)
    forged = f"{body}.{'A' if signature[0] != 'A' else 'B'}{signature[1:]}"
    assert _opened(app, forged) == {}
    other_key = create_app({"TESTING": True, "SECRET_KEY": "another", "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    other_key.session_interface = app.session_interface  # the same process' memory, another app's key
    assert _opened(other_key, cookie) == {}


def test_a_remembered_cookie_past_the_sessions_lifetime_is_refused(app, monkeypatch):
    cookie = _cookie(app, {"device": "d1"})
    assert _opened(app, cookie) == {"device": "d1"}
    later = time.time() + app.permanent_session_lifetime.total_seconds() + 60
    monkeypatch.setattr(time, "time", lambda: later)
    assert _opened(app, cookie) == {}


# --- What a second look costs the database -------------------------------------------------------------------------


def _statements_of(app, look) -> list[str]:
    with statements(app) as sent:
        assert look()
    return sent


def test_a_kept_scoresheet_and_a_kept_history_page_cost_one_statement_each(app, client):
    """A second look at an unchanged game's page (a watcher's phone, and the scorekeeper's own) and at the
    scorekeeper's history: the one query that finds the revision (and the phone's right, for a phone that may hold
    one), or the history's page of rights and their count; nothing else."""
    game_id, _ = _game_with_a_total_past_a_thousand(client)
    watcher = app.test_client()  # no session cookie: it holds no right, and its look is answered before Flask
    assert watcher.get(f"/games/{game_id}").status_code == 200
    looks = _statements_of(app, lambda: watcher.get(f"/games/{game_id}").status_code == 200)
    assert len(looks) == 1 and "games" in looks[0] and "hands" not in looks[0], looks
    scorekeeper = app.test_client()
    started = scorekeeper.post("/games", data=NEW_GAME)  # the phone that starts a game keeps it: it is in its history
    assert started.status_code == 303
    kept = started.headers["Location"].rsplit("/", 1)[1]
    assert scorekeeper.get(f"/games/{kept}").status_code == 200
    looks = _statements_of(app, lambda: scorekeeper.get(f"/games/{kept}").status_code == 200)
    assert len(looks) == 1 and "game_rights" in looks[0] and "hands" not in looks[0], looks
    assert f"/games/{kept}" in scorekeeper.get("/history").get_data(as_text=True)
    looks = _statements_of(app, lambda: scorekeeper.get("/history").status_code == 200)
    assert len(looks) == 1 and "game_rights" in looks[0] and "FROM games" not in looks[0], looks


def _session_cookie_set(response) -> bool:
    return any(h.startswith("session=") for h in response.headers.getlist("Set-Cookie"))


def test_a_phones_session_cookie_is_sent_again_when_it_changes_or_once_a_day(app, monkeypatch, signatures_checked):
    """The phone that starts a game gets its device key (a permanent session): the same cookie then serves every
    request, checked once, until the session changes or the cookie is a day old, when it is signed again for its
    400 days from then."""
    phone = app.test_client()
    started = phone.post("/games", data=NEW_GAME)
    assert started.status_code == 303 and _session_cookie_set(started)
    signatures_checked.clear()
    looks = [phone.get("/history") for _ in range(3)]
    assert all(look.status_code == 200 and not _session_cookie_set(look) for look in looks)
    assert len(signatures_checked) == 1
    later = time.time() + 2 * 24 * 60 * 60
    monkeypatch.setattr(time, "time", lambda: later)
    again = phone.get("/history")
    assert again.status_code == 200 and _session_cookie_set(again)
    assert f"/games/{started.headers['Location'].rsplit('/', 1)[1]}" in phone.get("/history").get_data(as_text=True)


def test_the_scorekeepers_kept_scoresheet_counts_the_link_holders_in_its_one_statement(app):
    """The scorekeeper's page says how many other phones hold the handover link: counted by the same statement that
    finds the revision and the right, and counted again once another phone comes in through the link."""
    scorekeeper = app.test_client()
    started = scorekeeper.post("/games", data=NEW_GAME)
    assert started.status_code == 303
    address = started.headers["Location"]
    game_id = address.rsplit("/", 1)[1]
    for _ in range(2):  # the first look says the game was started (made afresh); the next is kept
        first = scorekeeper.get(address)
    assert first.status_code == 200
    looks = _statements_of(app, lambda: scorekeeper.get(address).get_data() == first.get_data())
    assert len(looks) == 1 and "game_rights" in looks[0], looks
    link = scorekeeper.get(f"/games/{game_id}/handover").get_data(as_text=True)
    key = link.split("#key=", 1)[1].split('"', 1)[0]
    other = app.test_client()
    assert other.post(f"/games/{game_id}/claim", data={"key": key}).status_code == 303
    assert "keeps score through it now" not in first.get_data(as_text=True)
    assert "1 phone keeps score through it now." in scorekeeper.get(address).get_data(as_text=True)


def test_a_cookie_in_use_stays_remembered_while_others_come_and_go(app, signatures_checked, monkeypatch):
    """The phones of a club night's scorekeepers each send their own cookie, again and again: one in use is not let go
    for being the first remembered (the least recently used goes), so it is not checked again."""
    from scorepad import security

    monkeypatch.setattr(security, "VERIFIED_KEPT", 3)
    keeper = _cookie(app, {"device": "keeper"})
    _opened(app, keeper)
    for n in range(6):  # others come and go; the keeper's phone saves between them
        _opened(app, _cookie(app, {"device": f"other-{n}"}))
        assert _opened(app, keeper) == {"device": "keeper"}
    assert len(signatures_checked) == 1 + 6  # the keeper's checked once, each other phone's once
