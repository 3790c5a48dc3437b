"""Rules saved on a phone under a name: saved from the new-game page, chosen there next time, renamed,
deleted, downloaded and loaded again (scorepad/rulesets.py, docs/rules.md §7)."""

from __future__ import annotations

import io
import json
import re
from html.parser import HTMLParser

import pytest

from scorepad import rulesets
from scorepad.models import db

from .test_games import NEW_GAME, text

# A CLA table's own rules, changed in every group of the page.
TUESDAY = {
    **NEW_GAME,
    "preset": "cla",
    "rules_from": "cla",
    "target": "10000",
    "tie": "went_out",
    "band0_minimum": "120",
    "band1_from": "2500",
    "band1_minimum": "150",
    "band2_from": "5000",
    "band2_minimum": "180",
    "band3_from": "7500",
    "band3_minimum": "200",
    "three_1": "150",
    "all_eight_threes": "2500",
    "value_natural_canasta": "600",
    "value_wild_canasta_deuces": "3500",
    "count_without_canasta": "melded_minus_hand",
    "value_going_out": "150",
    "value_going_out_concealed": "300",
    "canastas_to_go_out": "3",
    "value_dirty_aces": "1000",
    "value_three_in_hand": "100",
    "perfect_cut": "",  # off
    "wipeout": "y",
    "hand_pairs": "y",
    "hand_pairs_points": "3000",
    "hand_triples": "y",
    "hand_triples_points": "4000",
    "rule_set_name": "Tuesday club",
    "action": "save_rules",
}


class FormReader(HTMLParser):
    """What a browser sends for the new-game form as the page shows it: every field's name and value."""

    def __init__(self):
        super().__init__()
        self.data: dict[str, str] = {}
        self.select: str | None = None
        self.first_option: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "input" and a.get("name") and a.get("type") != "file":
            if a.get("type") in ("checkbox", "radio"):
                if "checked" in a:
                    self.data[a["name"]] = a.get("value", "on")
            else:
                self.data[a["name"]] = a.get("value") or ""
        elif tag == "select":
            self.select, self.first_option = a.get("name"), None
        elif tag == "option" and self.select:
            if self.first_option is None:
                self.first_option = a.get("value", "")
                self.data.setdefault(self.select, self.first_option)
            if "selected" in a:
                self.data[self.select] = a.get("value", "")

    def handle_endtag(self, tag):
        if tag == "select":
            self.select = None


def sent_by(page: str) -> dict[str, str]:
    """The form data the page's form sends as it stands."""
    reader = FormReader()
    reader.feed(page)
    return reader.data


def swapped(page: str, fragment: str) -> str:
    """The page after htmx swaps in a game_rules fragment: its table rules, and the preset's radios sent out of band."""
    rules_part = re.search(r'<fieldset class="card" id="game_rules">.*?</fieldset>', fragment, re.S).group(0)
    page = re.sub(r'<fieldset class="card" id="game_rules">.*?</fieldset>', lambda _: rules_part, page, flags=re.S)
    presets = re.search(r'<div class="choices" id="preset_choices".*?</div>', fragment, re.S)
    if presets:
        page = re.sub(
            r'<div class="choices" id="preset_choices".*?</div>', lambda _: presets.group(0), page, flags=re.S
        )
    return page


def saved_sets(client) -> list[dict]:
    """The rules file of the client's phone: its sets."""
    return json.loads(client.get("/rules/export.json").get_data())["rule_sets"]


@pytest.fixture
def tuesday(client):
    """Tuesday club's rules saved on this phone: the redirect's address (the new-game page starting from them)."""
    response = client.post("/games", data=TUESDAY)
    assert response.status_code == 303, text(response)
    return response.headers["Location"]


# --- Saving on the new-game page ------------------------------------------------------------------


