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


CHUNK = 10_000  # rounds per batch chunk (about 0.5 s here): fixed, never from the workers


def cards_needed(rng: random.Random, games: int) -> Counter:
    """Play `games` fresh rounds: how many rounds needed each number of face-up cards."""
    counts: Counter = Counter()
    for _ in range(games):
        counts[cards_until_unique(rng)] += 1
    return counts


def round_statistics(counts: Counter) -> RoundStats:
    """The statistics of rounds counted by `cards_needed` (of one chunk or of all, summed)."""
    games = sum(counts.values())
    mean = sum(k * n for k, n in counts.items()) / games
    by_sixth = sum(n for k, n in counts.items() if k <= 6) / games
    return RoundStats(games, counts, mean, by_sixth)


def random_game(
    rng: random.Random, players: list[str], rounds: int, reveal_won: float = 0.8
) -> tuple[dict, list[Card]]:
    """A whole game log (as a YAML-ready dict) and the true secret of each round.

    Detectives turn cards; now and then one makes a wrong accusation among the candidates; when
    the answer is certain a detective accuses correctly and wins the card; once every detective
    is out the eyewitness claims it; sometimes a round ends with the card leaving the deck unseen
    (`won` without a card) to exercise unknown won cards."""
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
            if len(candidates) == 1 or len(out) == len(detectives):
                break  # certain, or every detective is out: the eyewitness claims the card
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


def random_variation_game(
    rng: random.Random, rounds: int, players: tuple[str, str] = ("Ana", "Ben")
) -> tuple[dict, list[Card]]:
    """A log of the variation for two and the true secret of every draw (two per round).

    The players turn cards for each other in turn (each card in one space, with that space's
    token); now and then one accuses wrongly; a round ends with a correct accusation (the named
    card leaves the deck, the winner's own goes back), or both out (both go back), or the log
    stops inside it. The first player sometimes logs their own card with `secret`."""
    events: list[dict] = []
    truths: list[Card] = []
    gone: set[Card] = set()
    first, second = players
    for number in range(rounds):
        events.append({"round": {"eyewitness": "both"}})
        deck = [c for c in CARDS if c not in gone]
        secrets = dict(zip(players, rng.sample(deck, 2), strict=True))
        truths += [secrets[first], secrets[second]]
        if rng.random() < 0.5:
            events.append({"secret": card_names(secrets[first])})
        rest = [c for c in deck if c not in secrets.values()]
        rng.shuffle(rest)
        out: set[str] = set()
        for turn, card in enumerate(rest[: rng.randint(0, 10)]):
            if len(out) == 2:
                break  # both out: the round is over
            space = players[turn % 2]
            token = overlap(card, secrets[space])
            events.append({"card": card_names(card), "token": token, "eyewitness": space})
            accuser = [p for p in players if p != space][0]
            if accuser not in out and rng.random() < 0.1:
                guess = rng.choice([c for c in deck if c != secrets[space]])
                events.append(
                    {"accuse": {"by": accuser, "suspects": card_names(guess), "correct": False}}
                )
                out.add(accuser)
        last = number == rounds - 1
        if last and rng.random() < 0.5:
            break  # the log stops inside the round
        still_in = [p for p in players if p not in out]
        if len(out) == 2 or not still_in:
            continue  # both out: nobody wins, both cards go back
        winner = rng.choice(still_in)
        loser = [p for p in players if p != winner][0]
        events.append(
            {"accuse": {"by": winner, "suspects": card_names(secrets[loser]), "correct": True}}
        )
        if rng.random() < 0.5:
            events.append({"won": {"by": winner}})
        gone.add(secrets[loser])
    document = {"game": "three-of-a-crime", "players": list(players), "me": first, "events": events}
    return document, truths


def long_game(
    rng: random.Random, events: int, players: int = 400, reveal_won: float = 1.0
) -> tuple[dict, list[Card]]:
    """A log of `events` events played by the rules, for soak tests and benchmarks: 30 rounds
    with several face-up cards each, many wrong accusations (by many detectives, about a third
    repeating a card already ruled out), cards face up again in later rounds, and won cards
    (shown with probability `reveal_won`); the last round is left open. Returns the log and the
    true secret of each round."""
    seats = [f"P{i}" for i in range(players)]
    log: list[dict] = []
    truths: list[Card] = []
    gone: set[Card] = set()
    rounds = 30
    for number in range(rounds):
        eyewitness = seats[number % players]
        log.append({"round": {"eyewitness": eyewitness}})
        deck = [c for c in CARDS if c not in gone]
        secret = rng.choice(deck)
        truths.append(secret)
        rest = [c for c in deck if c != secret]
        rng.shuffle(rest)
        detectives = [p for p in seats if p != eyewitness]
        rng.shuffle(detectives)
        accused: list[Card] = []
        last = number == rounds - 1
        end = events if last else min(events - 1, (number + 1) * events // rounds)
        turned = rest[: rng.randint(1, 3) if last else rng.randint(3, 12)]
        candidates = set(deck)
        for k, card in enumerate(turned):
            token = overlap(card, secret)
            log.append({"card": card_names(card), "token": token})
            candidates = {c for c in candidates if c != card and overlap(card, c) == token}
            ruled_out = [c for c in CARDS if c not in candidates]
            share = (end - len(log) - (0 if last else 1)) // (len(turned) - k)
            for _ in range(min(share, len(detectives) - 1)):  # one stays in: the round goes on
                # the last round keeps its candidates: accusations there name ruled-out cards
                anything = [c for c in CARDS if c != secret] if not last else ruled_out
                repeat = accused and rng.random() < 0.3
                wrong = rng.choice(accused) if repeat else rng.choice(anything)
                accused.append(wrong)
                body = {"by": detectives.pop(), "suspects": card_names(wrong), "correct": False}
                log.append({"accuse": body})
        if last:
            break
        shown = rng.random() < reveal_won
        log.append({"won": {"by": eyewitness, **({"card": card_names(secret)} if shown else {})}})
        gone.add(secret)
    document = {"game": "three-of-a-crime", "players": seats, "me": seats[0], "events": log}
    return document, truths
