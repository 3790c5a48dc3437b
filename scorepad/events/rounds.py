"""Running an event: whether the next round may start and how it is seated, and the whole document with what
the server adds (round results, standings, status)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .event import Event, EventConflict, event_json
from .movements import RoundSeating, seating
from .scoring import RoundResult, event_status, round_results_json, standings, standings_json


def _table_words(event: Event, result: RoundResult) -> list[str]:
    """Each unfinished table of a round, as the director reads it: "table 2 (Roses against Tulips, 1 hand
    played)"."""
    words = []
    for table in result.tables:
        if table.finished:
            continue
        first, second = (event.pairs[pair].name for pair in table.pairs)
        of = f" of {event.hands_per_game}" if event.hands_per_game else ""
        played = f"{table.hands}{of} hand{'' if table.hands == 1 and not of else 's'} played"
        words.append(f"table {table.table + 1} ({first} against {second}, {played})")
    return words


def _still_playing(event: Event, results: Sequence[RoundResult]) -> None:
    """EventConflict naming the tables of the current round still playing, if any."""
    playing = _table_words(event, results[-1]) if results else []
    if playing:
        listed = ", ".join(playing[:-1]) + (" and " if len(playing) > 1 else "") + playing[-1]
        tables = "A table is" if len(playing) == 1 else f"{len(playing)} tables are"
        raise EventConflict(
            f"{tables} still playing: {listed}. Wait for {'it' if len(playing) == 1 else 'them'} to finish, "
            "or close the round."
        )


LAST_ROUND_CLOSED = "The last round is closed already: the event is over, and its results are final."


def next_round(event: Event, results: Sequence[RoundResult], close: bool = False) -> RoundSeating:
    """The seating of the next round, once the director may start it: EventConflict after the last round, or
    while a table of the current round still plays, unless the director closes the round (`close`: its
    unfinished tables end as they stand)."""
    if len(results) >= event.rounds:
        if not close:
            _still_playing(event, results)  # the last round: closing it is what ends the event (close_last_round)
        raise EventConflict(f"All {event.rounds} rounds have been played: the event is over.")
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
            f"Round {len(results)} of {event.rounds} is not the last: close it by starting the next round."
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
