"""The event document: the director's choices (pairs, movement, rounds, clock, scoring), checked, and back to
JSON with the same field names.

Every problem is a `Problem` with the path of the field at fault, raised together as one `RuleError`, as the
game document does; a body that is not an event document at all is a `FormatError` (HTTP 400).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from scorepad.document import FormatError, clean_name, parse_rules
from scorepad.rules import Problem, RuleError, is_whole_number

from .movements import MITCHELL, MOVEMENT_NAMES, MOVEMENTS, most_rounds, tables_for

FORMAT = "scorepad-event"
VERSION = 1
SCORINGS = ("match_points", "total")
BYES = ("average", "zero")
DOCUMENT_KEYS = ("format", "version", "name", "rules", "pairs", "movement", "rounds", "round_minutes", "scoring", "bye")
# Keys the server adds; present in a document sent back, they are ignored and worked out again.
EVENT_OUTPUTS = (
    "id",
    "room_code",
    "revision",
    "created",
    "updated",
    "status",
    "round_results",
    "standings",
    "director_token",
    "links",
    "tables",
)
# A club night of a thousand tables, and a little more than any tournament's room holds.
MOST_PAIRS = 2_000
# A round's clock: a game of three hands takes about an hour; four hours is more than any round.
LONGEST_ROUND_MINUTES = 240


@dataclass(frozen=True)
class Pair:
    """One partnership: its name and its players in seat order (two, or one for an event of single players)."""

    name: str
    players: tuple[str, ...]


@dataclass(frozen=True)
class Event:
    """An event as the director chose it: every table's rules, the pairs (in the order they registered, a late
    pair last), the movement, the rounds, the round's clock in minutes (None: no clock), the scoring and what a
    pair that sits out a round gets."""

    name: str
    rules: Mapping[str, Any] = field(hash=False)  # a game's "rules" as sent, checked: every table's game has them
    pairs: tuple[Pair, ...]
    movement: str
    rounds: int
    round_minutes: int | None = None
    scoring: str = "match_points"
    bye: str = "average"

    @property
    def tables(self) -> int:
        """Tables the event needs each round."""
        return tables_for(len(self.pairs))

    @property
    def hands_per_game(self) -> int | None:
        """Hands each table's game lasts at most (None: played to the target)."""
        value = self.rules.get("hands_per_game")
        return value if isinstance(value, int) else None


# --- Checks ----------------------------------------------------------------------


def _unknown(data: Mapping, allowed: tuple[str, ...], path: tuple) -> list[Problem]:
    return [Problem(path + (key,), f"Unknown field {key!r}.") for key in data if key not in allowed]


def _check_format(data: Any) -> None:
    """FormatError unless `data` says it is an event document of the version this reader knows."""
    if not isinstance(data, Mapping):
        raise FormatError("Expected a Scorepad event document (a JSON object).")
    if data.get("format", FORMAT) != FORMAT:
        raise FormatError(f'This is not a Scorepad event: "format" must be {FORMAT!r}.')
    version = data.get("version")
    if not is_whole_number(version) or version != VERSION:
        if version is None:
            raise FormatError(f'This event has no "version": this Scorepad reads version {VERSION}.')
        # Name the version unless it is a huge number, a paragraph or not a version at all.
        short = abs(version) < 10**6 if is_whole_number(version) else isinstance(version, str) and len(version) < 20
        shown = f" {version!r}" if short else ""
        raise FormatError(f"Unknown event document version{shown}: this Scorepad reads version {VERSION}.")


def _event_name(value: Any, problems: list[Problem]) -> str:
    if not isinstance(value, str):
        problems.append(Problem(("name",), 'Give the event a name, like "Tuesday club night".'))
        return ""
    name = clean_name(value, ("name",), "The event's name", problems)
    if not name:
        problems.append(Problem(("name",), 'Give the event a name, like "Tuesday club night".'))
    return name


def _check_rules(value: Any, problems: list[Problem]) -> dict[str, Any]:
    """Every table's rules: a game's rules (the preset, any table rule), checked as a new game's are."""
    if not isinstance(value, Mapping):
        problems.append(Problem(("rules",), 'Every table\'s rules name at least a preset, like {"preset": "modern"}.'))
        return {}
    try:  # the number of hands and the Minimum Counts by hand among them (the rules check them as a game's)
        parse_rules(dict(value))
    except RuleError as error:
        problems += error.problems
    return copy.deepcopy(dict(value))


