"""The Suspeição filter is exact: on the reduced deck (12 cards, hands of 2) its chances for every
hidden incriminating card's place and for each opponent meeting each requirement equal, as
Fractions, those of a brute force over every physical deal and hidden choice
(`suspeicao_brute`, written from the rules, not from the steps). Random games come from the
truth engine (`models/suspeicao/simulate.py`), cut at random points, under every option of the
probability model, in the blocking mode too; and the true hidden cards always stay possible,
also on the full deck and when tracking sets FORCE evidence aside."""

from __future__ import annotations

import math
import random
from fractions import Fraction
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from suspeicao_brute import brute_force, holds, incriminating

from models.suspeicao import belief as belief_module
from models.suspeicao.game import GAME_OBJECT
from models.suspeicao.simulate import play_round, random_game
from solver.logfile import Document

SMALL = str(Path(__file__).parent / "data" / "suspeicao-small.yaml")
OPTIONS = [
    {"bluff_rate": "1/5", "force_reveal": "uniform"},
    {"bluff_rate": "1/2", "force_reveal": "protect"},
    {"bluff_rate": "0", "force_reveal": "uniform"},
    {"bluff_rate": "1", "force_reveal": "protect"},
]


def document(data: dict) -> Document:
    return Document(yaml.safe_load(yaml.safe_dump(data, sort_keys=False)))


def engine(data: dict):
    GAME_OBJECT.last.clear()
    return GAME_OBJECT.posterior(document(data))


def every_chance(games: list[dict], worlds: bool = False) -> list:
    """Each game's chances, cold: every opponent's of each requirement, each incriminating
    card's places (and the worlds counted, when `worlds`), to compare two ways of summing."""
    found: list = []
    for data in games:
        post = engine(data)
        for player in post.opponents:
            found.append([post.holds(player, r) for r in post.requirements()])
        found.append([post.incriminating(c) for c in post.round.incriminating])
        if worlds:
            found.append(post.belief.worlds)
    return found


def compare(data: dict) -> None:
    post = engine(data)
    brute = brute_force(data)
    expected = incriminating(brute)
    for card in post.round.incriminating:
        if card in post.belief.supply:
            got = {k: v for k, v in post.belief.where(card).items() if v}
            assert got == expected.get(card, {}), (card, got, expected.get(card))
            assert sum(got.values()) == 1
    for requirement in post.requirements():
        want = holds(brute, requirement.text)
        for player in post.opponents:
            assert post.holds(player, requirement) == want[player], (player, requirement.text)


@given(
    seed=st.integers(0, 10**6),
    option=st.sampled_from(range(len(OPTIONS))),
    cut=st.floats(0, 1),
    blocking=st.booleans(),
    seat=st.integers(0, 2),
)
def test_the_filter_equals_the_brute_force_on_random_games(seed, option, cut, blocking, seat):
    rng = random.Random(seed)
    players = ["Ana", "Ben", "Cleo"]
    game = play_round(
        rng, players, players[seat], deck_path=SMALL, blocking=blocking, options=OPTIONS[option]
    )
    data = game.doc
    events = data["events"]
    keep = 1 + int(cut * (len(events) - 1))
    compare({**data, "events": events[:keep]})


# a random 4-player round of the small deck, from a random seat, under a random option of the
# model, cut at a random point (`four_player_prefix`)
FOUR_PLAYER_CUTS = given(
    seed=st.integers(0, 10**6),
    option=st.sampled_from(range(len(OPTIONS))),
    cut=st.floats(0, 1),
    seat=st.integers(0, 3),
)


def four_player_prefix(seed: int, option: int, cut: float, seat: int) -> dict:
    players = ["Ana", "Ben", "Cleo", "Dan"]
    rng = random.Random(seed)
    game = play_round(rng, players, players[seat], deck_path=SMALL, options=OPTIONS[option])
    events = game.doc["events"]
    return {**game.doc, "events": events[: 1 + int(cut * (len(events) - 1))]}


