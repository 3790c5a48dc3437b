"""The scoring rules of Modern American and classic Canasta, as docs/rules.md describes them.

Pure Python: no Flask, SQLAlchemy or WTForms. Frozen dataclasses in, frozen
dataclasses out, and `RuleError` (a list of `Problem`) for a hand the rules refuse.

Glossary
    Preset      one table's set of values (modern, cla, wca, classic): data, not code.
    Rules       the rules of one game: a preset plus the table's overrides.
    Table       the sides, their players in seat order and the first dealer.
    SideEntry   what one side reports after one hand (3s, canastas, penalties, Count).
    Cards       the counting grid: cards melded and left in hand, by kind.
    Hand        one SideEntry per side.
    Base        3s + canastas + bonuses - penalties.
    Count       card points melded minus card points left in hand.
    SideScore   Base, Count, hand total, cumulative and next Minimum Count of one side.
    GameScore   every hand's scores, the totals, and whether the game is over.
    Problem     one broken rule: the path of the field at fault and a message.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from decimal import Decimal
from typing import Any

WILD_CANASTA_KINDS = ("deuces", "jokers", "mixed")


# --- Errors -------------------------------------------------------------------


@dataclass(frozen=True)
class Problem:
    """One broken rule: where (a path into the entries) and why, in a card player's words."""

    path: tuple
    message: str
    # A problem with the whole hand (path ()) also names the field of each side involved, so a page
    # can mark every one of them; the API reports it on the hand.
    involves: tuple[tuple, ...] = ()


class RuleError(Exception):
    """A hand, a table or a set of rules that the rules refuse; carries every problem found."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(p.message for p in self.problems))

    def prefixed(self, *prefix: str | int) -> RuleError:
        """The same problems with their paths placed under `prefix`."""
        return RuleError([replace(p, path=tuple(prefix) + p.path) for p in self.problems])


# --- Presets: one table of values per preset ----------------------------------

SPECIAL_HAND_NAMES = {
    "straight": "Straight (A to K plus a joker)",
    "pairs": "Seven pairs",
    "wild_pairs": "Wild pairs",
    "miami_pairs": "Miami pairs",
    "pungs_kongs": "Pungs and kongs (4-4-3-3)",
    "zip_code": "Zip code (2-2-3-3-4)",
    "blast_off": "Blast off (5-4-3-2)",
    "triples": "Triples (3-3-3-3-2)",
    "quads": "Quads (4-4-4-2)",
    "dream_4": "Dream hand (5-5-4)",
    "dream_5": "Dream hand (5-4-5 with wilds)",
    "dream_545": "Dream 5-4-5 (natural)",
    "deuce_pairs": "Deuce pairs",
}


# What each special hand of the catalogue holds, as the rules page tells the table.
SPECIAL_HAND_HOLDS = {
    "straight": "one card of every rank from ace to king, plus a joker",
    "pairs": "seven pairs, no wild cards",
    "wild_pairs": "seven pairs with a pair of 2s or of jokers; must hold a pair of aces and a pair of 7s",
    "miami_pairs": "pairs of jokers, 2s, aces and 7s, plus three more pairs",
    "pungs_kongs": "two four-of-a-kinds and two three-of-a-kinds, no wild cards",
    "zip_code": "two pairs, two three-of-a-kinds and a four-of-a-kind",
    "blast_off": "a five, a four and a three of a kind, plus a pair",
    "triples": "four three-of-a-kinds plus a pair of matching wild cards",
    "quads": "three four-of-a-kinds plus a pair of matching wild cards",
    "dream_4": "two five-of-a-kinds plus four matching wild cards",
    "dream_5": "a five and a four of a kind plus five wild cards",
    "dream_545": "a five, a four and a five of a kind, no wild cards",
    "deuce_pairs": "four 2s plus five pairs, no jokers",
}


def special_hand_name(key: str) -> str:
    """A special hand's name, also for a hand since taken out of the catalogue (an old game may hold one)."""
    return SPECIAL_HAND_NAMES.get(key) or str(key).replace("_", " ").capitalize()


WILD_CANASTA_NAMES = {
    "deuces": "seven 2s",
    "jokers": "four jokers and three 2s",
    "mixed": "other wild mix",
}


VALUE_LABELS = {
    "natural_canasta": "Natural canasta",
    "mixed_canasta": "Mixed canasta",
    "sevens_canasta": "Sevens canasta",
    "aces_canasta": "Pure aces canasta",
    "wild_canasta_deuces": "Wild canasta of seven 2s",
    "wild_canasta_jokers": "Wild canasta of four jokers and three 2s",
    "wild_canasta_mixed": "Wild canasta of any other mix",
    "going_out": "Going out",
    "going_out_concealed": "Going out concealed",
    "perfect_cut": "Perfect cut",
    "incomplete_sevens": "Unfinished sevens meld",
    "incomplete_aces": "Unfinished aces meld",
    "incomplete_wild": "Unfinished wild-card meld",
    "dirty_sevens": "A player caught with three 7s",
    "dirty_aces": "A player caught with three aces",
    "three_in_hand": "Each 3 left in hand",
    "red_three_in_hand": "Each red 3 left in hand",
    "failed_go_out_ask": "Asked to go out, then didn't",
    "failed_pile_take": "Took the pile, couldn't use its top card",
    "each": "Each red 3",
    "all_four": "All four red 3s",
    "five": "Five red 3s",
    "six": "Six red 3s",
}

# --- Table rules: every value a table may play differently ----------------------------------------
#
# A game's Rules hold every value (docs/api.md "Table rules"); a preset is a complete set of them.
# A game keeps its own complete copy, so changing a preset here never changes a stored game.

CANASTA_VALUE_KEYS = (
    "natural_canasta",
    "mixed_canasta",
    "sevens_canasta",
    "aces_canasta",
    "wild_canasta_deuces",
    "wild_canasta_jokers",
    "wild_canasta_mixed",
)
VALUE_KEYS = CANASTA_VALUE_KEYS + (
    "going_out",
    "going_out_concealed",
    "perfect_cut",
    "incomplete_sevens",
    "incomplete_aces",
    "incomplete_wild",
    "dirty_sevens",
    "dirty_aces",
    "three_in_hand",
    "red_three_in_hand",
    "failed_go_out_ask",
    "failed_pile_take",
)
TIES = ("play_on", "shared", "went_out")
COUNTS_WITHOUT_CANASTA = ("negative", "melded_minus_hand")
RED_THREE_KEYS = ("each", "all_four", "five", "six")
MOST_POINTS = 100_000  # any value, target or band over this is absurd


@dataclass(frozen=True)
class Values:
    """What each canasta, bonus and penalty is worth (penalties as positive numbers; 0: not played)."""

    natural_canasta: int
    mixed_canasta: int
    sevens_canasta: int
    aces_canasta: int
    wild_canasta_deuces: int
    wild_canasta_jokers: int
    wild_canasta_mixed: int
    going_out: int
    going_out_concealed: int
    perfect_cut: int
    incomplete_sevens: int
    incomplete_aces: int
    incomplete_wild: int
    dirty_sevens: int
    dirty_aces: int
    three_in_hand: int
    red_three_in_hand: int
    failed_go_out_ask: int
    failed_pile_take: int

    def wild_canasta(self, kind: str) -> int:
        """The points of a wild-card canasta of this kind (deuces, jokers, mixed); 0 where not played."""
        return getattr(self, f"wild_canasta_{kind}", 0) if kind in WILD_CANASTA_KINDS else 0


@dataclass(frozen=True)
class RedThrees:
    """Classic red 3s: each one, all four (two decks), five and six (three decks)."""

    each: int
    all_four: int
    five: int
    six: int


@dataclass(frozen=True)
class Band:
    """A row of the Minimum Count table: from this cumulative score (None: the first row, negatives too)."""

    start: int | None
    minimum: int