def test_saving_the_rules_shows_the_page_again_starting_from_them(client, tuesday):
    assert tuesday.startswith("/games/new?") and "rule_set=" in tuesday and "player1_1=Dot" in tuesday
    page = client.get(tuesday)
    body = page.get_data(as_text=True)
    assert "Rules saved as \u201cTuesday club\u201d: choose them here next time." in text(page)
    assert re.search(r'<option value="\d+" selected>Tuesday club \(CLA\)</option>', body)
    form = sent_by(body)
    assert form["preset"] == "cla" and form["value_natural_canasta"] == "600" and form["band3_from"] == "7500"
    assert form["count_without_canasta"] == "melded_minus_hand" and form["player1_1"] == "Dot"
    assert "perfect_cut" not in form and form["wipeout"] == "y"


def test_a_saved_set_keeps_complete_rules(client, tuesday):
    (saved,) = saved_sets(client)
    assert saved["name"] == "Tuesday club"
    assert saved["rules"]["values"]["natural_canasta"] == 600
    assert saved["rules"]["values"]["mixed_canasta"] == 300  # untouched: cla's
    assert saved["rules"]["special_hands"] == {"pairs": 3000, "triples": 4000}
    assert saved["rules"]["minimum_counts"][3] == {"from": 7500, "minimum": 200}
    assert set(saved["rules"]) == set(rulesets.rules.RULE_KEYS)


def test_a_game_started_from_a_saved_set_plays_every_value_of_it(app, client, tuesday):
    (saved,) = saved_sets(client)
    set_id = re.search(r"rule_set=(\d+)", tuesday).group(1)
    # Next time, on a page opened afresh: the saved set chosen beside the presets (as htmx asks for it).
    fresh = client.get("/games/new").get_data(as_text=True)
    chosen = client.get(
        "/games/new",
        query_string={**sent_by(fresh), "rule_set": set_id},
        headers={"HX-Request": "true", "HX-Target": "game_rules", "HX-Trigger-Name": "rule_set"},
    )
    fragment = chosen.get_data(as_text=True)
    assert chosen.headers["Vary"].count("HX-Trigger-Name") == 1
    # The preset's radios come along out of band: CLA is chosen with the set.
    assert re.search(r'id="preset_choices"[^>]*hx-swap-oob="true"', fragment)
    assert re.search(r'value="cla" checked', fragment)
    names = {key: value for key, value in NEW_GAME.items() if key.startswith(("player", "side"))}
    form = {**sent_by(swapped(fresh, fragment)), **names, "rule_set": set_id}  # the select keeps its choice
    response = client.post("/games", data=form)
    assert response.status_code == 303, text(response)
    game_id = response.headers["Location"].rsplit("/", 1)[1]
    assert client.get(f"/api/games/{game_id}").get_json()["rules"] == saved["rules"]


def test_a_classic_set_keeps_its_red_threes(client):
    data = {
        **NEW_GAME,
        "preset": "classic",
        "rules_from": "classic",
        "red_each": "150",
        "red_all_four": "1000",
        "value_failed_pile_take": "100",
        "rule_set_name": "Grandma's",
        "action": "save_rules",
    }
    page = client.get(client.post("/games", data=data).headers["Location"]).get_data(as_text=True)
    (saved,) = saved_sets(client)
    assert saved["rules"]["red_threes"] == {"each": 150, "all_four": 1000, "five": 1000, "six": 1200}
    game_id = client.post("/games", data=sent_by(page)).headers["Location"].rsplit("/", 1)[1]
    assert client.get(f"/api/games/{game_id}").get_json()["rules"] == saved["rules"]


def test_a_preset_chosen_after_a_saved_set_starts_from_the_preset(client, tuesday):
    page = client.get(tuesday).get_data(as_text=True)
    response = client.get(
        "/games/new",
        query_string={**sent_by(page), "preset": "modern"},
        headers={"HX-Request": "true", "HX-Target": "game_rules", "HX-Trigger-Name": "preset"},
    )
    fragment = response.get_data(as_text=True)
    form = sent_by(fragment)
    assert form["value_natural_canasta"] == "500" and form["set_from"] == "" and form["rules_from"] == "modern"
    # The saved-set choice comes along out of band, back at none.
    assert re.search(r'id="saved_rules"[^>]*hx-swap-oob="true"', fragment)
    assert re.search(r"<option value=\"\" selected>None: the preset", fragment)


