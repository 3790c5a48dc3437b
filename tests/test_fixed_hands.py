"""Games of a fixed number of hands (docs/rules.md §1, the table rules `hands_per_game` and
`minimum_counts_by_hand`): club nights play three hands with Minimum Counts of 125, 155 and 180.

Every figure was worked out by hand from docs/rules.md (modern values: natural canasta 500, mixed 300,
sevens and pure aces canasta 2,500 each, going out 100; a side with no canasta scores only its Count);
the sum is beside each case.

THREE_HANDS (no side reaches 8,500; Us win on the higher total):
  hand 1  Us: natural 1, mixed 1, out, count 200 → 500 + 300 + 100 + 200 = 1,100   cumulative 1,100
          Them: natural 1, count 100             → 500 + 100             =   600   cumulative   600
  hand 2  Us: mixed 1, count 50                  → 300 + 50              =   350   cumulative 1,450
          Them: natural 2, out, count 150        → 1,000 + 100 + 150     = 1,250   cumulative 1,850
  hand 3  Us: natural 2, out, count 300          → 1,000 + 100 + 300     = 1,400   cumulative 2,850
          Them: count −100                       →                         −100   cumulative 1,750
  The game ends after hand 3: Us win 2,850 to 1,750, by 1,100.
  Minimum Counts: hand 1 125, hand 2 155, hand 3 180 (by the bands every one would be 125: both stay
  under 3,000); after the last hand the last one, 180.

EARLY (Us reach 8,500 in hand 2 of 3):
  hand 1  Us: natural 4, mixed 2, out, count 600 → 2,000 + 600 + 100 + 600 = 3,300
          Them: count −300                                                  = −300
  hand 2  Us: sevens, pure aces, natural 1, out, count 300 → 2,500 + 2,500 + 500 + 100 + 300 = 5,900;
          3,300 + 5,900 = 9,200 ≥ 8,500
          Them: natural 1, count 100 → 600; −300 + 600 = 300
  The game ends after hand 2: Us win 9,200 to 300.

LEVEL (the leaders tied after the last hand):
  hand 1  Us: natural 1, mixed 1, out, count 200 → 1,100;  Them: natural 2, count 100 → 1,100
  hand 2  both count 0 → 0 and 0
  hand 3  Us: mixed 1, count 50 → 350;  Them: mixed 1, count 50 → 350
  1,450 each: no hand is left to play on, so the tie rule "play another hand" can't be played: they share.
  With "the side that went out wins", hand 3 instead: Us natural 1, mixed 1, out, count 0 → 900;
  Them natural 1, mixed 1, count 100 → 900: 2,000 each, Us went out in the last hand and win.
"""

from __future__ import annotations

import copy
import html
import io
import re

import pytest

from scorepad.rules import (
    Hand,
    RuleError,
    Side,
    SideEntry,
    Table,
    make_rules,
    rules_from_json,
    rules_json,
    score_game,
)
from tests.conftest import game_document

from .test_games import NEW_GAME, hand_form, text

E = SideEntry
FOUR = Table(sides=(Side("Us", ("Ann", "Cleo")), Side("Them", ("Bea", "Dot"))))
CLUB = {"hands_per_game": 3, "minimum_counts_by_hand": [125, 155, 180]}

THREE_HANDS = [
    (
        {"natural_canastas": 1, "mixed_canastas": 1, "went_out": True, "count": 200},
        {"natural_canastas": 1, "count": 100},
    ),
    ({"mixed_canastas": 1, "count": 50}, {"natural_canastas": 2, "went_out": True, "count": 150}),
    ({"natural_canastas": 2, "went_out": True, "count": 300}, {"count": -100}),
]
EARLY = [
    ({"natural_canastas": 4, "mixed_canastas": 2, "went_out": True, "count": 600}, {"count": -300}),
    (
        {"sevens_canasta": True, "aces_canasta": True, "natural_canastas": 1, "went_out": True, "count": 300},
        {"natural_canastas": 1, "count": 100},
    ),
]
LEVEL = [
    (
        {"natural_canastas": 1, "mixed_canastas": 1, "went_out": True, "count": 200},
        {"natural_canastas": 2, "count": 100},
    ),
    ({"count": 0}, {"count": 0}),
    ({"mixed_canastas": 1, "count": 50}, {"mixed_canastas": 1, "count": 50}),
]
LEVEL_WENT_OUT = LEVEL[:2] + [
    (
        {"natural_canastas": 1, "mixed_canastas": 1, "went_out": True},
        {"natural_canastas": 1, "mixed_canastas": 1, "count": 100},
    )
]


