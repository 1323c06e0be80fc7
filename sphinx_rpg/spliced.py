"""Files made of one item per node, written again by copying the items that did not change.

``nodes.json`` and the previews hold an item for every node of the book.  A rebuild that changes one
node used to decode all 10,000 of the catalogue's pieces and join their text again, twice (about a
tenth of a second of every such rebuild), to write files that differ from the last ones in a few
items.  Here the file is written item by item, and an item that is still what last build wrote is
copied from last build's file as bytes.

Beside the doctrees, ``rpg-joined-<builder>.marshal`` records each such file's layout as written
(``Layout``): its size and time, the key of what its items are made from (the catalogue's), and each
item's identity (a digest of what the item is made from, all of one width) with where its bytes lie.
A file that changed since it was written, a layout under another key, a damaged or missing record:
every item is made again.
"""

from __future__ import annotations

import contextlib
import marshal
import os
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import NamedTuple

from sphinx_rpg.files import write_atomically, write_parts_if_changed

LAYOUT_VERSION = 1


class Layout(NamedTuple):
    """One file as written: its stamp, its items' key, and each item's identity and span."""

    size: int
    mtime_ns: int
    key: str
    #: each identity's width in bytes, and the identities one after the other
    width: int
    identities: bytes
    offsets: list[int]
    lengths: list[int]

    def indices(self) -> dict[bytes, int]:
        """identity -> its item's place in the file."""
        width, identities = self.width, self.identities
        return {identities[index * width:(index + 1) * width]: index for index in range(len(self.offsets))}


def layouts_path(doctreedir: str | os.PathLike[str], builder: str) -> Path:
    return Path(doctreedir) / f"rpg-joined-{builder}.marshal"


def load_layouts(path: Path) -> dict[str, Layout]:
    """The layouts last build recorded, by file name; none when the record is missing or damaged."""
    try:
        version, found = marshal.loads(path.read_bytes())
        if version != LAYOUT_VERSION or not isinstance(found, dict):
            return {}
        return {str(name): Layout(*fields) for name, fields in found.items()}
    except (OSError, EOFError, ValueError, TypeError):
        return {}


def save_layouts(path: Path, layouts: dict[str, Layout]) -> None:
    """Keep the layouts for the next build (a record that cannot be written: every item is made then)."""
    record = {name: tuple(layout) for name, layout in layouts.items()}
    with contextlib.suppress(OSError, ValueError):
        write_atomically(path, marshal.dumps((LAYOUT_VERSION, record)))


def write_items(path: Path, head: str, tail: str, key: str, identities: Sequence[bytes],
                make: Callable[[int], str], old: Layout | None) -> Layout | None:
    """Write ``path`` as ``head``, the items joined by commas, and ``tail`` (unless it holds that text
    already); item ``i`` is copied from last build's file when ``old`` describes that file as it is and
    holds ``identities[i]`` under ``key``, else it is ``make(i)``.  Items that follow each other in
    both files are copied as one run of bytes (a rebuild that changes one node copies a few runs, not
    10,000 items).  The file's new layout (None when it cannot be looked at afterwards)."""
    width = len(identities[0]) if identities else 0
    if any(len(identity) != width for identity in identities):
        raise ValueError("the identities of a file's items are all of one width")
    previous = _previous(path, key, width, old)
    runs = _runs(identities, previous[1].indices() if previous is not None else {})
    offsets: list[int] = []
    lengths: list[int] = []

    def parts() -> Iterator[bytes | memoryview]:
        offsets.clear()
        lengths.clear()
        at = len(start := head.encode("utf-8"))
        yield start
        for number, (first, stop, kept) in enumerate(runs):
            if number:
                at += 1
                yield b","
            if kept < 0:  # a new item
                data = make(first).encode("utf-8")
                offsets.append(at)
                lengths.append(len(data))
                at += len(data)
                yield data
                continue
            assert previous is not None
            data_file, layout = previous
            count = stop - first
            begin = layout.offsets[kept]
            end = layout.offsets[kept + count - 1] + layout.lengths[kept + count - 1]
            offsets.extend(offset - begin + at for offset in layout.offsets[kept:kept + count])
            lengths.extend(layout.lengths[kept:kept + count])
            at += end - begin
            yield memoryview(data_file)[begin:end]
        yield tail.encode("utf-8")

    write_parts_if_changed(path, parts, previous[0] if previous is not None else None)
    try:
        stat = path.stat()
    except OSError:
        return None
    return Layout(stat.st_size, stat.st_mtime_ns, key, width, b"".join(identities), offsets, lengths)


def _runs(identities: Sequence[bytes], kept: dict[bytes, int]) -> list[tuple[int, int, int]]:
    """The items as runs (first, stop: the item after the run, where the first lies in last build's
    file, or -1 for an item to make): a run is items that lie one after another there too."""
    runs: list[tuple[int, int, int]] = []
    first = end = at = -1
    for index, identity in enumerate(identities):
        found = kept.get(identity, -1)
        if found >= 0 and at >= 0 and found == at + (index - first):
            end = index + 1
            continue
        if first >= 0:
            runs.append((first, end, at))
        first, end, at = index, index + 1, found
        if found < 0:
            runs.append((first, end, -1))
            first = at = -1
    if first >= 0:
        runs.append((first, end, at))
    return runs


def _previous(path: Path, key: str, width: int, old: Layout | None) -> tuple[bytes, Layout] | None:
    """Last build's file and its layout, when ``old`` describes the file as it is, under ``key``."""
    if old is None or old.key != key or old.width != width:
        return None
    try:
        stat = path.stat()
        if (stat.st_size, stat.st_mtime_ns) != (old.size, old.mtime_ns):
            return None
        data = path.read_bytes()
    except OSError:
        return None
    if len(data) != old.size:
        return None
    return data, old
