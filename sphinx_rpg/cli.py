"""``rpg``: the engine and the rulebook checks from a shell.

    rpg roll 4d6kh3 --seed 7           roll dice (each die, what was kept, the total)
    rpg roll "1d6 > 1d10" --system nemron --dc 7 --drama
                                       a game's own notation and side rolls, from its registration
    rpg odds 3d6 --under 3-18          exact odds with a text bar chart (--fold: a long table's tails folded)
    rpg check docs/                    every node.* problem of a rulebook, exit 1 if any
    rpg export docs/ -o nodes.json     the node catalogue (-o - writes it to stdout)
    rpg new mygame --name "My Game"    a starter rulebook with its own engine package
    rpg diff old/nodes.json new/nodes.json   what changed between two releases (exit 1 if anything)
    rpg graph --system nemron          which rules derive from which (--dot for Graphviz)
    rpg pyodide .cache/pyodide         vendor Pyodide from the npm registry for the dice calculator
    rpg matchup --system nemron brandon raider   how likely a fight is to go each way (exact or simulated)

    rpg serve                          a live preview on 127.0.0.1, rebuilt as pages or the engine change

Every command takes ``--json``. Errors are one line on stderr and a non-zero exit, never a traceback.
The command knows no game system: ``--system`` (a bundled short name or an import path such as
``mygame.rules:REGISTRY``) loads a registry, whose ``notation`` (``rules.systems.SystemNotation``)
reads, rolls and adds side-roll flags.
Notation that starts with ``-`` follows ``--``: ``rpg roll -- -1d6``.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import logging
import os
import random
import re
import sys
import tempfile
import typing
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rules.tables import Table, percent
from sphinx_rpg.cli_base import (
    EXIT_ERROR,
    EXIT_INTERNAL,
    EXIT_OK,
    EXIT_PROBLEMS,
    CliError,
    _find_game_here,
    _system_hint,
)
from sphinx_rpg.cli_base import registry as _registry

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from rules.systems import SideRoll, SystemNotation

BAR_WIDTH = 40
SYSTEM_HELP = ("read NOTATION with a game system's own notation: a bundled short name or an import path "
               "such as mygame.rules:REGISTRY")


def _one_line(text: str) -> str:
    from sphinx_rpg.boundary import one_line

    return one_line(text, limit=500)


def _printable(text: str) -> str:
    """Output lines keep their newlines and their length (a catalogue is one long line); any other
    control character (an escape sequence) is escaped."""
    from sphinx_rpg.boundary import one_line

    return "\n".join(one_line(line, limit=len(line) * 4 + 3) if line else line for line in text.split("\n"))


#: Dice notation that starts with a minus (``-1d6``, ``-(1d8+2)+10``, ``-d4``): an argument, not an option.
_MINUS_NOTATION = re.compile(r"-[0-9(dD%\s]")


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (no usage block); notation starting with '-' needs no '--'."""

    def _parse_optional(self, arg_string: str) -> Any:
        if _MINUS_NOTATION.match(arg_string):
            return None  # a positional argument: no option of rpg starts with '-' and a digit, d, '(' or '%'
        return super()._parse_optional(arg_string)

    def error(self, message: str) -> typing.NoReturn:
        hint = ""
        if re.search(r"(?:unrecognized arguments|expected one argument|required: notation)", message) and \
                any(re.match(r"-\d", arg) for arg in _ARGV):
            hint = " (notation that starts with '-' goes after '--': rpg roll -- -1d6)"
        self.exit(EXIT_ERROR, f"{self.prog}: {_one_line(message)}{hint}\n")


#: The arguments being parsed (for the hint above).
_ARGV: list[str] = []


