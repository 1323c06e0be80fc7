"""Optional charts for computed tables: inline SVG drawn by matplotlib when it is installed.

Charts are decoration: the table is always rendered too, so LaTeX/PDF and builds without matplotlib
lose nothing.  Output is deterministic (fixed hash salt, no date) so parallel and serial builds match.

A chart follows the page's colours: its background is transparent and its text, axes and grid are
drawn in ``currentColor`` (the theme's text colour, light or dark); only the series keep their own
colours.  An axis whose values are all whole numbers gets whole-number ticks only.
"""

from __future__ import annotations

import hashlib
import io
import json
from fractions import Fraction
from functools import cache
from pathlib import Path

from rules.odds import AT_LEAST, AT_MOST
from rules.tables import Table
from sphinx_rpg.files import held, write_atomically

CHART_KINDS = ("line", "bar")
#: Drawn in this colour by matplotlib, then handed to CSS as ``currentColor``.
_INK = "#000000"


def matplotlib_available() -> bool:
    """Whether matplotlib is installed, found without importing it: a build that reads every chart from
    ``rpg_chart_cache`` (the site's second edition) never pays for importing it."""
    from importlib.util import find_spec

    try:
        return find_spec("matplotlib") is not None
    except (ImportError, ValueError):
        return False


@cache
def matplotlib_version() -> str:
    """The installed matplotlib's version, from its metadata (no import) when it has any."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("matplotlib")
    except PackageNotFoundError:
        import matplotlib

        return str(matplotlib.__version__)


def _numeric(value: object) -> float | None:
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return None
    return float(value) if isinstance(value, (int, Fraction, float)) else None


def _folded(cell: object) -> bool:
    """A row that holds a folded tail of a distribution (:func:`rules.odds.folded_rows`)."""
    return isinstance(cell, str) and cell.startswith((AT_MOST + " ", AT_LEAST + " "))


def chart_key(table: Table, kind: str) -> str:
    """What a chart is drawn from, as a digest: the table, the kind, matplotlib's version and this
    module's own source (an edit to how charts are drawn draws them again)."""
    drawn_from = [kind, list(table.columns), [[repr(cell) for cell in row] for row in table.rows], table.title,
                  sorted(table.probability_columns), sorted(table.code_columns), matplotlib_version()]
    digest = hashlib.sha256(json.dumps(drawn_from).encode())
    digest.update(Path(__file__).read_bytes())
    return digest.hexdigest()


def chart_description(table: Table) -> str:
    """What the chart shows, in words: its text alternative (the table beside it holds the numbers)."""
    series = [column for column in table.columns[1:] if table.is_probability(column)]
    shown = f"{table.title}: " if table.title else ""
    return (f"Chart. {shown}{', '.join(series)} in per cent for each {table.columns[0]}; "
            "the table gives the exact values.")


def labelled(svg: str, description: str) -> str:
    """``svg`` as one image named ``description`` (``role="img"``, ``aria-label``), for screen readers."""
    from html import escape

    start = svg.find("<svg")
    if start < 0:
        return svg
    return f'{svg[:start]}<svg role="img" aria-label="{escape(description, quote=True)}"{svg[start + 4:]}'


def chart_svg(table: Table, kind: str = "line", cache: Path | None = None) -> str | None:
    """An SVG plotting every probability column against the first column (a folded tail's row left
    out); None when impossible.

    With ``cache`` (a folder, ``rpg_chart_cache``), a chart drawn once is kept there by its
    ``chart_key`` and read back by any later build: both editions of a site draw each chart once.
    """
    if not matplotlib_available():
        return None
    if cache is None:
        return _draw(table, kind)
    kept = cache / f"{chart_key(table, kind)}.svg"
    if kept.is_file():
        return kept.read_text(encoding="utf-8")
    # the other edition, built side by side, may be drawing this very chart: one draws it, one reads it
    with held(kept.with_suffix(".lock")):
        if kept.is_file():
            return kept.read_text(encoding="utf-8")
        svg = _draw(table, kind)
        if svg is not None:
            write_atomically(kept, svg)  # whole or not at all
    return svg


def _draw(table: Table, kind: str) -> str | None:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    rows = [row for row in table.rows if not _folded(row[0])]  # a folded row ("≥ 9") has no place on the axis
    table = Table(table.columns, tuple(rows), table.title, table.probability_columns, table.code_columns)
    series = [c for c in table.columns[1:] if table.is_probability(c)]
    xs = [x for x in map(_numeric, table.column(table.columns[0])) if x is not None]
    if not series or not xs or len(xs) != len(table.rows):
        return None
    from matplotlib.ticker import MaxNLocator

    with matplotlib.rc_context({"svg.hashsalt": "sphinx-rpg", "svg.fonttype": "none", "text.color": _INK,
                                "axes.labelcolor": _INK, "axes.edgecolor": _INK, "xtick.color": _INK,
                                "ytick.color": _INK, "grid.color": _INK, "legend.labelcolor": _INK}):
        figure, axes = pyplot.subplots(figsize=(6, 3))
        width = 0.8 / len(series)
        for number, column in enumerate(series):
            ys = [100 * (_numeric(v) or 0.0) for v in table.column(column)]
            if kind == "bar":
                axes.bar([x + number * width for x in xs], ys, width=width, label=column)
            else:
                axes.plot(xs, ys, marker="o", label=column)
        if all(float(x).is_integer() for x in xs if x is not None):
            axes.xaxis.set_major_locator(MaxNLocator(integer=True))
        axes.set_xlabel(table.columns[0])
        axes.set_ylabel("%")
        axes.set_ylim(0, 100)
        axes.grid(alpha=0.3)
        if len(series) > 1:
            axes.legend(fontsize="small", frameon=False)  # no box: a white one would glare in dark mode
        if table.title:
            axes.set_title(table.title)
        buffer = io.StringIO()
        figure.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None}, transparent=True)
        pyplot.close(figure)
    svg = buffer.getvalue()
    return svg[svg.index("<svg"):].replace(_INK, "currentColor")
