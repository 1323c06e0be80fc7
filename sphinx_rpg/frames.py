"""Files of keyed frames kept between builds, read and copied a frame at a time.

The extension keeps per-node and per-page data beside the doctrees (the catalogue's pieces, the
pages' link counts).  Read whole, such a file sat in memory for the rest of the build (11 MB for
the pieces of 10,000 nodes) and its memory stayed with the process after it was freed, under every
page written later.  A frames file is read where it lies instead: opening it finds where each frame
is (its key and its length are all that is read), a frame's value is read when asked for, and a
new file copies the frames it keeps from the old one in runs of bytes, never decoding them.

Layout: ``magic`` and the format's mark (``_FORMAT``), the header's length (4 bytes) and the header
(marshal), where the table starts (8 bytes), then each frame: its key's length (2 bytes), the key,
its value's length (4 bytes), the value; last, the table, a frame with an empty key whose value is
every frame's key with where its frame starts, where its value starts and where it ends (a marshal
dict, which marshal makes in C as it reads it).  Opening a file reads its table in one go:
finding the frames one by one took a read and a seek per frame (70 ms for 10,000 pieces, on every
build).  A file whose table does not fit is read frame by frame, as far as it is whole.
"""

from __future__ import annotations

import io
import marshal
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from sphinx_rpg.files import replacing

#: The most bytes a run of kept frames is copied by at once.
_COPY_BLOCK = 1 << 20
#: After the magic: the layout's version (files of an older layout hold no frame for this one).
_FORMAT = b"frames 2\n"
#: A table of frames: key -> (where its frame starts, where its value starts, where it ends), in file order.
Table = dict[bytes, tuple[int, int, int]]


class Frames:
    """Last build's file: where each frame lies, and a frame's value on demand.  A file that is
    missing, written under another header, cut short or not such a file holds no frame."""

    def __init__(self, path: Path, magic: bytes, header: Any) -> None:
        #: key -> (where its frame starts, where its value starts, where it ends)
        self.spans: dict[bytes, tuple[int, int, int]] = {}
        #: where the first frame starts (after the header and the table's place); 0 for no frame
        self.first = 0
        self._file: IO[bytes] | None = None
        try:
            stream = path.open("rb")
        except OSError:
            return
        try:
            self.spans = _index(stream, magic, header)
            self.first = _first_frame(stream, magic) if self.spans else 0
        except (OSError, ValueError, EOFError, TypeError):
            self.spans = {}
        if self.spans:
            self._file = stream
        else:
            stream.close()

    def __contains__(self, key: bytes) -> bool:
        return key in self.spans

    def __len__(self) -> int:
        return len(self.spans)

    def value(self, key: bytes) -> bytes:
        """The value of the frame ``key`` (KeyError when the file has none); OSError when the file
        cannot be read."""
        _, start, end = self.spans[key]
        if self._file is None:
            raise OSError("the frames file is closed")
        self._file.seek(start)
        data = self._file.read(end - start)
        if len(data) != end - start:
            raise OSError("the frames file was cut short while read")
        return data

    def close(self) -> None:
        stream, self._file, self.spans = self._file, None, {}
        if stream is not None:
            stream.close()


def _index(stream: IO[bytes], magic: bytes, header: Any) -> Table:
    if _read_header(stream, magic) != header:
        return {}
    return _spans(stream)


def _first_frame(stream: IO[bytes], magic: bytes) -> int:
    """Where the first frame of the file ``stream`` reads starts."""
    stream.seek(len(magic) + len(_FORMAT))
    return len(magic) + len(_FORMAT) + 4 + int.from_bytes(_exactly(stream, 4), "big") + 8


def _spans(stream: IO[bytes], *, partial: bool = False) -> Table:
    """Where each frame of the file lies, ``stream`` just after its header: from its table, else frame
    by frame (ValueError where the file is damaged; with ``partial``, the frames before the damage)."""
    table_at = int.from_bytes(_exactly(stream, 8), "big")
    first = stream.tell()
    try:
        return _table(stream, table_at, first)
    except (ValueError, EOFError, TypeError):
        stream.seek(first)
    spans: Table = {}
    try:
        for key, start, end in _scan(stream):
            spans[key] = _span(key, start, end)
    except (ValueError, EOFError):
        if not partial:
            raise
    return spans


def _span(key: bytes, start: int, end: int) -> tuple[int, int, int]:
    """A frame's place in its table: where it starts, where its value starts (after the key and the
    two lengths), where it ends."""
    return start, start + 2 + len(key) + 4, end


