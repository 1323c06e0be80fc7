"""A node:def places its heading and its facts' field names in the page itself, as Sphinx would.

Sphinx's ApplySourceWorkaround gives a source and line to a title, rubric or field name that has none,
and builds a debug message with the node's XML first, shown or not: one per node of a big book.  The
directive sets the same source and line, so the doctree is the same and the workaround has nothing to do.
"""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import pytest
import sphinx.util.nodes
from docutils import nodes

from tests.adversarial.harness import build, write_book

PAGE = (".. node:def:: Energy\n   :uid: Adv.Trait.Energy\n\n   Fuel for everything.\n\n"
        ".. node:def:: Energy again\n   :uid: Adv.Trait.Other\n   :type: E\n   :no-contents-entry:\n\n"
        "   A heading kept out of the contents.\n")


def _inside_a_node(node: nodes.Node) -> bool:
    parent = node.parent
    while parent is not None:
        if isinstance(parent, nodes.Element) and "rpg-node" in parent.get("classes", ()):
            return True
        parent = parent.parent
    return False


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Any]]:
    """One build for the module's tests, noting each node Sphinx's workaround has to place."""
    placed_by_sphinx: list[Any] = []
    original = sphinx.util.nodes.repr_domxml

    def noting(node: Any, *args: Any, **kwargs: Any) -> str:
        placed_by_sphinx.append(node)
        return original(node, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sphinx.util.nodes, "repr_domxml", noting)
        root = write_book(tmp_path_factory.mktemp("places") / "book", {"index": PAGE})
        result = build(root)
    assert result.error is None, result.error
    return root, placed_by_sphinx


def _doctree(root: Path) -> nodes.document:
    with (root / "_build" / ".doctrees" / "index.doctree").open("rb") as stream:
        document = pickle.load(stream)
    assert isinstance(document, nodes.document)
    return document


def test_sphinx_has_no_heading_or_field_of_a_node_to_place(book: tuple[Path, list[Any]]) -> None:
    _, placed_by_sphinx = book
    assert [node for node in placed_by_sphinx if _inside_a_node(node)] == []


def test_a_node_heading_is_placed_at_its_definition(book: tuple[Path, list[Any]]) -> None:
    root, _ = book
    section = next(node for node in _doctree(root).findall(nodes.section) if "rpg-node" in node["classes"])
    title = section[0]
    assert isinstance(title, nodes.title)
    assert (title.source, title.line) == (section.source, section.line)
    assert title.source == str(root / "index.rst") and section.line


def test_a_heading_kept_out_of_the_contents_is_placed_on_its_page_at_line_0(book: tuple[Path, list[Any]]) -> None:
    root, _ = book
    heading = next(node for node in _doctree(root).findall(nodes.rubric) if _inside_a_node(node))
    assert (heading.source, heading.line) == (str(root / "index.rst"), 0)


def test_a_fact_name_is_placed_on_its_page_at_line_0(book: tuple[Path, list[Any]]) -> None:
    root, _ = book
    names = [node for node in _doctree(root).findall(nodes.field_name) if _inside_a_node(node)]
    assert names, "the bound node shows its facts"
    assert {(name.source, name.line) for name in names} == {(str(root / "index.rst"), 0)}


def _dependencies(root: Path, docname: str = "index") -> set[str]:
    with (root / "_build" / ".doctrees" / "environment.pickle").open("rb") as stream:
        env = pickle.load(stream)
    return {str(path) for path in env.dependencies[docname]}


def test_a_page_depends_on_the_module_of_each_rule_it_shows(book: tuple[Path, list[Any]]) -> None:
    root, _ = book
    modules = {path for path in _dependencies(root) if Path(path).name.startswith("advrules_")}
    assert len(modules) == 1 and Path(next(iter(modules))).parent == root


def test_a_rule_that_names_a_file_of_its_own_adds_it_to_the_page(tmp_path: Path) -> None:
    rules = ("class Elsewhere(Node):\n    @property\n    def source_file(self):\n"
             "        return pathlib.Path(__file__).with_name('elsewhere.py')\n"
             "REGISTRY.add(Elsewhere(uid='Adv.Trait.Far', name='Far', types=('E',), module=__name__))\n")
    page = PAGE + "\n.. node:def:: Far\n   :uid: Adv.Trait.Far\n"
    root = write_book(tmp_path / "book", {"index": page}, rules)
    assert build(root).error is None
    found = _dependencies(root)  # the same module as Energy's rule, which the page shows first
    assert str(root / "elsewhere.py") in found
    assert any(Path(path).name.startswith("advrules_") for path in found)
