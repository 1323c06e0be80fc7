#!/usr/bin/env python3
"""Build a small book with every directive on the lowest Sphinx sphinx-rpg declares and on the newest.

    python3 dev.py versions                    the floor of ``sphinx>=`` in pyproject.toml and the newest
                                               release the package index offers
    python3 ci/sphinx_versions.py 9.0.0 9.0.4  the versions named

For each version: a virtual environment under ``.cache/sphinx-versions/`` with sphinx-rpg and that
Sphinx; then, on Furo and on alabaster, with ``-W`` (warnings are errors) and ``-j 2``: a fresh build,
an incremental build after one page changed, and a rebuild with nothing changed.  Too slow for the
three-minute test command (a few minutes on two cores), so it runs beside it: before a release, and
whenever the declared Sphinx range changes.  Only the standard library is needed to run it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".cache" / "sphinx-versions"
THEMES = ("furo", "alabaster")
#: What the book needs besides sphinx-rpg (its own dependencies come with it).
EXTRA = ("furo",)

CONF = """\
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
project = "versions"
extensions = ["sphinx_rpg"]
rpg_registries = ["dndalike"]
rpg_releases = {"0.0": "release.json"}
rpg_charts = False  # matplotlib is the calculator's and the site's, not the extension's
#: A small book defines a few of the registry's nodes, not all: the rest are neither listed as missing
#: nor linked (the sheet and stat block name them).  Every other warning is an error (-W).
suppress_warnings = ["node.undocumented", "node.ref"]
"""

RELEASE = '{"schema_version":2,"project":"versions","version":"0.0","nodes":[]}\n'

PAGES = {
    "index": """\
Every directive
===============

.. toctree::

   rules
   tables
   sheet
   editions
""",
    "rules": """\
Rules
=====

.. node:def:: Stat Bonus
   :uid: Dndalike.Rule.StatBonus

   A stat's bonus, used by :node:ref:`Dndalike.Stat.Strength`.

.. node:def:: Strength
   :uid: Dndalike.Stat.Strength

   How hard you hit.

.. node:list::
   :filter: uid ^= "Dndalike.Stat."

.. node:cards::
   :filter: uid ^= "Dndalike.Rule."

.. node:legend:: dndalike

.. node:graph::
   :system: dndalike

.. node:changes::
   :since: 0.0
""",
    "tables": """\
Tables
======

.. node:table:: dndalike:stat_bonus_odds

.. node:odds:: 3d6
   :dc: 8-12

.. node:odds:: {dice}d6
   :vary: dice=1-3 (2)
   :dc: 2-6

.. node:statblock:: dndalike:orc

.. node:calculator::
   :notation: 2d6kh1
   :dc: 4

.. node:example:: Two dice, the higher kept

   Rolling 2d6 and keeping the higher die gives 4 or more three times in four.
""",
    "sheet": """\
Sheet
=====

.. node:sheet::
   :system: dndalike
   :inputs: type == "stat"
   :derived: type == "derived"
   :caption: An adventurer
""",
    "editions": """\
Editions
========

.. node:designer::

   For designers only.

.. node:player::

   For players only.
""",
}


def declared_floor() -> str:
    """The version after ``sphinx>=`` in pyproject.toml."""
    match = re.search(r'"sphinx>=([0-9.]+)', (ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    if not match:
        raise SystemExit("pyproject.toml declares no 'sphinx>=' floor")
    return match.group(1)


def newest_release() -> str:
    """The newest Sphinx the package index offers (``pip index versions``)."""
    out = subprocess.run([sys.executable, "-m", "pip", "index", "versions", "sphinx"], capture_output=True,
                         text=True, timeout=120).stdout
    match = re.search(r"^sphinx \(([^)]+)\)", out, re.MULTILINE)
    if not match:
        raise SystemExit("cannot ask the package index for Sphinx's versions; name them: "
                         "python3 ci/sphinx_versions.py LOW HIGH")
    return match.group(1)


def environment(version: str) -> Path:
    """A virtual environment with sphinx-rpg (editable) and exactly this Sphinx."""
    folder = CACHE / version
    python = folder / ("Scripts" if os.name == "nt" else "bin") / "python"
    stamp = folder / ".ready"
    if stamp.exists():
        return python
    shutil.rmtree(folder, ignore_errors=True)
    venv.EnvBuilder(with_pip=True).create(folder)
    wanted = ["-e", str(ROOT), f"sphinx=={version}", *EXTRA]
    uv = shutil.which("uv") or str(ROOT / ".venv" / "bin" / "uv")
    if Path(uv).exists():
        command = [uv, "pip", "install", "--quiet", "--python", str(python), *wanted]
    else:
        command = [str(python), "-m", "pip", "install", "--quiet", *wanted]
    subprocess.run(command, check=True)
    stamp.write_text(version + "\n")
    return python


def write_book(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "conf.py").write_text(CONF, encoding="utf-8")
    (folder / "release.json").write_text(RELEASE, encoding="utf-8")
    for name, text in PAGES.items():
        (folder / f"{name}.rst").write_text(text, encoding="utf-8")


def sphinx_build(python: Path, source: Path, out: Path, theme: str) -> tuple[int, str, float]:
    started = time.monotonic()
    result = subprocess.run([str(python), "-m", "sphinx", "-W", "--keep-going", "-q", "-j", "2", "-b", "html",
                             "-D", f"html_theme={theme}", str(source), str(out)],
                            capture_output=True, text=True, timeout=900)
    return result.returncode, (result.stdout + result.stderr).strip(), time.monotonic() - started


def check(python: Path, theme: str, work: Path) -> list[str]:
    """Fresh, incremental and no-op builds of the book; the problems found (none: it works)."""
    source, out = work / theme / "src", work / theme / "out"
    write_book(source)
    problems = []
    for step in ("fresh", "incremental", "no-op"):
        if step == "incremental":
            with (source / "rules.rst").open("a", encoding="utf-8") as page:
                page.write("\nOne more paragraph, and a link to :node:ref:`Dndalike.Rule.StatBonus`.\n")
        status, output, seconds = sphinx_build(python, source, out, theme)
        state = "ok" if status == 0 else f"FAILED (exit {status})"
        print(f"    {theme:10s} {step:12s} {state}  {seconds:5.1f} s", flush=True)
        if status != 0:
            problems.append(f"{theme} {step}: exit {status}\n{output[-3000:]}")
        elif not (out / "sheet.html").exists() or "rpg-odds-vary" not in (out / "tables.html").read_text("utf-8"):
            problems.append(f"{theme} {step}: the pages lack what the directives write")
    return problems


def main(argv: list[str]) -> int:
    versions = argv or [declared_floor(), newest_release()]
    failed = []
    with tempfile.TemporaryDirectory(prefix="rpg-versions-") as temporary:
        for version in dict.fromkeys(versions):
            print(f"Sphinx {version}:", flush=True)
            python = environment(version)
            installed = subprocess.run([str(python), "-c", "import sphinx; print(sphinx.__version__)"],
                                       capture_output=True, text=True, check=True).stdout.strip()
            if installed != version and not installed.startswith(version + "."):
                failed.append(f"Sphinx {version}: the environment holds Sphinx {installed}")
                continue
            for theme in THEMES:
                failed += [f"Sphinx {version}, {problem}" for problem in
                           check(python, theme, Path(temporary) / version)]
    for problem in failed:
        print(problem, file=sys.stderr)
    print("every build passed" if not failed else f"{len(failed)} build(s) failed", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
