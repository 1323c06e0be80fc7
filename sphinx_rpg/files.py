"""Writing output files whole: a leaf that every module writing beside the pages shares."""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, Any


def write_atomically(path: Path, text: str | bytes) -> None:
    """Write a temporary file beside ``path``, then rename it over: a crash never leaves half a file.

    Bytes are written as they are (a page patched in place keeps its line endings)."""
    with replacing(Path(path), "wb" if isinstance(text, bytes) else "w") as stream:
        stream.write(text)


@contextlib.contextmanager
def replacing(path: Path, mode: str) -> Iterator[IO[Any]]:
    """For a file written piece by piece: a stream (``mode`` "w", UTF-8 text, or "wb") to a temporary
    file beside ``path``, synced and renamed over ``path`` when the block ends; removed, and ``path``
    untouched, when it raises."""
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent or ".")
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)  # mkstemp's 0600 would make the export private
        with os.fdopen(handle, mode, encoding=None if "b" in mode else "utf-8") as stream:
            yield stream
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


class _Unchanged(Exception):
    """Raised inside ``replacing`` to drop what was written: the file holds that text already."""


Part = str | bytes | memoryview


def write_parts_if_changed(path: Path, parts: Callable[[], Iterable[Part]], before: bytes | None = None) -> bool:
    """Write the text ``parts()`` yields (text, or bytes as they are) unless the file already holds it;
    True if written.

    For the big files made of every node's piece: the text is never held whole (nor the file's old
    text).  It goes to a temporary file beside ``path`` as it is made, its digest taken on the way;
    when the digest and size equal the file's (read in blocks), the temporary file is dropped and
    ``path`` is left as it was.  A caller that holds the file's bytes already gives them as ``before``:
    the new bytes are compared with them as they go, and nothing is hashed.  ``parts`` is called once."""
    if before is None and not path.exists():
        _write_parts(path, parts)
        return True
    digest, size, same = hashlib.sha256(), 0, True
    old = memoryview(before) if before is not None else None
    try:
        with replacing(path, "wb") as raw:
            for part in parts():
                data = _as_bytes(part)
                raw.write(data)
                if old is None:
                    digest.update(data)
                elif same:
                    same = old[size:size + len(data)] == data
                size += len(data)
            if (_holds(path, size, digest.digest()) if old is None else same and size == len(old)):
                raise _Unchanged
    except _Unchanged:
        return False
    return True


def _as_bytes(part: Part) -> bytes | memoryview:
    return part.encode("utf-8") if isinstance(part, str) else part


def _holds(path: Path, size: int, digest: bytes) -> bool:
    """Whether ``path`` has ``size`` bytes whose SHA-256 is ``digest``."""
    try:
        if path.stat().st_size != size:
            return False
        found = hashlib.sha256()
        with path.open("rb") as old:
            for block in iter(lambda: old.read(1 << 20), b""):
                found.update(block)
    except OSError:
        return False
    return found.digest() == digest


def _write_parts(path: Path, parts: Callable[[], Iterable[Part]]) -> None:
    with replacing(path, "wb") as raw:
        for part in parts():
            raw.write(_as_bytes(part))


def remove_matching(folder: str | os.PathLike[str], pattern: str) -> None:
    """Remove every file of ``folder`` that ``pattern`` matches (one per builder, say); a file already
    gone, or one that cannot be removed, is left to the next build."""
    for path in Path(folder).glob(pattern):
        with contextlib.suppress(OSError):
            path.unlink()


@contextlib.contextmanager
def held(lock: Path) -> Iterator[None]:
    """Hold an exclusive lock on the file ``lock`` (made if missing, removed after) for the ``with`` block.

    Two builds side by side (the site's two editions) that both need one costly cached result: the
    second waits here while the first works it out, then finds the result kept and reads it instead of
    working it out again.  The lock only saves work, it guards no file: whoever holds it looks for the
    result again before working it out, and results are written whole (``write_atomically``), so a
    process that locks the file just removed at worst repeats the work.  The system releases the lock
    if the holder dies.  Without ``fcntl`` (Windows) nothing is held: both work it out.
    """
    try:
        import fcntl
    except ImportError:
        yield
        return
    lock.parent.mkdir(parents=True, exist_ok=True)
    with lock.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            lock.unlink(missing_ok=True)  # before unlocking: nothing is left in the cache
            # unlocked here, not by closing: a child forked meanwhile (Sphinx's -j) shares the handle
            fcntl.flock(handle, fcntl.LOCK_UN)
