"""The store cannot be broken by any sequence of changes (issue #15).

A stateful property test (hypothesis's RuleBasedStateMachine) plays random sequences of what a scorekeeper
and a script do to games, through the app's real doors with the Flask test client: hands added, corrected and
deleted through the JSON API and through the pages' forms, Undo right after a change on the pages, hands sent
from the phone's offline queue (sync.py, as assets/js/offline.js sends them), games restored from their
exported file (the restore page, and the API), rematches of finished games. A plain model keeps, for each
game, the list of hand bodies it should hold. After every step:

- every game's stored hands (its JSON document, outputs left out) are the model's, in order;
- every figure of the document (each hand's dealer and result, the totals, Minimum Counts, next dealer,
  status and winners) is what `scorepad.rules.score_game` works out from the model's hands, and the
  scoresheet page shows the same figures;
- a game's revision moved if and only if the step changed it;
- no answer was a 5xx.

What is accepted is decided by the rules (`score_game` with its checks, over the whole list of hands the
change would leave): they are tested elsewhere against figures worked out by hand (tests/test_rules.py,
tests/vectors). The hands are drawn valid by construction for the modern presets (the strategy of
tests/test_rules.py, with special hands), or broken on purpose in a way docs/rules.md §5 refuses; the model
then expects a refusal and nothing stored.

Cost: one app (one database, its schema made once by the migrations) per test; each example is a new phone
(a new client, so a new session and device) and new games, so nothing of one example reaches the next.
"""

from __future__ import annotations

import io
import itertools
import json
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlsplit

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from scorepad import document, rules
from scorepad.models import GameRecord, HandRecord, db
from scorepad.rules import RuleError

MODERN_PRESETS = ("modern", "cla", "wca")
TABLES = {
    4: [{"name": "Us", "players": ["Ann", "Cleo"]}, {"name": "Them", "players": ["Bea", "Dot"]}],
    2: [{"name": "Us", "players": ["Ann"]}, {"name": "Them", "players": ["Bea"]}],
}
MOST_GAMES = 4  # games one example plays with (the first, restored copies, rematches, new ones)
MINUS = "\u2212"
IF_MATCH = st.sampled_from(["none", "none", "current", "stale"])  # a PUT or DELETE: If-Match or not

# --- Hands ---------------------------------------------------------------------------------------------


def _canonical(entry: dict) -> dict:
    """A side's entry as the game document gives it back: only what differs from the default (a Count always)."""
    return {k: v for k, v in entry.items() if k == "count" or v not in (0, False, None)}


def _canastas(entry: dict) -> int:
    return (
        entry.get("natural_canastas", 0)
        + entry.get("mixed_canastas", 0)
        + entry.get("sevens_canasta", False)
        + entry.get("aces_canasta", False)
        + (entry.get("wild_canasta") is not None)
    )


@st.composite
def ordinary_sides(draw, preset: str) -> list[dict]:
    """Two side entries the rules accept at any position (the perfect cut is added where the hand is placed):
    tests/test_rules.py's modern_hands, as plain JSON."""
    red0 = draw(st.integers(0, 4))
    red1 = draw(st.integers(0, 4 - red0))
    black0 = draw(st.integers(0, 4))
    black1 = draw(st.integers(0, 4 - black0))
    spare_threes = 8 - red0 - red1 - black0 - black1
    most_in_hand = 2 if preset == "wca" else 0  # modern and cla have no 3s left in hand (a card: 5 in the Count)
    in_hand0 = draw(st.integers(0, min(most_in_hand, spare_threes)))
    in_hand1 = draw(st.integers(0, min(most_in_hand, spare_threes - in_hand0)))
    # A special canasta is worth thousands: rarer than at a real table, so that a game lasts a few hands.
    owner = st.sampled_from([None, None, None, None, 0, 1])
    sevens_owner, aces_owner, wild_owner = draw(owner), draw(owner), draw(owner)
    wild_kind = draw(st.sampled_from(["deuces", "jokers", "mixed"]))
    last_draw_side = draw(st.sampled_from([None, 0, 1]))
    entries = []
    for i, (red, black, in_hand) in enumerate([(red0, black0, in_hand0), (red1, black1, in_hand1)]):
        entry = {
            "red_threes": red,
            "black_threes": black,
            "natural_canastas": draw(st.integers(0, 2)),
            "mixed_canastas": draw(st.integers(0, 2)),
            "sevens_canasta": sevens_owner == i,
            "aces_canasta": aces_owner == i,
            "wild_canasta": wild_kind if wild_owner == i else None,
            "incomplete_wild": wild_owner is None and draw(st.booleans()),
            "dirty_sevens": 0 if sevens_owner is not None else draw(st.integers(0, 1)),
            "dirty_aces": 0 if aces_owner is not None else draw(st.integers(0, 1)),
            "threes_in_hand": in_hand,
            "last_draw_three": last_draw_side == i and in_hand >= 1,
        }
        # No canasta: the Count is never above 0 (§2); the pack is 1,160 points either way (§5.7).
        entry["count"] = 5 * draw(st.integers(-100, 200 if _canastas(entry) else 0))
        entries.append(entry)
    goer = draw(st.sampled_from([None, 0, 1]))
    if goer is not None and _canastas(entries[goer]) >= 2 and not entries[goer]["incomplete_wild"]:
        entries[goer]["went_out"] = True  # two canastas and no unfinished special meld (§5.4)
    return [_canonical(e) for e in entries]


