"""Suspeição advice: for each card in my hand and each legal target, what playing it now is worth.

One step, exact under the model of RULINGS.md §4: the expected change of my score from this
play alone (+1 for each incriminating card it reveals in another player's hand, -1 for one of
mine put in front of me, +1 for passing mine away), the chance it reveals incriminating evidence,
and the chance it brings an incriminating card into my hand (TAKE, EXCHANGE, BUY). When I run
the polygraph I choose which of the two cards to reveal, so I reveal evidence whenever either
card is evidence. Other players' turns are not modelled here (lookahead.py models them). An
EXCHANGE gives a card that is not evidence, the least exposed one (`give_choice`).

Which incriminating card to keep: each one in my hand, with its *exposure*: the share of the
FORCE cards I have not seen whose requirement it meets (the more, the likelier a FORCE on me
can demand it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from models.suspeicao.belief import Belief
from models.suspeicao.log import FINAL_TARGET_MIN, HAND_ACTIONS
from models.suspeicao.rules import Card, Requirement
from models.suspeicao.steps import PILE
from solver.errors import InputError
from solver.logfile import whole_number
from solver.report import Report, Table, probability


@dataclass
class Play:
    card: str
    action: str
    target: str | None
    points: Fraction  # expected change of my score
    p_reveal: Fraction  # chance of revealing incriminating evidence
    p_gain: Fraction  # chance of an incriminating card coming into my hand
    note: str = ""
    give: str | None = None  # EXCHANGE: the card I give

    def event(self) -> dict:
        body: dict = {"card": _written(self.card)}
        if self.target is not None:
            body["target"] = self.target
        if self.give is not None:
            body["gave"] = _written(self.give)
        return {"play": body}


def _written(card: str) -> int | str:
    number = whole_number(card)
    return card if number is None else number


def give_choice(post, exchange: str) -> str | None:
    """The card to give with an EXCHANGE (one step): a card that is not evidence (kept evidence
    scores at the round's end), the least exposed to a FORCE; else the most exposed evidence."""
    rnd, deck = post.round, post.log.deck
    mine = [c for c in sorted(rnd.my_hand) if c != exchange]
    if not mine:
        return None
    plain = [c for c in mine if c not in rnd.incriminating]
    if plain:
        return min(plain, key=lambda c: (exposure(post, deck.card(c)), c))
    return max(mine, key=lambda c: (exposure(post, deck.card(c)), c))


def evidence_in(post, place: str) -> Fraction:
    """Expected number of hidden incriminating cards in `place` (an opponent or the pile)."""
    belief = post.belief
    hidden = [card for card in sorted(post.round.incriminating) if card in belief.supply]
    if place != PILE:  # only this hand's posterior: where() would work out every hand's
        if not belief.hand_size(place):
            return Fraction(0)
        hand = belief.hand(place)
        return sum((hand.chance_of(card) for card in hidden), Fraction(0))
    return sum((belief.where(card).get(place, Fraction(0)) for card in hidden), Fraction(0))


def random_card_evidence(post, place: str) -> Fraction:
    """The chance that a uniformly random card of `place` is incriminating."""
    size = post.round.pile if place == PILE else post.round.hand_size[place]
    return evidence_in(post, place) / size if size else Fraction(0)


def force_reveal(
    belief: Belief, target: str, requirement: Requirement, me_acting: bool
) -> Fraction:
    """The chance that a FORCE on `target` reveals incriminating evidence: the qualifying card the
    target shows (by the model), or the polygraph's card after a claim of none.

    Only four kinds of card matter (meeting the requirement or not, incriminating or not): the
    distribution of how many of each the target holds comes from the target's posterior."""
    meets = belief.predicate(requirement)

    def kind(card: str) -> int:
        return 2 * (card not in meets) + (card not in belief.incriminating)

    size, bluff = belief.hand_size(target), belief.bluff
    chance = Fraction(0)
    for (q_guilty, q_other, other_guilty, _), p in belief.hand(target).kinds(kind, 4).items():
        q, guilty_held = q_guilty + q_other, q_guilty + other_guilty
        if me_acting and size >= 2:
            polygraph = 1 - Fraction(math.comb(size - guilty_held, 2), math.comb(size, 2))
        else:
            polygraph = Fraction(guilty_held, size)
        if q == 0:
            outcome = polygraph
        else:
            shown = Fraction(int(q_guilty == q)) if belief.protect else Fraction(q_guilty, q)
            outcome = (1 - bluff) * shown + bluff * polygraph
        chance += p * outcome
    return chance


def exposure(post, card: Card) -> Fraction:
    """The share of the unseen FORCE cards whose requirement `card` meets."""
    rnd = post.round
    seen = set(rnd.discard) | set(rnd.my_hand) | {c for cards in rnd.front.values() for c in cards}
    forces = [
        c
        for c in post.log.deck.for_players(len(post.log.players))
        if c.requires and c.name not in seen
    ]
    if not forces:
        return Fraction(0)
    return Fraction(sum(1 for c in forces if c.requires.met_by(card)), len(forces))


def plays(post) -> list[Play]:
    """Every card in my hand with every legal target, valued."""
    log, rnd = post.log, post.round
    me, deck = log.me, log.deck
    found = []
    for name in sorted(rnd.my_hand):
        card = deck.card(name)
        if name in rnd.incriminating:
            found.append(
                Play(
                    name,
                    card.action,
                    None,
                    Fraction(-1),
                    Fraction(0),
                    Fraction(0),
                    "incriminating: it would go face up in front of you",
                )
            )
            continue
        if card.action == "BUY":
            if rnd.pile:
                gain = random_card_evidence(post, PILE)
                found.append(Play(name, "BUY", None, Fraction(0), Fraction(0), gain))
            continue
        if card.action == "PASS":
            if rnd.front[me]:
                for target in post.opponents:
                    found.append(
                        Play(
                            name,
                            "PASS",
                            target,
                            Fraction(1),
                            Fraction(0),
                            Fraction(0),
                            f"passes {rnd.front[me][0]} away",
                        )
                    )
            else:
                found.append(
                    Play(name, "PASS", None, Fraction(0), Fraction(0), Fraction(0), "no effect")
                )
            continue
        for target in targets(post, card.action):
            if card.action == "REVEAL":
                p = reveal_chance(post, card, target)
                found.append(Play(name, "REVEAL", target, p, p, Fraction(0)))
            elif card.action == "FORCE":
                assert card.requires is not None
                p = reveal_chance(post, card, target)
                found.append(
                    Play(name, "FORCE", target, p, p, Fraction(0), f"requires {card.requires.text}")
                )
            else:  # TAKE, EXCHANGE: a random card of the target comes to me
                gain = random_card_evidence(post, target)
                give = give_choice(post, name) if card.action == "EXCHANGE" else None
                note = f"give {give}" if give else ""
                found.append(
                    Play(name, card.action, target, Fraction(0), Fraction(0), gain, note, give)
                )
    found.sort(key=lambda p: (-p.points, -p.p_reveal, -p.p_gain, p.card))
    return found


def best_points(post) -> Fraction | None:
    """The most expected points of any play now: max(p.points for p in plays(post)), None with
    no play. The same values as `plays`, but the belief is asked only for the REVEAL and FORCE
    targets, and not at all when a play's points need no probability (the look-ahead values
    many next turns: lookahead.py). Every play scores at most 1, so passing my evidence away
    (exactly 1) ends the search."""
    log, rnd = post.log, post.round
    me, deck = log.me, log.deck
    best: Fraction | None = None
    asked: list[tuple[Card, str]] = []  # (card, target) whose points need the belief
    for name in sorted(rnd.my_hand):
        card = deck.card(name)
        if name in rnd.incriminating:
            points = Fraction(-1)
        elif card.action == "PASS":
            points = Fraction(1) if rnd.front[me] else Fraction(0)
        elif card.action == "BUY":
            if not rnd.pile:
                continue
            points = Fraction(0)
        else:
            legal = targets(post, card.action)
            if card.action in ("REVEAL", "FORCE"):
                asked += [(card, t) for t in legal]
                continue
            if not legal:
                continue
            points = Fraction(0)
        best = points if best is None else max(best, points)
    if best == 1:
        return best
    for card, target in asked:
        points = reveal_chance(post, card, target)
        best = points if best is None else max(best, points)
    return best


def targets(post, action: str) -> list[str]:
    """The opponents an action of mine can target now: a hand action needs a card in the
    target's hand (in the final turns, FINAL_TARGET_MIN cards)."""
    rnd = post.round
    least = FINAL_TARGET_MIN if rnd.final_turns else 1
    return [t for t in post.opponents if action not in HAND_ACTIONS or rnd.hand_size[t] >= least]


def reveal_chance(post, card: Card, target: str) -> Fraction:
    """The chance that my REVEAL or FORCE `card` on `target` reveals evidence (its points)."""
    if card.action == "REVEAL":
        return random_card_evidence(post, target)
    assert card.requires is not None
    return force_reveal(post.belief, target, card.requires, True)


def suggest(game, post, doc=None, horizon: int | None = None) -> Report:
    """The `sleuth suggest` report: the one-step values, and by default the look-ahead."""
    if horizon not in (None, 1, 2):
        raise InputError(
            "Suspeição advice looks one play ahead (--horizon 1) or, by default, two: my play, "
            "the other players' turns, my next play (--horizon 2)"
        )
    report = one_step_report(game, post)
    if horizon == 1 or doc is None:
        return report
    from models.suspeicao.lookahead import ahead_report

    return ahead_report(report, doc, post)


def one_step_report(game, post) -> Report:
    """Today's one-step report."""
    log, rnd = post.log, post.round
    if rnd.over or rnd.turn != log.me:
        whose = "the round is over" if rnd.over else f"it is {rnd.turn}'s turn"
        note = f"{whose}; the values are for {log.me}'s next turn as things stand"
    else:
        note = ""
    ranked = plays(post)
    keep = sorted(
        ((c, exposure(post, log.deck.card(c))) for c in rnd.my_hand if c in rnd.incriminating),
        key=lambda item: (item[1], item[0]),
    )
    data = {
        "game": game.name,
        "consistent": True,
        "events": log.events,
        "worlds": post.belief.worlds,
        "turn": None if rnd.over else rnd.turn,
        "plays": [
            {
                "card": p.card,
                "action": p.action,
                "target": p.target,
                "expected_points": probability(p.points),
                "p_reveal_evidence": probability(p.p_reveal),
                "p_gain_evidence": probability(p.p_gain),
                "event": p.event(),
                "note": p.note,
            }
            for p in ranked
        ],
        "keep": [{"card": c, "exposure": probability(e)} for c, e in keep],
        "best": ranked[0].event() if ranked else None,
    }
    rows = [
        [
            p.card,
            p.action,
            p.target or "",
            f"{float(p.points):+.3f}",
            f"{float(p.p_reveal):.3f}",
            f"{float(p.p_gain):.3f}",
            p.note,
        ]
        for p in ranked
    ]
    tables = [
        Table(
            "Each play now (one step)",
            ["card", "action", "target", "points", "P(reveal)", "P(gain)", "note"],
            rows,
            {0} if rows else set(),
        )
    ]
    lines = [note] if note else []
    if ranked:
        best = ranked[0]
        lines.append(
            f"best: play {best.card} ({best.action})"
            + (f" on {best.target}" if best.target else "")
        )
    if keep:
        lines.append("keep hidden: " + ", ".join(f"{c} (exposure {float(e):.2f})" for c, e in keep))
    return Report(data, tables, lines)
