"""`sleuth simulate suspeicao`: how much a seat that follows the advice outscores random bots.

Seat P1 plays by a policy, the other seats are random bots (simulate.py). Policies: `advice`
(the play `sleuth suggest` ranks first from P1's log so far: the most expected points now; a
final turn is skipped when every play loses points; it blocks whenever it holds incriminating
evidence) and `random` (P1 is a random bot too: the baseline). The measure is P1's score minus
the mean score of the others, per round, with a 95% normal interval.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction

from models.suspeicao.advice import plays
from models.suspeicao.simulate import BLOCK, PLAY, Choice, View, play_round, random_policy
from solver.errors import InputError
from solver.logfile import Document
from solver.names import NameSet
from solver.report import Report, Table
from solver.stats import Margins

POLICIES = ("advice", "random")
PLAYERS = ["P1", "P2", "P3"]
SEAT = "P1"
CHUNK = {"advice": 2, "random": 100}  # rounds per batch chunk (~0.5-1 s here)


def advice_policy(game) -> Callable[[View, random.Random], Choice]:
    def decide(view: View, rng: random.Random) -> Choice:
        if view.decision == BLOCK:
            holds_evidence = any(c in view.incriminating for c in view.hand)
            blocks = [c for c in view.choices if c.card is not None]
            return blocks[0] if holds_evidence and blocks else Choice()
        legal = set(view.choices)
        if view.decision != PLAY:  # a new target after a block: one of those left, at random
            return random_policy(view, rng)
        post = game.posterior(Document(view.log()))
        for play in plays(post):
            evidence = post.round.front[SEAT][0] if play.action == "PASS" and play.target else None
            choice = Choice(play.card, play.target, evidence)
            if view.final and play.points < 0 and Choice() in legal:
                return Choice()
            if choice in legal:
                return choice
        return random_policy(view, rng)

    return decide


def policies(policy: str | None) -> list[str]:
    """The policies a run plays: the one named, or all of them."""
    names = [policy] if policy else list(POLICIES)
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
        seats = {SEAT: advice_policy(game)} if name == "advice" else {}
        margins = Margins()
        for _ in range(games):
            result = play_round(rng, PLAYERS, SEAT, policies=seats)
            others = [result.scores[p] for p in PLAYERS if p != SEAT]
            margin = result.scores[SEAT] - Fraction(sum(others), len(others))
            margins += Margins.of(margin)
        sums[name] = margins
    return sums


def report(game, partials: list[dict[str, Margins]], policy: str | None = None) -> Report:
    """The report of every chunk's margins, added up policy by policy: the mean margin of P1
    and a 95% normal interval from the sample spread."""
    rows, data = [], {}
    for name in policies(policy):
        sums = sum((chunk[name] for chunk in partials), Margins())
        games = sums.games
        mean, low, high = sums.interval()
        rows.append([name, str(games), f"{mean:+.3f}", f"{low:+.3f} – {high:+.3f}"])
        data[name] = {
            "games": games,
            "margin": round(mean, 6),
            "interval95": [round(low, 6), round(high, 6)],
        }
    table = Table(
        f"Seat {SEAT}'s score minus the others' mean, per round ({len(PLAYERS)} players, random bots)",
        ["policy", "rounds", "margin", "95% interval"],
        rows,
    )
    return Report({"game": game.name, "players": len(PLAYERS), "policies": data}, [table], [])
