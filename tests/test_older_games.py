"""A cla game stored before games kept complete rules keeps the 5 it charged for a 3 drawn as the last card of
the stock (docs/rules.md §3), through the migrations, and whatever figures an older Scorepad kept for it.

Before migration 2b7c1a0e9d34, cla charged 100 for each 3 left in hand and 5 for one drawn as the last card;
the migration wrote its values with the 100 and no value for the last card, so for a while such a hand cost
200 and the figures kept with the game say so. Figures worked out by hand: Us close two natural canastas
(2 × 500), hold two 3s at the end, one drawn last (100 + 5 = 105 off): Base 895, Count 100, total 995.
"""

from __future__ import annotations

from scorepad import rules
from scorepad.models import GameRecord, db

from .conftest import first_release_game

HAND = '[{"natural_canastas": 2, "threes_in_hand": 2, "last_draw_three": true, "count": 100}, {}]'


def old_cla_game(tmp_path):
    """An app on a database where a cla game was stored by the first release, then migrated to this one."""
    return first_release_game(tmp_path, "cla", 8500, HAND)


def test_an_old_cla_game_charges_five_for_its_last_drawn_three_again(tmp_path):
    app = old_cla_game(tmp_path)
    body = app.test_client().get("/api/games/old").get_json()
    with app.app_context():
        db.engine.dispose()
    assert body["rules"]["values"]["three_in_hand"] == 100 and body["rules"]["values"]["last_draw_three"] == 5
    assert body["hands"][0]["sides"][0]["result"]["base"] == 895
    assert body["totals"] == [995, 0]


def test_figures_an_older_scorepad_kept_for_it_are_worked_out_again(tmp_path):
    app = old_cla_game(tmp_path)
    with app.app_context():
        # What the Scorepad before last_draw_three kept: the last card at 100, as any 3 left in hand (−200: 900).
        played_then = {**rules.rules_json(rules.make_rules("cla")), "values": {"three_in_hand": 100}}
        played_then["values"] = {**played_then["values"], "three_in_hand": 100, "last_draw_three": 100}
        then = rules.score_game(
            rules.rules_from_json(played_then),
            rules.Table((rules.Side("Us", ("Ann", "Cleo")), rules.Side("Them", ("Bea", "Dot")))),
            [
                rules.Hand(
                    (
                        rules.SideEntry(natural_canastas=2, threes_in_hand=2, last_draw_three=True, count=100),
                        rules.SideEntry(),
                    )
                )
            ],
        )
        assert then.totals == (900, 0)
        # Kept as the store keeps figures: beside the game's version, which a change of the row would raise.
        db.session.execute(
            db.update(GameRecord)
            .where(GameRecord.id == "old")
            .values(figures={**rules.score_json(then), "format": 1}, figures_version=GameRecord.version)
        )
        db.session.commit()
        db.engine.dispose()
    body = app.test_client().get("/api/games/old").get_json()
    with app.app_context():
        db.engine.dispose()
    assert body["totals"] == [995, 0]
