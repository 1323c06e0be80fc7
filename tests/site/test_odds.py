"""Odds a reader may vary, in headless Chromium: every combination a book's table offers is what the engine says.

Each book has a ``node:odds`` or ``node:table`` with ``:vary:``.  The test reads the directive from the
book's source, walks the page's controls through every combination, and compares the table the page
then shows with the engine's own table for that combination, computed here in Python.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from typing import Any

import pytest

from rules import odds
from rules.providers import parse_argument_text
from rules.tables import Table
from rules.variations import combinations, default_values, parse_vary, substitute
from sphinx_rpg.directives.tables import parse_range, render_cell

DOCS = Path(__file__).resolve().parents[2] / "docs"
PAGES = {"nemron": "nemron/checks", "heimr": "heimr/challenge", "nugget": "nugget/rolls",
         "spurg": "spurg/verdict", "dndalike": "dndalike/core"}
_DIRECTIVE = re.compile(r"^(?P<indent> *)\.\. node:(?P<kind>odds|table):: (?P<argument>.+)\n"
                        r"(?P<options>(?:(?P=indent)   :\w+:.*\n)+)", re.M)

#: Walk every combination in the page: set the controls, let the page react, read caption and cells.
WALK_JS = """(box) => {
    const selects = [...box.querySelectorAll("form.rpg-odds-controls select")];
    const sizes = selects.map(s => s.options.length);
    const total = sizes.reduce((a, b) => a * b, 1);
    const seen = [];
    for (let n = 0; n < total; n++) {
        let rest = n;
        for (let i = selects.length - 1; i >= 0; i--) { selects[i].selectedIndex = rest % sizes[i]; rest = Math.floor(rest / sizes[i]); }
        selects[0].dispatchEvent(new Event("change", {bubbles: true}));
        const table = box.querySelector("table");
        const text = c => c.textContent.trim();  // textContent: no layout per combination
        seen.push({caption: text(table.querySelector("caption .caption-text")),
                   head: [...table.tHead.rows[0].cells].map(text),
                   rows: [...table.tBodies[0].rows].map(r => [...r.cells].map(text))});
    }
    return seen;
}"""


def varied_directive(system: str) -> tuple[str, str, dict[str, str]]:
    """(kind, argument, options) of the book page's first directive with :vary:."""
    source = (DOCS / f"{PAGES[system]}.rst").read_text()
    for match in _DIRECTIVE.finditer(source):
        options = dict(re.findall(r":(\w+):[ ]*(.*)", match["options"]))
        if "vary" in options:
            return match["kind"], match["argument"].strip(), options
    raise AssertionError(f"docs/{PAGES[system]}.rst has no node:odds or node:table with :vary:")


def engine_table(system: str, kind: str, argument: str, options: dict[str, str], values: dict[str, Any]) -> Table:
    """What the engine gives for one combination, asked the way a reader would ask the engine."""
    registry = importlib.import_module(f"rules.{system}").REGISTRY
    if kind == "table":
        provider = registry.tables.get(argument.split(":")[1])
        return provider(parse_argument_text(substitute(options.get("args", ""), values)))
    text = substitute(argument, values)
    dist = registry.notation.parse(text)
    if "dc" in options:
        return odds.at_least_table(dist, parse_range(substitute(options["dc"], values)), text)
    if "fold" in options:  # the negligible tails on one row each (the author asked: however short)
        return odds.distribution_table(dist, text, fold=odds.fold_tails(dist, short=0))
    return odds.distribution_table(dist, text)


def shown(table: Table, caption: str, exact: bool) -> dict[str, Any]:
    return {"caption": caption or table.title, "head": list(table.columns),
            "rows": [[render_cell(v, table.is_probability(c), exact) for c, v in zip(table.columns, row)]
                     for row in table.rows]}


@pytest.mark.parametrize("system", list(PAGES))
def test_every_combination_the_controls_offer_is_the_engine_s_table(site: Any, page: Any, page_log: Any,
                                                                     system: str) -> None:
    kind, argument, options = varied_directive(system)
    parameters = parse_vary(options["vary"])
    page.goto(site.url + PAGES[system] + ".html")
    box = page.locator(".rpg-odds-vary").first
    controls = box.locator("form.rpg-odds-controls")
    assert controls.is_visible()
    labels = [p.label for p in parameters]
    assert [controls.get_by_role("combobox", name=label).count() for label in labels] == [1] * len(labels)
    seen = box.evaluate(WALK_JS)
    combos = list(combinations(parameters))
    assert len(seen) == len(combos) > 1
    for values, table in zip(combos, seen):
        expected = shown(engine_table(system, kind, argument, options, values),
                         substitute(options.get("caption", ""), values), "exact" in options)
        assert table == expected, values
    # what differs between combinations differs on the page too
    assert len({str(t["rows"]) for t in seen}) > 1
    assert page_log.exceptions == []


def test_a_control_changes_the_table_and_the_link_keeps_the_choice(site: Any, page: Any, open_page: Any,
                                                                   page_log: Any) -> None:
    page.goto(site.url + "nugget/rolls.html")
    box = page.locator(".rpg-odds-vary").first
    caption = box.locator("table caption")
    assert caption.inner_text().strip().startswith("Successes with 4 dice, lid-off")
    before = box.locator("tbody").inner_text()
    dice = box.get_by_role("combobox", name="Dice")
    dice.focus()
    page.keyboard.press("ArrowDown")  # keyboard alone changes a select
    page.keyboard.press("Enter")
    box.get_by_role("combobox", name="Lid").select_option(label="on")
    assert caption.inner_text().strip().startswith("Successes with 5 dice, lid-on")
    assert box.locator("tbody").inner_text() != before
    page.wait_for_function("location.href.endsWith('?dice=5&lid=on')")  # from the next frame
    link = page.url
    assert "#rpg-odds-" in link
    other = open_page()
    other.goto(link)
    again = other.locator(".rpg-odds-vary").first
    assert again.locator("table caption").inner_text().strip().startswith("Successes with 5 dice, lid-on")
    assert again.locator("tbody").inner_text() == box.locator("tbody").inner_text()
    assert page_log.exceptions == []


