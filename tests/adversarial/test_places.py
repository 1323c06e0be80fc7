"""Right places and no stale links: included files report their own name and line, excluded
``only``/``ifconfig`` blocks define no node, and every way of linking a node follows it on an
incremental build."""

from __future__ import annotations

import re
import time

import pytest

from tests.adversarial.harness import build, write_book

DEF = ".. node:def:: {name}\n   :uid: {uid}\n   :type: E\n"


INCLUDES = [
    # (case, index text, included files, where the duplicate is reported)
    ("rst-include", DEF.format(name="A", uid="Adv.X") + "\n.. include:: part.inc\n",
     {"part.inc": "Some text.\n\n" + DEF.format(name="B", uid="Adv.X")}, "part.inc:3"),
    ("nested-include", DEF.format(name="A", uid="Adv.X") + "\n.. include:: outer.inc\n",
     {"outer.inc": "Outer.\n\n.. include:: inner.inc\n", "inner.inc": "\n\n\n" + DEF.format(name="B", uid="Adv.X")},
     "inner.inc:4"),
    ("include-from-a-folder", DEF.format(name="A", uid="Adv.X") + "\n.. include:: parts/more.inc\n",
     {"parts/more.inc": "\n" + DEF.format(name="B", uid="Adv.X")}, "parts/more.inc:2"),
]


@pytest.mark.parametrize("name, index, files, where", INCLUDES, ids=[c[0] for c in INCLUDES])
def test_a_duplicate_in_an_included_file_is_reported_at_that_file(tmp_path, name, index, files, where):
    result = build(write_book(tmp_path, {"index": index, **files}), "nodes_json")
    assert result.warned("duplicate", "'Adv.X'", at=where), result.warnings


@pytest.mark.parametrize("name, index, files, where", INCLUDES, ids=[c[0] for c in INCLUDES])
def test_an_unbound_node_in_an_included_file_is_reported_at_that_file(tmp_path, name, index, files, where):
    index = index.replace("Adv.X", "Adv.Y", 1)  # no duplicate: the included node stands alone
    result = build(write_book(tmp_path, {"index": index, **files}), "nodes_json")
    assert result.warned("unbound", "'Adv.X'", at=where), result.warnings


@pytest.mark.parametrize("name, index, files, where", INCLUDES, ids=[c[0] for c in INCLUDES])
def test_nodes_json_names_the_included_file_as_the_source(tmp_path, name, index, files, where):
    index = index.replace("Adv.X", "Adv.Y", 1)
    result = build(write_book(tmp_path, {"index": index, **files}), "nodes_json")
    source = {n["uid"]: n["source"] for n in result.nodes()}["Adv.X"]
    assert f"{source['file']}:{source['line']}" == where


EXCLUDED = [
    ("only-latex", ".. only:: latex\n\n   " + DEF.format(name="Hidden", uid="Adv.Hidden").replace("\n   ", "\n      ")),
    ("only-not-html", ".. only:: not html\n\n   " + DEF.format(name="Hidden", uid="Adv.Hidden").replace("\n   ", "\n      ")),
    ("only-nested", ".. only:: html\n\n   .. only:: latex\n\n      "
     + DEF.format(name="Hidden", uid="Adv.Hidden").replace("\n   ", "\n         ")),
    ("only-and", ".. only:: html and latex\n\n   " + DEF.format(name="Hidden", uid="Adv.Hidden").replace("\n   ", "\n      ")),
    ("ifconfig-false", ".. ifconfig:: rpg_charts\n\n   " + DEF.format(name="Hidden", uid="Adv.Hidden").replace("\n   ", "\n      ")),
    ("ifconfig-expression", ".. ifconfig:: project == 'other'\n\n   "
     + DEF.format(name="Hidden", uid="Adv.Hidden").replace("\n   ", "\n      ")),
]


@pytest.mark.parametrize("name, block", EXCLUDED, ids=[c[0] for c in EXCLUDED])
def test_a_node_in_an_excluded_block_is_not_recorded(tmp_path, name, block):
    page = block + "\nSee :node:ref:`Adv.Hidden`.\n\n.. node:list::\n   :columns: uid\n"
    result = build(write_book(tmp_path, {"index": page}, conf="extensions += ['sphinx.ext.ifconfig']\n"))
    assert "Adv.Hidden" not in result.uids()
    assert not [line for line in result.inventory() if line.startswith("Adv.Hidden ")]
    assert result.warned("ref", "'Adv.Hidden'"), result.warnings  # the link dangles, and says so
    assert 'href="#Adv.Hidden"' not in result.page() and 'href="#adv-hidden"' not in result.page()


def test_a_node_excluded_by_a_tag_is_recorded_when_the_tag_is_set(tmp_path):
    block = ".. only:: designer\n\n   " + DEF.format(name="Hidden", uid="Adv.Hidden").replace("\n   ", "\n      ")
    root = write_book(tmp_path, {"index": block})
    assert "Adv.Hidden" not in build(root).uids()
    assert "Adv.Hidden" in build(root, fresh=False, tags=["designer"]).uids()  # incremental, new tag


