"""The endpoint the phone's queue of hands entered offline is sent to (scorepad/sync.py): each hand stored
once, a hand the game no longer takes answered with the reason, never stored by force."""

from __future__ import annotations

import pytest

from scorepad.models import GameRecord, db

from .conftest import game_document, new_game_fields

# Us: 2 naturals, went out, Count 150; Them: 1 mixed, Count 60.
HAND = {"sides": [{"natural_canastas": 2, "went_out": True, "count": 150}, {"mixed_canastas": 1, "count": 60}]}


@pytest.fixture
def kept_game(client):
    """A game this client (a phone) keeps score of: made through the API, its key claimed as from the link."""
    created = client.post("/api/games", json=game_document()).get_json()
    client.post(f"/games/{created['id']}/claim", data={"key": created["edit_token"]})
    return created, _version(client, created["id"])


def _version(client, game_id: str) -> int:
    """The version the scoresheet gives the phone (offline.js reads it from the same attribute)."""
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    return int(page.split('data-version="', 1)[1].split('"', 1)[0])


def send(client, game_id, key="k1", hand=HAND, base_version=1, position=0, **headers):
    return client.post(
        f"/sync/games/{game_id}/hands",
        json={"hand": hand, "base_version": base_version, "position": position},
        headers={"Idempotency-Key": key, **headers},
    )


def test_a_queued_hand_is_stored_once_even_when_sent_again(client, kept_game):
    created, version = kept_game
    first = send(client, created["id"], base_version=version)
    assert first.status_code == 201
    assert first.get_json()["outcome"] == "applied"
    # Us 1,000 + 100 + 150 = 1,250; Them 300 + 60 = 360.
    assert first.get_json()["game"]["totals"] == [1250, 360]
    again = send(client, created["id"], base_version=version)  # the first answer was lost
    assert again.status_code == 200
    assert again.get_json()["outcome"] == "applied"
    assert len(client.get(f"/api/games/{created['id']}").get_json()["hands"]) == 1


def test_the_next_queued_hand_follows_the_version_the_last_one_made(client, kept_game):
    created, version = kept_game
    after = send(client, created["id"], base_version=version).get_json()["version"]
    second = send(client, created["id"], key="k2", base_version=after, position=1)
    assert second.get_json()["outcome"] == "applied"
    assert len(second.get_json()["game"]["hands"]) == 2


def test_a_hand_for_a_game_changed_meanwhile_is_a_conflict(client, kept_game):
    created, version = kept_game
    auth = {"Authorization": f"Bearer {created['edit_token']}"}
    other = {"sides": [{"mixed_canastas": 1, "count": 30}, {"natural_canastas": 2, "went_out": True, "count": 100}]}
    assert client.post(f"/api/games/{created['id']}/hands", json=other, headers=auth).status_code == 201
    answer = send(client, created["id"], base_version=version)
    assert answer.status_code == 409
    assert answer.get_json()["outcome"] == "conflict"
    assert "changed while this hand waited" in answer.get_json()["reason"]
    assert len(answer.get_json()["game"]["hands"]) == 1  # nothing stored by force


# The hand form's fields for HAND, as the browser posts them (tests/test_games.py's hand_form).
HAND_FORM = {
    "s0-count_mode": "number",
    "s0-count_sign": "+",
    "s0-natural_canastas": "2",
    "s0-went_out": "y",
    "s0-count": "150",
    "s1-count_mode": "number",
    "s1-count_sign": "+",
    "s1-mixed_canastas": "1",
    "s1-count": "60",
}


def save_on_the_page(client, game_id, version, key="k1"):
    """Save on the hand form, as htmx sends it: with the Idempotency-Key the queued copy will carry."""
    return client.post(
        f"/games/{game_id}/hands", data={**HAND_FORM, "version": str(version)}, headers={"Idempotency-Key": key}
    )


def test_the_forms_own_post_that_got_through_is_not_stored_again(client, kept_game):
    created, version = kept_game
    assert save_on_the_page(client, created["id"], version).status_code == 303  # the phone had given up waiting
    answer = send(client, created["id"], base_version=version)  # its queued copy, under the same key
    assert answer.status_code == 200
    assert answer.get_json()["outcome"] == "applied"
    assert len(answer.get_json()["game"]["hands"]) == 1


