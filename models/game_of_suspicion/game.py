"""The Game of Suspicion game object: what the CLI calls, turning the exact filter into reports."""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction

from models.game_of_suspicion import rules
from models.game_of_suspicion.belief import Belief, Filter, Impossible, advance, track
from models.game_of_suspicion.forms import entry_forms
from models.game_of_suspicion.log import EVENT_KINDS, GAME, Log, Round, fmt, parse
from models.game_of_suspicion.puzzle import DIFFICULTY_NAMES
from models.game_of_suspicion.steps import Step
from models.game_of_suspicion.template import TEMPLATE
from solver.entry import EntryForm
from solver.errors import Contradiction, InputError
from solver.explain import Grounds, explained
from solver.hidden_cards import LastSteps
from solver.logfile import Document, typed_event, whole_number
from solver.names import NameSet, words_of
from solver.report import Report, Table, probability

SEATS = 6  # beliefs remembered: one per seat of the largest self-play table
TOP_HANDS = 5  # hands listed per opponent
NO_DEAL = "the log has no deal yet: start with 'deal: {hand: [...]}'"

SESSION_HELP = """\
deal 0 1 5 7 [shadow V V V V] [aside V]   a new round: my hand (shadow: 3 players; aside: advanced)
look PLAYER left|right exchanged|kept     another player's middle look
look left|right saw V [put V]             my look (put: the card I put back; left out = kept)
play PLAYER CARD [key value ...]          a card and its outcome, keys as in the log:
  play Ben 0 Cleo Dan                       card 0 (me among them: + gave V got V)
  play Ben 1 9 Cleo    play Ben 1 9 none    card 1 (I act: + gave V; I hold it: + got V)
  play Ben 2 showed Cleo Dan                card 2 (I act: + hands Cleo=5,7,9,0)
  play Ben 3 target Cleo guesses 0,1,1 0,0,1 correct false
  play Dan 4 shown Ana=2 Ben=0 Cleo=1       counts; I act: Ben=5,7 Cleo= Dan=8, (a list)
  play Ben 6 face_up Ana=0 Cleo=1 Dan=0     play Ben 7 out Cleo=0,0,3
  play Ana 8 saw 3 5 put 0                  play Ben 9
guess PLAYER TARGET right|wrong V V V ...  a whole-hand guess
skip [PLAYER]                             a turn let pass (turns go to the left, in seat order)
any event as YAML, e.g.  fact: {player: Ben, lacks: [2, 3]}"""


def hand_text(cards) -> str:
    return " ".join(str(v) for v in cards) or "(empty)"


class Posterior:
    """What the filter says about the current round, in the players' terms."""

    def __init__(self, log: Log, rnd: Round, belief: Filter):
        self.log, self.round, self.belief = log, rnd, belief
        self.opponents = [p for p in rnd.active if p != log.me]

    def place(self, player: str) -> int:
        return self.round.setup.place(player)

    def hands(self, player: str) -> list[tuple[tuple[int, ...], Fraction]]:
        return self.belief.hands(self.place(player))

    def holders(self, value: int) -> dict[str, Fraction]:
        """Probability that each place holds a card `value` (at least one, for the 0s and 1s)."""
        rnd, found = self.round, {}
        for name in rnd.setup.places:
            p = self.belief.holds(rnd.setup.place(name), value)
            if p:
                found[name] = p
        known = {
            **({self.log.me: rnd.my_hand[value]} if rnd.my_hand is not None else {}),
            **{f"face up ({p})": cards.count(value) for p, cards in rnd.face_up.items()},
            **{f"out ({p})": cards.count(value) for p, cards in rnd.out.items()},
            "shadow": rnd.shadow.count(value),
            "aside": int(rnd.aside == value),
            "table": rnd.table.count(value),
        }
        found.update({name: Fraction(1) for name, n in known.items() if n})
        return found

    def certain(self, player: str) -> tuple[list[int], list[int]]:
        """Values the player surely holds, and values still in play they surely do not hold."""
        place = self.place(player)
        hidden = self.belief.hidden_values()
        sure = [v for v in hidden if self.belief.holds(place, v) == 1]
        never = [v for v in hidden if self.belief.holds(place, v) == 0]
        return sure, never


