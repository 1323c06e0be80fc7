"""The extension's own reference tables, published for the manual like any rule package's tables.

``.. node:table:: sphinx_rpg:config_table`` prints the configuration values, ``sphinx_rpg:subtypes_table``
the warning subtypes.  Every project may show them; they take no arguments.
"""

from __future__ import annotations

from rules.providers import Providers
from rules.tables import Table
from sphinx_rpg.config import config_table
from sphinx_rpg.warnings import subtypes_table

TABLES = Providers("sphinx_rpg")


@TABLES.table("config_table")
def _config_table() -> Table:
    return config_table()


@TABLES.table("subtypes_table")
def _subtypes_table() -> Table:
    table: Table = subtypes_table()
    return table
