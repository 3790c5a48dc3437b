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
from .errors import Message, Plural, Problem, RuleError
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
        return Message("{label}: give a whole number of points, like {example}.", label=what, example=500)
    assert isinstance(value, int)
    if value < lowest:
        if lowest == 0:
            return Message("{label}: can't be negative.", label=what)
        return Message("{label}: at least {lowest:,}.", label=what, lowest=lowest)
    if value > highest:
        return Message("{label}: at most {highest:,} points.", label=what, highest=highest)
    if value % 5:
        return Message("{label}: points are a multiple of 5.", label=what)
    return None


# The labels of the table rules a refusal names (where the new-game page's own labels say something else).
_LABELS = {
    "wipeout": Message("Wipeout"),
    "perfect_cut": Message("Perfect cut"),
    "tie": Message("Tie"),
    "count_without_canasta": Message("Count without canasta"),
    "red_threes": Message("Red threes"),
    "values": Message("Values"),
}
MINIMUM_COUNT = Message("Minimum Count")


def _check_minimum_counts(value: object) -> Iterator[tuple[tuple, str]]:
    """Minimum Count bands: a first row from null, then rising starts, each with its minimum."""
    if not isinstance(value, list) or not value:
        yield (
            (),
            Message(
                "Minimum Counts: list the bands, like {example}.",
                example='[{"from": null, "minimum": 125}, {"from": 3000, ...}]',
            ),
        )
        return
    previous: int | None = None
    for i, band in enumerate(value):
        if not isinstance(band, Mapping) or set(band) - {"from", "minimum"} or "minimum" not in band:
            yield (
                (i,),
                Message("A Minimum Count band is {example}.", example='{"from": score or null, "minimum": points}'),
            )
            continue
        start = band.get("from")
        if i == 0 and start is not None:
            yield (i, "from"), Message("The first Minimum Count band starts from null: it covers every lower score.")
        elif i > 0 and (not isinstance(start, int) or isinstance(start, bool) or abs(start) > MOST_POINTS):
            yield (i, "from"), Message("A Minimum Count band starts from a score, like {example}.", example=3000)
        elif i > 0 and previous is not None and isinstance(start, int) and start <= previous:
            yield (i, "from"), Message("Minimum Count bands go up: each starts above the one before.")
        problem = _points_problem(band["minimum"], MINIMUM_COUNT)
        if problem:
            yield (i, "minimum"), problem
        if i > 0 and isinstance(start, int):
            previous = start


def _kinds_and_choices(house: Mapping[str, Any]) -> Iterator[Finding]:
    """The switches, the target, the choices and the canastas to go out."""
    for key in ("wipeout", "perfect_cut"):
        if key in house and not isinstance(house[key], bool):
            yield (key,), Message("{label}: true or false.", label=_LABELS[key])
    if "target" in house:
        problem = _points_problem(house["target"], Message("The target"), lowest=5)
        if problem:
            yield ("target",), problem
    for key, choices in (("tie", TIES), ("count_without_canasta", COUNTS_WITHOUT_CANASTA)):
        if key in house and house[key] not in choices:
            yield (key,), Message("{label}: one of {choices}.", label=_LABELS[key], choices=", ".join(choices))
    if "canastas_to_go_out" in house and (
        not is_whole_number(house["canastas_to_go_out"]) or not 0 <= house["canastas_to_go_out"] <= 10
    ):
        yield (
            ("canastas_to_go_out",),
            Message("Canastas to go out: a number from {lowest} to {highest}.", lowest=0, highest=10),
        )


def _threes_problems(house: Mapping[str, Any]) -> Iterator[Finding]:
    """Modern 3s: the value of 0 to 4 of one colour, and of all eight."""
    if "threes" in house:
        threes = house["threes"]
        if not isinstance(threes, list) or len(threes) != 5:
            yield (
                ("threes",),
                Message(
                    "3s: the value of 0, 1, 2, 3 and 4 of one colour, like {example}.",
                    example="[0, 100, 300, 500, 1000]",
                ),
            )
        else:
            for i, points in enumerate(threes):
                problem = _points_problem(points, Message("{number} 3s", number=i))
                if problem:
                    yield ("threes", i), problem
    if house.get("all_eight_threes") is not None:
        problem = _points_problem(house["all_eight_threes"], Message("All eight 3s"))
        if problem:
            yield ("all_eight_threes",), problem


