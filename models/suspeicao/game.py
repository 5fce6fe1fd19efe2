"""The Suspeição game object: what the CLI calls, turning the exact filter into reports."""

from __future__ import annotations

import random
import re
import shlex
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from fractions import Fraction

from models.suspeicao import rules
from models.suspeicao.belief import Belief, Impossible, Refused, first_impossible, run
from models.suspeicao.log import DISCARD, EVENT_KINDS, GAME, INCRIMINATING, Log, Round, fmt, parse
from models.suspeicao.steps import PILE
from models.suspeicao.template import TEMPLATE
from solver.entry import EntryForm, Part, seats
from solver.errors import Contradiction, InputError
from solver.explain import Grounds
from solver.hidden_cards import LastSteps
from solver.logfile import Document, typed_event, whole_number
from solver.names import NameSet, words_of
from solver.report import Report, Table, probability

SESSION_HELP = """\
deal 7 21 33 41 hand 2 15 40 X1 [first Ben]    a new round: the incriminating numbers, my hand
play [PLAYER] CARD [key value ...]              a turn, keys as in the log, e.g.
  play Ben 9 target Cleo revealed 13              REVEAL
  play Ben 8 target Cleo revealed 3               FORCE answered with a card
  play Ben 8 target Cleo none polygraph 12        FORCE claimed none (+ returned N if I see it)
  play 11 target Ben took 30 gave 15 drew 9       my EXCHANGE, then I drew a 9
  play Ben 5 target Cleo    play Cleo 6           TAKE, BUY (+ took/bought N when I see it)
  play Ben 35 target Cleo evidence 21             PASS the evidence 21
  play Ben 9 blocked Cleo=X1 target Dan revealed 4   blocking mode
skip [PLAYER]                                   a final turn passed
end Ana=41 Ben=                                 the incriminating cards each player kept
any event as YAML, e.g.  fact: {player: Ben, lacks: odd}"""


SEATS = 6  # beliefs remembered: one per seat of the largest self-play table
NO_DEAL = "the log has no deal yet: start with 'deal: {incriminating: [...], hand: [...]}'"


class Posterior:
    """What the filter says about the current round, in the players' terms. The belief may be
    given as a function that builds it: then it is built on first use (the look-ahead values
    many play-outs whose next turn needs no probability at all)."""

    def __init__(self, log: Log, rnd: Round, belief: Belief | Callable[[], Belief]):
        self.log, self.round = log, rnd
        self._belief = belief
        self.opponents = [p for p in log.players if p != log.me]

    @property
    def belief(self) -> Belief:
        if not isinstance(self._belief, Belief):
            self._belief = self._belief()
        return self._belief

    def incriminating(self, card: str) -> dict[str, Fraction]:
        """Where an incriminating card is: a hidden place (with its chance), or a known one."""
        known = known_place(self.log, self.round, card)
        if known is not None:
            return known
        return self.belief.where(card)

    def requirements(self) -> list[rules.Requirement]:
        return self.log.deck.requirements()

    def holds(self, player: str, requirement: rules.Requirement) -> Fraction:
        """The chance that `player` holds a card meeting `requirement` now."""
        if self.round.hand_size[player] == 0:
            return Fraction(0)
        return self.belief.holds_meeting(player, requirement)

    def known(self) -> dict[str, list[str]]:
        """The cards I know are in each opponent's hand."""
        found: dict[str, list[str]] = {p: [] for p in self.opponents}
        for card, player in self.round.known.items():
            found[player].append(card)
        return found


def known_place(log: Log, rnd: Round, card: str) -> dict[str, Fraction] | None:
    """The place of a card `me` sees (my hand, face up in front of a player, the discard, or the
    pile once the round is scored), or None."""
    if card in rnd.my_hand:
        return {log.me: Fraction(1)}
    for player, cards in rnd.front.items():
        if card in cards:
            return {f"front ({player})": Fraction(1)}
    if card in rnd.discard:
        return {DISCARD: Fraction(1)}
    if card in rnd.left_in_pile:
        return {PILE: Fraction(1)}
    return None


