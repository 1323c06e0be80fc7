"""The exact line of a role in its page, for warnings.

docutils hands a role the line of its paragraph's *first* line, so a bad reference on the fourth line
of a paragraph would be reported three lines too high.  The role's raw text is looked up in the
source, from that line on (the n-th use of the same text in one paragraph finds the n-th match); when
the text cannot be found (a page rewritten by an extension), the paragraph's line is kept.
"""

from __future__ import annotations

import os
from functools import lru_cache
from typing import Any

#: How far below its paragraph's first line a role is looked for.
MAX_PARAGRAPH_LINES = 500


@lru_cache(maxsize=64)
def _lines(path: str, _stamp: int) -> tuple[str, ...]:
    try:
        with open(path, encoding="utf-8") as handle:
            return tuple(handle.read().splitlines())
    except (OSError, UnicodeDecodeError):
        return ()


def _source_lines(path: str) -> tuple[str, ...]:
    try:
        stamp = os.stat(path).st_mtime_ns
    except OSError:
        return ()
    return _lines(path, stamp)


def find_line(lines: tuple[str, ...], start: int, needle: str, occurrence: int = 1) -> int | None:
    """The 1-based line at or after ``start`` holding the ``occurrence``-th ``needle``, or None."""
    seen = 0
    for index in range(max(start - 1, 0), min(len(lines), start - 1 + MAX_PARAGRAPH_LINES)):
        seen += lines[index].count(needle)
        if seen >= occurrence:
            return index + 1
    return None


def role_source_line(role: Any, source: str, line: int) -> tuple[str, int]:
    """``(source, line)`` of the line that holds ``role`` (a ``SphinxRole``); docutils said ``line``."""
    needle = role.rawtext.split("\n", 1)[0].strip()
    if not source or not line or not needle:
        return source, line
    seen = role.env.temp_data.setdefault("rpg_role_occurrences", {})
    key = (source, line, needle)
    seen[key] = seen.get(key, 0) + 1
    # the file is read (and stat'ed) once per page, not once per role
    files: dict[str, tuple[str, ...]] = role.env.temp_data.setdefault("rpg_source_lines", {})
    lines = files.get(source)
    if lines is None:
        lines = files[source] = _source_lines(source)
    found = find_line(lines, line, needle, seen[key])
    return source, (found or line)


class LocatedRole:
    """Mixin for a ``SphinxRole``: its source info (so its warnings and nodes) names the role's own line."""

    _located: tuple[str, int] | None = None

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self._located = None
        return super().__call__(*args, **kwargs)  # type: ignore[misc]

    def get_source_info(self, lineno: int | None = None) -> tuple[str, int]:
        base: tuple[str, int] = super().get_source_info(lineno)  # type: ignore[misc]
        if lineno is not None:
            return base
        if self._located is None:
            self._located = role_source_line(self, *base)
        return self._located
