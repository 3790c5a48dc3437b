"""The game document of docs/api.md: JSON in, rules dataclasses out, and back.

Pure Python, like the rules. Every error carries the dotted path of the field at
fault, so the API, the import page and the hand form report problems the same way.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from datetime import UTC, datetime
from typing import Any

from . import rules
from .rules import CardCounts, Cards, Hand, Problem, RuleError, Rules, Side, SideEntry, Table
from .rules.errors import Message

FORMAT = "scorepad-game"
VERSION = 1

# Keys the server adds; present in an imported document, they are ignored and recomputed.
GAME_OUTPUTS = (
    "id",
    "status",
    "winner",
    "totals",
    "min_count",
    "next_dealer",
    "edit_token",
    "links",
    "version_id",
    "created_at",
    "updated_at",
    "room_code",
    "revision",
    "created",
    "updated",
    "winners",
    "event",  # a club night's table's game: where it was played (docs/events.md)
)
HAND_OUTPUTS = ("dealer",)
HAND_KEYS = ("sides", "note")  # what a hand body may give (its note is the document's, not the rules')
SIDE_OUTPUTS = ("result",)
RULE_KEYS = rules.RULE_KEYS
# A target, or a special hand's points, over 100,000 is absurd (as for the full table rules planned in
# docs/api.md). The rules themselves take any size (their tests play to 1,000,000 so that a game never
# ends); a document may not.
MOST_POINTS = 100_000


# A name (a side's, a player's) fits a scoresheet's column: at most 40 characters, once cleaned (clean_name).
LONGEST_NAME = 40
# A game holds at most 200 hands: an evening's canasta is a dozen or two (docs/api.md).
MOST_HANDS = rules.MOST_HANDS  # a game holds at most this many hands
# Characters a name never keeps: those that reorder the text around them (bidi embeddings, overrides, isolates
# and marks), which can make a scoresheet read other than it is.
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


# Characters that show nothing on their own: format characters (zero-width space, non-joiner and joiner, word
# joiner, byte-order mark, soft hyphen), spaces, marks with no letter to sit on, and the blank "letters" (Hangul
# fillers, the blank braille pattern, the Mongolian vowel separator). A name made only of them is no name.
INVISIBLE_CATEGORIES = frozenset({"Cf", "Cc", "Zs", "Zl", "Zp", "Mn", "Me"})
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e")


def _shows(char: str) -> bool:
    """Whether a character shows on its own."""
    return char not in BLANK_LETTERS and unicodedata.category(char) not in INVISIBLE_CATEGORIES


def clean_name(text: str, path: tuple, label: str, problems: list[Problem]) -> str:
    """A name as kept: control characters (a line break or tab becomes a space) and bidi controls taken out,
    surrounding spaces trimmed; a name with no character that shows is empty (""); a name still over
    LONGEST_NAME characters is a problem at `path`."""
    kept = []
    for char in text:
        if char in BIDI_CONTROLS:
            continue
        if unicodedata.category(char) in ("Cc", "Zl", "Zp"):
            if char.isspace():
                kept.append(" ")
            continue
        kept.append(char)
    name = "".join(kept).strip()
    if not any(_shows(char) for char in name):
        return ""  # no character anyone could read: no name (the rules ask for one)
    if len(name) > LONGEST_NAME:
        problems.append(
            Problem(
                path,
                Message(
                    "{label} is {length:,} characters long: a name has at most {most}.",
                    label=label,
                    length=len(name),
                    most=LONGEST_NAME,
                ),
            )
        )
    return name


# A note on a game or a hand ("at Ann's", "misdeal"): at most 500 characters, never scored.
LONGEST_NOTE = 500


def clean_note(text: Any, path: tuple, label: str, problems: list[Problem]) -> str:
    """A note as kept: text, with line breaks kept, other control characters and bidi controls taken out and
    surrounding spaces trimmed ("" if none); not text, or over LONGEST_NOTE characters, is a problem at `path`."""
    if text is None:
        return ""
    if not isinstance(text, str):
        problems.append(Problem(path, Message('{label} is text, like "at Ann\'s".', label=label)))
        return ""
    kept = []
    for char in text.replace("\r\n", "\n"):
        if char in BIDI_CONTROLS or (unicodedata.category(char) in ("Cc", "Zl", "Zp") and char != "\n"):
            if char.isspace():
                kept.append(" ")
            continue
        kept.append(char)
    note = "".join(kept).strip()
    if not any(_shows(char) for char in note):
        return ""
    if len(note) > LONGEST_NOTE:
        problems.append(
            Problem(
                path,
                Message(
                    "{label} is {length:,} characters long: a note has at most {most}. Shorten it.",
                    label=label,
                    length=len(note),
                    most=LONGEST_NOTE,
                ),
            )
        )
    return note


class FormatError(Exception):
    """A body that is not a game document this reader knows (malformed, or another version): HTTP 400."""


def _not_json_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")  # NaN and Infinity: Python's extension, not JSON


# No game, hand, file of games or rules file is nested more than 10 deep (a file of games: the file, its games, a
# game, its hands, a hand, its sides, a side, its counting grid, the cards melded). Deeper JSON is refused before
# any of it is read: code that walks it could run out of stack.
MOST_DEPTH = 20
TOO_DEEP = Message(
    "This isn't a Scorepad game, hand or rules file: it is nested too deep (lists or objects inside each other more "
    "than {most} times).",
    most=MOST_DEPTH,
)


def _text_problem(data: Any) -> str | None:
    """What is wrong with JSON as read, before it is looked at: nested too deep, or text (keys included) holding
    half of a character (a lone \\ud800 escape, which can't be written back out as UTF-8, so a page showing it
    would fail). None: nothing."""
    pending = [(data, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, str):
            items: Any = (item,)
        elif isinstance(item, dict | list) and depth > MOST_DEPTH:
            return TOO_DEEP
        elif isinstance(item, dict):
            items = item.keys()
            pending.extend((value, depth + 1) for value in item.values())
        elif isinstance(item, list):
            pending.extend((value, depth + 1) for value in item)
            continue
        else:
            continue
        for text in items:
            try:
                text.encode("utf-8")
            except UnicodeEncodeError:
                return Message("This isn't a Scorepad game or hand: some of its text is garbled (half a character).")
    return None


def load_json(text: str | bytes) -> Any:
    """JSON from a request body or a file; FormatError (400) for anything that isn't JSON, or is nested too deep
    (MOST_DEPTH)."""
    try:
        data = json.loads(text, parse_constant=_not_json_constant)
    except RecursionError:  # far deeper than MOST_DEPTH
        raise FormatError(TOO_DEEP) from None
    except ValueError:  # bad JSON, bad UTF-8 and numbers of 4,300+ digits
        raise FormatError(Message("This isn't a Scorepad game or hand: it is not a JSON document.")) from None
    problem = _text_problem(data)
    if problem:
        raise FormatError(problem)
    return data


@dataclass(frozen=True)
class Game:
    """A whole game as the document describes it: rules, table and hands."""

    rules: Rules
    table: Table
    hands: tuple[Hand, ...]
    note: str = ""  # the game's note ("at Ann's"): kept, shown and exported, never scored
    hand_notes: tuple[str, ...] = ()  # each hand's note ("misdeal"), "" for none; () when no hand has one

    def hand_note(self, n: int) -> str:
        """Hand n's note (0-based), or ""."""
        return self.hand_notes[n] if n < len(self.hand_notes) else ""


