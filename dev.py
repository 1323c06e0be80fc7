#!/usr/bin/env python3
"""Developer entry point: the two README commands, runnable with nothing but ``python3``.

    python3 dev.py site    build the rulebook site: docs/_build/html (designer edition) and
                           docs/_build/player (player edition)
    python3 dev.py test    run every test: the static checks below, warnings-as-errors Sphinx
                           builds of docs/ (both editions) and pytest (unit, integration, Sybil)
    python3 dev.py check   only the static checks: ruff (lint) and mypy (types), configured in
                           pyproject.toml
    python3 dev.py pdf     one PDF per book of the player edition, in docs/_build/pdf-player (needs
                           TeX: Debian's texlive-latex-extra, texlive-fonts-recommended, texlive-xetex,
                           fonts-freefont-otf, fonts-texgyre, tex-gyre and latexmk)
    python3 dev.py versions  a small book with every directive built on the lowest Sphinx that
                           pyproject.toml declares and on the newest (ci/sphinx_versions.py; minutes)

Both create or refresh ``.venv`` first: it is brought up to date whenever ``pyproject.toml`` or
``constraints.txt`` changes, so a fresh clone needs no other set-up step.  ``site`` installs only
what building the site needs (the ``site`` extra: theme, MyST, the search's stemmer), so a first run is quick;
``test`` installs everything.  Each keeps its own stamp, and a ``.venv`` made for ``test`` serves
``site`` as it is.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import subprocess
import sys
import threading
import time
import venv
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
#: The extras each command needs; a command is also served by any set that includes its own.
EXTRAS = {"site": "site", "check": "test,myst,chart,site", "test": "test,myst,chart,site", "pdf": "site"}


def _stamp(command: str) -> Path:
    return VENV / f".sphinx-rpg-stamp-{command}"


def _fingerprint(extras: str) -> str:
    digest = hashlib.sha256(extras.encode())
    for name in ("pyproject.toml", "constraints.txt"):
        path = ROOT / name
        if path.exists():
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _up_to_date(command: str) -> bool:
    stamp = _stamp(command)
    return stamp.exists() and stamp.read_text().strip() == _fingerprint(EXTRAS[command])


def ensure_venv(command: str) -> None:
    """Create the virtual environment or bring it up to date with what ``command`` needs."""
    wanted = set(EXTRAS[command].split(","))
    if any(_up_to_date(other) for other, extras in EXTRAS.items() if wanted <= set(extras.split(","))):
        return
    started = time.monotonic()
    if not (BIN / "python").exists():
        print("dev.py: creating .venv", flush=True)
        # without pip: ensurepip takes seconds, and building the site needs no pip in .venv (see install)
        venv.EnvBuilder(with_pip=False).create(VENV)
    # the tests run the pip of .venv (the starter's fresh installs): the test extra names pip, so it is
    # installed with everything else, in a fraction of ensurepip's time (about 6 s of one core)
    what = "what building the site needs" if command == "site" else "its test dependencies"
    print(f"dev.py: installing sphinx-rpg and {what} into .venv", flush=True)
    install(f".[{EXTRAS[command]}]", compile_bytecode=command != "site")
    _stamp(command).write_text(_fingerprint(EXTRAS[command]) + "\n")
    print(f"dev.py: .venv ready in {time.monotonic() - started:.0f} s", flush=True)


def ensure_pip() -> None:
    """pip in .venv (made without it), by the standard library's ensurepip."""
    if not (BIN / ("pip.exe" if os.name == "nt" else "pip")).exists():
        subprocess.run([str(BIN / "python"), "-m", "ensurepip", "--default-pip"], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)


def host_pip() -> bool:
    """Whether the Python running this file has a pip that installs into another environment
    (``--python``, pip 22.3 and newer)."""
    try:
        from importlib.metadata import version

        major, minor = (int(part) for part in version("pip").split(".")[:2])
    except (ImportError, ValueError):
        return False
    return (major, minor) >= (22, 3)


