"""A roll-under game's table of every result gives the chance of that result or under, not or more."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from html import unescape
from pathlib import Path
from typing import Any

from rules.dice import parse
from rules.odds import distribution_table, fold_tails
from sphinx_rpg.directives.tables import render_cell

CONF = ("extensions = ['sphinx_rpg']\nrpg_registries = ['rules.spurg:REGISTRY', 'rules.nemron:REGISTRY']\n"
        "suppress_warnings = ['node.undocumented']\n")
PAGE = """{title}
======

.. node:odds:: 3d6
   :chart: bar

.. node:odds:: 2d6
   :cumulative: {forced}

.. node:odds:: {{n}}d6
   :vary: n=1-3 (2)
"""


def _tables(html: str) -> list[tuple[list[str], list[list[str]]]]:
    """Each computed table of the page: its column headings and its rows, as cell texts."""
    text = lambda cell: unescape(re.sub(r"<[^>]+>", "", cell)).strip()  # noqa: E731
    return [([text(c) for c in re.findall(r"<th.*?</th>", table.split("<tbody>")[0], re.S)],
             [[text(c) for c in re.findall(r"<td.*?</td>", row, re.S)]
              for row in re.findall(r"<tr.*?</tr>", table.split("<tbody>")[1], re.S)])
            for table in re.findall(r'<table class="rpg-computed.*?</table>', html, re.S)]


def _column(dist: Any, cumulative: Callable[[int], Any]) -> list[str]:
    return [render_cell(cumulative(x), True, False) for x in dist.support()]


def _book(tmp_path: Path) -> Path:
    (tmp_path / "conf.py").write_text(CONF)
    (tmp_path / "index.rst").write_text("Books\n=====\n\n.. toctree::\n\n   spurg/odds\n   nemron/odds\n")
    for book, forced in (("spurg", "at-least"), ("nemron", "at-most")):
        (tmp_path / book).mkdir()
        (tmp_path / book / "odds.rst").write_text(PAGE.format(title=book.upper(), forced=forced))
    return tmp_path


def test_a_roll_under_game_tables_every_result_with_the_chance_of_it_or_under(
        build: Callable[..., Any], warning_text: Callable[[Any], str], tmp_path: Path) -> None:
    app = build(_book(tmp_path))
    assert warning_text(app) == ""
    spurg = (Path(app.outdir) / "spurg" / "odds.html").read_text()
    (columns, rows), (forced_columns, forced_rows) = _tables(spurg)[:2]
    three = parse("3d6").dist()
    assert columns == ["Result", "P(= result)", "P(<= result)"]
    assert [row[2] for row in rows] == _column(three, three.p_le)
    assert rows[0][2] == "0.5%" and rows[-1][2] == "100%"
    # the chart is the table's: its text alternative names the same column
    assert 'aria-label="Chart. 3d6: P(= result), P(&lt;= result) in per cent for each Result;' in spurg
    # a designer can ask for the other running total
    two = parse("2d6").dist()
    assert forced_columns[2] == "P(>= result)" and [row[2] for row in forced_rows] == _column(two, two.p_ge)
    # a :vary: table follows the game too
    data = json.loads(re.findall(r'class="rpg-odds-data">(.*?)</script>', spurg, re.S)[0])
    assert "P(<= result)" in json.dumps(data) and "P(>= result)" not in json.dumps(data)


def test_a_roll_over_game_keeps_the_chance_of_a_result_or_more(
        build: Callable[..., Any], tmp_path: Path) -> None:
    app = build(_book(tmp_path))
    nemron = (Path(app.outdir) / "nemron" / "odds.html").read_text()
    (columns, rows), (forced_columns, forced_rows) = _tables(nemron)[:2]
    three, two = parse("3d6").dist(), parse("2d6").dist()
    assert columns[2] == "P(>= result)" and [row[2] for row in rows] == _column(three, three.p_ge)
    assert forced_columns[2] == "P(<= result)" and [row[2] for row in forced_rows] == _column(two, two.p_le)


def test_a_folded_roll_under_table_sums_each_tail_the_right_way_round() -> None:
    dist = parse("100d100").dist()
    fold = fold_tails(dist, short=0)
    table = distribution_table(dist, fold=fold, under=True)
    assert table.columns[2] == "P(<= result)"
    low, *middle, high = table.rows
    outcomes = dist.support()
    assert low[2] == dist.p_le(outcomes[fold.low - 1]) == low[1]  # everything up to there, or under
    assert high[2] == 1  # the top tail: every result is at most the highest
    assert [row[2] for row in middle] == [dist.p_le(x) for x in outcomes[fold.low:fold.high]]


def test_the_calculator_gives_a_reader_rolling_under_the_chance_of_each_result_or_under() -> None:
    from rules.calculator import answer, answer_json

    three = parse("3d6").dist()
    under = answer("3d6", under=10, at_most=True)
    assert under["cumulative"] == "at most"
    assert [row["p_le"] for row in under["rows"]] == [str(three.p_le(x)) for x in three.support()]
    over = json.loads(answer_json("3d6", dc=10))
    assert over["cumulative"] == "at least" and "p_le" not in over["rows"][0]
    folded = json.loads(answer_json("100d100", at_most=True))  # a folded tail: all of it, or under
    assert folded["rows"][-1]["p_le"] == "1" and folded["rows"][0]["p_le"] == folded["rows"][0]["p"]
