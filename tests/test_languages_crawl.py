"""Every page a table meets, read in Spanish, Portuguese and Italian: no English sentence left in what a player sees
(the text, and the aria-labels, titles and placeholders a screen reader or an empty field says). The lists of
English sentences in the other language tests name what was once left; this walks the pages and finds what no list
named (it found the new-game page's "None: the preset's values").

A game of varied hands is played first, so the pages show what a real game shows: a special hand, penalties, a
negative Count, a note, a settlement. Its figures are not checked here (tests/test_games.py does), only its words.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import pytest

from .test_games import FIRST_HAND, NEW_GAME, hand_form

LANGUAGES = {"es": "es-AR,es;q=0.9", "pt_BR": "pt-BR", "it": "it-IT"}

# Words that are English and are not Spanish, Portuguese or Italian: two of them in one piece of text is a sentence
# left in English. (Names typed by the players are not English words here: see NAMES.)
ENGLISH_WORDS = {
    "the", "this", "that", "your", "with", "game", "games", "hand", "hands", "phone", "side", "sides", "score",
    "scores", "saved", "start", "keep", "tap", "here", "what", "which", "there", "each", "every", "won", "wins",
    "should", "would", "can't", "isn't", "don't", "it's", "and", "of", "to", "is", "are", "was", "were", "be",
    "has", "have", "not", "yet", "from", "for", "by", "or", "on", "at", "off", "out", "went", "into",
    "points", "rules", "table", "new", "next", "back", "delete", "edit", "save", "cancel", "undo", "redo",
    "none", "values", "value", "preset", "preset's", "count", "counts", "minimum", "player", "players", "over",
    "left", "round", "deals", "dealt", "dealer", "wild", "canastas", "meld", "stock", "draw", "drawn",
}  # fmt: skip
SHOWN_AS_THEY_ARE = {"Scorepad", "CLA", "WCA", "JSON", "CSV", "QR", "UTC"}


class Visible(HTMLParser):
    """The pieces of text a player sees or hears: text outside script, style and template; and the attributes that
    are said (aria-label, title, placeholder, alt, value of a button)."""

    SAID = {"aria-label", "title", "placeholder", "alt"}

    def __init__(self) -> None:
        super().__init__()
        self.pieces: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "template", "noscript"):
            self.hidden += 1
        for name, value in attrs:
            if name in self.SAID and value:
                self.pieces.append(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style", "template", "noscript") and self.hidden:
            self.hidden -= 1

    def handle_data(self, data):
        if not self.hidden and data.strip():
            self.pieces.append(data)


def english_left(page: str) -> list[str]:
    reader = Visible()
    reader.feed(page)
    left = []
    for piece in reader.pieces:
        words = re.findall(r"[A-Za-z']+", html.unescape(piece))
        english = [w for w in words if w.lower() in ENGLISH_WORDS and w not in SHOWN_AS_THEY_ARE]
        if len(english) >= 2:
            left.append(" ".join(piece.split()))
    return left


# A varied game: hand 1 FIRST_HAND (red 3s, canastas, going out); hand 2 a side with a negative Count and a black 3
# penalty; hand 3 a special hand.
SECOND = hand_form(
    {"mixed_canastas": 2, "went_out": "y", "count": 95},
    {"black_threes": 2, "count": -120},
)
THIRD = hand_form({"hand_pairs": "y"}, {"count": -45})


@pytest.fixture(params=list(LANGUAGES))
def language(request) -> str:
    return request.param


@pytest.fixture
def played(client, language):
    """The game, its hands saved in `language` (a flash is said in the language of the request that made it)."""
    said = {"Accept-Language": LANGUAGES[language]}
    names = {"side0_name": "Nosotros", "side1_name": "Ellos", "player0_0": "Ana", "player0_1": "Cleo"}
    made = client.post("/games", data={**NEW_GAME, **names, "player1_0": "Beto", "player1_1": "Dora"}, headers=said)
    assert made.status_code == 303, made.get_data(as_text=True)[:300]
    game = made.headers["Location"].rsplit("/", 1)[1]
    for hand in (FIRST_HAND, SECOND, THIRD):
        saved = client.post(f"/games/{game}/hands", data=hand, headers=said)
        assert saved.status_code == 303, saved.get_data(as_text=True)[:300]
    from .test_rule_sets import TUESDAY

    assert client.post("/games", data=TUESDAY, headers=said).status_code == 303  # saved rules: the page offers them
    return game


PAGES = [
    "/",
    "/games/new",
    "/games/{game}",
    "/games/{game}/hands/new",
    "/games/{game}/hands/2/edit",
    "/games/{game}/hands/2/delete",
    "/games/{game}/delete",
    "/games/{game}/handover",
    "/games/{game}/rules",
    "/games/{game}/scoreboard",
    "/games/{game}/scoreboard/live",
    "/history",
    "/history/statistics",
    "/join",
    "/rules",
    "/offline",
    "/offline/game",
    "/events/new",
]


def test_no_page_a_table_meets_says_an_english_sentence(client, played, language):
    found = {}
    for address in PAGES:
        page = client.get(address.format(game=played), headers={"Accept-Language": LANGUAGES[language]})
        assert page.status_code == 200, address
        left = english_left(page.get_data(as_text=True))
        if left:
            found[address] = left
    watcher = client.application.test_client()  # another phone at the table: read only
    for address in ("/games/{game}", "/games/{game}/scoreboard", "/join"):
        page = watcher.get(address.format(game=played), headers={"Accept-Language": LANGUAGES[language]})
        left = english_left(page.get_data(as_text=True))
        if left:
            found["watcher " + address] = left
    assert not found, f"{language}: English left: {found}"


def test_the_detector_finds_english_where_it_is():
    assert english_left("<p>None: the preset's values</p>") == ["None: the preset's values"]
    assert english_left('<button aria-label="Save the hand">✓</button>') == ["Save the hand"]
    assert english_left("<p>Nosotros ganan la partida.</p><script>the game is</script>") == []