def install(target: str, compile_bytecode: bool = True) -> None:
    """``pip install -e target`` into .venv, by uv when it can be had, else by pip itself.

    uv (a PyPI package, put into .venv by pip) installs the same pinned wheels in seconds where pip
    takes minutes on a fresh .venv; when uv cannot be installed or fails, pip does the whole install.
    uv is put there by the pip of the Python running this file, when it has one: .venv then needs no
    pip of its own (ensurepip is the slowest part of making it).  ``compile_bytecode=False``: uv
    compiles no installed module (most of its time: every module of every package, where the site's
    builds import about a quarter of them and write their bytecode themselves, see ``site``).
    """
    python = str(BIN / "python")
    constraints = ["-c", str(ROOT / "constraints.txt")] if (ROOT / "constraints.txt").exists() else []
    options = ["install", "--quiet", "--disable-pip-version-check", *constraints]
    pip = [python, "-m", "pip", *options]
    if os.environ.get("SPHINX_RPG_PIP") != "1":  # SPHINX_RPG_PIP=1: pip only, as before uv
        uv = BIN / ("uv.exe" if os.name == "nt" else "uv")
        if not uv.exists() and not host_pip():
            ensure_pip()
        get_uv = [sys.executable, "-m", "pip", "--python", python, *options] if host_pip() else pip
        if uv.exists() or subprocess.run([*get_uv, "uv"], cwd=ROOT).returncode == 0:
            compiled = ["--compile-bytecode"] if compile_bytecode else []
            done = subprocess.run([str(uv), "pip", "install", "--quiet", "--python", python, *compiled,
                                   *constraints, "-e", target], cwd=ROOT)
            if done.returncode == 0:
                return
            print("dev.py: uv could not install sphinx-rpg; installing with pip instead", flush=True)
    ensure_pip()
    subprocess.run([*pip, "-e", target], cwd=ROOT, check=True)


def run(*args: str, env: dict[str, str] | None = None, log: list[str] | None = None, nice: bool = False,
        bytecode: bool = False) -> int:
    """Run a tool of .venv; with ``log``, its output is kept there instead of printed (see ``lanes``);
    ``nice``: at a lower priority than the commands beside it, where the system has ``nice``;
    ``bytecode``: the tool writes the bytecode of what it imports (by default it writes none), even where
    the environment says PYTHONDONTWRITEBYTECODE: .venv and the checkout are this file's to manage."""
    environment = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    environment.update({} if bytecode else {"PYTHONDONTWRITEBYTECODE": "1"}, **(env or {}))
    command = [str(BIN / args[0]), *args[1:]]
    if nice and shutil.which("nice"):
        command = ["nice", "-n", "5", *command]
    if log is None:
        return subprocess.run(command, cwd=ROOT, env=environment).returncode
    done = subprocess.run(command, cwd=ROOT, env=environment, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True)
    log.append(done.stdout)
    return done.returncode


def say(text: str, log: list[str] | None = None) -> None:
    """Print a progress line now, or keep it in ``log`` with the output of the commands around it."""
    if log is None:
        print(f"dev.py: {text}", flush=True)
    else:
        log.append(f"dev.py: {text}\n")


def lanes(pool: ThreadPoolExecutor, jobs: dict[str, Callable[[list[str]], int]]) -> dict[str, Future[tuple[int, str]]]:
    """Start the named ``jobs`` side by side in ``pool`` (every command a process of its own: all cores
    work); each future gives the job's status and its log (its commands' output and its time), kept
    whole so that two builds' warnings never interleave."""
    def one(name: str) -> tuple[int, str]:
        log: list[str] = []
        started, status = time.monotonic(), 1
        try:
            status = jobs[name](log)
        finally:
            say(f"{name}: done in {time.monotonic() - started:.0f} s", log)
        return status, "".join(log)

    return {name: pool.submit(one, name) for name in jobs}


#: Books that extend a core book (supplements/<name>/conf.py); each is built after docs/ and published
#: inside the core site at supplements/<name>/, its intersphinx links reading the core's inventory.
SUPPLEMENTS = sorted(path.parent.name for path in (ROOT / "supplements").glob("*/conf.py"))


