"""`sleuth simulate game-of-suspicion`: how often a seat that follows the advice wins a round.

Seat P1 plays by a policy, the other seats are random bots (simulate.py). Policies: `advice`
(guess when the exact value of guessing now beats the best action's, else take the best action),
`lookahead` (the best candidate of lookahead.py: my action, the others' turns, my next action)
and `random` (P1 is a random bot too: the baseline, about one round in three). Rounds are played
with 3 players, whose hidden worlds are small enough for an exact filter at every turn.

Head-to-head (`head-to-head-3`, `head-to-head-4`, only when named: a look-ahead round costs
seconds): P1 plays the look-ahead, every other seat today's one-step `advice`, with 3 or 4
players; the measure is P1's points minus the others' mean, per round, with a 95% interval.
The advice bots pick among exactly tied guesses or actions at random (`advice_bot`).
"""

from __future__ import annotations

import functools
import random
from dataclasses import astuple, dataclass
from fractions import Fraction

from models.game_of_suspicion.lookahead import lookahead_intent, one_step_intent
from models.game_of_suspicion.simulate import Policy, names, play_round
from solver.errors import InputError
from solver.logfile import Document
from solver.names import NameSet
from solver.report import Report, Table
from solver.stats import Margins, wilson_interval

DEFAULT = ("advice", "random")  # what a run without --policy plays
HEAD_TO_HEAD = {"head-to-head-3": 3, "head-to-head-4": 4}  # players at the table
CONTROL = {"control-3": 3, "control-4": 4}  # the head-to-head with P1 on the one-step advice too
TABLES = {**HEAD_TO_HEAD, **CONTROL}
POLICIES = (*DEFAULT, "lookahead", *TABLES)
PLAYERS = 3
SEAT = "P1"
MAX_TURNS = 120  # a round not over by then counts as not won
# rounds per batch chunk (~0.6-0.9 s here for the one-step ones; a look-ahead round: ~10-30 s)
CHUNK = {"advice": 8, "random": 100, "lookahead": 1, "head-to-head-3": 1, "head-to-head-4": 1}
CHUNK |= {"control-3": 4, "control-4": 4}


def posterior(doc: dict):
    from models import GAMES

    return GAMES["game-of-suspicion"].posterior(Document(doc))  # type: ignore[attr-defined]


def advice_policy(doc: dict, rng: random.Random | None = None) -> dict | None:
    """The advice bot: the intent `sleuth suggest --horizon 1` recommends from this seat (with
    `rng`, one of exactly tied intents at random)."""
    post = posterior(doc)
    if post.log.me not in post.round.active:
        return None
    return one_step_intent(post, rng)


def advice_bot(rng: random.Random) -> Policy:
    """The advice bot of self-play: ties broken at random (a fixed order favours one seat)."""
    return functools.partial(advice_policy, rng=rng)


def lookahead_policy(rng: random.Random) -> Policy:
    """The look-ahead bot: the intent `sleuth suggest` recommends (its plays seeded from `rng`)."""

    def decide(doc: dict) -> dict | None:
        post = posterior(doc)
        return lookahead_intent(Document(doc), post, seed=rng.getrandbits(64))

    return decide


def policies(policy: str | None) -> list[str]:
    """The policies a run plays: the one named, or the default ones."""
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


@dataclass
class Tally:
    """A policy's rounds in a batch chunk (picklable; the chunks' tallies add up)."""

    games: int = 0
    wins: int = 0
    finished: int = 0
    points: int = 0

    def __add__(self, other: Tally) -> Tally:
        return Tally(*(a + b for a, b in zip(astuple(self), astuple(other), strict=True)))


def seats(name: str, rng: random.Random) -> dict[str, Policy]:
    """The seats with a policy (the others are random bots)."""
    if name == "advice":
        return {SEAT: advice_bot(rng)}
    if name == "lookahead":
        return {SEAT: lookahead_policy(rng)}
    if name in HEAD_TO_HEAD:
        others = {p: advice_bot(rng) for p in names(HEAD_TO_HEAD[name])}
        return {**others, SEAT: lookahead_policy(rng)}
    if name in CONTROL:  # P1's seat alone: its margin should be 0
        return {p: advice_bot(rng) for p in names(CONTROL[name])}
    return {}


def play_chunk(rng: random.Random, games: int, policy: str | None) -> dict[str, Tally | Margins]:
    """`games` rounds under each policy in turn, from one generator (as a serial run plays)."""
    tallies: dict[str, Tally | Margins] = {}
    for name in policies(policy):
        if name in TABLES:
            tallies[name] = head_to_head(rng, games, name)
            continue
        tally = Tally(games)
        playing = seats(name, rng)
        for _ in range(games):
            result = play_round(rng, PLAYERS, playing, max_turns=MAX_TURNS)
            tally.wins += result.winner == SEAT
            tally.finished += result.winner is not None
            tally.points += result.scores[SEAT]
        tallies[name] = tally
    return tallies


def head_to_head(rng: random.Random, games: int, name: str) -> Margins:
    """`games` rounds of P1's look-ahead (a control: the one-step advice) against one-step
    advice in every other seat: P1's points minus the others' mean, per round."""
    players = TABLES[name]
    playing = seats(name, rng)
    margins = Margins()
    for _ in range(games):
        result = play_round(rng, players, playing, max_turns=MAX_TURNS)
        others = [result.scores[p] for p in result.scores if p != SEAT]
        margins += Margins.of(result.scores[SEAT] - Fraction(sum(others), len(others)))
    return margins


def report(partials: list[dict], policy: str | None = None) -> Report:
    """The report of every chunk's tallies, added up policy by policy."""
    names_played = policies(policy)
    if names_played[0] in TABLES:
        return duel_report(partials, names_played[0])
    rows, data = [], {}
    for name in names_played:
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


def duel_report(partials: list[dict], name: str) -> Report:
    """A head-to-head run's report: P1's mean margin and its 95% interval."""
    sums = sum((chunk[name] for chunk in partials), Margins())
    mean, low, high = sums.interval()
    players = TABLES[name]
    who = "(look-ahead)" if name in HEAD_TO_HEAD else "(control: one-step advice too)"
    table = Table(
        f"Seat {SEAT} {who} against one-step advice in the other {players - 1} seats: "
        f"{SEAT}'s points minus the others' mean, per round",
        ["policy", "rounds", "margin", "95% interval"],
        [[name, str(sums.games), f"{mean:+.3f}", f"{low:+.3f} – {high:+.3f}"]],
    )
    data = {
        name: {
            "games": sums.games,
            "margin": round(mean, 6),
            "interval95": [round(low, 6), round(high, 6)],
        }
    }
    return Report({"game": "game-of-suspicion", "players": players, "policies": data}, [table], [])
