"""node:statblock: a published, engine-built block with linked values and an exact attack odds line."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest

from rules import odds
from rules.dice import Dist
from rules.statblocks import Attack, Stat, StatBlock, StatBlockError, StatBlocks
from rules.tables import percent

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

RULES = Path(__file__).parent / "roots" / "statblock-rules" / "tiny_block_rules.py"
PAGES = {
    "index.rst": "Tiny\n====\n\n.. toctree::\n\n   rules\n   monsters\n",
    "rules.rst": "Rules\n=====\n\n" + "".join(f".. node:def:: {uid.rpartition('.')[2]}\n   :uid: {uid}\n\n"
                                         for uid in ("Tiny.Attr.Grit", "Tiny.Res.Vigour", "Tiny.Roll.Stab")),
    "monsters.rst": "Monsters\n========\n\n.. node:statblock:: tinyblock:goblin\n",
}


@pytest.fixture
def book(tmp_path) -> Path:
    src = tmp_path / "book"
    src.mkdir()
    (src / "tiny_block_rules.py").write_text(RULES.read_text())
    (src / "conf.py").write_text("import sys, pathlib\nsys.path.insert(0, str(pathlib.Path(__file__).parent))\n"
                                 'extensions = ["sphinx_rpg"]\nrpg_registries = ["tiny_block_rules:REGISTRY"]\n')
    for name, text in PAGES.items():
        (src / name).write_text(text)
    return src


def goblin_odds() -> list[str]:
    two_d6 = Dist.die(6).repeat_sum(2)
    return [percent(Fraction(p)) for _, p in odds.at_least_table(two_d6, (7, 10, 12)).rows]


# -- the engine side ---------------------------------------------------------------------------------
def test_a_stat_block_attack_quotes_the_odds_node_odds_prints():
    attack = Attack("Knife", "Tiny.Roll.Stab", "2d6", Dist.die(6).repeat_sum(2), (7, 12))
    assert attack.chances() == ((7, Fraction(21, 36)), (12, Fraction(1, 36)))
    assert attack.odds().rows == odds.at_least_table(attack.dist, (7, 12), "Knife").rows


def test_a_roll_under_attack_quotes_the_chance_at_or_below_each_target():
    attack = Attack("Verdict", "Tiny.Roll.Stab", "3d6", Dist.die(6).repeat_sum(3), (10,), roll_under=True)
    assert attack.chances() == ((10, Fraction(1, 2)),)


@pytest.mark.parametrize("targets", [(), tuple(range(13))])
def test_an_attack_quotes_one_to_twelve_targets(targets):
    with pytest.raises(StatBlockError, match="targets"):
        Attack("Knife", "Tiny.Roll.Stab", "2d6", Dist.die(6), targets)


def test_a_stat_value_is_a_number_or_text():
    with pytest.raises(StatBlockError, match="not True"):
        Stat("Tiny.Attr.Grit", True)


def test_an_unknown_block_name_lists_the_published_ones():
    blocks = StatBlocks("tiny")
    blocks.add("goblin", lambda: StatBlock("Goblin", "Minion", "", (), ()))
    with pytest.raises(StatBlockError, match=r"no stat block 'orc' \(it has: goblin\)"):
        blocks.build("orc")


# -- the block in the book ---------------------------------------------------------------------------
def test_the_html_block_labels_each_value_with_its_node_title_linked_to_its_node(build, book):
    app = build(book)
    assert app.warning.getvalue() == ""
    html = (Path(app.outdir) / "monsters.html").read_text()
    block = html[html.index('<div class="rpg-statblock'):]
    assert "Goblin" in block and "Minion" in block and "Small &amp; mean." in block
    links = re.findall(r'<a class="reference internal" href="(rules.html#[^"]+)"[^>]*>.*?>([^<]+)</strong></a>', block)
    assert links == [("rules.html#Tiny.Attr.Grit", "Grit (A)"), ("rules.html#Tiny.Res.Vigour", "Vigour (R)"),
                     ("rules.html#Tiny.Roll.Stab", "Stab (RL)")]
    assert '<span class="rpg-statblock-value">7</span> points' in block  # Vigour = Grit * 3 + 1, by the engine


def test_the_attack_line_shows_the_exact_odds_of_each_target(build, book):
    app = build(book)
    html = (Path(app.outdir) / "monsters.html").read_text()
    line = re.search(r'<span class="rpg-statblock-odds">(.*?)</span>', html).group(1)
    assert re.findall(r"(\d+(?:\.\d)?%)", line) == goblin_odds()
    assert line.startswith("DC 7: ")


def test_exact_adds_each_fraction(build, book):
    (book / "monsters.rst").write_text(PAGES["monsters.rst"] + "   :exact:\n")
    app = build(book)
    assert "(7/12)" in (Path(app.outdir) / "monsters.html").read_text()


def test_in_latex_the_block_is_plain_text_with_its_numbers(build, book):
    app = build(book, builder="latex")
    assert app.warning.getvalue() == ""
    tex = next(Path(app.outdir).glob("*.tex")).read_text()
    assert "Goblin" in tex and "Vigour (R)" in tex and goblin_odds()[0].replace("%", r"\%") in tex


@pytest.mark.parametrize(("argument", "message"), [
    ("tinyblock goblin", "is not a published stat block name"),
    ("rules.tiny:goblin()", "is not a published stat block name"),
    ("nosuch:goblin", "no bound registry has system 'nosuch'"),
    ("tinyblock:orc", "publishes no stat block 'orc' (it has: broken, goblin, stranger)"),
    ("tinyblock:broken", "the engine cannot build 'tinyblock:broken'"),
    ("tinyblock:stranger", "'Tiny.Attr.Nerve', which no bound registry has"),
])
def test_a_bad_block_is_a_located_typed_warning(build, book, argument, message):
    (book / "monsters.rst").write_text(f"Monsters\n========\n\n.. node:statblock:: {argument}\n")
    app = build(book)
    warnings = app.warning.getvalue()
    assert "[node.statblock]" in warnings and message in warnings and "monsters.rst:4" in warnings
    assert "Traceback" not in warnings
