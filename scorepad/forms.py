"""WTForms: is the input well formed (whole numbers, known choices)? The rules judge the rest.

Both forms turn their data into the JSON shapes of docs/api.md, so a page and
the API are checked by the same code, and map the rules' problem paths back onto
their fields, so every error renders beside the field it names.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from werkzeug.datastructures import MultiDict
from wtforms import BooleanField, Field, Form, IntegerField, RadioField, SelectField, StringField

# SelectChoice is WTForms 3.3's; types-WTForms still describes 3.2 (pyproject.toml). mypy says so once the stubs
# catch up (warn_unused_ignores), and this ignore goes.
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]
from wtforms.form import BaseForm
from wtforms.validators import Optional, StopValidation, ValidationError

from . import document, rules
from .rules import Problem
from .rules.errors import Message, Points

SUMMARY = Message("Check the entries marked in red below.")
PLACES_APART = "; "  # between the places named in "Check the entries marked in red below (...)"
MINUS = "\u2212"  # the minus sign a card player writes, not a hyphen

# (kind, label, points): the rows of the counting grid
CARD_GRID = tuple((kind, rules.CARD_LABELS[kind], rules.CARD_POINTS[kind]) for kind in rules.CARD_KINDS)


def choices(pairs: Iterable[tuple[object, str]]) -> list[SelectChoice]:
    """WTForms choices from (value, label) pairs."""
    return [SelectChoice(str(value), label) for value, label in pairs]


class AtLeast:
    """WTForms' NumberRange(min=...) in a card player's words, its message a Message (translated where it is shown)."""

    def __init__(self, minimum: int) -> None:
        self.minimum = minimum

    def __call__(self, form: BaseForm, field: Field) -> None:
        if field.data is not None and field.data < self.minimum:
            raise ValidationError(Message("Can't be less than {min}.", min=self.minimum))


class WholeNumber(IntegerField):
    """An integer field that says what it wants in a card player's words; empty means 0."""

    data: int | None  # None: left empty, or not a whole number

    def __init__(self, label: str | None = None, minimum: int | None = 0, example: str = "3", **kwargs: Any) -> None:
        validators: list[Optional | AtLeast] = [Optional()]
        if minimum is not None:
            validators.append(AtLeast(minimum))
        self.example = example
        super().__init__(label, validators=validators, **kwargs)

    def pre_validate(self, form: BaseForm) -> None:
        """Text that isn't a number has been told so; range checks would only add noise."""
        if self.process_errors:
            raise StopValidation()

    def process_formdata(self, valuelist: list[str]) -> None:
        """Read a whole number, allowing a real minus sign and thousands separators."""
        if valuelist and valuelist[0].strip():
            text = valuelist[0].strip().replace("\u2212", "-")
            if re.fullmatch(r"-?\d{1,3}([.,\s]\d{3})+", text):  # 1,160 or 1.160 or 1 160: thousands
                text = re.sub(r"[.,\s]", "", text)
            try:
                self.data = int(text)
            except ValueError:
                self.data = None
                raise ValueError(Message("Enter a whole number, like {example}.", example=self.example)) from None
        else:
            self.data = None


class MinimumCountsByHand(StringField):
    """Each hand's Minimum Count, typed as a card player writes them: "125 / 155 / 180" (blank: the bands)."""

    data: list[int] | None  # type: ignore[assignment]

    def process_formdata(self, valuelist: list[str]) -> None:
        """Read the Minimum Counts between slashes, commas or spaces; the text typed stays in its box."""
        text = valuelist[0].strip() if valuelist else ""
        self.data = None
        if text:
            words = [word for word in re.split(r"[/,;\s]+", text.replace("\u2212", "-")) if word]
            if not all(re.fullmatch(r"-?\d{1,6}", word) for word in words):
                raise ValueError(Message("Type each hand's Minimum Count with / between them, like 125 / 155 / 180."))
            self.data = [int(word) for word in words]

    def _value(self) -> str:
        if self.raw_data:
            return str(self.raw_data[0])
        return " / ".join(str(count) for count in self.data) if self.data else ""


def signed(number: int, sign: str) -> int:
    """A number typed without its sign, and the sign chosen beside it (a typed minus counts too)."""
    return -number if sign == "-" and number > 0 else number


def attach_problems(problems: Sequence[Problem], field_for: Callable[[tuple], Field | None]) -> list[str]:
    """Put each problem on the field its path names (a problem with the whole hand on every field it
    involves, on each side); return the messages that belong to no field shown."""
    leftovers = []
    for problem in problems:
        paths = problem.involves or (problem.path,)
        fields = [field for field in (field_for(path) for path in paths) if field is not None]
        if not fields:
            leftovers.append(problem.message)
        for field in fields:
            if problem.message not in field.errors:
                field.errors = list(field.errors) + [problem.message]
    return leftovers


