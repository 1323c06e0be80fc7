"""``node:sheet``: a system's character sheet laid out from its registry, live in HTML, blank on paper.

The designer picks the fields with the listing filter language: ``:inputs:`` are the values a player
writes down (attributes, skills), ``:derived:`` the nodes whose engine formula computes a value from
them.  A formula name is matched to a node as ``rules.graph`` does; a name that is no field of the
sheet becomes a *parameter* field the player fills in too (``highest_fighting``).  Bounds come from
``Node.ranks``.  ``:budgets:`` selects points budgets (:mod:`rules.budgets`): each counts the points
the sheet's values spend with its formula, against the total the rules give.

The sheet is plain data (:class:`Sheet`, JSON-ready: each formula as the engine's parsed tree), made
when the page is read.  In HTML it is written into the page for ``static/sheet.js``, which evaluates
the trees with exact rational arithmetic as the reader types; every other builder gets the same
fields as a table with an empty column to fill in by hand.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from html import escape
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.docutils import SphinxDirective
from sphinx.util.typing import OptionSpec

from rules.budgets import CAP, Budget, BudgetError, budget_message, budget_of
from rules.formula import Formula, Number
from rules.graph import name_index, resolve_name
from rules.nodes import Node, Registry
from sphinx_rpg.binding import registry_option
from sphinx_rpg.directives.cells import fit_column_widths
from sphinx_rpg.domain import node_domain
from sphinx_rpg.filters import FilterError, parse_filter
from sphinx_rpg.formula import Name, formula_node, spoken
from sphinx_rpg.output_format import writes_html
from sphinx_rpg.pagescan import holds
from sphinx_rpg.typeset import minus_signs
from sphinx_rpg.warnings import warn

#: Version of the sheet data written into pages (and read by sheet.js).
SHEET_VERSION = 3
GROUPINGS = ("type", "none")


@dataclass(frozen=True)
class SheetField:
    """One box of the sheet.  ``key`` is the node uid, or ``$name`` for a parameter that is no node."""

    key: str
    label: str
    kind: str  # "input", "parameter" or "derived"
    group: str
    uid: str | None = None
    minimum: int | None = None
    maximum: int | None = None
    formula: str | None = None
    #: formula name -> key of the field that supplies it (derived fields only)
    variables: Mapping[str, str] = field(default_factory=dict)
    #: the value a new sheet starts with: the node's ``start`` value when it has a whole one in bounds
    start: int | None = None

    def data(self, node: Node | None) -> dict[str, Any]:
        found: dict[str, Any] = {"key": self.key, "label": self.label, "kind": self.kind, "group": self.group,
                                 "uid": self.uid, "min": self.minimum, "max": self.maximum}
        if self.start is not None:
            found["start"] = self.start
        if self.formula is not None and node is not None and node.formula is not None:
            found.update(formula=self.formula, tree=node.formula.tree(), variables=dict(self.variables))
        return found


@dataclass(frozen=True)
class SheetBudget:
    """A points budget of the sheet: its node, the total, the totals a table may pick, and its wiring."""

    uid: str
    label: str
    budget: Budget
    formula: str
    #: formula name -> key of the field that supplies it
    variables: Mapping[str, str]

    def data(self, node: Node) -> dict[str, Any]:
        assert node.formula is not None
        return {"uid": self.uid, "label": self.label, "total": self.budget.total,
                "choices": list(self.budget.choices), "unit": self.budget.unit, "kind": self.budget.kind,
                "formula": self.formula,
                "tree": node.formula.tree(), "variables": dict(self.variables)}


@dataclass(frozen=True)
class Sheet:
    """The fields of one sheet, derived ones in an order where each follows every field it reads."""

    system: str
    fields: tuple[SheetField, ...]
    problems: tuple[str, ...] = ()
    budgets: tuple[SheetBudget, ...] = ()

    def field(self, key: str) -> SheetField:
        return next(f for f in self.fields if f.key == key)

    def data(self, registry: Registry) -> dict[str, Any]:
        return {"version": SHEET_VERSION, "system": self.system,
                "fields": [f.data(registry.get(f.uid) if f.uid else None) for f in self.fields],
                "budgets": [b.data(registry[b.uid]) for b in self.budgets]}


def _record(node: Node, registry: Registry) -> dict[str, object]:
    """A registry node as the filter language sees it (``docname`` is empty: the page is not known yet)."""
    return {"uid": node.uid, "name": node.name, "type": node.types,
            "type_name": tuple(registry.node_types.get(code, code) for code in node.types),
            "namespace": node.namespace, "docname": "", "summary": node.summary, "bound": "yes"}


def _bounds(node: Node | None) -> tuple[int | None, int | None]:
    if node is None or node.ranks is None:
        return None, None
    return node.ranks.minimum, node.ranks.maximum


def _start(node: Node | None) -> int | None:
    """A node's ``start`` value (SPURG's scores start at 10), when it is a whole number within its ranks."""
    value = node.values.get("start") if node is not None else None
    if not isinstance(value, int) or isinstance(value, bool):
        return None
    low, high = _bounds(node)
    return value if (low is None or value >= low) and (high is None or value <= high) else None


def _group(node: Node, registry: Registry, group_by: str, default: str) -> str:
    if group_by == "type":
        return registry.node_types.get(node.types[0], node.types[0])
    return default


def build_sheet(registry: Registry, inputs: str, derived: str, group_by: str = "none", budgets: str = "") -> Sheet:
    """The sheet of ``registry``: the nodes ``inputs`` selects, then every formula ``derived`` selects.

    Raises ``FilterError`` for a filter that does not parse.  Of the nodes ``derived`` matches, those
    with a formula are kept.  ``budgets`` selects points budgets.  ``problems`` lists what the page
    should warn about (formulas that read each other in a circle, budgets that are none or read values
    the sheet lacks).
    """
    choose_inputs, choose_derived = parse_filter(inputs), parse_filter(derived)
    members = list(registry)
    records = {node.uid: _record(node, registry) for node in members}
    input_nodes = [node for node in members if inputs.strip() and choose_inputs(records[node.uid])]
    input_uids = {node.uid for node in input_nodes}
    problems: list[str] = []
    derived_nodes: list[Node] = []
    for node in members:
        if not derived.strip() or node.uid in input_uids or not choose_derived(records[node.uid]):
            continue
        if node.formula is not None:  # a matching node without formula has nothing to compute
            derived_nodes.append(node)
    index = name_index(members)
    derived_uids = {node.uid for node in derived_nodes}
    fields: list[SheetField] = []
    for node in input_nodes:
        low, high = _bounds(node)
        fields.append(SheetField(node.uid, node.name, "input", _group(node, registry, group_by, "Base values"),
                                 node.uid, low, high, start=_start(node)))
    parameters: dict[str, SheetField] = {}
    wiring: dict[str, dict[str, str]] = {}
    for node in derived_nodes:
        assert node.formula is not None
        variables: dict[str, str] = {}
        for name in node.formula.names:
            uid = resolve_name(index, name, node.uid)
            if uid is not None and (uid in input_uids or uid in derived_uids):
                variables[name] = uid
                continue
            key = uid if uid is not None else f"${name}"
            variables[name] = key
            if key not in parameters:
                target = registry.get(uid) if uid else None
                low, high = _bounds(target)
                label = target.name if target else spoken(name)
                parameters[key] = SheetField(key, label, "parameter", "Parameters", uid, low, high,
                                             start=_start(target))
        wiring[node.uid] = variables
    fields.extend(parameters.values())
    fields.extend(_ordered_derived(derived_nodes, wiring, registry, group_by, problems))
    chosen = _budgets(registry, budgets, records, index, {f.key for f in fields}, problems)
    return Sheet(registry.system, tuple(fields), tuple(problems), chosen)


def _budgets(registry: Registry, text: str, records: Mapping[str, dict[str, object]],
             index: Mapping[str, frozenset[str]], keys: set[str], problems: list[str]) -> tuple[SheetBudget, ...]:
    """The budgets ``text`` selects; each must be a budget node whose formula reads only sheet fields."""
    if not text.strip():
        return ()
    choose = parse_filter(text)
    found: list[SheetBudget] = []
    for node in registry:
        if not choose(records[node.uid]):
            continue
        try:
            budget = budget_of(node)
        except BudgetError as error:
            problems.append(f"{error}: left off")
            continue
        if budget is None or node.formula is None:
            problems.append(f"{node.uid} is no points budget (it needs a formula and a 'budget' value): left off")
            continue
        variables: dict[str, str] = {}
        for name in node.formula.names:
            uid = resolve_name(index, name, node.uid)
            if uid is None or uid not in keys:
                problems.append(f"{node.uid}: its formula reads {name!r}, which is no field of the sheet: left off")
                break
            variables[name] = uid
        else:
            found.append(SheetBudget(node.uid, node.name, budget, str(node.formula), variables))
    if not found and not problems:
        problems.append("the :budgets: filter selects no node")
    return tuple(found)


def _ordered_derived(derived: list[Node], wiring: dict[str, dict[str, str]], registry: Registry, group_by: str,
                     problems: list[str]) -> list[SheetField]:
    """Derived fields, each after the derived fields it reads; formulas in a circle are left off."""
    pending = {node.uid: node for node in derived}
    placed: list[SheetField] = []
    done: set[str] = set()
    progress = True
    while pending and progress:
        progress = False
        for uid, node in list(pending.items()):
            if any(key in pending for key in wiring[uid].values()):
                continue
            assert node.formula is not None
            placed.append(SheetField(uid, node.name, "derived", _group(node, registry, group_by, "Derived values"),
                                     uid, formula=str(node.formula), variables=wiring[uid]))
            done.add(uid)
            del pending[uid]
            progress = True
    for uid in pending:
        problems.append(f"{uid}: its formula reads itself in a circle through other derived values: left off")
    return placed


def evaluate_sheet(sheet: Sheet, registry: Registry, values: Mapping[str, int]) -> dict[str, Number]:
    """Every derived value for the given input and parameter values (by field key), by the engine."""
    known: dict[str, Number] = dict(values)
    for item in sheet.fields:
        if item.kind != "derived" or item.uid is None:
            continue
        formula = registry[item.uid].formula
        assert isinstance(formula, Formula)
        known[item.key] = formula.evaluate({name: known[key] for name, key in item.variables.items()})
    return {f.key: known[f.key] for f in sheet.fields if f.kind == "derived"}


def budget_messages(sheet: Sheet, registry: Registry, values: Mapping[str, int],
                    totals: Mapping[str, int] | None = None) -> dict[str, str]:
    """Each budget's line for the given values (``"7 of 10 points spent"``), by the engine; sheet.js says the same."""
    known: dict[str, Number] = {**values, **evaluate_sheet(sheet, registry, values)}
    messages: dict[str, str] = {}
    for item in sheet.budgets:
        formula = registry[item.uid].formula
        assert isinstance(formula, Formula)
        spent = formula.evaluate({name: known[key] for name, key in item.variables.items()})
        total = (totals or {}).get(item.uid, item.budget.total)
        messages[item.uid] = budget_message(item.budget, spent, total)
    return messages