def build_supplements(core_html: str, *options: str, log: list[str] | None = None) -> int:
    """Build every supplement against the core site just built (``-W`` when ``options`` say so)."""
    status = 0
    for name in SUPPLEMENTS:
        doctrees = f"{core_html}/../supplement-doctrees/{name}"
        status |= run("sphinx-build", *options, "-q", "-b", "html", "-d", doctrees, f"supplements/{name}",
                      f"{core_html}/supplements/{name}", env={"RPG_CORE_HTML": str(ROOT / core_html)}, log=log)
    return status


#: The site's editions: (name, ``-D`` overrides, output folder).  Each keeps doctrees of its own: the
#: editions differ in what is read (see the manual's "Editions and reader aids").
EDITIONS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("designer", (), "docs/_build/html"),
    ("player", ("-D", "rpg_edition=player"), "docs/_build/player"),
)
#: What ``site`` adds for the player edition, the shorter of the two: it reads the matchup pages first
#: (``rpg_read_first``), so it plays the simulated fights both editions show while the designer edition,
#: the one the site waits for, reads other pages; the designer edition then reads the kept answer.
PLAYER_READS_FIRST = ("-D", "rpg_read_first=*/matchups")


def usable_cores() -> int:
    """The cores this process may run on (its affinity, where the system tells it)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def site_jobs() -> str:
    """``-j`` for each edition of ``site``: on two cores or fewer the two editions, each a process, keep
    every core busy already, and Sphinx's own processes would only add their cost (each forks, pickles
    its pages and environment back and merges them: about a fifth more CPU time for the designer
    edition); on more cores each edition also uses Sphinx's."""
    return "auto" if usable_cores() > 2 else "1"


def site() -> int:
    """Build every edition of the site and say where each one is.

    The editions build side by side, each a process of its own, the player edition at a lower priority:
    the designer edition and then the supplements (published inside it, reading its inventory) are the
    longer chain, and the player edition takes the core that chain leaves idle (its serial stretches,
    the supplements' one process).  Each costly result both need, a matchup
    (``rpg_matchup_cache``) or the calculator's engine bytecode, is worked out by whichever
    edition needs it first while the other waits for it and reads it back.

    The editions write the bytecode of the installed modules they import (``.venv`` is made for ``site``
    without any: compiling all of it costs more than compiling what the builds use), after the checkout's
    own modules are compiled, checked by the source's hash (``compile_checkout``), so no bytecode of an
    edited module is ever written by its time stamp.
    """
    started = time.monotonic()
    if not (CHECKOUT_COMPILED.is_set() and venv_is_this_python()):  # see main: done while .venv was made
        compile_checkout()
    (designer, designer_overrides, designer_out), (player, player_overrides, player_out) = EDITIONS

    def edition(name: str, overrides: tuple[str, ...], outdir: str, nice: bool = False) -> int:
        began = time.monotonic()
        status = run("sphinx-build", "-b", "html", "-j", site_jobs(), "-q", *overrides, "-d",
                     f"docs/_build/doctrees-{name}", "docs", outdir, nice=nice, bytecode=True)
        if not status:
            say(f"the {name} edition of the site is at {ROOT / outdir / 'index.html'} "
                f"({time.monotonic() - began:.0f} s)")
        return status

    with ThreadPoolExecutor(max_workers=1) as pool:
        players = pool.submit(edition, player, (*player_overrides, *PLAYER_READS_FIRST), player_out, nice=True)
        status = edition(designer, designer_overrides, designer_out)
        if not status:  # the supplements are published inside the designer edition
            status = build_supplements(designer_out)
        status = players.result() or status
    say(f"the site took {time.monotonic() - started:.0f} s")
    return status


LINTED = ("rules", "sphinx_rpg", "bench", "ci", "tests", "dev.py", "conftest.py", "docs/conf.py", "docs/conftest.py",
          "supplements")


