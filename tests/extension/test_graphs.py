"""node:graph and the "Depends on" / "Used by" facts, from the engine's formulas."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

RULES = '''
from rules.formula import Formula
from rules.nodes import Registry

REGISTRY = Registry("tinygraph", title="Tiny", node_types={"A": "Attribute", "R": "Resource"})
REGISTRY.define("Tiny.Attr.Grit", "Grit", "A")
REGISTRY.define("Tiny.Attr.Wit", "Wit", "A")
REGISTRY.define("Tiny.Res.Stamina", "Stamina", "R", formula=Formula("Grit + Wit + level"))
'''
PAGES = {
    "index.rst": "Tiny\n====\n\n.. toctree::\n\n   traits\n   graph\n",
    "traits.rst": ("Traits\n======\n\n.. node:def:: Grit\n   :uid: Tiny.Attr.Grit\n\n.. node:def:: Wit\n"
                   "   :uid: Tiny.Attr.Wit\n\n.. node:def:: Stamina\n   :uid: Tiny.Res.Stamina\n"),
    "graph.rst": "Graph\n=====\n\n.. node:graph::\n   :system: tinygraph\n",
}


@pytest.fixture
def book(tmp_path) -> Path:
    src = tmp_path / "book"
    src.mkdir()
    (src / "tiny_graph_rules.py").write_text(RULES)
    (src / "conf.py").write_text("import sys, pathlib\nsys.path.insert(0, str(pathlib.Path(__file__).parent))\n"
                                 'extensions = ["sphinx_rpg"]\nrpg_registries = ["tiny_graph_rules:REGISTRY"]\n')
    for name, text in PAGES.items():
        (src / name).write_text(text)
    return src



def test_the_graph_page_draws_each_node_as_a_link_to_its_definition(build, book):
    app = build(book)
    assert app.warning.getvalue() == ""
    html = (Path(app.outdir) / "graph.html").read_text()
    svg = re.search(r"<svg[^>]*class=\"rpg-graph\".*?</svg>", html, re.S).group(0)
    links = dict(re.findall(r'<a href="([^"]+)"><g class="rpg-graph-node"><title>[^<]*</title>.*?<text[^>]*>([^<]+)</text>',
                            svg))
    assert links == {"traits.html#Tiny.Attr.Grit": "Grit", "traits.html#Tiny.Attr.Wit": "Wit",
                     "traits.html#Tiny.Res.Stamina": "Stamina"}
    assert svg.count('class="rpg-graph-edge"') == 2
    assert "and level" in html  # the parameter is listed under the picture


def test_each_node_lists_what_it_depends_on_and_what_uses_it(build, book):
    app = build(book)
    text = re.sub(r"<[^>]+>", "", (Path(app.outdir) / "traits.html").read_text())
    assert re.search(r"Depends on:?\s*Grit \(A\), Wit \(A\)", text)
    assert len(re.findall(r"Used by:?\s*Stamina \(R\)", text)) == 2


def test_latex_gets_the_connections_as_a_list(build, book):
    app = build(book, builder="latex")
    tex = next(Path(app.outdir).glob("*.tex")).read_text()
    assert "Stamina (R)" in tex and "from" in tex and "rpg-graph" not in tex


def test_a_graph_of_an_unknown_system_is_a_located_warning(build, book):
    (book / "graph.rst").write_text("Graph\n=====\n\n.. node:graph::\n   :system: nosuch\n")
    app = build(book)
    assert re.search(r"graph\.rst:\d+: WARNING: node:graph: no bound registry has system 'nosuch'.*\[node\.option\]",
                     app.warning.getvalue())
