"""The rule catalogue: the one place a table value is defined (docs/rules.md §7, docs/api.md "Table rules").

Each `TableValue` says what a game's `values.<key>` is: its label and hint on the new-game page, its group
there, what it means on the rules page, each preset's default, its bounds, and the side entry it prices.
Everything else is derived from it: the presets' values, the checks of their bounds, the new-game form, the
hand form's hints, the rules page, the phone's rules (`phone_json`) and the value tables of docs/.

A value that prices an entry (`priced`) is scored by one generic step: the entry's number (a switch is 1)
times the value, added for a bonus, taken off for a penalty. A value charged `instead_of` another for one of
that entry's units (a 3 drawn last is one of the 3s left in hand) takes the other's price off again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from .entries import CARD_POINTS, Pack, SideEntry
from .errors import Message

PRESET_KEYS = ("modern", "cla", "wca", "classic")
MOST_POINTS = 100_000  # any value, target or band over this is absurd

# Groups of the new-game page, in its order: (key, title).
GROUPS = (
    ("threes", Message("3s")),
    ("canastas", Message("Canastas")),
    ("going_out", Message("Going out")),
    ("penalties", Message("Penalties")),
    ("end_of_game", Message("End of game")),
)


def each(modern: int, cla: int | None = None, wca: int | None = None, classic: int | None = None) -> dict[str, int]:
    """A value's default in each preset: cla as modern, wca as cla, classic as given (or as modern) unless said."""
    cla = modern if cla is None else cla
    wca = cla if wca is None else wca
    return {"modern": modern, "cla": cla, "wca": wca, "classic": modern if classic is None else classic}


@dataclass(frozen=True)
class TableValue:
    """One value a table may play differently: `values.<key>` of a game's rules."""

    key: str
    label: str  # the new-game page's field, and problems with the value
    hint: str  # what it means, in a short line under its field
    group: str  # its group on the new-game page (GROUPS)
    family: str  # the presets whose new-game page shows it: "modern", "classic" or "all"
    defaults: Mapping[str, int]  # each preset's points
    entry: str | None = None  # the side entry it is about
    priced: bool = False  # scored by the generic step: the entry's number times the value
    penalty: bool = False  # taken off the Base (given as a positive number)
    gates: tuple[str, ...] = ()  # entries refused where it is 0: the table doesn't play them (§5.10)
    instead_of: str | None = None  # charged for one unit of that value's entry instead of that value
    meaning: str = ""  # penalties: when a side pays it, on the rules page
    lowest: int = 0
    highest: int = MOST_POINTS

    @property
    def sign(self) -> int:
        """+1 for a bonus, -1 for a penalty."""
        return -1 if self.penalty else 1


def _penalty(
    key: str, entry: str, label: str, hint: str, meaning: str, defaults: Mapping[str, int], family: str, **more: Any
) -> TableValue:
    """A penalty that prices an entry: refused where it is 0."""
    return TableValue(
        key,
        label,
        hint,
        "penalties",
        family,
        defaults,
        entry=entry,
        priced=True,
        penalty=True,
        gates=more.pop("gates", (entry,)),
        meaning=meaning,
        **more,
    )


