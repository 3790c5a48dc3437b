"""Who may change a game: the scorekeeper's handover link (key after "#"), who holds it, replacing it."""

from __future__ import annotations

import html
import logging
import re
from urllib.parse import urlsplit

import pytest
from sqlalchemy import delete as sql_delete
from sqlalchemy import event, select

from scorepad.models import GameRecord, GameRight, db
from scorepad.rights import describe_browser
from tests.conftest import game_document, shown_text
from tests.test_games import UNDO_FORM, hand_form

ANDROID_CHROME = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36"
)
IPHONE_SAFARI = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
    "Version/17.5 Mobile/15E148 Safari/604.1"
)
WINDOWS_FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0"
HAND = {"sides": [{"natural_canastas": 1, "mixed_canastas": 1, "went_out": True, "count": 100}, {"count": -80}]}


def text(response) -> str:
    """The page's text with tags and repeated white space removed."""
    return shown_text(response)


@pytest.fixture
def game(client):
    """A game made through the API and kept on `client` (the scorekeeper) through its scoresheet link: its id."""
    body = client.post("/api/games", json=game_document()).get_json()
    client.post(f"/games/{body['id']}/claim", data={"key": body["links"]["scoresheet"]})
    return body["id"]


def handover_link(client, game: str) -> str:
    page = client.get(f"/games/{game}/handover").get_data(as_text=True)
    return html.unescape(re.search(r'id="scorekeeper-link" type="text" readonly value="([^"]+)"', page).group(1))


def phone(app, agent: str = ANDROID_CHROME):
    """Another browser."""
    client = app.test_client()
    client.environ_base["HTTP_USER_AGENT"] = agent
    return client


def opens(client, link: str) -> None:
    """What scorepad.js does with a link: the key after "#" is posted to the game's claim address."""
    url = urlsplit(link)
    assert url.query == "" and url.fragment.startswith("key=")
    response = client.post(url.path + "/claim", data={"key": url.fragment.removeprefix("key=")})
    assert response.status_code == 303 and response.headers["Location"] == url.path


def can_change(client, game: str) -> bool:
    page = text(client.get(f"/games/{game}"))
    editable = "Enter hand" in page
    assert editable != ("Read-only" in page)
    return editable


# --- The link ----------------------------------------------------------------------------------------


def test_the_handover_link_carries_its_key_after_the_hash_and_gives_edit_rights(app, client, game):
    link = handover_link(client, game)
    assert re.fullmatch(rf"http://localhost/games/{game}#key=[0-9a-f]{{48}}", link)
    other = phone(app)
    assert not can_change(other, game)
    opens(other, link)
    assert can_change(other, game)
    assert "This phone keeps score of this game now." not in text(other.get(f"/games/{game}"))  # said once
    assert other.post(f"/games/{game}/hands/preview").status_code != 403


def test_the_claim_says_so_once_and_a_pasted_link_works_without_javascript(app, client, game):
    other = phone(app)
    other.post(f"/games/{game}/claim", data={"key": "  " + handover_link(client, game) + " "})
    assert "This phone keeps score of this game now." in text(other.get(f"/games/{game}"))
    assert can_change(other, game)


def test_a_read_only_scoresheet_offers_a_box_for_the_link(app, game):
    page = app.test_client().get(f"/games/{game}").get_data(as_text=True)
    assert f'<form method="post" action="/games/{game}/claim" class="claim-key actions">' in page
    assert "needs JavaScript" in page  # in <noscript>


def test_the_apis_scoresheet_link_carries_the_edit_token_after_the_hash(app, client):
    body = client.post("/api/games", json=game_document()).get_json()
    link = urlsplit(body["links"]["scoresheet"])
    assert link.query == "" and link.fragment == f"key={body['edit_token']}"
    other = phone(app)
    opens(other, body["links"]["scoresheet"])
    assert can_change(other, game=body["id"])
    # The edit token makes it the scorekeeper: it may hand the game over.
    assert other.get(f"/games/{body['id']}/handover").status_code == 200