class Suspeicao:
    """Sleuth's interface to Suspeição (RULINGS.md §4)."""

    name = GAME
    title = "Suspeição"
    session_help = SESSION_HELP
    puzzles_per_chunk = 1  # seconds a puzzle

    @property
    def difficulty_names(self) -> tuple[str, ...]:
        from models.suspeicao.puzzle import DIFFICULTY_NAMES  # it reads this module

        return tuple(DIFFICULTY_NAMES.values())

    def __init__(self) -> None:
        # the beliefs after the last steps tracked, one per seat of a self-play table
        self.last: LastSteps[Belief] = LastSteps(slots=SEATS)

    def describe(self) -> dict:
        deck = rules.load_deck()
        return {
            "game": self.name,
            "title": self.title,
            "deck": "a MODEL of the 56 evidence cards (1-50, X1-X6); replace it with --deck",
            "rulings": [
                "EXCHANGE: a random card taken, one of the actor's earlier cards given",
                "TAKE: a random card of the target, seen by the actor and the target",
                "refills: players left with one card or none first, then the actor",
                f"a claim of none is a bluff with probability bluff_rate ({deck.bluff_rate})",
                f"which qualifying card a target shows: force_reveal ({deck.options['force_reveal']})",
            ],
        }

    def template(self) -> str:
        return TEMPLATE

    # -- the posterior -------------------------------------------------------------------------

    def posterior(self, doc: Document, upto: int | None = None) -> Posterior:
        log = parse(doc, upto, doc.events_key)
        rnd = log.round
        if rnd is None:
            raise InputError(NO_DEAL)
        return Posterior(log, rnd, self.track(log, rnd))

    def track(self, log: Log, rnd: Round) -> Belief:
        """The filter over the round. The last results are remembered, one per seat: a session
        (or a bot) that adds events to its round only pays for the new steps."""
        setup = rnd.setup
        signature = (
            tuple(setup.opponents),
            setup.hand_size,
            setup.pile,
            tuple(setup.hidden),
            tuple(setup.incriminating),
            log.deck.bluff_rate,
            tuple(sorted(log.deck.options.items())),
        )
        steps = list(setup.steps)
        resumed = self.last.resume(signature, steps)
        try:
            if resumed:
                belief, todo = resumed
                run(belief, todo)
            else:
                belief = Belief(setup, log.deck)
                run(belief, steps)
            if belief.total() == 0:  # each hand is possible alone, but not all together
                raise Impossible(first_impossible(setup, log.deck, steps))
            belief.settle()
        except Impossible as impossible:
            raise conflict(log, rnd, impossible.event) from None
        except Refused as refused:
            raise too_large(refused) from None
        self.last.keep(signature, steps, belief)
        return belief

    def solve(self, doc: Document, upto: int | None = None) -> Report:
        with refusals_as_errors():
            return self.report(self.posterior(doc, upto))

    def report(self, post: Posterior) -> Report:
        log, rnd, belief = post.log, post.round, post.belief
        incriminating = {
            card: {place: probability(p) for place, p in post.incriminating(card).items()}
            for card in rnd.incriminating
        }
        requirements = post.requirements()
        holds = {
            player: {r.text: probability(post.holds(player, r)) for r in requirements}
            for player in post.opponents
        }
        lines = [
            f"round {rnd.number}: {belief.worlds:,} hidden worlds from {log.me}'s seat; "
            + (f"{rnd.turn}'s turn" if not rnd.over else "the round is over")
            + (
                f" (final turns: {rnd.detective} has the detective card)"
                if rnd.final_turns and not rnd.over
                else ""
            )
        ]
        for card, where in incriminating.items():
            sure = [place for place, p in where.items() if p == 1]
            if sure:
                lines.append(f"evidence {card}: {sure[0]}")
        data = {
            "game": self.name,
            "consistent": True,
            "events": log.events,
            "worlds": belief.worlds,
            "set_aside": [],  # kept for old readers: every piece of evidence is used
            "round": rnd.number,
            "me": log.me,
            "my_hand": sorted(rnd.my_hand, key=_card_order),
            "turn": None if rnd.over else rnd.turn,
            "detective": rnd.detective,
            "hand_size": dict(rnd.hand_size),
            "pile": rnd.pile,
            "front": {p: list(cards) for p, cards in rnd.front.items()},
            "known": post.known(),
            "scores": dict(log.scores),
            "incriminating": incriminating,
            "requirements": holds,
        }
        places = [*post.opponents, PILE]
        evidence_rows = []
        for card, where in incriminating.items():
            known = [p for p in where if p not in places]
            evidence_rows.append(
                [card]
                + [f"{where[p]:.3f}" if where.get(p) else "·" for p in places]
                + [", ".join(known)]
            )
        tables = [
            Table("Where each incriminating card is", ["card", *places, "known"], evidence_rows),
            Table(
                "Chance each opponent holds a card meeting each FORCE requirement",
                ["requirement", *(f"{p} ({rnd.hand_size[p]})" for p in post.opponents)],
                [
                    [r.text] + [f"{holds[p][r.text]:.3f}" for p in post.opponents]
                    for r in requirements
                ],
            ),
            Table(
                "Scores",
                ["player", "points", "in front"],
                [[p, str(log.scores[p]), fmt(rnd.front[p])] for p in log.players],
            ),
        ]
        return Report(data, tables, lines)

    def view(self, doc: Document) -> Report:
        """The session's view: the posterior, or what to type next while the header or the deal
        is missing (the header is checked as far as it goes)."""
        players, me = doc.players()
        if players is None or me is None:
            if players is not None and len(players.names) not in rules.PLAYERS:
                raise InputError("Suspeição needs 'players': a list of 3 to 6 names")
            missing = "players NAME NAME NAME ..." if players is None else "me NAME"
            return Report({"game": self.name, "events": 0}, lines=[f"next: {missing}"])
        log = parse(doc, None, doc.events_key)
        if log.round is None:
            return Report(
                {"game": self.name, "events": log.events},
                lines=[
                    f"players {', '.join(log.players)}; from {log.me}'s seat; "
                    "next: deal 7 21 33 41 hand 2 15 40 X1 (the board's numbers, then my hand)"
                ],
            )
        return self.solve(doc)

    def replay(self, doc: Document) -> Report:
        log = parse(doc, None, doc.events_key)
        if log.round is None:  # as solve says it (zip below needs a round)
            raise InputError(NO_DEAL)
        raw = doc.events(doc.events_key)
        rows: list[list[str]] = []
        history: list[dict] = []
        ends = [r.deal_event - 1 for r in log.rounds[1:]] + [log.events]
        for rnd, end in zip(log.rounds, ends, strict=True):
            for event, belief in self.beliefs(log, rnd, end):
                likely = {}
                for card in rnd.incriminating:
                    if card in belief.supply:
                        with refusals_as_errors():
                            where = belief.where(card)
                        place, p = max(where.items(), key=lambda item: item[1])
                        likely[card] = {"place": place, "p": probability(p)}
                rows.append(
                    [str(event), describe_event(raw[event - 1]), f"{belief.worlds:,}"]
                    + [
                        f"{likely[c]['place']} ({likely[c]['p']:.2f})" if c in likely else "seen"
                        for c in rnd.incriminating
                    ]
                )
                history.append(
                    {
                        "event": event,
                        "round": rnd.number,
                        "worlds": belief.worlds,
                        "likeliest": likely,
                    }
                )
        table = Table(
            "Likeliest place of each incriminating card, event by event",
            ["#", "event", "worlds", *(log.round.incriminating if log.round else [])],
            rows,
        )
        data = {"game": self.name, "consistent": True, "events": log.events, "history": history}
        return Report(data, [table], [])

    def beliefs(self, log: Log, rnd: Round, end: int) -> Iterator[tuple[int, Belief]]:
        """The filter after each event of a round, from its deal to event `end`: each step
        applied once, to the same filter. Only the sum that says whether a world is left is
        worked out here; a reader asks for what it shows (a replay: where each card is, which
        needs no sum for a hand nothing has looked into)."""
        belief = Belief(rnd.setup, log.deck)
        steps = iter(rnd.setup.steps)
        step = next(steps, None)
        for event in range(rnd.deal_event, end + 1):
            try:
                while step is not None and step.event == event:
                    belief.apply(step)
                    step = next(steps, None)
                possible = belief.total() > 0
            except Impossible:
                possible = False
            except Refused as refused:
                raise too_large(refused) from None
            if not possible:
                raise conflict(log, rnd, event)
            yield event, belief

    # -- explanations, advice, puzzles, self-play -----------------------------------------------------

    def explain(self, doc: Document, fact: str | None = None, upto: int | None = None) -> Report:
        """Why a fact about the hidden cards is certain (a minimal set of statements: FORCE
        answers, returned polygraph cards, shows, facts, the end), or what moved its chance."""
        from models.suspeicao.explain import explain

        post = self.posterior(doc, upto)  # a contradictory or too entangled log is refused here
        return explain(self.name, doc, post.log, fact, upto, post.belief)

    def answer_facts(self, doc: Document, grounds: Grounds) -> list[str]:
        """What a puzzle's answer says, as a fact: where its incriminating card is
        (`solution_path`)."""
        from models.suspeicao.puzzle import Puzzle

        where = f"evidence {Puzzle(doc).card}: "
        certain = grounds.certain(frozenset(grounds.statements))
        return [f for f in certain if f.startswith(where) and not f.startswith(f"{where}not ")]

    def grounds(self, doc: Document, upto: int | None = None) -> Grounds:
        """The round's statements and the exact chance of every fact with only some of them."""
        from models.suspeicao.explain import Replay

        post = self.posterior(doc, upto)
        return Replay(doc, post.log, post.round, upto, post.belief).grounds()

    def suggest(self, doc: Document, upto: int | None = None, horizon: int | None = None) -> Report:
        from models.suspeicao.advice import suggest

        with refusals_as_errors():
            return suggest(self, self.posterior(doc, upto), doc, horizon)

    def check(self, doc: Document) -> Report:
        from models.suspeicao.puzzle import check

        return check(self, doc)

    def generate(
        self,
        rng: random.Random,
        count: int,
        difficulty: int | None = None,
        progress: Callable[[], None] | None = None,
        visible: int | None = None,
    ) -> list[dict]:
        from models.suspeicao.puzzle import generate

        return generate(self, rng, count, difficulty, progress)

    def simulate_chunk_size(self, policy: str | None = None) -> int:
        from models.suspeicao.selfplay import chunk_size

        return chunk_size(policy)

    def simulate_chunk(self, seed: int, games: int, policy: str | None = None) -> dict:
        from models.suspeicao.selfplay import play_chunk

        return play_chunk(self, random.Random(seed), games, policy)

    def simulate_report(self, partials: list, policy: str | None = None) -> Report:
        from models.suspeicao.selfplay import report

        return report(self, partials, policy)

    def event_text(self, event: object, doc: Document) -> str:
        """One event of the log in the players' words (the history of `sleuth serve`)."""
        return describe_event(event)

    def parse_line(self, text: str) -> dict:
        return parse_line(text)

    def entry(self, doc: Document) -> list[EntryForm]:
        """The events a player taps in (`sleuth serve`), as the same short lines as typed: the
        deal, a turn per kind of action, a skipped final turn and the end of the round. The
        deal comes first until the log has one, then last (the page opens the first form).
        The blocking mode (`blocked`) and `accused: false` stay typed."""
        players, _, me = seats(doc)
        if len(players) not in rules.PLAYERS:
            return []
        deck = rules.load_deck(doc.deck_path())
        used = deck.for_players(len(players))
        board = board_numbers(doc, used)
        forms = turn_forms(used, players, board)
        forms.append(
            EntryForm("A final turn skipped", "skip {by}", [Part("by", "who skipped", players)])
        )
        if board:
            forms.append(end_form(players, board))
        if me:
            deal = deal_form(used, deck.hand_size, players)
            forms = [*forms, deal] if board else [deal, *forms]
        return forms


