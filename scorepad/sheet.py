"""What a hand row of the scoresheet says about each side, as a paper sheet notes it beside the figures.

Pure Python, from the rules' entries alone: who went out (and concealed), the canastas (special ones marked), the
3s, a special hand, a perfect cut and any penalty. Each note is a `Mark`: the short words the row shows and the
whole words a screen reader says (and a pointer shows), so an abbreviation is never left unexplained.
"""

from __future__ import annotations

from dataclasses import dataclass

from .rules import Hand, Rules, SideEntry, special_hand_name

BONUS, SPECIAL, PENALTY = "bonus", "special", "penalty"


@dataclass(frozen=True)
class Mark:
    """One thing a side did in a hand: `shown` on the row, `said` in full (the same when it needs no shortening)."""

    shown: str
    said: str
    kind: str = BONUS

    @property
    def shortened(self) -> bool:
        """Whether the row shows fewer words than `said` (the page then gives the full words to read aloud)."""
        return self.shown != self.said


def _many(number: int, one: str, several: str) -> str:
    return f"{number} {one if number == 1 else several}"


# The special canastas as the row shows them, and in full.
_WILD_CANASTAS = {
    "deuces": ("2s canasta", "wild-card canasta of seven 2s"),
    "jokers": ("jokers canasta", "wild-card canasta of four jokers and three 2s"),
    "mixed": ("wild canasta", "wild-card canasta of any other mix"),
}


def _canastas(entry: SideEntry) -> list[Mark]:
    marks = []
    if entry.natural_canastas:
        said = _many(entry.natural_canastas, "natural canasta", "natural canastas")
        marks.append(Mark(f"{entry.natural_canastas} natural", said))
    if entry.mixed_canastas:
        said = _many(entry.mixed_canastas, "mixed canasta", "mixed canastas")
        marks.append(Mark(f"{entry.mixed_canastas} mixed", said))
    if entry.sevens_canasta:
        marks.append(Mark("7s canasta", "sevens canasta", SPECIAL))
    if entry.aces_canasta:
        marks.append(Mark("aces canasta", "pure aces canasta", SPECIAL))
    if entry.wild_canasta is not None:
        shown, said = _WILD_CANASTAS.get(entry.wild_canasta, ("wild canasta", "wild-card canasta"))
        marks.append(Mark(shown, said, SPECIAL))
    return marks


def _threes(rules: Rules, entry: SideEntry) -> list[Mark]:
    marks = []
    if entry.red_threes:
        words = _many(entry.red_threes, "red 3", "red 3s")
        marks.append(Mark(words, words))
    if entry.black_threes and rules.modern:
        words = _many(entry.black_threes, "black 3", "black 3s")
        marks.append(Mark(words, words))
    return marks


def _penalties(entry: SideEntry) -> list[Mark]:
    marks = []
    for unfinished, shown, said in (
        (entry.incomplete_sevens, "unfinished 7s", "unfinished sevens meld"),
        (entry.incomplete_aces, "unfinished aces", "unfinished aces meld"),
        (entry.incomplete_wild, "unfinished wilds", "unfinished wild-card meld"),
    ):
        if unfinished:
            marks.append(Mark(shown, said, PENALTY))
    for players, cards in ((entry.dirty_sevens, "7s"), (entry.dirty_aces, "aces")):
        if players:
            shown = f"dirty {cards}" if players == 1 else f"dirty {cards} \u00d7{players}"
            said = f"{_many(players, 'player', 'players')} caught with three {cards}"
            marks.append(Mark(shown, said, PENALTY))
    if entry.threes_in_hand:
        words = "a 3 in hand" if entry.threes_in_hand == 1 else f"{entry.threes_in_hand} threes in hand"
        if entry.last_draw_three:
            marks.append(Mark(f"{words}, one drawn last", f"{words}, one the last card of the stock", PENALTY))
        else:
            marks.append(Mark(words, words, PENALTY))
    if entry.red_threes_in_hand:
        words = _many(entry.red_threes_in_hand, "red 3 in hand", "red 3s in hand")
        marks.append(Mark(words, words, PENALTY))
    if entry.failed_go_out_asks:
        times = "" if entry.failed_go_out_asks == 1 else f" \u00d7{entry.failed_go_out_asks}"
        said = "asked to go out, then didn't" + ("" if not times else f", {entry.failed_go_out_asks} times")
        marks.append(Mark(f"asked, didn't go out{times}", said, PENALTY))
    if entry.failed_pile_takes:
        times = "" if entry.failed_pile_takes == 1 else f" \u00d7{entry.failed_pile_takes}"
        said = "took the pile, couldn't use its top card" + ("" if not times else f", {entry.failed_pile_takes} times")
        marks.append(Mark(f"pile not used{times}", said, PENALTY))
    return marks


def side_marks(rules: Rules, entry: SideEntry) -> tuple[Mark, ...]:
    """What one side did in a hand, in the order a paper sheet notes it: the special hand alone (nothing else
    of that side counts), else going out, canastas, 3s, the perfect cut and penalties."""
    if entry.special_hand is not None:
        name = special_hand_name(entry.special_hand)
        return (Mark(name.split(" (")[0], name, SPECIAL),)
    marks: list[Mark] = []
    if entry.went_out:
        words = "went out concealed" if entry.concealed else "went out"
        marks.append(Mark(words, words))
    marks += _canastas(entry)
    marks += _threes(rules, entry)
    if entry.has_melded is False and not rules.modern:
        marks.append(Mark("didn't meld", "didn't meld this hand", PENALTY))
    if entry.perfect_cut and rules.perfect_cut:
        marks.append(Mark("perfect cut", "perfect cut"))
    marks += _penalties(entry)
    return tuple(marks)


def hand_marks(rules: Rules, hand: Hand) -> tuple[tuple[Mark, ...], ...]:
    """Each side's marks for one hand; where the table plays wipeout, a special hand wipes the other sides out."""
    special = any(entry.special_hand is not None for entry in hand.sides)
    marks: list[tuple[Mark, ...]] = []
    for entry in hand.sides:
        if special and rules.wipeout and entry.special_hand is None:
            marks.append((Mark("wiped out", "wiped out by the special hand", PENALTY),))
        else:
            marks.append(side_marks(rules, entry))
    return tuple(marks)
