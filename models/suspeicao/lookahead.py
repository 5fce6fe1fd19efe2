"""Suspeição look-ahead: my play, the other players' turns until mine, my next play.

The one-step advice (advice.py) values a play by what it scores at once. Here each candidate
(the one-step's best plays, and for the best EXCHANGE every card I could give) is played out on
hidden states drawn from the exact belief: the state is dealt onto a simulator table
(simulate.py), my play is carried out by the rules, the other players take their turns until
mine by `one_step_proxy` (the policy assumed for them: the one-step advice's order of play
kinds, without its beliefs; it replaced the simulator's uniform random plays, far from what
one-step players do), and my next turn is valued by the one-step advice from the posterior of
the log I would then have (its best play's points). A candidate's value is the change, on the way, of my
score as it would stand if the round ended now (points, +2 for each incriminating card in my
hand, -1 for each in front of me: so passing my evidence away gains 1, evidence revealed from
my hand loses 3, an EXCHANGE that gives evidence away loses 2), plus that next-turn value. A
play after which the detective is called stops there (no next-turn value: the final turns follow other rules).

A hidden state is drawn exactly: one opponent's hand from its exact posterior (a row of group
counts by its weight, then the cards uniformly within each group, which no table tells apart),
the belief conditioned on it, then the next opponent's; the pile holds the rest, shuffled.
Every candidate is played on the same states with the same random streams (common random
numbers); values are exact Fractions, the standard error is sd / sqrt(plays). A state where some
candidate's play-out leaves a log the exact filter refuses (too entangled) is dropped for every
candidate, as is a state whose drawing needs a sum the filter refuses (a later opponent's
hand, conditioned on the cards drawn for the earlier ones); with none left the one-step advice
stands alone.

The play advised is the one-step's best unless another candidate beats it by more than `Z`
standard errors of their paired difference on the same states: eight states leave each value
an error larger than most differences between candidates, and the highest mean alone would
switch plays on noise. While a candidate is ahead on the mean but not yet by `Z` errors,
`SAMPLES` more states are drawn (up to `MOST_SAMPLES`; `suggest` stops drawing after
`SUGGEST_BUDGET` seconds), played by it and the one-step's best. Once the budget is spent,
`suggest` also stops inside a batch, before its next play-out, as soon as `FLOOR` states are
kept: a single state can take seconds per candidate. The unplayed states are cut for every
candidate (so the values stay paired), and if fewer than `SAMPLES` states are kept, the
one-step's best is advised.
"""

from __future__ import annotations

import bisect
import dataclasses
import time
from fractions import Fraction
from random import Random

from models.suspeicao.advice import Play, best_points, plays
from models.suspeicao.belief import Refused
from models.suspeicao.log import parse
from models.suspeicao.simulate import (
    BLOCK,
    KEPT_POINTS,
    PLAY,
    Choice,
    Round,
    Table,
    View,
    random_policy,
)
from solver.logfile import Document
from solver.report import Report, probability
from solver.report import Table as ReportTable
from solver.stats import mean_and_se

SAMPLES = 8  # hidden states each candidate is played on (the same ones for every candidate)
MOST_SAMPLES = 32  # states drawn at most, 8 at a time, while a candidate is undecided
SUGGEST_BUDGET = 3.0  # seconds after which `suggest` plays no more states (FLOOR at least)
FLOOR = 2  # states kept before the budget may cut a batch short (a standard error needs 2)
CANDIDATES = 3  # the one-step's best plays valued ahead (besides the best EXCHANGE's gives)
OPPONENT_POLICY = (  # in the words a player reads (`one_step_proxy`)
    "one-step advice's order of plays: pass evidence away if they can, else a REVEAL or FORCE, "
    "else any card, their own incriminating card last"
)
Z = 2  # standard errors by which a candidate must beat the one-step's best play to replace it
RULE = (
    "the one-step's best play, unless a candidate beats it on the same states by more than "
    f"{Z} standard errors of the paired difference (then the best such candidate)"
)