def check(log: list[str] | None = None) -> int:
    """Lint with ruff and type-check with mypy; both run (each names what it found) and either fails it."""
    failed = []
    say("ruff (lint)", log)
    if run("ruff", "check", "--quiet", *LINTED, log=log):
        failed.append("ruff")
    say("mypy (types)", log)
    if run("mypy", log=log):  # what it checks and how strictly: [tool.mypy] in pyproject.toml
        failed.append("mypy")
    if failed:
        say(f"static checks failed: {', '.join(failed)} (see above)", log)
    return 1 if failed else 0


#: Where the test command builds docs/ (each a -W build the site tests then read, see tests/conftest.py).
TEST_HTML, TEST_LATEX, TEST_PLAYER = "docs/_build/test-html", "docs/_build/test-latex", "docs/_build/test-player"


#: Everything the -W builds read: sources, the extension and engine, the pinned tools, this file, and
#: the vendored Pyodide (a build made before it was vendored loads Pyodide from the CDN instead; the
#: version is sphinx_rpg.vendor.PYODIDE_VERSION, which this file cannot import).
BUILD_INPUTS = ("docs", "sphinx_rpg", "rules", "supplements", "pyproject.toml", "constraints.txt", "dev.py",
                ".cache/pyodide/314.0.7/.rpg-vendored.json", ".cache/pyodide/314.0.7/python_stdlib_pyc.zip")


def inputs_digest() -> str:
    """A digest of every file the builds read (build output and bytecode aside) and of the Python running."""
    digest = hashlib.sha256(f"{sys.version}\0{sys.platform}\0".encode())
    for top in BUILD_INPUTS:
        path = ROOT / top
        files = [path] if path.is_file() else sorted(
            file for file in path.rglob("*")
            if file.is_file() and not {"_build", "__pycache__"} & set(file.relative_to(ROOT).parts))
        for file in files:
            digest.update(file.relative_to(ROOT).as_posix().encode() + b"\0" + file.read_bytes() + b"\0")
    return digest.hexdigest()


def reusable(name: str, digest: str, *outputs: str) -> bool:
    """Whether build ``name`` passed on these very inputs and left its outputs: it would only repeat itself."""
    record = ROOT / "docs/_build" / f"test-passed-{name}"
    return (record.exists() and record.read_text().strip() == digest
            and all((ROOT / output).is_dir() for output in outputs))


def passed(name: str, digest: str | None) -> None:
    """Remember that build ``name`` passed on the inputs of ``digest`` (``None``: it did not pass)."""
    record = ROOT / "docs/_build" / f"test-passed-{name}"
    if digest is None:
        record.unlink(missing_ok=True)
    else:
        record.write_text(digest + "\n")


#: The locks the test command holds on the outputs it is building (``claim``), by output.
_CLAIMS: dict[str, Any] = {}


def claim(output: str) -> None:
    """Hold an exclusive lock on ``<output>.lock`` until ``finished`` says how its build went: a site test
    (tests/conftest.py) blocks on that lock, and the system releases it if this process dies, so the
    test wakes at the event, never by polling.  Taken before pytest starts, so no test can be first.
    Without ``fcntl`` (Windows) nothing is held and the tests poll for the status file instead."""
    try:
        import fcntl
    except ImportError:
        return
    lock = (ROOT / f"{output}.lock").open("a")
    fcntl.flock(lock, fcntl.LOCK_EX)
    _CLAIMS[output] = lock


def finished(output: str, status: int | None) -> None:
    """Tell the site tests, which wait for it (tests/conftest.py), that ``output`` is built (``status``
    0), failed (non-zero), or is about to be built again (``None``); a status releases ``claim``'s lock."""
    record = ROOT / f"{output}.status"
    if status is None:
        record.unlink(missing_ok=True)
        return
    # written whole, then renamed: a test never reads a half-written file
    partial = record.with_name(record.name + ".partial")
    partial.write_text(f"{status}\n")
    partial.replace(record)
    lock = _CLAIMS.pop(output, None)
    if lock is not None:
        lock.close()  # closing the file releases its lock: the waiting tests read the status