PICK = "_pick"


def with_picks(formdata: MultiDict[str, str]) -> MultiDict[str, str]:
    """A count offered as a row of choices (0-4) posts its choice as <name>_pick beside its number box <name>: the
    number typed in the box, if any, is the one meant, else the choice."""
    merged = MultiDict(formdata)
    for key in formdata:
        box = key.removesuffix(PICK)
        if box != key and not (formdata.get(box) or "").strip():
            merged[box] = formdata[key]
    return merged


# --- One side's entries for one hand -------------------------------------------------

# What nearly every hand has, and what a hand says in one tap (the special canastas, a special hand): shown first,
# where the game has them. Every other entry the game has waits one tap away, under "More", and is named in the
# side's summary once set, so nothing set is ever out of sight.
EVERYDAY_ENTRIES = (
    "red_threes",
    "black_threes",
    "natural_canastas",
    "mixed_canastas",
    "sevens_canasta",
    "aces_canasta",
    "wild_canasta",
    "went_out",
    "has_melded",  # classic: asked when the Count can't tell, so it sits where the question is seen
)
# The small counts offered as one row of choices, 0 to PICK_TOP (a rarer number is typed in the box beside them).
PICK_TOP = 4
RARE_ENTRIES = (
    "incomplete_sevens",
    "incomplete_aces",
    "incomplete_wild",
    "dirty_sevens",
    "dirty_aces",
    "threes_in_hand",
    "last_draw_three",
    "concealed",
    "red_threes_in_hand",
    "failed_go_out_asks",
    "failed_pile_takes",
    "reported_base",
)


# The values whose worth the hand form shows beside their entry: the catalogue's, but for the ordinary
# canastas (on every hand, and their worth is on the rules page).
HINTED = {v.entry: v for v in rules.CATALOGUE if v.entry and v.entry not in ("natural_canastas", "mixed_canastas")}


class SideForm(Form):
    """One side's panel of the hand form."""

    # The entries' numbers and switches are added below from the rules' own fields and labels.
    special_hand = SelectField(
        rules.FIELD_LABELS["special_hand"], choices=choices([("", Message("None"))]), default="", validate_choice=False
    )
    wild_canasta = SelectField(
        rules.FIELD_LABELS["wild_canasta"],
        choices=choices([("", Message("None"))] + list(rules.WILD_CANASTA_NAMES.items())),
        default="",
    )
    has_melded = SelectField(
        rules.FIELD_LABELS["has_melded"],
        choices=choices([("", Message("Judge from the count")), ("yes", Message("Yes")), ("no", Message("No"))]),
        default="",
    )
    count_mode = RadioField(
        "Count as", choices=choices([("number", "One number"), ("grid", "Counting grid")]), default="number"
    )
    count_sign = RadioField("Sign", choices=choices([("+", "+"), ("-", "\u2212")]), default="+")
    count = WholeNumber(rules.FIELD_LABELS["count"], minimum=None, example="120")
    # The paper way: a side that reports its own Base ("we have 1,300 base") instead of its entries.
    reported_base = WholeNumber(rules.FIELD_LABELS["reported_base"], minimum=None, example="1300")
    reported_base_sign = RadioField("Sign", choices=choices([("+", "+"), ("-", MINUS)]), default="+")

    INTEGER_ENTRIES = rules.INT_FIELDS
    # The perfect cut is one switch for the whole hand (HandForm), credited to the cutter's side.
    SWITCH_ENTRIES = tuple(name for name in rules.BOOL_FIELDS if name != "perfect_cut")

    def uses(self, field: Field) -> bool:
        """Whether this side's entry takes this field as things stand (see entry_json)."""
        name = field.short_name
        if self.special_hand.data:
            return name == "special_hand"
        if self.reported_base.data is not None and not name.startswith(
            ("reported_base", "count", "melded_", "in_hand_")
        ):
            return False  # a reported Base sets the side's entries aside
        if name in ("count", "count_sign"):
            return self.count_mode.data != "grid"
        if name.startswith(("melded_", "in_hand_")):
            return self.count_mode.data == "grid"
        return True

    def entry_json(self) -> dict:
        """This side's entry as the document's side object: only what was entered, only the active Count."""
        if self.special_hand.data:
            # A special hand is the side's only score: the rest of the panel is hidden and set aside.
            return {"special_hand": self.special_hand.data}
        entry: dict[str, Any] = {}
        if self.reported_base.data is not None:
            # The side reported its Base: that and the Count are its score; the entries are set aside.
            entry["reported_base"] = signed(self.reported_base.data, self.reported_base_sign.data)
            return {**entry, **self._count_json()}
        for name in self.INTEGER_ENTRIES:
            if self[name].data:
                entry[name] = self[name].data
        for name in self.SWITCH_ENTRIES:
            if self[name].data:
                entry[name] = True
        if self.wild_canasta.data:
            entry["wild_canasta"] = self.wild_canasta.data
        if self.has_melded.data:
            entry["has_melded"] = self.has_melded.data == "yes"
        return {**entry, **self._count_json()}

    def _count_json(self) -> dict:
        """The Count in use: the counting grid's cards, or the number typed with its sign."""
        if self.count_mode.data == "grid":
            return {
                "cards": {
                    where: {
                        kind: self[f"{where}_{kind}"].data for kind, _, _ in CARD_GRID if self[f"{where}_{kind}"].data
                    }
                    for where in ("melded", "in_hand")
                }
            }
        if self.count.data is not None:
            return {"count": signed(self.count.data, self.count_sign.data)}
        return {}

    def fill(self, entry: dict) -> None:
        """Pre-fill the panel from a stored side entry."""
        for name in self.INTEGER_ENTRIES + self.SWITCH_ENTRIES + ("wild_canasta", "special_hand"):
            if name in entry:
                self[name].data = entry[name]
        if "has_melded" in entry:
            self.has_melded.data = "yes" if entry["has_melded"] else "no"
        if "reported_base" in entry:
            self.reported_base_sign.data = "-" if entry["reported_base"] < 0 else "+"
            self.reported_base.data = abs(entry["reported_base"])
        if "cards" in entry:
            self.count_mode.data = "grid"
            for where in ("melded", "in_hand"):
                for kind, value in entry["cards"].get(where, {}).items():
                    self[f"{where}_{kind}"].data = value
        elif "count" in entry:
            self.count_mode.data = "number"
            self.count_sign.data = "-" if entry["count"] < 0 else "+"
            self.count.data = abs(entry["count"])


