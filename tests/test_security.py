"""Safe by default (OWASP ASVS level 1, issue 9): security headers on every answer, no inline script or style,
JSON only into the API, names cleaned and kept short, at most 200 hands, rate limits with Retry-After, Secure
cookies over https behind a trusted proxy, If-Match, the append retry and Idempotency-Keys that expire."""

from __future__ import annotations

import io
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from datetime import UTC, datetime, timedelta
from email.message import Message

import pytest
from werkzeug.datastructures import FileStorage
from werkzeug.test import encode_multipart

from scorepad import store
from scorepad.models import GameRecord, IdempotentRequest, db
from scorepad.security import STRICT_TRANSPORT_SECURITY
from tests.conftest import game_document

from .test_games import NEW_GAME, hand_form, text

CSP_DIRECTIVES = {
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
}
# Side 0 goes out with a natural and a mixed canasta: 500 + 300 + 100 for going out = 900, Count 0; side 1
# has nothing. OUT_1 is the same for side 1. At 100,000 to win, 200 such hands alternating leave 90,000 each.
OUT_0 = {"sides": [{"natural_canastas": 1, "mixed_canastas": 1, "went_out": True}, {}]}
OUT_1 = {"sides": [{}, {"natural_canastas": 1, "mixed_canastas": 1, "went_out": True}]}
LONG_GAME = game_document(target=100_000, hands=[OUT_0 if n % 2 == 0 else OUT_1 for n in range(200)])


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def start_page_game(client) -> str:
    response = client.post("/games", data=NEW_GAME)
    assert response.status_code == 303, text(response)
    return response.headers["Location"].rsplit("/", 1)[1]


# --- Headers on every answer -------------------------------------------------------------------


def assert_security_headers(response) -> None:
    headers = response.headers
    assert set(headers["Content-Security-Policy"].split("; ")) == CSP_DIRECTIVES
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"


def test_every_kind_of_answer_carries_the_security_headers(app, client, api_game):
    game_id, _, _ = api_game
    with app.test_request_context():
        from flask import url_for

        static = url_for("static", filename="css/scorepad.css")
        script = url_for("static", filename="js/htmx-2.0.11.min.js")
        manifest = url_for("pwa.manifest")
    answers = {
        "page": client.get("/"),
        "fragment": client.get(
            f"/games/{game_id}/scoreboard", headers={"HX-Request": "true", "HX-Target": "scoresheet"}
        ),
        "json": client.get(f"/api/games/{game_id}"),
        "json error": client.get("/api/games/nothing-here"),
        "page error": client.get("/games/nothing-here"),
        "static": client.get(static),
        "script": client.get(script),
        "service worker": client.get("/sw.js"),
        "manifest": client.get(manifest),
    }
    for kind, response in answers.items():
        response.close()  # static files are streamed from disk
        assert response.status_code in (200, 404), (kind, response.status_code)
        assert_security_headers(response)
    assert "<html" not in answers["fragment"].get_data(as_text=True)


def test_a_page_that_carries_a_key_is_never_stored_by_a_cache(client):
    game_id = start_page_game(client)
    handover = client.get(f"/games/{game_id}/handover")  # the handover link, to copy or share
    assert handover.status_code == 200 and handover.headers["Cache-Control"] == "no-store"
    landing = client.get(f"/games/{game_id}?key=anything")  # a key in an address: an old link
    assert landing.headers["Cache-Control"] == "no-store"
    # The scoresheet carries no key: it may be kept, and checked again before each use.
    assert "no-store" not in client.get(f"/games/{game_id}").headers.get("Cache-Control", "")


def test_the_answer_that_holds_a_new_games_edit_token_is_never_stored_by_a_cache(client):
    created = client.post("/api/games", json=game_document())
    assert created.status_code == 201 and created.get_json()["edit_token"]
    assert created.headers["Cache-Control"] == "no-store"
    # The game's document holds no token: it may be kept, and checked again before each use.
    assert "no-store" not in client.get(created.headers["Location"]).headers.get("Cache-Control", "")


