"""The history of this phone's games, its players' statistics, the file of every game, deleting a game.

Figures are worked out by hand from docs/rules.md (modern preset); the arithmetic is beside each one.
"""

from __future__ import annotations

import html
import io
import json
import re
from datetime import UTC, datetime

from scorepad.models import db
from tests.conftest import game_document, shown_text

# Modern, to 3,000: Us close a sevens canasta (2,500) and a natural one (500) and go out (100): Base 3,100,
# Count 200, hand 3,300. Them: one red 3 with no canasta, −100, Count −50: −150. Us reach 3,000: Us win.
US_WIN_AT_ONCE = game_document(
    target=3000,
    hands=[
        {
            "sides": [
                {"sevens_canasta": True, "natural_canastas": 1, "went_out": True, "count": 200},
                {"red_threes": 1, "count": -50},
            ]
        }
    ],
)
# Modern, to 8,500. Hand 1: Us lay down seven pairs, 2,500 (Count 0); Them one mixed canasta 300 (their one
# canasta makes their no 3s worth 0) + Count 100 = 400. Hand 2: Us two naturals 1,000 + out 100 + Count 150
# = 1,250; Them a pure-aces canasta 2,500 + a wild-card canasta of any other mix 2,000 + Count 90 = 4,590.
# Totals: Us 2,500 + 1,250 = 3,750; Them 400 + 4,590 = 4,990. Nobody at 8,500: the game goes on.
STILL_PLAYING = game_document(
    hands=[
        {"sides": [{"special_hand": "pairs"}, {"mixed_canastas": 1, "count": 100}]},
        {
            "sides": [
                {"natural_canastas": 2, "went_out": True, "count": 150},
                {"aces_canasta": True, "wild_canasta": "mixed", "count": 90},
            ]
        },
    ]
)
# Two single players, to 1,000: Eve closes a natural 500 and a mixed 300, goes out 100, Count 100: 1,000.
# "ann" (Ann, spelt otherwise) has no canasta: Count −80. Eve reaches 1,000 and wins.
EVE_AND_ANN = game_document(
    target=1000,
    sides=[{"name": "Me", "players": ["Eve"]}, {"name": "You", "players": ["ann"]}],
    hands=[
        {
            "sides": [
                {"natural_canastas": 1, "mixed_canastas": 1, "went_out": True, "count": 100},
                {"count": -80},
            ]
        }
    ],
)


def text(response) -> str:
    """The page's text with tags and repeated white space removed."""
    return shown_text(response)


def keep(client, doc: dict) -> str:
    """A game made through the API, kept on this phone through its scoresheet link: its id."""
    body = client.post("/api/games", json=doc).get_json()
    assert client.post(f"/games/{body['id']}/claim", data={"key": body["links"]["scoresheet"]}).status_code == 303
    return body["id"]


def listed(page_html: str, heading: str) -> list[str]:
    """The ids of the games listed under a heading of the history ("In progress" or "Finished")."""
    section = re.search(rf'<h2 id="[^"]+">{heading}</h2>(.*?)</section>', page_html, re.S)
    return re.findall(r'<article class="game-entry" id="game-([^"]+)"', section.group(1)) if section else []


def statistics(client) -> dict[str, list[str]]:
    """Each player's row of the statistics table, as shown."""
    page = client.get("/history/statistics").get_data(as_text=True)
    players: dict[str, list[str]] = {}
    for name, cells in re.findall(r'<tr>\s*<th scope="row">([^<]+)</th>(.*?)</tr>', page, re.S):  # both tables
        players.setdefault(html.unescape(name), []).extend(re.findall(r"<td>([^<]*)</td>", cells))
    return players


# --- The list -----------------------------------------------------------------------------------


def test_sixty_games_on_one_phone_all_keep_their_rights_and_are_listed_a_page_at_a_time(client):
    finished = {keep(client, US_WIN_AT_ONCE) for _ in range(15)}
    in_progress = {keep(client, game_document()) for _ in range(45)}
    for game in finished | in_progress:  # none has lost its rights, the oldest included
        page = text(client.get(f"/games/{game}"))
        assert "Read-only" not in page
        assert ("Rematch" in page) if game in finished else ("Enter hand 1" in page)
    first = client.get("/history").get_data(as_text=True)
    second = client.get("/history?page=2").get_data(as_text=True)
    assert "Games 1–50 of 60." in text_of(first) and "Page 1 of 2" in text_of(first)
    assert "Games 51–60 of 60." in text_of(second)
    # Newest first: the 45 games started last fill page 1 with 5 of the finished ones; 10 finished are on page 2.
    assert set(listed(first, "In progress")) == in_progress
    assert len(listed(first, "Finished")) == 5 and listed(second, "In progress") == []
    assert set(listed(first, "Finished")) | set(listed(second, "Finished")) == finished


