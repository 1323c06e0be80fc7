"""The site's two editions build side by side: a costly result both need is worked out once.

Whichever edition needs a matchup (``rpg_matchup_cache``) first plays it while holding a lock on its
cache entry; the other waits on that lock, then reads the kept answer.  Threads stand in for the two build
processes (each opens the lock file itself, so the system's lock keeps them apart as it keeps two
processes).
"""

import sys
from concurrent.futures import ThreadPoolExecutor
from threading import Event

import pytest

from sphinx_rpg import files

pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning"),
              pytest.mark.skipif(sys.platform == "win32", reason="no fcntl locks on Windows: nothing is held")]

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

