"""Suspeição truth engine (models/suspeicao/simulate.py): every simulated round conserves the deck,
refills hands by the rules, writes private fields exactly when the seat sees them, plays only legal
plays, ends after the detective's final turn and scores by the docs' rules; seeded runs repeat.

Every check here rebuilds what it expects from the log and the truths on its own (not from the
engine's code), so a wrong engine fails them."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
import yaml

from models import GAMES
from models.suspeicao import selfplay
from models.suspeicao.advice import Play
from models.suspeicao.rules import Deck, load_deck
from models.suspeicao.selfplay import ties_shuffled
from models.suspeicao.simulate import (
    BLOCK,
    PLAY,
    TARGET,
    Choice,
    Game,
    Table,
    View,
    play_round,
    random_game,
    random_policy,
)
from solver.errors import InputError

SMALL = str(Path(__file__).parent / "data" / "suspeicao-small.yaml")
HAND_ACTIONS = ("REVEAL", "FORCE", "EXCHANGE", "TAKE")
PRIVATE = ("took", "gave", "bought", "returned", "drew")
# (players, deck file, blocking, options)
CONFIGS = [
    (3, None, False, None),
    (4, None, False, None),
    (6, None, False, None),
    (3, SMALL, False, None),
    (4, None, True, None),
    (6, None, True, None),
    (3, SMALL, True, None),
    (5, None, False, {"force_reveal": "protect"}),
    (3, SMALL, False, {"bluff_rate": "1/2", "force_reveal": "protect"}),
]
SEEDS = range(12)
CASES = [(config, seed) for config in CONFIGS for seed in SEEDS]


@cache
def deck_of(path: str | None, options: tuple | None = None) -> Deck:
    deck = load_deck(path)
    return deck.with_options(dict(options)) if options else deck


@cache
def simulated(config: tuple, seed: int) -> Game:
    players, path, blocking, options = config
    return random_game(
        random.Random(seed), players, path, blocking=blocking, options=options and dict(options)
    )


def freeze(config: tuple) -> tuple:
    players, path, blocking, options = config
    return (players, path, blocking, tuple(sorted(options.items())) if options else None)


def label(config: tuple, seed: int) -> str:
    players, path, blocking, options = config
    deck = "small" if path else "deck"
    return (
        f"{players}p-{deck}{'-blocking' if blocking else ''}{'-options' if options else ''}-{seed}"
    )


@pytest.fixture(params=CASES, ids=[label(c, s) for c, s in CASES])
def case(request) -> tuple[Game, Deck]:
    """A simulated round and the deck (with options) it was played with."""
    config, seed = request.param
    frozen = freeze(config)
    return simulated(frozen, seed), deck_of(frozen[1], frozen[3])


def events(doc: dict) -> list[tuple[str, dict]]:
    return [next(iter(e.items())) for e in doc["events"]]


def name(value: object) -> str:
    return str(value)


def trigger(game: Game) -> int:
    """The index of the event after which the detective card is taken."""
    for i, truth in enumerate(game.truths):
        fronts = truth["front"]
        if i and (not truth["pile"] or sum(len(f) for f in fronts.values()) >= 4):
            return i
    raise AssertionError("the detective card was never taken")


def left_of(players: list[str], actor: str) -> list[str]:
    seat = players.index(actor)
    return [players[(seat + k) % len(players)] for k in range(1, len(players))]


def can_target(before: dict, actor: str, player: str, action: str, final: bool) -> bool:
    """The docs' targeting rules: another player; PASS needs evidence in front of the actor; the
    hand actions need a card in the target's hand (more than two in final turns)."""
    if player == actor:
        return False
    if action == "PASS":
        return bool(before["front"][actor])
    return action in HAND_ACTIONS and len(before[player]) >= (3 if final else 1)


# -- the tests -----------------------------------------------------------------------------------


def test_the_deck_is_conserved_after_every_event(case: tuple[Game, Deck]):
    game, deck = case
    players = game.doc["players"]
    assert list(game.cards) == [c.name for c in deck.for_players(len(players))]
    used = Counter(game.cards)
    incriminating = set(game.incriminating)
    assert len(incriminating) == 4 and incriminating <= {c for c in game.cards if c.isdigit()}
    discard: Counter[str] = Counter()  # rebuilt from the public log
    for (kind, body), truth in zip(events(game.doc), game.truths, strict=True):
        if kind == "play":
            if name(body["card"]) not in incriminating:
                discard[name(body["card"])] += 1
            discard.update(name(c) for c in body.get("blocked", {}).values())
            for key in ("revealed", "polygraph"):
                if key in body and name(body[key]) not in incriminating:
                    discard[name(body[key])] += 1
        held = Counter(truth["pile"])
        for player in players:
            held.update(truth[player])
            held.update(truth["front"][player])
        assert held + discard == used
        assert max((held + discard).values()) == 1


