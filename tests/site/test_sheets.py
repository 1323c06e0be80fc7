"""Each book's character sheet in headless Chromium: the page computes what the engine computes.

The sheet page carries its fields and the engine's parsed formulas; ``static/sheet.js`` evaluates them
as the reader types.  These tests fill every system's sheet with many random values inside the rules'
bounds and compare each derived value with ``Formula.evaluate`` of the engine, then check the bounds
messages, the share link, save and load, and that the printed sheet is one page.
"""

from __future__ import annotations

import importlib
import json
import random
import re
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest

from rules.budgets import budget_message, budget_of
from rules.formula import Formula
from rules.systems import installed_systems
from sphinx_rpg.sheets import show_number

SYSTEMS = [name for name, path in installed_systems().items() if path.startswith("rules.")]  # the bundled games
ROUNDS = 40
#: Inputs the rules leave unbounded get values from this range (negative ones too: the arithmetic
#: must agree for them, whether or not a character can have them).
LOOSE = (-6, 15)

SHEET_JS = "window.rpgSheets && window.rpgSheets.length ? window.rpgSheets[0].data : null"
FILL_JS = """((values) => {
    const sheet = window.rpgSheets[0];
    for (const [key, value] of Object.entries(values)) {
        const box = sheet.inputs[key];
        box.value = String(value);
        box.dispatchEvent(new Event("input", {bubbles: true}));  // as typing does
    }
    return Object.fromEntries(Object.entries(sheet.outputs).map(([key, el]) => [key, el.querySelector('.rpg-sheet-number').textContent]));
})"""
BUDGETS_JS = """Object.fromEntries(Object.entries(window.rpgSheets[0].budgetOutputs).map(([uid, el]) =>
    [uid, [el.textContent, el.classList.contains("rpg-sheet-over")]]))"""
#: The systems whose sources give character-creation points or caps (the others have no budget to count).
BUDGETED = {"nugget": ["Nugget.Rule.AttributePoints", "Nugget.Rule.PoorAttributes"], "spurg": ["Spurg.Rule.AbilityPoints"]}


def registry(system: str):
    return importlib.import_module(f"rules.{system}").REGISTRY


def engine_values(data: dict, system: str, values: dict[str, int]) -> dict[str, str]:
    """Every derived value of the sheet, by the engine's own formulas, shown as the sheet shows it."""
    rules = registry(system)
    known: dict[str, int | Fraction] = dict(values)
    for field in data["fields"]:
        if field["kind"] == "derived":
            formula = rules[field["uid"]].formula
            known[field["key"]] = formula.evaluate({name: known[key] for name, key in field["variables"].items()})
    return {f["key"]: show_number(known[f["key"]]) for f in data["fields"] if f["kind"] == "derived"}


def engine_budgets(data: dict, system: str, values: dict[str, int], totals: dict[str, int] | None = None) -> dict:
    """Each budget's line and whether it is over, by the engine's formula and ``rules.budgets.budget_message``."""
    rules = registry(system)
    known = {**values, **{k: Fraction(v) for k, v in engine_numbers(data, system, values).items()}}
    found = {}
    for budget in data["budgets"]:
        spent = rules[budget["uid"]].formula.evaluate({n: known[k] for n, k in budget["variables"].items()})
        total = (totals or {}).get(budget["uid"], budget["total"])
        rule = budget_of(rules[budget["uid"]])
        assert rule is not None and rule.kind == budget["kind"]
        found[budget["uid"]] = [budget_message(rule, spent, total), spent > total]
    return found


def engine_numbers(data: dict, system: str, values: dict[str, int]) -> dict[str, int | Fraction]:
    rules = registry(system)
    known: dict[str, int | Fraction] = dict(values)
    for field in data["fields"]:
        if field["kind"] == "derived":
            known[field["key"]] = rules[field["uid"]].formula.evaluate(
                {name: known[key] for name, key in field["variables"].items()})
    return {f["key"]: known[f["key"]] for f in data["fields"] if f["kind"] == "derived"}


def random_values(data: dict, rng: random.Random) -> dict[str, int]:
    values = {}
    for field in data["fields"]:
        if field["kind"] in ("input", "parameter"):
            low = field["min"] if field["min"] is not None else LOOSE[0]
            high = field["max"] if field["max"] is not None else max(low, 0) + LOOSE[1]
            values[field["key"]] = rng.randint(low, high)
    return values


