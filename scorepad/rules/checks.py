"""What the sheet refuses (docs/rules.md section 5): every check, each citing its rule."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from .catalogue import PRICED, WILD_CANASTA_KINDS, WILD_CANASTA_NAMES, special_hand_name
from .entries import (
    CARD_KINDS,
    CARD_LABELS,
    FIELD_LABELS,
    INT_FIELDS,
    MOST_TIMES,
    WITH_REPORTED_BASE,
    Hand,
    Pack,
    SideEntry,
    Table,
    most_of,
)
from .errors import Message, Points, Problem, RuleError
from .scoring import classic_red_threes, counted, side_count
from .table import Rules, Values, is_whole_number

# §5.15: no number a side enters for one hand comes near this; the checks below give the precise limit under
# it, and refusing it first keeps absurd numbers (JSON allows thousands of digits) out of the sums.
LARGEST_ENTRY = 100_000


def entry_number_problem(value: object, label: str) -> str | None:
    """§5.15: what is wrong with a number a side entered (None: nothing): a whole number, at most 100,000
    either way."""
    if not is_whole_number(value):
        return Message("{label}: enter a whole number.", label=label)
    assert isinstance(value, int)
    if abs(value) > LARGEST_ENTRY:
        return Message("{label}: that number is far too big for one hand.", label=label)
    return None


def check_table(rules: Rules, table: Table) -> None:
    """Refuse a table the preset cannot seat, or a first dealer who is not at it."""
    problems = []
    sizes = {len(side.players) for side in table.sides}
    n = len(table.sides)
    if n == 3 and rules.modern:
        problems.append(Problem(("sides",), Message("Three sides play only in classic canasta.")))
    elif n == 3 and sizes != {2}:
        problems.append(Problem(("sides",), Message("Three sides play as three partnerships of two.")))
    elif n not in (2, 3):
        problems.append(Problem(("sides",), Message("A game has two sides (or three in classic canasta).")))
    elif n == 2 and (len(sizes) != 1 or not sizes <= {1, 2}):
        problems.append(Problem(("sides",), Message("Play two partnerships of two, or two single players.")))
    for i, side in enumerate(table.sides):
        if not isinstance(side.name, str) or not side.name.strip():
            problems.append(Problem(("sides", i, "name"), Message("Give each side a name.")))
        for j, player in enumerate(side.players):
            if not isinstance(player, str) or not player.strip():
                problems.append(Problem(("sides", i, "players", j), Message("Give each player a name.")))
    if not problems and not (is_whole_number(table.first_dealer) and 0 <= table.first_dealer < table.seats):
        last = table.seats - 1
        problems.append(
            Problem(("first_dealer",), Message("The first dealer must be a seat from 0 to {last}.", last=last))
        )
    if not problems:
        problems += brought_forward_problems(rules, table)
    if problems:
        raise RuleError(problems)


# A total brought forward below this is no game anyone played: far past any side's worst evening.
LOWEST_BROUGHT_FORWARD = -100_000


def brought_forward_problems(rules: Rules, table: Table) -> list[Problem]:
    """Totals brought forward from paper: one per side, in 5s, not absurdly low, and short of the target (a side
    already there has finished the game on paper)."""
    if not table.brought_forward:
        return []
    if len(table.brought_forward) != len(table.sides):
        return [
            Problem(
                ("brought_forward",),
                Message("Give one total brought forward for each of the {sides} sides.", sides=len(table.sides)),
            )
        ]
    problems = []
    for i, total in enumerate(table.brought_forward):
        path, name = ("brought_forward", i), table.sides[i].name
        if not is_whole_number(total):
            problems.append(
                Problem(path, Message("{name}'s total brought forward: enter a whole number of points.", name=name))
            )
        elif total % 5:
            problems.append(
                Problem(
                    path,
                    Message(
                        "{name}'s total brought forward is {total:,}: canasta scores go in 5s, like {like:,}.",
                        name=name,
                        total=total,
                        like=total - total % 5,
                    ),
                )
            )
        elif total < LOWEST_BROUGHT_FORWARD:
            problems.append(
                Problem(
                    path,
                    Message(
                        "{name}'s total brought forward is {total:,}: that is far too low for a game.",
                        name=name,
                        total=total,
                    ),
                )
            )
        elif total >= rules.target:
            problems.append(
                Problem(
                    path,
                    Message(
                        "{name}'s total brought forward is {total:,}, at or past the target of {target:,}: "
                        "that game is already over.",
                        name=name,
                        total=total,
                        target=rules.target,
                    ),
                )
            )
    return problems


# --- Checks (docs/rules.md section 5) ---------------------------------------------
#
# Each check enforces one rule of docs/rules.md section 5 and says which. A side check yields
# (field, message) for one side's entry; a hand check yields (message, fields involved) for what
# only shows across the sides, the fields being (side, field) pairs so a page can mark each of them.


@dataclass(frozen=True)
class _Side:
    """What a side check looks at: the game, the table, which side and its entry for this hand."""

    rules: Rules
    table: Table
    index: int
    entry: SideEntry
    hand_index: int

    @property
    def values(self) -> Values:
        return self.rules.values

    @property
    def pack(self) -> Pack:
        return self.table.pack


SideFinding = tuple  # (field name or path under the side, message)
HandFinding = tuple  # (message, ((side, field name), ...))
SideCheck = Callable[["_Side"], Iterator[SideFinding]]


def _only_what_the_game_has(s: _Side) -> Iterator[SideFinding]:
    """§5.10: an entry the game's rules do not have (black 3s, special canastas or hands in classic)."""
    for name in s.entry.entered_fields():
        if name != "perfect_cut" and not s.rules.has(name):  # the perfect cut says why in its own check
            yield (
                name,
                Message(
                    "{label}: not part of this game's rules ({preset}).", label=_label(name), preset=s.rules.preset_name
                ),
            )