def test_hand_sizes_follow_the_refill_rules(case: tuple[Game, Deck]):
    game, deck = case
    size, players = deck.hand_size, game.doc["players"]
    assert all(len(game.truths[0][p]) == size for p in players)
    assert len(game.truths[0]["pile"]) == len(game.cards) - size * len(players)
    last = trigger(game)
    for i, (kind, body) in enumerate(events(game.doc)[1:-1], 1):
        before, after = game.truths[i - 1], game.truths[i]
        if kind == "skip":
            assert after == before
            continue
        actor, card = body["by"], name(body["card"])
        action, target = deck.card(card).action, body.get("target")
        sizes = {p: len(before[p]) for p in players}
        pile = len(before["pile"])
        sizes[actor] -= 1  # the card played
        for blocker in body.get("blocked", {}):
            sizes[blocker] -= 1
        if target and action in ("REVEAL", "FORCE", "TAKE"):
            sizes[target] -= 1
        if target and action == "TAKE":
            sizes[actor] += 1
        if card not in game.incriminating and action == "BUY" and not target and pile:
            sizes[actor] += 1
            pile -= 1
        if i <= last:  # not a final turn: refills, others from the actor's left, then the actor
            for player in [*left_of(players, actor), actor]:
                if player == actor or sizes[player] <= 1:
                    drawn = min(max(size - sizes[player], 0), pile)
                    sizes[player] += drawn
                    pile -= drawn
        assert {p: len(after[p]) for p in players} == sizes, (i, body)
        assert len(after["pile"]) == pile
        for player in players:
            if player not in (actor, target, *body.get("blocked", {})):
                assert after[player] == before[player]  # uninvolved players hold 2+: no draw


def test_private_fields_appear_exactly_when_the_seat_sees_them(case: tuple[Game, Deck]):
    game, deck = case
    players = game.doc["players"]
    public_parts = []
    for seat in players:
        doc = game.log_for(seat)
        kind, deal = events(doc)[0]
        hand = Counter(name(c) for c in deal["hand"])
        assert kind == "deal" and hand == Counter(game.truths[0][seat])
        public = []
        for i, (kind, body) in enumerate(events(doc)[1:], 1):
            before = game.truths[i - 1]
            public.append((kind, {k: v for k, v in body.items() if k not in PRIVATE}))
            if kind != "play":
                assert not set(body) & set(PRIVATE)
                continue
            actor, card, target = body["by"], name(body["card"]), body.get("target")
            action = deck.card(card).action
            acted = card not in game.incriminating
            party = seat in (actor, target) and target is not None and acted
            assert ("took" in body) == (party and action in ("TAKE", "EXCHANGE"))
            assert ("gave" in body) == (party and action == "EXCHANGE")
            two = target is not None and len(before[target]) >= 2
            assert ("returned" in body) == (party and body.get("none", False) and two)
            bought = acted and action == "BUY" and bool(before["pile"])
            assert ("bought" in body) == (seat == actor and bought)
            assert body.get("drew", [1]), "drew is left out when nothing was drawn"
            # the seat's hand, from its own log alone, is the true hand
            if seat == actor:
                hand[card] -= 1
                hand.update(name(c) for c in [body.get("took"), body.get("bought")] if c)
                hand.subtract([name(body["gave"])] if "gave" in body else [])
            if seat == target and acted:
                lost = [body.get(k) for k in ("revealed", "polygraph", "took")]
                hand.subtract(name(c) for c in lost if c is not None)
                hand.update([name(body["gave"])] if "gave" in body else [])
            if seat in body.get("blocked", {}):
                hand[name(body["blocked"][seat])] -= 1
            hand.update(name(c) for c in body.get("drew", []))
            assert +hand == Counter(game.truths[i][seat]), (seat, i, body)
            assert min(hand.values(), default=0) >= 0
        public_parts.append(public)
        assert deal == {**events(game.log_for(players[0]))[0][1], "hand": deal["hand"]}
    assert all(part == public_parts[0] for part in public_parts)


