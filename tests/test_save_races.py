"""Changes that race each other, found in review of the one-pass save (issue 16), each proved here first.

Against the app as it runs (the Procfile's granian with two workers of four threads, tests/test_concurrency.py's
server) where the race is between two phones' requests; where the race is a narrow instant inside one request, the
other phone's change is made at that instant (as tests/test_games.py's `_deleting_before_the_change` does), on the
test's database (an SQLite file or a PostgreSQL schema).
"""

from __future__ import annotations

import http.cookiejar
import json
import threading
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest

from .conftest import game_document
from .test_concurrency import TIMEOUT, database_uri, server  # noqa: F401 (the module's server, started once)

# Modern, played to 1,000 (docs/rules.md): Us go out with two natural canastas, 2 × 500 + 100 = 1,100, and a Count of
# 0; Them have no canasta and a Count of −50. Us have won after this one hand: 1,100 to −50.
WINNING_HAND = {"sides": [{"natural_canastas": 2, "went_out": True, "count": 0}, {"count": -50}]}


class _Stay(urllib.request.HTTPRedirectHandler):
    """A phone that reads a redirect's Location rather than following it."""

    def redirect_request(self, *args, **kwargs):
        return None


class Phone:
    """A browser on the server: its own cookies (its session, so its own device key)."""

    def __init__(self, base: str):
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), _Stay()
        )

    def post(self, path: str, fields: dict | None = None) -> tuple[int, str]:
        """A form posted from Scorepad's own page: the status, and where it leads (or the page)."""
        data = urllib.parse.urlencode(fields or {}).encode()
        request = urllib.request.Request(self.base + path, data=data, method="POST")
        request.add_header("Content-Type", "application/x-www-form-urlencoded")
        request.add_header("Sec-Fetch-Site", "same-origin")
        try:
            with self.opener.open(request, timeout=TIMEOUT) as answer:
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.headers.get("Location") or error.read().decode()


def _finished_game(server) -> tuple[str, str]:  # noqa: F811
    """A game Us have won in one hand (WINNING_HAND): its id and edit token."""
    status, _, body = server.call("POST", "/api/games", game_document(target=1000))
    assert status == 201, body
    created = json.loads(body)
    game_id, token = created["id"], created["edit_token"]
    status, _, body = server.call(
        "POST", f"/api/games/{game_id}/hands", WINNING_HAND, {"Authorization": f"Bearer {token}"}
    )
    assert status == 201, body
    finished = json.loads(body)
    assert (finished["status"], finished["totals"]) == ("finished", [1100, -50])
    return game_id, token


def _scorekeepers(server, game_id: str, token: str, n: int) -> list[Phone]:  # noqa: F811
    """n phones, each made a scorekeeper of the game by the API's link (its key: the edit token)."""
    phones = [Phone(server.base) for _ in range(n)]
    for phone in phones:
        assert phone.post(f"/games/{game_id}/claim", {"key": token}) == (303, f"/games/{game_id}")
    return phones


def test_two_phones_tapping_rematch_at_the_same_moment_start_one_next_game(server):  # noqa: F811
    """Two scorekeeping phones of one table tap Rematch together: one next game, which both keep score of, and the
    finished game's scoreboard leads there (not one game per phone, the table's watchers following only one)."""
    rounds = 6
    for _ in range(rounds):
        game_id, token = _finished_game(server)
        phones = _scorekeepers(server, game_id, token, 2)
        together = threading.Barrier(2, timeout=TIMEOUT)

        def tap(phone: Phone, game_id: str = game_id, together: threading.Barrier = together) -> tuple[int, str]:
            together.wait()
            return phone.post(f"/games/{game_id}/rematch")

        with ThreadPoolExecutor(max_workers=2) as pool:
            answers = list(pool.map(tap, phones))
        assert [status for status, _ in answers] == [303, 303], answers
        first, second = (where for _, where in answers)
        assert first == second, f"two next games for one table: {first} and {second}"
        # The finished game's scoreboard takes its watchers to that same game.
        status, _, body = server.call("GET", f"/games/{game_id}/scoreboard")
        assert status == 200
        assert f"/games/{first.rsplit('/', 1)[1]}/scoreboard" in body.decode()


# --- The instant inside one request: another phone's change lands there -------------------------------------------


def elsewhere(change):
    """Another phone's request, made and answered in the middle of this one: on a thread of its own, so with its own
    request, app context and database session, as on a server (a request made inside another shares its session)."""
    answers = []
    thread = threading.Thread(target=lambda: answers.append(change()))
    thread.start()
    thread.join(TIMEOUT)
    assert answers, "the other phone's request did not finish"
    return answers[0]


