"""The site's two editions build side by side: a costly result both need is worked out once.

Whichever edition needs a chart (``rpg_chart_cache``) first draws it while holding a lock on its cache
entry; the other waits on that lock, then reads the kept chart.  Threads stand in for the two build
processes (each opens the lock file itself, so the system's lock keeps them apart as it keeps two
processes).
"""

import sys
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction
from threading import Event

import pytest

from rules.tables import Table
from sphinx_rpg import charts, files

pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning"),
              pytest.mark.skipif(sys.platform == "win32", reason="no fcntl locks on Windows: nothing is held")]

TABLE = Table.of(("DC", "P(success)"), [(1, Fraction(1)), (2, Fraction(1, 2))], probabilities=("P(success)",))
#: Longer than any wait here can take when the lock works; reached only when a test is failing.
PATIENCE = 60


def test_a_lock_is_waited_for_while_another_holds_it_and_leaves_no_file(tmp_path):
    lock, inside, leave = tmp_path / "entry.lock", Event(), Event()
    order: list[str] = []

    def first() -> None:
        with files.held(lock):
            inside.set()
            leave.wait(PATIENCE)
            order.append("first done")

    def second() -> None:
        with files.held(lock):
            order.append("second in")

    with ThreadPoolExecutor(2) as pool:
        holder = pool.submit(first)
        assert inside.wait(PATIENCE)
        waiter = pool.submit(second)
        leave.set()
        holder.result(PATIENCE), waiter.result(PATIENCE)
    assert order == ["first done", "second in"]
    assert list(tmp_path.iterdir()) == []


def test_a_chart_the_other_edition_is_drawing_is_waited_for_and_read_not_drawn_again(tmp_path, monkeypatch):
    kept = tmp_path / f"{charts.chart_key(TABLE, 'line')}.svg"
    asking, real_held = Event(), files.held

    def held(lock):  # the chart asks for the lock the other edition holds
        asking.set()
        return real_held(lock)

    monkeypatch.setattr(charts, "held", held)
    monkeypatch.setattr(charts, "_draw", lambda table, kind: pytest.fail("drawn although the other edition drew it"))
    with ThreadPoolExecutor(1) as pool:
        with real_held(kept.with_suffix(".lock")):  # the other edition, drawing
            read = pool.submit(charts.chart_svg, TABLE, "line", tmp_path)
            assert asking.wait(PATIENCE), "the chart did not wait for the edition drawing it"
            kept.write_text("<svg>drawn by the other edition</svg>", encoding="utf-8")
        assert read.result(PATIENCE) == "<svg>drawn by the other edition</svg>"
