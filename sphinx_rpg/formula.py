"""Computed formulas typeset without TeX: plain inline nodes in HTML (no MathJax, no CDN), math in LaTeX.

The one renderer of a formula for readers (facts blocks, ``:node:value:``, sheets): wherever a formula
is shown, it is set the way the book sets maths ("Agility × 2", never the engine's ``Agility * 2``), and
each name reads as the node it means (its name, linked where the output allows: ``base_potential``
reads "Base potential"); a name that is no node (a parameter) reads as words ("trained potential").

A formula becomes an ``inline`` node of class ``rpg-formula`` whose children are the engine's layout
boxes (:meth:`rules.formula.Formula.boxes`) as inline nodes: names are set upright when they are
words (``Control``) and in italics when they are one letter (``n``), as mathematicians set them;
fractions are a numerator over a denominator, drawn by CSS (a hidden ``/`` keeps copied text and
CSS-less readers right).  The node keeps the same boxes' LaTeX, and for the LaTeX builder a
post-transform swaps it for real maths, so the PDF typesets it with TeX.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform

from rules.formula import Box, Fenced, Formula, Over, Symbol
from rules.graph import name_index, resolve_name
from rules.nodes import Node

CLASS = "rpg-formula"


@dataclass(frozen=True)
class Name:
    """What a formula name reads as: the name of the node it means (``uid``, linked), or words."""

    title: str
    uid: str = ""


#: formula name -> how it reads; a name missing from it reads as words (:func:`spoken`)
Names = Mapping[str, Name]


_WORD_START = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def spoken(name: str) -> str:
    """A name that is no node, in words: ``trained_potential`` -> "trained potential", ``ClassHealth``
    -> "Class health", ``ArmourAC`` -> "Armour AC" (a word in capitals stays so)."""
    words = _WORD_START.sub(" ", name).replace("_", " ").split()
    if not words:
        return name
    return " ".join([words[0], *(w if w.isupper() else w.lower() for w in words[1:])])


@lru_cache(maxsize=32)
def _index(nodes_: tuple[Node, ...]) -> dict[str, frozenset[str]]:
    return name_index(nodes_)


def formula_names(node: Node, members: Iterable[Node]) -> dict[str, Name]:
    """The names of ``node``'s formula, each as the node of ``members`` it means (as ``rules.graph``
    matches them: name, last part of the uid or ``code``); the others are left to read as words."""
    if node.formula is None:
        return {}
    everyone = tuple(members)
    index = _index(everyone)
    titles = {member.uid: member.name for member in everyone}
    found: dict[str, Name] = {}
    for name in node.formula.names:
        uid = resolve_name(index, name, node.uid)
        if uid is not None:
            found[name] = Name(titles[uid], uid)
    return found


def _reading(name: str, names: Names) -> Name:
    return names.get(name) or Name(spoken(name))


def _symbol(symbol: Symbol, names: Names, docname: str | None) -> nodes.Node:
    if symbol.kind == "var":
        name = _reading(symbol.text, names)
        classes = ["rpg-var"] if len(name.title) == 1 else ["rpg-var", "rpg-word"]
        text = nodes.inline(name.title, name.title, classes=classes)
        if not name.uid or docname is None:
            return text
        # a link Sphinx resolves when the node is documented; otherwise the title stays, unlinked
        ref = addnodes.pending_xref("", refdomain="node", reftype="ref", reftarget=name.uid, refexplicit=True,
                                    refwarn=False, refdoc=docname)
        ref += text
        return ref
    if symbol.kind == "op":  # spaced as text too, so copied and searched text reads "a + b"
        return nodes.inline(symbol.text, f" {symbol.text} ", classes=["rpg-op"])
    return nodes.inline(symbol.text, symbol.text, classes=[f"rpg-{symbol.kind}"])


def _row(boxes: tuple[Box, ...], names: Names, docname: str | None) -> list[nodes.Node]:
    row: list[nodes.Node] = []
    for box in boxes:
        if isinstance(box, Symbol):
            row.append(_symbol(box, names, docname))
        elif isinstance(box, Over):
            fraction = nodes.inline(classes=["rpg-frac"])
            fraction += nodes.inline("", "", *_row(box.numerator, names, docname), classes=["rpg-numer"])
            fraction += nodes.inline("/", "/", classes=["rpg-slash"])
            fraction += nodes.inline("", "", *_row(box.denominator, names, docname), classes=["rpg-denom"])
            row.append(fraction)
        elif isinstance(box, Fenced):
            row.append(nodes.inline("", "", nodes.inline(box.open, box.open, classes=["rpg-fence"]),
                                    *_row(box.body, names, docname),
                                    nodes.inline(box.close, box.close, classes=["rpg-fence"]),
                                    classes=["rpg-group"]))
    return row


_TEX_OPS = {"+": " + ", "\N{MINUS SIGN}": " - ", "\N{MULTIPLICATION SIGN}": r" \times ", "//": r" \mathbin{/\!/} "}
_TEX_FENCES = {"(": (r"\left(", r"\right)"), "\N{LEFT FLOOR}": (r"\left\lfloor ", r" \right\rfloor"),
               "\N{LEFT CEILING}": (r"\left\lceil ", r" \right\rceil"), "|": (r"\left| ", r" \right|")}


#: LaTeX's special characters in text (Sphinx's own table needs its LaTeX builder set up first)
_TEX_SPECIAL = str.maketrans({"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&",
                              "#": r"\#", "^": r"\^{}", "_": r"\_", "~": r"\textasciitilde{}", "%": r"\%"})


def tex_escape(text: str) -> str:
    return text.translate(_TEX_SPECIAL)


def _tex_symbol(symbol: Symbol, names: Names) -> str:
    if symbol.kind == "var":
        title = _reading(symbol.text, names).title
        return tex_escape(title) if len(title) == 1 and title.isalpha() else r"\text{" + tex_escape(title) + "}"
    if symbol.kind == "op":
        return _TEX_OPS.get(symbol.text, f" {tex_escape(symbol.text)} ")
    if symbol.kind == "sign":
        return "-"
    if symbol.kind == "func":  # the grammar's only named functions are min and max (others are fences)
        return "\\" + symbol.text
    if symbol.kind == "punct":
        return ",\\ "
    return tex_escape(symbol.text)


def formula_latex(boxes: tuple[Box, ...], names: Names) -> str:
    """The same boxes as LaTeX maths, each name read as :func:`formula_node` reads it."""
    parts: list[str] = []
    for box in boxes:
        if isinstance(box, Symbol):
            parts.append(_tex_symbol(box, names))
        elif isinstance(box, Over):
            parts.append(r"\frac{" + formula_latex(box.numerator, names) + "}{"
                         + formula_latex(box.denominator, names) + "}")
        else:
            opening, closing = _TEX_FENCES.get(box.open, (r"\left(", r"\right)"))
            parts.append(opening + formula_latex(box.body, names) + closing)
    return "".join(parts)


def formula_node(formula: Formula, names: Names | None = None, *, docname: str | None = None) -> nodes.inline:
    """The formula as inline text nodes, its LaTeX kept for the LaTeX builder.

    ``names`` says what each name reads as (a name missing from it reads as words); with ``docname``
    each name that is a node links to it."""
    names = names or {}
    boxes = formula.boxes()
    node = nodes.inline("", "", *_row(boxes, names, docname), classes=[CLASS])
    node["latex"] = formula_latex(boxes, names)
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
