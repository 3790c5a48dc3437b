"""Joining and watching a game: the room code, /join, the QR code, the scoreboard that keeps itself up to date
at the cost of a revision check, and the spreadsheet of a whole game.

The table: Us = Ann & Cleo, Them = Bea & Dot, modern, Ann deals first; seats go Ann, Bea, Cleo, Dot.
"""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
import segno

from scorepad import store
from scorepad.models import db

from .conftest import game_document, statements

# docs/rules.md's example. Us: 2 red 3s 300 + natural 500 + mixed 300 + going out 100 = Base 1,200, Count 385,
# 1,585. Them: one mixed canasta 300, Count 140: 440.
EXAMPLE_HAND = {
    "sides": [
        {"red_threes": 2, "natural_canastas": 1, "mixed_canastas": 1, "went_out": True, "count": 385},
        {"mixed_canastas": 1, "count": 140},
    ]
}
# Us lay down seven pairs (modern: 2,500, Count 0). Them: a natural canasta 500; the counting grid: melded
# 3 aces (60) and 5 cards 8 to K (50), in hand two 4 to 7 (10): with a canasta 110 - 10 = Count 100; 600.
SPECIAL_HAND = {
    "sides": [
        {"special_hand": "pairs"},
        {"natural_canastas": 1, "cards": {"melded": {"aces": 3, "high": 5}, "in_hand": {"low": 2}}},
    ]
}


def new_game(client, **rules) -> tuple[str, dict, dict]:
    """A game made through the API: its id, its document and the scorekeeper's headers."""
    body = client.post("/api/games", json=game_document(**rules)).get_json()
    return body["id"], body, {"Authorization": f"Bearer {body['edit_token']}"}


def add(client, game_id: str, headers: dict, hand: dict) -> dict:
    response = client.post(f"/api/games/{game_id}/hands", json=hand, headers=headers)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


# --- The room code in the game document ----------------------------------------------------------


def test_the_document_gives_the_room_code_and_the_revision(client):
    game_id, created, headers = new_game(client)
    code = created["room_code"]
    assert len(code) == 6 and set(code) <= set("ACDEFHJKMNPQRTUVWXY34679")
    response = client.get(f"/api/games/{game_id}")
    body = response.get_json()
    assert body["room_code"] == code
    assert response.headers["ETag"] == f'"{body["revision"]}"'

    after = add(client, game_id, headers, EXAMPLE_HAND)
    assert after["room_code"] == code and after["revision"] > body["revision"]
    assert client.get(f"/api/games/{game_id}").headers["ETag"] == f'"{after["revision"]}"'


def test_a_room_code_in_an_imported_document_is_not_taken(client):
    game_id, created, _ = new_game(client)
    copy = client.post("/api/games", json={**game_document(), "room_code": created["room_code"]}).get_json()
    assert copy["room_code"] != created["room_code"]


# --- /join ---------------------------------------------------------------------------------------------


def test_the_join_page_asks_for_the_code(client):
    response = client.get("/join")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "Room code" in page and 'name="code"' in page and 'method="get"' in page


@pytest.mark.parametrize("typed", ["{code}", "{lower}", "{lower3} {rest}", " {lower3}-{rest} ", "{spaced}"])
def test_a_room_code_goes_straight_to_the_scoreboard(client, typed):
    game_id, created, _ = new_game(client)
    code = created["room_code"]
    typed = typed.format(
        code=code, lower=code.lower(), lower3=code[:3].lower(), rest=code[3:], spaced=" ".join(code.lower())
    )
    response = client.get("/join", query_string={"code": typed})
    assert response.status_code == 303
    assert response.headers["Location"] == f"/games/{game_id}/scoreboard"


def test_the_home_page_links_to_join(client):
    assert 'href="/join"' in client.get("/").get_data(as_text=True)


def test_an_unknown_room_code_is_a_page_in_words(client):
    new_game(client)
    response = client.get("/join", query_string={"code": "kxt 4mp"})
    assert response.status_code == 404
    page = response.get_data(as_text=True)
    assert "No game has the room code KXT 4MP." in page
    assert 'value="kxt 4mp"' in page  # what was typed stays, to correct


