"""every game keeps its complete table rules

A game used to store its preset and four overrides (target, wipeout, perfect cut,
special hands); every other value came from the preset in the code. Now a game keeps
every value, so that changing a preset never changes a stored game. This fills them in
for the games already stored, from the preset values they were played with: the presets
as they stood before this revision, written out here so that later changes to the code
never change what this migration does. (One difference cannot be kept: an older cla game
charged 100 for each 3 left in hand but 5 for one that was the last card of the stock, and
complete rules have no value of their own for that card; such a hand now charges the 100 of
any 3 left in hand, 95 more: two 3s in hand, one drawn last, cost 200 instead of 105.
This concerns only games stored before this revision, which keep the 100 per 3 they were
played with: the cla preset as corrected since has no penalty for a 3 in hand at all, it is a
card worth 5 in the Count, the last-drawn one included; see docs/rules.md section 3.)

Revision ID: 2b7c1a0e9d34
Revises: 6f135fe7c877
Create Date: 2026-11-24 01:05:00

"""

import sqlalchemy as sa
from alembic import op

revision = "2b7c1a0e9d34"
down_revision = "6f135fe7c877"
branch_labels = None
depends_on = None

_MODERN_VALUES = {
    "natural_canasta": 500,
    "mixed_canasta": 300,
    "sevens_canasta": 2500,
    "aces_canasta": 2500,
    "wild_canasta_deuces": 3000,
    "wild_canasta_jokers": 2500,
    "wild_canasta_mixed": 2000,
    "going_out": 100,
    "going_out_concealed": 0,
    "perfect_cut": 100,
    "incomplete_sevens": 2500,
    "incomplete_aces": 2500,
    "incomplete_wild": 2000,
    "dirty_sevens": 1500,
    "dirty_aces": 1500,
    "three_in_hand": 100,
    "red_three_in_hand": 0,
    "failed_go_out_ask": 0,
    "failed_pile_take": 0,
}
_MODERN = {
    "tie": "play_on",
    "minimum_counts": [{"from": None, "minimum": 125}, {"from": 3000, "minimum": 155}, {"from": 5000, "minimum": 180}],
    "canastas_to_go_out": 2,
    "count_without_canasta": "negative",
    "threes": [0, 100, 300, 500, 1000],
    "all_eight_threes": None,
    "red_threes": {"each": 100, "all_four": 800, "five": 1000, "six": 1200},
    "values": _MODERN_VALUES,
}
PLAYED_WITH = {
    "modern": _MODERN,
    "cla": _MODERN,
    "wca": {
        **_MODERN,
        "all_eight_threes": 3000,
        "values": {
            **_MODERN_VALUES,
            "wild_canasta_deuces": 4000,
            "wild_canasta_jokers": 3000,
            "wild_canasta_mixed": 2500,
            "going_out": 200,
            "incomplete_wild": 2500,
        },
    },
    "classic": {
        "tie": "play_on",
        "minimum_counts": [
            {"from": None, "minimum": 15},
            {"from": 0, "minimum": 50},
            {"from": 1500, "minimum": 90},
            {"from": 3000, "minimum": 120},
        ],
        "canastas_to_go_out": 1,
        "count_without_canasta": "melded_minus_hand",
        "threes": [0, 100, 300, 500, 1000],
        "all_eight_threes": None,
        "red_threes": {"each": 100, "all_four": 800, "five": 1000, "six": 1200},
        "values": {
            **dict.fromkeys(_MODERN_VALUES, 0),
            "natural_canasta": 500,
            "mixed_canasta": 300,
            "going_out": 100,
            "going_out_concealed": 200,
            "perfect_cut": 100,
            "red_three_in_hand": 500,
            "failed_go_out_ask": 100,
            "failed_pile_take": 50,
        },
    },
}
OLD_KEYS = ("preset", "target", "wipeout", "perfect_cut", "special_hands")

games = sa.table("games", sa.column("id", sa.String), sa.column("rules", sa.JSON))


def upgrade():
    connection = op.get_bind()
    for game_id, stored in connection.execute(sa.select(games.c.id, games.c.rules)).all():
        complete = {**PLAYED_WITH.get(stored.get("preset"), _MODERN), **stored}
        if complete != stored:
            connection.execute(games.update().where(games.c.id == game_id).values(rules=complete))


def downgrade():
    connection = op.get_bind()
    for game_id, stored in connection.execute(sa.select(games.c.id, games.c.rules)).all():
        connection.execute(
            games.update()
            .where(games.c.id == game_id)
            .values(rules={key: stored[key] for key in OLD_KEYS if key in stored})
        )
