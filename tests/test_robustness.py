"""Whatever JSON arrives, the API and the restore page answer in words, never with a 500.

Property tests (hypothesis) throw arbitrary JSON at document parsing and hand parsing
through the Flask test client: whole bodies, and valid documents or hands with one
key, at any depth, replaced by an arbitrary value. docs/api.md allows only these
answers: 201/200 for a good body, 400 for a body that is not a game document this
version reads, 409 for a hand after the end, 422 naming the field for everything else.

The two base games, worked out by hand from docs/rules.md (table FOUR_PLAYERS, hand 0):
  MODERN_HAND
    side 0: red 1, natural 2, out, grid melded 14 × 8–K + 2 aces + 1 joker, in hand one 4–7
            two canastas so 3s added: +100; canastas 2 × 500; out 100 → base 1200
            Count: 140 + 40 + 50 − 5 = 225 → total 1425
    side 1: black 1, mixed 1, count 50
            exactly one canasta so 3s are 0; mixed 300 → base 300; total 350
  CLASSIC_HAND
    side 0: red 1, natural 1, out concealed, count 100
            melded, so the red 3 is +100; natural 500; concealed 200 → base 800; total 900
    side 1: melded, one red 3 in hand, one failed "may I go out?", one failed pile take, count 30
            −500 − 100 − 50 → base −650; total −620
"""

from __future__ import annotations

import copy
import io
import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import game_document

# --- The shape of a game document (docs/api.md), written out from the spec -------------------------------

SIDE_NUMBERS = (
    "red_threes",
    "black_threes",
    "natural_canastas",
    "mixed_canastas",
    "dirty_sevens",
    "dirty_aces",
    "threes_in_hand",
    "red_threes_in_hand",
    "failed_go_out_asks",
    "failed_pile_takes",
    "count",
)
SIDE_SWITCHES = (
    "sevens_canasta",
    "aces_canasta",
    "incomplete_sevens",
    "incomplete_aces",
    "incomplete_wild",
    "last_draw_three",
    "went_out",
    "concealed",
    "perfect_cut",
    "has_melded",
)
SIDE_NAMES = ("wild_canasta", "special_hand")
SIDE_FIELDS = SIDE_NUMBERS + SIDE_SWITCHES + SIDE_NAMES + ("cards",)
CARD_KINDS = ("jokers", "deuces", "aces", "high", "low", "black_threes")
RULE_KEYS = ("preset", "target", "wipeout", "perfect_cut", "special_hands")
DOCUMENT_KEYS = ("format", "version", "rules", "sides", "first_dealer", "hands")

MODERN_HAND = {
    "sides": [
        {
            "red_threes": 1,
            "natural_canastas": 2,
            "went_out": True,
            "cards": {"melded": {"high": 14, "aces": 2, "jokers": 1}, "in_hand": {"low": 1}},
        },
        {"black_threes": 1, "mixed_canastas": 1, "count": 50},
    ]
}
CLASSIC_HAND = {
    "sides": [
        {"red_threes": 1, "natural_canastas": 1, "went_out": True, "concealed": True, "count": 100},
        {"has_melded": True, "red_threes_in_hand": 1, "failed_go_out_asks": 1, "failed_pile_takes": 1, "count": 30},
    ]
}
MODERN_GAME = game_document(
    "modern",
    hands=[MODERN_HAND],
    special_hands={"pairs": 2500, "zip_code": 2500},
    target=8500,
    wipeout=False,
    perfect_cut=True,
)
CLASSIC_GAME = game_document("classic", hands=[CLASSIC_HAND], target=5000)


def _side_paths(prefix: tuple) -> list[tuple]:
    """Every field a side's entry may hold (docs/api.md), and the counting grid's cells."""
    paths = [prefix + (field,) for field in SIDE_FIELDS]
    paths += [prefix + ("cards", where) for where in ("melded", "in_hand")]
    paths += [prefix + ("cards", where, kind) for where in ("melded", "in_hand") for kind in CARD_KINDS]
    return paths


