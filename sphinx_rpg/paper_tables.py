"""Wide tables on paper: set in small type with narrow gaps, so that no header word sticks out.

A page is about 440 pt wide; an odds table of 14 columns leaves each column 19 pt once LaTeX's default
6 pt gaps are taken, less than a header word such as "Progress" needs (the DnDalike's PDF had 152
overfull lines, all in such cells).  In the LaTeX builder only, a table of :data:`WIDE` columns or
more is wrapped in a group that sets its text in ``\\footnotesize`` with 3 pt gaps; screens are left
as they are (a screen scrolls a wide table sideways).
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform

#: The number of columns from which a printed table is set in small type.
WIDE = 8
OPEN = r"\begingroup\footnotesize\setlength{\tabcolsep}{3pt}%"
CLOSE = r"\endgroup"


def columns(table: nodes.table) -> int:
    group = next(iter(table.findall(nodes.tgroup)), None)
    return int(group.get("cols", 0)) if group is not None else 0


class WideTablesInSmallType(SphinxPostTransform):
    """In the LaTeX builder only: a table of :data:`WIDE` columns or more, in small type."""

    default_priority = 800
    formats = ("latex",)

    def run(self, **kwargs: Any) -> None:
        for table in list(self.document.findall(nodes.table)):
            if columns(table) >= WIDE and isinstance(table.parent, nodes.Element):
                parent, index = table.parent, table.parent.index(table)
                parent.insert(index + 1, nodes.raw("", CLOSE, format="latex"))
                parent.insert(index, nodes.raw("", OPEN, format="latex"))


def setup(app: Sphinx) -> None:
    app.add_post_transform(WideTablesInSmallType)
