"""The extension's CSS and scripts: copied with the HTML, and linked from the pages that use them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.config import Config

STATIC = Path(__file__).parent / "static"


def _static_dirs(app: Sphinx) -> list[str]:
    """Ours, and sphinx-design's when the project loads it (it appends its own at builder-inited,
    after the comparison)."""
    if "sphinx_design" not in app.extensions:
        return [str(STATIC)]
    try:
        from sphinx_design.extension import STATIC_DIR
    except ImportError:  # a sphinx-design without the constant: it is then on its own
        return [str(STATIC)]
    return [str(STATIC), str(STATIC_DIR)]


def add_static_path(app: Sphinx, config: Config) -> None:
    """At config-inited, before the environment compares configurations: a no-op rebuild stays one."""
    config.html_static_path = list(dict.fromkeys([*config.html_static_path, *_static_dirs(app)]))


def drop_repeated_static_paths(app: Sphinx, env: Any, docnames: list[str]) -> None:
    """Before reading (after sphinx-design's builder-inited append, before the environment and its
    configuration are saved): the configuration saved equals the next one read."""
    app.config.html_static_path = list(dict.fromkeys(app.config.html_static_path))


def add_static(app: Sphinx) -> None:
    if app.builder.format == "html":
        app.add_css_file("sphinx_rpg.css")
        app.add_js_file("sphinx_rpg_previews.js", loading_method="defer")


def add_odds_script(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any],
                    doctree: nodes.document | None) -> None:
    """Only pages with a table whose parameters a reader may vary load odds.js."""
    if "rpg-odds-vary" in context.get("body", ""):
        app.add_js_file("address.js", loading_method="defer")
        app.add_js_file("odds.js", loading_method="defer")


def setup(app: Sphinx) -> None:
    app.connect("config-inited", add_static_path)
    app.connect("builder-inited", add_static)
    app.connect("env-before-read-docs", drop_repeated_static_paths)
    app.connect("html-page-context", add_odds_script)