def designer_builds(log: list[str], digest: str) -> int:
    """The designer edition, the supplements inside it, then the LaTeX sources from the same doctrees."""
    if reusable("designer", digest, TEST_HTML, TEST_LATEX):
        say("docs/ is unchanged since its -W builds (html, supplements, latex) passed: reusing them", log)
        finished(TEST_HTML, 0)
        finished(TEST_LATEX, 0)
        return 0
    passed("designer", None)
    html_status = latex_status = 1
    try:
        doctrees = ["-d", "docs/_build/test-doctrees"]
        say("warnings-as-errors build of docs/ (html)", log)
        html_status = run("sphinx-build", "-W", "--keep-going", "-q", "-E", "-b", "html", *doctrees, "docs",
                          TEST_HTML, log=log)
        if not html_status:
            say("warnings-as-errors build of the supplements (html)", log)
            html_status = build_supplements(TEST_HTML, "-W", "--keep-going", "-E", log=log)
        finished(TEST_HTML, html_status)
        say("warnings-as-errors build of docs/ (latex, for print)", log)
        shutil.rmtree(ROOT / TEST_LATEX, ignore_errors=True)  # a .tex of an older document layout must not linger
        latex_status = run("sphinx-build", "-W", "--keep-going", "-q", "-b", "latex", *doctrees, "docs", TEST_LATEX,
                           log=log)
    finally:  # whatever happened, the tests waiting for these outputs are told
        finished(TEST_HTML, html_status)
        finished(TEST_LATEX, latex_status)
    passed("designer", None if html_status or latex_status else digest)
    return html_status or latex_status


def player_build(log: list[str], digest: str) -> int:
    """The player edition: it reads its pages differently, so it has doctrees of its own.  It runs beside
    the designer edition, not after it: each matchup and the engine's bytecode is worked out once
    whichever build needs it first, the other waiting on that entry's lock (``sphinx_rpg.files.held``)
    and then reading it from the shared cache (``rpg_matchup_cache``).  As for ``site``, it reads the
    matchup pages first (``PLAYER_READS_FIRST``): the designer lane is the longer one."""
    if reusable("player", digest, TEST_PLAYER):
        say("docs/ is unchanged since its -W build (html, player edition) passed: reusing it", log)
        finished(TEST_PLAYER, 0)
        return 0
    passed("player", None)
    status = 1
    try:
        say("warnings-as-errors build of docs/ (html, player edition)", log)
        status = run("sphinx-build", "-W", "--keep-going", "-q", "-E", "-b", "html", "-D", "rpg_edition=player",
                     *PLAYER_READS_FIRST, "-d", "docs/_build/test-player-doctrees", "docs", TEST_PLAYER, log=log)
    finally:
        finished(TEST_PLAYER, status)
    passed("player", None if status else digest)
    return status


def workers(arguments: list[str]) -> list[str]:
    """pytest-xdist's ``-n``: one worker per core, unless the command line chose (``-n 0`` runs
    in-process).  Every worker starts pytest and collects every test (5 to 7 s of CPU), launches a
    Chromium of its own and warms a Sphinx of its own.  The command is CPU-bound from a fresh clone:
    the -W builds run beside pytest and take the time a worker spends waiting on a child process, so a
    worker more than the cores cost more than it filled (on 2 cores, loaded: 481 CPU-s for the whole
    command with 2 workers and this session's other cuts, 551 with 3 before them).  With the builds
    reused, nothing beside pytest, a third worker had been quicker (185 s against 210 s, quiet)."""
    if "no:xdist" in arguments or any(arg.startswith(("-n", "--numprocesses", "--dist")) for arg in arguments):
        return []
    cores = usable_cores()
    # loadfile: a file's tests run on one worker, so a costly fixture its tests share (a tour of every
    # page, one Pyodide session) is made once.  (loadgroup's marks are lost on pytest 9.2: its group
    # rides on the test id, which pytest 9.2 no longer lets a plugin rewrite.)  no-loadscope-reorder:
    # the files go out in the order tests/conftest.py gives them (costly first, the site's tests after
    # the site is built), not by their number of tests.
    return ["-n", str(min(cores, 8)), "--dist", "loadfile", "--no-loadscope-reorder"] if cores > 1 else []


