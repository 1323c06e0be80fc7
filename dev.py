#!/usr/bin/env python3
"""Developer entry point: the two README commands, runnable with nothing but ``python3``.

    python3 dev.py site    build the rulebook site: docs/_build/html (designer edition) and
                           docs/_build/player (player edition)
    python3 dev.py test    run every test: the static checks below, warnings-as-errors Sphinx
                           builds of docs/ (both editions) and pytest (unit, integration, Sybil)
    python3 dev.py check   only the static checks: ruff (lint) and mypy (types), configured in
                           pyproject.toml

Both create or refresh ``.venv`` first: it is brought up to date whenever ``pyproject.toml`` or
``constraints.txt`` changes, so a fresh clone needs no other set-up step.  ``site`` installs only
what building the site needs (the ``site`` extra: theme, MyST, matplotlib), so a first run is quick;
``test`` installs everything.  Each keeps its own stamp, and a ``.venv`` made for ``test`` serves
``site`` as it is.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
#: The extras each command needs; a command is also served by any set that includes its own.
EXTRAS = {"site": "site", "check": "test,myst,chart,site", "test": "test,myst,chart,site"}


def _stamp(command: str) -> Path:
    return VENV / f".sphinx-rpg-stamp-{command}"


def _fingerprint(extras: str) -> str:
    digest = hashlib.sha256(extras.encode())
    for name in ("pyproject.toml", "constraints.txt"):
        path = ROOT / name
        if path.exists():
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _up_to_date(command: str) -> bool:
    stamp = _stamp(command)
    return stamp.exists() and stamp.read_text().strip() == _fingerprint(EXTRAS[command])


def ensure_venv(command: str) -> None:
    """Create the virtual environment or bring it up to date with what ``command`` needs."""
    wanted = set(EXTRAS[command].split(","))
    if any(_up_to_date(other) for other, extras in EXTRAS.items() if wanted <= set(extras.split(","))):
        return
    if not (BIN / "python").exists():
        print("dev.py: creating .venv", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    what = "what building the site needs" if command == "site" else "its test dependencies"
    print(f"dev.py: installing sphinx-rpg and {what} into .venv", flush=True)
    pip = [str(BIN / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    constraints = ROOT / "constraints.txt"
    if constraints.exists():
        pip += ["-c", str(constraints)]
    subprocess.run([*pip, "-e", f".[{EXTRAS[command]}]"], cwd=ROOT, check=True)
    _stamp(command).write_text(_fingerprint(EXTRAS[command]) + "\n")


def run(*args: str, env: dict[str, str] | None = None) -> int:
    environment = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", **(env or {}))
    return subprocess.run([str(BIN / args[0]), *args[1:]], cwd=ROOT, env=environment).returncode


#: Books that extend a core book (supplements/<name>/conf.py); each is built after docs/ and published
#: inside the core site at supplements/<name>/, its intersphinx links reading the core's inventory.
SUPPLEMENTS = sorted(path.parent.name for path in (ROOT / "supplements").glob("*/conf.py"))


def build_supplements(core_html: str, *options: str) -> int:
    """Build every supplement against the core site just built (``-W`` when ``options`` say so)."""
    status = 0
    for name in SUPPLEMENTS:
        doctrees = f"{core_html}/../supplement-doctrees/{name}"
        status |= run("sphinx-build", *options, "-q", "-b", "html", "-d", doctrees, f"supplements/{name}",
                      f"{core_html}/supplements/{name}", env={"RPG_CORE_HTML": str(ROOT / core_html)})
    return status


#: The site's editions: (name, ``-D`` overrides, output folder).  Each keeps doctrees of its own: the
#: editions differ in what is read (see the manual's "Editions and reader aids").
EDITIONS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("designer", (), "docs/_build/html"),
    ("player", ("-D", "rpg_edition=player"), "docs/_build/player"),
)


def site() -> int:
    """Build every edition of the site and say where each one is."""
    for name, overrides, outdir in EDITIONS:
        doctrees = f"docs/_build/doctrees-{name}"
        status = run("sphinx-build", "-b", "html", "-j", "auto", "-q", *overrides, "-d", doctrees, "docs", outdir)
        if status:
            return status
        if name == "designer":  # the supplements are published inside the designer edition
            status = build_supplements(outdir)
            if status:
                return status
        print(f"dev.py: the {name} edition of the site is at {ROOT / outdir / 'index.html'}", flush=True)
    return 0


LINTED = ("rules", "sphinx_rpg", "bench", "tests", "dev.py", "conftest.py", "docs/conf.py", "docs/conftest.py",
          "supplements")


def check() -> int:
    """Lint with ruff and type-check with mypy; both run (each names what it found) and either fails it."""
    failed = []
    print("dev.py: ruff (lint)", flush=True)
    if run("ruff", "check", "--quiet", *LINTED):
        failed.append("ruff")
    print("dev.py: mypy (types)", flush=True)
    if run("mypy"):  # what it checks and how strictly: [tool.mypy] in pyproject.toml
        failed.append("mypy")
    if failed:
        print(f"dev.py: static checks failed: {', '.join(failed)} (see above)", flush=True)
    return 1 if failed else 0


def test() -> int:
    """Run the static checks, build the site once per format with warnings as errors, then run pytest.

    The site tests (print, browser) check these very outputs, named in SPHINX_RPG_SITE_*, so nothing
    is built twice; run alone, those tests build what they need themselves.
    """
    checks_status = check()
    html, latex, player = "docs/_build/test-html", "docs/_build/test-latex", "docs/_build/test-player"
    doctrees = ["-d", "docs/_build/test-doctrees"]
    print("dev.py: warnings-as-errors build of docs/ (html)", flush=True)
    html_status = run("sphinx-build", "-W", "--keep-going", "-q", "-E", "-b", "html", *doctrees, "docs", html)
    if not html_status:
        print("dev.py: warnings-as-errors build of the supplements (html)", flush=True)
        html_status = build_supplements(html, "-W", "--keep-going", "-E")
    print("dev.py: warnings-as-errors build of docs/ (latex, for print)", flush=True)
    shutil.rmtree(ROOT / latex, ignore_errors=True)  # a .tex of an older document layout must not linger
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
    failed = [name for name, code in (("static checks (ruff/mypy)", checks_status),
                                      ("docs build", html_status or latex_status or player_status),
                                      ("pytest", status)) if code]
    if failed:
        print(f"dev.py: FAILED: {', '.join(failed)}", flush=True)
    return 1 if failed else 0


COMMANDS = {"site": site, "test": test, "check": check}


def main() -> int:
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        print(__doc__)
        return 2
    ensure_venv(sys.argv[1])
    if sys.argv[1] in ("site", "test"):  # the dice calculator's Pyodide: once from npm, then from .cache/
        run("rpg", "pyodide", ".cache/pyodide")
    return COMMANDS[sys.argv[1]]()


if __name__ == "__main__":
    sys.exit(main())
