"""Why a fact about the hidden cards is certain, and which events moved a chance: Suspeição's
part of `sleuth explain` (solver/explain.py does the rest, for every game).

A round's log mixes two things. *Moves* always hold: the deal, the turns, every card seen
changing place (played, shown by a REVEAL, revealed by the polygraph, drawn, bought, taken or
given by me) and the unseen ones (draws by others, TAKE and EXCHANGE between others). An
event's *observations* say more about the hidden cards than the cards it moves, and an
explanation may leave them out; an event with one is a *statement*:

- a FORCE answered by another player: the card shown (chosen among the target's qualifying
  cards) or the claim of none (true, or a bluff at the model's rate);
- the card the polygraph returned (it stays in the target's hand);
- `show` and `fact`;
- `end`: the evidence each player kept, and the rest in the pile.

Left out, a statement's observations are skipped by the exact filter and its moves still made:
a FORCE answered with card X becomes "X left the target's hand", as a card played; a claim of
none, a returned card, a show, a fact and the end become nothing. The chances are then the exact
posterior of the rest, under the same model (RULINGS.md §4), by the same filter (belief.py).
Leaving out observations only lets more hidden worlds in, so a log that is consistent stays so.

The facts are named as `solve` names them: `evidence 21: Cleo`, `evidence 21: not Ben`,
`evidence 9: pile`, `evidence 16: front (Dan)`, `Ben holds a card meeting odd`, `Ben holds no
card meeting odd`, with other spellings a player would type (`card 21 in pile`, `Ben lacks
odd`). Facts that hold whatever the statements say (a card face up, a card I gave) are *seen*:
their explanation is the events that moved the card, not a minimal set of statements.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction

from models.suspeicao.belief import Belief, Impossible, Refused
from models.suspeicao.log import DISCARD, Log, Round, parse
from models.suspeicao.rules import Requirement
from models.suspeicao.steps import PILE, Enter, Fact, Force, Hidden, Isolate, Leave, Step, Swap
from solver.errors import InputError
from solver.explain import Grounds, chain, core, influence_report, listed, where
from solver.logfile import Document
from solver.report import Report

OBSERVED = (Force, Isolate, Fact)  # steps that only observe (a FORCE answered with a card also
# moves it: left out, it becomes a Leave)
SAVED_MOST = 4096  # filter states kept to resume from (each shares its tables with the others)


def observes(step: Step, kind: str) -> bool:
    """Whether `step` is an observation (of an event of `kind`): skipped when left out."""
    return isinstance(step, OBSERVED) or (kind == "end" and isinstance(step, Leave))


def moves_of(step: Step) -> list[Step]:
    """What an observation still does when its statement is left out: the cards it moves."""
    if isinstance(step, Force) and step.revealed is not None:
        return [Leave(step.event, step.place, step.revealed)]
    return []


# -- the facts, as solve names them -------------------------------------------------------------


def at(card: str, place: str) -> str:
    return f"evidence {card}: {place}"


def not_at(card: str, place: str) -> str:
    return f"evidence {card}: not {place}"


def holds(player: str, text: str) -> str:
    return f"{player} holds a card meeting {text}"


def holds_none(player: str, text: str) -> str:
    return f"{player} holds no card meeting {text}"


def place_aliases(card: str, place: str, me: str) -> list[str]:
    """Other ways to say where a card is."""
    if place == PILE:
        return [f"card {card} in pile", f"{card} in pile", f"card {card} in draw pile"]
    if place == DISCARD:
        return [f"card {card} in discard", f"{card} in discard", f"{card} discarded"]
    if place.startswith("front ("):
        player = place[len("front (") : -1]
        return [f"card {card} in front of {player}", f"{card} in front of {player}"]
    mine = [f"card {card} in my hand", f"{card} in my hand"] if place == me else []
    return [
        *mine,
        f"card {card} in {place}'s hand",
        f"{card} in {place}'s hand",
        f"{place} holds {card}",
        f"{place} has {card}",
        f"card {card} {place}",
        f"card {card} in {place}",
    ]


def absent_aliases(card: str, place: str) -> list[str]:
    if place == PILE:
        return [f"card {card} not in pile", f"{card} not in pile"]
    return [
        f"card {card} not in {place}'s hand",
        f"{card} not in {place}'s hand",
        f"{place} lacks {card}",
        f"{place} does not hold {card}",
        f"card {card} not {place}",
    ]


def holds_aliases(player: str, text: str, some: bool) -> list[str]:
    if some:
        return [
            f"{player} has {text}",
            f"{player} holds {text}",
            f"{player} has a card meeting {text}",
            f"{player} meets {text}",
        ]
    return [
        f"{player} lacks {text}",
        f"{player} has no {text}",
        f"{player} has no card meeting {text}",
        f"{player} does not hold {text}",
    ]


def opposite(fact: str) -> str | None:
    """The fact that holds exactly when `fact` does not (None for a card seen)."""
    for yes, no in ((": ", ": not "), (" holds a card meeting ", " holds no card meeting ")):
        if no in fact:
            return fact.replace(no, yes, 1)
        if yes in fact and not fact.split(yes, 1)[1].startswith(("front (", DISCARD)):
            return fact.replace(yes, no, 1)
    return None


# -- the round read again with some statements left out -----------------------------------------


class Replay:
    """A round of a log, and the exact chance of every fact with only some statements kept."""

    def __init__(
        self, doc: Document, log: Log, rnd: Round, upto: int | None, whole: Belief | None = None
    ):
        from models.suspeicao.game import known_place  # game.py imports this module

        self.doc, self.log, self.round, self.upto = doc, log, rnd, upto
        self.raw = doc.events(doc.events_key, upto)
        self.kinds = {i: next(iter(e)) for i, e in enumerate(self.raw, 1) if isinstance(e, dict)}
        self.steps = list(rnd.setup.steps)
        self.statements = sorted(
            {s.event for s in self.steps if observes(s, self.kinds.get(s.event, ""))}
        )
        # the first step of each statement: a filter state saved there serves every kept set
        # that agrees on the statements before it
        self.starts: dict[int, int] = {}  # step index -> statement
        for index, step in enumerate(self.steps):
            if step.event in self.statements and step.event not in self.starts.values():
                self.starts[index] = step.event
        self.saved: dict[tuple[int, frozenset[int]], Belief] = {}
        # the filter with every statement (solve's), and with none (what the moves alone show)
        self.done: dict[frozenset[int], Belief] = {}
        if whole is not None:
            self.done[frozenset(self.statements)] = whole
        self.known: dict[frozenset[int], dict[str, Fraction]] = {}
        self.seen = {
            card: next(iter(place))
            for card in rnd.incriminating
            if card not in rnd.left_in_pile and (place := known_place(log, rnd, card)) is not None
        }
        self.hidden = [c for c in rnd.incriminating if c not in self.seen]
        opponents = [p for p in log.players if p != log.me]
        self.holders = [p for p in opponents if rnd.hand_size[p] > 0]
        self.places = self.holders + ([PILE] if rnd.pile > 0 or rnd.left_in_pile else [])
        self.requirements: list[Requirement] = log.deck.requirements()
        self.aliases = self.name_facts()

    def name_facts(self) -> dict[str, list[str]]:
        """Every fact's name (as solve says it) and its other spellings."""
        me = self.log.me
        names: dict[str, list[str]] = {}
        for card, place in self.seen.items():
            names[at(card, place)] = place_aliases(card, place, me)
        for card in self.hidden:
            for place in self.places:
                names[at(card, place)] = place_aliases(card, place, me)
            for place in self.places:
                names[not_at(card, place)] = absent_aliases(card, place)
        for player in self.holders:
            for req in self.requirements:
                names[holds(player, req.text)] = holds_aliases(player, req.text, True)
                names[holds_none(player, req.text)] = holds_aliases(player, req.text, False)
        return names

    # -- the filter --------------------------------------------------------------------------

    def steps_for(self, kept: frozenset[int], steps: Iterable[Step]) -> list[Step]:
        """`steps` as the filter applies them when only the statements `kept` hold."""
        found: list[Step] = []
        for step in steps:
            if step.event in kept or not observes(step, self.kinds.get(step.event, "")):
                found.append(step)
            else:
                found.extend(moves_of(step))
        return found

    def belief(self, kept: frozenset[int]) -> Belief:
        """The filter after the round with only the statements `kept`. It resumes from the
        latest state saved before a statement whose earlier statements are kept alike (a core
        shrinks by leaving out one statement at a time, so most of the round is not redone)."""
        belief, start = None, 0
        for index in sorted(self.starts, reverse=True):
            event = self.starts[index]
            key = (event, frozenset(e for e in kept if e < event))
            if key in self.saved:
                belief, start = self.saved[key].copy(), index
                break
        if belief is None:
            belief = Belief(self.round.setup, self.log.deck)
        try:
            for index in range(start, len(self.steps)):
                begins = self.starts.get(index)
                if begins is not None:
                    key = (begins, frozenset(e for e in kept if e < begins))
                    if key not in self.saved:
                        if len(self.saved) >= SAVED_MOST:
                            self.saved.clear()
                        self.saved[key] = belief.copy()
                for step in self.steps_for(kept, [self.steps[index]]):
                    belief.apply(step)
            if belief.total() == 0:
                raise Impossible(self.log.events)
        except Refused as refused:
            from models.suspeicao.game import too_large

            raise too_large(refused) from None
        except Impossible as impossible:  # pragma: no cover - fewer statements, more worlds
            raise InputError(
                "the log is consistent, but not without some of its statements (a bug)",
                event=impossible.event,
            ) from None
        return belief

    def chances(self, kept: frozenset[int]) -> dict[str, Fraction]:
        """Every fact's exact chance after the round with only the statements `kept`."""
        if kept in self.known:
            return self.known[kept]
        belief = self.done.get(kept) or self.belief(kept)
        if not kept:
            self.done[kept] = belief
        found: dict[str, Fraction] = {
            at(card, place): Fraction(1) for card, place in self.seen.items()
        }
        for card in self.hidden:
            # a card not hidden any more was left in the pile by the `end` kept
            spread = belief.where(card) if card in belief.supply else {PILE: Fraction(1)}
            for place in self.places:
                found[at(card, place)] = spread.get(place, Fraction(0))
            for place in self.places:
                found[not_at(card, place)] = 1 - spread.get(place, Fraction(0))
        for player in self.holders:
            for req in self.requirements:
                p = belief.holds_meeting(player, req)
                found[holds(player, req.text)] = p
                found[holds_none(player, req.text)] = 1 - p
        self.known[kept] = found
        return found

    def cases(self, kept: frozenset[int], fact: str) -> list[str]:
        """The places still possible for the fact's incriminating card, or for each hidden one
        when the fact is about a hand (a case split's cases)."""
        chance = self.chances(kept)
        cards = [card for card in self.hidden if fact.startswith(f"evidence {card}:")]
        return [
            f"{card} {place_words(place)}"
            for card in cards or self.hidden
            for place in self.places
            if chance[at(card, place)] > 0
        ]

    def words(self, event: int) -> str:
        from models.suspeicao.game import describe_event

        return describe_event(self.raw[event - 1])

    def grounds(self) -> Grounds:
        return Grounds(
            list(self.statements),
            self.chances,
            self.words,
            lambda fact: self.aliases.get(fact, []),
            cases=self.cases,
        )

    # -- facts seen: the moves that show them ---------------------------------------------------

    def trail(self, card: str) -> list[int]:
        """The events of the round in which `card`'s place, as `me` sees it, changed."""
        from models.suspeicao.game import known_place

        found, before = [], None
        for upto in range(self.round.deal_event, len(self.raw) + 1):
            log = parse(self.doc, upto, self.doc.events_key)
            rnd = log.round
            assert rnd is not None
            place = known_place(log, rnd, card)
            if place != before:
                found.append(upto)
                before = place
        return found

    def moved_in(self) -> dict[str, tuple[str, int]]:
        """The cards I saw go into another player's hand and know are still there, from the
        moves alone: card -> (player, event)."""
        known: dict[str, tuple[str, int]] = {}
        for step in self.steps:
            if isinstance(step, Enter):
                known[step.card] = (step.place, step.event)
            elif isinstance(step, Leave):
                known.pop(step.card, None)
            elif isinstance(step, Force) and step.revealed is not None:
                known.pop(step.revealed, None)
            elif isinstance(step, Hidden | Swap):
                gone = (step.source,) if isinstance(step, Hidden) else (step.first, step.second)
                known = {c: w for c, w in known.items() if w[0] not in gone}
        return known

    def seen_events(self, fact: str) -> tuple[list[int], str]:
        """For a fact certain from the moves alone: the events that show it, and why."""
        me = self.log.me
        for card, place in self.seen.items():
            if fact == at(card, place):
                if place.startswith("front ("):
                    return self.trail(card), f"card {card} lies face up {place_words(place)}"
                return self.trail(card), f"card {card} is {place_words(place)}"
        moved = self.moved_in()
        for card in self.hidden:
            if card in moved:
                player, event = moved[card]
                others = [not_at(card, p) for p in self.places if p != player]
                if fact in (at(card, player), *others):
                    return [event], f"{me} saw {card} go into {player}'s hand"
        self.chances(frozenset())
        supply = self.done[frozenset()].supply
        for player in self.holders:
            mine = {c: e for c, (p, e) in moved.items() if p == player}
            for req in self.requirements:
                meeting = sorted((e, c) for c, e in mine.items() if self.meets(c, req))
                if fact == holds(player, req.text) and meeting:
                    cards = " ".join(c for _, c in meeting)
                    return sorted(
                        {e for e, _ in meeting}
                    ), f"{me} saw {cards} go into {player}'s hand"
                if fact == holds_none(player, req.text):
                    if not any(self.meets(c, req) for c in supply):
                        return [], f"no hidden card meets {req.text}"
                    if len(mine) == self.round.hand_size[player]:
                        cards = " ".join(sorted(mine, key=lambda c: mine[c]))
                        return sorted(
                            set(mine.values())
                        ), f"{me} saw all of {player}'s cards go into the hand: {cards}"
        sizes = ", ".join(f"{p} {self.round.hand_size[p]}" for p in self.places if p != PILE)
        if len(supply) <= 16:
            left = " ".join(sorted(supply, key=lambda c: (not c.isdigit(), c.zfill(3))))
            return (
                [],
                f"the hidden cards left are {left} ({sizes}): every way to share them gives it",
            )
        return [], "it follows from how many hidden cards of each kind are left"

    def meets(self, card: str, req: Requirement) -> bool:
        return req.met_by(self.log.deck.card(card))


