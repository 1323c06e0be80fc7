"""The host process is left as found: the extension changes no collector state unless asked to.

Sphinx runs inside language servers, notebooks and test runners, so a build (or a start that fails
after the extension loaded) must leave ``gc`` enabled and unfrozen as it was.  The opt-in
(``rpg_pause_collector``) pauses the collector only inside the extension's own bulk steps.
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


def _book(root: Path, settings: str) -> tuple[Path, str]:
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


@pytest.mark.parametrize("settings", ["", "rpg_pause_collector = True"], ids=["default", "opted in"])
def test_a_start_that_fails_after_the_extension_loaded_leaves_the_collector_as_found(
        tmp_path: Path, settings: str) -> None:
    root, _ = _book(tmp_path / "book", settings)
    before = _collector_state()
    assert _build(root, "html_theme=nosuchtheme") == 2, "the broken theme must stop Sphinx"
    assert _collector_state() == before == (True, 0)


@pytest.mark.parametrize("settings", ["", "rpg_pause_collector = True"], ids=["default", "opted in"])
def test_a_build_leaves_the_collector_as_found(tmp_path: Path, settings: str) -> None:
    root, _ = _book(tmp_path / "book", settings)
    before = _collector_state()
    assert _build(root) == 0
    assert _collector_state() == before == (True, 0)


@pytest.mark.parametrize("settings", ["", "rpg_pause_collector = True"], ids=["default", "opted in"])
def test_a_build_stopped_by_a_warning_leaves_the_collector_as_found(tmp_path: Path, settings: str) -> None:
    root, _ = _book(tmp_path / "book", settings)
    (root / "index.rst").write_text("Book\n====\n\nSee :node:ref:`Probe.Nowhere`.\n")
    assert build_main(["-q", "-W", "-b", "html", str(root), str(root / "_build")]) != 0
    assert _collector_state() == (True, 0)


@pytest.mark.parametrize(("settings", "paused"), [("", False), ("rpg_pause_collector = True", True)],
                         ids=["default: untouched", "opted in: paused"])
def test_the_collector_rests_during_a_registry_import_only_when_asked(tmp_path: Path, settings: str,
                                                                      paused: bool) -> None:
    import sys

    root, module = _book(tmp_path / "book", settings)
    assert _build(root) == 0
    try:
        assert sys.modules[module].COLLECTOR_ON_AT_IMPORT is not paused
    finally:
        sys.modules.pop(module, None)