def _unknown(data: Mapping, allowed: Sequence[str], path: tuple) -> list[Problem]:
    return [
        Problem(path + (key,), Message("Unknown field {key}.", key=repr(key))) for key in data if key not in allowed
    ]


# A JSON example in a message is one of its values, not its text: a translated text is filled in with str.format.
GRID_NUMBERS = Message("Counting grid: give the number of each kind of card, like {example}.", example='{"jokers": 1}')
GRID_SHAPE = Message('Counting grid: give the cards melded and the cards left in hand ("melded", "in_hand").')
SIDE_SHAPE = Message(
    "A side's entry lists what it scored, like {example}.", example='{"natural_canastas": 2, "count": 120}'
)


def _card_counts(data: Any, path: tuple, problems: list[Problem]) -> CardCounts:
    if data is None:
        return CardCounts()
    if not isinstance(data, Mapping):
        problems.append(Problem(path, GRID_NUMBERS))
        return CardCounts()
    problems += _unknown(data, rules.CARD_KINDS, path)
    values = {}
    for kind in rules.CARD_KINDS:
        value = data.get(kind)
        if value is None:
            continue
        problem = rules.entry_number_problem(value, rules.CARD_LABELS[kind])
        if problem:
            problems.append(Problem(path + (kind,), problem))
        else:
            values[kind] = value
    return CardCounts(**values)