#: The packages every process of the test command imports, compiled once by ``compile_checkout``.
COMPILED = ("sphinx_rpg", "rules")


def compile_checkout(log: list[str] | None = None) -> int:
    """The bytecode of the checkout's own modules, written once before the test command's processes start.

    ``run`` lets no process write bytecode, so each Python the command starts (the pytest workers, every
    build, each CLI or Sphinx subprocess of a test) compiled the engine and the extension again: about
    half a second of CPU each.  The bytecode is checked by the source's hash, never by its time stamp, so
    an edit made in the same second at the same size is never read from a stale file; the temporary
    projects the tests write and edit are not compiled (so a test never meets a bytecode of its own files)."""
    return run("python", "-m", "compileall", "-q", "--invalidation-mode", "checked-hash", *COMPILED, log=log)


#: Set once the Python running this file has compiled the checkout (``compile_checkout_here``).
CHECKOUT_COMPILED = threading.Event()


def compile_checkout_here() -> None:
    """``compile_checkout`` by the Python running this file, which needs no .venv: ``site`` has it done
    while .venv is being made (mostly downloads and copies), not in front of both editions."""
    done = subprocess.run([sys.executable, "-m", "compileall", "-q", "--invalidation-mode", "checked-hash",
                           *COMPILED], cwd=ROOT, stdout=subprocess.DEVNULL)
    if done.returncode == 0:
        CHECKOUT_COMPILED.set()


def venv_is_this_python() -> bool:
    """Whether .venv runs this Python's version (its bytecode then is this Python's: the same file names)."""
    try:
        lines = (VENV / "pyvenv.cfg").read_text().splitlines()
    except OSError:
        return False
    settings = {key.strip(): value.strip() for key, _, value in (line.partition("=") for line in lines)}
    version = settings.get("version") or settings.get("version_info") or ""
    return version.split(".")[:2] == [str(part) for part in sys.version_info[:2]]


#: prctl's option that makes a process the reaper of its orphaned descendants (Linux 3.4 and newer).
PR_SET_CHILD_SUBREAPER = 36


def adopt_orphans() -> None:
    """Become the parent of every orphaned descendant (Linux; elsewhere nothing happens).

    Chromium's helper processes (the browser tests' renderers) outlive their parent and were handed to
    init, which waited for them: their CPU time reached no process of this command, and a timer such as
    ``time`` left it out (two thirds of what a dozen page loads cost the browser).  Adopted, they end as
    this process's children, and ``reap_orphans`` collects them with their CPU time."""
    if not sys.platform.startswith("linux"):
        return
    import contextlib
    import ctypes

    with contextlib.suppress(OSError, AttributeError):  # no prctl: the orphans go to init, as before
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def reap_orphans() -> None:
    """Collect the adopted descendants that have ended (``adopt_orphans``); called once every command
    this process started has been waited for, so it takes no child that ``subprocess`` still waits for.
    One still running is left to the system, never waited for."""
    if not hasattr(os, "WNOHANG"):
        return
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:  # no child at all
            return
        if pid == 0:  # children remain, none has ended
            return