def test_rounds_end_after_the_detectives_final_turn(case: tuple[Game, Deck]):
    game, _ = case
    players = game.doc["players"]
    found = events(game.doc)
    last = trigger(game)
    kinds = [kind for kind, _ in found]
    assert kinds[0] == "deal" and kinds[-1] == "end" and kinds.count("end") == 1
    assert all(kind == "play" for kind in kinds[1 : last + 1])  # no skip before the final turns
    order = [players.index(found[0][1]["first"]) + k for k in range(last)]
    assert [body["by"] for _, body in found[1 : last + 1]] == [
        players[s % len(players)] for s in order
    ]
    detective = found[last][1]["by"]
    finals = found[last + 1 : -1]
    assert [body["by"] for _, body in finals] == [*left_of(players, detective), detective]
    assert all(kind in ("play", "skip") and "drew" not in body for kind, body in finals)
    assert game.truths[-1] == game.truths[-2]


def test_scores_follow_the_scoring_rules(case: tuple[Game, Deck]):
    game, deck = case
    players = game.doc["players"]
    scores = dict.fromkeys(players, 0)
    incriminating = set(game.incriminating)
    found = events(game.doc)
    for kind, body in found:
        if kind != "play" or "target" not in body or name(body["card"]) in incriminating:
            continue
        card = deck.card(name(body["card"]))
        for key in ("revealed", "polygraph"):
            if key in body and name(body[key]) in incriminating:
                scores[body["by"]] += 1
        assert card.requires is not None or "polygraph" not in body
        if "polygraph" in body and card.requires.met_by(deck.card(name(body["polygraph"]))):
            scores[body["target"]] -= 1  # a lie caught
    kind, kept = found[-1]
    final = game.truths[-1]
    for player in players:
        assert [name(c) for c in kept[player]] == [c for c in final[player] if c in incriminating]
        scores[player] += 2 * len(kept[player]) - len(final["front"][player])
    assert game.scores == scores


def test_every_play_is_legal(case: tuple[Game, Deck]):
    game, deck = case
    players = game.doc["players"]
    last = trigger(game)
    blocking = game.doc.get("blocking", False)
    for i, (kind, body) in enumerate(events(game.doc)[1:-1], 1):
        if kind == "skip":
            assert i > last
            continue
        before, after = game.truths[i - 1], game.truths[i]
        actor, card = body["by"], name(body["card"])
        action, target, final = deck.card(card).action, body.get("target"), i > last
        assert card in before[actor]
        if card in game.incriminating:  # accused: in front of the actor, no action
            assert set(body) - {"drew"} == {"by", "card"} and card in after["front"][actor]
            continue
        legal = [p for p in players if can_target(before, actor, p, action, final)]
        if action == "EXCHANGE" and len(before[actor]) < 2:
            legal = []
        blocked = body.get("blocked", {})
        assert not blocked or blocking
        for blocker, block in blocked.items():
            assert blocker in legal and name(block) in before[blocker]
            assert deck.card(name(block)).block
        if action == "BUY":
            assert before["pile"] and len(after["pile"]) < len(before["pile"])
        if target is None:  # BUY, a wasted PASS (nothing in front), or every legal target blocked
            assert set(blocked) == set(legal)
            assert blocked or action == "BUY" or (action == "PASS" and not before["front"][actor])
            assert not {"revealed", "none", "evidence", "took"} & set(body)
        else:
            assert target in legal and target not in blocked
        if action == "PASS" and target:
            assert name(body["evidence"]) in before["front"][actor]
            assert name(body["evidence"]) in after["front"][target]
        if action == "FORCE" and target:
            qualifying = [
                c for c in before[target] if deck.card(card).requires.met_by(deck.card(c))
            ]
            assert ("revealed" in body) != body.get("none", False)
            if "revealed" in body:
                assert name(body["revealed"]) in qualifying
                if (
                    deck.options["force_reveal"] == "protect"
                    and name(body["revealed"]) in game.incriminating
                ):
                    assert set(qualifying) <= set(game.incriminating)
            if deck.bluff_rate == 0:
                assert not body.get("none") or not qualifying


def test_seeded_runs_repeat_and_do_not_depend_on_the_seat():
    for config in CONFIGS[:4] + CONFIGS[6:7]:
        players, path, blocking, _ = config
        one = random_game(random.Random(7), players, path, blocking=blocking)
        two = random_game(random.Random(7), players, path, blocking=blocking)
        assert (one.doc, one.truths, one.scores) == (two.doc, two.truths, two.scores)
        names = one.doc["players"]
        first = one.doc["events"][0]["deal"]["first"]
        rng = random.Random(7)
        rng.choice(names)  # random_game's draw of the first player
        other = play_round(rng, names, names[-1], path, blocking, first=first)
        assert (other.truths, other.scores) == (one.truths, one.scores)
        assert other.doc["me"] == names[-1] and other.doc["events"] != one.doc["events"]
    runs = {str(random_game(random.Random(s)).doc) for s in range(5)}
    assert len(runs) == 5


