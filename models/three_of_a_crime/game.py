"""The Three of a Crime game object: what the CLI calls, turning the model's answers into reports."""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Callable
from fractions import Fraction
from functools import cache

from models.three_of_a_crime import advice, puzzle, simulate
from models.three_of_a_crime.counter import (
    Posterior,
    candidate_sets,
    joint,
    posterior,
    suspect_probability,
)
from models.three_of_a_crime.log import (
    BOTH,
    EVENT_KINDS,
    GAME,
    Log,
    go_on_text,
    next_eyewitness,
    parse,
    parse_card,
    round_over_text,
)
from models.three_of_a_crime.replay import replay_states
from models.three_of_a_crime.rules import (
    ABBREVIATIONS,
    CARDS,
    SUSPECT_NAMES,
    SUSPECTS,
    TOKEN_SUPPLY,
    Card,
    card_label,
    card_names,
    short_label,
)
from solver import puzzle as puzzles
from solver.entry import EntryForm, Part, seats
from solver.errors import Contradiction, InputError
from solver.explain import Grounds, explained
from solver.logfile import Document
from solver.names import NameSet, words_of
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
  # - secret: [HB, JC, PT]      # my own secret card, when I am the eyewitness (only I see it)
#
# The variation for two (players: [Ana, Ben]): one log holds both simultaneous rounds.
#   - round: {eyewitness: both} # each player draws a secret card and is the other's detective
#   - secret: [HB, JC, PT]      # my own card (me: Ana): it is not Ben's, and Ben cannot see it
#   - card: [KC, PT, NNN]       # a card turned in Ben's space...
#     token: 1
#     eyewitness: Ben           # ...with Ben's token: about Ben's card (say whose, every time)
#   - accuse: {by: Ana, suspects: [KC, LEL, NNN], correct: false}  # Ana names Ben's card
"""

SESSION_HELP = """\
card S1 S2 S3 TOKEN [EYEWITNESS]   a face-up card and its token, e.g. card KC PT NNN 1
                           (variation for two: whose token it is, e.g. card KC PT NNN 1 Ben)
accuse PLAYER S1 S2 S3 right|wrong   e.g. accuse Cleo HB JC KC wrong
won PLAYER [S1 S2 S3]      the round is over (the card, if shown, leaves the deck)
secret [PLAYER] S1 S2 S3   a secret card seen: mine by default (e.g. secret HB JC PT)
round EYEWITNESS|both      a new round (e.g. round Ben); 'round both': the variation for two"""


def suspect_rows(post: Posterior) -> list[list[str]]:
    rows = []
    for name, p in post.suspect_probability().items():
        state = "guilty" if p == 1 else "innocent" if p == 0 else ""
        rows.append([name, f"{float(p):.3f}", state])
    return rows


def certain_facts(post: Posterior) -> list[str]:
    return certain_of(post.suspect_probability())


def certain_of(probabilities: dict[str, Fraction]) -> list[str]:
    guilty = [f"{n} is guilty" for n, p in probabilities.items() if p == 1]
    innocent = [f"{n} is innocent" for n, p in probabilities.items() if p == 0]
    return guilty + innocent


def candidate_table(title: str, counts: dict[Card, int], worlds: int) -> Table:
    """The candidate cards and their probabilities (the first 20)."""
    candidates = sorted(counts)
    shown = candidates[:20]
    rows = [[card_label(c), f"{counts[c] / worlds:.3f}"] for c in shown]
    if len(candidates) > len(shown):
        rows.append([f"… and {len(candidates) - len(shown)} more", ""])
    return Table(title, ["secret card", "p"], rows)


def space_reports(log: Log, post: Posterior) -> list[dict]:
    """One entry per secret card of the current round (two in the variation), for --json."""
    found = post.joint
    assert found is not None
    entries = []
    for position, secret in enumerate(log.focus):
        counts = found.marginal(position)
        suspect = suspect_probability(counts, found.worlds)
        candidates = sorted(counts)
        eyewitness = log.current.eyewitnesses[position]
        entries.append(
            {
                "eyewitness": eyewitness,
                "solving": secret == log.solving,
                "known": len(candidates) == 1,
                "candidates": [card_names(c) for c in candidates],
                "candidate_probability": [
                    probability(Fraction(counts[c], found.worlds)) for c in candidates
                ],
                "suspect": {name: probability(p) for name, p in suspect.items()},
                "certain": certain_of(suspect),
            }
        )
    return entries


def round_over(log: Log) -> dict | None:
    """The current round is over and no `won` has closed it yet: who takes the card, at which
    event, how, and who is the next eyewitness (`round_over` in --json; None otherwise)."""
    current = log.current
    if current.ended is None:
        return None
    who, event, how = current.ended
    return {
        "winner": who,
        "event": event,
        "how": how,
        "next_eyewitness": BOTH if current.variation else next_eyewitness(current, log.players),
    }


def round_over_line(log: Log) -> str:
    text = round_over_text(log.current) or ""
    return f"{text[:1].upper()}{text[1:]}; {go_on_text(log.current, log.players)}"


def my_role(log: Log) -> str | None:
    """`me`'s part in the current round: "eyewitness", "detective", or "out" (a detective who
    accused wrongly); None when there is no `me` or the log does not say who the eyewitness is.
    In the variation for two everyone is a detective of the other player's card."""
    current, me = log.current, log.me
    if me is None or (log.players and me not in log.players):
        return None
    if me in current.out:
        return "out"
    if current.variation:
        return "detective"
    if current.eyewitness is None:
        return None
    return "eyewitness" if me == current.eyewitness else "detective"


