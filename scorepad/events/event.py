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
from scorepad.rules.errors import Message, Plural

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
    return [
        Problem(path + (key,), Message("Unknown field {key}.", key=repr(key))) for key in data if key not in allowed
    ]


def _check_format(data: Any) -> None:
    """FormatError unless `data` says it is an event document of the version this reader knows."""
    if not isinstance(data, Mapping):
        raise FormatError(Message("Expected a Scorepad event document (a JSON object)."))
    if data.get("format", FORMAT) != FORMAT:
        raise FormatError(Message('This is not a Scorepad event: "format" must be {format}.', format=repr(FORMAT)))
    version = data.get("version")
    if not is_whole_number(version) or version != VERSION:
        if version is None:
            raise FormatError(
                Message('This event has no "version": this Scorepad reads version {version}.', version=VERSION)
            )
        # Name the version unless it is a huge number, a paragraph or not a version at all.
        short = abs(version) < 10**6 if is_whole_number(version) else isinstance(version, str) and len(version) < 20
        if short:
            raise FormatError(
                Message(
                    "Unknown event document version {shown}: this Scorepad reads version {version}.",
                    shown=repr(version),
                    version=VERSION,
                )
            )
        raise FormatError(
            Message("Unknown event document version: this Scorepad reads version {version}.", version=VERSION)
        )


NAME_THE_EVENT = Message('Give the event a name, like "Tuesday club night".')


def _event_name(value: Any, problems: list[Problem]) -> str:
    if not isinstance(value, str):
        problems.append(Problem(("name",), NAME_THE_EVENT))
        return ""
    name = clean_name(value, ("name",), Message("The event's name"), problems)
    if not name:
        problems.append(Problem(("name",), NAME_THE_EVENT))
    return name


def _check_rules(value: Any, problems: list[Problem]) -> dict[str, Any]:
    """Every table's rules: a game's rules (the preset, any table rule), checked as a new game's are."""
    if not isinstance(value, Mapping):
        said = Message("Every table's rules name at least a preset, like {example}.", example='{"preset": "modern"}')
        problems.append(Problem(("rules",), said))
        return {}
    try:  # the number of hands and the Minimum Counts by hand among them (the rules check them as a game's)
        parse_rules(dict(value))
    except RuleError as error:
        problems += error.problems
    return copy.deepcopy(dict(value))


# The chosen fields' names, as a refusal says them ("Movement: choose mitchell or round_robin.").
CHOICE_LABELS = {"movement": Message("Movement"), "scoring": Message("Scoring"), "bye": Message("Bye")}


def _choice(data: Mapping, key: str, choices: tuple[str, ...], default: str | None, problems: list[Problem]) -> str:
    value = data.get(key, default)
    if value not in choices:
        label = CHOICE_LABELS.get(key) or key.replace("_", " ").capitalize()
        *rest, last = choices
        said = Message("{label}: choose {choices} or {last}.", label=label, choices=", ".join(rest), last=last)
        problems.append(Problem((key,), said))
        return ""
    return str(value)


def _check_rounds(value: Any, movement: str, pairs: int, problems: list[Problem]) -> int:
    if not is_whole_number(value) or value < 1:
        problems.append(Problem(("rounds",), Message("Rounds: how many rounds to play, a whole number like 3.")))
        return 0
    if movement in MOVEMENTS and pairs >= 2 and value > most_rounds(movement, pairs):
        most = most_rounds(movement, pairs)
        why = (
            Plural("{count} table", "{count} tables", tables_for(pairs))
            if movement == MITCHELL
            else Message("every pair meets every other once")
        )
        said = Message(
            "A {movement} of {pairs} pairs has at most {most} rounds ({why}); after that pairs would meet again.",
            movement=MOVEMENT_NAMES[movement],
            pairs=pairs,
            most=most,
            why=why,
        )
        problems.append(Problem(("rounds",), said))
    return int(value)


def _check_clock(value: Any, problems: list[Problem]) -> int | None:
    if value is None:
        return None
    if not is_whole_number(value) or not 1 <= value <= LONGEST_ROUND_MINUTES:
        problems.append(
            Problem(
                ("round_minutes",),
                Message(
                    "The round's clock: minutes from 1 to {most}, like 75, or null for no clock.",
                    most=LONGEST_ROUND_MINUTES,
                ),
            )
        )
        return None
    return int(value)


