"""A page pays only for the features it holds: one scan, then each post-transform skips pages without its nodes."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest
from docutils import nodes
from docutils.frontend import get_default_settings
from docutils.parsers.rst import Parser
from docutils.utils import new_document

from sphinx_rpg.directives import node_listing
from sphinx_rpg.pagescan import PageContents, contents, holds, remember, scan
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
    assert holds(document, node_listing)


def test_the_scan_finds_the_placeholders_a_page_holds_and_no_others() -> None:
    document = _document()
    document += nodes.section("", node_listing())
    found = scan(document)
    assert isinstance(found, PageContents)
    remember(document, found)
    assert holds(document, node_listing)
    assert not holds(document, node_sheet)


def test_a_scanned_document_is_freed_with_its_scan() -> None:
    import gc
    import weakref

    document = _document()
    document += nodes.section("", nodes.container(classes=["rpg-node"], rpg_uid="Scan.Shield"))
    remember(document, scan(document))
    assert len(contents(document).rpg_nodes) == 1  # type: ignore[union-attr]
    gone = weakref.ref(document)
    del document
    gc.collect()
    assert gone() is None


def test_the_scan_is_not_written_on_the_document() -> None:
    document = _document()
    before = set(vars(document))
    remember(document, scan(document))
    assert set(vars(document)) == before and contents(document) is not None


@pytest.mark.parametrize("extensions", [["sphinx_design", "sphinx_rpg"], ["sphinx_rpg", "sphinx_design"]])
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