def test_a_wrong_key_leaves_the_game_read_only_and_says_so(app, game):
    other = phone(app)
    response = other.post(f"/games/{game}/claim", data={"key": "wrong"})
    assert response.status_code == 303
    page = text(other.get(f"/games/{game}"))
    assert "That link's key doesn't match this game" in page and not can_change(other, game)


def test_a_key_in_the_address_is_no_longer_taken(app, client, game):
    key = urlsplit(handover_link(client, game)).fragment.removeprefix("key=")
    other = phone(app)
    response = other.get(f"/games/{game}?key={key}")
    assert response.status_code == 303 and response.headers["Location"] == f"/games/{game}"
    assert response.headers["Cache-Control"] == "no-store"
    assert "older kind that no longer gives the right to keep score" in text(other.get(f"/games/{game}"))
    assert not can_change(other, game)


def test_pages_and_answers_that_carry_a_key_are_never_stored(app, client, game):
    assert client.get(f"/games/{game}/handover").headers["Cache-Control"] == "no-store"
    answer = phone(app).post(f"/games/{game}/claim", data={"key": "wrong"})
    assert answer.headers["Cache-Control"] == "no-store"
    # The scoresheet itself never holds the key: it can be kept for offline reading.
    key = urlsplit(handover_link(client, game)).fragment.removeprefix("key=")
    assert key not in client.get(f"/games/{game}").get_data(as_text=True)


def test_no_log_line_holds_a_key(app, client, game, caplog):
    link = handover_link(client, game)
    key = urlsplit(link).fragment.removeprefix("key=")
    with caplog.at_level(logging.DEBUG):
        opens(phone(app), link)
        phone(app).post(f"/games/{game}/claim", data={"key": key + "0"})
        phone(app).get(f"/games/{game}?key={key}")
    assert caplog.records and key not in caplog.text


# --- Who holds it, and replacing it ------------------------------------------------------------------


def test_the_scorekeeper_sees_who_came_in_through_the_link(app, client, game):
    link = handover_link(client, game)
    assert "None yet." in text(client.get(f"/games/{game}/handover"))
    opens(phone(app, ANDROID_CHROME), link)
    opens(phone(app, IPHONE_SAFARI), link)
    page = text(client.get(f"/games/{game}/handover"))
    assert "Chrome on Android came in just now · last used just now" in page
    assert "Safari on iPhone came in just now · last used just now" in page
    assert "2 phones keep score through it now." in text(client.get(f"/games/{game}"))


def test_only_the_scorekeeper_sees_the_link_or_replaces_it(app, client, game):
    holder = phone(app)
    opens(holder, handover_link(client, game))
    for other in (holder, phone(app)):
        assert other.get(f"/games/{game}/handover").status_code == 403
        assert other.post(f"/games/{game}/handover/revoke").status_code == 403
    assert "This phone keeps score through the scorekeeper's link." in text(holder.get(f"/games/{game}"))
    assert can_change(holder, game)


def test_replacing_the_link_leaves_every_phone_that_used_it_read_only(app, client, game):
    old_link = handover_link(client, game)
    holders = [phone(app, ANDROID_CHROME), phone(app, WINDOWS_FIREFOX)]
    for holder in holders:
        opens(holder, old_link)
        assert can_change(holder, game)

    response = client.post(f"/games/{game}/handover/revoke")
    assert response.status_code == 303 and response.headers["Location"] == f"/games/{game}/handover"
    page = text(client.get(f"/games/{game}/handover"))
    assert "The old link no longer works. The 2 phones that used it can't change the game any more." in page
    assert "None yet." in page

    for holder in holders:  # read-only now, and told so by the server on any change
        assert not can_change(holder, game)
        assert holder.post(f"/api/games/{game}/hands", json=HAND).status_code == 403
        assert holder.post(f"/games/{game}/hands/preview").status_code == 403
    latecomer = phone(app)
    opens(latecomer, old_link)  # the old link gives nothing any more
    assert "doesn't match this game" in text(latecomer.get(f"/games/{game}"))
    assert not can_change(latecomer, game)

    assert can_change(client, game)  # the scorekeeper keeps its rights
    new_link = handover_link(client, game)
    assert new_link != old_link
    opens(latecomer, new_link)
    assert can_change(latecomer, game)
    opens(holders[0], new_link)
    assert can_change(holders[0], game)