def place_words(place: str) -> str:
    if place.startswith("front ("):
        return f"in front of {place[len('front (') : -1]}"
    if place in (DISCARD, PILE):
        return f"in the {place}"
    return f"in {place}'s hand"


# -- the report ------------------------------------------------------------------------------------


def brief(facts: list[str]) -> str:
    """Facts said shortly: a card's absences are left out when its place is among them, and the
    absences of one card, or the requirements one player meets (or not), are said together."""
    placed = {f.split(": ", 1)[0] for f in facts if f.startswith("evidence ") and ": not " not in f}
    said: dict[tuple[str, str], list[str]] = {}
    for fact in facts:
        if ": not " in fact:
            card, place = fact.split(": not ", 1)
            if card not in placed:
                said.setdefault(("not", card), []).append(place)
        elif " holds a card meeting " in fact:
            player, text = fact.split(" holds a card meeting ", 1)
            said.setdefault(("some", player), []).append(text)
        elif " holds no card meeting " in fact:
            player, text = fact.split(" holds no card meeting ", 1)
            said.setdefault(("none", player), []).append(text)
        else:
            said[("at", fact)] = []
    parts = []
    for (kind, subject), items in said.items():
        if kind == "at":
            parts.append(subject)
        elif kind == "not":
            parts.append(f"{subject}: " + ", ".join(f"not {p}" for p in items))
        elif kind == "some":
            each = items[0] if len(items) == 1 else "each of " + ", ".join(items)
            parts.append(f"{subject} holds a card meeting {each}")
        else:
            either = ", ".join(items[:-1]) + " or " + items[-1] if len(items) > 1 else items[0]
            parts.append(f"{subject} holds no card meeting {either}")
    return "; ".join(parts)


