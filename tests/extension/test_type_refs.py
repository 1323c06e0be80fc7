"""A type name that no documented Python object can match is looked up exactly, with the same outcome.

``sphinx_rpg.type_refs``: Sphinx searched every Python object by its ending for each such name (``int``,
``str``...), up to three times per name.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sphinx.domains.python import PythonDomain

import sphinx_rpg.type_refs

PAGE = """Game
====

.. py:module:: game

.. py:class:: Die

   A die.

.. py:function:: roll(count, die, faces)

   Roll the dice.

   :param count: how many dice
   :type count: int
   :param die: which die
   :type die: Die
   :param faces: the faces
   :type faces: game.Die
   :rtype: fractions.Fraction

.. py:function:: pick(what)

   :param what: what to pick
   :type what: str | None
"""


def _book(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "conf.py").write_text("extensions = ['sphinx_rpg']\nrpg_charts = False\n"
                                  "latex_documents = [('index', 'book.tex', 'Book', 'A', 'manual')]\n")
    (root / "index.rst").write_text(PAGE)
    return root


@pytest.fixture
def searches(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """Each look-up of the Python domain while the test runs: (target, search mode; 1 is by ending)."""
    seen: list[tuple[str, int]] = []
    original = PythonDomain.find_obj

    def find_obj(self: PythonDomain, env: Any, modname: Any, classname: Any, name: str, type: Any,
                 searchmode: int = 0) -> Any:
        seen.append((name, searchmode))
        return original(self, env, modname, classname, name, type, searchmode)

    monkeypatch.setattr(PythonDomain, "find_obj", find_obj)
    return seen


def test_a_type_name_no_object_ends_with_is_looked_up_exactly(build, warning_text, searches, tmp_path: Path) -> None:
    app = build(_book(tmp_path / "src"))
    assert warning_text(app) == ""
    by_ending = {name for name, mode in searches if mode == 1}
    exactly = {name for name, mode in searches if mode == 0}
    assert {"int", "str", "None", "fractions.Fraction"} <= exactly and not {"int", "str", "None"} & by_ending
    assert {"Die", "game.Die"} <= by_ending  # names a documented object ends with: Sphinx's own search
    html = (Path(app.outdir) / "index.html").read_text()
    assert html.count('href="#game.Die"') >= 2, "both type names of the documented class are links"


@pytest.mark.parametrize("builder", ["html", "latex"])
def test_the_page_is_what_sphinxs_own_search_makes_of_it(build, tmp_path: Path, monkeypatch, builder) -> None:
    page = "index.html" if builder == "html" else "book.tex"
    ours = (Path(build(_book(tmp_path / "ours" / "src"), builder).outdir) / page).read_text()
    monkeypatch.setattr(sphinx_rpg.type_refs, "setup", lambda app: None)
    sphinxs = (Path(build(_book(tmp_path / "sphinxs" / "src"), builder).outdir) / page).read_text()
    assert ours == sphinxs
