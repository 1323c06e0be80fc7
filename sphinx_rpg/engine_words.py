"""What names the engine rather than the game, in a player's text: one definition for the player
edition (:mod:`sphinx_rpg.editions`, :mod:`sphinx_rpg.player_text`) and for the change marks' quotes
(:mod:`sphinx_rpg.changes`, which reads reST source and imports no Sphinx)."""

from __future__ import annotations

import re

#: What names the engine rather than the game: ``name=value``, a call (of a Capitalised, CamelCase or
#: snake_case name, or any call with nothing, quotes or keywords in it; the formulas' ``max(1, x)`` and
#: the odds tables' ``P(success)`` are notation), and a dotted module path of the engine or extension.
ENGINE_WORD = re.compile(
    r"\b[a-z_][a-z0-9_]*=(?!=)\S"                      # penalty_mode="cap", drama_decides=True
    r"|\b(?:[A-Z][a-z]\w*|[a-z]\w*_\w+)\((?!e?s\))"     # Settings(, CombatSettings(, attack_hits( (not "Roll(s)")
    r"|\b[A-Za-z_]\w*\((?:\)|[\"'\[]|\w+=)"             # roll(), pick("x"), check(dc=2); not max(1, x), P(success)
    r"|\b(?:rules|sphinx_rpg)\.(?![\w-]+\.(?:org|com|net)\b)[a-z_]"  # rules.nemron.checks (not a web address)
)
#: An engine name alone in code type, "the mark (``fighting_occupation``)": a snake_case identifier.
IDENTIFIER = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+")
#: A class of the engine in code type (``ActionLimits``): two or more capitalised words run together.
CLASS_NAME = re.compile(r"[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+")


def names_the_engine(code: str) -> bool:
    """Whether text set in code type (a reST literal) names the engine: a switch, a call, a module path,
    a snake_case identifier or a class name.  Dice notation (``3d6``) or a word (``Agility``) does not."""
    code = code.strip()
    return bool(ENGINE_WORD.search(code) or IDENTIFIER.fullmatch(code) or CLASS_NAME.fullmatch(code))
