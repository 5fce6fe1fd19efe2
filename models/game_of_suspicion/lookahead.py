"""Game of Suspicion look-ahead: my action, the other players' turns until mine, my next action.

The one-step advice (advice.py) values an action as if my next turn came straight after it. Here
each candidate (guess now, or one of the one-step's best actions) is played out on hidden worlds
drawn from the exact belief: the world's cards are dealt onto a simulator table (simulate.py),
my action is carried out by the rules, the other players take their turns until mine with the
simulator's random bot (the policy assumed for them), and my next turn is valued by the one-step
advice from the posterior of the log I would then have (max of guessing now and the best action).
A candidate's value is the points I score on the way plus that next-turn value.

Every candidate is played on the same worlds with the same random streams (common random
numbers), so their differences have far less noise than each value. With at most `SAMPLES` // 2
hidden worlds every world is played, each `SAMPLES` // worlds times, weighted by its exact
probability (stratified): only the random choices after my action are sampled, and a candidate
whose plays draw nothing at random (e.g. the round ends with it) is exact, standard error 0.
Each sample's value is an exact Fraction; only the standard error is a float.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from random import Random

from models.game_of_suspicion import rules
from models.game_of_suspicion.advice import (
    TOP_ACTIONS,
    actions_table,
    guess_numbers,
    one_step,
    turn_note,
)
from models.game_of_suspicion.log import SLOTS, parse
from models.game_of_suspicion.simulate import Record, Table, play_turn, turn
from solver.logfile import Document
from solver.report import Report, probability
from solver.report import Table as ReportTable
from solver.stats import mean_and_se, shuffle_ties

SAMPLES = 12  # hidden worlds each candidate is played on (the same ones for every candidate)
CANDIDATES = 3  # the one-step's best actions valued ahead, besides guessing now
OPPONENT_POLICY = "random play (each turn a random kind of action, then random choices)"
MAX_WORLDS = 20_000  # above this many hidden worlds a look-ahead takes minutes: one step only
MAX_OPPONENT_TURNS = 12  # a safety net: more than one lap of turns never comes before mine


@dataclass
class Ahead:
    """One candidate valued ahead: its expected points (a mean of exact per-sample values) and
    the standard error of that mean from the samples."""

    label: str
    intent: dict | None  # None: end my turn (right after a right guess)
    points: Fraction
    se: float
    one_step: Fraction  # its one-step value, for comparison


def next_turn_value(post) -> Fraction:
    """My next turn's one-step value: the best of the moves the rules allow then."""
    if post.log.me not in post.round.active or not post.opponents:
        return Fraction(0)
    return one_step(post).value


def one_step_intent(post, rng: Random | None = None) -> dict | None:
    """Today's advice as an intent: guess when guessing now is worth at least the best action
    (right after a right guess: at least ending my turn, which is None). With `rng` (a
    self-play bot), exactly tied guesses or actions are picked at random instead of by name,
    which would make every bot favour the first-listed seat."""
    valued = one_step(post)
    guesses, actions = valued.guesses, valued.actions
    if rng is not None:
        guesses = shuffle_ties(guesses, lambda g: (g.p * g.points, g.p), rng)
        actions = shuffle_ties(actions, lambda a: (a.points, a.p_guess, a.bits), rng)
    if valued.guess_now:
        target = guesses[0]  # best_guesses ranks by (p * points, p): the max
        return {"guess": {"target": target.target, "cards": guess_numbers(target.cards)}}
    return actions[0].intent if actions else None


def with_my_choices(intent: dict) -> dict:
    """The hidden choices the one-step values assume of me: card 1 gives the named card back."""
    body = intent.get("play")
    if body and body.get("card") == 1:
        return {"play": {**body, "gave": body["named"]}}
    return intent


