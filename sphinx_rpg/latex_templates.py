"""The LaTeX writer's own templates compiled once per build, not once per table.

Sphinx's LaTeX translator renders every table through a template (``tabulary.tex.jinja`` and its
kin) and makes a new Jinja environment for each one, so each table compiled its template again: a
tenth of the CPU of the book's LaTeX build (137 tables).  In the LaTeX builder only, the translator
class in use is extended so that Sphinx's own templates are rendered by one renderer per build, made
as Sphinx makes it (Jinja keeps the compiled templates it has loaded).  A template that the project
overrides in ``templates_path`` goes through Sphinx's own ``render``, unchanged.
"""

from __future__ import annotations

import functools
from typing import Any
from weakref import WeakKeyDictionary

from sphinx.application import Sphinx
from sphinx.builders import Builder

#: One renderer of Sphinx's LaTeX templates per build (per builder object; gone with it).
_RENDERERS: WeakKeyDictionary[Builder, Any] = WeakKeyDictionary()


@functools.cache
def templates_once() -> type:
    """A LaTeX translator whose renderer of Sphinx's own templates is made once per build.

    Made on first use: Sphinx's LaTeX writer is imported by LaTeX builds only (in an HTML build it
    was 1.2 MiB and 8 ms of start-up for nothing)."""
    from sphinx.util.template import LaTeXRenderer
    from sphinx.writers.latex import LaTeXTranslator

    class TemplatesOnce(LaTeXTranslator):
        def render(self, template_name: str, variables: dict[str, Any]) -> str:
            if self._project_template(template_name):
                return super().render(template_name, variables)
            renderer = _RENDERERS.get(self.builder)
            if renderer is None:
                renderer = _RENDERERS[self.builder] = LaTeXRenderer(latex_engine=self.config.latex_engine)
            return str(renderer.render(template_name, variables))

        def _project_template(self, template_name: str) -> bool:
            """Whether ``templates_path`` holds this template (or its legacy ``_t`` name), as Sphinx looks."""
            legacy = template_name.removesuffix(".jinja") + "_t" if template_name.endswith(".jinja") else None
            for folder in self.config.templates_path:
                base = self.builder.confdir / folder
                if (base / template_name).exists() or (legacy is not None and (base / legacy).exists()):
                    return True
            return False

    return TemplatesOnce


def extend_translator(app: Sphinx) -> None:
    """In a LaTeX build, the translator in use (Sphinx's or another extension's) with
    ``templates_once()``; one that renders templates its own way is left as it is."""
    if app.builder.format != "latex":
        return
    from sphinx.writers.latex import LaTeXTranslator

    translator = app.builder.get_translator_class()
    if not issubclass(translator, LaTeXTranslator) or translator.render is not LaTeXTranslator.render:
        return
    extended = type(translator.__name__, (templates_once(), translator), {"__doc__": translator.__doc__})
    app.set_translator(app.builder.name, extended, override=True)


def setup(app: Sphinx) -> None:
    app.connect("builder-inited", extend_translator)
