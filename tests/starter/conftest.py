"""Fixtures of the starter tests: sphinx-rpg's own sdist and wheel, and offline wheels for a fresh
virtual environment: sphinx-rpg's dependencies, repacked from this one.

A fresh environment must install sphinx-rpg from its wheel the way a user does, with pip resolving
its dependencies; fetching those from the index would make the test slow and network-bound, so pip
gets them from a folder of wheels rebuilt from the distributions installed here (``--no-index
--find-links``).  Only sphinx-rpg's own wheel is built from the source under test.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.metadata as metadata
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

_SKIPPED_META = {"INSTALLER", "REQUESTED", "RECORD", "direct_url.json"}


def closure(requirements: Iterable[str]) -> list[metadata.Distribution]:
    """The installed distributions that ``requirements`` need, with everything they need in turn."""
    found: dict[str, metadata.Distribution] = {}
    pending = [Requirement(text) for text in requirements]
    while pending:
        requirement = pending.pop()
        name = canonicalize_name(requirement.name)
        if name in found:
            continue
        distribution = metadata.distribution(requirement.name)
        found[name] = distribution
        for text in distribution.requires or ():
            needed = Requirement(text)
            if needed.marker is None or any(needed.marker.evaluate({"extra": extra})
                                             for extra in ("", *requirement.extras)):
                pending.append(needed)
    return sorted(found.values(), key=lambda d: canonicalize_name(d.metadata["Name"]))


def _digest(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def repack(distribution: metadata.Distribution, folder: Path) -> Path:
    """Write ``distribution`` (as installed here) back into a wheel in ``folder``."""
    info = next(f for f in distribution.files or () if f.parts[0].endswith(".dist-info"))
    info_dir = info.parts[0]
    tags = re.findall(r"^Tag: (\S+)$", distribution.read_text("WHEEL") or "", re.M) or ["py3-none-any"]
    # a wheel for several tags (py2.py3-none-any) names them all, compressed part by part, as pip reads them
    parts = [".".join(dict.fromkeys(tag.split("-")[index] for tag in tags)) for index in range(3)]
    name = re.sub(r"[-_.]+", "_", distribution.metadata["Name"])
    target = folder / f"{name}-{distribution.version}-{'-'.join(parts)}.whl"
    record = []
    with zipfile.ZipFile(target, "w", zipfile.ZIP_STORED) as wheel:
        for file in distribution.files or ():
            parts = file.parts
            if parts[0] == ".." or "__pycache__" in parts or file.suffix == ".pyc":
                continue  # scripts (pip writes them again) and bytecode
            if parts[0] == info_dir and parts[-1] in _SKIPPED_META:
                continue
            path = Path(str(file.locate()))
            if not path.is_file():
                continue
            data = path.read_bytes()
            wheel.writestr(file.as_posix(), data)
            record.append(f"{file.as_posix()},{_digest(data)},{len(data)}")
        record.append(f"{info_dir}/RECORD,,")
        wheel.writestr(f"{info_dir}/RECORD", "\n".join(record) + "\n")
    return target


def cached_wheelhouse(requirements: Iterable[str], scratch: Path) -> Path:
    """The wheelhouse, kept inside this venv between sessions: it changes only when the venv does."""
    needed = closure(requirements)
    key = hashlib.sha256(" ".join(f"{d.metadata['Name']}=={d.version}" for d in needed).encode()).hexdigest()[:16]
    folder = Path(sys.prefix) / "sphinx-rpg-wheelhouse" / key
    if folder.is_dir():
        return folder
    built = scratch / key
    built.mkdir(parents=True)
    for distribution in needed:
        repack(distribution, built)
    try:
        folder.parent.mkdir(exist_ok=True)
        shutil.copytree(built, folder.with_suffix(".partial"), dirs_exist_ok=True)
        folder.with_suffix(".partial").rename(folder)  # whole or absent, even if two sessions race
    except OSError:
        return built  # a read-only venv: this session's copy will do
    return folder


# -- fixtures: sphinx-rpg's sdist and wheel, built once per session from this checkout ---------------
ROOT = Path(__file__).resolve().parents[2]
#: What a checkout holds that a build may read (tool folders and build output are left behind).
_IGNORED = shutil.ignore_patterns(".venv", ".git", "_build", "build", "dist", "*.egg-info", "__pycache__",
                                  ".pytest_cache", ".hypothesis", "_out", "_artifacts", "node_modules")


def _run(*command: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    result = subprocess.run([str(part) for part in command], cwd=cwd, capture_output=True, text=True,
                            timeout=600, env=clean_environment())
    shown = " ".join(map(str, command))
    assert result.returncode == 0, f"{shown} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    return result


def clean_environment() -> dict[str, str]:
    """The environment minus anything that would let a subprocess see this checkout or this venv."""
    kept = {key: value for key, value in os.environ.items()
            if key not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME") and not key.startswith(("PIP_", "SPHINX_RPG_"))}
    return {**kept, "PYTHONDONTWRITEBYTECODE": "1"}


@dataclass(frozen=True)
class Dists:
    sdist: Path
    wheel: Path


def _tree_digest(root: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(path for path in root.rglob("*") if path.is_file()):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


@contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """One xdist worker at a time in ``folder`` (where ``fcntl`` exists; elsewhere each builds its own)."""
    folder.mkdir(parents=True, exist_ok=True)
    try:
        import fcntl
    except ImportError:
        yield
        return
    with (folder / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


@pytest.fixture(scope="session")
def dists(tmp_path_factory: pytest.TempPathFactory) -> Dists:
    """``python -m build``'s recipe, offline: an sdist from a copy of the checkout, the wheel from the
    unpacked sdist (setuptools' PEP 517 hooks, called as a build front end calls them).

    The xdist workers of one session share them (two files of tests/starter need them): the first
    worker builds them for the checkout as it is (its digest names the folder), the others wait and
    read them.
    """
    source = tmp_path_factory.mktemp("checkout") / "sphinx-rpg"
    shutil.copytree(ROOT, source, ignore=_IGNORED)
    base = tmp_path_factory.getbasetemp()
    shared = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "sphinx-rpg-dists"
    with _locked(shared):
        out = shared / _tree_digest(source)
        if not (any(out.glob("*.tar.gz")) and any(out.glob("*.whl"))):
            shutil.rmtree(out, ignore_errors=True)
            out.mkdir()
            _run(sys.executable, "-c", f"from setuptools import build_meta; build_meta.build_sdist({str(out)!r})",
                 cwd=source)
            # the wheel from the unpacked sdist, by the same PEP 517 hook pip calls (without pip's start-up,
            # resolver and copy of the tree: a second and a half of CPU)
            unpacked = tmp_path_factory.mktemp("sdist")
            with tarfile.open(next(out.glob("*.tar.gz"))) as sdist:
                sdist.extractall(unpacked, filter="data")
            (tree,) = unpacked.iterdir()
            _run(sys.executable, "-c", f"from setuptools import build_meta; build_meta.build_wheel({str(out)!r})",
                 cwd=tree)
    return Dists(next(out.glob("*.tar.gz")), next(out.glob("*.whl")))


def designer_requirements() -> list[str]:
    """sphinx-rpg's dependencies with its ``designer`` extra (what the starter's requirements.txt installs)."""
    needed = []
    for text in metadata.requires("sphinx-rpg") or ():
        requirement = Requirement(text)
        if requirement.marker is None or requirement.marker.evaluate({"extra": "designer"}):
            requirement.marker = None
            needed.append(str(requirement))
    return needed


@pytest.fixture(scope="session")
def offline_wheels(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Wheels of sphinx-rpg's dependencies with its ``designer`` extra, repacked from this venv."""
    return cached_wheelhouse(designer_requirements(), tmp_path_factory.mktemp("wheelhouse"))
