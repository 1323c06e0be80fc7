"""The node index pages are kept from the last build when nothing they show has changed.

Each test builds a small book, plants a marker comment in the built ``node-types.html`` and rebuilds:
the marker survives only if the page was kept rather than rendered again.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def book(write_book):
    """The shared small book, without references or a listing: only the index pages react to edits."""
    return lambda root: write_book(root, nodes_per_page=2, references=False, listing=False, project="kept")


MARKER = "<!-- planted by the test -->"


def plant_marker(outdir: Path, name: str = "node-types.html") -> Path:
    page = outdir / name
    page.write_text(page.read_text().replace("</body>", f"{MARKER}</body>"))
    return page


def fingerprint_of(page: Path) -> str:
    found = re.search(r'<meta name="rpg-index-fingerprint" content="([0-9a-f]{64})" />', page.read_text())
    assert found, "the index page carries its fingerprint"
    return found.group(1)


@pytest.mark.parametrize("parallel", [0, 2])
def test_an_index_page_is_kept_when_only_prose_changed(build, book, edit, tmp_path, parallel):
    src = book(tmp_path / "book")
    first = build(src, parallel=parallel)
    page = plant_marker(Path(first.outdir))
    edit(src / "page3.rst", "Thing 0 of page 3.", "Thing 0 of page 3, now with more words.")
    second = build(src, parallel=parallel)
    assert "more words" in (Path(second.outdir) / "page3.html").read_text()
    assert MARKER in page.read_text()
    assert second.warning.getvalue() == ""


def _clean_page(build, src: Path, root: Path, name: str = "node-types.html") -> str:
    """The page as a build from scratch of the same sources writes it."""
    clean = build(shutil.copytree(src, root / "clean", ignore=shutil.ignore_patterns("_build")))
    return (Path(clean.outdir) / name).read_text()


def test_a_renamed_nodes_row_is_patched_into_the_last_builds_index_page(build, book, edit, tmp_path):
    src = book(tmp_path / "book")
    page = plant_marker(Path(build(src).outdir))
    before = fingerprint_of(page)
    edit(src / "page3.rst", ".. node:def:: Thing 3-1", ".. node:def:: Shiny Thing")
    build(src)
    text = page.read_text()
    assert MARKER in text, "the page was patched, not rendered again"
    assert "Shiny Thing (E)" in text and "Thing 3-1" not in text
    assert fingerprint_of(page) != before
    assert text.replace(MARKER, "") == _clean_page(build, src, tmp_path)


def test_a_rows_markup_is_rendered_with_the_context_the_theme_filled_in(build, write_book, edit, tmp_path):
    """Furo adds to every page's context in its own handler: the rows are rendered after it ran."""
    src = write_book(tmp_path / "book", nodes_per_page=2, references=False, listing=False, project="kept",
                     extra_conf='html_theme = "furo"')
    page = plant_marker(Path(build(src).outdir))
    edit(src / "page3.rst", ".. node:def:: Thing 3-1", ".. node:def:: Alpha Thing")
    rebuilt = build(src)
    text = page.read_text()
    assert rebuilt.statuscode == 0 and MARKER in text
    assert text.replace(MARKER, "") == _clean_page(build, src, tmp_path)


def test_a_deleted_nodes_row_is_cut_from_the_last_builds_index_page(build, book, edit, tmp_path):
    src = book(tmp_path / "book")
    page = plant_marker(Path(build(src).outdir), "node-namespaces.html")
    edit(src / "page3.rst", ".. node:def:: Thing 3-1\n   :uid: Book.Page3.Thing1\n   :type: E\n\n   Thing 1 of page 3.\n",
         "")
    build(src)
    text = page.read_text()
    assert MARKER in text and "Thing 3-1" not in text
    assert text.replace(MARKER, "") == _clean_page(build, src, tmp_path, "node-namespaces.html")


