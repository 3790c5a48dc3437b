"""The pages, through the Flask client: status, the text a person sees, Location, and htmx fragments.

Figures are worked out by hand from docs/rules.md; the arithmetic is beside each one.
"""

from __future__ import annotations

import csv
import html
import io
import json
import re
import threading

import pytest

from tests.conftest import game_document, new_game_fields, shown_text

# The switches as the pre-filled form sends them: perfect cut on, seven pairs allowed at 2,500.
NEW_GAME = new_game_fields(perfect_cut="y", hand_pairs="y", hand_pairs_points="2500")


def side_fields(i: int, **entries) -> dict:
    """Form data of one side's panel, as the browser sends it."""
    data = {f"s{i}-count_mode": "number", f"s{i}-count_sign": "+"}
    data.update({f"s{i}-{name}": str(value) for name, value in entries.items()})
    return data


def hand_form(us: dict, them: dict, **extra) -> dict:
    return {**side_fields(0, **us), **side_fields(1, **them), **extra}


def text(response) -> str:
    """The page's text with tags and repeated white space removed."""
    return shown_text(response)


@pytest.fixture
def game(client):
    """A modern game started from the new-game page: its id (this client keeps its edit rights)."""
    response = client.post("/games", data=NEW_GAME)
    assert response.status_code == 303
    return response.headers["Location"].rsplit("/", 1)[1]


# --- Home and new game ---------------------------------------------------------------


def test_home_offers_a_new_game(client):
    response = client.get("/")
    assert response.status_code == 200
    assert "Start a new game" in text(response)


def test_the_new_game_form_is_prefilled_from_the_modern_preset(client):
    page = client.get("/games/new").get_data(as_text=True)
    assert 'name="target" type="text" inputmode="numeric"' in page and 'value="8500"' in page
    assert 'id="hand_pairs_points"' in page and 'value="2500"' in page


def test_starting_a_game_goes_to_its_scoresheet(client):
    response = client.post("/games", data=NEW_GAME)
    assert response.status_code == 303
    assert re.fullmatch(r"/games/[\w-]+", response.headers["Location"])
    page = text(client.get(response.headers["Location"]))
    assert "Us v Them" in page
    assert "Ann & Cleo" in page and "Bea & Dot" in page
    assert page.count("Minimum Count 125") == 2  # a cumulative of 0 is below 3,000
    assert "Hand 1: Ann deals" in page


def test_the_home_page_lists_the_games_kept_on_this_phone(client, game):
    page = text(client.get("/"))
    assert "Games in progress" in page and "Us 0" in page and "Them 0" in page


def test_a_player_without_a_name_is_refused_beside_the_field(client):
    response = client.post("/games", data={**NEW_GAME, "player1_1": " "})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert re.search(r'id="player1_1-error"[^>]*>Give each player a name\.', page)
    assert 'value="Ann"' in page  # what was typed stays


def test_three_partnerships_are_refused_outside_classic(client):
    data = {**NEW_GAME, "players": "6", "side2_name": "Others", "player2_0": "Eve", "player2_1": "Fay"}
    response = client.post("/games", data=data)
    assert response.status_code == 422
    assert "Three sides play only in classic canasta." in text(response)


# Three partnerships of classic canasta: Us (Ann, Cleo), Them (Bea, Dot), Others (Eve, Fay).
SIX_CLASSIC = {
    **NEW_GAME,
    "preset": "classic",
    "players": "6",
    "side2_name": "Others",
    "player2_0": "Eve",
    "player2_1": "Fay",
}


def test_a_classic_game_of_six_plays_to_5000(client):
    data = {**SIX_CLASSIC, "target": ""}
    response = client.post("/games", data=data)
    assert response.status_code == 303
    page = text(client.get(response.headers["Location"]))
    assert "playing to 5,000" in page
    assert page.count("Minimum Count 50") == 3  # classic: 0 to 1,495 needs 50


def test_choosing_a_preset_rerenders_only_the_table_rules(client):
    response = client.get(
        "/games/new",
        query_string={**NEW_GAME, "preset": "classic"},
        headers={"HX-Request": "true", "HX-Target": "game_rules"},
    )
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    assert body.lstrip().startswith('<fieldset class="card" id="game_rules">')
    assert "<html" not in body
    assert 'value="5000"' in body  # classic's target
    assert "Special hands" not in body  # classic has none
    assert "HX-Request" in response.headers["Vary"]


def test_changing_the_players_rerenders_only_the_first_dealer_choice(client):
    response = client.get(
        "/games/new",
        query_string={**NEW_GAME, "player0_0": "Zoe"},
        headers={"HX-Request": "true", "HX-Target": "dealer_choice"},
    )
    body = response.get_data(as_text=True)
    assert body.lstrip().startswith('<div id="dealer_choice">')
    assert "Zoe (Us)" in body


def test_without_javascript_a_preset_is_applied_by_its_button(client):
    response = client.post("/games", data={**NEW_GAME, "preset": "wca", "action": "preset"})
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert re.search(r'id="wipeout"[^>]*checked', page)  # wca plays wipeout


# --- Entering hands ------------------------------------------------------------------------

FIRST_HAND = hand_form(
    {"red_threes": 2, "natural_canastas": 1, "mixed_canastas": 1, "went_out": "y", "count": 385},
    {"mixed_canastas": 1, "count": 140},
)
# Us: 3s 300 (two canastas, so added) + natural 500 + mixed 300 + out 100 = 1,200; + 385 = 1,585
# Them: one canasta, so no 3s; mixed 300; + 140 = 440


def test_a_saved_hand_shows_its_figures_in_the_grid(client, game):
    response = client.post(f"/games/{game}/hands", data=FIRST_HAND)
    assert response.status_code == 303
    assert response.headers["Location"] == f"/games/{game}"
    page = client.get(f"/games/{game}").get_data(as_text=True)
    row = page[page.index('id="hand-1"') : page.index("</tr>", page.index('id="hand-1"'))]
    assert re.findall(r'class="(?:base|count|hand-total|cumulative)">([^<]+)<', row) == [
        "1,200",
        "385",
        "1,585",
        "1,585",
        "300",
        "140",
        "440",
        "440",
    ]
    assert "Hand 2: Bea deals" in text(client.get(f"/games/{game}"))  # the deal passes clockwise: Ann, Bea


def test_a_negative_count_is_entered_with_the_minus_sign(client, game):
    data = hand_form({"natural_canastas": 2, "went_out": "y", "count": 200}, {"count": 75, "count_sign": "-"})
    client.post(f"/games/{game}/hands", data=data)
    page = text(client.get(f"/games/{game}"))
    # Them: no canasta, Base 0, Count −75
    assert "Total \u221275" in page


def test_an_impossible_hand_is_refused_beside_the_field_and_nothing_is_lost(client, game):
    data = hand_form({"mixed_canastas": 1, "went_out": "y", "count": 120}, {"count": 90})
    response = client.post(f"/games/{game}/hands", data=data)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert re.search(r'id="s0-went_out-error"[^>]*>Going out needs two closed canastas\.', page)
    assert re.search(r'id="s1-count-error"[^>]*>A side with no canasta counts every card against it', page)
    assert 'name="s0-count" type="text"' in page and 'value="120"' in page
    assert re.search(r'id="s0-went_out"[^>]*checked', page)
    assert "No hands yet." in text(client.get(f"/games/{game}"))


def test_a_problem_with_a_field_the_game_does_not_show_is_said_at_the_top(client):
    game = client.post("/games", data={**NEW_GAME, "perfect_cut": ""}).headers["Location"].rsplit("/", 1)[1]
    # With the perfect cut off the switch is not on the page; a stale form that sends it is told why.
    response = client.post(f"/games/{game}/hands", data=hand_form({"count": 0}, {"count": 0}, perfect_cut="y"))
    assert response.status_code == 422
    assert re.search(
        r'id="form-errors"[^>]*><ul><li>This game doesn&#39;t play the perfect-cut bonus\.',
        response.get_data(as_text=True),
    )


def test_a_word_where_a_number_goes_is_refused_in_plain_words(client, game):
    response = client.post(f"/games/{game}/hands", data=hand_form({"red_threes": "two"}, {}))
    assert response.status_code == 422
    assert re.search(r'id="s0-red_threes-error"[^>]*>Enter a whole number, like 3\.', response.get_data(as_text=True))


def test_the_count_from_the_counting_grid(client, game):
    data = hand_form(
        {
            "natural_canastas": 2,
            "went_out": "y",
            "count_mode": "grid",
            "melded_jokers": 1,
            "melded_high": 20,
            "melded_low": 4,
            "in_hand_aces": 1,
        },
        {"count_mode": "grid", "melded_deuces": 1, "in_hand_high": 2},
    )
    client.post(f"/games/{game}/hands", data=data)
    page = client.get(f"/games/{game}").get_data(as_text=True)
    # Us: 50 + 200 + 20 melded − 20 in hand = 250; Base 1,000 + 100 = 1,100; total 1,350
    # Them: no canasta, every card against it: −(20 + 20) = −40
    assert re.findall(r'class="count">([^<]+)<', page) == ["250", "\u221240"]
    assert re.findall(r'class="cumulative">([^<]+)<', page) == ["1,350", "\u221240"]


