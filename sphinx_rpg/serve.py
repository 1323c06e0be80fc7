"""``rpg serve``: a live preview of a rulebook, rebuilt whenever a page or the game's engine changes.

It is sphinx-autobuild (the ``designer`` extra installs it) with what a rulebook needs: the game
packages ``rpg_registries`` names are watched besides the pages (an engine edit changes what the book
prints), the server listens on 127.0.0.1 only, and ``--player`` previews the player edition.  Each
rebuild is a fresh ``sphinx-build`` process, so an edited rule is imported anew.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import socket
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: The only address the preview listens on: it is for the designer's own browser, not the network.
HOST = "127.0.0.1"
DEFAULT_PORT = 8000


class ServeError(ValueError):
    """The preview cannot start (no conf.py, sphinx-autobuild missing); the message says what to do."""


@dataclass(frozen=True)
class Preview:
    """What ``rpg serve`` runs: the book's folder, where the pages go, the folders watched, the port."""

    docs: Path
    outdir: Path
    watched: tuple[Path, ...]
    port: int
    player: bool

    @property
    def address(self) -> str:
        return f"http://{HOST}:{self.port}/"

    def command(self) -> list[str]:
        """The sphinx-autobuild command line (run with this Python, so the same environment)."""
        command = [sys.executable, "-m", "sphinx_autobuild", str(self.docs), str(self.outdir),
                   "--host", HOST, "--port", str(self.port)]
        for folder in self.watched:
            command += ["--watch", str(folder)]
        if self.player:
            command += ["-D", "rpg_edition=player"]
        return command


def find_docs(given: str | None) -> Path:
    """The folder of the book's conf.py: ``given``, else ``docs/`` or ``.`` of the current folder."""
    candidates = [Path(given)] if given else [Path("docs"), Path(".")]
    for folder in candidates:
        if (folder / "conf.py").is_file():
            return folder
    where = given or "docs/ or the current folder"
    raise ServeError(f"no conf.py in {where}: run rpg serve in the folder rpg new made, or name the book's folder")


def game_packages(docs: Path) -> tuple[Path, ...]:
    """The folders of the game packages conf.py's ``rpg_registries`` names, except installed ones.

    conf.py is read as sphinx-build reads it (it is the designer's own file); ``sys.path`` is put back
    afterwards, so finding the packages leaves this process as it was.
    """
    from sphinx.config import eval_config_file
    from sphinx.errors import ConfigError
    from sphinx.util.tags import Tags

    saved = list(sys.path)
    try:
        try:
            namespace = eval_config_file(docs.resolve() / "conf.py", Tags())
        except ConfigError as error:
            raise ServeError(f"{docs / 'conf.py'} cannot be read: {str(error).splitlines()[0]}") from None
        entries = namespace.get("rpg_registries", [])
        folders = []
        for entry in entries if isinstance(entries, (list, tuple)) else ():
            name = str(entry).partition(":")[0].partition(".")[0].strip()
            if not name.isidentifier():
                continue
            try:
                spec = importlib.util.find_spec(name)
            except (ImportError, ValueError):
                continue
            for location in (spec.submodule_search_locations or ()) if spec else ():
                folder = Path(location).resolve()
                if "site-packages" not in folder.parts and "dist-packages" not in folder.parts:
                    folders.append(folder)
        return tuple(dict.fromkeys(folders))
    finally:
        sys.path[:] = saved


def free_port() -> int:
    """A port of 127.0.0.1 that nothing listens on now (``--port 0``), so the address can be printed first."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def plan(docs: str | None, port: int = DEFAULT_PORT, player: bool = False,
         watch: Sequence[str] = ()) -> Preview:
    """The preview ``rpg serve`` would run, without starting it."""
    if importlib.util.find_spec("sphinx_autobuild") is None:
        raise ServeError("rpg serve needs sphinx-autobuild: pip install 'sphinx-rpg[designer]' "
                         "(the starter's requirements.txt installs it)")
    if not 0 <= port < 65536:
        raise ServeError(f"port must be from 0 (any free port) to 65535, not {port}")
    port = port or free_port()
    folder = find_docs(docs)
    extra = []
    for name in watch:
        if not Path(name).is_dir():
            raise ServeError(f"--watch {name!r} is not a folder")
        extra.append(Path(name).resolve())
    outdir = folder / "_build" / ("player" if player else "html")
    return Preview(folder, outdir, tuple(dict.fromkeys([*game_packages(folder), *extra])), port, player)


def run(preview: Preview) -> int:
    """Run sphinx-autobuild until it ends or Ctrl+C; its exit status."""
    # no bytecode: a rule edited twice within a second (same size, same mtime) is never read from a stale .pyc
    process = subprocess.Popen(preview.command(), env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    try:
        return process.wait()
    except KeyboardInterrupt:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        return 0


def command(args: argparse.Namespace) -> tuple[int, Any, str]:
    """``rpg serve``: print the address, then run the preview until Ctrl+C."""
    from sphinx_rpg.cli_base import CliError

    try:
        preview = plan(args.docs, args.port, args.player, args.watch)
    except ServeError as error:
        raise CliError(str(error)) from None
    edition = "player" if preview.player else "designer"
    watched = ", ".join(str(folder) for folder in preview.watched) or "no game package"
    print(f"rpg serve: the {edition} edition of {preview.docs} on {preview.address} (watching the pages and "
          f"{watched}; Ctrl+C stops it)", flush=True)
    status = run(preview)
    return status, {"address": preview.address, "edition": edition, "status": status}, "rpg serve: stopped"


def add_command(commands: Any, common: Callable[[argparse.ArgumentParser], None]) -> None:
    """Register ``rpg serve`` on the ``rpg`` parser's subcommands."""
    serve = commands.add_parser("serve", help="a live preview on 127.0.0.1, rebuilt as pages or the engine change")
    serve.add_argument("docs", metavar="DOCS_DIR", nargs="?", default=None,
                       help="the book's folder (default: docs/ or the current folder, wherever conf.py is)")
    serve.add_argument("--port", type=int, default=DEFAULT_PORT,
                       help=f"the port (default {DEFAULT_PORT}; 0: any free one)")
    serve.add_argument("--player", action="store_true", help="preview the player edition instead of the designer's")
    serve.add_argument("--watch", action="append", default=[], metavar="DIR",
                       help="one more folder to watch (the game packages of rpg_registries are watched anyway)")
    common(serve)
    serve.set_defaults(run=command)