def _card_order(card: str) -> tuple[int, str]:
    number = whole_number(card)
    return (1, card) if number is None else (0, f"{number:03d}")


class TooEntangled(InputError):
    """The exact filter will not take this log on (docs/suspeicao.md, Limits): the user gets one
    line; a simulated player that meets it plays at random instead (selfplay.py)."""


@contextmanager
def refusals_as_errors() -> Iterator[None]:
    """A sum the filter refuses while a report is built (a hand asked for after the log itself
    solved) becomes the same one-line error as one refused while solving."""
    try:
        yield
    except Refused as refused:
        raise too_large(refused) from None


def too_large(refused: Refused) -> InputError:
    """One line for a state the exact filter will not take on (docs/suspeicao.md, Limits)."""
    return TooEntangled(
        f"the hidden cards are too entangled to solve exactly within the memory limits "
        f"({refused.why}); solve an earlier event with --upto",
        event=refused.event,
    )


def conflict(log: Log, rnd: Round, event: int) -> Contradiction:
    """No hidden world is left after `event`: CP-SAT names a minimal set of events whose
    statements cannot all hold (the deal and the turns' structure always do)."""
    from models.suspeicao.knowledge import conflict as conflicting

    steps = [s for s in rnd.setup.steps if s.event <= event]
    events = conflicting(rnd.setup, steps, log.deck) or [event]
    return Contradiction(sorted(events), detail="no way to deal the hidden cards fits them all")


