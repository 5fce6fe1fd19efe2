"""The one way Sleuth turns a name a user gave into a path, and reads a file a user named.

A name (a command-line argument, a `deck:` in a log, a name typed in `play` or in the web page)
is refused when no file could have it, before the system is asked: a NUL character, a part of
the path longer than MAX_NAME_BYTES, a whole path longer than MAX_PATH_BYTES, or bytes that are
not UTF-8 text (Sleuth's output, its JSON and its logs are UTF-8 and must name the file exactly).
A file is read only if it is a regular file (never a FIFO, which would wait for a writer
forever, nor a device such as /dev/zero, which never ends), and only up to MAX_FILE_BYTES.
Each refusal is one InputError saying what is wrong with the name or the file.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from solver.errors import InputError

# the largest log, puzzle or deck read (a 10,000-event log: ~1 MB)
MAX_FILE_BYTES = 16 * 1024 * 1024
MAX_NAME_BYTES = 255  # one part of a path: the limit of common file systems
MAX_PATH_BYTES = 4095  # a whole path (Linux's PATH_MAX less its NUL)
NAME_QUOTE_LIMIT = 60  # characters of a name an error quotes: its start and its end


def printable_name(name: str | os.PathLike[str]) -> str:
    """A name as UTF-8 text: each byte of it that is not UTF-8 written as `\\xff`."""
    text = os.fspath(name)
    try:
        data = os.fsencode(text)  # a byte that is not UTF-8 came in as a surrogate: back to it
    except UnicodeEncodeError:  # a lone surrogate that is no byte at all
        data = text.encode("utf-8", errors="backslashreplace")
    return data.decode("utf-8", errors="backslashreplace")


def shown_name(name: str | os.PathLike[str]) -> str:
    """A name as a message quotes it: printable (a control character such as NUL written as
    its escape), in quotes, cut short."""
    text = "".join(
        c if c.isprintable() else c.encode("unicode_escape").decode("ascii")
        for c in printable_name(name)
    )
    if len(text) <= NAME_QUOTE_LIMIT:
        return f"'{text}'"
    end = NAME_QUOTE_LIMIT * 2 // 3  # a file's own name is at the end of its path: kept
    return f"'{text[: NAME_QUOTE_LIMIT - end - 1]}…{text[-end:]}'"


def user_path(name: str | os.PathLike[str], what: str = "file") -> Path:
    """`name` as a Path, once it is a name a file can have; else an InputError saying why."""
    text = os.fspath(name)
    if "\x00" in text:
        raise InputError(f"the {what} name {shown_name(text)} holds a NUL character")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise InputError(
            f"the {what} name {shown_name(text)} is not UTF-8 text: rename the file"
        ) from None
    encoded = os.fsencode(text)
    if len(encoded) > MAX_PATH_BYTES:
        raise InputError(
            f"the {what} name {shown_name(text)} is too long ({len(encoded):,} bytes; a path "
            f"has at most {MAX_PATH_BYTES:,})"
        )
    longest = max(encoded.split(b"/"), key=len)
    if len(longest) > MAX_NAME_BYTES:
        raise InputError(
            f"the {what} name {shown_name(text)} is too long (a part of {len(longest):,} bytes; "
            f"a file or folder name has at most {MAX_NAME_BYTES})"
        )
    return Path(text)


def kind_of(mode: int) -> str:
    """What a file that is not a regular file is, in a player's words."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_bytes(path: str | os.PathLike[str], what: str, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of the regular file `path`, at most `limit` of them; `what` names it in the
    one-line error (a missing file, a pipe, a device, a folder, a file too large).

    The file is opened without waiting (O_NONBLOCK: opening a FIFO for reading would otherwise
    wait for a writer) and checked on the open descriptor, so that what is checked is what is
    read."""
    safe = user_path(path)
    try:
        fd = os.open(safe, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as error:
        raise InputError(f"cannot read {what}: {error.strerror}") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise InputError(f"cannot read {what}: it is {kind_of(mode)}, not a file")
    with os.fdopen(fd, "rb") as handle:
        try:
            data = handle.read(limit + 1)
        except OSError as error:
            raise InputError(f"cannot read {what}: {error.strerror}") from None
    if len(data) > limit:
        raise InputError(
            f"cannot read {what}: it is larger than {limit // (1024 * 1024)} MB, the largest "
            "file Sleuth reads"
        )
    return data


def read_text(path: str | os.PathLike[str], what: str, limit: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of the regular file `path` (as `read_bytes`); not UTF-8: an InputError."""
    data = read_bytes(path, what, limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"cannot read {what}: not UTF-8 text ({error.reason})") from None


def existing_kind(path: Path) -> str | None:
    """What is at `path` if it is there and is not a regular file (a folder, a pipe, a device),
    else None: a file Sleuth would write over must be a regular file."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    return None if stat.S_ISREG(mode) else kind_of(mode)