def test_replacing_the_link_changes_nothing_in_the_game(app, client, game):
    version = re.search(r'data-version="(\d+)"', client.get(f"/games/{game}").get_data(as_text=True))
    client.post(f"/games/{game}/handover/revoke")
    after = re.search(r'data-version="(\d+)"', client.get(f"/games/{game}").get_data(as_text=True))
    assert version is None or version.group(1) == after.group(1)


def test_a_revoke_sent_from_another_site_is_refused(app, client, game):
    link = handover_link(client, game)
    response = client.post(f"/games/{game}/handover/revoke", headers={"Sec-Fetch-Site": "cross-site"})
    assert response.status_code == 403
    assert handover_link(client, game) == link


def test_a_claim_sent_from_another_site_is_refused(app, client, game):
    other = phone(app)
    key = urlsplit(handover_link(client, game)).fragment.removeprefix("key=")
    response = other.post(f"/games/{game}/claim", data={"key": key}, headers={"Origin": "https://evil.example"})
    assert response.status_code == 403
    assert not can_change(other, game)


@pytest.mark.parametrize(
    "agent, label",
    [
        (ANDROID_CHROME, "Chrome on Android"),
        (IPHONE_SAFARI, "Safari on iPhone"),
        (WINDOWS_FIREFOX, "Firefox on Windows"),
        (
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 "
            "Safari/537.36 Edg/126.0",
            "Edge on Windows",
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
            "CriOS/126.0 Mobile/15E148 Safari/604.1",
            "Chrome on iPhone",
        ),
        ("curl/8.5.0", "A browser"),
        ("", "A browser"),
    ],
)
def test_a_device_is_shown_as_its_browser_and_phone(agent, label):
    assert describe_browser(agent) == label


def test_last_used_follows_the_phone_that_keeps_score_through_the_link(app, client, game):
    holder = phone(app, IPHONE_SAFARI)
    opens(holder, handover_link(client, game))
    with app.app_context():  # the phone came in an hour ago and has not been back since
        from datetime import UTC, datetime, timedelta

        from scorepad.models import GameRight, db

        right = db.session.scalars(db.select(GameRight).where(GameRight.via == "link")).one()
        right.created_at = right.last_used_at = datetime.now(UTC) - timedelta(hours=1, minutes=5)
        db.session.commit()
    assert "Safari on iPhone came in 1 hour ago · last used 1 hour ago" in text(client.get(f"/games/{game}/handover"))
    assert can_change(holder, game)  # back at the scoresheet with its rights
    assert "Safari on iPhone came in 1 hour ago · last used just now" in text(client.get(f"/games/{game}/handover"))


def test_a_link_holder_cannot_reopen_a_finished_game(app, client):
    # A 300-point game: hand 1 gives Us a Base of 500 + 300 + 100 for going out, and a Count of 100: 1,000.
    body = client.post("/api/games", json=game_document(target=300)).get_json()
    game = body["id"]
    client.post(f"/games/{game}/claim", data={"key": body["links"]["scoresheet"]})
    holder = phone(app)
    opens(holder, handover_link(client, game))
    assert holder.post(f"/games/{game}/hands", data={}).status_code in (303, 422)  # still playing: may enter
    client.post(f"/api/games/{game}/hands", json=HAND, headers={"Authorization": f"Bearer {body['edit_token']}"})
    assert "Us won by 1,080 points." in text(client.get(f"/games/{game}"))
    for response in (holder.get(f"/games/{game}/hands/1/delete"), holder.post(f"/games/{game}/hands/1/delete")):
        assert response.status_code == 403 and "only the phone that started it" in text(response)
    assert holder.get(f"/games/{game}/hands/1/edit").status_code == 403
    assert client.get(f"/games/{game}/hands/1/delete").status_code == 200  # the scorekeeper still may