def test_without_javascript_a_set_chosen_is_shown_before_the_game_starts(client, tuesday):
    fresh = sent_by(client.get("/games/new").get_data(as_text=True))
    set_id = re.search(r"rule_set=(\d+)", tuesday).group(1)
    response = client.post("/games", data={**fresh, "rule_set": set_id})  # chosen, not yet shown
    assert response.status_code == 200
    assert "The table rules are now \u201cTuesday club\u201d: check them, then start the game." in text(response)
    assert sent_by(response.get_data(as_text=True))["value_natural_canasta"] == "600"
    # Or with the button beside the choice ("Use these saved rules"): the same form, sent by GET.
    page = client.get("/games/new", query_string={**fresh, "rule_set": set_id, "action": "rule_set"})
    assert sent_by(page.get_data(as_text=True))["value_natural_canasta"] == "600"


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("   ", "Give the rules a name, like Tuesday club."),
        ("x" * 41, "A name of at most 40 letters, please: this one has 41."),
    ],
)
def test_a_set_needs_a_name_of_1_to_40_letters(client, name, message):
    response = client.post("/games", data={**TUESDAY, "rule_set_name": name})
    assert response.status_code == 422
    assert message in text(response)
    assert sent_by(response.get_data(as_text=True))["value_natural_canasta"] == "600"  # nothing typed is lost
    assert saved_sets(client) == []


def test_an_absurd_value_is_not_saved(client):
    response = client.post("/games", data={**TUESDAY, "value_natural_canasta": "602"})
    assert response.status_code == 422
    assert "Natural canasta: points are a multiple of 5." in text(response)
    assert saved_sets(client) == []


def test_the_same_name_again_asks_before_replacing(client, tuesday):
    again = {**TUESDAY, "rule_set_name": "tuesday  CLUB", "value_natural_canasta": "700"}
    asked = client.post("/games", data=again)
    assert asked.status_code == 200
    assert "This phone already has rules called \u201cTuesday club\u201d" in text(asked)
    assert "Replace them with these?" in text(asked)
    assert saved_sets(client)[0]["rules"]["values"]["natural_canasta"] == 600  # not yet
    form = sent_by(asked.get_data(as_text=True))
    assert form["replace_name"] == "Tuesday club" and form["value_natural_canasta"] == "700"
    replaced = client.post("/games", data={**form, "action": "replace_rules"})
    assert replaced.status_code == 303
    assert "The rules saved as \u201ctuesday CLUB\u201d are replaced by these." in text(client.get(replaced.location))
    (saved,) = saved_sets(client)
    assert saved["name"] == "tuesday CLUB" and saved["rules"]["values"]["natural_canasta"] == 700


def test_a_confirmation_for_another_name_replaces_nothing(client, tuesday):
    client.post("/games", data={**TUESDAY, "rule_set_name": "Fridays"})
    response = client.post(
        "/games",
        data={**TUESDAY, "rule_set_name": "Fridays", "action": "replace_rules", "replace_name": "Tuesday club"},
    )
    assert "This phone already has rules called \u201cFridays\u201d" in text(response)  # asked about Fridays first


# --- The phone's page of saved rules ------------------------------------------------------------------


def test_the_rules_page_lists_the_sets_and_starts_a_game_from_one(client, tuesday):
    page = text(client.get("/rules"))
    assert "Tuesday club" in page and "CLA: 10,000 to win, Minimum Count 120 / 150 / 180 / 200." in page
    assert "Start a game with these rules" in page


