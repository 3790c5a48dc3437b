"""What a side reports after a hand (SideEntry, the counting grid), a hand, the table and the pack."""

from __future__ import annotations

from dataclasses import dataclass, fields

from .errors import Message

CARD_POINTS = {"jokers": 50, "deuces": 20, "aces": 20, "high": 10, "low": 5, "black_threes": 5}
# The rows of the counting grid, as the sheet labels them.
CARD_LABELS = {
    "jokers": Message("Jokers"),
    "deuces": Message("2s"),
    "aces": Message("Aces"),
    "high": Message("8 to K"),
    "low": Message("4 to 7"),
    "black_threes": Message("Black 3s"),
}


@dataclass(frozen=True)
class Pack:
    """How many of each card the decks in play hold."""

    decks: int

    @property
    def jokers(self) -> int:
        """Jokers in the pack (two per deck)."""
        return 2 * self.decks

    def of_rank(self) -> int:
        """Cards of any one rank (4 per deck)."""
        return 4 * self.decks

    @property
    def wild_cards(self) -> int:
        """Jokers and 2s."""
        return self.jokers + self.of_rank()

    @property
    def threes_of_a_colour(self) -> int:
        """Red (or black) 3s in the pack."""
        return 2 * self.decks

    def grid_limit(self, kind: str) -> int:
        """How many cards of one kind of the counting grid the pack holds."""
        return {
            "jokers": self.jokers,
            "deuces": self.of_rank(),
            "aces": self.of_rank(),
            "high": 6 * self.of_rank(),
            "low": 4 * self.of_rank(),
            "black_threes": self.threes_of_a_colour,
        }[kind]

    def points(self, black_threes_count: bool) -> int:
        """Card points of the whole pack (black 3s count only in classic)."""
        kinds = [k for k in CARD_POINTS if black_threes_count or k != "black_threes"]
        return sum(self.grid_limit(k) * CARD_POINTS[k] for k in kinds)


# --- Inputs -------------------------------------------------------------------


@dataclass(frozen=True)
class CardCounts:
    """How many cards of each kind: jokers, 2s, aces, 8-K (high), 4-7 (low), black 3s."""

    jokers: int = 0
    deuces: int = 0
    aces: int = 0
    high: int = 0
    low: int = 0
    black_threes: int = 0

    def points(self) -> int:
        """Card points of these cards."""
        return sum(getattr(self, kind) * value for kind, value in CARD_POINTS.items())


@dataclass(frozen=True)
class Cards:
    """The counting grid of one side: cards melded and cards left in hand."""

    melded: CardCounts = CardCounts()
    in_hand: CardCounts = CardCounts()


@dataclass(frozen=True)
class SideEntry:
    """What one side reports after a hand; field names as in GAME_FORMAT.md."""

    red_threes: int = 0
    black_threes: int = 0
    natural_canastas: int = 0
    mixed_canastas: int = 0
    sevens_canasta: bool = False
    aces_canasta: bool = False
    wild_canasta: str | None = None
    incomplete_sevens: bool = False
    incomplete_aces: bool = False
    incomplete_wild: bool = False
    dirty_sevens: int = 0
    dirty_aces: int = 0
    threes_in_hand: int = 0
    last_draw_three: bool = False
    went_out: bool = False
    concealed: bool = False
    perfect_cut: bool = False
    special_hand: str | None = None
    has_melded: bool | None = None
    red_threes_in_hand: int = 0
    failed_go_out_asks: int = 0
    failed_pile_takes: int = 0
    reported_base: int | None = None  # the paper way: the side's Base as the table reports it
    count: int | None = None
    cards: Cards | None = None

    @property
    def canastas(self) -> int:
        """Closed canastas of every kind, special ones included."""
        return (
            self.natural_canastas
            + self.mixed_canastas
            + int(self.sevens_canasta)
            + int(self.aces_canasta)
            + int(self.wild_canasta is not None)
        )

    @property
    def special_canastas(self) -> int:
        """Closed sevens, pure-aces and wild-card canastas."""
        return int(self.sevens_canasta) + int(self.aces_canasta) + int(self.wild_canasta is not None)

    def entered_fields(self) -> list[str]:
        """The names of the fields that hold something other than their default."""
        return [f.name for f in fields(self) if getattr(self, f.name) != f.default]


