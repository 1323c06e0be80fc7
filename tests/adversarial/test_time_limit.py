"""A builder that never returns costs one located warning, not the build (rpg_engine_time_limit).

Each case is a tiny project whose rule code loops for ever; the limit is set low so the suite stays quick.
"""

from __future__ import annotations

import signal

import pytest

from sphinx_rpg.timelimit import EngineTimeLimit, cpu_time_limit
from tests.adversarial.harness import END, build, write_book

LIMIT = "rpg_engine_time_limit = 0.3\n"
FOREVER = "    while True:\n        pass\n"

#: (case, rule code that never returns, the page that reaches it, the warning's subtype)
NEVER_RETURNS = [
    ("stat-block", "@REGISTRY.statblock()\ndef bad():\n" + FOREVER, ".. node:statblock:: adv:bad\n", "statblock"),
    ("table", "@REGISTRY.table()\ndef bad() -> Table:\n" + FOREVER, ".. node:table:: adv:bad\n", "table"),
    ("swallows-the-first-stop", "@REGISTRY.table()\ndef bad() -> Table:\n    try:\n        while True:\n"
     "            pass\n    except Exception:\n        pass\n" + FOREVER, ".. node:table:: adv:bad\n", "table"),
]


@pytest.mark.parametrize("name, code, page, subtype", NEVER_RETURNS, ids=[c[0] for c in NEVER_RETURNS])
def test_a_builder_that_never_returns_is_stopped_with_a_located_warning(tmp_path, name, code, page, subtype):
    root = write_book(tmp_path, {"index": page + "\n.. node:table:: adv:probe\n"}, code, LIMIT)
    result = build(root)
    assert result.error is None
    assert result.warned(subtype, "still running after 0.3 s of CPU time", "rpg_engine_time_limit",
                         at="index.rst:4"), result.warnings
    assert result.calls()[-1] == "probe 2 False 'on' '1d6'"  # the page went on past the stopped builder
    assert END in result.page()


def test_a_builder_that_never_returns_is_stopped_in_a_parallel_build_too(tmp_path):
    pages = {f"page{number}": f"Page {number}\n=======\n\n.. node:table:: adv:probe\n" for number in range(7)}
    pages["page3"] = "Page 3\n======\n\n.. node:statblock:: adv:bad\n"
    root = write_book(tmp_path, {"index": "", **pages}, "@REGISTRY.statblock()\ndef bad():\n" + FOREVER, LIMIT)
    result = build(root, parallel=2)
    assert result.error is None
    assert result.warned("statblock", "still running after 0.3 s", at="page3.rst:4"), result.warnings
    assert END in result.page()


def test_the_time_limit_leaves_the_signal_handler_and_timer_as_it_found_them():
    def mine(signum, frame):
        pass

    before = signal.signal(signal.SIGPROF, mine)
    try:
        with pytest.raises(EngineTimeLimit), cpu_time_limit(0.05):
            while True:
                pass
        assert signal.getsignal(signal.SIGPROF) is mine
        assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)
        with cpu_time_limit(5):
            pass
        assert signal.getsignal(signal.SIGPROF) is mine
        assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)
    finally:
        signal.signal(signal.SIGPROF, before)


def test_a_limit_of_zero_sets_no_timer():
    handler = signal.getsignal(signal.SIGPROF)
    with cpu_time_limit(0):
        assert signal.getsignal(signal.SIGPROF) is handler
        assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)
