"""node:matchup: a fight between published stat blocks, answered by the engine and set as tables."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from rules.matchup import answer, outcome_table
from sphinx_rpg.directives.tables import render_cell

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

RULES = Path(__file__).parent / "roots" / "matchup-rules" / "tiny_fight_rules.py"
INDEX = "Tiny\n====\n\n.. toctree::\n\n   fights\n"


@pytest.fixture
def book(tmp_path) -> Path:
    src = tmp_path / "book"
    src.mkdir()
    (src / "tiny_fight_rules.py").write_text(RULES.read_text())
    (src / "conf.py").write_text("import sys, pathlib\nsys.path.insert(0, str(pathlib.Path(__file__).parent))\n"
                                 'extensions = ["sphinx_rpg"]\nrpg_registries = ["tiny_fight_rules:REGISTRY"]\n'
                                 'rpg_matchup_cache = "_cache"\n')
    (src / "index.rst").write_text(INDEX)
    return src


def page(book: Path, body: str) -> None:
    (book / "fights.rst").write_text(f"Fights\n======\n\n{body}\n")


def test_the_block_prints_the_engines_exact_chances(build, book):
    page(book, ".. node:matchup:: tinyfight: ann vs bob")
    app = build(book)
    assert app.warning.getvalue() == ""
    html = (Path(app.outdir) / "fights.html").read_text()
    assert "exact (absorbing Markov chain over 3 fight states)" in html
    # Ann lands 1/2 first; else Bob 1/3: Ann wins (1/2) / (1 - 1/3) = 3/4
    import tiny_fight_rules

    exact = answer(tiny_fight_rules.fight(["ann"], ["bob"]))
    for label, chance in outcome_table(exact).rows:
        assert re.search(rf"{label}</p></td>\s*<td[^>]*><p>{re.escape(render_cell(chance, True, False))}</p>", html)
    assert exact.wins[0] == Fraction(3, 4) and "75.0%" in html


def test_a_fight_past_the_budget_is_simulated_and_says_so_and_is_kept_for_the_next_build(build, book):
    page(book, ".. node:matchup:: tinyfight: ann vs ghost\n   :fights: 500\n   :seed: 4")
    app = build(book)
    assert app.warning.getvalue() == ""
    html = (Path(app.outdir) / "fights.html").read_text()
    assert "simulated: 500 seeded fights (seed 4), 95% intervals" in html and "95% interval" in html
    kept = list((book / "_cache").glob("*.json"))
    assert len(kept) == 1 and json.loads(kept[0].read_text())["fights"] == 500


def test_exact_refuses_to_simulate_with_a_located_warning(build, book):
    page(book, ".. node:matchup:: tinyfight: ann vs ghost\n   :exact:")
    app = build(book)
    warnings = app.warning.getvalue()
    assert "[node.matchup]" in warnings and "fights.rst:4" in warnings and "states" in warnings


@pytest.mark.parametrize(("argument", "message"), [
    ("tinyfight ann vs bob", "is not a fight such as"),
    ("tinyfight: ann", "is not a fight such as"),
    ("tinyfight: ann() vs bob", "is not a fight such as"),
    ("nosuch: ann vs bob", "no bound registry has system 'nosuch'"),
    ("tinyfight: ann vs carl", "the engine cannot answer"),
    ("tinyfight: broken vs bob", "the engine cannot answer"),
])
def test_a_bad_matchup_is_a_located_typed_warning(build, book, argument, message):
    page(book, f".. node:matchup:: {argument}")
    app = build(book)
    warnings = app.warning.getvalue()
    assert "[node.matchup]" in warnings and message in warnings and "fights.rst:4" in warnings
    assert "Traceback" not in warnings


def test_a_fight_that_never_ends_is_stopped_by_the_engine_time_limit(build, book):
    (book / "conf.py").write_text((book / "conf.py").read_text() + "rpg_engine_time_limit = 1\n")
    page(book, ".. node:matchup:: tinyfight: endless vs bob\n   :fights: 10")
    app = build(book)
    warnings = app.warning.getvalue()
    assert "[node.matchup]" in warnings and "fights.rst:4" in warnings and "Traceback" not in warnings


def test_an_exact_mean_prints_as_a_fraction_only_while_it_is_short():
    import dataclasses

    from rules.heimr import REGISTRY as HEIMR
    from sphinx_rpg.matchups import method_sentence

    duel = answer(HEIMR.matchups.build(["shieldmaiden"], ["shieldmaiden"]))
    assert duel.exact and len(str(duel.mean_rounds)) > 100
    assert method_sentence(duel).endswith(f"{float(duel.mean_rounds):.2f} rounds on average.")
    short = dataclasses.replace(duel, mean_rounds=Fraction(3, 2))
    assert method_sentence(short).endswith("1.50 rounds on average (exactly 3/2).")
