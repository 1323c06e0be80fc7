"""The node index pages' table is made in Python for the themes whose template is known, byte for byte
what the theme's own ``domainindex.html`` makes; any other template renders the page itself.

Each comparison builds the same book twice, once with the Python table and once with the known
templates forgotten (so the theme's template loop renders it), and compares the whole pages.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sphinx_rpg import index_render

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

PAGES = ("node-types.html", "node-namespaces.html")
THEMES = ["alabaster", pytest.param("furo", marks=pytest.mark.skipif(
    not index_render.__name__ or __import__("importlib").util.find_spec("furo") is None, reason="no furo"))]


def _book(write_book: Any, root: Path, theme: str) -> Path:
    # a type label with markup and a node with two types: escaped group names, a node in two groups
    extra = f'html_theme = "{theme}"\nrpg_registries = []\n'
    src: Path = write_book(root, nodes_per_page=2, references=False, listing=False, extra_conf=extra)
    page = src / "page1.rst"
    page.write_text(page.read_text() + '\n.. node:def:: Fish & <Chips> "2" \'s\n   :uid: Book.Odd.Fish\n'
                    "   :type: E,R\n\n   A node whose title needs escaping.\n\n"
                    ".. node:def:: Bare\n   :uid: Book.Bare\n\n   A node without types.\n")
    return src


@pytest.mark.parametrize("theme", THEMES)
def test_the_python_table_equals_the_themes_own(build, write_book, tmp_path, monkeypatch, theme):
    fast = build(_book(write_book, tmp_path / "fast", theme))
    assert index_render.template_kind(fast.builder) is not None, "this theme's template is a known one"
    monkeypatch.setattr(index_render, "KNOWN_TEMPLATES", {})
    slow = build(_book(write_book, tmp_path / "slow", theme))
    assert index_render.template_kind(slow.builder) is None
    for page in PAGES:
        made = (Path(fast.outdir) / page).read_text(encoding="utf-8")
        assert made == (Path(slow.outdir) / page).read_text(encoding="utf-8")
        assert "Fish &amp; &lt;Chips&gt; &#34;2&#34; &#39;s" in made and "Thing 1-0" in made


def test_a_projects_own_index_template_renders_the_page(build, write_book, tmp_path):
    src = _book(write_book, tmp_path / "own", "alabaster")
    (src / "_templates").mkdir()
    (src / "conf.py").write_text((src / "conf.py").read_text() + 'templates_path = ["_templates"]\n')
    (src / "_templates" / "domainindex.html").write_text(
        '{% extends "!domainindex.html" %}\n{% block body %}<p>Our own index</p>{{ super() }}{% endblock %}\n')
    app = build(src)
    assert index_render.template_kind(app.builder) is None
    text = (Path(app.outdir) / "node-types.html").read_text(encoding="utf-8")
    assert "<p>Our own index</p>" in text and "Thing 1-0" in text


def test_an_index_with_sub_entries_is_left_to_the_template():
    content = [("A", [("Name", 1, "page", "anchor", "", "", "")])]
    assert index_render.render_basic("Index", content, lambda page: page) is None
    assert index_render.render_furo("Index", content, lambda page: page) is None
