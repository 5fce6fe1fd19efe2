"""Exact posterior over the secret cards: counts of worlds, never samples.

A world is the tuple of every secret card drawn so far (one per round; two per round in the
variation for two). Every consistent tuple is equally likely: the secrets are drawn without
replacement and each round's face-up cards come from a deck whose size does not depend on which
world is true. Two secrets must be different cards when both were out of the deck at the same
time: a card that left the deck for good (won) differs from every later secret, and the two
secrets of one round differ; a secret that went back into the deck (the variation's unwon card)
may be drawn again later. That "must differ" graph is an interval graph.

Counting proper assignments of such a graph with a set of allowed cards per secret is done by
Möbius inversion over partitions of the secrets into blocks ("these secrets are the same card"):
the count is the sum, over partitions, of the product over blocks of c(B) * |common cards of B|,
where c(B) is the linear coefficient of the block's chromatic polynomial. For an interval graph
with secrets taken in draw order, each secret's earlier neighbours form a clique, so
c(B) = product over the block's members after the first of -(earlier neighbours in the block)
(for a complete graph: (-1)^(n-1) (n-1)!). The sum is a dynamic programme over the secrets in draw
order whose states are the open blocks; blocks that no later secret can join are closed early,
equal states merge, and secrets whose card is known are pinned first. What is left is exponential
only in the secrets that are unknown *and* could share cards, so that number is capped
(`FREE_LIMIT`, documented in docs/three-of-a-crime.md).

Sets of cards are 35-bit masks (bit i = CARDS[i]); a token's meaning is a precomputed mask.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from models.three_of_a_crime.rules import CARD_INDEX, CARDS, SUSPECTS, Card, overlap
from solver.errors import InputError

ALL = (1 << len(CARDS)) - 1
BIT = {card: 1 << i for i, card in enumerate(CARDS)}
TOKEN_MASK = {  # (face-up card, token) -> the secrets that would give that token
    (card, token): sum(BIT[s] for s in CARDS if overlap(card, s) == token)
    for card in CARDS
    for token in range(4)
}
FREE_LIMIT = 8  # unknown secrets that could share a card, in one group: more is refused


class TooManyUnknowns(InputError):
    """The exact count would be too slow: more unknown, interacting secrets than FREE_LIMIT."""


@dataclass(frozen=True)
class Draw:
    """One secret card of the world: the round it was drawn in (0-based) and whether it left the
    deck for good. The current round's secrets are still out of the deck: `leaves` is True."""

    round: int
    leaves: bool = True


def classic_draws(rounds: int) -> list[Draw]:
    """One secret per round, every one left the deck (the game without the variation)."""
    return [Draw(r) for r in range(rounds)]


def as_draws(draws: int | Sequence[Draw]) -> list[Draw]:
    return classic_draws(draws) if isinstance(draws, int) else list(draws)


def must_differ(draws: Sequence[Draw], i: int, j: int) -> bool:
    """True when secrets i and j were out of the deck at the same time (so they are different cards)."""
    a, b = draws[i], draws[j]
    if a.round == b.round:
        return i != j
    earlier = a if a.round < b.round else b
    return earlier.leaves


def cliques(draws: Sequence[Draw]) -> list[list[int]]:
    """For each round, the secrets out of the deck while it was played: pairwise different cards.
    Every pair that must differ is in one of these (the graph is an interval graph)."""
    rounds = sorted({d.round for d in draws})
    return [
        [i for i, d in enumerate(draws) if d.round == r or (d.round < r and d.leaves)]
        for r in rounds
    ]


def cards_of(mask: int) -> list[Card]:
    return [card for card in CARDS if mask & BIT[card]]


def mask_of(cards: Iterable[Card]) -> int:
    return sum(1 << CARD_INDEX[c] for c in set(cards))


def apply_fact(masks: list[int], fact) -> None:
    """Narrow the fact's secret to the cards the fact allows (a Fact of models.three_of_a_crime.log)."""
    if fact.kind == "token":
        masks[fact.secret] &= TOKEN_MASK[fact.card, fact.token]
    elif fact.kind == "not":
        masks[fact.secret] &= ~BIT[fact.card]
    else:
        masks[fact.secret] &= BIT[fact.card]


