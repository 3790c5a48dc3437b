"""Stored games: the one set of functions the pages and the JSON API both call.

Each function checks with the rules first and saves only what they accept.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cached_property
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError

from . import document, rules
from .document import Game
from .models import GameRecord, HandRecord, IdempotentRequest, db
from .rules import Problem, RuleError


class GameNotFound(Exception):
    """No game has that id."""


class GameFinished(Exception):
    """The game is over: no hand can be added."""


class EditConflict(Exception):
    """Someone else changed the game at the same moment; reload and try again."""


@dataclass(frozen=True)
class Stored:
    """A game as stored, with the rules' view of it."""

    record: GameRecord
    game: Game

    @property
    def id(self) -> str:
        """The game's public id."""
        return self.record.id

    @cached_property
    def score(self) -> rules.GameScore:
        """Every figure of the game. Stored hands were checked when saved: they are scored as they are,
        so a check added later never locks anyone out of an old game."""
        return rules.score_game(self.game.rules, self.game.table, self.game.hands, check=False)

    def document(self) -> dict:
        """The game document with every output."""
        return document.game_document(self.game, self.record.id, self.score)


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _as_game(record: GameRecord) -> Game:
    """The rules' view of a stored game, built as it was stored.

    Stored data is trusted: it was checked when it came in. It is not run through the checks that
    new input gets, so a stricter check or a value taken out of the catalogue since then never
    locks anyone out of an old game (docs/architecture.md).
    """
    game_rules = rules.rules_from_json(record.rules)
    table = rules.Table(
        sides=tuple(rules.Side(name=side["name"], players=tuple(side["players"])) for side in record.sides),
        first_dealer=record.first_dealer,
    )
    hands = tuple(document.hand_from_json({"sides": h.sides}) for h in record.hands)
    return Game(rules=game_rules, table=table, hands=hands)


# Room codes are read aloud across a table: no 0/O, 1/I/L, 2/Z, 5/S, 8/B to mistake for each other.
ROOM_CODE_LETTERS = "ACDEFHJKMNPQRTUVWXY34679"
ROOM_CODE_LENGTH = 6  # 24**6, about 190 million codes


def new_room_code() -> str:
    """A random room code (its uniqueness is the database's to enforce)."""
    return "".join(secrets.choice(ROOM_CODE_LETTERS) for _ in range(ROOM_CODE_LENGTH))


def create_game(game: Game) -> tuple[Stored, str]:
    """Store a checked game; return it and its edit token (only its hash is kept)."""
    for _attempt in range(5):
        try:
            return _insert_game(game, new_room_code())
        except IntegrityError:  # the room code was taken (about one chance in millions); draw another
            db.session.rollback()
    raise EditConflict("no free room code")


def _insert_game(game: Game, room_code: str) -> tuple[Stored, str]:
    token = secrets.token_urlsafe(24)
    record = GameRecord(
        id=secrets.token_urlsafe(9),
        room_code=room_code,
        edit_token_hash=_hash(token),
        rules=document.rules_json(game.rules),
        sides=document.table_json(game.table)["sides"],
        first_dealer=game.table.first_dealer,
    )
    for n, hand in enumerate(game.hands):
        record.hands.append(HandRecord(position=n, sides=document.hand_json(hand)["sides"]))
    db.session.add(record)
    db.session.commit()
    return Stored(record, game), token


GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")  # what create_game makes (token_urlsafe); nothing else is looked up


def load_game(game_id: str) -> Stored:
    """A stored game by id; GameNotFound if there is none (an id that can't be one is not looked up: some
    databases refuse a NUL character outright)."""
    if not GAME_ID.fullmatch(game_id):
        raise GameNotFound(game_id)
    record = db.session.get(GameRecord, game_id)
    if record is None:
        raise GameNotFound(game_id)
    return Stored(record, _as_game(record))


def load_games(game_ids: list[str]) -> list[Stored]:
    """The stored games among these ids, newest change first."""
    if not game_ids:
        return []
    records = db.session.scalars(
        db.select(GameRecord).where(GameRecord.id.in_(game_ids)).order_by(GameRecord.updated_at.desc())
    ).all()
    return [Stored(record, _as_game(record)) for record in records]


def token_matches(stored: Stored, token: str | None) -> bool:
    """Whether this edit token is the game's."""
    return bool(token) and hmac.compare_digest(_hash(token), stored.record.edit_token_hash)


@contextmanager
def _writing(record: GameRecord):
    """Make a change to a game and commit it; a race with another write becomes EditConflict.

    Changing a column makes the flush bump the game's version, so a write based on a stale read fails.
    """
    try:
        yield
        record.updated_at = datetime.now(UTC)
        db.session.commit()
    except (StaleDataError, IntegrityError) as error:
        db.session.rollback()
        raise EditConflict() from error


def check_new_hand(stored: Stored, data: Any) -> rules.Hand:
    """A hand from JSON checked as the game's next hand; GameFinished or RuleError when refused."""
    if stored.score.finished:
        raise GameFinished()
    return document.check_hand(stored.game.rules, stored.game.table, data, len(stored.game.hands))