for _name in rules.INT_FIELDS:
    setattr(SideForm, _name, WholeNumber(rules.FIELD_LABELS[_name]))
for _name in SideForm.SWITCH_ENTRIES:
    setattr(SideForm, _name, BooleanField(rules.FIELD_LABELS[_name]))
for _kind in rules.CARD_KINDS:  # the counting grid: a cell per kind of card, melded and in hand
    setattr(SideForm, f"melded_{_kind}", WholeNumber(Message("{cards} melded", cards=rules.CARD_LABELS[_kind])))
    setattr(SideForm, f"in_hand_{_kind}", WholeNumber(Message("{cards} in hand", cards=rules.CARD_LABELS[_kind])))
del _name, _kind


class HandSwitchesForm(Form):
    """The switches that belong to the whole hand rather than to a side."""

    perfect_cut = BooleanField("Perfect cut")


class HandNoteForm(Form):
    """The hand's note ("misdeal"): kept with the hand, never scored (document.clean_note judges it)."""

    note = StringField("Note on this hand")


class HandForm:
    """The hand form: a SideForm per side (prefixed s0-, s1-, ...) and the hand's perfect-cut switch."""

    def __init__(
        self,
        formdata: MultiDict[str, str] | None,
        game_rules: rules.Rules,
        table: rules.Table,
        hand_index: int,
        entries: list[dict] | None = None,
        note: str = "",
    ) -> None:
        self.rules, self.table, self.hand_index = game_rules, table, hand_index
        if formdata is not None:
            formdata = with_picks(formdata)
        self.cutter_side = table.cutter_side(hand_index)
        hand_choices = choices(
            [("", Message("None"))]
            + [
                (key, Message("{name} ({points:,})", name=rules.special_hand_name(key), points=points))
                for key, points in game_rules.special_hands
            ]
        )
        wild_choices = choices(
            [("", Message("None"))]
            + [
                (
                    kind,
                    Message(
                        "{name} ({points:,})",
                        name=rules.WILD_CANASTA_NAMES[kind],
                        points=game_rules.values.wild_canasta(kind),
                    ),
                )
                for kind in rules.WILD_CANASTA_KINDS
                if game_rules.values.wild_canasta(kind)
            ]
        )
        self.sides = []
        for i, _ in enumerate(table.sides):
            side = SideForm(formdata, prefix=f"s{i}-")
            side.special_hand.choices = hand_choices
            side.wild_canasta.choices = wild_choices
            if formdata is None and entries is not None:
                side.fill(entries[i])
            self.sides.append(side)
        self.perfect_cut = HandSwitchesForm(formdata).perfect_cut
        if formdata is None and entries is not None:
            self.perfect_cut.data = any(e.get("perfect_cut") for e in entries)
        self.note = HandNoteForm(formdata).note
        # Whether the post carried the note's box (a form without it, kept from before, leaves a hand's note alone).
        self.note_sent = formdata is not None and "note" in formdata
        if formdata is None:
            self.note.data = note
        self.errors: list[str] = []

    def validate(self) -> bool:
        """Form shape only: every number the entry uses is a whole number in range.

        Fields set aside (the panel behind a chosen special hand, the Count mode not in use) are not
        judged: they are hidden, so an error there could not be seen.
        """
        for side in self.sides:
            side.validate()
            for field in side:
                if field.errors and not side.uses(field):
                    field.errors = []
        return not any(side.errors for side in self.sides)

    def hand_json(self) -> dict:
        """The hand as the API's body: {"sides": [...]}, with the perfect cut on the cutter's side, and the hand's
        note when one was typed."""
        entries = [side.entry_json() for side in self.sides]
        if self.perfect_cut.data:
            entries[self.cutter_side]["perfect_cut"] = True
        return {"sides": entries, **({"note": self.note.data} if (self.note.data or "").strip() else {})}

    def field_for(self, path: tuple) -> Field | None:
        """The form field a problem path names, or None for a problem with the whole hand."""
        if len(path) < 3 or path[0] != "sides":
            return None
        side, name = self.sides[path[1]], path[2]
        if name == "perfect_cut":
            return self.perfect_cut if self.rules.perfect_cut else None
        if name == "cards":
            field = side[f"{path[3]}_{path[4]}"] if len(path) == 5 else side.count
        else:
            field = side[name] if name in side else None  # noqa: SIM401 (a WTForms form has no .get)
        # A problem with a field this page does not show goes to the top of the form, never out of sight.
        return field if field is not None and self.shown(field) else None

    def ask_what_the_count_cannot_tell(self, hand: rules.Hand) -> bool:
        """Classic: red 3s count for a side that melded, against one that didn't. With no canasta and a
        Count of 0 or less the sheet can't tell, so the scorekeeper must say; True if something was asked."""
        asked = False
        for side, entry, name in zip(self.sides, hand.sides, (s.name for s in self.table.sides), strict=False):
            if rules.melding_unclear(self.rules, entry):
                side.has_melded.errors = list(side.has_melded.errors) + [
                    Message(
                        "Did {name} meld anything this hand? Say Yes or No: it decides whether the red 3s "
                        "count for or against.",
                        name=name,
                    )
                ]
                asked = True
        return asked

    def add_problems(self, problems: Sequence[Problem]) -> None:
        """Show the rules' problems beside their fields and the rest at the top of the form."""
        self.errors += attach_problems(problems, self.field_for)

    def everyday_fields(self, side: SideForm) -> list:
        """The side's entries shown first, in the order of a paper scoresheet."""
        return [side[name] for name in EVERYDAY_ENTRIES if self.shown(side[name])]

    def rare_fields(self, side: SideForm) -> list:
        """The side's entries under "More": those the game has beyond the everyday ones."""
        return [side[name] for name in RARE_ENTRIES if self.shown(side[name])]

    def hint(self, name: str) -> str:
        """What an entry is worth in this game, in brackets beside its label ("" where it says nothing)."""
        value = HINTED.get(name)
        worth = value.sign * getattr(self.rules.values, value.key) if value else 0
        if not worth:
            return ""
        sign = "+" if worth > 0 else MINUS
        if name in rules.INT_FIELDS:
            return Message("({sign}{worth:,} each)", sign=sign, worth=abs(worth))
        return Message("({sign}{worth:,})", sign=sign, worth=abs(worth))

    def limit(self, side_index: int, name: str) -> int | None:
        """The most a stepper may show: 3s of a colour the pack holds, dirty players the side has."""
        if name in ("red_threes", "black_threes", "red_threes_in_hand"):
            return self.table.pack.threes_of_a_colour
        if name in ("dirty_sevens", "dirty_aces"):
            return len(self.table.sides[side_index].players)
        return None

    def summary(self, side_index: int) -> list[str]:
        """What is set under the side's "More", in words: shown beside it so nothing set is hidden."""
        side, said = self.sides[side_index], []
        for field in self.rare_fields(side):  # switches and whole numbers (RARE_ENTRIES)
            if field.type == "BooleanField":
                if field.data:
                    said.append(field.label.text)
            elif field.short_name == "reported_base":
                if field.data is not None:
                    base = signed(field.data, side.reported_base_sign.data)
                    said.append(Message("{label}: {value}", label=field.label.text, value=Points(base)))
            elif field.data:
                said.append(Message("{label}: {value}", label=field.label.text, value=field.data))
        if side_index == self.cutter_side and self.perfect_cut.data and self.rules.perfect_cut:
            said.append(self.perfect_cut.label.text)
        return said

    def has_hidden_errors(self, side_index: int) -> bool:
        """Whether something under the side's "More" has a problem (the section then opens)."""
        side = self.sides[side_index]
        in_more = any(field.errors for field in self.rare_fields(side))
        return in_more or (side_index == self.cutter_side and bool(self.perfect_cut.errors))

    def problems(self) -> list[str]:
        """Every problem on the form once, for the bar beside Save."""
        said: list[str] = []
        fields = [field for side in self.sides for field in side] + [self.perfect_cut]
        for message in self.errors + [m for field in fields for m in field.errors]:
            if message not in said:
                said.append(message)
        return said

    def shown(self, field: Field) -> bool:
        """Whether the page shows this side field for the game's preset (and so has a slot for its errors)."""
        name = field.short_name
        if name.endswith("_black_threes"):  # a card in the counting grid only where 3s are not exposed
            return not self.rules.modern
        if name in ("count_mode", "count_sign", "reported_base_sign"):
            return False
        return self.rules.has(name)

    def is_blank(self, hand: dict | None = None) -> bool:
        """Whether nothing at all was entered for any side (a tap on Save too early). `hand`: the form's hand_json,
        if it was read already."""

        def blank(entry: dict) -> bool:
            cards = entry.get("cards", {})
            rest = {k: v for k, v in entry.items() if k not in ("count", "cards")}
            return not rest and not entry.get("count") and not any(cards.get(w) for w in ("melded", "in_hand"))

        entries = (hand or self.hand_json())["sides"]
        return not self.perfect_cut.data and all(blank(entry) for entry in entries)

    def page_errors(self) -> list[str]:
        """What the top of a refused form says: the problems with the whole hand, or which entries to fix."""
        if self.errors or not self.has_errors:
            return self.errors
        places: list[str] = [
            Message("{side}: {label}", side=side_name, label=field.label.text)
            for side_name, side in zip((s.name for s in self.table.sides), self.sides, strict=False)
            for field in side
            if field.errors
        ]
        if self.perfect_cut.errors:
            places.append(rules.FIELD_LABELS["perfect_cut"])
        # Each place said in the page's language (web.translated puts a Message value in translated).
        joined = Message(
            PLACES_APART.join(f"{{p{n}}}" for n in range(len(places))), **{f"p{n}": p for n, p in enumerate(places)}
        )
        return [Message("Check the entries marked in red below ({places}).", places=joined)]

    def in_question(self, side_index: int) -> bool:
        """Whether a problem is marked on this side's entries (its figures can't be told until it is fixed)."""
        return any(field.errors for field in self.sides[side_index])

    @property
    def has_errors(self) -> bool:
        """Whether anything on the form has a problem."""
        return bool(self.errors) or any(side.errors for side in self.sides) or bool(self.perfect_cut.errors)