def worlds_text(worlds: int | None) -> str:
    """The number of hidden worlds, or why it is not given (the tables used without `me` can
    be too entangled to tell distinct worlds apart quickly; the chances do not need it)."""
    return "not counted" if worlds is None else f"{worlds:,}"


def value_label(value: int) -> str:
    return "10 (0+1)" if value == rules.TEN else str(value)


class GameOfSuspicion:
    """Sleuth's interface to Game of Suspicion (RULINGS.md §3)."""

    name = GAME
    title = "Game of Suspicion"
    session_help = SESSION_HELP
    puzzles_per_chunk = 1  # seconds a puzzle
    difficulty_names = tuple(DIFFICULTY_NAMES.values())

    def __init__(self) -> None:
        # the beliefs after the last steps tracked, one per seat of a self-play table
        self.last: LastSteps[Filter] = LastSteps(slots=SEATS)

    def describe(self) -> dict:
        deck = rules.load_deck()
        return {
            "game": self.name,
            "title": self.title,
            "deck": "18 cards: 0 ×5, 1 ×5, 2-9; advanced: + the 10, one card set aside",
            "rulings": [
                "card 1 does not affect a player with one card",
                f"card 0 and a player with one card (card0_one_card: "
                f"{deck.option('card0_one_card')})",
                f"the 10 ranks as a 0 for card 6 (card6_ten_rank: {deck.option('card6_ten_rank')})",
                "card 8 takes back the 8 itself, and leaves one card in the middle (left)",
                "card 9 does nothing unless the log records it with move/show/fact",
                f"hidden choices uniform over physical cards (choice_unit: {deck.option('choice_unit')})",
                f"a middle look is uniform within its announcement (announce_model: "
                f"{deck.option('announce_model')})",
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
        return Posterior(log, rnd, self.track(rnd))

    def track(self, rnd: Round, steps=None) -> Filter:
        """The filter over the round; a contradiction names the events CP-SAT finds in conflict.

        The last results are remembered, one per seat: a session (or a bot) that adds events to
        its round only pays for the new steps."""
        steps = list(rnd.setup.steps if steps is None else steps)
        setup = rnd.setup
        signature = (
            tuple(setup.places),
            tuple(setup.capacity),
            tuple(sorted(setup.hidden.items())),
            tuple(sorted(setup.copies.items())),
            setup.choice_unit,
            setup.announce_model,
            setup.card6_ten_rank,
        )
        resumed = self.last.resume(signature, steps)
        belief, todo = resumed if resumed else (track(setup, []), steps)
        try:
            belief = advance(belief, setup, todo, steps)
        except Impossible as impossible:
            raise conflict(rnd, impossible.event) from None
        self.last.keep(signature, steps, belief)
        return belief

    def solve(self, doc: Document, upto: int | None = None) -> Report:
        return self.report(self.posterior(doc, upto))

    def report(self, post: Posterior) -> Report:
        log, rnd, belief = post.log, post.round, post.belief
        hands = {
            player: [
                {"cards": list(h), "p": probability(p)} for h, p in post.hands(player)[:TOP_HANDS]
            ]
            for player in post.opponents
        }
        in_play = sorted(log.deck.cards(log.advanced))
        holder = {
            str(v): {place: probability(p) for place, p in post.holders(v).items()} for v in in_play
        }
        certain = {}
        lines = [
            f"round {rnd.number}: "
            + (
                f"{belief.worlds:,} possible hidden worlds"
                if belief.worlds is not None
                else "the possible hidden worlds are too entangled to count (the chances are exact)"
            )
            + (f" from {log.me}'s seat" if log.me else " (public information only)")
        ]
        for player in post.opponents:
            sure, never = post.certain(player)
            certain[player] = {"holds": sure, "lacks": never}
            best, p = post.hands(player)[0]
            if p == 1:
                lines.append(f"{player}'s hand is certainly {hand_text(best)}")
            elif sure:
                lines.append(f"{player} certainly holds {fmt(sure)}")
        data = {
            "game": self.name,
            "consistent": True,
            "events": log.events,
            "worlds": belief.worlds,
            "round": rnd.number,
            "me": log.me,
            "my_hand": sorted(rnd.my_hand.elements()) if rnd.my_hand is not None else None,
            "hand_size": dict(rnd.hand_size),
            "out": {p: h for p, h in rnd.out.items()},
            "scores": dict(log.scores),
            "hands": hands,
            "card_holder": holder,
            "certain": certain,
            "warnings": log.warnings,
        }
        tables = [self.hands_table(post), self.holder_table(post, in_play)]
        return Report(data, tables, lines, log.warnings)

    def hands_table(self, post: Posterior) -> Table:
        rows = []
        for player in post.opponents:
            for i, (hand, p) in enumerate(post.hands(player)[:TOP_HANDS]):
                label = f"{player} ({post.round.hand_size[player]})" if i == 0 else ""
                rows.append([label, hand_text(hand), f"{float(p):.3f}"])
        return Table("Most likely hands", ["player", "hand", "p"], rows)

    def holder_table(self, post: Posterior, values: list[int]) -> Table:
        places = [*post.opponents, *[s for s in ("left", "right") if post.round.middle.get(s)]]
        rows = []
        for value in values:
            held = post.holders(value)
            elsewhere = ", ".join(k for k in held if k not in places)
            rows.append(
                [value_label(value)]
                + [f"{float(held.get(p, 0)):.2f}" if held.get(p) else "·" for p in places]
                + [elsewhere]
            )
        return Table(
            "Who holds each value (p of holding at least one)", ["card", *places, "known"], rows
        )

    def view(self, doc: Document) -> Report:
        """The session's view: the posterior, or what to type first while there is no deal."""
        log = parse(doc, None, doc.events_key)
        if log.round is None:
            seat = f"from {log.me}'s seat" if log.me else "no 'me' yet (public information only)"
            return Report(
                {"game": self.name, "events": log.events},
                lines=[f"players {', '.join(log.players)}; {seat}; next: deal 0 1 5 7 ..."],
            )
        return self.solve(doc)

    def replay(self, doc: Document) -> Report:
        log = parse(doc, None, doc.events_key)
        if log.round is None:  # as solve says it (the rounds are replayed one by one)
            raise InputError(NO_DEAL)
        raw = doc.events(doc.events_key)
        opponents = [p for p in log.players if p != log.me]
        rows: list[list[str]] = []
        history: list[dict] = []
        ends = [r.deal_event - 1 for r in log.rounds[1:]] + [log.events]
        for rnd, end in zip(log.rounds, ends, strict=True):
            for event, belief in self.beliefs(rnd, end):
                best = {
                    p: belief.hands(rnd.setup.place(p))[0]
                    for p in opponents
                    if belief.has_cards(rnd.setup.place(p))
                }
                rows.append(
                    [str(event), describe_event(raw[event - 1], log.me), worlds_text(belief.worlds)]
                    + [
                        f"{hand_text(best[p][0])} ({float(best[p][1]):.2f})" if p in best else "out"
                        for p in opponents
                    ]
                )
                history.append(
                    {
                        "event": event,
                        "round": rnd.number,
                        "worlds": belief.worlds,
                        "best_hands": {
                            p: {"cards": list(h), "p": probability(q)} for p, (h, q) in best.items()
                        },
                    }
                )
        table = Table(
            "Most likely hand of each opponent, event by event",
            ["#", "event", "worlds", *opponents],
            rows,
        )
        data = {"game": self.name, "consistent": True, "events": log.events, "history": history}
        return Report(data, [table], [], log.warnings)

    def beliefs(self, rnd: Round, end: int):
        """The filter after each event of a round, from its deal to event `end`."""
        belief = self.track(rnd, [])
        by_event: dict[int, list[Step]] = {}
        for step in rnd.setup.steps:
            by_event.setdefault(step.event, []).append(step)
        done: list[Step] = []
        for event in range(rnd.deal_event, end + 1):
            todo = by_event.get(event, [])
            done += todo
            try:
                belief = advance(belief, rnd.setup, todo, done)
            except Impossible as impossible:
                raise conflict(rnd, impossible.event) from None
            yield event, belief

    # -- explanations, advice, puzzles, self-play: explain.py, advice.py, puzzle.py, simulate.py --

    def explain(self, doc: Document, fact: str | None = None, upto: int | None = None) -> Report:
        """Why a fact about an opponent's hand is certain (each event that tells something
        about the hidden cards is a statement), or what moved its probability (explain.py)."""
        return explained(self.name, doc, self.grounds(doc, upto), fact)

    def answer_facts(self, doc: Document, grounds: Grounds) -> list[str]:
        """What a puzzle's answer says, as facts (`solution_path`): the player's hand, or for
        "who holds V", whether each opponent holds a V (the middle's share follows)."""
        from models.game_of_suspicion.puzzle import question_of

        kind, subject = question_of(doc.data.get("puzzle") or {})
        certain = grounds.certain(frozenset(grounds.statements))
        if kind == "hand":
            player = NameSet("player", doc.data.get("players") or []).resolve(str(subject))
            return [f for f in certain if f.startswith(f"{player}'s hand is ")]
        return [f for f in certain if f.endswith((f" holds {subject}", f" lacks {subject}"))]

    def grounds(self, doc: Document, upto: int | None = None) -> Grounds:
        from models.game_of_suspicion.explain import TOO_LARGE, grounds_of

        post = self.posterior(doc, upto)  # a contradictory log is refused here
        if not isinstance(post.belief, Belief) or post.belief.slice:
            raise InputError(TOO_LARGE)  # followed by the tables or the large list
        raw = doc.events(doc.events_key, upto)
        me = post.log.me
        return grounds_of(post.round, me, lambda event: describe_event(raw[event - 1], me))

    def suggest(self, doc: Document, upto: int | None = None, horizon: int | None = None) -> Report:
        from models.game_of_suspicion.advice import suggest

        return suggest(self, self.posterior(doc, upto), horizon, doc)

    def check(self, doc: Document) -> Report:
        from models.game_of_suspicion.puzzle import check

        return check(self, doc)

    def generate(
        self,
        rng: random.Random,
        count: int,
        difficulty: int | None = None,
        progress: Callable[[], None] | None = None,
        visible: int | None = None,
    ) -> list[dict]:
        from models.game_of_suspicion.puzzle import generate

        return generate(rng, count, difficulty, progress)

    def simulate_chunk_size(self, policy: str | None = None) -> int:
        from models.game_of_suspicion.selfplay import chunk_size

        return chunk_size(policy)

    def simulate_chunk(self, seed: int, games: int, policy: str | None = None) -> dict:
        from models.game_of_suspicion.selfplay import play_chunk

        return play_chunk(random.Random(seed), games, policy)

    def simulate_report(self, partials: list, policy: str | None = None) -> Report:
        from models.game_of_suspicion.selfplay import report

        return report(partials, policy)

    def entry(self, doc: Document) -> list[EntryForm]:
        """The events a player taps in (`sleuth serve`): the deal, looks, every card played
        with its outcome, and guesses (forms.py; what stays typed is in the game's doc)."""
        return entry_forms(doc)

    def event_text(self, event: object, doc: Document) -> str:
        """One event of the log in the players' words (the history of `sleuth serve`)."""
        me = doc.data.get("me")
        return describe_event(event, me if isinstance(me, str) else None)

    def parse_line(self, text: str) -> dict:
        return parse_line(text)


def conflict(rnd: Round, event: int) -> Contradiction:
    """The events (a minimal set, from CP-SAT's assumptions) that leave no possible world."""
    from models.game_of_suspicion.knowledge import HandKnowledge

    steps = [s for s in rnd.setup.steps if s.event <= event]
    events = HandKnowledge(rnd.setup, steps).conflict() or [event]
    if rnd.deal_event not in events and len(events) == 1 and events[0] != rnd.deal_event:
        detail = f"no deal and history fits event {events[0]}"
    else:
        detail = "no deal and history fits all of them"
    return Contradiction(events, detail=detail)


def value_text(value: object) -> str:
    """A value of an event in a line: lists by spaces, maps as "Ben 2; Cleo 0,1"."""
    if isinstance(value, dict):
        return "; ".join(f"{k} {value_text(v)}" for k, v in value.items())
    if isinstance(value, list):
        inner = [value_text(v) for v in value]
        return (" / " if any(isinstance(v, list) for v in value) else ",").join(inner) or "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def describe_event(event: object, me: str | None = None) -> str:
    """A short label of a (valid) event for the replay table."""
    if not isinstance(event, dict) or not event:
        return "?"
    kind, body = next(iter(event.items()))
    if not isinstance(body, dict):
        return kind
    by = body.get("by", me or "me")
    if kind == "deal":
        return "deal " + hand_text(body.get("hand") or [])
    if kind == "look":
        if "saw" in body:
            put = body.get("put_back", body["saw"])
            return f"{by} looks {body.get('slot', 'left')}: saw {body['saw']}, put {put}"
        return f"{by} looks {body.get('slot', 'left')}, {'exchanged' if body.get('exchanged') else 'kept'}"
    if kind == "play":
        outcome = [
            f"{key.replace('_', ' ')} {value_text(value)}"
            for key, value in body.items()
            if key not in ("by", "card")
        ]
        return f"{by} plays {body.get('card')}" + (": " + ", ".join(outcome) if outcome else "")
    if kind == "guess":
        right = "right" if body.get("correct") else "wrong"
        return f"{by} guesses {body.get('target')}: {hand_text(body.get('cards') or [])} ({right})"
    if kind == "skip":
        return f"{by} lets the turn pass"
    return kind


def parse_line(text: str) -> dict:
    """One event from a session line: YAML (`play: {...}`) or the short forms of SESSION_HELP."""
    if ":" in text:
        return typed_event(text, "play: {by: Ben, card: 9}")
    words = words_of(text)
    if not words:
        raise InputError("empty line")
    kind, rest = words[0].lower(), words[1:]
    if kind == "deal":
        return {"deal": _deal_words(rest)}
    if kind == "look":
        return {"look": _look_words(rest)}
    if kind == "play" and len(rest) >= 2:
        return {"play": _play_words(rest)}
    if kind == "guess" and len(rest) >= 3:  # no numbers: a guess at a hand with no card
        right = NameSet("outcome", ["right", "wrong"]).resolve(rest[2])
        return {
            "guess": {
                "by": rest[0],
                "target": rest[1],
                "correct": right == "right",
                "cards": [_number(v) for word in rest[3:] for v in word.split(",") if v],
            }
        }
    if kind == "skip" and len(rest) <= 1:
        return {"skip": {"by": rest[0]} if rest else {}}
    if kind in EVENT_KINDS:
        raise InputError(f"usage of {kind}: see 'help', or type the event as YAML")
    hint = NameSet("command", EVENT_KINDS).suggestion(kind)
    raise InputError(f"unknown event {kind!r}{hint}")


def _deal_words(words: list[str]) -> dict:
    """`deal [V V V V] [shadow V V V V] [aside V]`: no hand in a log without `me`."""
    body: dict = {}
    key = "hand"
    for word in words:
        if word.lower() in ("shadow", "aside"):
            key = word.lower()
            body.setdefault(key, [])
        else:
            body.setdefault(key, []).append(_number(word))
    if "aside" in body:
        if len(body["aside"]) != 1:
            raise InputError("usage: deal 0 1 5 7 aside 9 (one set-aside card)")
        body["aside"] = body["aside"][0]
    return body


def _number(word: str) -> int | str:
    """A card value typed in the session, kept as an int when it is one (for a tidy log)."""
    number = whole_number(word)
    return word if number is None else number


def _look_words(words: list[str]) -> dict:
    slots = ("left", "right")
    if words and words[0].lower() in slots:
        if len(words) not in (3, 5) or words[1].lower() != "saw":
            raise InputError("usage: look left|right saw V [put V]")
        body = {"slot": words[0].lower(), "saw": _number(words[2])}
        if len(words) == 5:
            body["put_back"] = _number(words[4])
        return body
    if len(words) != 3:
        raise InputError("usage: look PLAYER left|right exchanged|kept")
    outcome = NameSet("outcome", ["exchanged", "kept"]).resolve(words[2])
    return {"by": words[0], "slot": words[1].lower(), "exchanged": outcome == "exchanged"}


# The outcome keys a session line may give after `play PLAYER CARD` (see SESSION_HELP).
PLAY_KEYS = (
    "between", "named", "holder", "gave", "got", "showed", "hands", "target", "guesses",
    "correct", "shown", "face_up", "out", "took", "saw", "put",
)  # fmt: skip
LIST_KEYS = ("between", "showed", "guesses", "took", "saw")  # always lists, even of one
MAP_KEYS = ("hands", "shown", "face_up", "out")  # NAME=... entries; none: `out` alone is {}


def _play_words(words: list[str]) -> dict:
    """`play PLAYER CARD [key value ...]`: each key takes the words up to the next key; a word
    NAME=V,V is one entry of a mapping (NAME= an empty list), V,V a list of cards, a lone
    number a card. Short forms: `play Ben 0 Cleo Dan` and `play Ben 1 9 Cleo`."""
    by, card, rest = words[0], _number(words[1]), words[2:]
    body: dict = {"by": by, "card": card}
    short = len(rest) >= 2 and rest[0] not in PLAY_KEYS and rest[1] not in PLAY_KEYS
    if card == 0 and short:  # `play Ben 0 Cleo Dan [gave V got V]`
        body["between"], rest = rest[:2], rest[2:]
    elif card == 1 and short:  # `play Ben 1 9 Cleo [gave V | got V]`
        body["named"], body["holder"], rest = _number(rest[0]), rest[1], rest[2:]
    key = None
    for word in rest:
        if word in PLAY_KEYS:
            key = word
            body[key] = [] if key in LIST_KEYS else {} if key in MAP_KEYS else None
            continue
        if key is None:
            hint = NameSet("key", PLAY_KEYS).suggestion(word)
            raise InputError(f"play {card}: expected an outcome key before {word!r}{hint}")
        body[key] = _add_word(body[key], word)
    for key, value in body.items():
        if key in LIST_KEYS and key != "guesses" and isinstance(value, list):
            body[key] = [v[0] if isinstance(v, list) and len(v) == 1 else v for v in value]
    return body


def _add_word(current, word: str):
    """One more word of an outcome: into a mapping (NAME=...), a list, or a single value."""
    if "=" in word:
        name, _, cards = word.partition("=")
        mapping = current if isinstance(current, dict) else {}
        mapping[name] = _cards(cards)
        return mapping
    value: object = _cards(word) if "," in word else _number(word)
    if word.lower() in ("true", "false", "right", "wrong"):
        value = word.lower() in ("true", "right")
    if isinstance(current, list):
        return [*current, value]
    return value if current is None else [current, value]


def _cards(text: str):
    """`5,7` -> [5, 7]; `2` -> 2 (a count); `` or `-` -> [] (nothing shown)."""
    if text in ("", "-"):
        return []
    if "," in text:
        return [_number(v) for v in text.split(",") if v]
    return _number(text)
