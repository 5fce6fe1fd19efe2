"""The 6 Suspects game object: what the CLI calls, turning exact counts into reports."""

from __future__ import annotations

import random
import re
import shlex
from collections.abc import Callable
from fractions import Fraction

from models.six_suspects import puzzle, simulate
from models.six_suspects.advice import EXACT_HORIZON, Advice, advise
from models.six_suspects.counter import Counts
from models.six_suspects.ending import VOTED, Stage, announce_line, stage, stage_line
from models.six_suspects.log import EVENT_KINDS, GAME, Log, Told, parse, parse_slot
from models.six_suspects.posterior import count
from models.six_suspects.rules import COLUMNS, SLOTS, Card, Deck, load_deck
from solver import puzzle as puzzles
from solver.entry import EntryForm, Part, seats
from solver.errors import Contradiction, InputError
from solver.explain import Grounds, explained
from solver.logfile import Document, as_whole, reading
from solver.names import NameSet, words_of
from solver.report import Report, Table, probability
from solver.stats import wilson_interval

TEMPLATE = """\
# 6 Suspects log for Sleuth. Slots A1..F2: column A-F (a suspect), row 1 or 2. Cards: 0-5, swap,
# torch-left, torch-right, mirror, diamond, police (from the deck file; `deck: FILE` or --deck).
game: six-suspects
players: [Ana, Ben]
me: Ana
events:
  - look: {slot: A1, card: diamond}   # my look: I saw the card
  - look: {by: Ben, slot: C2}         # someone else's look: nothing seen
  - look: {slot: B1, card: police}
  # - announce: Ben                   # after everyone has looked 4 times
  # - vote: {Ana: A, Ben: D}
"""

SESSION_HELP = """\
look SLOT CARD             my look, e.g. look A1 diamond
look PLAYER SLOT           someone else's look, e.g. look Ben C2
announce PLAYER            e.g. announce Ben
vote PLAYER COLUMN ...     e.g. vote Ana A Ben D
looks N                    I have N looks left before the vote from now on, if not as the
                           rules count them; each look of mine counts one down (saved in the
                           log as looks_left: {looks: N, after_event: K}; suggest reads it)"""


def grid_table(log: Log, counts: Counts, next_look: int | None = None) -> Table:
    """The 2 × 6 layout as seen, with each suspect's culprit probability under its column and,
    if given, the suggested next look marked ▶."""
    seen = log.seen_cards()
    header = [f"{c} {name}" for c, name in zip(COLUMNS, log.deck.suspects, strict=True)]

    def cell(slot: int) -> str:
        return seen[slot].name if slot in seen else "▶ look" if slot == next_look else "·"

    rows = [[f"row {row + 1}", *[cell(2 * c + row) for c in range(6)]] for row in range(2)]
    rows.append(["p", *[f"{float(counts.probability(c)):.3f}" for c in range(6)]])
    return Table("The layout (· = not seen)", ["", *header], rows, highlight={2})


def describe_event(event: dict) -> str:
    """A short label for a (valid) log event, for the replay table."""
    kind = next(iter(event))
    body = event[kind]
    if kind == "look":
        who = f"{body['by']} looks at" if body.get("by") is not None else "look"
        seen = f" {body['card']}" if body.get("card") is not None else ""
        return f"{who} {str(body['slot']).upper()}{seen}"
    if kind == "announce":
        return f"{body} announces"
    return "vote " + ", ".join(f"{who} {column}" for who, column in body.items())


def as_word(name: str) -> str:
    """A player's name as one word of a line's template (quoted; braces kept literal)."""
    return shlex.quote(name).replace("{", "{{").replace("}", "}}")


