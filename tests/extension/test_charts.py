"""Charts are optional decoration: an inline SVG with matplotlib, the table alone without it."""

import re
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from rules.tables import Table
from sphinx_rpg import charts

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

TABLE = Table.of(("DC", "P(success)"), [(1, Fraction(1)), (2, Fraction(1, 2)), (3, Fraction(1, 8))],
                 probabilities=("P(success)",))


def test_a_chart_is_an_svg_that_is_the_same_every_time():
    first, second = charts.chart_svg(TABLE, "line"), charts.chart_svg(TABLE, "line")
    assert first.startswith("<svg") and first == second


def test_tables_without_numeric_first_column_get_no_chart():
    table = Table.of(("Name", "P"), [("a", Fraction(1, 2))], probabilities=("P",))
    assert charts.chart_svg(table) is None


def test_without_matplotlib_there_is_no_chart(monkeypatch):
    monkeypatch.setattr(charts, "matplotlib_available", lambda: False)
    assert charts.chart_svg(TABLE) is None


def _book(tmp_path: Path) -> Path:
    (tmp_path / "chart_rules.py").write_text("from rules.nodes import Registry\nfrom rules.tables import example_table\n"
                                             "REGISTRY = Registry('charts')\nREGISTRY.table()(example_table)\n")
    (tmp_path / "conf.py").write_text("import os, sys\nsys.path.insert(0, os.path.dirname(__file__))\nextensions = ['sphinx_rpg']\n"
                                      "rpg_registries = ['chart_rules:REGISTRY']\n")
    (tmp_path / "index.rst").write_text("Odds\n====\n\n.. node:table:: charts:example_table\n"
                                        "   :chart: bar\n")
    return tmp_path


def test_odds_directive_draws_a_chart_above_its_table(make_app, tmp_path):
    app = make_app("html", srcdir=_book(tmp_path))
    app.build()
    html = (Path(app.outdir) / "index.html").read_text()
    chart = html.index('<div class="rpg-chart docutils container">')
    assert html.index("<svg", chart) < html.index('<table class="rpg-computed')


def test_without_matplotlib_a_chart_option_warns_at_its_directive_and_keeps_the_table(make_app, tmp_path,
                                                                                   monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # what a missing install looks like to import
    app = make_app("html", srcdir=_book(tmp_path))
    app.build()
    html = (Path(app.outdir) / "index.html").read_text()
    assert "rpg-chart" not in html and '<table class="rpg-computed' in html
    warnings = app.warning.getvalue()
    assert "index.rst:4: WARNING: node:table: :chart: needs matplotlib" in warnings
    assert "[node.chart]" in warnings


def test_a_table_with_nothing_numeric_to_plot_warns_that_it_cannot_be_charted(make_app, tmp_path):
    (tmp_path / "conf.py").write_text("extensions = ['sphinx_rpg']\n")
    (tmp_path / "index.rst").write_text("Warnings\n========\n\n.. node:table:: sphinx_rpg:subtypes_table\n"
                                        "   :chart: line\n")
    app = make_app("html", srcdir=tmp_path)
    app.build()
    assert "index.rst:4: WARNING: node:table: cannot chart 'Warning subtypes'" in app.warning.getvalue()
    assert '<table class="rpg-computed' in (Path(app.outdir) / "index.html").read_text()


def tick_labels(svg: str) -> list[str]:
    return [label for label in re.findall(r">([^<>]*)</text>", svg) if label.strip()]


@pytest.mark.parametrize("kind", charts.CHART_KINDS)
def test_an_axis_of_whole_numbers_gets_whole_number_ticks(kind):
    """Two rows (0 and 1 dice) would otherwise be ticked -0.5, 0, 0.5... : no half dice on the axis."""
    table = Table.of(("Dice", "P(success)"), [(0, Fraction(0)), (1, Fraction(1, 2))],
                     probabilities=("P(success)",))
    labels = tick_labels(charts.chart_svg(table, kind))
    numbers = [label.replace("\N{MINUS SIGN}", "-") for label in labels if label not in ("Dice", "%")]
    assert numbers and all(re.fullmatch(r"-?\d+", n) for n in numbers), numbers


@pytest.mark.parametrize("kind", charts.CHART_KINDS)
def test_a_chart_draws_in_the_page_text_colour_on_a_transparent_background(kind):
    """Dark themes: axes, ticks, grid and legend use currentColor; nothing paints a white background."""
    table = Table.of(("Result", "P(=)", "P(>=)"), [(1, Fraction(1, 2), Fraction(1)), (2, Fraction(1, 2), Fraction(1, 2))],
                     probabilities=("P(=)", "P(>=)"))
    svg = charts.chart_svg(table, kind)
    assert "currentColor" in svg and "P(&gt;=)" in svg  # the legend is drawn
    assert "#000000" not in svg and "#ffffff" not in svg.lower()


def test_a_kept_chart_is_read_back_instead_of_drawn_again(tmp_path, monkeypatch):
    drawn = charts.chart_svg(TABLE, "line", cache=tmp_path)
    assert drawn == charts.chart_svg(TABLE, "line")  # the same chart as without a cache
    assert [path.name for path in tmp_path.iterdir()] == [f"{charts.chart_key(TABLE, 'line')}.svg"]
    monkeypatch.setattr(charts, "_draw", lambda table, kind: pytest.fail("drawn again"))
    assert charts.chart_svg(TABLE, "line", cache=tmp_path) == drawn


def test_another_table_or_kind_is_another_kept_chart():
    other = Table.of(TABLE.columns, [*TABLE.rows, (4, Fraction(1, 16))], probabilities=("P(success)",))
    keys = {charts.chart_key(TABLE, "line"), charts.chart_key(TABLE, "bar"), charts.chart_key(other, "line"),
            charts.chart_key(Table.of(TABLE.columns, TABLE.rows, "Titled", probabilities=("P(success)",)), "line")}
    assert len(keys) == 4


def test_a_chart_is_one_image_whose_text_alternative_says_what_it_plots():
    svg = charts.labelled(charts.chart_svg(TABLE, "line"), charts.chart_description(TABLE))
    opening = svg[:svg.index(">")]
    assert opening.startswith('<svg role="img" aria-label="Chart. P(success) in per cent for each DC; '
                              'the table gives the exact values."')
