"""The Three of a Crime game object: what the CLI calls, turning the model's answers into reports."""

from __future__ import annotations

import random
import shlex
from collections.abc import Callable

from models.three_of_a_crime import advice, puzzle, simulate
from models.three_of_a_crime.counter import Posterior, posterior
from models.three_of_a_crime.log import EVENT_KINDS, GAME, Log, parse
from models.three_of_a_crime.rules import (
    ABBREVIATIONS,
    CARDS,
    SUSPECT_NAMES,
    SUSPECTS,
    TOKEN_SUPPLY,
    card_label,
    card_names,
)
from solver import puzzle as puzzles
from solver.errors import Contradiction, InputError
from solver.logfile import Document
from solver.names import NameSet
from solver.report import Report, Table, probability

TEMPLATE = """\
# Three of a Crime log for Sleuth. Names: full, abbreviations (HB JC KC LEL LSL NNN PT) or
# unique prefixes, any case. Events in time order; `sleuth solve THIS_FILE` reads them.
game: three-of-a-crime
players: [Ana, Ben, Cleo]       # seat order; the eyewitness passes to the left each round
me: Ana                         # whose point of view (any player)
events:
  - round: {eyewitness: Ben}    # a round starts (optional for the first one)
  - card: [Kid Cassidy, Pencil Top, No Neck Nick]   # a face-up card...
    token: 1                    # ...and the eyewitness's token: 0, 1 or 2
  - accuse: {by: Cleo, suspects: [HB, JC, KC], correct: false}   # wrong: Cleo is out
  - card: [HB, LEL, LSL]
    token: 1
  # - accuse: {by: Ana, suspects: [KC, LSL, JC], correct: true}  # a correct accusation
  # - won: {by: Ana, card: [KC, LSL, JC]}  # round over; the card leaves the deck (card optional)
"""

SESSION_HELP = """\
card S1 S2 S3 TOKEN        a face-up card and its token, e.g. card KC PT NNN 1
accuse PLAYER S1 S2 S3 right|wrong   e.g. accuse Cleo HB JC KC wrong
won PLAYER [S1 S2 S3]      the round is over (the card, if shown, leaves the deck)
round EYEWITNESS           a new round starts"""


def suspect_rows(post: Posterior) -> list[list[str]]:
    rows = []
    for name, p in post.suspect_probability().items():
        state = "guilty" if p == 1 else "innocent" if p == 0 else ""
        rows.append([name, f"{float(p):.3f}", state])
    return rows


def certain_facts(post: Posterior) -> list[str]:
    probabilities = post.suspect_probability()
    guilty = [f"{n} is guilty" for n, p in probabilities.items() if p == 1]
    innocent = [f"{n} is innocent" for n, p in probabilities.items() if p == 0]
    return guilty + innocent