class SixSuspects:
    """Sleuth's interface to 6 Suspects (RULINGS.md §2)."""

    name = GAME
    title = "6 Suspects"
    session_help = SESSION_HELP
    puzzles_per_chunk = 2  # about 0.3 s a puzzle, graded
    difficulty_names = tuple(puzzle.DIFFICULTY_NAMES.values())

    def describe(self) -> dict:
        deck = load_deck()
        return {
            "game": self.name,
            "title": self.title,
            "deck": "12 cards: " + ", ".join(c.name for c in deck.cards),
            "suspects": dict(zip(COLUMNS, deck.suspects, strict=True)),
            "rulings": [
                "card values are deck data (house ruling): plain 0-5, Swap 4, Diamond 9½",
                "rows wrap around: A's left neighbour is F",
                "resolution: Swap, Torches, Mirrors, Police, Diamond, totals, ties",
                "every arrangement of the unseen cards is equally likely",
                "a look that breaks the end of the game (the announcer's, a second last look) "
                "is kept, with a warning",
            ],
        }

    def template(self) -> str:
        return TEMPLATE

    def counts(self, doc: Document, upto: int | None = None) -> tuple[Log, Counts]:
        doc = visible_as_given(doc)
        log = parse(doc, upto, doc.events_key)
        return log, count(log.deck, log.seen_cards())

    def solve(self, doc: Document, upto: int | None = None) -> Report:
        return self.report(*self.counts(doc, upto))

    def report(self, log: Log, counts: Counts) -> Report:
        """The posterior report of `solve` (and the start of the session's view)."""
        culprit = {COLUMNS[c]: counts.probability(c) for c in range(len(COLUMNS))}
        certain = [c for c, p in culprit.items() if p == 1]
        innocent = [c for c, p in culprit.items() if p == 0]
        data = {
            "game": self.name,
            "consistent": True,
            "events": log.events,
            "worlds": counts.worlds,
            "seen": {SLOTS[s.slot]: s.card.name for s in log.seen},
            "culprit": {c: probability(p) for c, p in culprit.items()},
            "culprit_count": dict(zip(COLUMNS, counts.culprit, strict=True)),
            "suspects": dict(zip(COLUMNS, log.deck.suspects, strict=True)),
            "certain_culprit": certain[0] if len(certain) == 1 else None,
            "certainly_innocent": innocent,
            "warnings": log.warnings,
            "stage": stage(log).as_json(),  # where the game is (ending.py)
        }
        best = max(culprit.values())
        lines = [
            f"{counts.worlds:,} equally likely arrangements of the {12 - len(log.seen)} unseen cards",
            "best vote: "
            + ", ".join(
                f"{c} {log.deck.suspects[COLUMNS.index(c)]}"
                for c, p in culprit.items()
                if p == best
            )
            + f" (p = {float(best):.3f})",
        ]
        for c in certain:
            lines.append(f"{c} {log.deck.suspects[COLUMNS.index(c)]} is certainly a culprit")
        for c in innocent:
            lines.append(f"{c} {log.deck.suspects[COLUMNS.index(c)]} cannot be a culprit")
        return Report(data, [grid_table(log, counts)], lines, log.warnings)

    def answer_facts(self, doc: Document, grounds: Grounds) -> list[str]:
        """What a puzzle's answer (the culprit set) says, as facts: each suspect certainly a
        culprit or certainly innocent (`solution_path`)."""
        certain = grounds.certain(frozenset(grounds.statements))
        return sorted(certain, key=lambda fact: not fact.endswith(" is a culprit"))

    def explain(self, doc: Document, fact: str | None = None, upto: int | None = None) -> Report:
        """Why a suspect is certainly a culprit or certainly innocent (each card seen is a
        statement), or what moved a suspect's probability."""
        return explained(self.name, doc, self.grounds(doc, upto), fact)

    def grounds(self, doc: Document, upto: int | None = None) -> Grounds:
        log, _ = self.counts(doc, upto)
        looks = visible_as_given(doc)
        events = looks.events(looks.events_key, upto)
        names = {c: f"{c} {name}" for c, name in zip(COLUMNS, log.deck.suspects, strict=True)}

        def culprit(kept: frozenset[int]) -> dict[str, Fraction]:
            seen = {s.slot: s.card for s in log.seen if s.event in kept}
            counts = count(log.deck, seen)
            return {c: counts.probability(i) for i, c in enumerate(COLUMNS)}

        def chances(kept: frozenset[int]) -> dict[str, Fraction]:
            p = culprit(kept)
            return {
                **{f"{names[c]} is a culprit": p[c] for c in COLUMNS},
                **{f"{names[c]} is innocent": 1 - p[c] for c in COLUMNS},
            }

        def aliases(fact: str) -> list[str]:
            label, _, state = fact.rpartition(" is ")
            column, suspect = label.split(" ", 1)
            words = ["culprit", "guilty"] if state == "a culprit" else ["innocent", "not culprit"]
            said = [] if state == "a culprit" else [f"{label} cannot be a culprit"]  # as solve
            return [*said, *(f"{who} {word}" for who in (column, suspect) for word in words)]

        def cases(kept: frozenset[int], fact: str) -> list[str]:
            return [names[c] for c, p in culprit(kept).items() if p > 0]

        return Grounds(
            sorted({s.event for s in log.seen}),
            chances,
            lambda event: describe_event(events[event - 1]),
            aliases,
            cases=cases,
        )

    def build_tablebase(
        self,
        progress: Callable[[], None] | None = None,
        workers: int | None = None,
        scheduler: str | None = None,
    ) -> Report:
        """`sleuth tablebase six-suspects`: the optimal look values, built again on the batch
        engine and written beside the bundled deck (tablebase.py)."""
        import time

        from models.six_suspects import tablebase

        start = time.perf_counter()
        states = tablebase.write_shipped(progress, workers, scheduler)
        seconds = time.perf_counter() - start
        tablebase.shipped.cache_clear()
        data = {
            "game": self.name,
            "file": str(tablebase.SHIPPED),
            "states": states,
            "seconds": round(seconds, 1),
        }
        line = f"{states} states valued in {seconds:.0f} s, written to {tablebase.SHIPPED}"
        return Report(data, lines=[line])

    def looks_told(self, text: str, doc: Document) -> dict:
        """`looks N` in `play`: N looks left from the log as it stands (its last event), as
        the header will say it; my later looks count it down."""
        looks = as_whole(text.strip(), "looks N: the looks I have left", low=0)
        return {"looks": looks, "after_event": len(doc.events(doc.events_key))}

    def view(self, doc: Document) -> Report:
        """The session's view: the grid, with the look that most raises the chance of a correct
        vote marked, and where the game is and what comes next, in `suggest`'s words."""
        log, counts = self.counts(doc)
        report = self.report(log, counts)
        where = stage(log)
        best = advise(log, where=where)  # as `suggest` advises
        if log.seen and best.looks:
            report.tables = [grid_table(log, counts, best.looks[0].slot)]
        report.lines += ending_lines(log, where, best)
        return report

    def replay(self, doc: Document) -> Report:
        full = parse(doc)
        rows, history = [], []
        for upto in range(0, full.events + 1):
            log, counts = self.counts(doc, upto)
            label = "start" if upto == 0 else describe_event(doc.data["events"][upto - 1])
            probabilities = [counts.probability(c) for c in range(6)]
            rows.append([str(upto), label, *[f"{float(p):.2f}" for p in probabilities]])
            history.append(
                {
                    "event": upto,
                    "worlds": counts.worlds,
                    "culprit": {COLUMNS[c]: probability(p) for c, p in enumerate(probabilities)},
                }
            )
        table = Table("Culprit probabilities, event by event", ["#", "event", *COLUMNS], rows)
        data = {"game": self.name, "consistent": True, "events": full.events, "history": history}
        return Report(data, [table], [], full.warnings)

    def suggest(
        self,
        doc: Document,
        upto: int | None = None,
        horizon: int | None = None,
        looks_left: int | None = None,
    ) -> Report:
        cards = visible_as_given(doc)
        log = parse(cards, upto, cards.events_key)
        told = None if looks_left is None else Told(looks_left, log.events, by_option=True)
        where = stage(log, told)
        best = advise(log, horizon, where=where)
        names = log.deck.suspects
        looks = [
            {
                "slot": SLOTS[look.slot],
                "p_hit": probability(look.value),
                "information_bits": round(look.information, 6),
            }
            for look in best.looks
        ]
        data = {
            "game": self.name,
            "consistent": True,
            "events": log.events,
            "worlds": best.counts.worlds,
            "vote": [COLUMNS[c] for c in best.vote],
            "p_vote": probability(best.p_vote),
            "horizon": best.horizon,
            "exact": best.exact,
            "policy": "optimal" if best.exact else f"depth {best.horizon}",
            "looks_left": best.requested,
            "looks_left_from": where.source,
            "looks": looks,
            "announce": best.announce,
            "announce_reason": best.announce_reason,
            "announce_or_look": announce_or_look(best),
            "stage": where.as_json(),
            "next": next_step(log, where, best),
        }
        rows = [
            [SLOTS[look.slot], f"{float(look.value):.4f}", f"{look.information:.3f}"]
            for look in best.looks
        ]
        tables = []
        if rows:
            title = f"Where to look (value of {best.horizon} more look(s), best first)"
            column = "p(vote hits)" if best.exact else "p(vote hits) ≥"
            tables.append(Table(title, ["slot", column, "bits"], rows, highlight={0}))
        lines = []
        if best.requested:
            lines.append(
                "vote now for: "
                + ", ".join(f"{COLUMNS[c]} {names[c]}" for c in best.vote)
                + f" (p = {float(best.p_vote):.3f})"
            )
        ending = ending_lines(log, where, best)
        lines += ending[:2]  # where the game is, and whether to announce
        compared = announce_or_look(best)
        if compared is not None:
            lines.append(
                f"announce now: p(vote hits) = {compared['announce_now']:.3f}; look again: "
                f"{compared['look_again']:.3f} ({compared['look_policy']}); "
                f"{compared['assumption']}"
            )
        lines += ending[2:]  # what to do now, and the looks left
        if not best.exact and best.looks:
            lines.append(
                f"depth {best.horizon}: the values are exact over the next {best.horizon} "
                f"look(s) only, lower bounds of what all {best.requested} can reach (following "
                "this advice at every look reaches at least as much)"
                + ("; --horizon 2 values two (slower)" if best.horizon < EXACT_HORIZON else "")
            )
        return Report(data, tables, lines, log.warnings)

    def clues(self, doc: Document) -> tuple[Deck, dict[int, tuple[int, Card]]]:
        """A puzzle's visible cards as (slot, card) clues, by their 0-based index in `given` (or
        in `visible`); looks that show no card are not clues."""
        body = doc.data.get("puzzle")
        if not isinstance(body, dict) or not (
            isinstance(body.get("visible"), dict) or isinstance(body.get("given"), list)
        ):
            raise InputError(
                "a puzzle needs 'puzzle: {visible: {A1: diamond, ...}, question: culprit}' "
                "(or 'given: [events...]')"
            )
        if body.get("question", "culprit") != "culprit":
            raise InputError(f"unknown question {body['question']!r}; did you mean 'culprit'?")
        log = parse(visible_as_given(doc), key="given")
        return log.deck, {seen.event - 1: (seen.slot, seen.card) for seen in log.seen}

    def check(self, doc: Document) -> Report:
        from models.six_suspects.knowledge import LayoutKnowledge

        try:
            deck, clues = self.clues(doc)
        except Contradiction as error:  # clues, like every puzzle tool, are 0-based in `given`
            raise Contradiction([e - 1 for e in error.events], "clues", error.detail) from None
        indexes = list(clues)

        def oracle(subset):
            return puzzle.culprit_answers(deck, [clues[i] for i in subset])

        answers = oracle(indexes)
        unique = len(answers) == 1
        data: dict = {
            "game": self.name,
            "unique": unique,
            "answer": puzzle.answer_letters(answers[0]) if unique else None,
            "answers": [],
            "witnesses": [],
            "redundant": puzzles.redundant_clues(oracle, indexes) if unique else [],
            "minimal": puzzles.minimal_clues(oracle, indexes) if unique else [],
            "clues": len(clues),
            "difficulty": puzzle.DIFFICULTY_NAMES[puzzle.difficulty(len(clues))],
        }
        lines = []
        if unique:
            data["answers"] = [data["answer"]]
            letters = data["answer"]
            lines.append(
                "unique: the culprit is "
                + " and ".join(f"{c} {deck.suspects[COLUMNS.index(c)]}" for c in letters)
                + " in every completion"
            )
            lines.append(f"difficulty: {data['difficulty']} ({12 - len(clues)} cards hidden)")
            lines.append(f"redundant visible cards (0-based): {data['redundant'] or 'none'}")
            lines.append(f"a minimal visible set: {data['minimal']}")
        else:
            knowledge = LayoutKnowledge(deck, [(i + 1, s, c.name) for i, (s, c) in clues.items()])
            found = knowledge.answers(knowledge.culprit_query())
            data["answers"] = [puzzle.answer_letters(a) for a, _ in found]
            data["witnesses"] = [
                {
                    "culprit": puzzle.answer_letters(a),
                    "layout": {s: deck.cards[i].name for s, i in w.items()},
                }
                for a, w in found
            ]
            lines.append("NOT unique; two completions with different culprits:")
            for witness in data["witnesses"]:
                shown = " ".join(f"{s}={c}" for s, c in witness["layout"].items())
                lines.append(f"  culprit {', '.join(witness['culprit'])}: {shown}")
        exit_code = 0 if unique else 1
        intended = doc.data["puzzle"].get("answer")
        if intended is not None:
            wanted = sorted(
                str(a).upper() for a in (intended if isinstance(intended, list) else [intended])
            )
            data["answer_matches"] = unique and wanted == data["answer"]
            if not data["answer_matches"]:
                lines.append(f"the author's answer {', '.join(wanted)} is not proven")
                exit_code = 1
        return Report(data, [], lines, [], exit_code)

    def generate(
        self,
        rng: random.Random,
        count: int,
        difficulty: int | None = None,
        progress: Callable[[], None] | None = None,
        visible: int | None = None,
        tries: int = 400,
    ) -> list[dict]:
        deck = load_deck()

        def attempt() -> dict | None:
            layout = list(deck.cards)
            rng.shuffle(layout)
            result = puzzles.generate(
                rng,
                puzzle.true_clue(tuple(layout)),
                lambda clues: puzzle.culprit_answers(deck, clues),
                max_clues=len(SLOTS),
                initial=puzzle.FIRST_CLUES,
            )
            if result is None:
                return None
            shown = len(result.clues)
            if visible is not None and shown != visible:
                return None
            if difficulty is not None and puzzle.difficulty(shown) != difficulty:
                return None
            answer: frozenset[int] = result.answer  # type: ignore[assignment]
            return puzzle.to_document(result.clues, answer)

        return puzzles.collect(count, attempt, tries, progress)

    def simulate_chunk_size(self, policy: str | None = None) -> int:
        return min(simulate.CHUNK[name] for name in simulate.policies(policy))

    def simulate_chunk(self, seed: int, games: int, policy: str | None = None) -> simulate.Tally:
        return simulate.play_chunk(random.Random(seed), load_deck(), games, policy)

    def simulate_report(self, partials: list[simulate.Tally], policy: str | None = None) -> Report:
        games = sum(tally.games for tally in partials)
        results = [
            simulate.Result(name, games, sum(tally.hits[name] for tally in partials))
            for name in simulate.policies(policy)
        ]
        rows, data_policies = [], {}
        for result in results:
            low, high = wilson_interval(result.hits, result.games)
            share = result.hits / result.games
            rows.append(
                [result.policy, str(result.games), f"{share:.3f}", f"{low:.3f} – {high:.3f}"]
            )
            data_policies[result.policy] = {
                "games": result.games,
                "hits": result.hits,
                "p_hit": round(share, 6),
                "interval95": [round(low, 6), round(high, 6)],
            }
        table = Table(
            f"Vote hits a culprit after {simulate.LOOKS} looks",
            ["policy", "games", "p(hit)", "95% interval"],
            rows,
        )
        data = {"game": self.name, "looks": simulate.LOOKS, "policies": data_policies}
        return Report(data, [table], [])

    def entry(self, doc: Document) -> list[EntryForm]:
        """The events a player taps in (`sleuth serve`): the same short lines as typed. The
        slots are laid out as the 2×6 grid on the table; another player's look is one tap on
        the slot, in a form of that player's own."""
        players, others, _ = seats(doc)
        cards = [c.name for c in load_deck(doc.deck_path()).cards]
        grid = [f"{column}{row}" for row in (1, 2) for column in COLUMNS]  # as on the table

        def slot() -> Part:
            return Part("slot", "slot", grid, columns=len(COLUMNS))

        forms = [
            EntryForm(
                "My look", "look {slot} {card}", [slot(), Part("card", "the card seen", cards)]
            )
        ]
        if others:
            forms += [
                *(
                    EntryForm(
                        f"{player} looked at",
                        f"look {as_word(player)} {{slot}}",
                        [slot()],
                        instant=True,
                    )
                    for player in others
                ),
                EntryForm("An announcement", "announce {player}", [Part("player", "who", players)]),
                EntryForm(  # everyone at once, after the last looks
                    "The votes",
                    "vote " + " ".join(f"{as_word(p)} {{vote{i}}}" for i, p in enumerate(players)),
                    [
                        Part(f"vote{i}", f"{p}'s vote", list(COLUMNS), columns=len(COLUMNS))
                        for i, p in enumerate(players)
                    ],
                ),
            ]
        return forms

    def event_text(self, event: object, doc: Document) -> str:
        """One event of the log in the game's own words (the history of `sleuth serve`)."""
        return describe_event(event) if isinstance(event, dict) and event else str(event)

    def parse_line(self, text: str) -> dict:
        words = words_of(text)
        if not words:
            raise InputError("empty line")
        kind, rest = words[0].lower(), words[1:]
        if kind == "look":
            if len(rest) != 2:
                raise InputError("usage: look SLOT CARD (mine) or look PLAYER SLOT (another's)")
            if re.fullmatch(r"[a-zA-Z][0-9]", rest[0]):  # a slot, valid or not: mine
                return {"look": {"slot": rest[0].upper(), "card": rest[1]}}
            return {"look": {"by": rest[0], "slot": rest[1].upper()}}
        if kind == "announce":
            if len(rest) != 1:
                raise InputError("usage: announce PLAYER")
            return {"announce": rest[0]}
        if kind == "vote":
            if not rest or len(rest) % 2:
                raise InputError("usage: vote PLAYER COLUMN [PLAYER COLUMN ...]")
            return {"vote": dict(zip(rest[0::2], rest[1::2], strict=True))}
        hint = NameSet("command", EVENT_KINDS).suggestion(kind)
        raise InputError(f"unknown event {kind!r}{hint}")