def _numbers_in_range(s: _Side) -> Iterator[SideFinding]:
    """§5.1: 3s of a colour 0 to what the pack holds, nothing negative, no more dirty players than players."""
    max_threes = s.pack.threes_of_a_colour
    for name in ("red_threes", "black_threes"):
        if not 0 <= getattr(s.entry, name) <= max_threes:
            yield name, Message("{label}: a side can have 0 to {most}.", label=_label(name), most=max_threes)
    for name in INT_FIELDS:
        if name not in ("red_threes", "black_threes") and getattr(s.entry, name) < 0:
            yield name, Message("{label}: can't be negative.", label=_label(name))
    players = len(s.table.sides[s.index].players)
    for name in ("dirty_sevens", "dirty_aces"):
        if getattr(s.entry, name) > players:
            if players == 1:
                yield name, Message("{label}: the side has only 1 player.", label=_label(name))
            else:
                yield (
                    name,
                    Message("{label}: the side has only {players} players.", label=_label(name), players=players),
                )
    for name in ("failed_go_out_asks", "failed_pile_takes"):
        if getattr(s.entry, name) > MOST_TIMES:
            yield name, Message("{label}: more than 50 in one hand? Check the number.", label=_label(name))
    if s.entry.red_threes_in_hand > s.pack.threes_of_a_colour:
        yield (
            "red_threes_in_hand",
            Message("Red 3s left in hand: there are only {held} in the pack.", held=s.pack.threes_of_a_colour),
        )


def _known_wild_canasta(s: _Side) -> Iterator[SideFinding]:
    """§5.10: a wild-card canasta is one of the three kinds the rules know."""
    kind = s.entry.wild_canasta
    if kind is not None and kind not in WILD_CANASTA_KINDS:
        yield "wild_canasta", Message("Wild-card canasta: choose seven 2s, four jokers and three 2s, or another mix.")
    elif kind is not None and s.rules.has("wild_canasta") and not s.values.wild_canasta(kind):
        yield (
            "wild_canasta",
            Message("Wild-card canasta of {kind}: this game doesn't play it.", kind=WILD_CANASTA_NAMES[kind]),
        )


