"""sphinx-rpg: a Sphinx domain for tabletop-RPG rulebooks whose game objects are bound to a rules engine.

Add ``"sphinx_rpg"`` to ``extensions`` and name your engine's registries in ``rpg_registries``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

__version__ = "0.1.0"

from sphinx_rpg.engine import secure_engine

secure_engine()  # before anything imports rules.*: a designer's own 'rules' must not crash Sphinx

STATIC = Path(__file__).parent / "static"


def _static_dirs() -> list[str]:
    """Ours, and sphinx-design's (which appends its own at builder-inited, after the comparison)."""
    try:
        from sphinx_design.extension import STATIC_DIR
    except ImportError:  # a sphinx-design without the constant: it is then on its own
        return [str(STATIC)]
    return [str(STATIC), str(STATIC_DIR)]


def _add_static_path(app: Any, config: Any) -> None:
    """At config-inited, before the environment compares configurations: a no-op rebuild stays one."""
    config.html_static_path = list(dict.fromkeys([*config.html_static_path, *_static_dirs()]))


def _drop_repeated_static_paths(app: Any) -> None:
    """After sphinx-design's builder-inited append: the configuration saved equals the next one read."""
    app.config.html_static_path = list(dict.fromkeys(app.config.html_static_path))


def _add_static(app: Any) -> None:
    if app.builder.format == "html":
        app.add_css_file("sphinx_rpg.css")
        app.add_js_file("sphinx_rpg_previews.js", loading_method="defer")


def _add_odds_script(app: Any, pagename: str, templatename: str, context: dict[str, Any],
                     doctree: Any) -> None:
    """Only pages with a table whose parameters a reader may vary load odds.js."""
    if "rpg-odds-vary" in context.get("body", ""):
        app.add_js_file("address.js", loading_method="defer")
        app.add_js_file("odds.js", loading_method="defer")


def check_templates(app: Any) -> None:
    """A typo in rpg_ref_format / rpg_heading_format is reported once, not silently replaced."""
    from sphinx_rpg.config import template_error
    from sphinx_rpg.settings import setting_location
    from sphinx_rpg.warnings import warn

    for name in ("rpg_ref_format", "rpg_heading_format"):
        problem = template_error(getattr(app.config, name))
        if problem:
            warn("option", f"{name} = {getattr(app.config, name)!r}: {problem}; the default "
                           "'{name} ({types})' is used", setting_location(app, name))


def setup(app: Any) -> dict[str, Any]:
    from sphinx_rpg import (
        backlinks,
        calculator,
        catalogue,
        coverage,
        domain,
        editions,
        export,
        graphs,
        index_pages,
        navigation,
        pagescan,
        previews,
        releases,
        search,
        settings,
        sheets,
        timelimit,
        tracking,
    )
    from sphinx_rpg.config import CONFIG_VALUES, exclude_tool_dirs
    from sphinx_rpg.directives import DIRECTIVES, ListingResolver, node_heading, node_listing
    from sphinx_rpg.directives.definition import depart_node_heading_html, visit_node_heading_html
    from sphinx_rpg.formula import FormulaAsMath
    from sphinx_rpg.roles import NodeValueRole

    app.setup_extension("sphinx_design")  # node:cards are sphinx-design cards
    app.add_post_transform(pagescan.PageScan)
    for name, (default, rebuild, types, description) in CONFIG_VALUES.items():
        app.add_config_value(name, default, rebuild, types, description=description)
    timelimit.setup(app)
    app.add_domain(domain.NodeDomain)
    for name, directive in DIRECTIVES.items():
        app.add_directive_to_domain("node", name, directive)
    app.add_role_to_domain("node", "value", NodeValueRole())
    app.add_node(node_heading, html=(visit_node_heading_html, depart_node_heading_html))
    app.add_node(node_listing)
    app.add_post_transform(ListingResolver)
    app.connect("doctree-resolved", backlinks.add_backlinks)
    app.add_transform(editions.DropExampleCode)
    app.add_post_transform(FormulaAsMath)
    app.add_node(releases.node_changes)
    app.add_post_transform(releases.ChangesResolver)
    app.add_node(graphs.node_graph)
    app.add_post_transform(graphs.GraphRenderer)
    app.add_node(sheets.node_sheet)
    app.add_post_transform(sheets.SheetResolver)
    app.add_builder(export.NodesJsonBuilder)
    app.add_directive_to_domain("node", "calculator", calculator.NodeCalculator)
    app.add_node(calculator.node_calculator)
    app.add_post_transform(calculator.CalculatorHtml)
    app.add_post_transform(calculator.CalculatorElsewhere)
    app.connect("env-purge-doc", calculator.purge_doc)
    app.connect("env-merge-info", calculator.merge_info)
    app.connect("html-page-context", calculator.add_calculator_script)
    app.connect("build-finished", calculator.write_calculator_files)

    app.connect("config-inited", editions.check_edition)
    app.connect("config-inited", index_pages.add_templates)
    app.connect("config-inited", exclude_tool_dirs)
    app.connect("config-inited", _add_static_path)
    app.connect("builder-inited", coverage.report_registry_errors)
    app.connect("builder-inited", check_templates)
    app.connect("builder-inited", settings.report_deprecated_settings)
    app.connect("doctree-read", tracking.note_doctree)
    app.connect("env-get-outdated", tracking.reread_conditional)
    app.connect("builder-inited", _add_static)
    app.connect("builder-inited", _drop_repeated_static_paths, priority=900)
    app.connect("env-before-read-docs", index_pages.note_docs_to_read)
    app.connect("env-get-updated", domain.pages_to_rewrite)
    app.connect("env-check-consistency", domain.check_consistency)
    app.connect("env-check-consistency", coverage.report_coverage)
    app.connect("warn-missing-reference", domain.warn_missing_node)
    app.connect("html-page-context", index_pages.escape_index_groups, priority=400)
    app.connect("html-page-context", index_pages.keep_unchanged_index)
    app.connect("html-collect-pages", search.restore_node_entries)
    app.connect("html-page-context", sheets.add_sheet_script)
    app.connect("html-page-context", _add_odds_script)
    navigation.setup_navigation(app)
    app.connect("build-finished", export.on_build_finished)
    app.connect("build-finished", previews.write_previews)
    app.connect("build-finished", catalogue.save_catalogue, priority=900)  # after everything that uses it
    app.connect("env-before-read-docs", catalogue.reset_catalogue)
    return {
        "version": __version__,
        "env_version": domain.DATA_VERSION,
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