def _holds_parent(doc, path: tuple) -> bool:
    """Whether the part of `doc` that holds `path` is there (a counting grid's cells need a grid)."""
    for key in path[:-1]:
        if not isinstance(doc, (dict, list)) or (isinstance(doc, dict) and key not in doc):
            return False
        doc = doc[key]
    return isinstance(doc, (dict, list))


def _document_paths(doc: dict) -> list[tuple]:
    """Keys at every depth of a game document (docs/api.md), present in `doc` or addable to it."""
    paths = [(key,) for key in DOCUMENT_KEYS]
    paths += [("rules", key) for key in RULE_KEYS] + [("rules", "special_hands", "pairs")]
    paths += [("sides", 0), ("sides", 0, "name"), ("sides", 1, "players"), ("sides", 1, "players", 0)]
    paths += [("hands", 0), ("hands", 0, "sides"), ("hands", 0, "sides", 0), ("hands", 0, "sides", 1)]
    for side in (0, 1):
        paths += _side_paths(("hands", 0, "sides", side))
    return [path for path in paths if _holds_parent(doc, path)]


DOCUMENT_PATHS = [(doc, path) for doc in (MODERN_GAME, CLASSIC_GAME) for path in _document_paths(doc)]
HAND_PATHS = [
    path
    for path in [("sides",), ("sides", 0), ("sides", 1)] + _side_paths(("sides", 0)) + _side_paths(("sides", 1))
    if _holds_parent(MODERN_HAND, path)
]


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_text(value) -> bool:
    return isinstance(value, str)


def _is_switch(value) -> bool:
    return isinstance(value, bool)


def _is_object(value) -> bool:
    return isinstance(value, dict)


def _is_list(value) -> bool:
    return isinstance(value, list)


def _or_null(kind):
    return lambda value: value is None or kind(value)


def expected_kind(path: tuple):
    """The kind of value docs/api.md asks for at `path` (null where the field may be left out)."""
    *_, last = path
    if path[0] == "rules" or (len(path) > 1 and path[-2] == "special_hands"):
        return {
            "rules": _is_object,
            "preset": _is_text,
            "target": _or_null(_is_int),
            "wipeout": _or_null(_is_switch),
            "perfect_cut": _or_null(_is_switch),
            "special_hands": _or_null(_is_object),
        }.get(last, _is_int)  # a special hand's points
    if path[0] == "sides" and path[-1] != "sides":
        return {"name": _or_null(_is_text), "players": _is_list}.get(last, _is_text if len(path) == 4 else _is_object)
    if path == ("first_dealer",):
        return _or_null(_is_int)
    if path == ("hands",):
        return _or_null(_is_list)
    if last == "sides":
        return _is_list
    if isinstance(last, int):
        return _is_object  # a hand, or one side's entry
    if last in SIDE_NUMBERS or last in CARD_KINDS:
        return _or_null(_is_int)
    if last in SIDE_SWITCHES:
        return _or_null(_is_switch)
    if last in SIDE_NAMES:
        return _or_null(_is_text)
    return _or_null(_is_object)  # cards, melded, in_hand


def replaced(doc: dict, path: tuple, value) -> dict:
    """A copy of `doc` with the value at `path` replaced (or added) by `value`."""
    doc = copy.deepcopy(doc)
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    return doc


def dotted(path: tuple) -> str:
    return ".".join(str(part) for part in path)


def related(field: str, path: tuple) -> bool:
    """Whether an error's field names `path`, a field inside it, or the part of the body holding it."""
    where = dotted(path)
    return field == where or field.startswith(where + ".") or where.startswith(field + ".")


# --- Arbitrary JSON -----------------------------------------------------------------------------