def open_sheet(page, site, system: str, fragment: str = "") -> dict:
    page.goto(f"{site.url}{system}/sheet.html{fragment}")
    page.wait_for_function(SHEET_JS)
    return page.evaluate(SHEET_JS)


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_derived_value_of_the_sheet_equals_the_engines_for_random_inputs(page, page_log, site, system):
    data = open_sheet(page, site, system)
    derived = [f for f in data["fields"] if f["kind"] == "derived"]
    assert derived, f"the {system} sheet computes nothing"
    rng = random.Random(f"sheet-{system}")
    rounds = [random_values(data, rng) for _ in range(ROUNDS)]
    shown = page.evaluate(f"(rounds) => rounds.map(values => [({FILL_JS})(values), {BUDGETS_JS}])",
                          rounds)  # typed in turn, one round trip
    for values, (seen, budgets) in zip(rounds, shown, strict=True):
        assert seen == engine_values(data, system, values), values
        assert budgets == engine_budgets(data, system, values), values
    assert sorted(b["uid"] for b in data["budgets"]) == BUDGETED.get(system, [])
    assert page_log.exceptions == [] and site.failures() == []


def test_the_nugget_sheet_counts_attribute_points_live_and_says_when_they_are_overspent(page, site):
    open_sheet(page, site, "nugget")
    start = {f"Nugget.Attribute.{name}": 0 for name in ("Brawn", "Agility", "Brains", "Will")}
    page.evaluate(f"({FILL_JS})({json.dumps(start | {'Nugget.Attribute.Brawn': 1})})")
    assert page.evaluate(BUDGETS_JS)["Nugget.Rule.AttributePoints"] == ["1 of 2 points spent", False]
    page.evaluate(f"({FILL_JS})({json.dumps({'Nugget.Attribute.Agility': 2})})")
    assert page.evaluate(BUDGETS_JS)["Nugget.Rule.AttributePoints"] == ["3 of 2 points spent: 1 over the budget", True]
    page.evaluate(f"({FILL_JS})({json.dumps({'Nugget.Attribute.Will': -1})})")  # -1 gives a point back
    assert page.evaluate(BUDGETS_JS)["Nugget.Rule.AttributePoints"] == ["2 of 2 points spent", False]


def test_the_nugget_sheet_says_when_more_than_one_attribute_is_at_minus_one(page, site):
    open_sheet(page, site, "nugget")
    hero = {"Nugget.Attribute.Brawn": 2, "Nugget.Attribute.Agility": 0, "Nugget.Attribute.Brains": -1,
            "Nugget.Attribute.Will": 0}
    page.evaluate(f"({FILL_JS})({json.dumps(hero)})")
    assert page.evaluate(BUDGETS_JS)["Nugget.Rule.PoorAttributes"] == ["1 (at most 1)", False]
    page.evaluate(f"({FILL_JS})({json.dumps({'Nugget.Attribute.Will': -1, 'Nugget.Attribute.Agility': 2})})")
    assert page.evaluate(BUDGETS_JS) == {"Nugget.Rule.AttributePoints": ["2 of 2 points spent", False],
                                         "Nugget.Rule.PoorAttributes": ["2 (at most 1): 1 too many", True]}


def test_a_fresh_spurg_sheet_starts_every_score_at_ten_and_spends_nothing(page, site):
    open_sheet(page, site, "spurg")
    page.evaluate("window.rpgSheets[0].reset()")
    assert set(page.evaluate("Object.values(window.rpgSheets[0].values())")) == {"10", "100"}  # the scores, the menu
    assert page.evaluate(BUDGETS_JS) == {"Spurg.Rule.AbilityPoints": ["0 of 100 CP spent", False]}


