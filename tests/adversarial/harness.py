"""Tiny hostile rulebooks, built in-process with Sphinx's API (one project per case, in tmp_path).

A case is a few pages, optionally some rule code appended to a small base registry, and a conf.py
addition.  The base registry publishes one probe table that records each call in a file beside it, so
a case can prove that page text did *not* reach the engine.
"""

from __future__ import annotations

import io
import json
import re
import sys
import uuid
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from sphinx.application import Sphinx
from sphinx.util.docutils import docutils_namespace

from sphinx_rpg.binding import bind

THEME_DIR = Path(__file__).parent / "theme"
END = "END-OF-PAGE"

BASE_RULES = '''
import pathlib, sys
from fractions import Fraction
from rules.nodes import Fact, Node, Ranks, Registry
from rules.providers import Bool, Choice, Int, Text
from rules.tables import Table

CALLS = pathlib.Path(__file__).with_name("CALLS")

def record(what):
    with CALLS.open("a") as stream:
        stream.write(what + "\\n")

REGISTRY = Registry("adv", node_types={"E": "Effect", "R": "Resource", "A": "Attribute"})
REGISTRY.define("Adv.Trait.Energy", "Energy", "E,R", summary="Fuel.", values={"base": 5}, formula="Focus + 5")

@REGISTRY.table(n=Int(1, 10), flag=Bool(), mode=Choice("on", "off"), notation=Text(r"\\d{1,2}d\\d{1,3}", 8))
def probe(n: int = 2, flag: bool = False, mode: str = "on", notation: str = "1d6") -> Table:
    record(f"probe {n!r} {flag!r} {mode!r} {notation!r}")
    return Table.of(("N", "Flag"), [(n, str(flag))], "Probe")

def unpublished(*args, **kwargs):
    record("unpublished")
    return Table.of(("a",), [(1,)])
'''


@dataclass
class Build:
    srcdir: Path
    outdir: Path
    warnings: list[str]
    status: str
    error: BaseException | None = None

    def node_warnings(self, subtype: str) -> list[str]:
        return [w for w in self.warnings if w.endswith(f"[node.{subtype}]")]

    def warned(self, subtype: str, *fragments: str, at: str | None = None) -> bool:
        """A node.<subtype> warning holding every fragment (and located at ``at``, a 'file:line' suffix)."""
        for line in self.node_warnings(subtype):
            location = line.split(": WARNING:")[0] if ": WARNING:" in line else ""
            if all(f in line for f in fragments) and (at is None or location.endswith(at)):
                return True
        return False

    def page(self, name: str = "index") -> str:
        return (self.outdir / f"{name}.html").read_text(encoding="utf-8")

    def nodes(self) -> list[dict[str, Any]]:
        document: dict[str, Any] = json.loads((self.outdir / "nodes.json").read_text(encoding="utf-8"))
        return list(document["nodes"])

    def uids(self) -> set[str]:
        return {str(n["uid"]) for n in self.nodes()}

    def inventory(self) -> list[str]:
        data = (self.outdir / "objects.inv").read_bytes()
        body = data.split(b"\n", 4)[4]
        return zlib.decompress(body).decode("utf-8").splitlines()

    def calls(self) -> list[str]:
        path = self.srcdir / "CALLS"
        return path.read_text().splitlines() if path.exists() else []


def write_book(root: Path, pages: dict[str, str], rules: str = "", conf: str = "", *,
               theme: str = "rpgtiny") -> Path:
    """A project: ``pages`` (name -> text; ``index`` gets a toctree of the others), rules, conf.py lines."""
    root.mkdir(parents=True, exist_ok=True)
    module = f"advrules_{uuid.uuid4().hex[:12]}"
    (root / f"{module}.py").write_text(BASE_RULES + "\n" + rules, encoding="utf-8")
    conf = conf.replace("{module}", module)
    (root / "conf.py").write_text(
        "import os, sys\nsys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))\n"
        "extensions = ['sphinx_rpg']\nproject = 'adv'\n"
        f"rpg_registries = ['{module}:REGISTRY']\n"
        f"html_theme = {theme!r}\nhtml_theme_path = [{str(THEME_DIR)!r}]\n"
        "html_copy_source = False\nrpg_charts = False\nsuppress_warnings = ['node.undocumented']\n"
        + conf, encoding="utf-8")
    pages = dict(pages)
    index = pages.pop("index", "")
    others = [name for name in pages if not name.startswith("_") and "." not in name]
    toctree = ".. toctree::\n\n" + "".join(f"   {name}\n" for name in others) if others else ""
    (root / "index.rst").write_text(f"Index\n=====\n\n{index}\n\n{toctree}\n{END}\n", encoding="utf-8")
    for name, text in pages.items():
        path = root / (name if "." in name else f"{name}.rst")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def forget_modules(root: Path) -> None:
    """Each build imports the book's rules afresh, as a new sphinx-build process would."""
    bind.cache_clear()
    for name, module in list(sys.modules.items()):
        if str(getattr(module, "__file__", "") or "").startswith(str(root)):
            del sys.modules[name]
    sys.path[:] = [p for p in sys.path if p != str(root)]


def build(root: Path, builder: str = "html", *, fresh: bool = True, out: str = "_build",
          tags: Sequence[str] = (), parallel: int = 0) -> Build:
    """Build in-process; warnings without colours, one per line."""
    warning, status = io.StringIO(), io.StringIO()
    outdir, doctrees = root / out / builder, root / out / ".doctrees"
    error: BaseException | None = None
    forget_modules(root)
    try:
        with docutils_namespace():
            app = Sphinx(str(root), str(root), str(outdir), str(doctrees), builder, status=status,
                         warning=warning, freshenv=fresh, keep_going=True, tags=list(tags),
                         parallel=parallel)
            app.build()
    except SystemExit as exc:  # recorded: a case asserts there was none
        error = exc
    finally:
        forget_modules(root)
    text = re.sub(r"\x1b\[[0-9;]*m", "", warning.getvalue())
    lines = [line for line in text.splitlines() if "WARNING:" in line or "ERROR:" in line]
    return Build(root, outdir, lines, re.sub(r"\x1b\[[0-9;]*m", "", status.getvalue()), error)