def detectives_view(log: Log) -> dict:
    """What the detectives can know of the eyewitness's card: the public events only (my own
    `secret` is left out), counted exactly."""
    public = [f for f in log.facts if f.event not in log.private]
    seen = posterior(public, log.draws, log.focus, log.solving)
    top = max(seen.card_counts.values())
    return {"candidates": len(seen.card_counts), "p_best": probability(Fraction(top, seen.worlds))}


def detectives_line(view: dict) -> str:
    if view["candidates"] == 1:
        return "the detectives, who see only the table, can name your card now"
    return (
        f"the detectives, who see only the table, still consider {view['candidates']} card(s); "
        f"their best accusation is right with p = {view['p_best']:.3f}"
    )


def opponent_view(log: Log, post: Posterior) -> dict | None:
    """From `me`'s seat in the variation: how many cards the other player can still think mine is.

    They see the same table (every fact but the `secret` events) and know their own card, which
    cannot be mine; averaged exactly over my posterior of their card."""
    current = log.current
    if not current.variation or log.me not in current.variation:
        return None
    mine = current.secret_of(log.me)
    theirs = log.solving
    public = [f for f in log.facts if f.event not in log.private]
    table = joint(candidate_sets(public, log.draws), log.draws, log.focus)
    me_at, them_at = log.focus.index(mine), log.focus.index(theirs)
    considered: dict[Card, set[Card]] = defaultdict(set)
    for cards in table.counts:
        considered[cards[them_at]].add(cards[me_at])
    expected = Fraction(0)
    certain = Fraction(0)
    for card, n in post.card_counts.items():
        p = Fraction(n, post.worlds)
        expected += p * len(considered[card])
        certain += p * (len(considered[card]) == 1)
    other = [p for p in current.variation if p != log.me][0]
    return {
        "player": other,
        "expected_candidates": probability(expected),
        "p_certain": probability(certain),
    }


def opponent_line(view: dict) -> str:
    return (
        f"{view['player']} (who knows their own card) still considers "
        f"{view['expected_candidates']:.2f} card(s) for yours on average; "
        f"p(certain of it now) = {view['p_certain']:.3f}"
    )