def test_the_spurg_sheet_lets_the_table_pick_another_starting_guideline_and_shares_it(page, page_log, site):
    data = open_sheet(page, site, "spurg")
    values = {"Spurg.Ability.Agility": 14, "Spurg.Ability.Vitality": 12, "Spurg.Ability.Might": 10, "Spurg.Ability.Speed": 13}
    page.evaluate(f"({FILL_JS})({json.dumps(values)})")
    assert page.evaluate(BUDGETS_JS) == engine_budgets(data, "spurg", values) == {
        "Spurg.Rule.AbilityPoints": ["80 of 100 CP spent", False]}
    page.select_option('select[data-budget="Spurg.Rule.AbilityPoints"]', "50")
    assert page.evaluate(BUDGETS_JS) == engine_budgets(data, "spurg", values, {"Spurg.Rule.AbilityPoints": 50}) == {
        "Spurg.Rule.AbilityPoints": ["80 of 50 CP spent: 30 over the budget", True]}
    page.evaluate('document.querySelector("div.rpg-sheet [data-action=share]").click()')
    link = page.evaluate("location.href")
    page.goto("about:blank")
    open_sheet(page, site, "spurg", link[link.index("#"):])
    assert page.evaluate(BUDGETS_JS)["Spurg.Rule.AbilityPoints"][0] == "80 of 50 CP spent: 30 over the budget"
    for fragment in ("#sheet=spurg&budget:Spurg.Rule.AbilityPoints=7", "#sheet=spurg&budget:constructor=50"):
        page.goto("about:blank")
        open_sheet(page, site, "spurg", fragment)  # no such guideline, no such budget: nothing changes
        assert page.evaluate("document.querySelector('select[data-budget]').value") == "100"
    assert page_log.exceptions == []


def test_a_printed_budget_line_names_its_total_once_without_the_menu(page, site):
    open_sheet(page, site, "spurg")
    menu = page.locator(".rpg-sheet-budget-choice")
    assert menu.is_visible()
    page.emulate_media(media="print")
    assert not menu.is_visible() and page.locator("output.rpg-sheet-budget").text_content() == "0 of 100 CP spent"


@pytest.fixture(scope="module")
def evaluator_page(browser, site) -> Iterator[Any]:
    """A SPURG sheet loaded once for every formula the evaluator is asked about (it only calls
    ``window.rpgSheetEvaluate``, which changes nothing on the page): one load, not one per formula."""
    from tests.site.conftest import PageLog, new_context

    log = PageLog()
    context = new_context(browser, log)
    try:
        tab = context.new_page()
        tab.on("pageerror", lambda error: log.exceptions.append(str(error)))
        open_sheet(tab, site, "spurg")
        yield tab
        assert log.exceptions == []
    finally:
        context.close()


@pytest.mark.parametrize("text", ["floor((a + b) / 2)", "-a // 3 + b // -2", "ceil(a / 3) - b / 7", "min(a, b) * 1.5",
                                  "max(a, b, 2) - abs(a - b)", "a / b / 3 * (b - a)"])
def test_the_page_evaluator_rounds_and_divides_exactly_as_the_engine(evaluator_page, text):
    page = evaluator_page
    formula = Formula(text)
    rng = random.Random(text)
    rounds = [{"a": rng.randint(-40, 40), "b": rng.choice([n for n in range(-25, 26) if n])} for _ in range(ROUNDS)]
    shown = page.evaluate("([tree, rounds]) => rounds.map(values => window.rpgSheetEvaluate(tree, values))",
                          [formula.tree(), rounds])
    for values, seen in zip(rounds, shown, strict=True):
        assert seen == show_number(formula.evaluate(values)), values


def test_a_value_outside_the_rules_bounds_is_refused_with_a_message_next_to_it(page, site):
    data = open_sheet(page, site, "spurg")
    agility = next(f for f in data["fields"] if f["uid"] == "Spurg.Ability.Agility")
    shown = page.evaluate(f"({FILL_JS})({json.dumps({agility['key']: agility['min'] - 1})})")
    message = page.evaluate(f"""(() => {{
        const box = window.rpgSheets[0].inputs[{json.dumps(agility['key'])}];
        return [box.getAttribute("aria-invalid"), document.getElementById(box.getAttribute("aria-describedby")).textContent];
    }})()""")
    assert message[0] == "true" and f"{agility['label']} must be {agility['min']} or more" in message[1]
    assert shown["Spurg.Rule.StartingSpeed"] == "\N{EM DASH}"  # nothing computed from a refused value


