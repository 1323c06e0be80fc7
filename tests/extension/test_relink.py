"""A page whose only change is its links to a renamed or moved node gets those links replaced in last
build's copy instead of being written again (``sphinx_rpg.relink``), and ends byte for byte what a clean
build writes; anything the replacement cannot vouch for writes the page as usual."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

RENAMED = (".. node:def:: Thing 1-0\n", ".. node:def:: Zyzzyva Thing\n")
MOVED = ".. node:def:: Thing 1-2\n   :uid: Book.Page1.Thing2\n   :type: E\n\n   Thing 2 of page 1.\n"


def _written(app: Any) -> set[str]:
    """The pages a build wrote, from its status output."""
    return set(re.findall(r"writing output\.\.\. .*?\[\s*\d+%\]\s+(?:\x1b\[[0-9;]*m)?([\w/]+)", app.status.getvalue()))


def _clean_page(build: Callable[..., Any], src: Path, root: Path, page: str) -> bytes:
    clean = build(shutil.copytree(src, root / "clean", ignore=shutil.ignore_patterns("_build")))
    return (Path(clean.outdir) / f"{page}.html").read_bytes()


def _book(write_book: Callable[..., Path], root: Path, page0_extra: str = "") -> Path:
    """The shared small book (page0 links page1's nodes), without the listing of every node."""
    src = write_book(root / "book", listing=False)
    if page0_extra:
        page0 = src / "page0.rst"
        page0.write_text(page0.read_text() + f"\n{page0_extra}\n")
    return src


@pytest.mark.parametrize("parallel", [0, 2])
def test_renaming_a_node_replaces_its_links_on_the_pages_linking_it(parallel, build, write_book, edit, tmp_path):
    src = _book(write_book, tmp_path)
    build(src, parallel=parallel)
    edit(src / "page1.rst", *RENAMED)
    renamed = build(src, parallel=parallel)
    assert "page1" in _written(renamed) and "page0" not in _written(renamed)
    page0 = (Path(renamed.outdir) / "page0.html").read_bytes()
    assert b'title="Zyzzyva Thing (E)"' in page0
    assert page0 == _clean_page(build, src, tmp_path, "page0")


def test_moving_a_node_replaces_the_address_of_its_links(build, write_book, edit, tmp_path):
    src = _book(write_book, tmp_path)
    build(src)
    edit(src / "page1.rst", MOVED, "")
    page2 = src / "page2.rst"
    edit(page2, "Thing 2 of page 2.\n", "Thing 2 of page 2.\n\n" + MOVED)
    moved = build(src)
    assert "page0" not in _written(moved)
    page0 = (Path(moved.outdir) / "page0.html").read_bytes()
    assert b'href="page2.html#Book.Page1.Thing2"' in page0
    assert page0 == _clean_page(build, src, tmp_path, "page0")


def test_a_referenced_by_line_that_loses_a_page_is_replaced(build, write_book, edit, tmp_path):
    """page1's first node is linked from page0 and page2; page0 stops linking it: page1's line is
    replaced, and page1, which nobody edited, is not written."""
    src = _book(write_book, tmp_path)
    page2 = src / "page2.rst"
    page2.write_text(page2.read_text() + "\nAnd :node:ref:`Book.Page1.Thing0`.\n")
    build(src)
    edit(src / "page0.rst", ":node:ref:`Book.Page1.Thing0` ", "")
    dropped = build(src)
    assert "page0" in _written(dropped) and "page1" not in _written(dropped)
    page1 = (Path(dropped.outdir) / "page1.html").read_bytes()
    assert page1 == _clean_page(build, src, tmp_path, "page1")


def test_a_page_changed_since_it_was_written_is_written_again(build, write_book, edit, tmp_path):
    src = _book(write_book, tmp_path)
    first = build(src)
    html = Path(first.outdir) / "page0.html"
    html.write_text(html.read_text() + "<!-- edited by hand -->\n")
    edit(src / "page1.rst", *RENAMED)
    assert "page0" in _written(build(src))
    assert html.read_bytes() == _clean_page(build, src, tmp_path, "page0")


@pytest.mark.parametrize("link", [
    ":node:ref:`Thing 1-0 (E) <Book.Page1.Thing0>`",  # a text written by hand that equals the old title
    ":any:`Book.Page1.Thing0`",  # markup that is not the node role's own
])
def test_a_link_whose_markup_cannot_be_told_apart_writes_the_page(link, build, write_book, edit, tmp_path):
    src = _book(write_book, tmp_path, page0_extra=f"Also {link}.")
    build(src)
    edit(src / "page1.rst", *RENAMED)
    renamed = build(src)
    assert "page0" in _written(renamed)
    assert (Path(renamed.outdir) / "page0.html").read_bytes() == _clean_page(build, src, tmp_path, "page0")


def _warnings_about(app: Any, uid: str) -> list[str]:
    """The build's warnings about a dangling link to ``uid``, each as "page:line: message"."""
    found = re.findall(rf"([\w/]+\.rst:\d+): WARNING: (node reference target not found: '{re.escape(uid)}'.*)",
                       re.sub(r"\x1b\[[0-9;]*m", "", app.warning.getvalue()))
    return [f"{Path(place).name}: {message}" for place, message in found]


@pytest.mark.parametrize("extra", ["", "Also :node:ref:`its own words <Book.Page1.Thing2>` and :node:ref:`!Book.Page1.Thing2`."])
def test_deleting_a_node_makes_its_links_dangle_in_place_and_warn_for_each(extra, build, write_book, edit, tmp_path):
    """page0 links page1's last node (with its title, and in ``extra`` with a text of its own and as a
    title without a link); deleting it replaces those links by what a dangling link shows, page0 is not
    written, and each link warns at its line as a written page would."""
    src = _book(write_book, tmp_path, page0_extra=extra)
    build(src)
    edit(src / "page1.rst", MOVED, "")
    deleted = build(src)
    assert "page0" not in _written(deleted)
    page0 = (Path(deleted.outdir) / "page0.html").read_bytes()
    assert b'<span class="xref node node-ref no-search">Book.Page1.Thing2</span>' in page0
    assert page0 == _clean_page(build, src, tmp_path, "page0")
    clean = build(shutil.copytree(src, tmp_path / "again", ignore=shutil.ignore_patterns("_build")))
    warnings = _warnings_about(deleted, "Book.Page1.Thing2")
    assert warnings == _warnings_about(clean, "Book.Page1.Thing2")
    assert len(warnings) == (3 if extra else 1)


def test_a_page_patched_for_a_deleted_node_is_left_alone_by_the_next_build(build, write_book, edit, tmp_path):
    src = _book(write_book, tmp_path)
    build(src)
    edit(src / "page1.rst", MOVED, "")
    build(src)
    again = build(src)
    assert "page0" not in _written(again) and not _warnings_about(again, "Book.Page1.Thing2")


@pytest.mark.parametrize("how", ["nitpicky", "a text without a link"])
def test_a_dangling_link_the_writer_alone_can_judge_writes_the_page(how, build, write_book, edit, tmp_path):
    """Nitpicky mode has its own lists of links that may dangle; a hand-written text without a link
    is not found whole in the page: the page is written, and warns as it always did."""
    extra = "Also :node:ref:`!its own words <Book.Page1.Thing2>`." if how != "nitpicky" else ""
    src = _book(write_book, tmp_path, page0_extra=extra)
    options = {"confoverrides": {"nitpicky": True}} if how == "nitpicky" else {}
    build(src, **options)
    edit(src / "page1.rst", MOVED, "")
    deleted = build(src, **options)
    assert "page0" in _written(deleted)
    assert _warnings_about(deleted, "Book.Page1.Thing2")
    assert (Path(deleted.outdir) / "page0.html").read_bytes() == _clean_page(build, src, tmp_path, "page0")


def test_a_link_text_is_not_a_search_term_of_the_page_linking_it(build, write_book, edit, tmp_path):
    """So a rename leaves the search entries of the pages linking the node as they were."""
    src = _book(write_book, tmp_path)
    edit(src / "page1.rst", *RENAMED)
    outdir = Path(build(src).outdir)
    text = (outdir / "searchindex.js").read_text()
    index = json.loads(text[text.index("(") + 1:text.rindex(")")])
    found = {index["docnames"][number] for kind in ("terms", "titleterms")
             for number in _as_list(index[kind].get("zyzzyva", []))}
    assert "page1" in found and "page0" not in found


def _as_list(value: int | list[int]) -> list[int]:
    return value if isinstance(value, list) else [value]