def describe_event(event: object) -> str:
    """A raw event in the players' words, for the replay table and the web page's history."""
    if not isinstance(event, dict) or not event:
        return "?"
    kind, body = next(iter(event.items()))
    if not isinstance(body, dict):
        return str(kind)
    by = body.get("by", "I")
    if kind == "deal":
        hand = " ".join(map(str, body.get("hand") or []))
        first = f"; {body['first']} plays first" if "first" in body else ""
        return f"deal: incriminating {' '.join(map(str, body.get('incriminating') or []))}, my hand {hand}{first}"
    if kind == "skip":
        return f"{by} passes the final turn"
    if kind == "end":
        return "end: kept " + "; ".join(
            f"{p} {' '.join(map(str, c)) or 'none'}" for p, c in body.items()
        )
    if kind not in ("play", *(a.lower() for a in rules.ACTIONS)):
        return f"{kind} " + " ".join(f"{k}={v}" for k, v in body.items())
    said = f"{by} play{'' if by == 'I' else 's'} {body.get('card')}"
    if kind != "play":
        said += f" ({kind.upper()})"
    if "target" in body:
        said += f" on {body['target']}"
    blocked = body.get("blocked")
    outcome = (
        [f"blocked by {p} ({c})" for p, c in blocked.items()] if isinstance(blocked, dict) else []
    )
    if body.get("none"):
        outcome.append("claims none")
    for key, words in PLAY_OUTCOME_WORDS.items():
        if key in body:
            value = body[key]
            shown = " ".join(map(str, value)) if isinstance(value, list) else value
            outcome.append(words.format(shown, target=body.get("target", "the target")))
    if body.get("accused") is False:
        outcome.append("not accused")
    return said + (": " + ", ".join(outcome) if outcome else "")


