"""sphinx-rpg: a Sphinx domain for tabletop-RPG rulebooks whose game objects are bound to a rules engine.

Add ``"sphinx_rpg"`` to ``extensions`` and name your engine's registries in ``rpg_registries``.
"""

from __future__ import annotations

from typing import Any

from sphinx.application import Sphinx

from sphinx_rpg.engine import secure_engine
from sphinx_rpg.version import __version__

secure_engine()  # before anything imports rules.*: a designer's own 'rules' must not crash Sphinx


def setup(app: Sphinx) -> dict[str, Any]:
    """Each feature registers itself; the order of handlers on one event is the order of this list."""
    # Imported here, not at the top: ``rpg`` and ``import sphinx_rpg.engine`` stay free of the extension.
    from sphinx_rpg import (
        assets,
        backlinks,
        calculator,
        catalogue,
        config,
        coverage,
        directives,
        domain,
        editions,
        export,
        formula,
        graph_print,
        graphs,
        guidance,
        index_pages,
        latex_templates,
        matchups,
        media,
        navigation,
        pagescan,
        paper_tables,
        player_index,
        player_text,
        previews,
        read_order,
        releases,
        relink,
        roles,
        search,
        settings,
        sheets,
        statblocks,
        texts,
        timelimit,
        tracking,
        type_refs,
    )

    pagescan.setup(app)
    config.setup(app)
    timelimit.setup(app)
    domain.setup(app)
    relink.setup(app)
    directives.setup(app)
    roles.setup(app)
    backlinks.setup(app)
    editions.setup(app)
    formula.setup(app)
    releases.setup(app)
    graphs.setup(app)
    sheets.setup(app)
    statblocks.setup(app)
    export.setup(app)
    calculator.setup(app)
    matchups.setup(app)
    read_order.setup(app)
    coverage.setup(app)
    settings.setup(app)
    tracking.setup(app)
    assets.setup(app)
    index_pages.setup(app)
    search.setup(app)
    navigation.setup_navigation(app)
    previews.setup(app)
    catalogue.setup(app)
    guidance.setup(app)
    player_text.setup(app)
    player_index.setup(app)
    media.setup(app)
    graph_print.setup(app)
    paper_tables.setup(app)
    latex_templates.setup(app)
    type_refs.setup(app)
    texts.setup(app)
    return {
        "version": __version__,
        "env_version": domain.DATA_VERSION,
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