@dataclass(frozen=True)
class Rules:
    """The rules of one game: every value, from its preset and the table's own house rules."""

    preset: str
    target: int
    tie: str
    minimum_counts: tuple[Band, ...]
    canastas_to_go_out: int
    count_without_canasta: str
    threes: tuple[int, ...]  # modern: 0 to 4 exposed 3s of one colour
    all_eight_threes: int | None
    red_threes: RedThrees
    values: Values
    wipeout: bool
    perfect_cut: bool
    special_hands: tuple[tuple[str, int], ...]

    @property
    def modern(self) -> bool:
        """Modern canasta (3s of both colours exposed, special canastas and hands) or classic."""
        return PRESETS[self.preset].modern if self.preset in PRESETS else self.preset != "classic"

    @property
    def preset_name(self) -> str:
        """The preset's name, as a player says it."""
        return PRESETS[self.preset].name if self.preset in PRESETS else self.preset

    def special_hand_value(self, key: str) -> int | None:
        """Points of a special hand in this game, None where the game does not allow it."""
        return dict(self.special_hands).get(key)

    def has(self, name: str) -> bool:
        """Whether this game has the side entry `name` (a value of 0 means the table does not play it)."""
        v = self.values
        return {
            "black_threes": self.modern,
            "has_melded": not self.modern,
            "sevens_canasta": v.sevens_canasta > 0,
            "aces_canasta": v.aces_canasta > 0,
            "wild_canasta": any(v.wild_canasta(kind) > 0 for kind in WILD_CANASTA_KINDS),
            "incomplete_sevens": v.incomplete_sevens > 0,
            "incomplete_aces": v.incomplete_aces > 0,
            "incomplete_wild": v.incomplete_wild > 0,
            "dirty_sevens": v.dirty_sevens > 0,
            "dirty_aces": v.dirty_aces > 0,
            "threes_in_hand": v.three_in_hand > 0,
            "last_draw_three": v.three_in_hand > 0,
            "concealed": v.going_out_concealed > 0,
            "red_threes_in_hand": v.red_three_in_hand > 0,
            "failed_go_out_asks": v.failed_go_out_ask > 0,
            "failed_pile_takes": v.failed_pile_take > 0,
            "perfect_cut": self.perfect_cut and v.perfect_cut > 0,
            "special_hand": bool(self.special_hands),
        }.get(name, True)


@dataclass(frozen=True)
class Preset:
    """A named set of table rules: the values one kind of table plays with."""

    key: str
    name: str
    description: str
    modern: bool  # exposed 3s of both colours, special canastas, special hands
    rules: Rules


_MODERN_VALUES = Values(
    natural_canasta=500,
    mixed_canasta=300,
    sevens_canasta=2500,
    aces_canasta=2500,
    wild_canasta_deuces=3000,
    wild_canasta_jokers=2500,
    wild_canasta_mixed=2000,
    going_out=100,
    going_out_concealed=0,
    perfect_cut=100,
    incomplete_sevens=2500,
    incomplete_aces=2500,
    incomplete_wild=2000,
    dirty_sevens=1500,
    dirty_aces=1500,
    three_in_hand=0,  # modern and cla: a 3 left in hand is a card, 5 in the Count
    red_three_in_hand=0,
    failed_go_out_ask=0,
    failed_pile_take=0,
)
_CLASSIC_RED_THREES = RedThrees(each=100, all_four=800, five=1000, six=1200)
_MODERN_RULES = Rules(
    preset="modern",
    target=8500,
    tie="play_on",
    minimum_counts=(Band(None, 125), Band(3000, 155), Band(5000, 180)),
    canastas_to_go_out=2,
    count_without_canasta="negative",
    threes=(0, 100, 300, 500, 1000),
    all_eight_threes=None,
    red_threes=_CLASSIC_RED_THREES,
    values=_MODERN_VALUES,
    wipeout=False,
    perfect_cut=True,
    special_hands=(
        ("straight", 3000),
        ("pairs", 2500),
        ("wild_pairs", 2000),
        ("pungs_kongs", 2000),
        ("zip_code", 2500),
    ),
)

# cla and wca are modern canasta with their own values: each says only how it differs.
PRESETS: Mapping[str, Preset] = {
    "modern": Preset(
        "modern",
        "Modern American",
        "Modern American Canasta: 8,500 to win, special canastas and special hands.",
        True,
        _MODERN_RULES,
    ),
    "cla": Preset(
        "cla",
        "CLA",
        "Canasta League of America: modern scoring with more special hands.",
        True,
        replace(
            _MODERN_RULES,
            preset="cla",
            special_hands=(
                ("pairs", 2500),
                ("wild_pairs", 2000),
                ("miami_pairs", 2500),
                ("pungs_kongs", 3000),
                ("zip_code", 2500),
                ("blast_off", 3000),
                ("triples", 3500),
                ("quads", 3500),
                ("dream_4", 8500),
                ("dream_5", 8500),
            ),
        ),
    ),
    "wca": Preset(
        "wca",
        "WCA",
        "World Canasta Association: bigger wild canastas, 200 for going out, 100 for each 3 left in hand, wipeout on.",
        True,
        replace(
            _MODERN_RULES,
            preset="wca",
            all_eight_threes=3000,
            wipeout=True,
            values=replace(
                _MODERN_VALUES,
                wild_canasta_deuces=4000,
                wild_canasta_jokers=3000,
                wild_canasta_mixed=2500,
                going_out=200,
                incomplete_wild=2500,
                three_in_hand=100,
            ),
            special_hands=tuple(
                (key, 3000)
                for key in (
                    "straight",
                    "pairs",
                    "wild_pairs",
                    "miami_pairs",
                    "pungs_kongs",
                    "zip_code",
                    "blast_off",
                    "triples",
                    "quads",
                    "dream_545",
                    "deuce_pairs",
                )
            ),
        ),
    ),
    "classic": Preset(
        "classic",
        "Classic",
        "Classic Canasta: 5,000 to win, red 3s only, no special canastas or hands; six players allowed.",
        False,
        Rules(
            preset="classic",
            target=5000,
            tie="play_on",
            minimum_counts=(Band(None, 15), Band(0, 50), Band(1500, 90), Band(3000, 120)),
            canastas_to_go_out=1,
            count_without_canasta="melded_minus_hand",
            threes=(0, 100, 300, 500, 1000),
            all_eight_threes=None,
            red_threes=_CLASSIC_RED_THREES,
            values=Values(
                natural_canasta=500,
                mixed_canasta=300,
                sevens_canasta=0,
                aces_canasta=0,
                wild_canasta_deuces=0,
                wild_canasta_jokers=0,
                wild_canasta_mixed=0,
                going_out=100,
                going_out_concealed=200,
                perfect_cut=100,
                incomplete_sevens=0,
                incomplete_aces=0,
                incomplete_wild=0,
                dirty_sevens=0,
                dirty_aces=0,
                three_in_hand=0,
                red_three_in_hand=500,
                failed_go_out_ask=100,
                failed_pile_take=50,
            ),
            wipeout=False,
            perfect_cut=False,
            special_hands=(),
        ),
    ),
}


def rules_json(rules: Rules) -> dict[str, Any]:
    """Every key of a game's rules as the document carries them (docs/api.md "Table rules")."""
    return {
        "preset": rules.preset,
        "target": rules.target,
        "tie": rules.tie,
        "minimum_counts": [{"from": band.start, "minimum": band.minimum} for band in rules.minimum_counts],
        "canastas_to_go_out": rules.canastas_to_go_out,
        "count_without_canasta": rules.count_without_canasta,
        "threes": list(rules.threes),
        "all_eight_threes": rules.all_eight_threes,
        "red_threes": {key: getattr(rules.red_threes, key) for key in RED_THREE_KEYS},
        "values": {key: getattr(rules.values, key) for key in VALUE_KEYS},
        "wipeout": rules.wipeout,
        "perfect_cut": rules.perfect_cut,
        "special_hands": dict(rules.special_hands),
    }


RULE_KEYS = tuple(rules_json(_MODERN_RULES))


def rules_from_json(data: Mapping[str, Any]) -> Rules:
    """A game's rules as stored (trusted: checked when they came in); a key an older game lacks is its preset's."""
    preset = PRESETS[data["preset"]].rules if data.get("preset") in PRESETS else _MODERN_RULES
    full = {**rules_json(preset), **data}
    return Rules(
        preset=full["preset"],
        target=full["target"],
        tie=full["tie"],
        # A first band sent without "from" is the band from null (make_rules refuses a later one without it).
        minimum_counts=tuple(Band(band.get("from"), band["minimum"]) for band in full["minimum_counts"]),
        canastas_to_go_out=full["canastas_to_go_out"],
        count_without_canasta=full["count_without_canasta"],
        threes=tuple(full["threes"]),
        all_eight_threes=full["all_eight_threes"],
        red_threes=RedThrees(
            **{key: full["red_threes"].get(key, getattr(preset.red_threes, key)) for key in RED_THREE_KEYS}
        ),
        values=Values(**{key: full["values"].get(key, getattr(preset.values, key)) for key in VALUE_KEYS}),
        wipeout=full["wipeout"],
        perfect_cut=full["perfect_cut"],
        special_hands=tuple(full["special_hands"].items()),
    )


