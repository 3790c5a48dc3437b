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

from flask import abort, current_app, request, session
from sqlalchemy import bindparam, delete, func, select, update

from . import store
from .models import GameRecord, GameRight, db

CREATED = "created"  # the device that started or restored the game
LINK = "link"  # a device that came in through the handover link
TOKEN = "token"  # a device that came in with the game's edit token (the API's scoresheet link): a scorekeeper
SCOREKEEPERS = (CREATED, TOKEN)


def _hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def device_hash(create: bool = True) -> str | None:
    """This browser's device key, hashed as the database keeps it (a new key is made when `create`)."""
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
            grant(stored.id, CREATED, device=device)


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


def grant(game_id: str, via: str, device: str | None = None) -> None:
    """Give this device (or `device`) the rights to change a game."""
    device = device or device_hash()
    assert device is not None
    right = db.session.get(GameRight, (device, game_id))
    now = datetime.now(UTC)
    if right is None:
        db.session.add(GameRight(device_hash=device, game_id=game_id, via=via, label=_label(), last_used_at=now))
    else:
        right.last_used_at = now
    db.session.commit()


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
    now = datetime.now(UTC)
    last = store.utc(right.last_used_at)
    if now - last > TOUCH_EVERY:
        # Written past the ORM: a hand form open meanwhile must not see the game change.
        db.session.execute(
            update(GameRight)
            .where(GameRight.device_hash == right.device_hash, GameRight.game_id == right.game_id)
            .values(last_used_at=now)
        )
        db.session.commit()
    return True


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


def holders(stored: store.Stored) -> list[GameRight]:
    """The other devices that came in through a link (the handover link, or the edit token's), first come first."""
    return list(
        db.session.scalars(
            select(GameRight)
            .where(
                GameRight.game_id == stored.id,
                GameRight.via.in_((LINK, TOKEN)),
                GameRight.device_hash != (device_hash(create=False) or ""),
            )
            .order_by(GameRight.created_at, GameRight.device_hash)
        )
    )


def claim(stored: store.Stored, key: str) -> str | None:
    """Give this device the rights a key brings: the game's edit token (the API's link) makes it a scorekeeper,
    the handover key a keeper through the link. Returns how it came in (TOKEN or LINK), or None for a wrong key."""
    if store.token_matches(stored, key):
        grant(stored.id, TOKEN)
        return TOKEN
    if handover_key_matches(stored, key):
        grant(stored.id, LINK)
        return LINK
    return None


def handover_key(stored: store.Stored) -> str:
    """The key of the game's handover link ("keep score on another phone"), as of its handover generation."""
    message = f"handover:{stored.id}:{stored.record.handover_generation}".encode()
    digest = hmac.new(current_app.config["SECRET_KEY"].encode(), message, hashlib.sha256).digest()
    return digest[:24].hex()


def handover_key_matches(stored: store.Stored, key: str | None) -> bool:
    """Whether a key is the game's current handover key."""
    return bool(key) and hmac.compare_digest(key.encode(), handover_key(stored).encode())


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
            GameRight.via.in_((LINK, TOKEN)),
            GameRight.device_hash != (device_hash(create=False) or ""),
        )
    )
    db.session.commit()


def _kept(*columns):
    device = device_hash(create=False)
    if device is None:
        return None
    return (
        select(*columns)
        .join(GameRight, GameRight.game_id == GameRecord.id)
        .where(GameRight.device_hash == device)
        .order_by(GameRecord.created_at.desc(), GameRecord.id)
    )


def kept_games() -> list:
    """Every game this device may change, newest first: rows of (id, created_at, sides, via, version), read
    without loading or scoring a game (history searches their names)."""
    query = _kept(GameRecord.id, GameRecord.created_at, GameRecord.sides, GameRight.via, GameRecord.version)
    return [] if query is None else list(db.session.execute(query))


# One page of the games a device keeps, and how many it keeps: made once, here, with their values bound at each
# call. Two queries: a window count over the join costs SQLite more than the two together (480 against 280 µs
# for 300 games).
_KEPT_PAGE = (
    select(GameRecord.id, GameRight.via, GameRecord.version)
    .join(GameRight, GameRight.game_id == GameRecord.id)
    .where(GameRight.device_hash == bindparam("device"))
    .order_by(GameRecord.created_at.desc(), GameRecord.id)
    .offset(bindparam("offset"))
    .limit(bindparam("limit"))
)
_KEPT_COUNT = select(func.count()).select_from(GameRight).where(GameRight.device_hash == bindparam("device"))


def kept_games_page(offset: int, limit: int) -> tuple[int, list]:
    """How many games this device may change, and `limit` of them from `offset`, newest first: rows of
    (id, via, version) (a history page without a search reads no more)."""
    device = device_hash(create=False)
    if device is None:
        return 0, []
    total = db.session.scalar(_KEPT_COUNT, {"device": device}) or 0
    rows = list(db.session.execute(_KEPT_PAGE, {"device": device, "offset": offset, "limit": limit})) if total else []
    return total, rows