@pytest.mark.parametrize(
    "typed, message",
    [
        ("KXT 0MP", "That&#39;s not a room code: a room code never has \u201c0\u201d."),
        ("bob 1ss", "a room code never has \u201c1\u201d, \u201cB\u201d, \u201cO\u201d or \u201cS\u201d."),
        ("KXT4M", "a room code has 6 letters and digits, and this has 5."),
        ("KXT 4MPA", "a room code has 6 letters and digits, and this has 7."),
        ("  ", "Type the room code shown on the scorekeeper&#39;s phone"),
        ("K" * 41, "That&#39;s not a room code"),
        ("KXT\u00004MP", "a room code never has"),
    ],
)
def test_what_is_not_a_room_code_is_refused_in_words(client, typed, message):
    response = client.get("/join", query_string={"code": typed})
    assert response.status_code == 422
    assert message in response.get_data(as_text=True)


def test_a_look_alike_is_never_taken_for_a_letter_of_the_code(client):
    """O is not 0 is not Q: a code with a character outside the alphabet is refused, never mapped to a game."""
    game_id, created, _ = new_game(client)
    code = created["room_code"]
    for stranger in "O0I1LSZ2B8G5":
        response = client.get("/join", query_string={"code": code[:5] + stranger})
        assert response.status_code == 422, stranger


# --- The QR code and the room code on the scoresheet ---------------------------------------------


def test_the_scoresheet_shows_the_room_code_and_a_qr_code_of_the_scoreboard_link(client):
    game_id, created, _ = new_game(client)
    code = created["room_code"]
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Join the scoreboard" in page
    assert f"{code[:3]} {code[3:]}</p>" in page
    svg = re.search(r"<svg.*?</svg>", page, re.S).group(0)
    assert 'aria-label="QR code of the scoreboard link"' in svg
    link = f"http://localhost/games/{game_id}/scoreboard"
    expected = segno.make(link, error="m").svg_inline(omitsize=True)
    modules = re.compile(r'class="qrline"[^>]* d="([^"]+)"')
    assert modules.search(svg).group(1) == modules.search(expected).group(1)


# --- The scoreboard and its poll --------------------------------------------------------------------


def hand_order(page: str) -> list[int]:
    return [int(n) for n in re.findall(r'id="hand-(\d+)"', page)]


def test_the_scoreboard_shows_the_latest_hand_first_and_nothing_to_change(client):
    game_id, _, headers = new_game(client)
    add(client, game_id, headers, EXAMPLE_HAND)
    add(client, game_id, headers, SPECIAL_HAND)
    page = client.get(f"/games/{game_id}/scoreboard").get_data(as_text=True)
    assert hand_order(page) == [2, 1]
    assert hand_order(client.get(f"/games/{game_id}").get_data(as_text=True)) == [1, 2]
    # Us 1,585 + 2,500 = 4,085; Them 440 + 600 = 1,040. Cleo deals hand 3.
    assert '<span class="total-figure">4,085</span>' in page and '<span class="total-figure">1,040</span>' in page
    assert "<strong>Cleo</strong> deals" in page
    assert "<form" not in page and "/edit" not in page and "/delete" not in page
    # Its one button is Share, which only sends the scoreboard link (assets/js/share.js).
    assert page.count("<button") == 1 and '<button type="button" class="button share-game"' in page


def test_share_carries_the_whole_scoreboard_link_and_the_room_code_on_the_sheet_and_the_scoreboard(client):
    game_id, created, _ = new_game(client)
    code = created["room_code"]
    for url in (f"/games/{game_id}", f"/games/{game_id}/scoreboard"):
        page = client.get(url).get_data(as_text=True)
        button = re.search(r'<button type="button" class="button share-game"([^>]*)>Share the scoreboard<', page)
        assert button, url
        assert f'data-url="http://localhost/games/{game_id}/scoreboard"' in button.group(1)
        assert f'data-room="{code[:3]} {code[3:]}"' in button.group(1)  # as read aloud: two groups of three
        assert 'data-title="Scoreboard: Us v Them"' in button.group(1)
        assert '<p class="js-only share-line">' in page  # hidden without JavaScript


