"""Club nights: many tables, one event (docs/events.md).

Pure Python, like the rules: no Flask or SQLAlchemy. Frozen dataclasses in and out; `RuleError` (a list of
`Problem`, each with its path) for a document the checks refuse, `FormatError` for a body that is no event
document, `EventConflict` for a step the event is not ready for.

Glossary
    Event          the director's choices: every table's rules, the pairs, movement, rounds, clock, scoring, bye.
    Pair           one partnership: a name and its players (two, or one each for single players).
    Seating        one table in one round: its number and its two pairs, side 0 (North–South) first.
    RoundSeating   every table of a round, and the pair that sits out (the bye).
    TableResult    one table's game as it stands: each pair's cumulative, hands played, finished, confirmed.
    RoundResult    one round started: its tables' results and its bye.
    Standing       one pair's line of the standings: rank, match points, points, point difference, played.
"""

from scorepad.document import FormatError
from scorepad.rules import Problem, RuleError

from .event import (
    BYES,
    FORMAT,
    SCORINGS,
    VERSION,
    Event,
    EventConflict,
    Pair,
    add_late_pair,
    event_from_json,
    event_json,
    pair_json,
    parse_event,
)
from .movements import (
    MITCHELL,
    MOVEMENTS,
    ROUND_ROBIN,
    RoundSeating,
    Seating,
    mitchell_round,
    most_rounds,
    round_robin_round,
    seating,
    tables_for,
)
from .rounds import LAST_ROUND_CLOSED, close_last_round, event_document, is_last_round, next_round
from .scoring import (
    RoundResult,
    Standing,
    TableResult,
    event_status,
    match_points,
    nearest_five,
    round_average,
    round_results_from_json,
    round_results_json,
    standings,
    standings_json,
)

__all__ = [
    "BYES",
    "FORMAT",
    "MITCHELL",
    "MOVEMENTS",
    "ROUND_ROBIN",
    "SCORINGS",
    "VERSION",
    "Event",
    "EventConflict",
    "FormatError",
    "Pair",
    "Problem",
    "RoundResult",
    "RoundSeating",
    "RuleError",
    "Seating",
    "Standing",
    "TableResult",
    "add_late_pair",
    "event_document",
    "event_from_json",
    "event_json",
    "event_status",
    "match_points",
    "mitchell_round",
    "most_rounds",
    "nearest_five",
    "next_round",
    "close_last_round",
    "is_last_round",
    "LAST_ROUND_CLOSED",
    "pair_json",
    "parse_event",
    "round_average",
    "round_results_from_json",
    "round_results_json",
    "round_robin_round",
    "seating",
    "standings",
    "standings_json",
    "tables_for",
]
