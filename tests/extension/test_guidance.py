"""Mistakes that used to pass silently now warn, located, and say what to do (issue #31 item 4).

Each test builds a tiny book bound to a game module of its own (a fresh name per test, so no import is
shared), makes one mistake, and reads the warning.
"""

from __future__ import annotations

import difflib
import itertools
import random
import re
import sys
import textwrap
from pathlib import Path

import pytest

from sphinx_rpg.binding import bind
from sphinx_rpg.spelling import close_matches, did_you_mean, one_edit_apart

_NAMES = itertools.count()

GAME = '''\
from rules.formula import Formula
from rules.nodes import Registry

REGISTRY = Registry("gale", node_types={"A": "Attribute", "D": "Derived value", "SK": "Skill"})
REGISTRY.define("Gale.Attribute.Grit", "Grit", "A")
REGISTRY.define("Gale.Attribute.Turn", "Turn", "A")
REGISTRY.define("Gale.Derived.Toughness", "Toughness", "D", formula=Formula(FORMULA))
'''

PAGE = '''\
Rules
=====

.. node:def:: Grit
   :uid: Gale.Attribute.Grit

.. node:def:: Turn
   :uid: Gale.Attribute.Turn

.. node:def:: Toughness
   :uid: Gale.Derived.Toughness
'''


@pytest.fixture
def book(tmp_path, monkeypatch):
    """``book(formula=..., page=..., conf=...)`` -> the source folder of a one-page book."""
    made: list[str] = []

    def make(formula: str = "Grit * 2", page: str = PAGE, conf: str = "", game: str = GAME,
             suffix: str = ".rst") -> Path:
        module = f"gale_{next(_NAMES)}"
        made.append(module)
        folder = tmp_path / module
        folder.mkdir()
        (folder / f"{module}.py").write_text(game.replace("FORMULA", repr(formula)))
        (folder / "conf.py").write_text(f"extensions = ['sphinx_rpg']\nrpg_registries = ['{module}:REGISTRY']\n"
                                        + conf)
        (folder / "index.rst").write_text("Book\n====\n\n.. toctree::\n\n   rules\n")
        (folder / f"rules{suffix}").write_text(page)
        monkeypatch.syspath_prepend(str(folder))
        return folder

    bind.cache_clear()
    yield make
    bind.cache_clear()
    for module in made:
        sys.modules.pop(module, None)


def node_warnings(text: str) -> list[str]:
    return [line for line in text.splitlines() if "[node." in line]


# -- formulas ----------------------------------------------------------------------------------------------
def test_a_formula_name_one_letter_off_a_node_is_a_located_warning_with_the_node_it_means(book, build,
                                                                                         warning_text):
    source = book(formula="Grt + 2")
    warnings = node_warnings(warning_text(build(source, "dummy")))
    assert len(warnings) == 1, warnings
    module = next(source.glob("gale_*.py"))
    assert warnings[0].startswith(f"{module}:7:")  # the engine's line that defines the formula
    assert "names 'Grt', which is no node of 'gale' (did you mean 'Grit'?)" in warnings[0]
    assert "[node.formula]" in warnings[0] and str(source / "rules.rst") in warnings[0]


def test_a_formula_parameter_that_is_no_near_name_is_no_typo(book, build, warning_text):
    for formula in ("Grit + rank", "turns * 2", "Grit + 2"):  # a parameter, a plural, a node
        assert node_warnings(warning_text(build(book(formula=formula), "dummy"))) == []


@pytest.mark.parametrize(("a", "b", "near"), [("grt", "grit", True), ("girt", "grit", True), ("grot", "grit", True),
                                              ("turns", "turn", False), ("grit", "grit", False),
                                              ("might", "grit", False), ("x", "y", False)])
def test_one_edit_apart_means_one_letter_added_dropped_changed_or_swapped_but_not_a_plural(a, b, near):
    assert one_edit_apart(a, b) is near


