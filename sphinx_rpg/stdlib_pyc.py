"""A standard-library zip with bytecode beside its sources, so an interpreter that imports from it
compiles nothing at start.

Pyodide ships its standard library as ``.py`` sources in ``python_stdlib.zip``; every start compiles
each module it imports again (about a third of its boot).  :func:`precompile` copies such a zip and
adds, next to each module, the ``.pyc`` that zipimport prefers to the source: the code object that
compiling the source would give, under the name zipimport would give it, in an unchecked hash-based
pyc (PEP 552), so no clock or hash is compared at import time.  The sources stay, for tracebacks and
``inspect``.

The bytecode must come from the very interpreter that will load it: this module uses the standard
library only, and :mod:`sphinx_rpg.vendor` runs it inside Pyodide itself (under Node.js) when it
vendors Pyodide.  Run by any other Python it makes that Python's bytecode (the tests do).
"""

from __future__ import annotations

import importlib.util
import io
import marshal
import zipfile
from collections.abc import Collection

__all__ = ["UNCHECKED_HASH", "pyc", "precompile"]

#: PEP 552's flags word: hash-based (bit 0), source not checked (bit 1 clear).
UNCHECKED_HASH = 0b01


def pyc(source: bytes, filename: str) -> bytes:
    """The unchecked hash-based ``.pyc`` of ``source``, compiled as zipimport compiles a zipped module
    (``filename`` is its path inside the archive, as the code's ``co_filename`` would be)."""
    # zipimport's _compile_source: universal newlines, then compile with this interpreter's optimisation
    text = source.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    code = compile(text, filename, "exec", dont_inherit=True)
    return (importlib.util.MAGIC_NUMBER + UNCHECKED_HASH.to_bytes(4, "little") + importlib.util.source_hash(source)
            + marshal.dumps(code))


def precompile(data: bytes, archive: str, only: Collection[str] | None = None) -> bytes:
    """A copy of the zip ``data`` (mounted at ``archive``, e.g. ``/lib/python314.zip``) with a ``.pyc``
    beside every ``.py`` (or those named in ``only``) that compiles; a module that does not compile keeps
    only its source, so its import fails as it would have."""
    wanted = None if only is None else set(only)
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w") as target:
        names = set(source.namelist())
        for info in source.infolist():
            body = source.read(info)
            target.writestr(info, body)
            name = info.filename
            if not name.endswith(".py") or name + "c" in names or (wanted is not None and name not in wanted):
                continue
            try:
                compiled = pyc(body, f"{archive}/{name}")
            except (SyntaxError, ValueError):  # e.g. lib2to3's test data: never imported
                continue
            entry = zipfile.ZipInfo(name + "c", date_time=info.date_time)
            entry.compress_type = zipfile.ZIP_DEFLATED
            target.writestr(entry, compiled)
    return out.getvalue()