def test_games_are_listed_by_when_they_began_not_by_when_this_phone_got_them(client):
    earlier = client.post("/api/games", json=game_document()).get_json()  # begun first, on another phone
    later = keep(client, game_document())
    # This phone takes the earlier game over after the later one began: it still comes second.
    assert client.post(f"/games/{earlier['id']}/claim", data={"key": earlier["links"]["scoresheet"]}).status_code == 303
    assert listed(client.get("/history").get_data(as_text=True), "In progress") == [later, earlier["id"]]
    found = client.get("/history?q=Ann").get_data(as_text=True)  # a search lists in the same order
    assert listed(found, "In progress") == [later, earlier["id"]]


def test_games_kept_before_the_history_index_are_listed_by_their_games_dates(app, client):
    """The migration that copies each game's start and version to its rights (c4e8a2f6d0b3) fills the rights
    already kept."""
    from flask_migrate import downgrade, upgrade

    first, second = keep(client, game_document()), keep(client, game_document())
    with app.app_context():
        downgrade(revision="9e4f2a6c8b1d")  # as a server of the release before it
        # On that server, the first game had begun later (dates given here, so the order is the dates' alone),
        # and had changed six times since.
        for game_id, date, version in ((first, "2026-11-20 10:00:00", 7), (second, "2026-11-19 10:00:00", 1)):
            db.session.execute(
                db.text("UPDATE games SET created_at = :date, version = :version WHERE id = :id"),
                {"date": date, "version": version, "id": game_id},
            )
        if db.engine.dialect.name == "sqlite":  # SQLite keeps a right to a game deleted by hand (no foreign keys)
            db.session.execute(
                db.text(
                    "INSERT INTO game_rights (device_hash, game_id, via, label, created_at, last_used_at)"
                    " VALUES ('x', 'gone', 'created', '', '2026-11-20', '2026-11-20')"
                )
            )
        db.session.commit()
        upgrade()
        copied = db.session.execute(db.text("SELECT game_id, game_version FROM game_rights ORDER BY game_version"))
        assert sorted(copied) == sorted([(second, 1), (first, 7)])
    assert listed(client.get("/history").get_data(as_text=True), "In progress") == [first, second]


# Hand 1, modern: Us 2 naturals 1,000 + out 100 + Count 200 = 1,300; Them 1 mixed 300 + Count 50 = 350.
HAND_1 = {"sides": [{"natural_canastas": 2, "went_out": True, "count": 200}, {"mixed_canastas": 1, "count": 50}]}


def test_a_hand_saved_shows_at_once_in_the_history_of_every_phone_that_keeps_the_game(app, client):
    body = client.post("/api/games", json=game_document()).get_json()
    other_phone = app.test_client()
    for phone in (client, other_phone):  # the phone that keeps score, and one it was handed to
        assert phone.post(f"/games/{body['id']}/claim", data={"key": body["links"]["scoresheet"]}).status_code == 303
        phone.get("/history")  # the message that the phone now keeps the game is shown once
        assert "Us 0 Them 0" in text(phone.get("/history"))  # and this page is kept for this revision
    headers = {"Authorization": f"Bearer {body['edit_token']}"}
    assert client.post(f"/api/games/{body['id']}/hands", json=HAND_1, headers=headers).status_code == 201
    for phone in (client, other_phone):
        assert "Us 1,300 Them 350" in text(phone.get("/history"))


def text_of(page_html: str) -> str:
    return shown_text(page_html)


def test_the_history_shows_date_sides_totals_winner_and_preset(client):
    keep(client, US_WIN_AT_ONCE)
    page = text(client.get("/history"))
    assert "Us 3,300 Them −150" in page and "Ann & Cleo v Bea & Dot" in page
    assert re.search(r"\d{1,2} \w{3} \d{4} · Modern American · 1 hand · Us won", page)


def test_another_phone_has_an_empty_history(app, client):
    keep(client, US_WIN_AT_ONCE)
    page = text(app.test_client().get("/history"))
    assert "No games on this phone yet." in page


def test_the_history_finds_a_player_by_name_without_javascript(client):
    us_and_them = keep(client, STILL_PLAYING)
    eve = keep(client, EVE_AND_ANN)
    page = client.get("/history?q=ANN").get_data(as_text=True)  # Ann and ann, case aside
    assert set(listed(page, "In progress") + listed(page, "Finished")) == {us_and_them, eve}
    page = client.get("/history?q=eve").get_data(as_text=True)
    assert listed(page, "Finished") == [eve] and listed(page, "In progress") == []
    assert "1 game with “eve”." in text_of(page)
    assert "No game here has a player called “Zoe”." in text(client.get("/history?q=Zoe"))


