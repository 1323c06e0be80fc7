"""Charts are decoration above a computed table: an inline SVG drawn by the extension itself, the same
picture the page's script draws when a reader varies the table (tests/site/test_odds.py compares them)."""

import re
import xml.etree.ElementTree as ElementTree
from fractions import Fraction
from pathlib import Path

import pytest

from rules.tables import Table
from sphinx_rpg import charts

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

SVG = "{http://www.w3.org/2000/svg}"
TABLE = Table.of(("DC", "P(success)"), [(1, Fraction(1)), (2, Fraction(1, 2)), (3, Fraction(1, 8))],
                 probabilities=("P(success)",))
TWO_SERIES = Table.of(("Result", "P(=)", "P(>=)"),
                      [(1, Fraction(1, 2), Fraction(1)), (2, Fraction(1, 2), Fraction(1, 2))],
                      probabilities=("P(=)", "P(>=)"))


def parsed(svg: str | None) -> ElementTree.Element:
    assert svg is not None, "no chart was drawn"
    return ElementTree.fromstring(svg)


def drawn(svg: str | None, tag: str) -> list[ElementTree.Element]:
    return list(parsed(svg).iter(SVG + tag))


def test_a_chart_is_an_svg_that_is_the_same_every_time():
    first, second = charts.chart_svg(TABLE, "line"), charts.chart_svg(TABLE, "line")
    assert first is not None and first.startswith("<svg") and first == second


def test_tables_without_numeric_first_column_get_no_chart():
    table = Table.of(("Name", "P(success)"), [("a", Fraction(1, 2))], probabilities=("P(success)",))
    assert charts.chart_svg(table) is None


def test_a_table_without_a_probability_column_gets_no_chart():
    assert charts.chart_svg(Table.of(("DC", "Damage"), [(1, 2), (2, 4)])) is None


def test_a_line_chart_puts_a_point_at_each_row_s_chance_on_a_scale_of_0_to_100_per_cent():
    svg = charts.chart_svg(TABLE, "line")
    grid = [float(line.get("y1", "nan")) for line in drawn(svg, "line")]
    zero, hundred = grid[0], grid[-1]  # the grid lines, 0 % at the bottom first
    points = [(float(c.get("cx", "nan")), float(c.get("cy", "nan"))) for c in drawn(svg, "circle")]
    assert len(points) == 3
    heights = [(zero - y) / (zero - hundred) for _, y in points]
    assert heights == pytest.approx([1, 0.5, 0.125], abs=1e-4)
    assert points[0][0] < points[1][0] < points[2][0]


def test_a_bar_chart_draws_one_bar_per_row_and_series_side_by_side():
    bars = [r for r in drawn(charts.chart_svg(TWO_SERIES, "bar"), "rect") if r.get("width") != "12"]  # not the legend
    assert len(bars) == 4
    first_row = sorted(bars, key=lambda r: float(r.get("x", "nan")))[:2]
    assert {r.get("fill") for r in first_row} == {charts.COLOURS[0], charts.COLOURS[1]}


def test_a_folded_tail_row_has_no_place_on_the_axis():
    folded = Table.of(("Result", "P(=)"), [(1, Fraction(1, 2)), ("\N{GREATER-THAN OR EQUAL TO} 2", Fraction(1, 2))],
                      probabilities=("P(=)",))
    assert len(drawn(charts.chart_svg(folded, "line"), "circle")) == 1


def test_a_number_too_large_for_the_axis_is_left_off_it_not_an_error():
    table = Table.of(("Total", "P(=)"), [(1, Fraction(1, 2)), (10 ** 400, Fraction(1, 2))], probabilities=("P(=)",))
    assert len(drawn(charts.chart_svg(table), "circle")) == 1


def tick_labels(svg: str | None) -> list[str]:
    return [text.text or "" for text in drawn(svg, "text")]


@pytest.mark.parametrize("kind", charts.CHART_KINDS)
def test_an_axis_of_whole_numbers_gets_whole_number_ticks(kind):
    """Two rows (0 and 1 dice) would otherwise be ticked -0.5, 0, 0.5... : no half dice on the axis."""
    table = Table.of(("Dice", "P(success)"), [(0, Fraction(0)), (1, Fraction(1, 2))],
                     probabilities=("P(success)",))
    labels = tick_labels(charts.chart_svg(table, kind))
    numbers = [label for label in labels if label not in ("Dice", "%")]
    assert numbers and all(re.fullmatch(r"-?\d+", n) for n in numbers), numbers


def test_a_long_axis_is_labelled_at_most_about_a_dozen_times():
    table = Table.of(("Total", "P(=)"), [(n, Fraction(1, 100)) for n in range(100)], probabilities=("P(=)",))
    labels = tick_labels(charts.chart_svg(table))
    # the per-cent labels of the grid (0 to 100), the axis names ("%", "Total"), then the totals
    totals = labels[len(charts.PERCENT_TICKS) + 1:-1]
    assert 5 <= len(totals) <= charts.MAX_X_LABELS + 1, totals
    assert totals[0] == "0" and int(totals[-1]) <= 99


@pytest.mark.parametrize("kind", charts.CHART_KINDS)
def test_a_chart_draws_in_the_page_text_colour_on_a_transparent_background(kind):
    """Dark themes: axes, ticks, grid and legend use currentColor; nothing paints a background."""
    svg = charts.chart_svg(TWO_SERIES, kind)
    assert svg is not None and "currentColor" in svg and "P(&gt;=)" in svg  # the legend is drawn
    assert "#000000" not in svg and "#ffffff" not in svg.lower() and "background" not in svg


def test_a_legend_is_drawn_only_when_there_is_more_than_one_series():
    assert "P(success)</text>" not in charts.chart_svg(TABLE) and ">P(=)</text>" in charts.chart_svg(TWO_SERIES)


def test_the_caption_titles_the_chart_and_the_table_s_title_stands_in_for_it():
    titled = Table.of(TABLE.columns, TABLE.rows, "Odds of a check", probabilities=("P(success)",))
    assert tick_labels(charts.chart_svg(titled))[0] == "Odds of a check"
    assert tick_labels(charts.chart_svg(titled, caption="With an edge"))[0] == "With an edge"


def test_a_chart_is_one_image_whose_text_alternative_says_what_it_plots():
    root = parsed(charts.chart_svg(TABLE, "line"))
    assert root.get("role") == "img"
    assert root.get("aria-label") == "Chart. P(success) in per cent for each DC; the table gives the exact values."


def test_the_data_a_page_script_redraws_from_is_the_data_the_build_drew_from():
    data = charts.chart_data(TABLE).as_json()
    assert data == {"x": [1.0, 2.0, 3.0], "series": {"P(success)": ["1/1", "1/2", "1/8"]}}


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
    assert app.warning.getvalue() == ""


def test_a_table_with_nothing_numeric_to_plot_warns_that_it_cannot_be_charted(make_app, tmp_path):
    (tmp_path / "conf.py").write_text("extensions = ['sphinx_rpg']\n")
    (tmp_path / "index.rst").write_text("Warnings\n========\n\n.. node:table:: sphinx_rpg:subtypes_table\n"
                                        "   :chart: line\n")
    app = make_app("html", srcdir=tmp_path)
    app.build()
    assert "index.rst:4: WARNING: node:table: cannot chart 'Warning subtypes'" in app.warning.getvalue()
    assert '<table class="rpg-computed' in (Path(app.outdir) / "index.html").read_text()