def _nonempty(text: str) -> str:
    """An option value that means something: an empty one is refused, not silently ignored."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty value is not allowed")
    return text


# -- dice ---------------------------------------------------------------------------------------------
def _notation(system: str) -> SystemNotation:
    """The ``SystemNotation`` a system registers on its registry."""
    registry = _registry(system)
    if registry.notation is None:
        raise CliError(f"system {system!r} registers no notation of its own")
    return registry.notation


def _parse_range(text: str) -> range:
    from sphinx_rpg.directives.cells import TableArgumentError
    from sphinx_rpg.directives.tables import parse_range

    try:
        return parse_range(text)
    except TableArgumentError as error:
        raise CliError(str(error)) from None


def _seed(text: str) -> int:
    """The seeds the page's calculator accepts, and no others: a roll can be checked both ways."""
    from rules.calculator import checked_seed

    try:
        return checked_seed(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def command_roll(args: argparse.Namespace) -> tuple[int, Any, str]:
    from rules.calculator import roll
    from rules.dice import SeededSource

    source = SeededSource(random.Random(args.seed))
    result = roll(args.notation, args.system, source)  # what the page's calculator rolls
    side_rolls: tuple[SideRoll, ...] = _notation(args.system).side_rolls if args.system else ()
    data: dict[str, Any] = {"notation": result.expr, "seed": args.seed,
                            "dice": [{"sides": d.sides, "face": d.face, "kept": d.kept} for d in result.dice],
                            "total": result.total}
    lines = [str(result)]
    if args.dc is not None:
        data["dc"] = args.dc
        data["success"] = result.total >= args.dc
        lines.append(f"DC {args.dc}: {'success' if data['success'] else 'failure'}")
    for side in side_rolls:
        if getattr(args, f"side_{side.name}", False):
            face = source.roll(side.sides)
            words = side.read(face)
            data[side.name] = {"face": face, "result": words}
            lines.append(f"{side.name} die d{side.sides}: {face} ({words})")
    return EXIT_OK, data, "\n".join(lines)


def _bar(p: Fraction) -> str:
    return "#" * round(float(p) * BAR_WIDTH)


def command_odds(args: argparse.Namespace) -> tuple[int, Any, str]:
    from rules.calculator import odds

    if args.dc and args.under:
        raise CliError("give either --dc or --under, not both")
    if args.fold and (args.dc or args.under):
        raise CliError("--fold folds the table of every result; --dc and --under tables have nothing to fold")
    dc = _parse_range(args.dc) if args.dc else None
    under = _parse_range(args.under) if args.under else None
    result = odds(args.notation, args.system, dc=dc, under=under, folded=args.fold)  # the calculator's own answer
    table: Table = result.table
    distribution = result.distribution
    key_column = table.columns[1]
    rows = [dict(zip(table.columns, row)) for row in table.rows]
    data = {"notation": args.notation, "columns": list(table.columns),
            "rows": [{k: (f"{v.numerator}/{v.denominator}" if isinstance(v, Fraction) else v) for k, v in r.items()}
                     for r in rows],
            "mean": str(distribution.mean()) if hasattr(distribution, "mean") else None}
    width = max(len(str(row[0])) for row in table.rows) if table.rows else 1
    lines = [f"{args.notation}: {table.columns[0]} / {key_column}"]
    for row in rows:
        cell = row[key_column]
        if not isinstance(cell, (int, Fraction)):
            raise CliError(f"{key_column!r} holds {cell!r}, not a probability")
        p = Fraction(cell)
        lines.append(f"{str(row[table.columns[0]]).rjust(width)}  {percent(p).rjust(7)}  {_bar(p)}")
    if data["mean"] is not None:
        lines.append(f"mean {float(Fraction(data['mean'])):.3f}")
    return EXIT_OK, data, "\n".join(lines)


# -- rulebooks ----------------------------------------------------------------------------------------
def _node_warnings(app: Sphinx) -> Any:
    """A handler that collects the extension's typed warnings as Sphinx logs them (no text parsing)."""
    from sphinx.util.logging import WarningStreamHandler

    class NodeWarnings(_NodeWarnings, WarningStreamHandler):
        pass

    return NodeWarnings(app)


class _NodeWarnings(logging.StreamHandler):  # type: ignore[type-arg]
    """Collects the extension's typed warnings (``type="node"``) as Sphinx logs them: no text parsing.

    Sphinx treats it as one of its warning streams (:func:`_node_warnings` mixes in its class), so
    warnings held back while pages are read reach it once, as they reach the console.  Sphinx's own
    filter decides first (``suppress_warnings`` is honoured); the location is a ``(docname, line)``
    pair, a docutils node or a path, read here the way Sphinx reads it.
    """

    def __init__(self, app: Sphinx) -> None:
        from sphinx.util.logging import WarningSuppressor

        super().__init__(io.StringIO())
        self.setLevel(logging.WARNING)
        self.app = app
        self.problems: list[dict[str, str]] = []
        self.addFilter(WarningSuppressor(app))

    def _location(self, location: Any) -> str:
        from docutils import nodes
        from sphinx.util.logging import get_node_location

        if isinstance(location, tuple):
            docname, line = location
            path = str(self.app.env.doc2path(docname)) if docname else ""
            return f"{path}:{line}" if path and line else path
        if isinstance(location, nodes.Node):
            return get_node_location(location) or ""
        if isinstance(location, str) and location and ":" not in location:
            return str(self.app.env.doc2path(location))
        return str(location or "")

    def emit(self, record: logging.LogRecord) -> None:
        if getattr(record, "type", None) != "node":
            return
        kind = f"node.{getattr(record, 'subtype', '')}".rstrip(".")
        message = str(record.msg) % record.args if record.args else str(record.msg)
        message = message.removesuffix(f" [{kind}]")  # Sphinx may have appended the type already
        self.problems.append({"location": self._location(getattr(record, "location", None)),
                              "kind": kind, "message": message})


def _build(docs: Path, builder: str, outdir: Path) -> list[dict[str, str]]:
    """Build quietly; returns the ``node.*`` problems Sphinx logged (never raises for warnings)."""
    from sphinx.application import Sphinx
    from sphinx.errors import SphinxError
    from sphinx.util.docutils import docutils_namespace, patch_docutils
    from sphinx.util.logging import NAMESPACE

    if not (docs / "conf.py").is_file():
        raise CliError(f"{docs} is not a Sphinx project (no conf.py)")
    logger = logging.getLogger(NAMESPACE)
    collector: Any = None
    try:
        # as sphinx-build does: the directives and roles this build registers are docutils-global, and
        # a second build in the same process (a test, a tool calling main() again) must not meet them
        with contextlib.redirect_stdout(io.StringIO()), patch_docutils(docs), docutils_namespace():
            app = Sphinx(str(docs), str(docs), str(outdir), str(outdir / ".doctrees"), builder,
                         status=None, warning=io.StringIO(), freshenv=True, keep_going=True)
            collector = _node_warnings(app)
            logger.addHandler(collector)
            app.build()
    except SphinxError as error:  # a conf.py that raises prints a traceback: keep its last line
        lines = [line.strip() for line in str(error).splitlines() if line.strip()]
        reason = lines[-1] if len(lines) > 1 and lines[-1] != lines[0] else (lines[0] if lines else "")
        raise CliError(f"the build of {docs} failed: {type(error).__name__}: {reason}") from None
    except SystemExit as error:  # an extension or registry calling sys.exit() while it loads
        raise CliError(f"the build of {docs} failed: something called sys.exit({error.code!r})") from None
    finally:
        if collector is not None:
            logger.removeHandler(collector)
    problems: list[dict[str, str]] = collector.problems
    return problems


def command_check(args: argparse.Namespace) -> tuple[int, Any, str]:
    docs = Path(args.docs)
    with tempfile.TemporaryDirectory(prefix="rpg-check-") as outdir:
        problems = _build(docs, "dummy", Path(outdir))
    text = "\n".join(f"{p['location']}: {p['message']} [{p['kind']}]" for p in problems)
    summary = f"{len(problems)} node problem{'s' if len(problems) != 1 else ''} in {docs}"
    return (EXIT_PROBLEMS if problems else EXIT_OK), {"problems": problems}, (text + "\n" if text else "") + summary


def command_export(args: argparse.Namespace) -> tuple[int, Any, str]:
    from sphinx_rpg.export import is_previous_export
    from sphinx_rpg.files import write_atomically

    docs, target = Path(args.docs), Path(args.output)
    to_stdout = args.output == "-"
    if not to_stdout and target.is_dir():
        raise CliError(f"{target} is a directory; give a file name such as {target / 'nodes.json'}")
    if not to_stdout and target.exists() and not args.force and not is_previous_export(target):
        raise CliError(f"{target} exists and is not a nodes.json from rpg export; use --force to replace it")
    with tempfile.TemporaryDirectory(prefix="rpg-export-") as outdir:
        _build(docs, "nodes_json", Path(outdir))
        produced = Path(outdir) / "nodes.json"
        if not produced.exists():
            raise CliError(f"no nodes.json was produced for {docs}")
        text = produced.read_text(encoding="utf-8")
    if to_stdout:  # the catalogue itself goes to stdout, whatever --json says
        catalogue = text.rstrip("\n")
        return EXIT_OK, json.loads(catalogue), catalogue
    try:
        target.parent.mkdir(parents=True, exist_ok=True)  # docs/_releases/v0.1/ for a first release
        write_atomically(target, text)
    except OSError as error:
        raise CliError(f"cannot write {target}: {error.strerror or error}") from None
    count = len(json.loads(text)["nodes"])
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
                       "  pip install --find-links wheels -r requirements.txt   (with the sphinx-rpg wheel in wheels/)",
                       "  sphinx-build -W --keep-going -b html docs docs/_build/html",
                       "  pytest"])
    return EXIT_OK, {"directory": str(directory), "files": files}, text