def _edit(path, old, new):
    time.sleep(0.01)  # a later mtime than the last read, on any file system
    text = path.read_text()
    assert old in text, (old, text)
    path.write_text(text.replace(old, new))


LINKS = [
    ("any-role", "rst", "See :any:`Adv.Moved`.\n"),
    ("any-role-titled", "rst", "See :any:`this <Adv.Moved>`.\n"),
    ("myst-link", "md", "# Links\n\nSee [](#Adv.Moved).\n"),
    ("myst-titled-link", "md", "# Links\n\nSee [this one](#Adv.Moved).\n"),
]


@pytest.mark.parametrize("name, suffix, text", LINKS, ids=[c[0] for c in LINKS])
def test_a_page_linking_a_removed_node_is_rewritten(tmp_path, name, suffix, text):
    links = f"links.{suffix}" if suffix == "md" else "links"
    pages = {"index": DEF.format(name="Moved", uid="Adv.Moved"),
             links: text if suffix == "md" else "Links\n=====\n\n" + text}
    conf = "extensions += ['myst_parser']\nsource_suffix = {'.rst': 'restructuredtext', '.md': 'markdown'}\n"
    root = write_book(tmp_path, pages, conf=conf)
    first = build(root)
    assert "index.html#Adv.Moved" in first.page("links")
    _edit(root / "index.rst", "Adv.Moved", "Adv.Elsewhere")
    second = build(root, fresh=False)
    assert "index.html#Adv.Moved" not in second.page("links"), "a dead link survived the rebuild"


@pytest.mark.parametrize("name, suffix, text", [LINKS[0], LINKS[2]], ids=[LINKS[0][0], LINKS[2][0]])
def test_a_page_linking_a_renamed_node_shows_the_new_title(tmp_path, name, suffix, text):
    links = f"links.{suffix}" if suffix == "md" else "links"
    conf = "extensions += ['myst_parser']\nsource_suffix = {'.rst': 'restructuredtext', '.md': 'markdown'}\n"
    root = write_book(tmp_path, {"index": DEF.format(name="Moved", uid="Adv.Moved"),
                                 links: text if suffix == "md" else "Links\n=====\n\n" + text}, conf=conf)
    build(root)
    _edit(root / "index.rst", ".. node:def:: Moved", ".. node:def:: Shifted")
    html = build(root, fresh=False).page("links")
    assert "Shifted (E)" in html and "Moved (E)" not in html


LABELLED = {
    "labels_registry.py": "from rules.nodes import Registry\nREGISTRY = Registry('lbl', node_types={'E': 'Effect'})\n",
    "labels_nodes.py": "from labels_registry import REGISTRY\nREGISTRY.define('Lbl.Trait.X', 'X', 'E')\n",
    "index": ".. node:def:: X\n   :uid: Lbl.Trait.X\n",
}


def test_a_type_label_changed_in_the_registry_module_shows_without_a_clean_build(tmp_path):
    root = write_book(tmp_path, LABELLED, conf="rpg_registries += ['labels_nodes:REGISTRY']\n")
    build(root)
    _edit(root / "labels_registry.py", "'Effect'", "'Effekt'")
    result = build(root, fresh=False)
    assert {n["uid"]: n for n in result.nodes()}["Lbl.Trait.X"]["type_names"] == ["Effekt"]
    assert "Effekt" in result.page("node-types") and "Effect" not in result.page("node-types")


def test_a_no_op_rebuild_reports_no_configuration_change(tmp_path):
    root = write_book(tmp_path, {"index": ".. node:def:: Energy\n   :uid: Adv.Trait.Energy\n"})
    build(root)
    second = build(root, fresh=False)
    assert "configuration has changed" not in second.status, second.status
    assert re.search(r"0 added, 0 changed, 0 removed", second.status), second.status


def test_a_page_linking_another_books_node_follows_its_inventory(tmp_path):
    remote = write_book(tmp_path / "remote", {"index": DEF.format(name="Remote", uid="Adv.Remote")})
    published = build(remote).outdir
    conf = (f"extensions += ['sphinx.ext.intersphinx']\n"
            f"intersphinx_mapping = {{'remote': ({str(published)!r}, None)}}\n")
    local = write_book(tmp_path / "local", {"links": "Links\n=====\n\nSee :node:ref:`Adv.Remote`.\n"}, conf=conf)
    assert "Remote (E)" in build(local).page("links")
    _edit(remote / "index.rst", ".. node:def:: Remote", ".. node:def:: Faraway")
    build(remote, fresh=False)
    html = build(local, fresh=False).page("links")
    assert "Faraway (E)" in html and "Remote (E)" not in html