class Extender:
    """The posterior after my log plus some events, paying only for the new events' steps."""

    def __init__(self, doc: Document, post):
        self.data = dict(doc.data)
        self.events = list(doc.events(doc.events_key, post.log.events))
        self.post = post

    def after(self, new: list[dict]):
        """The posterior after `new`; its belief is worked out only when asked for."""
        from models.suspeicao.game import Posterior

        log = parse(Document({**self.data, "events": [*self.events, *new]}))
        rnd = log.round
        assert rnd is not None

        def belief():
            found = self.post.belief.copy()
            for step in rnd.setup.steps:
                if step.event > self.post.log.events:
                    found.apply(step)
            return found

        return Posterior(log, rnd, belief)


def pick(weights, rng: Random) -> int:
    """An index drawn by exact integer weights."""
    bounds, running = [], 0
    for w in weights:
        running += int(w)
        bounds.append(running)
    return bisect.bisect_right(bounds, rng.randrange(running))


def draw_state(post, rng: Random) -> dict[str, list[str]]:
    """A hidden state drawn from the exact posterior: each opponent's cards (and `pile`). The
    first opponent's hand is the posterior's own (worked out once, not once a draw)."""
    belief = post.belief
    state: dict[str, list[str]] = {}
    holding = [p for p in belief.opponents if belief.hand_size(p)]
    for place in belief.opponents:
        if not belief.hand_size(place):
            state[place] = []
            continue
        hand = belief.hand(place)
        row = hand.rows[pick(hand.weights, rng)]
        cards = []
        for group, count in enumerate(row.tolist()):
            cards += rng.sample(sorted(hand.members[group]), int(count))
        state[place] = cards
        if place == holding[-1]:  # the pile is the rest: no later hand to condition
            continue
        belief = belief.copy()  # a copy to change, which forgets the answers asked before
        for card in sorted(cards):
            belief.isolate(place, card)
        belief = belief.copy()  # ... and forgets any asked while these cards were fixed
    held = {c for cards in state.values() for c in cards}
    pile = sorted(post.belief.supply - held)
    rng.shuffle(pile)
    state["pile"] = pile
    return state


def drawable(post, rng: Random) -> dict[str, list[str]] | None:
    """A drawn state, or None when drawing it needs a sum the exact filter refuses (a later
    opponent's hand, conditioned on the cards drawn for the earlier ones, can be too entangled
    even where the log itself solves): that state is dropped, as a refused play-out is."""
    try:
        return draw_state(post, rng)
    except Refused:
        return None


def table_of(post, state: dict[str, list[str]]) -> Table:
    """A simulator table holding a drawn state, as the log has it now."""
    log, rnd = post.log, post.round
    used = log.deck.for_players(len(log.players))
    hands = {p: list(state[p]) for p in log.players if p != log.me}
    hands[log.me] = sorted(rnd.my_hand)
    return Table(
        players=list(log.players),
        deck=log.deck,
        cards={c.name: c for c in used},
        incriminating=frozenset(rnd.incriminating),
        hands=hands,
        pile=list(state["pile"]),
        blocking=log.blocking,
        discard=list(rnd.discard),
        fronts={p: list(rnd.front.get(p, [])) for p in log.players},
        scores=dict.fromkeys(log.players, 0),
    )


def choice_of(play: Play, post) -> Choice:
    evidence = post.round.front[post.log.me][0] if play.action == "PASS" and play.target else None
    return Choice(play.card, play.target, evidence, play.give)


def my_policy(first: Choice):
    """My answers in a play-out: the candidate, then a new target at random after a block; I
    block whenever I hold evidence (as the advice bot)."""
    pending = [first]

    def decide(view: View, rng: Random) -> Choice:
        if view.decision == BLOCK:
            return block_when_holding(view)
        if view.decision == PLAY and pending:
            return pending.pop()
        return random_policy(view, rng)

    return decide


def block_when_holding(view: View) -> Choice:
    """The advice bot's block: whenever it holds evidence."""
    holds = any(c in view.incriminating for c in view.hand)
    blocks = [c for c in view.choices if c.card is not None]
    return blocks[0] if holds and blocks else Choice()