# Words the reader knows, so that arbitrary bodies also reach the checks behind the first key.
KNOWN_WORDS = (
    DOCUMENT_KEYS
    + RULE_KEYS
    + SIDE_FIELDS
    + CARD_KINDS
    + (
        "name",
        "players",
        "melded",
        "in_hand",
        "result",
        "dealer",
        "scorepad-game",
        "modern",
        "cla",
        "wca",
        "classic",
        "deuces",
        "jokers",
        "mixed",
        "pairs",
        "straight",
        "zip_code",
    )
)
any_text = st.one_of(
    st.text(max_size=12),
    st.text(st.characters(exclude_categories=()), max_size=4),  # lone surrogates included
    st.sampled_from(KNOWN_WORDS + ("", " ", "\ud800", "0", "1")),
)
any_number = st.one_of(
    st.integers(min_value=-10, max_value=10),
    st.integers(),
    st.sampled_from([5, 50, 125, 2500, 8500, 100_000, 100_005, 10**12, -(10**12), 10**40, -(10**40)]),
    st.floats(),  # NaN and ±Infinity included: Python writes them, JSON does not have them
)
json_leaves = st.one_of(st.none(), st.booleans(), any_number, any_text)
json_values = st.recursive(
    json_leaves,
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(any_text | st.sampled_from(KNOWN_WORDS), children, max_size=5)
    ),
    max_leaves=12,
)
side_entries = st.dictionaries(st.sampled_from(SIDE_FIELDS + ("result", "bogus")), json_values, max_size=6)
hand_bodies = st.one_of(json_values, st.fixed_dictionaries({"sides": st.lists(side_entries | json_values, max_size=3)}))
game_bodies = st.fixed_dictionaries(
    {"format": st.just("scorepad-game"), "version": st.just(1)},
    optional={
        "rules": json_values
        | st.fixed_dictionaries({"preset": json_values}, optional=dict.fromkeys(RULE_KEYS[1:], json_values)),
        "sides": st.lists(
            st.fixed_dictionaries({}, optional={"name": json_values, "players": json_values}) | json_values, max_size=3
        )
        | json_values,
        "first_dealer": json_values,
        "hands": st.lists(hand_bodies, max_size=2) | json_values,
    },
)


def as_json(value) -> str:
    """The body as a client would send it (Python's json writes NaN and Infinity, and escapes surrogates)."""
    return json.dumps(value)


def post_json(client, url: str, value, **kwargs):
    return client.post(url, data=as_json(value), content_type="application/json", **kwargs)


def assert_answer(response, allowed: set[int]) -> None:
    """The status is one docs/api.md allows; an error answers {"errors": [{field, message}]} in words."""
    assert response.status_code in allowed, (response.status_code, response.get_data(as_text=True)[:500])
    if response.status_code < 400:
        return
    body = response.get_json()
    assert isinstance(body, dict) and isinstance(body.get("errors"), list) and body["errors"], body
    for error in body["errors"]:
        assert isinstance(error.get("field"), str) and isinstance(error.get("message"), str), error
        assert error["message"].strip(), error
        for jargon in ("Traceback", "TypeError", "unhashable", "NoneType", "object has no attribute", "<class"):
            assert jargon not in error["message"], error
        if response.status_code == 422:
            # A refused document or hand always names the field; only a key that is itself "" has the name "".
            assert error["field"] or error["message"] == "Unknown field ''.", error


def error_fields(response) -> list[str]:
    return [error["field"] for error in response.get_json()["errors"]]


def restore(app, raw: bytes):
    """Restore a game file on the home page, from a fresh phone (its own session)."""
    return app.test_client().post(
        "/games/import", data={"document": (io.BytesIO(raw), "game.json")}, content_type="multipart/form-data"
    )


ROBUST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


# --- The issue: a preset that is not a name ------------------------------------------------------


@pytest.mark.parametrize("preset", [[], {}, ["modern"], {"name": "modern"}, None, True, 5])
def test_a_preset_that_is_not_a_name_is_refused_with_422_naming_rules_preset(client, preset):
    doc = game_document()
    doc["rules"] = {"preset": preset}
    response = client.post("/api/games", json=doc)
    assert response.status_code == 422
    assert response.get_json()["errors"] == [
        {"field": "rules.preset", "message": "The preset is a name: modern, cla, wca or classic."}
    ]