SIDE_FIELDS = tuple(f.name for f in fields(SideEntry))
INT_FIELDS = tuple(f.name for f in fields(SideEntry) if f.type == "int")
BOOL_FIELDS = tuple(f.name for f in fields(SideEntry) if f.type == "bool")
CARD_KINDS = tuple(f.name for f in fields(CardCounts))
# Whole numbers that may be negative and are not counted entries: the Count and a reported Base.
FIGURE_FIELDS = ("reported_base", "count")
# What a side reporting its own Base may still give: the Count (as a number or a grid).
WITH_REPORTED_BASE = ("reported_base", "count", "cards")

FIELD_LABELS = {
    "red_threes": Message("Red 3s"),
    "black_threes": Message("Black 3s"),
    "natural_canastas": Message("Natural canastas"),
    "mixed_canastas": Message("Mixed canastas"),
    "sevens_canasta": Message("Sevens canasta"),
    "aces_canasta": Message("Pure aces canasta"),
    "wild_canasta": Message("Wild-card canasta"),
    "incomplete_sevens": Message("Unfinished sevens"),
    "incomplete_aces": Message("Unfinished aces"),
    "incomplete_wild": Message("Unfinished wild cards"),
    "dirty_sevens": Message("Players dirty with 7s"),
    "dirty_aces": Message("Players dirty with aces"),
    "threes_in_hand": Message("3s left in hand"),
    "last_draw_three": Message("One was the last card of the stock"),
    "went_out": Message("Went out"),
    "concealed": Message("Concealed (all in one turn)"),
    "perfect_cut": Message("Perfect cut"),
    "special_hand": Message("Special hand"),
    "has_melded": Message("Melded this hand"),
    "red_threes_in_hand": Message("Red 3s left in hand"),
    "failed_go_out_asks": Message("Asked to go out, then didn't"),
    "failed_pile_takes": Message("Took the pile, couldn't use the top card"),
    "count": Message("Count"),
    "cards": Message("Counting grid"),
    "reported_base": Message("Base as reported"),
}


# Asked to go out then didn't, took the pile and couldn't use the top card: more in one hand is a typing slip.
MOST_TIMES = 50


def most_of(name: str, pack: Pack, players: int) -> int:
    """The most of an entry one side can have in one hand (a switch: 1), as the pack and its players allow."""
    return {
        "dirty_sevens": players,
        "dirty_aces": players,
        "threes_in_hand": 2 * pack.threes_of_a_colour,
        "red_threes_in_hand": pack.threes_of_a_colour,
        "failed_go_out_asks": MOST_TIMES,
        "failed_pile_takes": MOST_TIMES,
    }.get(name, 1)


@dataclass(frozen=True)
class Hand:
    """One hand: an entry per side, in side order."""

    sides: tuple[SideEntry, ...]


@dataclass(frozen=True)
class Side:
    """A side (partnership or single player) and its players in seat order."""

    name: str
    players: tuple[str, ...]


@dataclass(frozen=True)
class Table:
    """The sides at the table and who deals first; seats go clockwise, one player from each side in turn."""

    sides: tuple[Side, ...]
    first_dealer: int = 0
    # Each side's total carried over from a paper sheet when the game moves in mid-way (empty: none): the running
    # totals, the Minimum Counts and the end of the game count from it.
    brought_forward: tuple[int, ...] = ()

    @property
    def start_totals(self) -> tuple[int, ...]:
        """Each side's total before hand 1: what was brought forward, else 0."""
        return self.brought_forward or (0,) * len(self.sides)

    @property
    def seats(self) -> int:
        """How many players sit at the table."""
        return sum(len(side.players) for side in self.sides)

    def side_of_seat(self, seat: int) -> int:
        """The side of the player in this seat."""
        return seat % len(self.sides)

    def player_of_seat(self, seat: int) -> str:
        """The name of the player in this seat."""
        return self.sides[seat % len(self.sides)].players[seat // len(self.sides)]

    def dealer(self, hand_index: int) -> int:
        """The seat that deals hand `hand_index` (0-based): the deal passes clockwise."""
        return (self.first_dealer + hand_index) % self.seats

    def cutter(self, hand_index: int) -> int:
        """The seat on the dealer's right: the player who cuts and may earn the perfect cut."""
        return (self.dealer(hand_index) - 1) % self.seats

    def cutter_side(self, hand_index: int) -> int:
        """The side of the cutter."""
        return self.side_of_seat(self.cutter(hand_index))

    @property
    def pack(self) -> Pack:
        """The decks in play: three for three sides, else two."""
        return Pack(decks=3 if len(self.sides) == 3 else 2)
