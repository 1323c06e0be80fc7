"""Whole builds: parallel equals serial, incremental rebuilds leave nothing stale, intersphinx works."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from sphinx.util.inventory import InventoryFile

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def outputs(outdir: Path) -> dict[str, bytes]:
    files = {}
    for path in sorted(outdir.rglob("*")):
        if path.suffix in (".html", ".inv", ".json") and "_static" not in path.parts:
            files[str(path.relative_to(outdir))] = path.read_bytes()
    return files


def node_inventory(outdir: Path) -> dict[str, tuple[str, str]]:
    """uid -> (uri, display name) of every node in a build's objects.inv."""
    inventory = InventoryFile.loads((outdir / "objects.inv").read_bytes(), uri="")
    return {uid: (item.uri, item.display_name) for uid, item in inventory.data.get("node:node", {}).items()}


def test_parallel_build_output_equals_serial_build_output(build, write_book, warning_text, tmp_path):
    serial_src = write_book(tmp_path / "serial")
    parallel_src = write_book(tmp_path / "parallel")
    (parallel_src / "page5.rst").write_text((parallel_src / "page5.rst").read_text()
                                            + "\n.. node:def:: Clash\n   :uid: Book.Page1.Thing0\n   :type: E\n")
    (serial_src / "page5.rst").write_text((parallel_src / "page5.rst").read_text())
    serial = build(serial_src)
    parallel = build(parallel_src, parallel=2)
    # it really read and wrote in parallel (Sphinx falls back to serial for an unsafe extension)
    assert parallel.parallel == 2
    assert parallel.is_parallel_allowed("read") and parallel.is_parallel_allowed("write")
    assert outputs(Path(serial.outdir)) == outputs(Path(parallel.outdir))
    # the duplicate is found across workers, reported once, naming both places
    for app in (serial, parallel):
        warnings = [w for w in warning_text(app).splitlines() if "[node.duplicate]" in w]
        assert len(warnings) == 1
        assert "page5.rst:" in warnings[0] and "page1.rst:" in warnings[0]


def test_deleting_a_node_makes_references_on_unchanged_pages_warn(build, write_book, edit, warning_text, tmp_path):
    src = write_book(tmp_path / "book")
    build(src)
    page1 = src / "page1.rst"
    edit(page1, ".. node:def:: Thing 1-0\n   :uid: Book.Page1.Thing0\n",
         ".. node:def:: Thing 1-0\n   :uid: Book.Page1.Renamed\n")
    app = build(src)
    warnings = warning_text(app)
    assert re.search(r"page0\.rst:\d+: WARNING: node reference target not found: 'Book.Page1.Thing0'( \(did you mean [^)]*\))? \[node.ref\]",
                     warnings)
    # the incremental build's inventory is the one a fresh build of the edited book writes
    inventory = node_inventory(Path(app.outdir))
    assert "Book.Page1.Renamed" in inventory and "Book.Page1.Thing0" not in inventory
    fresh = build(shutil.copytree(src, tmp_path / "fresh", ignore=shutil.ignore_patterns("_build")))
    assert inventory == node_inventory(Path(fresh.outdir))
    domain = app.env.get_domain("node")
    assert domain.record("Book.Page1.Thing0") is None and domain.record("Book.Page1.Renamed") is not None


def test_renaming_a_node_updates_bare_references_and_listings_on_unchanged_pages(build, write_book, edit, warning_text,
                                                                                 tmp_path):
    src = write_book(tmp_path / "book")
    build(src)
    page1 = src / "page1.rst"
    edit(page1, ".. node:def:: Thing 1-2\n", ".. node:def:: Shiny Thing\n")
    app = build(src)
    assert warning_text(app) == ""
    outdir = Path(app.outdir)
    assert "Shiny Thing (E)" in (outdir / "page0.html").read_text()  # bare ref on an unedited page
    listing = (outdir / "index.html").read_text()
    assert "Shiny Thing (E)" in listing and "Thing 1-2 (E)" not in listing  # listing on an unedited page
    assert "Thing 1-2" not in (outdir / "node-types.html").read_text()


def test_removing_a_page_removes_its_nodes_from_the_index(build, write_book, edit, warning_text, tmp_path):
    src = write_book(tmp_path / "book")
    build(src)
    (src / "page3.rst").unlink()
    index = src / "index.rst"
    edit(index, "   page3\n", "")
    app = build(src)
    domain = app.env.get_domain("node")
    assert not [r for r in domain.records() if r.docname == "page3"]
    assert "Thing 3-0" not in (Path(app.outdir) / "node-namespaces.html").read_text()
    assert "Book.Page3.Thing0" in warning_text(app)  # page2 still refers to it


