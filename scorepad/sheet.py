"""What a hand row of the scoresheet says about each side, as a paper sheet notes it beside the figures.

Pure Python, from the rules' entries alone: who went out (and concealed), the canastas (special ones marked), the
3s, a special hand, a perfect cut and any penalty. Each note is a `Mark`: the short words the row shows and the
whole words a screen reader says (and a pointer shows), so an abbreviation is never left unexplained.
"""

from __future__ import annotations

from dataclasses import dataclass

from .rules import Hand, Rules, SideEntry, special_hand_name
from .rules.errors import Message, Plural

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


# The special canastas as the row shows them, and in full. Every mark is a rules Message (Plural where it counts),
# English as it stands and said in the page's language where the page shows it (web.translated, Jinja's finalize).
_WILD_CANASTAS = {
    "deuces": (Message("2s canasta"), Message("wild-card canasta of seven 2s")),
    "jokers": (Message("jokers canasta"), Message("wild-card canasta of four jokers and three 2s")),
    "mixed": (Message("wild canasta"), Message("wild-card canasta of any other mix")),
}


def _canastas(entry: SideEntry) -> list[Mark]:
    marks = []
    if count := entry.natural_canastas:
        said = Plural("{count} natural canasta", "{count} natural canastas", count)
        marks.append(Mark(Plural("{count} natural", "{count} natural", count), said))
    if count := entry.mixed_canastas:
        said = Plural("{count} mixed canasta", "{count} mixed canastas", count)
        marks.append(Mark(Plural("{count} mixed", "{count} mixed", count), said))
    if entry.sevens_canasta:
        marks.append(Mark(Message("7s canasta"), Message("sevens canasta"), SPECIAL))
    if entry.aces_canasta:
        marks.append(Mark(Message("aces canasta"), Message("pure aces canasta"), SPECIAL))
    if entry.wild_canasta is not None:
        wild = _WILD_CANASTAS.get(entry.wild_canasta, (Message("wild canasta"), Message("wild-card canasta")))
        marks.append(Mark(*wild, SPECIAL))
    return marks


def _threes(rules: Rules, entry: SideEntry) -> list[Mark]:
    marks = []
    if entry.red_threes:
        words = Plural("{count} red 3", "{count} red 3s", entry.red_threes)
        marks.append(Mark(words, words))
    if entry.black_threes and rules.modern:
        words = Plural("{count} black 3", "{count} black 3s", entry.black_threes)
        marks.append(Mark(words, words))
    return marks


def _penalties(entry: SideEntry) -> list[Mark]:
    marks = []
    for unfinished, shown, said in (
        (entry.incomplete_sevens, Message("unfinished 7s"), Message("unfinished sevens meld")),
        (entry.incomplete_aces, Message("unfinished aces"), Message("unfinished aces meld")),
        (entry.incomplete_wild, Message("unfinished wilds"), Message("unfinished wild-card meld")),
    ):
        if unfinished:
            marks.append(Mark(shown, said, PENALTY))
    if players := entry.dirty_sevens:
        shown = Message("dirty 7s") if players == 1 else Message("dirty 7s \u00d7{players}", players=players)
        said = Plural("{count} player caught with three 7s", "{count} players caught with three 7s", players)
        marks.append(Mark(shown, said, PENALTY))
    if players := entry.dirty_aces:
        shown = Message("dirty aces") if players == 1 else Message("dirty aces \u00d7{players}", players=players)
        said = Plural("{count} player caught with three aces", "{count} players caught with three aces", players)
        marks.append(Mark(shown, said, PENALTY))
    if count := entry.threes_in_hand:
        words = Message("a 3 in hand") if count == 1 else Message("{count} threes in hand", count=count)
        if entry.last_draw_three:
            shown = Message("{words}, one drawn last", words=words)
            marks.append(Mark(shown, Message("{words}, one the last card of the stock", words=words), PENALTY))
        else:
            marks.append(Mark(words, words, PENALTY))
    if entry.red_threes_in_hand:
        words = Plural("{count} red 3 in hand", "{count} red 3s in hand", entry.red_threes_in_hand)
        marks.append(Mark(words, words, PENALTY))
    if times := entry.failed_go_out_asks:
        shown = (
            Message("asked, didn't go out")
            if times == 1
            else Message("asked, didn't go out \u00d7{times}", times=times)
        )
        said = (
            Message("asked to go out, then didn't")
            if times == 1
            else Message("asked to go out, then didn't, {times} times", times=times)
        )
        marks.append(Mark(shown, said, PENALTY))
    if times := entry.failed_pile_takes:
        shown = Message("pile not used") if times == 1 else Message("pile not used \u00d7{times}", times=times)
        said = (
            Message("took the pile, couldn't use its top card")
            if times == 1
            else Message("took the pile, couldn't use its top card, {times} times", times=times)
        )
        marks.append(Mark(shown, said, PENALTY))
    return marks


# A special hand as the row shows it: its name without the shape in brackets (the rest are short already).
_SHORT_NAMES = {
    "straight": Message("Straight"),
    "pungs_kongs": Message("Pungs and kongs"),
    "zip_code": Message("Zip code"),
    "blast_off": Message("Blast off"),
    "triples": Message("Triples"),
    "quads": Message("Quads"),
    "dream_4": Message("Dream hand"),
    "dream_5": Message("Dream hand"),
    "dream_545": Message("Dream 5-4-5"),
}


def side_marks(rules: Rules, entry: SideEntry) -> tuple[Mark, ...]:
    """What one side did in a hand, in the order a paper sheet notes it: the special hand alone (nothing else
    of that side counts), else going out, canastas, 3s, the perfect cut and penalties."""
    if entry.special_hand is not None:
        name = special_hand_name(entry.special_hand)
        shown = _SHORT_NAMES.get(entry.special_hand) or (name.split(" (")[0] if " (" in name else name)
        return (Mark(shown, name, SPECIAL),)
    marks: list[Mark] = []
    if entry.went_out:
        words = Message("went out concealed") if entry.concealed else Message("went out")
        marks.append(Mark(words, words))
    marks += _canastas(entry)
    marks += _threes(rules, entry)
    if entry.has_melded is False and not rules.modern:
        marks.append(Mark(Message("didn't meld"), Message("didn't meld this hand"), PENALTY))
    if entry.perfect_cut and rules.perfect_cut:
        marks.append(Mark(Message("perfect cut"), Message("perfect cut")))
    marks += _penalties(entry)
    return tuple(marks)


def hand_marks(rules: Rules, hand: Hand) -> tuple[tuple[Mark, ...], ...]:
    """Each side's marks for one hand; where the table plays wipeout, a special hand wipes the other sides out."""
    special = any(entry.special_hand is not None for entry in hand.sides)
    marks: list[tuple[Mark, ...]] = []
    for entry in hand.sides:
        if special and rules.wipeout and entry.special_hand is None:
            marks.append((Mark(Message("wiped out"), Message("wiped out by the special hand"), PENALTY),))
        else:
            marks.append(side_marks(rules, entry))
    return tuple(marks)