def hands_of(pairs) -> list[Hand]:
    return [Hand(sides=(E(**us), E(**them))) for us, them in pairs]


def bodies(pairs) -> list[dict]:
    return [{"sides": [dict(us), dict(them)]} for us, them in pairs]


def refusal(**house) -> list[tuple[tuple, str]]:
    with pytest.raises(RuleError) as caught:
        make_rules("modern", **house)
    return [(p.path, p.message) for p in caught.value.problems]


# --- The rules -----------------------------------------------------------------------------------


def test_three_hands_end_the_game_and_the_higher_total_wins():
    score = score_game(make_rules("modern", **CLUB), FOUR, hands_of(THREE_HANDS))
    assert [[s.cumulative for s in h.sides] for h in score.hands] == [[1100, 600], [1450, 1850], [2850, 1750]]
    assert score.finished and score.winners == (0,) and score.margin == 1100
    assert score.ended_after == 2


def test_the_game_goes_on_until_the_last_hand():
    score = score_game(make_rules("modern", **CLUB), FOUR, hands_of(THREE_HANDS[:2]))
    assert not score.finished and score.winners == ()  # Them lead 1,850 to 1,450, one hand to go


def test_each_hand_s_minimum_count_is_the_list_s_for_every_side():
    score = score_game(make_rules("modern", **CLUB), FOUR, hands_of([]))
    assert score.min_count == (125, 125)  # hand 1
    score = score_game(make_rules("modern", **CLUB), FOUR, hands_of(THREE_HANDS))
    assert [[s.min_count_next for s in h.sides] for h in score.hands] == [[155, 155], [180, 180], [180, 180]]
    assert score.min_count == (180, 180)  # after the last value, the last one
    # The bands, without the list: both sides stay under 3,000, so 125 throughout.
    banded = score_game(make_rules("modern", hands_per_game=3), FOUR, hands_of(THREE_HANDS))
    assert [[s.min_count_next for s in h.sides] for h in banded.hands] == [[125, 125]] * 3


def test_the_list_stands_for_the_bands_in_a_game_played_to_the_target():
    # No number of hands: the game goes on after hand 3, its Minimum Count the list's last, 180.
    score = score_game(make_rules("modern", minimum_counts_by_hand=[50, 90]), FOUR, hands_of(THREE_HANDS))
    assert not score.finished
    assert [[s.min_count_next for s in h.sides] for h in score.hands] == [[90, 90]] * 3


def test_a_side_that_reaches_the_target_in_hand_2_ends_the_game_then():
    score = score_game(make_rules("modern", **CLUB), FOUR, hands_of(EARLY))
    assert score.totals == (9200, 300) and score.finished and score.winners == (0,) and score.ended_after == 1


def test_no_hand_follows_the_last_one():
    hands = hands_of(THREE_HANDS + [THREE_HANDS[0]])
    with pytest.raises(RuleError) as caught:
        score_game(make_rules("modern", **CLUB), FOUR, hands)
    assert [(p.path, p.message) for p in caught.value.problems] == [
        (("hands", 3), "This game is 3 hands: it ended after hand 3, so no hand can follow it.")
    ]


def test_leaders_tied_after_the_last_hand_share_the_win_where_the_table_would_play_on():
    score = score_game(make_rules("modern", **CLUB), FOUR, hands_of(LEVEL))
    assert score.totals == (1450, 1450) and score.finished and score.winners == (0, 1) and score.winner is None


def test_leaders_tied_after_the_last_hand_the_side_that_went_out_wins_where_the_table_says_so():
    score = score_game(make_rules("modern", tie="went_out", **CLUB), FOUR, hands_of(LEVEL_WENT_OUT))
    assert score.totals == (2000, 2000) and score.finished and score.winners == (0,)
    # Nobody of the leaders went out in the last hand (LEVEL): nothing is left to play, they share.
    score = score_game(make_rules("modern", tie="went_out", **CLUB), FOUR, hands_of(LEVEL))
    assert score.winners == (0, 1)


