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
import secrets
from datetime import UTC, datetime

from flask import abort, current_app, request, session
from sqlalchemy import delete, select, update

from . import store
from .models import GameRecord, GameRight, db

CREATED = "created"  # the device that started or restored the game
LINK = "link"  # a device that came in through the handover link


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


def _label() -> str:
    """What the scorekeeper is shown of a device: its browser's own description, cut short."""
    agent = request.user_agent.string or "a browser"
    return agent[:80]


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


def can_edit(stored: store.Stored) -> bool:
    """Whether this browser may change the game."""
    device = device_hash(create=False)
    return device is not None and db.session.get(GameRight, (device, stored.id)) is not None


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


def handover_key(stored: store.Stored) -> str:
    """The key of the game's handover link ("keep score on another phone"), as of its handover generation."""
    message = f"handover:{stored.id}:{stored.record.handover_generation}".encode()
    digest = hmac.new(current_app.config["SECRET_KEY"].encode(), message, hashlib.sha256).digest()
    return digest[:24].hex()


def handover_key_matches(stored: store.Stored, key: str | None) -> bool:
    """Whether a key is the game's current handover key."""
    return bool(key) and hmac.compare_digest(key.encode(), handover_key(stored).encode())


def revoke_handover(stored: store.Stored) -> None:
    """Make a new handover key: old links stop working and every device that came in through one loses its rights."""
    # Not a change to the game itself: its version (and so every open hand form) stays as it is.
    db.session.execute(
        update(GameRecord)
        .where(GameRecord.id == stored.id)
        .values(handover_generation=GameRecord.handover_generation + 1)
    )
    db.session.execute(delete(GameRight).where(GameRight.game_id == stored.id, GameRight.via == LINK))
    db.session.commit()