# -- titles ------------------------------------------------------------------------------------------------
def test_a_node_def_title_that_differs_from_its_rules_name_warns(book, build, warning_text):
    source = book(page=PAGE.replace(".. node:def:: Toughness", ".. node:def:: Hardiness"))
    warnings = node_warnings(warning_text(build(source, "dummy")))
    assert len(warnings) == 1, warnings
    assert warnings[0].startswith(f"{source / 'rules.rst'}:10:")
    assert "node:def 'Hardiness': its rule object 'Gale.Derived.Toughness' is named 'Toughness'" in warnings[0]
    assert "[node.title]" in warnings[0]


# -- did you mean ------------------------------------------------------------------------------------------
def test_a_reference_to_an_unknown_uid_suggests_the_near_one(book, build, warning_text):
    source = book(page=PAGE + "\nSee :node:ref:`Gale.Attribute.Grt` and :node:value:`Gale.Atribute.Grit:name`.\n")
    text = warning_text(build(source, "html"))
    assert "node reference target not found: 'Gale.Attribute.Grt' (did you mean 'Gale.Attribute.Grit'?)" in text
    assert "no rule object is bound to 'Gale.Atribute.Grit' (did you mean 'Gale.Attribute.Grit'?)" in text


def test_an_unbound_uid_suggests_the_rule_object_it_may_mean(book, build, warning_text):
    source = book(page=PAGE + "\n.. node:def:: Grit again\n   :uid: Gale.Attribute.Grrit\n   :type: A\n")
    text = warning_text(build(source, "dummy"))
    assert "node 'Gale.Attribute.Grrit' has no rule object in the configured registries (did you mean " \
           "'Gale.Attribute.Grit'?)" in text


def test_an_unknown_type_code_suggests_the_near_one(book, build, warning_text):
    source = book(page=PAGE + "\n.. node:def:: Climb\n   :uid: Gale.Skill.Climb\n   :type: SKL\n")
    text = warning_text(build(source, "dummy"))
    assert "unknown type code 'SKL' (did you mean 'SK'?)" in text


def test_an_unknown_system_name_suggests_the_near_one(book, build, warning_text):
    source = book(page=PAGE + "\n.. node:odds:: 2d6\n   :system: gael\n")
    text = warning_text(build(source, "dummy"))
    assert "no configured registry for system 'gael' (did you mean 'gale'?)" in text


def test_did_you_mean_says_nothing_when_nothing_is_near():
    assert did_you_mean("Zebra", ["Grit", "Turn"]) == ""
    assert did_you_mean("grit", ["Grit", "Turn"]) == " (did you mean 'Grit'?)"


def test_the_near_misses_are_difflibs_own():
    """The hint's search stops early, yet names what ``difflib.get_close_matches`` names, ties included."""
    rng = random.Random(7)
    letters = "ab.c"  # few letters: many candidates tie on their bounds and on their similarity
    for _ in range(300):
        pool = sorted({"".join(rng.choice(letters) for _ in range(rng.randint(1, 9))) for _ in range(40)})
        word = "".join(rng.choice(letters) for _ in range(rng.randint(1, 9)))
        for n, cutoff in ((1, 0.6), (3, 0.6), (2, 0.0), (5, 0.9)):
            assert close_matches(word, pool, n, cutoff) == difflib.get_close_matches(word, pool, n, cutoff)


# -- engine errors at the engine's file and line, once ---------------------------------------------------
def test_an_engine_that_fails_to_import_is_one_warning_at_its_own_line(book, build, warning_text):
    broken = GAME + "\nSTAMINA = 10 / (1 - 1)  # a bug\n"
    source = book(game=broken, page=PAGE + "\nGrit is :node:value:`Gale.Attribute.Grit:name`.\n\n"
                                          ".. node:odds:: 2d6\n   :system: gale\n")
    text = warning_text(build(source, "dummy"))
    warnings = node_warnings(text)
    module = next(source.glob("gale_*.py"))
    assert len(warnings) == 1, warnings  # no unbound nodes, values or systems after it
    assert warnings[0].startswith(f"{module}:9:") and "ZeroDivisionError" in warnings[0]
    assert f"{source / 'conf.py'}:2" in warnings[0] and "[node.registry]" in warnings[0]