class Extender:
    """The posterior after my log plus some events, paying only for the new events' steps.

    The events imagine my turn coming now, whoever's turn the log has reached (the advice is
    asked for at any moment), so they are read without the turn-order check; the moves played
    are the rules' own (the simulator's), so no other check is lost."""

    def __init__(self, doc: Document, post):
        self.data = dict(doc.data)
        self.data["options"] = {**(self.data.get("options") or {}), "turn_order": "free"}
        self.events = list(doc.events(doc.events_key, post.log.events))
        self.post = post
        self.base = post.belief

    def after(self, new: list[dict]):
        from models.game_of_suspicion.game import Posterior

        doc = Document({**self.data, "events": [*self.events, *new]})
        log = parse(doc)
        rnd = log.round
        assert rnd is not None
        belief = self.base.copy()
        for step in rnd.setup.steps:
            if step.event > self.post.log.events:
                belief.apply(step)
        return Posterior(log, rnd, belief)


def table_of(post, counts) -> Table:
    """A simulator table holding one hidden world (`counts[place][value]`), my turn to play."""
    log, rnd = post.log, post.round
    me = log.me
    hands: dict[str, list[int]] = {}
    middle: dict[str, list[int]] = {}
    for index, place in enumerate(rnd.setup.places):
        cards = [v for v in rules.VALUES for _ in range(int(counts[index][v]))]
        (middle if place in SLOTS else hands)[place] = cards
    assert rnd.my_hand is not None
    hands[me] = sorted(rnd.my_hand.elements())
    return Table(
        players=list(log.players),
        me=me,
        advanced=log.advanced,
        deck=log.deck,
        round_number=rnd.number,
        hands={p: hands.get(p, []) for p in log.players},
        middle={slot: middle.get(slot, []) for slot in SLOTS[: log.deck.middle]},
        shadow=list(rnd.shadow),
        aside=rnd.aside,
        turn=me,
        face_up={p: list(rnd.face_up.get(p, [])) for p in log.players},
        played={p: list(rnd.played.get(p, [])) for p in log.players},
        out={p: list(cards) for p, cards in rnd.out.items()},
        scores=dict.fromkeys(log.players, 0),
    )


def draws(belief, rng: Random, samples: int) -> tuple[list[int], list[Fraction], bool]:
    """The worlds to play (indexes, repeats allowed), each play's weight, and whether the worlds
    are enumerated. With at most `samples` // 2 worlds, each world is played `samples` //
    worlds times and its plays share its exact probability (stratified); else `samples` worlds
    are drawn by their exact weights (an integer draw, no float rounding), weight 1/samples."""
    weights = [int(w) for w in belief.weights]
    total = sum(weights)
    if len(weights) <= samples // 2:
        per = samples // len(weights)
        worlds = [i for i in range(len(weights)) for _ in range(per)]
        return worlds, [Fraction(weights[i], total * per) for i in worlds], True
    bounds = list(_cumulative(weights))
    return (
        [bisect.bisect_right(bounds, rng.randrange(total)) for _ in range(samples)],
        [Fraction(1, samples)] * samples,
        False,
    )


def _cumulative(weights: list[int]):
    running = 0
    for w in weights:
        running += w
        yield running


def play_out(extend: Extender, table: Table, intent: dict | None, rng: Random) -> Fraction:
    """One play of a candidate on one table (None: end my turn, right after a right guess):
    the points I score on the way plus my next turn's one-step value (0 if I am out or the
    round is over by then)."""
    me = table.me
    assert me is not None
    record = Record(table.players, me, table.advanced, [])
    mine = record.seats[me]
    first = [intent]

    def ask() -> dict | None:
        if first:
            return first.pop()
        return one_step_intent(extend.after(mine))  # on after a right guess, as today's advice

    if intent is not None:
        for event in turn(table, rng, me, ask):
            record.add(event, table)
    if not table.over:
        table.turn = table.next_player(me)
    for _ in range(MAX_OPPONENT_TURNS):
        if table.over or me in table.out or table.turn == me:
            break
        play_turn(table, rng, record, {}, limit=10**9)
    scored = Fraction(table.scores[me])
    if table.over or me in table.out:
        return scored
    return scored + next_turn_value(extend.after(mine))


END_TURN = "end my turn"