@pytest.mark.parametrize("preset", [[], {}])
def test_restoring_a_file_whose_preset_is_not_a_name_is_refused_in_words(app, preset):
    doc = game_document()
    doc["rules"] = {"preset": preset}
    response = restore(app, as_json(doc).encode())
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "rules.preset: The preset is a name: modern, cla, wca or classic." in page


# --- Other wrong types and absurd values, one by one -------------------------------------------------


@pytest.mark.parametrize(
    "path, value, field",
    [
        (("rules", "target"), 100_005, "rules.target"),  # over 100,000 points is absurd
        (("rules", "target"), 10**40, "rules.target"),
        (("rules", "target"), 8500.0, "rules.target"),
        (("rules", "special_hands"), ["pairs"], "rules.special_hands"),
        (("rules", "special_hands", "pairs"), 100_005, "rules.special_hands.pairs"),
        (("rules", "wipeout"), 1, "rules.wipeout"),
        (("sides", 0, "name"), 7, "sides.0.name"),
        (("sides", 1, "players", 1), None, "sides.1.players.1"),
        (("sides", 1, "players"), "Bea and Dot", "sides.1.players"),
        (("first_dealer",), "Ann", "first_dealer"),
        (("first_dealer",), True, "first_dealer"),
        (("hands",), {"0": MODERN_HAND}, "hands"),
        (("hands", 0), [MODERN_HAND["sides"]], "hands.0"),
        (("hands", 0, "sides", 1, "count"), "50", "hands.0.sides.1.count"),
        (("hands", 0, "sides", 1, "count"), 10**40, "hands.0.sides.1.count"),
        (("hands", 0, "sides", 0, "went_out"), 1, "hands.0.sides.0.went_out"),
        (("hands", 0, "sides", 0, "wild_canasta"), ["deuces"], "hands.0.sides.0.wild_canasta"),
        (("hands", 0, "sides", 0, "cards", "melded"), [14, 2, 1], "hands.0.sides.0.cards.melded"),
        (("hands", 0, "sides", 0, "cards", "melded", "high"), 14.0, "hands.0.sides.0.cards.melded.high"),
    ],
)
def test_a_wrong_type_or_absurd_value_is_refused_with_422_naming_it(client, app, path, value, field):
    response = client.post("/api/games", json=replaced(MODERN_GAME, path, value))
    assert_answer(response, {422})
    assert field in error_fields(response)


def test_numbers_of_thousands_of_digits_in_every_side_are_refused_not_added_up(client):
    # 4,300 nines is the longest number Python reads from JSON; two of them added have 4,301 digits.
    huge = int("9" * 4300)
    hand = {"sides": [{"red_threes": huge, "cards": {"melded": {"high": huge}}}, {"red_threes": huge}]}
    response = client.post("/api/games", json=game_document(hands=[hand]))
    assert_answer(response, {422})
    assert {"hands.0.sides.0.red_threes", "hands.0.sides.0.cards.melded.high", "hands.0.sides.1.red_threes"} <= set(
        error_fields(response)
    )


@pytest.mark.parametrize("version", [True, 1.0, "1", None, [1]])
def test_only_the_number_1_is_version_1(client, version):
    doc = game_document()
    doc["version"] = version
    assert_answer(client.post("/api/games", json=doc), {400})


@pytest.mark.parametrize(
    "body",
    [
        '{"format": "scorepad-game", "version": 1, "rules": {"preset": "modern", "target": NaN}}',
        "Infinity",
        "[-Infinity]",
    ],
)
def test_nan_and_infinity_are_not_json(client, body):
    assert_answer(client.post("/api/games", data=body, content_type="application/json"), {400})


def test_text_holding_half_a_character_is_refused_with_400(client, app):
    doc = replaced(MODERN_GAME, ("sides", 0, "name"), "Us \ud800")
    assert_answer(post_json(client, "/api/games", doc), {400})
    assert restore(app, as_json(doc).encode()).status_code == 422


