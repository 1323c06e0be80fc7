"""The node index pages are kept from the last build when nothing they show has changed.

Each test builds a small book, plants a marker comment in the built ``node-types.html`` and rebuilds:
the marker survives only if the page was kept rather than rendered again.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

MARKER = "<!-- planted by the test -->"
PAGES = 8  # more than five outdated documents, so -j 2 really reads in parallel


def write_book(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "conf.py").write_text('extensions = ["sphinx_rpg"]\nproject = "kept"\n')
    toctree = "\n".join(f"   page{n}" for n in range(PAGES))
    (root / "index.rst").write_text(f"Book\n====\n\n.. toctree::\n\n{toctree}\n")
    for n in range(PAGES):
        nodes = "\n".join(f".. node:def:: Thing {n}-{k}\n   :uid: Book.Page{n}.Thing{k}\n   :type: E\n\n"
                          f"   Thing {k} of page {n}.\n" for k in range(2))
        (root / f"page{n}.rst").write_text(f"Page {n}\n=======\n\n{nodes}")
    return root


def edit(path: Path, old: str, new: str) -> None:
    path.write_text(path.read_text().replace(old, new))
    future = time.time() + 5  # newer than the last read whatever the file system's timestamp grain
    os.utime(path, (future, future))


def build(make_app, srcdir: Path, **options):
    app = make_app("html", srcdir=srcdir, **options)
    app.build()
    app.cleanup()
    return app


def plant_marker(outdir: Path) -> Path:
    page = outdir / "node-types.html"
    page.write_text(page.read_text().replace("</body>", f"{MARKER}</body>"))
    return page


def fingerprint_of(page: Path) -> str:
    found = re.search(r'<meta name="rpg-index-fingerprint" content="([0-9a-f]{64})" />', page.read_text())
    assert found, "the index page carries its fingerprint"
    return found.group(1)


@pytest.mark.parametrize("parallel", [0, 2])
def test_an_index_page_is_kept_when_only_prose_changed(make_app, tmp_path, parallel):
    src = write_book(tmp_path / "book")
    first = build(make_app, src, parallel=parallel)
    page = plant_marker(Path(first.outdir))
    edit(src / "page3.rst", "Thing 0 of page 3.", "Thing 0 of page 3, now with more words.")
    second = build(make_app, src, parallel=parallel)
    assert "more words" in (Path(second.outdir) / "page3.html").read_text()
    assert MARKER in page.read_text()
    assert second.warning.getvalue() == ""


def test_an_index_page_is_rendered_again_when_a_node_is_renamed(make_app, tmp_path):
    src = write_book(tmp_path / "book")
    page = plant_marker(Path(build(make_app, src).outdir))
    before = fingerprint_of(page)
    edit(src / "page3.rst", ".. node:def:: Thing 3-1", ".. node:def:: Shiny Thing")
    build(make_app, src)
    text = page.read_text()
    assert MARKER not in text
    assert "Shiny Thing (E)" in text and "Thing 3-1" not in text
    assert fingerprint_of(page) != before


def test_an_index_page_is_rendered_again_when_the_configuration_changes(make_app, tmp_path):
    src = write_book(tmp_path / "book")
    page = plant_marker(Path(build(make_app, src).outdir))
    build(make_app, src, confoverrides={"html_title": "A New Title"})
    text = page.read_text()
    assert MARKER not in text and "A New Title" in text


def test_an_index_page_is_rendered_again_when_a_page_title_changes(make_app, tmp_path):
    """Themes draw their navigation from the page titles, so the index page's sidebar follows them."""
    src = write_book(tmp_path / "book")
    page = plant_marker(Path(build(make_app, src).outdir))
    edit(src / "page2.rst", "Page 2\n=======", "Renamed chapter\n===============")
    build(make_app, src)
    assert MARKER not in page.read_text()


def test_an_index_page_is_rendered_again_on_a_fresh_environment(make_app, tmp_path):
    src = write_book(tmp_path / "book")
    page = plant_marker(Path(build(make_app, src).outdir))
    build(make_app, src, freshenv=True)
    assert MARKER not in page.read_text()


def test_an_index_page_is_rendered_again_when_a_template_is_newer_than_it(make_app, tmp_path):
    src = write_book(tmp_path / "book")
    (src / "_templates").mkdir()
    (src / "conf.py").write_text((src / "conf.py").read_text() + 'templates_path = ["_templates"]\n')
    (src / "_templates" / "layout.html").write_text('{% extends "!layout.html" %}\n')
    page = plant_marker(Path(build(make_app, src).outdir))
    template = src / "_templates" / "layout.html"
    template.write_text('{% extends "!layout.html" %}\n{% block footer %}{{ super() }}Custom footer{% endblock %}\n')
    future = time.time() + 5
    os.utime(template, (future, future))
    build(make_app, src)
    text = page.read_text()
    assert MARKER not in text and "Custom footer" in text


def test_a_deleted_index_page_is_rendered_again(make_app, tmp_path):
    src = write_book(tmp_path / "book")
    page = Path(build(make_app, src).outdir) / "node-types.html"
    page.unlink()
    edit(src / "page1.rst", "Thing 0 of page 1.", "Thing 0 of page 1, edited.")
    build(make_app, src)
    assert "Thing 1-0 (E)" in page.read_text()


def test_the_fingerprint_holds_no_paths_so_two_checkouts_build_the_same_page(make_app, tmp_path):
    first = build(make_app, write_book(tmp_path / "one"))
    second = build(make_app, write_book(tmp_path / "two"))
    assert (Path(first.outdir) / "node-types.html").read_bytes() == (Path(second.outdir) / "node-types.html").read_bytes()


def test_index_pages_are_always_rendered_when_keeping_is_switched_off(make_app, tmp_path):
    src = write_book(tmp_path / "book")
    off = {"rpg_keep_unchanged_indices": False}
    page = plant_marker(Path(build(make_app, src, confoverrides=off).outdir))
    assert "rpg-index-fingerprint" not in page.read_text()
    edit(src / "page1.rst", "Thing 0 of page 1.", "Thing 0 of page 1, edited.")
    build(make_app, src, confoverrides=off)
    assert MARKER not in page.read_text()