PLAY_OUTCOME_WORDS = {
    "revealed": "{target} shows {}",
    "polygraph": "the polygraph shows {}",
    "returned": "{} returned",
    "took": "took {}",
    "gave": "gave {}",
    "bought": "bought {}",
    "evidence": "passes the evidence {}",
    "drew": "I drew {}",
}

# -- the session's short forms ------------------------------------------------------------------------

PLAY_KEYS = (
    "target", "revealed", "none", "polygraph", "returned", "took", "gave", "bought",
    "evidence", "blocked", "accused", "drew", "card",
)  # fmt: skip
LIST_KEYS = ("drew",)


def _card_like(word: str) -> bool:
    return word.isdigit() or re.fullmatch(r"[Xx]\d+", word) is not None


def _value(word: str) -> int | str | bool:
    number = whole_number(word)
    if number is not None and word.isdigit():
        return number
    if word.lower() in ("true", "false"):
        return word.lower() == "true"
    return word


def parse_line(text: str) -> dict:
    """One log event from a line typed in the session (see SESSION_HELP), or YAML."""
    if ":" in text:
        return typed_event(text, "play: {by: Ben, card: 9}")
    words = words_of(text)
    if not words:
        raise InputError("empty line")
    kind, rest = words[0].lower(), words[1:]
    if kind == "deal":
        return {"deal": _deal_words(rest)}
    if kind in ("play", *(a.lower() for a in rules.ACTIONS)):
        return {kind: _play_words(rest)}
    if kind == "skip":
        return {"skip": {"by": rest[0]} if rest else {}}
    if kind == "end":
        kept = {}
        for word in rest:
            name, _, cards = word.partition("=")
            kept[name] = [_value(c) for c in cards.split(",") if c]
        return {"end": kept}
    if kind in EVENT_KINDS:
        raise InputError(f"usage of {kind}: see 'help', or type the event as YAML")
    hint = NameSet("command", [*EVENT_KINDS]).suggestion(kind)
    raise InputError(f"unknown event {kind!r}{hint}")