@pytest.mark.parametrize("game", [MODERN_GAME, CLASSIC_GAME], ids=["modern", "classic"])
def test_the_base_games_of_the_property_tests_are_valid(client, game):
    response = client.post("/api/games", json=game)
    assert response.status_code == 201, response.get_json()
    expected = {"modern": [1425, 350], "classic": [900, -620]}[game["rules"]["preset"]]
    assert response.get_json()["totals"] == expected


# --- Properties: never a 500 -------------------------------------------------------------------------


@ROBUST
@given(body=json_values)
def test_any_json_as_a_game_document_is_refused_in_words(client, body):
    assert_answer(post_json(client, "/api/games", body), {400, 422})


@ROBUST
@given(body=game_bodies)
def test_any_document_shaped_json_is_stored_or_refused_in_words(client, body):
    assert_answer(post_json(client, "/api/games", body), {201, 400, 422})


@ROBUST
@given(where=st.sampled_from(DOCUMENT_PATHS), value=json_values)
def test_a_document_with_any_one_value_replaced_is_stored_or_refused_naming_it(client, where, value):
    doc, path = where
    response = post_json(client, "/api/games", replaced(doc, path, value))
    assert_answer(response, {201, 400, 422})
    if path in (("format",), ("version",)):
        return
    if not expected_kind(path)(value):
        assert response.status_code in (400, 422), (path, value)
        if response.status_code == 422:
            fields = error_fields(response)
            assert any(related(field, path) for field in fields), (path, value, fields)


def new_game_with_a_hand(client) -> tuple[str, dict]:
    """A new modern game with MODERN_HAND as hand 0: (id, auth headers)."""
    response = client.post("/api/games", json=MODERN_GAME)
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    return body["id"], {"Authorization": f"Bearer {body['edit_token']}"}


@pytest.fixture
def game_with_a_hand(client):
    """One game for every example: hands that are accepted pile up, and it may end (409)."""
    return new_game_with_a_hand(client)


@ROBUST
@given(body=hand_bodies)
def test_any_json_as_a_new_hand_is_added_or_refused_in_words(client, game_with_a_hand, body):
    game_id, headers = game_with_a_hand
    assert_answer(post_json(client, f"/api/games/{game_id}/hands", body, headers=headers), {201, 400, 409, 422})


@ROBUST
@given(body=hand_bodies)
def test_any_json_replacing_a_hand_is_stored_or_refused_in_words(client, game_with_a_hand, body):
    game_id, headers = game_with_a_hand
    assert_answer(
        client.put(
            f"/api/games/{game_id}/hands/0", data=as_json(body), content_type="application/json", headers=headers
        ),
        {200, 400, 409, 422},
    )


@ROBUST
@given(path=st.sampled_from(HAND_PATHS), value=json_values, replace_hand=st.booleans())
def test_a_hand_with_any_one_value_replaced_is_stored_or_refused_naming_it(client, path, value, replace_hand):
    game_id, headers = new_game_with_a_hand(client)  # a new game each time: 1,425 a hand would soon end one
    body = replaced(MODERN_HAND, path, value)
    if replace_hand:
        response = client.put(
            f"/api/games/{game_id}/hands/0", data=as_json(body), content_type="application/json", headers=headers
        )
    else:
        response = post_json(client, f"/api/games/{game_id}/hands", body, headers=headers)
    assert_answer(response, {200, 201, 400, 422})
    if not expected_kind(("hands", 0) + path)(value):
        assert response.status_code in (400, 422), (path, value)
        if response.status_code == 422:
            fields = error_fields(response)
            assert any(related(field, path) for field in fields), (path, value, fields)


@ROBUST
@given(body=st.one_of(json_values, game_bodies))
def test_any_json_restored_on_the_home_page_is_restored_or_refused_in_words(app, body):
    response = restore(app, as_json(body).encode())
    assert response.status_code in (303, 422), response.status_code
    if response.status_code == 422:
        assert "Choose a Scorepad game file" not in response.get_data(as_text=True)