def test_the_log_is_plain_yaml_with_the_documented_header():
    game = random_game(random.Random(3), 4, SMALL, blocking=True, options={"bluff_rate": 0})
    doc = game.doc
    assert list(doc) == ["game", "players", "me", "deck", "options", "blocking", "events"]
    assert doc["game"] == "suspeicao" and doc["me"] == "P1" and doc["deck"] == SMALL
    assert doc["options"] == {"bluff_rate": 0} and doc["blocking"] is True
    assert yaml.safe_load(yaml.safe_dump(doc, sort_keys=False)) == doc
    plain = random_game(random.Random(3))
    assert list(plain.doc) == ["game", "players", "me", "events"]
    assert len(plain.truths) == len(plain.doc["events"])
    for _, body in events(plain.doc):
        for key in ("card", "revealed", "polygraph", "took", "gave", "bought", "evidence"):
            if key in body:
                value = body[key]
                assert isinstance(value, int) or (isinstance(value, str) and value.startswith("X"))
    assert all(isinstance(c, int) for c in plain.doc["events"][0]["deal"]["incriminating"])


def test_bluff_rate_one_always_claims_none():
    deck = load_deck()
    for seed in range(6):
        game = random_game(random.Random(seed), 4, options={"bluff_rate": 1})
        for kind, body in events(game.doc):
            if (
                kind == "play"
                and "target" in body
                and deck.card(name(body["card"])).action == "FORCE"
            ):
                assert body.get("none") is True and "revealed" not in body


def test_policies_see_their_own_log_and_choose_among_legal_choices():
    seen: list[tuple[str, int, dict]] = []

    def careful(view: View, rng: random.Random) -> Choice:
        """Never plays an incriminating card while holding another; skips final turns."""
        assert view.sizes[view.seat] == len(view.hand) and view.pile >= 0
        log = view.log()
        seen.append((view.seat, len(log["events"]), log))
        if view.decision == PLAY:
            if view.final:
                return Choice()
            safe = [c for c in view.choices if c.card not in view.incriminating]
            return rng.choice(safe or list(view.choices))
        assert view.decision in (TARGET, BLOCK) and view.card is not None
        return random_policy(view, rng)

    names = ["Ana", "Ben", "Cleo", "Dani"]
    for seed in range(4):
        seen.clear()
        policies = {"Ana": careful, "Cleo": careful}
        game = play_round(random.Random(seed), names, "Ben", blocking=True, policies=policies)
        assert {seat for seat, _, _ in seen} <= {"Ana", "Cleo"} and seen
        for seat, upto, log in seen:
            assert log == game.log_for(seat, upto)
        last = trigger(game)
        for i, (kind, body) in enumerate(events(game.doc)[1:-1], 1):
            by = body["by"]
            if by in policies and kind == "play":
                assert i <= last
                held = game.truths[i - 1][by]
                card = name(body["card"])
                assert card not in game.incriminating or set(held) <= set(game.incriminating)
            if by in policies and i > last:
                assert kind == "skip"


def test_a_policy_answer_outside_the_choices_is_refused():
    def cheat(view: View, rng: random.Random) -> Choice:
        return Choice(card="X9")

    with pytest.raises(ValueError, match="not a legal play choice"):
        play_round(random.Random(1), ["A", "B", "C"], "A", policies={"A": cheat})


def test_players_and_seats_are_checked():
    with pytest.raises(InputError):
        play_round(random.Random(1), ["A", "B"], "A")
    with pytest.raises(ValueError):
        play_round(random.Random(1), ["A", "B", "C"], "D")
    with pytest.raises(ValueError):
        play_round(random.Random(1), ["A", "B", "pile"], "A")
    game = play_round(random.Random(1), ["A", "B", "C"], "B", first="C")
    assert game.doc["events"][0]["deal"]["first"] == "C"
    assert game.doc["events"][1]["play"]["by"] == "C"
    assert [name(c) for c in game.doc["events"][0]["deal"]["hand"]] == game.truths[0]["B"]


