"""A page pays only for the features it holds: one scan, then each post-transform skips pages without its nodes."""

from __future__ import annotations

import textwrap
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from docutils import nodes
from docutils.frontend import get_default_settings
from docutils.parsers.rst import Parser
from docutils.utils import new_document
from sphinx.events import EventListener
from sphinx.transforms.post_transforms import SphinxPostTransform

from sphinx_rpg.directives import node_listing
from sphinx_rpg.pagescan import PageContents, contents, gate_design, holds, remember, scan, uses_design
from sphinx_rpg.sheets import node_sheet

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

DESIGN_PAGE = """\
Design
======

.. tab-set::

   .. tab-item:: First

      One.

   .. tab-item:: Second

      Two.

.. dropdown:: More

   Hidden text.

.. node:def:: Shield
   :uid: Scan.Shield
   :type: E

   Blocks a blow.
"""

PLAIN_PAGE = """\
Plain
=====

.. node:def:: Sword
   :uid: Scan.Sword
   :type: E

   Cuts; see :node:ref:`Scan.Shield`.
"""


def _document() -> nodes.document:
    return new_document("<test>", get_default_settings(Parser))


def test_a_page_that_was_not_scanned_runs_every_transform() -> None:
    document = _document()
    assert contents(document) is None
    assert holds(document, node_listing) and uses_design(document)


def test_the_scan_finds_the_placeholders_a_page_holds_and_no_others() -> None:
    document = _document()
    document += nodes.section("", node_listing())
    found = scan(document)
    assert isinstance(found, PageContents) and not found.design
    remember(document, found)
    assert holds(document, node_listing)
    assert not holds(document, node_sheet)


def test_a_sphinx_design_mark_makes_the_page_a_design_page() -> None:
    document = _document()
    document += nodes.container("", design_component="tab-set")
    assert scan(document).design


@pytest.mark.parametrize("extensions", [["sphinx_rpg"], ["sphinx_design", "sphinx_rpg"], ["sphinx_rpg", "sphinx_design"]])
def test_sphinx_design_still_lays_out_the_pages_that_use_it(build: Any, tmp_path: Path, extensions: list[str]) -> None:
    src = tmp_path / "book"
    src.mkdir()
    (src / "conf.py").write_text(textwrap.dedent(f"""
        extensions = {extensions!r}
        project = "scan"
        rpg_node_types = {{"E": "Effect"}}
        suppress_warnings = ["node.unbound"]
        """))
    (src / "index.rst").write_text("Book\n====\n\n.. toctree::\n\n   design\n   plain\n")
    (src / "design.rst").write_text(DESIGN_PAGE)
    (src / "plain.rst").write_text(PLAIN_PAGE)
    app = build(src)
    design = (Path(app.outdir) / "design.html").read_text()
    assert 'class="sd-tab-label"' in design  # the tab set's HTML transform ran
    assert "<details " in design and "sd-dropdown" in design  # and the dropdown's
    assert "Referenced by:" in design  # the backlinks found the node through the scan
    plain = (Path(app.outdir) / "plain.html").read_text()
    assert 'class="sd-tab' not in plain and "Cuts; see" in plain


class _DesignTransform(SphinxPostTransform):
    """Stands for one of sphinx-design's post-transforms."""

    def run(self, **kwargs: Any) -> None:
        pass


_DesignTransform.__module__ = "sphinx_design.fake"


def _design_handler(app: Any, doctree: Any, docname: str) -> None:
    pass


_design_handler.__module__ = "sphinx_design.fake"


def _app(transforms: Any, listeners: Any) -> Any:
    return SimpleNamespace(registry=SimpleNamespace(post_transforms=transforms),
                           events=SimpleNamespace(listeners={"doctree-resolved": listeners}))


def test_gating_wraps_sphinx_designs_transforms_and_handlers_in_the_expected_layout() -> None:
    app = _app([_DesignTransform], [EventListener(1, _design_handler, 500)])
    gate_design(app)
    assert app.registry.post_transforms[0] is not _DesignTransform
    assert issubclass(app.registry.post_transforms[0], _DesignTransform)
    assert app.events.listeners["doctree-resolved"][0].handler is not _design_handler


@pytest.mark.parametrize("layout", ["transforms in a tuple", "a listener without _replace", "no listeners"])
def test_an_unknown_layout_leaves_everything_ungated(layout: str) -> None:
    transforms: Any = [_DesignTransform]
    listeners: Any = [EventListener(1, _design_handler, 500)]
    if layout == "transforms in a tuple":
        transforms = (_DesignTransform,)
    elif layout == "a listener without _replace":
        listeners = [SimpleNamespace(id=1, handler=_design_handler, priority=500)]
    app = _app(transforms, listeners) if layout != "no listeners" else SimpleNamespace(
        registry=SimpleNamespace(post_transforms=transforms), events=SimpleNamespace(listeners={}))
    gate_design(app)
    assert list(app.registry.post_transforms) == [_DesignTransform]
    if layout != "no listeners":
        assert [listener.handler for listener in app.events.listeners["doctree-resolved"]] == [_design_handler]