def _last_card_is_a_three_in_hand(s: _Side) -> Iterator[SideFinding]:
    """§5.1: the last card of the stock, when a 3, is one of the 3s left in hand."""
    # Where the game charges the last card but has no 3s left in hand to count it in, it stands alone.
    counted_in_hand = s.rules.has("threes_in_hand") or not s.rules.has("last_draw_three")
    if counted_in_hand and s.entry.last_draw_three and s.entry.threes_in_hand < 1:
        yield "last_draw_three", Message("The last card was a 3 left in hand: count it in 3s left in hand too.")


def _special_meld_closed_or_unfinished(s: _Side) -> Iterator[SideFinding]:
    """§5.5: a side can't claim a special canasta and the same unfinished special meld."""
    for closed, unfinished, message in (
        (
            "sevens_canasta",
            "incomplete_sevens",
            Message("A side with a closed sevens canasta can't also have an unfinished sevens meld."),
        ),
        (
            "aces_canasta",
            "incomplete_aces",
            Message("A side with a closed pure aces canasta can't also have an unfinished pure aces meld."),
        ),
        (
            "wild_canasta",
            "incomplete_wild",
            Message("A side with a closed wild cards canasta can't also have an unfinished wild cards meld."),
        ),
    ):
        if getattr(s.entry, closed) not in (False, None) and getattr(s.entry, unfinished):
            yield unfinished, message


def _special_hand_allowed(s: _Side) -> Iterator[SideFinding]:
    """§5.10: a special hand the game's rules allow."""
    key = s.entry.special_hand
    if key is not None and s.rules.modern and s.rules.special_hand_value(key) is None:
        yield (
            "special_hand",
            Message("{special_hand} is not a special hand allowed in this game.", special_hand=special_hand_name(key)),
        )


def _going_out_needs_canastas(s: _Side) -> Iterator[SideFinding]:
    """§5.4: going out needs the canastas the game asks for, and (modern) no unfinished special meld."""
    entry, need = s.entry, s.rules.canastas_to_go_out
    if entry.went_out and entry.canastas < need:
        if need == 1:
            yield "went_out", Message("Going out needs a closed canasta.")
        elif need == 2:
            yield "went_out", Message("Going out needs two closed canastas.")
        else:
            yield "went_out", Message("Going out needs {need} closed canastas.", need=need)
    if entry.went_out and (entry.incomplete_sevens or entry.incomplete_aces or entry.incomplete_wild):
        yield "went_out", Message("Can't go out with an unfinished sevens, aces or wild-card meld on the table.")


def _melded_is_consistent(s: _Side) -> Iterator[SideFinding]:
    """§4 Red 3s (classic): a side with a canasta, or that went out, has melded."""
    if s.entry.has_melded is False and (s.entry.canastas or s.entry.went_out):
        yield "has_melded", Message("A side with a canasta, or that went out, has melded.")


def _concealed_needs_going_out(s: _Side) -> Iterator[SideFinding]:
    """§5.10: concealed only for a side that went out."""
    if s.entry.concealed and not s.entry.went_out:
        yield "concealed", Message("Concealed is only for a side that went out.")


def _perfect_cut_is_the_cutters(s: _Side) -> Iterator[SideFinding]:
    """§5.9: the perfect cut only where the game plays it, and only on the cutter's side."""
    if not s.entry.perfect_cut:
        return
    if not s.rules.perfect_cut:
        yield "perfect_cut", Message("This game doesn't play the perfect-cut bonus.")
    elif s.table.cutter_side(s.hand_index) != s.index:
        cutter = s.table.sides[s.table.cutter_side(s.hand_index)].name
        yield (
            "perfect_cut",
            Message("Only the cutter's side ({cutter}) can have the perfect cut this hand.", cutter=cutter),
        )


