"""``:vary:`` on ``node:odds`` and ``node:table``: every combination computed at build time, as page data.

The page shows the default combination as an ordinary table (all that print, LaTeX and a reader
without JavaScript get), hidden controls, and a JSON script element holding every other combination;
``static/odds.js`` reveals the controls and swaps the table (and chart) in place.  The data lives in
the page's own doctree, so an incremental build rewrites it with the page and with nothing else.
Identical tables (two combinations that fill every text the same way) are computed and written once.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping, Sequence
from typing import Any

from docutils import nodes

from rules.dice.errors import MAX_WORK
from rules.tables import Table
from rules.variations import (
    Parameter,
    Value,
    VaryError,
    combination_count,
    combinations,
    default_values,
    parse_vary,
    placeholders,
    substitute,
)
from sphinx_rpg.boundary import EngineFailure, call_engine
from sphinx_rpg.charts import chart_data, chart_description
from sphinx_rpg.directives.cells import ComputedTable, Fill, TableArgumentError, _is_number, render_cell
from sphinx_rpg.warnings import warn

#: The configuration value bounding the combinations of one table (and its default).
LIMIT_SETTING = "rpg_odds_max_combinations"


def filler(values: Mapping[str, Value]) -> Fill:
    """The ``fill`` of one combination: substitutes its values into a text the page wrote."""
    return lambda text: substitute(text, values)


def describe(values: Mapping[str, Value]) -> str:
    return ", ".join(f"{name}={value}" for name, value in values.items())


def _shown(value: Value, parameter: Parameter) -> str:
    """A control's option text: numbers signed when the parameter can go below zero."""
    if isinstance(value, int) and any(isinstance(v, int) and v < 0 for v in parameter.values):
        return f"{value:+d}"
    return str(value)


def table_data(table: Table, caption: str, exact: bool, chart: bool) -> dict[str, Any]:
    """One table as the page's script reads it: cell texts as the static table prints them, and for
    a chart what :func:`sphinx_rpg.charts.chart_data` gives and the chart's text alternative."""
    columns = list(table.columns)
    data: dict[str, Any] = {
        "caption": caption or table.title,
        "columns": columns,
        "code": [table.is_code(c) for c in columns],
        "numeric": [any(_is_number(row[i]) for row in table.rows) for i in range(len(columns))],
        "rows": [[render_cell(v, table.is_probability(c), exact) for c, v in zip(columns, row)] for row in table.rows],
    }
    if chart:  # what the build's chart is drawn from, so the script draws the same picture
        data.update(chart_data(table).as_json(), description=chart_description(table))
    return data


def controls_html(target: str, parameters: Sequence[Parameter]) -> str:
    """Hidden until the script runs: a reader without JavaScript sees only the default table."""
    fields = []
    for number, parameter in enumerate(parameters):
        options = "".join(
            f'<option value="{index}"{" selected" if value == parameter.default else ""}>'
            f"{html.escape(_shown(value, parameter))}</option>"
            for index, value in enumerate(parameter.values))
        fields.append(f'<label class="rpg-odds-field"><span class="rpg-odds-label">{html.escape(parameter.label)}'
                      f'</span> <select name="{html.escape(parameter.name)}" data-param="{number}">{options}'
                      "</select></label>")
    # the live region says which table is shown after each change (the swap itself is silent)
    return (f'<form class="rpg-odds-controls" hidden aria-label="Vary this table" aria-controls="{target}">'
            + "".join(fields) + '</form><p class="rpg-odds-announce rpg-visually-hidden" aria-live="polite"></p>')


def print_note(parameters: Sequence[Parameter]) -> nodes.paragraph:
    """The line paper gets instead of the controls: which table is printed and where the others are."""
    chosen = " and ".join(f"{p.label} {_shown(p.default, p)}" for p in parameters)
    others = "; ".join(f"{p.label}: {', '.join(_shown(v, p) for v in p.values)}" for p in parameters)
    text = (f"Printed here: the table for {chosen}. The web edition of this page shows it for every other "
            f"choice ({others}).")
    return nodes.paragraph(text, text, classes=["rpg-print-only", "rpg-vary-print"])


def data_html(data: Mapping[str, Any]) -> str:
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    # nothing in the data can close the script element or open a comment
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return f'<script type="application/json" class="rpg-odds-data">{text}</script>'


