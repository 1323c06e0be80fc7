"""The nodes' pieces of ``nodes.json``, the previews and the search index are kept between builds and
made again when what they are made from changes: the node's record, the rule code, the configuration.

Each test compares the files an incremental build writes from kept pieces with the whole documents
made afresh from the same environment (``nodes_document``, ``previews_document``).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from collections.abc import Callable
from typing import Any

import pytest

from sphinx_rpg.binding import bind
from sphinx_rpg.catalogue import catalogue
from sphinx_rpg.export import nodes_document
from sphinx_rpg.previews import PREVIEWS_FILE, previews_document

# each build imports the test root's rule module afresh (conftest.py: fresh_registries)
pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning"),
              pytest.mark.usefixtures("fresh_registries")]


def _written(app: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    outdir = Path(app.outdir)
    return (json.loads((outdir / "nodes.json").read_text(encoding="utf-8")),
            json.loads((outdir / PREVIEWS_FILE).read_text(encoding="utf-8")))


def _assert_whole(app: Any) -> None:
    """The files equal the documents made afresh from this build's environment, text for text."""
    uri = app.builder.get_target_uri
    expected = json.dumps(nodes_document(app.env, uri), separators=(",", ":"), ensure_ascii=False) + "\n"
    assert (Path(app.outdir) / "nodes.json").read_text(encoding="utf-8") == expected
    previews = json.dumps(previews_document(app.env, uri), separators=(",", ":"), ensure_ascii=False) + "\n"
    assert (Path(app.outdir) / PREVIEWS_FILE).read_text(encoding="utf-8") == previews


def _rebuild(build: Any, srcdir: Path, builder: str = "html", **options: Any) -> Any:
    bind.cache_clear()  # a new sphinx-build process imports the rule module afresh
    sys.modules.pop("bound_rules", None)
    return build(srcdir, builder, **options)


@pytest.mark.sphinx("html", testroot="bound", freshenv=True, srcdir="catalogue-kept")
def test_a_prose_edit_keeps_every_piece_and_the_files(app, build, edit):
    app.build()
    app.cleanup()
    _assert_whole(app)
    files = [Path(app.outdir) / name for name in ("nodes.json", PREVIEWS_FILE)]
    stamps = [path.stat().st_mtime_ns for path in files]
    edit(Path(app.srcdir) / "listing.rst", "Listing\n=======\n", "Listing\n=======\n\nA new paragraph.\n")
    again = _rebuild(build, Path(app.srcdir))
    _assert_whole(again)
    assert catalogue(again).made == 0
    assert catalogue(again).keys is None  # no record changed: the files were kept without reading a piece
    assert [path.stat().st_mtime_ns for path in files] == stamps  # unchanged files are not rewritten


@pytest.mark.sphinx("html", testroot="bound", freshenv=True, srcdir="catalogue-lines")
def test_nodes_moved_down_their_page_keep_their_pieces(app, build, edit):
    """A node's line is not part of its pieces: nodes.json gets the new lines, nothing is made again."""
    app.build()
    app.cleanup()
    kept = catalogue(app).path
    stamp = kept.stat().st_mtime_ns
    before = {n["uid"]: n["source"]["line"] for n in _written(app)[0]["nodes"] if n["docname"] == "index"}
    edit(Path(app.srcdir) / "index.rst", "Bound\n=====\n", "Bound\n=====\n\nA new paragraph.\n\nAnd another.\n")
    again = _rebuild(build, Path(app.srcdir))
    _assert_whole(again)
    assert catalogue(again).made == 0
    assert kept.stat().st_mtime_ns == stamp  # the same pieces: the file is not written again
    after = {n["uid"]: n["source"]["line"] for n in _written(again)[0]["nodes"] if n["docname"] == "index"}
    assert before and after == {uid: line + 4 for uid, line in before.items()}