def candidates(post) -> list[tuple[str, dict | None, Fraction]]:
    """(label, intent, one-step value) of the moves the rules allow now: guessing now (the best
    guess) and the best actions, or, right after a right guess, guessing again and ending my
    turn (intent None)."""
    valued = one_step(post)
    found: list[tuple[str, dict | None, Fraction]] = []
    if valued.guesses:
        g = valued.guesses[0]  # ranked by (p * points, p): the max
        numbers = guess_numbers(g.cards)
        label = f"guess {g.target}'s hand as {' '.join(map(str, numbers))}"
        intent = {"guess": {"target": g.target, "cards": numbers}}
        found.append((label, intent, valued.now))
    if valued.again:
        found.append((END_TURN, None, valued.wait))
    for a in valued.actions[:CANDIDATES]:
        found.append((a.label, with_my_choices(a.intent), a.points))
    return found


def look_ahead(
    doc: Document, post, samples: int = SAMPLES, seed: int = 0, candidates_of: Callable = candidates
) -> list[Ahead]:
    """Every candidate valued ahead, best first (same worlds, same random streams for all)."""
    extend = Extender(doc, post)
    if any(post.belief.pooled):
        post.belief = post.belief.resolved()
    rng = Random(seed)
    worlds, weights, enumerated = draws(post.belief, rng, samples)
    streams = [rng.getrandbits(64) for _ in worlds]
    found = []
    for label, intent, one_step_points in candidates_of(post):
        values = [
            play_out(extend, table_of(post, post.belief.counts[world]), intent, Random(stream))
            for world, stream in zip(worlds, streams, strict=True)
        ]
        mean = sum((w * v for w, v in zip(weights, values, strict=True)), Fraction(0))
        se = standard_error(values, worlds, weights, enumerated)
        found.append(Ahead(label, intent, mean, se, one_step_points))
    return sorted(found, key=lambda a: (-a.points, a.label))


def standard_error(
    values: list[Fraction], worlds: list[int], weights: list[Fraction], enumerated: bool
) -> float:
    """The standard error of the weighted mean. Worlds drawn: sd / sqrt(n). Worlds enumerated:
    sqrt(sum over worlds of p² s² / plays), s² the spread of the world's own plays (only the
    other players' and the hidden choices' randomness)."""
    if not enumerated:
        return mean_and_se(values)[1]
    by_world: dict[int, list[Fraction]] = {}
    probability: dict[int, Fraction] = {}
    for world, weight, value in zip(worlds, weights, values, strict=True):
        by_world.setdefault(world, []).append(value)
        probability[world] = probability.get(world, Fraction(0)) + weight
    variance = Fraction(0)
    for world, own in by_world.items():
        mean = sum(own, Fraction(0)) / len(own)
        spread = sum(((v - mean) ** 2 for v in own), Fraction(0)) / (len(own) - 1)
        variance += probability[world] ** 2 * spread / len(own)
    return math.sqrt(variance)


def too_large(post) -> bool:
    """Whether the hidden worlds are too many for the look-ahead (each play values my next turn
    on them: minutes for 100,000 worlds; the one-step advice is given instead)."""
    if any(post.belief.pooled):
        post.belief = post.belief.resolved()
    return len(post.belief.weights) > MAX_WORLDS


def lookahead_intent(doc: Document, post, samples: int = SAMPLES, seed: int = 0) -> dict | None:
    """The look-ahead's choice as an intent (the simulator's `--policy lookahead`); the
    one-step advice's where the worlds are too many."""
    if post.log.me not in post.round.active or not post.opponents:
        return None
    if too_large(post):
        return one_step_intent(post)
    found = look_ahead(doc, post, samples, seed)
    return found[0].intent if found else None