def _counting_grid_fits_the_pack(s: _Side) -> Iterator[SideFinding]:
    """§5.8: a counting grid of whole cards the pack holds; the Count given once, as a number or a grid."""
    if s.entry.cards is None:
        return
    if s.entry.count is not None:
        yield "count", Message("Give the Count as one number or as the counting grid, not both.")
    for where in ("melded", "in_hand"):
        counts = getattr(s.entry.cards, where)
        for kind in CARD_KINDS:
            number, label = getattr(counts, kind), CARD_LABELS[kind]
            if kind == "black_threes" and s.rules.modern and number:
                yield ("cards", where, kind), Message("Black 3s are never melded or counted in modern canasta.")
            elif number < 0:
                yield ("cards", where, kind), Message("{label}: can't be negative.", label=Message(label))
            elif number > s.pack.grid_limit(kind):
                yield (
                    ("cards", where, kind),
                    Message("{label}: the pack has only {most}.", label=Message(label), most=s.pack.grid_limit(kind)),
                )


def _count_is_possible(s: _Side) -> Iterator[SideFinding]:
    """§5.7: a Count in fives, no larger than the pack, and (modern) not above 0 without a canasta."""
    count = side_count(s.rules, s.entry)
    pack_points = s.pack.points(black_threes_count=not s.rules.modern)
    if count % 5:
        yield "count", Message("The Count must be a multiple of 5.")
    elif abs(count) > pack_points:
        yield "count", Message("The Count can't be more than the whole pack's {points:,} points.", points=pack_points)
    elif (
        s.rules.count_without_canasta == "negative"
        and s.entry.canastas == 0
        and count > 0
        and s.entry.reported_base is None
    ):
        yield "count", Message("A side with no canasta counts every card against it: its Count can't be above 0.")