def test_the_live_preview_is_a_fragment_with_the_figures(client, game):
    response = client.post(f"/games/{game}/hands/preview", data=FIRST_HAND, headers={"HX-Request": "true"})
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    assert "<html" not in body and body.lstrip().startswith('<section id="preview"')
    assert re.findall(r'class="cumulative">([^<]+)<', body) == ["1,585", "440"]
    assert "HX-Request" in response.headers["Vary"]
    assert "No hands yet." in text(client.get(f"/games/{game}"))  # a preview saves nothing


def test_the_live_preview_puts_each_problem_beside_its_field(client, game):
    data = hand_form({"went_out": "y"}, {"red_threes": 5})
    body = client.post(f"/games/{game}/hands/preview", data=data, headers={"HX-Request": "true"}).get_data(as_text=True)
    assert re.search(r'id="s0-went_out-error"[^>]*hx-swap-oob="innerHTML">Going out needs two closed canastas\.', body)
    assert re.search(r'id="s1-red_threes-error"[^>]*hx-swap-oob="innerHTML">Red 3s: a side can have 0 to 4\.', body)
    assert re.search(r'id="s1-black_threes-error"[^>]*hx-swap-oob="innerHTML"></p>', body)  # clears old messages
    # The problem with the whole hand is beside the field that causes it; the bar beside Save says the first
    # problem and how many more there are.
    assert re.search(
        r'id="s1-red_threes-error"[^>]*>Red 3s: a side can have 0 to 4\. '
        r"The sides account for 5 red 3s; the pack has only 4\.<",
        body,
    )
    assert re.search(
        r'class="preview-problem">Going out needs two closed canastas\. '
        r'<span class="more-problems">\(and 2 more, marked above\)',
        body,
    )


def test_the_perfect_cut_switch_goes_to_the_cutters_side(client, game):
    # Hand 1: Ann deals, so Dot (on her right, side Them) cuts.
    client.post(f"/games/{game}/hands", data=hand_form({"count": 0}, {"count": 0}, perfect_cut="y"))
    page = client.get(f"/games/{game}").get_data(as_text=True)
    assert re.findall(r'class="base">([^<]+)<', page) == ["0", "100"]


def test_a_special_hand_sets_the_rest_of_the_panel_aside(client, game):
    data = hand_form({"special_hand": "pairs", "red_threes": 2, "count": 95}, {"natural_canastas": 1, "count": 50})
    assert client.post(f"/games/{game}/hands", data=data).status_code == 303
    page = client.get(f"/games/{game}").get_data(as_text=True)
    # Us: seven pairs 2,500, Count 0. Them: natural 500 + 50 = 550 (no wipeout in modern)
    assert re.findall(r'class="cumulative">([^<]+)<', page) == ["2,500", "550"]


# --- Editing and deleting --------------------------------------------------------------------


def test_editing_the_first_hand_recomputes_the_later_totals(client, game):
    client.post(f"/games/{game}/hands", data=FIRST_HAND)
    client.post(f"/games/{game}/hands", data=hand_form({"mixed_canastas": 1, "count": 100}, {"count": -50}))
    form = client.get(f"/games/{game}/hands/1/edit").get_data(as_text=True)
    assert 'value="385"' in form and re.search(r'id="s0-went_out"[^>]*checked', form)  # pre-filled
    changed = dict(FIRST_HAND)
    changed["s0-count"] = "485"
    response = client.post(f"/games/{game}/hands/1", data=changed)
    assert response.status_code == 303
    page = client.get(f"/games/{game}").get_data(as_text=True)
    # Hand 1 Us 1,200 + 485 = 1,685; hand 2 Us 300 + 100 = 400 → 2,085; Them 440 − 50 = 390
    assert re.findall(r'class="cumulative">([^<]+)<', page) == ["1,685", "440", "2,085", "390"]


SECOND_HAND = hand_form({"mixed_canastas": 1, "count": 100}, {"count": -50})
# Us: one canasta, so 3s count 0; mixed 300 + 100 = 400 (1,585 + 400 = 1,985). Them: no canasta, Count −50 (390).
THIRD_HAND = hand_form({"natural_canastas": 1, "count": 200}, {"mixed_canastas": 1, "count": 60})
# Us: natural 500 + 200 = 700 (2,685). Them: mixed 300 + 60 = 360 (750).


def cumulative(client, game: str) -> list[str]:
    """Every running total on the scoresheet, hand by hand, Us then Them."""
    return re.findall(r'class="cumulative">([^<]+)<', client.get(f"/games/{game}").get_data(as_text=True))


def test_any_hand_can_be_deleted_after_a_confirmation_that_says_what_it_removes(client, game):
    for hand in (FIRST_HAND, SECOND_HAND, THIRD_HAND):
        client.post(f"/games/{game}/hands", data=hand)
    confirm = text(client.get(f"/games/{game}/hands/2/delete"))
    assert "Delete hand 2?" in confirm and "dealt by Bea" in confirm
    assert "Us 400 (Base 300, Count 100)" in confirm and "Them \u221250 (Base 0, Count \u221250)" in confirm
    assert "Hand 3 becomes hand 2" in confirm
    response = client.post(f"/games/{game}/hands/2/delete")
    assert response.status_code == 303 and response.headers["Location"] == f"/games/{game}"
    # Hand 3 moves up: Us 1,585 + 700 = 2,285; Them 440 + 360 = 800. It is now dealt by Bea (the second seat).
    assert cumulative(client, game) == ["1,585", "440", "2,285", "800"]
    page = text(client.get(f"/games/{game}"))
    assert "2 Bea dealt" in page and "Hand 3: Cleo deals" in page


UNDO_FORM = re.compile(
    r'action="/games/[^/]+/undo"[^>]*>\s*<input type="hidden" name="version" value="(\d+)">'
    r'\s*<input type="hidden" name="token" value="([\w-]+)">\s*<button[^>]*>([^<]+)</button>'
)


def same_device(app, client):
    """Another phone with this one's device key: the scorekeeper's rights, a session of its own."""
    other = app.test_client()
    with client.session_transaction() as session:
        device = session["device"]
    with other.session_transaction() as session:
        session["device"] = device
    return other


def offered(client, game: str) -> tuple[str, dict, list[str]]:
    """The scoresheet made once for this phone: the Undo (or Redo) it offers (its words) and that form's fields,
    or ("", {}) for none; and every running total on it."""
    page = client.get(f"/games/{game}").get_data(as_text=True)
    found = UNDO_FORM.search(page)
    totals = re.findall(r'class="cumulative">([^<]+)<', page)
    return (found.group(3), {"version": found.group(1), "token": found.group(2)}, totals) if found else ("", {}, totals)


def test_a_saved_hand_can_be_taken_back(client, game):
    client.post(f"/games/{game}/hands", data=FIRST_HAND)
    client.post(f"/games/{game}/hands", data=SECOND_HAND)
    words, form, _ = offered(client, game)
    assert words == "Undo: take back hand 2"
    response = client.post(f"/games/{game}/undo", data=form)
    assert response.status_code == 303 and response.headers["Location"] == f"/games/{game}"
    page = client.get(f"/games/{game}")
    assert "Hand 2 taken back." in text(page)
    assert re.findall(r'class="cumulative">([^<]+)<', page.get_data(as_text=True)) == ["1,585", "440"]
    assert "Undo" not in text(page)  # taken back once; nothing more to undo


def test_an_edit_can_be_taken_back_and_made_again(client, game):
    client.post(f"/games/{game}/hands", data=FIRST_HAND)
    client.post(f"/games/{game}/hands/1", data={**FIRST_HAND, "s0-count": "485"})
    words, form, _ = offered(client, game)
    assert words == "Undo the change to hand 1"
    client.post(f"/games/{game}/undo", data=form)
    words, form, totals = offered(client, game)
    assert words == "Redo the change to hand 1" and totals == ["1,585", "440"]  # 1,200 + 385, as entered first
    client.post(f"/games/{game}/undo", data=form)
    assert "Hand 1 has its change again." in text(client.get(f"/games/{game}"))
    assert cumulative(client, game) == ["1,685", "440"]


def test_a_deleted_hand_can_be_brought_back_in_its_place_and_deleted_again(client, game):
    for hand in (FIRST_HAND, SECOND_HAND, THIRD_HAND):
        client.post(f"/games/{game}/hands", data=hand)
    client.post(f"/games/{game}/hands/2/delete")
    words, form, _ = offered(client, game)
    assert words == "Undo: bring back hand 2"
    client.post(f"/games/{game}/undo", data=form)
    words, form, totals = offered(client, game)
    assert words == "Redo: delete hand 2 again" and totals == ["1,585", "440", "1,985", "390", "2,685", "750"]
    client.post(f"/games/{game}/undo", data=form)
    # Hand 3 moves up again: Us 1,585 + 700 = 2,285; Them 440 + 360 = 800.
    assert "Hand 2 deleted again." in text(client.get(f"/games/{game}"))
    assert cumulative(client, game) == ["1,585", "440", "2,285", "800"]