HSTS = "Strict-Transport-Security"


def test_strict_transport_security_only_over_https(make_app):
    behind_proxy = make_app(TRUSTED_PROXIES=1, RATELIMIT_ENABLED=False).test_client()
    with behind_proxy.application.test_request_context():
        from flask import url_for

        static = url_for("static", filename="css/scorepad.css")
    forwarded = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "192.0.2.1"}
    for path in ("/", static, "/api/games/nothing-here"):
        over_https = behind_proxy.get(path, headers=forwarded)
        over_https.close()
        assert over_https.headers[HSTS] == "max-age=31536000", path  # a year, this host only
        plain = behind_proxy.get(path)
        plain.close()
        assert HSTS not in plain.headers, path
    # Straight to the app over https (no proxy): the same.
    direct = make_app(RATELIMIT_ENABLED=False).test_client()
    assert direct.get("/", base_url="https://localhost").headers[HSTS] == "max-age=31536000"
    assert HSTS not in direct.get("/").headers
    # A client's own X-Forwarded-Proto is not believed without a trusted proxy (FLASK_TRUSTED_PROXIES=0).
    assert HSTS not in direct.get("/", headers=forwarded).headers


INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>", re.I)
INLINE_HANDLER = re.compile(r"<[^>]+\s(on[a-z]+|style|hx-on[:\w-]*)\s*=", re.I)


def test_no_page_has_inline_script_style_or_event_handler(client):
    """The Content-Security-Policy would block them: a script or style="" must come from static/."""
    game_id = start_page_game(client)
    client.post(f"/games/{game_id}/hands", data=hand_form({"natural_canastas": 2, "went_out": "y"}, {}))
    pages = [
        "/",
        "/games/new",
        f"/games/{game_id}",
        f"/games/{game_id}/hands/new",
        f"/games/{game_id}/hands/1/edit",
        f"/games/{game_id}/hands/1/delete",
        f"/games/{game_id}/handover",
        f"/games/{game_id}/delete",
        f"/games/{game_id}/scoreboard",
        f"/games/{game_id}/rules",
        "/history",
        "/history/statistics",
        "/rules",
        "/join",
        "/offline",
        "/games/nothing-here",
    ]
    for path in pages:
        page = client.get(path).get_data(as_text=True)
        assert "<html" in page, path
        assert not INLINE_SCRIPT.findall(page), (path, INLINE_SCRIPT.findall(page))
        assert not INLINE_HANDLER.findall(page), (path, INLINE_HANDLER.findall(page))
        assert "<style" not in page, path
        assert '"includeIndicatorStyles":false' in page  # htmx must not inject its own <style>


# --- The API takes JSON only ----------------------------------------------------------------------


def test_the_api_refuses_a_body_that_is_not_declared_json(client, api_game):
    game_id, _, headers = api_game
    body = json.dumps(game_document())
    for content_type in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data", None):
        response = client.post("/api/games", data=body, content_type=content_type)
        assert response.status_code == 415 and response.is_json, content_type
        assert "Content-Type: application/json" in response.get_json()["errors"][0]["message"]
    hand = json.dumps(OUT_0)
    assert client.post(f"/api/games/{game_id}/hands", data=hand, headers=headers).status_code == 415
    assert client.put(f"/api/games/{game_id}/hands/0", data=hand, headers=headers).status_code == 415
    assert client.get(f"/api/games/{game_id}").get_json()["hands"] == []  # nothing was stored
    assert client.post("/api/games", data=body, content_type="application/json").status_code == 201


# --- Names -----------------------------------------------------------------------------------------


