"""``node:matchup``: how likely a fight between a book's stat blocks is to go each way, as tables.

    .. node:matchup:: nemron: brandon vs raider
       :fights: 10000
       :seed: 1

The argument names a system and two sides of published stat block names (commas between fighters of
one side).  The system's registry builds the fight (``REGISTRY.matchups``, :mod:`rules.matchup`); the
engine answers exactly when the fight's states fit its work budget and otherwise plays seeded fights
through the system's tracker, and the block says which.  ``:exact:`` refuses a simulation (a warning
instead); ``:simulate:`` always simulates.  Every problem is a located ``node.matchup`` warning.

A simulation of ten thousand fights takes seconds, so with ``rpg_matchup_cache`` (a folder) each answer
is kept there under a digest of the question and of the engine's source: the site's other edition and
later builds read it back, and any change to the rules computes it again.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective
from sphinx.util.typing import OptionSpec

from rules.matchup import (
    MAX_FIGHTS,
    SIMULATED_FIGHTS,
    Matchup,
    MatchupError,
    Result,
    answer,
    left_table,
    outcome_table,
    result_from_json,
    result_json,
    rounds_table,
)
from sphinx_rpg.binding import binding_for
from sphinx_rpg.boundary import EngineFailure, call_engine, one_line
from sphinx_rpg.directives.tables import table_nodes
from sphinx_rpg.files import held, write_atomically
from sphinx_rpg.warnings import warn

_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_SIDE = rf"{_NAME}(?:\s*,\s*{_NAME})*"
#: Fights one engine call plays: each call stays far inside the build's CPU limit per engine call.
BATCH = 500
#: Source files an engine digest reads at most (a package larger than this is digested in part).
MAX_SOURCES = 2000
_ARGUMENT = re.compile(rf"\s*({_NAME})\s*:\s*({_SIDE})\s+vs\s+({_SIDE})\s*")


def _fights(text: str | None) -> int:
    value = directives.positive_int(text or "")
    if value > MAX_FIGHTS:
        raise ValueError(f"at most {MAX_FIGHTS:,} fights")
    return value


def _names(side: str) -> list[str]:
    return [name.strip() for name in side.split(",")]


class NodeMatchup(SphinxDirective):
    """``.. node:matchup:: system: a[, a2] vs b[, b2]`` with ``:fights:``, ``:seed:``, ``:exact:``, ``:simulate:``."""

    required_arguments = 1
    final_argument_whitespace = True
    has_content = False
    option_spec: ClassVar[OptionSpec] = {"fights": _fights, "seed": directives.nonnegative_int,
                                         "exact": directives.flag, "simulate": directives.flag,
                                         "name": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        location = self.get_location()
        text = self.arguments[0]
        match = _ARGUMENT.fullmatch(text)
        if not match:
            warn("matchup", f"node:matchup: {one_line(text)!r} is not a fight such as 'nemron: brandon vs raider'",
                 location)
            return []
        if "exact" in self.options and "simulate" in self.options:
            warn("matchup", "node:matchup: :exact: and :simulate: contradict each other", location)
            return []
        system, side_a, side_b = match.groups()
        binding = binding_for(self.config)
        registry = binding.registry(system)
        if registry is None:
            known = ", ".join(r.system for r in binding.registries) or "none configured"
            warn("matchup", f"node:matchup: no bound registry has system {system!r} (known: {known})", location)
            return []
        exact = True if "exact" in self.options else False if "simulate" in self.options else None
        try:
            fight = call_engine(registry.matchups.build, _names(side_a), _names(side_b))
            result = self.answer(fight, registry.module or "", [system, side_a, side_b], exact)
        except (EngineFailure, MatchupError) as failure:
            warn("matchup", f"node:matchup: the engine cannot answer {one_line(text)!r}: {failure}", location)
            return []
        for module in {type(fight.model).__module__ if fight.model else None, registry.module}:
            path = getattr(sys.modules.get(module or ""), "__file__", None)
            if path:
                self.env.note_dependency(path)
        box = self.render(result)
        self.set_source_info(box)
        self.add_name(box)
        return [box]

    def answer(self, fight: Matchup, module: str, question: list[str], exact: bool | None) -> Result:
        """The engine's answer, read from ``rpg_matchup_cache`` when this question was answered before."""
        fights, seed = self.options.get("fights", SIMULATED_FIGHTS), self.options.get("seed", 1)
        folder = self.config.rpg_matchup_cache
        if not folder:
            return answer(fight, exact=exact, fights=fights, seed=seed, call=call_engine, batch=BATCH)
        key = json.dumps([*question, exact, fights, seed, _engine_digest(module)])
        kept = Path(self.env.srcdir, folder, hashlib.sha256(key.encode()).hexdigest()[:32] + ".json")
        result = _kept(kept)
        if result is not None:
            return result
        # the other edition, built side by side, may be answering this very question: one answers it
        with held(kept.with_suffix(".lock")):
            result = _kept(kept)
            if result is None:
                result = answer(fight, exact=exact, fights=fights, seed=seed, call=call_engine, batch=BATCH)
                write_atomically(kept, json.dumps(result_json(result)))
        return result

    def render(self, result: Result) -> nodes.container:
        box = nodes.container(classes=["rpg-matchup"])
        lead = nodes.paragraph(classes=["rpg-matchup-method"])
        lead += nodes.strong(f"{result.sides[0]} against {result.sides[1]}",
                             f"{result.sides[0]} against {result.sides[1]}")
        lead += nodes.Text(method_sentence(result))
        box += lead
        for table in (outcome_table(result), rounds_table(result), left_table(result)):
            box += table_nodes(table)
        return box


def _kept(path: Path) -> Result | None:
    """The answer kept at ``path``; ``None`` when there is none or it is damaged (answered again)."""
    if not path.is_file():
        return None
    try:
        return result_from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, MatchupError):
        return None


#: The longest exact fraction a sentence prints (a fight over many states has one of a hundred digits and more).
SHOWN_FRACTION = 24


def method_sentence(result: Result) -> str:
    """How the answer was found and the mean length, with the exact mean as a fraction when it is short."""
    exactly = _fraction(result.mean_rounds) if result.exact else ""
    shown = f" (exactly {exactly})" if exactly and len(exactly) <= SHOWN_FRACTION else ""
    return f": {result.method()}.  The fight lasts {float(result.mean_rounds):.2f} rounds on average{shown}."


def _fraction(value: Any) -> str:
    return f"{value.numerator}/{value.denominator}" if value.denominator != 1 else str(value.numerator)


@cache
def _engine_digest(module: str) -> str:
    """A digest of every Python source of the package ``module`` belongs to (the whole rules engine)."""
    top = sys.modules.get(module.partition(".")[0])
    source = Path(getattr(top, "__file__", None) or "")
    digest = hashlib.sha256(module.encode())
    if not source.is_file():
        return digest.hexdigest()
    paths = sorted(source.parent.rglob("*.py"))[:MAX_SOURCES] if hasattr(top, "__path__") else [source]
    for path in paths:
        digest.update(str(path.relative_to(source.parent)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def setup(app: Sphinx) -> None:
    """Register ``node:matchup`` on the node domain (which the extension's setup adds first)."""
    app.add_config_value("rpg_matchup_cache", "", "", (str,),
                         description="a folder (relative to the source folder) that keeps each node:matchup "
                                     "answer, so the other edition and later builds read it back")
    app.add_directive_to_domain("node", "matchup", NodeMatchup)
