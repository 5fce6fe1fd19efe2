"""Fuzzing the command line (issue 10 §5): mutations of every bundled example and deck, and YAML
built from scratch, through solve, suggest, replay and check, with and without --json.

Whatever the input, a command ends with exit status 0, 1 or 2 and never a traceback; a bad input
(exit 2) is one error line; with --json, stdout is exactly one JSON object. Commands run in
process (Typer's runner), so an exception other than a clean exit fails the test where it was
raised, and Hypothesis reports each distinct failure once.

`make test` runs a short profile (a few hundred commands); `make test-long` (HYPOTHESIS_PROFILE=long,
`-m long`) runs thousands.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import tempfile
from pathlib import Path

import pytest
from fuzzing import (
    Case,
    cases,
    deck_mutant,
    example_mutant,
    generated_document,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from cli.app import app

LONG = os.environ.get("HYPOTHESIS_PROFILE") == "long"
SLOW = 60  # seconds: one command taking longer fails (it would otherwise hang `make test`)
MEMORY = 6 << 30  # bytes of address space: a command that needs more fails with MemoryError

runner = CliRunner()


class TooSlow(BaseException):
    """Raised by the watchdog; a BaseException so that no `except Exception` in a game eats it."""


def run(case: Case):
    """Write the case's files to a fresh folder and run its command, under a watchdog."""

    def timeout(signum, frame):
        raise TooSlow

    with tempfile.TemporaryDirectory() as folder:
        args = case.write(Path(folder))
        previous = signal.signal(signal.SIGALRM, timeout)
        signal.setitimer(signal.ITIMER_REAL, SLOW)
        limits = resource.getrlimit(resource.RLIMIT_AS)
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, limits[1]))
        try:
            result = runner.invoke(app, args)
        except TooSlow:
            raise AssertionError(f"sleuth {' '.join(args)} ran over {SLOW} s") from None
        finally:
            resource.setrlimit(resource.RLIMIT_AS, limits)
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
    return args, result


def not_json(constant: str) -> None:
    raise AssertionError(f"{constant} is not JSON")


def check_outcome(case: Case) -> None:
    """The properties every command must keep, whatever its input."""
    args, result = run(case)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception  # re-raised from where it happened: one report per bug
    assert result.exit_code in (0, 1, 2), (args, result.exit_code, result.output)
    assert "Traceback" not in result.output, (args, result.output)
    if result.exit_code == 2:
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), (args, result.stderr)
    if "--json" in args:
        data = json.loads(result.stdout, parse_constant=not_json)  # one value, strict JSON
        assert isinstance(data, dict), (args, result.stdout)
        if result.exit_code == 2:
            assert data["exit_code"] == 2 and data["error"], (args, data)


def fuzz(strategy: st.SearchStrategy[Case], examples: int):
    """A test running `examples` cases drawn from `strategy`."""

    @settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(strategy)
    def test(case: Case) -> None:
        check_outcome(case)

    return test


test_example_mutants = fuzz(example_mutant(), 2000 if LONG else 200)
test_deck_mutants = fuzz(deck_mutant(), 600 if LONG else 80)
test_generated_documents = fuzz(generated_document(), 150)
test_every_kind_of_case_long = pytest.mark.long(fuzz(cases, 5000 if LONG else 500))
