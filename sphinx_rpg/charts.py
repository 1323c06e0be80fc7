"""Charts for computed tables: an SVG drawn here, with no plotting library.

A ``:vary:`` table's chart is drawn again in the reader's browser (``static/odds.js``) each time a
control changes; the build draws the first one.  Both draw the same picture from the same numbers
(:func:`chart_data`, which the page's data also carries): the same size, axes, ticks, bars, lines and
legend, so the chart does not change its look when a reader picks another value.  The browser tests
compare the two drawings.

Charts are decoration: the table is always rendered too, so LaTeX/PDF loses nothing.  A chart follows
the page's colours: its background is transparent and its text, axes and grid are drawn in
``currentColor`` (the theme's text colour, light or dark); only the series keep their own colours.
The output depends on the table alone (no date, no random id), so parallel and serial builds match.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from html import escape

from rules.tables import Table

CHART_KINDS = ("line", "bar")
#: The series' colours, in order (a seventh series takes the first colour again); ``static/odds.js``
#: has the same list.
COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b")
#: The drawing's size and margins, in the SVG's own units (it scales to the column's width).
WIDTH, HEIGHT, LEFT, RIGHT, BOTTOM = 560, 300, 52, 26, 46
#: Horizontal grid lines and their labels, in per cent.
PERCENT_TICKS = (0, 25, 50, 75, 100)
#: At most about this many labels on the horizontal axis.
MAX_X_LABELS = 12
#: The legend's rows (above the plot, so no line or bar runs under it): their height, and the width a
#: character of a series' name is given (the drawing cannot measure text; the page sets it at 15px).
LEGEND_ROW, LEGEND_CHARACTER = 18, 8.5


def legend_places(names: Sequence[str], below: float) -> tuple[list[tuple[float, float]], float]:
    """Where each series' legend entry goes (its left edge and its text's middle line), in rows from the
    plot's left edge, a row wrapped when the next name would run past the right margin; and where the
    plot may begin under them.  One series needs no legend: the plot begins at ``below``."""
    if len(names) < 2:
        return [], below
    places, x, row = [], float(LEFT), 0
    for name in names:
        width = 12 + 6 + LEGEND_CHARACTER * len(name) + 18
        if x + width > WIDTH - RIGHT and x > LEFT:
            row, x = row + 1, float(LEFT)
        places.append((x, below + 10 + LEGEND_ROW * row))
        x += width
    return places, below + LEGEND_ROW * (row + 1) + 8


def _exact(value: object) -> Fraction | None:
    """A cell's exact number; ``None`` for a label (a folded tail "≥ 9", a name)."""
    return Fraction(value) if isinstance(value, (int, Fraction)) and not isinstance(value, bool) else None


def _ratio(value: object) -> str | None:
    """An exact probability as ``"n/d"`` (the drawing divides)."""
    fraction = _exact(value)
    return None if fraction is None else f"{fraction.numerator}/{fraction.denominator}"


def _position(value: object) -> float | None:
    """A first-column cell as a place on the axis: a number, or ``None`` (a label, a folded tail, a
    number past what a double holds)."""
    fraction = _exact(value)
    try:
        return None if fraction is None else float(fraction)
    except OverflowError:
        return None


@dataclass(frozen=True)
class ChartData:
    """What a chart is drawn from: the first column's numbers (``None`` for a row that has no place on
    the axis, such as a folded tail "≥ 9") and each probability column as exact ``"n/d"`` texts."""

    x: tuple[float | None, ...]
    series: dict[str, tuple[str | None, ...]]

    def as_json(self) -> dict[str, object]:
        return {"x": list(self.x), "series": {name: list(values) for name, values in self.series.items()}}


def chart_data(table: Table) -> ChartData:
    """The numbers a chart of ``table`` plots, for the build's drawing and the page's script alike."""
    series = {c: tuple(_ratio(v) for v in table.column(c)) for c in table.columns[1:] if table.is_probability(c)}
    return ChartData(tuple(_position(v) for v in table.column(table.columns[0])), series)


def chart_description(table: Table) -> str:
    """What the chart shows, in words: its text alternative (the table beside it holds the numbers)."""
    series = [column for column in table.columns[1:] if table.is_probability(column)]
    shown = f"{table.title}: " if table.title else ""
    return (f"Chart. {shown}{', '.join(series)} in per cent for each {table.columns[0]}; "
            "the table gives the exact values.")


