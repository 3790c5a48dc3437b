"""The rules page of a game (/games/<id>/rules): the game's own stored rules, in words and tables.

Figures are the preset values of docs/rules.md (sections 3 and 4), or the house rules the game was made with.
"""

from __future__ import annotations

import re

import pytest

from scorepad.rules import Band
from scorepad.share import minimum_count_rows
from tests.conftest import game_document, shown_text

SIX_PLAYERS = [
    {"name": "North", "players": ["Ann", "Cleo"]},
    {"name": "East", "players": ["Bea", "Dot"]},
    {"name": "West", "players": ["Eve", "Fay"]},
]


def text(response) -> str:
    """The page's text with tags and repeated white space removed."""
    shown = re.sub(r"<script\b.*?</script>", " ", response.get_data(as_text=True), flags=re.S)  # data, not words
    return shown_text(shown)


def section(response, name: str) -> str:
    """The text of one section of the rules page, by its id (no space left before a comma or a full stop)."""
    page = response.get_data(as_text=True)
    found = re.search(rf'<section class="card" id="{name}".*?</section>', page, re.S)
    assert found, f"no section {name!r}"
    words = shown_text(found.group(0))
    return re.sub(r" ([,.;:])", r"\1", words)


def new_game(client, preset: str = "modern", **rules) -> str:
    """A game made through the API: its id."""
    response = client.post("/api/games", json=game_document(preset, **rules))
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"]


@pytest.fixture
def modern(client):
    """The rules page of a modern game with the preset's values."""
    response = client.get(f"/games/{new_game(client)}/rules")
    assert response.status_code == 200
    return response


def test_the_page_is_titled_with_the_sides(modern):
    assert "<title>Rules: Us v Them · Scorepad</title>" in modern.get_data(as_text=True)
    assert "Rules: Us v Them Modern American" in text(modern)


def test_a_modern_game_shows_its_minimum_count_bands(modern):
    bands = section(modern, "minimum-counts")
    assert "below 3,000 (negative too) 125" in bands
    assert "3,000 \u2013 4,995 155" in bands
    assert "5,000 and up 180" in bands
    assert "must add 10 each time" in bands  # opening short in error


def test_a_modern_game_shows_its_end_and_3s(modern):
    assert "one side alone in the lead with 8,500 or more" in section(modern, "end")
    assert "play another hand" in section(modern, "end")
    threes = section(modern, "threes")
    for count, value in ((0, "0"), (1, "100"), (2, "300"), (3, "500"), (4, "1,000")):
        assert f" {count} {value} " in threes
    assert "none taken off exactly one worth 0 two or more added" in threes
    assert "All eight 3s" not in threes  # modern scores them on the schedule
    assert "A 3 still in a player's hand at the end is a card: 5 points in the Count" in threes


def test_a_modern_game_shows_its_canastas_going_out_and_penalties(modern):
    canastas = section(modern, "canastas")
    assert "Natural canasta 500" in canastas and "Mixed canasta 300" in canastas
    assert "Sevens canasta 2,500" in canastas and "Wild canasta of seven 2s 3,000" in canastas
    assert "Count is never above 0" in canastas
    going_out = section(modern, "going-out")
    assert "Going out 100" in going_out and "concealed" not in going_out
    assert "needs two closed canastas" in going_out
    penalties = section(modern, "penalties")
    assert "Unfinished sevens meld" in penalties and "\u22122,500" in penalties
    assert "A player caught with three 7s" in penalties and "\u22121,500" in penalties
    assert "Asked to go out" not in penalties  # classic only
    assert "100 to the cutter's side" in section(modern, "perfect-cut")


def test_a_modern_game_shows_its_special_hands_and_what_they_hold(modern):
    hands = section(modern, "special-hands")
    assert "Seven pairs seven pairs, no wild cards 2,500" in hands
    assert "Straight (A to K plus a joker) one card of every rank from ace to king, plus a joker 3,000" in hands
    assert "Zip code (2-2-3-3-4) two pairs, two three-of-a-kinds and a four-of-a-kind 2,500" in hands
    assert "Miami pairs" not in hands  # cla and wca only
    assert "No wipeout" in hands