def test_without_javascript_the_default_table_is_shown_and_no_control(site: Any, browser: Any) -> None:
    context = browser.new_context(java_script_enabled=False)
    try:
        tab = context.new_page()
        tab.goto(site.url + "heimr/challenge.html")
        box = tab.locator(".rpg-odds-vary").first
        assert not box.locator("form.rpg-odds-controls").is_visible()
        kind, argument, options = varied_directive("heimr")
        default = default_values(parse_vary(options["vary"]))
        expected = shown(engine_table("heimr", kind, argument, options, default), "", False)
        assert box.locator("table caption").inner_text().strip() == expected["caption"] == "C+2 P+1"
        rows = box.locator("tbody").evaluate("b => [...b.rows].map(r => [...r.cells].map(c => c.textContent.trim()))")
        assert rows == expected["rows"]
    finally:
        context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_controls_fit_a_phone_in_light_and_dark(site: Any, page: Any, artifacts: Path, scheme: str) -> None:
    tab = page  # the shared tab at a phone's width, in the scheme asked for: no context of its own
    tab.set_viewport_size({"width": 390, "height": 844})
    tab.emulate_media(color_scheme=scheme)
    tab.goto(site.url + "nemron/checks.html")
    box = tab.locator(".rpg-odds-vary").first
    box.scroll_into_view_if_needed()
    form = box.locator("form.rpg-odds-controls")
    width = tab.evaluate("document.documentElement.clientWidth")
    bounds = form.bounding_box()
    assert bounds is not None and bounds["x"] >= 0 and bounds["x"] + bounds["width"] <= width
    for select in form.locator("select").all():
        edge = select.bounding_box()
        assert edge is not None and edge["x"] + edge["width"] <= width
    colour, background = form.evaluate("f => [getComputedStyle(f).color, getComputedStyle(f).backgroundColor]")
    assert colour != background
    tab.evaluate("b => b.scrollIntoView()", box.element_handle())
    tab.evaluate("window.scrollBy(0, -60)")  # below the theme's sticky header
    tab.screenshot(path=str(artifacts / f"odds-nemron-phone-{scheme}.png"))


#: A chart's elements in document order: (tag, attributes, text of a leaf).
CHART_SHAPE_JS = """async (box) => {
    const shape = svg => [svg, ...svg.querySelectorAll("*")].map(e => [e.localName,
        // xmlns: a namespace declaration the build writes (for XHTML), not part of the drawing
        Object.fromEntries([...e.attributes].filter(a => a.name !== "xmlns").map(a => [a.name, a.value])),
        e.children.length ? null : e.textContent]);
    // the chart as the build wrote it (the script may have drawn over it already): from the page's HTML
    const written = new DOMParser().parseFromString(await (await fetch(location.href)).text(), "text/html");
    const built = written.getElementById(box.id).querySelector(".rpg-chart svg");
    // choosing the default again makes the page's script draw the default's chart itself
    box.querySelector("form.rpg-odds-controls select").dispatchEvent(new Event("change", {bubbles: true}));
    return [shape(built), shape(box.querySelector(".rpg-chart svg"))];
}"""


def same_drawing(built: list[Any], redrawn: list[Any]) -> list[str]:
    """Where two chart shapes differ: numbers to a hundredth of a unit (the build writes two decimals)."""
    def close(a: str, b: str) -> bool:
        numbers = re.compile(r"-?\d+(?:\.\d+)?(?:e-?\d+)?")
        if numbers.sub("#", a) != numbers.sub("#", b):
            return False
        return all(abs(float(x) - float(y)) <= 0.01 for x, y in zip(numbers.findall(a), numbers.findall(b)))

    differences = [f"{len(built)} elements drawn by the build, {len(redrawn)} by the page"] \
        if len(built) != len(redrawn) else []
    for number, ((tag, attributes, text), (tag2, attributes2, text2)) in enumerate(zip(built, redrawn)):
        if tag != tag2 or text != text2 or attributes.keys() != attributes2.keys() or \
                not all(close(attributes[key], attributes2[key]) for key in attributes):
            differences.append(f"element {number}: {tag} {attributes} {text!r} / {tag2} {attributes2} {text2!r}")
    return differences


@pytest.mark.parametrize("system", [s for s in PAGES if "chart" in varied_directive(s)[2]])
def test_the_chart_the_page_redraws_is_the_chart_the_build_drew(site: Any, page: Any, system: str) -> None:
    """A reader who picks a value sees the chart drawn again by the page's script: the same picture the
    build drew (sizes, axes, ticks, points, legend), not a chart of another style."""
    page.goto(site.url + PAGES[system] + ".html")
    box = page.locator(".rpg-odds-vary", has=page.locator(".rpg-chart")).first
    built, redrawn = box.evaluate(CHART_SHAPE_JS)
    assert built[0][0] == "svg" and len(built) > 10
    assert same_drawing(built, redrawn) == []
