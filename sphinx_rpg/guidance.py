"""Warnings that say what to do about mistakes that would otherwise pass silently.

* ``node.formula``: a name in a rule's formula that is no node of its registry but one letter away from
  one (``Grt`` for ``Grit``): a typo, which would otherwise become a parameter (and a sheet input box).
* ``node.title``: a ``node:def`` whose title differs from its rule object's name (the book would show
  two names for one thing).
* ``node.markup``: a MyST page with a ``:::{node:...}`` colon fence while ``colon_fence`` is not enabled
  (MyST prints it as text, while the worked examples inside still run as tests).
* After an ``rpg_registries`` entry fails to load, the warnings that only repeat its absence (every
  ``node:def`` unbound, every ``:node:value:`` without a rule...) are left out and counted once.

:func:`sphinx_rpg.spelling.did_you_mean` is the one way every message suggests a near name.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

from sphinx_rpg.spelling import did_you_mean, one_edit_apart, spelling_key
from sphinx_rpg.warnings import warn

#: Subtypes that follow from rule objects missing because a registry failed to load.
KNOCK_ON = frozenset({"unbound", "value", "type", "table", "statblock", "option", "facts", "formula", "title"})
_COLON_FENCE = re.compile(r"^\s*:{3,}\s*\{node:[\w-]+\}")


# -- knock-on warnings after a failed registry ----------------------------------------------------------
class KnockOnFilter(logging.Filter):
    """Drops the extension's knock-on warnings while a build runs with a registry that failed to load."""

    def __init__(self) -> None:
        super().__init__()
        self.active = False
        self.dropped = 0

    def filter(self, record: logging.LogRecord) -> bool:
        if self.active and getattr(record, "type", None) == "node" and getattr(record, "subtype", "") in KNOCK_ON:
            self.dropped += 1
            return False
        return True


_FILTER = KnockOnFilter()


def _start(app: Sphinx) -> None:
    from sphinx_rpg.binding import binding_for

    _FILTER.active = bool(binding_for(app.config).errors)
    _FILTER.dropped = 0


def _finish(app: Sphinx, exception: BaseException | None) -> None:
    if _FILTER.active and _FILTER.dropped:
        logging.getLogger("sphinx.sphinx_rpg").info(
            "sphinx-rpg: %d warning(s) that follow from the registry that failed to load were left out; "
            "fix it (see the node.registry warning) and build again", _FILTER.dropped)
    _FILTER.active = False


# -- formulas and titles ---------------------------------------------------------------------------------
def check_rules(app: Sphinx, env: BuildEnvironment) -> None:
    """``env-check-consistency``: formula names one letter off a node, and titles that differ from names."""
    from rules.graph import dependencies, name_index
    from sphinx_rpg.binding import binding_for
    from sphinx_rpg.boundary import EngineFailure, call_engine
    from sphinx_rpg.domain import node_domain

    binding = binding_for(env.config)
    domain = node_domain(env)
    for registry in binding.registries:
        try:
            members = call_engine(list, registry)
            graph = call_engine(dependencies, members)
            # the alias index only when some formula names no node (most registries: none do)
            aliases = call_engine(name_index, members) if graph.parameters else {}
        except EngineFailure:
            continue  # the registry's own warning says why
        names = {node.uid: node.name for node in members}
        for uid, loose in sorted(graph.parameters.items()):
            for name in loose:
                near = sorted({names[u] for key, uids in aliases.items() if one_edit_apart(spelling_key(name), key)
                               for u in uids if u != uid and u in names})
                if not near:
                    continue
                node = registry[uid]
                record = domain.record(uid)
                page = f" (defined on {env.doc2path(record.docname)})" if record else ""
                where = (f"{node.source_file}:{node.line}" if node.source_file and node.line
                         else (record.location(env) if record else None))
                warn("formula", f"rule {uid!r}{page}: its formula {str(node.formula)!r} names {name!r}, which is no "
                                f"node of {registry.system!r}{did_you_mean(name, near)}; a name that is no node is "
                                "a parameter the reader supplies (a sheet asks for it)", where)
    for record in domain.records():
        bound = binding.lookup(record.uid)
        if bound is not None and bound.name != record.name:
            warn("title", f"node:def {record.name!r}: its rule object {record.uid!r} is named {bound.name!r}; "
                          "give the page the rule's name (or rename the rule) so the book uses one name",
                 record.location(env))


# -- MyST colon fences -----------------------------------------------------------------------------------
def check_colon_fences(app: Sphinx, docname: str, source: list[str]) -> None:
    """``source-read``: a ``:::{node:...}`` fence on a MyST page that MyST will not read as a directive."""
    if "colon_fence" in (getattr(app.config, "myst_enable_extensions", None) or ()):
        return
    if Path(app.env.doc2path(docname)).suffix not in (".md", ".markdown"):
        return
    for number, line in enumerate(source[0].splitlines(), start=1):
        if _COLON_FENCE.match(line):
            warn("markup", f"{line.strip()!r}: a colon fence, which MyST reads only with the colon_fence "
                           "extension: add myst_enable_extensions = [\"colon_fence\"] to conf.py, or write "
                           "```{node:...} (backticks)", (docname, number))
            return  # once per page: the fix is one line of conf.py


def setup(app: Sphinx) -> None:
    """Register the checks (called from sphinx_rpg's own setup)."""
    logger = logging.getLogger("sphinx.sphinx_rpg")
    if _FILTER not in logger.filters:
        logger.addFilter(_FILTER)
    app.connect("builder-inited", _start, priority=400)  # before coverage reports the failed registry
    app.connect("build-finished", _finish)
    app.connect("env-check-consistency", check_rules)
    app.connect("source-read", check_colon_fences)