# Ways to break an ordinary hand that docs/rules.md §5 refuses whatever the rest of the hand holds.
def _count_off_five(sides: list[dict], i: int) -> None:
    sides[i]["count"] += 1  # §5.7: a multiple of 5


def _five_red_threes(sides: list[dict], i: int) -> None:
    sides[i]["red_threes"] = 5  # §5.1: 0 to 4


def _both_out(sides: list[dict], i: int) -> None:
    for side in sides:
        side["went_out"] = True  # §5.3: at most one side goes out


def _count_beyond_the_pack(sides: list[dict], i: int) -> None:
    sides[i]["count"] = -1200  # §5.7: no larger either way than the pack's 1,160


def _out_on_one_canasta(sides: list[dict], i: int) -> None:
    for key in ("natural_canastas", "sevens_canasta", "aces_canasta", "wild_canasta"):
        sides[i].pop(key, None)
    sides[i].update(mixed_canastas=1, went_out=True)  # §5.4: going out needs two canastas
    if sides[1 - i].get("went_out"):
        del sides[1 - i]["went_out"]


BREAKS = (_count_off_five, _five_red_threes, _both_out, _count_beyond_the_pack, _out_on_one_canasta)


@dataclass(frozen=True)
class HandSpec:
    """A hand before it has a place: its sides, whether the cutter's side claims a perfect cut, and how it
    was broken on purpose (None: drawn valid)."""

    sides: tuple[str, ...]  # each side's entry as JSON text (frozen, hashable)
    perfect_cut: bool
    broken: str | None

    def body(self, table: rules.Table, position: int) -> dict:
        """The hand as sent for `position`: the perfect cut, if any, on that hand's cutter's side."""
        sides = [json.loads(side) for side in self.sides]
        if self.perfect_cut:
            sides[table.cutter_side(position)]["perfect_cut"] = True
        return {"sides": sides}


@st.composite
def hand_specs(draw, game_rules: rules.Rules) -> HandSpec:
    sides = draw(ordinary_sides(game_rules.preset))
    kind = draw(st.integers(0, 9))
    broken = None
    if kind == 0 and game_rules.special_hands:
        # A special hand ends the hand: that side's only entry (as the hand form sends it), nobody goes out.
        special_side = draw(st.integers(0, 1))
        key = draw(st.sampled_from([key for key, _points in game_rules.special_hands]))
        sides[special_side] = {"special_hand": key}
        sides[1 - special_side].pop("went_out", None)
    elif kind == 3:
        # The paper way: a side reports its own Base (§1), and gives its Count, which may be above 0 (§5.12).
        reported = {"reported_base": 5 * draw(st.integers(-600, 600)), "count": 5 * draw(st.integers(-100, 200))}
        sides[draw(st.integers(0, 1))] = reported
    elif kind in (1, 2):
        fault = draw(st.sampled_from(BREAKS))
        fault(sides, draw(st.integers(0, 1)))
        broken = fault.__name__
    # Now and then a perfect cut: a hand with one is refused once a deletion moves it to the other side's cut.
    perfect_cut = draw(st.sampled_from([False, False, False, True]))
    return HandSpec(tuple(json.dumps(side, sort_keys=True) for side in sides), perfect_cut, broken)


def form_fields(body: dict) -> dict[str, str]:
    """The hand form's fields for a hand body, as a browser sends them (the hand's perfect cut is one switch)."""
    data = {}
    for i, side in enumerate(body["sides"]):
        data[f"s{i}-count_mode"] = "number"
        for name, value in side.items():
            if name == "perfect_cut":
                data["perfect_cut"] = "y"
            elif name in ("count", "reported_base"):
                data[f"s{i}-{name}_sign"] = "-" if value < 0 else "+"
                data[f"s{i}-{name}"] = str(abs(value))
            elif value is True:
                data[f"s{i}-{name}"] = "y"
            else:
                data[f"s{i}-{name}"] = str(value)
    return data


def is_blank(body: dict) -> bool:
    """Nothing entered but Counts of 0: the hand form refuses it (a tap on Save too early), the API does not."""
    return all(side in ({}, {"count": 0}) for side in body["sides"])


# --- Pages ---------------------------------------------------------------------------------------------