def test_a_name_over_40_characters_is_refused_naming_its_field(client):
    sides = [{"name": "Us", "players": ["Ann", "C" * 41]}, {"name": "T" * 41, "players": ["Bea", "Dot"]}]
    response = client.post("/api/games", json=game_document(sides=sides))
    assert response.status_code == 422
    assert response.get_json()["errors"] == [
        {
            "field": "sides.0.players.1",
            "message": "The name of player 2 of side 1 is 41 characters long: a name has at most 40.",
        },
        {"field": "sides.1.name", "message": "Side 2's name is 41 characters long: a name has at most 40."},
    ]


def test_a_name_of_40_characters_is_kept_without_its_control_and_bidi_characters(client):
    forty = "Annabel-" + "x" * 32
    # A right-to-left override, a NUL, a right-to-left mark, an isolate and its end, a line break and spaces.
    raw = "  \u202e" + forty[:10] + "\x00\u200f" + forty[10:30] + "\u2067\u2069" + forty[30:] + "\n "
    sides = [{"name": "Us\tAll", "players": [raw, "Cleo"]}, {"name": "\u202dThem\u202c", "players": ["Bea", "Dot"]}]
    response = client.post("/api/games", json=game_document(sides=sides))
    assert response.status_code == 201, response.get_json()
    kept = client.get(f"/api/games/{response.get_json()['id']}").get_json()["sides"]
    assert kept == [{"name": "Us All", "players": [forty, "Cleo"]}, {"name": "Them", "players": ["Bea", "Dot"]}]


def test_the_new_game_page_says_which_name_is_too_long(client):
    response = client.post("/games", data={**NEW_GAME, "player1_0": "B" * 41})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    message = "The name of player 1 of side 2 is 41 characters long: a name has at most 40."
    assert message in text(response)
    # beside its field, typed as it was: nothing entered is lost
    field = page.index('id="player1_0"')
    assert 'value="' + "B" * 41 + '"' in page[field - 400 : field + 400]


INVISIBLE_NAMES = [
    "\u200b",  # a zero-width space
    "\u200b\u200c\u200d\u2060\ufeff",  # zero-width space, non-joiner, joiner, word joiner, byte-order mark
    " \u3164 ",  # the Hangul filler between spaces
    "\u2800",  # the blank braille pattern
    "\u00ad\u034f",  # a soft hyphen, a combining grapheme joiner
    "\u180e\u115f\u1160",  # the Mongolian vowel separator, Hangul fillers
]


@pytest.mark.parametrize("invisible", INVISIBLE_NAMES)
def test_a_name_with_no_character_you_can_see_is_no_name(client, invisible):
    sides = [{"name": invisible, "players": ["Ann", invisible]}, {"name": "Them", "players": ["Bea", "Dot"]}]
    response = client.post("/api/games", json=game_document(sides=sides))
    assert response.status_code == 422
    assert response.get_json()["errors"] == [
        {"field": "sides.0.name", "message": "Give each side a name."},
        {"field": "sides.0.players.1", "message": "Give each player a name."},
    ]
    page = client.post("/games", data={**NEW_GAME, "side1_name": invisible, "player0_0": invisible})
    assert page.status_code == 422
    assert "Give each side a name." in text(page) and "Give each player a name." in text(page)


def test_a_name_with_a_joined_emoji_or_an_accent_keeps_every_character(client):
    family, accented = "Ann \U0001f469\u200d\U0001f467", "Zoe\u0301"  # a zero-width joiner, a combining accent
    sides = [{"name": family, "players": [accented, "Cleo"]}, {"name": "Them", "players": ["Bea", "Dot"]}]
    response = client.post("/api/games", json=game_document(sides=sides))
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["sides"][0] == {"name": family, "players": [accented, "Cleo"]}