def test_a_waiting_copy_corrected_after_the_forms_post_got_through_is_a_conflict_not_dropped(client, kept_game):
    created, version = kept_game
    assert save_on_the_page(client, created["id"], version).status_code == 303  # the phone had given up waiting
    corrected = {"sides": [{"natural_canastas": 2, "went_out": True, "count": 200}, {"mixed_canastas": 1, "count": 60}]}
    answer = send(client, created["id"], hand=corrected, base_version=version)  # the copy, fixed on the phone
    assert answer.status_code == 409
    assert answer.get_json()["outcome"] == "conflict"
    assert "reached the server before it was changed on this phone" in answer.get_json()["reason"]
    hands = answer.get_json()["game"]["hands"]
    assert len(hands) == 1  # the hand as the form sent it: Us 1,000 + 100 + 150; the correction waits on the phone
    assert hands[0]["sides"][0]["result"]["total"] == 1250


def test_the_forms_post_that_arrives_after_its_queued_copy_is_not_stored_again(client, kept_game):
    created, version = kept_game
    assert send(client, created["id"], base_version=version).status_code == 201
    late = save_on_the_page(client, created["id"], version)  # held on the Wi-Fi, delivered after the copy
    assert late.status_code == 303
    assert late.headers["Location"].endswith(f"/games/{created['id']}")
    hands = client.get(f"/api/games/{created['id']}").get_json()["hands"]
    assert len(hands) == 1
    assert hands[0]["sides"][0]["result"]["total"] == 1250  # 2 naturals 1,000 + out 100 + Count 150


def test_an_identical_hand_stored_by_another_phone_is_a_conflict_not_dropped(client, kept_game):
    created, version = kept_game
    auth = {"Authorization": f"Bearer {created['edit_token']}"}
    assert client.post(f"/api/games/{created['id']}/hands", json=HAND, headers=auth).status_code == 201
    answer = send(client, created["id"], base_version=version)  # the same figures, but this phone's own hand
    assert answer.status_code == 409
    assert answer.get_json()["outcome"] == "conflict"
    assert "changed while this hand waited" in answer.get_json()["reason"]
    assert len(answer.get_json()["game"]["hands"]) == 1  # kept on the phone to re-apply or discard


def test_a_hand_the_rules_refuse_is_answered_with_the_reason(client, kept_game):
    created, version = kept_game
    hand = {"sides": [{**HAND["sides"][0], "red_threes": 5}, HAND["sides"][1]]}
    answer = send(client, created["id"], base_version=version, hand=hand)
    assert answer.status_code == 422
    body = answer.get_json()
    assert body["outcome"] == "refused"
    assert "sides.0.red_threes" in [e["field"] for e in body["errors"]]


def test_only_a_phone_with_the_games_rights_may_send(app, kept_game):
    created, version = kept_game
    stranger = app.test_client()
    assert send(stranger, created["id"], base_version=version).status_code == 403


def test_a_hand_sent_from_another_site_is_refused(client, kept_game):
    created, version = kept_game
    answer = send(client, created["id"], base_version=version, **{"Sec-Fetch-Site": "cross-site"})
    assert answer.status_code == 403
    assert len(client.get(f"/api/games/{created['id']}").get_json()["hands"]) == 0


# A new game started with no connection: the new-game form's fields as the phone kept them.
NEW_GAME = new_game_fields(first_dealer="1", target="5000")


def start_offline(client, key="g1", fields=None, **headers):
    return client.post("/sync/games", data=fields or NEW_GAME, headers={"Idempotency-Key": key, **headers})


def test_a_game_started_offline_is_created_once_with_its_rights(app, client):
    first = start_offline(client)
    assert first.status_code == 201
    body = first.get_json()
    assert body["outcome"] == "created"
    assert body["show_url"] == f"/games/{body['id']}"
    assert body["game"]["sides"] == [
        {"name": "Us", "players": ["Ann", "Cleo"]},
        {"name": "Them", "players": ["Bea", "Dot"]},
    ]
    assert body["game"]["first_dealer"] == 1
    assert body["game"]["rules"]["target"] == 5000
    # The phone that started it may add its hands, following the version it was given.
    hand = send(client, body["id"], key="h1", base_version=body["version"])
    assert hand.get_json()["outcome"] == "applied"
    again = start_offline(client)  # the first answer was lost: the same game, not a second one
    assert again.status_code == 200
    assert again.get_json()["id"] == body["id"]
    assert len(again.get_json()["game"]["hands"]) == 1
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(GameRecord)) == 1