def play_kind(view: View, choice: Choice) -> int:
    """What a play is worth at once, by its kind alone (the one-step advice's order): 3 passes
    my evidence away (+1), 2 a REVEAL or FORCE (a chance of +1), 0 my own incriminating card
    (-1), 1 any other (0 points: TAKE, EXCHANGE, BUY, an idle PASS)."""
    assert choice.card is not None
    if choice.card in view.incriminating:
        return 0
    action = view.deck.card(choice.card).action
    if action == "PASS" and choice.target is not None:
        return 3
    return 2 if action in ("REVEAL", "FORCE") else 1


def one_step_proxy(view: View, rng: Random) -> Choice:
    """The other players' policy in a play-out: the one-step advice's order of play kinds
    (`play_kind`), uniform among the plays of the best kind in hand, without the beliefs the
    advice would need (one posterior each, per opponent turn, per play-out). The one-step bots
    of self-play, on 883 decisions (40 three-player rounds): they passed evidence away
    whenever they could (10.9% of turns; a uniform play: 3.8%), played their own
    incriminating card in 0.2% (uniform: 12.6%), a REVEAL or FORCE in 63.5% (uniform: 30.5%;
    one was in hand in 70.8%). Blocks as the advice bot; a new target after a block and the
    final turns at random."""
    if view.decision == BLOCK:
        return block_when_holding(view)
    if view.decision != PLAY or view.final:
        return random_policy(view, rng)
    kinds = [play_kind(view, c) for c in view.choices]
    best = max(kinds)
    return rng.choice([c for c, kind in zip(view.choices, kinds, strict=True) if kind == best])


def standing(table: Table, seat: str) -> int:
    """`seat`'s score if the round ended now: its points so far and what the end adds (kept
    evidence, and -1 for each card in front of it)."""
    return table.scores[seat] + table.end_points(seat)


def play_out(post, extend: Extender, state, choice: Choice, rng: Random) -> Fraction:
    """One play of a candidate on one drawn state (see the module docstring for the value)."""
    me = post.log.me
    table = table_of(post, state)
    header = {k: v for k, v in extend.data.items() if k != "events"}
    others = {p: one_step_proxy for p in post.log.players if p != me}
    game = Round(table, rng, header, {**others, me: my_policy(choice)})
    before = standing(table, me)
    game.turn(me)
    actor = table.left_of(me)[0]
    while not table.detective_called() and actor != me:
        game.turn(actor)
        actor = table.left_of(actor)[0]
    value = Fraction(standing(table, me) - before)
    if table.detective_called():
        return value
    mine = [e.seen_by(me) for e in game.events]
    best = best_points(extend.after(mine))
    return value + (best if best is not None else Fraction(0))


def candidates(post, ranked: list[Play] | None = None) -> list[Play]:
    """The one-step's best plays, and the best EXCHANGE with every card I could give; `ranked`:
    the one-step ranking to take them from (a self-play bot's has its ties shuffled)."""
    ranked = plays(post) if ranked is None else ranked
    found = ranked[:CANDIDATES]
    exchange = next((p for p in ranked if p.action == "EXCHANGE"), None)
    if exchange is not None:
        for give in sorted(c for c in post.round.my_hand if c != exchange.card):
            variant = dataclasses.replace(exchange, give=give, note=f"give {give}")
            if all(
                (p.card, p.target, p.give) != (exchange.card, exchange.target, give) for p in found
            ):
                found.append(variant)
    return found


@dataclasses.dataclass
class Valued:
    """A candidate valued ahead: its mean value and standard error, and its gain over the
    one-step's best play on the same states (paired: the common random numbers cancel)."""

    play: Play
    mean: Fraction
    se: float
    gain: Fraction
    gain_se: float
    states: int  # the states it was played on


@dataclasses.dataclass
class Ahead:
    """The look-ahead's candidates, best value first; `kept`: the drawn states the one-step's
    best was played on (a state where some candidate's play-out leaves a log too entangled to
    solve exactly is dropped for all of them; each candidate's `states` are the first of
    these); `cut`: drawn states left unplayed when the time budget ran out; `short`: cut
    before the first `samples` states were kept, so the one-step's best is advised; `best`:
    the play advised (see `advised`)."""

    found: list[Valued]
    kept: int
    drawn: int
    one_step: Valued | None = None  # the one-step's best play, valued ahead
    best: Valued | None = None
    cut: int = 0
    short: bool = False


