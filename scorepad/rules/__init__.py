"""The scoring rules of Modern American and classic Canasta, as docs/rules.md describes them.

Pure Python: no Flask, SQLAlchemy or WTForms. Frozen dataclasses in, frozen dataclasses out, and
`RuleError` (a list of `Problem`) for a hand the rules refuse. This is the public face of the package;
other modules import from here:

    catalogue   the rule catalogue: every table value, defined once (label, hint, group, defaults, bounds,
                the entry it prices), and the catalogues of special hands and wild-card canastas
    table       Rules, Values, RedThrees, Band and their JSON (rules_json, rules_from_json)
    presets     the presets and make_rules (a new game's rules, every key judged: §5.13)
    entries     SideEntry, the counting grid, Hand, Side, Table, the pack, the entries' labels
    scoring     one side's Base, Count and Minimum Count
    checks      every refusal of docs/rules.md §5, each a small function citing its rule
    score       a game's figures hand by hand, the end of the game, hands in order (§5.14)
    settlement  settling up (§6)
    errors      Problem, RuleError

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

from .catalogue import (
    BY_KEY,
    CANASTA_VALUE_KEYS,
    CATALOGUE,
    GATED_BY,
    GROUPS,
    MOST_POINTS,
    PRESET_KEYS,
    PRICED,
    RED_THREE_KEYS,
    RED_THREE_LABELS,
    SPECIAL_HAND_HOLDS,
    SPECIAL_HAND_NAMES,
    VALUE_KEYS,
    VALUE_LABELS,
    WILD_CANASTA_KINDS,
    WILD_CANASTA_NAMES,
    TableValue,
    phone_json,
    preset_values,
    special_hand_name,
)
from .checks import (
    CLASSIC_RANKS,
    CONSISTENCY_CHECKS,
    COUNT_CHECKS,
    ENTRY_CHECKS,
    HAND_CHECKS,
    LARGEST_ENTRY,
    SIDE_CHECKS,
    _Side,
    _side_problems,
    base_limits,
    check_hand,
    check_table,
    entry_number_problem,
)
from .entries import (
    BOOL_FIELDS,
    CARD_KINDS,
    CARD_LABELS,
    CARD_POINTS,
    FIELD_LABELS,
    FIGURE_FIELDS,
    INT_FIELDS,
    MOST_TIMES,
    SIDE_FIELDS,
    WITH_REPORTED_BASE,
    CardCounts,
    Cards,
    Hand,
    Pack,
    Side,
    SideEntry,
    Table,
    most_of,
)
from .errors import Problem, RuleError
from .presets import PRESETS, Preset, make_rules
from .score import (
    GameScore,
    HandScore,
    SideScore,
    ended_message,
    game_over,
    hands_after_the_end,
    hands_of,
    score_from_json,
    score_game,
    score_hand,
    score_json,
    score_next_hand,
)
from .scoring import (
    classic_red_threes,
    counted,
    melding_unclear,
    minimum_count,
    penalties,
    priced,
    side_base,
    side_count,
    threes_value,
)
from .settlement import Money, Payment, Settlement, settle_up, specials_made
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

__all__ = [
    "BOOL_FIELDS",
    "BY_KEY",
    "CANASTA_VALUE_KEYS",
    "CARD_KINDS",
    "CARD_LABELS",
    "CARD_POINTS",
    "CATALOGUE",
    "CLASSIC_RANKS",
    "CONSISTENCY_CHECKS",
    "COUNTS_WITHOUT_CANASTA",
    "COUNT_CHECKS",
    "ENTRY_CHECKS",
    "FIELD_LABELS",
    "FIGURE_FIELDS",
    "GATED_BY",
    "GROUPS",
    "HAND_CHECKS",
    "INT_FIELDS",
    "LARGEST_ENTRY",
    "MOST_HANDS",
    "MOST_POINTS",
    "MOST_TIMES",
    "PRESETS",
    "PRESET_KEYS",
    "PRICED",
    "RED_THREE_KEYS",
    "RED_THREE_LABELS",
    "RULE_KEYS",
    "SIDE_CHECKS",
    "SIDE_FIELDS",
    "SPECIAL_HAND_HOLDS",
    "SPECIAL_HAND_NAMES",
    "TIES",
    "VALUE_KEYS",
    "VALUE_LABELS",
    "WILD_CANASTA_KINDS",
    "WILD_CANASTA_NAMES",
    "WITH_REPORTED_BASE",
    "Band",
    "CardCounts",
    "Cards",
    "GameScore",
    "Hand",
    "HandScore",
    "Money",
    "Pack",
    "Payment",
    "Preset",
    "Problem",
    "RedThrees",
    "RuleError",
    "Rules",
    "Settlement",
    "Side",
    "SideEntry",
    "SideScore",
    "Table",
    "TableValue",
    "Values",
    "_Side",
    "_side_problems",
    "base_limits",
    "check_hand",
    "check_table",
    "classic_red_threes",
    "counted",
    "entry_number_problem",
    "ended_message",
    "game_over",
    "hands_after_the_end",
    "hands_of",
    "is_whole_number",
    "make_rules",
    "melding_unclear",
    "minimum_count",
    "most_of",
    "penalties",
    "phone_json",
    "preset_values",
    "priced",
    "rules_from_json",
    "rules_json",
    "score_from_json",
    "score_game",
    "score_hand",
    "score_json",
    "score_next_hand",
    "settle_up",
    "side_base",
    "side_count",
    "special_hand_name",
    "specials_made",
    "threes_value",
]
