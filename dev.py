#!/usr/bin/env python3
"""Developer entry point: the two README commands, runnable with nothing but ``python3``.

    python3 dev.py site    build the rulebook site: docs/_build/html (designer edition) and
                           docs/_build/player (player edition)
    python3 dev.py test    run every test: pytest (unit, integration, Sybil over docs/)
                           and a warnings-as-errors Sphinx build of docs/

Both create or refresh ``.venv`` first: it is rebuilt whenever ``pyproject.toml`` or
``constraints.txt`` changes, so a fresh clone needs no other set-up step.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
STAMP = VENV / ".sphinx-rpg-stamp"
EXTRAS = "test,myst,chart"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")


def _fingerprint() -> str:
    digest = hashlib.sha256(EXTRAS.encode())
    for name in ("pyproject.toml", "constraints.txt"):
        path = ROOT / name
        if path.exists():
            digest.update(path.read_bytes())
    return digest.hexdigest()


def ensure_venv() -> None:
    """Create the virtual environment or bring it up to date with pyproject.toml."""
    wanted = _fingerprint()
    if STAMP.exists() and STAMP.read_text().strip() == wanted:
        return
    if not (BIN / "python").exists():
        print("dev.py: creating .venv", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    print("dev.py: installing sphinx-rpg and its test dependencies into .venv", flush=True)
    pip = [str(BIN / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    constraints = ROOT / "constraints.txt"
    if constraints.exists():
        pip += ["-c", str(constraints)]
    subprocess.run([*pip, "-e", f".[{EXTRAS}]"], cwd=ROOT, check=True)
    STAMP.write_text(wanted + "\n")


def run(*args: str, env: dict[str, str] | None = None) -> int:
    environment = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", **(env or {}))
    return subprocess.run([str(BIN / args[0]), *args[1:]], cwd=ROOT, env=environment).returncode


#: (edition, output directory, doctrees): the editions differ in what is read, so each keeps its own doctrees
EDITIONS = (("designer", "docs/_build/html", "docs/_build/doctrees"),
            ("player", "docs/_build/player", "docs/_build/player-doctrees"))


def site() -> int:
    """Both editions of every rulebook (see the manual's "Editions")."""
    for edition, outdir, doctrees in EDITIONS:
        status = run("sphinx-build", "-b", "html", "-j", "auto", "-q", "-D", f"rpg_edition={edition}",
                     "-d", doctrees, "docs", outdir)
        if status:
            return status
        print(f"dev.py: the {edition} edition is in {outdir}/index.html", flush=True)
    return 0


def test() -> int:
    """Build the site once per format with warnings as errors, then run pytest over everything.

    The site tests (print, browser) check these very outputs, named in SPHINX_RPG_SITE_*, so nothing
    is built twice; run alone, those tests build what they need themselves.
    """
    html, latex, player = "docs/_build/test-html", "docs/_build/test-latex", "docs/_build/test-player"
    doctrees = ["-d", "docs/_build/test-doctrees"]
    print("dev.py: warnings-as-errors build of docs/ (html)", flush=True)
    html_status = run("sphinx-build", "-W", "--keep-going", "-q", "-E", "-b", "html", *doctrees, "docs", html)
    print("dev.py: warnings-as-errors build of docs/ (latex, for print)", flush=True)
    latex_status = run("sphinx-build", "-W", "--keep-going", "-q", "-b", "latex", *doctrees, "docs", latex)
    # the player edition reads its pages differently: its own doctrees (sharing would re-read both ways)
    print("dev.py: warnings-as-errors build of docs/ (html, player edition)", flush=True)
    player_status = run("sphinx-build", "-W", "--keep-going", "-q", "-E", "-b", "html", "-D", "rpg_edition=player",
                        "-d", "docs/_build/test-player-doctrees", "docs", player)
    if html_status or latex_status or player_status:
        print("dev.py: the docs/ build has warnings (see above)", flush=True)
    built = {"SPHINX_RPG_SITE_HTML": html if not html_status else "",
             "SPHINX_RPG_SITE_LATEX": latex if not latex_status else "",
             "SPHINX_RPG_SITE_PLAYER": player if not player_status else ""}
    print("dev.py: pytest (unit, integration, Sybil over docs/)", flush=True)
    status = run("python", "-m", "pytest", "-q", *sys.argv[2:], env=built)
    return status or html_status or latex_status or player_status


COMMANDS = {"site": site, "test": test}


def main() -> int:
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        print(__doc__)
        return 2
    ensure_venv()
    return COMMANDS[sys.argv[1]]()


if __name__ == "__main__":
    sys.exit(main())