def cpu_seconds() -> float | None:
    """CPU time of this process and of the children it has waited for (``None`` without ``resource``)."""
    try:
        import resource
    except ImportError:
        return None
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def test() -> int:
    """Run the static checks, the -W builds of every format and pytest (on every core) side by side.

    The site tests (print, browser) check these very outputs, named in SPHINX_RPG_SITE_*, so nothing
    is built twice: pytest runs them last, each waiting until the output it reads is built (or failed);
    every other test runs meanwhile.  Run alone, those tests build what they need themselves.
    A build that passed on inputs equal to today's (``inputs_digest``) is not repeated: its output is
    what it would build again.  Deleting docs/_build forces every build.
    """
    started, spent = time.monotonic(), cpu_seconds()
    adopt_orphans()
    (ROOT / "docs/_build").mkdir(parents=True, exist_ok=True)
    for output in (TEST_HTML, TEST_LATEX, TEST_PLAYER):
        finished(output, None)
        claim(output)
    digest = inputs_digest()  # before building: an edit made during the builds is not taken as built
    compile_checkout()  # before any process imports them
    built = {"SPHINX_RPG_SITE_HTML": TEST_HTML, "SPHINX_RPG_SITE_LATEX": TEST_LATEX,
             "SPHINX_RPG_SITE_PLAYER": TEST_PLAYER, "SPHINX_RPG_SITE_BUILDER": str(os.getpid())}
    with ThreadPoolExecutor(max_workers=3) as pool:
        jobs = lanes(pool, {"html, supplements and latex": partial(designer_builds, digest=digest),
                            "player edition": partial(player_build, digest=digest),
                            "static checks": check})
        say("pytest (unit, integration, Sybil over docs/), beside the static checks and the -W builds")
        arguments = sys.argv[2:]
        # nice: the builds go first, as the site tests (run last) wait for them; pytest takes the spare time
        # -p tests.startup_bytecode: each pytest process keeps the bytecode of the plugins and conftests it imports
        status = run("python", "-m", "pytest", "-q", "-p", "tests.startup_bytecode", *workers(arguments), *arguments,
                     env=built, nice=True)
        say(f"pytest: done in {time.monotonic() - started:.0f} s")
        results = {name: job.result() for name, job in jobs.items()}
    for _, log in results.values():
        print(log, end="", flush=True)
    checks_status = results["static checks"][0]
    build_status = results["html, supplements and latex"][0] or results["player edition"][0]
    if build_status:
        say("the docs/ build has warnings (see above)")
    failed = [name for name, code in (("static checks (ruff/mypy)", checks_status), ("docs build", build_status),
                                      ("pytest", status)) if code]
    reap_orphans()
    if spent is not None and (now := cpu_seconds()) is not None:
        say(f"CPU time of the test command and of every process it started: {now - spent:.0f} s")
    say(f"the test command took {time.monotonic() - started:.0f} s")
    if failed:
        say(f"FAILED: {', '.join(failed)}")
    return 1 if failed else 0


#: Debian's packages that ``pdf`` needs (TeX Live with XeLaTeX, its fonts, latexmk; TeX Gyre too).
TEX_PACKAGES = ("texlive-latex-extra", "texlive-fonts-recommended", "texlive-xetex", "fonts-freefont-otf",
                "fonts-texgyre", "tex-gyre", "latexmk")
PDF_OUT = "docs/_build/pdf-player"