def _deal_words(words: list[str]) -> dict:
    body: dict = {"incriminating": []}
    key = "incriminating"
    for word in words:
        if word.lower() in ("hand", "first"):
            key = word.lower()
            body[key] = []
        else:
            body[key].append(_value(word))
    if "first" in body:
        if len(body["first"]) != 1:
            raise InputError("usage: deal 7 21 33 41 hand 2 15 40 X1 first Ben")
        body["first"] = body["first"][0]
    return body


def _play_words(words: list[str]) -> dict:
    """`play [PLAYER] CARD [key value ...]`: each key takes the next word (drew: the rest until
    the next key); `none` alone means none: true; `blocked P=X1 Q=X2` a mapping."""
    body: dict = {}
    if len(words) > 1 and not _card_like(words[0]) and words[0] not in PLAY_KEYS:
        body["by"] = words.pop(0)
    if not words:
        raise InputError("usage: play [PLAYER] CARD [key value ...]")
    body["card"] = _value(words.pop(0))
    key = None
    for word in words:
        if word in PLAY_KEYS:
            key = word
            if key == "none":
                body["none"] = True
                key = None
            elif key in LIST_KEYS:
                body[key] = []
            elif key == "blocked":
                body[key] = {}
            continue
        if key is None:
            hint = NameSet("key", PLAY_KEYS).suggestion(word)
            raise InputError(f"expected an outcome key before {word!r}{hint}")
        if key == "blocked":
            name, _, card = word.partition("=")
            body[key][name] = _value(card)
        elif key in LIST_KEYS:
            body[key].append(_value(word))
        else:
            body[key] = _value(word)
            key = None
    return body


# -- the forms tapped in `sleuth serve` ------------------------------------------------------------


def board_numbers(doc: Document, used: tuple[rules.Card, ...]) -> list[str]:
    """The incriminating numbers of the log's last deal, in deck order (none before a deal, or
    when that deal cannot be read: the page says why with the report)."""
    names = NameSet("card", [c.name for c in used])
    try:
        events = doc.events(doc.events_key)
        deal = next(
            (e["deal"] for e in reversed(events) if isinstance(e, dict) and "deal" in e), None
        )
        given = deal.get("incriminating") if isinstance(deal, dict) else None
        found = {names.resolve(c) for c in given} if isinstance(given, list) else set()
    except InputError:
        return []
    return [c.name for c in used if c.name in found]


