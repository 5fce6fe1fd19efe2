"""The head-to-head sums kept between sessions (bench/results/lookahead.jsonl) are the runs' own:
compacting a run's file keeps every (game, table, seed)'s exact sums, so its summary is unchanged."""

from __future__ import annotations

import random
from fractions import Fraction

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
