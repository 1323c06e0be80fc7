"""Type names that no documented Python object can match are looked up exactly, not by suffix.

A type in an API description (autodoc's ``autodoc_typehints = "description"``, a ``:type:`` field)
is a Python cross-reference in Sphinx's "refspecific" mode: a name not found as it stands is searched
for among every Python object of the book by its ending, up to three times for a class (as a class,
data, attribute).  The books' engine reference names ``int``, ``str``, ``bool`` and ``None`` about
two thousand times and documents none of them: those searches were a tenth of the LaTeX build.  When
no documented object's dotted name ends with the target, neither mode can find anything, so the
mode is switched to the exact one before Sphinx resolves the reference (a post-transform, run just
before Sphinx's own resolver): the outcome, a link or plain text, is the same.
"""

from __future__ import annotations

from typing import Any
from weakref import WeakKeyDictionary

from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.transforms.post_transforms import SphinxPostTransform

#: Every dotted ending of every documented Python object's name (``a.b.C`` gives ``C``, ``b.C`` and
#: ``a.b.C``), per environment, worked out once its documents are read (``forget``).
_ENDINGS: WeakKeyDictionary[BuildEnvironment, frozenset[str]] = WeakKeyDictionary()


def endings(env: BuildEnvironment) -> frozenset[str]:
    """The names a refspecific Python reference can resolve to, by the Python domain's own objects."""
    known = _ENDINGS.get(env)
    if known is None:
        names: set[str] = set()
        for name in env.domains.python_domain.objects:
            parts = name.split(".")
            names.update(".".join(parts[start:]) for start in range(len(parts)))
        known = _ENDINGS[env] = frozenset(names)
    return known


class ExactWhereNothingEnds(SphinxPostTransform):
    """A Python reference whose target ends no documented object's name: looked up exactly."""

    default_priority = 9  # before Sphinx's ReferencesResolver (10)

    def run(self, **kwargs: Any) -> None:
        for node in self.document.findall(addnodes.pending_xref):
            if node.get("refdomain") != "py" or not node.hasattr("refspecific"):
                continue
            target = str(node.get("reftarget", "")).removesuffix("()")  # as the Python domain reads it
            if target and target not in endings(self.env):
                del node["refspecific"]


def forget(app: Sphinx, env: BuildEnvironment) -> None:
    """The documents are read again: the objects may have changed."""
    _ENDINGS.pop(env, None)


def setup(app: Sphinx) -> None:
    app.add_post_transform(ExactWhereNothingEnds)
    app.connect("env-updated", forget)
