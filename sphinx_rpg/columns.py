"""Column widths of the tables the extension builds, from their cells' text.

A ``colspec``'s width is relative for HTML and LaTeX, which use it only when a table says its widths
are given (they are not here: the browser and TeX size the columns).  The text builder takes it
literally, as characters: a width of 1 printed every header one letter per line, and Sphinx 8.2's text
writer never finished wrapping such a column (sphinx-doc/sphinx#13741, fixed in 9.0).
"""

from __future__ import annotations

from docutils import nodes

#: The widest a column is made; longer cells wrap.
WIDEST = 30


def fit_columns(group: nodes.tgroup, widest: int = WIDEST) -> None:
    """Give each column of ``group`` the width of its longest cell (up to ``widest`` characters)."""
    specs = [child for child in group.children if isinstance(child, nodes.colspec)]
    widths = [1] * len(specs)
    for row in group.findall(nodes.row):
        column = 0
        for entry in row.children:
            span = 1 + int(entry.get("morecols", 0)) if isinstance(entry, nodes.Element) else 1
            if span == 1 and column < len(widths):
                widths[column] = max(widths[column], min(len(entry.astext()), widest))
            column += span
    for spec, width in zip(specs, widths):
        spec["colwidth"] = width