def parse_side_entry(data: Any, path: tuple = ()) -> tuple[SideEntry, list[Problem]]:
    """One side's entry from JSON, with the problems of its shape (types, unknown fields)."""
    problems: list[Problem] = []
    if not isinstance(data, Mapping):
        return SideEntry(), [Problem(path, SIDE_SHAPE)]
    problems += _unknown(data, rules.SIDE_FIELDS + SIDE_OUTPUTS, path)
    values: dict[str, Any] = {}
    for name in rules.SIDE_FIELDS:
        if name not in data or data[name] is None:
            continue
        value, label = data[name], rules.FIELD_LABELS[name]
        if name in rules.INT_FIELDS or name in rules.FIGURE_FIELDS:
            problem = rules.entry_number_problem(value, label)
            ok, message = problem is None, problem or ""
        elif name in rules.BOOL_FIELDS or name == "has_melded":
            ok = isinstance(value, bool)
            message = Message("{label}: true or false.", label=label)
        elif name in ("wild_canasta", "special_hand"):
            ok = isinstance(value, str)
            example = "deuces" if name == "wild_canasta" else "pairs"
            message = Message('{label}: give its name, like "{example}".', label=label, example=example)
        else:  # cards: the counting grid
            ok = isinstance(value, Mapping)
            message = GRID_SHAPE
            if ok:
                problems += _unknown(value, ("melded", "in_hand"), path + (name,))
                value = Cards(
                    melded=_card_counts(value.get("melded", {}), path + (name, "melded"), problems),
                    in_hand=_card_counts(value.get("in_hand", {}), path + (name, "in_hand"), problems),
                )
        if ok:
            values[name] = value
        else:
            problems.append(Problem(path + (name,), message))
    return SideEntry(**values), problems


HAND_SHAPE = Message("A hand gives one entry for each side: {example}.", example='{"sides": [...]}')
SIDES_LISTED = Message('A hand gives one entry for each side: "sides" is a list.')


def parse_hand(data: Any, sides: int, path: tuple = ()) -> tuple[Hand, list[Problem]]:
    """A hand from JSON ({"sides": [...]}), with the problems of its shape."""
    if not isinstance(data, Mapping):
        # The hand itself is named; a hand body (path ()) names its "sides", as a whole-hand check does.
        return Hand(()), [Problem(path or ("sides",), HAND_SHAPE)]
    if not isinstance(data.get("sides"), list):
        return Hand(()), [Problem(path + ("sides",), SIDES_LISTED)]
    problems = _unknown(data, HAND_KEYS + HAND_OUTPUTS, path)
    if len(data["sides"]) != sides:
        problems.append(
            Problem(path + ("sides",), Message("A hand has one entry for each of the {sides} sides.", sides=sides))
        )
        return Hand(()), problems
    entries = []
    for i, side in enumerate(data["sides"]):
        entry, side_problems = parse_side_entry(side, path + ("sides", i))
        entries.append(entry)
        problems += side_problems
    return Hand(tuple(entries)), problems


def check_hand(game_rules: Rules, table: Table, data: Any, hand_index: int) -> Hand:
    """A hand from JSON, checked in shape and against the rules; RuleError with paths into `data`."""
    hand, problems = parse_hand(data, len(table.sides))
    hand_note_of(data, ("note",), problems)
    if problems:
        raise RuleError(problems)
    try:
        rules.check_hand(game_rules, table, hand, hand_index)
    except RuleError as error:
        # A check on the whole hand names the hand: in a hand body that is its "sides".
        raise RuleError([replace(p, path=p.path or ("sides",)) for p in error.problems]) from None
    return hand


def parse_rules(data: Any) -> Rules:
    """The game's rules from the document's "rules" object."""
    if not isinstance(data, Mapping):
        raise RuleError(
            [
                Problem(
                    ("rules",),
                    Message("The rules name at least a preset, like {example}.", example='{"preset": "modern"}'),
                )
            ]
        )
    problems = _unknown(data, RULE_KEYS, ("rules",))
    if "preset" not in data:
        problems.append(Problem(("rules", "preset"), Message("Choose a preset: modern, cla, wca or classic.")))
    elif not isinstance(data["preset"], str):
        problems.append(Problem(("rules", "preset"), Message("The preset is a name: modern, cla, wca or classic.")))
    if problems:
        raise RuleError(problems)
    # make_rules judges every other key: its kind of value, and whether the value makes sense.
    return rules.make_rules(data["preset"], **{key: value for key, value in data.items() if key != "preset"})


