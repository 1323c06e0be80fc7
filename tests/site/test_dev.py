"""``python3 dev.py site`` installs only what building the site needs; ``dev.py test`` installs it all."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import threading
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def dev(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """dev.py as a module whose .venv is an empty temporary folder."""
    spec = importlib.util.spec_from_file_location("dev_under_test", ROOT / "dev.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "VENV", tmp_path)
    return module


def extras() -> dict[str, list[str]]:
    tomllib = pytest.importorskip("tomllib")
    with open(ROOT / "pyproject.toml", "rb") as file:
        return tomllib.load(file)["project"]["optional-dependencies"]


def names(requirements: list[str]) -> set[str]:
    return {requirement.split(">")[0].split("=")[0].split("<")[0].strip().lower() for requirement in requirements}


def test_the_site_extra_holds_the_theme_myst_and_the_stemmer_and_no_test_tool():
    site = names(extras()["site"])
    assert {"furo", "myst-parser", "pystemmer"} <= site
    assert site.isdisjoint({"pytest", "icepool", "sphinx-needs", "sybil", "hypothesis", "playwright"})


def test_the_site_command_installs_the_site_extra_and_the_test_command_everything(dev):
    assert dev.EXTRAS["site"] == "site"
    assert set(dev.EXTRAS["test"].split(",")) >= {"test", "site", "myst", "chart"}


class Commands(list):
    """A stand-in for ``subprocess.run``: records each command; those naming a ``failing`` word fail."""

    def __init__(self, *failing: str) -> None:
        super().__init__()
        self.failing = failing

    def __call__(self, args, **kwargs):
        self.append([str(arg) for arg in args])
        code = 1 if any(word in map(str, args) for word in self.failing) else 0
        return subprocess.CompletedProcess(args, code)

    def installs(self) -> list[list[str]]:
        """The commands that installed sphinx-rpg itself (``-e .[extras]``)."""
        return [command for command in self if command[-2:-1] == ["-e"]]


@pytest.fixture
def commands(dev, monkeypatch) -> Commands:
    recorded = Commands()
    monkeypatch.setattr(dev.subprocess, "run", recorded)
    monkeypatch.setattr(dev, "BIN", dev.VENV)
    (dev.VENV / "python").write_text("")  # an existing interpreter: no venv is created
    return recorded


def test_a_venv_made_for_the_tests_serves_the_site_but_not_the_other_way_round(dev, commands):
    dev.ensure_venv("test")
    assert commands.installs()[-1][-1] == f".[{dev.EXTRAS['test']}]"
    dev.ensure_venv("site")
    assert len(commands.installs()) == 1, "the test environment already holds everything the site needs"
    dev._stamp("test").unlink()
    dev.ensure_venv("site")
    assert commands.installs()[-1][-1] == ".[site]" and len(commands.installs()) == 2
    dev.ensure_venv("test")
    assert commands.installs()[-1][-1] == f".[{dev.EXTRAS['test']}]" and len(commands.installs()) == 3


def test_the_site_needs_no_pip_in_the_venv_and_the_tests_get_theirs_with_their_extra(dev, commands):
    """The starter's tests install with the pip of .venv: pip is a test dependency, installed with the
    others (by uv, in a fraction of ensurepip's time), never by ensurepip when uv works."""
    from importlib.metadata import requires

    dev.ensure_venv("site")
    dev.ensure_venv("test")
    assert not [command for command in commands if "ensurepip" in command]
    extras = {requirement.split(";")[0].split(">")[0].split("=")[0].strip(): requirement
              for requirement in requires("sphinx-rpg") or [] if requirement.startswith("pip")}
    assert "extra == \"test\"" in extras.get("pip", ""), "pip is a dependency of the test extra"
    assert commands.installs()[-1][-1] == f".[{dev.EXTRAS['test']}]"


def test_a_changed_pyproject_installs_again(dev, commands, monkeypatch):
    dev.ensure_venv("site")
    monkeypatch.setattr(dev, "_fingerprint", lambda extras: "another pyproject.toml")
    dev.ensure_venv("site")
    assert len(commands.installs()) == 2


def test_pip_installs_uv_which_installs_sphinx_rpg_with_the_same_constraints(dev, commands):
    dev.install(".[site]")
    (get_uv, install), constraints = commands, ["-c", str(dev.ROOT / "constraints.txt")]
    # the pip of the Python running dev.py, into .venv: .venv itself needs no pip to build the site
    assert get_uv[:5] == [sys.executable, "-m", "pip", "--python", str(dev.VENV / "python")]
    assert get_uv[5] == "install" and get_uv[-1] == "uv" and get_uv[-3:-1] == constraints
    assert install[0] == str(dev.VENV / "uv") and install[1:3] == ["pip", "install"]
    assert install[-4:] == [*constraints, "-e", ".[site]"] and "--compile-bytecode" in install


def test_the_site_venv_is_installed_without_bytecode_and_the_test_venv_with_it(dev, commands):
    """The site's builds compile the quarter of the installed modules they import (see ``site``); the
    test command's many processes read the bytecode of everything."""
    dev.ensure_venv("site")
    dev.ensure_venv("test")
    site, test = commands.installs()
    assert site[-1] == ".[site]" and "--compile-bytecode" not in site
    assert test[-1] == f".[{dev.EXTRAS['test']}]" and "--compile-bytecode" in test


def test_pip_installs_sphinx_rpg_when_uv_cannot_be_installed(dev, commands):
    commands.failing = ("uv",)
    dev.install(".[site]")
    assert commands[1][1:3] == ["-m", "ensurepip"], "pip is put into .venv first"
    assert len(commands) == 3 and commands[-1][1:4] == ["-m", "pip", "install"] and commands[-1][-1] == ".[site]"


def test_pip_installs_sphinx_rpg_when_uv_fails(dev, commands):
    commands.failing = ("--compile-bytecode",)
    dev.install(".[site]")
    assert [command[1:4] for command in commands.installs()] == [["pip", "install", "--quiet"],
                                                                 ["-m", "pip", "install"]]


def test_sphinx_rpg_pip_1_installs_with_pip_alone(dev, commands, monkeypatch):
    monkeypatch.setenv("SPHINX_RPG_PIP", "1")
    dev.install(".[site]")
    assert len(commands) == 2 and commands[0][1:3] == ["-m", "ensurepip"] and commands[1][1:4] == ["-m", "pip", "install"]


@pytest.mark.parametrize("arguments", [["-n", "0"], ["-n0"], ["--numprocesses=3"], ["-p", "no:xdist"],
                                       ["--dist", "load"]])
def test_pytest_runs_a_worker_per_core_unless_the_command_line_says_otherwise(dev, arguments):
    assert dev.workers(arguments) == []
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    assert dev.workers(["tests/heimr", "-x"]) == (["-n", str(min(cores, 8)), "--dist", "loadfile",
                                                   "--no-loadscope-reorder"] if cores > 1 else [])


#: Fixtures too costly to make once per xdist worker: the whole site read from its HTML, a tour of every
#: kind of page, one Pyodide tab, the player site's server.  (The wheel and sdist, ``dists``, serve two
#: files of tests/starter: the workers share them.)
COSTLY = ("site_html", "site_tour", "module_page", "player_site")


@pytest.mark.parametrize("fixture", COSTLY)
def test_a_costly_fixture_is_used_in_one_test_file_so_one_worker_makes_it(fixture):
    """``--dist loadfile`` keeps a file on one worker: a second file using the fixture makes it again."""
    users = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "tests").rglob("test_*.py")
                   if path.name != Path(__file__).name and re.search(rf"\b{fixture}\b", path.read_text(encoding="utf-8")))
    assert len(users) == 1, f"{fixture} is used in {users}"


