"""``node:table`` and ``node:odds``: tables whose every number is computed by the engine at build time."""

from __future__ import annotations

import importlib
import re
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util.docutils import SphinxDirective
from sphinx.util.typing import OptionSpec

from rules import odds
from rules.tables import Table, percent
from sphinx_rpg.binding import binding_for
from sphinx_rpg.charts import CHART_KINDS, chart_svg, matplotlib_available
from sphinx_rpg.warnings import warn

_ARG = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*([^,]+?)\s*(?:,|$)")
_CALLABLE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*:[A-Za-z_][A-Za-z0-9_]*")
_RANGE = re.compile(r"\s*(-?\d+)\s*(?:(?:-|\.\.)\s*(-?\d+)\s*)?$")
MAX_TABLE_ROWS = 1000


class TableArgumentError(ValueError):
    pass


def parse_arguments(text: str) -> dict[str, Any]:
    """``dice=10, lid=off, exact=true, p=1/2`` -> keyword arguments; literals only, nothing evaluated."""
    arguments: dict[str, Any] = {}
    position = 0
    text = text.strip()
    while position < len(text):
        match = _ARG.match(text, position)
        if not match:
            raise TableArgumentError(f"cannot read arguments from column {position + 1} of {text!r} "
                                     "(expected name=value, name=value)")
        name, raw = match.groups()
        arguments[name] = _literal(raw)
        position = match.end()
    return arguments


def _literal(raw: str) -> Any:
    lowered = raw.lower()
    if lowered in ("true", "yes"):
        return True
    if lowered in ("false", "no"):
        return False
    if lowered == "none":
        return None
    if re.fullmatch(r"-?\d+", raw):
        return int(raw)
    if re.fullmatch(r"-?\d+/\d+", raw):
        return Fraction(raw)
    return raw.strip("\"'")


def parse_range(text: str) -> range:
    """``1-12`` or ``1..12`` or ``7`` -> a range (bounded, so no input can hang the build)."""
    match = _RANGE.match(text)
    if not match:
        raise TableArgumentError(f"{text!r} is not a range such as 1-12")
    low = int(match.group(1))
    high = int(match.group(2) or low)
    if high < low:
        raise TableArgumentError(f"the range {text!r} runs backwards")
    if high - low + 1 > MAX_TABLE_ROWS:
        raise TableArgumentError(f"the range {text!r} has more than {MAX_TABLE_ROWS} rows")
    return range(low, high + 1)


def render_cell(value: object, probability: bool, exact: bool) -> str:
    if probability and isinstance(value, (Fraction, int)) and not isinstance(value, bool):
        fraction = Fraction(value)
        if exact and fraction.denominator != 1:
            return f"{percent(fraction)} ({fraction.numerator}/{fraction.denominator})"
        return percent(fraction)
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    return "" if value is None else str(value)


def table_nodes(table: Table, *, caption: str = "", exact: bool = False) -> nodes.table:
    node = nodes.table(classes=["rpg-computed"])
    title = caption or table.title
    if title:
        node += nodes.title(title, title)
    group = nodes.tgroup(cols=len(table.columns))
    node += group
    for _ in table.columns:
        group += nodes.colspec(colwidth=1)
    head = nodes.thead()
    head += nodes.row("", *(nodes.entry("", nodes.paragraph(c, c)) for c in table.columns))
    body = nodes.tbody()
    for row in table.rows:
        entries = []
        for column, value in zip(table.columns, row):
            text = render_cell(value, table.is_probability(column), exact)
            content = nodes.literal(text, text) if table.is_code(column) and text else nodes.Text(text)
            entries.append(nodes.entry("", nodes.paragraph("", "", content),
                                       classes=["rpg-num"] if _is_number(value) else []))
        body += nodes.row("", *entries)
    group += head
    group += body
    return node


def _is_number(value: object) -> bool:
    return isinstance(value, (int, Fraction)) and not isinstance(value, bool)


