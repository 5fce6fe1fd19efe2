"""Suspeição puzzles: "who holds incriminating card N?" from a deal and clues.

A puzzle's `given` is one round seen from `me`'s seat: a deal, then events. The clues are its
`fact` and `show` events (statements about hands): leaving one out forgets what it said while
every other event still happens, so every subset of clues is still a game. The other events (the
turns) are the puzzle's story and are always kept. The answer is the place of the card (an
opponent, the pile, or a known place); `check` uses the exact filter: the answer is unique when
one place has probability 1.

Difficulty is the size of the minimal clue set: 1 easy (up to 2 clues), 2 medium (3-4),
3 hard (5 or more). `generate` deals a random round of 3 players and adds true facts about a
random truth until the holder of one incriminating card is certain, then drops clues. Facts
about hands can rule a hand out but never the 35-card pile, so a generated puzzle asks about a
card that is in the pile, and the deduction is that neither opponent can hold it; hand-written
puzzles may use any events (a FORCE, a polygraph...) and have any answer.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from fractions import Fraction

from models.suspeicao import rules
from models.suspeicao.belief import Impossible, Refused, track
from models.suspeicao.game import known_place, too_large
from models.suspeicao.log import GAME, parse
from models.suspeicao.steps import PILE
from solver import puzzle as puzzles
from solver.errors import Contradiction, InputError
from solver.logfile import Document
from solver.report import Report

DIFFICULTY_NAMES = {1: "easy", 2: "medium", 3: "hard"}
CLUE_KINDS = ("fact", "show")
PLAYERS = ["Ana", "Ben", "Cleo"]
FAMILIES = (("odd", "even"), ("1-17", "18-34", "35-50"))  # generated facts: parity and range


def difficulty(needed: int) -> int:
    return 1 if needed <= 2 else 2 if needed <= 4 else 3


class Puzzle:
    def __init__(self, doc: Document):
        body = doc.data.get("puzzle")
        if not isinstance(body, dict) or not isinstance(body.get("given"), list):
            raise InputError(
                "a puzzle needs 'puzzle: {given: [deal, events...], question: {holder: N}}'"
            )
        question = body.get("question")
        if isinstance(question, str) and ":" in question:
            kind, _, subject = question.partition(":")
            question = {kind.strip(): subject.strip()}
        if not isinstance(question, dict) or list(question) != ["holder"]:
            raise InputError(
                "a Suspeição puzzle asks 'question: {holder: N}' (an incriminating card)"
            )
        self.doc = doc
        self.given = list(body["given"])
        log = parse(doc, key="given")
        if log.round is None or len(log.rounds) != 1:
            raise InputError("a puzzle's 'given' is one round: a deal and its events")
        self.card = log.deck.card(str(question["holder"])).name
        if self.card not in log.round.incriminating:
            raise InputError(f"card {self.card} is not incriminating in this puzzle's deal")
        self.clues = [
            i
            for i, e in enumerate(self.given)
            if isinstance(e, dict) and next(iter(e), None) in CLUE_KINDS
        ]

    def places(self, clues) -> dict[str, Fraction]:
        """Where the card may be when only `clues` (0-based indexes in `given`) are known."""
        kept = [e for i, e in enumerate(self.given) if i not in self.clues or i in set(clues)]
        trial = Document({**self.doc.data, "puzzle": {"given": kept}}, self.doc.path)
        log = parse(trial, key="given")
        rnd = log.round
        assert rnd is not None
        known = known_place(log, rnd, self.card)
        if known is not None:
            return known
        try:
            belief = track(rnd.setup, log.deck)
            return belief.where(self.card)
        except Impossible as impossible:
            raise Contradiction(
                [impossible.event - 1], "clues", "no deal fits the clues up to here"
            ) from None
        except Refused as refused:
            raise too_large(refused) from None

    def oracle(self, clues) -> list[str]:
        return sorted(self.places(clues))


def check(game, doc: Document) -> Report:
    puzzle = Puzzle(doc)
    places = puzzle.places(puzzle.clues)
    unique = len(places) == 1
    answer = next(iter(places)) if unique else None
    expected = (doc.data.get("puzzle") or {}).get("answer")
    data: dict = {
        "game": game.name,
        "question": {"holder": puzzle.card},
        "unique": unique,
        "answer": answer,
        "answers": sorted(places),
        "witnesses": []
        if unique
        else [{"answer": p, "p": float(q)} for p, q in sorted(places.items())][:2],
        "redundant": puzzles.redundant_clues(puzzle.oracle, puzzle.clues) if unique else [],
        "minimal": puzzles.minimal_clues(puzzle.oracle, puzzle.clues) if unique else [],
        "clues": len(puzzle.clues),
    }
    lines = []
    if unique:
        lines.append(
            f"unique: card {puzzle.card} is in {answer}'s hand"
            if answer not in (PILE,)
            else f"unique: card {puzzle.card} is in the pile"
        )
        lines.append(
            f"redundant clues: {data['redundant'] or 'none'}; a minimal set: {data['minimal']}"
        )
        data["difficulty"] = DIFFICULTY_NAMES[difficulty(len(data["minimal"]))]
    else:
        lines.append(
            f"not unique: card {puzzle.card} may be in "
            + ", ".join(f"{p} ({float(q):.3f})" for p, q in sorted(places.items()))
        )
    exit_code = 0 if unique else 1
    if expected is not None and unique and str(expected).lower() != str(answer).lower():
        lines.append(f"the author's answer {expected!r} is wrong: the clues say {answer}")
        data["answer_matches"] = False
        exit_code = 1
    elif expected is not None:
        data["answer_matches"] = unique
    return Report(data, [], lines, exit_code=exit_code)


def true_fact(
    rng: random.Random, truth: dict[str, set[str]], deck: rules.Deck, subject: str
) -> dict:
    """A true fact about a random opponent's hand; most often about a requirement the subject
    card meets (then a hand lacking it cannot hold the card)."""
    player = rng.choice(sorted(truth))
    texts = [t for family in FAMILIES for t in family]
    about = [t for t in texts if rules.requirement(t).met_by(deck.card(subject))]
    requirement = rules.requirement(rng.choice(about if rng.random() < 0.7 else texts))
    has = any(requirement.met_by(deck.card(c)) for c in truth[player])
    return {"fact": {"player": player, "has" if has else "lacks": requirement.text}}


def generate(
    game,
    rng: random.Random,
    count: int,
    difficulty_wanted: int | None,
    progress: Callable[[], None] | None,
) -> list[dict]:
    deck = rules.load_deck()
    used = [c.name for c in deck.for_players(len(PLAYERS))]
    numbers = [c for c in used if deck.card(c).number is not None]

    def attempt() -> dict | None:
        cards = list(used)
        rng.shuffle(cards)
        hands = {
            p: cards[i * deck.hand_size : (i + 1) * deck.hand_size] for i, p in enumerate(PLAYERS)
        }
        incriminating = rng.sample(numbers, 4)
        # facts about hands can rule hands out, never the 35-card pile: ask about a card there
        in_pile = [c for c in incriminating if not any(c in h for h in hands.values())]
        if not in_pile:
            return None
        subject = rng.choice(in_pile)
        deal = {
            "deal": {
                "incriminating": [int(c) for c in incriminating],
                "hand": [int(c) if c.isdigit() else c for c in hands["Ana"]],
            }
        }
        truth = {p: set(hands[p]) for p in PLAYERS[1:]}
        base = {"game": GAME, "players": PLAYERS, "me": "Ana"}

        def places(clues: list) -> list[str]:
            doc = Document(
                {**base, "puzzle": {"given": [deal, *clues], "question": {"holder": int(subject)}}}
            )
            try:
                return Puzzle(doc).oracle(range(len(clues) + 1))
            except (InputError, Contradiction):
                return []

        def clue(rng: random.Random, clues: list) -> dict:
            return true_fact(rng, truth, deck, subject)

        made = puzzles.generate(rng, clue, places, max_clues=12)
        if made is None:
            return None
        level = difficulty(len(made.clues))
        if difficulty_wanted is not None and level != difficulty_wanted:
            return None
        return {
            **copy.deepcopy(base),
            "puzzle": {
                "given": [deal, *made.clues],
                "question": {"holder": int(subject)},
                "answer": made.answer,
                "difficulty": DIFFICULTY_NAMES[level],
            },
        }

    # about one try in ten makes a puzzle (many need more than 12 clues): 400 tries in a row
    # fail by chance once in 10^16, so "no puzzle found" means the options rule puzzles out
    return puzzles.collect(count, attempt, tries=400, progress=progress)