def test_the_scoreboard_carries_the_revision_as_its_etag(client):
    game_id, created, headers = new_game(client)
    first = client.get(f"/games/{game_id}/scoreboard")
    assert first.status_code == 200 and first.headers["ETag"].startswith("W/")
    assert "no-cache" in first.headers["Cache-Control"]
    again = client.get(f"/games/{game_id}/scoreboard", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.get_data() == b""
    add(client, game_id, headers, EXAMPLE_HAND)
    changed = client.get(f"/games/{game_id}/scoreboard", headers={"If-None-Match": first.headers["ETag"]})
    assert changed.status_code == 200 and "1,585" in changed.get_data(as_text=True)
    assert changed.headers["ETag"] != first.headers["ETag"]


def poll(client, game_id: str, revision: int):
    return client.get(
        f"/games/{game_id}/scoreboard/live", headers={"If-None-Match": f'W/"{revision}"', "HX-Request": "true"}
    )


def test_an_unchanged_poll_is_a_304_and_a_change_sends_the_new_figures(client):
    game_id, created, headers = new_game(client)
    revision = created["revision"]
    unchanged = poll(client, game_id, revision)
    assert unchanged.status_code == 304 and unchanged.get_data() == b""

    for change in ("save", "edit", "delete"):
        if change == "save":
            add(client, game_id, headers, EXAMPLE_HAND)
        elif change == "edit":
            hand = {"sides": [EXAMPLE_HAND["sides"][0], {"mixed_canastas": 1, "count": 150}]}
            assert client.put(f"/api/games/{game_id}/hands/0", json=hand, headers=headers).status_code == 200
        else:
            assert client.delete(f"/api/games/{game_id}/hands/0", headers=headers).status_code == 200
        response = poll(client, game_id, revision)
        assert response.status_code == 200, change
        fragment = response.get_data(as_text=True)
        assert fragment.lstrip().startswith('<div id="scoresheet"') and "<html" not in fragment
        revision = client.get(f"/api/games/{game_id}").get_json()["revision"]
        assert response.headers["ETag"] == f'W/"{revision}"'
        # The new fragment asks about its own revision from now on.
        assert f'"If-None-Match": "W/\\"{revision}\\""' in fragment
        assert poll(client, game_id, revision).status_code == 304
        figures = {"save": "1,585", "edit": "450", "delete": "No hands yet."}[change]  # Them: 300 + 150
        assert figures in fragment


def test_an_unchanged_poll_reads_the_revision_alone(app, client):
    """One small query: the game's revision. No hand is loaded, nothing is scored."""
    game_id, created, headers = new_game(client)
    add(client, game_id, headers, EXAMPLE_HAND)
    revision = client.get(f"/api/games/{game_id}").get_json()["revision"]
    with statements(app) as sent:
        assert poll(client, game_id, revision).status_code == 304
    assert len(sent) == 1, sent
    assert "hands" not in sent[0] and "version" in sent[0]


def claim(client, created: dict) -> None:
    """This phone keeps the game's score (through its scoresheet link), as the scorekeeper's does."""
    assert client.post(f"/games/{created['id']}/claim", data={"key": created["links"]["scoresheet"]}).status_code == 303


def revision_of(client, game_id: str) -> int:
    return client.get(f"/api/games/{game_id}").get_json()["revision"]


def test_a_finished_games_scoreboard_asks_until_a_rematch_starts_then_takes_its_watchers_there(app, client):
    game_id, created, headers = new_game(client, target=1000)
    claim(client, created)
    watcher = app.test_client()
    page = watcher.get(f"/games/{game_id}/scoreboard").get_data(as_text=True)
    assert 'hx-trigger="every 2s"' in page
    add(client, game_id, headers, EXAMPLE_HAND)  # Us 1,585 reach 1,000; Them 440: Us by 1,585 − 440 = 1,145
    revision = revision_of(client, game_id)
    page = watcher.get(f"/games/{game_id}/scoreboard").get_data(as_text=True)
    assert "Us won</strong> by 1,145 points." in page
    # Over, but still asking: the scorekeeper may start a rematch. Until then each poll is a bodiless 304.
    assert 'hx-trigger="every 2s"' in page and f'"If-None-Match": "W/\\"{revision}\\""' in page
    assert "If the scorekeeper starts a rematch, this scoreboard follows it." in page
    for _ in range(2):
        unchanged = poll(watcher, game_id, revision)
        assert unchanged.status_code == 304 and unchanged.get_data() == b""

    started = client.post(f"/games/{game_id}/rematch")
    assert started.status_code == 303
    rematch_id = started.headers["Location"].rsplit("/", 1)[1]
    rematch = client.get(f"/api/games/{rematch_id}").get_json()
    # Starting the rematch changed nothing of the finished game: its revision and figures are as they were.
    finished = client.get(f"/api/games/{game_id}").get_json()
    assert finished["revision"] == revision and finished["totals"] == [1585, 440]

    followed = poll(watcher, game_id, revision)
    assert followed.status_code == 200
    assert followed.headers["HX-Replace-Url"] == f"/games/{rematch_id}/scoreboard"
    fragment = followed.get_data(as_text=True)
    # The rematch's block, asking about the rematch from now on; no hand yet, and Bea, after Ann, deals first.
    assert fragment.lstrip().startswith('<div id="scoresheet"') and "<html" not in fragment
    assert f'hx-get="/games/{rematch_id}/scoreboard/live"' in fragment
    assert f'"If-None-Match": "W/\\"{rematch["revision"]}\\""' in fragment
    assert "No hands yet." in fragment and "<strong>Bea</strong> deals" in fragment
    assert fragment.count('<span class="total-figure">0</span>') == 2
    # With the rematch's heading out of band: its own room code and rules, and the way back to the last game.
    heading = fragment[fragment.index('<div id="scoreboard-heading"') :]
    assert heading.startswith('<div id="scoreboard-heading" hx-swap-oob="true">')
    code = rematch["room_code"]
    assert f"{code[:3]} {code[3:]}" in heading and f'href="/games/{rematch_id}/rules"' in heading
    assert "Rematch started: this scoreboard now follows the new game." in heading
    assert f'<a href="/games/{game_id}/scoreboard">The last game' in heading
    assert poll(watcher, rematch_id, rematch["revision"]).status_code == 304  # and it is unchanged since

    # The finished game's scoreboard opened now offers the rematch in one tap, and asks no more.
    page = watcher.get(f"/games/{game_id}/scoreboard").get_data(as_text=True)
    assert "Us won</strong> by 1,145 points." in page
    assert f'<a class="button primary wide" href="/games/{rematch_id}/scoreboard">Follow the rematch</a>' in page
    assert "hx-trigger" not in page


def test_a_rematch_deleted_before_the_watchers_follow_leaves_them_on_the_finished_game(app, client):
    game_id, created, headers = new_game(client, target=1000)
    claim(client, created)
    add(client, game_id, headers, EXAMPLE_HAND)
    revision = revision_of(client, game_id)
    rematch_id = client.post(f"/games/{game_id}/rematch").headers["Location"].rsplit("/", 1)[1]
    assert client.post(f"/games/{rematch_id}/delete").status_code == 303  # this phone started it: it may
    answer = poll(app.test_client(), game_id, revision)
    assert answer.status_code == 200 and "HX-Replace-Url" not in answer.headers
    fragment = answer.get_data(as_text=True)
    assert "Us won</strong> by 1,145 points." in fragment and "Follow the rematch" not in fragment
    # It asks on, about the game as it is now (a 304 each time), in case another rematch starts.
    tag = f"{revision}-{rematch_id}"
    assert f'"If-None-Match": "W/\\"{tag}\\""' in fragment and answer.headers["ETag"] == f'W/"{tag}"'
    again = app.test_client().get(
        f"/games/{game_id}/scoreboard/live", headers={"If-None-Match": f'W/"{tag}"', "HX-Request": "true"}
    )
    assert again.status_code == 304


def test_games_stored_before_the_rematch_link_have_none_and_their_scoreboards_ask_on(app, client):
    """The migration that gives a game its rematch's id (e7a3c9d1f5b2) adds an empty column; its downgrade drops it."""
    from flask_migrate import downgrade, upgrade
    from sqlalchemy import inspect

    game_id, created, headers = new_game(client, target=1000)
    add(client, game_id, headers, EXAMPLE_HAND)  # finished: Us 1,585, Them 440
    revision = revision_of(client, game_id)
    with app.app_context():
        downgrade(revision="c4e8a2f6d0b3")  # as a server of the release before it
        assert "rematch_id" not in {c["name"] for c in inspect(db.engine).get_columns("games")}
        upgrade()
        assert db.session.execute(db.text("SELECT rematch_id FROM games")).all() == [(None,)]
    assert revision_of(client, game_id) == revision  # the game is as it was
    page = client.get(f"/games/{game_id}/scoreboard").get_data(as_text=True)
    assert "Us won</strong> by 1,145 points." in page and 'hx-trigger="every 2s"' in page
    assert poll(client, game_id, revision).status_code == 304


def test_the_poll_of_a_deleted_game_says_so_and_stops(client):
    """htmx stops polling on a 286 and puts the line above the figures the page has; no error, no more asking."""
    copy = client.post(
        "/games/import",
        data={"document": (io.BytesIO(json.dumps(game_document()).encode()), "game.json")},
        content_type="multipart/form-data",
    )
    game_id = copy.headers["Location"].rsplit("/", 1)[1]  # restored here: this phone may delete it
    revision = revision_of(client, game_id)
    assert poll(client, game_id, revision).status_code == 304
    assert client.post(f"/games/{game_id}/delete").status_code == 303
    gone = poll(client, game_id, revision)
    assert gone.status_code == 286 and gone.headers["HX-Reswap"] == "beforebegin"
    assert "no-store" in gone.headers["Cache-Control"]
    line = re.sub(r"\s+", " ", gone.get_data(as_text=True)).strip()
    assert line.startswith('<p class="flash flash-error" role="status">') and "<html" not in line
    assert (
        "The scorekeeper deleted this game: the scores below are the last this phone received, "
        "and they will not change." in line
    )
    assert '<a href="/join">Join another game</a>' in line


def test_the_poll_of_an_unknown_game_is_a_404(client):
    assert client.get("/games/nope/scoreboard/live").status_code == 404
    assert client.get("/games/a%00b/scoreboard/live").status_code == 404


def test_the_revision_query_knows_no_game(app):
    with app.app_context():
        assert store.game_revision("nope") is None
        assert store.game_id_of_room_code("KXT4MP") is None


# --- The spreadsheet -----------------------------------------------------------------------------------


def read_csv(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.get_data().decode("utf-8-sig"), newline="")))


