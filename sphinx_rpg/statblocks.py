"""``node:statblock``: a creature or character as the engine builds it, set like a printed stat block.

The argument names a block a registry publishes (``nugget:thug``, see :mod:`rules.statblocks`), never
Python code.  The engine builds the block while the page is read; every value is labelled with the
title of the node whose rule computed it and links to that node, and the main attack's odds line comes
from :mod:`rules.odds`, the code ``node:odds`` prints with.  The block is ordinary paragraphs in a
container, so HTML, LaTeX and text builders all set it (compact: a few lines, wrapping on a phone).
"""

from __future__ import annotations

import re
import sys
from fractions import Fraction
from typing import ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective
from sphinx.util.typing import OptionSpec

from rules.statblocks import Attack, Stat, StatBlock
from rules.tables import percent
from sphinx_rpg.binding import Binding, binding_for
from sphinx_rpg.boundary import EngineFailure, call_engine, one_line
from sphinx_rpg.warnings import warn

_NAME = re.compile(r"([A-Za-z_][A-Za-z0-9_]*):([A-Za-z_][A-Za-z0-9_]*)")
SEPARATOR = " \N{MIDDLE DOT} "


def show_value(value: object) -> str:
    """``7``, ``-1``, ``7/2`` or the text itself: how a block prints a value."""
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    return str(value)


def chance_text(chance: Fraction, exact: bool) -> str:
    shown = percent(chance)
    if exact and chance.denominator != 1:
        shown += f" ({chance.numerator}/{chance.denominator})"
    return shown


def attack_line(attack: Attack, exact: bool = False) -> str:
    """``DC 2: 99.7% · 3: 97.9%``: the attack's chance at each target it quotes.

    At or above a DC, or at or under a roll-under target: the label says which, so the line needs no
    signs (and prints with any LaTeX engine).
    """
    parts = [f"{target}: {chance_text(chance, exact)}" for target, chance in attack.chances()]
    return f"{attack.target_label} " + SEPARATOR.join(parts)


class NodeStatBlock(SphinxDirective):
    """``.. node:statblock:: nugget:thug`` with ``:exact:`` (fractions beside the percentages)."""

    required_arguments = 1
    final_argument_whitespace = True  # a name with spaces is read whole and refused with a node.statblock warning
    has_content = False
    option_spec: ClassVar[OptionSpec] = {"exact": directives.flag, "name": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        location = self.get_location()
        target = self.arguments[0].strip()
        match = _NAME.fullmatch(target)
        if not match:
            warn("statblock", f"node:statblock: {one_line(target)!r} is not a published stat block name such as "
                              "'nugget:thug'", location)
            return []
        system, name = match.groups()
        binding = binding_for(self.config)
        registry = binding.registry(system)
        if registry is None:
            known = ", ".join(r.system for r in binding.registries) or "none configured"
            warn("statblock", f"node:statblock: no bound registry has system {system!r} (known: {known})", location)
            return []
        builder = registry.statblocks.builder(name)
        if builder is None:
            known = ", ".join(registry.statblocks.names()) or "none"
            warn("statblock", f"node:statblock: {system!r} publishes no stat block {name!r} (it has: {known})",
                 location)
            return []
        try:
            block = call_engine(registry.statblocks.build, name)
            box = call_engine(self.render, block, binding, location)  # the odds line runs engine code too
        except EngineFailure as failure:
            warn("statblock", f"node:statblock: the engine cannot build {target!r}: {failure}", location)
            return []
        self.note_dependencies(binding, builder.__module__, block)
        self.set_source_info(box)
        self.add_name(box)
        return [box]

    def note_dependencies(self, binding: Binding, module: str, block: StatBlock) -> None:
        paths = {getattr(sys.modules.get(module), "__file__", None)}
        for uid in block.uids():
            node = binding.lookup(uid)
            if node is not None and node.source_file is not None:
                paths.add(str(node.source_file))
        for path in sorted(p for p in paths if p):
            self.env.note_dependency(path)

    def label(self, uid: str, binding: Binding, location: object) -> nodes.Node:
        """The node's title, linked to its definition (Sphinx resolves the reference)."""
        node = binding.lookup(uid)
        if node is None:
            warn("statblock", f"node:statblock: the block names {uid!r}, which no bound registry has", location)
            return nodes.strong(uid, uid)
        ref = addnodes.pending_xref("", refdomain="node", reftype="ref", reftarget=uid, refexplicit=True,
                                    refwarn=True, refdoc=self.env.docname)
        ref += nodes.strong(node.title, node.title)
        return ref

    def stats_line(self, stats: tuple[Stat, ...], binding: Binding, location: object, kind: str) -> nodes.paragraph:
        line = nodes.paragraph(classes=["rpg-statblock-stats", f"rpg-statblock-{kind}"])
        for number, stat in enumerate(stats):
            if number:
                line += nodes.Text(SEPARATOR)
            item = nodes.inline(classes=["rpg-statblock-stat"])
            item += self.label(stat.uid, binding, location)
            value = show_value(stat.value)
            item += nodes.Text(" ")
            item += nodes.inline(value, value, classes=["rpg-statblock-value"])
            if stat.note:
                item += nodes.Text(f" {stat.note}")
            line += item
        return line

    def render(self, block: StatBlock, binding: Binding, location: object) -> nodes.container:
        box = nodes.container(classes=["rpg-statblock"])
        head = nodes.paragraph(classes=["rpg-statblock-head"])
        head += nodes.strong(block.name, block.name, classes=["rpg-statblock-name"])
        head += nodes.Text(" ")
        head += nodes.emphasis(block.kind, block.kind, classes=["rpg-statblock-kind"])
        box += head
        if block.summary:
            box += nodes.paragraph(block.summary, block.summary, classes=["rpg-statblock-summary"])
        for kind, stats in (("base", block.base), ("derived", block.derived)):
            if stats:
                box += self.stats_line(stats, binding, location, kind)
        if block.attack is not None:
            attack = block.attack
            line = nodes.paragraph(classes=["rpg-statblock-attack"])
            line += self.label(attack.uid, binding, location)
            line += nodes.Text(f" {attack.name}: {attack.roll}. ")
            odds = attack_line(attack, "exact" in self.options)
            line += nodes.inline(odds, odds, classes=["rpg-statblock-odds"])
            box += line
        return box


def setup(app: Sphinx) -> None:
    app.add_directive_to_domain("node", "statblock", NodeStatBlock)