@ROBUST
@given(where=st.sampled_from(DOCUMENT_PATHS), value=json_values)
def test_any_game_file_with_one_value_replaced_is_restored_or_refused_in_words(app, where, value):
    doc, path = where
    response = restore(app, as_json(replaced(doc, path, value)).encode())
    assert response.status_code in (303, 422), response.status_code


@ROBUST
@given(raw=st.binary(max_size=200))
def test_any_bytes_restored_on_the_home_page_are_refused_in_words(app, raw):
    assert restore(app, raw).status_code == 422


# --- Abuse (issue 15): whatever arrives, an answer in words, never a 500 ----------------------------------


def start_page_game(client) -> str:
    """A game started on the new-game page: its id (this client keeps its edit rights)."""
    sides = {"side0_name": "Us", "side1_name": "Them", "player0_0": "Ann", "player0_1": "Cleo"}
    form = {"preset": "modern", "players": "4", **sides, "player1_0": "Bea", "player1_1": "Dot", "first_dealer": "0"}
    response = client.post("/games", data=form)
    assert response.status_code == 303, response.get_data(as_text=True)[:500]
    return response.headers["Location"].rsplit("/", 1)[1]


def page_words(response) -> str:
    shown = re.sub(r"<script\b.*?</script>", " ", response.get_data(as_text=True), flags=re.S)  # data, not words
    return " ".join(re.sub(r"<[^>]+>", " ", shown).split())


@pytest.mark.parametrize("page", ["9223372036854775807", "1" + "0" * 40, "-9223372036854775809"])
def test_a_history_page_far_past_the_last_shows_the_last_page(client, page):
    game_id = start_page_game(client)
    response = client.get(f"/history?page={page}")
    assert response.status_code == 200
    assert f"/games/{game_id}" in response.get_data(as_text=True)


def nested(depth: int) -> str:
    """JSON arrays nested `depth` deep."""
    return "[" * depth + "]" * depth


def deep_in(document: dict, depth: int) -> str:
    """The document with a value nested `depth` deep under its first hand's first side."""
    raw = as_json(document)
    return raw.replace('"red_threes": 1', '"red_threes": ' + nested(depth), 1)


DEEP_WORDS = "nested too deep"