def test_a_rebuild_makes_index_entries_only_for_the_nodes_of_the_pages_it_read(build, book, edit, tmp_path,
                                                                            monkeypatch):
    from sphinx_rpg.domain import _NodeIndex

    src = book(tmp_path / "book")
    build(src)
    made: list[str] = []
    entry = _NodeIndex._entry
    monkeypatch.setattr(_NodeIndex, "_entry", staticmethod(lambda domain, record: made.append(record.uid)
                                                            or entry(domain, record)))
    edit(src / "page3.rst", ".. node:def:: Thing 3-1", ".. node:def:: Shiny Thing")
    rebuilt = build(src)
    assert sorted(set(made)) == ["Book.Page3.Thing0", "Book.Page3.Thing1"]
    assert (Path(rebuilt.outdir) / "node-types.html").read_text() == _clean_page(build, src, tmp_path)


def _marked_page_after_edit(build, edit, src: Path, name: str, old: str, new: str) -> str:
    """The page ``name`` after a build, a marker planted in it, an edit of page3 and a rebuild."""
    page = plant_marker(Path(build(src).outdir), name)
    edit(src / "page3.rst", old, new)
    build(src)
    return page.read_text()


def test_an_index_page_is_rendered_whole_when_a_group_comes_or_goes(build, book, edit, tmp_path):
    """A new namespace is a new group, and a new link in the page's jump box: no rows to patch."""
    src = book(tmp_path / "book")
    text = _marked_page_after_edit(build, edit, src, "node-namespaces.html", ":uid: Book.Page3.Thing1",
                                   ":uid: Other.Thing1")
    assert MARKER not in text and "Other" in text
    assert text == _clean_page(build, src, tmp_path, "node-namespaces.html")


def test_the_general_index_is_kept_when_only_prose_changed(build, book, edit, tmp_path):
    src = book(tmp_path / "book")
    page = plant_marker(Path(build(src).outdir), "genindex.html")
    fingerprint_of(page)
    edit(src / "page3.rst", "Thing 0 of page 3.", "Thing 0 of page 3, now with more words.")
    build(src)
    assert MARKER in page.read_text()


def test_the_general_index_is_rendered_again_when_a_node_is_renamed(build, book, edit, tmp_path):
    text = _marked_page_after_edit(build, edit, book(tmp_path / "book"), "genindex.html",
                                   ".. node:def:: Thing 3-1", ".. node:def:: Shiny Thing")
    assert MARKER not in text
    assert "Shiny Thing" in text and "Thing 3-1" not in text


def test_an_index_page_is_rendered_again_when_the_configuration_changes(build, book, tmp_path):
    src = book(tmp_path / "book")
    page = plant_marker(Path(build(src).outdir))
    build(src, confoverrides={"html_title": "A New Title"})
    text = page.read_text()
    assert MARKER not in text and "A New Title" in text


def test_an_index_page_is_rendered_again_when_a_page_title_changes(build, book, edit, tmp_path):
    """Themes draw their navigation from the page titles, so the index page's sidebar follows them."""
    src = book(tmp_path / "book")
    page = plant_marker(Path(build(src).outdir))
    edit(src / "page2.rst", "Page 2\n=======", "Renamed chapter\n===============")
    build(src)
    assert MARKER not in page.read_text()


def test_an_index_page_is_rendered_again_on_a_fresh_environment(build, book, tmp_path):
    src = book(tmp_path / "book")
    page = plant_marker(Path(build(src).outdir))
    build(src, freshenv=True)
    assert MARKER not in page.read_text()


def test_an_index_page_is_rendered_again_when_a_template_is_newer_than_it(build, book, touch, tmp_path):
    src = book(tmp_path / "book")
    (src / "_templates").mkdir()
    (src / "conf.py").write_text((src / "conf.py").read_text() + 'templates_path = ["_templates"]\n')
    (src / "_templates" / "layout.html").write_text('{% extends "!layout.html" %}\n')
    page = plant_marker(Path(build(src).outdir))
    template = src / "_templates" / "layout.html"
    template.write_text('{% extends "!layout.html" %}\n{% block footer %}{{ super() }}Custom footer{% endblock %}\n')
    touch(template)
    build(src)
    text = page.read_text()
    assert MARKER not in text and "Custom footer" in text


