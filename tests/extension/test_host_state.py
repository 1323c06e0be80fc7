"""The host process is left as found: the extension changes no collector state.

Sphinx runs inside language servers, notebooks and test runners, so a build (or a start that fails
after the extension loaded) must leave ``gc`` enabled and unfrozen as it was, and the registry module
is imported with the collector running.  The old opt-in (``rpg_pause_collector``) is gone: a conf.py
that still sets it is told so and changes nothing.
"""

from __future__ import annotations

import gc
import itertools
from pathlib import Path

import pytest
from sphinx.cmd.build import build_main

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

_serial = itertools.count()

#: The registry module notes whether the collector ran while it was imported (once per module name).
_REGISTRY = ("import gc\nfrom rules.nodes import Registry\n"
             "COLLECTOR_ON_AT_IMPORT = gc.isenabled()\n"
             "REGISTRY = Registry('hostprobe', node_types={'E': 'Effect'})\n"
             "REGISTRY.define('Probe.Shield', 'Shield', 'E')\n")


def _book(root: Path, settings: str = "") -> tuple[Path, str]:
    module = f"hostprobe_registry_{next(_serial)}"
    root.mkdir()
    (root / f"{module}.py").write_text(_REGISTRY)
    (root / "conf.py").write_text(
        "import sys\nsys.path.insert(0, __import__('os').path.dirname(__file__))\n"
        f'extensions = ["sphinx_rpg"]\nproject = "host"\nrpg_registries = ["{module}:REGISTRY"]\n{settings}\n')
    (root / "index.rst").write_text("Book\n====\n\n.. node:def:: Shield\n   :uid: Probe.Shield\n\n"
                                    "   Blocks; see :node:ref:`Probe.Shield`.\n")
    return root, module


def _build(root: Path, *overrides: str) -> int:
    options = [item for override in overrides for item in ("-D", override)]
    return build_main(["-q", "-b", "html", *options, str(root), str(root / "_build")])


def _collector_state() -> tuple[bool, int]:
    return gc.isenabled(), gc.get_freeze_count()


#: A conf.py from before the opt-in was removed: it must change nothing.
_OLD_OPT_IN = "rpg_pause_collector = True"


@pytest.mark.parametrize("settings", ["", _OLD_OPT_IN], ids=["default", "old opt-in"])
def test_a_start_that_fails_after_the_extension_loaded_leaves_the_collector_as_found(
        tmp_path: Path, settings: str) -> None:
    root, _ = _book(tmp_path / "book", settings)
    before = _collector_state()
    assert _build(root, "html_theme=nosuchtheme") == 2, "the broken theme must stop Sphinx"
    assert _collector_state() == before == (True, 0)


@pytest.mark.parametrize("settings", ["", _OLD_OPT_IN], ids=["default", "old opt-in"])
def test_a_build_leaves_the_collector_as_found(tmp_path: Path, settings: str) -> None:
    root, _ = _book(tmp_path / "book", settings)
    before = _collector_state()
    assert _build(root) == 0
    assert _collector_state() == before == (True, 0)


def test_a_build_stopped_by_a_warning_leaves_the_collector_as_found(tmp_path: Path) -> None:
    root, _ = _book(tmp_path / "book")
    (root / "index.rst").write_text("Book\n====\n\nSee :node:ref:`Probe.Nowhere`.\n")
    assert build_main(["-q", "-W", "-b", "html", str(root), str(root / "_build")]) != 0
    assert _collector_state() == (True, 0)


@pytest.mark.parametrize("settings", ["", _OLD_OPT_IN], ids=["default", "old opt-in"])
def test_the_registry_module_is_imported_with_the_collector_running(tmp_path: Path, settings: str) -> None:
    import sys

    root, module = _book(tmp_path / "book", settings)
    assert _build(root) == 0
    try:
        assert sys.modules[module].COLLECTOR_ON_AT_IMPORT is True
    finally:
        sys.modules.pop(module, None)


def test_the_removed_collector_setting_is_reported_where_it_is_set(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root, _ = _book(tmp_path / "book", _OLD_OPT_IN)
    assert build_main(["-b", "html", str(root), str(root / "_build")]) == 0
    message = capsys.readouterr().err
    assert "rpg_pause_collector was removed and has no effect" in message
    assert f"{root / 'conf.py'}:6: WARNING" in message and "[node.option]" in message
