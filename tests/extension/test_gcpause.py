"""The garbage collector rests only while Sphinx loads and saves the environment, and always comes back."""

from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _book(root: Path) -> Path:
    root.mkdir()
    (root / "conf.py").write_text('extensions = ["sphinx_rpg"]\nproject = "gc"\nrpg_node_types = {"E": "Effect"}\n'
                                  'suppress_warnings = ["node.unbound"]\n')
    (root / "index.rst").write_text("Book\n====\n\n.. node:def:: Shield\n   :uid: Gc.Shield\n   :type: E\n\n"
                                    "   Blocks; see :node:ref:`Gc.Shield`.\n")
    return root


def test_the_collector_rests_while_the_environment_is_saved_and_is_back_for_writing(make_app: Any,
                                                                                      tmp_path: Path) -> None:
    seen: dict[str, bool] = {}

    def note(moment: str) -> Any:
        def handler(app: Any, *args: Any) -> None:
            seen.setdefault(moment, gc.isenabled())
        return handler

    app = make_app("html", srcdir=_book(tmp_path / "book"))
    app.connect("env-updated", note("saving"), priority=950)
    app.connect("html-page-context", note("writing"), priority=950)
    app.build()
    assert seen == {"saving": False, "writing": True}
    assert gc.isenabled()


def test_the_collector_rests_until_the_first_page_is_rendered_and_what_is_alive_then_is_frozen(
        make_app: Any, tmp_path: Path) -> None:
    seen: list[tuple[str, bool, int]] = []

    def note(moment: str) -> Any:
        def handler(app: Any, *args: Any) -> None:
            seen.append((moment, gc.isenabled(), gc.get_freeze_count()))
        return handler

    app = make_app("html", srcdir=_book(tmp_path / "book"))
    app.connect("write-started", note("preparing"), priority=950)
    app.connect("doctree-resolved", note("first page resolved"), priority=950)
    app.connect("html-page-context", note("first page rendered"), priority=950)
    app.build()
    (_, preparing, before), (_, resolving, _), (_, rendering, after) = seen[:3]
    assert [moment for moment, *_ in seen[:3]] == ["preparing", "first page resolved", "first page rendered"]
    assert (preparing, resolving, rendering) == (False, False, True)
    assert after > before


def test_the_build_is_thawed_after_every_other_handler_of_build_finished(make_app: Any, tmp_path: Path) -> None:
    frozen: list[int] = []
    app = make_app("html", srcdir=_book(tmp_path / "book"))
    app.connect("build-finished", lambda app, exception: frozen.append(gc.get_freeze_count()), priority=990)
    app.build()
    assert frozen[0] > 0
    assert gc.get_freeze_count() == 0


def test_what_is_left_at_interpreter_exit_is_frozen_so_shutdown_does_not_walk_it() -> None:
    script = ("import atexit, gc\n"
              "atexit.register(lambda: print('frozen at exit:', gc.get_freeze_count() > 0))\n"
              "from types import SimpleNamespace\n"
              "from sphinx_rpg import gcpause\n"
              "hooks = atexit._ncallbacks()\n"
              "gcpause.freeze_at_exit(None, SimpleNamespace(rpg_freeze_at_exit=True))\n"
              "gcpause.freeze_at_exit(None, SimpleNamespace(rpg_freeze_at_exit=True))  # a second build\n"
              "print('exit hooks added:', atexit._ncallbacks() - hooks)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines() == ["exit hooks added: 1", "frozen at exit: True"]


def test_rpg_freeze_at_exit_off_leaves_the_exit_to_the_collector() -> None:
    script = ("import atexit, gc\n"
              "atexit.register(lambda: print('frozen at exit:', gc.get_freeze_count() > 0))\n"
              "from types import SimpleNamespace\n"
              "from sphinx_rpg import gcpause\n"
              "gcpause.freeze_at_exit(None, SimpleNamespace(rpg_freeze_at_exit=False))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines() == ["frozen at exit: False"]


def test_the_collector_is_back_after_a_build_that_failed(make_app: Any, tmp_path: Path) -> None:
    app = make_app("html", srcdir=_book(tmp_path / "book"))

    def fail(app: Any, env: Any) -> None:
        raise RuntimeError("a failing extension")

    app.connect("env-updated", fail, priority=950)
    with pytest.raises(Exception, match="a failing extension"):
        app.build()
    assert gc.isenabled()


def test_a_collector_the_user_turned_off_stays_off(make_app: Any, tmp_path: Path) -> None:
    collections: list[int] = []

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collections.append(info["generation"])

    gc.disable()
    gc.callbacks.append(count)
    try:
        make_app("html", srcdir=_book(tmp_path / "book")).build()
        assert not gc.isenabled()
        assert collections == []
    finally:
        gc.callbacks.remove(count)
        gc.enable()


def test_what_the_build_has_read_is_frozen_for_the_write_and_thawed_after(make_app: Any, tmp_path: Path) -> None:
    frozen: dict[str, int] = {}
    app = make_app("html", srcdir=_book(tmp_path / "book"))
    app.connect("doctree-resolved", lambda app, doctree, docname: frozen.setdefault("writing", gc.get_freeze_count()))
    app.build()
    assert frozen["writing"] > 0
    assert gc.get_freeze_count() == 0


def test_objects_someone_else_froze_stay_frozen_and_nothing_more_is(make_app: Any, tmp_path: Path) -> None:
    gc.freeze()
    try:
        before = gc.get_freeze_count()
        app = make_app("html", srcdir=_book(tmp_path / "book"))
        app.build()
        assert 0 < gc.get_freeze_count() <= before  # still frozen (some were freed meanwhile), none added
    finally:
        gc.unfreeze()


def test_an_environment_kept_from_the_last_build_is_frozen_from_the_start(make_app: Any, tmp_path: Path) -> None:
    frozen: list[int] = []
    src = _book(tmp_path / "book")
    for _ in range(2):
        app = make_app("html", srcdir=src)
        app.connect("env-before-read-docs", lambda app, env, docnames: frozen.append(gc.get_freeze_count()))
        app.build()
        app.cleanup()
    assert frozen[0] == 0  # a new environment: nothing loaded to freeze
    assert frozen[1] > 0  # the loaded one, frozen before reading starts
    assert gc.get_freeze_count() == 0


def test_an_environment_read_again_after_a_configuration_change_is_not_frozen(make_app: Any, tmp_path: Path) -> None:
    frozen: list[int] = []
    src = _book(tmp_path / "book")
    for project in ("gc", "another name"):
        app = make_app("html", srcdir=src, confoverrides={"project": project, "rpg_ref_format": project + " {name}"})
        app.connect("env-before-read-docs", lambda app, env, docnames: frozen.append(gc.get_freeze_count()))
        app.build()
        app.cleanup()
    assert frozen == [0, 0]