def candidate_sets(facts: Iterable, secrets: int | Sequence[Draw]) -> list[int]:
    """For each secret, the mask of cards it can be when that secret is considered alone."""
    count = secrets if isinstance(secrets, int) else len(secrets)
    masks = [ALL] * count
    for fact in facts:
        apply_fact(masks, fact)
    return masks


def pin_known(masks: list[int], draws: int | Sequence[Draw] | None = None) -> list[int]:
    """Remove each secret whose card is forced from the masks of the secrets that must differ from
    it (exact: the tuple's entry there is that card, and those entries cannot be it)."""
    masks = list(masks)
    draws = classic_draws(len(masks)) if draws is None else as_draws(draws)
    pending = [i for i, m in enumerate(masks) if m.bit_count() == 1]
    done: set[int] = set()
    while pending:
        i = pending.pop()
        if i in done or masks[i].bit_count() != 1:
            continue
        done.add(i)
        forced = masks[i]
        for j, other in enumerate(masks):
            if j != i and other & forced and must_differ(draws, i, j):
                masks[j] = other & ~forced
                if masks[j].bit_count() == 1:
                    pending.append(j)
    return masks


# --- the block programme ------------------------------------------------------------------------

# A block of secrets that are the same card: (their common cards, members that left the deck for
# good, members of the round being processed that go back into it, mark: focus position or -1).
# A later secret's neighbours in the block are the members counted in the two middle fields.
Block = tuple[int, int, int, int]


def _close(blocks: tuple[Block, ...], future: int) -> tuple[tuple[Block, ...], int]:
    """Close the unmarked blocks no later secret can join: they become their number of cards."""
    kept: list[Block] = []
    factor = 1
    for block in blocks:
        mask, gone, back, mark = block
        if mark < 0 and (not mask & future or gone + back == 0):
            factor *= mask.bit_count()
        else:
            kept.append(block)
    return tuple(sorted(kept)), factor


def block_sums(
    order: Sequence[int], masks: Sequence[int], draws: Sequence[Draw], marked: Sequence[int]
) -> dict[tuple[int, ...], int]:
    """The Möbius sum over partitions of the secrets in `order` (draw order), grouped by the common
    masks of the blocks holding the `marked` secrets (which must come last in `order`); two marked
    secrets in one block are left out (those terms only count tuples where they are equal)."""
    future = [0] * (len(order) + 1)
    for pos in range(len(order) - 1, -1, -1):
        future[pos] = future[pos + 1] | masks[order[pos]]
    states: dict[tuple[Block, ...], int] = {(): 1}
    current_round = None
    for pos, v in enumerate(order):
        draw = draws[v]
        if draw.round != current_round:  # last round's unwon cards are back in the deck
            current_round = draw.round
            reset: dict[tuple[Block, ...], int] = defaultdict(int)
            for blocks, weight in states.items():
                moved = tuple((m, gone, 0, k) for m, gone, _, k in blocks)
                closed, factor = _close(moved, future[pos])
                reset[closed] += weight * factor
            states = reset
        mark = marked.index(v) if v in marked else -1
        mask = masks[v]
        gone, back = int(draw.leaves), int(not draw.leaves)
        grown: dict[tuple[Block, ...], int] = defaultdict(int)
        for blocks, weight in states.items():
            if not weight:
                continue
            grown[(*blocks, (mask, gone, back, mark))] += weight
            for k, (common, b_gone, b_back, b_mark) in enumerate(blocks):
                neighbours = b_gone + b_back
                joined = common & mask
                if not neighbours or not joined or (mark >= 0 and b_mark >= 0):
                    continue
                block = (joined, b_gone + gone, b_back + back, max(mark, b_mark))
                grown[(*blocks[:k], block, *blocks[k + 1 :])] -= neighbours * weight
        states = defaultdict(int)
        for blocks, weight in grown.items():
            closed, factor = _close(blocks, future[pos + 1])
            states[closed] += weight * factor
    sums: dict[tuple[int, ...], int] = defaultdict(int)
    for blocks, weight in states.items():
        key = [0] * len(marked)
        factor = 1
        for mask, _, _, mark in blocks:
            if mark >= 0:
                key[mark] = mask
            else:
                factor *= mask.bit_count()
        sums[tuple(key)] += weight * factor
    return sums


