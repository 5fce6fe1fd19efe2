"""Events entered by tapping: a game describes each kind of event as a form of choices, and the
choices made become the same short line a player would type in `sleuth play` (`parse_line` then
reads it, so tapping and typing cannot disagree). Front ends render the forms; they know no game.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field

from solver.errors import InputError
from solver.logfile import Document

SELECT_OVER = 12  # a single pick among more choices is a native picker, not a wall of buttons


@dataclass
class Part:
    """One choice of a form: `pick` of `choices` (any number, none included, when `pick` is 0),
    or none when `optional`. The choices made are written in the order of `choices`, joined by
    `joiner`, after `prefix` (a key word such as "drew "), which is left out with them when
    nothing is chosen. `columns` asks a front end to lay the choices out in rows of that many
    (a table's grid)."""

    name: str
    label: str
    choices: list[str]
    pick: int = 1
    optional: bool = False
    prefix: str = ""
    joiner: str = " "
    columns: int = 0

    @property
    def picker(self) -> bool:
        """Whether a front end shows this part as one drop-down list."""
        return self.pick == 1 and len(self.choices) > SELECT_OVER


@dataclass
class EntryForm:
    """A kind of event: `template` is its short line with `{name}` for each part's choice.
    An `instant` form adds its event at the tap of its last part's choice (one tap, when it
    has one part), with no separate button to add it."""

    label: str
    template: str
    parts: list[Part] = field(default_factory=list)
    instant: bool = False

    def line(self, chosen: dict[str, list[str]]) -> str:
        """The short line of the choices made; InputError naming a choice that is missing."""
        words = {}
        for part in self.parts:
            picked = [c for c in part.choices if c in chosen.get(part.name, [])]
            if not picked and (part.optional or part.pick == 0):
                words[part.name] = ""
                continue
            if part.pick and len(picked) != part.pick:
                many = f"{part.pick} of them" if part.pick > 1 else "one"
                raise InputError(f"{self.label}: choose {many} for '{part.label}'")
            words[part.name] = part.prefix + part.joiner.join(shlex.quote(c) for c in picked)
        return " ".join(self.template.format(**words).split())


def seats(doc: Document) -> tuple[list[str], list[str], str | None]:
    """The players in seat order, the others than `me`, and `me`, as the forms offer them
    (none when the header cannot be read: the page says why with the report)."""
    try:
        players, me = doc.players()
    except InputError:
        return [], [], None
    names = players.names if players else []
    return names, [p for p in names if p != me], me
