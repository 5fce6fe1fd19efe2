"""Matching names typed by a user: case-insensitive, abbreviations, unique prefixes, "did you mean"."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from solver.errors import InputError, quoted


class NameSet:
    """A closed set of canonical names, with accepted abbreviations."""

    def __init__(
        self, kind: str, names: Iterable[str], abbreviations: dict[str, str] | None = None
    ):
        self.kind = kind
        self.names = list(names)
        self.abbreviations = {k.lower(): v for k, v in (abbreviations or {}).items()}
        self._lower = {n.lower(): n for n in self.names}

    def resolve(self, text: object) -> str:
        """The canonical name for `text`, or an InputError with a suggestion."""
        key = " ".join(str(text).split()).lower()
        if key in self._lower:
            return self._lower[key]
        if key in self.abbreviations:
            return self.abbreviations[key]
        prefixed = [n for n in self.names if n.lower().startswith(key)] if key else []
        if len(prefixed) == 1:
            return prefixed[0]
        if len(prefixed) > 1:
            raise InputError(f"{self.kind} {quoted(text)} is ambiguous: {', '.join(prefixed)}")
        raise InputError(f"unknown {self.kind} {quoted(text)}{self.suggestion(key)}")

    def suggestion(self, key: str) -> str:
        by_word = [n for n in self.names if any(w.startswith(key) for w in n.lower().split())]
        if key and len(by_word) == 1:
            return f"; did you mean {by_word[0]!r}?"
        options = {n.lower(): n for n in self.names} | self.abbreviations
        longest = max((len(option) for option in options), default=0)
        if len(key) > 2 * longest + 10:  # nothing is close to it, and difflib would take seconds
            return f"; expected one of: {', '.join(self.names)}"
        close = difflib.get_close_matches(key, list(options), n=1, cutoff=0.5)
        if close:
            return f"; did you mean {options[close[0]]!r}?"
        return f"; expected one of: {', '.join(self.names)}"

    def resolve_words(self, words: list[str], count: int) -> list[str]:
        """Split `words` into exactly `count` names, joining words of multi-word names greedily."""
        result: list[str] = []
        i = 0
        while i < len(words):
            for j in range(len(words), i, -1):
                phrase = " ".join(words[i:j]).lower()
                if phrase in self._lower or (j == i + 1):
                    result.append(self.resolve(" ".join(words[i:j])))
                    i = j
                    break
        if len(result) != count:
            raise InputError(f"expected {count} {self.kind}s, got {len(result)}: {' '.join(words)}")
        return result


def words_of(line: str) -> list[str]:
    """A typed line's words, split as a shell does ('Ben Cleo' "No Neck Nick" stay one word);
    an unbalanced quote is bad input, not a crash, and so is a word of digits that are not
    decimal ('²': `str.isdigit()` takes it, and a reader's `int()` would then fail)."""
    import shlex

    try:
        words = shlex.split(line)
    except ValueError as error:  # "No closing quotation", "No escaped character"
        raise InputError(
            f"cannot read {quoted(line)}: {str(error).lower()} (a quote or \\ too few)"
        ) from None
    for word in words:
        if word.isdigit() and not word.isdecimal():  # '²', '①': digits, but no number
            raise InputError(f"{quoted(word)} is not a number: type it with the digits 0 to 9")
    return words
