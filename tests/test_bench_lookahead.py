"""The head-to-head sums kept between sessions (bench/results/lookahead.jsonl) are the runs' own:
compacting a run's file keeps every (game, table, seed)'s exact sums, so its summary is unchanged."""

from __future__ import annotations

import random
import re
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bench.lookahead import RESULTS, compact, read_sums, sums_line
from solver.stats import Margins

KEYS = [("game-of-suspicion", "head-to-head-3"), ("suspeicao", "head-to-head-4")]


@given(st.lists(st.tuples(st.sampled_from(KEYS), st.integers(1, 3), st.integers(-30, 30))))
def test_compacting_keeps_every_seeds_sums(tmp_path_factory, rounds):
    path = tmp_path_factory.mktemp("runs") / "duel.jsonl"
    lines = []
    for (game, policy), seed, thirds in rounds:
        lines.append(sums_line(game, policy, seed, Margins.of(Fraction(thirds, 3))))
    random.Random(len(lines)).shuffle(lines)
    path.write_text("".join(lines), encoding="utf-8")
    before = read_sums(path, by_seed=True), read_sums(path)
    compact(path)
    assert (read_sums(path, by_seed=True), read_sums(path)) == before
    assert len(path.read_text(encoding="utf-8").splitlines()) == len(before[0])


def test_the_kept_runs_are_compact():
    kept = read_sums(RESULTS, by_seed=True)
    assert kept, "no head-to-head run is kept"
    assert len(RESULTS.read_text(encoding="utf-8").splitlines()) == len(kept)


ROOT = Path(__file__).resolve().parent.parent
KEPT_ROW = re.compile(
    r"^\| ((?:control|head-to-head)-\d) \(seeds? ([^)]*)\) \| ([\d,]+) \| ([^|]+) \| ([^|]+) to ([^|]+) \|",
    re.MULTILINE,
)


def _seeds(text: str) -> set[int]:
    """'92, 102, 112–117' -> {92, 102, 112, ..., 117}."""
    seeds: set[int] = set()
    for part in text.split(","):
        low, _, high = part.strip().partition("–")
        seeds.update(range(int(low), int(high or low) + 1))
    return seeds


def _number(text: str) -> float:
    return float(text.strip().replace("−", "-"))


@pytest.mark.parametrize("game", ["game-of-suspicion", "suspeicao"])
def test_the_docs_tables_are_the_kept_runs(game):
    """Every head-to-head row a game's doc prints is the kept sums, to the digit shown, and
    names exactly the seeds kept: a fold that forgets the docs fails here."""
    doc = (ROOT / "docs" / f"{game}.md").read_text(encoding="utf-8")
    rows = KEPT_ROW.findall(doc)
    sums = read_sums(RESULTS)
    by_seed = read_sums(RESULTS, by_seed=True)
    assert {policy for policy, *_ in rows} == {p for g, p in sums if g == game}
    for policy, seeds, rounds, mean, low, high in rows:
        kept = sums[(game, policy)]
        assert _seeds(seeds) == {s for g, p, s in by_seed if (g, p) == (game, policy)}
        assert int(rounds.replace(",", "")) == kept.games
        for shown, exact in zip((mean, low, high), kept.interval(), strict=True):
            assert _number(shown) == round(exact, 3), (policy, shown, exact)