def test_redo_puts_back_the_hand_undo_took_back_and_offers_undo_again(client, game):
    client.post(f"/games/{game}/hands", data=FIRST_HAND)
    client.post(f"/games/{game}/hands", data=SECOND_HAND)
    client.post(f"/games/{game}/undo", data=offered(client, game)[1])
    words, form, _ = offered(client, game)
    assert words == "Redo: put hand 2 back"
    client.post(f"/games/{game}/undo", data=form)
    page = client.get(f"/games/{game}")
    assert "Hand 2 is back." in text(page) and "Undo: take back hand 2" in text(page)
    # Hand 2 as saved: Us 1,585 + 400 = 1,985; Them 440 − 50 = 390.
    assert re.findall(r'class="cumulative">([^<]+)<', page.get_data(as_text=True)) == ["1,585", "440", "1,985", "390"]


def test_undo_is_offered_on_the_page_that_follows_the_change_only(client, game):
    client.post(f"/games/{game}/hands", data=FIRST_HAND)
    words, form, _ = offered(client, game)
    assert words == "Undo: take back hand 1"
    assert offered(client, game)[:2] == ("", {})  # the scoresheet again (coming back to it, or settling up): none
    response = client.post(f"/games/{game}/undo", data=form)  # the first page's button, kept open somewhere
    assert response.status_code == 303
    assert "was offered only on the page that followed the change, left since. Nothing was changed" in text(
        client.get(f"/games/{game}")
    )
    assert cumulative(client, game) == ["1,585", "440"]


def test_the_page_with_undo_is_never_kept_and_the_offline_copy_leaves_it_alone(client, game):
    client.post(f"/games/{game}/hands", data=FIRST_HAND)
    kept = client.get(f"/games/{game}", headers={"Scorepad-Keep": "offline"})  # the service worker's copy
    assert "/undo" not in kept.get_data(as_text=True) and "Hand 1 saved." in text(kept)
    page = client.get(f"/games/{game}")  # the page that follows the save: the worker's copy did not use it up
    assert "Undo: take back hand 1" in text(page)
    assert page.headers["Cache-Control"] == "no-store" and "ETag" not in page.headers


def test_the_page_that_follows_a_change_settles_before_it_takes_a_tap(client, game):
    client.post(f"/games/{game}/hands", data=FIRST_HAND)
    assert '<main id="main" class="settling">' in client.get(f"/games/{game}").get_data(as_text=True)
    assert '<main id="main">' in client.get(f"/games/{game}").get_data(as_text=True)  # a later visit: at once


def test_an_undo_kept_by_an_older_scorepad_is_not_offered(client, game):
    client.post(f"/games/{game}/hands", data=FIRST_HAND)
    with client.session_transaction() as session:  # as the phone kept it before this version
        version = session["undo"]["version"]
        session["undo"] = {"game": game, "version": version, "kind": "add", "position": 0, "hand": None, "at": 0}
    page = client.get(f"/games/{game}")
    assert page.status_code == 200 and "/undo" not in page.get_data(as_text=True)
    assert client.post(f"/games/{game}/undo", data={"version": version}).status_code == 303
    assert cumulative(client, game) == ["1,585", "440"]


def test_undo_tapped_twice_takes_back_one_hand(client, game):
    client.post(f"/games/{game}/hands", data=FIRST_HAND)
    client.post(f"/games/{game}/hands", data=SECOND_HAND)
    form = offered(client, game)[1]
    client.post(f"/games/{game}/undo", data=form)
    second = client.post(f"/games/{game}/undo", data=form)  # the second tap, sent once the first was answered
    assert second.status_code == 303
    page = client.get(f"/games/{game}")
    assert text(page).count("Hand 2 taken back.") == 1 and "Redo: put hand 2 back" in text(page)
    assert re.findall(r'class="cumulative">([^<]+)<', page.get_data(as_text=True)) == ["1,585", "440"]


@pytest.mark.parametrize("keyed", [False, True])  # Save through the page's script carries an Idempotency-Key
def test_undo_sent_twice_before_the_first_answer_takes_back_one_hand(app, client, game, keyed):
    for n, hand in enumerate((FIRST_HAND, SECOND_HAND)):
        client.post(f"/games/{game}/hands", data=hand, headers={"Idempotency-Key": f"save-{n}"} if keyed else {})
    form = offered(client, game)[1]
    before = client.get_cookie("session").value  # the second tap leaves with the cookie the first one had
    client.post(f"/games/{game}/undo", data=form)
    client.set_cookie("session", before)
    client.post(f"/games/{game}/undo", data=form)
    page = client.get(f"/games/{game}")
    assert "Hand 2 taken back." in text(page) and "Redo: put hand 2 back" in text(page)
    assert re.findall(r'class="cumulative">([^<]+)<', page.get_data(as_text=True)) == ["1,585", "440"]


def test_an_undo_button_used_already_is_refused_in_words(client, game):
    client.post(f"/games/{game}/hands", data=FIRST_HAND)
    client.post(f"/games/{game}/hands", data=SECOND_HAND)
    undo = offered(client, game)[1]
    client.post(f"/games/{game}/undo", data=undo)
    client.post(f"/games/{game}/undo", data=offered(client, game)[1])  # Redo: hand 2 is back
    response = client.post(f"/games/{game}/undo", data=undo)  # the first Undo's token again
    assert response.status_code == 303
    assert "That button was used already, or was for an older change" in text(client.get(f"/games/{game}"))
    assert cumulative(client, game) == ["1,585", "440", "1,985", "390"]


def test_undo_is_refused_once_the_game_changed_since(app, client, game):
    client.post(f"/games/{game}/hands", data=FIRST_HAND)
    stale = offered(client, game)[1]
    other = same_device(app, client)  # another phone with the scorekeeper's rights saves hand 2
    other.post(f"/games/{game}/hands", data=SECOND_HAND)
    response = client.post(f"/games/{game}/undo", data=stale)
    assert response.status_code == 303
    assert "The game has changed since" in text(client.get(f"/games/{game}"))
    assert cumulative(client, game) == ["1,585", "440", "1,985", "390"]


def test_a_later_change_has_its_own_undo(client, game):
    client.post(f"/games/{game}/hands", data=FIRST_HAND)
    first = offered(client, game)[1]
    client.post(f"/games/{game}/hands", data=SECOND_HAND)
    assert offered(client, game)[0] == "Undo: take back hand 2"
    client.post(f"/games/{game}/undo", data=first)  # hand 1's button, from the page before
    assert "That button was used already, or was for an older change" in text(client.get(f"/games/{game}"))
    assert cumulative(client, game) == ["1,585", "440", "1,985", "390"]


def test_undo_after_a_rematch_of_the_game_is_refused_in_words(client):
    game = finished_game(client)
    words, form, _ = offered(client, game)
    assert words == "Undo: take back hand 1"  # the winning hand, on the page that followed it
    rematch = client.post(f"/games/{game}/rematch").headers["Location"]
    response = client.post(f"/games/{game}/undo", data=form)
    assert response.status_code == 303
    assert "A rematch was started from this game since: Undo is no longer offered." in text(client.get(rematch))
    assert client.get(f"/api/games/{game}").get_json()["status"] == "finished"
    assert cumulative(client, game) == ["1,585", "440"]


def test_undo_after_a_rematch_started_on_another_phone_is_refused_in_words(app, client):
    game = finished_game(client)
    form = offered(client, game)[1]  # the winning hand's Undo, on the page that followed it
    other = same_device(app, client)  # another phone with the scorekeeper's rights starts the rematch
    assert other.post(f"/games/{game}/rematch").status_code == 303
    response = client.post(f"/games/{game}/undo", data=form)
    assert response.status_code == 303
    page = text(client.get(f"/games/{game}"))
    assert "A rematch was started from this game since: Undo is no longer offered." in page
    assert client.get(f"/api/games/{game}").get_json()["status"] == "finished"
    assert cumulative(client, game) == ["1,585", "440"]


# --- Who may change a game --------------------------------------------------------------------


def test_another_phone_sees_the_game_read_only(app, game):
    other = app.test_client()
    page = text(other.get(f"/games/{game}"))
    assert "Read-only" in page and "Enter hand" not in page
    assert other.get(f"/games/{game}/hands/new").status_code == 403
    assert other.post(f"/games/{game}/hands", data=FIRST_HAND).status_code == 403


def test_the_scoreboard_shows_the_figures_without_edit_links(app, client, game):
    client.post(f"/games/{game}/hands", data=FIRST_HAND)
    page = app.test_client().get(f"/games/{game}/scoreboard").get_data(as_text=True)
    assert "1,585" in page and "440" in page
    assert "Edit" not in text_of(page) and 'hx-trigger="every 2s"' in page  # tests/test_share.py: the poll


def text_of(html: str) -> str:
    return re.sub(r"<[^>]+>", " ", html)


def test_an_unknown_game_is_a_page_in_words(client):
    response = client.get("/games/nope")
    assert response.status_code == 404
    assert "There is no game at this address" in text(response)


# --- The end of a game -----------------------------------------------------------------------


def test_a_finished_game_shows_the_winner_and_the_margin(client):
    body = client.post("/games", data={**NEW_GAME, "target": "1000"})
    game = body.headers["Location"].rsplit("/", 1)[1]
    client.post(f"/games/{game}/hands", data=FIRST_HAND)
    page = text(client.get(f"/games/{game}"))
    # 1,585 against 440: Us reach 1,000 and win by 1,145
    assert "Us won by 1,145 points." in page
    assert "Enter hand" not in page
    response = client.get(f"/games/{game}/hands/new")
    assert response.status_code == 303


# --- Export and the installable app ------------------------------------------------------------