def variation_view(
    log: Log, post: Posterior, spaces: list[dict], view: dict | None
) -> tuple[list[Table], list[str]]:
    """The terminal view of a variation round: the card I solve first, then my own."""
    found = post.joint
    assert found is not None
    number = len(log.rounds)
    tables: list[Table] = []
    lines: list[str] = []
    order = sorted(range(len(spaces)), key=lambda i: not spaces[i]["solving"])
    for position in order:
        entry = spaces[position]
        counts = found.marginal(position)
        whose = entry["eyewitness"]
        role = "the card you are solving" if entry["solving"] else "your own card"
        if log.me not in (log.current.variation or ()):
            role = f"solved by {[p for p in log.current.eyewitnesses if p != whose][0]}"
        if entry["known"] and not entry["solving"]:
            lines.append(
                f"Round {number}: {whose}'s card ({role}) is {card_label(next(iter(counts)))}"
            )
            continue
        if entry["solving"]:
            lines.insert(0, f"Round {number} (the variation for two): {whose}'s card is {role}")
        yours = " (yours)" if whose == log.me else ""
        title = f"Round {number}, {whose}'s card{yours}: {len(counts)} candidate(s)"
        tables.append(candidate_table(title, counts, found.worlds))
        if entry["solving"]:
            suspect = suspect_probability(counts, found.worlds)
            rows = [
                [n, f"{float(p):.3f}", "guilty" if p == 1 else "innocent" if p == 0 else ""]
                for n, p in suspect.items()
            ]
            tables.append(Table(f"Suspects on {whose}'s card", ["suspect", "p", "certain"], rows))
            lines += [f"{whose}'s card: {fact}" for fact in entry["certain"]]
    if (
        log.me in (log.current.variation or ())
        and not spaces[log.focus.index(log.current.secret_of(log.me))]["known"]
    ):
        lines.append(
            "your own card is not in the log: add 'secret: [S1, S2, S3]' (it cannot be the other card)"
        )
    if view is not None:
        lines.append(opponent_line(view))
    return tables, lines


def step_spaces(step) -> list[tuple[str | None, int]]:
    """(eyewitness, number of candidates) for each secret of a replay step's round."""
    found = step.posterior.joint
    return [(who, len(found.marginal(position))) for position, who in enumerate(step.eyewitnesses)]


def question_secret(question: object, log: Log) -> int:
    """`question: secret` (the card `me` is solving) or `question: {secret: PLAYER}`."""
    if question == "secret":
        return log.solving
    if isinstance(question, dict) and set(question) == {"secret"}:
        current = log.current
        if not current.variation:
            return log.solving
        who = NameSet("player", list(current.variation)).resolve(question["secret"])
        return current.secret_of(who)
    raise InputError(f"unknown question {question!r}; did you mean 'secret'?")


