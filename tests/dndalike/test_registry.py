"""The DnDalike registry: every node has a rule object and a ``node:def`` on one of the book's pages.

(The pages' worked examples run through ``docs/conftest.py``, the site-wide Sybil collector.)
"""

from pathlib import Path

from rules.dndalike import REGISTRY

PAGES = sorted((Path(__file__).resolve().parents[2] / "docs" / "dndalike").glob("*.rst"))


def test_every_node_has_a_rule_object_and_a_page():
    defined = []
    for page in PAGES:
        defined += [line.split(":uid:")[1].strip() for line in page.read_text().splitlines() if ":uid:" in line]
    assert len(defined) == len(set(defined)), "a node is defined twice"
    uids = set(REGISTRY.uids())
    assert all(uid.startswith("Dndalike.") for uid in uids)
    assert all(node.implementation is not None for node in REGISTRY)
    assert uids == set(defined)