def deal_form(used: tuple[rules.Card, ...], hand_size: int, players: list[str]) -> EntryForm:
    """The deal: each incriminating number and each card of my hand is one pick (a drop-down
    list on a phone, not a wall of 50 buttons)."""
    numbers = [c.name for c in used if c.number is not None]
    cards = [c.name for c in used]
    evidence = [f"number{i}" for i in range(1, INCRIMINATING + 1)]
    hand = [f"card{i}" for i in range(1, hand_size + 1)]
    return EntryForm(
        "The deal",
        " ".join(["deal", *(f"{{{n}}}" for n in evidence), "hand", *(f"{{{n}}}" for n in hand)])
        + " {first}",
        [Part(n, f"incriminating number {i}", numbers) for i, n in enumerate(evidence, 1)]
        + [Part(n, f"my card {i}", cards) for i, n in enumerate(hand, 1)]
        + [Part("first", "who plays first", players, optional=True, prefix="first ")],
    )


def turn_forms(
    used: tuple[rules.Card, ...], players: list[str], board: list[str]
) -> list[EntryForm]:
    """A turn per kind of action: who played, the card (only that action's cards of the deck in
    use), the target, the outcome, and the cards I drew during the turn. A kind the deck has no
    card for has no form."""
    cards = [c.name for c in used]
    numbers = [c.name for c in used if c.number is not None]
    by, target = Part("by", "who played", players), Part("target", "the target", players)
    drew = Part("drew", "the cards I drew", cards, pick=0, prefix="drew ")

    def turn(label: str, action: str, outcome: str, *parts: Part) -> EntryForm:
        card = Part("card", f"the {action} card", [c.name for c in used if c.action == action])
        return EntryForm(
            label, f"play {{by}} {{card}} {outcome} {{drew}}", [by, card, *parts, drew]
        )

    def seen(name: str, label: str) -> Part:
        """A detail written only when I see it (`took`, `gave`, `bought`, `returned`)."""
        return Part(name, f"{label} (when I see it)", cards, optional=True, prefix=f"{name} ")

    forms = [
        turn(
            "A REVEAL",
            "REVEAL",
            "target {target} revealed {revealed}",
            target,
            Part("revealed", "the card revealed", cards),
        ),
        turn(
            "A FORCE answered with a card",
            "FORCE",
            "target {target} revealed {revealed}",
            target,
            Part("revealed", "the card revealed", numbers),
        ),
        turn(
            "A FORCE claimed none (polygraph)",
            "FORCE",
            "target {target} none polygraph {polygraph} {returned}",
            target,
            Part("polygraph", "the card the polygraph revealed", cards),
            seen("returned", "the other card, returned"),
        ),
        turn(
            "An EXCHANGE",
            "EXCHANGE",
            "target {target} {took} {gave}",
            target,
            seen("took", "the card taken"),
            seen("gave", "the card given"),
        ),
        turn("A TAKE", "TAKE", "target {target} {took}", target, seen("took", "the card taken")),
        turn("A BUY", "BUY", "{bought}", seen("bought", "the card bought")),
        turn(
            "A PASS",
            "PASS",
            "target {target} evidence {evidence}",
            target,
            Part("evidence", "the evidence passed", board or numbers),
        ),
    ]
    unused = [c.name for c in used if c.name in board or c.action == "PASS"] if board else cards
    forms.append(
        EntryForm(
            "An accused card, or an idle PASS",
            "play {by} {card} {drew}",
            [by, Part("card", "the card played", unused), drew],
        )
    )
    return [form for form in forms if form.parts[1].choices]


def end_form(players: list[str], board: list[str]) -> EntryForm:
    """The end of the round: the incriminating cards each player kept (none: left out)."""
    kept = [f"kept{i}" for i in range(len(players))]
    return EntryForm(
        "The end of the round",
        " ".join(["end", *(f"{{{n}}}" for n in kept)]),
        [
            Part(n, f"{player} kept", board, pick=0, prefix=shlex.quote(f"{player}="), joiner=",")
            for n, player in zip(kept, players, strict=True)
        ],
    )


GAME_OBJECT = Suspeicao()
