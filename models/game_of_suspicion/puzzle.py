"""Game of Suspicion puzzles: a game prefix, and "what is PLAYER's hand?" or "who holds VALUE?".

The clues are the events of `given` (0-based) after the deal, which fixes which cards are hidden
and is always kept. A clue is *redundant* when the puzzle without it (the event taken out of
`given`) still reads as a round and has the same unique answer: a setter could strike it. A clue
that cannot go is either *needed* (with what it tells forgotten, its CP-SAT assumption off while
its cards still move, the answer is no longer unique) or *kept for the story*: what it tells is
not needed, but a later event or the answer needs the cards it moves (a guess names as many
cards as the hand then holds, a look saw a card an earlier exchange put there). `check` proves
the answer unique with CP-SAT (or shows two worlds that disagree), sorts the clues so, and finds
a minimal set of what must be told. `generate` plays random 3-player games from one seat, stops
at the first event after which an opponent's hand is certain, then strikes clues in random
order with check's own test until none is redundant, and notes the clues kept for the story.

Difficulty is the size of the minimal clue set: 1 *easy* (up to 2 events), 2 *medium* (3-4),
3 *hard* (5 or more), since each needed event is one more deduction to combine.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from models.game_of_suspicion.belief import Impossible, track
from models.game_of_suspicion.log import GAME, parse
from solver import puzzle as puzzles
from solver.errors import Contradiction, InputError, SleuthError
from solver.logfile import Document, as_whole, reading
from solver.names import NameSet
from solver.report import Report

DIFFICULTY_NAMES = {1: "easy", 2: "medium", 3: "hard"}
QUESTIONS = ("hand", "holder")


def difficulty(needed: int) -> int:
    return 1 if needed <= 2 else 2 if needed <= 4 else 3


def question_of(body: dict) -> tuple[str, Any]:
    """("hand", PLAYER) or ("holder", VALUE) from `question: {hand: Ben}` or `"hand: Ben"`."""
    question = body.get("question")
    if isinstance(question, str) and ":" in question:
        kind, _, subject = question.partition(":")
        question = {kind.strip(): subject.strip()}
    if not isinstance(question, dict) or len(question) != 1:
        raise InputError("a puzzle asks 'question: {hand: PLAYER}' or 'question: {holder: VALUE}'")
    kind, subject = next(iter(question.items()))
    return NameSet("question", QUESTIONS).resolve(kind), subject


class Puzzle:
    """A parsed puzzle: the round, its CP-SAT model and the question's query."""

    def __init__(self, doc: Document):
        body = doc.data.get("puzzle")
        if not isinstance(body, dict) or not isinstance(body.get("given"), list):
            raise InputError("a puzzle needs 'puzzle: {given: [deal, events...], question: ...}'")
        self.kind, subject = question_of(body)
        self.log = parse(doc, key="given")
        rnd = self.log.round
        if rnd is None or len(self.log.rounds) != 1:
            raise InputError("a puzzle's 'given' is one round: a deal and its events")
        self.round = rnd
        # the deal fixes which cards are hidden (it is the game's structure, not a clue)
        self.clues = [i for i in range(self.log.events) if i + 1 != rnd.deal_event]
        if self.kind == "hand":
            with reading("question: hand"):
                player = NameSet("player", self.log.players).resolve(subject)
            if player == self.log.me or player not in rnd.setup.places:
                raise InputError(f"{player}'s hand is not hidden from {self.log.me}")
            self.subject: Any = player
        else:
            self.subject = as_whole(subject, "'holder': a card value")
        from models.game_of_suspicion.knowledge import HandKnowledge

        self.knowledge = HandKnowledge(rnd.setup)

    def answers(self, clues, limit: int = 2) -> list[tuple[Any, dict]]:
        """Up to `limit` different answers when only `clues` (0-based) are known, with witnesses."""
        active = [c + 1 for c in clues]
        if self.kind == "hand":
            place = self.round.setup.place(self.subject)
            hands = self.knowledge.hand_answers(place, limit, active=active)
            return [(tuple(answer), witness) for answer, witness in hands]
        holders = self.knowledge.holder_answers(self.subject, limit, active=active)
        return [(tuple(answer), witness) for answer, witness in holders]

    def oracle(self, clues) -> list:
        return [answer for answer, _ in self.answers(clues)]


def answer_text(kind: str, answer: tuple) -> str:
    if kind == "hand":
        return " ".join(str(v) for v in answer) or "(no card)"
    return ", ".join(answer) or "no hidden place (a known place holds it)"