class _Forms(HTMLParser):
    """Every form of a page: its action, its hidden fields, and its submit button's name and value if it has one
    (what a browser sends of a form the user only taps)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[dict] = []
        self._open: dict | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self._open = {"action": a.get("action", ""), "method": a.get("method", "get").lower(), "fields": {}}
            self.forms.append(self._open)
        elif self._open is not None and tag == "input" and a.get("name") and a.get("type", "").lower() == "hidden":
            self._open["fields"].setdefault(a["name"], a.get("value", ""))
        elif (
            self._open is not None and tag == "button" and a.get("name") and a.get("type", "submit").lower() == "submit"
        ):
            self._open.setdefault("button", (a["name"], a.get("value", "")))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._open = None


def forms_of(page: str) -> list[dict]:
    parser = _Forms()
    parser.feed(page)
    return parser.forms


def post_form(page: str, action: str) -> dict | None:
    """The post form of a page whose action is `action` (or ends with it): its hidden fields, and its submit
    button's name if it has one. None if the page has none."""
    for form in forms_of(page):
        if form["method"] == "post" and form["action"].split("#")[0].split("?")[0].endswith(action):
            fields = dict(form["fields"])
            if "button" in form:
                fields.setdefault(*form["button"])
            return {"action": form["action"], "fields": fields}
    return None


def _number(text: str) -> int:
    """A figure as the page writes it (1,685 and \u22122,060) as a number."""
    return int(text.strip().replace(",", "").replace(MINUS, "-"))


def page_figures(page: str) -> dict:
    """What the scoresheet shows: the totals, and per hand and side its Base, Count, hand total and total."""
    sheet = page.split('<div id="scoresheet">', 1)[1]
    standings, grid = sheet.split("</section>", 1)
    grid = grid.split("</table>", 1)[0]
    cells = re.findall(r'class="(base|count|hand-total|cumulative)">([^<]+)<', grid)
    winner = re.search(r'<p class="winner" role="status"><strong>([^<]*)</strong>', standings)
    return {
        "totals": [_number(t) for t in re.findall(r'class="total-figure">([^<]*)<', standings)],
        "cells": [(kind, _number(value)) for kind, value in cells],
        "winner": " ".join(winner.group(1).split()) if winner else None,
        "version": int(re.search(r'id="game-document"[^>]*data-version="(\d+)"', page).group(1)),
    }


# --- The model -----------------------------------------------------------------------------------------


@dataclass
class ModelGame:
    """A game as the model keeps it: what it must hold, and what the tests know of it."""

    id: str
    rules: rules.Rules
    table: rules.Table
    token: str | None  # the API's edit token (None: restored on the page or a rematch, kept by the phone only)
    hands: list[dict] = field(default_factory=list)
    revision: int = 0  # as last seen
    changed: bool = False  # changed since last seen
    changes: int = 0  # changes made to it so far (an Undo offered after change n is void after change n + 1)
    keys: dict[str, dict] = field(default_factory=dict)  # Idempotency-Key -> the hand first stored with it

    @property
    def score(self) -> rules.GameScore:
        return rules.score_game(self.rules, self.table, [document.hand_from_json(h) for h in self.hands], check=False)

    @property
    def finished(self) -> bool:
        return self.score.finished

    def accepts(self, hands: list[dict]) -> bool:
        """Whether the rules take the game with these hands: each hand at its place, none after the end."""
        try:
            rules.score_game(self.rules, self.table, [document.hand_from_json(h) for h in hands], check=True)
        except RuleError:
            return False
        return True

    def takes(self, body: dict) -> bool:
        """Whether the game takes this hand as its next one."""
        return not self.finished and self.accepts([*self.hands, body])

    def change(self, hands: list[dict]) -> None:
        self.hands = hands
        self.changed = True
        self.changes += 1


@dataclass
class UndoOffer:
    """The Undo form of the page that followed a change on the pages, and the hands it would bring back."""

    game: ModelGame
    action: str
    fields: dict
    hands_before: list[dict]
    after_change: int  # the game's change count once the change was made


@dataclass
class PageChange:
    """The last hand form sent (for the double tap): where, what, and the game's change count before it."""

    game: ModelGame
    action: str
    data: dict
    changes_before: int