class ThreeOfACrime:
    """Sleuth's interface to Three of a Crime (RULINGS.md §1)."""

    name = GAME
    title = "Three of a Crime"
    session_help = SESSION_HELP
    events_kinds = EVENT_KINDS

    def describe(self) -> dict:
        return {
            "game": self.name,
            "title": self.title,
            "deck": f"{len(CARDS)} cards: every set of 3 of the {len(SUSPECTS)} suspects",
            "suspects": dict(zip(ABBREVIATIONS, SUSPECTS, strict=True)),
            "rulings": [
                "won cards leave the deck for later rounds",
                "every card still possible is equally likely",
                "token supply per round: "
                + ", ".join(f"{n} × {t}" for t, n in TOKEN_SUPPLY.items())
                + " (more is solved, with a warning)",
                "two players: the round ends after the sixth face-up card",
            ],
        }

    def template(self) -> str:
        return TEMPLATE

    # --- knowledge -------------------------------------------------------------------------

    def posterior(self, doc: Document, upto: int | None = None) -> tuple[Log, Posterior]:
        """Parse and count; a log with no consistent world raises Contradiction naming events."""
        log = parse(doc, upto, doc.events_key)
        post = posterior(log.facts, len(log.rounds))
        if post.worlds == 0:
            raise Contradiction(self.conflict(log), detail="no secret card fits them all")
        return log, post

    def conflict(self, log: Log, label_offset: int = 0) -> list[int]:
        from models.three_of_a_crime.knowledge import CrimeKnowledge

        knowledge = CrimeKnowledge(log.facts, len(log.rounds))
        return [e + label_offset for e in knowledge.conflict()]

    def solve(self, doc: Document, upto: int | None = None) -> Report:
        log, post = self.posterior(doc, upto)
        candidates = post.candidates
        suspect = post.suspect_probability()
        data = {
            "game": self.name,
            "consistent": True,
            "events": log.events,
            "round": len(log.rounds),
            "worlds": post.worlds,
            "candidates": [card_names(c) for c in candidates],
            "candidate_probability": [probability(post.card_probability(c)) for c in candidates],
            "suspect": {name: probability(p) for name, p in suspect.items()},
            "certain": certain_facts(post),
            "warnings": log.warnings,
        }
        shown = candidates[:20]
        rows = [[card_label(c), f"{float(post.card_probability(c)):.3f}"] for c in shown]
        if len(candidates) > len(shown):
            rows.append([f"… and {len(candidates) - len(shown)} more", ""])
        tables = [
            Table(
                f"Round {len(log.rounds)}: {len(candidates)} candidate secret card(s)",
                ["secret card", "p"],
                rows,
            ),
            Table("Suspects", ["suspect", "p(on the secret card)", "certain"], suspect_rows(post)),
        ]
        lines = certain_facts(post) or ["nothing is certain yet"]
        return Report(data, tables, lines, log.warnings)

    def view(self, doc: Document) -> Report:
        """The session's view after each event: the same as `solve`."""
        return self.solve(doc)

    def suggest(self, doc: Document, upto: int | None = None, horizon: int | None = None) -> Report:
        log, post = self.posterior(doc, upto)
        best = advice.advise(log, post)
        upcoming = best.next_card
        data = {
            "game": self.name,
            "consistent": True,
            "events": log.events,
            "worlds": post.worlds,
            "best_accusation": card_names(best.best[0]),
            "tied_accusations": [card_names(c) for c in best.best],
            "p_correct": probability(best.p_best),
            "accuse_now": best.accuse_now,
            "reason": best.reason,
            "detectives_in": best.detectives_in,
            "next_card": None
            if upcoming is None
            else {
                "expected_candidates": probability(upcoming.expected_candidates),
                "p_unique": probability(upcoming.p_unique),
                "wait_value": probability(upcoming.wait_value),
            },
        }
        verdict = "ACCUSE NOW" if best.accuse_now else "wait for the next card"
        lines = [
            f"best accusation: {card_label(best.best[0])} (p = {float(best.p_best):.3f}"
            + (f", tied with {len(best.best) - 1} other card(s))" if len(best.best) > 1 else ")"),
            f"{verdict}: {best.reason}",
        ]
        if upcoming is not None:
            lines.append(
                f"next face-up card: expected {float(upcoming.expected_candidates):.2f} candidates "
                f"left (now {len(post.card_counts)}); p(answer unique after it) = "
                f"{float(upcoming.p_unique):.3f}"
            )
        return Report(data, [], lines, log.warnings)

    def replay(self, doc: Document) -> Report:
        full = parse(doc)
        rows = []
        history = []
        for upto in range(0, full.events + 1):
            log = parse(doc, upto)
            post = posterior(log.facts, len(log.rounds))
            if post.worlds == 0:
                event = doc.data["events"][upto - 1]
                raise Contradiction(
                    self.conflict(log), detail=f"the log breaks at event {upto}: {event}"
                )
            ranked = sorted(post.suspect_probability().items(), key=lambda kv: -kv[1])
            leaders = [(n, p) for n, p in ranked if p > 0][:3]
            label = "start" if upto == 0 else describe_event(doc.data["events"][upto - 1])
            rows.append(
                [
                    str(upto),
                    label,
                    str(len(log.rounds)),
                    str(len(post.card_counts)),
                    ", ".join(f"{ABBREV[n]} {float(p):.2f}" for n, p in leaders),
                ]
            )
            history.append(
                {
                    "event": upto,
                    "round": len(log.rounds),
                    "candidates": len(post.card_counts),
                    "worlds": post.worlds,
                    "leaders": {n: probability(p) for n, p in leaders},
                }
            )
        data = {"game": self.name, "consistent": True, "events": full.events, "history": history}
        table = Table(
            "How the candidates evolved",
            ["#", "event", "round", "candidates", "leading suspects"],
            rows,
        )
        return Report(data, [table], [], full.warnings)

    # --- puzzles ---------------------------------------------------------------------------

    def check(self, doc: Document) -> Report:
        from models.three_of_a_crime.knowledge import CrimeKnowledge

        body = doc.data.get("puzzle")
        if not isinstance(body, dict) or not isinstance(body.get("given"), list):
            raise InputError("a puzzle needs 'puzzle: {given: [events...], question: secret}'")
        if body.get("question", "secret") != "secret":
            raise InputError(f"unknown question {body['question']!r}; did you mean 'secret'?")
        log = parse(doc, key="given")
        clues = list(range(log.events))  # clue i is event i + 1
        knowledge = CrimeKnowledge(log.facts, len(log.rounds))
        query = knowledge.secret_query()

        def oracle(subset):
            return [a for a, _ in knowledge.answers(query, [c + 1 for c in subset])]

        found = knowledge.answers(query, [c + 1 for c in clues])
        if not found:
            raise Contradiction(
                [e - 1 for e in knowledge.conflict()], label="clues", detail="0-based in 'given'"
            )
        unique = len(found) == 1
        answer = sorted(found[0][0])[0] if unique else None
        data: dict = {
            "game": self.name,
            "unique": unique,
            "answer": card_names(answer) if answer else None,
            "answers": [card_names(sorted(a)[0]) for a, _ in found],
            "witnesses": [] if unique else [self._witness(w) for _, w in found],
            "redundant": puzzles.redundant_clues(oracle, clues) if unique else [],
            "minimal": puzzles.minimal_clues(oracle, clues) if unique else [],
            "clues": len(clues),
        }
        facts = log.facts
        data["difficulty"] = puzzle.DIFFICULTY_NAMES[puzzle.difficulty(facts)] if unique else None
        lines = []
        exit_code = 0 if unique else 1
        if answer is not None:
            lines.append(f"unique: the secret card is {card_label(answer)}")
            lines.append(f"difficulty: {data['difficulty']}")
            lines.append(f"redundant clues (0-based): {data['redundant'] or 'none'}")
            lines.append(f"a minimal clue set: {data['minimal']}")
        else:
            lines.append("NOT unique; two worlds that disagree:")
            lines += [f"  secret = {card_label(sorted(a)[0])}" for a, _ in found]
        intended = body.get("answer")
        if intended is not None:
            first, second, third = sorted(SUSPECTS.index(n) for n in _names(intended))
            intended_card = (first, second, third)
            data["answer_matches"] = unique and intended_card == answer
            if not data["answer_matches"]:
                lines.append(f"the author's answer {card_label(intended_card)} is not proven")
                exit_code = 1
        return Report(data, [], lines, log.warnings, exit_code)

    @staticmethod
    def _witness(witness: dict[str, int]) -> dict:
        return {name: card_names(CARDS[index]) for name, index in witness.items()}

    def generate(
        self,
        rng: random.Random,
        count: int,
        difficulty: int | None = None,
        progress: Callable[[], None] | None = None,
        visible: int | None = None,
        tries: int = 200,
    ) -> list[dict]:
        if visible is not None:
            raise InputError("three-of-a-crime puzzles show no cards: leave out --visible")

        def attempt() -> dict | None:
            truth = rng.choice(CARDS)
            result = puzzles.generate(rng, puzzle.true_clue(truth), puzzle.answers_of)
            if result is None:
                return None
            level = puzzle.difficulty(result.clues)
            if difficulty is not None and level != difficulty:
                return None
            return puzzle.Puzzle(result.clues, truth, level).to_document()

        return puzzles.collect(count, attempt, tries, progress)

    # --- simulation and session ------------------------------------------------------------

    def simulate(
        self, rng: random.Random, games: int, progress=None, policy: str | None = None
    ) -> Report:
        if policy is not None:
            raise InputError("three-of-a-crime simulates random face-up cards: leave out --policy")
        stats = simulate.round_statistics(rng, games, progress)
        distribution = {str(k): stats.distribution[k] for k in sorted(stats.distribution)}
        data = {
            "game": self.name,
            "games": games,
            "mean_cards_until_unique": round(stats.mean, 4),
            "distribution": distribution,
            "p_unique_by_sixth_card": round(stats.unique_by_sixth, 6),
        }
        rows = [
            [k, str(n), f"{n / games:.3f}", "#" * round(40 * n / games)]
            for k, n in distribution.items()
        ]
        table = Table(
            "Face-up cards until the answer is unique", ["cards", "rounds", "share", ""], rows
        )
        lines = [
            f"mean: {stats.mean:.2f} cards over {games} rounds",
            f"unique by the sixth card (two-player limit): {stats.unique_by_sixth:.1%}",
        ]
        return Report(data, [table], lines)

    def parse_line(self, text: str) -> dict:
        """One event from the session's short syntax."""
        words = shlex.split(text)
        if not words:
            raise InputError("empty line")
        kind, rest = words[0].lower(), words[1:]
        if kind == "card":
            if len(rest) < 4 or rest[-1] not in ("0", "1", "2", "3"):
                raise InputError("usage: card S1 S2 S3 TOKEN (e.g. card KC PT NNN 1)")
            return {"card": SUSPECT_NAMES.resolve_words(rest[:-1], 3), "token": int(rest[-1])}
        if kind == "accuse":
            if len(rest) < 5 or rest[-1].lower() not in ("right", "wrong", "correct", "no", "yes"):
                raise InputError("usage: accuse PLAYER S1 S2 S3 right|wrong")
            correct = rest[-1].lower() in ("right", "correct", "yes")
            suspects = SUSPECT_NAMES.resolve_words(rest[1:-1], 3)
            return {"accuse": {"by": rest[0], "suspects": suspects, "correct": correct}}
        if kind == "won":
            if not rest:
                raise InputError("usage: won PLAYER [S1 S2 S3]")
            body: dict = {"by": rest[0]}
            if len(rest) > 1:
                body["card"] = SUSPECT_NAMES.resolve_words(rest[1:], 3)
            return {"won": body}
        if kind == "round":
            return {"round": {"eyewitness": rest[0]} if rest else {}}
        hint = NameSet("command", EVENT_KINDS).suggestion(kind)
        raise InputError(f"unknown event {kind!r}{hint}")


ABBREV = {name: short for short, name in ABBREVIATIONS.items()}


def _names(value) -> list[str]:
    if isinstance(value, str):
        return SUSPECT_NAMES.resolve_words(value.replace(",", " ").split(), 3)
    return [SUSPECT_NAMES.resolve(v) for v in value]


def describe_event(event: dict) -> str:
    kind = next(iter(event))
    body = event[kind]
    if kind == "card":
        names = body if isinstance(body, list) else str(body).split()
        return f"card {' '.join(ABBREV.get(SUSPECT_NAMES.resolve(n), n) for n in names)} → {event.get('token')}"
    if kind == "accuse":
        verdict = "right" if body.get("correct") else "wrong"
        return f"{body.get('by', '?')} accuses {' '.join(map(str, body['suspects']))}: {verdict}"
    if kind == "won":
        return f"{body.get('by', '?')} wins the round"
    return f"round (eyewitness {(body or {}).get('eyewitness', '?')})"