def _append(stored: Stored, hand: rules.Hand) -> None:
    stored.record.hands.append(HandRecord(position=len(stored.game.hands), sides=document.hand_json(hand)["sides"]))


def save_checked_hand(stored: Stored, position: int, hand: rules.Hand) -> Stored:
    """Store a hand already checked as hand `position`: the next one, or in place of a past one."""
    with _writing(stored.record):
        if position == len(stored.game.hands):
            _append(stored, hand)
        else:
            stored.record.hands[position].sides = document.hand_json(hand)["sides"]
    return load_game(stored.id)


def add_hand(stored: Stored, data: Any) -> Stored:
    """Check a hand and store it as the game's next one."""
    return save_checked_hand(stored, len(stored.game.hands), check_new_hand(stored, data))


def check_replaced_hand(stored: Stored, n: int, data: Any) -> rules.Hand:
    """Hand n replaced by a new one from JSON, checked alone and in the whole game."""
    if not 0 <= n < len(stored.game.hands):
        raise IndexError(n)
    hand = document.check_hand(stored.game.rules, stored.game.table, data, n)
    hands = list(stored.game.hands)
    hands[n] = hand
    _check_sequence(stored, hands)
    return hand


def _check_sequence(stored: Stored, hands: list[rules.Hand], first_moved: int | None = None) -> None:
    """Refuse a change after which the game would end before its last hand.

    After a delete, the hands from `first_moved` on have new dealers and cutters: they are checked
    again in full (a perfect cut may now be on the wrong side). Other stored hands are taken as they
    are, so a check added since they were saved never blocks correcting an old game.
    """
    game_rules, table = stored.game.rules, stored.game.table
    problems = []
    for n in range(first_moved if first_moved is not None else len(hands), len(hands)):
        try:
            rules.check_hand(game_rules, table, hands[n], n)
        except RuleError as error:
            problems += [Problem(("hands", n) + p.path, f"Hand {n + 1}: {p.message}") for p in error.problems]
    ended_after = rules.score_game(game_rules, table, hands, check=False).ended_after
    if ended_after is not None and ended_after < len(hands) - 1:
        problems.append(
            Problem(
                ("hands", ended_after + 1),
                f"With this change the game would end after hand {ended_after + 1}, so the "
                f"{len(hands) - 1 - ended_after} hand(s) after it can't follow. Delete them first.",
            )
        )
    if problems:
        raise RuleError(problems)


def replace_hand(stored: Stored, n: int, data: Any) -> Stored:
    """Check a hand and store it in place of hand n (0-based); later figures follow."""
    return save_checked_hand(stored, n, check_replaced_hand(stored, n, data))


def delete_hand(stored: Stored, n: int) -> Stored:
    """Remove hand n (0-based); the hands after it move up one."""
    if not 0 <= n < len(stored.game.hands):
        raise IndexError(n)
    hands = list(stored.game.hands)
    del hands[n]
    _check_sequence(stored, hands, first_moved=n)
    records = stored.record.hands
    with _writing(stored.record):
        records.remove(records[n])
        # (game, position) is unique: delete first, then move each later hand up one, lowest first.
        db.session.flush()
        for later in records[n:]:
            later.position -= 1
            db.session.flush()
    return load_game(stored.id)


def insert_hand(stored: Stored, position: int, hand: rules.Hand) -> Stored:
    """Put a hand back at `position` (undoing its delete): the hands from there on move down one.

    The hand was checked when first stored, and the game is as it was right after the delete, so
    putting it back gives the game exactly as it was before."""
    if not 0 <= position <= len(stored.game.hands):
        raise IndexError(position)
    records = stored.record.hands
    with _writing(stored.record):
        # (game, position) is unique: move each later hand down one, highest first, then insert.
        for later in reversed(records[position:]):
            later.position += 1
            db.session.flush()
        records.insert(position, HandRecord(position=position, sides=document.hand_json(hand)["sides"]))
    return load_game(stored.id)


def remembered_answer(stored: Stored, key: str) -> IdempotentRequest | None:
    """The answer already given to this Idempotency-Key for this game, if any."""
    return db.session.get(IdempotentRequest, (stored.id, key))


def add_hand_once(stored: Stored, data: Any, key: str) -> tuple[int, dict]:
    """Add a hand under an Idempotency-Key: the first call stores it and its answer (status, document);
    a repeat, even one racing the first, gets that same answer."""
    hand = check_new_hand(stored, data)
    try:
        with _writing(stored.record):
            _append(stored, hand)
            db.session.flush()
            body = load_game(stored.id).document()
            db.session.add(IdempotentRequest(game_id=stored.id, key=key, status=201, body=body))
        return 201, body
    except EditConflict:
        previous = remembered_answer(stored, key)
        if previous is not None:  # the same key won a race against us: answer as it was answered
            return previous.status, previous.body
        raise