def base_limits(rules: Rules, table: Table, side: int) -> tuple[int, int]:
    """The lowest and highest Base a side could score in one hand in this game: a generous bound for a
    reported Base (every 3, canasta, bonus or penalty the pack and the side's players allow)."""
    values, pack = rules.values, table.pack
    players = len(table.sides[side].players)
    if rules.modern:
        threes = max(rules.all_eight_threes or 0, 2 * max(rules.threes))
    else:
        threes = max(classic_red_threes(rules, table, n) for n in range(pack.threes_of_a_colour + 1))
    canastas = (
        11 * (pack.of_rank() // 4) * max(values.natural_canasta, values.mixed_canasta)
        + values.sevens_canasta
        + values.aces_canasta
        + max(values.wild_canasta(k) for k in WILD_CANASTA_KINDS)
    )
    going_out = max(values.going_out, values.going_out_concealed)
    highest = max(
        threes + canastas + going_out + values.perfect_cut,
        max((points for _, points in rules.special_hands), default=0),
    )
    # Every penalty at its most: the entries it prices as many as the pack and the side's players allow.
    penalties = sum(
        max(0, getattr(values, v.key) - (getattr(values, v.instead_of) if v.instead_of else 0))
        * most_of(v.entry or "", pack, players)
        for v in PRICED
        if v.penalty
    )
    lowest = -(threes + penalties)
    return lowest, highest


def _reported_base_alone(s: _Side) -> Iterator[SideFinding]:
    """§5.12: a Base reported as one figure stands alone (only the Count beside it), in fives, within what
    the pack and the game's values allow."""
    base = s.entry.reported_base
    if base is None:
        return
    others = [name for name in s.entry.entered_fields() if name not in WITH_REPORTED_BASE]
    if others:
        # The labels listed as one value that a page translates label by label (each a Message): "Red 3s, Went out".
        labels = {f"label{i}": _label(name) for i, name in enumerate(others)}
        listing = ", ".join("{" + key + "}" for key in labels)
        listed = Message(listing, **labels)
        yield (
            "reported_base",
            Message(
                "Base as reported: give the side's Base as one figure or as its entries ({listed}), not both.",
                listed=listed,
            ),
        )
    lowest, highest = base_limits(s.rules, s.table, s.index)
    if base % 5:
        yield "reported_base", Message("Base as reported: it must be a multiple of 5.")
    elif not lowest <= base <= highest:
        yield (
            "reported_base",
            Message(
                "Base as reported: in this game a side's Base is between {lowest} and {highest:,}.",
                lowest=Points(lowest),
                highest=highest,
            ),
        )


def _label(name: str) -> Message:
    """A field's label (rules.entries), as a message a page in another language translates with the one it is in."""
    return Message(FIELD_LABELS[name])


# What every side's entry must be, even one that laid down a special hand (its other entries are kept).
SIDE_CHECKS = (_only_what_the_game_has, _numbers_in_range, _known_wild_canasta, _special_hand_allowed)
# What the entries that count must agree on.
CONSISTENCY_CHECKS = (_last_card_is_a_three_in_hand, _special_meld_closed_or_unfinished, _reported_base_alone)
# The entries that make up a Base: checked only for a side that neither laid down a special hand (which
# scores the hand alone) nor reported its Base as one figure (which sets them aside).
ENTRY_CHECKS = (
    _going_out_needs_canastas,
    _melded_is_consistent,
    _concealed_needs_going_out,
    _perfect_cut_is_the_cutters,
)
# The Count: checked for every side but one that laid down a special hand (its Count is 0).
COUNT_CHECKS = (_counting_grid_fits_the_pack, _count_is_possible)


def _side_problems(rules: Rules, table: Table, i: int, entry: SideEntry, hand_index: int) -> list[Problem]:
    """Problems that one side's entry has on its own."""
    side = _Side(rules, table, i, entry, hand_index)
    checks: tuple[SideCheck, ...] = SIDE_CHECKS
    if entry.special_hand is None or not rules.modern:
        checks += CONSISTENCY_CHECKS + (() if entry.reported_base is not None else ENTRY_CHECKS) + COUNT_CHECKS
    return [
        Problem(("sides", i, *((field,) if isinstance(field, str) else field)), message)
        for check in checks
        for field, message in check(side)
    ]


def _sides_with(entries: Sequence[SideEntry], *names: str) -> tuple[tuple[int, str], ...]:
    """(side, field) for each side whose entry holds any of these fields."""
    return tuple(
        (i, name) for i, entry in enumerate(entries) for name in names if getattr(entry, name) not in (0, False, None)
    )


def _threes_fit_the_pack(rules: Rules, table: Table, hand: Hand, hand_index: int) -> Iterator[HandFinding]:
    """§5.2: no more red (or black) 3s across the sides than the pack holds."""
    pack, entries = table.pack, hand.sides
    red = sum(e.red_threes + e.red_threes_in_hand for e in entries)
    black = sum(e.black_threes for e in entries)
    most = pack.threes_of_a_colour
    if red > most:
        yield (
            Message("The sides account for {held} red 3s; the pack has only {most}.", held=red, most=most),
            _sides_with(entries, "red_threes", "red_threes_in_hand"),
        )
    if black > most:
        yield (
            Message("The sides account for {held} black 3s; the pack has only {most}.", held=black, most=most),
            _sides_with(entries, "black_threes"),
        )
    every_three = ("red_threes", "black_threes", "threes_in_hand", "red_threes_in_hand")
    threes = sum(getattr(e, name) for e in entries for name in every_three)
    if threes > 2 * pack.threes_of_a_colour:
        yield (
            Message(
                "The sides account for {held} 3s; the pack has only {most}.",
                held=threes,
                most=2 * pack.threes_of_a_colour,
            ),
            _sides_with(entries, *every_three),
        )


def _one_way_to_end_the_hand(rules: Rules, table: Table, hand: Hand, hand_index: int) -> Iterator[HandFinding]:
    """§5.3: one side goes out, one special hand at most, and never both in one hand."""
    entries = hand.sides
    went_out = _sides_with(entries, "went_out")
    specials = _sides_with(entries, "special_hand")
    if len(went_out) > 1:
        yield Message("Only one side can go out."), went_out
    if len(specials) > 1:
        yield Message("Only one special hand can end a hand."), specials
    if specials and went_out:
        yield Message("Nobody goes out in a hand that ends with a special hand."), specials + went_out


def _one_of_a_kind(rules: Rules, table: Table, hand: Hand, hand_index: int) -> Iterator[HandFinding]:
    """§5.5 and §5.9: one last card of the stock, one perfect cut, each special canasta on one side."""
    for name, message in (
        ("last_draw_three", Message("Only one side can hold the last card of the stock.")),
        ("perfect_cut", Message("Only one side can have the perfect cut.")),
        ("sevens_canasta", Message("Only one side can close a sevens canasta.")),
        ("aces_canasta", Message("Only one side can close a pure aces canasta.")),
        ("wild_canasta", Message("Only one side can close a wild-card canasta.")),
    ):
        sides = _sides_with(hand.sides, name)
        if len(sides) > 1:
            yield message, sides


def _canastas_fit_the_pack(rules: Rules, table: Table, hand: Hand, hand_index: int) -> Iterator[HandFinding]:
    """§5.6: no more natural and mixed canastas than the pack can make."""
    entries, pack = hand.sides, table.pack
    naturals = sum(e.natural_canastas for e in entries)
    mixed = sum(e.mixed_canastas for e in entries)
    involved = _sides_with(entries, "natural_canastas", "mixed_canastas")
    if rules.modern:
        # A canasta holds at least five natural cards of its rank: one per rank from two decks, two from three.
        # Ranks 4-K and mixed aces (sevens only as a special canasta; pure aces use up the aces).
        ranks = 10 - int(any(e.aces_canasta for e in entries))
        limit = ranks * (pack.of_rank() // 5)
        if naturals + mixed > limit:
            yield (
                Message(
                    "{canastas} natural and mixed canastas: the pack can make at most {limit}.",
                    canastas=naturals + mixed,
                    limit=limit,
                ),
                involved,
            )
        return
    # Classic: a natural canasta takes seven cards of its rank, a mixed one four to six of its rank and one to
    # three wild cards; the ranks (A, K ... 4) and the wild cards of the pack must be enough for them all.
    wild_left = pack.wild_cards - sum(7 * (e.wild_canasta is not None) + 3 * e.incomplete_wild for e in entries)
    if not _classic_canastas_possible(naturals, mixed, pack.of_rank(), wild_left):
        yield (
            Message(
                "{naturals} natural and {mixed} mixed canastas: the pack can't make them all (a natural canasta "
                "is seven cards of a rank; a mixed one at least four of a rank and a wild card).",
                naturals=naturals,
                mixed=mixed,
            ),
            involved,
        )


CLASSIC_RANKS = 11  # aces, kings ... 4s: the ranks a classic canasta can be made of


def _classic_canastas_possible(naturals: int, mixed: int, per_rank: int, wild_cards: int) -> bool:
    """Whether the ranks of the pack, with these wild cards, can make this many natural and mixed canastas.

    Rank by rank (each has `per_rank` cards), choose how many of each kind it makes; the fewest wild cards
    are used when each mixed canasta takes as many cards of its rank as it can (six at most).
    """
    if naturals < 0 or mixed < 0 or naturals + mixed > CLASSIC_RANKS * per_rank:
        return False
    options = []  # (naturals, mixed, wild cards needed) one rank can give
    for n in range(per_rank // 7 + 1):
        left = per_rank - 7 * n
        for m in range(left // 4 + 1):
            options.append((n, m, 7 * m - min(6 * m, left)))
    # fewest wild cards for (naturals, mixed) over the ranks seen so far
    best: dict[tuple[int, int], int] = {(0, 0): 0}
    for _ in range(CLASSIC_RANKS):
        step: dict[tuple[int, int], int] = {}
        for (a, b), wild in best.items():
            for n, m, w in options:
                key = (min(a + n, naturals), min(b + m, mixed))
                if wild + w < step.get(key, wild_cards + 1):
                    step[key] = wild + w
        best = step
    return best.get((naturals, mixed), wild_cards + 1) <= wild_cards


def _cards_fit_the_pack(rules: Rules, table: Table, hand: Hand, hand_index: int) -> Iterator[HandFinding]:
    """§5.8: no more 7s, aces or wild cards than the pack holds, counting what the entries imply."""
    entries, pack = hand.sides, table.pack
    per_rank = pack.of_rank()
    sevens = sum(7 * e.sevens_canasta + 3 * e.incomplete_sevens + 3 * e.dirty_sevens for e in entries)
    if sevens > per_rank:
        yield (
            Message(
                "Too many sevens: together the sides' entries need at least {need} (a sevens canasta is 7, "
                "an unfinished sevens meld 3 or more, a player dirty with 7s holds 3), but the pack has {most}.",
                need=sevens,
                most=per_rank,
            ),
            _sides_with(entries, "sevens_canasta", "incomplete_sevens", "dirty_sevens"),
        )
    aces = sum(7 * e.aces_canasta + 3 * e.incomplete_aces + 3 * e.dirty_aces for e in entries)
    if aces > per_rank:
        yield (
            Message(
                "Too many aces: together the sides' entries need at least {need} (a pure aces canasta is 7, "
                "an unfinished aces meld 3 or more, a player dirty with aces holds 3), but the pack has {most}.",
                need=aces,
                most=per_rank,
            ),
            _sides_with(entries, "aces_canasta", "incomplete_aces", "dirty_aces"),
        )
    wild = sum(7 * (e.wild_canasta is not None) + 3 * e.incomplete_wild + e.mixed_canastas for e in entries)
    if wild > pack.wild_cards:
        yield (
            Message(
                "Too many wild cards: together the sides' entries need at least {need} (a wild-card canasta is 7, "
                "an unfinished wild meld 3 or more, each mixed canasta 1), but the pack has {most}.",
                need=wild,
                most=pack.wild_cards,
            ),
            _sides_with(entries, "wild_canasta", "incomplete_wild", "mixed_canastas"),
        )


def _grids_fit_the_pack(rules: Rules, table: Table, hand: Hand, hand_index: int) -> Iterator[HandFinding]:
    """§5.8: the counting grids of all sides hold no more of a card than the pack."""
    grids = [(i, e.cards) for i, e in enumerate(hand.sides) if e.cards is not None]
    for kind in CARD_KINDS:
        held = sum(getattr(g.melded, kind) + getattr(g.in_hand, kind) for _, g in grids)
        if held > table.pack.grid_limit(kind):
            sides = tuple((i, "count") for i, g in grids if getattr(g.melded, kind) + getattr(g.in_hand, kind))
            yield (
                Message(
                    "{cards}: the counting grids hold {held}; the pack has only {most}.",
                    held=held,
                    cards=Message(CARD_LABELS[kind]),
                    most=table.pack.grid_limit(kind),
                ),
                sides,
            )


HAND_CHECKS = (
    _threes_fit_the_pack,
    _one_way_to_end_the_hand,
    _one_of_a_kind,
    _canastas_fit_the_pack,
    _cards_fit_the_pack,
    _grids_fit_the_pack,
)


def _hand_problems(rules: Rules, table: Table, hand: Hand, hand_index: int) -> list[Problem]:
    """Problems that only show across the sides of a hand: named on the hand, with each side's field involved.
    Only what counts is judged: a side that laid down a special hand is its special hand."""
    hand = Hand(tuple(counted(entry) for entry in hand.sides))
    return [
        Problem((), message, involves=tuple(("sides", side, name) for side, name in fields_involved))
        for check in HAND_CHECKS
        for message, fields_involved in check(rules, table, hand, hand_index)
    ]


def check_hand(rules: Rules, table: Table, hand: Hand, hand_index: int = 0) -> None:
    """Refuse a hand that breaks docs/rules.md section 5; RuleError lists every problem found."""
    if len(hand.sides) != len(table.sides):
        raise RuleError(
            [
                Problem(
                    ("sides",), Message("A hand has one entry for each of the {sides} sides.", sides=len(table.sides))
                )
            ]
        )
    problems = []
    for i, entry in enumerate(hand.sides):
        problems += _side_problems(rules, table, i, entry, hand_index)
    problems += _hand_problems(rules, table, hand, hand_index)
    if problems:
        raise RuleError(problems)