def is_whole_number(value: object) -> bool:
    """Whether a value from JSON is an integer (true and false are not numbers here)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _points_problem(value: object, what: str, lowest: int = 0) -> str | None:
    """Why `value` can't be a number of points here, or None: whole, in fives, from `lowest` to 100,000."""
    if not is_whole_number(value):
        return f"{what}: give a whole number of points, like 500."
    assert isinstance(value, int)
    if value < lowest:
        return f"{what}: can't be negative." if lowest == 0 else f"{what}: at least {lowest:,}."
    if value > MOST_POINTS:
        return f"{what}: at most {MOST_POINTS:,} points."
    if value % 5:
        return f"{what}: points are a multiple of 5."
    return None


def _check_minimum_counts(value: object) -> Iterator[tuple[tuple, str]]:
    """Minimum Count bands: a first row from null, then rising starts, each with its minimum."""
    if not isinstance(value, list) or not value:
        yield (), 'Minimum Counts: list the bands, like [{"from": null, "minimum": 125}, {"from": 3000, ...}].'
        return
    previous: int | None = None
    for i, band in enumerate(value):
        if not isinstance(band, Mapping) or set(band) - {"from", "minimum"} or "minimum" not in band:
            yield (i,), 'A Minimum Count band is {"from": score or null, "minimum": points}.'
            continue
        start = band.get("from")
        if i == 0 and start is not None:
            yield (i, "from"), "The first Minimum Count band starts from null: it covers every lower score."
        elif i > 0 and (not isinstance(start, int) or isinstance(start, bool) or abs(start) > MOST_POINTS):
            yield (i, "from"), "A Minimum Count band starts from a score, like 3000."
        elif i > 0 and previous is not None and isinstance(start, int) and start <= previous:
            yield (i, "from"), "Minimum Count bands go up: each starts above the one before."
        problem = _points_problem(band["minimum"], "Minimum Count")
        if problem:
            yield (i, "minimum"), problem
        if i > 0 and isinstance(start, int):
            previous = start


def make_rules(preset: str, **house: Any) -> Rules:
    """A game's rules: the preset's values with the table's own (any subset of docs/api.md's table rules);
    RuleError naming each key that is unknown, of the wrong kind or absurd."""
    if not isinstance(preset, str):  # a list or an object can't even be looked up
        raise RuleError([Problem(("rules", "preset"), "The preset is a name: modern, cla, wca or classic.")])
    if preset not in PRESETS:
        shown = f" {preset!r}" if len(preset) <= 20 else ""
        raise RuleError([Problem(("rules", "preset"), f"Unknown preset{shown}: choose modern, cla, wca or classic.")])
    base = PRESETS[preset]
    problems: list[Problem] = []

    def refuse(path: tuple, message: str) -> None:
        problems.append(Problem(("rules", *path), message))

    # A null is a key left out, except for all_eight_threes, where null means the table doesn't play it.
    house = {key: value for key, value in house.items() if value is not None or key == "all_eight_threes"}
    for key in house:
        if key not in RULE_KEYS:
            refuse((key,), f"Unknown table rule {key!r}.")
    merged = rules_json(base.rules)
    for key in ("wipeout", "perfect_cut"):
        if key in house and not isinstance(house[key], bool):
            refuse((key,), f"{key.replace('_', ' ').capitalize()}: true or false.")
    if "target" in house:
        problem = _points_problem(house["target"], "The target", lowest=5)
        if problem:
            refuse(("target",), problem)
    for key, choices in (("tie", TIES), ("count_without_canasta", COUNTS_WITHOUT_CANASTA)):
        if key in house and house[key] not in choices:
            refuse((key,), f"{key.replace('_', ' ').capitalize()}: one of {', '.join(choices)}.")
    if "canastas_to_go_out" in house and (
        not is_whole_number(house["canastas_to_go_out"]) or not 0 <= house["canastas_to_go_out"] <= 10
    ):
        refuse(("canastas_to_go_out",), "Canastas to go out: a number from 0 to 10.")
    if "minimum_counts" in house:
        for path, message in _check_minimum_counts(house["minimum_counts"]):
            refuse(("minimum_counts", *path), message)
    if "threes" in house:
        threes = house["threes"]
        if not isinstance(threes, list) or len(threes) != 5:
            refuse(("threes",), "3s: the value of 0, 1, 2, 3 and 4 of one colour, like [0, 100, 300, 500, 1000].")
        else:
            for i, points in enumerate(threes):
                problem = _points_problem(points, f"{i} 3s")
                if problem:
                    refuse(("threes", i), problem)
    if house.get("all_eight_threes") is not None:
        problem = _points_problem(house["all_eight_threes"], "All eight 3s")
        if problem:
            refuse(("all_eight_threes",), problem)
    for key, names in (("red_threes", RED_THREE_KEYS), ("values", VALUE_KEYS)):
        if key not in house:
            continue
        if not isinstance(house[key], Mapping):
            refuse(
                (key,), f'{key.replace("_", " ").capitalize()}: give each value by name, like {{"{names[0]}": 500}}.'
            )
            continue
        for name, points in house[key].items():
            if name not in names:
                refuse((key, name), f"Unknown value {name!r}.")
            else:
                problem = _points_problem(points, VALUE_LABELS.get(name, name.replace("_", " ").capitalize()))
                if problem:
                    refuse((key, name), problem)
        if not problems:
            merged[key] = {**merged[key], **house[key]}
    if "special_hands" in house:
        hands = house["special_hands"]
        if not isinstance(hands, Mapping):
            refuse(("special_hands",), 'Special hands: give each hand\'s points, like {"pairs": 2500}.')
        else:
            for key, points in hands.items():
                if key not in SPECIAL_HAND_NAMES:
                    refuse(("special_hands", key), f"There is no special hand called {key!r}.")
                elif not base.modern:
                    refuse(("special_hands", key), "Classic canasta has no special hands.")
                else:
                    problem = _points_problem(points, SPECIAL_HAND_NAMES[key], lowest=5)
                    if problem:
                        refuse(("special_hands", key), problem)
    if problems:
        raise RuleError(problems)
    for key, value in house.items():
        if key not in ("red_threes", "values"):
            merged[key] = value
    return rules_from_json(merged)


# --- The pack -------------------------------------------------------------------

CARD_POINTS = {"jokers": 50, "deuces": 20, "aces": 20, "high": 10, "low": 5, "black_threes": 5}
# The rows of the counting grid, as the sheet labels them.
CARD_LABELS = {
    "jokers": "Jokers",
    "deuces": "2s",
    "aces": "Aces",
    "high": "8 to K",
    "low": "4 to 7",
    "black_threes": "Black 3s",
}


@dataclass(frozen=True)
class Pack:
    """How many of each card the decks in play hold."""

    decks: int

    @property
    def jokers(self) -> int:
        """Jokers in the pack (two per deck)."""
        return 2 * self.decks

    def of_rank(self) -> int:
        """Cards of any one rank (4 per deck)."""
        return 4 * self.decks

    @property
    def wild_cards(self) -> int:
        """Jokers and 2s."""
        return self.jokers + self.of_rank()

    @property
    def threes_of_a_colour(self) -> int:
        """Red (or black) 3s in the pack."""
        return 2 * self.decks

    def grid_limit(self, kind: str) -> int:
        """How many cards of one kind of the counting grid the pack holds."""
        return {
            "jokers": self.jokers,
            "deuces": self.of_rank(),
            "aces": self.of_rank(),
            "high": 6 * self.of_rank(),
            "low": 4 * self.of_rank(),
            "black_threes": self.threes_of_a_colour,
        }[kind]

    def points(self, black_threes_count: bool) -> int:
        """Card points of the whole pack (black 3s count only in classic)."""
        kinds = [k for k in CARD_POINTS if black_threes_count or k != "black_threes"]
        return sum(self.grid_limit(k) * CARD_POINTS[k] for k in kinds)


# --- Inputs -------------------------------------------------------------------


@dataclass(frozen=True)
class CardCounts:
    """How many cards of each kind: jokers, 2s, aces, 8-K (high), 4-7 (low), black 3s."""

    jokers: int = 0
    deuces: int = 0
    aces: int = 0
    high: int = 0
    low: int = 0
    black_threes: int = 0

    def points(self) -> int:
        """Card points of these cards."""
        return sum(getattr(self, kind) * value for kind, value in CARD_POINTS.items())


