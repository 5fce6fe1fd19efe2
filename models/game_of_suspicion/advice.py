"""Game of Suspicion advice: whose hand to guess now, and which action to take instead.

Guessing: for each opponent the best guess is their most likely hand. A correct guess scores the
hand's cards and lets me guess again, a wrong one ends my turn, so the value of guessing now is the
best chain: V = max over opponents of P(right) × (cards + V after that hand is shown), exact over
the filter's worlds.

Acting (one action now, then the best single guess on my next turn, other players' turns not
modelled): each legal action of mine is valued by what I would see (its outcome, a function of
the hidden world) — the expected information in bits, I(world; outcome), and the expected
probability of a correct guess next turn, the sum over outcomes of the best hand's weight.
Card 1 assumes I give the named card back; card 8 and a middle look assume I keep what I have.

Only the moves the rules allow now are offered: right after a right guess of mine I may only
guess again or end my turn, so no action is valued then, and ending the turn is worth the best
single guess on my next turn.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from models.game_of_suspicion import rules
from models.game_of_suspicion.belief import Belief
from models.game_of_suspicion.steps import Swap
from solver.errors import InputError
from solver.hidden_cards import group_sums
from solver.report import Report, Table, probability

TOP_ACTIONS = 8


@dataclass
class GuessPlan:
    target: str
    cards: tuple[int, ...]  # the hand guessed
    p: Fraction
    points: int  # cards scored if right


@dataclass
class ActionValue:
    label: str
    intent: dict  # the event without its outcome (what a bot would do)
    bits: float
    p_guess: Fraction  # expected P(correct guess) on my next turn
    points: Fraction  # expected points: scored by the action + of that guess
    notes: list[str] = field(default_factory=list)


def guessing_on(post) -> bool:
    """Whether I have just guessed right: the rules then let me only guess again or end my turn."""
    return post.log.me is not None and post.round.guessing_on == post.log.me


def end_turn_value(post) -> Fraction:
    """Ending my turn after a right guess, one step ahead: the best single guess on my next
    turn, with what I know now (the points of the most likely hand of the best opponent)."""
    places = {p: post.place(p) for p in post.opponents}
    sizes = {p: post.round.hand_size[p] for p in post.opponents}
    if any(post.belief.pooled):
        post.belief = post.belief.resolved()
    return _guess_now(post.belief, places, sizes)[1] if places else Fraction(0)


def guess_numbers(hand: tuple[int, ...]) -> list[int]:
    """What to say for a hand (the 10 is named as 0 and 1)."""
    return sorted(rules.guess_numbers(hand).elements())


def best_guesses(post) -> list[GuessPlan]:
    """Each opponent's most likely hand, best first."""
    plans = []
    for player in post.opponents:
        hand, p = post.hands(player)[0]
        plans.append(GuessPlan(player, hand, p, post.round.hand_size[player]))
    return sorted(plans, key=lambda g: (-g.p * g.points, -g.p, g.target))


def chain_value(belief: Belief, opponents: dict[str, tuple[int, int]]) -> Fraction:
    """Expected points of guessing now and on after each correct guess (opponent -> (place,
    cards)), always guessing a most likely hand (between equally likely hands, the one whose
    showing leaves the best continuation): exact, over every order of targets."""
    if not opponents or belief.empty:
        return Fraction(0)
    if any(belief.pooled):
        belief = belief.resolved()
    best = Fraction(0)
    for name, (place, cards) in opponents.items():
        keys = belief.hand_keys(place)
        distribution = belief.distribution(keys)
        top = max(distribution.values())
        rest = {n: v for n, v in opponents.items() if n != name}
        for key in (k for k, p in distribution.items() if p == top):
            shown = belief.copy()
            shown._keep(keys == key)
            best = max(best, top * (cards + chain_value(shown, rest)))
    return best


