"""The scorekeeper's pages, one blueprint (`games`) whose views live in modules by what the scorekeeper does:
starting or restoring a game (start), the scoresheet (sheet), the hand form (hands), Undo, Redo and the rematch
(undo), settling up (settle), keeping score on another phone (handover). Who may do what is in access."""

from __future__ import annotations

from flask import Blueprint

from ..security import refuse_cross_site_posts

bp = Blueprint("games", __name__)
bp.before_request(refuse_cross_site_posts)

from . import handover, hands, sheet, start, undo  # noqa: E402  (each module registers its views on bp)

__all__ = ["bp", "handover", "hands", "sheet", "start", "undo"]
