"""``node:graph`` on paper: the screen's layout drawn as a TikZ figure (vector, black on white).

The boxes and arrows are those of the HTML picture (``graph_layout``), so the figure and the
web page agree; the colours are the printer's, not the theme's.  The LaTeX builder loads TikZ for it
(``setup``).  A figure wider than the text is scaled down to the text width.
"""

from __future__ import annotations

from sphinx.application import Sphinx
from sphinx.util.texescape import escape

from rules.graph import Dependencies
from sphinx_rpg.graph_layout import BOX_HEIGHT, graph_layout

#: TeX points per pixel of the layout: a 13 px label becomes about 9.75 pt (\small).
SCALE = 0.75
#: About the text width of Sphinx's default LaTeX page, in points: a wider figure is scaled down.
TEXT_WIDTH = 440.0


def graph_tikz(graph: Dependencies, names: dict[str, str], caption: str) -> str:
    """The figure's LaTeX: one rounded box per node, a curved arrow from each input to what it derives."""
    x_of, y_of, column_width, width, _ = graph_layout(graph, names)
    lines = [rf"\begin{{tikzpicture}}[x={SCALE:.2f}pt, y=-{SCALE:.2f}pt, "
             r"every node/.style={font=\small, inner sep=0pt}]"]
    for source, target in graph.edges():
        x1, y1 = x_of[source] + column_width[source], y_of[source] + BOX_HEIGHT / 2
        x2, y2 = x_of[target], y_of[target] + BOX_HEIGHT / 2
        bend = max(20.0, (x2 - x1) / 2)
        lines.append(rf"\draw[-stealth, line width=0.5pt, black!70] ({x1:.1f},{y1:.1f}) .. "
                     rf"controls ({x1 + bend:.1f},{y1:.1f}) and ({x2 - bend:.1f},{y2:.1f}) .. ({x2 - 1:.1f},{y2:.1f});")
    for uid in sorted(x_of):
        x, y, w = x_of[uid], y_of[uid], column_width[uid]
        lines.append(rf"\draw[rounded corners=3pt, line width=0.6pt] ({x:.1f},{y:.1f}) rectangle "
                     rf"({x + w:.1f},{y + BOX_HEIGHT:.1f});")
        lines.append(rf"\node at ({x + w / 2:.1f},{y + BOX_HEIGHT / 2:.1f}) {{{escape(names[uid])}}};")
    lines.append(r"\end{tikzpicture}")
    picture = "\n".join(lines)
    if width * SCALE > TEXT_WIDTH:
        picture = r"\resizebox{\linewidth}{!}{%" + "\n" + picture + "}"
    title = escape(caption or "How the rules connect")
    return (r"\begin{figure}[htbp]\centering" + "\n" + picture + "\n" + rf"\caption{{{title}}}" + "\n"
            + r"\end{figure}" + "\n")


def setup(app: Sphinx) -> None:
    app.add_latex_package("tikz")