def next_step(log: Log, where: Stage, best: Advice) -> dict:
    """What to do now: look (where, and its value) or vote (for whom, and the chance it hits),
    or, once the votes are in, my vote and its chance. The same for every front end."""
    if best.looks:
        look = best.looks[0]
        slot = SLOTS[look.slot] if log.seen else None  # with nothing seen every slot is alike
        return {"do": "look", "slot": slot, "p_hit": probability(look.value)}
    culprit = [best.counts.probability(c) for c in range(len(COLUMNS))]
    top = max(culprit)
    vote = [COLUMNS[c] for c, p in enumerate(culprit) if p == top]
    step: dict = {"do": "vote", "vote": vote, "p_hit": probability(top)}
    if where.phase == VOTED:
        step["do"] = "voted"
        mine = where.votes.get(log.me) if log.me is not None else None
        step["my_vote"] = None if mine is None else COLUMNS[mine]
        step["my_p_hit"] = None if mine is None else probability(culprit[mine])
    return step


def next_step_line(log: Log, step: dict, best: Advice) -> str:
    """`next_step` in a player's words."""
    names = dict(zip(COLUMNS, log.deck.suspects, strict=True))
    if step["do"] == "look":
        if step["slot"] is None:
            return f"nothing seen yet: all 12 slots are alike, look anywhere ({value_words(best)})"
        return f"suggested next look: {step['slot']} ({value_words(best)})"
    vote = ", ".join(f"{c} {names[c]}" for c in step["vote"])
    if step["do"] == "vote":
        seen_all = best.requested > 0  # looks left, but nothing to see
        return f"vote for: {vote} (p(vote hits) = {step['p_hit']:.3f})" + (
            "; every card is seen" if seen_all else ""
        )
    if step["my_vote"] is None:
        return f"the votes are in; the best vote: {vote} (p(vote hits) = {step['p_hit']:.3f})"
    mine = step["my_vote"]
    line = f"your vote: {mine} {names[mine]} (p(vote hits) = {step['my_p_hit']:.3f})"
    if mine not in step["vote"]:
        line += f"; the best vote was {vote} (p = {step['p_hit']:.3f})"
    return line


