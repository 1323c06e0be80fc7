"""Configuration values of the extension and the small helpers that read them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from sphinx.application import Sphinx

from rules.nodes import CORE_NODE_TYPES, format_types
from rules.tables import Table
from sphinx_rpg.settings import setting_location
from sphinx_rpg.vendor import PYODIDE_VERSION
from sphinx_rpg.warnings import warn

#: name -> (default, rebuild, types, description). ``rebuild="env"``: changing it re-reads every page.
#: When a changed setting rebuilds: what ``Sphinx.add_config_value`` accepts.
Rebuild = Literal["", "env", "html"]

CONFIG_VALUES: dict[str, tuple[Any, Rebuild, tuple[type, ...], str]] = {
    "rpg_registries": ([], "env", (list, tuple, str),
                       "import paths of the engine's registries, such as rules.nemron:REGISTRY"),
    "rpg_node_types": (dict(CORE_NODE_TYPES), "env", (dict,),
                       "type code -> readable name, for nodes no registry binds"),
    "rpg_ref_format": ("{name} ({types})", "env", (str,),
                       "how a bare :node:ref: renders; fields {name}, {types}, {uid}, {type_names}"),
    "rpg_heading_format": ("{name} ({types})", "env", (str,),
                           "how a node:def heading renders; same fields"),
    "rpg_render_facts": (True, "env", (bool,),
                         "show facts computed from the bound rule object under each node heading"),
    "rpg_table_modules": (None, "env", (list, tuple, type(None)),
                          "deprecated, no effect: node:table shows only tables a registry publishes"),
    "rpg_nodes_json": (True, "html", (bool,), "write nodes.json next to the HTML pages"),
    "rpg_keep_unchanged_indices": (True, "html", (bool,),
                                   "keep the node index pages and the general index of the last build when "
                                   "nothing they show changed (and patch a node index page's changed rows in)"),
    "rpg_pause_collector": (None, "", (bool, type(None)),
                            "removed, no effect: the extension leaves the garbage collector alone"),
    "rpg_charts": (True, "env", (bool,), "draw a chart above a table with a :chart: option"),
    "rpg_chart_cache": ("", "", (str,), "removed, no effect: a chart is drawn without a plotting library, in "
                                        "less time than reading a kept copy"),
    "rpg_odds_max_combinations": (200, "env", (int,),
                                  "the most combinations one node:odds/node:table :vary: may compute"),
    "rpg_exclude_tool_dirs": (True, "env", (bool,),
                              "never read pages from build output or tool caches (_build, .pytest_cache, "
                              ".venv, node_modules...)"),
    "rpg_edition": ("designer", "env", (str,),
                    "'designer' (everything) or 'player' (no example code, engine paths or designer-only parts)"),
    "rpg_designer_pages": ([], "env", (list, tuple),
                           "glob patterns of pages (engine reference) the player edition leaves out"),
    "rpg_backlinks": (True, "env", (bool,), "list the pages that refer to a node under its definition"),
    "rpg_supplement_of": ("", "env", (str,),
                          "the intersphinx name of the core book this book extends (node:def :overrides:)"),
    "rpg_releases": ({}, "env", (dict,),
                     "release label -> path of that release's nodes.json (relative to conf.py), oldest first"),
    "rpg_change_marks": (True, "env", (bool,),
                         "mark each node that is new or changed since the last of rpg_releases"),
    "rpg_pyodide_url": (f"https://cdn.jsdelivr.net/pyodide/v{PYODIDE_VERSION}/full/", "html", (str,),
                        "where the dice calculator loads Pyodide from (a folder URL ending in /)"),
    "rpg_pyodide_vendor": ("", "html", (str,),
                           "a folder made by `rpg pyodide` (relative to conf.py): copied into the site and "
                           "used instead of rpg_pyodide_url, so the calculator needs no network"),
    "rpg_calculator_packages": (None, "html", (list, tuple, type(None)),
                                "the packages of the calculator's engine wheel (default: rules and the "
                                "package of each rpg_registries entry)"),
}

FORMAT_FIELDS = ("name", "types", "uid", "type_names")

#: Folders that hold build output or tools' caches, never pages: excluded from builds (see
#: ``exclude_tool_dirs``) and from Sybil's search for examples.
TOOL_DIRS = frozenset({"_build", ".pytest_cache", ".venv", "venv", "node_modules", ".tox", ".nox", ".git",
                       ".mypy_cache", ".ruff_cache", ".hypothesis", "__pycache__"})


def exclude_tool_dirs(app: Sphinx, config: Any) -> None:
    """Add the tool folders to ``exclude_patterns``, so a MyST build never reads a cache's README.md."""
    if not config.rpg_exclude_tool_dirs:
        return
    patterns = list(config.exclude_patterns)
    for name in sorted(TOOL_DIRS):  # sorted: the same config every run, so no needless full rebuild
        for pattern in (name, f"**/{name}"):
            if pattern not in patterns:
                patterns.append(pattern)
    config.exclude_patterns = patterns


def template_error(template: str) -> str | None:
    """Why a heading/ref template cannot be used, or None when it is fine."""
    try:
        template.format(**{field: field for field in FORMAT_FIELDS})
    except KeyError as error:
        return f"unknown field {{{error.args[0]}}} (known: {', '.join('{' + f + '}' for f in FORMAT_FIELDS)})"
    except (IndexError, ValueError) as error:
        return f"not a valid template ({error})"
    return None


def render_title(template: str, *, name: str, types: tuple[str, ...], uid: str,
                 type_names: Mapping[str, str]) -> str:
    """Fill a heading/ref template; an unknown field falls back to the default format."""
    names = ", ".join(type_names.get(code, code) for code in types)
    try:
        return template.format(name=name, types=format_types(types), uid=uid, type_names=names)
    except (KeyError, IndexError, ValueError):
        return f"{name} ({format_types(types)})"


def config_table() -> Table:
    """Every configuration value with its default and meaning (the manual prints this)."""
    rows = [(name, repr(default) if not isinstance(default, dict) else "the six core types",
             "full re-read" if rebuild == "env" else "rewrite HTML", description)
            for name, (default, rebuild, _types, description) in CONFIG_VALUES.items()]
    return Table.of(("Setting", "Default", "When changed", "Meaning"), rows, "Configuration values",
                    code=("Setting", "Default"))


def check_templates(app: Sphinx) -> None:
    """A typo in rpg_ref_format / rpg_heading_format is reported once, not silently replaced."""
    for name in ("rpg_ref_format", "rpg_heading_format"):
        problem = template_error(getattr(app.config, name))
        if problem:
            warn("option", f"{name} = {getattr(app.config, name)!r}: {problem}; the default "
                           "'{name} ({types})' is used", setting_location(app, name))


def setup(app: Sphinx) -> None:
    """The ``rpg_*`` settings, checked once the builder exists."""
    for name, (default, rebuild, types, description) in CONFIG_VALUES.items():
        app.add_config_value(name, default, rebuild, types, description=description)
    app.connect("config-inited", exclude_tool_dirs)
    app.connect("builder-inited", check_templates)
