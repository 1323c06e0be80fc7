"""The calculator's standard library with bytecode (sphinx_rpg.stdlib_pyc): zipimport takes the
bytecode, which is what compiling the source gives, and the source stays for tracebacks.

Run here by this Python (its own bytecode); the vendoring runs the same code inside Pyodide."""

from __future__ import annotations

import importlib.util
import io
import sys
import traceback
import zipfile
import zipimport
from pathlib import Path
from types import ModuleType

from sphinx_rpg.stdlib_pyc import UNCHECKED_HASH, precompile

SOURCES = {
    "alpha.py": b"VALUE = 41 + 1\n\ndef fail():\n    raise ValueError('alpha fails here')\n",
    "pkg/__init__.py": b"from pkg.beta import NAME\n",
    "pkg/beta.py": b"NAME = 'beta'\r\n",  # Windows line ends, as zipimport reads them
    "broken.py": b"def (:\n",
    "notes.txt": b"not a module\n",
}


def a_zip(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, body in files.items():
            archive.writestr(name, body)
    return out.getvalue()


def imported(archive: Path, name: str) -> ModuleType:
    """``name`` imported from ``archive`` by zipimport, as Pyodide imports its standard library."""
    spec = zipimport.zipimporter(str(archive)).find_spec(name)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[name]
    return module


def precompiled(tmp_path: Path, files: dict[str, bytes], only: list[str] | None = None) -> Path:
    archive = tmp_path / "lib.zip"
    archive.write_bytes(precompile(a_zip(files), str(archive), only))
    return archive


def test_each_module_gets_an_unchecked_hash_pyc_of_this_python_beside_its_source(tmp_path):
    archive = precompiled(tmp_path, SOURCES)
    with zipfile.ZipFile(archive) as made:
        names = set(made.namelist())
        header = made.read("alpha.pyc")[:16]
    assert {"alpha.pyc", "pkg/__init__.pyc", "pkg/beta.pyc"} <= names and set(SOURCES) <= names
    assert header[:4] == importlib.util.MAGIC_NUMBER
    assert int.from_bytes(header[4:8], "little") == UNCHECKED_HASH
    assert header[8:] == importlib.util.source_hash(SOURCES["alpha.py"])


def test_zipimport_takes_the_bytecode_not_the_source(tmp_path):
    archive = precompiled(tmp_path, SOURCES)
    # a source changed after the bytecode was made is not read: the bytecode is what runs
    with zipfile.ZipFile(archive) as made:
        files = {info.filename: made.read(info) for info in made.infolist()}
    files["alpha.py"] = b"VALUE = 0\n"
    changed = tmp_path / "changed.zip"
    changed.write_bytes(a_zip(files))
    alpha = imported(changed, "alpha")
    assert alpha.VALUE == 42 and alpha.__file__ == f"{changed}/alpha.pyc"


def test_the_bytecode_names_the_source_so_a_traceback_shows_its_line(tmp_path):
    archive = precompiled(tmp_path, SOURCES)
    alpha = imported(archive, "alpha")
    assert alpha.fail.__code__.co_filename == f"{archive}/alpha.py"
    try:
        alpha.fail()
    except ValueError as error:
        shown = "".join(traceback.format_exception(error))
    assert "raise ValueError('alpha fails here')" in shown
    assert imported(archive, "pkg").NAME == "beta"


def test_only_the_modules_named_get_bytecode_and_one_that_does_not_compile_keeps_its_source(tmp_path):
    archive = precompiled(tmp_path, SOURCES, only=["pkg/beta.py", "broken.py"])
    with zipfile.ZipFile(archive) as made:
        assert sorted(name for name in made.namelist() if name.endswith(".pyc")) == ["pkg/beta.pyc"]
        assert made.read("broken.py") == SOURCES["broken.py"]