# Hand 3 (Zo\u00eb deals: seats go Ann, Bea, Zo\u00eb, Dot, so Bea cuts, for Them). Us: 2 naturals 1,000, a black 3
# +100 (two canastas), a player caught with three aces -1,500, an unfinished wild-card meld -2,000: Base -2,400,
# Count -50, hand -2,450. Them: sevens 2,500 + natural 500 + mixed 300, going out 100, perfect cut 100: Base
# 3,500, Count 250, hand 3,750.
PENALTY_HAND = {
    "sides": [
        {"natural_canastas": 2, "black_threes": 1, "dirty_aces": 1, "incomplete_wild": True, "count": -50},
        {
            "sevens_canasta": True,
            "natural_canastas": 1,
            "mixed_canastas": 1,
            "went_out": True,
            "perfect_cut": True,
            "count": 250,
        },
    ]
}
# The entries a modern game has, as the hand form names them; and the counting grid without black 3s (in
# modern they are never cards).
MODERN_ENTRIES = [
    "Red 3s",
    "Black 3s",
    "Natural canastas",
    "Mixed canastas",
    "Sevens canasta",
    "Pure aces canasta",
    "Wild-card canasta",
    "Unfinished sevens",
    "Unfinished aces",
    "Unfinished wild cards",
    "Players dirty with 7s",
    "Players dirty with aces",
    "Went out",
    "Perfect cut",
    "Special hand",
]
GRID_ROWS = ("Jokers", "2s", "Aces", "8 to K", "4 to 7")
MODERN_GRID = [f"{where}: {kind}" for where in ("Melded", "In hand") for kind in GRID_ROWS]
FIGURES = ["Count from", "Base", "Count", "Hand total", "Running total"]


