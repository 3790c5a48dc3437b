"""What a scorekeeper does, as one set of functions the doors call: the pages (games/), the JSON API (api.py) and
the phone's queue of hands kept offline (sync.py). Each takes what its door read from the request, asks the store
and the rules, and gives back what happened; none knows of HTTP statuses or pages (docs/architecture.md).

Starting a game from the new-game page's fields is here because two doors do it: the page, and a game started on
the phone with no connection (sync.create_game), which the server reads with the page's own form.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from flask import has_request_context

from . import document, event_store, rights, rules, rulesets, store
from .forms import NewGameForm, attach_problems
from .rules import RuleError
from .rules.errors import Message
from .rulesets import RuleSet


def this_device() -> str:
    """This browser's device key, as the database keeps it (made now if it has none)."""
    device = rights.device_hash()
    assert device is not None  # made when there was none
    return device


# --- Starting a game -------------------------------------------------------------------------------------


def chosen_rule_set(form: NewGameForm) -> RuleSet | None:
    """The set saved on this phone that the form's "start from" choice names, or None."""
    return rulesets.find(rights.device_hash(create=False), form.rule_set.data) if form.rule_set.data else None


def starting_rules(form: NewGameForm) -> rules.Rules:
    """The rules the page's table rules were filled from: the saved set they came from, or the preset's."""
    chosen = chosen_rule_set(form)
    if chosen is not None and chosen.rules.get("preset") == form.preset.data:
        return rulesets.rules_of(chosen)
    return form.chosen_preset.rules


def game_of_form(form: NewGameForm) -> tuple[document.Game | None, list[str]]:
    """The game a filled-in new-game form describes, checked by the form, then by the rules (the page's Start and
    a game started offline, sync.create_game, both come here). None when refused: each problem is then on its
    field, and those that belong to no field are returned."""
    if not form.validate():
        return None, []
    try:
        return document.parse_document(form.document_json()), []
    except RuleError as error:
        return None, attach_problems(error.problems, form.field_for)


# --- Changing a game: one read, one check, one write ------------------------------------------------------


def game_to_change(game_id: str, device: str | None = None, key: str | None = None) -> store.Held:
    """The game read once for a change: with its hands, this device's right to it and the answer remembered for the
    request's Idempotency-Key (store.read_for_change: one statement). GameNotFound if there is none."""
    return store.read_for_change(game_id, device, key)


def game_with_right(game_id: str, device: str) -> store.Held:
    """A game with its hands and this device's right to it, in one statement (the page that follows a change)."""
    return store.read_for_change(game_id, device)


def add_hand(
    held: store.Held | store.Stored,
    data: Any,
    key: str | None = None,
    *,
    follow: bool = True,
    hand: rules.Hand | None = None,
) -> store.Appended:
    """Save the next hand (the API's, the hand form's, a hand kept on the phone): parsed and checked once (unless the
    form's `hand` was checked already), scored once from the figures before it, written once with its key, and the
    answer made from what was written. `follow`: stored after whatever came before it (the API); else a game
    changed since it was read is EditConflict (the form and the phone entered it on that version)."""
    read = held.stored if isinstance(held, store.Held) else held
    if not (isinstance(held, store.Held) and held.remembered is not None):  # a replay answers as the save did
        event_store.refuse_new_hand(read)  # a club night's closed round
    # A club night's hand saved once the round's time is up ends the game in the same write (store._store_next).
    return store.append_hand(held, data, key, follow=follow, hand=hand)


def check_next_hand(stored: store.Stored, data: Any) -> rules.Hand:
    """A hand from JSON checked as the game's next one (GameFinished, RuleError; a club night's closed round)."""
    event_store.refuse_new_hand(stored)
    return store.check_new_hand(stored, data)


def check_corrected_hand(stored: store.Stored, position: int, data: Any) -> rules.Hand:
    """A hand from JSON checked in place of hand `position`, alone and in the whole game (RuleError)."""
    return store.check_replaced_hand(stored, position, data)


def _recorded(stored: store.Stored, position: int, change: Callable[[], store.Stored]) -> store.Stored:
    """A change to a saved hand; at a club night's table it is recorded: who, when, before and after (event_store)."""
    before = copy.deepcopy(stored.hand_entries[position]) if position < stored.hand_count else None
    changed = change()
    if before is not None:
        device = rights.device_hash(create=False) if has_request_context() else None
        event_store.note_change(changed, position, before, device)
    return changed


def save_hand(stored: store.Stored, position: int, hand: rules.Hand, note: str | None = None) -> store.Stored:
    """Store a checked hand as hand `position`: the next one, or in place of a past one (a correction), with its
    `note` as kept (store.sent_note; "" for none; None leaves a corrected hand's note as it was)."""
    return _recorded(stored, position, lambda: store.save_checked_hand(stored, position, hand, note))


def correct_hand(stored: store.Stored, position: int, data: Any) -> store.Stored:
    """Check a hand from JSON and store it in place of hand `position`; the figures after it follow."""
    return _recorded(stored, position, lambda: store.replace_hand(stored, position, data))


def delete_hand(stored: store.Stored, position: int) -> store.Stored:
    """Delete hand `position`: the later hands move up one (RuleError if the game would end before its last)."""
    return _recorded(stored, position, lambda: store.delete_hand(stored, position))


def put_back(
    stored: store.Stored, action: str, position: int, entries: list[dict] | None, note: str | None = None
) -> store.Stored:
    """Undo or Redo at hand `position`: "remove" the hand there, "put" `entries` in its place, or "insert" them
    there (a hand checked when first stored, going back where it was), with its `note` ("" for none; None: an
    offer kept before notes were, which leaves the note there as it is)."""
    if action == "remove":
        return delete_hand(stored, position)
    hand = document.hand_from_json({"sides": entries})
    if action == "put" or position == stored.hand_count:
        return save_hand(stored, position, hand, note)
    return store.insert_hand(stored, position, hand, note)


def save_note(stored: store.Stored, typed: str) -> store.Stored:
    """Keep the note typed on the scoresheet for the game ("" takes it away); RuleError (path ("note",)) in words
    for one too long, and nothing is changed."""
    problems: list[rules.Problem] = []
    note = document.clean_note(typed, ("note",), Message("The note"), problems)
    if problems:
        raise rules.RuleError(problems)
    return store.save_note(stored, note)


def rematch_game(stored: store.Stored) -> document.Game:
    """The next game of a finished one: the same sides, seats and complete rules, dealt first by the seat after the
    last dealer; checked as any new game (RuleError if its rules can no longer start one)."""
    data = {
        "format": document.FORMAT,
        "version": document.VERSION,
        "rules": document.rules_json(stored.game_rules),
        "sides": document.table_json(stored.table)["sides"],
        "first_dealer": stored.score.next_dealer,
        "hands": [],
    }
    return document.parse_document(data)


def start_game(game: document.Game, device: str, via: str, offline_key: str | None = None) -> store.Stored:
    """Store a new game and give this device its rights (`via`: rights.CREATED...). `offline_key`: the key the
    new-game page drew for a game that may also start on the phone, remembered so its copy finds this game."""
    stored, _token = store.create_game(game)
    if offline_key and not store.idempotency_key_problem(offline_key):
        store.remember_start(stored.id, device, offline_key)
    rights.grant(stored, via, device)
    return stored