def _table(stream: IO[bytes], table_at: int, first: int) -> Table:
    """The file's table, read at ``table_at``; ValueError when it is not there or does not fit the file."""
    end_of_file = stream.seek(0, 2)
    if not first <= table_at <= end_of_file - 6:
        raise ValueError("no table of frames")
    stream.seek(table_at)
    head = _exactly(stream, 6)
    size = int.from_bytes(head[2:], "big")
    if head[:2] != b"\0\0" or table_at + 6 + size != end_of_file:
        raise ValueError("no table of frames")
    table = marshal.loads(_exactly(stream, size))
    if not isinstance(table, dict) or (table and not first <= next(iter(table.values()))[0]
                                       <= next(reversed(table.values()))[2] <= table_at):
        raise ValueError("a table of frames that does not fit its file")
    return table


def _read_header(stream: IO[bytes], magic: bytes) -> Any:
    """The header of the frames file ``stream`` reads from its start (the stream left after it);
    ValueError when it is not such a file."""
    if stream.read(len(magic) + len(_FORMAT)) != magic + _FORMAT:
        raise ValueError("not a frames file")
    return marshal.loads(_exactly(stream, int.from_bytes(_exactly(stream, 4), "big")))


def _write_header(stream: IO[bytes], magic: bytes, header: Any) -> int:
    """Write the file's start; where its first frame goes (the table's place, 8 bytes, is left empty)."""
    head = marshal.dumps(header)
    start = magic + _FORMAT + len(head).to_bytes(4, "big") + head
    stream.write(start + bytes(8))
    return len(start) + 8


def _write_table(stream: IO[bytes], table: Table, table_at: int, first: int) -> None:
    """Write the table of frames at the end (``table_at``) and its place in the file's start."""
    _write_frame(stream, b"", marshal.dumps(table))
    stream.seek(first - 8)
    stream.write(table_at.to_bytes(8, "big"))


def header_of(path: Path, magic: bytes) -> Any:
    """The header of the frames file at ``path`` (None when it is missing or not such a file): read
    alone, without finding where the frames lie."""
    try:
        with path.open("rb") as stream:
            return _read_header(stream, magic)
    except (OSError, ValueError, EOFError, TypeError):
        return None


def filter_frames(path: Path, magic: bytes, header: Any, keep: Callable[[bytes], bool],
                  added: Iterable[tuple[bytes, bytes]]) -> set[bytes]:
    """Write ``path`` anew under ``header``: the frames of the file there now (whatever its header)
    whose key ``keep`` accepts, copied as they are, then the ``added`` ones; the keys written.  The
    old file is read in one go and its kept frames are copied from memory, those that lie one after
    the other as one run (a read and a seek per frame took 0.15 s for 20,000 frames); a missing or
    damaged old file gives only the frames before the damage and the ``added``."""
    written: set[bytes] = set()
    table: Table = {}
    data, frames = _frames_kept(path, magic, keep)
    view = memoryview(data)
    with replacing(path, "wb") as stream:
        at = first = _write_header(stream, magic, header)
        run: list[int] = []  # [start, end] in the old file of the frames still to copy
        for key, start, end in frames:
            if key in written:
                continue
            written.add(key)
            table[key] = _span(key, at, at + end - start)
            at += end - start
            if run and run[1] == start:
                run[1] = end
                continue
            if run:
                stream.write(view[run[0]:run[1]])
            run = [start, end]
        if run:
            stream.write(view[run[0]:run[1]])
        del view
        for key, value in added:
            if key not in written:
                end = at + _write_frame(stream, key, value)
                written.add(key)
                table[key] = _span(key, at, end)
                at = end
        _write_table(stream, table, at, first)
    return written


def _frames_kept(path: Path, magic: bytes,
                 keep: Callable[[bytes], bool]) -> tuple[bytes, list[tuple[bytes, int, int]]]:
    """The file at ``path`` (read whole) and (key, start, end) of each of its frames that ``keep``
    accepts, in file order; the frames stop quietly where the file ends, is damaged or cannot be read
    (a frame is given whole or not at all, so the file written from them never holds half a frame)."""
    try:
        data = path.read_bytes()
        stream = io.BytesIO(data)
        _read_header(stream, magic)
        spans = _spans(stream, partial=True)
    except (OSError, ValueError, EOFError, TypeError):
        return b"", []
    return data, [(key, start, end) for key, (start, _, end) in spans.items() if keep(key)]


