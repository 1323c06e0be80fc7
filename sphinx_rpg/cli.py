"""``rpg``: the engine and the rulebook checks from a shell.

    rpg roll 4d6kh3 --seed 7           roll dice (each die, what was kept, the total)
    rpg roll "1d6 > 1d10 > 1d8" --dc 7 --drama
    rpg odds 3d6 --under 3-18          exact odds with a text bar chart
    rpg check docs/                    every node.* problem of a rulebook, exit 1 if any
    rpg export docs/ -o nodes.json     the node catalogue (-o - writes it to stdout)
    rpg new mygame --name "My Game"    a starter rulebook with its own engine package

Every command takes ``--json``. Errors are one line on stderr and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import re
import shutil
import sys
import tempfile
from fractions import Fraction
from pathlib import Path
from typing import Any, Sequence

from rules.tables import Table, percent

EXIT_OK, EXIT_PROBLEMS, EXIT_ERROR, EXIT_INTERNAL = 0, 1, 2, 3
BAR_WIDTH = 40


class CliError(Exception):
    """A problem with what the user asked for; printed as one line."""


# -- dice ---------------------------------------------------------------------------------------------
def _expression(notation: str, system: str | None) -> Any:
    """Plain dice notation, or a game system's own pool notation (``--system nemron``)."""
    from rules.dice import NotationError, parse

    if system:
        registry = _registry(system)
        if registry.pool_parser is None:
            raise CliError(f"system {system!r} has no pool notation")
        try:
            return registry.pool_parser(notation)
        except ValueError as error:
            raise CliError(str(error)) from None
    try:
        return parse(notation)
    except NotationError as error:
        raise CliError(str(error)) from None


def _registry(system: str) -> Any:
    from sphinx_rpg.binding import RegistryLoadError, load_registry

    if not re.fullmatch(r"[a-z][a-z0-9_]*", system):
        raise CliError(f"{system!r} is not a game system name")
    try:
        return load_registry(f"rules.{system}:REGISTRY")
    except RegistryLoadError as error:
        raise CliError(f"unknown game system {system!r} ({error})") from None


def _distribution(expression: Any) -> Any:
    return expression.dist() if hasattr(expression, "dist") else expression


def _parse_range(text: str) -> range:
    from sphinx_rpg.directives.tables import TableArgumentError, parse_range

    try:
        return parse_range(text)
    except TableArgumentError as error:
        raise CliError(str(error)) from None


def command_roll(args: argparse.Namespace) -> tuple[int, Any, str]:
    from rules.dice import SeededSource

    expression = _expression(args.notation, args.system)
    if not hasattr(expression, "roll"):
        raise CliError(f"{args.notation!r} describes odds only; it cannot be rolled")
    source = SeededSource(random.Random(args.seed))
    result = expression.roll(source)
    data: dict[str, Any] = {"notation": str(expression), "seed": args.seed,
                            "dice": [{"sides": d.sides, "face": d.face, "kept": d.kept} for d in result.dice],
                            "total": result.total}
    lines = [str(result)]
    if args.dc is not None:
        data["dc"] = args.dc
        data["success"] = result.total >= args.dc
        lines.append(f"DC {args.dc}: {'success' if data['success'] else 'failure'}")
    if args.drama:
        face = source.roll(20)
        drama = {1: "bad drama", 20: "good drama"}.get(face, "no drama")
        data["drama"] = {"face": face, "result": drama}
        lines.append(f"drama die d20: {face} ({drama})")
    return EXIT_OK, data, "\n".join(lines)


def _bar(p: Fraction) -> str:
    return "#" * round(float(p) * BAR_WIDTH)