def test_export_json_is_the_api_document(client, game):
    client.post(f"/games/{game}/hands", data=FIRST_HAND)
    exported = client.get(f"/games/{game}/export.json")
    assert exported.headers["Content-Disposition"].startswith("attachment")
    assert exported.get_json() == client.get(f"/api/games/{game}").get_json()


def test_export_csv_has_a_row_per_hand(client, game):
    client.post(f"/games/{game}/hands", data=FIRST_HAND)
    exported = client.get(f"/games/{game}/export.csv").get_data().decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(exported)))
    # The headings first, then a row per side per hand (tests/test_share.py has every column).
    assert rows[0][:3] == ["Hand", "Dealer", "Side"]
    assert [row[:3] + row[-4:] for row in rows[1:]] == [
        ["1", "Ann", "Us", "1200", "385", "1585", "1585"],
        ["1", "Ann", "Them", "300", "140", "440", "440"],
    ]


def test_the_service_worker_is_served_from_the_root(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert response.headers["Cache-Control"] == "no-cache"
    worker = response.get_data(as_text=True)
    precache = json.loads(worker.split("const PRECACHE = ", 1)[1].split(";\n", 1)[0])
    # Installing keeps what reading a scoresheet needs, nothing a watcher never uses.
    assert [url.split("?")[0] for url in precache] == [
        "/static/css/scorepad.css",
        "/static/js/early.min.js",
        "/static/js/scorepad.min.js",
        "/static/icons/icon.svg",
    ]
    assert "//" not in worker.replace("://", "")  # its comments are the template's, never sent


def test_only_a_scorekeepers_pages_ask_to_keep_the_scorekeepers_shell_and_only_htmx_pages_load_it(client):
    def keeps(response) -> list[str]:
        body = response.get_data(as_text=True)
        return body.split('data-keep="', 1)[1].split('"', 1)[0].split() if 'data-keep="' in body else []

    def loads_htmx(response) -> bool:
        return '<script src="/static/js/htmx-2.0.11.min.js?v=' in response.get_data(as_text=True)

    shell = keeps(client.get("/"))
    assert [url.split("?")[0] for url in shell] == ["/games/new", "/offline/game", "/static/js/htmx-2.0.11.min.js"]
    assert not loads_htmx(client.get("/"))
    assert keeps(client.get("/games/new")) == shell and loads_htmx(client.get("/games/new"))
    game = client.post("/games", data=NEW_GAME).headers["Location"].rsplit("/", 1)[1]
    rules = [f"/games/{game}/rules"]  # a game's pages keep its rules page, on every phone
    # The scorekeeper's sheet carries the next hand's form, which saves through htmx; a watcher's does not.
    assert keeps(client.get(f"/games/{game}")) == shell + rules and loads_htmx(client.get(f"/games/{game}"))
    assert keeps(client.get(f"/games/{game}/hands/new")) == shell and loads_htmx(client.get(f"/games/{game}/hands/new"))
    watcher = client.application.test_client()  # another phone: reads, keeps score of nothing
    assert keeps(watcher.get(f"/games/{game}")) == rules and not loads_htmx(watcher.get(f"/games/{game}"))
    scoreboard = watcher.get(f"/games/{game}/scoreboard")
    assert keeps(scoreboard) == rules and loads_htmx(scoreboard)


def test_the_manifest_makes_the_app_installable(client):
    manifest = client.get("/manifest.webmanifest")
    assert manifest.mimetype == "application/manifest+json"
    body = manifest.get_json()
    assert body["display"] == "standalone" and body["start_url"] == "/"
    for icon in body["icons"]:
        with client.get(icon["src"]) as response:  # a static file: close it, don't leave it to the collector
            assert response.status_code == 200


def test_the_vendored_htmx_is_the_pinned_version(client):
    with client.get("/static/js/htmx-2.0.11.min.js") as response:
        assert 'version:"2.0.11"' in response.get_data(as_text=True)


def test_settling_up_a_finished_game(client):
    game = client.post("/games", data={**NEW_GAME, "target": "1000"}).headers["Location"].rsplit("/", 1)[1]
    client.post(f"/games/{game}/hands", data=FIRST_HAND)
    page = text(client.get(f"/games/{game}", query_string={"stake": "2", "per_special": "1"}))
    # 1,585 − 440 = 1,145 → 1,000 → 1 × 2 = 2; no specials on either side
    assert "Them pay Us 2" in page


def test_settling_up_counts_the_specials_of_both_sides(client):
    game = client.post("/games", data={**NEW_GAME, "target": "3000"}).headers["Location"].rsplit("/", 1)[1]
    client.post(
        f"/games/{game}/hands",
        data=hand_form({"natural_canastas": 2, "sevens_canasta": "y", "count": 300}, {"special_hand": "pairs"}),
    )
    page = text(client.get(f"/games/{game}", query_string={"stake": "1", "per_special": "3"}))
    # Us (nobody goes out when a special hand ends the hand): 1,000 + 2,500 = 3,500 + 300 = 3,800
    # Them: seven pairs 2,500 (no wipeout in modern)
    # 1,300 → 1,000 → 1 × 1 = 1; one special each, so 1 + (1 − 1) × 3 = 1
    assert "Us won by 1,300 points." in page
    assert "Them pay Us 1" in page


def test_a_game_file_is_restored_on_another_phone(app, client, game):
    client.post(f"/games/{game}/hands", data=FIRST_HAND)
    exported = client.get(f"/games/{game}/export.json").get_data()
    phone = app.test_client()
    response = phone.post(
        "/games/import", data={"document": (io.BytesIO(exported), "game.json")}, content_type="multipart/form-data"
    )
    assert response.status_code == 303
    page = text(phone.get(response.headers["Location"]))
    assert "Game restored." in page and "Enter hand 2" in page and "1,585" in page


def test_a_file_that_is_not_a_game_is_refused_in_words(client):
    response = client.post(
        "/games/import", data={"document": (io.BytesIO(b"hello"), "notes.txt")}, content_type="multipart/form-data"
    )
    assert response.status_code == 422
    assert "This isn't a Scorepad game or hand: it is not a JSON document." in text(response)


def test_the_home_page_title_is_plain_text(client):
    page = client.get("/").get_data(as_text=True)
    assert re.search(r"<title>Canasta scoresheet · Scorepad</title>", page)


def version_of(client, game: str, number: int | None = None) -> str:
    """The game version the hand form carries, as the browser would send it back."""
    path = f"/games/{game}/hands/{number}/edit" if number else f"/games/{game}/hands/new"
    return re.search(r'name="version" value="(\d+)"', client.get(path).get_data(as_text=True)).group(1)


def test_a_hand_sent_twice_is_saved_once(client, game):
    data = {**FIRST_HAND, "version": version_of(client, game)}
    first = client.post(f"/games/{game}/hands", data=data)
    second = client.post(f"/games/{game}/hands", data=data)  # a double tap, or a retry on bad Wi-Fi
    assert first.status_code == second.status_code == 303
    assert second.headers["Location"] == f"/games/{game}"
    assert "hand-2" not in client.get(f"/games/{game}").get_data(as_text=True)


def test_a_hand_sent_twice_at_the_same_moment_is_stored_once(app, client, game, monkeypatch):
    from scorepad import rights, service

    data = {**FIRST_HAND, "version": version_of(client, game)}
    first = app.test_client()  # the first tap's post, with the same cookie
    first.set_cookie("session", client.get_cookie("session").value)
    read_to_change = service.game_to_change

    def read_while_the_first_post_is_stored(game_id: str, device=None, key=None):
        held = read_to_change(game_id, device, key)
        assert held.stored.score.hands == ()  # the game and its figures read before the first post is stored...
        assert held.right == rights.CREATED
        monkeypatch.setattr(service, "game_to_change", read_to_change)
        answers: list[int] = []  # the first post, on its own connection (a thread of its own), as the server has it
        tap = threading.Thread(
            target=lambda: answers.append(first.post(f"/games/{game_id}/hands", data=data).status_code)
        )
        tap.start()
        tap.join(timeout=30)
        assert answers == [303]
        return held  # ...and its hands after

    monkeypatch.setattr(service, "game_to_change", read_while_the_first_post_is_stored)
    second = client.post(f"/games/{game}/hands", data=data)  # stored meanwhile: found as the same hand
    assert second.status_code == 303 and second.headers["Location"] == f"/games/{game}"
    assert cumulative(client, game) == ["1,585", "440"]


def test_a_hand_sent_three_times_says_once_that_it_was_saved(client, game):
    data = {**FIRST_HAND, "version": version_of(client, game)}
    for _ in range(3):  # without JavaScript: each tap posts again, the later ones once the first was answered
        assert client.post(f"/games/{game}/hands", data=data).status_code == 303
    page = text(client.get(f"/games/{game}"))
    assert page.count("Hand 1 saved.") == 1 and "Undo: take back hand 1" in page


def test_the_page_after_a_hand_sent_twice_shows_its_totals_and_undo(app, client, game):
    data = {**FIRST_HAND, "version": version_of(client, game)}
    before = client.get_cookie("session").value  # the second tap leaves before the first is answered
    client.post(f"/games/{game}/hands", data=data)
    client.set_cookie("session", before)
    second = client.post(f"/games/{game}/hands", data=data)
    assert second.status_code == 303 and second.headers["Location"] == f"/games/{game}"
    page = client.get(f"/games/{game}")
    assert "Hand 1 saved." in text(page) and "Undo: take back hand 1" in text(page)
    # Us: 2 red 3s 200, natural 500, mixed 300, went out 200 = 1,200, Count 385: 1,585. Them: mixed 300 + 140 = 440.
    assert re.findall(r'class="total-figure">([^<]+)<', page.get_data(as_text=True)) == ["1,585", "440"]
    assert "hand-2" not in page.get_data(as_text=True)


def test_a_new_hand_form_left_open_while_another_phone_saved_keeps_its_entries(app, client, game):
    stale = version_of(client, game)
    client.post(f"/games/{game}/hands", data=FIRST_HAND)  # the other phone (same rights) saves hand 1
    mine = hand_form({"mixed_canastas": 1, "count": 100}, {"count": -50})
    response = client.post(f"/games/{game}/hands", data={**mine, "version": stale})
    assert response.status_code == 409
    page = response.get_data(as_text=True)
    assert "The game changed while this form was open" in html.unescape(page)
    assert re.search(r"<h1[^>]*>Hand 2</h1>", page) and 'value="100"' in page  # now offered as hand 2, entries kept
    assert "hand-2" not in client.get(f"/games/{game}").get_data(as_text=True)


def test_a_new_hand_form_left_open_while_another_phone_ended_the_game_says_it_is_over(client):
    """Found by the new-user tester: two phones save the last hand at once; the one that loses the race was offered
    the hand as hand 2 ("save only if this is a new hand"), which the finished game then refused. It is told at once
    that the game is over and shown the sheet with its result. Played to 1,000: FIRST_HAND's 1,585 ends it."""
    started = client.post("/games", data={**NEW_GAME, "target": "1000"})
    game = started.headers["Location"].rsplit("/", 1)[1]
    stale = version_of(client, game)
    client.post(f"/games/{game}/hands", data=FIRST_HAND)  # the other phone saves hand 1: Us 1,585, over 1,000
    mine = hand_form({"mixed_canastas": 1, "count": 100}, {"count": -50})
    response = client.post(f"/games/{game}/hands", data={**mine, "version": stale})
    assert response.status_code == 303 and response.headers["Location"] == f"/games/{game}"
    sheet = text(client.get(f"/games/{game}"))
    assert "Another phone saved the last hand meanwhile: the game is over, and this hand was not saved." in sheet
    assert "Us won by 1,145 points." in sheet  # 1,585 - 440
    assert "Save hand 2" not in sheet


def test_an_edit_form_left_open_while_the_game_changed_overwrites_nothing(client, game):
    client.post(f"/games/{game}/hands", data=FIRST_HAND)
    stale = version_of(client, game, 1)
    client.post(f"/games/{game}/hands", data=hand_form({"mixed_canastas": 1, "count": 100}, {"count": -50}))
    changed = {**FIRST_HAND, "s0-count": "485", "version": stale}
    response = client.post(f"/games/{game}/hands/1", data=changed)
    assert response.status_code == 409
    page = response.get_data(as_text=True)
    assert "<h1>Edit hand 1</h1>" in page and 'value="485"' in page
    # Hand 1 unchanged: Us 1,585 then 1,585 + 400 = 1,985
    assert re.findall(r'class="cumulative">([^<]+)<', client.get(f"/games/{game}").get_data(as_text=True)) == [
        "1,585",
        "440",
        "1,985",
        "390",
    ]


def test_a_mistake_in_a_panel_set_aside_by_a_special_hand_does_not_block_the_hand(client, game):
    data = hand_form(
        {"special_hand": "pairs", "red_threes": "-1", "count_mode": "grid", "melded_jokers": "x"},
        {"natural_canastas": 1, "count": 50},
    )
    assert client.post(f"/games/{game}/hands", data=data).status_code == 303


def test_a_mistake_in_the_count_grid_not_in_use_does_not_block_the_hand(client, game):
    data = hand_form({"natural_canastas": 2, "went_out": "y", "count": 200, "melded_jokers": "x"}, {"count": -50})
    assert client.post(f"/games/{game}/hands", data=data).status_code == 303


def test_a_bad_special_hand_value_opens_its_section(client):
    response = client.post("/games", data={**NEW_GAME, "hand_pairs_points": "2502"})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert '<details class="special-hands" open>' in page
    assert re.search(r'id="hand_pairs_points-error"[^>]*>Seven pairs: points are a multiple of 5\.', page)


def test_a_post_from_another_site_is_refused(client, game):
    response = client.post(f"/games/{game}/hands", data=FIRST_HAND, headers={"Sec-Fetch-Site": "cross-site"})
    assert response.status_code == 403
    response = client.post(f"/games/{game}/hands", data=FIRST_HAND, headers={"Origin": "https://evil.example"})
    assert response.status_code == 403
    assert "No hands yet." in text(client.get(f"/games/{game}"))


def test_a_name_that_looks_like_a_formula_is_plain_text_in_the_spreadsheet(client):
    game = client.post("/games", data={**NEW_GAME, "player0_0": "=HYPERLINK(1)"}).headers["Location"].rsplit("/", 1)[1]
    client.post(f"/games/{game}/hands", data=FIRST_HAND)
    rows = list(csv.reader(io.StringIO(client.get(f"/games/{game}/export.csv").get_data(as_text=True))))
    first_hand = next(row for row in rows if row[:1] == ["1"])
    assert first_hand[1] == "'=HYPERLINK(1)"  # the dealer


def test_a_preset_chosen_without_javascript_shows_its_table_rules_before_starting(client):
    response = client.post("/games", data={**NEW_GAME, "preset": "classic", "rules_from": "modern", "target": "8500"})
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "The table rules are now Classic&#39;s: check them, then start the game." in page
    assert 'name="target" type="text" inputmode="numeric"' in page and 'value="5000"' in page
    assert 'name="rules_from" value="classic"' in page


def test_a_phone_keeps_the_edit_rights_of_every_game_it_started(client):
    games = [client.post("/games", data=NEW_GAME).headers["Location"].rsplit("/", 1)[1] for _ in range(45)]
    for game in (games[0], games[1], games[-1]):  # the oldest too: rights live on the server, not in the cookie
        assert "Enter hand 1" in text(client.get(f"/games/{game}"))


def test_rights_kept_in_an_older_scorepads_cookie_are_carried_over(app, client):
    game = client.post("/games", data=NEW_GAME).headers["Location"].rsplit("/", 1)[1]
    with app.app_context():
        from scorepad import store
        from scorepad.models import GameRecord, db

        token = "an-old-edit-token"
        db.session.get(GameRecord, game).edit_token_hash = store._hash(token)
        db.session.commit()
    old_phone = app.test_client()
    with old_phone.session_transaction() as session:
        session["games"] = {game: token}
    assert "Enter hand 1" in text(old_phone.get(f"/games/{game}"))
    assert "Read-only" in text(app.test_client().get(f"/games/{game}"))


CLASSIC = {**NEW_GAME, "preset": "classic", "rules_from": "classic", "target": "5000", "perfect_cut": ""}


def test_classic_asks_whether_a_side_with_red_threes_and_a_negative_count_melded(client):
    game = client.post("/games", data=CLASSIC).headers["Location"].rsplit("/", 1)[1]
    data = hand_form(
        {"red_threes": 1, "count": 50, "count_sign": "-"}, {"natural_canastas": 1, "went_out": "y", "count": 100}
    )
    response = client.post(f"/games/{game}/hands", data=data)
    assert response.status_code == 422
    assert re.search(
        r'id="s0-has_melded-error"[^>]*>Did Us meld anything this hand\? Say Yes or No', response.get_data(as_text=True)
    )
    response = client.post(f"/games/{game}/hands", data={**data, "s0-has_melded": "yes"})
    assert response.status_code == 303
    page = client.get(f"/games/{game}").get_data(as_text=True)
    # Us melded: red 3 +100, Count −50 → 50. Them: natural 500 + out 100 + 100 = 700
    assert re.findall(r'class="cumulative">([^<]+)<', page) == ["50", "700"]


def test_without_javascript_a_changed_table_asks_for_the_first_dealer_again(client):
    data = {
        **CLASSIC,
        "players": "6",
        "seats_from": "4",
        "side2_name": "Others",
        "player2_0": "Eve",
        "player2_1": "Fay",
        "first_dealer": "3",
    }
    response = client.post("/games", data=data)
    assert response.status_code == 200
    page = html.unescape(response.get_data(as_text=True))
    assert "Now choose who deals first among these players." in page
    assert "Fay (Others)" in page  # six seats offered now


def test_three_sides_get_a_row_per_figure(client):
    doc = game_document(
        "classic",
        sides=[
            {"name": "North", "players": ["Ann", "Cleo"]},
            {"name": "East", "players": ["Bea", "Dot"]},
            {"name": "West", "players": ["Eve", "Fay"]},
        ],
        hands=[
            {
                "sides": [
                    {"red_threes": 2, "natural_canastas": 2, "went_out": True, "count": 1320},
                    {"red_threes": 2, "mixed_canastas": 1, "count": 1150},
                    {"red_threes": 1, "count": -1195, "has_melded": False},
                ]
            }
        ],
    )
    game = client.post("/api/games", json=doc).get_json()["id"]
    page = client.get(f"/games/{game}").get_data(as_text=True)
    body = page[page.index('<tbody id="hand-1">') :]
    # North: red 3s 200 (melded) + naturals 1,000 + out 100 = 1,300; + 1,320 = 2,620
    # East: 200 + mixed 300 = 500; + 1,150 = 1,650.  West did not meld: −100; − 1,195 = −1,295
    assert re.findall(r'<td data-side="\d" class="base">([^<]+)<', body) == ["1,300", "500", "\u2212100"]
    assert re.findall(r'<td data-side="\d" class="cumulative">([^<]+)<', body) == ["2,620", "1,650", "\u22121,295"]
    # Classic Minimum Counts: 1,500 to 2,995 → 90; below 0 → 15
    assert re.findall(r'class="min-count-figure">(\d+)<', page) == ["90", "90", "15"]


def test_a_refused_new_game_says_at_the_top_where_to_look(client):
    response = client.post("/games", data={**NEW_GAME, "player0_0": "", "player1_1": ""})
    assert response.status_code == 422
    assert re.search(
        r'id="form-errors"[^>]*><ul><li>Check the entries marked in red below\.', response.get_data(as_text=True)
    )


def test_a_count_typed_with_a_thousands_separator(client, game):
    data = hand_form({"natural_canastas": 2, "went_out": "y", "count": "1.160"}, {"count": 0})
    assert client.post(f"/games/{game}/hands", data=data).status_code == 303
    # 1,000 + 100 + 1,160 = 2,260
    assert "2,260" in text(client.get(f"/games/{game}"))


def test_a_tie_above_the_target_is_explained(client):
    game = client.post("/games", data={**NEW_GAME, "target": "500"}).headers["Location"].rsplit("/", 1)[1]
    client.post(
        f"/games/{game}/hands",
        data=hand_form({"natural_canastas": 1, "count": 100}, {"natural_canastas": 1, "count": 100}),
    )
    page = text(client.get(f"/games/{game}"))
    # 500 + 100 = 600 each: both past 500, tied, so play on
    assert "Tied at the top on 600: the game goes on until one side leads." in page
    assert "Enter hand 2" in page


def test_settling_up_at_half_a_unit_per_thousand_shows_the_working(client):
    game = client.post("/games", data={**NEW_GAME, "target": "1000"}).headers["Location"].rsplit("/", 1)[1]
    client.post(f"/games/{game}/hands", data=FIRST_HAND)
    page = text(client.get(f"/games/{game}", query_string={"stake": "0.5"}))
    # 1,585 − 440 = 1,145 → 1,000 → 1 × 0.5 = 0.5
    assert "Them pay Us 0.5 (1,145 rounds to 1,000 \u2192 1 \u00d7 0.5)" in page


def test_a_refused_save_through_htmx_keeps_the_forms_address(client, game):
    data = hand_form({"mixed_canastas": 1, "went_out": "y", "count": 120}, {"count": 90})
    response = client.post(f"/games/{game}/hands", data=data, headers={"HX-Request": "true", "HX-Boosted": "true"})
    assert response.status_code == 422
    assert response.headers["HX-Push-Url"] == "false"  # not the POST-only /hands in the address bar
    assert "<html" in response.get_data(as_text=True)  # a boosted form gets the whole page


def test_a_history_restore_gets_the_whole_page_not_a_fragment(client, game):
    response = client.get(f"/games/{game}", headers={"HX-Request": "true", "HX-History-Restore-Request": "true"})
    body = response.get_data(as_text=True)
    assert "<html" in body and "Enter hand 1" in body


def test_a_hand_with_a_perfect_cut_sent_twice_is_saved_once(client, game):
    # Hand 1: Ann deals, Dot (Them) cuts; the switch goes to Them.
    data = {**hand_form({"count": 0}, {"count": 0}, perfect_cut="y"), "version": version_of(client, game)}
    assert client.post(f"/games/{game}/hands", data=data).status_code == 303
    second = client.post(f"/games/{game}/hands", data=data)
    assert second.status_code == 303
    assert "hand-2" not in client.get(f"/games/{game}").get_data(as_text=True)


def test_an_edit_sent_twice_is_saved_once(client, game):
    client.post(f"/games/{game}/hands", data=FIRST_HAND)
    changed = {**FIRST_HAND, "s0-count": "485", "version": version_of(client, game, 1)}
    assert client.post(f"/games/{game}/hands/1", data=changed).status_code == 303
    assert client.post(f"/games/{game}/hands/1", data=changed).status_code == 303


def test_the_hand_that_ends_the_game_sent_twice_says_only_that_it_was_saved(client):
    game = client.post("/games", data={**NEW_GAME, "target": "1000"}).headers["Location"].rsplit("/", 1)[1]
    data = {**FIRST_HAND, "version": version_of(client, game)}
    client.post(f"/games/{game}/hands", data=data)
    response = client.post(f"/games/{game}/hands", data=data)
    page = text(client.get(response.headers["Location"]))
    assert "Hand 1 saved." in page and "This game is over" not in page


@pytest.mark.parametrize("stake", ["1e9999999999", "NaN", "Infinity", "-1", "two"])
def test_a_stake_that_is_not_a_sensible_number_is_refused_in_words(client, stake):
    game = client.post("/games", data={**NEW_GAME, "target": "1000"}).headers["Location"].rsplit("/", 1)[1]
    client.post(f"/games/{game}/hands", data=FIRST_HAND)
    response = client.get(f"/games/{game}", query_string={"stake": stake})
    assert response.status_code == 200
    assert re.search(r"Enter (the stake|a stake)", text(response))


def test_a_deeply_nested_file_is_refused_in_words(client):
    deep = b"[" * 100000 + b"]" * 100000
    response = client.post(
        "/games/import", data={"document": (io.BytesIO(deep), "deep.json")}, content_type="multipart/form-data"
    )
    assert response.status_code == 422
    assert "it is nested too deep" in text(response)


def test_a_post_from_the_same_host_behind_an_https_proxy_is_accepted(client, game):
    response = client.post(f"/games/{game}/hands", data=FIRST_HAND, headers={"Origin": "https://localhost"})
    assert response.status_code == 303


def test_a_blank_hand_is_not_stored(client, game):
    response = client.post(f"/games/{game}/hands", data=hand_form({}, {}))
    assert response.status_code == 422
    assert "Nothing has been entered for this hand: every side would score 0." in text(response)
    assert "No hands yet." in text(client.get(f"/games/{game}"))


def test_a_hand_where_both_counts_are_zero_is_a_real_hand(client, game):
    assert client.post(f"/games/{game}/hands", data=hand_form({"count": 0}, {"red_threes": 1})).status_code == 303


def test_a_refused_hand_names_the_entries_to_fix_at_the_top(client, game):
    response = client.post(f"/games/{game}/hands", data=hand_form({"count": 100}, {"count": "12.5"}))
    assert response.status_code == 422
    page = text(response)
    assert "Check the entries marked in red below (Them: Count)." in page
    assert "Enter a whole number, like 120." in page


def test_text_in_a_number_field_gets_one_message(client, game):
    page = text(client.post(f"/games/{game}/hands", data=hand_form({"red_threes": "2.5"}, {})))
    assert "Enter a whole number, like 3." in page and "Can't be less than 0" not in page


def test_the_scoresheet_says_which_hand_was_a_special_hand(client, game):
    client.post(f"/games/{game}/hands", data=hand_form({"special_hand": "pairs"}, {"natural_canastas": 1, "count": 50}))
    row = client.get(f"/games/{game}").get_data(as_text=True).split('id="hand-1"')[1].split("</tr>")[0]
    # Us laid it down: that is all Us's side shows; Them, without wipeout, keep their natural canasta.
    assert '<li class="mark mark-special"><small>Seven pairs</small></li>' in row
    assert 'title="1 natural canasta">1 natural</span>' in row and row.count('<li class="mark ') == 2


def test_the_wild_canasta_choices_show_the_games_values(client):
    game = (
        client.post("/games", data={**NEW_GAME, "preset": "wca", "rules_from": "wca"})
        .headers["Location"]
        .rsplit("/", 1)[1]
    )
    form = html.unescape(client.get(f"/games/{game}/hands/new").get_data(as_text=True))
    assert (
        "seven 2s (4,000)" in form and "four jokers and three 2s (3,000)" in form and "other wild mix (2,500)" in form
    )


def test_a_stake_with_a_decimal_comma(client):
    game = client.post("/games", data={**NEW_GAME, "target": "1000"}).headers["Location"].rsplit("/", 1)[1]
    client.post(f"/games/{game}/hands", data=FIRST_HAND)
    # 1,145 → 1,000 → 1 × 1.5 = 1.5
    assert "Them pay Us 1.5" in text(client.get(f"/games/{game}", query_string={"stake": "1,5"}))


def test_the_preview_says_when_a_wipeout_leaves_the_other_side_nothing(client):
    game = (
        client.post(
            "/games",
            data={
                **NEW_GAME,
                "preset": "wca",
                "rules_from": "wca",
                "wipeout": "y",
                "hand_pairs": "y",
                "hand_pairs_points": "3000",
            },
        )
        .headers["Location"]
        .rsplit("/", 1)[1]
    )
    data = hand_form({"special_hand": "pairs"}, {"natural_canastas": 2, "count": 200})
    body = client.post(f"/games/{game}/hands/preview", data=data, headers={"HX-Request": "true"}).get_data(as_text=True)
    # Us: seven pairs 3,000 (wca). Them: wiped out, 0.
    assert re.findall(r'class="cumulative">([^<]+)<', body) == ["3,000", "0"]
    assert "Wipeout: the other side scores 0." in body


def test_the_edit_form_of_a_hand_deleted_meanwhile_offers_the_entries_as_a_new_hand(client, game):
    client.post(f"/games/{game}/hands", data=FIRST_HAND)
    stale = version_of(client, game, 1)
    client.post(f"/games/{game}/hands/1/delete")  # meanwhile, the hand is deleted
    preview = client.post(
        f"/games/{game}/hands/1/preview", data={**FIRST_HAND, "version": stale}, headers={"HX-Request": "true"}
    )
    assert preview.status_code == 200
    assert "Hand 1 has been deleted since this form was opened." in text(preview)
    response = client.post(f"/games/{game}/hands/1", data={**FIRST_HAND, "version": stale})
    assert response.status_code == 409
    page = response.get_data(as_text=True)
    assert re.search(r"<h1[^>]*>Hand 1</h1>", page) and 'value="385"' in page


def test_the_live_preview_fragment_has_no_hidden_submit_button(client, game):
    body = client.post(f"/games/{game}/hands/preview", data=FIRST_HAND, headers={"HX-Request": "true"}).get_data(
        as_text=True
    )
    assert "Check the figures" not in body


def test_a_live_preview_on_a_game_that_just_finished_says_so(client):
    game = client.post("/games", data={**NEW_GAME, "target": "1000"}).headers["Location"].rsplit("/", 1)[1]
    client.post(f"/games/{game}/hands", data=FIRST_HAND)  # Us reach 1,585: the game is over
    response = client.post(f"/games/{game}/hands/preview", data=FIRST_HAND, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert "This game is over: no more hands can be added." in text(response)


# --- The next game: rematch and recent names ---------------------------------------------------

# Seats go clockwise one player from each side in turn: Ann (0), Bea (1), Cleo (2), Dot (3); Ann deals hand 1.
# With 1,000 to win, FIRST_HAND ends the game (Us 1,585, Them 440), so the next deal is seat 1: Bea.


def finished_game(client) -> str:
    """A modern game to 1,000 that FIRST_HAND has won for Us: its id."""
    game = client.post("/games", data={**NEW_GAME, "target": "1000"}).headers["Location"].rsplit("/", 1)[1]
    assert client.post(f"/games/{game}/hands", data=FIRST_HAND).status_code == 303
    return game


def games_stored(app) -> int:
    from scorepad.models import GameRecord, db

    with app.app_context():
        return db.session.scalar(db.select(db.func.count()).select_from(GameRecord))


def test_a_rematch_starts_the_same_table_with_the_next_dealer(client):
    game = finished_game(client)
    finished = client.get(f"/api/games/{game}").get_json()
    assert finished["status"] == "finished" and finished["next_dealer"] == 1  # Ann dealt hand 1: Bea is next
    response = client.post(f"/games/{game}/rematch")
    assert response.status_code == 303
    assert re.fullmatch(r"/games/[\w-]+", response.headers["Location"])
    rematch = response.headers["Location"].rsplit("/", 1)[1]
    assert rematch != game
    new = client.get(f"/api/games/{rematch}").get_json()
    assert (
        new["sides"]
        == finished["sides"]
        == [{"name": "Us", "players": ["Ann", "Cleo"]}, {"name": "Them", "players": ["Bea", "Dot"]}]
    )
    # The rules in full: the target of 1,000, the perfect cut and seven pairs at 2,500 as the form gave them.
    assert new["rules"] == finished["rules"]
    assert new["rules"]["target"] == 1000 and new["rules"]["special_hands"] == {"pairs": 2500}
    assert new["first_dealer"] == finished["next_dealer"] == 1
    assert new["hands"] == [] and new["status"] == "in_progress" and new["totals"] == [0, 0]
    page = text(client.get(response.headers["Location"]))
    assert "Rematch started: Bea deals first." in page
    assert "Hand 1: Bea deals" in page and "Enter hand 1" in page  # this phone keeps score of the new game


def test_the_scoresheet_of_a_finished_game_offers_a_rematch_to_the_scorekeeper_only(app, client):
    game = finished_game(client)
    page = client.get(f"/games/{game}").get_data(as_text=True)
    assert re.search(rf'<form method="post" action="/games/{game}/rematch"', page)
    assert "Bea deals first" in text(client.get(f"/games/{game}"))
    assert "Rematch" not in text(app.test_client().get(f"/games/{game}"))


def test_a_game_in_progress_offers_no_rematch(client, game):
    assert "Rematch" not in text(client.get(f"/games/{game}"))


def test_the_home_page_offers_a_rematch_beside_each_finished_game(client, game):
    finished = finished_game(client)
    page = client.get("/").get_data(as_text=True)
    assert page.count('/rematch"') == 1 and f'action="/games/{finished}/rematch"' in page
    response = client.post(f"/games/{finished}/rematch")
    assert response.status_code == 303


def test_a_rematch_of_a_game_not_yet_won_is_refused(app, client, game):
    client.post(f"/games/{game}/hands", data=FIRST_HAND)  # 1,585 against 440: far from 8,500
    before = games_stored(app)
    response = client.post(f"/games/{game}/rematch")
    assert response.status_code == 409
    assert "This game isn't over yet" in text(response)
    assert games_stored(app) == before


def test_a_rematch_from_a_phone_without_edit_rights_is_refused(app, client):
    game = finished_game(client)
    before = games_stored(app)
    response = app.test_client().post(f"/games/{game}/rematch")
    assert response.status_code == 403
    assert "Only the scorekeeper's phone can start a rematch" in text(response)
    assert games_stored(app) == before


def test_a_rematch_sent_from_another_site_is_refused(app, client):
    game = finished_game(client)
    before = games_stored(app)
    response = client.post(f"/games/{game}/rematch", headers={"Sec-Fetch-Site": "cross-site"})
    assert response.status_code == 403
    assert games_stored(app) == before


def test_a_rematch_of_an_unknown_game_is_a_page_in_words(client):
    response = client.post("/games/nope/rematch")
    assert response.status_code == 404
    assert "There is no game at this address" in text(response)


def test_a_rematch_of_six_players_keeps_every_seat(client):
    data = {**SIX_CLASSIC, "target": "300", "first_dealer": "5"}
    game = client.post("/games", data=data).headers["Location"].rsplit("/", 1)[1]
    # Classic, three sides: Us go out on one mixed canasta: 300 + 100 + Count 50 = 450, past 300; the others 0.
    client.post(
        f"/games/{game}/hands",
        data={**side_fields(0, mixed_canastas=1, went_out="y", count=50), **side_fields(1), **side_fields(2)},
    )
    assert client.get(f"/api/games/{game}").get_json()["status"] == "finished"
    location = client.post(f"/games/{game}/rematch").headers["Location"]
    new = client.get("/api" + location).get_json()
    assert [side["players"] for side in new["sides"]] == [["Ann", "Cleo"], ["Bea", "Dot"], ["Eve", "Fay"]]
    # Seats: Ann, Bea, Eve, Cleo, Dot, Fay. Fay (seat 5) dealt hand 1, so seat 0, Ann, deals next.
    assert new["first_dealer"] == 0 and new["rules"]["preset"] == "classic" and new["rules"]["target"] == 300
    assert "Rematch started: Ann deals first." in text(client.get(location))


def datalist(page: str, list_id: str) -> list[str]:
    """The options of a <datalist> on the page, in order."""
    match = re.search(rf'<datalist id="{list_id}">(.*?)</datalist>', page, re.S)
    assert match, f"no datalist {list_id}"
    return [html.unescape(value) for value in re.findall(r'<option value="([^"]*)"', match.group(1))]


def test_the_new_game_page_offers_the_names_of_recent_games(client, game):
    client.post("/games", data={**NEW_GAME, "side0_name": "Kings", "player0_0": "Eve", "player0_1": "ann"})
    page = client.get("/games/new").get_data(as_text=True)
    # Newest game first, each name once: Kings (Eve, ann) v Them (Bea, Dot), then Us (Ann, Cleo) v Them.
    assert datalist(page, "recent-players") == ["Eve", "ann", "Bea", "Dot", "Cleo"]
    assert datalist(page, "recent-sides") == ["Kings", "Them", "Us"]
    assert re.search(r'id="player0_0" name="player0_0" type="text"[^>]* list="recent-players"', page)
    assert re.search(r'id="player2_1" name="player2_1" type="text"[^>]* list="recent-players"', page)
    assert re.search(r'id="side1_name" name="side1_name" type="text"[^>]* list="recent-sides"', page)


def test_a_phone_with_no_games_offers_no_names(client):
    page = client.get("/games/new").get_data(as_text=True)
    assert "<datalist" not in page and ' list="' not in page


def test_the_names_offered_stop_at_thirty(client):
    for n in range(9):  # 9 games of 4 new players each: 36 names
        names = {f"player{i}_{j}": f"P{n}-{i}{j}" for i in range(2) for j in range(2)}
        client.post("/games", data={**NEW_GAME, **names})
    players = datalist(client.get("/games/new").get_data(as_text=True), "recent-players")
    assert len(players) == 30 and players[:4] == ["P8-00", "P8-01", "P8-10", "P8-11"]


# --- Hand entry: problems where they are, digits only, the paper way -------------------------------


def test_a_problem_between_sides_is_marked_on_each_sides_field(client, game):
    # Red 3s 3 + 2 = 5, but two decks hold only 4 red 3s.
    data = hand_form(
        {"red_threes": 3, "natural_canastas": 2, "count": 100}, {"red_threes": 2, "natural_canastas": 2, "count": 100}
    )
    page = client.post(f"/games/{game}/hands", data=data).get_data(as_text=True)
    message = "The sides account for 5 red 3s; the pack has only 4."
    for side in (0, 1):
        assert re.search(rf'id="s{side}-red_threes-error"[^>]*>{re.escape(message)}<', page)
    assert "preview-problem" in page and message in page  # and beside Save


def test_a_letter_in_a_number_is_refused_at_its_own_field(client, game):
    data = hand_form({"natural_canastas": "2e", "count": 100}, {"count_mode": "grid", "melded_jokers": "e"})
    response = client.post(f"/games/{game}/hands", data=data)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert re.search(r'id="s0-natural_canastas-error"[^>]*>Enter a whole number', page)
    assert re.search(r'id="s1-melded_jokers-error"[^>]*>Enter a whole number', page)
    assert re.search(r'id="s0-count-error"[^>]*></p>', page)  # the Count is not blamed


def test_a_side_can_report_its_base_as_one_figure(client, game):
    # Us report 1,300 base and 385 count: 1,685. Them: mixed 300 + 140 = 440.
    data = hand_form({"reported_base": 1300, "count": 385}, {"mixed_canastas": 1, "count": 140})
    assert client.post(f"/games/{game}/hands", data=data).status_code == 303
    page = client.get(f"/games/{game}").get_data(as_text=True)
    row = page[page.index('id="hand-1"') : page.index("</tr>", page.index('id="hand-1"'))]
    assert re.findall(r'class="(?:base|count|hand-total|cumulative)">([^<]+)<', row) == [
        "1,300",
        "385",
        "1,685",
        "1,685",
        "300",
        "140",
        "440",
        "440",
    ]
    assert row.count('class="reported"') == 1
    document = client.get(f"/api/games/{game}").get_json()
    assert document["hands"][0]["sides"][0]["reported_base"] == 1300


def test_a_reported_base_can_be_negative_and_sets_the_entries_aside(client, game):
    # Us report −300 with a Count of −40 (the red 3s typed before stay set aside): −340.
    data = hand_form(
        {"reported_base": 300, "reported_base_sign": "-", "red_threes": 2, "count": 40, "count_sign": "-"},
        {"natural_canastas": 2, "went_out": "y", "count": 200},
    )
    assert client.post(f"/games/{game}/hands", data=data).status_code == 303
    # Them: two naturals 1,000 + going out 100 + 200 = 1,300.
    assert re.findall(r'class="cumulative">([^<]+)<', client.get(f"/games/{game}").get_data(as_text=True)) == [
        "\u2212340",
        "1,300",
    ]


def test_a_reported_base_that_is_not_in_fives_is_refused_beside_it(client, game):
    data = hand_form({"reported_base": 1302, "count": 385}, {"count": 0})
    page = client.post(f"/games/{game}/hands", data=data).get_data(as_text=True)
    assert re.search(r'id="s0-reported_base-error"[^>]*>Base as reported: it must be a multiple of 5\.', page)
    assert '<details class="more" open>' in page  # the field at fault is never out of sight


def test_rematch_tapped_twice_starts_one_game(app, client):
    game = finished_game(client)
    before = games_stored(app)
    first = client.post(f"/games/{game}/rematch")
    second = client.post(f"/games/{game}/rematch")
    assert first.status_code == second.status_code == 303
    assert first.headers["Location"] == second.headers["Location"]
    assert games_stored(app) == before + 1


# --- Found in review of the merged trust work (issue #15) ------------------------------------------


def test_a_second_scorekeeping_phone_asking_for_a_rematch_joins_the_one_started(app, client):
    game = finished_game(client)
    first = client.post(f"/games/{game}/rematch").headers["Location"]
    other = same_device(app, client)  # another phone with the scorekeeper's rights, which never saw the rematch start
    second = other.post(f"/games/{game}/rematch")
    assert second.status_code == 303 and second.headers["Location"] == first  # one table, one next game
    assert "The rematch had started already on another phone" in text(other.get(first))
    assert games_stored(app) == 2


def _deleting_before_the_change(app, monkeypatch, game: str) -> None:
    """Delete the game (as another phone does) after the view has read it and just before its change holds it."""
    from scorepad import store
    from scorepad.models import GameRecord, GameRight, HandRecord, IdempotentRequest, db

    writing = store._writing  # where a change holds the game: its first write (or the lock, for a correction)

    def delete_then_hold(stored, *args, **kwargs):
        with db.engine.begin() as connection:
            for table, column in (
                (GameRight, GameRight.game_id),
                (IdempotentRequest, IdempotentRequest.game_id),
                (HandRecord, HandRecord.game_id),
                (GameRecord, GameRecord.id),
            ):
                connection.execute(db.delete(table).where(column == game))
        return writing(stored, *args, **kwargs)

    monkeypatch.setattr(store, "_writing", delete_then_hold)


@pytest.mark.parametrize("door", ["save", "keyed save", "delete hand", "sync"])
def test_a_change_to_a_game_deleted_meanwhile_is_a_404_in_words(app, client, game, monkeypatch, door):
    client.post(f"/games/{game}/hands", data=FIRST_HAND)
    version = re.search(r'data-version="(\d+)"', client.get(f"/games/{game}").get_data(as_text=True)).group(1)
    _deleting_before_the_change(app, monkeypatch, game)
    if door == "save":
        response = client.post(f"/games/{game}/hands", data=SECOND_HAND)
    elif door == "keyed save":
        response = client.post(f"/games/{game}/hands", data=SECOND_HAND, headers={"Idempotency-Key": "k"})
    elif door == "delete hand":
        response = client.post(f"/games/{game}/hands/1/delete")
    else:
        body = {"hand": {"sides": [{"mixed_canastas": 1, "count": 100}, {"count": -50}]}, "base_version": int(version)}
        response = client.post(
            f"/sync/games/{game}/hands", json={**body, "position": 1}, headers={"Idempotency-Key": "k"}
        )
    assert response.status_code == 404
    assert "it was deleted, here or on another phone" in response.get_data(as_text=True)


# --- One tap per thing said; the preview says when the hand ends the game (issue 17) -------------------------


def test_a_count_is_one_choice_in_a_row_and_a_rarer_number_is_typed_beside_it(client, game):
    page = client.get(f"/games/{game}/hands/new").get_data(as_text=True)
    # Red 3s: 0 to 4 in one row (two decks hold four), the number box beside them, the row posting s0-red_threes_pick.
    assert re.findall(r'name="s0-red_threes_pick" value="(\d)"', page) == ["0", "1", "2", "3", "4"]
    assert 'id="s0-red_threes" name="s0-red_threes" type="text"' in page
    # The choice and an empty box: the choice. A number typed in the box: that number, whatever the row says.
    chosen = {
        **FIRST_HAND,
        "s0-natural_canastas_pick": "2",
        "s0-natural_canastas": "",
        "s1-natural_canastas_pick": "0",
        "s1-natural_canastas": "5",
    }
    body = client.post(f"/games/{game}/hands/preview", data=chosen, headers={"HX-Request": "true"})
    # Us: 3s 300 (three canastas) + 2 natural 1,000 + mixed 300 + out 100 = 1,700; + 385 = 2,085.
    # Them: 5 natural 2,500 + mixed 300, no 3s; + 140 = 2,940.
    assert re.findall(r'class="cumulative">([^<]+)<', body.get_data(as_text=True)) == ["2,085", "2,940"]


def test_special_canastas_and_hands_are_shown_one_tap_each(client, game):
    page = client.get(f"/games/{game}/hands/new").get_data(as_text=True)
    more = page.index('class="more"')
    for name in ('name="s0-sevens_canasta"', 'name="s0-aces_canasta"', 'name="s0-wild_canasta" value="deuces"'):
        assert page.index(name) < more, f"{name} is under More"
    assert 'type="radio" name="s0-special_hand" value="pairs"' in page
    assert '<select id="s0-special_hand"' not in page and '<select id="s0-wild_canasta"' not in page


def test_the_preview_says_when_the_hand_ends_the_game_and_who_wins(client):
    game = client.post("/games", data={**NEW_GAME, "target": "1000"}).headers["Location"].rsplit("/", 1)[1]
    body = client.post(f"/games/{game}/hands/preview", data=FIRST_HAND, headers={"HX-Request": "true"})
    # Us 1,585 (worked out above FIRST_HAND) reach 1,000; Them 440.
    assert "This hand ends the game: Us win 1,585 to 440." in text(body)
    short = {**FIRST_HAND, "s0-count": "-385"}  # Us 1,200 − 385 = 815: short of 1,000, and Them 440
    body = client.post(f"/games/{game}/hands/preview", data=short, headers={"HX-Request": "true"})
    assert "ends the game" not in text(body)
