"""Computed formulas typeset without TeX: plain inline nodes in HTML (no MathJax, no CDN), math in LaTeX.

A formula becomes an ``inline`` node of class ``rpg-formula`` whose children are the engine's layout
boxes (:meth:`rules.formula.Formula.boxes`) as inline nodes: names are set upright when they are
words (``Control``) and in italics when they are one letter (``n``), as mathematicians set them;
fractions are a numerator over a denominator, drawn by CSS (a hidden ``/`` keeps copied text and
CSS-less readers right).  The node keeps the formula's LaTeX, and for the LaTeX builder a
post-transform swaps it for real maths, so the PDF typesets it with TeX.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform

from rules.formula import Box, Fenced, Formula, Over, Symbol

CLASS = "rpg-formula"


def _symbol(symbol: Symbol) -> nodes.Node:
    if symbol.kind == "var":
        classes = ["rpg-var"] if len(symbol.text) == 1 else ["rpg-var", "rpg-word"]
        return nodes.inline(symbol.text, symbol.text, classes=classes)
    if symbol.kind == "op":  # spaced as text too, so copied and searched text reads "a + b"
        return nodes.inline(symbol.text, f" {symbol.text} ", classes=["rpg-op"])
    return nodes.inline(symbol.text, symbol.text, classes=[f"rpg-{symbol.kind}"])


def _row(boxes: tuple[Box, ...]) -> list[nodes.Node]:
    row: list[nodes.Node] = []
    for box in boxes:
        if isinstance(box, Symbol):
            row.append(_symbol(box))
        elif isinstance(box, Over):
            fraction = nodes.inline(classes=["rpg-frac"])
            fraction += nodes.inline("", "", *_row(box.numerator), classes=["rpg-numer"])
            fraction += nodes.inline("/", "/", classes=["rpg-slash"])
            fraction += nodes.inline("", "", *_row(box.denominator), classes=["rpg-denom"])
            row.append(fraction)
        elif isinstance(box, Fenced):
            row.append(nodes.inline("", "", nodes.inline(box.open, box.open, classes=["rpg-fence"]),
                                    *_row(box.body),
                                    nodes.inline(box.close, box.close, classes=["rpg-fence"]),
                                    classes=["rpg-group"]))
    return row


def formula_node(formula: Formula) -> nodes.inline:
    """The formula as inline text nodes, its LaTeX kept for the LaTeX builder."""
    node = nodes.inline("", "", *_row(formula.boxes()), classes=[CLASS])
    node["latex"] = formula.latex()
    node["formula"] = str(formula)
    return node


class FormulaAsMath(SphinxPostTransform):
    """In the LaTeX builder only: each typeset formula becomes inline maths, ``\\(...\\)``."""

    default_priority = 400
    formats = ("latex",)

    def run(self, **kwargs: Any) -> None:
        for node in list(self.document.findall(nodes.inline)):
            if CLASS in node["classes"] and node.get("latex"):
                node.replace_self(nodes.math(node["latex"], node["latex"]))


def setup(app: Sphinx) -> None:
    app.add_post_transform(FormulaAsMath)