def ahead_report(report: Report, doc: Document, post, samples: int = SAMPLES) -> Report:
    """The one-step report with the look-ahead added: its table of candidates (value ± standard
    error), and its best candidate as the advice. The summary and the advice lines then come
    from the look-ahead's values alone, and a line says where it overrides the one-step's."""
    turns = len(post.opponents)
    if too_large(post):
        data = {**report.data, "lookahead": None}
        line = (
            f"look-ahead skipped: more than {MAX_WORLDS:,} hidden worlds "
            f"({len(post.belief.weights):,}); the one-step advice above stands"
        )
        return Report(data, report.tables, [*report.lines, line], report.warnings)
    valued = one_step(post)
    found = look_ahead(doc, post, samples)
    best = found[0]
    data = dict(report.data)
    data["advice"] = advice_word(best.intent, valued.again)
    data["lookahead"] = {
        "horizon": "my action, the other players' turns until mine, my next action",
        "opponent_turns": turns,
        "opponent_policy": OPPONENT_POLICY,
        "samples": samples,
        "best": best.intent,
        "candidates": [
            {
                "action": a.label,
                "event": a.intent,
                "points": probability(a.points),
                "standard_error": round(a.se, 6),
                "one_step_points": probability(a.one_step),
            }
            for a in found
        ],
    }
    rows = [
        [a.label, f"{float(a.points):.2f} ± {a.se:.2f}", f"{float(a.one_step):.2f}"] for a in found
    ]
    opponent_turns = f"{turns} opponent turn{'s' if turns != 1 else ''}"
    table = ReportTable(
        f"Look-ahead: my move, {opponent_turns}, my next turn (the advice)",
        ["candidate", "points ± s.e.", "one-step points"],
        rows,
        {0},
    )
    tables = [report.tables[0]]  # the best guess at each opponent
    if not valued.again:  # the actions table, with the look-ahead's choice emphasised
        chosen = [i for i, a in enumerate(valued.actions[:TOP_ACTIONS]) if a.label == best.label]
        tables.append(actions_table(valued.actions, set(chosen)))
    lines = [
        summary_line(found, valued.again),
        f"advice: {advice_text(best)} ({float(best.points):.2f} ± {best.se:.2f} points, my "
        "next turn included)",
        *override_lines(found, best),
        f"look-ahead: my move, {opponent_turns}, my next turn; the other players are assumed "
        f"to play at random (each turn a random kind of action, then random choices); "
        f"{samples} plays of hidden worlds drawn from the exact chances, the same for every "
        "candidate",
        *turn_note(post),
    ]
    return Report(data, [*tables, table], lines, report.warnings)


def advice_word(intent: dict | None, again: bool) -> str:
    """The JSON `advice`: guess, act, or end turn (right after a right guess)."""
    if intent is not None and "guess" in intent:
        return "guess"
    return "end turn" if again else "act"


def advice_text(best: Ahead) -> str:
    if best.intent is not None and "guess" in best.intent:
        guess = best.intent["guess"]
        return f"GUESS {guess['target']}'s hand as {' '.join(map(str, guess['cards']))}"
    return best.label if best.intent is None else f"act: {best.label}"


def summary_line(found: list[Ahead], again: bool) -> str:
    """Guessing against the best other move, in the look-ahead's values."""
    guess = next((a for a in found if a.intent is not None and "guess" in a.intent), None)
    other = next((a for a in found if a is not guess), None)
    parts = []
    if guess is not None:
        parts.append(f"{guess.label} now {float(guess.points):.2f} ± {guess.se:.2f}")
    if other is not None:
        what = "end my turn" if other.intent is None else f"best action ({other.label})"
        parts.append(f"{what} {float(other.points):.2f} ± {other.se:.2f}")
    start = "I guessed right, so I may guess again or end my turn; " if again else ""
    return f"{start}expected points to my next turn: " + "; ".join(parts)


def override_lines(found: list[Ahead], best: Ahead) -> list[str]:
    """Where the look-ahead's best is not the one-step's, say so in a player's words."""
    first = max(found, key=lambda a: a.one_step)  # ties: the look-ahead's order
    if first is best or first.one_step == best.one_step:
        return []
    return [
        f"the look-ahead overrides the one-step values: looking one action ahead, "
        f"{first.label} seemed best ({float(first.one_step):.2f} points against "
        f"{float(best.one_step):.2f}), but played out through the other players' turns to my "
        f"next turn, {best.label} is worth more ({float(best.points):.2f} against "
        f"{float(first.points):.2f})"
    ]