def test_a_set_is_renamed(client, tuesday):
    set_id = re.search(r"rule_set=(\d+)", tuesday).group(1)
    response = client.post(f"/rules/{set_id}/rename", data={"name": "  Thursday   club "})
    assert response.status_code == 303 and response.location == "/rules"
    assert "\u201cTuesday club\u201d is now called \u201cThursday club\u201d." in text(client.get("/rules"))
    assert [s["name"] for s in saved_sets(client)] == ["Thursday club"]


def test_a_set_is_not_renamed_to_another_set_s_name(client, tuesday):
    client.post("/games", data={**TUESDAY, "rule_set_name": "Fridays"})
    set_id = re.search(r"rule_set=(\d+)", tuesday).group(1)
    response = client.post(f"/rules/{set_id}/rename", data={"name": "FRIDAYS"})
    assert response.status_code == 422
    assert "This phone already has rules called \u201cFridays\u201d: choose another name" in text(response)
    assert 'value="FRIDAYS"' in response.get_data(as_text=True)  # as typed
    assert sorted(s["name"] for s in saved_sets(client)) == ["Fridays", "Tuesday club"]


def test_a_set_is_deleted_after_asking(client, tuesday):
    set_id = re.search(r"rule_set=(\d+)", tuesday).group(1)
    assert "Delete \u201cTuesday club\u201d?" in text(client.get(f"/rules/{set_id}/delete"))
    response = client.post(f"/rules/{set_id}/delete")
    assert response.status_code == 303
    assert "\u201cTuesday club\u201d deleted." in text(client.get("/rules"))
    assert saved_sets(client) == []
    assert "Tuesday club (CLA)" not in client.get("/games/new").get_data(as_text=True)


def test_a_game_started_from_a_deleted_set_keeps_its_rules(client, tuesday):
    page = client.get(tuesday).get_data(as_text=True)
    game_id = client.post("/games", data=sent_by(page)).headers["Location"].rsplit("/", 1)[1]
    set_id = re.search(r"rule_set=(\d+)", tuesday).group(1)
    client.post(f"/rules/{set_id}/delete")
    assert client.get(f"/api/games/{game_id}").get_json()["rules"]["values"]["natural_canasta"] == 600


def test_another_phone_s_sets_are_not_this_phone_s(app, client, tuesday):
    set_id = re.search(r"rule_set=(\d+)", tuesday).group(1)
    other = app.test_client()
    assert other.post(f"/rules/{set_id}/rename", data={"name": "Mine"}).status_code == 404
    assert other.post(f"/rules/{set_id}/delete").status_code == 404
    page = other.get("/games/new", query_string={"rule_set": set_id}).get_data(as_text=True)
    assert sent_by(page)["value_natural_canasta"] == "500"  # modern's: not another phone's set
    assert saved_sets(other) == []


# --- Export and import ------------------------------------------------------------------------------


def test_the_rules_file_moves_the_sets_to_another_phone(app, client, tuesday):
    client.post("/games", data={**TUESDAY, "preset": "modern", "rules_from": "modern", "rule_set_name": "Fridays"})
    exported = client.get("/rules/export.json")
    assert exported.headers["Content-Disposition"] == 'attachment; filename="scorepad-rules.json"'
    other = app.test_client()
    response = other.post(
        "/rules/import", data={"rules_file": (io.BytesIO(exported.get_data()), "scorepad-rules.json")}
    )
    assert response.status_code == 303
    assert "2 sets of rules loaded." in text(other.get("/rules"))
    assert saved_sets(other) == saved_sets(client)


def test_export_and_import_json_round_trip(app, client, tuesday):
    with app.app_context():
        (device,) = {ruleset.device_hash for ruleset in db.session.scalars(db.select(rulesets.RuleSet))}
        exported = rulesets.export_json(device)
        assert rulesets.import_json("another phone", exported) == []
        assert rulesets.export_json("another phone") == exported
        assert rulesets.import_json("another phone", exported) == []  # the same name again: replaced, not doubled
        assert len(rulesets.saved("another phone")) == 1


