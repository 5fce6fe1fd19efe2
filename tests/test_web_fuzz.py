"""Fuzzing `sleuth serve` over HTTP (issue 30): random requests to every route of a real server
on 127.0.0.1, with random names, numbers and bodies (forms, multipart bodies with odd
boundaries, bytes), over a folder that holds logs and puzzles of every game and files that are
not logs (broken YAML, bytes, an empty file, a list, a FIFO, a symlink loop).

Whatever is asked:
- the answer is never a 5xx (a user's error is a 4xx page, a bug is a 500);
- the server's log never shows a traceback;
- a request refused (4xx) changes nothing on disk, except that a refused event is kept, as
  designed, as one more `rejected:` entry of the log it was typed in.

The run is bounded in count and in time: `make test` sends a short run, `make test-long`
(`-m long`) a long one. The requests go only to the server this test starts on 127.0.0.1.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest
import yaml
from fuzzing import DECKS, EXAMPLES, TEXTS
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 60  # seconds one request may take (a patient /solve on a busy machine)

# the logs and puzzles served: one of each kind per game, cut short as tests/fuzzing.py cuts them
SERVED = [p for p in EXAMPLES if p.name in ("multi-round.yaml", "puzzle-easy.yaml")] + [
    p
    for p in EXAMPLES
    if p.parent.name != "three-of-a-crime" and p.name in ("worked-check.yaml", "round-3p.yaml")
]
NOT_LOGS = {
    "broken.yaml": b"game: [three-of-a-crime\n",
    "bytes.yaml": b"\xff\xfe\x00\x01",
    "empty.yaml": b"",
    "list.yaml": b"- 1\n- 2\n",
    "surrogate.yaml": b'game: three-of-a-crime\nplayers: ["\\ud800", Ben]\nevents: []\n',
    "nul-deck.yaml": b'game: six-suspects\ndeck: "a\\0b.yaml"\nevents: []\n',
}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """`sleuth serve` on a free port of 127.0.0.1, its folder and its log (stderr)."""
    folder = tmp_path_factory.mktemp("served")
    for path in SERVED:
        (folder / f"{path.parent.name}-{path.name}").write_text(TEXTS[path], encoding="utf-8")
    for name, content in NOT_LOGS.items():
        (folder / name).write_bytes(content)
    shutil.copy(DECKS["game-of-suspicion"], folder / "deck.yaml")
    os.mkfifo(folder / "fifo.yaml")
    (folder / "sub").mkdir()
    (folder / "sub" / "up").symlink_to("..")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    log = tmp_path_factory.mktemp("server") / "server.log"
    with log.open("wb") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-m", "cli.app", "serve", str(folder), "--port", str(port)],
            stderr=stderr,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
            cwd=ROOT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):  # listening: the front page itself is a request under test
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise AssertionError(f"the server did not start: {log.read_text()[-2000:]}")
        yield url, folder, log
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:  # a worker thread still counting: stopped anyway
            process.kill()
            process.wait(timeout=20)


# -- what a request is made of ------------------------------------------------------------------

ROUTES = ["log", "event", "tap", "undo", "solve", "suggest", "explain", "puzzle", "check"]
POSTED = ("event", "tap", "undo")  # the routes of a log that take a POST
NAMES = [
    *(f"{p.parent.name}-{p.name}" for p in SERVED),
    *NOT_LOGS,
    "fifo.yaml",
    "deck.yaml",
    "sub/up/sub/up/empty.yaml",
    "missing.yaml",
    "../outside.yaml",
    ".hidden.yaml",
    "a" * 300 + ".yaml",
    "x\x00y.yaml",
    "x\udcff.yaml",
    "é/ü.yaml",
    "notes.txt",
]
NUMBERS = ["", "0", "1", "3", "-1", "²", "٣", "1" * 5000, "99999999999999999999", "1.5", "x"]
TEXT = st.text(max_size=40)
VALUES = st.one_of(st.sampled_from(NUMBERS), TEXT, st.sampled_from(NAMES))
FIELDS = {
    "line": st.one_of(
        st.sampled_from(
            [
                "card KC PT NNN 1",
                "look A1 diamond",
                "deal 0 1 5 7",
                "play Ben 9 target Cleo revealed 13",
                "undo",
                "",
            ]
        ),
        TEXT,
    ),
    "form": st.sampled_from(NUMBERS),
    "game": st.sampled_from(["three", "six", "game-of-suspicion", "suspeicao", "", "chess", "²"]),
    "players": st.sampled_from(["Ana Ben Cleo", "Ana", "", "Ana Ana", "\x00"]) | TEXT,
    "me": st.sampled_from(["Ana", "Zed", ""]) | TEXT,
    "name": st.sampled_from(NAMES) | TEXT,
    "options": st.sampled_from(
        ["", "advanced: true", "deck: deck.yaml", "deck: /dev/zero", "deck: fifo.yaml", "{"]
    )
    | TEXT,
    "action": st.sampled_from(["check", "save", "generate", "", "x"]),
    "text": st.one_of(
        st.sampled_from(
            [TEXTS[p] for p in SERVED] + [c.decode(errors="replace") for c in NOT_LOGS.values()]
        ),
        TEXT,
    ),
    "save_as": st.sampled_from(NAMES) | TEXT,
    "count": st.sampled_from(NUMBERS),
    "seed": st.sampled_from(NUMBERS),
    "difficulty": st.sampled_from(NUMBERS),
    "visible": st.sampled_from(NUMBERS),
    "S1": VALUES,
    "slot": VALUES,
}


@st.composite
def bodies(draw: st.DrawFn, needed: tuple[str, ...] = ()) -> tuple[dict[str, str], bytes | None]:
    """Headers and a body: a form (with the `needed` fields and others), a multipart form (an
    odd boundary at times), or bytes."""
    kind = draw(st.sampled_from(["form", "form", "multipart", "bytes", "none"]))
    if kind == "none":
        return {}, None
    if kind == "bytes":
        content_type = draw(
            st.sampled_from(
                [
                    "application/x-www-form-urlencoded",
                    "multipart/form-data; boundary=",
                    'multipart/form-data; boundary=""',
                    "multipart/form-data; boundary=x",
                    "multipart/form-data",
                    "text/plain",
                ]
            )
        )
        body = draw(st.binary(max_size=200) | st.sampled_from([b"x\r\n\r\n", b"--x\r\n", b"--"]))
        return {"content-type": content_type}, body
    chosen = [*needed, *draw(st.lists(st.sampled_from(sorted(FIELDS)), max_size=5, unique=True))]
    form = {field: draw(FIELDS[field]) for field in dict.fromkeys(chosen)}
    if kind == "form":  # encoded here: a value may hold bytes that are not UTF-8
        encoded = "&".join(
            f"{quote(k)}={quote(v, errors='surrogateescape')}" for k, v in form.items()
        )
        return {"content-type": "application/x-www-form-urlencoded"}, encoded.encode()
    boundary = draw(st.sampled_from(["sleuthfuzz", "x", "-"]))
    parts = b"".join(
        f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n'.encode()
        + v.encode("utf-8", errors="surrogateescape")
        + b"\r\n"
        for k, v in form.items()
    )
    if draw(st.booleans()):  # a file upload, of any bytes
        parts += (
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
            'filename="up.yaml"\r\n\r\n'
        ).encode() + draw(st.sampled_from([TEXTS[SERVED[1]].encode(), b"\xff\xfe", b""]))
        parts += b"\r\n"
    ending = draw(st.sampled_from([f"--{boundary}--\r\n".encode(), b"", b"--"]))
    return {"content-type": f"multipart/form-data; boundary={boundary}"}, parts + ending


@st.composite
def requests(draw: st.DrawFn) -> tuple[str, str, dict[str, str], bytes | None]:
    """One request: its method, its path and query, its headers and its body."""
    route = draw(st.sampled_from([*ROUTES, *ROUTES, "", "new", "puzzles", "generating", "x"]))
    served = [f"{p.parent.name}-{p.name}" for p in SERVED]  # most requests reach a real file
    name = draw(st.sampled_from(served) | st.sampled_from(served) | st.sampled_from(NAMES) | TEXT)
    if route in ROUTES:
        path = f"/{route}/{quote(name, safe='/', errors='surrogateescape')}"
    elif route == "generating":
        path = f"/generating/{quote(draw(st.sampled_from(NUMBERS)))}"
    else:
        path = f"/{route}"
    query = draw(
        st.sampled_from(["", "upto", "fact", "token"]).map(lambda key: f"?{key}=" if key else "")
    )
    if query:
        path += query + quote(draw(st.sampled_from(NUMBERS) | TEXT), errors="surrogateescape")
    post = route in (*POSTED, "new") or (route == "puzzles" and draw(st.booleans()))
    method = "POST" if post else draw(st.sampled_from(["GET"] * 6 + ["POST", "HEAD", "PUT"]))
    needed = {"event": ("line",), "tap": ("form",), "new": ("game", "players", "name")}
    headers, body = draw(bodies(needed.get(route, ()))) if method == "POST" else ({}, None)
    return method, path, headers, body


# -- what must hold ------------------------------------------------------------------------------


def on_disk(folder: Path) -> dict[str, bytes]:
    """Every regular file under `folder` and its bytes (a FIFO is never opened)."""
    found = {}
    for where, _, names in os.walk(folder):  # symlinks to folders (the loop) are not followed
        for name in names:
            path = Path(where, name)
            if path.is_file() and not path.is_symlink():  # a FIFO is not a file
                found[str(path.relative_to(folder))] = path.read_bytes()
    return dict(sorted(found.items()))


def only_a_kept_refusal(before: bytes, after: bytes) -> bool:
    """Whether a log changed only by one more `rejected:` entry (a refused event, kept)."""
    old, new = yaml.safe_load(before), yaml.safe_load(after)
    if not (isinstance(old, dict) and isinstance(new, dict)):
        return False
    kept_before, kept_after = old.pop("rejected", []), new.pop("rejected", [])
    return (
        old == new
        and kept_after[: len(kept_before)] == kept_before
        and (len(kept_after) == len(kept_before) + 1)
    )


def check_request(server, request, budget: dict) -> None:
    url, folder, log = server
    if time.monotonic() > budget["until"]:
        return  # the run's time is spent: the remaining examples send nothing
    method, path, headers, body = request
    before = on_disk(folder)
    said = log.stat().st_size
    try:
        answer = httpx.request(method, url + path, headers=headers, content=body, timeout=TIMEOUT)
    except httpx.TimeoutException:
        raise AssertionError(f"no answer in {TIMEOUT} s: {method} {path[:200]}") from None
    budget["sent"] += 1
    where = f"{method} {path[:200]} {headers} {str(body)[:300]!r}"
    assert answer.status_code < 500, (where, answer.status_code, answer.text[:500])
    with log.open("rb") as text:
        text.seek(said)
        logged = text.read().decode("utf-8", errors="replace")
    assert "Traceback" not in logged, (where, logged[-3000:])
    if 400 <= answer.status_code < 500:
        after = on_disk(folder)
        changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
        for name in changed:
            assert name in before and name in after, (where, "file made or lost", name)
            assert only_a_kept_refusal(before[name], after[name]), (where, "changed", name)
            assert re.search(re.escape(quote(name)), path), (where, "another log changed", name)


def fuzz(examples: int, seconds: float):
    @settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.function_scoped_fixture,
        ],
        database=None,  # the server's folder changes as it runs: a stored example may not fail
        phases=[Phase.generate],  # no shrinking: each try is a request that may take a minute
    )
    @given(request=requests())
    def run(server, request, budget) -> None:
        check_request(server, request, budget)

    def test(server):
        budget = {"until": time.monotonic() + seconds, "sent": 0}
        run(server, budget=budget)
        assert budget["sent"] >= min(examples, 20), budget  # it did send requests

    return test


test_random_requests_to_every_route_never_break_the_server = fuzz(120, 90)
test_many_random_requests_to_every_route_long = pytest.mark.long(fuzz(1500, 600))
