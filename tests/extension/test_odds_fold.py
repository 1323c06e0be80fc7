"""node:odds :fold: the negligible tails of a distribution's table fold into one exact row each."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from html import unescape
from pathlib import Path
from typing import Any

from rules.dice import parse
from rules.nugget.rolls import success_distribution
from rules.odds import distribution_table, fold_tails
from sphinx_rpg.directives.tables import render_cell

BOOK = """Odds
====

.. node:odds:: 4 dice lid-off
   :system: nugget
   :fold:

.. node:odds:: 100d100
   :fold:

.. node:odds:: 3d6
   :dc: 5-10
   :fold:

.. node:odds:: {dice} dice lid-{lid}
   :system: nugget
   :vary: dice=1-4 (4), lid=on|off (off)
   :chart: bar
   :fold:
"""


def _cells(html: str) -> list[list[str]]:
    """The rows of each computed table of the page, as cell texts."""
    tables = re.findall(r'<table class="rpg-computed.*?</table>', html, re.S)
    return [[unescape(re.sub(r"<[^>]+>", "", cell)).strip() for cell in re.findall(r"<td.*?</td>", row, re.S)]
            for table in tables for row in re.findall(r"<tr.*?</tr>", table.split("<tbody>")[1], re.S)]


def test_a_folded_odds_table_shows_the_likely_counts_and_one_exact_row_for_the_rest(
        build: Callable[..., Any], warning_text: Callable[[Any], str], tmp_path: Path) -> None:
    (tmp_path / "conf.py").write_text("extensions = ['sphinx_rpg']\nrpg_registries = ['rules.nugget:REGISTRY']\n"
                                      "suppress_warnings = ['node.undocumented']\n")
    (tmp_path / "index.rst").write_text(BOOK)
    app = build(tmp_path)
    warnings = warning_text(app)
    # a DC table has nothing to fold: one located warning, and the other tables build
    assert warnings.count("[node.table]") == 1 and "index.rst:11:" in warnings and ":fold: folds" in warnings
    assert "[node.chart]" not in warnings
    html = (Path(app.outdir) / "index.html").read_text()
    lid_off = distribution_table(success_distribution(4, lid="off"),
                                 fold=fold_tails(success_distribution(4, lid="off"), short=0))
    expected = [[render_cell(v, lid_off.is_probability(c), False) for c, v in zip(lid_off.columns, row)]
                for row in lid_off.rows]
    rows = _cells(html)
    assert rows[:len(expected)] == expected
    assert [row[0] for row in expected] == [*map(str, range(9)), "≥ 9"]  # 0 to 32 successes: 9 or more share a row
    big = parse("100d100").dist()  # 9,901 results: refused whole, shown folded
    folded = distribution_table(big, fold=fold_tails(big, short=0))
    assert len(folded.rows) == 122 and rows[len(expected)][0] == folded.rows[0][0]


def test_a_folded_table_with_vary_and_a_chart_charts_the_rows_of_their_own(
        build: Callable[..., Any], warning_text: Callable[[Any], str], tmp_path: Path) -> None:
    (tmp_path / "conf.py").write_text("extensions = ['sphinx_rpg']\nrpg_registries = ['rules.nugget:REGISTRY']\n"
                                      "suppress_warnings = ['node.undocumented']\n")
    (tmp_path / "index.rst").write_text(BOOK.split(".. node:odds:: 4 dice")[0] + ".. node:odds:: {dice}"
                                        + BOOK.split(".. node:odds:: {dice}")[1])
    app = build(tmp_path)
    assert warning_text(app) == ""
    html = (Path(app.outdir) / "index.html").read_text()
    found = re.findall(r'<script type="application/json" class="rpg-odds-data">(.*?)</script>', html, re.S)
    data = json.loads(found[0])
    four_off = data["tables"][data["index"][-1]]  # the last combination: 4 dice, lid-off
    assert [row[0] for row in four_off["rows"]][-2:] == ["8", "≥ 9"]
    assert four_off["x"][-1] is None and four_off["x"][:-1] == [float(x) for x in range(9)]
    assert html.count('class="rpg-chart ') == 1 and "<svg" in html.split('class="rpg-chart ')[1]  # drawn, no warning