def _choice(data: Mapping, key: str, choices: tuple[str, ...], default: str | None, problems: list[Problem]) -> str:
    value = data.get(key, default)
    if value not in choices:
        label = key.replace("_", " ").capitalize()
        problems.append(Problem((key,), f"{label}: choose {' or '.join(choices)}."))
        return ""
    return str(value)


def _check_rounds(value: Any, movement: str, pairs: int, problems: list[Problem]) -> int:
    if not is_whole_number(value) or value < 1:
        problems.append(Problem(("rounds",), "Rounds: how many rounds to play, a whole number like 3."))
        return 0
    if movement in MOVEMENTS and pairs >= 2 and value > most_rounds(movement, pairs):
        most = most_rounds(movement, pairs)
        why = f"{tables_for(pairs)} tables" if movement == MITCHELL else "every pair meets every other once"
        problems.append(
            Problem(
                ("rounds",),
                f"A {MOVEMENT_NAMES[movement]} of {pairs} pairs has at most {most} rounds ({why}); "
                "after that pairs would meet again.",
            )
        )
    return int(value)


def _check_clock(value: Any, problems: list[Problem]) -> int | None:
    if value is None:
        return None
    if not is_whole_number(value) or not 1 <= value <= LONGEST_ROUND_MINUTES:
        problems.append(
            Problem(
                ("round_minutes",),
                f"The round's clock: minutes from 1 to {LONGEST_ROUND_MINUTES}, like 75, or null for no clock.",
            )
        )
        return None
    return int(value)


def _check_players(value: Any, path: tuple, label: str, problems: list[Problem]) -> tuple[str, ...]:
    if not isinstance(value, list) or not 1 <= len(value) <= 2:
        problems.append(
            Problem(path, f'{label}: list its two players in seat order, like ["Ann", "Cleo"] (one, if single).')
        )
        return ()
    players: list[str] = []
    for j, player in enumerate(value):
        name = clean_name(player, path + (j,), f"{label}'s player {j + 1}", problems) if isinstance(player, str) else ""
        if not name:
            problems.append(Problem(path + (j,), f'{label}\'s player {j + 1} needs a name, like "Ann".'))
        elif name.casefold() in (partner.casefold() for partner in players):
            problems.append(Problem(path + (j,), f"{name} is named twice in {label}: give the partner's name."))
        players.append(name)
    return tuple(players)


def _check_pair(value: Any, path: tuple, problems: list[Problem]) -> Pair:
    """One pair's name and players, as a game's side is checked."""
    label = f"Pair {path[-1] + 1}" if path and isinstance(path[-1], int) else "The pair"
    if not isinstance(value, Mapping):
        problems.append(
            Problem(path, 'A pair has a name and players, like {"name": "Roses", "players": ["Ann", "Cleo"]}.')
        )
        return Pair("", ())
    problems += _unknown(value, ("name", "players"), path)
    name = value.get("name")
    name = clean_name(name, path + ("name",), f"{label}'s name", problems) if isinstance(name, str) else ""
    if not name:
        problems.append(Problem(path + ("name",), f'{label} needs a name, like "Roses".'))
    return Pair(name, _check_players(value.get("players"), path + ("players",), label, problems))


def _check_pair_with_others(pair: Pair, others: tuple[Pair, ...], path: tuple) -> Iterator[Problem]:
    """A pair among those before it: its own name, as many players as every pair, no player at two tables."""
    if others and pair.players and others[0].players and len(pair.players) != len(others[0].players):
        size = len(others[0].players)
        yield Problem(
            path + ("players",),
            f"Every pair has {size} player{'s' if size > 1 else ''}, as the first pair does; this one has "
            f"{len(pair.players)}.",
        )
    for other in others:
        if pair.name and pair.name.casefold() == other.name.casefold():
            yield Problem(path + ("name",), f"Two pairs are called {pair.name!r}: give each pair its own name.")
            break
    seated = {player.casefold(): other for other in others for player in other.players if player}
    for j, player in enumerate(pair.players):
        if player and player.casefold() in seated:
            yield Problem(
                path + ("players", j),
                f"{player} already plays in {seated[player.casefold()].name}: a player sits at one table at a "
                'time. If they are two people, tell them apart, like "Ann B.".',
            )