def test_a_bad_set_is_named_and_the_good_ones_are_imported(app):
    good = {"name": "Good", "rules": rulesets.rules.rules_json(rulesets.rules.PRESETS["wca"].rules)}
    sets = [
        {"name": "Bad", "rules": {"preset": "modern", "values": {"natural_canasta": -5}}},
        good,
        {
            "name": "Bands",
            "rules": {
                "preset": "modern",
                "minimum_counts": [{"from": None, "minimum": 50}]
                + [{"from": 1000 * n, "minimum": 50 + 10 * n} for n in range(1, 6)],
            },
        },
        {"name": "x" * 41, "rules": {"preset": "modern"}},
        {"rules": {"preset": "modern"}},
        {"name": "Who", "rules": {"preset": "bridge"}},
    ]
    with app.app_context():
        problems = rulesets.import_json("a phone", sets)
        assert problems == [
            "\u201cBad\u201d: Natural canasta: can't be negative.",
            "\u201cBands\u201d: Minimum Counts: the new-game page takes at most 5 bands, these rules have 6.",
            f"\u201c{'x' * 41}\u201d: A name of at most 40 letters, please: this one has 41.",
            'Set 5: give each set a name and its rules, like {"name": "Tuesday club", "rules": ...}.',
            "\u201cWho\u201d: Unknown preset 'bridge': choose modern, cla, wca or classic.",
        ]
        assert rulesets.export_json("a phone") == [good]
        assert rulesets.import_json("a phone", {"name": "Good"}) == [
            'The saved rules are a list of sets, each {"name": ..., "rules": {...}}.'
        ]


def test_a_bad_rules_file_is_refused_in_words(client):
    bad = {
        "format": "scorepad-rules",
        "version": 1,
        "rule_sets": [{"name": "Bad", "rules": {"preset": "modern", "target": 0}}],
    }
    response = client.post("/rules/import", data={"rules_file": (io.BytesIO(json.dumps(bad).encode()), "rules.json")})
    assert response.status_code == 422
    page = text(response)
    assert "Nothing was loaded." in page and "\u201cBad\u201d: The target: at least 5." in page
    game_file = {"format": "scorepad-game", "version": 1}
    response = client.post(
        "/rules/import", data={"rules_file": (io.BytesIO(json.dumps(game_file).encode()), "game.json")}
    )
    assert "This is a game file: restore it on the home page." in text(response)
    response = client.post("/rules/import", data={})
    assert response.status_code == 422 and "Choose a Scorepad rules file (.json) to load." in text(response)


def test_saved_rules_travel_with_the_file_of_every_game(app, client, tuesday):
    exported = client.get("/history/export.json").get_data()
    assert [s["name"] for s in json.loads(exported)["rule_sets"]] == ["Tuesday club"]
    phone = app.test_client()
    response = phone.post(
        "/games/import",
        data={"document": (io.BytesIO(exported), "games.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 303
    assert "1 saved rule set restored." in phone.get("/history").get_data(as_text=True)
    assert saved_sets(phone) == saved_sets(client)


def test_a_bad_rule_set_in_the_file_of_every_game_is_named(app, client):
    body = {"format": "scorepad-games", "version": 1, "games": [], "rule_sets": [{"name": "Odd", "rules": {}}]}
    response = client.post(
        "/games/import",
        data={"document": (io.BytesIO(json.dumps(body).encode()), "games.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "Some saved rules in the file could not be kept:" in page and "Odd" in page


def test_a_set_name_loses_control_and_bidi_characters(app, client, tuesday):
    with app.app_context():
        (device,) = {ruleset.device_hash for ruleset in db.session.scalars(db.select(rulesets.RuleSet))}
        (saved,) = rulesets.export_json(device)
        assert rulesets.import_json("a phone", [{**saved, "name": "Tues\u202eday\x00\tclub"}]) == []
        assert [ruleset.name for ruleset in rulesets.saved("a phone")] == ["Tuesday club"]
