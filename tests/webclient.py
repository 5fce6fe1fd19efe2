"""The web app as the tests ask it what a page says."""

from __future__ import annotations

from pathlib import Path

from starlette.testclient import TestClient

from web.app import create_app


def client(root: Path, token: str | None = None) -> TestClient:
    """A client of the app serving `root`, waiting for each page's work however long it takes
    on a busy machine (the "counting" page, shown past a second, has tests of its own with
    short waits)."""
    return TestClient(create_app(root, token, wait=120), base_url="http://127.0.0.1:8765")
