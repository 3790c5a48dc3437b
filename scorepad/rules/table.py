"""A game's rules (`Rules`): every value a table may play differently, and their JSON (docs/api.md "Table rules").

A game keeps its own complete copy of its rules, so a later change to a preset never changes a stored game.
The values (`Values`) are the rule catalogue's: one field per `TableValue`, made from it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, make_dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from .catalogue import (
    CATALOGUE,
    GATED_BY,
    RED_THREE_KEYS,
    VALUE_KEYS,
    WILD_CANASTA_KINDS,
    older_values,
)

TIES = ("play_on", "shared", "went_out")
MOST_HANDS = 200  # a game holds at most this many hands (document.MOST_HANDS), so a game of a fixed length too
COUNTS_WITHOUT_CANASTA = ("negative", "melded_minus_hand")


def _wild_canasta(self: Any, kind: str) -> int:
    """The points of a wild-card canasta of this kind (deuces, jokers, mixed); 0 where not played."""
    return getattr(self, f"wild_canasta_{kind}", 0) if kind in WILD_CANASTA_KINDS else 0


if TYPE_CHECKING:

    class Values:
        """What each canasta, bonus and penalty is worth (penalties as positive numbers; 0: not played)."""

        __dataclass_fields__: ClassVar[dict[str, Any]]

        def __init__(self, **points: int) -> None: ...
        def __getattr__(self, key: str) -> int: ...
        def wild_canasta(self, kind: str) -> int: ...

else:
    # A frozen dataclass with one int field per value of the catalogue, in its order.
    Values = make_dataclass(
        "Values",
        [(value.key, int) for value in CATALOGUE],
        frozen=True,
        namespace={
            "__doc__": "What each canasta, bonus and penalty is worth (penalties as positive numbers; 0: not played).",
            "wild_canasta": _wild_canasta,
            "__module__": __name__,
        },
    )


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
    # A game of a fixed number of hands (club nights play 3): it ends after that hand even if no side reached the
    # target (None: play to the target); and each hand's Minimum Count for every side, instead of the bands (the
    # last one for later hands; None: the bands).
    hands_per_game: int | None = None
    minimum_counts_by_hand: tuple[int, ...] | None = None

    @property
    def modern(self) -> bool:
        """Modern canasta (3s of both colours exposed, special canastas and hands) or classic."""
        return self.preset != "classic"  # as each preset says (Preset.modern)

    @property
    def preset_name(self) -> str:
        """The preset's name, as a player says it."""
        from .presets import PRESETS

        return PRESETS[self.preset].name if self.preset in PRESETS else self.preset

    def special_hand_value(self, key: str) -> int | None:
        """Points of a special hand in this game, None where the game does not allow it."""
        return dict(self.special_hands).get(key)

    def has(self, name: str) -> bool:
        """Whether this game has the side entry `name` (a value of 0 means the table does not play it)."""
        v = self.values
        if name in GATED_BY:  # the catalogue's: the value behind the entry is above 0
            return getattr(v, GATED_BY[name]) > 0
        return {
            "black_threes": self.modern,
            "has_melded": not self.modern,
            "wild_canasta": any(v.wild_canasta(kind) > 0 for kind in WILD_CANASTA_KINDS),
            "perfect_cut": self.perfect_cut and v.perfect_cut > 0,
            "special_hand": bool(self.special_hands),
        }.get(name, True)


RULE_KEYS = (
    "preset",
    "target",
    "tie",
    "minimum_counts",
    "canastas_to_go_out",
    "count_without_canasta",
    "threes",
    "all_eight_threes",
    "red_threes",
    "values",
    "wipeout",
    "perfect_cut",
    "special_hands",
    "hands_per_game",
    "minimum_counts_by_hand",
)


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
        "hands_per_game": rules.hands_per_game,
        "minimum_counts_by_hand": None if rules.minimum_counts_by_hand is None else list(rules.minimum_counts_by_hand),
    }


def rules_from_json(data: Mapping[str, Any]) -> Rules:
    """A game's rules as stored (trusted: checked when they came in); a key an older game lacks is what that
    game was played with: its preset's, or for a value added since, what the catalogue says it was."""
    from .presets import PRESETS

    preset = PRESETS[data["preset"] if data.get("preset") in PRESETS else "modern"].rules
    full = {**rules_json(preset), **data}
    stored_values = full["values"]
    values = {**rules_json(preset)["values"], **older_values(full["preset"], stored_values), **stored_values}
    by_hand = full.get("minimum_counts_by_hand")
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
        values=Values(**{key: values[key] for key in VALUE_KEYS}),
        wipeout=full["wipeout"],
        perfect_cut=full["perfect_cut"],
        special_hands=tuple(full["special_hands"].items()),
        # A game stored before a table could play a fixed number of hands has neither key: played to the target.
        hands_per_game=full.get("hands_per_game"),
        minimum_counts_by_hand=None if by_hand is None else tuple(by_hand),
    )


def is_whole_number(value: object) -> bool:
    """Whether a value from JSON is an integer (true and false are not numbers here)."""
    return isinstance(value, int) and not isinstance(value, bool)
