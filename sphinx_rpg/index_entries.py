"""The node indices' entries, kept between builds beside the doctrees while no node changes.

Sphinx asks every domain index for its entries on every HTML build, before it writes the index
pages (which ``index_pages`` may then keep as they were).  The two node indices list every node, so
making their entries walks every record and renders every node's title: a tenth of a second at
5,000 nodes, on a rebuild after an edit of one paragraph.  Their entries depend only on the records
(line aside) and the ``env`` settings, so a build in which no node changed and no such setting
changed is given last build's entries from ``rpg-index-<builder>.marshal``.  Every build in which a
node changed removes that file for every builder before the environment is saved (builders that
share the doctrees share the environment), and a builder that makes the entries saves them again.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sphinx.domains import IndexEntry
from sphinx.environment import CONFIG_OK

from sphinx_rpg.files import remove_matching, write_atomically
from sphinx_rpg.version import __version__

#: Raised when the file's shape changes, so an older file is never read as this one.
KEPT_VERSION = 1
#: An index's content as Sphinx takes it: (group, entries) pairs.
Content = list[tuple[str, list[IndexEntry]]]


def kept_path(doctreedir: str | os.PathLike[str], builder: str) -> Path:
    return Path(doctreedir) / f"rpg-index-{builder}.marshal"


class KeptEntries:
    """One build's node index entries: last build's when they can be reused, else made and saved."""

    def __init__(self, doctreedir: str | os.PathLike[str], builder: str) -> None:
        self.path = kept_path(doctreedir, builder)
        #: the file as the last build left it, read when first needed or when a build that changed a
        #: node is about to remove it (``hold``): the index pages may still be patched from it
        self.raw: bytes | None = None
        self.read = False
        self.loaded: dict[str, Content] | None = None
        self.made: dict[str, Content] = {}
        #: the kept entries this build handed out (saved again beside made ones, when any were made)
        self.given: dict[str, Content] = {}

    def content(self, env: Any, index: str, unchanged: bool, make: Callable[[], Content],
                update: Callable[[Content], Content | None] | None = None) -> Content:
        """``index``'s entries: kept ones when no node changed (``unchanged``) and no setting did; else
        kept ones brought up to date by ``update`` (which may decline), else made from every node."""
        if env.config_status == CONFIG_OK:
            kept = self._kept().get(index)
            if kept is not None and unchanged:
                self.given[index] = kept
                return kept
            if kept is not None and update is not None:
                updated = update(kept)
                if updated is not None:
                    self.made[index] = updated
                    return updated
        content = self.made[index] = make()
        return content

    def _kept(self) -> dict[str, Content]:
        """The file's indices, their entries made once and shared (a node is in both node indices)."""
        if self.loaded is None:
            self.hold()
            self.loaded, raw, self.raw = {}, self.raw, None
            if raw is None:
                return self.loaded
            try:
                version, software, table, indices = marshal.loads(raw)
                if version != KEPT_VERSION or software != __version__:
                    return self.loaded
                entries = [IndexEntry._make(entry) for entry in table]
                self.loaded = {index: [(group, [entries[number] for number in numbers]) for group, numbers in groups]
                               for index, groups in indices.items()}
            except (EOFError, ValueError, TypeError, IndexError, AttributeError):
                self.loaded = {}
        return self.loaded

    def hold(self) -> None:
        """Read the file (once) if it is there."""
        if not self.read:
            self.read = True
            try:
                self.raw = self.path.read_bytes()
            except OSError:
                self.raw = None

    def previous(self, index: str) -> Content | None:
        """Last build's entries of ``index`` whether or not a node changed since (None if unknown):
        what last build's page shows, for ``index_rows`` to patch."""
        given = self.given.get(index)  # handed out to this build already (no node changed)
        return given if given is not None else self._kept().pop(index, None)  # asked once: not held after

    def save(self) -> None:
        """Write the entries made in this build (nothing when none was made): each entry once, and
        each index as its groups' entry numbers."""
        if not self.made:
            return
        numbers: dict[tuple[Any, ...], int] = {}
        indices = {index: [(group, [numbers.setdefault(tuple(entry), len(numbers)) for entry in entries])
                           for group, entries in content]
                   for index, content in {**self.given, **self.made}.items()}
        with contextlib.suppress(OSError, ValueError):  # ValueError: a value marshal cannot write
            write_atomically(self.path, marshal.dumps((KEPT_VERSION, __version__, list(numbers), indices)))


#: env -> this build's kept entries (set when the builder is made, for the indices, which see only the env).
_KEPT: weakref.WeakKeyDictionary[Any, KeptEntries] = weakref.WeakKeyDictionary()


def start(env: Any, builder: str) -> None:
    _KEPT[env] = KeptEntries(env.doctreedir, builder)


def index_content(env: Any, index: str, unchanged: bool, make: Callable[[], Content],
                  update: Callable[[Content], Content | None] | None = None) -> Content:
    """An index's entries for this build (made when no build is under way, as in a unit test)."""
    kept = _KEPT.get(env)
    return kept.content(env, index, unchanged, make, update) if kept is not None else make()


def previous_content(env: Any, index: str) -> Content | None:
    """Last build's entries of ``index`` (the domain index's ``name``), if this build read them."""
    kept = _KEPT.get(env)
    return kept.previous(index) if kept is not None else None


def finish(env: Any, succeeded: bool) -> None:
    """The build is over: save what it made, unless it failed."""
    kept = _KEPT.pop(env, None)
    if kept is not None and succeeded:
        kept.save()


def forget(doctreedir: str | os.PathLike[str], env: Any = None) -> None:
    """Every builder's kept entries go: a node changed.  This build's own are read first (``env``):
    its entries and node index pages start from them."""
    kept = _KEPT.get(env) if env is not None else None
    if kept is not None:
        kept.hold()
    remove_matching(doctreedir, kept_path("", "*").name)