def test_the_link_holder_that_ended_the_game_may_take_that_hand_back_and_is_offered_no_other_correction(app, client):
    """The phone keeping score through the link saves the hand that ends the game: its Undo (on the page that
    follows, for the change it just made) takes it back; the finished sheet offers it no Edit or Delete, which
    only the phone that started the game may do once the game is over."""
    # A 300-point game: Us a natural and a mixed canasta 500 + 300, going out 100, Count 100: 1,000; Them −80.
    body = client.post("/api/games", json=game_document(target=300)).get_json()
    game = body["id"]
    client.post(f"/games/{game}/claim", data={"key": body["links"]["scoresheet"]})
    holder = phone(app)
    opens(holder, handover_link(client, game))
    out = hand_form({"natural_canastas": 1, "mixed_canastas": 1, "went_out": "y", "count": 100}, {"count": -80})
    assert holder.post(f"/games/{game}/hands", data=out).status_code == 303
    page = holder.get(f"/games/{game}").get_data(as_text=True)
    assert "Us won by 1,080 points." in shown_text(page)
    assert f"/games/{game}/hands/1/edit" not in page and f"/games/{game}/hands/1/delete" not in page
    assert f"/games/{game}/hands/1/edit" in client.get(f"/games/{game}").get_data(as_text=True)  # the scorekeeper's
    found = UNDO_FORM.search(page)
    assert found is not None and found.group(3) == "Undo: take back hand 1"
    taken = holder.post(f"/games/{game}/undo", data={"version": found.group(1), "token": found.group(2)})
    assert taken.status_code == 303
    assert "Hand 1 taken back." in text(holder.get(f"/games/{game}"))


def test_replacing_the_link_also_retires_the_edit_token_an_older_link_carried(app, client):
    body = client.post("/api/games", json=game_document()).get_json()
    game, token = body["id"], body["edit_token"]
    client.post(f"/games/{game}/claim", data={"key": token})  # the scorekeeper's phone
    old_link_holder = phone(app, WINDOWS_FIREFOX)  # an older Scorepad's link carried the edit token itself
    old_link_holder.post(f"/games/{game}/claim", data={"key": token})
    assert can_change(old_link_holder, game)
    assert "Firefox on Windows" in text(client.get(f"/games/{game}/handover"))

    client.post(f"/games/{game}/handover/revoke")
    assert not can_change(old_link_holder, game)
    assert can_change(client, game)
    newcomer = phone(app)
    newcomer.post(f"/games/{game}/claim", data={"key": token})
    assert not can_change(newcomer, game)
    headers = {"Authorization": f"Bearer {token}"}
    assert client.post(f"/api/games/{game}/hands", json=HAND, headers=headers).status_code == 403


def test_a_game_deleted_while_a_phone_comes_in_through_its_link_is_said_gone(app, client, game):
    """The game is deleted (on the scorekeeper's phone) after the new right is written and before its copy of the
    game's version is read: the phone is told in words that the game is gone, and is given no right to no game."""
    link = handover_link(client, game)
    other = phone(app)

    def delete_the_game(session, _context) -> None:
        if any(isinstance(row, GameRight) for row in session.new):  # the flush that writes the new right
            session.execute(sql_delete(GameRecord).where(GameRecord.id == game))

    event.listen(db.session, "after_flush", delete_the_game)
    url = urlsplit(link)
    try:
        response = other.post(url.path + "/claim", data={"key": url.fragment.removeprefix("key=")})
    finally:
        event.remove(db.session, "after_flush", delete_the_game)
    assert response.status_code == 404
    assert "There is no game at this address any more: it was deleted" in text(response)
    with app.app_context():
        assert (
            db.session.scalars(select(GameRight).where(GameRight.game_id == game, GameRight.via == "link")).all() == []
        )