def test_the_longest_files_go_first_then_those_that_build_then_the_site_then_the_rest():
    from tests import conftest

    def item(path: str, *fixtures: str) -> Any:
        return type("Item", (), {"nodeid": f"{path}::test_x", "fixturenames": fixtures})()

    items = [item("tests/dice/test_keep.py"), item("tests/site/test_reader.py", "site_tour", "built_html"),
             item("tests/extension/test_builds.py"), item("tests/starter/test_serve.py"),
             item("tests/site/test_print.py", "built_latex"), item("tests/starter/test_fresh_install.py")]
    conftest.pytest_collection_modifyitems(items)
    assert [test.nodeid.split("::")[0] for test in items] == [
        "tests/starter/test_fresh_install.py", "tests/starter/test_serve.py", "tests/extension/test_builds.py",
        "tests/site/test_reader.py", "tests/site/test_print.py", "tests/dice/test_keep.py"]


@pytest.fixture
def checkout(dev, tmp_path, monkeypatch) -> Path:
    """A tiny checkout for dev.py's build record: a page, an extension module, a pinned tool list."""
    root = tmp_path / "checkout"
    for name, text in {"docs/index.rst": "Index\n", "docs/_build/test-html/index.html": "<p>",
                       "docs/_build/test-latex/book.tex": "", "sphinx_rpg/domain.py": "", "rules/nodes.py": "",
                       "supplements/lines/index.rst": "", "pyproject.toml": "", "constraints.txt": "",
                       "dev.py": ""}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    monkeypatch.setattr(dev, "ROOT", root)
    return root


