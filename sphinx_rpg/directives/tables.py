"""``node:table`` and ``node:odds``: tables whose every number is computed by the engine at build time."""

from __future__ import annotations

import re
import sys
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util.docutils import SphinxDirective
from sphinx.util.typing import OptionSpec

from rules import odds
from rules.dice import parse
from rules.providers import parse_argument_text
from rules.tables import Table
from sphinx_rpg.binding import binding_for
from sphinx_rpg.boundary import EngineFailure, call_engine, one_line
from sphinx_rpg.charts import CHART_KINDS, chart_svg
from sphinx_rpg.directives.cells import Fill, TableArgumentError, _is_number, _same, fit_column_widths, render_cell
from sphinx_rpg.directives.varied import run_varied
from sphinx_rpg.warnings import warn

_PUBLISHED = re.compile(r"([A-Za-z_][A-Za-z0-9_]*):([A-Za-z_][A-Za-z0-9_]*)")
_RANGE = re.compile(r"\s*(-?\d+)\s*(?:(?:-|\.\.)\s*(-?\d+)\s*)?$")
MAX_TABLE_ROWS = 1000


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
    fit_column_widths(group)
    return node


class _ComputedTable(SphinxDirective):
    option_spec: ClassVar[OptionSpec] = {
        "caption": directives.unchanged,
        "exact": directives.flag,
        "chart": lambda value: directives.choice(value or "line", CHART_KINDS),
        "name": directives.unchanged,
        "vary": directives.unchanged_required,
    }

    def compute(self, fill: Fill = _same) -> object:
        """The table to render; ``run`` checks that it is a :class:`~rules.tables.Table`.

        ``fill`` substitutes one combination of ``:vary:`` into each text the page wrote (identity
        without ``:vary:``); a subclass passes every text it reads through it.
        """
        raise NotImplementedError

    def templates(self) -> list[str]:
        """The texts ``fill`` is applied to (a ``:vary:`` parameter none of them uses is reported)."""
        return [self.options.get("caption", "")]

    def estimate(self, fill: Fill) -> int:
        """The work units one combination costs before it is computed (0 when the model cannot say)."""
        return 0

    def checked_table(self, fill: Fill = _same) -> Table:
        """One computed table, or :class:`EngineFailure` / :class:`TableArgumentError` saying why not."""
        table = call_engine(self.compute, fill)
        if not isinstance(table, Table):
            raise TableArgumentError(f"{one_line(self.arguments[0])!r} returned {type(table).__name__}, "
                                     "not a rules.tables.Table")
        if len(table.rows) > MAX_TABLE_ROWS:
            raise TableArgumentError(f"{one_line(self.arguments[0])!r} has {len(table.rows)} rows, more "
                                     f"than the {MAX_TABLE_ROWS} a page shows")
        return table

    def run(self) -> list[nodes.Node]:
        if "vary" in self.options:
            return run_varied(self)
        try:
            table = self.checked_table()
        except (EngineFailure, TableArgumentError) as failure:  # an engine error (even SystemExit) is a warning
            self.warn_failure(failure)
            return []
        return self.render(table)

    def warn_failure(self, failure: Exception, combination: str = "") -> None:
        """``combination`` (`` with skill=2, lid=off``) names the :vary: values that failed."""
        if isinstance(failure, EngineFailure):
            argument = one_line(self.arguments[0] if self.arguments else "")
            warn("table", f"{self.name}: cannot compute {argument!r}{combination}: {failure}", self.get_location())
        else:
            warn("table", f"{self.name}: {failure}{combination}", self.get_location())

    def render(self, table: Table, caption: str | None = None) -> list[nodes.Node]:
        """The table node (and its chart above it when asked for): the static page."""
        if caption is None:
            caption = self.options.get("caption", "")
        node = table_nodes(table, caption=caption, exact="exact" in self.options)
        self.set_source_info(node)
        self.add_name(node)
        result: list[nodes.Node] = [node]
        if "chart" in self.options and self.config.rpg_charts:
            chart = self.chart(table, caption)
            if chart is not None:
                result.insert(0, chart)
        return result

    def chart(self, table: Table, caption: str) -> nodes.container | None:
        """The chart above the table; a located warning (and the table alone) when none can be drawn."""
        svg = chart_svg(table, self.options["chart"], caption)
        if svg is None:
            warn("chart", f"{self.name}: cannot chart {table.title or self.arguments[0]!r}: it needs a numeric "
                          "first column and a probability column; the table is shown without its chart",
                 self.get_location())
            return None
        chart = nodes.container(classes=["rpg-chart"])
        chart += nodes.raw("", svg, format="html")
        return chart


class NodeTable(_ComputedTable):
    """``.. node:table:: heimr:success_table`` with ``:args: lowest=-2``: a table a registry publishes.

    The argument names a published table (``Registry.table``), never an importable function; the
    arguments are checked against the parameters it declares before it is called.
    """

    required_arguments = 1
    option_spec: ClassVar[OptionSpec] = {**_ComputedTable.option_spec, "args": directives.unchanged}

    def templates(self) -> list[str]:
        return [*super().templates(), self.options.get("args", "")]

    def compute(self, fill: Fill = _same) -> object:  # whatever the published function returns
        target = self.arguments[0].strip()
        binding = binding_for(self.config)
        match = _PUBLISHED.fullmatch(target)
        if not match:
            hint = (" (an import path: node:table shows only tables a registry publishes with "
                    "Registry.table)" if ":" in target else "")
            raise TableArgumentError(f"{one_line(target)!r} is not a published table name such as "
                                     f"'heimr:success_table'{hint}")
        namespace, name = match.groups()
        provider = binding.table(namespace, name)
        if provider is None:
            published = ", ".join(binding.namespaces())
            raise TableArgumentError(f"no table {name!r} is published by {namespace!r} "
                                     f"(publishers: {published})")
        for path in {_module_file(provider.module), _registry_file(binding, namespace)} - {None}:
            self.env.note_dependency(str(path))
        return provider(parse_argument_text(fill(self.options.get("args", ""))))