def _value_problem(key: str, name: str, points: object) -> str | None:
    """A red 3s value or a value of the catalogue, within its bounds."""
    value = BY_KEY.get(name) if key == "values" else None
    label = VALUE_LABELS[name]  # every name of RED_THREE_KEYS and VALUE_KEYS has its label
    if value is None:
        return _points_problem(points, label)
    return _points_problem(points, label, value.lowest, value.highest)


def _named_values(house: Mapping[str, Any]) -> Iterator[Finding]:
    """The red 3s and the values, each by name."""
    for key, names in (("red_threes", RED_THREE_KEYS), ("values", VALUE_KEYS)):
        if key not in house:
            continue
        if not isinstance(house[key], Mapping):
            example = f'{{"{names[0]}": 500}}'
            yield (
                (key,),
                Message("{label}: give each value by name, like {example}.", label=_LABELS[key], example=example),
            )
            continue
        for name, points in house[key].items():
            if name not in names:
                yield (key, name), Message("Unknown value {name}.", name=repr(name))
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
        yield (
            ("special_hands",),
            Message("Special hands: give each hand's points, like {example}.", example='{"pairs": 2500}'),
        )
        return
    for key, points in hands.items():
        if key not in SPECIAL_HAND_NAMES:
            yield ("special_hands", key), Message("There is no special hand called {name}.", name=repr(key))
        elif not preset.modern:
            yield ("special_hands", key), Message("Classic canasta has no special hands.")
        else:
            problem = _points_problem(points, SPECIAL_HAND_NAMES[key], lowest=5)
            if problem:
                yield ("special_hands", key), problem


def _fixed_length_problems(house: Mapping[str, Any]) -> Iterator[Finding]:
    """A game of a fixed number of hands: the number (1 to MOST_HANDS), and each hand's Minimum Count (a list of
    at most that many, each a multiple of 5). A null is a key left out: play to the target, the bands."""
    hands = house.get("hands_per_game")
    if hands is not None and (not is_whole_number(hands) or not 1 <= hands <= MOST_HANDS):
        yield (
            ("hands_per_game",),
            Message(
                "Number of hands: a game of 1 to {most} hands, like {example} (or none: play to the target).",
                most=MOST_HANDS,
                example=3,
            ),
        )
        hands = None
    counts = house.get("minimum_counts_by_hand")
    if counts is None:
        return
    if not isinstance(counts, list) or not 1 <= len(counts) <= MOST_HANDS:
        yield (
            ("minimum_counts_by_hand",),
            Message(
                "Minimum Counts by hand: list each hand's Minimum Count, like {example} (or none: by the bands).",
                example="125, 155, 180",
            ),
        )
        return
    if hands is not None and len(counts) > hands:
        yield (
            ("minimum_counts_by_hand",),
            Plural(
                "Minimum Counts by hand: {given} Minimum Counts for a game of {count} hand. "
                "Give one for each hand, at most {count}.",
                "Minimum Counts by hand: {given} Minimum Counts for a game of {count} hands. "
                "Give one for each hand, at most {count}.",
                hands,
                given=len(counts),
            ),
        )
    for n, count in enumerate(counts):
        problem = _points_problem(count, Message("The Minimum Count of hand {number}", number=n + 1))
        if problem:
            yield ("minimum_counts_by_hand", n), problem


def _house_problems(house: Mapping[str, Any], preset: Preset) -> Iterator[Finding]:
    """Every key of the table's own rules that is unknown, of the wrong kind or absurd."""
    for key in house:
        if key not in RULE_KEYS:
            yield (key,), Message("Unknown table rule {key}.", key=repr(key))
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
        raise RuleError([Problem(("rules", "preset"), Message("The preset is a name: modern, cla, wca or classic."))])
    if preset not in PRESETS:
        unknown = (
            Message("Unknown preset {preset}: choose modern, cla, wca or classic.", preset=repr(preset))
            if len(preset) <= 20
            else Message("Unknown preset: choose modern, cla, wca or classic.")
        )
        raise RuleError([Problem(("rules", "preset"), unknown)])
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
