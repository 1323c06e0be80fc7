"""The LaTeX build compiles each of Sphinx's table templates once, and writes what Sphinx writes.

Sphinx's LaTeX translator renders every table through a Jinja template and made a new environment for
each, compiling the template again per table (``sphinx_rpg.latex_templates``).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import jinja2
import pytest

import sphinx_rpg.latex_templates

TABLES = 3
#: Tables of each kind Sphinx's LaTeX writer has a template for: tabulary (a plain table), tabular
#: (column widths given) and longtable (asked for by class).
PAGE = "Book\n====\n\n" + "".join(
    f"""
.. list-table:: Plain {n}

   * - a
     - b
   * - {n}
     - {n + 1}

.. list-table:: Widths {n}
   :widths: 30 70

   * - c
     - d

.. list-table:: Long {n}
   :class: longtable

   * - e
     - f
""" for n in range(TABLES))


def _book(root: Path, conf: str = "") -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "conf.py").write_text("extensions = ['sphinx_rpg']\nrpg_charts = False\n"
                                  "latex_documents = [('index', 'book.tex', 'Book', 'A', 'manual')]\n" + conf)
    (root / "index.rst").write_text(PAGE)
    return root


@pytest.fixture
def compiled(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """The name of every template Jinja compiles while the test runs, counted."""
    names: Counter[str] = Counter()
    original = jinja2.Environment.compile

    def compile(self: jinja2.Environment, source: Any, name: str | None = None, *args: Any, **kwargs: Any) -> Any:
        names[name or ""] += 1
        return original(self, source, name, *args, **kwargs)

    monkeypatch.setattr(jinja2.Environment, "compile", compile)
    return names


def test_a_latex_build_compiles_each_table_template_once(build, warning_text, compiled, tmp_path: Path) -> None:
    app = build(_book(tmp_path / "src"), "latex")
    assert warning_text(app) == ""
    tex = (Path(app.outdir) / "book.tex").read_text()
    assert tex.count(r"\begin{tabulary}") == tex.count(r"\begin{tabular}") == tex.count(r"\begin{longtable}") == TABLES
    tables = {name: count for name, count in compiled.items() if name.endswith(".tex.jinja")}
    assert tables == {"tabulary.tex.jinja": 1, "tabular.tex.jinja": 1, "longtable.tex.jinja": 1,
                      "latex.tex.jinja": 1}


def test_the_latex_is_what_sphinxs_own_translator_writes(build, tmp_path: Path, monkeypatch) -> None:
    ours = (Path(build(_book(tmp_path / "ours"), "latex").outdir) / "book.tex").read_text()
    monkeypatch.setattr(sphinx_rpg.latex_templates, "extend_translator", lambda app: None)
    sphinxs = (Path(build(_book(tmp_path / "sphinxs"), "latex").outdir) / "book.tex").read_text()
    assert ours == sphinxs


def test_a_table_template_of_the_project_is_still_used(build, warning_text, tmp_path: Path) -> None:
    root = _book(tmp_path / "src", "templates_path = ['_templates']\n")
    (root / "_templates").mkdir()
    (root / "_templates" / "longtable.tex.jinja").write_text("OWN LONG TABLE OF <%= table.colcount %> COLUMNS\n")
    app = build(root, "latex")
    assert warning_text(app) == ""
    tex = (Path(app.outdir) / "book.tex").read_text()
    assert tex.count("OWN LONG TABLE OF 2 COLUMNS") == TABLES and r"\begin{longtable}" not in tex
    assert tex.count(r"\begin{tabulary}") == TABLES