def test_a_field_of_a_megabyte_is_refused_in_words_not_echoed(client):
    huge = "B" * 1_000_000
    page = client.post("/games", data={**NEW_GAME, "player1_0": huge})
    assert page.status_code == 413 and page.mimetype == "text/html"
    assert len(page.get_data()) < 20_000 and "B" * 1000 not in page.get_data(as_text=True)
    assert "1,000,000 characters" in text(page) and "at most 1,000" in text(page)
    # The same through the other forms that show what was typed: a hand form, a game started offline.
    game_id = start_page_game(client)
    hand = client.post(f"/games/{game_id}/hands", data=hand_form({"count": huge}, {}))
    assert hand.status_code == 413 and len(hand.get_data()) < 20_000
    offline = client.post("/sync/games", data={**NEW_GAME, "side0_name": huge}, headers={"Idempotency-Key": "k" * 22})
    assert offline.status_code == 413 and len(offline.get_data()) < 20_000


def test_a_field_within_the_limit_is_kept_as_typed_and_a_large_file_still_restores(client):
    typed = "B" * 1000
    page = client.post("/games", data={**NEW_GAME, "player1_0": typed})
    assert page.status_code == 422 and 'value="' + typed + '"' in page.get_data(as_text=True)
    padded = json.dumps(game_document(), indent=2) + " " * 1_500_000  # a file over the 1 MB of any other post
    # The body made here: the test client's own multipart encoding of a file this size leaves a file open.
    boundary, body = encode_multipart({"document": FileStorage(io.BytesIO(padded.encode()), "game.json")})
    restored = client.post("/games/import", data=body, content_type=f"multipart/form-data; boundary={boundary}")
    assert restored.status_code == 303


# --- At most 200 hands -----------------------------------------------------------------------------


def test_the_201st_hand_is_refused_through_the_api(client):
    created = client.post("/api/games", json=LONG_GAME)
    assert created.status_code == 201
    body = created.get_json()
    assert body["totals"] == [90_000, 90_000] and body["status"] == "in_progress"
    response = client.post(f"/api/games/{body['id']}/hands", json=OUT_0, headers=bearer(body["edit_token"]))
    assert response.status_code == 422
    assert response.get_json()["errors"] == [
        {
            "field": "sides",
            "message": "Hand 201: a game holds at most 200 hands, and this one has them all. "
            "Start a new game to play on.",
        }
    ]
    assert len(client.get(f"/api/games/{body['id']}").get_json()["hands"]) == 200


def test_a_restored_game_of_201_hands_is_refused(client):
    too_long = {**LONG_GAME, "hands": LONG_GAME["hands"] + [OUT_0]}
    response = client.post("/api/games", json=too_long)
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["field"] == "hands"
    assert "at most 200 hands, and this one has 201" in response.get_json()["errors"][0]["message"]
    page = client.post(
        "/games/import",
        data={"document": (io.BytesIO(json.dumps(too_long).encode()), "game.json")},
        content_type="multipart/form-data",
    )
    assert page.status_code == 422 and "at most 200 hands, and this one has 201" in text(page)


def test_the_hand_form_says_the_game_is_full(client):
    restored = client.post(
        "/games/import",
        data={"document": (io.BytesIO(json.dumps(LONG_GAME).encode()), "game.json")},
        content_type="multipart/form-data",
    )
    restored.close()
    assert restored.status_code == 303
    game_id = restored.headers["Location"].rsplit("/", 1)[1]
    typed = hand_form({"natural_canastas": 1, "mixed_canastas": 1, "went_out": "y", "count": 55}, {})
    response = client.post(f"/games/{game_id}/hands", data=typed)
    assert response.status_code == 422
    assert "Hand 201: a game holds at most 200 hands" in text(response)
    assert 'value="55"' in response.get_data(as_text=True)  # what was typed is still there


# --- Rate limits -----------------------------------------------------------------------------------