def outcome(data: dict, given: list) -> list[tuple] | SleuthError:
    """The distinct answers (at most two) of the puzzle `data` with `given` for its events, or
    what stops that being a puzzle: the events do not read as one round (an InputError) or
    cannot all be true (a Contradiction; its events are numbered from 1 in `given`)."""
    body = {k: v for k, v in data["puzzle"].items() if k not in ("answer", "difficulty", "path")}
    try:
        puzzle = Puzzle(Document({**data, "puzzle": {**body, "given": given}}))
        found = puzzle.oracle(puzzle.clues)
        if not found:
            return Contradiction(puzzle.knowledge.conflict(), "clues")
        return found
    except (InputError, Contradiction) as error:
        return error


@dataclass
class Roles:
    """What each clue of a unique puzzle is (indexes in `given`): see the module's docstring."""

    redundant: list[int]
    kept: list[int]  # kept for the story
    because: list[str]  # why each kept clue cannot be left out, in a player's words


def clue_roles(data: dict, puzzle: Puzzle, answer: tuple) -> Roles:
    """Strike each clue from `given` in turn: redundant when the rest has the same unique
    answer; else kept for the story when only what it tells can be forgotten."""
    given = data["puzzle"]["given"]
    roles = Roles([], [], [])
    for clue in puzzle.clues:
        without = outcome(data, given[:clue] + given[clue + 1 :])
        if without == [answer]:
            roles.redundant.append(clue)
        elif puzzles.unique_answer(puzzle.oracle, [c for c in puzzle.clues if c != clue]) == answer:
            roles.kept.append(clue)
            roles.because.append(why_kept(without, clue, puzzle))
    return roles


def why_kept(without: list[tuple] | SleuthError, clue: int, puzzle: Puzzle) -> str:
    """Why the puzzle without `clue` is not the same puzzle, naming the others by their index in
    the whole `given` (the outcome numbers the events of `given` without it from 1)."""

    def named(events: list[int]) -> str:
        indexes = [e - 1 if e - 1 < clue else e for e in events]
        deal = puzzle.round.deal_event - 1
        clues = [str(i) for i in indexes if i != deal]
        words = ["the deal"] if deal in indexes else []
        if clues:
            listed = f"{', '.join(clues[:-1])} and {clues[-1]}" if len(clues) > 1 else clues[0]
            words.append(f"clue{'s' if len(clues) > 1 else ''} {listed}")
        return " and ".join(words)

    if isinstance(without, InputError):
        if without.event is None:
            return f"without it the other events are not a round: {without.message}"
        return f"{named([without.event])} needs it: without it, {without.message}"
    if isinstance(without, Contradiction):
        if len(without.events) == 1:
            return f"without it, {named(without.events)} cannot be true"
        return f"without it, {named(without.events)} cannot all be true"
    if isinstance(without, SleuthError):  # no other error comes from reading a puzzle
        return f"without it: {without}"
    if len(without) == 1:
        answer = answer_text(puzzle.kind, without[0])
        return f"the answer needs the cards it moves: without it, the answer would be {answer}"
    return "the answer needs the cards it moves: without it, the answer is not unique"


def check(game, doc: Document) -> Report:
    """`sleuth check`: unique answer, witnesses, redundant clues, a minimal clue set."""
    try:
        puzzle = Puzzle(doc)
    except Contradiction as error:  # clues, like every puzzle tool, are 0-based in `given`
        raise Contradiction([e - 1 for e in error.events], "clues", error.detail) from None
    found = puzzle.answers(puzzle.clues)
    if not found:
        events = puzzle.knowledge.conflict()
        raise Contradiction([e - 1 for e in events], "clues", "no deal and history fits them")
    unique = len(found) == 1
    answer = list(found[0][0]) if unique else None
    data: dict = {
        "game": game.name,
        "question": {puzzle.kind: puzzle.subject},
        "unique": unique,
        "answer": answer,
        "answers": [list(a) for a, _ in found],
        "witnesses": [] if unique else [{"answer": list(a), "world": w} for a, w in found],
        "redundant": [],
        "kept": [],
        "kept_because": [],
        "minimal": puzzles.minimal_clues(puzzle.oracle, puzzle.clues) if unique else [],
        "clues": len(puzzle.clues),
    }
    if unique:
        roles = clue_roles(doc.data, puzzle, found[0][0])
        data.update(redundant=roles.redundant, kept=roles.kept, kept_because=roles.because)
    what = (
        f"{puzzle.subject}'s hand" if puzzle.kind == "hand" else f"who holds the {puzzle.subject}"
    )
    lines = []
    if unique:
        data["difficulty"] = DIFFICULTY_NAMES[difficulty(len(data["minimal"]))]
        lines += [
            f"unique: {what} is {answer_text(puzzle.kind, found[0][0])} in every world",
            f"difficulty: {data['difficulty']} ({len(data['minimal'])} events needed)",
            f"redundant events (0-based in given): {data['redundant'] or 'none'}",
            f"a minimal set of events: {data['minimal']}",
        ]
        if data["kept"]:
            lines.append(
                "kept for the story (0-based in given; what they tell is not needed, but they "
                "cannot be left out):"
            )
            lines += [
                f"  {c}: {why}" for c, why in zip(data["kept"], data["kept_because"], strict=True)
            ]
    else:
        lines.append(f"NOT unique: two worlds where {what} differs:")
        for a, world in found:
            shown = "; ".join(f"{p}: {' '.join(map(str, h)) or '-'}" for p, h in world.items())
            lines.append(f"  {answer_text(puzzle.kind, a)} — {shown}")
    exit_code = 0 if unique else 1
    intended = doc.data["puzzle"].get("answer")
    if intended is not None:
        wanted = _intended(puzzle.kind, intended, puzzle)
        data["answer_matches"] = unique and wanted == tuple(answer or ())
        if not data["answer_matches"]:
            lines.append(f"the author's answer {answer_text(puzzle.kind, wanted)} is not proven")
            exit_code = 1
    return Report(data, [], lines, puzzle.log.warnings, exit_code)


