"""``rpg matchup``: how likely a fight between stat blocks is to go each way, from a shell.

    rpg matchup --system nemron brandon raider            exact when it fits the budget, else simulated
    rpg matchup --system nemron brandon raider,raider     a side of several fighters (commas)
    rpg matchup --system nugget doctor thug --simulate --fights 20000 --seed 5

The fight and its model come from the system's registry (``REGISTRY.matchups``, :mod:`rules.matchup`);
this module only reads the arguments and prints the engine's tables.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from rules.matchup import (
    MAX_FIGHTS,
    SIMULATED_FIGHTS,
    MatchupError,
    answer,
    left_table,
    outcome_table,
    result_json,
    rounds_table,
    summary,
)
from rules.tables import Table, percent

#: The exit status of an answer (the ``rpg`` command's own, which this module does not import).
EXIT_OK = 0


def _side(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",")]
    if not all(names):
        raise argparse.ArgumentTypeError(f"{text!r} is not a side: stat block names separated by commas")
    return names


def _fights(text: str) -> int:
    try:
        fights = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of fights") from None
    if not 1 <= fights <= MAX_FIGHTS:
        raise argparse.ArgumentTypeError(f"play 1 to {MAX_FIGHTS:,} fights, not {fights}")
    return fights


def _cell(value: object, probability: bool) -> str:
    return percent(value) if probability and not isinstance(value, str) else str(value)  # type: ignore[arg-type]


def _text(table: Table) -> list[str]:
    rows = [[_cell(cell, column in table.probability_columns) for column, cell in zip(table.columns, row)]
            for row in table.rows]
    widths = [max(len(str(c)) for c in column) for column in zip(table.columns, *rows)]
    lines = [f"{table.title}:", ("  " + "  ".join(c.ljust(w) for c, w in zip(table.columns, widths))).rstrip()]
    lines += [("  " + "  ".join(c.ljust(w) for c, w in zip(row, widths))).rstrip() for row in rows]
    return lines


def command_matchup(args: argparse.Namespace) -> tuple[int, Any, str]:
    from rules.systems import SystemLoadError, load_registry

    try:
        registry = load_registry(args.system)
    except SystemLoadError as error:  # the command prints a refused value as one line, exit 2
        raise MatchupError(str(error)) from None
    if not registry.matchups:
        raise MatchupError(f"system {registry.system!r} publishes no fight model")
    fight = registry.matchups.build(args.side_a, args.side_b)
    exact = True if args.exact else False if args.simulate else None
    result = answer(fight, exact=exact, fights=args.fights, seed=args.seed)
    tables = (outcome_table(result), rounds_table(result), left_table(result))
    data = {"system": registry.system, **result_json(result)}
    lines = [f"{result.sides[0]} against {result.sides[1]} ({registry.system}): {summary(result)}"]
    for table in tables:
        lines += _text(table)
    return EXIT_OK, data, "\n".join(lines)


def add_matchup(commands: Any, common: Callable[[argparse.ArgumentParser], None]) -> None:
    """Register ``rpg matchup`` on the ``rpg`` parser's subcommands."""
    matchup = commands.add_parser("matchup", help="how likely a fight between stat blocks is to go each way")
    matchup.add_argument("side_a", metavar="SIDE_A", type=_side, help="stat block names, separated by commas")
    matchup.add_argument("side_b", metavar="SIDE_B", type=_side, help="the other side, the same way")
    matchup.add_argument("--system", required=True, help="the game system: a bundled short name or an import "
                         "path such as mygame.rules:REGISTRY")
    how = matchup.add_mutually_exclusive_group()
    how.add_argument("--exact", action="store_true", help="refuse to simulate: exact or an error")
    how.add_argument("--simulate", action="store_true", help="simulate even when the exact answer fits")
    matchup.add_argument("--fights", type=_fights, default=SIMULATED_FIGHTS,
                         help=f"fights a simulation plays (default {SIMULATED_FIGHTS:,})")
    matchup.add_argument("--seed", type=int, default=1, help="the simulation's seed (default 1)")
    common(matchup)
    matchup.set_defaults(run=command_matchup)