def test_the_spreadsheet_is_one_table_a_row_per_hand_and_side_with_the_columns_the_game_uses(client):
    sides = [{"name": "Us", "players": ["Ann", "Zo\u00eb"]}, {"name": "=Them", "players": ["Bea", "Dot"]}]
    game_id, _, headers = new_game(client, sides=sides)
    for hand in (EXAMPLE_HAND, SPECIAL_HAND, PENALTY_HAND):
        add(client, game_id, headers, hand)
    response = client.get(f"/games/{game_id}/export.csv")
    assert response.mimetype == "text/csv" and response.headers["Content-Disposition"].startswith("attachment")
    raw = response.get_data()
    assert raw.startswith(b"\xef\xbb\xbf")  # UTF-8 with its mark, for Excel
    assert raw.count(b"\r\n") == raw.count(b"\n")  # every line ends CRLF (RFC 4180)

    header, *rows = read_csv(response)
    # The headings first: no block of facts above, no totals below; no concealed, melded this hand, red 3s left
    # in hand, asks or 3s in hand (modern has none of them); the grid because hand 2 used it.
    assert header == ["Hand", "Dealer", "Side", "Players", *MODERN_ENTRIES, *MODERN_GRID, *FIGURES]
    hands = [dict(zip(header, row, strict=True)) for row in rows]
    assert [(h["Hand"], h["Dealer"], h["Side"], h["Players"]) for h in hands] == [
        ("1", "Ann", "Us", "Ann & Zo\u00eb"),
        ("1", "Ann", "'=Them", "Bea & Dot"),  # a formula is plain text
        ("2", "Bea", "Us", "Ann & Zo\u00eb"),
        ("2", "Bea", "'=Them", "Bea & Dot"),
        ("3", "Zo\u00eb", "Us", "Ann & Zo\u00eb"),
        ("3", "Zo\u00eb", "'=Them", "Bea & Dot"),
    ]
    assert [[h[name] for name in FIGURES] for h in hands] == [
        ["typed", "1200", "385", "1585", "1585"],
        ["typed", "300", "140", "440", "440"],
        ["special hand", "2500", "0", "2500", "4085"],  # 1,585 + 2,500
        ["counting grid", "500", "100", "600", "1040"],  # 440 + 600
        ["typed", "-2400", "-50", "-2450", "1635"],  # 4,085 - 2,450
        ["typed", "3500", "250", "3750", "4790"],  # 1,040 + 3,750
    ]
    us_1, them_1, us_2, them_2, us_3, them_3 = hands
    us_1_entries = [us_1[name] for name in ("Red 3s", "Natural canastas", "Mixed canastas", "Went out")]
    assert us_1_entries == ["2", "1", "1", "yes"]
    assert them_1["Went out"] == "" and them_1["Special hand"] == "" and them_1["Melded: Aces"] == ""
    assert us_2["Special hand"] == "Seven pairs"
    assert (them_2["Melded: Aces"], them_2["Melded: 8 to K"], them_2["In hand: 4 to 7"]) == ("3", "5", "2")
    assert them_2["Melded: Jokers"] == "0"
    assert (us_3["Black 3s"], us_3["Players dirty with aces"], us_3["Unfinished wild cards"]) == ("1", "1", "yes")
    assert (them_3["Sevens canasta"], them_3["Perfect cut"], them_3["Went out"]) == ("yes", "yes", "yes")


