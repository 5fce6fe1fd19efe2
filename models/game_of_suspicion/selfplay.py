"""`sleuth simulate game-of-suspicion`: how often a seat that follows the advice wins a round.

Seat P1 plays by a policy, the other seats are random bots (simulate.py). Policies: `advice`
(guess when the exact value of guessing now beats the best action's, else take the best action)
and `random` (P1 is a random bot too: the baseline, about one round in three). Rounds are played
with 3 players, whose hidden worlds are small enough for an exact filter at every turn.
"""

from __future__ import annotations

import random
from dataclasses import astuple, dataclass

from models.game_of_suspicion.advice import action_values, best_guesses, chain_value, guess_numbers
from models.game_of_suspicion.simulate import play_round
from solver.errors import InputError
from solver.logfile import Document
from solver.names import NameSet
from solver.report import Report, Table
from solver.stats import wilson_interval

POLICIES = ("advice", "random")
PLAYERS = 3
SEAT = "P1"
MAX_TURNS = 120  # a round not over by then counts as not won
CHUNK = {"advice": 8, "random": 100}  # rounds per batch chunk (~0.6-0.9 s here)


def advice_policy(doc: dict) -> dict | None:
    """The advice bot: the intent `sleuth suggest` recommends from this seat."""
    from models import GAMES

    game = GAMES["game-of-suspicion"]
    post = game.posterior(Document(doc))  # type: ignore[attr-defined]
    guesses = best_guesses(post)
    actions = action_values(post)
    opponents = {p: (post.place(p), post.round.hand_size[p]) for p in post.opponents}
    now = chain_value(post.belief, opponents)
    wait = max((a.points for a in actions), default=0)
    if guesses and (now >= wait or not actions):
        target = max(guesses, key=lambda g: (g.p * g.points, g.p))
        return {"guess": {"target": target.target, "cards": guess_numbers(target.cards)}}
    return actions[0].intent if actions else None


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


@dataclass
class Tally:
    """A policy's rounds in a batch chunk (picklable; the chunks' tallies add up)."""

    games: int = 0
    wins: int = 0
    finished: int = 0
    points: int = 0

    def __add__(self, other: Tally) -> Tally:
        return Tally(*(a + b for a, b in zip(astuple(self), astuple(other), strict=True)))


def play_chunk(rng: random.Random, games: int, policy: str | None) -> dict[str, Tally]:
    """`games` rounds under each policy in turn, from one generator (as a serial run plays)."""
    tallies = {}
    for name in policies(policy):
        seats = {SEAT: advice_policy} if name == "advice" else {}
        tally = Tally(games)
        for _ in range(games):
            result = play_round(rng, PLAYERS, seats, max_turns=MAX_TURNS)
            tally.wins += result.winner == SEAT
            tally.finished += result.winner is not None
            tally.points += result.scores[SEAT]
        tallies[name] = tally
    return tallies


def report(partials: list[dict[str, Tally]], policy: str | None = None) -> Report:
    """The report of every chunk's tallies, added up policy by policy."""
    rows, data = [], {}
    for name in policies(policy):
        total = sum((tallies[name] for tallies in partials), Tally())
        games, wins = total.games, total.wins
        low, high = wilson_interval(wins, games)
        rows.append(
            [
                name,
                str(games),
                f"{wins / games:.3f}",
                f"{low:.3f} – {high:.3f}",
                f"{total.points / games:.2f}",
            ]
        )
        data[name] = {
            "games": games,
            "wins": wins,
            "finished": total.finished,
            "p_win": round(wins / games, 6),
            "interval95": [round(low, 6), round(high, 6)],
            "points_per_round": round(total.points / games, 6),
        }
    table = Table(
        f"Seat {SEAT} against random bots ({PLAYERS} players, rounds of up to {MAX_TURNS} turns)",
        ["policy", "rounds", "p(win)", "95% interval", "points"],
        rows,
    )
    return Report({"game": "game-of-suspicion", "players": PLAYERS, "policies": data}, [table], [])