def _check_pairs(value: Any, problems: list[Problem]) -> tuple[Pair, ...]:
    if not isinstance(value, list) or len(value) < 2:
        problems.append(Problem(("pairs",), "List the pairs, at least two, each with its name and players."))
        return ()
    if len(value) > MOST_PAIRS:
        problems.append(Problem(("pairs",), f"An event has at most {MOST_PAIRS:,} pairs; this one has {len(value):,}."))
        return ()
    pairs: tuple[Pair, ...] = ()
    for i, data in enumerate(value):
        pair = _check_pair(data, ("pairs", i), problems)
        problems += _check_pair_with_others(pair, pairs, ("pairs", i))
        pairs += (pair,)
    return pairs


def parse_event(data: Any) -> Event:
    """An event from its document: FormatError (400) for a body that is no event document of this version,
    RuleError (422) listing every problem with its path."""
    _check_format(data)
    problems = _unknown(data, DOCUMENT_KEYS + EVENT_OUTPUTS, ())
    name = _event_name(data.get("name"), problems)
    rules = _check_rules(data.get("rules"), problems)
    pairs = _check_pairs(data.get("pairs"), problems)
    movement = _choice(data, "movement", MOVEMENTS, None, problems)
    rounds = _check_rounds(data.get("rounds"), movement, len(pairs), problems)
    round_minutes = _check_clock(data.get("round_minutes"), problems)
    scoring = _choice(data, "scoring", SCORINGS, "match_points", problems)
    bye = _choice(data, "bye", BYES, "average", problems)
    if problems:
        raise RuleError(problems)
    return Event(name, rules, pairs, movement, rounds, round_minutes, scoring, bye)


def event_json(event: Event) -> dict[str, Any]:
    """The event document (without what the server adds), every key as docs/events.md names it."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "name": event.name,
        "rules": copy.deepcopy(dict(event.rules)),
        "pairs": [pair_json(pair) for pair in event.pairs],
        "movement": event.movement,
        "rounds": event.rounds,
        "round_minutes": event.round_minutes,
        "scoring": event.scoring,
        "bye": event.bye,
    }


def pair_json(pair: Pair) -> dict[str, Any]:
    """One pair as the document lists it."""
    return {"name": pair.name, "players": list(pair.players)}


def event_from_json(data: Mapping[str, Any]) -> Event:
    """A stored event back (trusted: it was checked when it came in)."""
    return Event(
        name=data["name"],
        rules=copy.deepcopy(dict(data["rules"])),
        pairs=tuple(Pair(pair["name"], tuple(pair["players"])) for pair in data["pairs"]),
        movement=data["movement"],
        rounds=data["rounds"],
        round_minutes=data.get("round_minutes"),
        scoring=data.get("scoring", "match_points"),
        bye=data.get("bye", "average"),
    )


class EventConflict(Exception):
    """A step the event is not ready for (a round started while a table plays, a late pair with no seat free):
    HTTP 409; the message says why in words."""


def add_late_pair(event: Event, data: Any, rounds_started: int) -> Event:
    """The event with a late pair added before round `rounds_started` (from 0). The late pair takes the place of
    the phantom (the pair the movement numbers after the last), so every other pair's seating stays as it was:
    the pair that would have sat out plays it. RuleError for the pair itself (paths from the pair); EventConflict
    when every round has started or no pair sits out (an even number of pairs)."""
    if rounds_started >= event.rounds:
        raise EventConflict(f"All {event.rounds} rounds have started: a late pair can't join now.")
    if len(event.pairs) % 2 == 0:
        raise EventConflict(
            f"With {len(event.pairs)} pairs every seat is taken each round. A late pair takes the place of the pair "
            "that sits out, so it can join only while the number of pairs is odd."
        )
    problems: list[Problem] = []
    pair = _check_pair(data, (), problems)
    problems += _check_pair_with_others(pair, event.pairs, ())
    if problems:
        raise RuleError(problems)
    return replace(event, pairs=event.pairs + (pair,))