def command_diff(args: argparse.Namespace) -> tuple[int, Any, str]:
    from sphinx_rpg.changes import CatalogueError, diff_catalogues, load_catalogue, report_lines

    try:
        old, new = load_catalogue(args.old), load_catalogue(args.new)
    except CatalogueError as error:
        raise CliError(str(error)) from None
    changes = diff_catalogues(old, new)
    counts = {kind: sum(1 for c in changes if kind in c.kinds) for kind in ("added", "removed")}
    changed = len(changes) - counts["added"] - counts["removed"]
    summary = (f"{counts['added']} added, {counts['removed']} removed, {changed} changed "
               f"({old.version or args.old} -> {new.version or args.new})")
    data = {"old": old.version, "new": new.version, "changes": [c.as_json() for c in changes]}
    text = "\n".join([*report_lines(changes), summary])
    return (EXIT_PROBLEMS if changes else EXIT_OK), data, text


def command_graph(args: argparse.Namespace) -> tuple[int, Any, str]:
    from rules.graph import dependencies

    registry = _registry(args.system)
    graph = dependencies(registry)
    data = {"system": registry.system,
            "nodes": [{"uid": uid, "name": registry[uid].name, "depends_on": list(graph.depends_on(uid)),
                       "parameters": list(graph.parameters.get(uid, ())), "used_by": list(graph.used_by(uid))}
                      for uid in graph.connected()]}
    if args.dot:
        lines = [f"digraph {json.dumps(registry.system)} {{", "  rankdir=LR;", "  node [shape=box];"]
        lines += [f"  {json.dumps(uid)} [label={json.dumps(registry[uid].name)}];" for uid in graph.connected()]
        lines += [f"  {json.dumps(source)} -> {json.dumps(target)};" for source, target in graph.edges()]
        return EXIT_OK, data, "\n".join([*lines, "}"])
    lines = []
    for target in sorted(graph.inputs):
        sources = ", ".join(registry[uid].name for uid in graph.depends_on(target))
        extra = graph.parameters.get(target, ())
        lines.append(f"{registry[target].name} ({target}) <- {sources}" + (f" and {', '.join(extra)}" if extra else ""))
    lines.append(f"{len(graph.edges())} connection(s) among {len(graph.connected())} node(s) of {registry.system}")
    return EXIT_OK, data, "\n".join(lines)


