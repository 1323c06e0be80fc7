"""``rpg_read_first``: the pages a build reads before all others.

Two editions built side by side share their costliest answers (a simulated matchup, through
``rpg_matchup_cache``): whichever edition reaches such a page first works the answer out, and the other
waits for it.  Each would otherwise read its pages in the same (alphabetical) order, so the longer of
the two builds, the one the whole site waits for, could be the one that plays ten thousand fights while
the shorter one waits idle.  Naming those pages here, in the shorter edition only, makes that edition
answer them first, while the longer one is still reading other pages.  Only the order changes: every
page is read, and the output is the same whatever the order.
"""

from __future__ import annotations

from collections.abc import Sequence
from fnmatch import fnmatchcase

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment


def read_first(docnames: Sequence[str], patterns: Sequence[str]) -> list[str]:
    """``docnames`` with those matching a pattern first, in the patterns' order; each group keeps the
    order it had."""
    chosen: list[str] = []
    for pattern in patterns:
        chosen += [name for name in docnames if fnmatchcase(name, pattern) and name not in chosen]
    return chosen + [name for name in docnames if name not in chosen]


def reorder(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    """``env-before-read-docs``: the event Sphinx offers for reordering the pages it is about to read."""
    patterns = [pattern for pattern in env.config.rpg_read_first if isinstance(pattern, str) and pattern]
    if patterns:
        docnames[:] = read_first(docnames, patterns)


def setup(app: Sphinx) -> None:
    app.add_config_value("rpg_read_first", [], "", (list, tuple),
                         description="glob patterns of pages (docnames) this build reads before the others")
    app.connect("env-before-read-docs", reorder)