def from_events(kept: Sequence[int]) -> str:
    if len(kept) == 1:
        return f"certain from event {kept[0]} alone (it cannot be left out)"
    named = ", ".join(map(str, kept))
    return f"certain from events {named} alone (no one of them can be left out)"


def certain_parts(
    replay: Replay, grounds: Grounds, facts: list[str]
) -> list[tuple[list[dict], list[str]]]:
    """Each fact's minimal set of statements and its chain (solver/explain.py); facts with the
    same set are said together, each step's newly certain facts shortly (the JSON has them all)."""
    groups: dict[tuple[int, ...], list[str]] = {}
    for fact in facts:
        groups.setdefault(tuple(core(grounds, fact)), []).append(fact)
    parts = []
    for kept, group in groups.items():
        chains = {fact: chain(grounds, kept, fact) for fact in group}
        data = [
            {
                "fact": fact,
                "certain": True,
                "events": [where(replay.doc, grounds, e) for e in kept],
                "chain": [
                    {
                        **where(replay.doc, grounds, s.event),
                        "newly_certain": s.newly_certain,
                        "split": s.split,
                        "case_split": s.case_split,
                    }
                    for s in chains[fact]
                ],
                "minimal": True,
            }
            for fact in group
        ]
        lines = [f"{brief(group)} — {from_events(kept)}"]
        for i, step in enumerate(chains[group[0]]):
            said = brief(step.newly_certain) or "nothing certain yet"
            lines.append(f"  event {step.event}: {step.words} → {said}")
            split = [f for f in group if chains[f][i].case_split]
            if split:  # each fact's cases are its own card's places: all of the group's
                splits = [chains[f][i].case_split for f in split]
                before = list(dict.fromkeys(c for cases in splits for c in cases["before"]))
                after = list(dict.fromkeys(c for cases in splits for c in cases["after"]))
                lines.append(
                    f"    a case split: before it, {len(before)} places were open "
                    f"({listed(before)}); this event leaves {len(after)} ({listed(after)}), "
                    f"and in each, {brief(split)}"
                )
        parts.append((data, lines))
    return parts


