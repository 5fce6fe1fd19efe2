"""Errors a user can cause, each carrying the exit status and a one-line message."""

from __future__ import annotations

QUOTE_LIMIT = 40  # characters of a value an error message quotes (a name, a field's value)
MESSAGE_LIMIT = 1000  # characters of a whole message: still one line a player can read


def quoted(value: object, limit: int = QUOTE_LIMIT) -> str:
    """A value as every error message quotes it: its repr, cut short (a 5 MB name is quoted in
    a few words, and the message stays one readable line)."""
    if isinstance(value, str) and len(value) > 4 * limit:  # repr of the part that is shown
        value = value[: 4 * limit]
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def cut(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """`text` cut to `limit` characters, the cut marked with "…"."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


class SleuthError(Exception):
    """Base of every error shown to the user as one line (never a traceback)."""

    exit_code = 2

    def to_json(self) -> dict:
        return {"error": str(self), "exit_code": self.exit_code}


class InputError(SleuthError):
    """Bad input: a malformed log or puzzle, an unknown name, an impossible event (exit 2)."""

    def __init__(self, message: str, *, event: int | None = None, line: int | None = None):
        self.message = cut(message)
        self.event = event
        self.line = line
        where = []
        if event is not None:
            where.append(f"event {event}")
        if line is not None:
            where.append(f"line {line}")
        prefix = f"{' '.join(where)}: " if where else ""
        super().__init__(prefix + self.message)

    def to_json(self) -> dict:
        return {**super().to_json(), "event": self.event, "line": self.line}


class Contradiction(SleuthError):
    """The events cannot all be true together (exit 1); `events` names a minimal conflicting set."""

    exit_code = 1

    def __init__(self, events: list[int], label: str = "events", detail: str = ""):
        self.events = list(events)
        self.detail = detail
        names = ", ".join(str(e) for e in self.events[:-1])
        listed = f"{names} and {self.events[-1]}" if len(self.events) > 1 else str(self.events[0])
        if len(self.events) == 1:
            text = f"{label[:-1]} {listed} is impossible"
        else:
            text = f"{label} {listed} cannot all be true"
        super().__init__(text + (f" ({detail})" if detail else ""))

    def to_json(self) -> dict:
        return {**super().to_json(), "conflicting_events": self.events}


class InternalError(SleuthError):
    """A bug in Sleuth met at run time, shown as one line rather than a traceback: the command
    line's last resort, never a substitute for a clear message about the input. Its own exit
    status (3), so that a script never takes a crash for an answer (1: contradictory / not
    unique) or for bad input (2)."""

    exit_code = 3

    def __init__(self, error: BaseException):
        detail = " ".join(str(error).split())
        detail = detail if len(detail) <= 200 else detail[:200] + "…"
        super().__init__(
            f"internal error: {type(error).__name__}: {detail} (a bug in Sleuth: please report "
            "it with the input; --debug or SLEUTH_DEBUG=1 shows the traceback)"
        )