def test_the_rules_keep_both_and_an_older_game_reads_as_null():
    game_rules = make_rules("modern", **CLUB)
    assert (game_rules.hands_per_game, game_rules.minimum_counts_by_hand) == (3, (125, 155, 180))
    kept = rules_json(game_rules)
    assert kept["hands_per_game"] == 3 and kept["minimum_counts_by_hand"] == [125, 155, 180]
    assert rules_from_json(kept) == game_rules
    older = {key: value for key, value in kept.items() if key not in CLUB}
    assert (rules_from_json(older).hands_per_game, rules_from_json(older).minimum_counts_by_hand) == (None, None)
    assert rules_json(make_rules("modern"))["hands_per_game"] is None  # null: play to the target


@pytest.mark.parametrize(
    "house, expected",
    [
        (
            {"hands_per_game": 0},
            [
                (
                    ("rules", "hands_per_game"),
                    "Number of hands: a game of 1 to 200 hands, like 3 (or none: play to the target).",
                )
            ],
        ),
        (
            {"hands_per_game": "3"},
            [
                (
                    ("rules", "hands_per_game"),
                    "Number of hands: a game of 1 to 200 hands, like 3 (or none: play to the target).",
                )
            ],
        ),
        (
            {"hands_per_game": 3, "minimum_counts_by_hand": [125, 155, 180, 200]},
            [
                (
                    ("rules", "minimum_counts_by_hand"),
                    "Minimum Counts by hand: 4 Minimum Counts for a game of 3 hands. "
                    "Give one for each hand, at most 3.",
                )
            ],
        ),
        (
            {"minimum_counts_by_hand": [125, 157]},
            [(("rules", "minimum_counts_by_hand", 1), "The Minimum Count of hand 2: points are a multiple of 5.")],
        ),
        (
            {"minimum_counts_by_hand": [-5, 155]},
            [(("rules", "minimum_counts_by_hand", 0), "The Minimum Count of hand 1: can't be negative.")],
        ),
        (
            {"minimum_counts_by_hand": []},
            [
                (
                    ("rules", "minimum_counts_by_hand"),
                    "Minimum Counts by hand: list each hand's Minimum Count, like 125, 155, 180 "
                    "(or none: by the bands).",
                )
            ],
        ),
    ],
)
def test_a_number_of_hands_or_a_minimum_count_that_makes_no_sense_is_refused_in_words(house, expected):
    assert refusal(**house) == expected


def test_fewer_minimum_counts_than_hands_is_fine_the_last_stands_for_the_rest():
    game_rules = make_rules("classic", hands_per_game=4, minimum_counts_by_hand=[50, 90])
    score = score_game(game_rules, FOUR, [])
    assert score.min_count == (50, 50)


# --- The API ----------------------------------------------------------------------------------------


def create(client, **rules) -> tuple[str, dict]:
    response = client.post("/api/games", json=game_document(**rules))
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    return body["id"], {"Authorization": f"Bearer {body['edit_token']}"}


def test_the_api_plays_three_hands_and_refuses_a_fourth_with_409(client):
    game_id, headers = create(client, **CLUB)
    doc = client.get(f"/api/games/{game_id}").get_json()
    assert doc["rules"]["hands_per_game"] == 3 and doc["rules"]["minimum_counts_by_hand"] == [125, 155, 180]
    assert doc["min_count"] == [125, 125]
    for body in bodies(THREE_HANDS):
        response = client.post(f"/api/games/{game_id}/hands", json=body, headers=headers)
        assert response.status_code == 201
    doc = response.get_json()
    assert [[s["result"]["cumulative"] for s in h["sides"]] for h in doc["hands"]] == [
        [1100, 600],
        [1450, 1850],
        [2850, 1750],
    ]
    assert [h["sides"][0]["result"]["min_count_next"] for h in doc["hands"]] == [155, 180, 180]
    assert (doc["status"], doc["winner"], doc["winners"], doc["totals"]) == ("finished", 0, [0], [2850, 1750])
    fourth = client.post(f"/api/games/{game_id}/hands", json=bodies(THREE_HANDS)[0], headers=headers)
    assert fourth.status_code == 409
    assert fourth.get_json() == {"errors": [{"field": "", "message": "This game is over: no more hands can be added."}]}
    assert len(client.get(f"/api/games/{game_id}").get_json()["hands"]) == 3


