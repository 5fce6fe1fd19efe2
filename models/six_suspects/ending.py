"""Where a 6 Suspects game stands, by the rulebook's "Ending the Game": looking, someone has
announced, my last look made, at the vote, voted.

The rulebook: once every player has looked at least four times, any player may announce instead
of looking; every other player then takes one last look, and then everyone votes at once.
`suggest`, the view of `play` and the web page all read `stage()` (and say it with
`stage_line()` and `announce_line()`), so they cannot disagree about the looks I have left or
about what comes next.
"""

from __future__ import annotations

from dataclasses import dataclass

from models.six_suspects.log import LOOKS_BEFORE_ANNOUNCING, Log, Told, seat_words
from models.six_suspects.rules import COLUMNS

LOOKING = "looking"  # nobody has announced
ANNOUNCED = "announced"  # someone has announced; my last look is still to take
LAST_LOOK_MADE = "last look made"  # my last look is made (or I announced); others still look
VOTING = "voting"  # every last look is made: the game is at the vote
VOTED = "voted"  # the votes are logged
PHASES = (LOOKING, ANNOUNCED, LAST_LOOK_MADE, VOTING, VOTED)


@dataclass(frozen=True)
class Stage:
    phase: str  # one of PHASES
    my_looks: int  # the looks I have taken
    looks_left: int  # my looks before the vote
    counted: str  # how `looks_left` was counted, in a player's words
    source: str  # the same, as `suggest --json` names it (looks_left_from)
    announce_open: bool  # I may announce now instead of looking
    short: tuple[tuple[str, int], ...]  # who has looked fewer than 4 times, and how often
    announced_by: str | None
    announced_at: int | None
    i_announced: bool
    waiting: tuple[str, ...]  # after an announcement: the others whose last look is to come
    my_last_look: int | None  # the event of my last look, once made
    votes: dict[str, int]  # player -> column
    told: Told | None  # the count as told, whether it applies or not

    def as_json(self) -> dict:
        """`stage` in the JSON of `suggest` and `solve`."""
        told = None
        if self.told is not None:
            told = {
                "looks": self.told.looks,
                "after_event": self.told.after,
                "by": "--looks-left" if self.told.by_option else "log",
                "applies": self.source != "from the log",
            }
        return {
            "phase": self.phase,
            "my_looks": self.my_looks,
            "looks_left": self.looks_left,
            "announce_open": self.announce_open,
            "short_of_4_looks": dict(self.short),
            "announced_by": self.announced_by,
            "announced_at": self.announced_at,
            "waiting_for": list(self.waiting),
            "my_last_look": self.my_last_look,
            "votes": {who: COLUMNS[c] for who, c in self.votes.items()},
            "told": told,
        }


def rules_count(log: Log) -> int:
    """My looks before the vote by the rules, with nobody announced yet: up to 4 in all, then
    one more after another player's announcement."""
    return max(LOOKS_BEFORE_ANNOUNCING - log.looks.get(log.me, 0), 0) + 1


def told_count(log: Log, told: Told) -> int | None:
    """The looks left as told, counted down by my looks since it was told; None while the log
    has not reached the point where it was told (the rules count there)."""
    if log.events < told.after:
        return None
    since = sum(1 for event in log.my_looks if event > told.after)
    return max(told.looks - since, 0)


