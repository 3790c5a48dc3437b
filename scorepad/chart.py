"""The game in a picture, drawn by the server: figures in, the geometry of an SVG out.

Pure Python, like the rules: no Flask. templates/_chart.html draws what these functions work out, so the chart
is in the page itself (no script, no chart library): it shows in a copy kept offline, in print, and to a
watcher's scoreboard swapped in by htmx. Every coordinate is in the chart's viewBox; the SVG scales to the page.

Glossary:
- GameChart: each side's running total after every hand (hand 0 is 0), the target, who is ahead.
- SideLine: one side's line in a GameChart, its points and its label at the end of the line.
- BarChart: one figure per player (games won, average hand), a bar each from the zero line.
- Tick: a mark on an axis, where it is and what it says.

Figures become words through `points`, the app's own way of writing them (1,685 and \u22122,060), handed in by
`init_app`, so that the chart says them as the table beside it does; its sentences through `words` (the page's
language: Flask-Babel's gettext and ngettext, handed in by init_app; English without an app).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .rules import GameScore, Table

Points = Callable[[int], str]


class Words(Protocol):
    """The chart's sentences in the page's language, as Flask-Babel's gettext and ngettext give them."""

    def gettext(self, string: str, **variables: Any) -> str: ...

    def ngettext(self, singular: str, plural: str, num: int, **variables: Any) -> str: ...


class English:
    """The chart's sentences as written here: a chart drawn without an app (a test, or no language to follow)."""

    def gettext(self, string: str, **variables: Any) -> str:
        return string % variables if variables else string

    def ngettext(self, singular: str, plural: str, num: int, **variables: Any) -> str:
        return (singular if num == 1 else plural) % {"num": num, **variables}


ENGLISH = English()

# The game chart's viewBox, and the box the lines are drawn in: value labels on the left, hand numbers below, the
# sides' names and totals at the right end of their lines. Its words are 16 high (static/css), as the page's text:
# the viewBox is no wider than the narrowest phone draws it (334 px), so they are never drawn under 16 px.
GAME_WIDTH = 320
GAME_HEIGHT = 208
PLOT_LEFT = 60
PLOT_RIGHT = 220
PLOT_TOP = 16
PLOT_BOTTOM = 176
HAND_LABEL_Y = 200  # the baseline of the hand numbers under the lines
VALUE_LABEL_X = 55  # where the value labels end, left of the lines
BASELINE = 5  # below a mark's middle, the baseline of 16-high figures centred on it
LABEL_X = 226  # where a side's name and total start, right of its line's end
LABEL_GAP = 34  # between the middles of two sides' labels: two lines of text each
NAME_LETTERS = 10  # a longer side name is cut short, with an ellipsis, to fit at the right of the lines
HAND_TICKS = 6  # at most this many hand numbers under the lines
VALUE_INTERVALS = 4  # about this many steps between the value labels (rounding out may add one each end)

# The bar chart's viewBox: the player's name, the bar from the zero line, the figure in a column at the right.
BAR_WIDTH = 320
NAME_RIGHT = 94
BARS_LEFT = 100
BARS_RIGHT = 260
VALUE_RIGHT = 316
ROW_HEIGHT = 28
BAR_THICKNESS = 16
BAR_PADDING = 4  # above the first row and below the last
PLAYER_LETTERS = 10


@dataclass(frozen=True)
class Tick:
    """A mark on an axis: where it is (x for a hand, y for a value) and what it says."""

    at: float
    label: str
    text_at: float  # where its label goes: a value's baseline (y), a hand's middle (x)


@dataclass(frozen=True)
class SideLine:
    """One side's line: its running total from hand 0 to the last hand, and the label at its end."""

    side: int
    name: str  # as the label says it (a long name cut short)
    total: str  # the side's total, in words
    coordinates: tuple[tuple[float, float], ...]
    label_y: float  # the middle of the label: the line's end, moved apart from the other sides' labels
    ahead: bool  # the leader (or the winner): drawn heavier, labelled in bold

    @property
    def points(self) -> str:
        """The coordinates as an SVG polyline's points: "44,156 92,140.2 ..."."""
        return " ".join(f"{_number(x)},{_number(y)}" for x, y in self.coordinates)

    @property
    def end(self) -> tuple[float, float]:
        """Where the line ends: the side's total now."""
        return self.coordinates[-1]

    @property
    def end_radius(self) -> float:
        """The dot at the line's end: it shows where a line lying on another one (or on the zero line) ends."""
        return 4.5 if self.ahead else 3.5

    @property
    def name_y(self) -> float:
        """The baseline of the label's first line (the name); the total is one line below."""
        return round(self.label_y - 2, 1)