# --- A new game --------------------------------------------------------------------

TABLE_CHOICES = choices(
    [
        ("4", Message("Two partnerships (4 players)")),
        ("2", Message("Two players")),
        ("6", Message("Three partnerships (6 players, classic only)")),
    ]
)
TIE_CHOICES = choices(
    [
        ("play_on", Message("Play another hand")),
        ("shared", Message("Share the win")),
        ("went_out", Message("The side that went out wins")),
    ]
)
COUNT_WITHOUT_CANASTA_CHOICES = choices(
    [
        ("negative", Message("Every card counts against it")),
        ("melded_minus_hand", Message("Melded minus in hand, as usual")),
    ]
)
MOST_BANDS = 5  # rows of the Minimum Count table the page offers
THREES_LABELS = (
    Message("No 3s of a colour"),
    Message("One 3 of a colour"),
    Message("Two 3s of a colour"),
    Message("Three 3s of a colour"),
    Message("All four 3s of a colour"),
)

# What each table rule means, in a short line under its field: each value's hint is the catalogue's.
RULE_HINTS = {
    **{f"value_{value.key}": value.hint for value in rules.CATALOGUE},
    "canastas_to_go_out": Message("Closed canastas a side needs before it may go out."),
    "all_eight_threes": Message("All four red and all four black 3s together. 0: each colour counts on its own."),
    "red_each": Message("A red 3 put down: for a side that melded, against one that didn't."),
    "red_all_four": Message("All four red 3s (two decks) score this instead."),
    "red_five": Message("Five red 3s (three decks) score this instead."),
    "red_six": Message("All six red 3s (three decks) score this instead."),
    "target": Message("The game ends when a side reaches this."),
    "tie": Message("When sides end level on or above the target, or after the last hand of a fixed number."),
    "hands_per_game": Message(
        "Blank: play to the target. Club nights play 3 hands: the game ends after the last one, "
        "or sooner when a side reaches the target, and the higher total wins."
    ),
    "minimum_counts_by_hand": Message(
        "Blank: by the score, as the bands below say. Club nights: 125 / 155 / 180, the same "
        "for every side; the last one stands for any later hand."
    ),
    "count_without_canasta": Message(
        "From the counting grid. Every card against it: its melded cards are taken off "
        "too, not added (modern). As usual: melded minus in hand, canasta or not (classic)."
    ),
}