def stage(log: Log, told: Told | None = None) -> Stage:
    """Where the game stands for me, after the log's events. `told` (`suggest --looks-left`)
    replaces the header's count; either only counts while nobody has announced: an
    announcement fixes the rest of the game (one last look for each other player)."""
    told = told or log.told
    announced = log.announced_by is not None
    i_announced = announced and log.announced_by == log.me
    my_last = log.last_looks.get(log.me)
    waiting = tuple(seat_words(s) for s in log.still_to_look() if s != log.me)
    if log.votes:
        phase = VOTED
    elif not announced:
        phase = LOOKING
    elif not i_announced and my_last is None:
        phase = ANNOUNCED
    else:
        phase = VOTING if not waiting else LAST_LOOK_MADE

    counted, source = looks_words(log, told, phase)
    if phase == LOOKING:
        by_told = told_count(log, told) if told is not None else None
        left = rules_count(log) if by_told is None else by_told
    else:
        left = 1 if phase == ANNOUNCED else 0
    seats = log.seats()
    short = tuple(
        (seat_words(s), log.looks.get(s, 0))
        for s in seats
        if log.looks.get(s, 0) < LOOKS_BEFORE_ANNOUNCING
    )
    others_known = any(s != log.me for s in seats)
    return Stage(
        phase=phase,
        my_looks=log.looks.get(log.me, 0),
        looks_left=left,
        counted=counted,
        source=source,
        announce_open=phase == LOOKING and not short and others_known,
        short=short,
        announced_by=log.announced_by,
        announced_at=log.announced_at,
        i_announced=i_announced,
        waiting=waiting,
        my_last_look=None if i_announced else my_last,
        votes=dict(log.votes),
        told=told,
    )


def looks_words(log: Log, told: Told | None, phase: str) -> tuple[str, str]:
    """How the looks left are counted: in a player's words, and as `looks_left_from`."""
    if phase != LOOKING:
        why = {
            ANNOUNCED: "your last look after the announcement",
            VOTED: "the votes are in",
        }.get(phase, "you announced" if log.announced_by == log.me else "your last look is made")
        aside = f"; the {told.looks} told are set aside" if told is not None else ""
        return f"by the rules: {why}{aside}", "from the log"
    if told is None or told_count(log, told) is None:
        later = f"; the {told.looks} told apply after event {told.after}" if told else ""
        return f"by the rules: 4 looks, then one after an announcement{later}", "from the log"
    if told.by_option:
        return "as told by --looks-left", "as told by --looks-left"
    since = sum(1 for event in log.my_looks if event > told.after)
    when = "before the first event" if told.after == 0 else f"after event {told.after}"
    counted = f"told {told.looks} {when}" + (f", {since} of your looks since" if since else "")
    return counted, "as the log's looks_left says"


def stage_line(where: Stage) -> str:
    """Where the game is, in one line."""
    by = "you" if where.i_announced else where.announced_by
    after = f"{by} announced at event {where.announced_at}"
    waiting = " and ".join(where.waiting)
    if where.phase == LOOKING:
        return f"the game: looking, nobody has announced yet (your looks: {where.my_looks})"
    if where.phase == ANNOUNCED:
        others = " and ".join(f"{w}'s" for w in where.waiting)
        also = f" (and {others})" if others else ""
        return f"the game: {after}; your last look is still to come{also}, then the vote"
    if where.phase == LAST_LOOK_MADE:
        made = (
            "" if where.i_announced else f" and your last look is made (event {where.my_last_look})"
        )
        return f"the game: {after}{made}; waiting for the last look of {waiting}, then the vote"
    if where.phase == VOTING:
        return f"the game: at the vote ({after}, and every last look is made)"
    votes = ", ".join(f"{who} {COLUMNS[c]}" for who, c in where.votes.items())
    return f"the game: voted ({votes})"


def announce_line(where: Stage, announce: bool, reason: str) -> str:
    """The announce advice: ANNOUNCE or not yet while it is open or still to open; closed once
    someone has announced or voted."""
    if where.phase != LOOKING:
        return f"announcing is closed: {reason}"
    return f"{'ANNOUNCE' if announce else 'do not announce yet'}: {reason}"


def closed_reason(where: Stage) -> str | None:
    """Why announcing is not open now, or None when it is."""
    if where.announced_by is not None:
        by = "you" if where.i_announced else where.announced_by
        return f"{by} announced at event {where.announced_at}"
    if where.phase == VOTED:
        return "the votes are in"
    if where.announce_open:
        return None
    if not where.short:  # everyone known has looked 4 times, but only I am known
        return (
            "announcing opens once everyone has looked 4 times; the log names no other "
            "player (list them under players)"
        )
    looks = ", ".join(f"{who} {n}" for who, n in where.short)
    return f"announcing opens once everyone has looked 4 times (looks so far: {looks})"