def ending_lines(log: Log, where: Stage, best: Advice) -> list[str]:
    """Where the game is, whether to announce, what to do now and how many looks are left:
    the same four lines in `suggest`, the view of `play` and the web page."""
    step = next_step(log, where, best)
    return [
        stage_line(where),
        announce_line(where, best.announce, best.announce_reason),
        next_step_line(log, step, best),
        f"{where.looks_left} look(s) left ({where.counted})",
    ]


def announce_or_look(best: Advice) -> dict | None:
    """Where announcing is open: my exact chance if I announce now (I vote with what I know
    today) beside looking again (the best look's value over my looks left), and what is assumed
    of the others; None before."""
    if not best.can_announce:
        return None
    again = best.looks[0].value if best.looks else best.p_vote
    return {
        "announce_now": probability(best.p_vote),
        "look_again": probability(again),
        "look_policy": "optimal" if best.exact else f"depth {best.horizon}",
        "assumption": (
            "both are my chance only: the others' votes are not valued (after an announcement "
            "each of them looks once more; each look I take also gives them one)"
        ),
    }


def value_words(best: Advice) -> str:
    """The value of the best look, said with what it is: exact over every look left, or a
    lower bound from the looks valued (depth N)."""
    if not best.looks:
        return f"no look left: p(vote hits) = {float(best.p_vote):.3f}"
    value = float(best.looks[0].value)
    if best.exact:
        return f"optimal: p(vote hits) = {value:.3f} over the {best.horizon} look(s) left"
    return f"p(vote hits) ≥ {value:.3f}, depth {best.horizon} of {best.requested} looks left"


def visible_as_given(doc: Document) -> Document:
    """A puzzle's `visible: {A1: diamond, ...}` read as the looks of `given`, one clue per card
    in its order, so that every command reads a puzzle file the same way."""
    body = doc.data.get("puzzle")
    if "events" in doc.data or not isinstance(body, dict):
        return doc
    if not isinstance(body.get("visible"), dict):
        return doc
    deck = load_deck(doc.deck_path())
    for slot, card in body["visible"].items():  # named by their slot: they are not events
        with reading(f"visible {slot}"):
            try:
                parse_slot(slot), deck.by_name(card)
            except InputError as error:
                line = doc.key_lines.get(f"puzzle.visible.{slot}")
                raise InputError(error.message, line=line) from None
    given = [{"look": {"slot": s, "card": c}} for s, c in body["visible"].items()]
    return Document(
        {**doc.data, "puzzle": {**body, "given": given}}, doc.path, doc.lines, doc.key_lines
    )