def test_a_game_in_progress_offers_resume_and_a_finished_one_a_rematch(client):
    playing, won = keep(client, STILL_PLAYING), keep(client, US_WIN_AT_ONCE)
    page = client.get("/history").get_data(as_text=True)
    assert f'href="/games/{playing}/hands/new">Resume: hand 3' in page
    assert f'action="/games/{won}/rematch"' in page


# --- Statistics ---------------------------------------------------------------------------------


def test_statistics_per_player_worked_out_by_hand(client):
    keep(client, EVE_AND_ANN)  # first, so that the newer games' "Ann" is the spelling shown
    keep(client, US_WIN_AT_ONCE)
    keep(client, STILL_PLAYING)
    # columns: games, won, average hand, 7s canastas, aces canastas, wild canastas, special hands
    assert statistics(client) == {
        # 3 games (ann is Ann); won the first; hands 1 + 2 + 1 = 4; points 3,300 + 3,750 − 80 = 6,970;
        # 6,970 / 4 = 1,742.5, to the nearest point 1,743; the sevens canasta and the seven pairs of Us.
        "Ann": ["3", "1", "1,743", "1", "0", "0", "1"],
        # 2 games, 3 hands, 3,300 + 3,750 = 7,050 / 3 = 2,350.
        "Cleo": ["2", "1", "2,350", "1", "0", "0", "1"],
        # Them: −150 + 4,990 = 4,840 over 3 hands = 1,613.3 → 1,613; the aces and the wild-card canasta.
        "Bea": ["2", "0", "1,613", "0", "1", "1", "0"],
        "Dot": ["2", "0", "1,613", "0", "1", "1", "0"],
        "Eve": ["1", "1", "1,000", "0", "0", "0", "0"],
    }


def test_statistics_count_each_game_once_leaving_out_a_restored_copy_and_a_game_with_no_hand(client):
    eve = keep(client, EVE_AND_ANN)
    won = keep(client, US_WIN_AT_ONCE)
    # The same finished game restored on this phone from its file (the original is here too): one game, not two.
    exported = client.get(f"/games/{won}/export.json").get_data()
    copy = restore(client, exported).headers["Location"].rsplit("/", 1)[1]
    assert copy != won
    # A rematch started and never played: no hand, no game to count.
    assert client.post(f"/games/{won}/rematch").status_code == 303
    assert len(rights_of(client)) == 4  # every one of them is on this phone
    page = text(client.get("/history/statistics"))
    assert "Each player across the 2 games on this phone" in page
    assert "A game with no hand yet, and a restored copy of a game also on this phone, are not counted." in page
    # columns: games, won, average hand, 7s canastas, aces canastas, wild canastas, special hands
    assert statistics(client) == {
        # US_WIN_AT_ONCE once: 1 game, won, 3,300 over 1 hand, its sevens canasta; and "ann" in EVE_AND_ANN:
        # 2 games, 1 won, (3,300 − 80) / 2 hands = 1,610.
        "Ann": ["2", "1", "1,610", "1", "0", "0", "0"],
        "Cleo": ["1", "1", "3,300", "1", "0", "0", "0"],
        # Them: 1 game, lost, −150 over 1 hand.
        "Bea": ["1", "0", "−150", "0", "0", "0", "0"],
        "Dot": ["1", "0", "−150", "0", "0", "0", "0"],
        "Eve": ["1", "1", "1,000", "0", "0", "0", "0"],
    }
    assert eve  # kept first, so "Ann" (the newer games' spelling) is the name shown


def test_statistics_of_games_with_no_hand_say_so(client):
    keep(client, game_document())  # started, never played
    page = text(client.get("/history/statistics"))
    assert "Each player across the 0 games on this phone" in page
    assert "No game on this phone has a hand yet." in page and statistics(client) == {}


def test_a_restored_copy_counts_when_its_original_is_not_on_this_phone(app, client):
    won = keep(client, US_WIN_AT_ONCE)
    phone = app.test_client()
    restore(phone, client.get(f"/games/{won}/export.json").get_data())
    # The copy alone on this phone: the game counts once, as on the phone it came from.
    one_game = {
        "Ann": ["1", "1", "3,300", "1", "0", "0", "0"],
        "Cleo": ["1", "1", "3,300", "1", "0", "0", "0"],
        "Bea": ["1", "0", "−150", "0", "0", "0", "0"],
        "Dot": ["1", "0", "−150", "0", "0", "0", "0"],
    }
    assert statistics(phone) == one_game and statistics(client) == one_game


