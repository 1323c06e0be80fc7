"""Printing a web page (print media in headless Chromium): each interactive element has a paper form.

A ``:vary:`` table prints its default table and a line saying where the others are; a sheet nobody
filled in prints blank boxes (no starting zeros, nothing computed from them); the calculator prints
one line; words written for a screen give way to words written for paper.  Screenshots of the printed
pages go to ``tests/site/_artifacts/``.
"""

from __future__ import annotations

from urllib.parse import urljoin

VARY_PAGE = "nemron/checks.html"
SHEET_PAGE = "heimr/sheet.html"
CALCULATOR_PAGE = "nemron/calculator.html"

SHOWN_JS = "(selector) => [...document.querySelectorAll(selector)].filter(e => e.checkVisibility()).length"


def shown(page, selector: str) -> int:
    return page.evaluate(SHOWN_JS, selector)


def test_a_vary_table_prints_its_default_and_says_where_the_others_are(page, page_log, site, artifacts):
    page.goto(urljoin(site.url, VARY_PAGE))
    box = "div.rpg-odds-vary"
    assert shown(page, f"{box} form.rpg-odds-controls") == 1 and shown(page, f"{box} .rpg-vary-print") == 0
    page.emulate_media(media="print")
    assert shown(page, f"{box} form.rpg-odds-controls") == 0
    assert shown(page, f"{box} table") == 1
    note = page.locator(f"{box} .rpg-vary-print").first
    assert note.is_visible()
    assert note.inner_text().startswith("Printed here: the table for Attribute 2 and Skill 1 and Modifier none.")
    assert "web edition" in note.inner_text()
    page.locator(box).first.screenshot(path=artifacts / "print-vary.png")
    assert page_log.exceptions == []


def test_words_for_a_screen_give_way_to_words_for_paper_when_printed(page, site):
    page.goto(urljoin(site.url, VARY_PAGE))
    assert shown(page, ".rpg-screen-only") >= 1 and shown(page, ".rpg-print-only:not(.rpg-vary-print)") == 0
    page.emulate_media(media="print")
    assert shown(page, ".rpg-screen-only") == 0 and shown(page, ".rpg-print-only:not(.rpg-vary-print)") >= 1
    printed = page.evaluate("document.querySelector('[role=main]').innerText")
    assert "Pick an attribute rank" not in printed and "computes all 125 pools" in printed


#: What a printed sheet shows in its value boxes: the inputs' text colour and the outputs' visibility.
SHEET_INK_JS = """() => ({
    inputs: [...document.querySelectorAll("div.rpg-sheet input.rpg-sheet-input")]
        .map(e => getComputedStyle(e).color === "rgba(0, 0, 0, 0)" ? "blank" : e.value),
    outputs: [...document.querySelectorAll("div.rpg-sheet output.rpg-sheet-value")]
        .map(e => getComputedStyle(e).visibility === "hidden" ? "blank" : e.innerText)})"""


def test_a_sheet_nobody_filled_in_prints_blank_boxes_and_a_filled_one_its_values(page, page_log, site, artifacts):
    page.goto(urljoin(site.url, SHEET_PAGE))
    page.wait_for_function("window.rpgSheets && window.rpgSheets.length")
    on_screen = page.evaluate(SHEET_INK_JS)
    assert "0" in on_screen["inputs"]  # the screen shows the starting values...
    page.emulate_media(media="print")
    printed = page.evaluate(SHEET_INK_JS)
    assert set(printed["inputs"]) == {"blank"} and set(printed["outputs"]) == {"blank"}  # ...paper does not
    page.screenshot(path=artifacts / "print-sheet-blank.png", full_page=True)
    page.emulate_media(media="screen")
    first = page.locator("div.rpg-sheet input.rpg-sheet-input").first
    first.fill("2")  # a reader's own character prints as filled in
    page.emulate_media(media="print")
    filled = page.evaluate(SHEET_INK_JS)
    assert "blank" not in filled["inputs"] and "2" in filled["inputs"]
    assert page_log.exceptions == []


def test_the_calculator_prints_one_line(page, site):
    page.goto(urljoin(site.url, CALCULATOR_PAGE))
    page.emulate_media(media="print")
    printed = page.evaluate("document.querySelector('div.rpg-calculator').innerText").strip()
    assert printed.count("\n") == 0 and printed.startswith("The dice calculator runs in the web edition")


GRAPH_PAGE = "nemron/connections.html"
#: The stroke of every box and arrow of the page's graphs.
GRAPH_INK_JS = """() => [...document.querySelectorAll("svg.rpg-graph .rpg-graph-node rect, svg.rpg-graph .rpg-graph-edge")]
    .map(e => getComputedStyle(e).stroke)"""


def test_a_graph_prints_in_black_ink_whatever_the_colour_scheme(page, site, artifacts):
    page.emulate_media(color_scheme="dark")  # the shared tab, before the load: the page opens dark
    page.goto(urljoin(site.url, GRAPH_PAGE))
    page.emulate_media(media="print")
    inks = page.evaluate(GRAPH_INK_JS)
    assert inks and set(inks) == {"rgb(0, 0, 0)"}, sorted(set(inks))
    page.locator("div.rpg-graph-box").first.screenshot(path=artifacts / "print-graph-dark.png")


def test_the_themes_skip_link_is_not_printed_over_the_text(page, site):
    page.goto(urljoin(site.url, GRAPH_PAGE))
    assert page.locator("a.skip-to-content").count() >= 1  # the theme has one, for the screen
    page.emulate_media(media="print")
    assert page.evaluate("[...document.querySelectorAll('a.skip-to-content')].filter(e => e.checkVisibility())"
                         ".length") == 0


#: What of the theme's footer shows: its visible elements (copyright, "made with", previous/next links).
FOOTER_SHOWN_JS = """[...document.querySelectorAll("footer *, .back-to-top")].filter(e => e.checkVisibility()
    && e.getBoundingClientRect().height > 0).length"""


def test_the_themes_footer_is_not_printed_so_it_never_takes_a_page_of_its_own(page, site):
    """Printed, the footer (copyright, "made with", previous/next links) went alone onto an extra page
    whenever the text nearly filled the last one (a chapter of 4 pages printed on 5)."""
    page.goto(urljoin(site.url, GRAPH_PAGE))
    assert page.evaluate(FOOTER_SHOWN_JS) > 0  # on screen the footer is there
    page.emulate_media(media="print")
    assert page.evaluate(FOOTER_SHOWN_JS) == 0