def test_the_api_ends_the_game_at_the_target_before_the_last_hand(client):
    game_id, headers = create(client, **CLUB)
    for body in bodies(EARLY):
        doc = client.post(f"/api/games/{game_id}/hands", json=body, headers=headers).get_json()
    assert (doc["status"], doc["winner"], doc["totals"]) == ("finished", 0, [9200, 300])
    third = client.post(f"/api/games/{game_id}/hands", json=bodies(THREE_HANDS)[2], headers=headers)
    assert third.status_code == 409


def test_the_api_says_a_tie_after_the_last_hand_is_shared(client):
    game_id, headers = create(client, hands=bodies(LEVEL), **CLUB)
    doc = client.get(f"/api/games/{game_id}").get_json()
    assert (doc["status"], doc["winner"], doc["winners"], doc["totals"]) == ("finished", None, [0, 1], [1450, 1450])


def test_deleting_the_last_hand_reopens_the_game(client):
    game_id, headers = create(client, hands=bodies(THREE_HANDS), **CLUB)
    response = client.delete(f"/api/games/{game_id}/hands/2", headers=headers)
    assert response.status_code == 200, response.get_json()
    doc = response.get_json()
    assert doc["status"] == "in_progress" and doc["min_count"] == [180, 180]


def test_a_document_with_a_hand_past_the_last_is_refused_naming_it(client):
    response = client.post("/api/games", json=game_document(hands=bodies(THREE_HANDS + THREE_HANDS[:1]), **CLUB))
    assert response.status_code == 422
    assert response.get_json()["errors"] == [
        {"field": "hands.3", "message": "This game is 3 hands: it ended after hand 3, so no hand can follow it."}
    ]


def test_the_api_refuses_a_minimum_count_list_longer_than_the_game(client):
    response = client.post("/api/games", json=game_document(hands_per_game=2, minimum_counts_by_hand=[125, 155, 180]))
    assert response.status_code == 422
    assert response.get_json()["errors"] == [
        {
            "field": "rules.minimum_counts_by_hand",
            "message": "Minimum Counts by hand: 3 Minimum Counts for a game of 2 hands. "
            "Give one for each hand, at most 2.",
        }
    ]


def test_export_and_restore_keep_both_rules(app, client):
    game_id, _ = create(client, hands=bodies(THREE_HANDS[:1]), **CLUB)
    exported = client.get(f"/api/games/{game_id}").get_json()
    again = client.post("/api/games", json=copy.deepcopy(exported)).get_json()
    assert again["rules"] == exported["rules"] and again["min_count"] == [155, 155]
    # A game file restored on another phone through the page keeps them too.
    phone = app.test_client()
    file = client.get(f"/games/{game_id}/export.json").get_data()
    restored = phone.post(
        "/games/import", data={"document": (io.BytesIO(file), "game.json")}, content_type="multipart/form-data"
    )
    assert restored.status_code == 303
    page = text(phone.get(restored.headers["Location"]))
    assert "Hand 2 of 3:" in page


def test_an_older_document_without_them_plays_to_the_target(client):
    game_id, _ = create(client)
    rules = client.get(f"/api/games/{game_id}").get_json()["rules"]
    assert rules["hands_per_game"] is None and rules["minimum_counts_by_hand"] is None


# --- The new-game page and the scoresheet ---------------------------------------------------------------

CLUB_FORM = {**NEW_GAME, "rules_from": "modern", "hands_per_game": "3", "minimum_counts_by_hand": "125 / 155 / 180"}


def form_hand(us: dict, them: dict) -> dict:
    def fields(entry: dict) -> dict:
        data = {k: ("y" if v is True else str(abs(v) if k == "count" else v)) for k, v in entry.items()}
        if entry.get("count", 0) < 0:
            data["count_sign"] = "-"
        return data

    return hand_form(fields(us), fields(them))


def minimum_counts(page: str) -> list[str]:
    return re.findall(r"Minimum Count (\d+)", page)


