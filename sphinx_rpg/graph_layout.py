"""Where ``node:graph`` puts its boxes: columns of nodes, inputs left, ordered to cross fewer arrows.

One layout for both pictures: the screen's SVG (``graphs``) and the printed TikZ figure (``graph_print``).
"""

from __future__ import annotations

from typing import NamedTuple

from rules.graph import Dependencies, layers

BOX_HEIGHT, ROW_GAP, COLUMN_GAP, CHAR_WIDTH, PADDING = 26, 10, 70, 7.4, 10


def _box_width(text: str) -> float:
    return max(60.0, len(text) * CHAR_WIDTH + 2 * PADDING)


def ordered_layers(graph: Dependencies, sweeps: int = 2) -> list[list[str]]:
    """``rules.graph.layers`` with each column ordered to cross fewer arrows (barycentre sweeps).

    Left to right, a box moves to the mean row of its inputs; right to left, to the mean row of what
    it feeds.  Ties keep alphabetical order, so the picture is the same on every build.
    """
    columns = layers(graph)
    row: dict[str, float] = {uid: float(index) for column in columns for index, uid in enumerate(column)}

    def reorder(column: list[str], neighbours: dict[str, tuple[str, ...]]) -> None:
        def centre(uid: str) -> float:
            placed = [row[n] for n in neighbours.get(uid, ()) if n in row]
            return sum(placed) / len(placed) if placed else row[uid]
        column.sort(key=lambda uid: (centre(uid), uid))
        for index, uid in enumerate(column):
            row[uid] = float(index)

    users = {uid: graph.used_by(uid) for column in columns for uid in column}
    for _ in range(sweeps):
        for column in columns[1:]:
            reorder(column, dict(graph.inputs))
        for column in reversed(columns[:-1]):
            reorder(column, users)
    return columns


class Layout(NamedTuple):
    """Where each box goes (its left edge ``x_of``, top ``y_of`` and width), in pixels, and the whole size."""

    x_of: dict[str, float]
    y_of: dict[str, float]
    column_width: dict[str, float]
    width: float
    height: float


def graph_layout(graph: Dependencies, names: dict[str, str]) -> Layout:
    """Columns of boxes, inputs left: one layout for the screen's SVG and the printed figure."""
    columns = ordered_layers(graph)
    widths = [max((_box_width(names[uid]) for uid in column), default=0.0) for column in columns]
    x_of: dict[str, float] = {}
    y_of: dict[str, float] = {}
    x = 1.0
    for column, width in zip(columns, widths):
        for row, uid in enumerate(column):
            x_of[uid], y_of[uid] = x, 1.0 + row * (BOX_HEIGHT + ROW_GAP)
        x += width + COLUMN_GAP
    height = max(len(column) for column in columns) * (BOX_HEIGHT + ROW_GAP) - ROW_GAP + 2
    column_width = {uid: widths[index] for index, column in enumerate(columns) for uid in column}
    return Layout(x_of, y_of, column_width, x - COLUMN_GAP + 1, height)