def _scan(stream: IO[bytes]) -> Iterator[tuple[bytes, int, int]]:
    """(key, start of its frame, end) of each frame of a frames file whose first frame ``stream`` is
    at, in file order, up to its table; ValueError where the file is cut short or goes on after its
    table (the frames before are given)."""
    at = stream.tell()
    end_of_file = stream.seek(0, 2)
    while at < end_of_file:
        stream.seek(at)
        key = _exactly(stream, int.from_bytes(_exactly(stream, 2), "big"))
        end = at + 2 + len(key) + 4 + int.from_bytes(_exactly(stream, 4), "big")
        if end > end_of_file:
            raise ValueError("a frames file cut short")
        if not key:  # the table: the last frame
            if end != end_of_file:
                raise ValueError("a frames file that goes on after its table")
            return
        yield key, at, end
        at = end


def _exactly(stream: IO[bytes], size: int) -> bytes:
    data = stream.read(size)
    if len(data) != size:
        raise ValueError("a frames file cut short")
    return data


def write_frames(path: Path, magic: bytes, header: Any, frames: Iterable[tuple[bytes, bytes | None]],
                 old: Frames | None = None) -> None:
    """Write ``path`` whole (``files.replacing``): the header, then each (key, value) of ``frames``;
    a value of None is ``old``'s frame of that key, copied as it lies (frames that lie one after
    the other in the old file are copied as one run).  ``old`` is closed before its file is replaced
    (a system may refuse to replace an open file)."""
    table: Table = {}
    with replacing(path, "wb") as stream:
        at = first = _write_header(stream, magic, header)
        run: list[int] = []  # [start, end] in the old file of the frames still to copy
        for key, value in frames:
            if value is None:
                assert old is not None, "a kept frame needs the old file"
                start, value_start, end = old.spans[key]
                table[key] = (at, at + value_start - start, at + end - start)
                at += end - start
                if run and run[1] == start:
                    run[1] = end
                    continue
                _copy(old, run, stream)
                run = [start, end]
                continue
            _copy(old, run, stream)
            run = []
            end = at + _write_frame(stream, key, value)
            table[key] = _span(key, at, end)
            at = end
        _copy(old, run, stream)
        _write_table(stream, table, at, first)
        if old is not None:
            old.close()


def append_frames(path: Path, old: Frames, live: Iterable[bytes], added: Iterable[tuple[bytes, bytes]],
                  slack: float = 1.0) -> bool:
    """Make ``old``'s file hold the frames of ``live`` it has and the ``added`` ones, in place: the added
    frames and a new table go after its end, then the table's place in the file's start is changed;
    the frames left out stay as dead bytes.  A rebuild that changes a few of 10,000 frames then writes
    those few, not a copy of the whole file (15 MB of pieces).  False, with the file untouched, when
    ``old`` holds no frame or the dead bytes would outweigh ``slack`` times the live ones: the caller
    writes the file whole then (``write_frames``), which leaves no dead bytes.

    A build stopped half-way leaves the old table's place in the file's start, and that table no longer
    at the end: the file reads as damaged (no frame), never as a mix."""
    if not old.spans or old._file is None:
        return False
    wanted = set(live)
    table: Table = {key: span for key, span in old.spans.items() if key in wanted}  # in file order
    new = [(key, value) for key, value in added if key in wanted and key not in table]
    kept_bytes = sum(end - start for start, _, end in table.values())
    new_bytes = sum(2 + len(key) + 4 + len(value) for key, value in new)
    try:
        with path.open("r+b") as stream:
            at = stream.seek(0, 2)
            if at - old.first - kept_bytes > slack * (kept_bytes + new_bytes):
                return False
            for key, value in new:
                end = at + _write_frame(stream, key, value)
                table[key] = _span(key, at, end)
                at = end
            stream.flush()
            _write_table(stream, table, at, old.first)
    except OSError:
        return False
    return True


def _write_frame(stream: IO[bytes], key: bytes, value: bytes) -> int:
    """Write one frame; its length."""
    if len(key) > 0xFFFF:
        raise ValueError(f"a frame's key is at most 65,535 bytes, not {len(key):,}")
    stream.write(len(key).to_bytes(2, "big") + key + len(value).to_bytes(4, "big"))
    stream.write(value)
    return 2 + len(key) + 4 + len(value)


def _copy(old: Frames | None, run: list[int], stream: IO[bytes]) -> None:
    """Copy the bytes ``run`` spans in ``old``'s file to ``stream``, a block at a time."""
    if not run or old is None or old._file is None:
        return
    source, (at, end) = old._file, run
    source.seek(at)
    while at < end:
        block = source.read(min(_COPY_BLOCK, end - at))
        if not block:
            raise OSError("the frames file was cut short while copied")
        stream.write(block)
        at += len(block)
