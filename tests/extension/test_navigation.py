"""The site navigation (sphinx_rpg/navigation.py): each page's ``toctree()`` gives what Sphinx's own gives.

Themes ask every page for the whole site's titles (Furo: ``toctree(titles_only=True, collapse=False,
maxdepth=-1, includehidden=True)``); the extension answers from tables of contents pruned once per
build.  The book below has what pruning must get right: node sections, nested sections, a toctree
inside a section, a hidden toctree, a caption, a page with its own ``tocdepth`` and one with an
``only`` block.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from sphinx_rpg.navigation import Navigation

PAGES = {
    "index.rst": "Book\n====\n\n.. toctree::\n   :caption: Chapters\n\n   rules\n   deep\n   shallow\n   gated\n\n"
                 ".. toctree::\n   :hidden:\n\n   hidden\n",
    "rules.rst": "Rules\n=====\n\n.. node:def:: Energy\n   :uid: Nav.Trait.Energy\n   :type: E\n\n   Energy.\n\n"
                 "Fighting\n--------\n\n.. node:def:: Dodge\n   :uid: Nav.Action.Dodge\n   :type: A\n\n   Dodge.\n\n"
                 "Blows\n~~~~~\n\nBlows.\n",
    "deep.rst": "Deep\n====\n\nPart\n----\n\n.. toctree::\n\n   deep-child\n\nAfter\n-----\n\nText.\n",
    "deep-child.rst": "Deep child\n==========\n\nSection\n-------\n\nText.\n",
    "shallow.rst": ":tocdepth: 2\n\nShallow\n=======\n\nPart\n----\n\nSub\n~~~\n\n.. toctree::\n\n   shallow-child\n",
    "shallow-child.rst": "Shallow child\n=============\n\nText.\n",
    "gated.rst": "Gated\n=====\n\n.. only:: html\n\n   Seen\n   ----\n\n   .. toctree::\n\n      gated-child\n\n"
                 ".. only:: latex\n\n   Unseen\n   ------\n\n   .. toctree::\n\n      gated-print\n",
    "gated-child.rst": "Gated child\n===========\n\nText.\n",
    "gated-print.rst": "Gated print\n===========\n\nText.\n",
    "hidden.rst": "Hidden\n======\n\nSection\n-------\n\nText.\n",
}

#: The calls a theme makes: Furo's, then others the extension must leave to Sphinx (answered the same).
CALLS: tuple[dict[str, Any], ...] = (
    {"titles_only": True, "collapse": False, "maxdepth": -1, "includehidden": True},
    {"titles_only": True, "collapse": False, "maxdepth": 2, "includehidden": False},
    {"titles_only": True, "collapse": False},
    {"titles_only": True, "collapse": True, "maxdepth": -1, "includehidden": True},
    {"titles_only": False, "collapse": False, "maxdepth": -1, "includehidden": True},
    {"maxdepth": ""},
)


def _book(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "conf.py").write_text('extensions = ["sphinx_rpg"]\nproject = "nav"\n')
    for name, text in PAGES.items():
        (root / name).write_text(text)
    return root


def test_every_page_s_toctree_gives_what_sphinx_gives_for_every_call(make_app: Callable[..., Any],
                                                                      tmp_path: Path) -> None:
    app = make_app("html", srcdir=_book(tmp_path / "book"))
    compared: dict[str, int] = {}
    different: list[tuple[str, dict[str, Any]]] = []

    def compare(app: Any, pagename: str, templatename: str, context: dict[str, Any], doctree: Any) -> None:
        if doctree is None:
            return  # genindex, search: no toctree of their own to compare
        for options in CALLS:
            if context["toctree"](**dict(options)) != app.builder._get_local_toctree(pagename, **dict(options)):
                different.append((pagename, options))
        compared[pagename] = len(CALLS)

    app.connect("html-page-context", compare, priority=900)  # after the extension's handler (300)
    app.build()
    app.cleanup()
    assert app.warning.getvalue() == ""
    assert set(compared) == {name.removesuffix(".rst") for name in PAGES}
    assert different == []


def test_the_navigation_reads_no_section_below_a_page_s_title(make_app: Callable[..., Any], tmp_path: Path) -> None:
    """Node sections (and every other section) are pruned once, not copied for every page."""
    app = make_app("html", srcdir=_book(tmp_path / "book"))
    app.build()
    app.cleanup()
    pruned = Navigation().environment(app.env).tocs
    anchors = [reference["anchorname"] for reference in pruned["rules"].findall(
        lambda node: node.tagname == "reference")]
    assert anchors == [""]  # the page's title alone
    full = [reference["anchorname"] for reference in app.env.tocs["rules"].findall(
        lambda node: node.tagname == "reference")]
    assert "#Nav.Trait.Energy" in full  # the page's own contents ("On this page") still list its nodes


def test_a_collapsed_navigation_opens_only_the_reader_s_own_branch(make_app: Callable[..., Any],
                                                                    tmp_path: Path) -> None:
    """``rpg_navigation_collapse``: each call answers as Sphinx's own ``collapse=True``, so a chapter's
    sidebar lists the other chapters by title and opens only the one the reader is in."""
    app = make_app("html", srcdir=_book(tmp_path / "book"), confoverrides={"rpg_navigation_collapse": True})
    furo = CALLS[0]
    sidebars: dict[str, str] = {}
    different: list[tuple[str, dict[str, Any]]] = []

    def compare(app: Any, pagename: str, templatename: str, context: dict[str, Any], doctree: Any) -> None:
        if doctree is None:
            return
        for options in CALLS:
            collapsed = app.builder._get_local_toctree(pagename, **{**options, "collapse": True})
            if context["toctree"](**dict(options)) != collapsed:
                different.append((pagename, options))
        sidebars[pagename] = context["toctree"](**dict(furo))

    app.connect("html-page-context", compare, priority=900)
    app.build()
    app.cleanup()
    assert app.warning.getvalue() == ""
    assert different == []
    assert ">Deep child<" in sidebars["deep-child"] and "Shallow child" not in sidebars["deep-child"]
    assert "Deep child" not in sidebars["rules"] and "Shallow child" not in sidebars["rules"]
    assert all(f'{chapter}.html' in sidebars["rules"] for chapter in ("deep", "shallow", "gated"))