CATALOGUE: tuple[TableValue, ...] = (
    TableValue(
        "natural_canasta",
        Message("Natural canasta"),
        Message("Points for each canasta with no wild cards."),
        "canastas",
        "all",
        each(500),
        entry="natural_canastas",
        priced=True,
    ),
    TableValue(
        "mixed_canasta",
        Message("Mixed canasta"),
        Message("Points for each canasta with wild cards in it."),
        "canastas",
        "all",
        each(300),
        entry="mixed_canastas",
        priced=True,
    ),
    TableValue(
        "sevens_canasta",
        Message("Sevens canasta"),
        Message("Points for a canasta of seven 7s. 0: not played."),
        "canastas",
        "modern",
        each(2500, classic=0),
        entry="sevens_canasta",
        priced=True,
        gates=("sevens_canasta",),
    ),
    TableValue(
        "aces_canasta",
        Message("Pure aces canasta"),
        Message("Points for seven aces, no wild cards. 0: not played."),
        "canastas",
        "modern",
        each(2500, classic=0),
        entry="aces_canasta",
        priced=True,
        gates=("aces_canasta",),
    ),
    TableValue(
        "wild_canasta_deuces",
        Message("Wild canasta of seven 2s"),
        Message("Points for a canasta of seven 2s. 0: not played."),
        "canastas",
        "modern",
        each(3000, wca=4000, classic=0),
    ),
    TableValue(
        "wild_canasta_jokers",
        Message("Wild canasta of four jokers and three 2s"),
        Message("Points for four jokers and three 2s. 0: not played."),
        "canastas",
        "modern",
        each(2500, wca=3000, classic=0),
    ),
    TableValue(
        "wild_canasta_mixed",
        Message("Wild canasta of any other mix"),
        Message("Points for seven wild cards in any other mix. 0: not played."),
        "canastas",
        "modern",
        each(2000, wca=2500, classic=0),
    ),
    TableValue(
        "going_out",
        Message("Going out"),
        Message("Points for the side that goes out."),
        "going_out",
        "all",
        each(100, wca=200, classic=100),
        entry="went_out",
    ),
    TableValue(
        "going_out_concealed",
        Message("Going out concealed"),
        Message("Points instead, for going out all in one turn. 0: not played."),
        "going_out",
        "all",
        each(0, classic=200),
        entry="concealed",
        gates=("concealed",),
    ),
    TableValue(
        "perfect_cut",
        Message("Perfect cut"),
        Message("Points for the cutter's side when the cut is exact."),
        "end_of_game",
        "all",
        each(100),
    ),
    _penalty(
        "incomplete_sevens",
        "incomplete_sevens",
        Message("Unfinished sevens meld"),
        Message("Points off for a 7s meld left unfinished. 0: no penalty."),
        Message("a sevens meld of fewer than seven cards on the table when the hand ends"),
        each(2500, classic=0),
        "modern",
    ),
    _penalty(
        "incomplete_aces",
        "incomplete_aces",
        Message("Unfinished aces meld"),
        Message("Points off for an aces meld left unfinished. 0: no penalty."),
        Message("a pure-aces meld of fewer than seven cards on the table when the hand ends"),
        each(2500, classic=0),
        "modern",
    ),
    _penalty(
        "incomplete_wild",
        "incomplete_wild",
        Message("Unfinished wild-card meld"),
        Message("Points off for a wild-card meld left unfinished. 0: no penalty."),
        Message("a wild-card meld of fewer than seven cards on the table when the hand ends"),
        each(2000, wca=2500, classic=0),
        "modern",
    ),
    _penalty(
        "dirty_sevens",
        "dirty_sevens",
        Message("A player caught with three 7s"),
        Message("Points off for each player caught with three 7s. 0: no penalty."),
        Message("three or more 7s in hand at the end (\u201cdirty\u201d): each such player"),
        each(1500, classic=0),
        "modern",
    ),
    _penalty(
        "dirty_aces",
        "dirty_aces",
        Message("A player caught with three aces"),
        Message("Points off for each player caught with three aces. 0: no penalty."),
        Message("three or more aces in hand at the end: each such player"),
        each(1500, classic=0),
        "modern",
    ),
    _penalty(
        "three_in_hand",
        "threes_in_hand",
        Message("Each 3 left in hand"),
        Message("Points off for each 3 still in hand at the end. 0: it counts as a card."),
        Message("still in a player's hand at the end (one drawn as the last card of the stock: see below)"),
        each(0, wca=100, classic=0),
        "modern",
    ),
    _penalty(
        "red_three_in_hand",
        "red_threes_in_hand",
        Message("Each red 3 left in hand"),
        Message("Points off for each red 3 not laid down. 0: no penalty."),
        Message("still in a player's hand at the end"),
        each(0, classic=500),
        "classic",
    ),
    _penalty(
        "last_draw_three",
        "last_draw_three",
        Message("A 3 drawn as the last card of the stock"),
        Message(
            "Points off when the stock's last card is a 3, in place of a 3 left in hand. 0: priced as a 3 left in hand."
        ),
        Message("drawn as the very last card of the stock, charged instead of its price as a 3 left in hand"),
        each(0, wca=100, classic=0),
        "modern",
        instead_of="three_in_hand",
    ),
    _penalty(
        "failed_go_out_ask",
        "failed_go_out_asks",
        Message("Asked to go out, then didn't"),
        Message("Points off each time a side asks to go out, then can't. 0: no penalty."),
        Message("asked partner \u201cmay I go out?\u201d, heard yes, then did not go out: each time"),
        each(0, classic=100),
        "classic",
    ),
    _penalty(
        "failed_pile_take",
        "failed_pile_takes",
        Message("Took the pile, couldn't use its top card"),
        Message("Points off each time a side takes the pile and can't use its top card. 0: no penalty."),
        Message("took the discard pile, then could not use its top card legally: each time"),
        each(0, classic=50),
        "classic",
    ),
)

BY_KEY: Mapping[str, TableValue] = {value.key: value for value in CATALOGUE}
VALUE_KEYS = tuple(BY_KEY)
CANASTA_VALUE_KEYS = tuple(v.key for v in CATALOGUE if v.group == "canastas")
PRICED = tuple(v for v in CATALOGUE if v.priced)
# The value behind each entry a game has only where that value is above 0 (Rules.has, §5.10).
GATED_BY: Mapping[str, str] = {entry: v.key for v in CATALOGUE for entry in v.gates}

# Classic red 3s (rules.red_threes): each one; all four of two decks; five or six of three decks.
RED_THREE_LABELS = {
    "each": Message("Each red 3"),
    "all_four": Message("All four red 3s"),
    "five": Message("Five red 3s"),
    "six": Message("Six red 3s"),
}
RED_THREE_KEYS = tuple(RED_THREE_LABELS)
VALUE_LABELS = {**{v.key: v.label for v in CATALOGUE}, **RED_THREE_LABELS}


def preset_values(preset: str) -> dict[str, int]:
    """Every value's points in this preset."""
    return {v.key: v.defaults[preset] for v in CATALOGUE}