def pdf() -> int:
    """One PDF per book of the player edition: Sphinx writes the LaTeX (XeLaTeX, for the books' Unicode),
    then latexmk typesets each book in turn.  Not part of ``test``: TeX is a large install."""
    if not (shutil.which("latexmk") and shutil.which("xelatex")):
        print("dev.py: the PDFs need TeX; on Debian or Ubuntu: apt-get install " + " ".join(TEX_PACKAGES),
              file=sys.stderr, flush=True)
        return 2
    started = time.monotonic()
    shutil.rmtree(ROOT / PDF_OUT, ignore_errors=True)
    status = run("sphinx-build", "-q", "-b", "latex", "-D", "rpg_edition=player", "-D", "latex_engine=xelatex",
                 "-D", "latex_use_xindy=0", "-d", "docs/_build/doctrees-pdf", "docs", PDF_OUT)
    if status:
        return status
    for tex in sorted((ROOT / PDF_OUT).glob("*.tex")):
        done = subprocess.run(["latexmk", "-xelatex", "-interaction=nonstopmode", "-halt-on-error", "-quiet",
                               tex.name], cwd=tex.parent, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        made = tex.with_suffix(".pdf")
        if done.returncode or not made.exists():
            print(done.stdout[-3000:], flush=True)
            say(f"{tex.name}: typesetting failed (the log is {tex.with_suffix('.log')})")
            status = 1
        else:
            say(f"{made.relative_to(ROOT)}")
    say(f"the PDFs took {time.monotonic() - started:.0f} s")
    return status



def versions() -> int:
    """Every directive on the lowest and the newest Sphinx declared (ci/sphinx_versions.py; minutes)."""
    return subprocess.run([sys.executable, str(ROOT / "ci" / "sphinx_versions.py"), *sys.argv[2:]]).returncode


COMMANDS = {"site": site, "test": test, "check": check, "pdf": pdf}


def main() -> int:
    if sys.argv[1:2] == ["versions"]:  # its own environments, one per Sphinx: not .venv
        return versions()
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        print(__doc__)
        return 2
    with ThreadPoolExecutor(max_workers=2) as pool:
        # the dice calculator's Pyodide (once from npm, then from .cache/) arrives while .venv is made
        vendoring = (pool.submit(vendor_pyodide, beside_builds=sys.argv[1] == "site")
                     if sys.argv[1] in ("site", "test") else None)
        if sys.argv[1] == "site":  # and the checkout's bytecode is written meanwhile (see site)
            pool.submit(compile_checkout_here)
        ensure_venv(sys.argv[1])
        precompiling = vendoring.result() if vendoring is not None else None
    try:
        return COMMANDS[sys.argv[1]]()
    finally:
        if precompiling is not None:
            precompiling.join()


def vendor_pyodide(beside_builds: bool = False) -> threading.Thread | None:
    """``rpg pyodide .cache/pyodide`` without .venv: sphinx_rpg/vendor.py needs only the standard library,
    so this python3 runs it while .venv is being made.  A failure is said; the build then warns and the
    calculator loads Pyodide from its CDN.

    ``beside_builds``: the standard library's bytecode (Node.js, the longest part of a first run) is
    compiled by the thread returned, while the site builds; the builds read it only when they copy the
    calculator's files, at their end, and wait there for the lock held meanwhile (``vendor.await_stdlib``).
    Without ``fcntl`` (no lock) it is compiled first, as for ``test``."""
    spec = importlib.util.spec_from_file_location("_rpg_vendor", ROOT / "sphinx_rpg" / "vendor.py")
    if spec is None or spec.loader is None:
        return None
    vendor = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(vendor)
    try:
        target = vendor.vendor_pyodide(ROOT / ".cache" / "pyodide")
    except vendor.VendorError as error:
        say(f"Pyodide could not be vendored: {error}")
        return None
    say(f"Pyodide {vendor.PYODIDE_VERSION} for the dice calculator: {target.relative_to(ROOT)}")
    if (target / vendor.PRECOMPILED_STDLIB).is_file():
        return None
    lock = _locked(target / vendor.STDLIB_LOCK) if beside_builds else None
    if lock is None:
        precompile_stdlib(vendor, target)
        return None

    def precompile() -> None:
        try:
            precompile_stdlib(vendor, target)
        finally:  # removed, then unlocked (as sphinx_rpg.files.held does): the builds waiting go on
            (target / vendor.STDLIB_LOCK).unlink(missing_ok=True)
            lock.close()

    thread = threading.Thread(target=precompile, name="precompile the standard library")
    thread.start()
    return thread


def _locked(path: Path) -> Any:
    """``path`` opened and exclusively locked (``fcntl``), or ``None`` where there is no ``fcntl``."""
    try:
        import fcntl
    except ImportError:
        return None
    handle = path.open("a")
    fcntl.flock(handle, fcntl.LOCK_EX)
    return handle


#: The precompiling Node.js runs at the player edition's priority (``run``'s ``nice`` is 5): the two share
#: a core, and the designer edition, the longest chain, keeps one of its own.  (Not lower than the player:
#: both editions wait for its file at their end.)
PRECOMPILE_NICE = 5


def precompile_stdlib(vendor: Any, target: Path) -> None:
    """Once: the standard library's bytecode, so the calculator compiles none of it at each start."""
    try:
        made = vendor.precompile_stdlib(target, ROOT, nice=PRECOMPILE_NICE)
    except vendor.VendorError as error:
        say(f"{error}; the calculator compiles the standard library at each start")
        return
    say(f"the standard library's bytecode: {made.relative_to(ROOT)}" if made else
        "no Node.js here: the calculator compiles the standard library at each start")


if __name__ == "__main__":
    sys.exit(main())
