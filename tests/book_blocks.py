"""The stat blocks a book shows: every ``node:statblock`` name its pages give, read from ``docs/``.

The per-system tests walk these names and compare each value a block prints with the rule function
the rules pages call; a block added to a book without such an expectation fails its system's test.
"""

from __future__ import annotations

import re
from pathlib import Path

from rules.statblocks import StatBlock
from sphinx_rpg.statblocks import attack_line, show_value

DOCS = Path(__file__).resolve().parent.parent / "docs"
_DIRECTIVE = re.compile(r"^\s*\.\. node:statblock::\s*(\w+):(\w+)\s*$", re.M)


def shown_blocks(system: str) -> list[str]:
    """The names of ``system``'s blocks that some page of the books shows (any book, any folder)."""
    found = {name for page in sorted(DOCS.rglob("*.rst"))
             for book, name in _DIRECTIVE.findall(page.read_text(encoding="utf-8")) if book == system}
    return sorted(found)


def printed(block: StatBlock) -> dict[str, str]:
    """Each value as the directive prints it (node uid -> text), and the attack's name and odds line."""
    text = {stat.uid: show_value(stat.value) for stat in (*block.base, *block.derived)}
    if block.attack is not None:
        text["attack"] = block.attack.name
        text["odds"] = attack_line(block.attack, exact=True)
    return text


def assert_prints(block: StatBlock, values: dict[str, object], attack: str) -> None:
    """The block prints exactly the rule functions' values (uid -> value), the attack's name and its
    odds line, and nothing else."""
    text = printed(block)
    assert text == {**{uid: show_value(value) for uid, value in values.items()}, "attack": attack,
                    "odds": text["odds"]}