class ThreeOfACrime:
    """Sleuth's interface to Three of a Crime (RULINGS.md §1)."""

    name = GAME
    title = "Three of a Crime"
    session_help = SESSION_HELP
    puzzles_per_chunk = 50  # about 3 ms a puzzle, graded: 20 chunks in a book of 1,000
    difficulty_names = tuple(puzzle.DIFFICULTY_NAMES.values())
    has_deck_file = False  # the 35 cards are every set of 3 of the 7 suspects: `--deck` is refused
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
                "once every detective has accused wrongly the eyewitness claims the card; a round "
                "that is over takes no more cards or accusations until 'won' or 'round'",
                "variation for two (round: {eyewitness: both}): one log, both secret cards "
                "(different cards); first correct accusation wins; the unwon card goes back",
            ],
        }

    def template(self) -> str:
        return TEMPLATE

    # --- knowledge -------------------------------------------------------------------------

    def posterior(self, doc: Document, upto: int | None = None) -> tuple[Log, Posterior]:
        """Parse and count; a log with no consistent world raises Contradiction naming events."""
        log = parse(doc, upto, doc.events_key)
        post = posterior(log.facts, log.draws, log.focus, log.solving)
        if post.worlds == 0:
            raise Contradiction(self.conflict(log), detail="no secret card fits them all")
        return log, post

    def conflict(self, log: Log, label_offset: int = 0) -> list[int]:
        from models.three_of_a_crime.knowledge import CrimeKnowledge

        knowledge = CrimeKnowledge(log.facts, log.draws)
        return [e + label_offset for e in knowledge.conflict()]

    def solve(self, doc: Document, upto: int | None = None) -> Report:
        log, post = self.posterior(doc, upto)
        candidates = post.candidates
        suspect = post.suspect_probability()
        spaces = space_reports(log, post)
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
            "variation": log.current.variation is not None,
            "secret_of": log.current.eyewitnesses[log.focus.index(log.solving)],
            "rounds": spaces,
            "round_over": round_over(log),
            "detectives_view": None,
        }
        lines = certain_facts(post) or ["nothing is certain yet"]
        if data["round_over"]:
            lines.insert(0, round_over_line(log))
        elif my_role(log) == "eyewitness":
            data["detectives_view"] = seen = detectives_view(log)
            lines.append(f"you are the eyewitness: {detectives_line(seen)}")
        if log.current.variation:
            view = opponent_view(log, post)
            if view is not None:
                data["opponent"] = view
            tables, lines = variation_view(log, post, spaces, view)
            if data["round_over"]:
                lines.insert(0, round_over_line(log))
            return Report(data, tables, lines, log.warnings)
        title = f"Round {len(log.rounds)}: {len(candidates)} candidate secret card(s)"
        tables = [
            candidate_table(title, post.card_counts, post.worlds),
            Table("Suspects", ["suspect", "p(on the secret card)", "certain"], suspect_rows(post)),
        ]
        return Report(data, tables, lines, log.warnings)

    def view(self, doc: Document) -> Report:
        """The session's view after each event: the same as `solve`."""
        return self.solve(doc)

    def explain(self, doc: Document, fact: str | None = None, upto: int | None = None) -> Report:
        """Why a suspect is certainly guilty or innocent on the secret card being solved (each
        token, seen card and accusation is a statement), or what moved a probability."""
        return explained(self.name, doc, self.grounds(doc, upto), fact)

    def answer_facts(self, doc: Document, grounds: Grounds) -> list[str]:
        """What a puzzle's answer says, as facts: the secret card (`solution_path`)."""
        every = frozenset(grounds.statements)
        return [f for f in grounds.certain(every) if f.startswith("the secret card is ")]

    def grounds(self, doc: Document, upto: int | None = None) -> Grounds:
        log, _ = self.posterior(doc, upto)  # a contradictory log is refused here
        events = doc.events(doc.events_key, upto)

        @cache
        def counted(kept: frozenset[int]) -> Posterior:
            """The posterior from the statements kept (asked by `chances` and `cases`)."""
            facts = [f for f in log.facts if f.event in kept]
            return posterior(facts, log.draws, log.focus, log.solving)

        def chances(kept: frozenset[int]) -> dict[str, Fraction]:
            post = counted(kept)
            suspect = post.suspect_probability()
            return {
                **{f"{n} is guilty": p for n, p in suspect.items()},
                **{f"{n} is innocent": 1 - p for n, p in suspect.items()},
                **{f"the secret card is {short_label(c)}": post.card_probability(c) for c in CARDS},
            }

        def aliases(fact: str) -> list[str]:
            name, _, state = fact.rpartition(" is ")
            if name == "the secret card":
                return [f"secret {state}", f"card {state}"]
            short = ABBREV.get(name, name)
            return [f"{short} {state}", f"{name} {state}"]

        def cases(kept: frozenset[int], fact: str) -> list[str]:
            return [short_label(c) for c in counted(kept).candidates]

        return Grounds(
            sorted({f.event for f in log.facts}),
            chances,
            lambda event: describe_event(events[event - 1]),
            aliases,
            cases=cases,
        )

    def suggest(self, doc: Document, upto: int | None = None, horizon: int | None = None) -> Report:
        log, post = self.posterior(doc, upto)
        current = log.current
        role = my_role(log)
        data: dict = {
            "game": self.name,
            "consistent": True,
            "events": log.events,
            "worlds": post.worlds,
            "role": role,
            "round_over": round_over(log),
            "detectives_view": detectives_view(log) if role == "eyewitness" else None,
            "secret_of": current.eyewitnesses[log.focus.index(log.solving)],
        }
        waiting = self.nothing_to_accuse(log, data)
        if waiting is not None:
            data.update(
                best_accusation=None,
                tied_accusations=[],
                p_correct=None,
                accuse_now=False,
                reason=waiting[0],
                detectives_in=advice.detectives_in(log),
                next_card=None,
            )
            return Report(data, [], waiting, log.warnings)
        best = advice.advise(log, post)
        upcoming = best.next_card
        data.update(
            best_accusation=card_names(best.best[0]),
            tied_accusations=[card_names(c) for c in best.best],
            p_correct=probability(best.p_best),
            accuse_now=best.accuse_now,
            reason=best.reason,
            detectives_in=best.detectives_in,
            next_card=None
            if upcoming is None
            else {
                "expected_candidates": probability(upcoming.expected_candidates),
                "p_unique": probability(upcoming.p_unique),
                "wait_value": probability(upcoming.wait_value),
            },
        )
        verdict = "ACCUSE NOW" if best.accuse_now else "wait for the next card"
        whose = ""
        if current.variation:
            whose = f"{data['secret_of']}'s card: "
        lines = [
            f"best accusation: {whose}{card_label(best.best[0])} (p = {float(best.p_best):.3f}"
            + (f", tied with {len(best.best) - 1} other card(s))" if len(best.best) > 1 else ")"),
            f"{verdict}: {best.reason}",
        ]
        if upcoming is not None:
            lines.append(
                f"next face-up card: expected {float(upcoming.expected_candidates):.2f} candidates "
                f"left (now {len(post.card_counts)}); p(answer unique after it) = "
                f"{float(upcoming.p_unique):.3f}"
            )
        if data["role"] is None and log.me is not None and not current.variation:
            lines.append(
                f"the log does not say who is the eyewitness of round {current.number + 1}: "
                f"if it is you, start it with 'round {log.me}' (this advice is a detective's)"
            )
        if current.variation:
            view = opponent_view(log, post)
            if view is not None:
                data["opponent"] = view
                lines.append(opponent_line(view))
        return Report(data, [], lines, log.warnings)

    @staticmethod
    def nothing_to_accuse(log: Log, data: dict) -> list[str] | None:
        """Why `me` has no accusation to make (the round is over, I am its eyewitness, or I
        accused wrongly), as the report's lines; None when advice applies."""
        current = log.current
        number = current.number + 1
        if data["round_over"]:
            return [round_over_line(log), "nothing to accuse in a round that is over"]
        if data["role"] == "eyewitness":
            return [
                f"you are the eyewitness of round {number}: you place the tokens, and only "
                "the detectives accuse",
                detectives_line(data["detectives_view"]),
            ]
        if data["role"] == "out" and log.me is not None:
            others = "the other player may still name your card"
            if not current.variation:
                others = "only the detectives still in accuse"
            return [
                f"you accused wrongly at event {current.out[log.me]} and are out for the rest "
                f"of round {number}: {others}"
            ]
        return None

    def replay(self, doc: Document) -> Report:
        from models.three_of_a_crime.replay import Broken

        try:
            full, steps = replay_states(doc)
        except Broken as broken:
            log = parse(doc, broken.event, doc.events_key)
            event = doc.events(doc.events_key)[broken.event - 1]
            raise Contradiction(
                self.conflict(log), detail=f"the log breaks at event {broken.event}: {event}"
            ) from None
        variation = any(r.variation for r in full.rounds)
        rows = []
        history = []
        events = doc.events(doc.events_key)
        leading: dict[int, list] = {}  # by posterior: the same count is shared by many steps
        for step in steps:
            post = step.posterior
            if id(post) not in leading:
                ranked = sorted(post.suspect_probability().items(), key=lambda kv: -kv[1])
                leading[id(post)] = [(n, p) for n, p in ranked if p > 0][:3]
            leaders = leading[id(post)]
            label = "start" if step.event == 0 else describe_event(events[step.event - 1])
            spaces = step_spaces(step)
            row = [
                str(step.event),
                label,
                str(step.round),
                str(len(post.card_counts)),
                ", ".join(f"{ABBREV[n]} {float(p):.2f}" for n, p in leaders),
            ]
            if variation:
                row.insert(3, str(step.eyewitnesses[step.solving] or ""))
                row.append(
                    " · ".join(
                        f"{who}: {n}" for who, n in spaces if who != step.eyewitnesses[step.solving]
                    )
                )
            rows.append(row)
            history.append(
                {
                    "event": step.event,
                    "round": step.round,
                    "candidates": len(post.card_counts),
                    "worlds": post.worlds,
                    "leaders": {n: probability(p) for n, p in leaders},
                    "rounds": [{"eyewitness": who, "candidates": n} for who, n in spaces],
                }
            )
        data = {"game": self.name, "consistent": True, "events": full.events, "history": history}
        lines = []
        if len(rows) > REPLAY_TABLE_ROWS:  # printing 10,000 rows takes longer than computing them
            changed = [0] + [
                i for i in range(1, len(history)) if _changed(history[i - 1], history[i])
            ]
            lines.append(
                f"{len(rows) - len(changed)} of {len(rows)} events changed nothing and are not "
                "shown (more than "
                f"{REPLAY_TABLE_ROWS} events; --json lists every one)"
            )
            rows = [rows[i] for i in changed]
        columns = ["#", "event", "round", "candidates", "leading suspects"]
        if variation:
            columns = [
                "#",
                "event",
                "round",
                "card of",
                "candidates",
                "leading suspects",
                "other card",
            ]
        table = Table("How the candidates evolved", columns, rows)
        return Report(data, [table], lines, full.warnings)

    # --- puzzles ---------------------------------------------------------------------------

    def check(self, doc: Document) -> Report:
        from models.three_of_a_crime.knowledge import CrimeKnowledge

        body = doc.data.get("puzzle")
        if not isinstance(body, dict) or not isinstance(body.get("given"), list):
            raise InputError("a puzzle needs 'puzzle: {given: [events...], question: secret}'")
        log = parse(doc, key="given")
        target = question_secret(body.get("question", "secret"), log)
        clues = list(range(log.events))  # clue i is event i + 1
        knowledge = CrimeKnowledge(log.facts, log.draws)
        query = knowledge.secret_query(target)
        found = knowledge.answers(query, [c + 1 for c in clues])
        if not found:
            raise Contradiction(
                [e - 1 for e in knowledge.conflict()], label="clues", detail="0-based in 'given'"
            )
        unique = len(found) == 1
        answer = sorted(found[0][0])[0] if unique else None
        redundant, minimal = (
            puzzle.clue_analysis(log.facts, log.draws, log.focus, target, log.events)
            if unique
            else ([], [])
        )
        data: dict = {
            "game": self.name,
            "unique": unique,
            "answer": card_names(answer) if answer else None,
            "answers": [card_names(sorted(a)[0]) for a, _ in found],
            "witnesses": [] if unique else [self._witness(w) for _, w in found],
            "redundant": redundant,
            "minimal": minimal,
            "clues": len(clues),
        }
        if log.current.variation:
            data["secret_of"] = log.current.eyewitnesses[log.focus.index(target)]
        unique_facts = {(f.kind, f.card, f.token): f for f in log.facts if f.secret == target}
        facts = list(unique_facts.values())  # a clue repeated 1,000 times is one rule to apply
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
            try:
                intended_card = parse_card(intended, {})
            except InputError as error:
                raise InputError(f"the puzzle's 'answer': {error.message}") from None
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

    def simulate_chunk_size(self, policy: str | None = None) -> int:
        if policy is not None:
            raise InputError("three-of-a-crime simulates random face-up cards: leave out --policy")
        return simulate.CHUNK

    def simulate_chunk(self, seed: int, games: int, policy: str | None = None) -> Counter:
        """Rounds by the number of face-up cards they needed, for `games` rounds from `seed`."""
        return simulate.cards_needed(random.Random(seed), games)

    def simulate_report(self, partials: list[Counter], policy: str | None = None) -> Report:
        stats = simulate.round_statistics(sum(partials, Counter()))
        games = stats.games
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

    def entry(self, doc: Document) -> list[EntryForm]:
        """The events a player taps in (`sleuth serve`): the same short lines as typed."""
        players, _, _ = seats(doc)
        suspects = list(ABBREVIATIONS)
        card = Part("suspects", "the three suspects", suspects, pick=3)
        forms = [
            EntryForm(
                "A face-up card and its token",
                "card {suspects} {token} {eyewitness}",
                [
                    card,
                    Part("token", "token", ["0", "1", "2", "3"]),
                    Part("eyewitness", "whose token (variation for two)", players, optional=True),
                ],
            )
        ]
        if players:
            forms += [
                EntryForm(
                    "An accusation",
                    "accuse {player} {suspects} {result}",
                    [
                        Part("player", "who accuses", players),
                        card,
                        Part("result", "was it right", ["right", "wrong"]),
                    ],
                ),
                EntryForm(
                    "The round is won",
                    "won {player} {suspects}",
                    [
                        Part("player", "who won", players),
                        Part("suspects", "the card, if shown", suspects, pick=3, optional=True),
                    ],
                ),
                EntryForm(
                    "A new round",
                    "round {eyewitness}",
                    [Part("eyewitness", "who is the eyewitness", eyewitness_choices(players))],
                    instant=True,
                ),
            ]
        return forms

    def event_text(self, event: object, doc: Document) -> str:
        """One event of the log in the game's own words (the history of `sleuth serve`)."""
        return describe_event(event) if isinstance(event, dict) and event else str(event)

    def parse_line(self, text: str) -> dict:
        """One event from the session's short syntax."""
        words = words_of(text)
        if not words:
            raise InputError("empty line")
        kind, rest = words[0].lower(), words[1:]
        if kind == "card":
            tokens = [i for i, w in enumerate(rest) if w in ("0", "1", "2", "3")]
            if len(rest) < 4 or not tokens or tokens[-1] < 3 or len(rest) - tokens[-1] > 2:
                raise InputError("usage: card S1 S2 S3 TOKEN [EYEWITNESS] (e.g. card KC PT NNN 1)")
            at = tokens[-1]
            event = {"card": SUSPECT_NAMES.resolve_words(rest[:at], 3), "token": int(rest[at])}
            if at + 1 < len(rest):
                event["eyewitness"] = rest[at + 1]
            return event
        if kind == "secret":
            if len(rest) < 3:
                raise InputError("usage: secret [PLAYER] S1 S2 S3 (e.g. secret HB JC PT)")
            try:
                return {"secret": SUSPECT_NAMES.resolve_words(rest, 3)}
            except InputError:
                if len(rest) < 4:
                    raise
                card = SUSPECT_NAMES.resolve_words(rest[1:], 3)
                return {"secret": {"eyewitness": rest[0], "card": card}}
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
            if len(rest) > 1:
                raise InputError("usage: round EYEWITNESS or round both (e.g. round Ben)")
            return {"round": {"eyewitness": rest[0]} if rest else {}}
        hint = NameSet("command", EVENT_KINDS).suggestion(kind)
        raise InputError(f"unknown event {kind!r}{hint}")