@pytest.mark.sphinx("html", testroot="bound", freshenv=True, srcdir="catalogue-shared-doctrees")
def test_a_record_changed_by_another_builder_reaches_nodes_json(app, build, edit):
    """Builders that share the doctrees share the environment: the next HTML build reads nothing, but
    a node another builder read anew must not be left out of nodes.json or the search page's data."""
    app.build()
    app.cleanup()
    edit(Path(app.srcdir) / "index.rst", ".. node:def:: Energy", ".. node:def:: Vigour")
    _rebuild(build, Path(app.srcdir), "text")
    again = _rebuild(build, Path(app.srcdir))
    _assert_whole(again)
    assert [n["name"] for n in _written(again)[0]["nodes"] if n["uid"] == "Bound.Trait.Energy"] == ["Vigour"]
    data = next((Path(again.outdir) / "_static").glob("sphinx_rpg_search_data.*.js")).read_text(encoding="utf-8")
    assert '"Vigour"' in data


@pytest.mark.sphinx("html", testroot="bound", freshenv=True, srcdir="catalogue-renamed")
def test_a_renamed_node_gets_new_pieces(app, build, edit):
    app.build()
    app.cleanup()
    edit(Path(app.srcdir) / "index.rst", ".. node:def:: Energy", ".. node:def:: Vigour")
    again = _rebuild(build, Path(app.srcdir))
    _assert_whole(again)
    nodes, previews = _written(again)
    assert [n["name"] for n in nodes["nodes"] if n["uid"] == "Bound.Trait.Energy"] == ["Vigour"]
    assert any(p["title"].startswith("Vigour") for p in previews["nodes"].values())


@pytest.mark.sphinx("html", testroot="bound", freshenv=True, srcdir="catalogue-rule-edit")
def test_an_edited_rule_module_remakes_the_pieces(app, build, edit):
    """The node's record stays as it was (its page text did not change); its rule's facts did."""
    app.build()
    app.cleanup()
    edit(Path(app.srcdir) / "bound_rules.py", "ranks=Ranks(0, 4)", "ranks=Ranks(0, 5)")
    again = _rebuild(build, Path(app.srcdir))
    _assert_whole(again)
    nodes, _ = _written(again)
    assert catalogue(again).made == len(nodes["nodes"])
    power = next(n for n in nodes["nodes"] if n["uid"] == "Bound.Attribute.Power")
    assert power["facts"] == [{"label": "Ranks", "text": "0\N{EN DASH}5"}]


@pytest.mark.sphinx("html", testroot="bound", freshenv=True, srcdir="catalogue-config")
def test_a_changed_title_format_remakes_the_pieces(app, build):
    app.build()
    app.cleanup()
    again = _rebuild(build, Path(app.srcdir), confoverrides={"rpg_ref_format": "{name} [{types}]"})
    _assert_whole(again)
    nodes, previews = _written(again)
    assert "Energy [E,R]" in {n["title"] for n in nodes["nodes"]}
    assert "Energy [E,R]" in {entry["title"] for entry in previews["nodes"].values()}
    assert catalogue(again).made == len(nodes["nodes"])


def _rebuilt_with_damaged_file(app: Any, build: Any, edit: Any, damage: Callable[[bytes], bytes]) -> Any:
    """Build, ``damage`` the catalogue's file, change a line (so the pieces are read, not only last
    build's files kept), build again: the files must still be whole."""
    app.build()
    app.cleanup()
    kept = catalogue(app).path
    assert kept.is_file()
    kept.write_bytes(damage(kept.read_bytes()))
    edit(Path(app.srcdir) / "index.rst", "Bound\n=====\n", "Bound\n=====\n\nA new paragraph.\n")
    again = _rebuild(build, Path(app.srcdir))
    _assert_whole(again)
    return again


@pytest.mark.sphinx("html", testroot="bound", freshenv=True, srcdir="catalogue-garbled")
def test_a_garbled_catalogue_file_counts_as_empty(app, build, edit):
    again = _rebuilt_with_damaged_file(app, build, edit, lambda data: b"\x00not a catalogue")
    assert catalogue(again).made == len(_written(again)[0]["nodes"])


@pytest.mark.sphinx("html", testroot="bound", freshenv=True, srcdir="catalogue-cut-short")
def test_a_catalogue_file_cut_short_counts_as_empty(app, build, edit):
    # the last piece loses its end, as a full disk would leave it
    again = _rebuilt_with_damaged_file(app, build, edit, lambda data: data[:len(data) - 7])
    assert catalogue(again).made == len(_written(again)[0]["nodes"])


