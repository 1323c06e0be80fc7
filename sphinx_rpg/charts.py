"""Optional charts for computed tables: inline SVG drawn by matplotlib when it is installed.

Charts are decoration: the table is always rendered too, so LaTeX/PDF and builds without matplotlib
lose nothing.  Output is deterministic (fixed hash salt, no date) so parallel and serial builds match.
"""

from __future__ import annotations

import io
from fractions import Fraction

from rules.tables import Table

CHART_KINDS = ("line", "bar")


def matplotlib_available() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def _numeric(value: object) -> float | None:
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return None
    return float(value) if isinstance(value, (int, Fraction, float)) else None


def chart_svg(table: Table, kind: str = "line") -> str | None:
    """An SVG plotting every probability column against the first column; None when impossible."""
    if not matplotlib_available():
        return None
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    series = [c for c in table.columns[1:] if table.is_probability(c)]
    xs = [x for x in map(_numeric, table.column(table.columns[0])) if x is not None]
    if not series or len(xs) != len(table.rows):
        return None
    with matplotlib.rc_context({"svg.hashsalt": "sphinx-rpg", "svg.fonttype": "none"}):
        figure, axes = pyplot.subplots(figsize=(6, 3))
        width = 0.8 / len(series)
        for number, column in enumerate(series):
            ys = [100 * (_numeric(v) or 0.0) for v in table.column(column)]
            if kind == "bar":
                axes.bar([x + number * width for x in xs], ys, width=width, label=column)
            else:
                axes.plot(xs, ys, marker="o", label=column)
        axes.set_xlabel(table.columns[0])
        axes.set_ylabel("%")
        axes.set_ylim(0, 100)
        axes.grid(alpha=0.3)
        if len(series) > 1:
            axes.legend(fontsize="small")
        if table.title:
            axes.set_title(table.title)
        buffer = io.StringIO()
        figure.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
        pyplot.close(figure)
    svg = buffer.getvalue()
    return svg[svg.index("<svg"):]
