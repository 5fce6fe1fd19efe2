"""Random rounds and whole games played by the rules, for statistics, tests and benchmarks."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from models.three_of_a_crime.rules import CARDS, Card, card_names, overlap


def cards_until_unique(rng: random.Random, won: frozenset[Card] = frozenset()) -> int:
    """Turn face-up cards of a fresh round until one secret is left; how many it took."""
    deck = [c for c in CARDS if c not in won]
    secret = rng.choice(deck)
    rest = [c for c in deck if c != secret]
    rng.shuffle(rest)
    candidates = set(deck)
    for turned, card in enumerate(rest, start=1):
        token = overlap(card, secret)
        candidates = {s for s in candidates if s != card and overlap(card, s) == token}
        if len(candidates) == 1:
            return turned
    return len(rest)


@dataclass
class RoundStats:
    games: int
    distribution: Counter  # cards needed -> rounds
    mean: float
    unique_by_sixth: float  # fraction of rounds unique by the sixth card (the two-player limit)


def round_statistics(rng: random.Random, games: int, progress=None) -> RoundStats:
    counts: Counter = Counter()
    for _ in range(games):
        counts[cards_until_unique(rng)] += 1
        if progress:
            progress()
    mean = sum(k * n for k, n in counts.items()) / games
    by_sixth = sum(n for k, n in counts.items() if k <= 6) / games
    return RoundStats(games, counts, mean, by_sixth)


def random_game(
    rng: random.Random, players: list[str], rounds: int, reveal_won: float = 0.8
) -> tuple[dict, list[Card]]:
    """A whole game log (as a YAML-ready dict) and the true secret of each round.

    Detectives turn cards; now and then one makes a wrong accusation among the candidates; when
    the answer is certain a detective accuses correctly and wins the card; sometimes a round ends
    with the card leaving the deck unseen (`won` without a card) to exercise unknown won cards."""
    events: list[dict] = []
    truths: list[Card] = []
    gone: set[Card] = set()
    for number in range(rounds):
        eyewitness = players[number % len(players)]
        detectives = [p for p in players if p != eyewitness]
        events.append({"round": {"eyewitness": eyewitness}})
        deck = [c for c in CARDS if c not in gone]
        secret = rng.choice(deck)
        truths.append(secret)
        rest = [c for c in deck if c != secret]
        rng.shuffle(rest)
        candidates = {c for c in CARDS if c not in gone}
        out: set[str] = set()
        limit = 6 if len(players) == 2 else 12
        for card in rest[: rng.randint(0, limit)]:
            token = overlap(card, secret)
            events.append({"card": card_names(card), "token": token})
            candidates = {s for s in candidates if s != card and overlap(card, s) == token}
            still_in = [d for d in detectives if d not in out]
            wrong = sorted(candidates - {secret})
            if wrong and still_in and rng.random() < 0.15:
                who = rng.choice(still_in)
                guess = rng.choice(wrong)
                events.append(
                    {"accuse": {"by": who, "suspects": card_names(guess), "correct": False}}
                )
                out.add(who)
                candidates.discard(guess)
            if len(candidates) == 1:
                break
        still_in = [d for d in detectives if d not in out]
        winner = rng.choice(still_in) if still_in else eyewitness
        if len(candidates) == 1 and still_in:
            events.append(
                {"accuse": {"by": winner, "suspects": card_names(secret), "correct": True}}
            )
            events.append({"won": {"by": winner, "card": card_names(secret)}})
        elif rng.random() < reveal_won:
            events.append({"won": {"by": eyewitness, "card": card_names(secret)}})
        else:
            events.append({"won": {"by": eyewitness}})
        gone.add(secret)
    # leave the last round open half of the time, so the current round has evidence in it
    if rng.random() < 0.5 and events and "won" in events[-1]:
        events.pop()
        if events and "accuse" in events[-1] and events[-1]["accuse"]["correct"]:
            events.pop()
    document = {"game": "three-of-a-crime", "players": players, "me": players[0], "events": events}
    return document, truths
