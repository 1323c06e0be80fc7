"""Each definition's body as written is kept beside the doctrees by its digest (``sphinx_rpg.texts``),
not in the environment, and ``nodes.json`` still quotes it."""

from __future__ import annotations

import json
from pathlib import Path

from sphinx_rpg.domain import NodeRecord, node_domain
from sphinx_rpg.texts import texts_path


BETA = ".. node:def:: Beta\n   :uid: Book.B\n   :type: E\n\n   Beta is second."


def _texts(app) -> dict[str, str]:
    entries = json.loads((Path(app.outdir) / "nodes.json").read_text(encoding="utf-8"))["nodes"]
    return {entry["uid"]: entry.get("text", "") for entry in entries}


def test_the_environment_keeps_no_body_and_nodes_json_quotes_every_one(build, two_pages):
    app = build(two_pages("texts", "Alpha is *first*.", BETA))
    assert "text" not in NodeRecord._fields
    assert node_domain(app.env).data["texts"] == {}
    assert _texts(app) == {"Book.A": "Alpha is *first*.", "Book.B": "Beta is second."}


def test_an_edited_body_is_quoted_as_edited_and_the_old_one_is_dropped(build, edit, two_pages):
    source = two_pages("texts", "Alpha is *first*.", BETA)
    first = build(source)
    edit(source / "b.rst", "Beta is second.", "Beta comes second.")
    again = build(source)
    assert _texts(again) == {"Book.A": "Alpha is *first*.", "Book.B": "Beta comes second."}
    kept = texts_path(again.doctreedir).read_bytes()
    assert b"Beta comes second." in kept and b"Beta is second." not in kept
    assert first.doctreedir == again.doctreedir


def test_a_lost_texts_file_makes_the_pages_read_again(build, edit, two_pages):
    source = two_pages("texts", "Alpha is *first*.", BETA)
    first = build(source)
    texts_path(first.doctreedir).unlink()
    edit(source / "index.rst", "Book\n====\n", "Book\n====\n\nA new paragraph.\n")  # a.rst, b.rst unchanged
    again = build(source)
    assert _texts(again) == {"Book.A": "Alpha is *first*.", "Book.B": "Beta is second."}
    kept = texts_path(again.doctreedir).read_bytes()  # only reading the pages again gives the bodies back
    assert b"Alpha is *first*." in kept and b"Beta is second." in kept


def test_a_damaged_texts_file_counts_as_lost(build, two_pages):
    source = two_pages("texts", "Alpha is *first*.", BETA)
    first = build(source)
    path = texts_path(first.doctreedir)
    path.write_bytes(path.read_bytes()[:-3])
    again = build(source)
    assert _texts(again) == {"Book.A": "Alpha is *first*.", "Book.B": "Beta is second."}
    kept = path.read_bytes()
    assert b"Alpha is *first*." in kept and b"Beta is second." in kept


def test_a_texts_file_that_cannot_be_written_leaves_the_bodies_in_this_builds_entries(build, edit, two_pages,
                                                                                  monkeypatch):
    import sphinx_rpg.texts

    source = two_pages("texts", "Alpha is *first*.", BETA)
    first = build(source)

    def full_disk(*args, **kwargs):
        raise OSError(28, "No space left on device")

    edit(source / "b.rst", "Beta is second.", "Beta comes second.")
    monkeypatch.setattr(sphinx_rpg.texts, "filter_frames", full_disk)
    again = build(source)
    assert _texts(again)["Book.B"] == "Beta comes second."
    monkeypatch.undo()
    third = build(source)  # the file lacks the new body: its page is read again, and the body kept
    assert b"Beta comes second." in texts_path(third.doctreedir).read_bytes()
    assert first.doctreedir == third.doctreedir


def _previews(app) -> dict[str, dict]:
    return json.loads((Path(app.outdir) / "rpg-previews.json").read_text(encoding="utf-8"))["nodes"]


def test_the_environment_keeps_no_first_paragraph_and_the_preview_shows_it(build, two_pages):
    """A node's first paragraph (formatted) and first sentence are kept beside the doctrees too."""
    app = build(two_pages("texts", "Alpha is *first*. It goes on and on.", BETA))
    assert {"lead", "sentence"}.isdisjoint(NodeRecord._fields)
    assert b"goes on and on" not in (Path(app.doctreedir) / "environment.pickle").read_bytes()
    alpha = _previews(app)["a.html#Book.A"]
    assert alpha["text"] == "Alpha is first."
    assert alpha["lead"] == [["", "Alpha is "], ["em", "first"], ["", ". It goes on and on."]]


def test_lost_texts_and_pieces_make_the_pages_read_again_for_their_previews(build, edit, two_pages):
    source = two_pages("texts", "Alpha is *first*. It goes on and on.", BETA)
    first = build(source)
    texts_path(first.doctreedir).unlink()
    for pieces in Path(first.doctreedir).glob("rpg-catalogue-*"):
        pieces.unlink()
    edit(source / "index.rst", "Book\n====\n", "Book\n====\n\nA new paragraph.\n")  # a.rst, b.rst unchanged
    again = build(source)
    assert _previews(again)["a.html#Book.A"]["lead"] == [["", "Alpha is "], ["em", "first"],
                                                        ["", ". It goes on and on."]]


def test_nodes_of_the_same_types_share_one_tuple_of_type_names(build, write_book, tmp_path):
    """A big book's records hold a handful of type-name tuples, not one each (the environment keeps
    and pickles every record)."""
    app = build(write_book(tmp_path / "book", listing=False))
    records = list(node_domain(app.env).records())
    assert len(records) > 3 and len({id(record.type_names) for record in records}) == 1


def test_a_rebuild_that_read_no_new_body_leaves_the_texts_file_as_it_was(build, edit, two_pages, monkeypatch):
    """Renaming or deleting a node reads no body the file lacks: the file and its time stay, and the
    records are not walked for the bodies they need."""
    from sphinx_rpg import texts

    source = two_pages("texts", "Alpha is *first*.", BETA + "\n\n.. node:def:: Gamma\n   :uid: Book.G\n   :type: E\n\n"
                                                         "   Gamma is third.")
    first = build(source)
    path = texts_path(first.doctreedir)
    stamp = path.stat().st_mtime_ns
    walked: list[int] = []
    real = texts._every_place
    monkeypatch.setattr(texts, "_every_place", lambda env: walked.append(1) or real(env))
    edit(source / "b.rst", ".. node:def:: Beta", ".. node:def:: Beta renamed")
    renamed = build(source)
    edit(source / "b.rst", ".. node:def:: Gamma\n   :uid: Book.G\n   :type: E\n\n   Gamma is third.", "")
    deleted = build(source)
    assert walked == [] and path.stat().st_mtime_ns == stamp
    assert _texts(renamed)["Book.B"] == "Beta is second." and _texts(deleted) == {"Book.A": "Alpha is *first*.",
                                                                                   "Book.B": "Beta is second."}
    edit(source / "b.rst", "Beta is second.", "Beta comes second.")  # a new body: the file is written, whole
    build(source)
    kept = path.read_bytes()
    assert b"Beta comes second." in kept and b"Gamma is third." not in kept