A_SIDE = Message("A side has a name and players, like {example}.", example='{"name": "Us", "players": ["Ann", "Cleo"]}')


def parse_table(data: Mapping, game_rules: Rules) -> Table:
    """The sides, players and first dealer from the document."""
    problems: list[Problem] = []
    sides_data = data.get("sides")
    if not isinstance(sides_data, list) or not sides_data:
        raise RuleError([Problem(("sides",), Message("List the sides at the table, each with its name and players."))])
    sides = []
    for i, side in enumerate(sides_data):
        path = ("sides", i)
        if not isinstance(side, Mapping):
            problems.append(Problem(path, A_SIDE))
            continue
        problems += _unknown(side, ("name", "players"), path)
        name, players = side.get("name"), side.get("players")
        if name is None:
            name = ""  # check_table asks for a name
        elif not isinstance(name, str):
            problems.append(Problem(path + ("name",), Message('A side\'s name is text, like "Us".')))
            name = ""
        if not isinstance(players, list) or not players:
            problems.append(Problem(path + ("players",), Message("List the side's players by name, in seat order.")))
            players = []
        elif not all(isinstance(p, str) for p in players):
            problems += [
                Problem(path + ("players", j), Message('A player\'s name is text, like "Ann".'))
                for j, p in enumerate(players)
                if not isinstance(p, str)
            ]
            players = []
        name = clean_name(name, path + ("name",), Message("Side {number}'s name", number=i + 1), problems)
        players = [
            clean_name(
                p,
                path + ("players", j),
                Message("The name of player {player} of side {side}", player=j + 1, side=i + 1),
                problems,
            )
            for j, p in enumerate(players)
        ]
        sides.append(Side(name=name, players=tuple(players)))
    first_dealer = data.get("first_dealer")
    if first_dealer is None:
        first_dealer = 0
    if not rules.is_whole_number(first_dealer):
        problems.append(Problem(("first_dealer",), Message("The first dealer is a seat number, counting from 0.")))
    brought_forward = _brought_forward(data.get("brought_forward"), problems)
    if problems:
        raise RuleError(problems)
    table = Table(sides=tuple(sides), first_dealer=first_dealer, brought_forward=brought_forward)
    rules.check_table(game_rules, table)
    return table


def _brought_forward(data: Any, problems: list[Problem]) -> tuple[int, ...]:
    """The totals brought forward from paper, as sent (their sense is the rules' to judge: check_table); none: ()."""
    if data is None:
        return ()
    if not isinstance(data, list) or not all(rules.is_whole_number(total) for total in data):
        problems.append(
            Problem(
                ("brought_forward",),
                Message("Totals brought forward: one whole number of points for each side, in order."),
            )
        )
        return ()
    return tuple(data)


def _check_format(data: Any) -> None:
    """FormatError (400) unless `data` says it is a game document of the version this reader knows."""
    if not isinstance(data, Mapping):
        raise FormatError(Message("Expected a Scorepad game document (a JSON object)."))
    if data.get("format", FORMAT) != FORMAT:
        raise FormatError(Message('This is not a Scorepad game: "format" must be {format}.', format=repr(FORMAT)))
    version = data.get("version")
    if not rules.is_whole_number(version) or version != VERSION:  # true and 1.0 are not version 1
        if version is None:
            raise FormatError(
                Message('This game has no "version": this Scorepad reads version {version}.', version=VERSION)
            )
        # Name the version unless it is a 4,000-digit number, a paragraph or not a version at all.
        if rules.is_whole_number(version):
            short = abs(version) < 10**6
        else:
            short = isinstance(version, str) and len(version) < 20
        if short:
            raise FormatError(
                Message(
                    "Unknown document version {shown}: this Scorepad reads version {version}.",
                    shown=repr(version),
                    version=VERSION,
                )
            )
        raise FormatError(Message("Unknown document version: this Scorepad reads version {version}.", version=VERSION))


