"""The presets (modern, cla, wca, classic: each a complete set of table rules, its values the catalogue's
defaults) and `make_rules`: a new game's rules from a preset and the table's own, every key judged."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from .catalogue import (
    BY_KEY,
    MOST_POINTS,
    RED_THREE_KEYS,
    SPECIAL_HAND_NAMES,
    VALUE_KEYS,
    VALUE_LABELS,
    preset_values,
)
from .errors import Message, Problem, RuleError
from .table import (
    COUNTS_WITHOUT_CANASTA,
    MOST_HANDS,
    RULE_KEYS,
    TIES,
    Band,
    RedThrees,
    Rules,
    Values,
    is_whole_number,
    rules_from_json,
    rules_json,
)


@dataclass(frozen=True)
class Preset:
    """A named set of table rules: the values one kind of table plays with."""

    key: str
    name: str
    description: str
    modern: bool  # exposed 3s of both colours, special canastas, special hands
    rules: Rules


_CLASSIC_RED_THREES = RedThrees(each=100, all_four=800, five=1000, six=1200)
_MODERN_BANDS = (Band(None, 125), Band(3000, 155), Band(5000, 180))
_THREES = (0, 100, 300, 500, 1000)
_WCA_HANDS = (
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
# What differs between the presets besides their values (the catalogue's): the rest of Rules.
_SPECIAL_HANDS: Mapping[str, tuple[tuple[str, int], ...]] = {
    "modern": (("straight", 3000), ("pairs", 2500), ("wild_pairs", 2000), ("pungs_kongs", 2000), ("zip_code", 2500)),
    "cla": (
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
    "wca": tuple((key, 3000) for key in _WCA_HANDS),
    "classic": (),
}


def _modern_rules(key: str, all_eight_threes: int | None = None, wipeout: bool = False) -> Rules:
    """A modern preset's rules: its values from the catalogue, its special hands, and what it says otherwise."""
    return Rules(
        preset=key,
        target=8500,
        tie="play_on",
        minimum_counts=_MODERN_BANDS,
        canastas_to_go_out=2,
        count_without_canasta="negative",
        threes=_THREES,
        all_eight_threes=all_eight_threes,
        red_threes=_CLASSIC_RED_THREES,
        values=Values(**preset_values(key)),
        wipeout=wipeout,
        perfect_cut=True,
        special_hands=_SPECIAL_HANDS[key],
    )


PRESETS: Mapping[str, Preset] = {
    "modern": Preset(
        "modern",
        Message("Modern American"),
        Message("Modern American Canasta: {target:,} to win, special canastas and special hands.", target=8500),
        True,
        _modern_rules("modern"),
    ),
    "cla": Preset(
        "cla",
        Message("CLA"),
        Message("Canasta League of America: modern scoring with more special hands."),
        True,
        _modern_rules("cla"),
    ),
    "wca": Preset(
        "wca",
        Message("WCA"),
        Message(
            "World Canasta Association: bigger wild canastas, {going_out} for going out, {three} for each 3 left in "
            "hand, wipeout on.",
            going_out=200,
            three=100,
        ),
        True,
        _modern_rules("wca", all_eight_threes=3000, wipeout=True),
    ),
    "classic": Preset(
        "classic",
        Message("Classic"),
        Message(
            "Classic Canasta: {target:,} to win, red 3s only, no special canastas or hands; six players allowed.",
            target=5000,
        ),
        False,
        Rules(
            preset="classic",
            target=5000,
            tie="play_on",
            minimum_counts=(Band(None, 15), Band(0, 50), Band(1500, 90), Band(3000, 120)),
            canastas_to_go_out=1,
            count_without_canasta="melded_minus_hand",
            threes=_THREES,
            all_eight_threes=None,
            red_threes=_CLASSIC_RED_THREES,
            values=Values(**preset_values("classic")),
            wipeout=False,
            perfect_cut=False,
            special_hands=_SPECIAL_HANDS["classic"],
        ),
    ),
}


# --- A new game's rules, every key judged (docs/rules.md §5.13) -----------------------------------

Finding = tuple[tuple, str]  # (path under "rules", message)


def _points_problem(value: object, what: str, lowest: int = 0, highest: int = MOST_POINTS) -> str | None:
    """Why `value` can't be a number of points here, or None: whole, in fives, from `lowest` to `highest`."""
    if not is_whole_number(value):
        return f"{what}: give a whole number of points, like 500."
    assert isinstance(value, int)
    if value < lowest:
        return f"{what}: can't be negative." if lowest == 0 else f"{what}: at least {lowest:,}."
    if value > highest:
        return f"{what}: at most {highest:,} points."
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


def _kinds_and_choices(house: Mapping[str, Any]) -> Iterator[Finding]:
    """The switches, the target, the choices and the canastas to go out."""
    for key in ("wipeout", "perfect_cut"):
        if key in house and not isinstance(house[key], bool):
            yield (key,), f"{key.replace('_', ' ').capitalize()}: true or false."
    if "target" in house:
        problem = _points_problem(house["target"], "The target", lowest=5)
        if problem:
            yield ("target",), problem
    for key, choices in (("tie", TIES), ("count_without_canasta", COUNTS_WITHOUT_CANASTA)):
        if key in house and house[key] not in choices:
            yield (key,), f"{key.replace('_', ' ').capitalize()}: one of {', '.join(choices)}."
    if "canastas_to_go_out" in house and (
        not is_whole_number(house["canastas_to_go_out"]) or not 0 <= house["canastas_to_go_out"] <= 10
    ):
        yield ("canastas_to_go_out",), "Canastas to go out: a number from 0 to 10."


