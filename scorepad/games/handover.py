"""Keeping score on another phone: the handover link, who holds it, revoking it, claiming it."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from flask import current_app, flash, redirect, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext, ngettext
from htmx_flask import request

from .. import rights, store
from ..web import load_or_404, render
from . import access, bp


def _ago(moment: datetime) -> str:
    """When something happened, as a person says it ("12 minutes ago"), whatever the phone's time zone."""
    seconds = (datetime.now(UTC) - store.utc(moment)).total_seconds()
    minutes, hours, days = int(seconds // 60), int(seconds // 3600), int(seconds // 86400)
    if minutes < 1:
        return "just now"
    if hours < 1:
        return f"{minutes} minute{'s' if minutes != 1 else ''} ago"
    if days < 1:
        return f"{hours} hour{'s' if hours != 1 else ''} ago"
    if days < 30:
        return "yesterday" if days == 1 else f"{days} days ago"
    return moment.strftime("%-d %b %Y")


@bp.get("/games/<game_id>/handover")
def handover(game_id: str) -> ResponseReturnValue:
    """The link that lets another phone keep score of the game, and every phone that came in through it."""
    stored = access.scorekeepers_only(game_id)
    link = url_for("games.show", game_id=game_id, _external=True, _anchor="key=" + rights.handover_key(stored))
    holders = [
        {"label": right.label or "A browser", "joined": _ago(right.created_at), "used": _ago(right.last_used_at)}
        for right in rights.holders(stored.id)
    ]
    return access.no_store(
        render("games/handover.html", stored=stored, table=stored.game.table, link=link, holders=holders)
    )


@bp.post("/games/<game_id>/handover/revoke")
def revoke_handover(game_id: str) -> ResponseReturnValue:
    """Replace the handover link: the old one stops working and every phone that came in through it is read-only."""
    stored = access.scorekeepers_only(game_id)
    count = len(rights.holders(stored.id))
    rights.revoke_handover(stored)
    told = [gettext("The old link no longer works.")]
    if count:
        told.append(
            ngettext(
                "The %(num)d phone that used it can't change the game any more.",
                "The %(num)d phones that used it can't change the game any more.",
                count,
            )
        )
    flash(" ".join([*told, gettext("Here is a new link.")]), "success")
    return access.no_store(redirect(url_for("games.handover", game_id=game_id), 303))


KEY_IN_LINK = re.compile(r"#key=([A-Za-z0-9_-]+)")


@bp.post("/games/<game_id>/claim")
def claim(game_id: str) -> ResponseReturnValue:
    """Keep score on this phone with the key of the scorekeeper's link: sent by scorepad.js from the link's
    "#key=\u2026", or pasted (the whole link or the key) where there is no JavaScript."""
    stored = load_or_404(game_id)
    sent = (request.form.get("key") or "").strip()
    in_link = KEY_IN_LINK.search(sent)
    key = in_link.group(1) if in_link else sent
    if key and rights.claim(stored, key):
        flash(gettext("This phone keeps score of this game now."), "success")
    else:
        current_app.logger.info("Refused a handover key for game %s", game_id)  # never the key itself
        flash(
            gettext(
                "That link's key doesn't match this game (the scorekeeper may have replaced the link): the "
                "scoresheet is read-only here. Ask the scorekeeper for the current link."
            ),
            "error",
        )
    return access.no_store(redirect(url_for("games.show", game_id=game_id), 303))
