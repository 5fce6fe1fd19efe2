"""Long counts in the background, one log at a time.

Some states take the engine seconds or minutes (a 4-player Game of Suspicion log without `me`,
a large Suspeição state). A request does its work (an event checked and saved, a page counted)
in a thread of its own and waits for it at most `wait` seconds; past that, the page answers
"counting" at once and refreshes itself until the work is done, so the server stays free for
other pages and a phone never times out.

Per log, the work runs one piece at a time in the order it came (two phones cannot add to one
stale copy of the log), and a page asked for while a count runs waits for that count instead of
queueing a second one: the report it leaves behind is remembered (see `create_app`'s `view`), so
a second tap never counts the same state twice.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import anyio.to_thread
from starlette.responses import Response

WAIT = 1.0  # seconds a request waits for its work before the page says "counting"


@dataclass
class Work:
    """One piece of work on a log: what it is (for the page), and, once done, its answer."""

    what: str
    queued: float = field(default_factory=time.monotonic)
    started: float | None = None
    finished: float | None = None
    done: threading.Event = field(default_factory=threading.Event)
    answer: Response | None = None
    late: bool = False  # the request stopped waiting: a refusal goes to the next page instead

    def seconds(self) -> float:
        start = self.started if self.started is not None else self.queued
        return (self.finished or time.monotonic()) - start


class Counts:
    """The work of every log: a lock, the queue, how long the last piece took, late refusals."""

    def __init__(self, wait: float = WAIT):
        self.wait = wait
        self.guard = threading.Lock()  # over the dicts below
        self.locks: dict[str, threading.Lock] = {}
        self.queues: dict[str, list[Work]] = {}
        self.last_seconds: dict[str, float] = {}
        self.late_answers: dict[str, Response] = {}

    def start(self, log: str, what: str, work: Callable[[], Response]) -> Work:
        """Queue `work` for `log` in a thread of its own."""
        piece = Work(what)
        with self.guard:
            lock = self.locks.setdefault(log, threading.Lock())
            self.queues.setdefault(log, []).append(piece)

        def run() -> None:
            with lock:
                piece.started = time.monotonic()
                try:
                    piece.answer = work()
                except Exception as error:  # noqa: BLE001 -- one line on the page, never a hang
                    piece.answer = Response(
                        f"internal error: {type(error).__name__}: {error}\n",
                        status_code=500,
                        media_type="text/plain",
                    )
                piece.finished = time.monotonic()
                with self.guard:
                    self.queues[log].remove(piece)
                    if piece.seconds() > self.wait:  # a long count: the estimate of the next
                        self.last_seconds[log] = piece.seconds()
                    if piece.late and piece.answer.status_code >= 400:
                        self.late_answers[log] = piece.answer
                piece.done.set()

        threading.Thread(target=run, name=f"sleuth {log}: {what}", daemon=True).start()
        return piece

    async def waited(self, piece: Work, own: bool = True) -> bool:
        """Whether `piece` is done within the wait. If not, and it is the request's `own` work
        (not another's it waits for), it is marked late: its refusal goes to the next page."""
        await anyio.to_thread.run_sync(piece.done.wait, self.wait)
        with self.guard:
            if not piece.done.is_set():
                piece.late = piece.late or own
                return False
        return True

    async def answer(
        self, log: str, what: str, work: Callable[[], Response], later: Callable[[], Response]
    ) -> Response:
        """`work`'s answer if it is done within the wait, else `later()`."""
        piece = self.start(log, what, work)
        if await self.waited(piece):
            assert piece.answer is not None
            return piece.answer
        return later()

    async def finished(self, piece: Work) -> Response:
        """`piece`'s answer, however long it takes."""
        await anyio.to_thread.run_sync(piece.done.wait)
        assert piece.answer is not None
        return piece.answer

    def busy(self, log: str) -> Work | None:
        """The last piece of work queued for `log`, if any is not done."""
        with self.guard:
            queue = self.queues.get(log, [])
            return queue[-1] if queue else None

    def queue(self, log: str) -> list[Work]:
        with self.guard:
            return list(self.queues.get(log, []))

    def late_answer(self, log: str) -> Response | None:
        """A refusal whose request had stopped waiting, given once to the next page."""
        with self.guard:
            return self.late_answers.pop(log, None)

    def expected(self, log: str) -> float | None:
        """How long the last long count of `log` took (an estimate for the next one)."""
        with self.guard:
            return self.last_seconds.get(log)