def _intended(kind: str, intended: object, puzzle: Puzzle) -> tuple:
    items: list[Any] = intended if isinstance(intended, list) else [intended]
    if kind == "hand":
        return tuple(sorted(as_whole(v, "a hand answer: a list of card values") for v in items))
    names = NameSet("place", puzzle.round.setup.places)
    return tuple(sorted((names.resolve(p) for p in items), key=puzzle.round.setup.places.index))


def generate(
    rng: random.Random,
    count: int,
    wanted: int | None = None,
    progress: Callable[[], None] | None = None,
    tries: int = 200,
) -> list[dict]:
    """`count` puzzles "what is PLAYER's hand?" from random 3-player games (of a difficulty)."""
    from models.game_of_suspicion.simulate import random_game

    def attempt() -> dict | None:
        doc, _ = random_game(rng, players=3, me="P1", events=24)
        events = doc["events"]
        for upto in range(2, len(events) + 1):
            prefix = {**doc, "events": events[:upto]}
            log = parse(Document(prefix))
            rnd = log.round
            if rnd is None or len(log.rounds) != 1 or rnd.over:
                return None
            try:
                belief = track(rnd.setup)
            except Impossible:
                return None
            certain = [
                p for p in rnd.active if p != log.me and belief.hands(rnd.setup.place(p))[0][1] == 1
            ]
            if certain:
                hand = belief.hands(rnd.setup.place(certain[0]))[0][0]
                return _as_puzzle(rng, prefix, certain[0], hand, wanted)
        return None

    return puzzles.collect(count, attempt, tries, progress)


def strike(rng: random.Random, data: dict, answer: tuple) -> list:
    """The puzzle's `given` with clues struck in random order while the rest has `answer` as
    its unique answer, until none can go: check's own test, so that check finds none redundant.
    A pass can free a clue an earlier one kept (a play, once the guess counting its cards has
    gone): passes repeat until one strikes nothing."""
    given = data["puzzle"]["given"]
    puzzle = Puzzle(Document(data))
    deal = puzzle.round.deal_event - 1

    def same_answer(clues: list[int]) -> bool:
        return outcome(data, [given[i] for i in sorted([deal, *clues])]) == [answer]

    kept = puzzles.drop_clues(rng, puzzle.clues, same_answer, until_none_goes=True)
    return [given[i] for i in sorted([deal, *kept])]


def _as_puzzle(
    rng: random.Random, prefix: dict, player: str, hand: tuple, wanted: int | None
) -> dict | None:
    """The game prefix as a puzzle about `player`'s hand with no redundant clue; the clues
    kept for the story are said in its `notes`."""
    doc: dict = {
        "game": GAME,
        "players": prefix["players"],
        "me": prefix["me"],
        "puzzle": {"given": prefix["events"], "question": {"hand": player}},
    }
    doc["puzzle"]["given"] = strike(rng, doc, hand)
    puzzle = Puzzle(Document(doc))
    minimal = puzzles.minimal_clues(puzzle.oracle, puzzle.clues)
    level = difficulty(len(minimal))
    if wanted is not None and level != wanted:
        return None
    doc["puzzle"].update(answer=list(hand), difficulty=DIFFICULTY_NAMES[level])
    roles = clue_roles(doc, puzzle, hand)
    if roles.kept:
        doc["notes"] = [
            f"clue {clue} (0-based in given) is kept for the story: {why}"
            for clue, why in zip(roles.kept, roles.because, strict=True)
        ]
    return doc
