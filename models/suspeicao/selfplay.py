"""`sleuth simulate suspeicao`: how much a seat that follows the advice outscores random bots.

Seat P1 plays by a policy, the other seats are random bots (simulate.py). Policies: `advice`
(the play `sleuth suggest` ranks first from P1's log so far: the most expected points now; a
final turn is skipped when every play loses points; it blocks whenever it holds incriminating
evidence) and `random` (P1 is a random bot too: the baseline). The measure is P1's score minus
the mean score of the others, per round, with a 95% normal interval. A bot picks among equally
good plays at random (a fixed tie order would favour one seat), and plays at random when the
exact filter refuses its log as too entangled.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction

from models.suspeicao.advice import Play, plays
from models.suspeicao.belief import Refused
from models.suspeicao.game import TooEntangled
from models.suspeicao.lookahead import block_when_holding, lookahead_choice
from models.suspeicao.simulate import BLOCK, PLAY, Choice, View, play_round, random_policy
from solver.errors import InputError
from solver.logfile import Document
from solver.names import NameSet
from solver.report import Report, Table
from solver.stats import Margins, shuffle_ties

DEFAULT = ("advice", "random")  # what a run without --policy plays
HEAD_TO_HEAD = {"head-to-head-3": 3, "head-to-head-4": 4}  # players at the table
CONTROL = {"control-3": 3, "control-4": 4}  # the head-to-head with P1 on the one-step advice too
TABLES = {**HEAD_TO_HEAD, **CONTROL}  # runs of one-step seats, a random first player
POLICIES = (*DEFAULT, "lookahead", *TABLES)
PLAYERS = ["P1", "P2", "P3"]
SEAT = "P1"
LOOKAHEAD_STREAM = 0x5EED_A4EA_D000  # xor-ed into a round's seed: the look-ahead's own numbers
# rounds per batch chunk (~0.5-1 s here for the one-step ones; a look-ahead round: ~10-60 s)
CHUNK = {"advice": 2, "random": 100, "lookahead": 1, "head-to-head-3": 1, "head-to-head-4": 1}
CHUNK |= {"control-3": 2, "control-4": 2}


def lookahead_policy(game, seeds: random.Random) -> Callable[[View, random.Random], Choice]:
    """The look-ahead bot: the play `sleuth suggest` advises (lookahead.py), its play-outs
    seeded from `seeds`; blocks, new targets and final turns as the advice bot. Its one-step
    ranking breaks ties with the table's generator exactly as the advice bot's does, so where
    the look-ahead keeps the one-step's best play it plays what the advice bot would, drawing
    the same numbers: a round dealt from one seed (`table_round`) is the same game until they
    differ."""
    fallback = advice_policy(game)

    def decide(view: View, play_rng: random.Random) -> Choice:
        if view.decision != PLAY or view.final:
            return fallback(view, play_rng)
        doc = Document(view.log())
        try:
            post = game.posterior(doc)
            ranked = ties_shuffled(plays(post), play_rng)
        except (TooEntangled, Refused):  # beyond the exact filter's limits: a random play
            return random_policy(view, play_rng)
        choice = lookahead_choice(doc, post, seed=seeds.getrandbits(64), ranked=ranked)
        return choice if choice is not None else one_step_choice(view, post, ranked, play_rng)

    return decide


def advice_policy(game) -> Callable[[View, random.Random], Choice]:
    def decide(view: View, rng: random.Random) -> Choice:
        if view.decision == BLOCK:
            return block_when_holding(view)
        if view.decision != PLAY:  # a new target after a block: one of those left, at random
            return random_policy(view, rng)
        try:
            post = game.posterior(Document(view.log()))
            ranked = ties_shuffled(plays(post), rng)
        except (TooEntangled, Refused):  # beyond the exact filter's limits: a random play
            return random_policy(view, rng)
        return one_step_choice(view, post, ranked, rng)

    return decide


def one_step_choice(view: View, post, ranked: list[Play], rng: random.Random) -> Choice:
    """The first legal play of `ranked`; on a final turn, none when the best loses points."""
    legal = set(view.choices)
    me = post.log.me  # the seat deciding (not always P1 head to head)
    for play in ranked:
        evidence = post.round.front[me][0] if play.action == "PASS" and play.target else None
        if view.final and play.points < 0 and Choice() in legal:
            return Choice()
        if Choice(play.card, play.target, evidence) in legal:  # the choices list no gives
            return Choice(play.card, play.target, evidence, play.give)  # EXCHANGE: its give
    return random_policy(view, rng)


def ties_shuffled(ranked: list[Play], rng: random.Random) -> list[Play]:
    """The plays in rank order, plays of equal value in random order (with ties broken by
    card and seat order, P1 lost 0.68 points a round in a table of one-step bots: 300 rounds,
    3 players)."""
    return shuffle_ties(ranked, lambda p: (p.points, p.p_reveal, p.p_gain), rng)


def policies(policy: str | None) -> list[str]:
    """The policies a run plays: the one named, or all of them."""
    names = [policy] if policy else list(DEFAULT)
    for name in names:
        if name not in POLICIES:
            raise InputError(
                f"unknown policy {name!r}{NameSet('policy', POLICIES).suggestion(name)}"
            )
    return names


def chunk_size(policy: str | None) -> int:
    """Rounds per batch chunk: fixed by the policies played, never by the number of workers."""
    return min(CHUNK[name] for name in policies(policy))


def play_chunk(game, rng: random.Random, games: int, policy: str | None) -> dict[str, Margins]:
    """`games` rounds under each policy in turn, from one generator (as a serial run plays)."""
    sums = {}
    for name in policies(policy):
        margins = Margins()
        if name in TABLES:  # each round from a seed of its own (see `table_round`)
            players = [f"P{i}" for i in range(1, TABLES[name] + 1)]
            for _ in range(games):
                seed = rng.getrandbits(64)
                margins += Margins.of(table_round(game, players, seed, name in HEAD_TO_HEAD))
            sums[name] = margins
            continue
        seats = {}  # random: P1 is a random bot too
        if name == "advice":
            seats = {SEAT: advice_policy(game)}
        elif name == "lookahead":
            seats = {SEAT: lookahead_policy(game, rng)}
        for _ in range(games):
            result = play_round(rng, PLAYERS, SEAT, policies=seats)
            margins += Margins.of(margin_of(result.scores, PLAYERS))
        sums[name] = margins
    return sums


def table_round(game, players: list[str], seed: int, lookahead: bool) -> Fraction:
    """P1's margin in one round of a table of one-step bots, dealt and played from `seed`: P1
    on the look-ahead (its play-outs from a stream of their own), or on the one-step advice too
    (the control). With one seed both rounds are the same game until the look-ahead leaves the
    one-step's choice. (Tried as a paired measure, the look-ahead's margin minus the
    control's on the same seed: on 22 three-player rounds its variance was 10.5, the margin's
    5.6: the games part ways early, and a round's luck is in its play more than its deal.)"""
    deal = random.Random(seed)
    seats = {p: advice_policy(game) for p in players}
    if lookahead:
        seats[SEAT] = lookahead_policy(game, random.Random(seed ^ LOOKAHEAD_STREAM))
    first = deal.choice(players)  # no seat always first
    result = play_round(deal, players, SEAT, policies=seats, first=first)
    return margin_of(result.scores, players)