def test_a_game_typed_by_counts_has_no_grid_and_classic_has_its_own_entries(client):
    game_id, _, headers = new_game(client, preset="classic")
    # Classic: Us 2 red 3s 200 (melded) + natural 500 + going out 100 = 800, Count 210: 1,010. Them: a red 3 left
    # in hand -500, asked to go out and didn't -100: Base -600, Count -35: -635.
    hand = {
        "sides": [
            {"red_threes": 2, "natural_canastas": 1, "went_out": True, "count": 210},
            {"red_threes_in_hand": 1, "failed_go_out_asks": 1, "count": -35},
        ]
    }
    add(client, game_id, headers, hand)
    header, us, them = read_csv(client.get(f"/games/{game_id}/export.csv"))
    assert header == [
        "Hand", "Dealer", "Side", "Players",
        "Red 3s", "Natural canastas", "Mixed canastas", "Went out", "Concealed (all in one turn)",
        "Melded this hand", "Red 3s left in hand", "Asked to go out, then didn't",
        "Took the pile, couldn't use the top card",
        *FIGURES,
    ]  # fmt: skip
    assert us[-5:] == ["typed", "800", "210", "1010", "1010"]
    assert them[-5:] == ["typed", "-600", "-35", "-635", "-635"]
    assert dict(zip(header, them, strict=True))["Red 3s left in hand"] == "1"


def test_the_games_facts_are_a_file_of_their_own_a_row_per_side(client):
    game_id, _, headers = new_game(client, target=1000)
    add(client, game_id, headers, EXAMPLE_HAND)  # Us 1,585 against 440: Us win
    response = client.get(f"/games/{game_id}/game.csv")
    assert response.mimetype == "text/csv" and response.headers["Content-Disposition"].startswith("attachment")
    header, us, them = read_csv(response)
    assert header == ["Game", "Started (UTC)", "Rules", "Playing to", "Hands", "Side", "Players", "Total", "Winner"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d", us[1]) and them[1] == us[1]
    assert us[:1] + us[2:] == ["Us v Them", "Modern American", "1000", "1", "Us", "Ann & Cleo", "1585", "Us"]
    assert them[:1] + them[2:] == ["Us v Them", "Modern American", "1000", "1", "Them", "Bea & Dot", "440", "Us"]
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert f'href="/games/{game_id}/game.csv"' in page and f'href="/games/{game_id}/export.csv"' in page


def test_a_game_in_progress_says_so_in_its_facts(client):
    game_id, _, headers = new_game(client)
    add(client, game_id, headers, EXAMPLE_HAND)
    _, us, them = read_csv(client.get(f"/games/{game_id}/game.csv"))
    assert us[-1] == them[-1] == "in progress"