@pytest.mark.parametrize(
    ("bands", "rows"),
    [
        ((Band(None, 125),), [("any score", 125)]),
        ((Band(None, 15), Band(0, 50)), [("below 0", 15), ("0 and up", 50)]),
        (
            (Band(None, 10), Band(-500, 20), Band(1000, 30)),
            [("below \u2212500", 10), ("\u2212500 \u2013 995", 20), ("1,000 and up", 30)],
        ),
    ],
)
def test_each_minimum_count_band_says_which_scores_it_covers(bands, rows):
    assert minimum_count_rows(bands) == rows


def test_a_game_with_house_rules_shows_its_own_values_not_the_presets(client):
    game = new_game(
        client,
        minimum_counts=[{"from": None, "minimum": 50}, {"from": 3000, "minimum": 150}],
        values={"natural_canasta": 600},
        tie="shared",
        special_hands={"zip_code": 3000},
    )
    response = client.get(f"/games/{game}/rules")
    assert response.status_code == 200
    assert "Modern American, with this table's own changes" in text(response)
    bands = section(response, "minimum-counts")
    assert "below 3,000 (negative too) 50" in bands and "3,000 and up 150" in bands
    assert "125" not in bands and "155" not in bands and "180" not in bands
    canastas = section(response, "canastas")
    assert "Natural canasta 600" in canastas and "Natural canasta 500" not in canastas
    hands = section(response, "special-hands")
    assert "Zip code (2-2-3-3-4) two pairs, two three-of-a-kinds and a four-of-a-kind 3,000" in hands
    assert "Seven pairs" not in hands and "2,500" not in hands
    end = section(response, "end")
    assert "the tied sides share the win" in end and "play another hand" not in end


def test_a_wca_game_shows_all_eight_3s_and_wipeout(client):
    response = client.get(f"/games/{new_game(client, 'wca')}/rules")
    assert "All eight 3s (four red and four black): 3,000 instead of 2,000" in section(response, "threes")
    assert "Going out 200" in section(response, "going-out")
    assert "Each 3 left in hand" in section(response, "penalties")
    assert "is a card" not in section(response, "threes")
    assert "Wipeout: the other side scores 0" in section(response, "special-hands")


def test_a_classic_game_shows_red_3s_and_no_special_hands(client):
    response = client.get(f"/games/{new_game(client, 'classic')}/rules")
    assert response.status_code == 200
    page = text(response)
    threes = section(response, "threes")
    assert "Each red 3 100" in threes and "All four red 3s 800" in threes
    assert "Five red 3s" not in threes  # two decks
    assert "added if the side melded anything" in threes
    bands = section(response, "minimum-counts")
    assert "below 0 15" in bands and "negative too" not in bands
    assert "0 \u2013 1,495 50" in bands and "1,500 \u2013 2,995 90" in bands and "3,000 and up 120" in bands
    assert "add 10" not in bands
    assert "Going out concealed" in section(response, "going-out") and "200" in section(response, "going-out")
    assert "needs one closed canasta," in section(response, "going-out")
    assert "Each red 3 left in hand" in section(response, "penalties") and "\u2212500" in section(response, "penalties")
    assert "melded minus those left in hand" in section(response, "canastas")
    assert "Sevens canasta" not in page
    assert "Special hands" not in page and "special-hands" not in response.get_data(as_text=True)
    assert "Perfect cut" not in page  # off by default in classic


def test_three_partnerships_show_five_and_six_red_3s(client):
    response = client.get(f"/games/{new_game(client, 'classic', sides=SIX_PLAYERS)}/rules")
    threes = section(response, "threes")
    assert "Five red 3s 1,000" in threes and "Six red 3s 1,200" in threes
    assert "All four" not in threes
    assert "<title>Rules: North v East v West · Scorepad</title>" in response.get_data(as_text=True)


def test_the_scoresheet_and_the_scoreboard_link_to_the_rules(client):
    game = new_game(client)
    link = f'href="/games/{game}/rules"'
    assert link in client.get(f"/games/{game}").get_data(as_text=True)
    assert link in client.get(f"/games/{game}/scoreboard").get_data(as_text=True)


def test_the_rules_of_an_unknown_game_are_a_404(client):
    response = client.get("/games/nope/rules")
    assert response.status_code == 404
    assert "There is no game at this address" in text(response)