def test_a_build_that_passed_on_the_same_inputs_is_not_run_again(dev, checkout):
    digest = dev.inputs_digest()
    assert not dev.reusable("designer", digest, "docs/_build/test-html")
    dev.passed("designer", digest)
    assert dev.reusable("designer", digest, "docs/_build/test-html", "docs/_build/test-latex")
    assert not dev.reusable("player", digest, "docs/_build/test-html"), "each build keeps its own record"
    assert not dev.reusable("designer", digest, "docs/_build/test-player"), "its output is gone"
    dev.passed("designer", None)
    assert not dev.reusable("designer", digest, "docs/_build/test-html"), "a failed build is never reused"


@pytest.mark.parametrize("edited", ["docs/index.rst", "sphinx_rpg/domain.py", "rules/nodes.py",
                                    "supplements/lines/index.rst", "constraints.txt", "dev.py", "docs/new.rst"])
def test_any_edit_to_what_the_builds_read_builds_again(dev, checkout, edited):
    before = dev.inputs_digest()
    (checkout / edited).write_text("changed\n")
    assert dev.inputs_digest() != before


def test_build_output_and_bytecode_are_not_inputs(dev, checkout):
    before = dev.inputs_digest()
    (checkout / "docs/_build/test-html/index.html").write_text("rebuilt")
    (checkout / "rules/__pycache__").mkdir()
    (checkout / "rules/__pycache__/nodes.cpython-311.pyc").write_bytes(b"\0")
    assert dev.inputs_digest() == before


@pytest.mark.parametrize("command", ["site", "test"])
def test_only_the_site_compiles_pyodides_standard_library_beside_its_builds_and_ends_after_it(dev, monkeypatch,
                                                                                         command):
    """``site`` starts its builds while Node.js compiles it (they wait for it at their end); ``test``
    hashes that file among the builds' inputs first, so it is compiled before."""
    events: list[str] = []
    precompiled = threading.Event()

    def precompile() -> None:
        precompiled.wait(60)
        events.append("precompiled")

    def vendor_pyodide(beside_builds: bool = False) -> threading.Thread | None:
        events.append(f"vendored, beside the builds: {beside_builds}")
        if not beside_builds:
            return None
        thread = threading.Thread(target=precompile)
        thread.start()
        return thread

    def build() -> int:
        events.append("built")
        precompiled.set()
        return 0

    monkeypatch.setattr(dev, "vendor_pyodide", vendor_pyodide)
    monkeypatch.setattr(dev, "compile_checkout_here", lambda: None)
    monkeypatch.setattr(dev, "ensure_venv", lambda command: None)
    monkeypatch.setattr(dev, "COMMANDS", {command: build})
    monkeypatch.setattr(sys, "argv", ["dev.py", command])
    assert dev.main() == 0
    beside = command == "site"
    assert events == [f"vendored, beside the builds: {beside}", "built", *(["precompiled"] if beside else [])]