@pytest.mark.parametrize("depth", [30, 1000, 100_000])
def test_json_nested_too_deep_is_refused_with_400_in_words_at_every_door(client, app, depth):
    assert '"red_threes": 1' in as_json(MODERN_GAME)
    response = client.post("/api/games", data=deep_in(MODERN_GAME, depth), content_type="application/json")
    assert response.status_code == 400 and DEEP_WORDS in response.get_json()["errors"][0]["message"]
    game_id, headers = new_game_with_a_hand(client)
    hand = deep_in(MODERN_HAND, depth)
    for method in (client.post, client.put):
        url = f"/api/games/{game_id}/hands" + ("/0" if method == client.put else "")
        response = method(url, data=hand, content_type="application/json", headers=headers)
        assert response.status_code == 400 and DEEP_WORDS in response.get_json()["errors"][0]["message"]
    # The phone's queue: a game this client keeps, a body too deep.
    kept = start_page_game(client)
    body = '{"hand": ' + hand + ', "base_version": 1, "position": 0}'
    response = client.post(
        f"/sync/games/{kept}/hands", data=body, content_type="application/json", headers={"Idempotency-Key": "k1"}
    )
    assert response.status_code == 400 and DEEP_WORDS in response.get_json()["reason"]
    # Restoring a game, a file of every game, a rules file.
    response = restore(app, deep_in(MODERN_GAME, depth).encode())
    assert response.status_code == 422 and DEEP_WORDS in page_words(response)
    every = '{"format": "scorepad-games", "version": 1, "games": [' + deep_in(MODERN_GAME, depth) + "]}"
    response = restore(app, every.encode())
    assert response.status_code == 422 and DEEP_WORDS in page_words(response)
    rules_file = '{"format": "scorepad-rules", "version": 1, "rule_sets": [{"name": "Deep", "rules": ' + nested(depth)
    rules_file += "}]}"
    response = client.post(
        "/rules/import",
        data={"rules_file": (io.BytesIO(rules_file.encode()), "rules.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 422 and DEEP_WORDS in page_words(response)


def test_json_as_deep_as_a_game_file_is_read(app):
    every = {"format": "scorepad-games", "version": 1, "games": [MODERN_GAME, CLASSIC_GAME], "rule_sets": []}
    assert restore(app, as_json(every).encode()).status_code == 303


@pytest.mark.parametrize("host", ["a" * 64 + ".example", "x." + "b" * 200, "a..b"])
def test_a_host_name_that_cannot_be_one_is_refused_in_words(client, host):
    page = client.get("/", headers={"Host": host})
    assert page.status_code == 400 and page.mimetype == "text/html"
    assert "server name" in page_words(page)
    api = client.get("/api/games/nope", headers={"Host": host})
    assert api.status_code == 400 and "server name" in api.get_json()["errors"][0]["message"]


# --- A restore finishes in a few seconds, or is refused up front (issue 15) --------------------------------------

# Side 0 goes out with a natural and a mixed canasta: 500 + 300 + 100 for going out = 900; side 1 nothing. At
# 100,000 to win, 200 such hands (alternating sides) leave 90,000 each: the game is still going.
OUT_0 = {"sides": [{"natural_canastas": 1, "mixed_canastas": 1, "went_out": True}, {}]}
OUT_1 = {"sides": [{}, {"natural_canastas": 1, "mixed_canastas": 1, "went_out": True}]}


def long_game(hands: int) -> dict:
    return game_document(target=100_000, hands=[OUT_0 if n % 2 == 0 else OUT_1 for n in range(hands)])


def every_game(games: list) -> bytes:
    return as_json({"format": "scorepad-games", "version": 1, "games": games, "rule_sets": []}).encode()


def games_kept(app) -> int:
    from scorepad.models import GameRecord, db

    with app.app_context():
        return db.session.query(GameRecord).count()


def test_a_file_of_more_than_5000_hands_is_refused_up_front_in_words(app):
    # 26 games of 200 hands: 5,200 hands. The games are broken too (a red 3 too many in every hand), and are
    # not even looked at: the file is refused for its size alone.
    broken = long_game(200)
    broken["hands"] = [{"sides": [{"red_threes": 9}, {}]}] * 200
    response = restore(app, every_game([broken] * 26))
    assert response.status_code == 422
    words = page_words(response)
    assert "This file holds 5,200 hands in 26 games" in words
    assert "a file restores at most 5,000 hands" in words
    assert "Red 3s" not in words
    assert games_kept(app) == 0


def test_a_file_of_5000_hands_is_restored_whole(app):
    response = restore(app, every_game([long_game(200)] * 25))
    assert response.status_code == 303
    assert games_kept(app) == 25


def test_a_file_whose_games_cannot_all_be_stored_stores_none(app, monkeypatch):
    from scorepad import rights

    def fail(*args, **kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(rights, "grant_restored", fail)
    with pytest.raises(RuntimeError):
        restore(app, every_game([long_game(3)] * 5))
    assert games_kept(app) == 0


def test_a_rules_file_of_more_sets_than_a_phone_keeps_is_refused_up_front(client):
    sets = [{"name": f"Club {n}", "rules": {"preset": "modern"}} for n in range(101)]
    raw = as_json({"format": "scorepad-rules", "version": 1, "rule_sets": sets}).encode()
    response = client.post(
        "/rules/import", data={"rules_file": (io.BytesIO(raw), "rules.json")}, content_type="multipart/form-data"
    )
    assert response.status_code == 422
    assert "This file holds 101 sets of rules: a phone keeps at most 100" in page_words(response)
    assert "Club 1" not in client.get("/rules").get_data(as_text=True)