@FOUR_PLAYER_CUTS
def test_four_players_with_cards_moving_between_looked_into_hands(seed, option, cut, seat):
    """Four players on the small deck: EXCHANGE and TAKE between two hands that FORCEs have
    looked into (a link between their tables) are common, and the brute force still lists
    every deal."""
    compare(four_player_prefix(seed, option, cut, seat))


@pytest.mark.parametrize("option", range(len(OPTIONS)))
def test_every_prefix_of_a_few_games_equals_the_brute_force(option):
    for seed in range(3):
        game = random_game(random.Random(100 + seed), 3, deck_path=SMALL, options=OPTIONS[option])
        events = game.doc["events"]
        for keep in range(1, len(events) + 1):
            compare({**game.doc, "events": events[:keep]})


def true_hands(game, opponents) -> dict:
    truth = game.truths[-1]
    return {p: frozenset(str(c) for c in truth[p]) for p in opponents}


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_truth_stays_possible_in_whole_simulated_rounds(players):
    """On the full deck, every FORCE answer used: the true hands keep a positive chance, and each
    hidden incriminating card's chances add up to one."""
    for seed in range(2):
        game = random_game(random.Random(seed), players)
        post = engine(game.doc)
        belief = post.belief
        assert belief.possible(true_hands(game, belief.opponents)), (players, seed)
        for card in post.round.incriminating:
            if card in belief.supply:
                assert sum(belief.where(card).values(), Fraction(0)) == 1