def test_a_second_project_resolves_node_references_through_intersphinx(build, write_book, warning_text, tmp_path):
    first = build(write_book(tmp_path / "first"))
    second_src = tmp_path / "second"
    second_src.mkdir()
    (second_src / "conf.py").write_text(
        'extensions = ["sphinx.ext.intersphinx", "sphinx_rpg"]\n'
        f'intersphinx_mapping = {{"first": ("https://first.example/", "{Path(first.outdir) / "objects.inv"}")}}\n')
    (second_src / "index.rst").write_text("Second\n======\n\nSee :node:ref:`Book.Page2.Thing1` and "
                                          ":node:ref:`that one <Book.Page2.Thing2>`.\n")
    second = build(second_src)
    assert warning_text(second) == ""
    page = (Path(second.outdir) / "index.html").read_text()
    assert re.search(r'href="https://first.example/page2.html#book-page2-thing1"[^>]*>.*?Thing 2-1 \(E\)', page)
    assert re.search(r'href="https://first.example/page2.html#book-page2-thing2"[^>]*>.*?that one', page)


def test_build_output_and_tool_caches_are_never_read_as_pages(make_app, tmp_path):
    (tmp_path / "conf.py").write_text("extensions = ['myst_parser', 'sphinx_rpg']\n")
    (tmp_path / "index.md").write_text("# Book\n")
    for folder in (".pytest_cache", ".venv/lib", "node_modules/pkg", "_build/html/_sources", "chapter/.pytest_cache"):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "README.md").write_text("# A tool's readme\n")
    app = make_app("html", srcdir=tmp_path)
    app.build()
    assert app.env.found_docs == {"index"}
    assert "WARNING" not in app.warning.getvalue()


def build_noting_writes(make_app, srcdir: Path, **options) -> tuple[object, set[str]]:
    """Build once; also return the source pages the builder wrote (not the generated index pages)."""
    app = make_app("html", srcdir=srcdir, **options)
    written: set[str] = set()
    app.connect("html-page-context", lambda _app, pagename, *_: written.add(pagename))
    app.build()
    app.cleanup()
    return app, written & set(app.env.found_docs)


def test_moving_nodes_down_their_page_rewrites_no_other_page(make_app, build, write_book, touch, warning_text, tmp_path):
    src = write_book(tmp_path / "book")
    build(src)
    page1 = src / "page1.rst"
    page1.write_text(page1.read_text().replace("=======\n", "=======\n\nA new paragraph.\n\nAnd another.\n", 1))
    touch(page1)
    app, written = build_noting_writes(make_app, src)
    assert warning_text(app) == ""
    # what plain Sphinx writes (the page and its toctree parent); page0 refers to page1's nodes and
    # index lists them, but neither shows the line a node stands on
    assert written == {"page1", "index"}
    assert app.env.get_domain("node").record("Book.Page1.Thing0").lineno > 5  # the record did move


def write_listings(root: Path) -> None:
    """Two listing pages on a written book, each showing the nodes of one page."""
    for n in (1, 2):
        (root / f"list{n}.rst").write_text(f"List {n}\n======\n\n.. node:list::\n   :filter: docname == \"page{n}\"\n")
    index = root / "index.rst"
    index.write_text(index.read_text().replace("   page0\n", "   page0\n   list1\n   list2\n"))


def test_a_listing_page_is_rewritten_only_when_a_node_it_shows_changes(make_app, build, write_book, touch, warning_text, tmp_path):
    src = write_book(tmp_path / "book")
    write_listings(src)
    build(src)
    page1 = src / "page1.rst"
    page1.write_text(page1.read_text().replace(".. node:def:: Thing 1-2\n", ".. node:def:: Shiny Thing\n"))
    touch(page1)
    app, written = build_noting_writes(make_app, src)
    assert warning_text(app) == ""
    # index and list1 list it; list2 shows only page2's nodes; page0 links it (its links are replaced)
    assert written == {"page1", "index", "list1"}
    assert "Shiny Thing (E)" in (Path(app.outdir) / "list1.html").read_text()
    assert "Shiny Thing (E)" in (Path(app.outdir) / "page0.html").read_text()


def test_a_node_moving_to_another_page_rewrites_the_listings_of_both_pages(make_app, build, write_book, touch, warning_text, tmp_path):
    src = write_book(tmp_path / "book")
    write_listings(src)
    build(src)
    page1, page2 = src / "page1.rst", src / "page2.rst"
    moved = ".. node:def:: Thing 1-2\n   :uid: Book.Page1.Thing2\n   :type: E\n\n   Thing 2 of page 1.\n"
    assert moved in page1.read_text()
    page1.write_text(page1.read_text().replace(moved, ""))
    page2.write_text(page2.read_text() + "\n" + moved)
    touch(page1)
    touch(page2)
    app, written = build_noting_writes(make_app, src)
    assert {"list1", "list2"} <= written
    assert "Thing 1-2" not in (Path(app.outdir) / "list1.html").read_text()
    assert "Thing 1-2" in (Path(app.outdir) / "list2.html").read_text()
