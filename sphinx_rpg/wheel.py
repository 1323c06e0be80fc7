"""A real, reproducible wheel of the engine packages, written into the site for the dice calculator.

The browser calculator installs it into Pyodide (``pyodide.unpackArchive(buffer, "wheel")``), so the
page runs the very ``rules`` code the book was built with.  No pip and no build backend: a wheel is a
zip of the packages' ``.py`` files plus ``*.dist-info/METADATA``, ``WHEEL`` and ``RECORD`` (PEP 427).
Entries are sorted, dated 1980-01-01 and stored with fixed permissions, so the same sources give the
same bytes, and the file name carries a digest of them (a changed engine is never served from a cache).
"""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import io
import re
import zipfile
from collections.abc import Iterable, Mapping
from pathlib import Path

__all__ = ["WheelError", "build_wheel", "package_files", "wheel_name"]

DISTRIBUTION = "rpg_engine"
#: Zip timestamps before 1980 are not representable: every entry gets this one.
EPOCH = (1980, 1, 1, 0, 0, 0)
_PACKAGE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
#: The sources a wheel may carry (no compiled caches, no tests' data).
SUFFIXES = (".py", ".typed", ".json")


class WheelError(Exception):
    """A package that cannot go into the wheel (unknown, not a package folder...)."""


def package_files(package: str) -> list[tuple[str, Path]]:
    """(path inside the wheel, file) of every source file of the importable top-level ``package``."""
    if not _PACKAGE.fullmatch(package):
        raise WheelError(f"{package!r} is not the name of a top-level Python package")
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError) as error:
        raise WheelError(f"cannot find package {package!r}: {error}") from None
    if spec is None or not spec.submodule_search_locations:
        raise WheelError(f"{package!r} is not an importable package (a folder with __init__.py)")
    files: list[tuple[str, Path]] = []
    for location in spec.submodule_search_locations:
        root = Path(location)
        for path in sorted(root.rglob("*")):
            relative = path.relative_to(root)
            if (path.is_file() and path.suffix in SUFFIXES
                    and not any(part == "__pycache__" or part.startswith(".") for part in relative.parts)):
                files.append((f"{package}/{relative.as_posix()}", path))
    if not files:
        raise WheelError(f"package {package!r} has no source files")
    return files


def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")


def _entry(archive: zipfile.ZipFile, name: str, data: bytes) -> None:
    info = zipfile.ZipInfo(name, date_time=EPOCH)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    archive.writestr(info, data, compresslevel=9)


def _contents(packages: Iterable[str]) -> tuple[list[str], list[tuple[str, bytes]]]:
    names = sorted(dict.fromkeys(packages))
    if not names:
        raise WheelError("no package to put into the wheel")
    contents: list[tuple[str, bytes]] = []
    for package in names:
        contents += [(inside, path.read_bytes()) for inside, path in package_files(package)]
    return names, contents


def _full_version(version: str, contents: list[tuple[str, bytes]]) -> str:
    """The book's version with a digest of the sources as local label: a new file name for new sources."""
    digest = hashlib.sha256()
    for inside, data in contents:
        digest.update(inside.encode() + b"\0" + hashlib.sha256(data).digest())
    return f"{_safe_version(version)}+{digest.hexdigest()[:12]}"


def _entry_points(systems: Mapping[str, str]) -> bytes:
    """``entry_points.txt``: the game systems the wheel holds, found in Pyodide as on the build machine."""
    if not systems:
        return b""
    return ("[sphinx_rpg.systems]\n" + "".join(f"{name} = {path}\n" for name, path in sorted(systems.items()))).encode()


def wheel_name(packages: Iterable[str], version: str, systems: Mapping[str, str] | None = None) -> str:
    """The file name :func:`build_wheel` gives these sources (cheap: nothing is compressed)."""
    _, contents = _contents(packages)
    entry_points = _entry_points(systems or {})
    return f"{DISTRIBUTION}-{_full_version(version, [*contents, ('entry_points.txt', entry_points)])}-py3-none-any.whl"


def build_wheel(packages: Iterable[str], version: str, systems: Mapping[str, str] | None = None) -> tuple[str, bytes]:
    """(file name, bytes) of a pure-Python wheel holding ``packages``, and ``systems`` (name: registry
    path) as its ``sphinx_rpg.systems`` entry points; the same inputs, the same bytes."""
    names, contents = _contents(packages)
    entry_points = _entry_points(systems or {})
    full_version = _full_version(version, [*contents, ("entry_points.txt", entry_points)])
    dist_info = f"{DISTRIBUTION}-{full_version}.dist-info"
    metadata = (f"Metadata-Version: 2.1\nName: {DISTRIBUTION}\nVersion: {full_version}\n"
                f"Summary: The rules engine of a sphinx-rpg rulebook ({', '.join(names)})\n").encode()
    wheel = (b"Wheel-Version: 1.0\nGenerator: sphinx-rpg\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
    top_level = ("\n".join(names) + "\n").encode()
    contents += [(f"{dist_info}/METADATA", metadata), (f"{dist_info}/WHEEL", wheel),
                 (f"{dist_info}/top_level.txt", top_level)]
    if entry_points:
        contents.append((f"{dist_info}/entry_points.txt", entry_points))
    record = "".join(f"{name},{_record_hash(data)},{len(data)}\n" for name, data in contents)
    record += f"{dist_info}/RECORD,,\n"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in contents:
            _entry(archive, name, data)
        _entry(archive, f"{dist_info}/RECORD", record.encode())
    return f"{DISTRIBUTION}-{full_version}-py3-none-any.whl", buffer.getvalue()


def _safe_version(version: str) -> str:
    """A PEP 440 public version from the book's ``release`` ("0.2.dev0"; anything odd becomes 0)."""
    match = re.match(r"\d+(\.\d+)*((a|b|rc)\d+)?(\.post\d+)?(\.dev\d+)?", version.strip())
    return match.group(0) if match else "0"