def _threes_problems(house: Mapping[str, Any]) -> Iterator[Finding]:
    """Modern 3s: the value of 0 to 4 of one colour, and of all eight."""
    if "threes" in house:
        threes = house["threes"]
        if not isinstance(threes, list) or len(threes) != 5:
            yield ("threes",), "3s: the value of 0, 1, 2, 3 and 4 of one colour, like [0, 100, 300, 500, 1000]."
        else:
            for i, points in enumerate(threes):
                problem = _points_problem(points, f"{i} 3s")
                if problem:
                    yield ("threes", i), problem
    if house.get("all_eight_threes") is not None:
        problem = _points_problem(house["all_eight_threes"], "All eight 3s")
        if problem:
            yield ("all_eight_threes",), problem


def _value_problem(key: str, name: str, points: object) -> str | None:
    """A red 3s value or a value of the catalogue, within its bounds."""
    value = BY_KEY.get(name) if key == "values" else None
    label = VALUE_LABELS.get(name, name.replace("_", " ").capitalize())
    if value is None:
        return _points_problem(points, label)
    return _points_problem(points, label, value.lowest, value.highest)


def _named_values(house: Mapping[str, Any]) -> Iterator[Finding]:
    """The red 3s and the values, each by name."""
    for key, names in (("red_threes", RED_THREE_KEYS), ("values", VALUE_KEYS)):
        if key not in house:
            continue
        if not isinstance(house[key], Mapping):
            yield (key,), f'{key.replace("_", " ").capitalize()}: give each value by name, like {{"{names[0]}": 500}}.'
            continue
        for name, points in house[key].items():
            if name not in names:
                yield (key, name), f"Unknown value {name!r}."
            else:
                problem = _value_problem(key, name, points)
                if problem:
                    yield (key, name), problem


def _special_hands_problems(house: Mapping[str, Any], preset: Preset) -> Iterator[Finding]:
    """Special hands from the catalogue, each with its points (none in classic)."""
    if "special_hands" not in house:
        return
    hands = house["special_hands"]
    if not isinstance(hands, Mapping):
        yield ("special_hands",), 'Special hands: give each hand\'s points, like {"pairs": 2500}.'
        return
    for key, points in hands.items():
        if key not in SPECIAL_HAND_NAMES:
            yield ("special_hands", key), f"There is no special hand called {key!r}."
        elif not preset.modern:
            yield ("special_hands", key), "Classic canasta has no special hands."
        else:
            problem = _points_problem(points, SPECIAL_HAND_NAMES[key], lowest=5)
            if problem:
                yield ("special_hands", key), problem


def _fixed_length_problems(house: Mapping[str, Any]) -> Iterator[Finding]:
    """A game of a fixed number of hands: the number (1 to MOST_HANDS), and each hand's Minimum Count (a list of
    at most that many, each a multiple of 5). A null is a key left out: play to the target, the bands."""
    hands = house.get("hands_per_game")
    if hands is not None and (not is_whole_number(hands) or not 1 <= hands <= MOST_HANDS):
        message = f"Number of hands: a game of 1 to {MOST_HANDS} hands, like 3 (or none: play to the target)."
        yield ("hands_per_game",), message
        hands = None
    counts = house.get("minimum_counts_by_hand")
    if counts is None:
        return
    if not isinstance(counts, list) or not 1 <= len(counts) <= MOST_HANDS:
        message = "Minimum Counts by hand: list each hand's Minimum Count, like 125, 155, 180 (or none: by the bands)."
        yield ("minimum_counts_by_hand",), message
        return
    if hands is not None and len(counts) > hands:
        game = f"{hands} hand" if hands == 1 else f"{hands} hands"
        message = (
            f"Minimum Counts by hand: {len(counts)} Minimum Counts for a game of {game}. "
            f"Give one for each hand, at most {hands}."
        )
        yield ("minimum_counts_by_hand",), message
    for n, count in enumerate(counts):
        problem = _points_problem(count, f"The Minimum Count of hand {n + 1}")
        if problem:
            yield ("minimum_counts_by_hand", n), problem


def _house_problems(house: Mapping[str, Any], preset: Preset) -> Iterator[Finding]:
    """Every key of the table's own rules that is unknown, of the wrong kind or absurd."""
    for key in house:
        if key not in RULE_KEYS:
            yield (key,), f"Unknown table rule {key!r}."
    yield from _kinds_and_choices(house)
    if "minimum_counts" in house:
        for path, message in _check_minimum_counts(house["minimum_counts"]):
            yield ("minimum_counts", *path), message
    yield from _fixed_length_problems(house)
    yield from _threes_problems(house)
    yield from _named_values(house)
    yield from _special_hands_problems(house, preset)


def make_rules(preset: str, **house: Any) -> Rules:
    """A game's rules: the preset's values with the table's own (any subset of docs/api.md's table rules);
    RuleError naming each key that is unknown, of the wrong kind or absurd."""
    if not isinstance(preset, str):  # a list or an object can't even be looked up
        raise RuleError([Problem(("rules", "preset"), "The preset is a name: modern, cla, wca or classic.")])
    if preset not in PRESETS:
        shown = f" {preset!r}" if len(preset) <= 20 else ""
        raise RuleError([Problem(("rules", "preset"), f"Unknown preset{shown}: choose modern, cla, wca or classic.")])
    base = PRESETS[preset]
    # A null is a key left out, except for all_eight_threes, where null means the table doesn't play it.
    house = {key: value for key, value in house.items() if value is not None or key == "all_eight_threes"}
    problems = [Problem(("rules", *path), message) for path, message in _house_problems(house, base)]
    if problems:
        raise RuleError(problems)
    merged = rules_json(base.rules)
    for key, value in house.items():
        merged[key] = {**merged[key], **value} if key in ("red_threes", "values") else value
    return rules_from_json(merged)