def parse_document(data: Any) -> Game:
    """A whole game from a document; FormatError (400) for a foreign body, RuleError (422) for broken rules."""
    _check_format(data)
    problems = _unknown(
        data,
        ("format", "version", "rules", "sides", "first_dealer", "brought_forward", "note", "hands") + GAME_OUTPUTS,
        (),
    )
    if problems:
        raise RuleError(problems)
    game_rules = parse_rules(data.get("rules"))
    table = parse_table(data, game_rules)
    hands_data = data.get("hands")
    if hands_data is None:
        hands_data = []
    if not isinstance(hands_data, list):
        raise RuleError([Problem(("hands",), Message("List the hands in the order they were played."))])
    if len(hands_data) > MOST_HANDS:
        raise RuleError(
            [
                Problem(
                    ("hands",),
                    Message(
                        "A game holds at most {most} hands, and this one has {hands:,}: it can't be a Scorepad game "
                        "as played at a table.",
                        most=MOST_HANDS,
                        hands=len(hands_data),
                    ),
                )
            ]
        )
    hands, notes, problems = [], [], []
    note = clean_note(data.get("note"), ("note",), Message("The game's note"), problems)
    for n, hand_data in enumerate(hands_data):
        hand, hand_problems = parse_hand(hand_data, len(table.sides), ("hands", n))
        hands.append(hand)
        notes.append(hand_note_of(hand_data, ("hands", n, "note"), problems))
        problems += hand_problems
    if problems:
        raise RuleError(problems)
    rules.score_game(game_rules, table, hands)  # whole-hand problems come back as ("hands", n): the hand named
    return Game(rules=game_rules, table=table, hands=tuple(hands), note=note, hand_notes=kept_notes(notes))


def hand_note_of(data: Any, path: tuple, problems: list[Problem]) -> str:
    """The note a hand body gives ("" for none), cleaned (clean_note)."""
    if not isinstance(data, Mapping):
        return ""
    return clean_note(data.get("note"), path, Message("The hand's note"), problems)


def kept_notes(notes: Sequence[str | None]) -> tuple[str, ...]:
    """Each hand's note ("" for none), or () when no hand has one."""
    return tuple(note or "" for note in notes) if any(notes) else ()


# --- Back to JSON ----------------------------------------------------------------


def side_entry_json(entry: SideEntry) -> dict:
    """One side's entry as JSON, leaving out what is at its default."""
    out: dict[str, Any] = {}
    for name in entry.entered_fields():
        value = getattr(entry, name)
        if name == "cards":
            value = {
                where: {k: v for k, v in vars(getattr(value, where)).items() if v} for where in ("melded", "in_hand")
            }
        out[name] = value
    return out


def hand_json(hand: Hand) -> dict:
    """A hand's inputs as JSON."""
    return {"sides": [side_entry_json(entry) for entry in hand.sides]}


def rules_json(game_rules: Rules) -> dict:
    """The game's rules in full, so a document carries them whatever the preset becomes."""
    return rules.rules_json(game_rules)


def table_json(table: Table) -> dict:
    """The sides and the first dealer as JSON, and the totals brought forward if there are any."""
    out: dict[str, Any] = {
        "sides": [{"name": s.name, "players": list(s.players)} for s in table.sides],
        "first_dealer": table.first_dealer,
    }
    if table.brought_forward:
        out["brought_forward"] = list(table.brought_forward)
    return out


def hand_from_json(data: Mapping) -> Hand:
    """A stored hand back into the rules' dataclasses (stored hands were checked when saved)."""
    return Hand(tuple(parse_side_entry(side)[0] for side in data["sides"]))


