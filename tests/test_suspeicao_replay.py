"""Suspeição `replay` of long logs: its work is bounded by the log, not by solving every prefix.

A long log is many simulated rounds one after another (each `deal` starts a round). The replay
applies each step of the log once, to one filter per round, and after each event asks only for
the sums of the hands something has looked into (the first of them also says whether a world is
left, and counts the worlds; with none, the first opponent's). A hand nothing has looked into holds pool cards,
so its chances come from the others' (`Belief.pool_shares`) with no sum of its own. The work is
counted, not timed; what the replay shows is checked against `solve --upto` of the same events.
"""

from __future__ import annotations

import random
from collections import defaultdict

import pytest
from conftest import as_document

from models.suspeicao.belief import Belief
from models.suspeicao.game import GAME_OBJECT
from models.suspeicao.simulate import random_game


def long_log(seed: int, players: int, events: int) -> dict:
    """Simulated rounds among the same players, one after another, cut at `events` events."""
    rng = random.Random(seed)
    rounds, header = [], {}
    while sum(len(r) for r in rounds) < events:
        game = random_game(rng, players)
        header = game.header
        rounds.append(game.doc["events"])
    return {**header, "events": [e for r in rounds for e in r][:events]}


def counted_replay(data: dict, monkeypatch) -> tuple[dict, int, dict[tuple, list], int]:
    """The replay's data, how many steps it applied, the sums it asked for each state of the
    filter ((place, does it count the worlds, is it looked into) for each), and how many times
    hands nothing has looked into were answered without a sum."""
    applied, shared, sums = [0], [0], defaultdict(list)
    apply, contract, shares = Belief.apply, Belief._contract, Belief.pool_shares

    def counting_apply(self, step):
        applied[0] += 1
        return apply(self, step)

    def counting_contract(self, place):
        state = (id(self), applied[0])  # the filter after so many steps
        sums[state].append((place, place == self.counter, not self.pooled_only(place)))
        return contract(self, place)

    def counting_shares(self, looked):
        found = shares(self, looked)
        shared[0] += bool(found)
        return found

    monkeypatch.setattr(Belief, "apply", counting_apply)
    monkeypatch.setattr(Belief, "_contract", counting_contract)
    monkeypatch.setattr(Belief, "pool_shares", counting_shares)
    GAME_OBJECT.last.clear()
    report = GAME_OBJECT.replay(as_document(data))
    monkeypatch.undo()
    return report.data, applied[0], sums, shared[0]


def check_replay(data: dict, monkeypatch, spot: list[int]) -> None:
    """The replay's work (each step applied once; after each event, a sum only for the
    looked-into hands, or the first opponent when there is none) and what it shows (`solve
    --upto` at `spot`)."""
    from models.suspeicao.log import parse

    found, applied, sums, shared = counted_replay(data, monkeypatch)
    history = found["history"]
    log = parse(as_document(data))
    assert [h["event"] for h in history] == list(range(1, len(data["events"]) + 1))
    assert applied == sum(len(r.setup.steps) for r in log.rounds)
    for asked in sums.values():
        assert all(looked for _, counts, looked in asked if not counts), asked
        assert all(looked or len(asked) == 1 for _, counts, looked in asked), asked
    assert shared > len(history) // 4  # hands nothing looked into, answered without a sum
    for upto in spot:
        GAME_OBJECT.last.clear()
        solved = GAME_OBJECT.solve(as_document(data), upto=upto).data
        shown = history[upto - 1]
        assert shown["worlds"] == solved["worlds"], upto
        for card, likely in shown["likeliest"].items():
            where = solved["incriminating"][card]
            assert likely["p"] == max(where.values()) and where[likely["place"]] == likely["p"]


def test_a_long_four_player_log_is_replayed_applying_each_step_once(monkeypatch):
    """About 250 events of 4 players (some 9 rounds). Before, every opponent's hand was summed
    after every event, also the hands nothing had looked into."""
    check_replay(long_log(14, 4, 250), monkeypatch, spot=[1, 40, 123, 250])


@pytest.mark.long
def test_a_10000_event_log_is_replayed_applying_each_step_once(monkeypatch):
    """10,000 events of 3 players (some 350 rounds), as the fuzzing round of issue 30 tried."""
    check_replay(long_log(0, 3, 10_000), monkeypatch, spot=[1, 2_345, 6_789, 10_000])


def test_pooled_hands_get_their_share_of_the_pool(monkeypatch):
    """`pool_shares` against the hand's own sum: the same chance for every hidden card, in
    prefixes of random 4- to 6-player games where some hands nothing has looked into hold
    cards beside looked-into ones."""
    compared = 0
    for seed in range(3):
        data = random_game(random.Random(40 + seed), 4 + seed % 3).doc
        for keep in range(2, len(data["events"]) + 1, 4):
            GAME_OBJECT.last.clear()
            post = GAME_OBJECT.posterior(as_document({**data, "events": data["events"][:keep]}))
            belief = post.belief
            holding = [p for p in belief.opponents if belief.hand_size(p)]
            pooled = [p for p in holding if belief.pooled_only(p)]
            if not pooled or len(pooled) == len(holding):
                continue
            for card in sorted(belief.supply):
                looked = {p: belief.hand(p).chance_of(card) for p in holding if p not in pooled}
                shares = belief.pool_shares(looked)
                for p in pooled:
                    assert shares[p] == belief.hand(p).chance_of(card), (seed, keep, p, card)
                    compared += 1
    assert compared > 100