def advised(found: list[Valued], one_step: Valued) -> Valued:
    """The one-step's best play, unless some candidate beats it by more than `Z` standard
    errors of the paired difference: then the best such candidate. With 8 states the values'
    errors (about 0.3 points) exceed most differences between candidates, and taking the
    highest noisy mean switched plays on noise in 22 of 30 simulated turns."""
    clear = [v for v in found if v.states >= 2 and v.gain - Z * v.gain_se > 0]
    return max(clear, key=lambda v: v.mean) if clear else one_step


def undecided(v: Valued) -> bool:
    """Ahead of the one-step's best on the mean, but not yet by `Z` standard errors."""
    return v.gain > 0 and v.gain - Z * v.gain_se <= 0


def valued(ranked: list[Play], columns: list[list[Fraction]]) -> list[Valued]:
    """Each candidate's mean and its gain over the one-step's best (first), on the states it
    was played on (a prefix of the first one's: candidates only ever stop being played)."""
    base = columns[0]
    found = []
    for play, values in zip(ranked, columns, strict=True):
        mean, se = mean_and_se(values)
        gain, gain_se = mean_and_se([v - b for v, b in zip(values, base, strict=False)])
        found.append(Valued(play, mean, se, gain, gain_se, len(values)))
    return found


def look_ahead(
    doc: Document,
    post,
    samples: int = SAMPLES,
    seed: int = 0,
    most: int = MOST_SAMPLES,
    budget: float | None = None,
    ranked: list[Play] | None = None,
) -> Ahead:
    """Every candidate with its value and standard error, best first, and the play advised.
    `samples` states first; then, while some candidate is undecided (see `undecided`), fewer
    than `most` states are drawn and (with a `budget`) fewer seconds have passed, `samples`
    more, played by it and the one-step's best. With the `budget` spent and `FLOOR` states
    kept, the next play-out is not started: the states left are `cut`, and with fewer than
    `samples` kept the one-step's best is advised. Self-play passes no budget (reproducible)."""
    start = time.perf_counter()

    def out_of_time() -> bool:
        return budget is not None and time.perf_counter() - start > budget

    extend = Extender(doc, post)
    rng = Random(seed)
    ranked = candidates(post, ranked)
    choices = [choice_of(play, post) for play in ranked]
    columns: list[list[Fraction]] = [[] for _ in ranked]  # each candidate's values, state by state
    playing = list(range(len(ranked)))  # the candidates still played (the first one always)
    drawn = 0
    found: list[Valued] = []
    cut = 0
    while playing and drawn < most and not cut:
        if drawn and out_of_time():
            break
        wanted = min(samples, most - drawn)
        states = [state for _ in range(wanted) if (state := drawable(post, rng)) is not None]
        streams = [rng.getrandbits(64) for _ in states]
        drawn += wanted
        for n, (state, stream) in enumerate(zip(states, streams, strict=True)):
            row: list[Fraction] = []
            try:
                for i in playing:
                    if len(columns[0]) >= FLOOR and out_of_time():
                        break
                    row.append(play_out(post, extend, state, choices[i], Random(stream)))
            except Refused:  # common random numbers: the state goes for every candidate
                continue
            if len(row) < len(playing):  # out of time: this state and the rest go for all
                cut = len(states) - n
                break
            for i, value in zip(playing, row, strict=True):
                columns[i].append(value)
        if not columns[0]:
            break
        found = valued(ranked, columns)
        close = [i for i in range(1, len(found)) if undecided(found[i])]
        playing = [0, *close] if close else []
    if not found:
        return Ahead([], 0, drawn, cut=cut)
    one_step = found[0]  # candidates() lists the one-step's best play first
    found.sort(key=lambda v: (-v.mean, v.play.card, v.play.target or "", v.play.give or ""))
    kept = len(columns[0])
    short = bool(cut) and kept < samples
    best = one_step if short else advised(found, one_step)
    return Ahead(found, kept, drawn, one_step, best, cut, short)


def label(play: Play) -> str:
    target = f" on {play.target}" if play.target else ""
    give = f", give {play.give}" if play.give else ""
    return f"play {play.card} ({play.action}){target}{give}"


