"""Game of Suspicion puzzles: a game prefix, and "what is PLAYER's hand?" or "who holds VALUE?".

The clues are the events of `given` (0-based) after the deal, which fixes which cards are hidden
and is always kept. Leaving a clue out means forgetting what the event told (its CP-SAT assumption is off) while the cards still move as it says, so every subset of
clues is still a game. `check` proves the answer unique with CP-SAT (or shows two worlds that
disagree), then finds the redundant clues and a minimal subset. `generate` plays random 3-player
games from one seat and stops at the first event after which an opponent's hand is certain.

Difficulty is the size of the minimal clue set: 1 *easy* (up to 2 events), 2 *medium* (3-4),
3 *hard* (5 or more), since each needed event is one more deduction to combine.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from models.game_of_suspicion.belief import Impossible, track
from models.game_of_suspicion.log import GAME, parse
from solver import puzzle as puzzles
from solver.errors import Contradiction, InputError
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
        "redundant": puzzles.redundant_clues(puzzle.oracle, puzzle.clues) if unique else [],
        "minimal": puzzles.minimal_clues(puzzle.oracle, puzzle.clues) if unique else [],
        "clues": len(puzzle.clues),
    }
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
                return _as_puzzle(
                    prefix, certain[0], belief.hands(rnd.setup.place(certain[0]))[0][0], wanted
                )
        return None

    return puzzles.collect(count, attempt, tries, progress)


def _as_puzzle(prefix: dict, player: str, hand: tuple, wanted: int | None) -> dict | None:
    doc = {
        "game": GAME,
        "players": prefix["players"],
        "me": prefix["me"],
        "puzzle": {"given": prefix["events"], "question": {"hand": player}, "answer": list(hand)},
    }
    puzzle = Puzzle(Document(doc))
    minimal = puzzles.minimal_clues(puzzle.oracle, puzzle.clues)
    level = difficulty(len(minimal))
    if wanted is not None and level != wanted:
        return None
    doc["puzzle"]["difficulty"] = DIFFICULTY_NAMES[level]
    return doc