def test_the_share_link_opens_the_same_sheet(page, site):
    data = open_sheet(page, site, "nemron")
    values = random_values(data, random.Random("share"))
    shown = page.evaluate(f"({FILL_JS})({json.dumps(values)})")
    page.evaluate('document.querySelector("div.rpg-sheet [data-action=share]").click()')
    link = page.evaluate("location.href")
    fragment = link[link.index("#"):]
    page.goto("about:blank")
    open_sheet(page, site, "nemron", fragment)
    again = page.evaluate("Object.fromEntries(Object.entries(window.rpgSheets[0].outputs).map(([k, e]) => [k, e.querySelector('.rpg-sheet-number').textContent]))")
    assert again == shown == engine_values(data, "nemron", values)


def test_a_saved_sheet_loads_back(page, site):
    data = open_sheet(page, site, "nugget")
    values = random_values(data, random.Random("save"))
    shown = page.evaluate(f"({FILL_JS})({json.dumps(values)})")
    page.select_option('select[data-budget="Nugget.Rule.PoorAttributes"]', "2")  # the table's own limit
    saved = page.evaluate("""(async () => {
        let link = null;
        const click = HTMLAnchorElement.prototype.click;
        HTMLAnchorElement.prototype.click = function () { link = this; };
        document.querySelector("div.rpg-sheet [data-action=save]").click();
        HTMLAnchorElement.prototype.click = click;
        return {name: link.download, text: await (await fetch(link.href)).text()};
    })()""")
    assert saved["name"] == "nugget-sheet.json"
    assert json.loads(saved["text"])["values"] == values | {"budget:Nugget.Rule.PoorAttributes": 2}
    page.evaluate('window.rpgSheets[0].reset()')
    page.evaluate(f"""(() => {{
        const input = document.querySelector("div.rpg-sheet input[data-action=load]");
        const files = new DataTransfer();
        files.items.add(new File([{json.dumps(saved["text"])}], "mine.json", {{type: "application/json"}}));
        input.files = files.files;
        input.dispatchEvent(new Event("change"));
    }})()""")
    page.wait_for_function('document.querySelector(".rpg-sheet-status").textContent.startsWith("Loaded")')
    again = page.evaluate("Object.fromEntries(Object.entries(window.rpgSheets[0].outputs).map(([k, e]) => [k, e.querySelector('.rpg-sheet-number').textContent]))")
    assert again == shown
    assert page.evaluate("document.querySelector('select[data-budget=\"Nugget.Rule.PoorAttributes\"]').value") == "2"


def pdf_pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf))


@pytest.mark.parametrize(("paper", "width", "height"), [("A4", 8.27, 11.69), ("Letter", 8.5, 11.0)])
def test_the_printed_sheet_is_one_page(page, site, paper, width, height):
    open_sheet(page, site, "nemron")
    pdf = page.pdf(width=f"{width}in", height=f"{height}in", print_background=False)
    assert pdf.startswith(b"%PDF")
    assert pdf_pages(pdf) == 1, paper


def test_the_page_count_sees_a_long_page_as_several(page, site):
    """The one-page check above can fail: a chapter without a sheet prints on several pages."""
    page.goto(f"{site.url}nemron/combat.html")
    assert pdf_pages(page.pdf(width="8.27in", height="11.69in")) > 1


@pytest.mark.parametrize(("name", "width", "dark"), [("light", 1280, False), ("dark", 1280, True), ("phone", 390, False)])
def test_screenshot_of_a_sheet(request, page_log, site, artifacts, name, width, dark):
    """Pictures to look at (tests/site/_artifacts/sheet-*.png); the page must lay out without errors."""
    if width < 600:  # the shared phone tab (a mobile viewport is a setting of its context)
        page = request.getfixturevalue("phone_page")
    else:  # the shared desktop tab, in the scheme asked for
        page = request.getfixturevalue("page")
        page.emulate_media(color_scheme="dark" if dark else "light")
    open_sheet(page, site, "nugget")
    page.evaluate('document.querySelector("div.rpg-sheet").scrollIntoView()')
    page.evaluate(f"({FILL_JS})({json.dumps({'Nugget.Attribute.Brawn': 2, 'Nugget.Attribute.Agility': 1})})")
    assert page.screenshot(path=str(artifacts / f"sheet-{name}.png")).startswith(b"\x89PNG")
    overflow = page.evaluate("document.querySelector('div.rpg-sheet').scrollWidth - document.querySelector('div.rpg-sheet').clientWidth")
    assert overflow <= 0, f"the sheet is wider than the {name} screen by {overflow}px"
    assert page_log.exceptions == []
