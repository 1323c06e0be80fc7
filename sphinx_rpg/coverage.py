"""Coverage of the book against the engine, reported at the end of every build.

``node.unbound``: a ``node:def`` whose uid no configured registry binds.
``node.undocumented``: a rule object that no page defines.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sphinx.environment import BuildEnvironment

from sphinx_rpg.binding import binding_for
from sphinx_rpg.domain import node_domain
from sphinx_rpg.warnings import warn


def _registries_line(conf_py: Path) -> str:
    """``"conf.py:N"``, N the line that sets rpg_registries (1 when none does)."""
    try:
        lines = conf_py.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        lines = []
    number = next((n for n, line in enumerate(lines, 1) if line.lstrip().startswith("rpg_registries")), 1)
    return f"{conf_py}:{number}"


def report_registry_errors(app: Any) -> None:
    """Each registry that cannot be used, and a shadowed engine, located at conf.py."""
    from sphinx_rpg import engine

    conf_py = _registries_line(Path(app.confdir) / "conf.py") if app.confdir else None
    if engine.SHADOWED:
        warn("registry", engine.SHADOWED, conf_py)
    for error in binding_for(app.config).errors:
        warn("registry", f"rpg_registries: {error}", conf_py)


def report_coverage(app: Any, env: BuildEnvironment) -> None:
    binding = binding_for(env.config)
    if not binding.registries:
        return
    domain = node_domain(env)
    for record in domain.records():
        if binding.lookup(record.uid) is None:
            warn("unbound", f"node {record.uid!r} has no rule object in the configured registries",
                 location=record.place())
    for node in binding.nodes():
        if domain.record(node.uid) is None:
            source = node.source_file
            location = f"{source}:{node.line}" if source and node.line else (str(source) if source else None)
            warn("undocumented", f"rule object {node.uid!r} ({node.implementation_path or node.module}) "
                                 "is not defined by any page", location=location)