def test_the_site_compiles_the_checkout_while_the_venv_is_made_not_before_its_builds(dev, monkeypatch):
    """``site`` has this Python compile the checkout beside the making of .venv; its builds then start at
    once, unless .venv runs another Python version (whose bytecode has other file names)."""
    events: list[str] = []
    monkeypatch.setattr(dev, "vendor_pyodide", lambda beside_builds=False: None)
    monkeypatch.setattr(dev, "compile_checkout_here", lambda: events.append("compiled here") or
                        dev.CHECKOUT_COMPILED.set())
    monkeypatch.setattr(dev, "ensure_venv", lambda command: events.append("venv"))
    monkeypatch.setattr(dev, "COMMANDS", {"site": lambda: events.append("site") or 0})
    monkeypatch.setattr(sys, "argv", ["dev.py", "site"])
    assert dev.main() == 0
    assert sorted(events[:2]) == ["compiled here", "venv"] and events[2:] == ["site"]

    compiled: list[str] = []
    monkeypatch.setattr(dev, "compile_checkout", lambda log=None: compiled.append("compiled by .venv") or 0)
    monkeypatch.setattr(dev, "run", lambda *args, **kwargs: 0)
    monkeypatch.setattr(dev, "build_supplements", lambda *args, **kwargs: 0)
    (dev.VENV / "pyvenv.cfg").write_text(f"home = /usr/bin\nversion = {sys.version_info[0]}.{sys.version_info[1]}.0\n")
    assert dev.venv_is_this_python() and dev.site() == 0 and compiled == []
    (dev.VENV / "pyvenv.cfg").write_text("home = /usr/bin\nversion = 2.7.18\n")
    assert not dev.venv_is_this_python() and dev.site() == 0 and compiled == ["compiled by .venv"]


def test_each_edition_is_one_sphinx_process_on_two_cores_and_the_player_edition_reads_the_matchups_first(
        dev, monkeypatch):
    """On two cores the two editions keep both busy (Sphinx's -j would add its cost); the player edition,
    the shorter, plays the shared matchups while the designer edition reads other pages."""
    commands: list[tuple[str, ...]] = []
    monkeypatch.setattr(dev, "run", lambda *args, **kwargs: commands.append(args) or 0)
    monkeypatch.setattr(dev, "build_supplements", lambda *args, **kwargs: 0)
    monkeypatch.setattr(dev, "compile_checkout", lambda log=None: 0)
    for cores, jobs in (({0, 1}, "1"), ({0}, "1"), ({0, 1, 2, 3}, "auto")):
        monkeypatch.setattr(dev.os, "sched_getaffinity", lambda pid, cores=cores: cores, raising=False)
        commands.clear()
        assert dev.site() == 0
        builds = {command[command.index("-d") + 1]: command for command in commands if command[0] == "sphinx-build"}
        player, designer = builds["docs/_build/doctrees-player"], builds["docs/_build/doctrees-designer"]
        assert player[player.index("-j") + 1] == designer[designer.index("-j") + 1] == jobs
        assert "rpg_read_first=*/matchups" in player and not any("rpg_read_first" in part for part in designer)


def test_pytest_runs_at_a_lower_priority_than_the_builds_it_waits_for(dev, monkeypatch):
    commands = Commands()
    monkeypatch.setattr(dev.subprocess, "run", commands)
    monkeypatch.setattr(dev.shutil, "which", lambda name: "/usr/bin/nice")
    dev.run("python", "-m", "pytest", nice=True)
    dev.run("sphinx-build", "-b", "html")
    assert commands[0][:3] == ["nice", "-n", "5"] and commands[0][3:] == [str(dev.BIN / "python"), "-m", "pytest"]
    assert commands[1][0] == str(dev.BIN / "sphinx-build")


def test_a_tool_writes_no_bytecode_unless_asked_to(dev, monkeypatch):
    environments: list[dict[str, str]] = []
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")  # the editions' .venv bytecode is dev.py's to write
    monkeypatch.setattr(dev.subprocess, "run", lambda args, **kwargs: environments.append(kwargs["env"])
                        or subprocess.CompletedProcess(args, 0))
    dev.run("sphinx-build", "-b", "html")
    dev.run("sphinx-build", "-b", "html", bytecode=True)
    assert environments[0]["PYTHONDONTWRITEBYTECODE"] == "1" and "PYTHONDONTWRITEBYTECODE" not in environments[1]


