"""The whole site prints: the LaTeX builder runs over docs/ with warnings as errors.

Cards degrade to plain tables and charts to their table alone, so ``make latexpdf`` works wherever TeX
is installed (TeX itself is not needed here: the test checks the LaTeX sources).
"""

import re


def test_the_whole_site_builds_as_latex_with_cards_and_charts_degraded(built_latex):
    tex = (built_latex / "sphinx-rpg.tex").read_text(encoding="utf-8")
    assert "sd-card" not in tex and "<svg" not in tex
    assert re.search(r"Energy \(E,R\)", tex)
    assert "Nodes by type" in tex or "Generic.Damage" in tex


def test_every_rulebook_is_in_the_printed_book(built_latex):
    tex = (built_latex / "sphinx-rpg.tex").read_text(encoding="utf-8")
    for title in ("Nemron", "Heimr", "NUGGET", "SPURG", "DnDalike"):
        assert title in tex, title