def test_the_31st_new_game_in_a_minute_from_one_address_is_refused_with_retry_after(limited):
    for n in range(15):
        assert limited.post("/api/games", json=game_document()).status_code == 201, n
        start_page_game(limited)  # pages and the API share one count
    response = limited.post("/api/games", json=game_document())
    assert response.status_code == 429 and response.is_json
    assert 1 <= int(response.headers["Retry-After"]) <= 60
    assert "Wait a minute" in response.get_json()["errors"][0]["message"]
    page = limited.post("/games", data=NEW_GAME)
    assert page.status_code == 429 and page.mimetype == "text/html"
    assert "Wait a minute and try again: nothing you typed is lost." in text(page)
    assert 1 <= int(page.headers["Retry-After"]) <= 60
    # Another address is not held back; the new-game form itself is never limited.
    other = limited.post("/api/games", json=game_document(), environ_base={"REMOTE_ADDR": "192.0.2.7"})
    assert other.status_code == 201
    assert limited.get("/games/new").status_code == 200


def test_restoring_and_joining_by_code_are_limited(limited):
    upload = json.dumps(game_document()).encode()
    for _ in range(10):
        restored = limited.post(
            "/games/import", data={"document": (io.BytesIO(upload), "g.json")}, content_type="multipart/form-data"
        )
        restored.close()
    assert restored.status_code == 303
    refused = limited.post(
        "/games/import", data={"document": (io.BytesIO(upload), "g.json")}, content_type="multipart/form-data"
    )
    assert refused.status_code == 429 and "Retry-After" in refused.headers
    for _ in range(30):
        assert limited.get("/join?code=ACDEFH").status_code == 404  # no such game, in words
        assert limited.get("/join").status_code == 200  # the empty form costs nothing
    refused = limited.get("/join?code=ACDEFH")
    assert refused.status_code == 429 and "Check the code with the scorekeeper" in text(refused)


def games_file(count: int) -> bytes:
    """A file of every game (docs/api.md) holding `count` new games, each with no hand."""
    return json.dumps({"format": "scorepad-games", "version": 1, "games": [game_document()] * count}).encode()


def restore_file(client, raw: bytes):
    return client.post(
        "/games/import", data={"document": (io.BytesIO(raw), "all.json")}, content_type="multipart/form-data"
    )


def test_each_game_restored_counts_as_a_new_game(limited):
    assert restore_file(limited, games_file(25)).status_code == 303  # 25 of the 30 new games a minute
    for n in range(5):
        assert limited.post("/api/games", json=game_document()).status_code == 201, n
    refused = limited.post("/api/games", json=game_document())
    assert refused.status_code == 429 and 1 <= int(refused.headers["Retry-After"]) <= 60
    again = restore_file(limited, games_file(1))
    assert again.status_code == 429 and "restored games count too" in text(again)
    assert 1 <= int(again.headers["Retry-After"]) <= 60


def test_a_restore_is_let_through_while_there_is_room_then_counts_every_game(make_app):
    client = make_app(RATELIMIT_NEW_GAMES="30 per minute;300 per hour").test_client()
    assert restore_file(client, games_file(40)).status_code == 303  # all 40 restored: the file is one whole
    kept = client.get("/history").get_data(as_text=True)
    assert "40 games" in " ".join(re.sub(r"<[^>]+>", " ", kept).split())
    refused = client.post("/games", data=NEW_GAME)  # 40 of 30 this minute: wait for the next
    assert refused.status_code == 429 and "restored games count too" not in text(refused)
    other = client.post("/api/games", json=game_document(), environ_base={"REMOTE_ADDR": "192.0.2.7"})
    assert other.status_code == 201  # another address is not held back


OUT_HAND_FORM = {"natural_canastas": 1, "mixed_canastas": 1, "went_out": "y"}