def eyewitness_choices(players: list[str]) -> list[str]:
    """Who may be a new round's eyewitness: any player, or `both` at a table of two (the
    variation for two), unless a player is named Both."""
    both = len(players) == 2 and BOTH not in (p.lower() for p in players)
    return [*players, BOTH] if both else list(players)


ABBREV = {name: short for short, name in ABBREVIATIONS.items()}
REPLAY_TABLE_ROWS = 1000  # a longer replay shows only the events that changed something


def _changed(before: dict, after: dict) -> bool:
    keys = ("round", "candidates", "worlds", "leaders", "rounds")
    return any(before[k] != after[k] for k in keys)


def describe_event(event: dict) -> str:
    kind = next(iter(event))
    body = event[kind]
    if kind == "card":
        names = body if isinstance(body, list) else str(body).split()
        shown = " ".join(ABBREV.get(SUSPECT_NAMES.resolve(n), n) for n in names)
        whose = f" ({event['eyewitness']})" if event.get("eyewitness") is not None else ""
        return f"card {shown} → {event.get('token')}{whose}"
    if kind == "accuse":
        verdict = "right" if body.get("correct") else "wrong"
        return f"{body.get('by', '?')} accuses {' '.join(map(str, body['suspects']))}: {verdict}"
    if kind == "won":
        return f"{body.get('by', '?')} wins the round"
    if kind == "secret":
        whose = body.get("eyewitness", "my") if isinstance(body, dict) else "my"
        return f"{whose} secret card" if whose == "my" else f"{whose}'s secret card"
    eyewitness = body.get("eyewitness", "?") if isinstance(body, dict) else "?"
    return f"round (eyewitness {'both' if isinstance(eyewitness, list) else eyewitness})"