# --- The file of every game ---------------------------------------------------------------------


def restore(client, raw: bytes):
    return client.post(
        "/games/import", data={"document": (io.BytesIO(raw), "games.json")}, content_type="multipart/form-data"
    )


def test_every_game_round_trips_through_one_file_to_a_fresh_phone(app, client):
    originals = {keep(client, doc) for doc in (EVE_AND_ANN, US_WIN_AT_ONCE, STILL_PLAYING)}
    response = client.get("/history/export.json")
    assert response.status_code == 200 and "attachment" in response.headers["Content-Disposition"]
    body = json.loads(response.get_data())
    assert body["format"] == "scorepad-games" and body["version"] == 1 and body["rule_sets"] == []
    assert {game["id"] for game in body["games"]} == originals
    assert all(game["format"] == "scorepad-game" for game in body["games"])

    phone = app.test_client()
    response = restore(phone, response.get_data())
    assert response.status_code == 303 and response.headers["Location"] == "/history"
    page = phone.get("/history")
    assert "3 games restored." in text(page)
    assert statistics(phone) == statistics(client)  # the same figures on the fresh phone
    copies = listed(page.get_data(as_text=True), "In progress") + listed(page.get_data(as_text=True), "Finished")
    assert len(copies) == 3 and not set(copies) & originals
    for copy in copies:
        assert "Read-only" not in text(phone.get(f"/games/{copy}"))
    # Each copy names its original.
    restored = json.loads(phone.get("/history/export.json").get_data())["games"]
    assert sorted(g["totals"] for g in restored) == sorted(g["totals"] for g in body["games"])


def test_restoring_the_same_file_twice_makes_no_second_copies(app, client):
    keep(client, US_WIN_AT_ONCE)
    exported = client.get("/history/export.json").get_data()
    phone = app.test_client()
    restore(phone, exported)
    restore(phone, exported)
    assert "0 games restored. 1 game was already on this phone and left as it is." in text(phone.get("/history"))
    assert len(listed(phone.get("/history").get_data(as_text=True), "Finished")) == 1


def test_a_bad_game_in_the_file_is_named_and_the_others_are_restored(app, client):
    keep(client, US_WIN_AT_ONCE)
    keep(client, STILL_PLAYING)
    body = json.loads(client.get("/history/export.json").get_data())
    body["games"].insert(1, {**game_document(), "sides": [{"name": "Eve", "players": ["Eve"]}]})
    body["games"].append("not a game")
    phone = app.test_client()
    response = restore(phone, json.dumps(body).encode())
    assert response.status_code == 422
    page = text(response)
    assert "2 games restored." in page
    assert "2 of the 4 games in the file could not be restored:" in page
    assert "game 2 (Eve): " in page
    assert "game 4: Expected a Scorepad game document (a JSON object)." in page
    assert len(rights_of(phone)) == 2


def rights_of(client) -> list[str]:
    page = client.get("/history").get_data(as_text=True)
    return listed(page, "In progress") + listed(page, "Finished")


def test_a_file_of_games_of_an_unknown_version_is_refused_in_words(client):
    response = restore(client, json.dumps({"format": "scorepad-games", "version": 2, "games": []}).encode())
    assert response.status_code == 422
    assert "This file of games is of a version this Scorepad can't read (it reads 1)." in text(response)


# --- A restored copy ------------------------------------------------------------------------------


def test_a_restored_copy_is_named_by_its_sides_and_day_and_links_its_original(app, client):
    original = keep(client, US_WIN_AT_ONCE)
    exported = client.get(f"/games/{original}/export.json").get_data()
    phone = app.test_client()
    copy = restore(phone, exported).headers["Location"].rsplit("/", 1)[1]
    assert copy != original
    page = phone.get(f"/games/{copy}").get_data(as_text=True)
    # Named by its sides and the day, as the history names a game; the original linked while it is here.
    today = datetime.now(UTC).strftime("%-d %b %Y")
    assert f"Restored copy: Us v Them, {today}." in text(phone.get(f"/games/{copy}"))
    assert f'<a href="/games/{original}">The original game</a> is on this Scorepad too.' in page
    assert original not in text(phone.get(f"/games/{copy}"))  # no game id to read
    assert f"Restored copy: Us v Them, {today}" in text(phone.get("/history"))
    assert "Restored copy" not in text(client.get(f"/games/{original}"))  # the original is not a copy