def _groups(free: list[int], masks: Sequence[int], draws: Sequence[Draw]) -> list[list[int]]:
    """Connected groups of free secrets: linked when they must differ and could share a card."""
    parent = {i: i for i in free}

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for a, i in enumerate(free):
        for j in free[a + 1 :]:
            if masks[i] & masks[j] and must_differ(draws, i, j):
                parent[root(i)] = root(j)
    grouped: dict[int, list[int]] = defaultdict(list)
    for i in free:
        grouped[root(i)].append(i)
    return [sorted(g, key=lambda i: (draws[i].round, i)) for g in grouped.values()]


@dataclass
class Joint:
    """Exact counts of the worlds, by the cards of the focus secrets (the current round's)."""

    focus: list[int]
    worlds: int
    counts: dict[tuple[Card, ...], int] = field(default_factory=dict)  # only non-zero entries

    def marginal(self, position: int) -> dict[Card, int]:
        result: dict[Card, int] = defaultdict(int)
        for cards, n in self.counts.items():
            result[cards[position]] += n
        return dict(result)


def joint(
    masks: Sequence[int], draws: int | Sequence[Draw], focus: Sequence[int] | None = None
) -> Joint:
    """Exact joint counts of the focus secrets' cards (default: the last secret), over all worlds."""
    draws = as_draws(draws)
    focus = [len(masks) - 1] if focus is None else list(focus)
    if not all(masks):
        return Joint(focus, 0)
    loose = unconstrained(masks, draws, focus)
    if loose:
        return without_unconstrained(masks, draws, focus, loose)
    pinned = pin_known(list(masks), draws)
    if not all(pinned):
        return Joint(focus, 0)
    free = [i for i, m in enumerate(pinned) if m.bit_count() > 1]
    worlds_factor = 1
    tables: list[tuple[list[int], dict[tuple[int, ...], int]]] = []
    for group in _groups(free, pinned, draws):
        if len(group) > FREE_LIMIT:
            raise TooManyUnknowns(
                f"{len(group)} secret cards are unknown and could be the same card as one "
                f"another; the exact count handles at most {FREE_LIMIT} "
                "(see 'Limits' in docs/three-of-a-crime.md)"
            )
        marked = [i for i in group if i in focus]
        order = [i for i in group if i not in focus] + marked
        sums = block_sums(order, pinned, draws, marked)
        if marked:
            tables.append((marked, sums))
        else:
            worlds_factor *= sum(sums.values())
    for i in focus:
        if pinned[i].bit_count() == 1:
            tables.append(([i], {(pinned[i],): 1}))
    counts: dict[tuple[Card, ...], int] = {(): worlds_factor}
    placed: list[int] = []  # the focus secrets, in the order their cards stand in `counts`
    for marked, sums in tables:
        expanded = _expand(sums, len(marked))
        combined: dict[tuple[Card, ...], int] = defaultdict(int)
        for cards, n in counts.items():
            for more, m in expanded.items():
                if not set(cards) & set(more):  # the focus secrets are one round's: all different
                    combined[cards + more] += n * m
        counts, placed = combined, placed + marked
    position = [placed.index(i) for i in focus]
    final = {tuple(cards[p] for p in position): n for cards, n in counts.items() if n}
    return Joint(focus, sum(final.values()), final)


def unconstrained(masks: Sequence[int], draws: Sequence[Draw], focus: Sequence[int]) -> list[int]:
    """Secrets that can be counted as cards gone rather than as choices: the largest set of
    non-focus secrets with one and the same mask C (rounds won unseen: every card not seen
    elsewhere) that holds every other secret's mask, when every secret must differ from every
    other (the game without the variation). Empty if there is none."""
    every = range(len(masks))
    latest = max(
        (d.round for d in draws), default=0
    )  # a pair differs unless its earlier card went back
    if not all(d.leaves or d.round == latest for d in draws):
        return []
    by_mask: dict[int, list[int]] = defaultdict(list)
    for i in every:
        if i not in focus:
            by_mask[masks[i]].append(i)
    for mask, group in sorted(by_mask.items(), key=lambda item: -len(item[1])):
        if all(masks[i] & ~mask == 0 for i in every):  # every mask within C
            return group
    return []