def _api_hand(i: int) -> dict:
    """tests/test_concurrency.py's hand(i): Us go out with two mixed canastas (2 × 300 + 100 = 700, Count 0); Them
    have no canasta and a Count of −5 × (i + 1)."""
    return {"sides": [{"mixed_canastas": 2, "went_out": True, "count": 0}, {"count": -5 * (i + 1)}]}


def _kept_figures_are_the_hands(app, game_id: str) -> None:
    """The figures kept with the game's row are its stored hands' (docs/architecture.md: kept for the version
    they were worked out for), read straight from the tables."""
    from scorepad import rules
    from scorepad.models import GameRecord, HandRecord, db

    with app.app_context():
        record = db.session.get(GameRecord, game_id)
        hands = db.session.scalar(
            db.select(db.func.count()).select_from(HandRecord).where(HandRecord.game_id == game_id)
        )
        if record.figures_version == record.version:
            assert len(rules.score_from_json(record.figures).hands) == hands, "kept figures of another set of hands"


def _age_the_right(app, game_id: str) -> None:
    """This game's rights last used an hour ago: the next page that uses one notes it (rights.TOUCH_EVERY), a commit
    in the middle of the request."""
    from datetime import UTC, datetime, timedelta

    from scorepad.models import GameRight, db

    with app.app_context():
        db.session.execute(
            db.update(GameRight)
            .where(GameRight.game_id == game_id)
            .values(last_used_at=datetime.now(UTC) - timedelta(hours=1))
        )
        db.session.commit()


def test_a_delete_read_before_another_phones_hand_is_refused_even_after_the_right_is_noted(
    app, client, api_game, monkeypatch
):
    """The page deleting hand 1 reads the game (2 hands), notes this phone's use of its right (a commit), and in
    that instant another phone saves hand 3. The delete was worked out on 2 hands: it is refused in words, nothing
    deleted, and the kept figures stay the stored hands' (not written for 1 hand beside 2 stored ones)."""
    from scorepad import rights

    game_id, token, auth = api_game
    for i in range(2):
        assert client.post(f"/api/games/{game_id}/hands", json=_api_hand(i), headers=auth).status_code == 201
    assert client.post(f"/games/{game_id}/claim", data={"key": token}).status_code == 303
    _age_the_right(app, game_id)
    noting, other = rights._note_use, app.test_client()

    def another_hand_then_note(*args):
        if (
            elsewhere(lambda: other.get(f"/api/games/{game_id}").get_json()["revision"]) == 3
        ):  # once: the hand of the other phone
            saved = elsewhere(lambda: other.post(f"/api/games/{game_id}/hands", json=_api_hand(2), headers=auth))
            assert saved.status_code == 201
        return noting(*args)

    monkeypatch.setattr(rights, "_note_use", another_hand_then_note)
    response = client.post(f"/games/{game_id}/hands/1/delete")
    monkeypatch.setattr(rights, "_note_use", noting)

    assert response.status_code == 303
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "The game was changed on another phone at the same moment: nothing was deleted." in page
    doc = client.get(f"/api/games/{game_id}").get_json()
    # Three hands, none deleted: Us 3 × 700 = 2,100; Them −5 − 10 − 15 = −30.
    assert (len(doc["hands"]), doc["totals"]) == (3, [2100, -30])
    _kept_figures_are_the_hands(app, game_id)


def test_an_undo_racing_a_rematch_started_on_another_phone_takes_nothing_back(app, client, monkeypatch):
    """The winning hand's Undo passes its checks (no rematch yet); in the instant before it holds the game, another
    scorekeeping phone starts the rematch. The Undo is refused: the finished game is not reopened under its
    rematch (issue 15: Undo never after the game moved on)."""
    from scorepad import store

    from .test_games import cumulative, finished_game, offered, same_device

    game = finished_game(client)
    form = offered(client, game)[1]  # the winning hand's Undo, on the page that followed it
    other = same_device(app, client)
    writing, started = store._writing, []

    def rematch_then_hold(*args, **kwargs):
        if not started:
            started.append(elsewhere(lambda: other.post(f"/games/{game}/rematch")).headers["Location"])
        return writing(*args, **kwargs)

    monkeypatch.setattr(store, "_writing", rematch_then_hold)
    response = client.post(f"/games/{game}/undo", data=form)
    monkeypatch.setattr(store, "_writing", writing)

    assert response.status_code == 303 and started
    assert client.get(f"/api/games/{game}").get_json()["status"] == "finished"
    assert cumulative(client, game) == ["1,585", "440"]  # FIRST_HAND, still there (tests/test_games.py)
    _kept_figures_are_the_hands(app, game)