def _first_piece_garbled(data: bytes) -> bytes:
    """The first piece's marshal bytes (after the magic and the format's line, the header, the table's
    place, the length of the piece's digest, the digest and the piece's length) start with a type code
    marshal does not know."""
    start = data.index(b"\n", data.index(b"\n") + 1) + 1
    start += 4 + int.from_bytes(data[start:start + 4], "big") + 8 + 2 + 16 + 4
    return data[:start] + b"!" + data[start + 1:]


@pytest.mark.sphinx("html", testroot="bound", freshenv=True, srcdir="catalogue-damaged-piece")
def test_a_damaged_piece_is_made_again_and_the_others_kept(app, build, edit):
    again = _rebuilt_with_damaged_file(app, build, edit, _first_piece_garbled)
    assert catalogue(again).made == 1 < len(_written(again)[0]["nodes"])


def test_a_preview_follows_the_title_of_a_node_its_first_paragraph_links(build, edit, two_pages):
    source = two_pages("previews", "Alpha uses :node:ref:`Book.B` every turn.",
                       ".. node:def:: Beta\n   :uid: Book.B\n   :type: E\n\n   Beta is a thing.")
    build(source)
    edit(source / "b.rst", ".. node:def:: Beta", ".. node:def:: Gamma")  # a.rst is not read again
    again = _rebuild(build, source)
    _assert_whole(again)
    _, previews = _written(again)
    assert ["", "Gamma (E)"] in previews["nodes"]["a.html#Book.A"]["lead"]


def test_a_rebuild_makes_the_items_of_changed_nodes_only_and_copies_the_rest(build, write_book, edit, tmp_path,
                                                                            monkeypatch):
    """Renaming one node makes its nodes.json entry and its preview again; every other node's are copied
    from last build's files (``spliced``), which end as a clean build writes them."""
    from sphinx_rpg.catalogue import Pieces

    src = write_book(tmp_path / "book", listing=False)
    build(src)
    made: list[str] = []
    real_entry = Pieces.entry
    monkeypatch.setattr(Pieces, "entry", lambda pieces, lineno: made.append(pieces.uri) or real_entry(pieces, lineno))
    edit(src / "page1.rst", ".. node:def:: Thing 1-0\n", ".. node:def:: Zyzzyva Thing\n")
    again = build(src)
    _assert_whole(again)
    assert made == ["page1.html"]


def test_a_rebuild_digests_only_the_records_of_the_pages_it_read(build, write_book, edit, tmp_path, monkeypatch):
    """Every other record has last build's digest: a rebuild after one page's edit costs that page's
    nodes, not the book's."""
    import sphinx_rpg.catalogue as catalogue_module

    src = write_book(tmp_path / "book", listing=False)
    build(src)
    digested: list[str] = []
    real_key = catalogue_module.piece_key
    monkeypatch.setattr(catalogue_module, "piece_key",
                        lambda domain, record, *rest: digested.append(record.uid) or real_key(domain, record, *rest))
    edit(src / "page1.rst", ".. node:def:: Thing 1-0\n", ".. node:def:: Zyzzyva Thing\n")
    again = build(src)
    _assert_whole(again)
    assert sorted(digested) == [f"Book.Page1.Thing{k}" for k in range(3)]


def test_a_page_title_another_builder_read_reaches_the_search_data(build, write_book, edit, tmp_path):
    """The digests kept by one builder are not reused after another builder read pages: the page
    title a node's search line shows changed in between, though no record did."""
    src = write_book(tmp_path / "book", listing=False)
    build(src)
    edit(src / "page2.rst", "Page 2\n=======\n", "Renamed page\n============\n")
    build(src, "text")
    os.utime(src / "page2.rst", (0, 0))  # the text build read it: the HTML build reads nothing
    again = build(src)
    assert catalogue(again).made == 3
    _assert_whole(again)
    data = next((Path(again.outdir) / "_static").glob("sphinx_rpg_search_data.*.js")).read_text(encoding="utf-8")
    assert '"Renamed page"' in data and '"Page 2"' not in data
