"""What the rules say when they refuse: a `Problem` (where and why) and `RuleError`, every problem found."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Problem:
    """One broken rule: where (a path into the entries) and why, in a card player's words."""

    path: tuple
    message: str
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