class StoreSequences(RuleBasedStateMachine):
    """Random sequences of changes to a few games, against the model (`app`: set by the `machine` fixture)."""

    app: Any = None

    def __init__(self) -> None:
        super().__init__()
        self.phone = self.app.test_client()  # the scorekeeper's phone: a new device each example
        self.watcher = self.app.test_client()  # another player's phone: reads only
        self.games: list[ModelGame] = []
        self.touched: set[str] = set()  # games the step sent something to
        self.new: set[str] = set()  # games the step made
        self.offers: list[UndoOffer] = []
        self.fresh_offer: UndoOffer | None = None
        self.last_page_change: PageChange | None = None
        self.rematches: dict[str, str] = {}  # finished game -> its rematch (one per game, whichever phone asks)
        self.serial = itertools.count()

    # --- Talking to the app

    def call(self, client, method: str, url: str, **kwargs):
        response = client.open(url, method=method, **kwargs)
        assert response.status_code < 500, f"{method} {url}: {response.status_code} {response.get_data(as_text=True)}"
        return response

    def api(self, game: ModelGame, method: str, url: str, **kwargs):
        headers = {"Authorization": f"Bearer {game.token}", **kwargs.pop("headers", {})}
        return self.call(self.phone, method, url, headers=headers, **kwargs)

    def pick(self, n: int, *, tokens: bool = False, prefer=None) -> ModelGame | None:
        """Game n (of those with an edit token for the API); those `prefer` likes when there are any, and mostly
        the first game, so that some game grows long."""
        games = [g for g in self.games if g.token] if tokens else self.games
        if prefer is not None:
            games = [g for g in games if prefer(g)] or games
        if not games:
            return None
        return games[0] if n < 50 else games[n % len(games)]

    def new_key(self) -> str:
        return f"hand-{next(self.serial)}-{id(self):x}"

    def adopt(self, game_id: str, game_rules: rules.Rules, table: rules.Table, token: str | None, hands: list[dict]):
        game = ModelGame(id=game_id, rules=game_rules, table=table, token=token, hands=list(hands))
        game.revision = self.call(self.phone, "GET", f"/api/games/{game_id}").get_json()["revision"]
        self.games.append(game)
        self.touched.add(game.id)
        self.new.add(game.id)
        return game

    def claim(self, game_id: str, token: str) -> None:
        """This phone keeps score of a game made through the API: its link's key claimed, as scorepad.js does."""
        response = self.call(self.phone, "POST", f"/games/{game_id}/claim", data={"key": token})
        assert response.status_code == 303

    def before_step(self) -> None:
        """Undo is offered on the page right after a change: any other step first and it is no longer fresh."""
        self.fresh_offer = None

    # --- Games

    @initialize(spec=st.tuples(st.sampled_from(MODERN_PRESETS), st.sampled_from(sorted(TABLES)), st.data()))
    def first_game(self, spec):
        """The first game comes with a few hands already played (a document sent with its hands), so that
        corrections and deletions have hands to move from the start."""
        self.new_game(spec, hands=spec[2].draw(st.integers(0, 8), label="hands played"))

    @precondition(lambda self: len(self.games) < 2)  # more come from restoring and rematches
    @rule(spec=st.tuples(st.sampled_from(MODERN_PRESETS), st.sampled_from(sorted(TABLES)), st.data()))
    def new_game(self, spec, hands: int = 0):
        """A game made through the API (some to a low target, so that games finish), kept on the phone through its
        link."""
        self.before_step()
        preset, players, data = spec
        target = data.draw(st.sampled_from([2500, 8500, 20000]), label="target")
        tie = data.draw(st.sampled_from(["play_on", "shared", "went_out"]), label="tie")
        first_dealer = data.draw(st.integers(0, players - 1), label="first dealer")
        table = rules.Table(
            sides=tuple(rules.Side(s["name"], tuple(s["players"])) for s in TABLES[players]), first_dealer=first_dealer
        )
        game = ModelGame(id="", rules=rules.make_rules(preset, target=target, tie=tie), table=table, token=None)
        for _ in range(hands):  # each hand one the game takes at its place, none after the end
            body = data.draw(hand_specs(game.rules), label="hand played").body(table, len(game.hands))
            if game.takes(body):
                game.hands.append(body)
        sent = {
            "format": "scorepad-game",
            "version": 1,
            "rules": {"preset": preset, "target": target, "tie": tie},
            "sides": TABLES[players],
            "first_dealer": first_dealer,
            "hands": game.hands,
        }
        response = self.call(self.phone, "POST", "/api/games", json=sent)
        assert response.status_code == 201, response.get_json()
        body = response.get_json()
        self.claim(body["id"], body["edit_token"])
        self.adopt(body["id"], game.rules, table, body["edit_token"], game.hands)

    # --- Adding a hand

    def expect_add(self, game: ModelGame, body: dict, spec: HandSpec) -> bool:
        takes = game.takes(body)
        if spec.broken:
            assert not game.accepts([*game.hands, body]), f"the rules took a hand broken by {spec.broken}: {body}"
        return takes

    @rule(n=st.integers(0, 99), data=st.data(), keyed=st.sampled_from(["none", "new", "another game's"]))
    def api_add(self, n, data, keyed):
        """POST /api/games/<id>/hands, with or without an Idempotency-Key (a key is per game)."""
        self.before_step()
        game = self.pick(n, tokens=True)
        if game is None:
            return
        spec = data.draw(hand_specs(game.rules), label="hand")
        body = spec.body(game.table, len(game.hands))
        headers = {}
        borrowed = sorted({k for g in self.games if g is not game for k in g.keys} - set(game.keys))
        if keyed == "another game's" and borrowed:
            headers["Idempotency-Key"] = data.draw(st.sampled_from(borrowed), label="another game's key")
        elif keyed != "none":
            headers["Idempotency-Key"] = self.new_key()
        takes = self.expect_add(game, body, spec)
        response = self.api(game, "POST", f"/api/games/{game.id}/hands", json=body, headers=headers)
        self.touched.add(game.id)
        if takes:
            assert response.status_code == 201, response.get_json()
            game.change([*game.hands, body])
            if "Idempotency-Key" in headers:
                game.keys[headers["Idempotency-Key"]] = body
        else:
            assert response.status_code == (409 if game.finished else 422), response.get_json()

    @rule(n=st.integers(0, 99), data=st.data())
    def api_add_again(self, n, data):
        """A retry after a lost answer: the same Idempotency-Key with the same hand stores nothing and is answered
        with the game as it is now; with another hand it is refused (422) and stores nothing."""
        self.before_step()
        games = [g for g in self.games if g.token and g.keys]
        if not games:
            return
        game = games[n % len(games)]
        key = data.draw(st.sampled_from(sorted(game.keys)), label="key")
        if data.draw(st.booleans(), label="the same hand"):
            body = game.keys[key]
        else:
            body = data.draw(hand_specs(game.rules), label="another hand").body(game.table, 0)
        response = self.api(game, "POST", f"/api/games/{game.id}/hands", json=body, headers={"Idempotency-Key": key})
        if body == game.keys[key]:
            assert response.status_code == 201, response.get_json()
            assert [strip(h) for h in response.get_json()["hands"]] == game.hands  # the game as it is now
        else:
            assert response.status_code == 422, response.get_json()

    def open_page_form(self, game: ModelGame, form_url: str, action: str) -> dict:
        """The hand form's own hidden fields (the game's version among them), as the browser got them."""
        response = self.call(self.phone, "GET", form_url)
        assert response.status_code == 200
        form = post_form(response.get_data(as_text=True), action)
        assert form is not None, f"no form posting to {action} on {form_url}"
        return form["fields"]

    def after_page_change(self, game: ModelGame, response, hands_before: list[dict], undo_it: bool) -> None:
        """The page that follows a change: the scoresheet, with its Undo form, tapped at once if `undo_it` (the
        change checked first), else kept for a later step."""
        assert response.status_code == 303, response.status_code
        following = response.headers["Location"]
        assert urlsplit(following).path == f"/games/{game.id}", following  # the scoresheet (maybe with a query)
        page = self.call(self.phone, "GET", following)
        assert page.status_code == 200
        form = post_form(page.get_data(as_text=True), f"/games/{game.id}/undo")
        assert form is not None, "the page after a change offers no Undo"
        offer = UndoOffer(game, form["action"], form["fields"], hands_before, game.changes)
        self.offers.append(offer)
        self.fresh_offer = offer
        if undo_it:
            self.check_all()
            self.post_undo(offer)
            self.fresh_offer = None

    @rule(n=st.integers(0, 99), data=st.data(), undo_it=st.booleans())
    def page_add(self, n, data, undo_it):
        """The hand form: opened (it carries the game's version), filled in and saved."""
        self.before_step()
        game = self.pick(n, prefer=lambda g: not g.finished)
        spec = data.draw(hand_specs(game.rules), label="hand")
        body = spec.body(game.table, len(game.hands))
        action = f"/games/{game.id}/hands"
        takes = self.expect_add(game, body, spec) and not is_blank(body)
        self.touched.add(game.id)
        if game.finished:
            response = self.call(self.phone, "GET", f"/games/{game.id}/hands/new")
            assert response.status_code == 303  # a finished game has no next hand to enter
            response = self.call(self.phone, "POST", action, data=form_fields(body))  # a form opened before
            assert response.status_code == 303
            return
        fields = {**self.open_page_form(game, f"/games/{game.id}/hands/new", action), **form_fields(body)}
        before, changes = list(game.hands), game.changes
        response = self.call(self.phone, "POST", action, data=fields)
        self.last_page_change = PageChange(game, action, fields, changes)
        if takes:
            game.change([*game.hands, body])
            self.after_page_change(game, response, before, undo_it)
        else:
            assert response.status_code == 422

    @precondition(lambda self: self.last_page_change is not None)
    @rule()
    def page_form_sent_again(self):
        """The last hand form sent again (a double tap, a retry on bad Wi-Fi): stored once. If the game changed
        since the form was opened, nothing is stored; the answer is the scoresheet or the form again (409)."""
        self.before_step()
        sent = self.last_page_change
        game = sent.game
        self.touched.add(game.id)
        if game.changes == sent.changes_before:  # the first one was refused: this one is judged the same way
            return
        response = self.call(self.phone, "POST", sent.action, data=sent.data)
        assert response.status_code in (303, 409), response.status_code
        self.last_page_change = None  # sent twice is enough

    # --- The phone's offline queue

    def sync(self, game: ModelGame, body: dict, key: str, base_version: int, position: int):
        return self.call(
            self.phone,
            "POST",
            f"/sync/games/{game.id}/hands",
            json={"hand": body, "base_version": base_version, "position": position},
            headers={"Idempotency-Key": key},
        )

    def version_on_page(self, game: ModelGame) -> int:
        """The version the scoresheet carries (offline.js reads its data-version)."""
        return page_figures(self.call(self.watcher, "GET", f"/games/{game.id}").get_data(as_text=True))["version"]

    @rule(n=st.integers(0, 99), data=st.data())
    def sync_add(self, n, data):
        """A hand entered offline, sent once the connection is back, on the version and at the place it was
        entered: stored (201), or refused by the rules (422), or a conflict if the game is over (409)."""
        self.before_step()
        game = self.pick(n)
        spec = data.draw(hand_specs(game.rules), label="hand")
        body = spec.body(game.table, len(game.hands))
        takes = self.expect_add(game, body, spec)
        key = self.new_key()
        response = self.sync(game, body, key, self.version_on_page(game), len(game.hands))
        self.touched.add(game.id)
        answer = response.get_json()
        if takes:
            assert (response.status_code, answer["outcome"]) == (201, "applied"), answer
            game.change([*game.hands, body])
            game.keys[key] = body
        elif game.finished:
            assert (response.status_code, answer["outcome"]) == (409, "conflict"), answer
        else:
            assert (response.status_code, answer["outcome"]) == (422, "refused"), answer
        if "game" in answer:
            assert [strip(h) for h in answer["game"]["hands"]] == game.hands

    @rule(n=st.integers(0, 99), data=st.data())
    def sync_again(self, n, data):
        """A queued hand sent again after its answer was lost: answered "applied", nothing stored twice."""
        self.before_step()
        games = [g for g in self.games if g.keys]
        if not games:
            return
        game = games[n % len(games)]
        key = data.draw(st.sampled_from(sorted(game.keys)), label="key")  # the API's keys are the same keys
        response = self.sync(game, game.keys[key], key, 0, 0)  # the queue sends a key with its own hand
        assert (response.status_code, response.get_json()["outcome"]) == (200, "applied")
        self.touched.add(game.id)

    @rule(n=st.integers(0, 99), data=st.data())
    def sync_stale(self, n, data):
        """A queued hand entered on an older version of the game: a conflict (409) with nothing stored, even when
        the same hand is stored at its place (another phone's hand, not this one's: the form's own post is known by
        its key, as sync_again sends it)."""
        self.before_step()
        game = self.pick(n, prefer=lambda g: g.hands)
        version = self.version_on_page(game)
        if version <= 1 or not game.hands:
            return
        already = data.draw(st.booleans(), label="already stored")
        if already:
            body, position = game.hands[-1], len(game.hands) - 1
        else:
            body = data.draw(hand_specs(game.rules), label="hand").body(game.table, len(game.hands))
            position = len(game.hands) - 1
        response = self.sync(game, body, self.new_key(), version - 1, position)
        self.touched.add(game.id)
        assert (response.status_code, response.get_json()["outcome"]) == (409, "conflict")

    # --- Correcting a hand

    def if_match(self, game: ModelGame, choice: str) -> dict:
        if choice == "current":
            return {"If-Match": f'"{game.revision}"'}
        if choice == "stale":
            return {"If-Match": f'"{game.revision - 1}"'}
        return {}

    @rule(n=st.integers(0, 99), at=st.integers(0, 99), data=st.data(), match=IF_MATCH)
    def api_edit(self, n, at, data, match):
        """PUT /api/games/<id>/hands/<n>: the corrected hand at its place, every later figure following."""
        self.before_step()
        game = self.pick(n, tokens=True, prefer=lambda g: g.hands)
        if game is None:
            return
        position = at % len(game.hands) if game.hands and at % 10 != 9 else len(game.hands)  # now and then none: 404
        spec = data.draw(hand_specs(game.rules), label="hand")
        body = spec.body(game.table, position)
        hands = [*game.hands[:position], body, *game.hands[position + 1 :]]
        response = self.api(
            game, "PUT", f"/api/games/{game.id}/hands/{position}", json=body, headers=self.if_match(game, match)
        )
        self.api_changed(game, response, match, position, hands)

    def api_changed(self, game: ModelGame, response, match: str, position: int, hands: list) -> None:
        """What a PUT or DELETE of hand `position` answers, the model following it: 412 for a stale If-Match, 404
        for no such hand, 200 when the rules take the game with `hands`, else 422."""
        self.touched.add(game.id)
        if match == "stale":
            assert response.status_code == 412
        elif position == len(game.hands):
            assert response.status_code == 404
        elif game.accepts(hands):
            assert response.status_code == 200, response.get_json()
            game.change(hands)
        else:
            assert response.status_code == 422

    @rule(n=st.integers(0, 99), at=st.integers(0, 99), data=st.data(), undo_it=st.booleans())
    def page_edit(self, n, at, data, undo_it):
        """The edit form of a stored hand: opened, corrected and saved."""
        self.before_step()
        game = self.pick(n, prefer=lambda g: g.hands)
        if not game.hands:
            return
        position = at % len(game.hands)
        spec = data.draw(hand_specs(game.rules), label="hand")
        body = spec.body(game.table, position)
        hands = [*game.hands[:position], body, *game.hands[position + 1 :]]
        action = f"/games/{game.id}/hands/{position + 1}"
        fields = {**self.open_page_form(game, f"{action}/edit", action), **form_fields(body)}
        before, changes = list(game.hands), game.changes
        response = self.call(self.phone, "POST", action, data=fields)
        self.touched.add(game.id)
        self.last_page_change = PageChange(game, action, fields, changes)
        if game.accepts(hands) and not is_blank(body):
            game.change(hands)
            self.after_page_change(game, response, before, undo_it)
        else:
            assert response.status_code == 422

    # --- Deleting a hand

    @rule(n=st.integers(0, 99), at=st.integers(0, 99), match=IF_MATCH)
    def api_delete(self, n, at, match):
        """DELETE /api/games/<id>/hands/<n>: the later hands move up one, with new dealers (checked again)."""
        self.before_step()
        game = self.pick(n, tokens=True, prefer=lambda g: g.hands)
        if game is None:
            return
        position = at % len(game.hands) if game.hands and at % 10 != 9 else len(game.hands)  # now and then none: 404
        hands = game.hands[:position] + game.hands[position + 1 :]
        response = self.api(
            game, "DELETE", f"/api/games/{game.id}/hands/{position}", headers=self.if_match(game, match)
        )
        self.api_changed(game, response, match, position, hands)

    @rule(n=st.integers(0, 99), at=st.integers(0, 99), undo_it=st.booleans())
    def page_delete(self, n, at, undo_it):
        """Delete on the scoresheet: asked first, then posted."""
        self.before_step()
        game = self.pick(n, prefer=lambda g: g.hands)
        if not game.hands:
            return
        number = at % len(game.hands) + 1
        confirm = self.call(self.phone, "GET", f"/games/{game.id}/hands/{number}/delete")
        assert confirm.status_code == 200
        action = f"/games/{game.id}/hands/{number}/delete"
        form = post_form(confirm.get_data(as_text=True), action)
        assert form is not None, "the confirmation has no form that deletes the hand"
        hands = game.hands[: number - 1] + game.hands[number:]
        before = list(game.hands)
        response = self.call(self.phone, "POST", action, data=form["fields"])
        self.touched.add(game.id)
        assert response.status_code == 303
        if game.accepts(hands):
            game.change(hands)
            self.after_page_change(game, response, before, undo_it)

    # --- Undo

    @precondition(lambda self: self.fresh_offer is not None)
    @rule()
    def undo(self):
        """Undo, tapped on the page right after the change: the game is as it was before it."""
        offer = self.fresh_offer
        self.before_step()
        self.post_undo(offer)

    @precondition(lambda self: any(o.game.changes != o.after_change for o in self.offers))
    @rule(n=st.integers(0, 99))
    def undo_too_late(self, n):
        """An Undo form from a page shown before the game changed again (here, by the API or the queue, or by
        the Undo itself): nothing is taken back."""
        self.before_step()
        stale = [o for o in self.offers if o.game.changes != o.after_change]
        self.post_undo(stale[n % len(stale)])

    def post_undo(self, offer: UndoOffer) -> None:
        game = offer.game
        response = self.call(self.phone, "POST", offer.action, data=offer.fields)
        # Taken back or not, the answer is the scoresheet or a page that says why (the invariants check which).
        assert response.status_code in (200, 303, 409, 422), response.status_code
        self.touched.add(game.id)
        if game.changes == offer.after_change:
            game.change(list(offer.hands_before))
        # Otherwise the game has changed since: the invariants check that nothing was taken back.

    # --- Restoring a game, and the next game

    @precondition(lambda self: len(self.games) < MOST_GAMES)
    @rule(n=st.integers(0, 99), door=st.sampled_from(["restore page", "api"]))
    def restore(self, n, door):
        """The game's exported file restored as a new game: on the home page, or sent to POST /api/games. The
        copy holds the same hands (and so the same figures)."""
        self.before_step()
        game = self.pick(n)
        exported = self.call(self.phone, "GET", f"/games/{game.id}/export.json")
        assert exported.status_code == 200
        if door == "api":
            response = self.call(
                self.phone, "POST", "/api/games", data=exported.get_data(), content_type="application/json"
            )
            assert response.status_code == 201, response.get_json()
            copy_id, token = response.get_json()["id"], response.get_json()["edit_token"]
            self.claim(copy_id, token)
        else:
            response = self.call(
                self.phone,
                "POST",
                "/games/import",
                data={"document": (io.BytesIO(exported.get_data()), "game.json")},
                content_type="multipart/form-data",
            )
            assert response.status_code == 303
            copy_id, token = response.headers["Location"].rsplit("/", 1)[1], None
        assert copy_id != game.id
        copy = self.adopt(copy_id, game.rules, game.table, token, game.hands)
        assert self.document(copy)["rules"] == self.document(game)["rules"]

    @precondition(lambda self: len(self.games) < MOST_GAMES)
    @rule(n=st.integers(0, 99))
    def rematch(self, n):
        """Rematch: on a finished game, the next game at once (the same table and rules, the next dealer first);
        tapped twice, the same new game; on a game not over, refused (409)."""
        self.before_step()
        game = self.pick(n, prefer=lambda g: g.finished)
        if not game.finished and n % 4 != 3:
            return  # now and then a game not over, refused
        response = self.call(self.phone, "POST", f"/games/{game.id}/rematch")
        if not game.finished:
            assert response.status_code == 409
            return
        assert response.status_code == 303
        new_id = response.headers["Location"].rsplit("/", 1)[1]
        if game.id in self.rematches:
            assert new_id == self.rematches[game.id]  # tapped again, or after the game was reopened: no second game
            return
        assert new_id not in [g.id for g in self.games]
        self.rematches[game.id] = new_id
        table = rules.Table(sides=game.table.sides, first_dealer=game.score.next_dealer)
        copy = self.adopt(new_id, game.rules, table, None, [])
        assert self.document(copy)["rules"] == self.document(game)["rules"]

    # --- After every step

    def document(self, game: ModelGame) -> dict:
        response = self.call(self.watcher, "GET", f"/api/games/{game.id}")
        assert response.status_code == 200
        return response.get_json()

    @invariant()
    def every_game_holds_the_models_hands_and_figures(self):
        self.check_all()

    def check_all(self) -> None:
        """Every game's stored hands (read from the database, not from an answer kept for a revision) are the
        model's, and its revision moved if and only if it changed; a game the step touched also says, in its
        document and on its scoresheet, the figures the rules work out from the model's hands."""
        stored, versions = stored_hands(self.app, [g.id for g in self.games])
        for game in self.games:
            assert stored.get(game.id, []) == game.hands, f"game {game.id}"
            changed = game.changed
            if changed:
                assert versions[game.id] > game.revision, "a change that left the revision where it was"
            else:
                assert versions[game.id] == game.revision, "the revision moved though nothing changed"
            game.revision, game.changed = versions[game.id], False
            if game.id in self.touched:
                doc = self.document(game)
                assert doc["revision"] == game.revision
                assert [strip(h) for h in doc["hands"]] == game.hands, f"game {game.id}"
                self.check_figures(game, doc, page=changed or game.id in self.new)
        self.touched.clear()
        self.new.clear()

    def check_figures(self, game: ModelGame, doc: dict, page: bool) -> None:
        """The document and (when the game is new or changed: a page is made once per revision) the scoresheet
        page say what the rules work out from the model's hands."""
        score = game.score
        assert doc["first_dealer"] == game.table.first_dealer
        for hand, scored in zip(doc["hands"], score.hands, strict=True):
            assert hand["dealer"] == scored.dealer
            assert [side["result"] for side in hand["sides"]] == [
                {
                    "base": s.base,
                    "count": s.count,
                    "total": s.total,
                    "cumulative": s.cumulative,
                    "min_count_next": s.min_count_next,
                }
                for s in scored.sides
            ]
        assert doc["totals"] == list(score.totals)
        assert doc["min_count"] == list(score.min_count)
        assert doc["next_dealer"] == score.next_dealer
        assert doc["status"] == ("finished" if score.finished else "in_progress")
        assert doc["winners"] == list(score.winners)
        assert doc["winner"] == score.winner
        # Consistent: a finished game has a winner (or several sharing it); a game on has none.
        assert bool(doc["winners"]) == (doc["status"] == "finished")
        assert doc["winner"] == (doc["winners"][0] if len(doc["winners"]) == 1 else None)
        if page:
            self.check_page(game, doc, score)

    def check_page(self, game: ModelGame, doc: dict, score: rules.GameScore) -> None:
        page = page_figures(self.call(self.watcher, "GET", f"/games/{game.id}").get_data(as_text=True))
        assert page["version"] == doc["revision"]
        assert page["totals"] == list(score.totals)
        assert page["cells"] == [
            (kind, getattr(side, attribute))
            for hand in score.hands
            for side in hand.sides
            for kind, attribute in (
                ("base", "base"),
                ("count", "count"),
                ("hand-total", "total"),
                ("cumulative", "cumulative"),
            )
        ]
        names = [side.name for side in game.table.sides]
        if not score.finished:
            assert page["winner"] is None
        elif score.winner is not None:
            assert page["winner"] == f"{names[score.winner]} won"
        else:
            assert page["winner"] == " and ".join(names[w] for w in score.winners) + " share the win"