def command_odds(args: argparse.Namespace) -> tuple[int, Any, str]:
    from rules import odds

    if args.dc and args.under:
        raise CliError("give either --dc or --under, not both")
    expression = _expression(args.notation, args.system)
    distribution = _distribution(expression)
    if args.dc:
        table: Table = odds.at_least_table(distribution, _parse_range(args.dc))
    elif args.under:
        table = odds.at_most_table(distribution, _parse_range(args.under))
    else:
        table = odds.distribution_table(distribution)
    key_column = table.columns[1]
    rows = [dict(zip(table.columns, row)) for row in table.rows]
    data = {"notation": args.notation, "columns": list(table.columns),
            "rows": [{k: (f"{v.numerator}/{v.denominator}" if isinstance(v, Fraction) else v) for k, v in r.items()}
                     for r in rows],
            "mean": str(distribution.mean()) if hasattr(distribution, "mean") else None}
    width = max(len(str(row[0])) for row in table.rows) if table.rows else 1
    lines = [f"{args.notation}: {table.columns[0]} / {key_column}"]
    for row in rows:
        p = Fraction(row[key_column])
        lines.append(f"{str(row[table.columns[0]]).rjust(width)}  {percent(p).rjust(7)}  {_bar(p)}")
    if data["mean"] is not None:
        lines.append(f"mean {float(Fraction(data['mean'])):.3f}")
    return EXIT_OK, data, "\n".join(lines)


# -- rulebooks ----------------------------------------------------------------------------------------
_WARNING = re.compile(r"^(?P<location>.*?):?\s*WARNING: (?P<message>.*?)(?: \[(?P<kind>[\w.]+)\])?$")


def _build(docs: Path, builder: str, outdir: Path) -> list[str]:
    """Build quietly; returns the warning lines (never raises for warnings)."""
    from sphinx.application import Sphinx
    from sphinx.errors import SphinxError

    if not (docs / "conf.py").is_file():
        raise CliError(f"{docs} is not a Sphinx project (no conf.py)")
    warnings = io.StringIO()
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            app = Sphinx(str(docs), str(docs), str(outdir), str(outdir / ".doctrees"), builder,
                         status=None, warning=warnings, freshenv=True, keep_going=True)
            app.build()
    except SphinxError as error:
        raise CliError(f"the build of {docs} failed: {error}") from None
    text = re.sub(r"\x1b\[[0-9;]*m", "", warnings.getvalue())
    return [line for line in text.splitlines() if "WARNING:" in line]


def _problems(lines: Sequence[str]) -> list[dict[str, str]]:
    problems = []
    for line in lines:
        match = _WARNING.match(line)
        if match and (match.group("kind") or "").startswith("node."):
            problems.append({"location": match.group("location").strip(), "kind": match.group("kind"),
                             "message": match.group("message")})
    return problems


def command_check(args: argparse.Namespace) -> tuple[int, Any, str]:
    docs = Path(args.docs)
    with tempfile.TemporaryDirectory(prefix="rpg-check-") as outdir:
        problems = _problems(_build(docs, "dummy", Path(outdir)))
    text = "\n".join(f"{p['location']}: {p['message']} [{p['kind']}]" for p in problems)
    summary = f"{len(problems)} node problem{'s' if len(problems) != 1 else ''} in {docs}"
    return (EXIT_PROBLEMS if problems else EXIT_OK), {"problems": problems}, (text + "\n" if text else "") + summary


def command_export(args: argparse.Namespace) -> tuple[int, Any, str]:
    docs, target = Path(args.docs), Path(args.output)
    with tempfile.TemporaryDirectory(prefix="rpg-export-") as outdir:
        _build(docs, "nodes_json", Path(outdir))
        produced = Path(outdir) / "nodes.json"
        if not produced.exists():
            raise CliError(f"no nodes.json was produced for {docs}")
        if args.output == "-":  # the catalogue itself goes to stdout, whatever --json says
            catalogue = produced.read_text(encoding="utf-8").rstrip("\n")
            return EXIT_OK, json.loads(catalogue), catalogue
        try:
            shutil.copyfile(produced, target)
        except OSError as error:
            raise CliError(f"cannot write {target}: {error.strerror}") from None
    count = len(json.loads(target.read_text(encoding="utf-8"))["nodes"])
    return EXIT_OK, {"output": str(target), "nodes": count}, f"wrote {count} nodes to {target}"