def older_values(preset: str, values: Mapping[str, Any]) -> dict[str, int]:
    """What each value that a game stored before the value existed (its rules lack the key) was played as:
    for rules_from_json, so a stored game keeps what it was played with. `values`: the stored ones."""
    if "last_draw_three" in values:
        return {}
    # Before it was a value of its own, a 3 drawn as the last card of the stock was one of the 3s left in hand.
    three_in_hand = values.get("three_in_hand", BY_KEY["three_in_hand"].defaults.get(preset, 0))
    # Except in the cla games stored before every game kept complete rules (migration 2b7c1a0e9d34): cla then
    # charged 100 for each 3 left in hand but 5 for the last card, and the migration wrote cla's values with
    # that 100 and nothing for the last card. Those games keep their 5.
    cla = preset_values("cla")
    as_migrated = all(values.get(key) == cla[key] for key in cla if key not in ("three_in_hand", "last_draw_three"))
    if preset == "cla" and three_in_hand == 100 and as_migrated:
        return {"last_draw_three": 5}
    return {"last_draw_three": three_in_hand}


# The kind of each side entry, as the phone's rules read it: i number, f number or null, b boolean, m boolean or
# null, s name or null, c the counting grid (from SideEntry's own field types).
_PHONE_KINDS = {"int": "i", "int | None": "f", "bool": "b", "bool | None": "m", "str | None": "s", "Cards | None": "c"}


def phone_json() -> dict[str, Any]:
    """What the phone's rules (assets/js/rules.js) need of the rules, as data, so that it restates none of them:
    each priced entry [entry, value, sign, value it is instead of or null], the value each gated entry needs above
    0, each side entry [name, kind] in SideEntry's order, each row of the counting grid [kind, points, cards in one
    deck], the kinds of wild-card canasta and the special hands. No words: the labels and names come to the phone in
    its language, with the messages (web.phone_words)."""
    one_deck = Pack(decks=1)
    return {
        "priced": [[v.entry, v.key, v.sign, v.instead_of] for v in PRICED],
        "gates": dict(GATED_BY),
        "fields": [[f.name, _PHONE_KINDS[str(f.type)]] for f in fields(SideEntry)],
        "cards": [[kind, points, one_deck.grid_limit(kind)] for kind, points in CARD_POINTS.items()],
        "wild": list(WILD_CANASTA_KINDS),
        "special_hands": list(SPECIAL_HAND_NAMES),
    }


# --- Special hands and wild-card canastas: the other catalogues of the rules ------------------------

WILD_CANASTA_KINDS = ("deuces", "jokers", "mixed")
WILD_CANASTA_NAMES = {
    "deuces": Message("seven 2s"),
    "jokers": Message("four jokers and three 2s"),
    "mixed": Message("other wild mix"),
}

SPECIAL_HAND_NAMES = {
    "straight": Message("Straight (A to K plus a joker)"),
    "pairs": Message("Seven pairs"),
    "wild_pairs": Message("Wild pairs"),
    "miami_pairs": Message("Miami pairs"),
    "pungs_kongs": Message("Pungs and kongs (4-4-3-3)"),
    "zip_code": Message("Zip code (2-2-3-3-4)"),
    "blast_off": Message("Blast off (5-4-3-2)"),
    "triples": Message("Triples (3-3-3-3-2)"),
    "quads": Message("Quads (4-4-4-2)"),
    "dream_4": Message("Dream hand (5-5-4)"),
    "dream_5": Message("Dream hand (5-4-5 with wilds)"),
    "dream_545": Message("Dream 5-4-5 (natural)"),
    "deuce_pairs": Message("Deuce pairs"),
}


# What each special hand of the catalogue holds, as the rules page tells the table.
SPECIAL_HAND_HOLDS = {
    "straight": Message("one card of every rank from ace to king, plus a joker"),
    "pairs": Message("seven pairs, no wild cards"),
    "wild_pairs": Message("seven pairs with a pair of 2s or of jokers; must hold a pair of aces and a pair of 7s"),
    "miami_pairs": Message("pairs of jokers, 2s, aces and 7s, plus three more pairs"),
    "pungs_kongs": Message("two four-of-a-kinds and two three-of-a-kinds, no wild cards"),
    "zip_code": Message("two pairs, two three-of-a-kinds and a four-of-a-kind"),
    "blast_off": Message("a five, a four and a three of a kind, plus a pair"),
    "triples": Message("four three-of-a-kinds plus a pair of matching wild cards"),
    "quads": Message("three four-of-a-kinds plus a pair of matching wild cards"),
    "dream_4": Message("two five-of-a-kinds plus four matching wild cards"),
    "dream_5": Message("a five and a four of a kind plus five wild cards"),
    "dream_545": Message("a five, a four and a five of a kind, no wild cards"),
    "deuce_pairs": Message("four 2s plus five pairs, no jokers"),
}


def special_hand_name(key: str) -> str:
    """A special hand's name, also for a hand since taken out of the catalogue (an old game may hold one)."""
    return SPECIAL_HAND_NAMES.get(key) or str(key).replace("_", " ").capitalize()