@pytest.mark.parametrize("page", ["/games/new", "/offline/game"])
def test_a_start_whose_answer_and_its_cookie_were_lost_is_still_the_same_game(app, client, page):
    # The phone opened the page online before the Wi-Fi went (the service worker keeps it): it has its device.
    assert client.get(page).status_code == 200
    before = client.get_cookie("session")
    assert before is not None
    first = start_offline(client)
    assert first.status_code == 201
    # The answer never reached the phone, nor the cookie that came with it: the phone sends again as it was.
    client.set_cookie("session", before.value)
    again = start_offline(client)
    assert again.status_code == 200
    assert again.get_json()["id"] == first.get_json()["id"]
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(GameRecord)) == 1


def test_a_game_started_offline_with_a_new_key_is_another_game(client):
    assert start_offline(client, key="g1").get_json()["id"] != start_offline(client, key="g2").get_json()["id"]


def test_a_game_started_offline_that_the_form_refuses_is_answered_in_words(client):
    answer = start_offline(client, fields={**NEW_GAME, "player1_1": ""})
    assert answer.status_code == 422
    assert answer.get_json()["outcome"] == "refused"
    assert answer.get_json()["reason"]


def test_a_game_started_offline_needs_its_key_and_our_own_pages(client):
    assert client.post("/sync/games", data=NEW_GAME).status_code == 400
    assert start_offline(client, **{"Sec-Fetch-Site": "cross-site"}).status_code == 403


def test_a_game_the_page_started_after_all_is_the_one_sent_later(app, client):
    # Start got its answer too late: the page started the game on the phone, with the key it sent along.
    started = client.post("/games", data={**NEW_GAME, "offline_key": "g1"})
    assert started.status_code == 303
    later = start_offline(client, key="g1")
    assert later.status_code == 200
    assert started.headers["Location"].endswith(later.get_json()["show_url"])
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(GameRecord)) == 1


def test_another_phone_sending_the_same_key_gets_a_game_of_its_own_not_the_first_phones(app, client):
    first = start_offline(client, key="g1").get_json()
    stranger = app.test_client()
    second = start_offline(stranger, key="g1")
    assert second.status_code == 201 and second.get_json()["id"] != first["id"]
    assert stranger.get(f"/games/{first['id']}/hands/new").status_code == 403


def test_a_hands_idempotency_key_can_never_name_a_started_game(app, client):
    body = client.post("/api/games", json=game_document()).get_json()
    headers = {"Authorization": f"Bearer {body['edit_token']}", "Idempotency-Key": "hand-1"}
    assert client.post(f"/api/games/{body['id']}/hands", json=HAND, headers=headers).status_code == 201
    stranger = app.test_client()
    answer = start_offline(stranger, key="hand-1")  # the victim's hand key, sent as a started game's
    assert answer.status_code == 201 and answer.get_json()["id"] != body["id"]
    assert stranger.get(f"/games/{body['id']}/hands/new").status_code == 403


def test_the_forms_post_after_its_copy_written_otherwise_is_the_same_hand(client, kept_game):
    """The phone's copy reads the form into JSON of its own (a 0 written out, say): still the form's hand."""
    created, version = kept_game
    spelled_out = {"sides": [{**HAND["sides"][0], "red_threes": 0}, {**HAND["sides"][1], "black_threes": 0}]}
    assert send(client, created["id"], hand=spelled_out, base_version=version).status_code == 201
    late = save_on_the_page(client, created["id"], version)  # the form's own post, held on the Wi-Fi
    assert late.status_code == 303 and late.headers["Location"].endswith(f"/games/{created['id']}")
    assert len(client.get(f"/api/games/{created['id']}").get_json()["hands"]) == 1
