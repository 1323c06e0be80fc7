"""Fixtures shared by the site tests: the built site, once per session.

``python3 dev.py test`` builds the site with warnings as errors while pytest runs and names the
outputs in ``SPHINX_RPG_SITE_HTML`` / ``_LATEX`` / ``_PLAYER``: the tests that read them run last and
wait for their build; run on their own, the tests build what they need (also with ``-W``) into a
temporary directory.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent

# Property tests are judged by what they find, never by how fast an example ran: on a loaded machine
# Hypothesis' default 200 ms deadline failed a formula round trip that passes when run alone.
settings.register_profile("sphinx-rpg", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("sphinx-rpg")
DOCS = ROOT / "docs"


#: How long a site test waits for the test command's build of the output it reads.
BUILD_WAIT = 1800


def _wait_for_build(path: Path) -> None:
    """Wait until the test command (``SPHINX_RPG_SITE_BUILDER``: its process id) has built ``path``,
    which it builds while pytest runs the other tests; fail the tests that need it if that build failed.

    The test command holds a lock on ``<path>.lock`` from before pytest starts until the build's status
    is written (``dev.claim``/``dev.finished``), and the system releases it if the command dies: the wait
    is on that event.  Without ``fcntl`` (Windows) the status file is polled for."""
    status = path.with_name(path.name + ".status")
    try:
        import fcntl
    except ImportError:
        _poll_for_build(path, status)
    else:
        released = threading.Event()

        def take_the_lock() -> None:
            with path.with_name(path.name + ".lock").open("a") as lock:
                fcntl.flock(lock, fcntl.LOCK_SH)  # blocks while the build holds it exclusively
            released.set()

        threading.Thread(target=take_the_lock, name=f"wait-for-{path.name}", daemon=True).start()
        if not released.wait(BUILD_WAIT):
            pytest.fail(f"{path} was not built within {BUILD_WAIT} s", pytrace=False)
        if not status.exists():  # released with no status: the command died (or never claimed the build)
            pytest.fail(f"the test command that was building {path} has stopped", pytrace=False)
    if status.read_text().strip() != "0":  # dev.py renames it into place whole (``finished``)
        pytest.fail(f"the test command's -W build of {path} failed: its warnings are printed "
                    "after pytest's report", pytrace=False)


def _poll_for_build(path: Path, status: Path) -> None:
    """``_wait_for_build`` where there is no ``fcntl``: look for the status file until it appears."""
    builder = int(os.environ["SPHINX_RPG_SITE_BUILDER"])
    deadline = time.monotonic() + BUILD_WAIT
    while not status.exists():
        try:
            os.kill(builder, 0)
        except OSError:
            pytest.fail(f"the test command that was building {path} has stopped", pytrace=False)
        if time.monotonic() > deadline:
            pytest.fail(f"{path} was not built within {BUILD_WAIT} s", pytrace=False)
        time.sleep(0.2)


def _prebuilt(variable: str, marker: str) -> Path | None:
    value = os.environ.get(variable, "")
    path = (ROOT / value) if value else None
    if path is not None and os.environ.get("SPHINX_RPG_SITE_BUILDER"):
        _wait_for_build(path)
    return path if path is not None and (path / marker).exists() else None


def _sphinx(builder: str, outdir: Path, doctrees: Path, *options: str) -> None:
    result = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", builder, *options,
                             "-d", str(doctrees), str(DOCS), str(outdir)], capture_output=True, text=True,
                            timeout=900)
    assert result.returncode == 0, f"the {builder} build of docs/ warned or failed:\n{result.stderr[-4000:]}"


#: The fixtures that read the test command's builds of docs/: their files run after the files that
#: build projects of their own (see ``_prebuilt`` and ``pytest_collection_modifyitems``).
SITE = ("built_html", "built_latex", "built_player")
#: Where the files that build Sphinx projects or install packages live: the costliest tests per test.
BUILDING = ("tests/starter/", "tests/extension/", "tests/adversarial/")
#: Site fixtures that cost their file more than all its tests: one Pyodide tab, the accessibility audit
#: of every page kind.  (The tour, ``site_tour``, loads one page of each kind: no longer among them.)
LONGEST = ("module_page", "audits")


#: The files that take longest, most of it waiting on processes of their own (pip, sphinx-build, git, a
#: preview server), first of all: a worker waiting on them leaves the cores to the rest, and started
#: last (as they were, ranked by their few tests) they ended the session late.
FIRST = ("tests/starter/test_fresh_install.py", "tests/starter/test_serve.py")


def _uses(tests: list[pytest.Item], fixtures: tuple[str, ...]) -> bool:
    return any(name in getattr(test, "fixturenames", ()) for test in tests for name in fixtures)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Order the files for ``dev.py test`` (``--dist loadfile --no-loadscope-reorder``: each file goes
    whole to the next free worker, in this order): the files that build projects of their own first,
    while ``dev.py test`` builds docs/; then the files that read those builds, the longest first; the
    many small files of unit tests last, so both workers finish at about the same time.  The ``FIRST``
    files go before all of them."""
    files: dict[str, list[pytest.Item]] = {}
    for item in items:
        files.setdefault(item.nodeid.split("::")[0], []).append(item)

    def rank(path: str) -> tuple[int, int, int]:
        tests = files[path]
        if path in FIRST:
            return -1, FIRST.index(path), 0
        if _uses(tests, (*SITE, "built_site")):  # built_site asks for built_html when it is made
            return 1, -_uses(tests, LONGEST), -len(tests)
        return (0 if path.startswith(BUILDING) else 2), 0, -len(tests)

    items[:] = [item for path in sorted(files, key=rank) for item in files[path]]