class NewGameForm(Form):
    """Preset, table, players, first dealer and the table rules of a new game."""

    preset = RadioField(
        Message("Rules"), choices=choices((key, p.name) for key, p in rules.PRESETS.items()), default="modern"
    )
    players = RadioField(Message("Players"), choices=TABLE_CHOICES, default="4")
    # The names a new game's sides start with, in the page's language (a Message, shown through web.translated): the
    # scorekeeper types their own or keeps these, and the game keeps them as posted.
    side0_name = StringField(Message("Side 1 name"), default=Message("Us"))
    side1_name = StringField(Message("Side 2 name"), default=Message("Them"))
    side2_name = StringField(Message("Side 3 name"), default=Message("Others"))
    player0_0 = StringField(Message("Player 1 of side 1"))
    player0_1 = StringField(Message("Player 2 of side 1"))
    player1_0 = StringField(Message("Player 1 of side 2"))
    player1_1 = StringField(Message("Player 2 of side 2"))
    player2_0 = StringField(Message("Player 1 of side 3"))
    player2_1 = StringField(Message("Player 2 of side 3"))
    first_dealer = SelectField(Message("First dealer"), coerce=int, default=0, validate_choice=False)
    target = WholeNumber(Message("Points to win"), minimum=5)
    tie = SelectField(Message("When sides tie"), choices=TIE_CHOICES, default=None)
    # A game of a fixed number of hands (club nights): blank plays to the target, and the bands.
    hands_per_game = WholeNumber(Message("Number of hands"), minimum=None, example="3")
    minimum_counts_by_hand = MinimumCountsByHand(Message("Minimum Counts by hand"))
    count_without_canasta = SelectField(
        Message("The Count of a side with no canasta"), choices=COUNT_WITHOUT_CANASTA_CHOICES, default=None
    )
    canastas_to_go_out = WholeNumber(Message("Canastas needed to go out"), minimum=None, example="2")
    all_eight_threes = WholeNumber(Message("All eight 3s"), minimum=None, example="3000")
    wipeout = BooleanField(Message("Wipeout: a special hand leaves the other side 0"))
    perfect_cut = BooleanField(Message("Perfect cut bonus for the cutter's side"))
    # Rules saved on this phone (rulesets.py): the set to start from, and the name to save the rules under.
    rule_set = SelectField(Message("Or start from rules saved on this phone"), default="", validate_choice=False)
    rule_set_name = StringField(Message("Save these rules as"))
    # A game moved in from paper mid-way: each side's total so far (blank: 0).
    brought_forward0 = WholeNumber(Message("Side 1's total brought forward"), minimum=None, example="3000")
    brought_forward1 = WholeNumber(Message("Side 2's total brought forward"), minimum=None, example="1500")
    brought_forward2 = WholeNumber(Message("Side 3's total brought forward"), minimum=None, example="1500")

    def brought_forward_fields(self) -> list:
        """The totals brought forward from paper, one field for each side at the chosen table."""
        return [self[f"brought_forward{i}"] for i in range(self.side_count())]

    def side_count(self) -> int:
        """How many sides the chosen table has."""
        return 3 if self.players.data == "6" else 2

    def players_per_side(self) -> int:
        """How many players each side has at the chosen table."""
        return 1 if self.players.data == "2" else 2

    def seats(self) -> list[dict]:
        """Who sits in each seat, clockwise, one player from each side in turn: side, player and label."""
        seats = []
        for j in range(self.players_per_side()):
            for i in range(self.side_count()):
                player = (self[f"player{i}_{j}"].data or "").strip() or Message(
                    "Player {player} of side {side}", player=j + 1, side=i + 1
                )
                side = (self[f"side{i}_name"].data or "").strip() or Message("Side {side}", side=i + 1)
                seats.append({"side": i, "player": j, "label": Message("{player} ({side})", player=player, side=side)})
        return seats

    @property
    def chosen_preset(self) -> rules.Preset:
        """The preset chosen (modern for one this app doesn't know: the rules will say so)."""
        return rules.PRESETS.get(self.preset.data) or rules.PRESETS["modern"]

    def apply_preset(self, only_unset: bool) -> None:
        """Fill the table rules from the chosen preset (all of them, or only the ones not given: a blank
        value is the preset's)."""
        self.fill_rules(self.chosen_preset.rules, only_unset)

    def apply_rule_set(self, game_rules: rules.Rules) -> None:
        """Fill every table rule, the preset included, from complete rules (a set saved on this phone)."""
        self.preset.data = game_rules.preset
        self.fill_rules(game_rules, only_unset=False)

    def fill_rules(self, source: rules.Rules, only_unset: bool) -> None:
        """Fill the table rules from complete rules (all of them, or only the ones not given: a blank value is
        theirs). Rules the page doesn't show for the chosen preset's family are filled too, so they travel."""

        def fill(field: Field, value: object) -> None:
            if not only_unset or field.data is None:
                field.data = value

        fill(self.target, source.target)
        fill(self.tie, source.tie)
        fill(self.count_without_canasta, source.count_without_canasta)
        fill(self.canastas_to_go_out, source.canastas_to_go_out)
        fill(self.all_eight_threes, source.all_eight_threes or 0)
        if not only_unset:  # blank means none: a blank field is the table's choice, not the preset's
            self.hands_per_game.data = source.hands_per_game
            by_hand = source.minimum_counts_by_hand
            self.minimum_counts_by_hand.data = None if by_hand is None else list(by_hand)
            self.minimum_counts_by_hand.raw_data = []  # shown as the rules say, not as typed before
        for key in rules.VALUE_KEYS:
            fill(self[f"value_{key}"], getattr(source.values, key))
        for key in rules.RED_THREE_KEYS:
            fill(self[f"red_{key}"], getattr(source.red_threes, key))
        for n, points in enumerate(source.threes):
            fill(self[f"three_{n}"], points)
        # A blank row of the Minimum Counts is a band the table doesn't have; one not sent at all is the source's.
        bands = list(source.minimum_counts)[:MOST_BANDS]
        for i, (start, minimum) in enumerate(self.band_rows()):
            band = bands[i] if i < len(bands) else None
            for field, value in ((start, band.start if band else None), (minimum, band.minimum if band else None)):
                if field is not None and (not only_unset or not field.raw_data):
                    field.data = value
        if not only_unset:
            self.wipeout.data = source.wipeout
            self.perfect_cut.data = source.perfect_cut
            hands = dict(source.special_hands)
            for key in rules.SPECIAL_HAND_NAMES:
                self[f"hand_{key}"].data = key in hands
                self[f"hand_{key}_points"].data = hands.get(key)

    def special_hand_fields(self) -> list[tuple[str, Field, Field]]:
        """(key, switch field, points field) for the catalogue of special hands."""
        return [(key, self[f"hand_{key}"], self[f"hand_{key}_points"]) for key in rules.SPECIAL_HAND_NAMES]

    def band_rows(self) -> list[tuple]:
        """The Minimum Count table's rows: (from field or None for the first row, minimum field)."""
        return [(self[f"band{i}_from"] if i else None, self[f"band{i}_minimum"]) for i in range(MOST_BANDS)]

    def band_fields_flat(self) -> list:
        """Every field of the Minimum Count table."""
        return [field for row in self.band_rows() for field in row if field is not None]

    def rule_groups(self) -> list[dict]:
        """The table rules as a player thinks of them, for the chosen preset's family: each group's id, title
        and fields (numbers, the tie select, switches). Each group's values are the catalogue's, for the family;
        the Minimum Counts and special hands have their own layout on the page."""
        modern = self.chosen_preset.modern
        family = ("all", "modern" if modern else "classic")
        threes = (
            [f"three_{n}" for n in range(5)] + ["all_eight_threes"]
            if modern
            else [f"red_{key}" for key in rules.RED_THREE_KEYS]
        )
        # The rules that are not values, before and after each group's values.
        before = {"threes": threes, "end_of_game": ["tie", "perfect_cut"]}
        after = {
            "canastas": ["count_without_canasta"],  # a side's canastas decide how its Count is made
            "going_out": ["canastas_to_go_out"],
            "end_of_game": ["wipeout"] if modern else [],
        }
        groups = []
        for key, title in rules.GROUPS:
            values = [f"value_{v.key}" for v in rules.CATALOGUE if v.group == key and v.family in family]
            names = before.get(key, []) + values + after.get(key, [])
            groups.append({"id": key, "title": title, "fields": [self[name] for name in names]})
        return groups

    @staticmethod
    def hint(field: Field) -> str:
        """What a table rule means, in a short line ("" where its label says it all)."""
        return RULE_HINTS.get(field.short_name, "")

    def document_json(self) -> dict:
        """The game document this form describes (no hands yet): the rules are the whole table's, and the
        rules judge them (make_rules)."""
        sides = []
        for i in range(self.side_count()):
            sides.append(
                {
                    "name": (self[f"side{i}_name"].data or "").strip(),
                    "players": [(self[f"player{i}_{j}"].data or "").strip() for j in range(self.players_per_side())],
                }
            )
        modern = rules.PRESETS[self.preset.data].modern
        game_rules: dict[str, Any] = {
            "preset": self.preset.data,
            "target": self.target.data,
            "tie": self.tie.data,
            "minimum_counts": [{"from": start, "minimum": minimum} for _, start, minimum in self._bands()],
            "canastas_to_go_out": self.canastas_to_go_out.data,
            "count_without_canasta": self.count_without_canasta.data,
            "values": {key: self[f"value_{key}"].data for key in rules.VALUE_KEYS},
            "wipeout": self.wipeout.data,
            "perfect_cut": self.perfect_cut.data,
            # Both families' 3s: the ones the page doesn't show are the starting rules' (fill_rules), kept as they were.
            "threes": [self[f"three_{n}"].data for n in range(5)],
            "red_threes": {key: self[f"red_{key}"].data for key in rules.RED_THREE_KEYS},
            "hands_per_game": self.hands_per_game.data,
            "minimum_counts_by_hand": self.minimum_counts_by_hand.data,
        }
        if modern:
            game_rules["all_eight_threes"] = self.all_eight_threes.data or None  # 0: the colours count apart
            game_rules["special_hands"] = {
                key: points.data for key, switch, points in self.special_hand_fields() if switch.data
            }
        return {
            "format": document.FORMAT,
            "version": document.VERSION,
            "rules": game_rules,
            "sides": sides,
            "first_dealer": self.first_dealer.data or 0,
            **self._brought_forward_json(),
            "hands": [],
        }

    def _brought_forward_json(self) -> dict:
        """The totals brought forward, when any side has one (a blank counts 0)."""
        totals = [field.data or 0 for field in self.brought_forward_fields()]
        return {"brought_forward": totals} if any(totals) else {}

    def _bands(self) -> list[tuple[int, int | None, int | None]]:
        """The Minimum Count rows filled in: (row on the page, from, minimum); blank rows are left out."""
        return [
            (i, start.data if start is not None else None, minimum.data)
            for i, (start, minimum) in enumerate(self.band_rows())
            if i == 0 or start.data is not None or minimum.data is not None
        ]

    def field_for(self, path: tuple) -> Field | None:
        """The form field a problem path names."""
        if path[:1] == ("rules",) and len(path) >= 2:
            if path[1] == "special_hands" and len(path) == 3:
                return self[f"hand_{path[2]}_points"]
            if path[1] in ("values", "red_threes", "threes") and len(path) == 3:
                name = {"values": "value", "red_threes": "red", "threes": "three"}[path[1]] + f"_{path[2]}"
                return self._fields.get(name)
            if path[1] == "minimum_counts":
                return self._band_field(path[2:])
            if path[1] == "minimum_counts_by_hand":
                return self.minimum_counts_by_hand
            return self[path[1]] if path[1] in self and path[1] not in ("values", "red_threes", "threes") else None
        if path[:1] == ("sides",) and len(path) >= 3:
            if path[2] == "name":
                return self[f"side{path[1]}_name"]
            if path[2] == "players" and len(path) == 4:
                return self[f"player{path[1]}_{path[3]}"]
        if path == ("first_dealer",):
            return self.first_dealer
        if path[:1] == ("brought_forward",):
            return self._fields.get(f"brought_forward{path[1] if len(path) > 1 else 0}")
        return None

    def _band_field(self, path: tuple) -> Field:
        """The Minimum Count field a path inside "minimum_counts" names: (band, "from" or "minimum")."""
        bands = self._bands()
        if not path or not isinstance(path[0], int) or not 0 <= path[0] < len(bands):
            return self["band0_minimum"]
        row = bands[path[0]][0]
        if len(path) > 1 and path[1] == "from" and row:
            return self[f"band{row}_from"]
        return self[f"band{row}_minimum"]

    def group_has_errors(self, fields: Iterable[Field | None]) -> bool:
        """Whether a group of the table rules holds an error (its section then opens)."""
        return any(field.errors for field in fields if field is not None)