def command_new(args: argparse.Namespace) -> tuple[int, Any, str]:
    from sphinx_rpg.new import NewProjectError, create

    directory = Path(args.directory)
    try:
        written = create(directory, args.name, args.package)
    except NewProjectError as error:
        raise CliError(str(error)) from None
    except OSError as error:
        raise CliError(f"cannot write into {directory}: {error.strerror}") from None
    files = [path.relative_to(directory).as_posix() for path in written]
    text = "\n".join([f"created {len(files)} files in {directory}:", *(f"  {name}" for name in files), "",
                       "next, inside it (see its README.md):",
                       "  sphinx-build -W --keep-going -b html docs docs/_build/html",
                       "  pytest"])
    return EXIT_OK, {"directory": str(directory), "files": files}, text


# -- the parser ---------------------------------------------------------------------------------------
def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rpg", description="Roll dice, compute exact odds, and check "
                                     "or export sphinx-rpg rulebooks.")
    from sphinx_rpg import __version__

    parser.add_argument("--version", action="version", version=f"rpg (sphinx-rpg) {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def common(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("--json", action="store_true", help="print JSON instead of text")

    roll = commands.add_parser("roll", help="roll dice notation (4d6kh3, 2d6+3, 1d6 > 1d10 > 1d8)")
    roll.add_argument("notation")
    roll.add_argument("--seed", type=int, default=None, help="seed for a reproducible roll")
    roll.add_argument("--dc", type=int, default=None, help="difficulty: report success when total >= DC")
    roll.add_argument("--drama", action="store_true", help="Nemron: roll the d20 drama die alongside")
    roll.add_argument("--system", default=None, help="read NOTATION with a game system's pool notation")
    common(roll)
    roll.set_defaults(run=command_roll)

    odds = commands.add_parser("odds", help="exact distribution or success table of dice notation")
    odds.add_argument("notation")
    odds.add_argument("--dc", default=None, help="P(result >= DC) for a range of DCs, e.g. 1-12")
    odds.add_argument("--under", default=None, help="P(result <= target) for a range, e.g. 3-18")
    odds.add_argument("--system", default=None, help="read NOTATION with a game system's pool notation")
    common(odds)
    odds.set_defaults(run=command_odds)

    check = commands.add_parser("check", help="build a rulebook quietly and report every node.* problem")
    check.add_argument("docs", metavar="DOCS_DIR")
    common(check)
    check.set_defaults(run=command_check)

    export = commands.add_parser("export", help="write the node catalogue (nodes.json) of a rulebook")
    export.add_argument("docs", metavar="DOCS_DIR")
    export.add_argument("-o", "--output", default="nodes.json",
                        help="where to write (default nodes.json; - for stdout)")
    common(export)
    export.set_defaults(run=command_export)

    new = commands.add_parser("new", help="create a starter rulebook with its own engine package")
    new.add_argument("directory", metavar="DIR", help="a new or empty directory")
    new.add_argument("--name", default=None, help="the game's name (default: from DIR)")
    new.add_argument("--package", default=None, help="the engine package's name (default: from the game's name)")
    common(new)
    new.set_defaults(run=command_new)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        status, data, text = args.run(args)
    except CliError as error:
        print(f"rpg {args.command}: {error}", file=sys.stderr)
        return EXIT_ERROR
    except ValueError as error:  # an engine rule refusing its input names the bad value
        print(f"rpg {args.command}: {error}", file=sys.stderr)
        return EXIT_ERROR
    except Exception as error:  # a bug: still one line, never a traceback
        print(f"rpg {args.command}: internal error: {type(error).__name__}: {error}", file=sys.stderr)
        return EXIT_INTERNAL
    print(json.dumps(data, indent=2) if args.json else text)
    return status


if __name__ == "__main__":
    sys.exit(main())
