"""The site's whole navigation tree, built from titles-only tables of contents.

Themes such as Furo put every page's title in every page's sidebar: per page they call the template
function ``toctree(titles_only=True, collapse=False, maxdepth=-1, ...)``, and Sphinx then deep-copies
each document's *whole* table of contents (one entry per section, and a rulebook has one section per
``node:def``) before it prunes all but the titles.  That costs pages x sections per build.  Here each
document's table of contents is pruned to what ``titles_only`` keeps once per build, and those calls
read the pruned copies: the same tree for a fraction of the work.  The page's own contents ("On this
page") still come from the full table of contents.

A site of several books may instead collapse that tree (``rpg_navigation_collapse``): every book is
listed by its title, and only the book and the chapter the reader is in are opened, as Sphinx's own
``collapse=True`` does.  Each page then carries its own book's contents, not the whole site's, and the
build makes and the theme reads a fraction of the tree for each page.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, cast

from docutils import nodes
from sphinx import addnodes
from sphinx.environment.adapters.toctree import global_toctree_for_doc

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.builders import Builder
    from sphinx.builders.html import StandaloneHTMLBuilder
    from sphinx.environment import BuildEnvironment


def titles_only(toc: nodes.bullet_list) -> nodes.bullet_list:
    """A copy of one document's table of contents with what ``titles_only`` keeps: each top-level
    title and the toctrees found under it (Sphinx's own pruning, done before the copying)."""
    pruned = toc.deepcopy()
    for top_level in pruned.children:
        if isinstance(top_level, nodes.Element) and len(top_level) > 1:
            subtrees = list(top_level.findall(addnodes.toctree))
            if subtrees:
                cast(nodes.Element, top_level[1])[:] = subtrees
            else:
                top_level.pop(1)
    return pruned


def _prunable(env: BuildEnvironment, docname: str, toc: nodes.bullet_list) -> bool:
    """Whether pruning first gives exactly what Sphinx gives: not for a page with its own ``tocdepth``
    (Sphinx cuts its sections before it looks for toctrees in them) nor with ``only`` blocks in its
    contents (whose toctrees Sphinx filters by tags before it prunes, except on a page's ancestors)."""
    return not env.metadata.get(docname, {}).get("tocdepth") and next(toc.findall(addnodes.only), None) is None


class _PrunedEnvironment:
    """The build environment as the navigation reads it: its own ``tocs``, everything else the real one's."""

    def __init__(self, env: BuildEnvironment, tocs: Mapping[str, nodes.bullet_list]) -> None:
        self._env = env
        self.tocs = tocs

    def __getattr__(self, name: str) -> Any:
        return getattr(self._env, name)


class Navigation:
    """One Sphinx application's pruned tables of contents, made at the first page written in a build."""

    def __init__(self) -> None:
        self._pruned: _PrunedEnvironment | None = None

    def reset(self, app: Sphinx, builder: Builder) -> None:
        """At ``write-started``: the tables of contents are final for this build; prune them on first use."""
        self._pruned = None

    def environment(self, env: BuildEnvironment) -> BuildEnvironment:
        if self._pruned is None or self._pruned._env is not env:
            tocs = {docname: titles_only(toc) if _prunable(env, docname, toc) else toc
                    for docname, toc in env.tocs.items()}
            self._pruned = _PrunedEnvironment(env, tocs)
        return cast("BuildEnvironment", self._pruned)

    def page_context(self, app: Sphinx, pagename: str, templatename: str, context: dict[str, Any],
                     doctree: nodes.document | None) -> None:
        """At ``html-page-context`` (before the theme's handler): the page's ``toctree()`` answers its
        titles-only, uncollapsed calls from the pruned tables of contents, and any other call as before."""
        original = context.get("toctree")
        if not callable(original) or app.builder.format != "html":
            return
        builder = cast("StandaloneHTMLBuilder", app.builder)
        context["toctree"] = _toctree(self, builder, pagename, original)


def _toctree(navigation: Navigation, builder: StandaloneHTMLBuilder, pagename: str,
             original: Callable[..., str]) -> Callable[..., str]:
    def toctree(**options: Any) -> str:
        if builder.config.rpg_navigation_collapse:
            return original(**{**options, "collapse": True})
        # collapse=True cuts sections before their toctrees are found: only uncollapsed calls are the same
        if options.get("titles_only") is not True or options.get("collapse", True) is not False:
            return original(**options)
        options.setdefault("includehidden", False)  # as StandaloneHTMLBuilder._get_local_toctree
        if options.get("maxdepth") == "":
            options.pop("maxdepth")
        tree = global_toctree_for_doc(navigation.environment(builder.env), pagename, builder,
                                      tags=builder.tags, **options)
        return builder.render_partial(tree)["fragment"]

    return toctree


def setup_navigation(app: Sphinx) -> None:
    app.add_config_value("rpg_navigation_collapse", False, "html", (bool,),
                         description="the theme's navigation lists other books by title and opens only the "
                                     "reader's own book and chapter")
    navigation = Navigation()
    app.connect("write-started", navigation.reset)
    app.connect("html-page-context", navigation.page_context, priority=300)