def test_the_engine_is_compiled_once_and_its_bytecode_checked_by_the_sources_hash(dev, checkout):
    """Every process of the test command reads the engine's bytecode instead of compiling it; an edit
    made within the same second at the same size (a time stamp's blind spot) is still what runs."""
    module = checkout / "rules" / "nodes.py"
    module.write_text("VALUE = 1\n")
    assert dev.compile_checkout() == 0
    bytecode = Path(importlib.util.cache_from_source(str(module)))
    assert int.from_bytes(bytecode.read_bytes()[4:8], "little") == 0b11  # by hash, checked at each import
    assert Path(importlib.util.cache_from_source(str(checkout / "sphinx_rpg" / "domain.py"))).is_file()
    stamp = module.stat().st_mtime_ns
    module.write_text("VALUE = 2\n")
    os.utime(module, ns=(stamp, stamp))
    spec = importlib.util.spec_from_file_location("nodes_edited", module)
    assert spec is not None and spec.loader is not None
    edited = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(edited)
    assert edited.VALUE == 2


def test_the_workers_collect_in_turn_keeping_the_rewritten_test_modules_only_while_collecting(monkeypatch,
                                                                                              tmp_path):
    """The first worker rewrites the test modules' asserts and keeps their bytecode; the next ones wait on
    the lock and read it; no bytecode is written once the tests run."""
    fcntl = pytest.importorskip("fcntl")
    from tests import conftest

    monkeypatch.setattr(conftest, "COLLECTING", tmp_path / "collecting.lock")
    monkeypatch.setattr(sys, "dont_write_bytecode", True)

    def held() -> bool:
        with conftest.COLLECTING.open("a") as other:
            try:
                fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return True
            return False

    collecting = conftest.pytest_collection(None)
    next(collecting)  # collection under way
    assert held() and sys.dont_write_bytecode is False
    with pytest.raises(StopIteration):
        collecting.send(None)  # collection done
    assert not held() and sys.dont_write_bytecode is True


def test_pytest_keeps_the_bytecode_of_what_it_imports_while_starting_and_of_nothing_a_test_imports(monkeypatch):
    """``-p tests.startup_bytecode``: the plugins and conftests each pytest process imports are compiled
    once (Hypothesis' rewritten modules, every run, in every process, before); from the session's start
    the environment's PYTHONDONTWRITEBYTECODE holds again, before any test runs."""
    monkeypatch.setattr(sys, "dont_write_bytecode", True)  # the test command's environment
    spec = importlib.util.spec_from_file_location("startup_bytecode_again", ROOT / "tests" / "startup_bytecode.py")
    assert spec is not None and spec.loader is not None
    plugin = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(plugin)  # imported first of all, by -p
    assert sys.dont_write_bytecode is False
    plugin.pytest_sessionstart(None)
    assert sys.dont_write_bytecode is True


@pytest.fixture
def site_build(tmp_path, monkeypatch):
    """The waiting side of tests/conftest.py, for an output the test command is building."""
    from tests import conftest

    monkeypatch.setenv("SPHINX_RPG_SITE_BUILDER", str(os.getpid()))
    output = tmp_path / "test-html"
    output.mkdir()
    return conftest._wait_for_build, output, output.with_name("test-html.status")


def test_a_site_test_waits_until_the_test_command_has_built_its_output(dev, site_build):
    wait, output, status = site_build
    dev.claim(str(output))  # as the test command does before pytest starts
    status.write_text("0\n")  # a status already there: only the lock holds the test back
    returned = threading.Event()
    waiter = threading.Thread(target=lambda: (wait(output), returned.set()))
    waiter.start()
    # a wait that does not block returns at once; a correct one never returns while the lock is held,
    # so this look (bounded, for a wrong early return) cannot fail a correct wait however slow the machine
    waiter.join(timeout=0.5)
    assert not returned.is_set(), "the test went on while its output was still being built"
    dev.finished(str(output), 0)  # the build ends: the lock is released, the test goes on
    waiter.join()
    assert returned.is_set()


