"""``rpg serve``: the live preview rebuilds when a page or a rule of the game's engine changes.

The preview runs as a designer runs it (``rpg serve`` in the folder ``rpg new`` made), on a free port
of 127.0.0.1; the test edits a page and then an engine rule, and reads the served page each time the
preview says a build is served, until the edit shows (with a bound).  Only the first page is polled
for: the server starts listening after the first build and says nothing when it does.
"""

from __future__ import annotations

import http.client
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from sphinx_rpg.new import create
from sphinx_rpg.serve import HOST, ServeError, plan

#: Bounds, never waits: a first build and a rebuild take seconds, far longer on a loaded machine.
FIRST_BUILD, REBUILD = 240.0, 180.0


def fetch(url: str) -> str:
    """The page as served now, or "" while it cannot be had whole (not yet built, or being rewritten
    by a rebuild as it is read: the server then sends fewer bytes than it announced)."""
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return str(response.read().decode("utf-8"))
    except (urllib.error.URLError, ConnectionError, TimeoutError, http.client.IncompleteRead):
        return ""


def poll(condition: Callable[[], bool], bound: float, what: str, log: Callable[[], str]) -> None:
    deadline = time.monotonic() + bound
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"{what} within {bound:.0f} s; the preview said:\n{log()[-3000:]}")
        time.sleep(0.25)


#: What sphinx-autobuild prints when a build is done and served.
SERVED = "Serving on http://"


class Server:
    """``rpg serve`` in its own process group, its output read by a thread (never a blocking read)."""

    def __init__(self, project: Path, *args: str) -> None:
        environment = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH",)}
        self.process = subprocess.Popen([sys.executable, "-m", "sphinx_rpg.cli", "serve", "--port", "0", *args],
                                        cwd=project, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                        env=environment, start_new_session=True)
        self.lines: queue.Queue[str] = queue.Queue()
        self.output: list[str] = []
        assert self.process.stdout is not None
        stream = self.process.stdout
        threading.Thread(target=lambda: [self.lines.put(line) for line in stream], daemon=True).start()

    def log(self) -> str:
        while not self.lines.empty():
            self.output.append(self.lines.get_nowait())
        return "".join(self.output)

    def rebuilt(self, condition: Callable[[], bool], bound: float, what: str) -> None:
        """Wait until a build the preview says it serves makes ``condition`` true: each look follows
        that event (a rebuild), never a timer; ``bound`` only fails a preview that stopped building."""
        deadline = time.monotonic() + bound
        self.log()  # what the preview said before the edit is not an answer to it
        while True:
            try:
                line = self.lines.get(timeout=max(deadline - time.monotonic(), 0.0))
            except queue.Empty:
                pytest.fail(f"{what} within {bound:.0f} s; the preview said:\n{self.log()[-3000:]}")
            self.output.append(line)
            if SERVED in line and condition():
                return

    def address(self) -> str:
        try:
            first = self.lines.get(timeout=FIRST_BUILD)
        except queue.Empty:
            pytest.fail("rpg serve printed no address")
        self.output.append(first)
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", first)
        assert found, first
        return found.group(0)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)  # rpg and the sphinx-autobuild it runs
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


@pytest.fixture
def project(tmp_path: Path) -> Path:
    create(tmp_path / "tower", "Tower Climbers")
    return tmp_path / "tower"


@pytest.fixture
def server(project: Path) -> Iterator[Callable[..., Server]]:
    started: list[Server] = []

    def start(*args: str) -> Server:
        started.append(Server(project, *args))
        return started[-1]

    yield start
    for running in started:
        running.stop()


def test_the_preview_rebuilds_when_a_page_or_an_engine_rule_changes(project, server):
    preview = server()
    address = preview.address()
    assert address.startswith(f"http://{HOST}:")
    page = address + "characters.html"
    poll(lambda: "A character is an attribute" in fetch(page), FIRST_BUILD, "the first build was not served",
         preview.log)
    assert "designer edition" in preview.log()

    chapter = project / "docs" / "characters.rst"
    chapter.write_text(chapter.read_text().replace("A character is an attribute", "A climber is an attribute"))
    preview.rebuilt(lambda: "A climber is an attribute" in fetch(page), REBUILD, "the edited page was not served")

    # an engine edit: Might now runs from 1 to 6, and the page quotes the ranks from the rule
    assert "1–6" not in fetch(page)
    engine = project / "tower_climbers" / "characters.py"
    engine.write_text(engine.read_text().replace("Ranks(1, 5)", "Ranks(1, 6)"))
    preview.rebuilt(lambda: "1–6" in fetch(page), REBUILD, "the edited rule did not reach the page")


def test_the_preview_listens_on_127_0_0_1_only(project):
    preview = plan(str(project / "docs"), port=8123)
    command = preview.command()
    assert command[command.index("--host") + 1] == "127.0.0.1" and preview.address == "http://127.0.0.1:8123/"
    assert (project / "tower_climbers").resolve() in preview.watched  # the game package is watched
    assert "rpg_edition=player" not in command and preview.outdir == project / "docs" / "_build" / "html"


def test_player_previews_the_player_edition(project):
    preview = plan(str(project / "docs"), port=8123, player=True)
    assert "rpg_edition=player" in preview.command() and preview.outdir == project / "docs" / "_build" / "player"


def test_the_preview_finds_the_book_from_the_project_folder_and_leaves_sys_path_as_found(project, monkeypatch):
    monkeypatch.chdir(project)
    before = list(sys.path)
    assert plan(None, port=8123).docs == Path("docs")
    assert sys.path == before


def test_a_folder_without_conf_py_is_refused_with_what_to_do(tmp_path, capsys):
    from sphinx_rpg.cli import main

    with pytest.raises(ServeError, match="no conf.py"):
        plan(str(tmp_path))
    assert main(["serve", str(tmp_path)]) == 2
    assert "no conf.py" in capsys.readouterr().err