def _static_default(directive: ComputedTable, values: Mapping[str, Value]) -> list[nodes.Node]:
    """The default combination alone, as a plain computed table (after a warning said why)."""
    fill = filler(values)
    try:
        table = directive.checked_table(fill)
        caption = fill(directive.options.get("caption", ""))
    except (EngineFailure, TableArgumentError, VaryError) as failure:
        directive.warn_failure(failure, f" with {describe(values)}")
        return []
    return directive.render(table, caption)


def _same_texts(values: Mapping[str, Value], other: Mapping[str, Value], templates: Sequence[str]) -> bool:
    """Whether two combinations ask for the same table (then one warning about it is enough)."""
    return all(substitute(t, values) == substitute(t, other) for t in templates)


def _position(values: Mapping[str, Value], parameters: Sequence[Parameter]) -> int:
    """Where a combination sits in the order of :func:`rules.variations.combinations`."""
    position = 0
    for parameter in parameters:
        position = position * len(parameter.values) + parameter.values.index(values[parameter.name])
    return position


def run_varied(directive: ComputedTable) -> list[nodes.Node]:
    """Parse ``:vary:``, compute every combination within the bounds, render the default and the data."""
    name = directive.name
    try:
        parameters = parse_vary(directive.options["vary"])
        default = default_values(parameters)
        for template in directive.templates():  # a typo in a placeholder is one warning, not one per combination
            substitute(template, default)
    except VaryError as error:
        warn("option", f"{name}: :vary: {error}", directive.get_location())
        return []
    used = set().union(*(placeholders(t) for t in directive.templates()))
    unused = [p.name for p in parameters if p.name not in used]
    if unused:
        warn("option", f"{name}: :vary: no text uses {', '.join(unused)} (write {{{unused[0]}}} where its value goes)",
             directive.get_location())
    count = combination_count(parameters)
    limit = directive.config[LIMIT_SETTING]
    if count > limit:
        warn("table", f"{name}: :vary: gives {count:,} combinations, more than {LIMIT_SETTING} = {limit}; only "
                      f"the default ({describe(default)}) is shown", directive.get_location())
        return _static_default(directive, default)
    chart = "chart" in directive.options and bool(directive.config.rpg_charts)
    exact = "exact" in directive.options
    templates = directive.templates()
    keys: dict[tuple[str, ...], int] = {}  # the filled texts of each distinct table -> its number
    first: list[dict[str, Value]] = []  # the first combination giving each distinct table
    index: list[int] = []
    work = 0
    try:
        for values in combinations(parameters):
            fill = filler(values)
            key = tuple(fill(t) for t in templates)
            if key not in keys:
                keys[key] = len(keys)
                first.append(values)
                work += call_engine(directive.estimate, fill)
            index.append(keys[key])
    except (EngineFailure, VaryError) as failure:
        directive.warn_failure(failure, f" with {describe(values)}")
        return [] if _same_texts(values, default, templates) else _static_default(directive, default)
    if work > MAX_WORK:
        warn("table", f"{name}: :vary: the {len(keys):,} tables need about {work:,} work units together, more "
                      f"than the limit of {MAX_WORK:,}; only the default ({describe(default)}) is shown",
             directive.get_location())
        return _static_default(directive, default)
    computed: list[Table] = []
    tables: list[dict[str, Any]] = []
    for values in first:
        fill = filler(values)
        try:
            table = directive.checked_table(fill)
        except (EngineFailure, TableArgumentError) as failure:
            directive.warn_failure(failure, f" with {describe(values)}")
            return [] if _same_texts(values, default, templates) else _static_default(directive, default)
        computed.append(table)
        tables.append(table_data(table, fill(directive.options.get("caption", "")), exact, chart))
    default_table = computed[index[_position(default, parameters)]]
    target = f"rpg-odds-{directive.env.new_serialno('rpg-odds')}"
    data = {
        "params": [{"name": p.name, "values": [_shown(v, p) for v in p.values],
                    "default": p.values.index(p.default)} for p in parameters],
        "index": index,
        "tables": tables,
        "chart": directive.options["chart"] if chart else None,
    }
    box = nodes.container(classes=["rpg-odds-vary"], ids=[target])
    box += nodes.raw("", controls_html(target, parameters), format="html")
    box.extend(directive.render(default_table, filler(default)(directive.options.get("caption", ""))))
    box += print_note(parameters)
    box += nodes.raw("", data_html(data), format="html")
    directive.set_source_info(box)
    return [box]