def test_a_deleted_index_page_is_rendered_again(build, book, edit, tmp_path):
    src = book(tmp_path / "book")
    page = Path(build(src).outdir) / "node-types.html"
    page.unlink()
    edit(src / "page1.rst", "Thing 0 of page 1.", "Thing 0 of page 1, edited.")
    build(src)
    assert "Thing 1-0 (E)" in page.read_text()


def test_the_fingerprint_holds_no_paths_so_two_checkouts_build_the_same_page(build, book, tmp_path):
    first = build(book(tmp_path / "one"))
    second = build(book(tmp_path / "two"))
    page = "node-types.html"
    assert (Path(first.outdir) / page).read_bytes() == (Path(second.outdir) / page).read_bytes()


def test_index_pages_are_always_rendered_when_keeping_is_switched_off(build, book, edit, tmp_path):
    src = book(tmp_path / "book")
    off = {"rpg_keep_unchanged_indices": False}
    page = plant_marker(Path(build(src, confoverrides=off).outdir))
    assert "rpg-index-fingerprint" not in page.read_text()
    edit(src / "page1.rst", "Thing 0 of page 1.", "Thing 0 of page 1, edited.")
    build(src, confoverrides=off)
    assert MARKER not in page.read_text()


def test_equal_index_entries_digest_equally_whether_their_strings_are_interned_or_not():
    """A page's entries built in this process (interned names) and read back (new strings) are equal,
    and the fingerprint must say so: marshal below version 3 writes no mark for interned strings."""
    import sys

    from sphinx_rpg.index_pages import _content_digest

    parts = ["Node", "Grit"]
    built = [("G", [(sys.intern("".join(parts)), 0, "page", "anchor", "", "", "")])]
    read = [("G", [("".join(parts), 0, "page", "anchor", "", "", "")])]
    assert built[0][1][0][0] is not read[0][1][0][0]
    assert _content_digest(built) == _content_digest(read)


@pytest.fixture
def entries_made(monkeypatch):
    """How many times a node index made its entries from the records."""
    from sphinx_rpg import domain

    made = []
    content = domain._NodeIndex._content

    def counting(index, docnames):
        made.append(index.name)
        return content(index, docnames)

    monkeypatch.setattr(domain._NodeIndex, "_content", counting)
    return made


def test_the_node_indices_reuse_last_builds_entries_when_only_prose_changed(build, book, edit, tmp_path,
                                                                            entries_made):
    src = book(tmp_path / "book")
    build(src)
    assert sorted(entries_made) == ["namespaces", "types"]
    entries_made.clear()
    edit(src / "page3.rst", "=======\n\n", "=======\n\nA paragraph above every node of the page.\n\n")
    build(src)
    assert entries_made == []


def test_a_node_renamed_by_another_builder_makes_the_node_indices_entries_again(build, book, edit, tmp_path,
                                                                                entries_made):
    """Builders that share the doctrees share the environment: the next HTML build reads nothing, yet
    its index pages must show the node as the text build left it."""
    src = book(tmp_path / "book")
    build(src)
    edit(src / "page3.rst", ".. node:def:: Thing 3-1", ".. node:def:: Shiny Thing")
    build(src, "text")
    entries_made.clear()
    html = build(src)
    assert sorted(entries_made) == ["namespaces", "types"]
    text = (Path(html.outdir) / "node-types.html").read_text()
    assert "Shiny Thing (E)" in text and "Thing 3-1" not in text


def test_an_index_digested_again_with_one_group_changed_gives_the_digest_of_its_entries():
    """A page's entries are digested twice in a build (this build's, last build's to patch its rows):
    the groups the two share are digested once, and the digest is still that of the entries given."""
    from sphinx.domains import IndexEntry

    from sphinx_rpg.index_pages import _content_digest

    def entry(name: str) -> IndexEntry:
        return IndexEntry(name, 0, "page", name.lower(), f"Book.{name}", "", "effect")

    old = [("Effect", [entry("Alpha"), entry("Beta")]), ("Skill", [entry("Gamma")])]
    new = [("Effect", [entry("Alpha"), entry("Beta renamed")]), old[1]]
    known: dict = {}
    assert _content_digest(old, known) == _content_digest(old)
    assert _content_digest(new, known) == _content_digest(new) != _content_digest(old)
    assert _content_digest(old, known) == _content_digest(old)