@dataclass(frozen=True)
class Cards:
    """The counting grid of one side: cards melded and cards left in hand."""

    melded: CardCounts = CardCounts()
    in_hand: CardCounts = CardCounts()


@dataclass(frozen=True)
class SideEntry:
    """What one side reports after a hand; field names as in GAME_FORMAT.md."""

    red_threes: int = 0
    black_threes: int = 0
    natural_canastas: int = 0
    mixed_canastas: int = 0
    sevens_canasta: bool = False
    aces_canasta: bool = False
    wild_canasta: str | None = None
    incomplete_sevens: bool = False
    incomplete_aces: bool = False
    incomplete_wild: bool = False
    dirty_sevens: int = 0
    dirty_aces: int = 0
    threes_in_hand: int = 0
    last_draw_three: bool = False
    went_out: bool = False
    concealed: bool = False
    perfect_cut: bool = False
    special_hand: str | None = None
    has_melded: bool | None = None
    red_threes_in_hand: int = 0
    failed_go_out_asks: int = 0
    failed_pile_takes: int = 0
    reported_base: int | None = None  # the paper way: the side's Base as the table reports it
    count: int | None = None
    cards: Cards | None = None

    @property
    def canastas(self) -> int:
        """Closed canastas of every kind, special ones included."""
        return (
            self.natural_canastas
            + self.mixed_canastas
            + int(self.sevens_canasta)
            + int(self.aces_canasta)
            + int(self.wild_canasta is not None)
        )

    @property
    def special_canastas(self) -> int:
        """Closed sevens, pure-aces and wild-card canastas."""
        return int(self.sevens_canasta) + int(self.aces_canasta) + int(self.wild_canasta is not None)

    def entered_fields(self) -> list[str]:
        """The names of the fields that hold something other than their default."""
        return [f.name for f in fields(self) if getattr(self, f.name) != f.default]


SIDE_FIELDS = tuple(f.name for f in fields(SideEntry))
INT_FIELDS = tuple(f.name for f in fields(SideEntry) if f.type == "int")
BOOL_FIELDS = tuple(f.name for f in fields(SideEntry) if f.type == "bool")
CARD_KINDS = tuple(f.name for f in fields(CardCounts))
# Whole numbers that may be negative and are not counted entries: the Count and a reported Base.
FIGURE_FIELDS = ("reported_base", "count")
# What a side reporting its own Base may still give: the Count (as a number or a grid).
WITH_REPORTED_BASE = ("reported_base", "count", "cards")

FIELD_LABELS = {
    "red_threes": "Red 3s",
    "black_threes": "Black 3s",
    "natural_canastas": "Natural canastas",
    "mixed_canastas": "Mixed canastas",
    "sevens_canasta": "Sevens canasta",
    "aces_canasta": "Pure aces canasta",
    "wild_canasta": "Wild-card canasta",
    "incomplete_sevens": "Unfinished sevens",
    "incomplete_aces": "Unfinished aces",
    "incomplete_wild": "Unfinished wild cards",
    "dirty_sevens": "Players dirty with 7s",
    "dirty_aces": "Players dirty with aces",
    "threes_in_hand": "3s left in hand",
    "last_draw_three": "One was the last card of the stock",
    "went_out": "Went out",
    "concealed": "Concealed (all in one turn)",
    "perfect_cut": "Perfect cut",
    "special_hand": "Special hand",
    "has_melded": "Melded this hand",
    "red_threes_in_hand": "Red 3s left in hand",
    "failed_go_out_asks": "Asked to go out, then didn't",
    "failed_pile_takes": "Took the pile, couldn't use the top card",
    "count": "Count",
    "cards": "Counting grid",
    "reported_base": "Base as reported",
}


@dataclass(frozen=True)
class Hand:
    """One hand: an entry per side, in side order."""

    sides: tuple[SideEntry, ...]


@dataclass(frozen=True)
class Side:
    """A side (partnership or single player) and its players in seat order."""

    name: str
    players: tuple[str, ...]


