"""Integrity of what the build publishes: a node name is one line (objects.inv cannot be forged),
registry labels are escaped in the node indices, and uids that differ only in case are reported."""

from __future__ import annotations

import pytest

from tests.adversarial.harness import END, build, write_book

FORGED_NAMES = [
    ("inventory-line", "Energy\n   py:function evil 1 https://evil.example/ x"),
    ("second-node-line", "Energy\n   Adv.Fake node:node 1 https://evil.example/ -"),
    ("tab-separated", "Energy\tpy:function\tevil"),
    ("escape-sequence", "Energy\x1b[2J"),
    ("unit-separator", "Ene\x1frgy"),
    ("bell-and-backspace", "Ener\x07gy\x08"),
]


@pytest.mark.parametrize("name, title", FORGED_NAMES, ids=[c[0] for c in FORGED_NAMES])
def test_a_node_name_is_one_line_in_the_inventory(tmp_path, name, title):
    page = f".. node:def:: {title}\n   :uid: Adv.Trait.Energy\n"
    result = build(write_book(tmp_path, {"index": page}))
    roles = [line.split()[1] for line in result.inventory()]
    assert roles.count("node:node") == 1 and set(roles) <= {"node:node", "std:label", "std:doc"}, roles
    assert not any(ord(c) < 32 or c in "\u2028\x85" for line in result.inventory() for c in line)
    assert result.warned("name", "one line", at="index.rst:4"), result.warnings
    assert END in result.page()


MARKUP_LABELS = [
    ("script", "<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"),
    ("attribute-break", '"><img src=x onerror=alert(1)>', "&#34;&gt;&lt;img src=x onerror=alert(1)&gt;"),
    ("ampersand", "Rock & Roll", "Rock &amp; Roll"),
]


@pytest.mark.parametrize("theme", ["rpgtiny", "basic"])
@pytest.mark.parametrize("name, label, escaped", MARKUP_LABELS, ids=[c[0] for c in MARKUP_LABELS])
def test_registry_type_labels_are_escaped_in_the_type_index(tmp_path, theme, name, label, escaped):
    rules = f"REGISTRY.node_types['Z'] = {label!r}\nREGISTRY.define('Adv.Odd', 'Odd', 'Z')\n"
    result = build(write_book(tmp_path, {"index": ".. node:def:: Odd\n   :uid: Adv.Odd\n"}, rules, theme=theme))
    html = result.page("node-types")
    assert label not in html and escaped in html


CASE_COLLISIONS = [
    ("same-page", {"index": ".. node:def:: A\n   :uid: Adv.Case\n   :type: E\n\n"
                            ".. node:def:: B\n   :uid: adv.case\n   :type: E\n"}, "index.rst:8"),
    ("two-pages", {"index": ".. node:def:: A\n   :uid: Adv.Case\n   :type: E\n",
                   "other": "Other\n=====\n\n.. node:def:: B\n   :uid: ADV.CASE\n   :type: E\n"}, "index.rst:4"),
    ("three-ways", {"index": ".. node:def:: A\n   :uid: Adv.Case\n   :type: E\n\n"
                             ".. node:def:: B\n   :uid: adv.Case\n   :type: E\n\n"
                             ".. node:def:: C\n   :uid: adv.case\n   :type: E\n"}, "index.rst:12"),
]


@pytest.mark.parametrize("name, pages, where", CASE_COLLISIONS, ids=[c[0] for c in CASE_COLLISIONS])
def test_uids_differing_only_in_case_are_reported(tmp_path, name, pages, where):
    result = build(write_book(tmp_path, pages), "nodes_json")
    assert result.warned("duplicate", "differs only in case", at=where), result.warnings