def test_hand_saves_are_limited_per_game_not_per_address(make_app):
    client = make_app(RATELIMIT_HANDS="3 per minute").test_client()
    created = client.post("/api/games", json=game_document()).get_json()
    game_id, token = created["id"], created["edit_token"]
    assert client.post(f"/games/{game_id}/claim", data={"key": token}).status_code == 303
    # Posts from a phone that may not change the game are refused (403) and count for nothing.
    stranger = client.application.test_client()
    for _ in range(5):
        assert stranger.post(f"/games/{game_id}/hands", data=hand_form(OUT_HAND_FORM, {})).status_code == 403
    # Three saves through the three doors: the page's form, the API, the phone's queue.
    assert client.post(f"/games/{game_id}/hands", data=hand_form(OUT_HAND_FORM, {})).status_code == 303
    saved = client.post(f"/api/games/{game_id}/hands", json=OUT_1, headers=bearer(token))
    assert saved.status_code == 201
    queued = client.post(
        f"/sync/games/{game_id}/hands",
        json={"hand": OUT_0, "base_version": saved.get_json()["revision"], "position": 2},
        headers={"Idempotency-Key": "q" * 22},
    )
    assert queued.status_code == 201, queued.get_json()
    # The fourth this minute, through any door: 429 in words, with Retry-After.
    api = client.post(f"/api/games/{game_id}/hands", json=OUT_1, headers=bearer(token))
    assert api.status_code == 429 and "this game" in api.get_json()["errors"][0]["message"]
    assert 1 <= int(api.headers["Retry-After"]) <= 60
    page = client.post(f"/games/{game_id}/hands", data=hand_form(OUT_HAND_FORM, {}))
    assert page.status_code == 429 and "the hand you typed" in text(page)
    assert 1 <= int(page.headers["Retry-After"]) <= 60
    edit = client.post(f"/games/{game_id}/hands/1", data=hand_form({}, OUT_HAND_FORM))
    assert edit.status_code == 429
    assert len(client.get(f"/api/games/{game_id}").get_json()["hands"]) == 3
    # Another table behind the same address saves on: the limit is the game's.
    other = client.post("/api/games", json=game_document()).get_json()
    assert (
        client.post(f"/api/games/{other['id']}/hands", json=OUT_0, headers=bearer(other["edit_token"])).status_code
        == 201
    )


def test_the_limits_are_off_with_flask_ratelimit_enabled_false(make_app, monkeypatch):
    monkeypatch.setenv("FLASK_RATELIMIT_ENABLED", "false")
    client = make_app().test_client()  # the environment's setting, as in production
    for _ in range(35):
        assert client.post("/api/games", json=game_document()).status_code == 201


# --- Secure cookies over https ---------------------------------------------------------------------


def session_cookie(response) -> str:
    return next(h for h in response.headers.getlist("Set-Cookie") if h.startswith("session="))


def test_the_session_cookie_is_secure_when_the_trusted_proxy_says_https(make_app):
    client = make_app(TRUSTED_PROXIES=1, RATELIMIT_ENABLED=False).test_client()
    https = client.post("/games", data=NEW_GAME, headers={"X-Forwarded-Proto": "https", "X-Forwarded-For": "1.2.3.4"})
    assert https.status_code == 303
    assert "; Secure" in session_cookie(https)
    plain = make_app(TRUSTED_PROXIES=1, RATELIMIT_ENABLED=False).test_client().post("/games", data=NEW_GAME)
    assert "; Secure" not in session_cookie(plain)


def test_without_a_trusted_proxy_a_forwarded_https_is_not_believed(make_app):
    client = make_app(RATELIMIT_ENABLED=False).test_client()
    response = client.post("/games", data=NEW_GAME, headers={"X-Forwarded-Proto": "https"})
    assert "; Secure" not in session_cookie(response)
    always = make_app(RATELIMIT_ENABLED=False, SESSION_COOKIE_SECURE=True).test_client()
    assert "; Secure" in session_cookie(always.post("/games", data=NEW_GAME))


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def asked_through_the_procfile(tmp_path, trusted_proxies: str) -> Message:
    """Start the Procfile's web command (its server, one worker, on 127.0.0.1) with FLASK_TRUSTED_PROXIES as given,
    ask for the home page as a client claiming https would, and give the answer's headers (names in any case)."""
    with open(os.path.join(ROOT, "Procfile")) as procfile:
        command = next(line[len("web:") :] for line in procfile if line.startswith("web:"))
    port = free_port()
    env = {
        **os.environ,
        "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""),
        "PORT": str(port),
        "WEB_CONCURRENCY": "1",
        "SECRET_KEY": "test",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'procfile.sqlite'}",
        "FLASK_TRUSTED_PROXIES": trusted_proxies,
        "FLASK_RATELIMIT_ENABLED": "false",
    }
    command = command.replace("0.0.0.0", "127.0.0.1")  # only ever listen here in a test
    log = open(tmp_path / f"gunicorn-{trusted_proxies}.log", "w")  # noqa: SIM115 (closed below)
    server = subprocess.Popen(["bash", "-c", "exec " + command], cwd=ROOT, env=env, stdout=log, stderr=log)
    try:
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/", headers={"X-Forwarded-Proto": "https", "X-Forwarded-For": "192.0.2.1"}
        )
        deadline = time.monotonic() + 90
        while True:
            try:
                with urllib.request.urlopen(request, timeout=10) as answer:
                    return answer.headers
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise
                time.sleep(0.2)
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()


