#!/usr/bin/env python3
"""Developer entry point: the two README commands, runnable with nothing but ``python3``.

    python3 dev.py site    build the rulebook site into docs/_build/html
    python3 dev.py test    run every test: the static checks below, a warnings-as-errors
                           Sphinx build of docs/ and pytest (unit, integration, Sybil over docs/)
    python3 dev.py check   only the static checks: ruff (lint) and mypy (types), configured in
                           pyproject.toml

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


def site() -> int:
    status = run("sphinx-build", "-b", "html", "-j", "auto", "-q", "docs", "docs/_build/html")
    return status or build_supplements("docs/_build/html")


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
    html, latex = "docs/_build/test-html", "docs/_build/test-latex"
    doctrees = ["-d", "docs/_build/test-doctrees"]
    print("dev.py: warnings-as-errors build of docs/ (html)", flush=True)
    html_status = run("sphinx-build", "-W", "--keep-going", "-q", "-E", "-b", "html", *doctrees, "docs", html)
    if not html_status:
        print("dev.py: warnings-as-errors build of the supplements (html)", flush=True)
        html_status = build_supplements(html, "-W", "--keep-going", "-E")
    print("dev.py: warnings-as-errors build of docs/ (latex, for print)", flush=True)
    latex_status = run("sphinx-build", "-W", "--keep-going", "-q", "-b", "latex", *doctrees, "docs", latex)
    if html_status or latex_status:
        print("dev.py: the docs/ build has warnings (see above)", flush=True)
    built = {"SPHINX_RPG_SITE_HTML": html if not html_status else "",
             "SPHINX_RPG_SITE_LATEX": latex if not latex_status else ""}
    print("dev.py: pytest (unit, integration, Sybil over docs/)", flush=True)
    status = run("python", "-m", "pytest", "-q", *sys.argv[2:], env=built)
    failed = [name for name, code in (("static checks (ruff/mypy)", checks_status),
                                      ("docs build", html_status or latex_status), ("pytest", status)) if code]
    if failed:
        print(f"dev.py: FAILED: {', '.join(failed)}", flush=True)
    return 1 if failed else 0


COMMANDS = {"site": site, "test": test, "check": check}


def main() -> int:
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        print(__doc__)
        return 2
    ensure_venv()
    return COMMANDS[sys.argv[1]]()


if __name__ == "__main__":
    sys.exit(main())
