"""The engine time limit around a loop of calls (``engine_calls``): the handler is installed once, every
call is still bounded, and the host's handler and timer come back however the loop ends."""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator

import pytest

from sphinx_rpg.timelimit import EngineTimeLimit, cpu_time_limit, engine_calls


def _host(signum: int, frame: object) -> None:
    """A handler of the host's own (a profiler's, say)."""


@pytest.fixture
def host_handler() -> Iterator[None]:
    before = signal.signal(signal.SIGPROF, _host)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, before)


def _spin(most: float = 5.0) -> None:
    """Use CPU until stopped (or, if the limit failed, for ``most`` seconds, so the test fails, not hangs)."""
    start = time.process_time()
    while time.process_time() - start < most:
        pass


def _left_as_found() -> bool:
    return signal.getsignal(signal.SIGPROF) is _host and signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)


def test_each_call_in_a_loop_of_calls_is_still_stopped_at_its_limit(host_handler: None) -> None:
    stopped = 0
    with engine_calls():
        for _ in range(3):
            with pytest.raises(EngineTimeLimit), cpu_time_limit(0.05):
                _spin()
            stopped += 1
    assert stopped == 3
    assert _left_as_found()


def test_between_calls_of_a_loop_no_timer_of_ours_runs(host_handler: None) -> None:
    with engine_calls():
        with cpu_time_limit(5):
            assert signal.getitimer(signal.ITIMER_PROF)[0] > 0
        assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)


def test_a_loop_of_calls_leaves_the_handler_and_timer_as_found(host_handler: None) -> None:
    with engine_calls():
        for _ in range(100):
            with cpu_time_limit(5):
                pass
    assert _left_as_found()


def test_a_loop_that_raises_leaves_the_handler_and_timer_as_found(host_handler: None) -> None:
    with pytest.raises(KeyError), engine_calls(), cpu_time_limit(5):
        raise KeyError("a failure inside the loop")
    assert _left_as_found()


def test_the_hosts_timer_runs_again_after_a_loop_of_calls(host_handler: None) -> None:
    signal.setitimer(signal.ITIMER_PROF, 30, 1)
    with engine_calls(), cpu_time_limit(5):
        pass
    remaining, interval = signal.getitimer(signal.ITIMER_PROF)
    assert 0 < remaining < 31 and interval == 1  # the clock rounds to its tick
    assert signal.getsignal(signal.SIGPROF) is _host


def test_a_call_inside_a_call_keeps_the_outer_limit(host_handler: None) -> None:
    with pytest.raises(EngineTimeLimit) as stopped, cpu_time_limit(0.2):
        with cpu_time_limit(5):
            pass
        _spin()
    assert stopped.value.seconds == 0.2
    assert _left_as_found()


def test_a_signal_between_calls_of_a_loop_stops_nothing(host_handler: None) -> None:
    with engine_calls():
        signal.raise_signal(signal.SIGPROF)  # not during a call: not ours to act on
        with cpu_time_limit(5):
            pass
    assert _left_as_found()


def test_facts_that_never_return_are_stopped_on_the_page_and_in_nodes_json(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from tests.adversarial.harness import END, build, write_book

    rules = ("class Endless(Node):\n    def facts(self):\n        while True:\n            pass\n"
             "REGISTRY.add(Endless(uid='Adv.Trait.Endless', name='Endless', types=('E',)))\n")
    pages = {"index": ".. node:def:: Endless\n   :uid: Adv.Trait.Endless\n\n"
                      ".. node:def:: Energy\n   :uid: Adv.Trait.Energy\n"}
    result = build(write_book(tmp_path, pages, rules, "rpg_engine_time_limit = 0.2\n"))
    assert result.error is None
    assert result.warned("facts", "'Adv.Trait.Endless'", "still running after 0.2 s"), result.warnings
    assert END in result.page()
    facts = {node["uid"]: node["facts"] for node in result.nodes()}
    assert facts["Adv.Trait.Endless"] == [] and facts["Adv.Trait.Energy"] != []  # the export's call stopped too
    assert signal.getsignal(signal.SIGPROF) is signal.SIG_DFL and signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)


def test_a_loop_of_calls_inside_a_call_keeps_the_outer_limit(host_handler: None) -> None:
    with pytest.raises(EngineTimeLimit) as stopped, cpu_time_limit(0.2):
        with engine_calls(), cpu_time_limit(5):
            pass
        _spin()
    assert stopped.value.seconds == 0.2
    assert _left_as_found()
