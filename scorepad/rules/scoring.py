"""The figures of one side for one hand: Base (docs/rules.md §3, §4), Count (§2) and Minimum Count."""

from __future__ import annotations

from .catalogue import PRICED
from .entries import SideEntry, Table
from .table import Rules


def counted(entry: SideEntry) -> SideEntry:
    """What of a side's entry counts: a side that laid down a special hand scores the hand alone, whatever
    else was entered for it (kept, but not counted)."""
    return SideEntry(special_hand=entry.special_hand) if entry.special_hand is not None else entry


def side_count(rules: Rules, entry: SideEntry) -> int:
    """The Count: melded minus in hand; where the table says so, a side with no canasta counts every card against it."""
    if entry.special_hand is not None:
        return 0
    if entry.cards is None:
        return entry.count or 0
    melded, in_hand = entry.cards.melded.points(), entry.cards.in_hand.points()
    if rules.count_without_canasta == "negative" and entry.canastas == 0 and entry.reported_base is None:
        return -(melded + in_hand)
    return melded - in_hand


def _has_melded(rules: Rules, entry: SideEntry) -> bool:
    """Classic: whether the side melded anything during the hand (its red 3s count for it only then)."""
    if entry.has_melded is not None:
        return entry.has_melded
    return entry.canastas > 0 or side_count(rules, entry) > 0


def melding_unclear(rules: Rules, entry: SideEntry) -> bool:
    """Classic: whether red 3s are on the table but the entries can't tell if the side melded
    (no canasta, a Count of 0 or less, and has_melded not given), so the scorekeeper must say."""
    return (
        not rules.modern
        and entry.red_threes > 0
        and entry.has_melded is None
        and entry.canastas == 0
        and side_count(rules, entry) <= 0
    )


def classic_red_threes(rules: Rules, table: Table, red_threes: int) -> int:
    """Classic: what a side's red 3s are worth, before their sign (all four of two decks, five or six of three)."""
    red = rules.red_threes
    if table.pack.decks == 2 and red_threes == 4:
        return red.all_four
    if table.pack.decks == 3 and red_threes in (5, 6):
        return red.five if red_threes == 5 else red.six
    return red.each * red_threes


def threes_value(rules: Rules, table: Table, entry: SideEntry) -> int:
    """What the side's exposed 3s are worth, with their sign."""
    if not rules.modern:
        value = classic_red_threes(rules, table, entry.red_threes)
        return value if _has_melded(rules, entry) else -value
    if rules.all_eight_threes is not None and entry.red_threes == entry.black_threes == 4:
        value = rules.all_eight_threes
    else:
        value = rules.threes[entry.red_threes] + rules.threes[entry.black_threes]
    if entry.canastas == 0:
        return -value
    return 0 if entry.canastas == 1 else value


def priced(rules: Rules, entry: SideEntry, only_penalties: bool | None = None) -> int:
    """The generic step of the catalogue: each priced entry's number (a switch is 1) times its value, a bonus
    added and a penalty taken off; a value charged instead of another takes the other's price off again.
    `only_penalties` True or False: only the penalties, or only the bonuses."""
    values, total = rules.values, 0
    for value in PRICED:
        if only_penalties is None or value.penalty == only_penalties:
            points = getattr(values, value.key) - (getattr(values, value.instead_of) if value.instead_of else 0)
            total += value.sign * points * int(getattr(entry, value.entry or ""))
    return total


def penalties(rules: Rules, entry: SideEntry) -> int:
    """Points taken off the side's Base (a 3 drawn last is one of the 3s left in hand)."""
    return -priced(rules, entry, only_penalties=True)


def side_base(rules: Rules, table: Table, entry: SideEntry) -> int:
    """The Base: 3s + canastas + going out + perfect cut - penalties (a special hand is its own value)."""
    values = rules.values
    if entry.special_hand is not None:
        return rules.special_hand_value(entry.special_hand) or 0
    if entry.reported_base is not None:
        return entry.reported_base
    wild_canasta = values.wild_canasta(entry.wild_canasta) if entry.wild_canasta else 0
    going_out = 0
    if entry.went_out:
        going_out = values.going_out_concealed if entry.concealed else values.going_out
    perfect_cut = values.perfect_cut if entry.perfect_cut and rules.perfect_cut else 0
    return threes_value(rules, table, entry) + priced(rules, entry) + wild_canasta + going_out + perfect_cut


def minimum_count(rules: Rules, cumulative: int, hand: int | None = None) -> int:
    """The points a side's opening meld must reach in `hand` (0-based): where the game has Minimum Counts by hand,
    that hand's (the last one for later hands); otherwise the minimum of the last band its cumulative reaches."""
    by_hand = rules.minimum_counts_by_hand
    if by_hand and hand is not None:
        return by_hand[min(hand, len(by_hand) - 1)]
    requirement = rules.minimum_counts[0].minimum
    for band in rules.minimum_counts[1:]:
        if band.start is not None and cumulative >= band.start:
            requirement = band.minimum
    return requirement