def _conf_line(target: Path) -> str:
    """The ``rpg_pyodide_vendor`` line for the conf.py of the project here (``./conf.py`` or
    ``./docs/conf.py``), relative to that file's folder as the setting is read; else an absolute path."""
    for conf in (Path("conf.py"), Path("docs") / "conf.py"):
        if conf.is_file():
            relative = Path(os.path.relpath(target.resolve(), conf.resolve().parent)).as_posix()
            return f"in {conf.as_posix()}: rpg_pyodide_vendor = {relative!r}"
    return f"in conf.py: rpg_pyodide_vendor = {str(target.resolve())!r}"


def command_pyodide(args: argparse.Namespace) -> tuple[int, Any, str]:
    import rules
    from sphinx_rpg import vendor
    from sphinx_rpg.vendor import PYODIDE_FILES, STAMP, VendorError, damaged, vendor_pyodide

    directory = Path(args.directory)
    changed = damaged(directory / args.version, args.version)
    # a finished copy some of whose files no longer have their recorded hash: unpacked again, and said so
    repaired = changed if (directory / args.version / STAMP).is_file() and len(changed) < len(PYODIDE_FILES) else []
    try:
        target = vendor_pyodide(directory, args.version)
    except VendorError as error:
        raise CliError(str(error)) from None
    except OSError as error:
        raise CliError(f"cannot write into {directory}: {error.strerror or error}") from None
    bytecode = "; the standard library's bytecode is there"
    if changed or not (target / vendor.PRECOMPILED_STDLIB).is_file():
        try:  # compiled by this very Pyodide (Node.js), for the modules it and the engine import
            made = vendor.precompile_stdlib(target, Path(rules.__file__).resolve().parent.parent)
            bytecode = "; the standard library's bytecode made" if made else \
                "; no Node.js here, so the calculator compiles the standard library at each start"
        except VendorError as error:
            bytecode = f"; {error}"
    size = sum(path.stat().st_size for path in target.iterdir() if path.is_file())
    if not changed:
        done, why = "already vendored", "; every file matches its recorded hash"
    elif repaired:
        done, why = "repaired", f"; {', '.join(repaired)} differed from its recorded hash and was unpacked again"
    else:
        done, why = "vendored from registry.npmjs.org (sha512 checked)", ""
    text = f"Pyodide {args.version} {done}: {target} ({size / 1e6:.1f} MB{why}{bytecode})\n{_conf_line(target)}"
    return EXIT_OK, {"version": args.version, "folder": str(target), "bytes": size,
                     "downloaded": bool(changed) and not repaired, "repaired": repaired}, text