# --- The hand form's rows of choices (forms.with_picks): the number meant is the one stored -------------------------


@pytest.mark.parametrize(
    ("pick", "box", "meant"),
    [
        ("3", "0", 0),  # a choice tapped, then 0 typed in the box: the box is what was typed last
        ("2", "5", 5),  # a rarer number typed beside a choice
        ("2", "", 2),  # the box emptied again: the choice ticked is what is left
        ("2", "  ", 2),  # a box of spaces is an empty box
        (None, "6", 6),  # typed alone
        ("4", None, 4),  # a box the browser did not send (no JavaScript never leaves it out, a script might)
    ],
)
def test_a_pick_row_and_its_box_store_the_number_meant(client, pick, box, meant):
    from .test_games import FIRST_HAND, NEW_GAME

    game = client.post("/games", data=NEW_GAME).headers["Location"].rsplit("/", 1)[1]
    sent = {**FIRST_HAND}
    sent.pop("s1-natural_canastas", None)
    if pick is not None:
        sent["s1-natural_canastas_pick"] = pick
    if box is not None:
        sent["s1-natural_canastas"] = box
    assert client.post(f"/games/{game}/hands", data=sent).status_code == 303
    them = client.get(f"/api/games/{game}").get_json()["hands"][0]["sides"][1]
    assert them.get("natural_canastas", 0) == meant
    # Them (FIRST_HAND): mixed 300 + Count 140, and 500 a natural canasta: 440 + 500 × meant.
    assert client.get(f"/api/games/{game}").get_json()["totals"][1] == 440 + 500 * meant


def test_a_choice_for_an_entry_the_game_does_not_have_is_never_stored(client):
    """Classic has no sevens canasta: a choice for one (a form of another game's, or a script) stores none."""
    from .test_games import NEW_GAME, hand_form

    game = client.post("/games", data={**NEW_GAME, "preset": "classic"}).headers["Location"].rsplit("/", 1)[1]
    sent = {
        **hand_form({"mixed_canastas": 2, "went_out": "y", "count": 100}, {"count": -50}),
        "s0-sevens_canasta_pick": "1",
    }
    response = client.post(f"/games/{game}/hands", data=sent)
    hands = client.get(f"/api/games/{game}").get_json()["hands"]
    assert all("sevens_canasta" not in side for hand in hands for side in hand["sides"]), (response.status_code, hands)


def test_a_queued_hand_whose_key_was_answered_meanwhile_is_answered_as_one_moment(app, client, api_game, monkeypatch):
    """The phone's queued copy of a hand reads the game (no key answered yet); before it writes, the same hand
    under the same key is stored (the hand form's own post, here the API's); the copy is then answered "applied",
    with the game as it was when found stored. A third phone's hand saved just before that answer is sent is not
    mixed into it: its version and its document's revision and hands are of one moment."""
    from scorepad import store, sync

    game_id, token, auth = api_game
    assert client.post(f"/games/{game_id}/claim", data={"key": token}).status_code == 303
    other, storing, answering, done = app.test_client(), store._store_next, sync._answer, []
    keyed = {**auth, "Idempotency-Key": "hand-1"}

    def form_post_first(*args, **kwargs):
        if not done:  # once (the other phone's own save comes here too)
            done.append(True)
            saved = elsewhere(lambda: other.post(f"/api/games/{game_id}/hands", json=_api_hand(0), headers=keyed))
            assert saved.status_code == 201
        return storing(*args, **kwargs)

    def third_phone_then_answer(*args, **kwargs):
        assert (
            elsewhere(lambda: other.post(f"/api/games/{game_id}/hands", json=_api_hand(1), headers=auth)).status_code
            == 201
        )
        return answering(*args, **kwargs)

    monkeypatch.setattr(store, "_store_next", form_post_first)
    monkeypatch.setattr(sync, "_answer", third_phone_then_answer)
    body = {"hand": _api_hand(0), "base_version": 1, "position": 0}
    response = client.post(f"/sync/games/{game_id}/hands", json=body, headers={"Idempotency-Key": "hand-1"})
    monkeypatch.setattr(store, "_store_next", storing)
    monkeypatch.setattr(sync, "_answer", answering)

    answer = response.get_json()
    assert answer["outcome"] == "applied", answer
    game = answer["game"]
    # The hand stored once (revision 2, one hand: Us 700, Them −5), version and document of that same moment.
    assert (answer["version"], game["revision"], len(game["hands"]), game["totals"]) == (2, 2, 1, [700, -5])
    final = client.get(f"/api/games/{game_id}").get_json()
    assert (final["revision"], len(final["hands"]), final["totals"]) == (3, 2, [1400, -15])  # −5 − 10
