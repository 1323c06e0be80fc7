"""A negative number a reader sees is typeset with the minus sign (U+2212); what a program reads keeps "-"."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sphinx_rpg.typeset import MINUS, minus_signs

RULES = '''from rules.formula import Formula
from rules.nodes import Ranks, Registry

REGISTRY = Registry("minus", title="Minus", node_types={"A": "Attribute", "R": "Resource"})
REGISTRY.define("Minus.Attr.Luck", "Luck", "A", ranks=Ranks(-3, 3), values={"worst": -3})
REGISTRY.define("Minus.Res.Fate", "Fate", "R", formula=Formula("Luck - 1"))
'''
PAGE = """Minus
=====

.. node:def:: Luck
   :uid: Minus.Attr.Luck

The worst luck is :node:value:`Minus.Attr.Luck:worst`.

.. node:def:: Fate
   :uid: Minus.Res.Fate

.. node:sheet::
   :system: minus
   :inputs: type == "A"
   :derived: type == "R"

.. node:odds:: 1d6-4
"""


def test_a_negative_number_in_prose_takes_the_minus_sign_and_nothing_else_changes() -> None:
    assert minus_signs("-3 or more") == f"{MINUS}3 or more"
    assert minus_signs("-3\N{EN DASH}-1") == f"{MINUS}3\N{EN DASH}{MINUS}1"
    assert minus_signs("parameter: up to -2") == f"parameter: up to {MINUS}2"
    for unchanged in ("2d6-1", "well-2-do", "2026-11-26", "--3", "(a)-1", "x.5-1"):
        assert minus_signs(unchanged) == unchanged


def test_bounds_facts_values_and_table_results_print_with_the_minus_sign_while_inputs_keep_the_hyphen(
        build: Callable[..., Any], warning_text: Callable[[Any], str], tmp_path: Path) -> None:
    (tmp_path / "minus_rules.py").write_text(RULES)
    (tmp_path / "conf.py").write_text("import sys, pathlib\nsys.path.insert(0, str(pathlib.Path(__file__).parent))\n"
                                      "extensions = ['sphinx_rpg']\nrpg_registries = ['minus_rules:REGISTRY']\n")
    (tmp_path / "index.rst").write_text(PAGE)
    app = build(tmp_path)
    assert warning_text(app) == ""
    html = (Path(app.outdir) / "index.html").read_text()
    ranks = f"{MINUS}3\N{EN DASH}3"
    assert re.search(rf"Ranks<.*?{ranks}", html, re.S)  # the facts under Luck's heading
    assert re.search(rf'<td[^>]*><p>{ranks}</p>', html)  # the sheet's Rule cell: its bounds
    assert f'class="rpg-value">{MINUS}3<' in html  # :node:value:
    assert re.search(r'<input type="number"[^>]*min="-3" max="3"', html)  # a form's bounds stay machine-readable
    results = re.findall(r'<td class="rpg-num[^"]*"><p>([^<%]*)</p>', html.split('rpg-computed')[1])
    assert results[:4] == [f"{MINUS}3", f"{MINUS}2", f"{MINUS}1", "0"]  # 1d6-4: -3 to 2