def without_unconstrained(
    masks: Sequence[int], draws: Sequence[Draw], focus: Sequence[int], loose: Sequence[int]
) -> Joint:
    """`joint` with the `unconstrained` secrets counted as a factor, not as choices: the other
    m secrets are m different cards of C in every world, so the k loose ones are any k
    different cards of the |C| − m left: (|C| − m)(|C| − m − 1)… ways in each world. Linear in
    the rounds, where the choices multiplied (issue 16, point 4)."""
    kept = [i for i in range(len(masks)) if i not in loose]
    inner = joint(
        [masks[i] for i in kept], [draws[i] for i in kept], [kept.index(i) for i in focus]
    )
    ways = 1
    left = masks[loose[0]].bit_count() - len(kept)
    for n in range(left, left - len(loose), -1):
        ways *= max(n, 0)
    counts = {cards: n * ways for cards, n in inner.counts.items() if n * ways}
    return Joint(list(focus), inner.worlds * ways, counts)


def _expand(sums: dict[tuple[int, ...], int], size: int) -> dict[tuple[Card, ...], int]:
    """Block sums keyed by masks, as counts keyed by the marked secrets' cards (all different)."""
    out: dict[tuple[Card, ...], int] = defaultdict(int)
    if size == 1:
        for (mask,), weight in sums.items():
            for card in cards_of(mask):
                out[(card,)] += weight
        return out
    by_first: dict[Card, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for (first, second), weight in sums.items():
        for card in cards_of(first):
            by_first[card][second] += weight
    for card, seconds in by_first.items():
        for second, weight in seconds.items():
            for other in cards_of(second & ~BIT[card]):
                out[(card, other)] += weight
    return out


def count_worlds(masks: list[int], draws: int | Sequence[Draw] | None = None) -> int:
    """Tuples of cards, one from each secret's mask, with every pair that must differ different."""
    draws = classic_draws(len(masks)) if draws is None else draws
    return joint(masks, draws, []).worlds


@dataclass
class Posterior:
    """Exact counts: worlds in all, and per card of the secret being solved."""

    worlds: int
    card_counts: dict[Card, int]  # only cards with a non-zero count
    joint: Joint | None = None

    @property
    def candidates(self) -> list[Card]:
        return sorted(self.card_counts)

    def card_probability(self, card: Card) -> Fraction:
        return Fraction(self.card_counts.get(card, 0), self.worlds) if self.worlds else Fraction(0)

    def suspect_probability(self) -> dict[str, Fraction]:
        return suspect_probability(self.card_counts, self.worlds)


def suspect_probability(card_counts: dict[Card, int], worlds: int) -> dict[str, Fraction]:
    """Each suspect's probability of being on the secret card."""
    result = {}
    for index, name in enumerate(SUSPECTS):
        hits = sum(n for card, n in card_counts.items() if index in card)
        result[name] = Fraction(hits, worlds) if worlds else Fraction(0)
    return result


def posterior_of(
    masks: Sequence[int],
    draws: int | Sequence[Draw],
    focus: Sequence[int] | None = None,
    solving: int | None = None,
) -> Posterior:
    """The posterior of the `solving` secret (default: the last focus secret), with the joint."""
    found = joint(masks, draws, focus)
    position = found.focus.index(found.focus[-1] if solving is None else solving)
    return Posterior(found.worlds, found.marginal(position), found)


def posterior(
    facts: Iterable,
    draws: int | Sequence[Draw],
    focus: Sequence[int] | None = None,
    solving: int | None = None,
) -> Posterior:
    """Exact posterior of a secret (default: the last) given every fact about every secret."""
    draws = as_draws(draws)
    return posterior_of(candidate_sets(facts, draws), draws, focus, solving)