def _game_registry(config: Any, docname: str, system: str = "") -> Any:
    """The game a table belongs to: the ``:system:``'s registry, else the registry named like the page's
    book (its top folder: ``spurg/verdict`` is SPURG's), else None."""
    binding = binding_for(config)
    for name in (system.strip(), docname.partition("/")[0] if "/" in docname else ""):
        registry = binding.registry(name) if name else None
        if registry is not None:
            return registry
    return None


def target_name(config: Any, docname: str, system: str = "") -> str:
    """What the game calls the number to reach: its registry's ``target_name`` (:func:`_game_registry`),
    else "DC"."""
    return str(getattr(_game_registry(config, docname, system), "target_name", "DC"))


def rolls_under(config: Any, docname: str, system: str = "") -> bool:
    """Whether the game's rolls succeed low (its registry's ``rolls_under``): its tables of every result
    then give P(<= result)."""
    return getattr(_game_registry(config, docname, system), "rolls_under", False) is True


#: ``:cumulative:`` on ``node:odds``: which running total a table of every result gives, whatever the game.
CUMULATIVE = {"at-least": False, "at-most": True}


def _module_file(module_name: str | None) -> str | None:
    return getattr(sys.modules.get(module_name or ""), "__file__", None)


def _registry_file(binding: Any, namespace: str) -> str | None:
    registry = binding.registry(namespace)
    return str(registry.source_file) if registry is not None and registry.source_file else None


class NodeOdds(_ComputedTable):
    """``.. node:odds:: 3d6`` with ``:dc: 1-12``, ``:under: 3-18`` or neither; ``:system:`` pools;
    ``:fold:`` folds a distribution's negligible tails into one row each (:func:`rules.odds.fold_tails`);
    ``:cumulative: at-most`` (or ``at-least``) picks the running total of a table of every result, which
    otherwise follows the game (P(<= result) in a roll-under game)."""

    required_arguments = 1
    final_argument_whitespace = True
    option_spec: ClassVar[OptionSpec] = {**_ComputedTable.option_spec, "dc": directives.unchanged_required,
                   "under": directives.unchanged_required, "system": directives.unchanged_required,
                   "fold": directives.flag,
                   "cumulative": lambda value: directives.choice(value, tuple(CUMULATIVE))}

    def templates(self) -> list[str]:
        return [*super().templates(), self.arguments[0], self.options.get("dc", ""), self.options.get("under", "")]

    def pool(self, text: str) -> Any:
        system = self.options.get("system")
        if system:
            registry = binding_for(self.config).registry(system)
            if registry is None:
                from sphinx_rpg.spelling import did_you_mean

                hint = did_you_mean(system, (r.system for r in binding_for(self.config).registries))
                raise TableArgumentError(f"no configured registry for system {system!r}{hint}")
            if registry.notation is None:
                raise TableArgumentError(f"system {system!r} registers no notation of its own")
            path = _module_file(getattr(registry.notation.parse, "__module__", None))
            if path:
                self.env.note_dependency(path)
            return registry.notation.parse(text)
        return parse(text)

    def estimate(self, fill: Fill) -> int:
        """Plain dice notation knows its cost before any work (``rules.dice.cost``); a system's own
        notation bounds itself."""
        if self.options.get("system"):
            return 0
        return parse(fill(self.arguments[0]).strip()).work()

    def compute(self, fill: Fill = _same) -> Table:
        if "dc" in self.options and "under" in self.options:
            raise TableArgumentError("give either :dc: or :under:, not both")
        if "fold" in self.options and ("dc" in self.options or "under" in self.options):
            raise TableArgumentError(":fold: folds the table of every result; a :dc: or :under: table has "
                                     "one row per target you chose")
        if "cumulative" in self.options and ("dc" in self.options or "under" in self.options):
            raise TableArgumentError(":cumulative: chooses the running total of the table of every result; "
                                     "a :dc: or :under: table gives the chance for each target you chose")
        caption = fill(self.arguments[0]).strip()
        pool = self.pool(caption)
        name = target_name(self.config, self.env.docname, self.options.get("system", ""))
        if "dc" in self.options:
            return odds.at_least_table(pool, parse_range(fill(self.options["dc"])), caption, name)
        if "under" in self.options:
            return odds.at_most_table(pool, parse_range(fill(self.options["under"])), caption,
                                      "Target" if name == "DC" else name)
        dist = pool.dist() if hasattr(pool, "dist") and not hasattr(pool, "p_ge") else pool
        under = self.under()
        if "fold" in self.options:  # asked for: fold however short (a folded table has at most 122 rows)
            return odds.distribution_table(dist, caption, fold=odds.fold_tails(dist, short=0), under=under)
        if len(dist) > MAX_TABLE_ROWS:  # a page cannot render 15,000 rows in any sensible time
            raise TableArgumentError(f"{caption} has {len(dist):,} results, more than {MAX_TABLE_ROWS} rows: "
                                     f"give :dc: or :under: with a range, or :fold:")
        return odds.distribution_table(dist, caption, under=under)

    def under(self) -> bool:
        """Whether a table of every result gives P(<= result): as ``:cumulative:`` says, else as the game
        rolls (:func:`rolls_under`)."""
        if "cumulative" in self.options:
            return CUMULATIVE[self.options["cumulative"]]
        return rolls_under(self.config, self.env.docname, self.options.get("system", ""))