def test_a_restored_copy_whose_original_is_not_here_has_no_link(client):
    doc = {**US_WIN_AT_ONCE, "id": "gone-long-ago"}
    copy = restore(client, json.dumps(doc).encode()).headers["Location"].rsplit("/", 1)[1]
    page = text(client.get(f"/games/{copy}"))
    assert f"Restored copy: Us v Them, {datetime.now(UTC).strftime('%-d %b %Y')}." in page
    assert "The original game" not in page and "gone-long-ago" not in page


# --- Deleting a whole game ------------------------------------------------------------------------


def test_a_game_is_deleted_after_a_confirmation(client):
    game = keep(client, US_WIN_AT_ONCE)
    other = keep(client, STILL_PLAYING)
    confirm = client.get(f"/games/{game}/delete")
    assert confirm.status_code == 200
    page = text(confirm)
    assert "Delete the game Us v Them?" in page and "Us 3,300, Them −150" in page and "There is no undo" in page
    assert f'<form method="post" action="/games/{game}/delete"' in confirm.get_data(as_text=True)
    assert client.get(f"/games/{game}").status_code == 200  # asking deletes nothing
    response = client.post(f"/games/{game}/delete")
    assert response.status_code == 303 and response.headers["Location"] == "/history"
    assert "Game deleted: Us v Them." in text(client.get("/history"))
    assert client.get(f"/games/{game}").status_code == 404
    assert rights_of(client) == [other]


def test_only_the_phone_that_started_a_game_deletes_it(app, client):
    game = keep(client, US_WIN_AT_ONCE)
    stranger = app.test_client()
    assert stranger.get(f"/games/{game}/delete").status_code == 403
    assert stranger.post(f"/games/{game}/delete").status_code == 403
    handed = app.test_client()  # keeps score through the handover link: still not the scorekeeper
    link = re.search(r'value="([^"]+#key=[^"]+)"', client.get(f"/games/{game}/handover").get_data(as_text=True))
    handed.post(f"/games/{game}/claim", data={"key": link.group(1)})
    assert "Read-only" not in text(handed.get(f"/games/{game}"))
    assert handed.post(f"/games/{game}/delete").status_code == 403
    assert client.get(f"/games/{game}").status_code == 200


def test_a_delete_sent_from_another_site_is_refused(client):
    game = keep(client, US_WIN_AT_ONCE)
    for headers in (
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},
        {"Origin": "https://evil.example"},
    ):
        assert client.post(f"/games/{game}/delete", headers=headers).status_code == 403
    assert client.get(f"/games/{game}").status_code == 200


def test_the_home_page_links_to_the_history(client):
    keep(client, US_WIN_AT_ONCE)
    page = client.get("/").get_data(as_text=True)
    assert 'href="/history"' in page and "every game on this phone (1)" in text_of(page)


def test_the_games_listed_have_each_a_game_id_once(client):
    games = [keep(client, game_document()) for _ in range(3)]
    page = client.get("/history").get_data(as_text=True)
    assert listed(page, "In progress") == list(reversed(games))  # newest first


def test_a_game_whose_id_is_not_text_is_restored_as_a_new_game(client):
    body = {"format": "scorepad-games", "version": 1, "games": [{**game_document(), "id": ["not", "an", "id"]}]}
    response = restore(client, json.dumps(body).encode())
    assert response.status_code == 303
    assert "1 game restored." in text(client.get("/history"))


def test_a_file_of_more_games_than_a_restore_takes_is_refused_in_words(client):
    body = {"format": "scorepad-games", "version": 1, "games": [game_document()] * 1001}
    response = restore(client, json.dumps(body).encode())
    assert response.status_code == 422
    assert "This file holds 1,001 games; a file restores at most 1,000 at a time." in text(response)


def test_statistics_leave_out_the_totals_brought_forward_from_paper(client):
    """A game moved in from paper at 3,000 to 1,500, then one hand here. Us: 2 naturals 1,000 + out 100 + Count 400
    = 1,500; Them: 1 mixed 300 + Count 100 = 400. The average hand is the hand's, not the paper's totals with it
    (4,500 and 1,900)."""
    doc = game_document(
        hands=[
            {"sides": [{"natural_canastas": 2, "went_out": True, "count": 400}, {"mixed_canastas": 1, "count": 100}]}
        ],
        target=5000,
    )
    doc["brought_forward"] = [3000, 1500]
    keep(client, doc)
    rows = statistics(client)
    assert rows["Ann"][2] == rows["Cleo"][2] == "1,500"
    assert rows["Bea"][2] == rows["Dot"][2] == "400"