@dataclass(frozen=True)
class Table:
    """The sides at the table and who deals first; seats go clockwise, one player from each side in turn."""

    sides: tuple[Side, ...]
    first_dealer: int = 0

    @property
    def seats(self) -> int:
        """How many players sit at the table."""
        return sum(len(side.players) for side in self.sides)

    def side_of_seat(self, seat: int) -> int:
        """The side of the player in this seat."""
        return seat % len(self.sides)

    def player_of_seat(self, seat: int) -> str:
        """The name of the player in this seat."""
        return self.sides[seat % len(self.sides)].players[seat // len(self.sides)]

    def dealer(self, hand_index: int) -> int:
        """The seat that deals hand `hand_index` (0-based): the deal passes clockwise."""
        return (self.first_dealer + hand_index) % self.seats

    def cutter(self, hand_index: int) -> int:
        """The seat on the dealer's right: the player who cuts and may earn the perfect cut."""
        return (self.dealer(hand_index) - 1) % self.seats

    def cutter_side(self, hand_index: int) -> int:
        """The side of the cutter."""
        return self.side_of_seat(self.cutter(hand_index))

    @property
    def pack(self) -> Pack:
        """The decks in play: three for three sides, else two."""
        return Pack(decks=3 if len(self.sides) == 3 else 2)


def check_table(rules: Rules, table: Table) -> None:
    """Refuse a table the preset cannot seat, or a first dealer who is not at it."""
    problems = []
    sizes = {len(side.players) for side in table.sides}
    n = len(table.sides)
    if n == 3 and rules.modern:
        problems.append(Problem(("sides",), "Three sides play only in classic canasta."))
    elif n == 3 and sizes != {2}:
        problems.append(Problem(("sides",), "Three sides play as three partnerships of two."))
    elif n not in (2, 3):
        problems.append(Problem(("sides",), "A game has two sides (or three in classic canasta)."))
    elif n == 2 and (len(sizes) != 1 or not sizes <= {1, 2}):
        problems.append(Problem(("sides",), "Play two partnerships of two, or two single players."))
    for i, side in enumerate(table.sides):
        if not isinstance(side.name, str) or not side.name.strip():
            problems.append(Problem(("sides", i, "name"), "Give each side a name."))
        for j, player in enumerate(side.players):
            if not isinstance(player, str) or not player.strip():
                problems.append(Problem(("sides", i, "players", j), "Give each player a name."))
    if not problems and not (is_whole_number(table.first_dealer) and 0 <= table.first_dealer < table.seats):
        problems.append(Problem(("first_dealer",), f"The first dealer must be a seat from 0 to {table.seats - 1}."))
    if problems:
        raise RuleError(problems)


# --- Figures ------------------------------------------------------------------


def counted(entry: SideEntry) -> SideEntry:
    """What of a side's entry counts: a side that laid down a special hand scores the hand alone, whatever
    else was entered for it (kept, but not counted)."""
    return SideEntry(special_hand=entry.special_hand) if entry.special_hand is not None else entry


def side_count(rules: Rules, entry: SideEntry) -> int:
    """The Count: melded minus in hand; where the table says so, a side with no canasta counts every card against it."""
    if entry.special_hand is not None:
        return 0
    if entry.cards is None:
        return entry.count or 0
    melded, in_hand = entry.cards.melded.points(), entry.cards.in_hand.points()
    if rules.count_without_canasta == "negative" and entry.canastas == 0 and entry.reported_base is None:
        return -(melded + in_hand)
    return melded - in_hand


def _has_melded(rules: Rules, entry: SideEntry) -> bool:
    """Classic: whether the side melded anything during the hand (its red 3s count for it only then)."""
    if entry.has_melded is not None:
        return entry.has_melded
    return entry.canastas > 0 or side_count(rules, entry) > 0


def melding_unclear(rules: Rules, entry: SideEntry) -> bool:
    """Classic: whether red 3s are on the table but the entries can't tell if the side melded
    (no canasta, a Count of 0 or less, and has_melded not given), so the scorekeeper must say."""
    return (
        not rules.modern
        and entry.red_threes > 0
        and entry.has_melded is None
        and entry.canastas == 0
        and side_count(rules, entry) <= 0
    )


def classic_red_threes(rules: Rules, table: Table, red_threes: int) -> int:
    """Classic: what a side's red 3s are worth, before their sign (all four of two decks, five or six of three)."""
    red = rules.red_threes
    if table.pack.decks == 2 and red_threes == 4:
        return red.all_four
    if table.pack.decks == 3 and red_threes in (5, 6):
        return red.five if red_threes == 5 else red.six
    return red.each * red_threes


def threes_value(rules: Rules, table: Table, entry: SideEntry) -> int:
    """What the side's exposed 3s are worth, with their sign."""
    if not rules.modern:
        value = classic_red_threes(rules, table, entry.red_threes)
        return value if _has_melded(rules, entry) else -value
    if rules.all_eight_threes is not None and entry.red_threes == entry.black_threes == 4:
        value = rules.all_eight_threes
    else:
        value = rules.threes[entry.red_threes] + rules.threes[entry.black_threes]
    if entry.canastas == 0:
        return -value
    return 0 if entry.canastas == 1 else value


def penalties(rules: Rules, entry: SideEntry) -> int:
    """Points taken off the side's Base (a 3 drawn last is one of the 3s left in hand)."""
    values = rules.values
    return (
        values.incomplete_sevens * entry.incomplete_sevens
        + values.incomplete_aces * entry.incomplete_aces
        + values.incomplete_wild * entry.incomplete_wild
        + values.dirty_sevens * entry.dirty_sevens
        + values.dirty_aces * entry.dirty_aces
        + values.three_in_hand * entry.threes_in_hand
        + values.red_three_in_hand * entry.red_threes_in_hand
        + values.failed_go_out_ask * entry.failed_go_out_asks
        + values.failed_pile_take * entry.failed_pile_takes
    )


def side_base(rules: Rules, table: Table, entry: SideEntry) -> int:
    """The Base: 3s + canastas + going out + perfect cut - penalties (a special hand is its own value)."""
    values = rules.values
    if entry.special_hand is not None:
        return rules.special_hand_value(entry.special_hand) or 0
    if entry.reported_base is not None:
        return entry.reported_base
    canastas = (
        values.natural_canasta * entry.natural_canastas
        + values.mixed_canasta * entry.mixed_canastas
        + values.sevens_canasta * entry.sevens_canasta
        + values.aces_canasta * entry.aces_canasta
        + (values.wild_canasta(entry.wild_canasta) if entry.wild_canasta else 0)
    )
    going_out = 0
    if entry.went_out:
        going_out = values.going_out_concealed if entry.concealed else values.going_out
    perfect_cut = values.perfect_cut if entry.perfect_cut and rules.perfect_cut else 0
    return threes_value(rules, table, entry) + canastas + going_out + perfect_cut - penalties(rules, entry)


def minimum_count(rules: Rules, cumulative: int) -> int:
    """The points a side's opening meld must reach: the minimum of the last band its cumulative reaches."""
    requirement = rules.minimum_counts[0].minimum
    for band in rules.minimum_counts[1:]:
        if band.start is not None and cumulative >= band.start:
            requirement = band.minimum
    return requirement


# --- Checks (docs/rules.md section 5) ---------------------------------------------
#
# Each check enforces one rule of docs/rules.md section 5 and says which. A side check yields
# (field, message) for one side's entry; a hand check yields (message, fields involved) for what
# only shows across the sides, the fields being (side, field) pairs so a page can mark each of them.


@dataclass(frozen=True)
class _Side:
    """What a side check looks at: the game, the table, which side and its entry for this hand."""

    rules: Rules
    table: Table
    index: int
    entry: SideEntry
    hand_index: int

    @property
    def values(self) -> Values:
        return self.rules.values

    @property
    def pack(self) -> Pack:
        return self.table.pack


SideFinding = tuple  # (field name or path under the side, message)
HandFinding = tuple  # (message, ((side, field name), ...))
SideCheck = Callable[["_Side"], Iterator[SideFinding]]


def _only_what_the_game_has(s: _Side) -> Iterator[SideFinding]:
    """§5.10: an entry the game's rules do not have (black 3s, special canastas or hands in classic)."""
    for name in s.entry.entered_fields():
        if name != "perfect_cut" and not s.rules.has(name):  # the perfect cut says why in its own check
            yield name, f"{FIELD_LABELS[name]}: not part of this game's rules ({s.rules.preset_name})."


def _numbers_in_range(s: _Side) -> Iterator[SideFinding]:
    """§5.1: 3s of a colour 0 to what the pack holds, nothing negative, no more dirty players than players."""
    max_threes = s.pack.threes_of_a_colour
    for name in ("red_threes", "black_threes"):
        if not 0 <= getattr(s.entry, name) <= max_threes:
            yield name, f"{FIELD_LABELS[name]}: a side can have 0 to {max_threes}."
    for name in INT_FIELDS:
        if name not in ("red_threes", "black_threes") and getattr(s.entry, name) < 0:
            yield name, f"{FIELD_LABELS[name]}: can't be negative."
    players = len(s.table.sides[s.index].players)
    for name in ("dirty_sevens", "dirty_aces"):
        if getattr(s.entry, name) > players:
            yield name, f"{FIELD_LABELS[name]}: the side has only {players} player{'s' if players > 1 else ''}."
    for name in ("failed_go_out_asks", "failed_pile_takes"):
        if getattr(s.entry, name) > 50:
            yield name, f"{FIELD_LABELS[name]}: more than 50 in one hand? Check the number."
    if s.entry.red_threes_in_hand > s.pack.threes_of_a_colour:
        yield "red_threes_in_hand", f"Red 3s left in hand: there are only {s.pack.threes_of_a_colour} in the pack."


def _known_wild_canasta(s: _Side) -> Iterator[SideFinding]:
    """§5.10: a wild-card canasta is one of the three kinds the rules know."""
    kind = s.entry.wild_canasta
    if kind is not None and kind not in WILD_CANASTA_KINDS:
        yield "wild_canasta", "Wild-card canasta: choose seven 2s, four jokers and three 2s, or another mix."
    elif kind is not None and s.rules.has("wild_canasta") and not s.values.wild_canasta(kind):
        yield "wild_canasta", f"Wild-card canasta of {WILD_CANASTA_NAMES[kind]}: this game doesn't play it."


def _last_card_is_a_three_in_hand(s: _Side) -> Iterator[SideFinding]:
    """§5.1: the last card of the stock, when a 3, is one of the 3s left in hand."""
    if s.entry.last_draw_three and s.entry.threes_in_hand < 1:
        yield "last_draw_three", "The last card was a 3 left in hand: count it in 3s left in hand too."


def _special_meld_closed_or_unfinished(s: _Side) -> Iterator[SideFinding]:
    """§5.5: a side can't claim a special canasta and the same unfinished special meld."""
    for kind, closed, unfinished in (
        ("sevens", "sevens_canasta", "incomplete_sevens"),
        ("pure aces", "aces_canasta", "incomplete_aces"),
        ("wild cards", "wild_canasta", "incomplete_wild"),
    ):
        if getattr(s.entry, closed) not in (False, None) and getattr(s.entry, unfinished):
            yield unfinished, f"A side with a closed {kind} canasta can't also have an unfinished {kind} meld."


def _special_hand_allowed(s: _Side) -> Iterator[SideFinding]:
    """§5.10: a special hand the game's rules allow."""
    key = s.entry.special_hand
    if key is not None and s.rules.modern and s.rules.special_hand_value(key) is None:
        yield "special_hand", f"{special_hand_name(key)} is not a special hand allowed in this game."


def _going_out_needs_canastas(s: _Side) -> Iterator[SideFinding]:
    """§5.4: going out needs the canastas the game asks for, and (modern) no unfinished special meld."""
    entry, need = s.entry, s.rules.canastas_to_go_out
    if entry.went_out and entry.canastas < need:
        needed = {1: "a closed canasta", 2: "two closed canastas"}.get(need, f"{need} closed canastas")
        yield "went_out", f"Going out needs {needed}."
    if entry.went_out and (entry.incomplete_sevens or entry.incomplete_aces or entry.incomplete_wild):
        yield "went_out", "Can't go out with an unfinished sevens, aces or wild-card meld on the table."


def _melded_is_consistent(s: _Side) -> Iterator[SideFinding]:
    """§4 Red 3s (classic): a side with a canasta, or that went out, has melded."""
    if s.entry.has_melded is False and (s.entry.canastas or s.entry.went_out):
        yield "has_melded", "A side with a canasta, or that went out, has melded."


def _concealed_needs_going_out(s: _Side) -> Iterator[SideFinding]:
    """§5.10: concealed only for a side that went out."""
    if s.entry.concealed and not s.entry.went_out:
        yield "concealed", "Concealed is only for a side that went out."


def _perfect_cut_is_the_cutters(s: _Side) -> Iterator[SideFinding]:
    """§5.9: the perfect cut only where the game plays it, and only on the cutter's side."""
    if not s.entry.perfect_cut:
        return
    if not s.rules.perfect_cut:
        yield "perfect_cut", "This game doesn't play the perfect-cut bonus."
    elif s.table.cutter_side(s.hand_index) != s.index:
        cutter = s.table.sides[s.table.cutter_side(s.hand_index)].name
        yield "perfect_cut", f"Only the cutter's side ({cutter}) can have the perfect cut this hand."


def _counting_grid_fits_the_pack(s: _Side) -> Iterator[SideFinding]:
    """§5.8: a counting grid of whole cards the pack holds; the Count given once, as a number or a grid."""
    if s.entry.cards is None:
        return
    if s.entry.count is not None:
        yield "count", "Give the Count as one number or as the counting grid, not both."
    for where in ("melded", "in_hand"):
        counts = getattr(s.entry.cards, where)
        for kind in CARD_KINDS:
            number, label = getattr(counts, kind), CARD_LABELS[kind]
            if kind == "black_threes" and s.rules.modern and number:
                yield ("cards", where, kind), "Black 3s are never melded or counted in modern canasta."
            elif number < 0:
                yield ("cards", where, kind), f"{label}: can't be negative."
            elif number > s.pack.grid_limit(kind):
                yield ("cards", where, kind), f"{label}: the pack has only {s.pack.grid_limit(kind)}."


def _count_is_possible(s: _Side) -> Iterator[SideFinding]:
    """§5.7: a Count in fives, no larger than the pack, and (modern) not above 0 without a canasta."""
    count = side_count(s.rules, s.entry)
    pack_points = s.pack.points(black_threes_count=not s.rules.modern)
    if count % 5:
        yield "count", "The Count must be a multiple of 5."
    elif abs(count) > pack_points:
        yield "count", f"The Count can't be more than the whole pack's {pack_points:,} points."
    elif (
        s.rules.count_without_canasta == "negative"
        and s.entry.canastas == 0
        and count > 0
        and s.entry.reported_base is None
    ):
        yield "count", "A side with no canasta counts every card against it: its Count can't be above 0."


def base_limits(rules: Rules, table: Table, side: int) -> tuple[int, int]:
    """The lowest and highest Base a side could score in one hand in this game: a generous bound for a
    reported Base (every 3, canasta, bonus or penalty the pack and the side's players allow)."""
    values, pack = rules.values, table.pack
    players = len(table.sides[side].players)
    if rules.modern:
        threes = max(rules.all_eight_threes or 0, 2 * max(rules.threes))
    else:
        threes = max(classic_red_threes(rules, table, n) for n in range(pack.threes_of_a_colour + 1))
    canastas = (
        11 * (pack.of_rank() // 4) * max(values.natural_canasta, values.mixed_canasta)
        + values.sevens_canasta
        + values.aces_canasta
        + max(values.wild_canasta(k) for k in WILD_CANASTA_KINDS)
    )
    going_out = max(values.going_out, values.going_out_concealed)
    highest = max(
        threes + canastas + going_out + values.perfect_cut,
        max((points for _, points in rules.special_hands), default=0),
    )
    lowest = -(
        threes
        + values.incomplete_sevens
        + values.incomplete_aces
        + values.incomplete_wild
        + (values.dirty_sevens + values.dirty_aces) * players
        + values.three_in_hand * 2 * pack.threes_of_a_colour
        + values.red_three_in_hand * pack.threes_of_a_colour
        + (values.failed_go_out_ask + values.failed_pile_take) * 50
    )
    return lowest, highest


def _reported_base_alone(s: _Side) -> Iterator[SideFinding]:
    """§5.12: a Base reported as one figure stands alone (only the Count beside it), in fives, within what
    the pack and the game's values allow."""
    base = s.entry.reported_base
    if base is None:
        return
    others = [name for name in s.entry.entered_fields() if name not in WITH_REPORTED_BASE]
    if others:
        listed = ", ".join(FIELD_LABELS[name] for name in others)
        yield (
            "reported_base",
            (f"Base as reported: give the side's Base as one figure or as its entries ({listed}), not both."),
        )
    lowest, highest = base_limits(s.rules, s.table, s.index)
    if base % 5:
        yield "reported_base", "Base as reported: it must be a multiple of 5."
    elif not lowest <= base <= highest:
        yield (
            "reported_base",
            (f"Base as reported: in this game a side's Base is between {_signed(lowest)} and {highest:,}."),
        )


def _signed(points: int) -> str:
    """Points with a real minus sign, as on the sheet."""
    return f"\u2212{abs(points):,}" if points < 0 else f"{points:,}"


# What every side's entry must be, even one that laid down a special hand (its other entries are kept).
SIDE_CHECKS = (_only_what_the_game_has, _numbers_in_range, _known_wild_canasta, _special_hand_allowed)
# What the entries that count must agree on.
CONSISTENCY_CHECKS = (_last_card_is_a_three_in_hand, _special_meld_closed_or_unfinished, _reported_base_alone)
# The entries that make up a Base: checked only for a side that neither laid down a special hand (which
# scores the hand alone) nor reported its Base as one figure (which sets them aside).
ENTRY_CHECKS = (
    _going_out_needs_canastas,
    _melded_is_consistent,
    _concealed_needs_going_out,
    _perfect_cut_is_the_cutters,
)
# The Count: checked for every side but one that laid down a special hand (its Count is 0).
COUNT_CHECKS = (_counting_grid_fits_the_pack, _count_is_possible)


def _side_problems(rules: Rules, table: Table, i: int, entry: SideEntry, hand_index: int) -> list[Problem]:
    """Problems that one side's entry has on its own."""
    side = _Side(rules, table, i, entry, hand_index)
    checks: tuple[SideCheck, ...] = SIDE_CHECKS
    if entry.special_hand is None or not rules.modern:
        checks += CONSISTENCY_CHECKS + (() if entry.reported_base is not None else ENTRY_CHECKS) + COUNT_CHECKS
    return [
        Problem(("sides", i, *((field,) if isinstance(field, str) else field)), message)
        for check in checks
        for field, message in check(side)
    ]


def _sides_with(entries: Sequence[SideEntry], *names: str) -> tuple[tuple[int, str], ...]:
    """(side, field) for each side whose entry holds any of these fields."""
    return tuple(
        (i, name) for i, entry in enumerate(entries) for name in names if getattr(entry, name) not in (0, False, None)
    )


def _threes_fit_the_pack(rules: Rules, table: Table, hand: Hand, hand_index: int) -> Iterator[HandFinding]:
    """§5.2: no more red (or black) 3s across the sides than the pack holds."""
    pack, entries = table.pack, hand.sides
    red = sum(e.red_threes + e.red_threes_in_hand for e in entries)
    black = sum(e.black_threes for e in entries)
    for held, colour, names in (
        (red, "red", ("red_threes", "red_threes_in_hand")),
        (black, "black", ("black_threes",)),
    ):
        if held > pack.threes_of_a_colour:
            yield (
                f"The sides account for {held} {colour} 3s; the pack has only {pack.threes_of_a_colour}.",
                _sides_with(entries, *names),
            )
    every_three = ("red_threes", "black_threes", "threes_in_hand", "red_threes_in_hand")
    threes = sum(getattr(e, name) for e in entries for name in every_three)
    if threes > 2 * pack.threes_of_a_colour:
        yield (
            f"The sides account for {threes} 3s; the pack has only {2 * pack.threes_of_a_colour}.",
            _sides_with(entries, *every_three),
        )


def _one_way_to_end_the_hand(rules: Rules, table: Table, hand: Hand, hand_index: int) -> Iterator[HandFinding]:
    """§5.3: one side goes out, one special hand at most, and never both in one hand."""
    entries = hand.sides
    went_out = _sides_with(entries, "went_out")
    specials = _sides_with(entries, "special_hand")
    if len(went_out) > 1:
        yield "Only one side can go out.", went_out
    if len(specials) > 1:
        yield "Only one special hand can end a hand.", specials
    if specials and went_out:
        yield "Nobody goes out in a hand that ends with a special hand.", specials + went_out


def _one_of_a_kind(rules: Rules, table: Table, hand: Hand, hand_index: int) -> Iterator[HandFinding]:
    """§5.5 and §5.9: one last card of the stock, one perfect cut, each special canasta on one side."""
    for name, message in (
        ("last_draw_three", "Only one side can hold the last card of the stock."),
        ("perfect_cut", "Only one side can have the perfect cut."),
        ("sevens_canasta", "Only one side can close a sevens canasta."),
        ("aces_canasta", "Only one side can close a pure aces canasta."),
        ("wild_canasta", "Only one side can close a wild-card canasta."),
    ):
        sides = _sides_with(hand.sides, name)
        if len(sides) > 1:
            yield message, sides


def _canastas_fit_the_pack(rules: Rules, table: Table, hand: Hand, hand_index: int) -> Iterator[HandFinding]:
    """§5.6: no more natural and mixed canastas than the pack can make."""
    entries, pack = hand.sides, table.pack
    naturals = sum(e.natural_canastas for e in entries)
    mixed = sum(e.mixed_canastas for e in entries)
    involved = _sides_with(entries, "natural_canastas", "mixed_canastas")
    if rules.modern:
        # A canasta holds at least five natural cards of its rank: one per rank from two decks, two from three.
        # Ranks 4-K and mixed aces (sevens only as a special canasta; pure aces use up the aces).
        ranks = 10 - int(any(e.aces_canasta for e in entries))
        limit = ranks * (pack.of_rank() // 5)
        if naturals + mixed > limit:
            yield f"{naturals + mixed} natural and mixed canastas: the pack can make at most {limit}.", involved
        return
    # Classic: a natural canasta takes seven cards of its rank, a mixed one four to six of its rank and one to
    # three wild cards; the ranks (A, K ... 4) and the wild cards of the pack must be enough for them all.
    wild_left = pack.wild_cards - sum(7 * (e.wild_canasta is not None) + 3 * e.incomplete_wild for e in entries)
    if not _classic_canastas_possible(naturals, mixed, pack.of_rank(), wild_left):
        yield (
            f"{naturals} natural and {mixed} mixed canastas: the pack can't make them all (a natural canasta "
            f"is seven cards of a rank; a mixed one at least four of a rank and a wild card).",
            involved,
        )


CLASSIC_RANKS = 11  # aces, kings ... 4s: the ranks a classic canasta can be made of


def _classic_canastas_possible(naturals: int, mixed: int, per_rank: int, wild_cards: int) -> bool:
    """Whether the ranks of the pack, with these wild cards, can make this many natural and mixed canastas.

    Rank by rank (each has `per_rank` cards), choose how many of each kind it makes; the fewest wild cards
    are used when each mixed canasta takes as many cards of its rank as it can (six at most).
    """
    if naturals < 0 or mixed < 0 or naturals + mixed > CLASSIC_RANKS * per_rank:
        return False
    options = []  # (naturals, mixed, wild cards needed) one rank can give
    for n in range(per_rank // 7 + 1):
        left = per_rank - 7 * n
        for m in range(left // 4 + 1):
            options.append((n, m, 7 * m - min(6 * m, left)))
    # fewest wild cards for (naturals, mixed) over the ranks seen so far
    best: dict[tuple[int, int], int] = {(0, 0): 0}
    for _ in range(CLASSIC_RANKS):
        step: dict[tuple[int, int], int] = {}
        for (a, b), wild in best.items():
            for n, m, w in options:
                key = (min(a + n, naturals), min(b + m, mixed))
                if wild + w < step.get(key, wild_cards + 1):
                    step[key] = wild + w
        best = step
    return best.get((naturals, mixed), wild_cards + 1) <= wild_cards


def _cards_fit_the_pack(rules: Rules, table: Table, hand: Hand, hand_index: int) -> Iterator[HandFinding]:
    """§5.8: no more 7s, aces or wild cards than the pack holds, counting what the entries imply."""
    entries, pack = hand.sides, table.pack
    per_rank = pack.of_rank()
    sevens = sum(7 * e.sevens_canasta + 3 * e.incomplete_sevens + 3 * e.dirty_sevens for e in entries)
    if sevens > per_rank:
        yield (
            f"Too many sevens: together the sides' entries need at least {sevens} (a sevens canasta is 7, "
            f"an unfinished sevens meld 3 or more, a player dirty with 7s holds 3), but the pack has {per_rank}.",
            _sides_with(entries, "sevens_canasta", "incomplete_sevens", "dirty_sevens"),
        )
    aces = sum(7 * e.aces_canasta + 3 * e.incomplete_aces + 3 * e.dirty_aces for e in entries)
    if aces > per_rank:
        yield (
            f"Too many aces: together the sides' entries need at least {aces} (a pure aces canasta is 7, "
            f"an unfinished aces meld 3 or more, a player dirty with aces holds 3), but the pack has {per_rank}.",
            _sides_with(entries, "aces_canasta", "incomplete_aces", "dirty_aces"),
        )
    wild = sum(7 * (e.wild_canasta is not None) + 3 * e.incomplete_wild + e.mixed_canastas for e in entries)
    if wild > pack.wild_cards:
        yield (
            f"Too many wild cards: together the sides' entries need at least {wild} (a wild-card canasta is 7, "
            f"an unfinished wild meld 3 or more, each mixed canasta 1), but the pack has {pack.wild_cards}.",
            _sides_with(entries, "wild_canasta", "incomplete_wild", "mixed_canastas"),
        )


def _grids_fit_the_pack(rules: Rules, table: Table, hand: Hand, hand_index: int) -> Iterator[HandFinding]:
    """§5.8: the counting grids of all sides hold no more of a card than the pack."""
    grids = [(i, e.cards) for i, e in enumerate(hand.sides) if e.cards is not None]
    for kind in CARD_KINDS:
        held = sum(getattr(g.melded, kind) + getattr(g.in_hand, kind) for _, g in grids)
        if held > table.pack.grid_limit(kind):
            sides = tuple((i, "count") for i, g in grids if getattr(g.melded, kind) + getattr(g.in_hand, kind))
            yield (
                f"The counting grids hold {held} {CARD_LABELS[kind].lower()}; "
                f"the pack has only {table.pack.grid_limit(kind)}.",
                sides,
            )


HAND_CHECKS = (
    _threes_fit_the_pack,
    _one_way_to_end_the_hand,
    _one_of_a_kind,
    _canastas_fit_the_pack,
    _cards_fit_the_pack,
    _grids_fit_the_pack,
)


def _hand_problems(rules: Rules, table: Table, hand: Hand, hand_index: int) -> list[Problem]:
    """Problems that only show across the sides of a hand: named on the hand, with each side's field involved.
    Only what counts is judged: a side that laid down a special hand is its special hand."""
    hand = Hand(tuple(counted(entry) for entry in hand.sides))
    return [
        Problem((), message, involves=tuple(("sides", side, name) for side, name in fields_involved))
        for check in HAND_CHECKS
        for message, fields_involved in check(rules, table, hand, hand_index)
    ]


def check_hand(rules: Rules, table: Table, hand: Hand, hand_index: int = 0) -> None:
    """Refuse a hand that breaks docs/rules.md section 5; RuleError lists every problem found."""
    if len(hand.sides) != len(table.sides):
        raise RuleError([Problem(("sides",), f"A hand has one entry for each of the {len(table.sides)} sides.")])
    problems = []
    for i, entry in enumerate(hand.sides):
        problems += _side_problems(rules, table, i, entry, hand_index)
    problems += _hand_problems(rules, table, hand, hand_index)
    if problems:
        raise RuleError(problems)


# --- Scores -------------------------------------------------------------------


@dataclass(frozen=True)
class SideScore:
    """One side's figures for one hand."""

    base: int
    count: int
    total: int
    cumulative: int
    min_count_next: int


@dataclass(frozen=True)
class HandScore:
    """A hand's dealer seat and each side's figures."""

    dealer: int
    sides: tuple[SideScore, ...]


@dataclass(frozen=True)
class GameScore:
    """Every hand's figures, the running totals and the state of the game."""

    hands: tuple[HandScore, ...]
    totals: tuple[int, ...]
    min_count: tuple[int, ...]
    finished: bool
    winners: tuple[int, ...]  # one side, or several sharing a tied win; none while the game goes on
    next_dealer: int
    ended_after: int | None = None  # index of the hand that ended the game

    @property
    def winner(self) -> int | None:
        """The side that won alone (None while the game goes on, or when a tied win is shared)."""
        return self.winners[0] if len(self.winners) == 1 else None

    @property
    def margin(self) -> int | None:
        """How far the winners finished ahead of the next side."""
        if not self.winners or len(self.winners) == len(self.totals):
            return None
        return self.totals[self.winners[0]] - max(t for i, t in enumerate(self.totals) if i not in self.winners)


def score_hand(
    rules: Rules,
    table: Table,
    hand: Hand,
    hand_index: int = 0,
    cumulative_before: Sequence[int] | None = None,
    check: bool = True,
) -> HandScore:
    """Check a hand (unless told it was checked when stored), then work out each side's figures."""
    if check:
        check_hand(rules, table, hand, hand_index)
    before = tuple(cumulative_before) if cumulative_before is not None else (0,) * len(table.sides)
    special_side = next((i for i, e in enumerate(hand.sides) if e.special_hand is not None), None)
    scores = []
    for i, entry in enumerate(hand.sides):
        if rules.wipeout and special_side is not None and special_side != i:
            base = count = 0
        else:
            base, count = side_base(rules, table, entry), side_count(rules, entry)
        cumulative = before[i] + base + count
        scores.append(
            SideScore(
                base=base,
                count=count,
                total=base + count,
                cumulative=cumulative,
                min_count_next=minimum_count(rules, cumulative),
            )
        )
    return HandScore(dealer=table.dealer(hand_index), sides=tuple(scores))


def game_over(rules: Rules, totals: Sequence[int], last_hand: Hand | None = None) -> tuple[int, ...]:
    """The winners once a side reaches the target after a hand (none while the game goes on).

    Leaders exactly tied at the top: the table's tie rule says whether they play on, share the win, or
    the one that went out in the last hand wins (play on if none of them did).
    """
    if max(totals) < rules.target:
        return ()
    leader = max(totals)
    leaders = tuple(i for i, t in enumerate(totals) if t == leader)
    if len(leaders) == 1 or rules.tie == "shared":
        return leaders
    if rules.tie == "went_out" and last_hand is not None:
        out = tuple(i for i in leaders if last_hand.sides[i].went_out and last_hand.sides[i].special_hand is None)
        return out
    return ()


def score_game(rules: Rules, table: Table, hands: Sequence[Hand], check: bool = True) -> GameScore:
    """Score every hand in order; RuleError (paths under ("hands", n)) for any refused hand or a hand after the end.

    check=False scores hands that were checked when they were stored, as they are.
    """
    totals: tuple[int, ...] = (0,) * len(table.sides)
    scored: list[HandScore] = []
    problems: list[Problem] = []
    winners: tuple[int, ...] = ()
    ended_after: int | None = None
    for n, hand in enumerate(hands):
        if winners and check and ended_after is not None:
            problems.append(
                Problem(("hands", n), f"The game ended after hand {ended_after + 1}: no hand can follow it.")
            )
            continue
        try:
            score = score_hand(rules, table, hand, n, totals, check)
        except RuleError as error:
            problems += error.prefixed("hands", n).problems
            continue
        scored.append(score)
        totals = tuple(s.cumulative for s in score.sides)
        winners = game_over(rules, totals, hand)
        if winners and ended_after is None:
            ended_after = n
    if problems:
        raise RuleError(problems)
    return GameScore(
        hands=tuple(scored),
        totals=totals,
        min_count=tuple(minimum_count(rules, t) for t in totals),
        finished=bool(winners),
        winners=winners,
        next_dealer=table.dealer(len(hands)),
        ended_after=ended_after,
    )


def score_next_hand(rules: Rules, table: Table, score: GameScore, hand: Hand) -> GameScore:
    """The game's figures with one more hand (already checked) after the hands `score` covers: that hand alone
    is scored, from the running totals before it. The same figures as score_game over all the hands."""
    n = len(score.hands)
    hand_score = score_hand(rules, table, hand, n, score.totals, check=False)
    totals = tuple(s.cumulative for s in hand_score.sides)
    winners = game_over(rules, totals, hand)
    return GameScore(
        hands=score.hands + (hand_score,),
        totals=totals,
        min_count=tuple(minimum_count(rules, t) for t in totals),
        finished=bool(winners),
        winners=winners,
        next_dealer=table.dealer(n + 1),
        ended_after=score.ended_after if score.ended_after is not None or not winners else n,
    )


def score_json(score: GameScore) -> dict[str, Any]:
    """A game's figures as compact JSON, to keep with the game until its next change."""
    return {
        "hands": [
            [h.dealer, [[s.base, s.count, s.total, s.cumulative, s.min_count_next] for s in h.sides]]
            for h in score.hands
        ],
        "totals": list(score.totals),
        "min_count": list(score.min_count),
        "finished": score.finished,
        "winners": list(score.winners),
        "next_dealer": score.next_dealer,
        "ended_after": score.ended_after,
    }


def score_from_json(data: Mapping[str, Any]) -> GameScore:
    """Figures kept by score_json, as they were worked out (kept figures are trusted, like stored hands)."""
    return GameScore(
        hands=tuple(
            HandScore(dealer=dealer, sides=tuple(SideScore(*side) for side in sides)) for dealer, sides in data["hands"]
        ),
        totals=tuple(data["totals"]),
        min_count=tuple(data["min_count"]),
        finished=data["finished"],
        winners=tuple(data["winners"]),
        next_dealer=data["next_dealer"],
        ended_after=data["ended_after"],
    )


# --- Settling up (docs/rules.md §6) -----------------------------------------------


Money = Decimal | int


@dataclass(frozen=True)
class Payment:
    """What one losing side pays one winner (a negative amount: the winner pays it, for specials)."""

    payer: int  # the losing side
    payee: int  # the winner
    margin: int  # points behind the winner
    thousands: int  # the margin rounded to thousands, halves up
    amount: Money


@dataclass(frozen=True)
class Settlement:
    """Who won and what each losing side pays: to each winner, and in all (a winner's own entry is 0)."""

    winners: tuple[int, ...]
    payments: tuple[Money, ...]  # each side's payments to every winner added up; whole numbers for a whole stake
    thousands: tuple[int, ...] = ()  # each side's margin behind the winners, rounded to thousands
    debts: tuple[Payment, ...] = ()  # losing side by losing side, winner by winner

    @property
    def winner(self) -> int | None:
        """The side that won alone (None when a tied win is shared)."""
        return self.winners[0] if len(self.winners) == 1 else None


def specials_made(hands: Sequence[Hand], sides: int) -> tuple[int, ...]:
    """How many specials (special canastas and special hands) each side made over the game."""
    made = [0] * sides
    for hand in hands:
        for i, entry in enumerate(hand.sides):
            made[i] += entry.special_canastas + int(entry.special_hand is not None)
    return tuple(made)


def settle_up(
    rules: Rules,
    totals: Sequence[int],
    stake: Money,
    per_special: Money = 0,
    specials: Sequence[int] | None = None,
    winners: Sequence[int] | None = None,
) -> Settlement:
    """The money due at the end (docs/rules.md §6): each losing side pays each winner its margin behind that
    winner, rounded to the nearest 1,000 (halves up), times the stake per 1,000, plus specials.

    `winners` are the game's (GameScore.winners): several share a tied win, and sides sharing it settle nothing
    between them. Left out, the sides level at the top win.
    """
    specials = tuple(specials) if specials is not None else (0,) * len(totals)
    if not winners:
        winners = tuple(i for i, total in enumerate(totals) if total == max(totals))
    debts = tuple(
        Payment(
            payer=i,
            payee=w,
            margin=totals[w] - totals[i],
            thousands=(totals[w] - totals[i] + 500) // 1000,
            amount=(totals[w] - totals[i] + 500) // 1000 * stake + (specials[w] - specials[i]) * per_special,
        )
        for i in range(len(totals))
        if i not in winners
        for w in winners
    )
    # Winners tied at the top share one total: a side's margin behind each of them is the same.
    thousands = tuple((totals[winners[0]] - total + 500) // 1000 for total in totals)
    payments = tuple(sum((d.amount for d in debts if d.payer == i), 0 * stake) for i in range(len(totals)))
    return Settlement(winners=tuple(winners), payments=payments, thousands=thousands, debts=debts)


__all__ = [
    "Problem",
    "RuleError",
    "Preset",
    "PRESETS",
    "Rules",
    "make_rules",
    "Side",
    "Table",
    "score_next_hand",
    "score_json",
    "score_from_json",
    "check_table",
    "CardCounts",
    "Cards",
    "SideEntry",
    "Hand",
    "check_hand",
    "side_base",
    "side_count",
    "minimum_count",
    "SideScore",
    "HandScore",
    "GameScore",
    "score_hand",
    "score_game",
    "game_over",
    "Payment",
    "Settlement",
    "settle_up",
    "specials_made",
]