# each example lists the brute force's worlds (~0.8 s): a third of the profile's examples
@settings(max_examples=max(10, settings.default.max_examples // 3))
@given(seed=st.integers(0, 10**6), cut=st.floats(0, 1), option=st.sampled_from(range(len(OPTIONS))))
def test_force_advice_equals_the_brute_force(seed, cut, option):
    """The chance a FORCE reveals evidence, from the target's posterior over four kinds of card,
    equals the model's formula summed over the brute force's physical worlds, for every target
    and requirement (4 players on the small deck)."""
    from models.suspeicao.advice import force_reveal

    game = random_game(random.Random(seed), 4, deck_path=SMALL, options=OPTIONS[option])
    events = game.doc["events"]
    data = {**game.doc, "events": events[: 1 + int(cut * (len(events) - 1))]}
    post = engine(data)
    brute = brute_force(data)
    belief = post.belief
    guilty = set(post.round.incriminating)
    for target in post.opponents:
        size = post.round.hand_size[target]
        if size == 0:
            continue
        at = brute.places.index(target)
        for req in post.requirements()[:3]:
            meets = {n for n, c in brute.cards.items() if req.met_by(c)}
            expected = Fraction(0)
            for world, p in brute.items():
                hand = world[at]
                q, qg, g = len(hand & meets), len(hand & meets & guilty), len(hand & guilty)
                poly = (
                    1 - Fraction(math.comb(size - g, 2), math.comb(size, 2))
                    if size >= 2
                    else Fraction(g, size)
                )
                if q == 0:
                    value: Fraction = poly
                elif belief.protect:
                    value = (1 - belief.bluff) * (1 if qg == q else 0) + belief.bluff * poly
                else:
                    value = (1 - belief.bluff) * Fraction(qg, q) + belief.bluff * poly
                expected += p * value
            assert force_reveal(belief, target, req, True) == expected, (target, req.text)


EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "suspeicao"


@pytest.mark.parametrize(
    ("name", "every"),
    [
        ("round-3p.yaml", 1),
        ("round-4p.yaml", 1),
        ("round-6p.yaml", 4),  # each prefix is solved afresh: every 4th in make test
        pytest.param("round-6p.yaml", 1, marks=pytest.mark.long),
    ],
)
def test_every_report_places_each_incriminating_card_with_total_chance_one(name, every):
    """After every event (or every `every`-th) of the bundled rounds, each incriminating card's
    chances over every place (hands, pile, my hand, in front, the discard) add up to exactly
    one."""
    data = yaml.safe_load((EXAMPLES / name).read_text())
    for keep in range(1, len(data["events"]) + 1, every):
        post = engine({**data, "events": data["events"][:keep]})
        for card in post.round.incriminating:
            assert sum(post.incriminating(card).values(), Fraction(0)) == 1, (keep, card)


@pytest.mark.parametrize("players", [4, 6])
def test_simulated_reports_place_each_card_with_total_chance_one(players):
    game = random_game(random.Random(7), players)
    events = game.doc["events"]
    for keep in range(1, len(events) + 1, 3):
        post = engine({**game.doc, "events": events[:keep]})
        for card in post.round.incriminating:
            assert sum(post.incriminating(card).values(), Fraction(0)) == 1, (keep, card)


@pytest.mark.parametrize("at_once", [7, 65_536])
def test_joined_rows_counts_the_rows_join_would_build(at_once, monkeypatch):
    """`joined_rows` decides whether two linked hand tables become one without building the
    join (building it first cost some look-ahead rounds 100 s). On every pair the filter
    weighs in random 3- and 4-player games of the full deck, it equals the built join's rows,
    and with a limit it exceeds the limit exactly when the join would; also when it looks at
    the pairs a few at a time (so its count stops early)."""
    from models.suspeicao import belief as belief_module
    from solver import card_tables

    monkeypatch.setattr(card_tables, "PAIRS_AT_ONCE", at_once)
    compared = []

    def checked(a, b, sizes, limit=None):
        found = card_tables.joined_rows(a, b, sizes, limit=limit)
        rows = card_tables.join(a, b, sizes).rows
        assert card_tables.joined_rows(a, b, sizes) == rows
        assert (found > limit) == (rows > limit) and (found == rows or rows > limit)
        compared.append((rows, limit))
        return found

    monkeypatch.setattr(belief_module, "joined_rows", checked)
    for seed in range(12):
        engine(random_game(random.Random(700 + seed), 3 + seed % 2).doc)
    assert any(rows > limit for rows, limit in compared)  # joins refused
    assert any(rows <= limit for rows, limit in compared)  # and kept


def test_regroup_to_the_same_partition_keeps_what_the_general_way_keeps(monkeypatch):
    """A table regrouped to its own partition (the supply lost a card: most of a look-ahead's
    table work) takes a one-pass path, `_fitted`. On every such regroup in random 3- and
    4-player games of the full deck it keeps the rows the group-by-group `_split` keeps, in
    the same order, with the same weights and row map."""
    from solver import card_tables

    general = card_tables.Table.regroup
    dropped = []

    def checked(self, partition, sizes):
        found, index = general(self, partition, sizes)
        if partition == self.partition:
            slow, slow_index = self._split(partition, sizes)
            assert found.keys == slow.keys and index.tolist() == slow_index.tolist()
            assert found.counts.tolist() == slow.counts.tolist()
            assert found.weights.tolist() == slow.weights.tolist()
            assert found.values.tolist() == slow.values.tolist()
            dropped.append(found.rows < self.rows)
        return found, index

    monkeypatch.setattr(card_tables.Table, "regroup", checked)
    for seed in range(6):
        engine(random_game(random.Random(900 + seed), 3 + seed % 2).doc)
    assert any(dropped) and not all(dropped)  # rows went, and all stayed


def resolved_the_long_way(belief, hand):
    """`Belief.resolve` as first written: every (row, draw) pair built, then filtered."""
    import numpy as np

    from solver.card_tables import compositions
    from solver.hidden_cards import COMB

    table = belief.own(hand)
    sizes = belief.sizes(table.partition)
    table = table.regroup(table.partition, sizes)[0]
    h = table.column(hand)
    caps = np.array([sizes[k] for k in table.keys], dtype=np.int64)
    draws = compositions(belief.pooled[hand], caps.tolist())
    rows = np.repeat(np.arange(table.rows), len(draws))
    drawn = np.tile(draws, (table.rows, 1))
    counts = table.counts[rows]
    counts[:, h, :] += drawn
    fits = np.all(table.take()[rows] + drawn <= caps, axis=1)
    rows, drawn, counts = rows[fits], drawn[fits], counts[fits]
    factor = np.ones(len(rows), dtype=np.int64)
    for g in np.flatnonzero(draws.any(axis=0)):
        factor *= COMB[counts[:, h, g], drawn[:, g]]
    resolved = table.pick(rows, factor)
    resolved.counts = counts
    return resolved.merged()


def test_resolve_draws_what_every_row_and_draw_pair_gives(monkeypatch):
    """`Belief.resolve` finds which draws of a hand's pooled slots fit each row, and their
    ways, once per distinct row part that decides them. On every resolve with slots to draw in
    random 3- and 4-player games of the full deck, its table is the one built from every
    (row, draw) pair: the same rows, in the same order, with the same weights."""
    from models.suspeicao.belief import Belief

    fast = Belief.resolve
    compared = []

    def checked(self, hand):
        expected = resolved_the_long_way(self, hand) if self.pooled[hand] else None
        found = fast(self, hand)
        if expected is not None:
            assert found.counts.tolist() == expected.counts.tolist()
            assert found.weights.tolist() == expected.weights.tolist()
            assert found.values.tolist() == expected.values.tolist()
            compared.append(found.rows)
        return found

    monkeypatch.setattr(Belief, "resolve", checked)
    for seed in range(6):
        engine(random_game(random.Random(950 + seed), 3 + seed % 2).doc)
    assert len(compared) > 20 and max(compared) > 100


def split_group_by_group(table, partition, sizes):
    """`Table._split` as first written: group by group and hand by hand, a copy of the
    whole table at each, the hands' sum checked against the supply at the end (and how many
    rows that check removed)."""
    import numpy as np

    from solver.card_tables import compositions

    keys = list(sizes)
    where = {k: i for i, k in enumerate(table.keys)}
    parent = [where.get(table.partition.coarser_key(k), -1) for k in keys]
    hands = len(table.hands)
    index = np.arange(table.rows)
    new = np.zeros((table.rows, hands, len(keys)), dtype=np.int8)
    for old in range(len(table.keys)):
        children = [i for i, p in enumerate(parent) if p == old]
        if not children:
            ok = table.counts[index, :, old].sum(axis=1) == 0
            index, new = index[ok], new[ok]
            continue
        caps = [sizes[keys[i]] for i in children]
        for h in range(hands):
            wanted = table.counts[index, h, old]
            if len(children) == 1:
                ok = wanted <= caps[0]
                index, new = index[ok], new[ok]
                new[:, h, children[0]] = wanted[ok]
                continue
            picked, blocks = [], []
            for total in np.unique(wanted):
                splits = compositions(int(total), caps)
                at = np.flatnonzero(wanted == total)
                rep = np.repeat(at, len(splits))
                block = new[rep]
                block[:, h, children] = np.tile(splits, (len(at), 1))
                picked.append(rep)
                blocks.append(block)
            index = index[np.concatenate(picked)] if picked else index[:0]
            new = np.concatenate(blocks) if blocks else new[:0]
    pruned = 0
    if hands > 1:
        fits = np.all(new.astype(np.int64).sum(axis=1) <= np.array(list(sizes.values())), axis=1)
        index, new, pruned = index[fits], new[fits], int((~fits).sum())
    return new, index, pruned


def test_split_keeps_what_the_group_by_group_way_keeps(monkeypatch):
    """`Table._split` copies the groups it keeps whole once and drops rows that cannot fit as
    soon as it can. On every regroup to a finer partition in random 4- to 6-player games of
    the full deck (hand tables, joins of two hands, the asked table of a sum; a prefix of the
    wide bench with a table of three hands), it keeps the rows the group-by-group way keeps,
    in the same order, with the same row map."""
    from solver import card_tables

    split = card_tables.Table._split
    seen = []

    def checked(self, partition, sizes):
        found, index = split(self, partition, sizes)
        counts, slow_index, pruned = split_group_by_group(self, partition, sizes)
        assert index.tolist() == slow_index.tolist()
        assert found.counts.tolist() == counts.tolist() and found.keys == list(sizes)
        assert found.weights.tolist() == self.weights[index].tolist()
        seen.append((len(self.hands), pruned))
        return found, index

    monkeypatch.setattr(card_tables.Table, "_split", checked)
    for seed in range(3):
        engine(random_game(random.Random(960 + seed), 4 + seed % 3).doc)
    heavy = random_game(random.Random(10015), 5).doc  # a round of the wide bench: two
    engine({**heavy, "events": heavy["events"][:20]})  # tables of several hands
    assert any(hands > 1 for hands, _ in seen)  # tables of several hands were split
    assert any(pruned for _, pruned in seen)  # ... and rows that did not fit went early


def test_the_sums_without_int64_factorials_give_the_same_chances(monkeypatch):
    """A sum divides each row's weight by Π count! (over its hands and groups), read as one
    int64 per row; a table whose product could pass int64 takes it hand by hand, modulo each
    prime. Forced down that second way, random 4- and 5-player games of the full deck give
    every opponent the same chances."""
    from solver import card_tables

    games = [random_game(random.Random(980 + seed), 4 + seed % 2).doc for seed in range(4)]

    expected = every_chance(games)
    monkeypatch.setattr(card_tables, "_factorials", lambda counts: None)
    assert every_chance(games) == expected


def test_joining_the_tables_linked_to_one_table_alone_keeps_every_chance(monkeypatch):
    """Before a sum, a table whose links all lead to one other table is joined to it
    (`Belief.leaves_joined`), into the asked table too. On prefixes of random 5-player games
    of the full deck where both kinds of join happen, every opponent's chances are the same
    with the joins as without them."""
    from models.suspeicao.belief import Belief

    games = cut_rounds(JOINED)
    joining = Belief.leaves_joined
    joins = []

    def counted(self, place, first, others):
        found, rest = joining(self, place, first, others)
        before = [t.hands for t in others]
        joins.append((found.hands != first.hands, any(t.hands not in before for t in rest)))
        return found, rest

    monkeypatch.setattr(Belief, "leaves_joined", counted)
    expected = every_chance(games)
    assert any(into for into, _ in joins) and any(others for _, others in joins)
    monkeypatch.setattr(Belief, "leaves_joined", lambda self, place, first, others: (first, others))
    assert every_chance(games) == expected


JOINED = [(701, 5, 23), (710, 5, 29), (715, 5, 32)]  # prefixes with joins


def cut_rounds(cuts: list[tuple[int, int, int]]) -> list[dict]:
    """The first `keep` events of the random round of each (seed, players, keep)."""
    games = []
    for seed, players, keep in cuts:
        data = random_game(random.Random(seed), players).doc
        games.append({**data, "events": data["events"][:keep]})
    return games


@pytest.mark.parametrize("move", ["hidden", "swap", "inside"])
def test_a_card_moving_out_of_a_table_past_the_row_limit_is_refused(monkeypatch, move):
    """A random card leaving a looked-into hand spreads each row of its table over the groups
    the card could be in. Past ROWS_LIMIT rows that table is refused (TooLarge, which a step
    turns into Refused, one line for the user), as every other way a table grows is: a
    5-player prefix of the wide bench built a table of 7.4 million rows this way, over the
    4 million limit, and took 27 s to refuse a later sum."""
    from models.suspeicao import belief as belief_module
    from solver import card_tables

    post = engine(random_game(random.Random(3), 4).doc)
    belief = post.belief.copy()
    hand = max(belief.hand_tables(), key=lambda t: t.rows)
    source, target = hand.hands[0], next(p for p in belief.opponents if p != hand.hands[0])
    if move == "inside":  # both hands in one table
        belief.whole(target)
        joined = card_tables.join(
            belief.tables[source],
            belief.tables[target],
            belief.sizes(belief.tables[source].partition.join(belief.tables[target].partition)),
        )
        belief.put(joined)
    limit = belief.tables[source].rows
    monkeypatch.setattr(belief_module, "ROWS_LIMIT", limit)
    monkeypatch.setattr(card_tables, "ROWS_LIMIT", limit)
    with pytest.raises(card_tables.TooLarge):
        if move == "swap":
            belief.whole(target)
            belief.swap(source, target)
        else:
            belief.hidden(source, target)


def test_only_the_counters_sum_counts_the_worlds(monkeypatch):
    """Counting the worlds took half of a big sum's backward pass, and only the report's
    count of worlds reads it: the counter's sum counts them, the other opponents' sums do
    not, and their chances are the ones a counting sum gives (random 4- and 5-player games)."""
    from models.suspeicao.belief import Belief

    games = [random_game(random.Random(990 + seed), 4 + seed % 2).doc for seed in range(4)]
    counted: list[tuple[bool, bool]] = []
    contract_table = Belief._contract_table

    def watched(self, place, count=True):
        found = contract_table(self, place, count)
        counted.append((place == self.counter, found.worlds is not None))
        return found

    monkeypatch.setattr(Belief, "_contract_table", watched)
    expected = every_chance(games, worlds=True)
    assert counted and all(is_counter == has_worlds for is_counter, has_worlds in counted)
    assert any(not is_counter for is_counter, _ in counted)
    monkeypatch.setattr(
        Belief, "_contract_table", lambda self, place, count=True: watched(self, place)
    )
    assert every_chance(games, worlds=True) == expected


def test_the_sums_of_one_state_join_two_tables_once(monkeypatch):
    """Each opponent's sum joins the tables linked to one table alone, and they are mostly
    the same tables: a state of the filter joins them once for all its sums (a 5-player
    prefix's four sums each joined the same 664,812-row table). On prefixes where joins
    happen, no join is made twice and every chance is the same as with every join made."""
    from models.suspeicao import belief as belief_module

    games = cut_rounds(JOINED)
    made: list[tuple] = []
    join, join_within = belief_module.join, belief_module.join_within

    def counted_join(a, b, sizes):
        made.append((a.serial, b.serial, tuple(sizes.items()), None))
        return join(a, b, sizes)

    def counted_within(a, b, sizes, limit):
        made.append((a.serial, b.serial, tuple(sizes.items()), limit))
        return join_within(a, b, sizes, limit)

    monkeypatch.setattr(belief_module, "join", counted_join)
    monkeypatch.setattr(belief_module, "join_within", counted_within)
    expected = every_chance(games)
    assert made and len(set(made)) == len(made)
    kept = len(made)

    def every_time(self, a, b, sizes, limit=None):  # nothing kept: each sum joins again
        return counted_join(a, b, sizes) if limit is None else counted_within(a, b, sizes, limit)

    monkeypatch.setattr(belief_module.Belief, "joined", every_time)
    made.clear()
    assert every_chance(games) == expected
    assert len(made) > kept


def test_a_join_built_from_row_parts_is_the_join_of_every_pair(monkeypatch):
    """A join within a limit is built from the distinct (row part, row part) of the pairs that
    fit, not from a row per pair merged afterwards (three joins of a 751,226-row table took
    1.2 s that way). Every join made on prefixes of random 4- and 5-player games (tying
    tables, joining a sum's leaves) is the very table the pairs give: the same rows in the
    same order, the same weights, links and values."""
    from solver import card_tables

    made = []
    join_within = card_tables.join_within

    def checked(a, b, sizes, limit):
        found = join_within(a, b, sizes, limit)
        if found is not None:
            every = card_tables._paired(a, b, sizes).merged()
            assert found.hands == every.hands and found.links == every.links
            assert (found.counts == every.counts).all() and (found.values == every.values).all()
            assert list(found.weights) == list(every.weights)
            made.append(found.rows)
        return found

    monkeypatch.setattr(belief_module, "join_within", checked)
    every_chance(cut_rounds([*JOINED, (720, 4, 25), (721, 4, 30)]))
    assert len(made) >= 5 and max(made) > 1000
