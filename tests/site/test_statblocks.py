"""Every stat block of the books, as built: its numbers are the engine's, its odds line is exact, it lays out.

The HTML and LaTeX come from the test command's own site build; the engine builds each block again here
and every value, link and percentage of the page is compared with it.
"""

from __future__ import annotations

import html
import importlib
import re

import pytest

from rules.statblocks import StatBlock
from rules.systems import installed_systems
from sphinx_rpg.statblocks import attack_line, show_value

BLOCKS = [("nemron", "brandon"), ("nemron", "raider"), ("heimr", "shieldmaiden"), ("nugget", "doctor"),
          ("nugget", "thug"), ("spurg", "duellist"), ("dndalike", "georgia"),
          ("dndalike", "orc")]


def engine_block(system: str, name: str) -> StatBlock:
    return importlib.import_module(f"rules.{system}").REGISTRY.statblocks.build(name)


def page_blocks(built_html, system: str) -> list[str]:
    text = (built_html / system / "statblocks.html").read_text()
    return re.findall(r'<div class="rpg-statblock docutils container">(.*?)</div>', text, re.S)


def shown_block(built_html, system: str, block: StatBlock) -> str:
    return next(found for found in page_blocks(built_html, system) if f">{html.escape(block.name)}<" in found)


@pytest.mark.parametrize(("system", "name"), BLOCKS)
def test_each_value_of_the_block_is_the_engines_next_to_its_nodes_link(built_html, system, name):
    block = engine_block(system, name)
    shown = shown_block(built_html, system, block)
    for stat in (*block.base, *block.derived):
        pattern = (rf'href="[^"]*#{re.escape(stat.uid)}"[^>]*>.*?</a> <span class="rpg-statblock-value">'
                   rf"{re.escape(html.escape(show_value(stat.value), quote=False))}</span>")
        assert re.search(pattern, shown, re.S), (stat.uid, stat.value)


@pytest.mark.parametrize(("system", "name"), BLOCKS)
def test_the_attack_line_is_the_exact_odds_of_the_engines_attack(built_html, system, name):
    block = engine_block(system, name)
    assert block.attack is not None
    shown = shown_block(built_html, system, block)
    odds = re.search(r'<span class="rpg-statblock-odds">(.*?)</span>', shown, re.S).group(1)
    assert html.unescape(odds) == attack_line(block.attack)
    assert f'#{block.attack.uid}"' in shown


@pytest.mark.parametrize(("system", "name"), BLOCKS)
def test_no_number_in_a_printed_block_is_one_the_engine_did_not_give(built_html, system, name):
    """Every digit of the block as printed (a value, "hits on 3", a percentage) is in a piece the engine
    built: take those pieces out and no digit is left."""
    block = engine_block(system, name)
    text = html.unescape(re.sub(r"<[^>]+>", "", shown_block(built_html, system, block)))
    text = text.translate(str.maketrans("\u2018\u2019\u201c\u201d", "''\"\""))  # Sphinx's smart quotes undone
    pieces = [block.name, block.kind, block.summary]
    for stat in (*block.base, *block.derived):
        pieces += [show_value(stat.value), stat.note]
    if block.attack is not None:
        pieces += [attack_line(block.attack), block.attack.name, block.attack.roll]
    for piece in sorted(filter(None, pieces), key=len, reverse=True):
        assert piece in text, piece
        text = text.replace(piece, "", 1)
    assert not re.search(r"\d", text), text


def test_every_published_block_is_shown_in_its_book():
    bundled = [system for system, path in installed_systems().items() if path.startswith("rules.")]
    published = {(system, name) for system in bundled
                 for name in importlib.import_module(f"rules.{system}").REGISTRY.statblocks.names()}
    assert published == set(BLOCKS)


def test_printed_the_block_keeps_its_numbers(built_latex):
    tex = (built_latex / "nugget.tex").read_text()
    block = engine_block("nugget", "thug")
    assert block.name in tex and "Minion Initiative (NPC)" in tex
    assert attack_line(block.attack).split(" \N{MIDDLE DOT} ")[0].split(": ")[1].replace("%", r"\%") in tex


@pytest.mark.parametrize(("name", "width", "dark"), [("light", 1280, False), ("dark", 1280, True), ("phone", 390, False)])
def test_screenshot_of_a_stat_block(request, page_log, site, artifacts, name, width, dark):
    """Pictures to look at (tests/site/_artifacts/statblock-*.png); the block must fit the screen."""
    if width < 600:  # the shared phone tab (a mobile viewport is a setting of its context)
        page = request.getfixturevalue("phone_page")
    else:  # the shared desktop tab, in the scheme asked for
        page = request.getfixturevalue("page")
        page.emulate_media(color_scheme="dark" if dark else "light")
    page.goto(f"{site.url}nugget/statblocks.html")
    page.evaluate('document.querySelector("div.rpg-statblock").scrollIntoView()')
    assert page.screenshot(path=str(artifacts / f"statblock-{name}.png")).startswith(b"\x89PNG")
    overflow = page.evaluate("Math.max(...[...document.querySelectorAll('div.rpg-statblock')]"
                             ".map(b => b.scrollWidth - b.clientWidth))")
    assert overflow <= 0, f"a stat block is wider than the {name} screen by {overflow}px"
    assert page_log.exceptions == []
