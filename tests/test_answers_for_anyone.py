"""Answers for anyone (delivery.RevisionGate): a phone that holds no right to a game (no session cookie) looking again
at a page, scoreboard or JSON document already made for the game's revision is answered before Flask, from one
query of the revision; never with an older revision, another language or encoding, or a page made for a phone that
holds a right."""

from __future__ import annotations

import re
from contextlib import contextmanager

import pytest
from flask import request_started

from tests.conftest import game_document, new_game_fields, shown_text, statements

# Modern (docs/rules.md): Us meld a natural canasta (500) and a mixed one (300) and go out (100), Count 120: 1,020;
# Them meld no canasta, Count −40: −40.
HAND = {"sides": [{"natural_canastas": 1, "mixed_canastas": 1, "went_out": True, "count": 120}, {"count": -40}]}


def text(response) -> str:
    return shown_text(response)


@contextmanager
def flask_requests(app):
    """The requests that reached Flask meanwhile (a request context was made for them)."""
    seen: list[str] = []

    def started(sender, **extra):
        from flask import request

        seen.append(request.path)

    request_started.connect(started, app)
    try:
        yield seen
    finally:
        request_started.disconnect(started, app)


@pytest.fixture
def game(client):
    """A modern game through the API, the scorekeeper's phone (`client`) holding its right: (id, auth headers)."""
    body = client.post("/api/games", json=game_document()).get_json()
    assert client.post(f"/games/{body['id']}/claim", data={"key": body["links"]["scoresheet"]}).status_code == 303
    return body["id"], {"Authorization": f"Bearer {body['edit_token']}"}


def addresses(game_id: str) -> list[tuple[str, dict[str, str]]]:
    return [
        (f"/games/{game_id}", {"Accept-Encoding": "gzip"}),
        (f"/games/{game_id}/scoreboard", {"Accept-Encoding": "br"}),
        (f"/api/games/{game_id}", {}),
        # A scoreboard whose figures are older than the game's: the changed fragment.
        (f"/games/{game_id}/scoreboard/live", {"HX-Request": "true", "If-None-Match": 'W/"0"'}),
    ]


def without_date(headers) -> list[tuple[str, str]]:
    return sorted((name, value) for name, value in headers.items() if name != "Date")


def test_a_second_look_without_a_right_is_the_same_answer_before_flask_from_one_statement(app, client, game):
    game_id, auth = game
    assert client.post(f"/api/games/{game_id}/hands", json=HAND, headers=auth).status_code == 201
    watcher = app.test_client()
    for address, headers in addresses(game_id):
        first = watcher.get(address, headers=headers)
        assert first.status_code == 200, address
        with flask_requests(app) as reached, statements(app) as sent:
            again = watcher.get(address, headers=headers)
        assert reached == [] and len(sent) == 1 and "hands" not in sent[0], (address, reached, sent)
        assert again.status_code == 200 and again.get_data() == first.get_data(), address
        assert without_date(again.headers) == without_date(first.headers), address
        # The security headers are on it as on every answer.
        assert "frame-ancestors 'none'" in again.headers["Content-Security-Policy"]
    page = watcher.get(f"/games/{game_id}")
    assert "1,020" in text(page) and "−40" in text(page)


def test_after_a_change_anyone_gets_the_new_revision_even_from_another_app_server(app, client, game, make_app):
    """Two app servers on one database: the look kept by one is never given once the other has stored a hand."""
    game_id, auth = game
    other = make_app(RATELIMIT_ENABLED=False, AUTO_CREATE_SCHEMA=False).test_client()
    watcher = app.test_client()
    before = {address: watcher.get(address, headers=headers) for address, headers in addresses(game_id)}
    assert "No hands yet." in text(watcher.get(f"/games/{game_id}/scoreboard"))
    assert other.post(f"/api/games/{game_id}/hands", json=HAND, headers=auth).status_code == 201
    for address, headers in addresses(game_id):
        with flask_requests(app) as reached:
            after = watcher.get(address, headers=headers)
        assert reached == [address] and after.status_code == 200, address
        assert after.get_data() != before[address].get_data(), address
    assert watcher.get(f"/api/games/{game_id}").get_json()["totals"] == [1020, -40]
    assert "1,020" in text(watcher.get(f"/games/{game_id}/scoreboard"))


def test_a_phone_that_holds_a_right_is_never_given_the_page_made_for_anyone(app, client, game):
    game_id, _ = game
    watcher = app.test_client()
    for _ in range(2):
        assert f"/games/{game_id}/hands/new" not in watcher.get(f"/games/{game_id}").get_data(as_text=True)
    with flask_requests(app) as reached:
        own = client.get(f"/games/{game_id}")
    assert reached == [f"/games/{game_id}"]
    assert 'action="/games/' + game_id + '/hands"' in own.get_data(as_text=True)  # its hand form
    assert "Read-only: only the scorekeeper's phone can change this game." in text(watcher.get(f"/games/{game_id}"))


