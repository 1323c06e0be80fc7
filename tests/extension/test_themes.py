"""The extension on every theme it supports: alabaster, Furo, PyData and the Book theme.

One tiny project (tests/extension/roots/test-themes: an index and two chapters, one bound node with
a formula, an odds table with a chart) is built once per theme, and the build must not warn.  Each
build must carry the node markup, the extension's style sheet, the formula typeset as text, the
chart, a link to the sibling chapter and previous/next links.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
from html.parser import HTMLParser
from io import StringIO
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

#: Theme name -> the module that must be importable for it (alabaster comes with Sphinx).
THEMES = {"alabaster": "alabaster", "furo": "furo", "pydata_sphinx_theme": "pydata_sphinx_theme",
          "sphinx_book_theme": "sphinx_book_theme"}


def installed(module: str) -> bool:
    """Whether ``module`` is installed, found without importing it: every xdist worker collects this
    file, and importing the three themes (Furo brings BeautifulSoup) cost each a quarter of a CPU-second."""
    return importlib.util.find_spec(module) is not None


pytestmark = pytest.mark.parametrize("theme", [
    pytest.param(theme, marks=pytest.mark.skipif(not installed(module), reason=f"{module} is not installed"))
    for theme, module in THEMES.items()])


class _Anchors(HTMLParser):
    """Every ``<a href>`` of the page's body, with its attributes (the head's ``<link>`` do not count)."""

    def __init__(self) -> None:
        super().__init__()
        self.in_body = False
        self.anchors: list[dict[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "body":
            self.in_body = True
        elif tag == "a" and self.in_body:
            self.anchors.append({name: value or "" for name, value in attrs})


def page(app: Any, docname: str) -> tuple[str, list[dict[str, str]]]:
    """The page's HTML and the anchors of its body."""
    html = (Path(app.outdir) / f"{docname}.html").read_text(encoding="utf-8")
    parser = _Anchors()
    parser.feed(html)
    return html, parser.anchors


def links(anchors: list[dict[str, str]], target: str, kind: str = "") -> list[dict[str, str]]:
    """Anchors to ``target``; with ``kind`` ("next", "prev"), only those its class, title or rel marks
    so (Furo: ``next-page``, PyData and Book: ``right-next``, alabaster: title "next chapter")."""
    return [a for a in anchors if a.get("href", "").split("#")[0] == target
            and (not kind or any(kind in a.get(name, "").lower() for name in ("class", "title", "rel")))]


@pytest.fixture(scope="module")
def builds(rootdir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[[str], Any]]:
    """The test root built with a theme, once per theme, shared by this module's tests."""
    from sphinx.testing.util import SphinxTestApp

    apps: dict[str, SphinxTestApp] = {}

    def build(theme: str) -> SphinxTestApp:
        if theme not in apps:
            source = tmp_path_factory.mktemp(f"themes-{theme}") / "src"
            shutil.copytree(rootdir / "test-themes", source)
            app = SphinxTestApp("html", srcdir=source, confoverrides={"html_theme": theme},
                                status=StringIO(), warning=StringIO())
            try:
                app.build()
            finally:
                app.cleanup()  # docutils' node registry is global: free it for the next theme's app
            apps[theme] = app
        return apps[theme]

    yield build


@pytest.fixture
def built(builds: Callable[[str], Any], theme: str) -> Any:
    app = builds(theme)
    warnings = app.warning.getvalue().strip()
    assert warnings == "", f"the {theme} build warned (it must build with -W):\n{warnings}"
    return app


def test_node_markup_is_on_the_page(built, theme):
    html, _ = page(built, "first")
    assert re.search(r'<section class="[^"]*\brpg-node\b[^"]*" id="Theme\.Trait\.Energy"', html)
    assert re.search(r'<span class="[^"]*\brpg-node-ref\b', html)
    assert '<span class="rpg-formula">' in html and r"\(" not in html
    assert re.search(r'<div class="[^"]*\brpg-chart\b', html) and "<svg" in html


def test_the_style_sheet_is_linked_and_shipped(built, theme):
    html, _ = page(built, "first")
    assert "_static/sphinx_rpg.css" in html.split("</head>", 1)[0]
    assert (Path(built.outdir) / "_static" / "sphinx_rpg.css").exists()


def test_a_chapter_links_to_its_sibling_chapter(built, theme):
    """The sidebar (or the theme's own navigation) of one chapter lists the other."""
    _, first = page(built, "first")
    _, second = page(built, "second")
    assert links(first, "second.html") and links(second, "first.html")


def test_a_chapter_has_previous_and_next_links(built, theme):
    _, first = page(built, "first")
    assert links(first, "second.html", "next"), "no 'next' link to the second chapter"
    assert links(first, "index.html", "prev"), "no 'previous' link to the index"
