"""Who may change a game: edit rights kept on the server, keyed by a long random device key.

A browser gets a device key the first time it needs one; it travels in the signed session cookie and
only its hash is stored. A game's rights are rows of `game_rights`: the device that started (or
restored) it, and every device that opened its handover link. There is no limit on how many games a
device keeps. The handover link's key is derived from the game id and the game's handover generation
with the app's SECRET_KEY, so it never needs storing; revoking raises the generation, which turns every
old link into a wrong key and takes the rights of every device that came in through one
(docs/architecture.md).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from datetime import UTC, datetime, timedelta
from typing import Any, Literal, NamedTuple, overload

from flask import abort, current_app, request, session
from sqlalchemy import Connection, Engine, Row, Select, bindparam, case, delete, event, func, insert, select, update
from sqlalchemy.orm import Mapper, selectinload, undefer_group

from . import store
from .models import GameRecord, GameRight, db

CREATED = "created"  # the device that started or restored the game
LINK = "link"  # a device that came in through the handover link
TOKEN = "token"  # a device that came in with the game's edit token (the API's scoresheet link): a scorekeeper
SCOREKEEPERS = (CREATED, TOKEN)
# The other phones a scorekeeper's page counts, the handover page lists and a new link shuts out: those that came in
# through a link.
LINK_HOLDERS = (LINK, TOKEN)


def _hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


@overload
def device_hash(create: Literal[True] = True) -> str: ...
@overload
def device_hash(create: bool) -> str | None: ...
def device_hash(create: bool = True) -> str | None:
    """This browser's device key, hashed as the database keeps it (a new key is made when `create`; without it,
    None for a browser that has none)."""
    key = session.get("device")
    if not key:
        if not create and "games" not in session:
            return None
        key = secrets.token_urlsafe(32)
        session["device"] = key
        session.permanent = True
    _adopt_legacy_tokens(_hash(key))
    return _hash(key)


def _adopt_legacy_tokens(device: str) -> None:
    """Carry over the edit tokens an older Scorepad kept in the session cookie into rights on the server."""
    legacy = session.pop("games", None)
    if not legacy:
        return
    for game_id, token in legacy.items():
        try:
            stored = store.load_game(game_id)
        except store.GameNotFound:
            continue
        if store.token_matches(stored, token):
            grant(stored, CREATED, device=device)


# What the scorekeeper is shown of a device: the browser and the kind of phone or computer, in the words on
# its box ("Chrome on Android"), read from its User-Agent. The first match wins: Edge and Samsung Internet
# also call themselves Chrome and Safari, and Chrome on iPhone calls itself Safari.
BROWSERS = (
    ("Edg", "Edge"),
    ("SamsungBrowser", "Samsung Internet"),
    ("OPR", "Opera"),
    ("Firefox", "Firefox"),
    ("FxiOS", "Firefox"),
    ("CriOS", "Chrome"),
    ("Chrome", "Chrome"),
    ("Safari", "Safari"),
)
SYSTEMS = (
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("Android", "Android"),
    ("Windows", "Windows"),
    ("Mac OS X", "Mac"),
    ("CrOS", "Chromebook"),
    ("Linux", "Linux"),
)


def describe_browser(agent: str) -> str:
    """A browser as a person names it, like "Chrome on Android", from its User-Agent ("A browser" if unknown)."""
    browser = next((name for mark, name in BROWSERS if re.search(rf"\b{mark}/", agent)), None)
    system = next((name for mark, name in SYSTEMS if mark in agent), None)
    if system:
        return f"{browser or 'A browser'} on {system}"
    return browser or "A browser"


def _label() -> str:
    """What the scorekeeper is shown of this device."""
    return describe_browser(request.user_agent.string or "")[:80]


def grant(stored: store.Stored, via: str, device: str | None = None) -> None:
    """Give this device (or `device`) the rights to change a game."""
    device = device or device_hash()
    right = db.session.get(GameRight, (device, stored.id))
    now = datetime.now(UTC)
    if right is None:
        right = GameRight(
            device_hash=device,
            game_id=stored.id,
            via=via,
            label=_label(),
            last_used_at=now,
            game_created_at=stored.record.created_at,
            game_version=stored.record.version,
        )
        db.session.add(right)
        db.session.flush()
        # The version as of now, not as the request first read it: a hand saved meanwhile on another phone could
        # not carry its version to a right not yet written. Read after the insert, under a shared lock of the game
        # (PostgreSQL; SQLite's writer already holds the database): a save still to come waits, then finds it.
        version = db.session.scalar(
            select(GameRecord.version).where(GameRecord.id == stored.id).with_for_update(read=True)
        )
        if version is None:  # deleted meanwhile (another phone): a 404 in words, not a right to no game
            raise store.GameNotFound(stored.id)
        right.game_version = version
    else:
        right.last_used_at = now
    db.session.commit()


def grant_restored(games: list[tuple[str, datetime]], via: str) -> None:
    """Give this device the rights to many games it has just restored, (id, created) each, in the transaction
    that stores them (store.create_games): new games, so no right to them exists yet and their version is 1.
    Not committed here."""
    device = device_hash()
    now, label = datetime.now(UTC), _label()
    rows = [
        {
            "device_hash": device,
            "game_id": game_id,
            "via": via,
            "label": label,
            "created_at": now,
            "last_used_at": now,
            "game_created_at": created,
            "game_version": 1,
        }
        for game_id, created in games
    ]
    db.session.execute(insert(GameRight.__table__), rows)


@event.listens_for(GameRecord, "after_update")
def carry_version(mapper: Mapper[GameRecord], connection: Connection, record: GameRecord) -> None:
    """Every change to a game (the ORM's flush raises its version) is carried to its rights' copy of the version,
    in the same transaction: a device's history reads the versions of its page of games from its rights alone."""
    connection.execute(_CARRY_VERSION, {"of_game": record.id, "version": record.version})


_rights = GameRight.__table__
_CARRY_VERSION = (
    update(_rights).where(_rights.c.game_id == bindparam("of_game")).values(game_version=bindparam("version"))
)


TOUCH_EVERY = timedelta(minutes=5)  # "last used", to within a few minutes: no write on every page a keeper reads


def _right(stored: store.Stored) -> GameRight | None:
    """This browser's right to change the game, if it has one."""
    device = device_hash(create=False)
    return None if device is None else db.session.get(GameRight, (device, stored.id))


def can_edit(stored: store.Stored) -> bool:
    """Whether this browser may change the game (and when it last did so, for the scorekeeper's list)."""
    right = _right(stored)
    if right is None:
        return False
    _note_use(right.device_hash, right.game_id, right.last_used_at)
    return True


def _note_use(device: str, game_id: str, last_used_at: datetime) -> None:
    """Note that this device used its right on the game now (at most every TOUCH_EVERY)."""
    now = datetime.now(UTC)
    if now - store.utc(last_used_at) > TOUCH_EVERY:
        # Written past the ORM: a hand form open meanwhile must not see the game change.
        db.session.execute(
            update(GameRight)
            .where(GameRight.device_hash == device, GameRight.game_id == game_id)
            .values(last_used_at=now)
        )
        db.session.commit()


class Glance(NamedTuple):
    """What a page knows of a game and of this device's right to it before the game is loaded: enough to name
    the page it would make (a kept page is then sent without loading the game)."""

    id: str
    version: int
    restored_from: str | None
    via: str | None  # how this device came by its right to change the game; None: it has none
    last_used_at: datetime | None
    # For a scorekeeper: how many other devices came in through a link (len(holders(...))); None: not counted.
    link_holders: int | None = None

    def can_edit(self) -> bool:
        """Whether this device may change the game (its use noted, as can_edit does)."""
        device = device_hash(create=False)
        if self.via is None or device is None or self.last_used_at is None:
            return False
        _note_use(device, self.id, self.last_used_at)
        return True

    @property
    def scorekeeper(self) -> bool:
        """Whether this device keeps score as the scorekeeper: it started or restored the game, or came in with
        the game's edit token (SCOREKEEPERS)."""
        return self.via in SCOREKEEPERS


_games = GameRecord.__table__
_holders = _rights.alias("holders")
# The scorekeeper's page names how many other phones hold the handover link: counted in the same statement (one
# range of the index on game_rights.game_id), and only for a scorekeeper's right (CASE: no count for a watcher).
_LINK_HOLDERS = case(
    (
        _rights.c.via.in_(SCOREKEEPERS),
        select(func.count())
        .select_from(_holders)
        .where(
            _holders.c.game_id == bindparam("game_id"),
            _holders.c.via.in_(LINK_HOLDERS),
            _holders.c.device_hash != bindparam("device"),
        )
        .scalar_subquery(),
    ),
    else_=0,
)
_GLANCE = (
    select(_games.c.version, _games.c.restored_from, _rights.c.via, _rights.c.last_used_at, _LINK_HOLDERS)
    .select_from(
        _games.outerjoin(_rights, (_rights.c.game_id == _games.c.id) & (_rights.c.device_hash == bindparam("device")))
    )
    .where(_games.c.id == bindparam("game_id"))
)


def glance(game_id: str) -> Glance | None:
    """A game's revision and this device's right to it, in one small query on the connection (no game loaded
    through the ORM, which costs six times as much); None if there is no such game."""
    if not store.GAME_ID.fullmatch(game_id):
        return None
    device = device_hash(create=False) or ""
    with store.glancing() as connection:
        row = connection.execute(_GLANCE, {"game_id": game_id, "device": device}).first()
    return None if row is None else Glance(game_id, *row)


def is_scorekeeper(stored: store.Stored) -> bool:
    """Whether this browser started (or restored) the game: only it manages the handover link or deletes the game."""
    right = _right(stored)
    return right is not None and right.via in SCOREKEEPERS


def editable_or_403(stored: store.Stored, message: str) -> store.Stored:
    """The game, if this browser may change it; otherwise 403 with `message`."""
    if not can_edit(stored):
        abort(403, message)
    return stored


def kept_game_ids() -> list[str]:
    """The ids of every game this device may change."""
    device = device_hash(create=False)
    if device is None:
        return []
    return list(db.session.scalars(select(GameRight.game_id).where(GameRight.device_hash == device)))


def holders(game_id: str) -> list[GameRight]:
    """The other devices that came in through a link (the handover link, or the edit token's), first come first."""
    return list(
        db.session.scalars(
            select(GameRight)
            .where(
                GameRight.game_id == game_id,
                GameRight.via.in_(LINK_HOLDERS),
                GameRight.device_hash != (device_hash(create=False) or ""),
            )
            .order_by(GameRight.created_at, GameRight.device_hash)
        )
    )


def claim(stored: store.Stored, key: str) -> str | None:
    """Give this device the rights a key brings: the game's edit token (the API's link) makes it a scorekeeper,
    the handover key a keeper through the link. Returns how it came in (TOKEN or LINK), or None for a wrong key."""
    if store.token_matches(stored, key):
        grant(stored, TOKEN)
        return TOKEN
    if handover_key_matches(stored, key):
        grant(stored, LINK)
        return LINK
    return None


def handover_key(stored: store.Stored) -> str:
    """The key of the game's handover link ("keep score on another phone"), as of its handover generation."""
    message = f"handover:{stored.id}:{stored.record.handover_generation}".encode()
    digest = hmac.new(current_app.config["SECRET_KEY"].encode(), message, hashlib.sha256).digest()
    return digest[:24].hex()


def handover_key_matches(stored: store.Stored, key: str | None) -> bool:
    """Whether a key is the game's current handover key."""
    return key is not None and key != "" and hmac.compare_digest(key.encode(), handover_key(stored).encode())


def revoke_handover(stored: store.Stored) -> None:
    """Make a new handover key and a new edit token: old links (and an older Scorepad's links, which carried the
    edit token) stop working, and every other device that came in through one loses its rights. The device
    that started the game, and the one asking, keep theirs."""
    # Not a change to the game itself: its version (and so every open hand form) stays as it is.
    db.session.execute(
        update(GameRecord)
        .where(GameRecord.id == stored.id)
        .values(
            handover_generation=GameRecord.handover_generation + 1,
            edit_token_hash=store.token_hash(secrets.token_urlsafe(24)),  # nobody is told it: the old one dies
        )
    )
    db.session.execute(
        delete(GameRight).where(
            GameRight.game_id == stored.id,
            GameRight.via.in_(LINK_HOLDERS),
            GameRight.device_hash != (device_hash(create=False) or ""),
        )
    )
    db.session.commit()


# Newest first: the order of the index ix_game_rights_history, which holds each right's copy of its game's start.
_NEWEST_FIRST = (GameRight.game_created_at.desc(), GameRight.game_id.desc())
_GAMES_NEWEST_FIRST = (GameRecord.created_at.desc(), GameRecord.id.desc())


def _kept(*columns: Any) -> Select[Any] | None:
    device = device_hash(create=False)
    if device is None:
        return None
    return (
        select(*columns)
        .join(GameRight, GameRight.game_id == GameRecord.id)
        .where(GameRight.device_hash == device)
        .order_by(*_NEWEST_FIRST)
    )


def kept_games() -> list[Row[Any]]:
    """Every game this device may change, newest first: rows of (id, created_at, sides, via, version, note), read
    without loading or scoring a game (history searches their names and notes)."""
    query = _kept(
        GameRecord.id, GameRecord.created_at, GameRecord.sides, GameRight.via, GameRecord.version, GameRecord.note
    )
    return [] if query is None else list(db.session.execute(query))


def kept_games_loaded() -> list[store.Stored]:
    """Every game this device may change, newest first, with their hands read in one go (the history's
    statistics and its file of every game)."""
    ids = [row.id for row in kept_games()]
    if not ids:
        return []
    records = db.session.scalars(
        select(GameRecord)
        .where(GameRecord.id.in_(ids))
        .options(selectinload(GameRecord.hands), undefer_group("made"))
        .order_by(*_GAMES_NEWEST_FIRST)  # as the history lists them
    ).all()
    return [store.Stored(record) for record in records]


# One page of the games a device keeps, and how many it keeps, in one round trip: a range of the index
# ix_game_rights_history, which holds each game's start and version, and the count as a subquery run once; no game
# is looked up. Made once, here, with its values bound at each call, and run on a connection of its own (Core): the
# rows are plain tuples. Before the index, the page was sorted from a join of every kept game: 0.28 against 0.08 ms
# in SQLite for 300 games, and two round trips.
_KEPT_COUNT = select(func.count()).select_from(_rights).where(_rights.c.device_hash == bindparam("device"))
_KEPT_PAGE = (
    select(_rights.c.game_id, _rights.c.via, _rights.c.game_version, _KEPT_COUNT.scalar_subquery())
    .where(_rights.c.device_hash == bindparam("device"))
    .order_by(*_NEWEST_FIRST)
    .offset(bindparam("offset"))
    .limit(bindparam("limit"))
)


def kept_games_page_of(
    engine: Engine | None, device: str, offset: int, limit: int
) -> tuple[int, list[tuple[str, str, int]]]:
    """How many games the device hashed `device` may change, and `limit` of them from `offset`, newest first: tuples
    of (id, via, version) (a history page without a search reads no more). On `engine` (the app's if None): also
    before Flask, where the history page kept for a phone is checked (delivery.PHONE_CHECKS)."""
    rows = store.glance_rows(_KEPT_PAGE, {"device": device, "offset": offset, "limit": limit}, engine)
    if not rows:  # none on this page: how many there are, for the page before it (or none at all)
        return store.glance_rows(_KEPT_COUNT, {"device": device}, engine)[0][0] or 0, []
    return rows[0][3], [tuple(row[:3]) for row in rows]