def test_the_new_game_page_offers_the_number_of_hands_and_the_minimum_counts_by_hand(client):
    page = client.get("/games/new").get_data(as_text=True)
    assert "Number of hands: play to the target" in page
    assert 'name="hands_per_game"' in page and 'name="minimum_counts_by_hand"' in page
    assert 'placeholder="125 / 155 / 180"' in page


def test_a_game_of_three_hands_started_on_the_page_plays_to_its_end(client):
    response = client.post("/games", data=CLUB_FORM)
    assert response.status_code == 303, text(response)
    game = response.headers["Location"].rsplit("/", 1)[1]
    rules = client.get(f"/api/games/{game}").get_json()["rules"]
    assert (rules["hands_per_game"], rules["minimum_counts_by_hand"]) == (3, [125, 155, 180])
    page = text(client.get(f"/games/{game}"))
    assert "Hand 1 of 3:" in page and "3 hands, or to 8,500" in page and minimum_counts(page) == ["125", "125"]
    expected = [("Hand 2 of 3:", ["155", "155"]), ("Hand 3 of 3:", ["180", "180"])]
    for (us, them), (heading, counts) in zip(THREE_HANDS[:2], expected, strict=True):
        assert client.post(f"/games/{game}/hands", data=form_hand(us, them)).status_code == 303
        page = text(client.get(f"/games/{game}"))
        assert heading in page and minimum_counts(page) == counts
    form = text(client.get(f"/games/{game}/hands/new"))  # the hand form says hand 3's, the list's too
    assert "Minimum Count Us 180 , Them 180" in form
    assert client.post(f"/games/{game}/hands", data=form_hand(*THREE_HANDS[2])).status_code == 303
    page = text(client.get(f"/games/{game}"))
    assert "Us won by 1,100 points after 3 of 3 hands." in page
    assert "Enter hand" not in page and "of 3:" not in page
    # A fourth hand from the form is refused in words: the game is over, nothing is stored.
    fourth = client.post(f"/games/{game}/hands", data=form_hand(*THREE_HANDS[0]))
    assert fourth.status_code == 303
    assert "This game is over: no more hands can be added." in text(client.get(fourth.headers["Location"]))
    assert len(client.get(f"/api/games/{game}").get_json()["hands"]) == 3


@pytest.mark.parametrize(
    "entries, field, message",
    [
        (
            {"minimum_counts_by_hand": "125 / lots"},
            "minimum_counts_by_hand",
            "Type each hand's Minimum Count with / between them, like 125 / 155 / 180.",
        ),
        (
            {"minimum_counts_by_hand": "125 / 157"},
            "minimum_counts_by_hand",
            "The Minimum Count of hand 2: points are a multiple of 5.",
        ),
        (
            {"hands_per_game": "2"},
            "minimum_counts_by_hand",
            "Minimum Counts by hand: 3 Minimum Counts for a game of 2 hands. Give one for each hand, at most 2.",
        ),
        (
            {"hands_per_game": "0"},
            "hands_per_game",
            "Number of hands: a game of 1 to 200 hands, like 3 (or none: play to the target).",
        ),
    ],
)
def test_a_wrong_number_of_hands_or_minimum_count_is_refused_beside_its_field(client, entries, field, message):
    response = client.post("/games", data={**CLUB_FORM, **entries})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    slot = re.search(rf'id="{field}-error"[^>]*>([^<]*)<', page)
    assert slot and html.unescape(slot.group(1)) == message
    typed = {**CLUB_FORM, **entries}["minimum_counts_by_hand"]
    assert f'value="{typed}"' in page  # what was typed is still there


def test_rules_saved_with_three_hands_start_the_next_game_with_them(client):
    saved = client.post("/games", data={**CLUB_FORM, "action": "save_rules", "rule_set_name": "Club night"})
    assert saved.status_code == 303  # the page again, from the set just saved
    page = client.get(saved.headers["Location"]).get_data(as_text=True)
    assert "Rules saved as \u201cClub night\u201d" in page
    assert re.search(r'name="hands_per_game"[^>]*value="3"', page)
    assert 'value="125 / 155 / 180"' in page and "Number of hands: 3 hands" in page
    # A preset chosen instead starts from its own rules again: played to the target, by the bands.
    page = client.get("/games/new?preset=modern").get_data(as_text=True)
    assert "Number of hands: play to the target" in page and 'value="125 / 155 / 180"' not in page