#: Held by the test process that is collecting (``pytest_collection``): the xdist workers collect in turn.
COLLECTING = ROOT / ".cache" / "collecting.lock"


@pytest.hookimpl(wrapper=True)
def pytest_collection(session: pytest.Session) -> object:
    """Collect with pytest's bytecode of the rewritten test modules kept, one process at a time.

    Every xdist worker collects every test module, and rewriting their asserts was most of a worker's
    collection; the test command forbids writing bytecode (``dev.run``).  During collection only, the
    rewritten modules are kept in ``__pycache__`` (pytest checks them by the source's hash), and the
    workers take turns on a lock, so the first one rewrites and the others read its bytecode.  The wait
    is on the lock, released when a worker's collection ends or its process dies.  Bytecode stays
    forbidden while the tests run: they import projects of their own that they edit."""
    try:
        import fcntl
    except ImportError:
        return (yield)
    COLLECTING.parent.mkdir(exist_ok=True)
    with COLLECTING.open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        forbidden, sys.dont_write_bytecode = sys.dont_write_bytecode, False
        try:
            return (yield)
        finally:
            sys.dont_write_bytecode = forbidden


@pytest.fixture(scope="session", autouse=True)
def template_code():
    """Each Jinja template compiled once per test process, whatever the number of Sphinx apps
    (``tests/template_code.py``)."""
    from tests.template_code import shared_template_code

    with shared_template_code() as cache:
        yield cache


@pytest.fixture(scope="session", autouse=True)
def sphinx_debug_dropped():
    """Sphinx's debug messages dropped at its logger, not by each handler (``tests/sphinx_logging.py``)."""
    from tests.sphinx_logging import debug_dropped_at_the_logger

    with debug_dropped_at_the_logger():
        yield


@pytest.fixture(scope="session")
def site_doctrees(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("site-doctrees")


def _site(builder: str, variable: str, marker: str, tmp_path_factory, doctrees: Path, *options: str) -> Path:
    """The test command's own build when it named one, else a fresh -W build into a temp dir."""
    prebuilt = _prebuilt(variable, marker)
    if prebuilt:
        return prebuilt
    outdir = tmp_path_factory.mktemp(f"site-{builder}")
    _sphinx(builder, outdir, doctrees, *options)
    return outdir


@pytest.fixture(scope="session")
def built_html(tmp_path_factory, site_doctrees) -> Path:
    """The HTML site, built with warnings as errors."""
    return _site("html", "SPHINX_RPG_SITE_HTML", "index.html", tmp_path_factory, site_doctrees)


@pytest.fixture(scope="session")
def built_latex(tmp_path_factory, site_doctrees) -> Path:
    """The LaTeX sources of the site (for print), built with warnings as errors."""
    return _site("latex", "SPHINX_RPG_SITE_LATEX", "sphinx-rpg-manual.tex", tmp_path_factory, site_doctrees)


@pytest.fixture(scope="session")
def built_player(tmp_path_factory) -> Path:
    """The HTML site's player edition (``-D rpg_edition=player``), built with warnings as errors.

    Its pages are read differently from the designer edition's, so it keeps doctrees of its own.
    """
    return _site("html", "SPHINX_RPG_SITE_PLAYER", "index.html", tmp_path_factory,
                 tmp_path_factory.mktemp("player-doctrees"), "-D", "rpg_edition=player")
