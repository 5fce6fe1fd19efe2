"""A hand summed apart (`Belief._split_sum`, `card_tables._refined`): its own table asked over
its own groups, the tables that tell apart more before it, the cards it received and nobody
looked into as tags, and its rows split afterwards from what the states before it have left.
That sum must give every chance the whole table's sum gives (and the brute force), whichever
hands and parts it meets; it is taken where the whole table would split into many rows, and a
sum apart that would be dear too falls back to the whole table."""

from __future__ import annotations

import random

import pytest
from test_suspeicao_exact import (
    FOUR_PLAYER_CUTS,
    OPTIONS,
    SMALL,
    compare,
    every_chance,
    four_player_prefix,
)

from models.suspeicao import belief as belief_module
from models.suspeicao.simulate import play_round, random_game
from solver import card_tables
from solver.card_tables import TooLarge


def forced(monkeypatch, pairs: int = 10**9) -> list[tuple[bool, bool]]:
    """Every hand's sum taken apart where anything is told apart finer than its table; the
    list gets, for each sum apart, whether it had tags and whether it split a group."""
    monkeypatch.setattr(belief_module, "SPLIT_ROWS", 0)
    monkeypatch.setattr(belief_module, "SPLIT_TIMES", 0)
    monkeypatch.setattr(belief_module, "SPLIT_PAIRS", pairs)
    monkeypatch.setattr(belief_module, "SPLIT_WORK", 10**9)
    seen: list[tuple[bool, bool]] = []
    refined = card_tables._refined

    def watched(last, fine, step, completion, moduli, limit=None):
        tags = last.fine_tags is not None and last.fine_tags.shape[1] > 0
        seen.append((tags, len(last.table.keys) > len(step.table.keys)))
        return refined(last, fine, step, completion, moduli, limit)

    monkeypatch.setattr(card_tables, "_refined", watched)
    return seen


def never(monkeypatch) -> None:
    monkeypatch.setattr(belief_module, "SPLIT_ROWS", 10**18)


def prefixes(seeds, players: int, every: int = 1) -> list[dict]:
    found = []
    for seed in seeds:
        data = random_game(random.Random(seed), players).doc
        events = data["events"]
        found += [{**data, "events": events[:k]} for k in range(1, len(events) + 1, every)]
    return found


# small-deck rounds (seed, players) where a hand is summed apart with a received card's tag
# and a split group: rare there (of seeds 0-399 of `play_round`, one 4-player round and three
# 3-player ones, the 12-card deck)
TAGGED = [(336, 4), (28, 3), (108, 3), (248, 3)]


@pytest.mark.parametrize(("seed", "players"), TAGGED)
def test_hands_summed_apart_equal_the_brute_force(monkeypatch, seed, players):
    """The reduced deck, every prefix of rounds where it happens, every hand summed apart
    where it can be: the chances equal the brute force's, as Fractions."""
    seen = forced(monkeypatch)
    names = ["Ana", "Ben", "Cleo", "Dan"][:players]
    rng = random.Random(seed)
    game = play_round(
        rng, names, names[seed % players], deck_path=SMALL, options=OPTIONS[seed % len(OPTIONS)]
    )
    events = game.doc["events"]
    for keep in range(1, len(events) + 1):
        compare({**game.doc, "events": events[:keep]})
    assert any(tags and split for tags, split in seen)


@FOUR_PLAYER_CUTS
def test_hands_summed_apart_equal_the_brute_force_under_every_option(seed, option, cut, seat):
    """Random 4-player rounds of the small deck cut at random points, under every option of
    the probability model (protect mode tells incriminating cards apart too), every hand
    summed apart where it can be: the brute force's chances."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        forced(monkeypatch)
        compare(four_player_prefix(seed, option, cut, seat))


@pytest.mark.parametrize("players", [4, 5])
def test_hands_summed_apart_give_every_chance_of_the_whole_sum(monkeypatch, players):
    """The full deck, 4 and 5 players: every opponent's chance of each requirement and each
    incriminating card's places are the same, as Fractions, with every hand summed apart
    where it can be as with none (before the fix of a key too narrow for a table's own
    counts, 6 of 90 prefixes differed)."""
    games = prefixes(range(500, 502), players, every=3)
    never(monkeypatch)
    expected = every_chance(games)
    seen = forced(monkeypatch)
    assert every_chance(games) == expected
    assert any(tags for tags, _ in seen) and any(split for _, split in seen)


def test_a_hub_hand_is_summed_apart_in_far_fewer_pairs(monkeypatch):
    """Held-out seed 20062, 23 events (5 players): P2's table is the hub of six links, and
    with the card it received, split over the 11 groups the others tell apart, it had 2.6
    million rows; its sum went through 11.8 million (state, row) pairs, 8 of the prefix's 9
    seconds. Summed apart by default, it goes through 2.1 million."""
    from bench.suspeicao import wide_round

    data = wide_round(20062)
    data = {**data, "events": data["events"][:23]}
    sums: list[tuple[bool, int]] = []
    contract = belief_module.contract

    def watched(tables, supply, attributes, asked=0, count=True, parts=None, limit=None):
        found = contract(tables, supply, attributes, asked, count, parts, limit)
        if tables[asked].hands[0] == "P2":
            sums.append((parts is not None, found.pairs))
        return found

    monkeypatch.setattr(belief_module, "contract", watched)
    every_chance([data])
    assert sums and all(apart for apart, _ in sums)
    assert max(pairs for _, pairs in sums) < 3_000_000


def test_a_sum_apart_too_dear_falls_back_to_the_whole_table(monkeypatch):
    """A sum apart whose turn would pair more than SPLIT_PAIRS states and rows is given up
    before any pair is listed, and the whole table's sum answers: the same chances."""
    games = prefixes(range(500, 501), 4, every=4)
    never(monkeypatch)
    expected = every_chance(games)
    seen = forced(monkeypatch, pairs=1)
    gave_up: list[bool] = []
    contract = belief_module.contract

    def watched(tables, supply, attributes, asked=0, count=True, parts=None, limit=None):
        try:
            return contract(tables, supply, attributes, asked, count, parts, limit)
        except TooLarge:
            gave_up.append(parts is not None)
            raise

    monkeypatch.setattr(belief_module, "contract", watched)
    assert every_chance(games) == expected
    assert gave_up and all(gave_up) and not seen
