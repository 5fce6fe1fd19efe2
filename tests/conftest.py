"""Shared test setup: Hypothesis profiles and a helper that wraps a dict as a parsed log file.

Profiles: `default` (40 examples, no deadline) is loaded unless HYPOTHESIS_PROFILE names another;
`HYPOTHESIS_PROFILE=long` runs 500 examples per property (used with `-m long` soak runs).
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import settings

from solver.logfile import Document

settings.register_profile("default", max_examples=40, deadline=None)
settings.register_profile("long", max_examples=500, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def as_document(data: dict[str, Any], path: str = "<test>") -> Document:
    """A Document for `data`, as if it had been read from a file (no source lines)."""
    return Document(data=data, path=path)


@pytest.fixture(scope="session")
def make_document():
    """The `as_document` helper as a fixture (session-scoped, so Hypothesis tests may use it)."""
    return as_document


@pytest.fixture(scope="module")
def cluster():
    """A real 2-worker Dask LocalCluster (one process per worker), for the batch tests."""
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as started:
        yield started