for _key in rules.SPECIAL_HAND_NAMES:
    setattr(NewGameForm, f"hand_{_key}", BooleanField(rules.SPECIAL_HAND_NAMES[_key]))
    setattr(
        NewGameForm,
        f"hand_{_key}_points",
        WholeNumber(Message("{name} points", name=rules.SPECIAL_HAND_NAMES[_key]), minimum=5),
    )
for _key in rules.VALUE_KEYS:
    setattr(NewGameForm, f"value_{_key}", WholeNumber(rules.VALUE_LABELS[_key], minimum=None, example="500"))
for _key in rules.RED_THREE_KEYS:
    setattr(NewGameForm, f"red_{_key}", WholeNumber(rules.VALUE_LABELS[_key], minimum=None, example="100"))
for _n, _label in enumerate(THREES_LABELS):
    setattr(NewGameForm, f"three_{_n}", WholeNumber(_label, minimum=None, example="100"))
for _i in range(MOST_BANDS):
    if _i:
        setattr(
            NewGameForm,
            f"band{_i}_from",
            WholeNumber(Message("Band {number}: from this score", number=_i + 1), minimum=None, example="3000"),
        )
    setattr(
        NewGameForm,
        f"band{_i}_minimum",
        WholeNumber(
            Message("Band {number}: Minimum Count", number=_i + 1)
            if _i
            else Message("Band 1 (any lower score): Minimum Count"),
            minimum=None,
            example="125",
        ),
    )
del _key, _n, _label, _i