@dataclass(frozen=True)
class GameChart:
    """Each side's running total by hand in a viewBox, with the target line, the zero line and the axes' labels."""

    lines: tuple[SideLine, ...]  # side by side, the sides ahead last (drawn on top)
    value_ticks: tuple[Tick, ...]  # y
    hand_ticks: tuple[Tick, ...]  # x
    zero_y: float
    target_y: float
    target_label: str
    target_label_y: float
    title: str
    description: str
    width: int = GAME_WIDTH
    height: int = GAME_HEIGHT
    left: int = PLOT_LEFT
    right: int = PLOT_RIGHT
    top: int = PLOT_TOP
    bottom: int = PLOT_BOTTOM
    hand_label_y: int = HAND_LABEL_Y
    label_x: int = LABEL_X
    value_label_x: int = VALUE_LABEL_X
    target_label_x: int = PLOT_LEFT + 3
    label_line: int = 16  # from a label's name down to its total


@dataclass(frozen=True)
class Bar:
    """One player's bar: the rectangle from the zero line to the figure, the name and the figure beside it."""

    name: str  # as the chart says it (a long name cut short)
    value: str  # the figure in words ("–" when there is none)
    x: float
    y: float
    width: float
    text_y: float  # the baseline of the name and the figure
    top: bool  # the highest figure (shared when tied)


@dataclass(frozen=True)
class BarChart:
    """A figure per player as horizontal bars from a zero line."""

    bars: tuple[Bar, ...]
    zero_x: float
    height: float
    title: str
    description: str
    width: int = BAR_WIDTH
    bar_thickness: int = BAR_THICKNESS
    name_right: int = NAME_RIGHT
    value_right: int = VALUE_RIGHT


class PlayerFigures(Protocol):
    """What the statistics page knows of a player (history.PlayerStatistics)."""

    @property
    def name(self) -> str: ...
    @property
    def won(self) -> int: ...
    @property
    def average_hand(self) -> int | None: ...


# --- Scales -------------------------------------------------------------------------------------------------


def _number(value: float) -> str:
    """A coordinate as written in the SVG: one decimal at most, none when it is whole."""
    return f"{round(value, 1):g}"


