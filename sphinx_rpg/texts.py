"""Each definition's body as written, kept beside the doctrees by its digest, not in the environment.

``nodes.json`` quotes every node's body as written, so that a later release can say in words what
changed (``changes``).  Kept in each record, those bodies were the largest part of the environment
(3 MB of a 10,000-node book's), loaded, held and pickled again by every build, although only the
entries of changed nodes are ever made from them.  A ``node:def`` notes its body in the domain by its
digest (``NodeDomain.note_text``; a parallel reader's notes are merged like the rest of its data); at
``env-updated``, before the environment is saved, this module moves them to ``rpg-texts.frames``
(a ``frames`` file: one frame per digest, the frames of bodies no definition has any more dropped, the
others copied as they lie) and ``text_of`` reads one back when an entry is made.

A build that finds a definition whose body the file lacks (the file deleted or damaged) reads that
page again (``env-get-outdated``), so an entry never silently goes without its text.
"""

from __future__ import annotations

import contextlib
import os
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

from sphinx_rpg.domain import NodeRecord, node_domain
from sphinx_rpg.frames import Frames, write_frames

TEXTS_VERSION = 1
_MAGIC = b"sphinx-rpg texts\n"

#: env -> the texts file opened for reading in this build (closed before it is replaced, and at the end).
_OPEN: weakref.WeakKeyDictionary[Any, Frames] = weakref.WeakKeyDictionary()


def texts_path(doctreedir: str | os.PathLike[str]) -> Path:
    return Path(doctreedir) / "rpg-texts.frames"


def _key(digest: str) -> bytes:
    return digest.encode("utf-8")


def _kept(env: BuildEnvironment) -> Frames:
    """The texts file, opened once until ``_close``: where each body lies is itself a table of every
    definition, so it is held only while bodies are read (``text_of``, as entries are made)."""
    found = _OPEN.get(env)
    if found is None:
        found = _OPEN[env] = Frames(texts_path(env.doctreedir), _MAGIC, TEXTS_VERSION)
    return found


def _close(env: BuildEnvironment) -> None:
    found = _OPEN.pop(env, None)
    if found is not None:
        found.close()


def text_of(env: BuildEnvironment, digest: str) -> str:
    """The body as written of the definition whose digest is ``digest`` ("" when it was too long to
    keep, or is not known)."""
    if not digest:
        return ""
    try:
        return _kept(env).value(_key(digest)).decode("utf-8")
    except (KeyError, OSError, UnicodeDecodeError):
        return ""


def _every_place(env: BuildEnvironment) -> Iterator[NodeRecord]:
    domain = node_domain(env)
    for uid in domain.definitions:
        yield from domain.places(uid)


def keep_texts(app: Sphinx, env: BuildEnvironment) -> None:
    """``env-updated``: the bodies this build read go to the texts file, which keeps the bodies of
    every definition (by digest) and nothing else; the environment keeps none."""
    new = node_domain(env).take_texts()
    wanted = {record.digest for record in _every_place(env) if record.digest}
    old = _kept(env)
    _OPEN.pop(env, None)
    kept = {key.decode("utf-8", "replace") for key in old.spans}
    if not new.keys() - kept and kept == wanted:
        old.close()
        return
    frames = ((_key(digest), new[digest].encode("utf-8") if digest in new else None)
              for digest in sorted(wanted) if digest in new or digest in kept)
    # OSError: the file stays as it was, and the next build reads again the pages whose bodies it
    # lacks (``pages_without_texts``)
    with contextlib.suppress(OSError):
        write_frames(texts_path(env.doctreedir), _MAGIC, TEXTS_VERSION, frames, old)
    old.close()


def pages_without_texts(app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str],
                        removed: set[str]) -> list[str]:
    """``env-get-outdated``: the pages of the definitions whose body the texts file lacks."""
    kept = _kept(env)
    missing = {record.docname for record in _every_place(env)
               if record.digest and _key(record.digest) not in kept}
    _close(env)
    return sorted(missing - removed - added - changed)


def close_texts(app: Sphinx, *_: Any) -> None:
    """``write-started``, once the entries of changed nodes are made, and ``build-finished``: the
    texts file is closed (a builder that makes entries later opens it again)."""
    _close(app.env)


def setup(app: Sphinx) -> None:
    app.connect("env-get-outdated", pages_without_texts)
    app.connect("env-updated", keep_texts)  # every reader's data is merged by then
    app.connect("write-started", close_texts, priority=950)  # after the catalogue saved its pieces (900)
    app.connect("build-finished", close_texts)