def seen_parts(
    replay: Replay, grounds: Grounds, facts: list[str]
) -> list[tuple[list[dict], list[str]]]:
    """Facts that hold whatever the statements say, with the events (moves) that show them;
    facts shown by the same events for the same reason are said together."""
    groups: dict[tuple[tuple[int, ...], str], list[str]] = {}
    for fact in facts:
        shown_by, why = replay.seen_events(fact)
        groups.setdefault((tuple(shown_by), why), []).append(fact)
    parts = []
    for (events, why), group in groups.items():
        seen = [where(replay.doc, grounds, e) for e in events]
        data = [
            {
                "fact": fact,
                "certain": True,
                "events": [],
                "chain": [],
                "minimal": True,
                "seen": seen,
                "why": why,
            }
            for fact in group
        ]
        lines = [f"{brief(group)} — seen, no statement needed: {why}"]
        lines += [f"  event {e}: {grounds.words(e)}" for e in events]
        parts.append((data, lines))
    return parts


def implied(fact: str, certain: set[str]) -> bool:
    """A card's absence from a place, when its place is certain: it follows at once."""
    if ": not " not in fact:
        return False
    card = fact.split(": not ", 1)[0]
    return any(f.startswith(card + ": ") and ": not " not in f for f in certain)


def explain(
    game: str, doc: Document, log: Log, fact: str | None, upto: int | None, whole: Belief
) -> Report:
    """`sleuth explain` for a Suspeição log (see the module's docstring); `whole` is the
    filter after the whole log."""
    rnd = log.round
    assert rnd is not None
    replay = Replay(doc, log, rnd, upto, whole)
    grounds = replay.grounds()
    every = frozenset(replay.statements)
    facts = list(grounds.chance(every))
    seen = set(grounds.certain(frozenset()))
    head = {"game": game, "statements": list(replay.statements)}
    if fact is None:
        certain = set(grounds.certain(every))
        listed_facts = [f for f in facts if f in certain and not implied(f, certain)]
        if not listed_facts:
            data = {**head, "facts": [], "note": "nothing is certain from the log"}
            return Report(data, lines=["nothing is certain from the log yet"])
        parts = certain_parts(replay, grounds, [f for f in listed_facts if f not in seen])
        parts += seen_parts(replay, grounds, [f for f in listed_facts if f in seen])
        lines = [statement_line(replay)]
        for _, told in parts:
            lines += ["", *told]
        also = [f for f in facts if f in certain and f not in listed_facts]
        if also:
            lines += ["", f"also certain, as it follows from the above: {brief(also)}"]
        data = {**head, "facts": [d for ds, _ in parts for d in ds], "also_certain": also}
        return Report(data, lines=lines)
    asked = grounds.resolve(fact)
    flipped = opposite(asked) if grounds.chance(every)[asked] == 0 else None
    named = flipped if flipped is not None and flipped in facts else asked
    if grounds.chance(every)[named] != 1:
        report = influence_report(game, doc, grounds, named)
        report.data.update(head)
        return report
    explaining = seen_parts if named in seen else certain_parts
    ((part,), said) = explaining(replay, grounds, [named])[0]
    if named != asked:
        said = [f"{asked} is impossible: {named} is certain", *said]
        part["impossible"] = asked
    return Report({**head, **part}, lines=said)


def statement_line(replay: Replay) -> str:
    if not replay.statements:
        return "statements: none (every event of the round only moves cards)"
    return (
        f"statements (events that can be left out): {', '.join(map(str, replay.statements))}; "
        "every other event only moves cards and always holds"
    )