def game_document(
    game: Game,
    game_id: str | None = None,
    score: rules.GameScore | None = None,
    *,
    room_code: str | None = None,
    revision: int | None = None,
    created: datetime | None = None,
    updated: datetime | None = None,
    entries: Sequence[Sequence[Mapping]] | None = None,
) -> dict:
    """The full document with every output the server adds (`score`: the game's, if already worked out;
    `room_code` and `revision`: the stored game's, docs/api.md; `entries`: each hand's side entries as JSON,
    as stored, in place of `game.hands`, so a stored game's document needs no hand parsed)."""
    if score is None:
        score = rules.score_game(game.rules, game.table, game.hands)
    if entries is None:
        entries = [[side_entry_json(entry) for entry in hand.sides] for hand in game.hands]
    names = [f.name for f in fields(rules.SideScore)]
    hands = []
    for n, (hand_entries, hand_score) in enumerate(zip(entries, score.hands, strict=True)):
        sides = []
        for entry, side_score in zip(hand_entries, hand_score.sides, strict=True):
            sides.append({**entry, "result": {name: getattr(side_score, name) for name in names}})
        hand: dict[str, Any] = {"dealer": hand_score.dealer, "sides": sides}
        if game.hand_note(n):
            hand["note"] = game.hand_note(n)
        hands.append(hand)
    document = {"format": FORMAT, "version": VERSION}
    if game_id is not None:
        document["id"] = game_id
    if room_code is not None:
        document["room_code"] = room_code
    if revision is not None:
        document["revision"] = revision
    for key, moment in (("created", created), ("updated", updated)):
        if moment is not None:
            document[key] = iso_time(moment)
    document.update(
        {
            "status": "finished" if score.finished else "in_progress",
            "winner": score.winner,
            "winners": list(score.winners),
            "totals": list(score.totals),
            "min_count": list(score.min_count),
            "next_dealer": score.next_dealer,
            "rules": rules_json(game.rules),
            **table_json(game.table),
            **({"note": game.note} if game.note else {}),
            "hands": hands,
        }
    )
    return document


def iso_time(moment: datetime) -> str:
    """A moment as the document gives it: ISO 8601 in UTC, to the second (a stored time without a zone is UTC)."""
    if moment.tzinfo is None:  # SQLite gives back naive times; they were written in UTC
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def field_name(path: Sequence) -> str:
    """A problem's path as the dotted field name of the API's errors."""
    return ".".join(str(part) for part in path)


def errors_json(error: RuleError) -> list[dict]:
    """The API's `errors` list for a RuleError."""
    return [{"field": field_name(p.path), "message": p.message} for p in error.problems]


# --- The file of all a device's games -----------------------------------------------

GAMES_FORMAT = "scorepad-games"
GAMES_VERSION = 1


def games_file(documents: list[dict], rule_sets: list[dict]) -> dict:
    """The file of every game a device keeps (docs/api.md): each game's own document, in a list."""
    return {"format": GAMES_FORMAT, "version": GAMES_VERSION, "games": documents, "rule_sets": rule_sets}


def is_games_file(data: Any) -> bool:
    """Whether JSON read from a file says it is a file of games rather than one game."""
    return isinstance(data, Mapping) and data.get("format") == GAMES_FORMAT


# What one file restores at most: more than a phone's history holds (years of weekly card evenings at a dozen or
# two hands a game), and few enough that checking every hand and storing them takes seconds, never a worker's
# whole 30 s (scripts/restore_bench.py: a hand counted with the grid costs most to check).
MOST_GAMES_IN_FILE = 1000
MOST_HANDS_IN_FILE = 5_000


def games_in_file(data: Mapping) -> list[Any]:
    """The game documents of a file of games, each still to be checked; FormatError if this reader can't read it."""
    version = data.get("version")
    if not rules.is_whole_number(version) or version != GAMES_VERSION:
        raise FormatError(
            Message(
                "This file of games is of a version this Scorepad can't read (it reads {version}).",
                version=GAMES_VERSION,
            )
        )
    games = data.get("games")
    if not isinstance(games, list):
        raise FormatError(Message('This file of games has no list of games ("games").'))
    if len(games) > MOST_GAMES_IN_FILE:
        raise FormatError(
            Message(
                "This file holds {games:,} games; a file restores at most {most:,} at a time. Split it into smaller "
                "files.",
                games=len(games),
                most=MOST_GAMES_IN_FILE,
            )
        )
    # Counted before any game is read: checking them all is what takes the time.
    hands = sum(
        len(game["hands"]) for game in games if isinstance(game, Mapping) and isinstance(game.get("hands"), list)
    )
    if hands > MOST_HANDS_IN_FILE:
        raise FormatError(
            Message(
                "This file holds {hands:,} hands in {games:,} games; a file restores at most {most:,} hands (years "
                "of weekly card evenings). Nothing was restored: restore the games a few at a time, from each "
                "game's own file.",
                hands=hands,
                games=len(games),
                most=MOST_HANDS_IN_FILE,
            )
        )
    return games
