"""Running an event: whether the next round may start and how it is seated, and the whole document with what
the server adds (round results, standings, status)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scorepad.rules.errors import Message, Plural

from .event import Event, EventConflict, event_json
from .movements import RoundSeating, seating
from .scoring import RoundResult, event_status, round_results_json, standings, standings_json


def _table_words(event: Event, result: RoundResult) -> list[Message]:
    """Each unfinished table of a round, as the director reads it: "table 2 (Roses against Tulips, 1 hand
    played)"."""
    words = []
    for table in result.tables:
        if table.finished:
            continue
        first, second = (event.pairs[pair].name for pair in table.pairs)
        if event.hands_per_game:
            played: Message = Message("{hands} of {of} hands played", hands=table.hands, of=event.hands_per_game)
        else:
            played = Plural("{count} hand played", "{count} hands played", table.hands)
        said = Message(
            "table {table} ({first} against {second}, {played})",
            table=table.table + 1,
            first=first,
            second=second,
            played=played,
        )
        words.append(said)
    return words


def _listed(words: list[Message]) -> Message:
    """Words one after another with commas, each said in the page's language ("table 1 (...), table 2 (...)")."""
    joined = words[0]
    for word in words[1:]:
        joined = Message("{first}, {then}", first=joined, then=word)
    return joined


def _still_playing(event: Event, results: Sequence[RoundResult]) -> None:
    """EventConflict naming the tables of the current round still playing, if any."""
    playing = _table_words(event, results[-1]) if results else []
    if not playing:
        return
    if len(playing) == 1:
        said = Message(
            "A table is still playing: {table}. Wait for it to finish, or close the round.", table=playing[0]
        )
    else:
        said = Message(
            "{count} tables are still playing: {tables} and {last}. Wait for them to finish, or close the round.",
            count=len(playing),
            tables=_listed(playing[:-1]),
            last=playing[-1],
        )
    raise EventConflict(said)


LAST_ROUND_CLOSED = Message("The last round is closed already: the event is over, and its results are final.")


def next_round(event: Event, results: Sequence[RoundResult], close: bool = False) -> RoundSeating:
    """The seating of the next round, once the director may start it: EventConflict after the last round, or
    while a table of the current round still plays, unless the director closes the round (`close`: its
    unfinished tables end as they stand)."""
    if len(results) >= event.rounds:
        if not close:
            _still_playing(event, results)  # the last round: closing it is what ends the event (close_last_round)
        raise EventConflict(Message("All {rounds} rounds have been played: the event is over.", rounds=event.rounds))
    if not close:
        _still_playing(event, results)
    return seating(event.movement, len(event.pairs), len(results))


def is_last_round(event: Event, results: Sequence[RoundResult]) -> bool:
    """Whether the round being played is the event's last (every round has started)."""
    return bool(results) and len(results) >= event.rounds


def close_last_round(event: Event, results: Sequence[RoundResult], closed: bool) -> None:
    """Whether the director may close the last round (its unfinished tables end as they stand, the event is over and
    its results final): EventConflict in words when it is closed already (`closed`), or not the last round yet."""
    if not is_last_round(event, results):
        raise EventConflict(
            Message(
                "Round {round} of {rounds} is not the last: close it by starting the next round.",
                round=len(results),
                rounds=event.rounds,
            )
        )
    if closed:
        raise EventConflict(LAST_ROUND_CLOSED)


def event_document(
    event: Event,
    results: Sequence[RoundResult],
    **outputs: Any,
) -> dict[str, Any]:
    """The event document with everything the server adds: the `outputs` given (id, room_code, revision,
    created, updated, as the server keeps them), status, round_results and standings."""
    return {
        **event_json(event),
        **outputs,
        "status": event_status(event, results),
        "round_results": round_results_json(results),
        "standings": standings_json(standings(event, results)),
    }