def usable(post) -> bool:
    """The look-ahead needs my turn before the final turns."""
    rnd = post.round
    return not rnd.over and not rnd.final_turns and rnd.turn == post.log.me and bool(rnd.my_hand)


def lookahead_choice(
    doc: Document, post, samples: int = SAMPLES, seed: int = 0, ranked: list[Play] | None = None
) -> Choice | None:
    """The look-ahead's best play as a simulator choice (None: not usable here)."""
    if not usable(post):
        return None
    best = look_ahead(doc, post, samples, seed, ranked=ranked).best
    return choice_of(best.play, post) if best else None


def ahead_report(report: Report, doc: Document, post, samples: int = SAMPLES) -> Report:
    """The one-step report with the look-ahead's table and best play added."""
    if not usable(post):
        return report
    ahead = look_ahead(doc, post, samples, budget=SUGGEST_BUDGET)
    found = ahead.found
    turns = len(post.log.players) - 1
    dropped = ahead.drawn - ahead.kept - ahead.cut
    entangled = (
        f"{dropped} of {ahead.drawn} drawn states dropped: drawing one, or its play-out, needed "
        "a sum too entangled to solve exactly"
    )
    if not found:  # every state dropped: the one-step advice stands alone
        return Report(
            report.data,
            report.tables,
            [*report.lines, f"look-ahead: none; {entangled}"],
            report.warnings,
        )
    best = ahead.best
    assert best is not None
    data = dict(report.data)
    data["lookahead"] = {
        "horizon": "my play, the other players' turns until mine, my next play",
        "opponent_turns": turns,
        "opponent_policy": OPPONENT_POLICY,
        "samples": ahead.kept,
        "dropped": dropped,
        "cut_for_time": ahead.cut,
        "rule": RULE,
        "best": best.play.event(),
        "candidates": [
            {
                "play": label(v.play),
                "event": v.play.event(),
                "points": probability(v.mean),
                "standard_error": round(v.se, 6),
                "gain_over_one_step_best": probability(v.gain),
                "gain_standard_error": round(v.gain_se, 6),
                "states": v.states,
                "one_step_points": probability(v.play.points),
            }
            for v in found
        ],
    }
    rows = [
        [
            label(v.play),
            f"{float(v.mean):+.2f} ± {v.se:.2f}",
            f"{float(v.gain):+.2f} ± {v.gain_se:.2f}",
            str(v.states),
            f"{float(v.play.points):+.3f}",
        ]
        for v in found
    ]
    table = ReportTable(
        f"Look-ahead: my play, {turns} opponent turns, my next play",
        ["candidate", "points ± s.e.", "gain on one-step best", "states", "one step"],
        rows,
        {next(i for i, v in enumerate(found) if v is best)},
    )
    if ahead.short:
        why = f"the one-step's best: time ran out with {ahead.kept} states, fewer than {samples}"
    elif best is ahead.one_step:
        why = f"the one-step's best: no candidate beats it by {Z} standard errors"
    else:
        why = f"beats the one-step's best by {float(best.gain):+.2f} ± {best.gain_se:.2f}"
    lines = [line for line in report.lines if not line.startswith("best:")]
    lines += [
        f"best: {label(best.play)} ({float(best.mean):+.2f} ± {best.se:.2f}, kept evidence "
        f"counted at {KEPT_POINTS}; {why})",
        f"look-ahead: my play, {turns} opponent turns, my next play; the other players are "
        f"assumed to play the {OPPONENT_POLICY}; hidden states drawn from the exact belief, "
        f"{samples} for every candidate, up to {MOST_SAMPLES} for the one-step's best and any "
        f"candidate close to it while under {SUGGEST_BUDGET:g} s ({ahead.kept} here; the same "
        "states for all)",
    ]
    if dropped:
        lines.append(f"look-ahead: {entangled}")
    if ahead.cut:
        lines.append(
            f"look-ahead: {ahead.cut} of {ahead.drawn} drawn states not played: the "
            f"{SUGGEST_BUDGET:g} s budget ran out (one state can take seconds)"
        )
    return Report(data, [*report.tables, table], lines, report.warnings)
