"""Where a setting lives in conf.py, so warnings about ``rpg_*`` values point at their line."""

from __future__ import annotations

import re
from pathlib import Path

from sphinx.application import Sphinx

from sphinx_rpg.warnings import warn


def setting_location(app: Sphinx, name: str) -> str | None:
    """``/path/conf.py:LINE`` of the first assignment to ``name``; conf.py alone if none is found."""
    confdir = getattr(app, "confdir", None)
    if not confdir:
        return None
    conf = Path(confdir) / "conf.py"
    try:
        lines = conf.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    assignment = re.compile(rf"^\s*{re.escape(name)}\s*(?::[^=]*)?[+]?=")
    for number, line in enumerate(lines, start=1):
        if assignment.match(line):
            return f"{conf}:{number}"
    return str(conf)


def report_deprecated_settings(app: Sphinx) -> None:
    """Settings kept only to say they do nothing now: ``rpg_table_modules`` opened import paths to page
    text (published tables replaced it); ``rpg_pause_collector`` changed process-wide collector state."""
    if getattr(app.config, "rpg_table_modules", None) is not None:
        warn("option", "rpg_table_modules is deprecated and has no effect: node:table shows only "
                       "tables a registry publishes (Registry.table), named 'system:table'",
             setting_location(app, "rpg_table_modules"))
    if getattr(app.config, "rpg_pause_collector", None) is not None:
        warn("option", "rpg_pause_collector was removed and has no effect: the extension leaves Python's "
                       "garbage collector as it finds it; delete the line from conf.py",
             setting_location(app, "rpg_pause_collector"))


def setup(app: Sphinx) -> None:
    app.connect("builder-inited", report_deprecated_settings)
