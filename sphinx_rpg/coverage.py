"""Coverage of the book against the engine, reported at the end of every build.

``node.unbound``: a ``node:def`` whose uid no configured registry binds.
``node.undocumented``: a rule object that no page defines.
"""

from __future__ import annotations

import re

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

from sphinx_rpg import engine
from sphinx_rpg.binding import binding_for
from sphinx_rpg.domain import node_domain
from sphinx_rpg.settings import setting_location
from sphinx_rpg.spelling import did_you_mean
from sphinx_rpg.warnings import warn

#: How :class:`sphinx_rpg.boundary.EngineFailure` names where the engine went wrong.
_RAISED_AT = re.compile(r" \(raised at (.+?:\d+)\)")


def report_registry_errors(app: Sphinx) -> None:
    """Each unusable registry once, and a shadowed engine, located at the ``rpg_registries`` line of conf.py."""
    location = setting_location(app, "rpg_registries")
    if engine.SHADOWED:
        warn("registry", engine.SHADOWED, location)
    paths = getattr(app.config, "rpg_registries", None)
    if isinstance(paths, str):
        warn("registry", f"rpg_registries is a string; it must be a list of import paths: read as "
                         f"[{paths!r}]", location)
    for error in binding_for(app.config).errors:
        raised = _RAISED_AT.search(error)  # an engine that fails to import: at its own file and line
        if raised:
            warn("registry", f"rpg_registries ({location}): {error}", raised.group(1))
        else:
            warn("registry", f"rpg_registries: {error}", location)


def report_coverage(app: Sphinx, env: BuildEnvironment) -> None:
    binding = binding_for(env.config)
    if not binding.registries:
        return
    domain = node_domain(env)
    for record in domain.records():
        if binding.lookup(record.uid) is None:
            hint = did_you_mean(record.uid, (node.uid for node in binding.nodes()))
            warn("unbound", f"node {record.uid!r} has no rule object in the configured registries{hint}",
                 location=record.location(env))
    for node in binding.nodes():
        if domain.record(node.uid) is None:
            source = node.source_file
            location = f"{source}:{node.line}" if source and node.line else (str(source) if source else None)
            warn("undocumented", f"rule object {node.uid!r} ({node.implementation_path or node.module}) "
                                 "is not defined by any page", location=location)


def setup(app: Sphinx) -> None:
    app.connect("builder-inited", report_registry_errors)
    app.connect("env-check-consistency", report_coverage)