def test_final_turn_plays_need_a_target_a_card_to_give_or_a_pile():
    """Small deck: 3 EXCHANGE, 6 BUY, 7 PASS, 2 REVEAL, 5 TAKE, 1 FORCE (odd)."""
    deck = load_deck(SMALL)
    cards = {c.name: c for c in deck.cards}

    def table(hands: dict[str, list[str]], pile: list[str], final: bool = True) -> Table:
        players = list(hands)
        return Table(
            players=players,
            deck=deck,
            cards=cards,
            incriminating=frozenset({"1", "4", "8", "9"}),
            hands=hands,
            pile=pile,
            blocking=False,
            fronts={p: [] for p in players},
            scores=dict.fromkeys(players, 0),
            final=final,
        )

    # an EXCHANGE with no other card to give, a BUY with an empty pile: only a skip
    lone = table({"A": ["3"], "B": ["2", "5", "10"], "C": ["X1", "X2", "12"]}, [])
    assert lone.play_choices("A") == (Choice(),)
    # in final turns, hands of two or fewer cannot be targeted; a PASS with nothing in front is
    # a wasted play; an incriminating card is accused (no target)
    few = table({"A": ["2", "7", "9", "6"], "B": ["5", "10"], "C": ["X1", "X2", "12"]}, ["11"])
    assert few.play_choices("A") == (
        Choice(),
        Choice("2", "C"),
        Choice("6"),
        Choice("7"),
        Choice("9"),
    )
    few.fronts["A"] = ["4"]
    assert Choice("7", "B", "4") in few.play_choices("A")
    assert Choice("3", "B") in table(
        {"A": ["3", "6"], "B": ["5"], "C": ["2"]}, ["7"], False
    ).play_choices("A")


def test_a_bot_picks_among_equally_good_plays_at_random_not_by_seat_order():
    """Self-play bots shuffle tied plays: the ranking's own tie order (card, then seat) would
    make every bot target the first-listed player (P1 lost 0.68 points a round to it)."""

    def play(target: str, points: int) -> Play:
        return Play("9", "REVEAL", target, Fraction(points, 4), Fraction(0), Fraction(0))

    ranked = [play("P1", 2), play("P2", 2), play("P3", 2), play("P2", 1), play("P3", 1)]
    firsts, seconds = Counter(), Counter()
    for seed in range(60):
        found = ties_shuffled(ranked, random.Random(seed))
        assert sorted(found[:3], key=lambda p: p.target) == ranked[:3]  # the best stay first
        assert sorted(found[3:], key=lambda p: p.target) == ranked[3:]
        firsts[found[0].target] += 1
        seconds[found[3].target] += 1
    assert set(firsts) == {"P1", "P2", "P3"} and set(seconds) == {"P2", "P3"}
    assert max(firsts.values()) < 40  # no seat is the usual first


def test_a_control_round_seats_the_one_step_advice_in_every_seat(monkeypatch):
    """`control-3`: the head-to-head table with P1 on the one-step advice too, so its margin
    measures P1's seat alone."""
    asked: Counter = Counter()
    real = selfplay.advice_policy

    def counting(game):
        decide = real(game)

        def wrapped(view, rng):
            asked[view.seat] += 1
            return decide(view, rng)

        return wrapped

    monkeypatch.setattr(selfplay, "advice_policy", counting)
    sums = selfplay.play_chunk(GAMES["suspeicao"], random.Random(1), 1, "control-3")
    assert sums["control-3"].games == 1 and set(asked) == {"P1", "P2", "P3"}


def test_a_round_from_one_seed_is_the_same_game_until_the_look_ahead_leaves_the_one_step(
    monkeypatch,
):
    """`table_round` deals and plays a round from its seed. A look-ahead that always keeps the
    one-step's best play (its EXCHANGE's give included) must play exactly the control's game,
    so the head to head measures only the plays where the look-ahead differs; one that takes
    the second play instead must change some round."""
    from models.suspeicao import lookahead

    game, players = GAMES["suspeicao"], ["P1", "P2", "P3"]
    seeds = [5, 11, 12, 13]
    control = [selfplay.table_round(game, players, seed, lookahead=False) for seed in seeds]

    def keeps(doc, post, samples=8, seed=0, ranked=None):
        return lookahead.choice_of(ranked[0], post)

    monkeypatch.setattr(selfplay, "lookahead_choice", keeps)
    assert [selfplay.table_round(game, players, seed, lookahead=True) for seed in seeds] == control

    def second(doc, post, samples=8, seed=0, ranked=None):
        return lookahead.choice_of(ranked[min(1, len(ranked) - 1)], post)

    monkeypatch.setattr(selfplay, "lookahead_choice", second)
    assert [selfplay.table_round(game, players, seed, lookahead=True) for seed in seeds] != control
