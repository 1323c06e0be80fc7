"""Where the test command's CPU goes: ``-p tests.cpu_per_file`` prints the CPU seconds of each test
file (its tests' setup, call and teardown, with every process they started) and of each process's
collection.  A measuring aid, opt-in, asserting nothing: ``python3 dev.py test -p tests.cpu_per_file``.

The CPU of a process tree is read at file boundaries only (a file's tests run together on one worker
under ``--dist loadfile``): the process itself and every descendant, each with the CPU of the
children it has already waited for.  Each test process adopts its orphaned descendants (Chromium's
helpers outlive the browser process), so none leaves the tree with its CPU.  Linux only (``/proc``);
elsewhere the plugin stays idle.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _tree_cpu(root: int) -> float:
    """CPU seconds of ``root`` and its live descendants, each with its waited-for children's."""
    parents: dict[int, int] = {}
    cpu: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry.name)] = int(fields[1])
        cpu[int(entry.name)] = sum(int(value) for value in fields[11:15]) / _TICK
    children: dict[int, list[int]] = {}
    for pid, parent in parents.items():
        children.setdefault(parent, []).append(pid)
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        total += cpu.get(pid, 0.0)
        todo.extend(children.get(pid, ()))
    return total


class CpuPerFile:
    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.files: dict[str, float] = {}
        self.current: str | None = None
        self.mark = 0.0
        self.collection = 0.0
        self.workers: dict[str, float] = {}
        #: (worker, file, start, end) in seconds of the system's monotonic clock (one clock for every process)
        self.spans: list[tuple[str, str, float, float]] = []
        self.began = time.monotonic()
        self.opened = 0.0

    def _close_file(self) -> None:
        now = _tree_cpu(os.getpid())
        if self.current is not None:
            # a process that ended unwaited for and was not adopted (see ``_adopt_orphans``) takes its
            # CPU out of the tree: the file that saw it drop is not charged less than nothing
            self.files[self.current] = self.files.get(self.current, 0.0) + max(now - self.mark, 0.0)
            self.spans.append(("", self.current, self.opened, time.monotonic()))
        self.mark = now
        self.opened = time.monotonic()

    @pytest.hookimpl(trylast=True)
    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.collection = _tree_cpu(os.getpid())
        self.mark = self.collection

    def pytest_runtest_logstart(self, nodeid: str, location: Any) -> None:
        if self.config.pluginmanager.has_plugin("dsession"):
            # the xdist controller hears every worker's tests start, interleaved, and its process tree holds
            # every worker: charging the whole tree's CPU to the file it heard of last counted each second
            # twice (here and on the worker that spent it).  The workers measure; the controller adds up.
            return
        path = nodeid.split("::")[0]
        if path != self.current:
            self._close_file()
            self.current = path

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if not hasattr(self.config, "workerinput"):
            return
        self._close_file()
        self.config.workeroutput["cpu_per_file"] = {  # type: ignore[attr-defined]
            "files": self.files, "collection": self.collection, "spans": self.spans}

    def pytest_testnodedown(self, node: Any, error: Any) -> None:
        output = getattr(node, "workeroutput", {}).get("cpu_per_file")
        if output:
            self.workers[node.gateway.id] = output["collection"]
            for path, seconds in output["files"].items():
                self.files[path] = self.files.get(path, 0.0) + seconds
            self.spans.extend((node.gateway.id, path, start, end) for _, path, start, end in output["spans"])

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if hasattr(self.config, "workerinput"):
            return
        if not self.workers:  # in-process (-n 0)
            self._close_file()
            self.workers["main"] = self.collection
        write = terminalreporter.write_line
        terminalreporter.section("CPU seconds per test file (with the processes each started)")
        for name, seconds in sorted(self.workers.items()):
            write(f"{seconds:8.1f}  start-up and collection on {name}")
        for path, seconds in sorted(self.files.items(), key=lambda pair: -pair[1]):
            write(f"{seconds:8.1f}  {path}")
        write(f"{sum(self.files.values()) + sum(self.workers.values()):8.1f}  in all")
        # the critical path: which worker ran which file when (seconds since this process started); a
        # worker whose last file ends long after the others' is the session's serial tail
        terminalreporter.section("When each file ran (wall seconds since pytest started, by worker)")
        for worker, path, start, end in sorted(self.spans, key=lambda span: (span[0], span[2])):
            if end - start >= 1:
                write(f"{worker or 'main':>5} {start - self.began:6.0f} {end - self.began:6.0f} {end - start:5.0f}  {path}")
        for worker in sorted({span[0] for span in self.spans}):
            write(f"{worker or 'main':>5} ends at {max(s[3] for s in self.spans if s[0] == worker) - self.began:6.0f}")


#: prctl's option that makes a process the reaper of its orphaned descendants (Linux 3.4 and newer).
PR_SET_CHILD_SUBREAPER = 36


def _adopt_orphans() -> None:
    """Make this process the parent of its orphaned descendants.  Chromium's helper processes outlive
    the browser process, their parent: handed to init, they left the tree, with every renderer's CPU
    time they had collected, when the browser closed (a browser file run alone was charged a third of
    its CPU).  Adopted, each stays in the tree, a zombie whose CPU time /proc still gives, until this
    process ends (``dev.py test`` collects them then, see ``reap_orphans`` there)."""
    import contextlib
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def pytest_configure(config: pytest.Config) -> None:
    if not Path("/proc/self/stat").exists():
        return
    _adopt_orphans()
    config.pluginmanager.register(CpuPerFile(config), "cpu-per-file")
