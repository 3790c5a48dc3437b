"""What a club night's director and tables do (docs/events.md), as functions the doors call: the event API
(`events_api.py`) and the pages (`events_web.py`). Beside `service.py`: each table's game is an ordinary game,
started and changed through it; this module asks the pure `events` package who plays whom and how the standings
fall, `event_store` to keep the event, and `rights` for the phones that keep a table's score. No HTTP status or
page here.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from . import document, event_store, events, rights, store
from .rules.errors import Message, Plural


class Started(NamedTuple):
    """A round started: each new table's game and its edit token, in table order; or (`ended`) no round, the last
    closed and the event over."""

    games: list[tuple[store.Stored, str]]
    ended: bool = False


def _side(pair: events.Pair) -> dict[str, Any]:
    return {"name": pair.name, "players": list(pair.players)}


def table_rules(event: events.Event) -> dict[str, Any]:
    """Every table's game's rules: the event's `rules`, passed through as they are."""
    return dict(event.rules)


def table_game(event: events.Event, seat: events.Seating) -> document.Game:
    """The game of one table of a round: the two pairs (side 0 first) with the event's rules."""
    data = {
        "format": document.FORMAT,
        "version": document.VERSION,
        "rules": table_rules(event),
        "sides": [_side(event.pairs[pair]) for pair in seat.pairs],
        "first_dealer": 0,
        "hands": [],
    }
    return document.parse_document(data)


def _start_games(event: events.Event, seating: events.RoundSeating, devices: list[list[str | None]]) -> Started:
    """Store each table's game of a round; `devices[t]`: the phones given table t's game to keep (the director's,
    the table's scorekeeper)."""
    games = []
    for seat in seating.tables:
        stored, token = store.create_game(table_game(event, seat))
        for device in dict.fromkeys(devices[seat.table] if seat.table < len(devices) else ()):
            if device:
                rights.grant(stored, rights.CREATED, device)
        games.append((stored, token))
    return Started(games)


def create_event(data: Any, director_device: str | None) -> tuple[event_store.StoredEvent, str, Started]:
    """A new event from its document (FormatError, RuleError), with round 0's games: the event, the director's
    token and each table's game with its token. `director_device`: the phone that created it on the page, given
    every table's game to correct."""
    event = events.parse_event(data)
    seating = events.next_round(event, ())
    started = _start_games(event, seating, [[director_device]] * event.tables)
    held, token = event_store.create_event(event, seating, [g for g, _ in started.games], director_device)
    return held, token, started


def start_round(held: event_store.StoredEvent, close: bool = False) -> Started:
    """Start the next round: EventConflict (in words) while a table plays, unless `close`, or after the last
    round. The new tables' games go to the director's phone and to each table's scorekeeper. `close` on the last
    round closes it: the event is over, its results final (Started.ended); closed already, EventConflict."""
    event = held.event
    results = held.results()
    if close and events.is_last_round(event, results):
        events.close_last_round(event, results, held.rounds[-1].closed)
        if not event_store.close_round(held):  # another phone closed it at the same moment
            raise events.EventConflict(events.LAST_ROUND_CLOSED)
        return Started([], ended=True)
    seating = events.next_round(event, results, close)
    keepers = event_store.keepers(held)
    devices = [[held.record.director_device, keepers.get(t)] for t in range(event.tables)]
    started = _start_games(event, seating, devices)
    event_store.add_round(held, seating, [g for g, _ in started.games], close)
    return started


def add_late_pair(held: event_store.StoredEvent, data: Any) -> events.Event:
    """A late pair before the next round (RuleError for the pair, EventConflict when it has no seat)."""
    event = events.add_late_pair(held.event, data, len(held.rounds))
    event_store.save_event(held, event)
    return event


class NotFinished(Exception):
    """Confirming a table whose game is still on."""


def table_of(held: event_store.StoredEvent, round: int, table: int) -> event_store.EventTableRecord:
    """Table `table` of round `round`: LookupError if the event has no such table."""
    found = held.table_at(round, table)
    if found is None or found.game_id not in held.games:
        raise LookupError(
            Message("Round {round} has no table {table} in this event.", round=round + 1, table=table + 1)
        )
    return found


def confirm(held: event_store.StoredEvent, table: event_store.EventTableRecord, by: str) -> bool:
    """Confirm a finished table's result (`by`: "pair" or "director"); NotFinished while its game is on. False when
    it stood confirmed already: nothing is recorded again."""
    stored = held.games[table.game_id]
    if not stored.score.finished:
        raise NotFinished(
            Plural(
                "Table {table} is still playing ({count} hand saved): a result is confirmed once its game is finished.",
                "Table {table} is still playing ({count} hands saved): "
                "a result is confirmed once its game is finished.",
                len(stored.score.hands),
                table=table.table + 1,
            )
        )
    return event_store.confirm(held, table, by)


def correct_hand(
    held: event_store.StoredEvent, table: event_store.EventTableRecord, n: int, data: Any, who: str
) -> store.Stored:
    """The director corrects hand `n` of a table's game (an ordinary correction: RuleError in words); the change is
    recorded (who, when, the entries before and after) and clears the confirmation."""
    stored = store.load_game(table.game_id)
    if not 0 <= n < stored.hand_count:
        raise LookupError(
            Message(
                "Table {table}'s game has {hands} hand(s); there is no hand {n}.",
                table=table.table + 1,
                hands=stored.hand_count,
                n=n,
            )
        )
    before = stored.hand_entries[n]
    # Not through service.correct_hand, which records a change by the phone that makes it: here the director's
    # token makes it, and it is recorded as the director's.
    changed = store.replace_hand(stored, n, data)
    event_store.record_correction(held, table, n, who, before, changed.hand_entries[n])
    held.games[changed.id] = changed
    return changed