def stored_hands(app, game_ids: list[str]) -> tuple[dict[str, list[dict]], dict[str, int]]:
    """Each game's hands as the database holds them, in order, and each game's version (its revision)."""
    with app.app_context():
        rows = db.session.execute(
            db.select(HandRecord.game_id, HandRecord.position, HandRecord.sides)
            .where(HandRecord.game_id.in_(game_ids))
            .order_by(HandRecord.game_id, HandRecord.position)
        ).all()
        versions = dict(
            db.session.execute(db.select(GameRecord.id, GameRecord.version).where(GameRecord.id.in_(game_ids))).all()
        )
    hands: dict[str, list[dict]] = {}
    for game_id, position, sides in rows:
        assert position == len(hands.setdefault(game_id, [])), f"game {game_id}: hand positions {position} out of order"
        hands[game_id].append({"sides": sides})
    return hands, versions


def strip(hand: dict) -> dict:
    """A hand of the document as it was sent: its entries, without the outputs the server adds."""
    return {"sides": [{k: v for k, v in side.items() if k != "result"} for side in hand["sides"]]}


# Sized to stay near a minute per database on a loaded two-core machine (each step is a few requests).
SEQUENCES = settings(
    max_examples=12,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


@pytest.fixture
def machine(app):
    """The state machine bound to this test's app (one database; each example makes its own games)."""
    bound = type("StoreSequencesOnThisApp", (StoreSequences,), {"app": app})
    return bound


def test_no_sequence_of_changes_breaks_the_store(machine):
    run_state_machine_as_test(machine, settings=SEQUENCES)