def margin_of(scores: dict[str, int], players: list[str]) -> Fraction:
    """P1's points minus the others' mean."""
    others = [scores[p] for p in players if p != SEAT]
    return scores[SEAT] - Fraction(sum(others), len(others))


def report(game, partials: list[dict[str, Margins]], policy: str | None = None) -> Report:
    """The report of every chunk's margins, added up policy by policy: the mean margin of P1
    and a 95% normal interval from the sample spread."""
    rows, data = [], {}
    for name in policies(policy):
        sums = sum((chunk[name] for chunk in partials), Margins())
        mean, low, high = sums.interval()
        rows.append([name, str(sums.games), f"{mean:+.3f}", f"{low:+.3f} – {high:+.3f}"])
        data[name] = {
            "games": sums.games,
            "margin": round(mean, 6),
            "interval95": [round(low, 6), round(high, 6)],
        }
    table = Table(
        f"Seat {SEAT}'s score minus the others' mean, per round ({len(PLAYERS)} players, random bots)",
        ["policy", "rounds", "margin", "95% interval"],
        rows,
    )
    if policy in HEAD_TO_HEAD:
        table.title = (
            f"Seat {SEAT} (look-ahead) against one-step advice in the other "
            f"{HEAD_TO_HEAD[policy] - 1} seats: {SEAT}'s score minus the others' mean, per round"
        )
    if policy in CONTROL:
        table.title = (
            f"Control: every seat on the one-step advice ({CONTROL[policy]} players): {SEAT}'s "
            "score minus the others' mean, per round (0 but for the seat)"
        )
    players = TABLES.get(policy or "", len(PLAYERS))
    return Report({"game": game.name, "players": players, "policies": data}, [table], [])
