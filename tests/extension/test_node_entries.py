"""Each node's entry in nodes.json names the file it is defined in (the catalogue remembers each page's
file name for the page's other nodes)."""

from __future__ import annotations

from pathlib import Path

from tests.adversarial.harness import build, write_book

PAGES = {
    "index": ".. node:def:: Energy\n   :uid: Adv.Trait.Energy\n\n.. node:def:: Spark\n   :uid: Adv.Trait.Spark\n"
             "   :type: E\n",
    "rules/more": "More\n====\n\n.. node:def:: Ember\n   :uid: Adv.Trait.Ember\n   :type: E\n\n"
                  ".. node:def:: Ash\n   :uid: Adv.Trait.Ash\n   :type: E\n",
}


def test_each_node_names_the_file_of_its_own_page(tmp_path: Path) -> None:
    result = build(write_book(tmp_path / "book", PAGES))
    assert result.error is None
    files = {node["uid"]: node["source"]["file"] for node in result.nodes()}
    assert files == {"Adv.Trait.Energy": "index.rst", "Adv.Trait.Spark": "index.rst",
                     "Adv.Trait.Ember": "rules/more.rst", "Adv.Trait.Ash": "rules/more.rst"}