def nice_step(rough: float) -> int:
    """The smallest round step not below `rough`: 1, 2 or 5 times a power of ten, or 25 times one."""
    power = 1
    while True:
        steps = (power, 2 * power, 5 * power // 2, 5 * power) if power >= 10 else (power, 2 * power, 5 * power)
        for step in steps:
            if step >= rough:
                return step
        power *= 10


def _short(name: str, letters: int) -> str:
    """A name cut to `letters` characters, the last an ellipsis, when it is longer."""
    return name if len(name) <= letters else name[: letters - 1].rstrip() + "\u2026"


def _names(names: Sequence[str], words: Words = ENGLISH) -> str:
    """Ann; Ann and Bea; Ann, Bea and Cleo."""
    if len(names) == 1:
        return names[0]
    return words.gettext("%(names)s and %(last)s", names=", ".join(names[:-1]), last=names[-1])


def _spread(middles: Sequence[float], gap: float, lowest: float, highest: float) -> list[float]:
    """Labels wanted at `middles` (y), moved apart just enough to be `gap` apart and kept within the bounds; each
    keeps its order (the highest line's label stays on top)."""
    order = sorted(range(len(middles)), key=lambda i: (middles[i], i))
    placed = [min(max(middles[i], lowest), highest) for i in order]
    for k in range(1, len(placed)):  # push down what overlaps the label above it
        placed[k] = max(placed[k], placed[k - 1] + gap)
    for k in range(len(placed) - 1, -1, -1):  # then back up from the bottom, if that pushed one off
        limit = highest if k == len(placed) - 1 else placed[k + 1] - gap
        placed[k] = min(placed[k], limit)
    result = [0.0] * len(middles)
    for k, i in enumerate(order):
        result[i] = placed[k]
    return result


# --- The game chart -------------------------------------------------------------------------------------------


def game_chart(
    names: Sequence[str],
    cumulatives: Sequence[Sequence[int]],
    target: int,
    points: Points,
    winners: Sequence[int] = (),
    finished: bool = False,
    start: Sequence[int] = (),
    words: Words = ENGLISH,
) -> GameChart | None:
    """The chart of a game: `cumulatives` holds each hand's running totals, side by side, hand 1 first; `start`
    each side's total before hand 1 (brought forward from paper; none: 0). None before the first hand (the sheet
    says there is no hand yet)."""
    if not cumulatives:
        return None
    sides = len(names)
    begin = tuple(start) or (0,) * sides
    totals = tuple(cumulatives[-1])
    figures = [0, target, *begin, *(value for hand in cumulatives for value in hand)]
    step = nice_step((max(figures) - min(figures)) / VALUE_INTERVALS)
    lowest = math.floor(min(figures) / step) * step
    highest = max(math.ceil(max(figures) / step) * step, lowest + step)

    def y(value: int) -> float:
        return round(PLOT_TOP + (highest - value) * (PLOT_BOTTOM - PLOT_TOP) / (highest - lowest), 1)

    hands = len(cumulatives)

    def x(hand: int) -> float:
        return round(PLOT_LEFT + hand * (PLOT_RIGHT - PLOT_LEFT) / hands, 1)

    ahead = _ahead(totals, winners, finished)
    label_middles = _spread([y(total) for total in totals], LABEL_GAP, PLOT_TOP + 12, PLOT_BOTTOM)
    lines = [
        SideLine(
            side=i,
            name=_short(names[i], NAME_LETTERS),
            total=points(totals[i]),
            coordinates=((x(0), y(begin[i])), *((x(h + 1), y(hand[i])) for h, hand in enumerate(cumulatives))),
            label_y=label_middles[i],
            ahead=i in ahead,
        )
        for i in range(sides)
    ]
    every = nice_step(hands / HAND_TICKS)
    return GameChart(
        lines=tuple(sorted(lines, key=lambda line: line.ahead)),
        value_ticks=tuple(
            Tick(y(value), points(value), round(y(value) + BASELINE, 1)) for value in range(lowest, highest + 1, step)
        ),
        hand_ticks=tuple(Tick(x(hand), str(hand), x(hand)) for hand in range(every, hands + 1, every)),
        zero_y=y(0),
        target_y=y(target),
        target_label=words.gettext("%(points)s to win", points=points(target)),
        target_label_y=round(y(target) - 4, 1),
        title=words.gettext("The game in a chart: each side's running total after every hand"),
        description=_game_description(names, totals, ahead, finished, hands, points, words),
    )


def scoresheet_chart(
    score: GameScore, table: Table, target: int, points: Points, words: Words = ENGLISH
) -> GameChart | None:
    """The chart of a scored game, as the scoresheet has it: each hand's running totals from the rules."""
    return game_chart(
        [side.name for side in table.sides],
        [[side.cumulative for side in hand.sides] for hand in score.hands],
        target,
        points,
        winners=score.winners,
        finished=score.finished,
        start=table.brought_forward,
        words=words,
    )


def _ahead(totals: Sequence[int], winners: Sequence[int], finished: bool) -> set[int]:
    """The sides drawn ahead: the winners of a finished game, else the one side with the highest total (none while
    two share it)."""
    if finished:
        return set(winners)
    best = max(totals)
    leaders = [i for i, total in enumerate(totals) if total == best]
    return set(leaders) if len(leaders) == 1 else set()


def _game_description(
    names: Sequence[str],
    totals: Sequence[int],
    ahead: set[int],
    finished: bool,
    hands: int,
    points: Points,
    words: Words = ENGLISH,
) -> str:
    """The chart in a sentence: "Us lead 6,210 to 4,870 after 7 hands."."""
    said = {"after": words.ngettext("after %(hands)s hand", "after %(hands)s hands", hands, hands=points(hands))}
    best = max(totals)
    top = sorted(ahead) if ahead else [i for i, total in enumerate(totals) if total == best]
    rest = sorted((i for i in range(len(totals)) if i not in top), key=lambda i: (-totals[i], i))
    said["who"], said["top"] = _names([names[i] for i in top], words), points(totals[top[0]])
    said["behind"] = _names(
        [words.gettext("%(name)s on %(points)s", name=names[i], points=points(totals[i])) for i in rest] or [""], words
    )
    if len(top) == 1 and len(rest) == 1:
        said["other"] = points(totals[rest[0]])
        if finished:
            return words.gettext("%(who)s won %(top)s to %(other)s %(after)s.", **said)
        return words.gettext("%(who)s lead %(top)s to %(other)s %(after)s.", **said)
    if len(top) == 1:
        if finished:
            return words.gettext("%(who)s won with %(top)s, ahead of %(behind)s, %(after)s.", **said)
        return words.gettext("%(who)s lead with %(top)s, ahead of %(behind)s, %(after)s.", **said)
    if not rest:
        if finished:
            return words.gettext("%(who)s share the win on %(top)s %(after)s.", **said)
        return words.gettext("%(who)s are level on %(top)s %(after)s.", **said)
    if finished:
        return words.gettext("%(who)s share the win on %(top)s, ahead of %(behind)s, %(after)s.", **said)
    return words.gettext("%(who)s are level on %(top)s, ahead of %(behind)s, %(after)s.", **said)


# --- The statistics' bars ---------------------------------------------------------------------------------------


def bar_chart(
    title: str, figures: Sequence[tuple[str, int | None]], points: Points, description: str
) -> BarChart | None:
    """A bar for each (name, figure), in the order given, from a zero line; a player with no figure gets a dash and
    no bar. None when there is no player."""
    if not figures:
        return None
    values = [value for _, value in figures if value is not None]
    lowest, highest = min([0, *values]), max([0, *values])
    if lowest == highest:
        highest = lowest + 1  # every figure 0: the bars have no length, and the zero line stands at the left

    def x(value: int) -> float:
        return round(BARS_LEFT + (value - lowest) * (BARS_RIGHT - BARS_LEFT) / (highest - lowest), 1)

    # The highest figure stands out, unless every player has it (no game won yet, say).
    best = max(values) if values and min(values) != max(values) else None
    bars = []
    for row, (name, value) in enumerate(figures):
        top = BAR_PADDING + row * ROW_HEIGHT
        start, end = (x(min(0, value)), x(max(0, value))) if value is not None else (x(0), x(0))
        bars.append(
            Bar(
                name=_short(name, PLAYER_LETTERS),
                value="\u2013" if value is None else points(value),
                x=start,
                y=top + (ROW_HEIGHT - BAR_THICKNESS) / 2,
                width=round(end - start, 1),
                text_y=top + ROW_HEIGHT / 2 + BASELINE + 1,
                top=best is not None and value == best,
            )
        )
    return BarChart(
        bars=tuple(bars),
        zero_x=x(0),
        height=2 * BAR_PADDING + len(figures) * ROW_HEIGHT,
        title=title,
        description=description,
    )


def _best(figures: Sequence[tuple[str, int | None]]) -> tuple[list[str], int] | None:
    """The players with the highest figure, and that figure (None when no player has one)."""
    values = [value for _, value in figures if value is not None]
    if not values:
        return None
    best = max(values)
    return [name for name, value in figures if value == best], best


def games_won_chart(players: Sequence[PlayerFigures], points: Points, words: Words = ENGLISH) -> BarChart | None:
    """Games won per player, as the statistics table lists them."""
    figures = [(player.name, player.won) for player in players]
    found = _best(figures)
    if found is None or found[1] == 0:
        description = words.gettext("No player has won a finished game yet.")
    else:
        names, best = found
        said = {"names": _names(names, words), "points": points(best)}
        if len(names) > 1:
            description = words.gettext("%(names)s won the most games: %(points)s each.", **said)
        else:
            description = words.gettext("%(names)s won the most games: %(points)s.", **said)
    return bar_chart(words.gettext("Games won by each player"), figures, points, description)


def average_hand_chart(players: Sequence[PlayerFigures], points: Points, words: Words = ENGLISH) -> BarChart | None:
    """Each player's side's average hand, as the statistics table lists them."""
    figures = [(player.name, player.average_hand) for player in players]
    found = _best(figures)
    if found is None:
        description = words.gettext("No player has a hand yet.")
    else:
        names, best = found
        said = {"names": _names(names, words), "points": points(best)}
        if len(names) == 1:
            description = words.gettext("%(names)s has the highest average hand: %(points)s points.", **said)
        else:
            description = words.gettext("%(names)s have the highest average hand: %(points)s points.", **said)
    return bar_chart(words.gettext("Average hand of each player's side"), figures, points, description)


# --- For the templates ----------------------------------------------------------------------------------------


class _App(Protocol):
    """What init_app needs of a Flask app (this module imports no Flask)."""

    @property
    def jinja_env(self) -> Any: ...

    def add_template_global(self, f: Callable[..., object], name: str | None = None) -> None: ...


def init_app(app: _App, words: Words = ENGLISH) -> None:
    """Give every template the charts, written with the app's own `points` filter (web.py), in the page's language
    (`words`: Flask-Babel's gettext and ngettext)."""

    def points(value: int) -> str:
        return str(app.jinja_env.filters["points"](value))

    def chart_of_game(score: GameScore, table: Table, target: int) -> GameChart | None:
        """The scoresheet's chart (templates/_chart.html)."""
        return scoresheet_chart(score, table, target, points, words)

    def chart_of_games_won(players: Sequence[PlayerFigures]) -> BarChart | None:
        """The statistics page's games won per player."""
        return games_won_chart(players, points, words)

    def chart_of_average_hands(players: Sequence[PlayerFigures]) -> BarChart | None:
        """The statistics page's average hand per player."""
        return average_hand_chart(players, points, words)

    app.add_template_global(chart_of_game, "game_chart")
    app.add_template_global(chart_of_games_won, "games_won_chart")
    app.add_template_global(chart_of_average_hands, "average_hand_chart")
