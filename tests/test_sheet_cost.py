"""What a scoresheet costs to make as it grows: a page made afresh (the first look after a change) does the work of
each hand row once, and looks up no translation for what every row says alike (the figures' labels, who dealt):
those are translated once per page (docs/performance.md)."""

from __future__ import annotations

import re

import flask_babel
import pytest

from .conftest import game_document

# A modern hand with marks on both sides: Us went out with two natural canastas and a red 3; Them one mixed canasta.
MODERN_HAND = {
    "sides": [
        {"went_out": True, "natural_canastas": 2, "red_threes": 1, "count": 120},
        {"mixed_canastas": 1, "count": 40},
    ]
}
# Three sides play classic canasta: one goes out, the others meld a canasta each.
CLASSIC_HAND = {
    "sides": [
        {"went_out": True, "natural_canastas": 1, "mixed_canastas": 1, "count": 60},
        {"mixed_canastas": 1, "count": 20},
        {"natural_canastas": 1, "count": -10},
    ]
}
THREE_SIDES = [{"name": name, "players": [f"{name} 1", f"{name} 2"]} for name in ("North", "East", "West")]


@pytest.fixture
def lookups(monkeypatch):
    """How many times a template looks up the page's translations (Jinja's _ and ngettext) from here on."""
    calls = []
    real = flask_babel.get_translations

    def counting():
        calls.append(1)
        return real()

    monkeypatch.setattr(flask_babel, "get_translations", counting)
    return calls


def _watched_page(app, client, hands: int, hand: dict, **document) -> str:
    """A game of `hands` hands made through the API, its scoresheet as a watcher's phone first sees it."""
    made = client.post("/api/games", json=game_document(hands=[hand] * hands, target=100_000, **document))
    assert made.status_code == 201, made.get_data(as_text=True)
    page = app.test_client().get(f"/games/{made.get_json()['id']}")
    assert page.status_code == 200
    return page.get_data(as_text=True)


def _lookups_for(app, client, lookups: list, hands: int, hand: dict, **document) -> int:
    lookups.clear()
    page = _watched_page(app, client, hands, hand, **document)
    assert page.count('id="hand-') == hands  # every hand has its row
    return len(lookups)


def test_a_two_sided_sheet_translates_nothing_again_for_each_hand(app, client, lookups):
    # The figures' labels (Base, Count, Hand, Total) and "Ann dealt" are the same on every row: 30 hands more cost
    # no lookup at all.
    assert _lookups_for(app, client, lookups, 40, MODERN_HAND) == _lookups_for(app, client, lookups, 10, MODERN_HAND)


def test_a_three_sided_sheet_translates_only_each_hands_number(app, client, lookups):
    # Three sides: each hand's heading says "Hand 7", one lookup a hand; the labels and the dealer none.
    few = _lookups_for(app, client, lookups, 5, CLASSIC_HAND, preset="classic", sides=THREE_SIDES)
    many = _lookups_for(app, client, lookups, 25, CLASSIC_HAND, preset="classic", sides=THREE_SIDES)
    assert many - few == 20


def test_the_rows_still_say_who_dealt_and_the_figures_labels(app, client):
    # Ann deals hand 1, then Bea, Cleo, Dot (one player of each side in turn: docs/rules.md), and round again.
    page = _watched_page(app, client, 5, MODERN_HAND)
    dealers = [part.split("</span>", 1)[0] for part in page.split('<span class="dealer">')[1:]]
    dealers.remove(" dealt")  # the row kept ready for a hand waiting on the phone (offline.js names its dealer)
    assert dealers == ["Ann dealt", "Bea dealt", "Cleo dealt", "Dot dealt", "Ann dealt"]
    # Two sides, five hands: each side's Base and its Total, labelled on every row.
    assert len(re.findall(r'<dt>Base</dt><dd class="base">[0-9]', page)) == 10
    assert len(re.findall(r'<dt>Total</dt><dd class="cumulative">[0-9]', page)) == 10
