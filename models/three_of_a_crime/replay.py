"""Replay in one pass: the posterior after every event, reading the log once (linear time).

The reader calls back after each event; the secrets' card masks are narrowed by the facts that
event added (never recomputed from the start), and a count is reused whenever the masks and the
rounds are the same as at an earlier event (a wrong accusation of a card already ruled out changes
nothing). So a log of n events costs n small steps plus one exact count per distinct state."""

from __future__ import annotations

from dataclasses import dataclass

from models.three_of_a_crime.counter import ALL, Posterior, apply_fact, posterior_of
from models.three_of_a_crime.log import Log, _Reader, parse, solving_secret
from solver.logfile import Document


@dataclass
class Step:
    """What was known after one event (event 0: before any)."""

    event: int
    round: int  # 1-based number of the current round
    eyewitnesses: list[str | None]  # of the current round's secrets (two in the variation)
    solving: int  # position, among those, of the secret being solved
    posterior: Posterior  # of the secret being solved, with the joint of the round's secrets


class Broken(Exception):
    """The log has no consistent world after event `event`."""

    def __init__(self, event: int):
        super().__init__(event)
        self.event = event


def replay_states(doc: Document) -> tuple[Log, list[Step]]:
    """The log and one Step per event (and one for the start); raises Broken at the first event
    after which no world is left."""
    masks: list[int] = []
    applied = 0
    cache: dict[tuple, Posterior] = {}
    steps: list[Step] = []

    shape: dict[tuple, tuple] = {}  # the rounds change shape only when one starts or ends

    def after(reader: _Reader, number: int) -> None:
        nonlocal applied, masks
        last = reader.rounds[-1]
        now = (len(reader.rounds), last.over, last.won_secret, len(last.secrets))
        if now not in shape:
            shape.clear()
            shape[now] = reader.world()
        rounds, draws = shape[now]
        masks = masks[: len(draws)] + [ALL] * (len(draws) - len(masks))
        for fact in reader.facts[applied:]:
            apply_fact(masks, fact)
        applied = len(reader.facts)
        current = rounds[-1]
        focus = list(current.secrets)
        solving = solving_secret(current, reader.me)
        key = (tuple(masks), tuple(draws), solving)
        if key not in cache:
            cache[key] = posterior_of(masks, draws, focus, solving)
        found = cache[key]
        if found.worlds == 0:
            raise Broken(number)
        steps.append(Step(number, len(rounds), current.eyewitnesses, focus.index(solving), found))

    start = parse(doc, upto=0, key=doc.events_key)  # a puzzle's `given`, as solve reads it
    after_start = _start_step(start)
    steps.append(after_start)
    log = parse(doc, key=doc.events_key, after_event=after)
    return log, steps


def _start_step(log: Log) -> Step:
    focus = log.focus
    found = posterior_of([ALL] * len(log.draws), log.draws, focus, log.solving)
    return Step(0, len(log.rounds), log.current.eyewitnesses, focus.index(log.solving), found)