class _ComputedTable(SphinxDirective):
    option_spec: ClassVar[OptionSpec] = {
        "caption": directives.unchanged,
        "exact": directives.flag,
        "chart": lambda value: directives.choice(value or "line", CHART_KINDS),
        "name": directives.unchanged,
    }

    def compute(self) -> object:
        """The table to render; ``run`` checks that it is a :class:`~rules.tables.Table`."""
        raise NotImplementedError

    def run(self) -> list[nodes.Node]:
        try:
            table = self.compute()
        except Exception as error:  # an engine error must be a located warning, not a traceback
            warn("table", f"{self.name}: cannot compute {self.arguments[0] if self.arguments else ''!r}: "
                          f"{type(error).__name__}: {error}", self.get_location())
            return []
        if not isinstance(table, Table):
            warn("table", f"{self.name}: {self.arguments[0]!r} returned {type(table).__name__}, "
                          "not a rules.tables.Table", self.get_location())
            return []
        node = table_nodes(table, caption=self.options.get("caption", ""), exact="exact" in self.options)
        self.set_source_info(node)
        self.add_name(node)
        result: list[nodes.Node] = [node]
        if "chart" in self.options and self.config.rpg_charts:
            chart = self.chart(table)
            if chart is not None:
                result.insert(0, chart)
        return result

    def chart(self, table: Table) -> nodes.container | None:
        """The chart above the table; a located warning (and the table alone) when none can be drawn."""
        if not matplotlib_available():
            warn("chart", f"{self.name}: :chart: needs matplotlib, which is not installed "
                          "(pip install 'sphinx-rpg[chart]', or set rpg_charts = False); the table is shown "
                          "without its chart", self.get_location())
            return None
        svg = chart_svg(table, self.options["chart"])
        if svg is None:
            warn("chart", f"{self.name}: cannot chart {table.title or self.arguments[0]!r}: it needs a numeric "
                          "first column and a probability column; the table is shown without its chart",
                 self.get_location())
            return None
        chart = nodes.container(classes=["rpg-chart"])
        chart += nodes.raw("", svg, format="html")
        return chart


class NodeTable(_ComputedTable):
    """``.. node:table:: rules.heimr.dice:challenge_table`` with ``:args: consistency=3``."""

    required_arguments = 1
    option_spec: ClassVar[OptionSpec] = {**_ComputedTable.option_spec, "args": directives.unchanged}

    def allowed_prefixes(self) -> tuple[str, ...]:
        configured = self.config.rpg_table_modules
        if configured is not None:
            return tuple(configured)
        return binding_for(self.config).packages()

    def compute(self) -> object:  # whatever the named function returns
        target = self.arguments[0].strip()
        if not _CALLABLE.fullmatch(target):
            raise TableArgumentError(f"{target!r} is not of the form 'package.module:function'")
        module_name, _, function_name = target.partition(":")
        allowed = self.allowed_prefixes()
        if not any(module_name == p or module_name.startswith(p + ".") for p in allowed):
            raise TableArgumentError(f"module {module_name!r} is not in rpg_table_modules "
                                     f"({', '.join(allowed) or 'none configured'})")
        module = importlib.import_module(module_name)
        function = getattr(module, function_name, None)
        if not callable(function):
            raise TableArgumentError(f"{module_name!r} has no function {function_name!r}")
        source = getattr(sys.modules.get(module_name), "__file__", None)
        if source:
            self.env.note_dependency(str(Path(source)))
        return function(**parse_arguments(self.options.get("args", "")))


class NodeOdds(_ComputedTable):
    """``.. node:odds:: 3d6`` with ``:dc: 1-12``, ``:under: 3-18`` or neither; ``:system:`` pools."""

    required_arguments = 1
    final_argument_whitespace = True
    option_spec: ClassVar[OptionSpec] = {**_ComputedTable.option_spec, "dc": directives.unchanged_required,
                   "under": directives.unchanged_required, "system": directives.unchanged_required}

    def pool(self) -> Any:
        text = self.arguments[0].strip()
        system = self.options.get("system")
        if system:
            registry = binding_for(self.config).registry(system)
            if registry is None:
                raise TableArgumentError(f"no configured registry for system {system!r}")
            if registry.notation is None:
                raise TableArgumentError(f"system {system!r} registers no notation of its own")
            source = getattr(sys.modules.get(getattr(registry.notation.parse, "__module__", "")), "__file__", None)
            if source:
                self.env.note_dependency(str(source))
            return registry.notation.parse(text)
        from rules.dice import parse

        return parse(text)

    def compute(self) -> Table:
        if "dc" in self.options and "under" in self.options:
            raise TableArgumentError("give either :dc: or :under:, not both")
        pool = self.pool()
        caption = self.arguments[0].strip()
        if "dc" in self.options:
            return odds.at_least_table(pool, parse_range(self.options["dc"]), caption)
        if "under" in self.options:
            return odds.at_most_table(pool, parse_range(self.options["under"]), caption)
        dist = pool.dist() if hasattr(pool, "dist") and not hasattr(pool, "p_ge") else pool
        if len(dist) > MAX_TABLE_ROWS:  # a page cannot render 15,000 rows in any sensible time
            raise TableArgumentError(f"{caption} has {len(dist):,} results, more than {MAX_TABLE_ROWS} rows: "
                                     f"give :dc: or :under: with a range")
        return odds.distribution_table(dist, caption)
