"""The garbage collector rests only while Sphinx loads and saves the environment, and always comes back."""

from __future__ import annotations

import gc
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
    app.connect("doctree-resolved", note("writing"))
    app.build()
    assert seen == {"saving": False, "writing": True}
    assert gc.isenabled()


def test_the_collector_is_back_after_a_build_that_failed(make_app: Any, tmp_path: Path) -> None:
    app = make_app("html", srcdir=_book(tmp_path / "book"))

    def fail(app: Any, env: Any) -> None:
        raise RuntimeError("a failing extension")

    app.connect("env-updated", fail, priority=950)
    with pytest.raises(Exception, match="a failing extension"):
        app.build()
    assert gc.isenabled()


def test_a_collector_the_user_turned_off_stays_off(make_app: Any, tmp_path: Path) -> None:
    gc.disable()
    try:
        make_app("html", srcdir=_book(tmp_path / "book")).build()
        assert not gc.isenabled()
    finally:
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