def test_a_failed_build_fails_the_site_tests_that_read_it(dev, site_build):
    wait, output, status = site_build
    dev.claim(str(output))
    dev.finished(str(output), 1)
    with pytest.raises(pytest.fail.Exception, match="-W build of .* failed"):
        wait(output)


def test_a_site_test_stops_waiting_when_the_test_command_has_stopped(site_build):
    """The command dies holding the lock: the system releases it, and the test fails at once."""
    wait, output, _ = site_build
    holder = subprocess.Popen([sys.executable, "-c", f"""if True:
        import fcntl, sys
        lock = open({str(output) + ".lock"!r}, "a")
        fcntl.flock(lock, fcntl.LOCK_EX)
        print("locked", flush=True)
        sys.stdin.read()"""], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
    waiting = threading.Event()

    def die() -> None:  # killed mid-build, once the test is waiting: no status is ever written
        waiting.wait()
        holder.kill()
        holder.wait()

    killer = threading.Thread(target=die)
    killer.start()
    waiting.set()
    with pytest.raises(pytest.fail.Exception, match="has stopped"):
        wait(output)
    killer.join()


#: Leaves an orphan: it starts a child that does a fixed amount of work, says the CPU time it spent and
#: ends; the parent ends at once, before it (as Chromium's helpers outlive the browser process).
ORPHAN = """
import os, time
if os.fork() == 0:
    sum(number * number for number in range(2_000_000))
    os.write(1, f"{time.process_time()}\\n".encode())
    os._exit(0)
os._exit(0)
"""
#: dev.py's accounting around that orphan, with (``adopt``) or without ``adopt_orphans``: prints the CPU
#: time the command counted and the time the orphan spent.
ACCOUNT = """
import importlib.util, os, subprocess, sys
spec = importlib.util.spec_from_file_location("dev_under_test", sys.argv[1])
dev = importlib.util.module_from_spec(spec)
spec.loader.exec_module(dev)
if sys.argv[2] == "adopt":
    dev.adopt_orphans()
before = dev.cpu_seconds()
orphan = subprocess.run([sys.executable, "-c", sys.argv[3]], capture_output=True, text=True, check=True)
if sys.argv[2] == "adopt":  # until the orphan has ended (the event; it is left unreaped for dev.py)
    os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOWAIT)
dev.reap_orphans()
print(dev.cpu_seconds() - before, orphan.stdout.strip())
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="adopting orphans is Linux's (prctl)")
def test_the_test_commands_cpu_time_counts_processes_that_outlive_their_parent():
    def counted(mode: str) -> tuple[float, float]:
        done = subprocess.run([sys.executable, "-c", ACCOUNT, str(ROOT / "dev.py"), mode, ORPHAN],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        command, orphan = (float(value) for value in done.stdout.split())
        assert orphan > 0.05, "the orphan did too little work to be told apart"
        return command, orphan

    command, orphan = counted("adopt")
    assert command >= orphan
    command, orphan = counted("leave")  # without adopting, init waits for the orphan: its time is lost
    assert command < orphan



def test_the_search_index_stems_each_word_of_the_books_as_snowballs_english_stemmer_does():
    """The site extra's PyStemmer is what Sphinx's snowballstemmer hands out when it is installed: the
    same English Snowball stemmer in C, so every word of docs/ gets the stem it got before (a build's
    search index is unchanged), in a hundredth of the time."""
    import snowballstemmer
    import Stemmer
    from snowballstemmer.english_stemmer import EnglishStemmer

    assert "pystemmer" in names(extras()["site"])
    assert isinstance(snowballstemmer.stemmer("english"), Stemmer.Stemmer)
    words = sorted({word.lower() for path in (ROOT / "docs").rglob("*.*") if path.suffix in (".rst", ".md")
                    and "_build" not in path.parts for word in re.findall(r"\w+", path.read_text(encoding="utf-8"))})
    assert len(words) > 1000
    assert [Stemmer.Stemmer("english").stemWord(word) for word in words] == [EnglishStemmer().stemWord(word)
                                                                             for word in words]
