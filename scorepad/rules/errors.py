"""What the rules say when they refuse: a `Problem` (where and why) and `RuleError`, every problem found."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace


class Message(str):
    """A message in a card player's words: the English sentence itself (a str, as every caller reads it), with the
    text it was written from and the values put into it, kept apart so that a page in another language can say it
    in its own words (web.translated, from the catalogue in translations/; docs/i18n.md). The rules import nothing of
    a translation: they only keep text and values apart. The text is str.format's: `{name}`, `{total:,}`."""

    text: str
    values: dict[str, object]

    def __new__(cls, text: str, **values: object) -> Message:
        message = super().__new__(cls, text.format(**values) if values else text)
        message.text = text
        message.values = values
        return message


class Plural(Message):
    """A Message whose words follow a count: `one` for 1, `many` otherwise in English, and the language's own plural
    forms in another (web.translated, ngettext). Extracted with both forms (scripts/i18n.sh: `-k Plural:1,2`)."""

    many: str
    number: int  # the count the words follow (put in as {count})

    def __new__(cls, one: str, many: str, count: int, **values: object) -> Plural:
        message = str.__new__(cls, (one if count == 1 else many).format(count=count, **values))
        message.text, message.values, message.many, message.number = one, {"count": count, **values}, many, count
        return message


class Points(int):
    """Points in a message, written as the sheet writes them: 1,685 and \u22122,060 (a real minus sign)."""

    def __format__(self, format_spec: str) -> str:
        return f"\u2212{abs(self):,}" if self < 0 else f"{int(self):,}"


@dataclass(frozen=True)
class Problem:
    """One broken rule: where (a path into the entries) and why, in a card player's words."""

    path: tuple
    message: str  # a Message where the rules wrote it (translatable); a plain str from older callers
    # A problem with the whole hand (path ()) also names the field of each side involved, so a page
    # can mark every one of them; the API reports it on the hand.
    involves: tuple[tuple, ...] = ()


class RuleError(Exception):
    """A hand, a table or a set of rules that the rules refuse; carries every problem found."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(p.message for p in self.problems))

    def prefixed(self, *prefix: str | int) -> RuleError:
        """The same problems with their paths placed under `prefix`."""
        return RuleError([replace(p, path=tuple(prefix) + p.path) for p in self.problems])