def test_the_procfile_server_believes_a_forwarded_https_only_as_flask_trusted_proxies_says(tmp_path):
    """The Procfile's server must not read X-Forwarded-Proto itself (granian reads no forwarded header): ProxyFix
    does, for as many proxies as FLASK_TRUSTED_PROXIES says (README, Configuration)."""
    assert "Strict-Transport-Security" not in asked_through_the_procfile(tmp_path, "0")
    assert asked_through_the_procfile(tmp_path, "1")["Strict-Transport-Security"] == STRICT_TRANSPORT_SECURITY


# --- If-Match, the append retry, Idempotency-Keys that expire ------------------------------------


def test_a_change_for_an_older_revision_is_refused_with_412(client, api_game):
    game_id, _, headers = api_game
    first = client.post(f"/api/games/{game_id}/hands", json=OUT_0, headers=headers)
    read = client.get(f"/api/games/{game_id}")
    revision = read.headers["ETag"]
    assert first.headers["ETag"] == revision == f'"{read.get_json()["revision"]}"'
    client.post(f"/api/games/{game_id}/hands", json=OUT_1, headers=headers)  # the game moves on
    stale = {**headers, "If-Match": revision}
    replaced = client.put(f"/api/games/{game_id}/hands/0", json=OUT_1, headers=stale)
    assert (
        replaced.status_code == 412 and "has changed since you read it" in replaced.get_json()["errors"][0]["message"]
    )
    assert client.delete(f"/api/games/{game_id}/hands/0", headers=stale).status_code == 412
    assert len(client.get(f"/api/games/{game_id}").get_json()["hands"]) == 2  # nothing changed
    current = client.get(f"/api/games/{game_id}").headers["ETag"]
    deleted = client.delete(f"/api/games/{game_id}/hands/1", headers={**headers, "If-Match": current})
    assert deleted.status_code == 200 and deleted.headers["ETag"] != current
    assert deleted.headers["ETag"] == f'"{deleted.get_json()["revision"]}"'
    assert client.put(f"/api/games/{game_id}/hands/0", json=OUT_1, headers=headers).status_code == 200  # no If-Match


def test_two_hands_added_at_the_same_moment_are_both_stored(app, client, api_game, monkeypatch):
    game_id, _, headers = api_game
    writing = store._writing  # where a change holds the game: its first write
    raced = []

    def other_phone_saves_first(stored, *args, **kwargs):
        """After this request read the game and before it holds it, another client's hand is stored (a request of
        its own)."""
        if not raced:
            raced.append(True)
            with app.test_client() as other:
                assert other.post(f"/api/games/{game_id}/hands", json=OUT_1, headers=headers).status_code == 201
        return writing(stored, *args, **kwargs)

    monkeypatch.setattr(store, "_writing", other_phone_saves_first)
    response = client.post(f"/api/games/{game_id}/hands", json=OUT_0, headers=headers)
    assert response.status_code == 201, response.get_json()
    hands = response.get_json()["hands"]
    # The other phone's hand is hand 1; this one, checked again as hand 2, follows it.
    assert [[side.get("went_out", False) for side in hand["sides"]] for hand in hands] == [[False, True], [True, False]]
    assert response.get_json()["totals"] == [900, 900]


