"""Vendor Pyodide from the npm registry, so a site's dice calculator runs with no CDN and no network.

``rpg pyodide DIR`` (or :func:`vendor_pyodide`) asks registry.npmjs.org for the ``pyodide`` package
of :data:`PYODIDE_VERSION`, downloads its tarball once into a cache, checks it against the registry's
``dist.integrity`` (SHA-512, Subresource Integrity format) and unpacks the files the calculator needs
into ``DIR/<version>/``, recording each file's SHA-256.  Point ``rpg_pyodide_vendor`` at that folder
and the build copies it into the site.  A second run checks those hashes and does no network request
at all; a file that changed since is unpacked again from the checked tarball.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import tarfile
import tempfile
import urllib.request
from pathlib import Path

__all__ = ["PYODIDE_FILES", "PYODIDE_VERSION", "VendorError", "check_integrity", "damaged", "vendor_pyodide",
           "vendored"]

#: The Pyodide release the calculator is written and tested against (Python 3.14 in the browser).
PYODIDE_VERSION = "314.0.7"
REGISTRY = "https://registry.npmjs.org"
#: What the calculator loads: the loader, the interpreter, the standard library and the package lock.
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json",
                 "package.json")
#: The tarball is about 6.5 MB; refuse anything far larger rather than fill a disk.
MAX_TARBALL = 64 * 1024 * 1024
#: Written last into a finished folder: the version and the integrity it was checked against.
STAMP = ".rpg-vendored.json"


class VendorError(Exception):
    """Pyodide could not be vendored: the registry, the download or the check failed (one line)."""


def check_integrity(data: bytes, integrity: str) -> None:
    """Raise :class:`VendorError` unless ``data`` matches an npm ``dist.integrity`` (``sha512-<base64>``)."""
    algorithm, _, expected = integrity.partition("-")
    if algorithm != "sha512" or not expected:
        raise VendorError(f"the registry's integrity {integrity!r} is not a sha512 digest")
    actual = base64.b64encode(hashlib.sha512(data).digest()).decode("ascii")
    if actual != expected:
        raise VendorError(f"the tarball's sha512 is {actual}, the registry says {expected}: refusing it")


def _fetch(url: str, limit: int) -> bytes:
    try:
        with urllib.request.urlopen(url, timeout=60) as response:  # a fixed https registry URL
            data: bytes = response.read(limit + 1)
    except OSError as error:
        raise VendorError(f"cannot download {url}: {getattr(error, 'reason', None) or error}") from None
    if len(data) > limit:
        raise VendorError(f"{url} is larger than {limit:,} bytes")
    return data


def _metadata(version: str) -> tuple[str, str]:
    """(tarball URL, integrity) of ``pyodide@version`` from the registry."""
    url = f"{REGISTRY}/pyodide/{version}"
    try:
        dist = json.loads(_fetch(url, 1024 * 1024))["dist"]
        return str(dist["tarball"]), str(dist["integrity"])
    except (ValueError, KeyError, TypeError):
        raise VendorError(f"{url} did not answer with a package's dist.tarball and dist.integrity") from None


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def damaged(target: Path, version: str = PYODIDE_VERSION) -> list[str]:
    """The runtime files of ``target`` that are missing or differ from the SHA-256 recorded when they were
    unpacked from the checked tarball; every file when ``target`` holds no finished copy of ``version``."""
    try:
        stamp = json.loads((target / STAMP).read_text())
        recorded = stamp["files"] if stamp["version"] == version else {}
    except (OSError, ValueError, KeyError, TypeError):
        recorded = {}
    if not isinstance(recorded, dict):
        recorded = {}
    bad = []
    for name in PYODIDE_FILES:
        path = target / name
        try:
            if recorded.get(name) != _sha256(path):
                bad.append(name)
        except OSError:
            bad.append(name)
    return bad


def vendored(target: Path, version: str = PYODIDE_VERSION) -> bool:
    """Whether ``target`` holds a finished copy of Pyodide ``version`` whose every file still has the hash
    recorded when it was unpacked (an overwritten ``pyodide.asm.wasm`` is not vendored)."""
    return not damaged(target, version)


def vendor_pyodide(directory: Path, version: str = PYODIDE_VERSION, cache: Path | None = None) -> Path:
    """Make ``directory/<version>/`` a checked copy of Pyodide's runtime files; returns that folder.

    The tarball is cached in ``cache`` (default: ``directory``) as ``pyodide-<version>.tgz`` and
    checked against the registry's integrity; a cached tarball whose digest still matches is reused.
    """
    target = directory / version
    if vendored(target, version):
        return target
    cache = cache or directory
    cache.mkdir(parents=True, exist_ok=True)
    tarball_path = cache / f"pyodide-{version}.tgz"
    integrity_path = cache / f"pyodide-{version}.integrity"
    data = b""
    if tarball_path.is_file() and integrity_path.is_file():
        data = tarball_path.read_bytes()
        try:
            check_integrity(data, integrity_path.read_text().strip())
        except VendorError:
            data = b""
    if not data:
        url, integrity = _metadata(version)
        data = _fetch(url, MAX_TARBALL)
        check_integrity(data, integrity)
        _write(tarball_path, data)
        _write(integrity_path, integrity.encode())
    else:
        integrity = integrity_path.read_text().strip()
    (target / STAMP).unlink(missing_ok=True)  # unfinished until the new stamp is written
    _unpack(data, target)
    files = {name: _sha256(target / name) for name in PYODIDE_FILES}
    _write(target / STAMP, json.dumps({"version": version, "integrity": integrity, "files": files}).encode())
    return target


def _unpack(data: bytes, target: Path) -> None:
    """Copy the runtime files out of the tarball (``package/<name>``); nothing else is extracted."""
    target.mkdir(parents=True, exist_ok=True)
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
            for name in PYODIDE_FILES:
                try:
                    member = archive.getmember(f"package/{name}")
                except KeyError:
                    raise VendorError(f"the Pyodide tarball has no package/{name}") from None
                source = archive.extractfile(member) if member.isfile() else None
                if source is None:
                    raise VendorError(f"package/{name} in the Pyodide tarball is not a file")
                _write(target / name, source.read())
    except (tarfile.TarError, OSError, EOFError) as error:
        raise VendorError(f"cannot unpack the Pyodide tarball: {error}") from None


def _write(path: Path, data: bytes) -> None:
    """Write through a temporary file and rename, so no half-written file is ever taken as done."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.chmod(temporary, 0o644)  # a web server must be able to read what the site serves
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