def test_each_language_and_encoding_has_its_own_answer(app, client, game):
    game_id, _ = game
    address = f"/games/{game_id}/scoreboard"
    spanish, english = app.test_client(), app.test_client()
    assert spanish.get("/language/es").status_code in (302, 303)  # the language's cookie, and no session's
    assert [cookie.key for cookie in spanish._cookies.values()] == ["lang"]
    for _ in range(2):
        assert "Todavía no hay manos." in text(spanish.get(address)), text(spanish.get(address))
        assert "No hands yet." in text(english.get(address))
        assert "Todavía no hay manos." in text(english.get(address, headers={"Accept-Language": "es-AR,es;q=0.9"}))
        zipped = english.get(address, headers={"Accept-Encoding": "gzip"})
        assert zipped.headers["Content-Encoding"] == "gzip"
        plain = english.get(address, headers={"Accept-Encoding": "identity"})
        assert "Content-Encoding" not in plain.headers and "No hands yet." in text(plain)


def test_a_tag_the_phone_holds_is_answered_304_and_any_other_goes_to_the_app(app, client, game):
    game_id, _ = game
    watcher = app.test_client()
    page = watcher.get(f"/games/{game_id}")
    with flask_requests(app) as reached:
        again = watcher.get(f"/games/{game_id}", headers={"If-None-Match": page.headers["ETag"]})
    assert again.status_code == 304 and again.get_data() == b"" and reached == []
    assert again.headers["ETag"] == page.headers["ETag"] and "Accept-Language" in again.headers["Vary"]
    # The API names one revision in any encoding (`1:br` for the `1` answer): the app reads such a tag.
    document = watcher.get(f"/api/games/{game_id}")
    revision = document.get_json()["revision"]
    with flask_requests(app) as reached:
        assert watcher.get(f"/api/games/{game_id}", headers={"If-None-Match": f'"{revision}:br"'}).status_code == 304
    assert reached == [f"/api/games/{game_id}"]


def test_what_may_hold_a_right_or_is_not_a_plain_look_goes_to_the_app(app, client, game):
    game_id, auth = game
    watcher = app.test_client()
    watcher.get(f"/games/{game_id}")
    watcher.get(f"/api/games/{game_id}")
    for address, headers, method in (
        (f"/api/games/{game_id}", auth, "GET"),
        (f"/games/{game_id}", {"Scorepad-Keep": "offline"}, "GET"),
        (f"/games/{game_id}", {}, "HEAD"),
    ):
        with flask_requests(app) as reached:
            assert watcher.open(address, method=method, headers=headers).status_code == 200
        assert reached == [address], (address, headers, method)
    with flask_requests(app) as reached:
        assert client.get(f"/api/games/{game_id}").status_code == 200  # the scorekeeper's session cookie
    assert reached == [f"/api/games/{game_id}"]


def test_a_deleted_game_is_not_found_though_its_page_was_kept(app, client, game):
    game_id, _ = game
    watcher = app.test_client()
    for _ in range(2):
        assert watcher.get(f"/games/{game_id}/scoreboard").status_code == 200
    page = client.get(f"/games/{game_id}/delete").get_data(as_text=True)
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page)
    deleted = client.post(f"/games/{game_id}/delete", data={"csrf_token": token[1]} if token else {})
    assert deleted.status_code == 303, deleted.get_data(as_text=True)
    assert watcher.get(f"/games/{game_id}/scoreboard").status_code == 404
    assert watcher.get(f"/api/games/{game_id}").status_code == 404


# --- A phone's own history, before Flask -------------------------------------------------------------------------


def test_a_phones_second_look_at_its_history_is_answered_before_flask_until_anything_on_it_changes(app, monkeypatch):
    """The history page kept for one phone's session is given again before Flask, checked by the one query that made
    it; only to the very same cookie, and made again once a game on it changes, or when the session's cookie is due
    to be signed again."""
    import time

    from tests.test_games import hand_form

    ann = app.test_client()
    game = ann.post("/games", data=new_game_fields()).headers["Location"].rsplit("/", 1)[1]
    zoe = app.test_client()
    zoe.post("/games", data=new_game_fields(player0_0="Zoe", player1_0="Yves"))
    first = ann.get("/history")
    assert "Ann" in text(first) and "Zoe" not in text(first)
    with flask_requests(app) as reached, statements(app) as sent:
        again = ann.get("/history")
    assert reached == [] and len(sent) == 1 and "game_rights" in sent[0], (reached, sent)
    assert again.get_data() == first.get_data()
    # Another phone's history, looked at after Ann's was kept, is its own.
    theirs = zoe.get("/history")
    assert "Zoe" in text(theirs) and "Ann" not in text(theirs)
    with flask_requests(app) as reached:
        assert zoe.get("/history").get_data() == theirs.get_data()
    assert reached == []
    # A hand saved on Ann's game (Us 500 + 300 + 100 going out, Count 120: 1,020; Them −40): made again, with it.
    saved = ann.post(
        f"/games/{game}/hands",
        data=hand_form({"natural_canastas": 1, "mixed_canastas": 1, "went_out": "y", "count": 120}, {"count": -40}),
    )
    assert saved.status_code == 303
    ann.get(f"/games/{game}")  # the page after the save (its message shown once)
    with flask_requests(app) as reached:
        after = ann.get("/history")
    assert reached == ["/history"] and "1,020" in text(after) and "−40" in text(after)
    # A day on, Flask signs the session's cookie again: the look goes to Flask, which does.
    now = time.time()
    monkeypatch.setattr(time, "time", lambda: now + 25 * 60 * 60)
    with flask_requests(app) as reached:
        renewed = ann.get("/history")
    assert reached == ["/history"] and "Set-Cookie" in renewed.headers
