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
import shutil
import subprocess
import tarfile
import tempfile
import urllib.request
from pathlib import Path

__all__ = ["ENGINE_BYTECODE", "PRECOMPILED_STDLIB", "PYODIDE_FILES", "PYODIDE_VERSION", "STDLIB_LOCK", "VendorError",
           "await_stdlib", "check_integrity", "damaged", "engine_bytecode", "precompile_stdlib", "vendor_pyodide",
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
#: The standard library with bytecode beside its sources (see :func:`precompile_stdlib`), when made.
PRECOMPILED_STDLIB = "python_stdlib_pyc.zip"
#: The folder (inside a vendored Pyodide's) that keeps the engine's bytecode, one zip per engine wheel.
ENGINE_BYTECODE = "engine-bytecode"
#: The lock ``python3 dev.py site`` holds in a vendored Pyodide's folder while it precompiles the standard
#: library beside the builds (a dot first: the calculator copies no such file into a site).
STDLIB_LOCK = ".python_stdlib_pyc.lock"


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


#: Run by Node.js: boot the vendored Pyodide, import the engine (``ENGINE``, a folder holding the
#: ``rules`` package, mounted read-only in spirit: no bytecode is written) and answer one question as the
#: calculator's warm-up does, then write the standard library with bytecode for every module that took.
_PRECOMPILE_JS = """
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
const [folder, script, output, engine] = process.argv.slice(2);
try {
  const { loadPyodide } = await import(pathToFileURL(folder + "/pyodide.mjs").href);
  const pyodide = await loadPyodide({ indexURL: folder + "/" });
  if (engine) pyodide.mountNodeFS("/engine", engine);
  pyodide.globals.set("engine", engine ? "/engine" : "");
  pyodide.runPython(`
import importlib, os, sys
sys.dont_write_bytecode = True  # nothing is written into the engine's folder
archive = next(path for path in sys.path if path.endswith(".zip"))
if engine:
    sys.path.insert(0, engine)
    import rules, rules.calculator, rules.systems
    for name in sorted(set(os.listdir(rules.__path__[0]))):  # every game system's package
        if os.path.isfile(os.path.join(rules.__path__[0], name, "__init__.py")):
            try:
                importlib.import_module("rules." + name)
            except Exception:
                pass
    rules.calculator.answer_json("3d6", None, "10", None, [])
    try:
        rules.systems.installed_systems()
    except Exception:
        pass
used = sorted({module.__file__[len(archive) + 1:] for module in list(sys.modules.values())
               if str(getattr(module, "__file__", None)).startswith(archive + "/")})
`);
  pyodide.runPython(readFileSync(script, "utf8"));  // after the count: its own imports are not the engine's
  pyodide.runPython(`
with open(archive, "rb") as stream:
    data = precompile(stream.read(), archive, used)
with open("/tmp/precompiled.zip", "wb") as stream:
    stream.write(data)
`);
  writeFileSync(output, pyodide.FS.readFile("/tmp/precompiled.zip"));
} catch (error) {  // one line, the last: what failed (Node would print the minified source)
  console.error(String(error && error.message || error).trim().split("\\n").pop());
  process.exit(1);
}
"""


def precompile_stdlib(target: Path, engine: Path | None = None, timeout: float = 600,
                      nice: int = 0) -> Path | None:
    """Write ``target/python_stdlib_pyc.zip``: Pyodide's standard library with the bytecode of every
    module that Pyodide's start and the engine (the folder holding ``rules``) import, compiled by that
    Pyodide itself under Node.js (:mod:`sphinx_rpg.stdlib_pyc`).  The calculator then loads it in place
    of ``python_stdlib.zip`` and compiles none of them.  ``None`` (and nothing written) without Node.js;
    :class:`VendorError` when Node.js fails.  ``nice``: Node.js runs at that lower priority (where the
    system has ``nice``), so builds started beside it keep their cores."""
    node = shutil.which("node")
    if node is None:
        return None
    compiler = Path(__file__).with_name("stdlib_pyc.py")
    made = _run_node(node, _PRECOMPILE_JS, [str(target.resolve()), str(compiler), "{made}",
                                            str(engine.resolve()) if engine else ""],
                     "precompile the standard library", timeout, nice)
    output = target / PRECOMPILED_STDLIB
    _write(output, made)
    return output


def await_stdlib(target: Path) -> None:
    """Return once no process is precompiling ``target``'s standard library: ``python3 dev.py site`` does
    it beside the builds, holding :data:`STDLIB_LOCK` until the file is written (or has failed), and a
    build copies the vendored files only then.  At once when nobody holds it."""
    if not (target / STDLIB_LOCK).exists():
        return
    from sphinx_rpg.files import held  # here, not at the top: dev.py runs this file without the package

    try:
        with held(target / STDLIB_LOCK):
            pass
    except OSError:  # a folder this build may not write in: nobody precompiles there either
        return


def _run_node(node: str, script: str, arguments: list[str], what: str, timeout: float, nice: int = 0) -> bytes:
    """Run ``script`` (an ES module) under Node.js with ``arguments``, where ``{made}`` names the file it
    writes; returns that file's bytes.  :class:`VendorError` (saying ``what`` failed and Node's last
    line) when Node.js cannot run, fails or writes nothing."""
    with tempfile.TemporaryDirectory() as temporary:
        path = Path(temporary) / "script.mjs"
        path.write_text(script, encoding="utf-8")
        made = Path(temporary) / "made.zip"
        try:
            lower = ["nice", "-n", str(nice)] if nice and shutil.which("nice") else []
            done = subprocess.run([*lower, node, str(path), *(a.replace("{made}", str(made)) for a in arguments)],
                                  capture_output=True, text=True, timeout=timeout)
        except (OSError, subprocess.TimeoutExpired) as error:
            raise VendorError(f"cannot {what} with {node}: {error}") from None
        if done.returncode or not made.is_file():
            last = (done.stderr.strip().splitlines() or ["no output"])[-1]
            raise VendorError(f"cannot {what} with {node}: {last}")
        return made.read_bytes()


#: Run by Node.js: install the engine wheel into the vendored Pyodide and compile each of its modules
#: with ``py_compile`` into checked hash-based pycs (PEP 552: the import compares the source's hash, so
#: a pyc that does not match its source is never used), then zip the ``__pycache__`` folders.
_ENGINE_JS = """
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
const [folder, wheel, output] = process.argv.slice(2);
try {
  const { loadPyodide } = await import(pathToFileURL(folder + "/pyodide.mjs").href);
  const pyodide = await loadPyodide({ indexURL: folder + "/" });
  pyodide.unpackArchive(new Uint8Array(readFileSync(wheel)), "wheel");
  pyodide.runPython(`
import os, py_compile, zipfile
root = os.getcwd()  # where unpackArchive put the wheel, as in the browser
with zipfile.ZipFile("/tmp/engine-bytecode.zip", "w", zipfile.ZIP_DEFLATED) as out:
    for folder, _, files in sorted(os.walk(root)):
        for name in sorted(files):
            if name.endswith(".py"):
                made = py_compile.compile(os.path.join(folder, name), doraise=True,
                                          invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)
                out.write(made, os.path.relpath(made, root))
`);
  writeFileSync(output, pyodide.FS.readFile("/tmp/engine-bytecode.zip"));
} catch (error) {  // one line, the last: what failed (Node would print the minified source)
  console.error(String(error && error.message || error).trim().split("\\n").pop());
  process.exit(1);
}
"""


def engine_bytecode(target: Path, wheel: Path, timeout: float = 600) -> Path | None:
    """The engine's bytecode for ``wheel`` (a zip of ``__pycache__`` files to unpack into site-packages
    after the wheel), compiled by the vendored Pyodide of ``target`` under Node.js and kept in
    ``target/engine-bytecode/`` by the wheel's name, so each engine is compiled once.  ``None`` without
    Node.js or without the precompiled standard library (a copy not vendored by :func:`precompile_stdlib`);
    :class:`VendorError` when Node.js fails."""
    node = shutil.which("node")
    if node is None or not (target / PRECOMPILED_STDLIB).is_file():
        return None
    output = target / ENGINE_BYTECODE / (wheel.name.removesuffix(".whl") + ".pyc.zip")
    if output.is_file():
        return output
    from sphinx_rpg.files import held  # here, not at the top: dev.py runs this file without the package

    with held(output.with_suffix(".lock")):  # two editions built side by side compile it once
        if output.is_file():
            return output
        _write(output, _run_node(node, _ENGINE_JS, [str(target.resolve()), str(wheel.resolve()), "{made}"],
                                 "compile the engine", timeout))
    kept = sorted((target / ENGINE_BYTECODE).glob("*.pyc.zip"), key=lambda path: path.stat().st_mtime)
    for old in kept[:-3]:  # the three newest engines kept (two builds of one engine may run side by side)
        if old != output:
            old.unlink(missing_ok=True)
    return output