def test_an_idempotency_key_older_than_a_day_is_forgotten(app, client, api_game):
    game_id, _, headers = api_game
    keyed = {**headers, "Idempotency-Key": "hand-1"}
    assert client.post(f"/api/games/{game_id}/hands", json=OUT_0, headers=keyed).status_code == 201
    with app.app_context():
        remembered = db.session.get(IdempotentRequest, (game_id, "hand-1"))
        remembered.created_at = datetime.now(UTC) - timedelta(hours=23)
        db.session.commit()
    replay = client.post(f"/api/games/{game_id}/hands", json=OUT_0, headers=keyed)
    assert replay.status_code == 201 and len(replay.get_json()["hands"]) == 1  # within a day: the same answer
    with app.app_context():
        remembered = db.session.get(IdempotentRequest, (game_id, "hand-1"))
        remembered.created_at = datetime.now(UTC) - timedelta(hours=25)
        db.session.add(IdempotentRequest(game_id=game_id, key="old", status=201, body={}))
        db.session.commit()
        db.session.get(IdempotentRequest, (game_id, "old")).created_at = datetime.now(UTC) - timedelta(days=3)
        db.session.commit()
    again = client.post(f"/api/games/{game_id}/hands", json=OUT_1, headers=keyed)
    assert again.status_code == 201 and len(again.get_json()["hands"]) == 2  # a new request, stored
    with app.app_context():
        keys = db.session.scalars(db.select(IdempotentRequest.key).where(IdempotentRequest.game_id == game_id)).all()
        assert keys == ["hand-1"]  # the old keys were cleaned up when this one was written
        assert db.session.get(GameRecord, game_id).version >= 3
    third = client.post(f"/api/games/{game_id}/hands", json=OUT_1, headers=keyed)
    assert len(third.get_json()["hands"]) == 2  # and it is remembered afresh


def test_limits_counted_in_the_database_are_shared_by_every_process(make_app):
    """Two apps on one database stand for two gunicorn workers (or two machines): one count between them."""
    first = make_app(RATELIMIT_STORAGE_URI="database", RATELIMIT_NEW_GAMES="3 per minute").test_client()
    second = make_app(RATELIMIT_STORAGE_URI="database", RATELIMIT_NEW_GAMES="3 per minute").test_client()
    assert first.post("/api/games", json=game_document()).status_code == 201
    assert second.post("/api/games", json=game_document()).status_code == 201
    assert first.post("/api/games", json=game_document()).status_code == 201
    refused = second.post("/api/games", json=game_document())  # the 4th in the minute, on the other process
    assert refused.status_code == 429 and 1 <= int(refused.headers["Retry-After"]) <= 60
    assert first.post("/api/games", json=game_document()).status_code == 429
    other = second.post("/api/games", json=game_document(), environ_base={"REMOTE_ADDR": "192.0.2.7"})
    assert other.status_code == 201  # another address has its own count


def test_a_window_that_ended_starts_again_in_the_database(make_app):
    from scorepad.ratelimits import DatabaseStorage

    app = make_app(RATELIMIT_STORAGE_URI="database")
    storage = DatabaseStorage(app=app)
    assert storage.check()
    assert storage.incr("k", expiry=60) == 1
    assert storage.incr("k", expiry=60, amount=2) == 3
    assert storage.get("k") == 3 and storage.get("other") == 0
    assert 0 < storage.get_expiry("k") - time.time() <= 60
    assert storage.incr("short", expiry=0.05) == 1
    time.sleep(0.1)
    assert storage.get("short") == 0
    assert storage.incr("short", expiry=60) == 1  # the ended window was not added to
    storage.clear("k")
    assert storage.get("k") == 0