def _outcome_value(
    belief: Belief, outcome: np.ndarray, places: dict[str, int], sizes: dict[str, int]
) -> tuple[float, Fraction, Fraction]:
    """(bits, expected P(best guess right), expected points of it) when I observe `outcome`
    [world] (an integer per world) and then guess the most likely hand of the best opponent."""
    total = belief.total()
    outcome_ids = np.unique(outcome, return_inverse=True)[1].reshape(-1).astype(np.int64)
    _, marginal = group_sums(outcome_ids, belief.weights)
    shares = [int(w) / total for w in marginal]
    bits = sum(p * math.log2(1 / p) for p in shares if p > 0)
    best_p = np.zeros(len(marginal), dtype=object)
    best_points = np.zeros(len(marginal), dtype=object)
    for name, place in places.items():
        hand_ids = np.unique(belief.hand_keys(place), return_inverse=True)[1].reshape(-1)
        width = int(hand_ids.max(initial=0)) + 1
        pairs, sums = group_sums(outcome_ids * width + hand_ids, belief.weights)
        starts = np.flatnonzero(np.concatenate(([True], np.diff(pairs // width) != 0)))
        top = np.maximum.reduceat(sums.astype(object), starts)
        best_p = np.maximum(best_p, top)
        best_points = np.maximum(best_points, top * sizes[name])
    return bits, Fraction(int(best_p.sum()), total), Fraction(int(best_points.sum()), total)


def _combine(*keys: np.ndarray) -> np.ndarray:
    """One integer per world from several per-world integer arrays (exact)."""
    combined = np.zeros(len(keys[0]), dtype=np.int64)
    for key in keys:
        _, ids = np.unique(key, return_inverse=True)
        combined = combined * (int(ids.max(initial=0)) + 1) + ids.reshape(-1)
        _, combined = np.unique(combined, return_inverse=True)
        combined = combined.reshape(-1).astype(np.int64)
    return combined


def action_values(post) -> list[ActionValue]:
    """Every legal action of `me` now, valued (best first)."""
    if any(post.belief.pooled):  # the values below read every world's cards
        post.belief = post.belief.resolved()
    log, rnd, belief = post.log, post.round, post.belief
    me = log.me
    if me is None or me not in rnd.active or rnd.my_hand is None or guessing_on(post):
        return []  # after a right guess no action is allowed, only another guess
    places = {p: post.place(p) for p in post.opponents}
    sizes = {p: rnd.hand_size[p] for p in post.opponents}
    values: list[ActionValue] = []

    def add(label: str, intent: dict, outcome: np.ndarray, notes=()) -> None:
        bits, p_guess, points = _outcome_value(belief, outcome, places, sizes)
        values.append(ActionValue(label, intent, bits, p_guess, points, list(notes)))

    nothing = np.zeros(belief.worlds, dtype=np.int64)
    for slot in ("left", "right"):
        if rnd.middle.get(slot):
            seen = np.argmax(belief.counts[:, rnd.setup.place(slot), :], axis=1)
            add(f"look at the {slot} middle card", {"look": {"slot": slot}}, seen)
    hand = sorted(set(rnd.my_hand.elements()))
    if not hand:
        return values
    size = rnd.hand_size[me]
    for card in hand:
        if size < 2 and card not in (8, 9):
            continue
        base = {"play": {"card": card}}
        if card == 0:
            for a, b in itertools.combinations(post.opponents, 2):
                values.append(_swap_value(post, a, b, places, sizes))
        elif card == 1:
            public = rnd.public() + rnd.my_hand
            for named in rules.NAMEABLE:
                if public[named] >= log.deck.cards(log.advanced)[named]:
                    continue
                holder = np.zeros(belief.worlds, dtype=np.int64)
                for i, p in enumerate(post.opponents, start=1):
                    holder[belief.counts[:, places[p], named] > 0] = i
                add(
                    f"play 1 naming {named}",
                    {"play": {"card": 1, "named": named}},
                    holder,
                    ["I give the named card back"],
                )
        elif card == 2:
            keys = [
                np.where(
                    belief.counts[:, places[p], :].astype(np.int64) @ _POINTS > 10,
                    belief.hand_keys(places[p]) + 1,
                    0,
                )
                for p in post.opponents
            ]
            add("play 2 (hands over 10 shown to me)", base, _combine(*keys) if keys else nothing)
        elif card == 3:
            for p in post.opponents:
                top = post.hands(p)[:3]
                right = sum((q for _, q in top), Fraction(0))
                outcomes = [q for _, q in top] + [1 - right]  # right at guess 1, 2, 3; all wrong
                bits = sum(float(q) * math.log2(1 / float(q)) for q in outcomes if q > 0)
                values.append(
                    ActionValue(
                        f"play 3 at {p} (3 guesses)",
                        {
                            "play": {
                                "card": 3,
                                "target": p,
                                "guesses": [guess_numbers(h) for h, _ in top],
                            }
                        },
                        bits,
                        right,
                        right * sizes[p],
                        ["scores now if one of the three guesses is right"],
                    )
                )
        elif card in (4, 5):
            shown = sorted(rules.GREATER_THAN_FOUR if card == 4 else rules.EVEN_NONZERO)
            radix = np.array([8**i for i in range(len(shown))], dtype=np.int64)
            keys = [
                belief.counts[:, places[p], shown].astype(np.int64) @ radix for p in post.opponents
            ]
            add(
                f"play {card} (cards {'over 4' if card == 4 else '2 4 6 8'} shown to me)",
                base,
                _combine(*keys),
            )
        elif card == 6:
            keys = [_smallest(belief, places[p]) for p in post.opponents if sizes[p] >= 2]
            add(
                "play 6 (smallest cards face up)",
                base,
                _combine(*keys) if keys else nothing,
                ["between a 0 and the 10, counted as the 0"],
            )
        elif card == 7 and rnd.number > 1:
            out = [
                np.isin(belief.counts[:, places[p], [0, rules.TEN]].sum(axis=1), [2]).astype(
                    np.int64
                )
                for p in post.opponents
            ]
            gain = sum(
                (
                    Fraction(belief.mass(o == 1), belief.total()) * sizes[p]
                    for o, p in zip(out, post.opponents, strict=True)
                ),
                Fraction(0),
            )
            bits, p_guess, points = _outcome_value(belief, _combine(*out), places, sizes)
            values.append(
                ActionValue(
                    "play 7 (two 0s are out)",
                    base,
                    bits,
                    p_guess,
                    points + gain,
                    [f"scores {float(gain):.2f} on average now"],
                )
            )
        elif card == 8:
            middle = [
                np.argmax(belief.counts[:, rnd.setup.place(s), :], axis=1)
                for s in ("left", "right")
                if rnd.middle.get(s)
            ]
            add(
                "play 8 (take back my cards and the middle)",
                base,
                _combine(*middle) if middle else nothing,
                ["I put back a card of mine"],
            )
        elif card in (9, rules.TEN):
            add(f"play {card} (no action)", base, nothing)
    return sorted(values, key=lambda a: (-a.points, -a.p_guess, -a.bits, a.label))


_POINTS = np.array([rules.points(v) for v in rules.VALUES], dtype=np.int64)


def _smallest(belief: Belief, place: int) -> np.ndarray:
    """The value a hand puts face up for card 6 (a 0 when it could choose the 10 instead)."""
    present = belief.counts[:, place, :] > 0
    ten_rank = belief.setup.card6_ten_rank
    ranks = np.where(present, np.array([rules.rank(v, ten_rank) for v in rules.VALUES]), 99)
    return np.argmin(ranks, axis=1)


def _swap_value(post, a: str, b: str, places, sizes) -> ActionValue:
    """Card 0 between two opponents: I see nothing; their hands mix (values after the swap)."""
    label = f"play 0 between {a} and {b}"
    intent = {"play": {"card": 0, "between": [a, b]}}
    fewest = 2 if post.log.deck.option("card0_one_card") == "unaffected" else 1
    if sizes[a] < fewest or sizes[b] < fewest:
        return ActionValue(
            label,
            intent,
            0.0,
            *_guess_now(post.belief, places, sizes),
            ["no effect: a player has one card"],
        )
    mixed = post.belief.copy()
    mixed.apply(Swap(0, places[a], places[b]))
    return ActionValue(
        label, intent, 0.0, *_guess_now(mixed, places, sizes), ["I see nothing; their hands mix"]
    )


def _guess_now(belief: Belief, places, sizes) -> tuple[Fraction, Fraction]:
    best_p, best_points = Fraction(0), Fraction(0)
    for name, place in places.items():
        p = max(belief.distribution(belief.hand_keys(place)).values())
        best_p, best_points = max(best_p, p), max(best_points, p * sizes[name])
    return best_p, best_points


def suggest(game, post, horizon: int | None, doc=None) -> Report:
    """The `sleuth suggest` report: guess now or act, and the best actions; by default also
    the look-ahead (lookahead.py), whose best candidate is then the advice."""
    if horizon not in (None, 1, 2):
        raise InputError(
            "Game of Suspicion advice looks one action ahead (--horizon 1) or, by default, "
            "two: my action, the other players' turns, my next action (--horizon 2)"
        )
    log, rnd = post.log, post.round
    if log.me is None:
        raise InputError("advice is for a seat: give the log a 'me'")
    if log.me not in rnd.active:
        data = {"game": game.name, "consistent": True, "events": log.events, "advice": "out"}
        line = f"{log.me} is out of round {rnd.number}: nothing to do until the next deal"
        return Report({**data, "worlds": post.belief.worlds}, [], [line], log.warnings)
    report = one_step_report(game, post)
    if horizon == 1 or doc is None or not post.opponents:
        return report
    from models.game_of_suspicion.lookahead import ahead_report

    return ahead_report(report, doc, post)


@dataclass
class OneStep:
    """The one-step valuation of the moves the rules allow now, read by the report, the
    self-play bot and the look-ahead alike: guessing now (the exact chain) against the best
    action, or, right after a right guess, against ending my turn."""

    guesses: list[GuessPlan]  # best first
    actions: list[ActionValue]  # best first; none right after a right guess
    now: Fraction  # guessing now, guessing on after each right guess
    wait: Fraction  # the best action, or ending my turn right after a right guess
    again: bool  # I have just guessed right: only another guess or the end of my turn

    @property
    def guess_now(self) -> bool:
        return bool(self.guesses) and (self.now >= self.wait or not (self.actions or self.again))

    @property
    def value(self) -> Fraction:
        """What my turn is worth, one step ahead: the best of the moves allowed."""
        return max(self.now, self.wait)


def one_step(post) -> OneStep:
    opponents = {p: (post.place(p), post.round.hand_size[p]) for p in post.opponents}
    now = chain_value(post.belief, opponents)
    actions = action_values(post)
    again = guessing_on(post)
    wait = end_turn_value(post) if again else max((a.points for a in actions), default=Fraction(0))
    return OneStep(best_guesses(post), actions, now, wait, again)


def one_step_report(game, post) -> Report:
    """Today's one-step advice: guess now (exact chain) or the best action (one step); right
    after a right guess, guess again or end my turn."""
    log = post.log
    valued = one_step(post)
    guesses, actions, now, wait, again = (
        valued.guesses,
        valued.actions,
        valued.now,
        valued.wait,
        valued.again,
    )
    guess_now = valued.guess_now
    data = {
        "game": game.name,
        "consistent": True,
        "events": log.events,
        "worlds": post.belief.worlds,
        "guesses": [
            {
                "target": g.target,
                "cards": guess_numbers(g.cards),
                "hand": list(g.cards),
                "p": probability(g.p),
                "points": g.points,
            }
            for g in guesses
        ],
        "guess_now_points": probability(now),
        "wait_points": probability(wait),
        "after_right_guess": again,
        "advice": "guess" if guess_now else "end turn" if again else "act",
        "actions": [
            {
                "action": a.label,
                "event": a.intent,
                "information_bits": round(a.bits, 6),
                "p_guess_next": probability(a.p_guess),
                "points": probability(a.points),
                "notes": a.notes,
            }
            for a in actions
        ],
    }
    guess_rows = [
        [
            g.target,
            " ".join(map(str, guess_numbers(g.cards))),
            f"{float(g.p):.3f}",
            str(g.points),
            f"{float(g.p * g.points):.2f}",
        ]
        for g in guesses
    ]
    tables = [
        Table(
            "Best guess at each opponent",
            ["target", "guess", "p(right)", "cards", "points"],
            guess_rows,
            {0},
        )
    ]
    if not again:
        tables.append(actions_table(actions, {0} if actions and not guess_now else set()))
    if again:
        summary = (
            f"I guessed right and may guess again or end my turn: guessing again is worth "
            f"{float(now):.2f} expected points (guessing on after each right guess); ending my "
            f"turn and guessing on my next turn: {float(wait):.2f}"
        )
    else:
        summary = (
            f"guess now: {float(now):.2f} expected points (guessing on after each right guess); "
            f"act and guess next turn: {float(wait):.2f}"
        )
    if guess_now:
        advice = f"GUESS {guesses[0].target}'s hand as {hand_words(guesses[0].cards)}"
    elif again:
        advice = "end my turn"
    else:
        advice = f"act: {actions[0].label}" if actions else "no legal action"
    lines = [
        summary,
        f"advice: {advice}",
        "one action ahead; other players' turns in between are not modelled",
        *turn_note(post),
    ]
    return Report(data, tables, lines, log.warnings)


def hand_words(hand: tuple[int, ...]) -> str:
    """A hand as it is guessed aloud: its numbers (the 10 as 0 and 1)."""
    return " ".join(map(str, guess_numbers(hand)))


def actions_table(actions: list[ActionValue], highlight: set[int]) -> Table:
    """The legal actions valued one action ahead, best first (the best `TOP_ACTIONS`)."""
    rows = [
        [
            a.label,
            f"{a.bits:.2f}",
            f"{float(a.p_guess):.3f}",
            f"{float(a.points):.2f}",
            "; ".join(a.notes),
        ]
        for a in actions[:TOP_ACTIONS]
    ]
    return Table(
        "Actions, one action ahead (then the best guess on my next turn)",
        ["action", "bits", "p(guess right next)", "points", "notes"],
        rows,
        highlight,
    )


def turn_note(post) -> list[str]:
    """A line when it is not my turn: the advice is then for my turn, as things stand now."""
    turn = post.round.turn
    if turn is None or turn == post.log.me or guessing_on(post):
        return []
    return [f"it is {turn}'s turn: this is what I would do if my turn came now"]