def _percent(text: str | None) -> float | None:
    """``"n/d"`` in per cent (the page's script divides in doubles: the two agree to far below a hundredth)."""
    if text is None:
        return None
    numerator, _, denominator = text.partition("/")
    return float(100 * Fraction(int(numerator), int(denominator)))  # rounded once, never an overflow


def _fmt(value: float) -> str:
    """A coordinate, to a hundredth of a unit (the drawing is 560 units wide)."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _element(name: str, attributes: dict[str, object], text: str | None = None) -> str:
    shown = " ".join(f'{key}="{escape(_fmt(v) if isinstance(v, float) else str(v), quote=True)}"'
                     for key, v in attributes.items())
    return f"<{name} {shown}/>" if text is None else f"<{name} {shown}>{escape(text, quote=False)}</{name}>"


def draw(data: ChartData, kind: str, caption: str, x_label: str, description: str) -> str | None:
    """The SVG of one chart; ``None`` when there is nothing to plot (no probability column, no number
    on the first column).  The same steps, in the same order, as ``chartSvg`` in ``static/odds.js``."""
    names = list(data.series)
    xs = [x for x in data.x if x is not None]
    if not names or not xs:
        return None
    legend, top = legend_places(names, 30 if caption else 12)
    low, high = min(xs), max(xs)
    if kind == "bar":
        low, high = low - 0.5, high + 0.5
    if high == low:
        low, high = low - 1, high + 1
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - top - BOTTOM

    def x_at(x: float) -> float:
        return LEFT + (x - low) / (high - low) * plot_w

    def y_at(y: float) -> float:
        return top + plot_h - y / 100 * plot_h

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
             f'aria-label="{escape(description, quote=True)}" class="rpg-odds-chart">']
    if caption:
        parts.append(_element("text", {"x": WIDTH / 2, "y": 18, "text-anchor": "middle"}, caption))
    for percent in PERCENT_TICKS:
        parts.append(_element("line", {"x1": LEFT, "x2": WIDTH - RIGHT, "y1": y_at(percent), "y2": y_at(percent),
                                       "stroke": "currentColor", "stroke-opacity": 0.2 if percent else 0.8}))
        parts.append(_element("text", {"x": LEFT - 6, "y": y_at(percent) + 4, "text-anchor": "end"}, str(percent)))
    middle = top + plot_h / 2
    parts.append(_element("text", {"x": 12, "y": middle, "transform": f"rotate(-90 12 {_fmt(middle)})",
                                   "text-anchor": "middle"}, "%"))
    step = max(1, math.ceil((math.ceil(high) - math.floor(low)) / MAX_X_LABELS))
    tick = math.ceil(low)
    while tick <= high:
        parts.append(_element("text", {"x": x_at(tick), "y": top + plot_h + 18, "text-anchor": "middle"}, str(tick)))
        tick += step
    parts.append(_element("text", {"x": LEFT + plot_w / 2, "y": HEIGHT - 6, "text-anchor": "middle"}, x_label))
    slot = plot_w / (high - low) * 0.8 / len(names)
    for number, name in enumerate(names):
        colour = COLOURS[number % len(COLOURS)]
        points = []
        for x, value in zip(data.x, data.series[name]):
            y = _percent(value)
            if y is None or x is None:
                continue
            if kind == "bar":
                parts.append(_element("rect", {"x": x_at(x) - 0.4 * plot_w / (high - low) + number * slot, "y": y_at(y),
                                               "width": slot, "height": y_at(0) - y_at(y), "fill": colour}))
            else:
                points.append(f"{_fmt(x_at(x))},{_fmt(y_at(y))}")
                parts.append(_element("circle", {"cx": x_at(x), "cy": y_at(y), "r": 3, "fill": colour}))
        if points:
            parts.append(_element("polyline", {"points": " ".join(points), "fill": "none", "stroke": colour,
                                               "stroke-width": 1.5}))
        if legend:
            left, middle = legend[number]
            parts.append(_element("rect", {"x": left, "y": middle - 6, "width": 12, "height": 12, "fill": colour}))
            parts.append(_element("text", {"x": left + 18, "y": middle + 5}, name))
    parts.append("</svg>")
    return "".join(parts)


def chart_svg(table: Table, kind: str = "line", caption: str = "") -> str | None:
    """The chart of ``table`` (every probability column against the first column), titled ``caption``
    or else the table's title; ``None`` when there is nothing to plot."""
    return draw(chart_data(table), kind, caption or table.title, table.columns[0], chart_description(table))