def show_number(value: Number) -> str:
    """How the sheet prints a value: ``7``, ``-3`` or ``7/2`` (sheet.js prints the same)."""
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


# -- the directive --------------------------------------------------------------------------------------
class node_sheet(nodes.General, nodes.Element):
    """Placeholder: the sheet's data as JSON text (picklable), laid out once the builder is known."""


class NodeSheet(SphinxDirective):
    """``.. node:sheet::`` with ``:system:``, ``:inputs:``, ``:derived:``, ``:group-by:`` and ``:caption:``."""

    has_content = False
    option_spec: ClassVar[OptionSpec] = {
        "system": directives.unchanged_required,
        "inputs": directives.unchanged,
        "derived": directives.unchanged,
        "group-by": lambda value: directives.choice(value, GROUPINGS),
        "budgets": directives.unchanged,
        "caption": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        location = self.get_location()
        system = self.options.get("system", "").strip()
        registry = registry_option(self.config, "node:sheet", system, location)
        if registry is None:
            return []
        try:
            sheet = build_sheet(registry, self.options.get("inputs", ""), self.options.get("derived", ""),
                                self.options.get("group-by", "none"), self.options.get("budgets", ""))
        except FilterError as error:
            warn("filter", f"node:sheet: {error}", location)
            return []
        for problem in sheet.problems:
            warn("option", f"node:sheet: {problem}", location)
        if not sheet.fields:
            warn("option", "node:sheet: the :inputs: and :derived: filters select no node", location)
            return []
        for uid in [item.uid for item in sheet.fields] + [item.uid for item in sheet.budgets]:
            node = registry.get(uid) if uid else None
            if node is not None and node.source_file is not None:  # the sheet shows its formula and values
                self.env.note_dependency(str(node.source_file))
        data = json.dumps(sheet.data(registry), sort_keys=True)
        caption = self.options.get("caption", "")
        placeholder = node_sheet(data=data, caption=caption)
        self.set_source_info(placeholder)
        node_domain(self.env).note_sheet(self.env.docname, caption, data)
        return [placeholder]


def _script(data: str) -> str:
    """The data as a JSON script element; ``<`` escaped so no text can close the element early."""
    return ('<script type="application/json" class="rpg-sheet-data">'
            + data.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026") + "</script>")


CONTROLS = ('<div class="rpg-sheet-controls" role="group" aria-label="Sheet">'
            '<button type="button" data-action="save">Save as JSON</button>'
            '<label class="rpg-sheet-load">Load JSON <input type="file" accept="application/json,.json" '
            'data-action="load"></label>'
            '<button type="button" data-action="share">Share link</button>'
            '<button type="button" data-action="reset">Reset</button>'
            '<output class="rpg-sheet-status" role="status"></output></div>')


class SheetResolver(SphinxPostTransform):
    """Lay the sheet out: number inputs and output cells in HTML, a blank table elsewhere.

    Runs before Sphinx's reference resolver, which then turns each label's ``pending_xref`` into a link.
    """

    default_priority = 5

    def run(self, **kwargs: Any) -> None:
        if not holds(self.document, node_sheet):
            return
        html = writes_html(self.document)
        for number, placeholder in enumerate(list(self.document.findall(node_sheet))):
            data = json.loads(placeholder["data"])
            prefix = f"rpg-sheet-{number}"
            box = nodes.container(classes=["rpg-sheet"], ids=[prefix] if html else [])
            if placeholder["caption"]:
                box += nodes.rubric(placeholder["caption"], placeholder["caption"])
            if html:
                box += nodes.raw("", _script(placeholder["data"]) + CONTROLS, format="html")
            if data.get("budgets"):
                box += self.budgets(data["budgets"], prefix, html, data["fields"])
            for group, items in _groups(data["fields"]):
                box += self.table(group, items, prefix, html, data["fields"])
            placeholder.replace_self(box)

    def budgets(self, budgets: list[Mapping[str, Any]], prefix: str, html: bool,
                fields: list[Mapping[str, Any]]) -> nodes.container:
        """One line per budget: live in HTML (a count, and a menu when the table may pick the total)."""
        box = nodes.container(classes=["rpg-sheet-budgets"])
        for number, item in enumerate(budgets):
            line = nodes.paragraph(classes=["rpg-sheet-budget-line"])
            line += self.label(item).children
            line += nodes.Text(": ")
            if html:
                line += nodes.raw("", _budget_cell(item, f"{prefix}-budget-{number}"), format="html")
            else:
                totals = " / ".join(str(c) for c in item["choices"])
                blank = (f"____ (at most {totals})" if item.get("kind") == CAP
                         else f"____ of {totals} {item['unit']} spent")
                line += nodes.Text(f"{blank} (= ")
                line += sheet_formula(item, fields)
                line += nodes.Text(")")
            box += line
        return box

    def label(self, item: Mapping[str, Any]) -> nodes.Node:
        uid = item.get("uid")
        text = item["label"]
        if uid and node_domain(self.env).record(uid) is not None:
            ref = addnodes.pending_xref("", refdomain="node", reftype="ref", reftarget=uid, refexplicit=True,
                                        refwarn=True, refdoc=self.env.docname)
            ref += nodes.inline(text, text)
            return nodes.paragraph("", "", ref)
        return nodes.paragraph(text, text)

    def table(self, group: str, items: list[Mapping[str, Any]], prefix: str, html: bool,
              fields: list[Mapping[str, Any]]) -> nodes.table:
        table = nodes.table(classes=["rpg-sheet-table"])
        table += nodes.title(group, group)
        self.document.set_id(table)
        tgroup = nodes.tgroup(cols=3)
        table += tgroup
        for width in (3, 2, 3):
            tgroup += nodes.colspec(colwidth=width)
        head = nodes.thead()
        head += nodes.row("", *(nodes.entry("", nodes.paragraph(t, t)) for t in ("Field", "Value", "Rule")))
        body = nodes.tbody()
        for item in items:
            # paper: an empty box to write in (LaTeX draws it; other builders leave the cell blank)
            value: nodes.Node = nodes.paragraph("", "", nodes.raw("", BLANK_BOX, format="latex"))
            if html:
                value = nodes.raw("", _cell(item, prefix), format="html")
            body += nodes.row("", nodes.entry("", self.label(item)), nodes.entry("", value),
                              nodes.entry("", _rule(item, fields)), classes=[f"rpg-sheet-{item['kind']}"])
        tgroup += head
        tgroup += body
        fit_column_widths(tgroup)
        return table


#: The box a printed sheet leaves for each value (LaTeX).
BLANK_BOX = r"\fbox{\rule{0pt}{1.2em}\hspace{3.2em}}"


def _groups(items: Iterable[Mapping[str, Any]]) -> list[tuple[str, list[Mapping[str, Any]]]]:
    order: dict[str, list[Mapping[str, Any]]] = {}
    for item in items:
        order.setdefault(item["group"], []).append(item)
    return list(order.items())


def sheet_formula(item: Mapping[str, Any], fields: Iterable[Mapping[str, Any]]) -> nodes.inline:
    """A derived field's or budget's formula as the book sets it, each name read as its field's label."""
    labels = {field["key"]: field["label"] for field in fields}
    names = {name: Name(labels[key]) for name, key in item.get("variables", {}).items() if key in labels}
    return formula_node(Formula(item["formula"]), names)


def _rule(item: Mapping[str, Any], fields: Iterable[Mapping[str, Any]]) -> nodes.paragraph:
    """The Rule cell: "= Agility × 2" for a derived value (typeset, never the engine's ``*``), else the bounds."""
    if item["kind"] == "derived":
        return nodes.paragraph("", "", nodes.Text("= "), sheet_formula(item, fields))
    low, high = item["min"], item["max"]
    bounds = "any whole number" if low is None and high is None else (
        f"{low} or more" if high is None else f"up to {high}" if low is None else f"{low}\N{EN DASH}{high}")
    text = minus_signs(f"parameter: {bounds}" if item["kind"] == "parameter" else bounds)
    return nodes.paragraph(text, text)


def _budget_cell(item: Mapping[str, Any], ident: str) -> str:
    uid = escape(item["uid"], quote=True)
    choices = item["choices"]
    menu = ""
    if len(choices) > 1:
        options = "".join(f'<option value="{c}"{" selected" if c == item["total"] else ""}>{c}</option>'
                          for c in choices)
        words = "the table allows" if item.get("kind") == CAP else "out of"
        menu = (f' <label class="rpg-sheet-budget-choice">{words} <select data-budget="{uid}" '
                f'aria-label="{escape(item["label"], quote=True)}: total">{options}</select></label>')
    return (f'<output class="rpg-sheet-budget" id="{ident}" data-budget="{uid}" role="status" aria-live="polite">'
            "\N{EM DASH}</output>" + menu)


def _cell(item: Mapping[str, Any], prefix: str) -> str:
    key = escape(item["key"], quote=True)
    ident = f"{prefix}-" + re.sub(r"[^A-Za-z0-9_-]", "-", item["key"])
    if item["kind"] == "derived":
        # announced with its name ("Health: 12"), not as a bare number: the name is read, not shown
        name = escape(item["label"])
        return (f'<output class="rpg-sheet-value" id="{ident}" data-key="{key}" aria-live="polite" aria-atomic="true">'
                f'<span class="rpg-visually-hidden">{name}: </span><span class="rpg-sheet-number">'
                "\N{EM DASH}</span></output>")
    limits = "".join(f' {name}="{item[name]}"' for name in ("min", "max") if item[name] is not None)
    label = escape(item["label"], quote=True)
    return (f'<input type="number" class="rpg-sheet-input" id="{ident}" data-key="{key}" step="1" '
            f'inputmode="numeric" aria-label="{label}" aria-describedby="{ident}-message"{limits}>'
            f'<span class="rpg-sheet-message" id="{ident}-message" role="alert"></span>')


def add_sheet_script(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any],
                     doctree: nodes.document | None) -> None:
    """Only pages with a sheet load sheet.js (and are marked for the print stylesheet)."""
    # the domain knows which pages hold a sheet: no walk over every page's whole doctree
    if doctree is not None and pagename in app.env.get_domain("node").data.get("sheets", {}):
        app.add_js_file("address.js", loading_method="defer")
        app.add_js_file("sheet.js", defer="defer")


def setup(app: Sphinx) -> None:
    """``node:sheet``: a character sheet, and the script that fills it in the browser."""
    app.add_directive_to_domain("node", "sheet", NodeSheet)
    app.add_node(node_sheet)
    app.add_post_transform(SheetResolver)
    app.connect("html-page-context", add_sheet_script)
