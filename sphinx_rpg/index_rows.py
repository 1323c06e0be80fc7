"""A node index page patched from the last build's copy when only a few of its rows changed.

Renaming, moving or deleting a node changes one row (once per type in ``node-types``) of pages that
list every node; rendering them whole through the theme costs more than the rest of such a rebuild
over plain Sphinx.  The rows are still the theme's: each changed row is rendered by the page's own
template, from a page that holds only that row's group and that row, and the difference between that
page and the same page without the row is the row's markup.  Nothing of the theme's markup is
assumed; the old page is patched only when

* it was rendered from the last build's entries with the same context (its fingerprint says so),
* the groups are the same and each changed group keeps an unchanged neighbour of its changed rows,
* every row's markup is one contiguous insertion found at the same offset, and the same in
  second place as in first (no numbered or alternating rows), and
* the old rows' markup, rendered now, is found in the old page exactly where it must stand.

Otherwise the page is rendered whole, as before.  A difference found by comparing two texts starts
where they first differ, which may be a few characters into the row (when the text after the rows
begins like a row): every fragment is then shifted by the same amount, which the checks above
require, and splicing shifted fragments in between shifted neighbours gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

#: An index's content as the template takes it: (group, entries) pairs.
Content = Sequence[tuple[str, Sequence[Any]]]
#: The page's template rendered with other entries and otherwise the same context.
Render = Callable[[Content], str]

#: More changed rows than this in one group: the page is rendered whole (a patch is for small edits).
MAX_CHANGED_ROWS = 16


def _common_prefix(first: str, second: str) -> int:
    """The length of the two texts' common beginning (by halving: slices compare in C)."""
    low, high = 0, min(len(first), len(second))
    while low < high:
        middle = (low + high + 1) // 2
        if first[low:middle] == second[low:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _fragment(empty: str, with_row: str) -> tuple[int, str] | None:
    """Where and what ``with_row`` inserts into ``empty``, if it is one insertion."""
    added = len(with_row) - len(empty)
    if added <= 0:
        return None
    start = _common_prefix(empty, with_row)
    if with_row[start + added:] != empty[start:]:
        return None
    return start, with_row[start:start + added]


class _Rows:
    """Row markup of one group, rendered on demand and checked to share one offset."""

    def __init__(self, render: Render, group: str) -> None:
        self.render, self.group = render, group
        self.empty = render([(group, [])])
        self.offset: int | None = None

    def markup(self, entry: Any) -> str | None:
        found = _fragment(self.empty, self.render([(self.group, [entry])]))
        if found is None:
            return None
        offset, text = found
        if self.offset is None:
            self.offset = offset
        return text if offset == self.offset else None

    def in_any_place(self, first: Any, second: Any) -> bool:
        """Whether two rows rendered together are the two rows rendered alone, one after the other:
        a row whose markup depends on its place (a number, alternate colours) cannot be patched in."""
        one, two = self.markup(first), self.markup(second)
        if one is None or two is None or self.offset is None:
            return False
        both = self.render([(self.group, [first, second])])
        return both == self.empty[:self.offset] + one + two + self.empty[self.offset:]


def _occurrence(page: str, text: str, ordinal: int, expected: int) -> int | None:
    """The start of the ``ordinal``-th of exactly ``expected`` occurrences of ``text`` in ``page``."""
    if page.count(text) != expected:
        return None
    at = -1
    for _ in range(ordinal + 1):
        at = page.find(text, at + 1)
    return at


def patch(page: str, old: Content, new: Content, render: Render,
          also: Sequence[tuple[int, int, str]] = ()) -> str | None:
    """``page`` (rendered from ``old``) as ``new`` renders it, or None when that cannot be shown safely.

    The fingerprint tag is the caller's: ``page`` must already be known to come from ``old``; ``also``
    are more edits (start, end, text) the caller makes outside the rows (the tag), put in the same copy.
    """
    if [group for group, _ in old] != [group for group, _ in new]:
        return None
    # which groups hold an entry (its row stands once in each, in the groups' order), looked up for
    # the few entries a patch places: a set of every group's entries was megabytes more at the
    # build's end, when the process holds most, and more objects for the garbage collector to count
    placed: dict[Any, list[int]] = {}

    def holders(entry: Any) -> list[int]:
        numbers = placed.get(entry)
        if numbers is None:
            numbers = placed[entry] = [number for number, (_, entries) in enumerate(old) if entry in entries]
        return numbers

    edits: list[tuple[int, int, str]] = list(also)
    for number, ((group, before), (_, after)) in enumerate(zip(old, new, strict=True)):
        if list(before) == list(after):
            continue
        found = _group_edits(page, group, number, list(before), list(after), render, holders)
        if found is None:
            return None
        edits += found
    edits.sort(key=lambda edit: (edit[0], edit[1]))
    parts, last = [], 0
    for start, end, text in edits:
        if start < last:  # two edits overlap: the rows were not where they must stand
            return None
        parts += [page[last:start], text]
        last = end
    parts.append(page[last:])
    return "".join(parts)


def _group_edits(page: str, group: str, number: int, before: list[Any], after: list[Any], render: Render,
                 holders: Callable[[Any], list[int]]) -> list[tuple[int, int, str]] | None:
    """The edits of one group's rows in ``page``: each row that went cut where it stands, each run of
    rows that came put after the unchanged row they follow (or before the one they precede)."""
    if len(set(before)) != len(before) or len(set(after)) != len(after):
        return None  # a row twice in one group: its place cannot be told by its markup
    kept = set(before) & set(after)
    gone = [entry for entry in before if entry not in kept]
    if len(gone) > MAX_CHANGED_ROWS or len(after) - len(kept) > MAX_CHANGED_ROWS:
        return None
    if [entry for entry in before if entry in kept] != [entry for entry in after if entry in kept]:
        return None  # the unchanged rows changed order: not an edit of a few rows
    rows = _Rows(render, group)
    if not before or not after or not rows.in_any_place(before[0], after[-1]):
        return None

    def located(entry: Any) -> tuple[int, str] | None:
        markup = rows.markup(entry)
        if markup is None:
            return None
        groups = holders(entry)
        at = _occurrence(page, markup, groups.index(number), len(groups))
        return None if at is None else (at, markup)

    edits = []
    for entry in gone:
        place = located(entry)
        if place is None:
            return None
        edits.append((place[0], place[0] + len(place[1]), ""))
    runs: list[tuple[Any, Any, list[Any]]] = []  # (unchanged row before, unchanged row after, new rows)
    previous: Any = None
    for entry in after:
        if entry in kept:
            if runs and runs[-1][1] is None:
                runs[-1] = (runs[-1][0], entry, runs[-1][2])
            previous = entry
        elif runs and runs[-1][1] is None:
            runs[-1][2].append(entry)
        else:
            runs.append((previous, None, [entry]))
    for follows, precedes, came in runs:
        markup = [rows.markup(entry) for entry in came]
        if None in markup:
            return None
        text = "".join(m for m in markup if m is not None)
        if follows is not None:
            place = located(follows)
            if place is None:
                return None
            at = place[0] + len(place[1])
        elif precedes is not None:
            place = located(precedes)
            if place is None:
                return None
            at = place[0]
        else:  # no unchanged row to stand by
            return None
        edits.append((at, at, text))
    return edits