def test_an_engine_error_while_a_page_asks_names_the_engines_file_and_line(book, build, warning_text):
    game = GAME.replace('REGISTRY.define("Gale.Attribute.Grit", "Grit", "A")',
                        'REGISTRY.define("Gale.Attribute.Grit", "Grit", "A", values=Broken())')
    game = "class Broken(dict):\n    def __contains__(self, key):\n        return True\n\n" \
           "    def __getitem__(self, key):\n        raise ValueError('no ' + key)\n\n\n" + game
    source = book(game=game, page=PAGE + "\nGrit is :node:value:`Gale.Attribute.Grit:size`.\n")
    text = warning_text(build(source, "dummy"))
    module = next(source.glob("gale_*.py"))
    line = next(w for w in node_warnings(text) if "[node.value]" in w)
    assert line.startswith(f"{source / 'rules.rst'}:13:")  # the page that asked...
    assert f"ValueError: no size (raised at {module}:6)" in line  # ...and where the engine went wrong


# -- MyST -------------------------------------------------------------------------------------------------
MYST_PAGE = '''\
# Rules

:::{node:def} Grit
:uid: Gale.Attribute.Grit
:::

:::{node:def} Turn
:uid: Gale.Attribute.Turn
:::

:::{node:def} Toughness
:uid: Gale.Derived.Toughness
:::
'''


def test_a_myst_colon_fence_without_the_colon_fence_extension_warns(book, build, warning_text):
    pytest.importorskip("myst_parser")
    source = book(page=MYST_PAGE, suffix=".md", conf="extensions.append('myst_parser')\n"
                                                       "suppress_warnings = ['node.unbound', 'node.undocumented']\n")
    warnings = node_warnings(warning_text(build(source, "dummy")))
    markup = [w for w in warnings if "[node.markup]" in w]
    assert len(markup) == 1 and markup[0].startswith(f"{source / 'rules.md'}:3:"), warnings  # once per page
    assert "colon_fence" in markup[0]


def test_with_colon_fence_enabled_the_same_page_builds_clean(book, build, warning_text):
    pytest.importorskip("myst_parser")
    source = book(page=MYST_PAGE, suffix=".md",
                  conf="extensions.append('myst_parser')\nmyst_enable_extensions = ['colon_fence']\n")
    assert node_warnings(warning_text(build(source, "dummy"))) == []


# -- rpg --system -------------------------------------------------------------------------------------------
def test_rpg_system_finds_a_game_package_in_the_current_folder(tmp_path, monkeypatch, capsys):
    from sphinx_rpg.cli import main
    from sphinx_rpg.new import create

    create(tmp_path / "g", "Ashfall Here")
    monkeypatch.chdir(tmp_path / "g")
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", ".", str(tmp_path / "g"))])
    try:
        assert main(["odds", "Might 3 Climb 1", "--system", "ashfall_here", "--dc", "7-8"]) == 0
        assert re.search(r"7\s+97\.2%", capsys.readouterr().out)
        assert main(["odds", "2d6", "--system", "ashfal_here"]) == 2
        assert "(did you mean 'ashfall_here'?)" in capsys.readouterr().err
        assert main(["odds", "2d6", "--system", "nemrn"]) == 2
        assert "(did you mean 'nemron'?)" in capsys.readouterr().err
    finally:
        for name in [n for n in sys.modules if n == "ashfall_here" or n.startswith("ashfall_here.")]:
            del sys.modules[name]


def test_the_manual_lists_every_new_warning(rootdir):
    text = textwrap.dedent((Path(__file__).resolve().parents[2] / "docs" / "manual" / "own-game.rst").read_text())
    for kind in ("node.formula", "node.title", "node.markup"):
        assert kind in text
