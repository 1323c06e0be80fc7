"""An incremental build after each kind of edit writes what a clean build of the edited book writes.

The edit kinds are the benchmark's (``bench/build.py``): a paragraph appended to a page, one inserted
under its title (every node below moves down), a node renamed, a node moved to another page, a node
deleted (references to it then dangle), and a listing's filter changed.  Compared: the HTML of every
page, ``objects.inv``, ``nodes.json``, ``rpg-previews.json`` and the nodes' search-index entries.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

MOVED = ".. node:def:: Thing 1-2\n   :uid: Book.Page1.Thing2\n   :type: E\n\n   Thing 2 of page 1.\n"


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, f"{old!r} is not in {path.name}"
    path.write_text(text.replace(old, new, 1))


def append(src: Path) -> list[Path]:
    page = src / "page1.rst"
    page.write_text(page.read_text() + "\nA paragraph at the end.\n")
    return [page]


def insert_top(src: Path) -> list[Path]:
    _replace(src / "page1.rst", "=======\n", "=======\n\nA paragraph under the title.\n\nAnd a second one.\n")
    return [src / "page1.rst"]


def rename(src: Path) -> list[Path]:
    _replace(src / "page1.rst", ".. node:def:: Thing 1-0\n", ".. node:def:: Shiny Thing\n")
    return [src / "page1.rst"]


def move(src: Path) -> list[Path]:
    _replace(src / "page1.rst", MOVED, "")
    page2 = src / "page2.rst"
    page2.write_text(page2.read_text() + "\n" + MOVED)
    return [src / "page1.rst", page2]


def delete(src: Path) -> list[Path]:
    _replace(src / "page1.rst", MOVED, "")  # page0 refers to it: its reference now dangles
    return [src / "page1.rst"]


def change_filter(src: Path) -> list[Path]:
    _replace(src / "list1.rst", 'docname == "page1"', 'docname == "page3"')
    return [src / "list1.rst"]


EDITS: dict[str, Callable[[Path], list[Path]]] = {
    "append": append, "insert-top": insert_top, "rename": rename, "move": move, "delete": delete,
    "filter": change_filter,
}


def _listings_book(write_book: Callable[..., Path], root: Path) -> Path:
    """The shared small book (8 pages of 3 nodes, each page referring to the next, a listing of every
    node on the index) plus two listing pages filtered by page."""
    src = write_book(root)
    for n in (1, 2):
        (src / f"list{n}.rst").write_text(f"List {n}\n======\n\n.. node:list::\n   :filter: docname == \"page{n}\"\n")
    _replace(src / "index.rst", "   page0\n", "   page0\n   list1\n   list2\n")
    return src


def _search_index(outdir: Path) -> dict[str, Any]:
    text = (outdir / "searchindex.js").read_text()
    data: dict[str, Any] = json.loads(text[text.index("(") + 1:text.rindex(")")])
    return data


def _node_search_entries(outdir: Path) -> dict[str, list[tuple[str, str, str]]]:
    """The search index's node objects and index entries, each as (page, anchor, title or term)."""
    index = _search_index(outdir)
    pages = index["docnames"]
    node_type = [int(key) for key, value in index["objtypes"].items() if value == "node:node"]
    objects = sorted((pages[page], anchor, name) for entries in index["objects"].values()
                     for page, kind, _, anchor, name in entries if kind in node_type)
    entries = sorted((pages[page], anchor, term) for term, places in index["indexentries"].items()
                     for page, anchor, *_ in places)
    return {"objects": objects, "index entries": entries}


def _outputs(outdir: Path) -> dict[str, bytes]:
    """Every page's HTML and the JSON files and inventory written beside them."""
    return {str(path.relative_to(outdir)): path.read_bytes() for path in sorted(outdir.rglob("*"))
            if path.suffix in (".html", ".inv", ".json") and "_static" not in path.parts}


@pytest.mark.parametrize("kind", list(EDITS))
def test_an_incremental_build_after_an_edit_equals_a_clean_build(kind, build, write_book, touch, tmp_path):
    src = _listings_book(write_book, tmp_path / "book")
    build(src)
    for path in EDITS[kind](src):
        touch(path)
    incremental = Path(build(src).outdir)
    clean = Path(build(shutil.copytree(src, tmp_path / "clean", ignore=shutil.ignore_patterns("_build"))).outdir)
    got, want = _outputs(incremental), _outputs(clean)
    assert {"nodes.json", "rpg-previews.json", "objects.inv", "index.html", "list1.html"} <= set(want)
    assert sorted(got) == sorted(want)
    assert [name for name in want if got[name] != want[name]] == []
    searched = _node_search_entries(clean)
    assert searched["objects"] and searched["index entries"] == []  # a node is found as its object only
    assert _node_search_entries(incremental) == searched


def _written(app: Any) -> set[str]:
    """The pages a build wrote, from its status output."""
    import re

    return set(re.findall(r"writing output\.\.\. .*?\[\s*\d+%\]\s+(?:\x1b\[[0-9;]*m)?([\w/]+)", app.status.getvalue()))


def test_a_changed_node_is_followed_once_and_then_forgotten(build, write_book, edit, tmp_path):
    """The build after a rename brings the pages that link the node up to date (their links replaced
    in place, ``relink``); the build after that, which changes no node, does not touch them again: the
    change was detected from the pages that build read, not from a copy of every record kept in the
    environment."""
    src = write_book(tmp_path / "book", listing=False)
    build(src)
    edit(src / "page1.rst", ".. node:def:: Thing 1-0\n", ".. node:def:: Shiny Thing\n")
    renamed = build(src)
    page0 = Path(renamed.outdir) / "page0.html"
    assert "page1" in _written(renamed) and "Shiny Thing" in page0.read_text()  # page0 links page1's nodes
    stamp = page0.stat().st_mtime_ns
    edit(src / "page3.rst", "Thing 0 of page 3.", "Thing 0 of page 3, reworded.")
    again = _written(build(src))
    assert "page3" in again and "page0" not in again and page0.stat().st_mtime_ns == stamp
    assert "published" not in renamed.env.domaindata["node"]