# -- the parser ---------------------------------------------------------------------------------------
def _parser(side_rolls: Sequence[SideRoll] = ()) -> argparse.ArgumentParser:
    parser = _Parser(prog="rpg", description="Roll dice, compute exact odds, and check or export sphinx-rpg "
                     "rulebooks.", epilog="Notation may start with '-': rpg odds '-(1d8+2)+10'")
    from sphinx_rpg.version import __version__

    parser.add_argument("--version", action="version", version=f"rpg (sphinx-rpg) {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def common(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("--json", action="store_true", help="print JSON instead of text")

    roll = commands.add_parser("roll", help="roll dice notation (4d6kh3, 2d6+3, 6d6>=4, d6!)")
    roll.add_argument("notation", type=_nonempty)
    roll.add_argument("--seed", type=_seed, default=None, help="seed for a reproducible roll (0 to 4294967295)")
    roll.add_argument("--dc", type=int, default=None, help="difficulty: report success when total >= DC")
    roll.add_argument("--system", default=None, type=_nonempty,
                      help=SYSTEM_HELP + "; it may add side-roll flags of its own")
    for side in side_rolls:
        roll.add_argument(f"--{side.name}", dest=f"side_{side.name}", action="store_true", help=side.help)
    common(roll)
    roll.set_defaults(run=command_roll)

    odds = commands.add_parser("odds", help="exact distribution or success table of dice notation")
    odds.add_argument("notation", type=_nonempty)
    odds.add_argument("--dc", default=None, type=_nonempty, help="P(result >= DC) for a range of DCs, e.g. 1-12")
    odds.add_argument("--under", default=None, type=_nonempty, help="P(result <= target) for a range, e.g. 3-18")
    odds.add_argument("--system", default=None, type=_nonempty, help=SYSTEM_HELP)
    odds.add_argument("--fold", action="store_true",
                      help="fold a long table's rarest results into one row at each end, as the calculator does")
    common(odds)
    odds.set_defaults(run=command_odds)

    check = commands.add_parser("check", help="build a rulebook quietly and report every node.* problem")
    check.add_argument("docs", metavar="DOCS_DIR", type=_nonempty)
    common(check)
    check.set_defaults(run=command_check)

    export = commands.add_parser("export", help="write the node catalogue (nodes.json) of a rulebook")
    export.add_argument("docs", metavar="DOCS_DIR", type=_nonempty)
    export.add_argument("-o", "--output", default="nodes.json", type=_nonempty,
                        help="where to write (default nodes.json); an existing file is replaced only if "
                             "it is an earlier export")
    export.add_argument("--force", action="store_true", help="replace OUTPUT even if it is not an earlier export")
    common(export)
    export.set_defaults(run=command_export)

    new = commands.add_parser("new", help="create a starter rulebook with its own engine package")
    new.add_argument("directory", metavar="DIR", help="a new or empty directory")
    new.add_argument("--name", default=None, help="the game's name (default: from DIR)")
    new.add_argument("--package", default=None, help="the engine package's name (default: from the game's name)")
    common(new)
    new.set_defaults(run=command_new)

    diff = commands.add_parser("diff", help="what changed between two node catalogues (nodes.json)")
    diff.add_argument("old", metavar="OLD_JSON")
    diff.add_argument("new", metavar="NEW_JSON")
    common(diff)
    diff.set_defaults(run=command_diff)

    graph = commands.add_parser("graph", help="which rules of a game system derive from which")
    graph.add_argument("--system", required=True, help="the game system: a bundled short name or an import path "
                       "such as mygame.rules:REGISTRY")
    graph.add_argument("--dot", action="store_true", help="print Graphviz DOT instead of text")
    common(graph)
    graph.set_defaults(run=command_graph)

    from sphinx_rpg.vendor import PYODIDE_VERSION

    pyodide = commands.add_parser("pyodide", help="vendor Pyodide (npm registry, integrity checked) for the "
                                  "dice calculator, so a site needs no CDN")
    pyodide.add_argument("directory", metavar="DIR", type=_nonempty,
                         help="where to cache the tarball and unpack it (DIR/<version>/)")
    pyodide.add_argument("--version", dest="version", default=PYODIDE_VERSION, type=_nonempty,
                         help=f"the Pyodide release (default {PYODIDE_VERSION}, the one the calculator is tested with)")
    common(pyodide)
    pyodide.set_defaults(run=command_pyodide)
    from sphinx_rpg.matchup_cli import add_matchup

    add_matchup(commands, common)
    from sphinx_rpg.serve import add_command as add_serve

    add_serve(commands, common)
    return parser


def _say(text: str, stream: typing.TextIO) -> bool:
    """Print; False when the reader went away (``| head``) or the output cannot be written."""
    try:
        print(text, file=stream, flush=True)
    except BrokenPipeError:
        # Python would report the closed pipe again at exit: point stdout at nothing, quietly
        with contextlib.suppress(OSError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, stream.fileno())
        return False
    except OSError as error:  # a full disk, a closed descriptor: one line on stderr, if it still works
        with contextlib.suppress(OSError):
            print(f"rpg: cannot write the output: {error.strerror or error}", file=sys.stderr, flush=True)
        raise _OutputError() from None
    return True


class _OutputError(Exception):
    pass


def _side_rolls(argv: Sequence[str] | None) -> tuple[SideRoll, ...]:
    """The side rolls of the system ``--system`` names, so ``rpg roll`` can offer their flags."""
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("command", nargs="?")
    pre.add_argument("--system")
    known, _ = pre.parse_known_args(argv)
    if known.command != "roll" or not known.system:
        return ()
    try:
        return tuple(_notation(known.system).side_rolls)
    except CliError:
        return ()  # the command itself reports the bad system


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser(_side_rolls(sys.argv[1:] if argv is None else argv))
    _ARGV[:] = list(argv) if argv is not None else sys.argv[1:]
    args = parser.parse_args(argv)
    status: int
    try:
        if getattr(args, "system", None):
            _find_game_here(args.system)
        result: tuple[int, Any, str] = args.run(args)
        status, data, text = result
    except (CliError, ValueError) as error:  # an engine rule refusing its input names the bad value
        from rules.systems import SystemLoadError

        hint = _system_hint(args.system) if isinstance(error, SystemLoadError) else ""
        message = f"rpg {args.command}: {_one_line(str(error))}{hint}"
        status, data, text, stream = EXIT_ERROR, None, message, sys.stderr
    except KeyboardInterrupt:
        raise
    except BaseException as error:  # a bug (or a stray sys.exit): still one line, never a traceback
        from sphinx_rpg.boundary import describe

        message = f"rpg {args.command}: internal error: {describe(error)}"
        status, data, text, stream = EXIT_INTERNAL, None, message, sys.stderr
    else:
        stream = sys.stdout
        text = json.dumps(data, indent=2) if args.json else _printable(text)
    try:
        _say(text, stream)
    except _OutputError:
        return EXIT_ERROR
    return status


if __name__ == "__main__":
    sys.exit(main())