def _check_players(value: Any, path: tuple, label: Message, problems: list[Problem]) -> tuple[str, ...]:
    if not isinstance(value, list) or not 1 <= len(value) <= 2:
        problems.append(
            Problem(
                path,
                Message(
                    "{label}: list its two players in seat order, like {example} (one, if single).",
                    label=label,
                    example='["Ann", "Cleo"]',
                ),
            )
        )
        return ()
    players: list[str] = []
    for j, player in enumerate(value):
        whose = Message("{label}'s player {number}", label=label, number=j + 1)
        name = clean_name(player, path + (j,), whose, problems) if isinstance(player, str) else ""
        if not name:
            problems.append(Problem(path + (j,), Message('{player} needs a name, like "Ann".', player=whose)))
        elif name.casefold() in (partner.casefold() for partner in players):
            said = Message("{name} is named twice in {label}: give the partner's name.", name=name, label=label)
            problems.append(Problem(path + (j,), said))
        players.append(name)
    return tuple(players)


def _check_pair(value: Any, path: tuple, problems: list[Problem]) -> Pair:
    """One pair's name and players, as a game's side is checked."""
    label = Message("Pair {number}", number=path[-1] + 1) if path and isinstance(path[-1], int) else Message("The pair")
    if not isinstance(value, Mapping):
        example = '{"name": "Roses", "players": ["Ann", "Cleo"]}'
        problems.append(Problem(path, Message("A pair has a name and players, like {example}.", example=example)))
        return Pair("", ())
    problems += _unknown(value, ("name", "players"), path)
    name = value.get("name")
    whose = Message("{label}'s name", label=label)
    name = clean_name(name, path + ("name",), whose, problems) if isinstance(name, str) else ""
    if not name:
        problems.append(Problem(path + ("name",), Message('{label} needs a name, like "Roses".', label=label)))
    return Pair(name, _check_players(value.get("players"), path + ("players",), label, problems))


def _check_pair_with_others(pair: Pair, others: tuple[Pair, ...], path: tuple) -> Iterator[Problem]:
    """A pair among those before it: its own name, as many players as every pair, no player at two tables."""
    if others and pair.players and others[0].players and len(pair.players) != len(others[0].players):
        size = len(others[0].players)
        yield Problem(
            path + ("players",),
            Plural(
                "Every pair has {count} player, as the first pair does; this one has {has}.",
                "Every pair has {count} players, as the first pair does; this one has {has}.",
                size,
                has=len(pair.players),
            ),
        )
    for other in others:
        if pair.name and pair.name.casefold() == other.name.casefold():
            said = Message("Two pairs are called {name}: give each pair its own name.", name=repr(pair.name))
            yield Problem(path + ("name",), said)
            break
    seated = {player.casefold(): other for other in others for player in other.players if player}
    for j, player in enumerate(pair.players):
        if player and player.casefold() in seated:
            yield Problem(
                path + ("players", j),
                Message(
                    "{player} already plays in {pair}: a player sits at one table at a time. If they are two people, "
                    'tell them apart, like "Ann B.".',
                    player=player,
                    pair=seated[player.casefold()].name,
                ),
            )


def _check_pairs(value: Any, problems: list[Problem]) -> tuple[Pair, ...]:
    if not isinstance(value, list) or len(value) < 2:
        problems.append(Problem(("pairs",), Message("List the pairs, at least two, each with its name and players.")))
        return ()
    if len(value) > MOST_PAIRS:
        said = Message("An event has at most {most:,} pairs; this one has {has:,}.", most=MOST_PAIRS, has=len(value))
        problems.append(Problem(("pairs",), said))
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
        raise EventConflict(
            Message("All {rounds} rounds have started: a late pair can't join now.", rounds=event.rounds)
        )
    if len(event.pairs) % 2 == 0:
        raise EventConflict(
            Message(
                "With {pairs} pairs every seat is taken each round. A late pair takes the place of the pair that "
                "sits out, so it can join only while the number of pairs is odd.",
                pairs=len(event.pairs),
            )
        )
    problems: list[Problem] = []
    pair = _check_pair(data, (), problems)
    problems += _check_pair_with_others(pair, event.pairs, ())
    if problems:
        raise RuleError(problems)
    return replace(event, pairs=event.pairs + (pair,))
