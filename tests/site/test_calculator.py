"""The dice calculator in headless Chromium: the page's answers are the Python engine's, exactly.

One tab holds one calculator session: Pyodide starts once (from the copy vendored into the site; every
other host is blocked), then the tab answers questions across the five systems, typed into the form
as a reader types them, and each answer is compared with ``rules.calculator.answer_json`` run here.
The other tests reuse that tab: bad input, the share link, and screenshots in light, dark and phone
width.  Only the "no JavaScript" and "Cancel" checks open tabs of their own (neither starts Pyodide).
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from rules.calculator import answer_json, roll_json

PAGE = "manual/calculator.html"
#: The systems the manual's calculator offers, as the page passes them to the engine.
OFFERED = ["nemron", "heimr", "nugget"]
#: (system, notation, mode, target): 60 questions over the five systems.  SPURG and the DnDalike have
#: no notation of their own; their rolls are standard notation (SPURG rolls under its target).
QUESTIONS: list[tuple[str, str, str, str]] = [
    *(("nemron", n, "dc", t) for n, t in [
        ("Agility 2 › Athletics 1", "7"), ("1d6 › 1d10 › 1d8", "6"), ("1d6 › 1d8", ""), ("Strength 1 › Melee 3", "9"),
        ("1d4 › 1d6 › 1d8 › 1d10 › 1d12", "10"), ("Agility 0", "3"), ("1d6", "4"), ("Intellect 4 › Lore 4", "11"),
        ("1d6 > 1d10 > 1d8", "8"), ("2d6 › 1d8", "5"), ("1d8 › 1d8", "7"), ("1d12 › 1d4", "")]),
    *(("heimr", n, "dc", t) for n, t in [
        ("C+3 P-1", "8"), ("C=3, P=2", "9"), ("C-2", "4"), ("C+0 P+0", ""), ("C+1", "6"), ("C+5 P+3", "12"),
        ("C-4 P+2", "5"), ("C+2 P+1", "7"), ("C=0, P=-1", "3"), ("C-1 P-1", "2"), ("C+8", "10"), ("C+4 P-2", "6")]),
    *(("nugget", n, "dc", t) for n, t in [
        ("5", "2"), ("5 dice", "3"), ("3 dice lid-on", "1"), ("6 dice lid-off", "4"), ("1 dice lid-off", "1"),
        ("10 dice lid-on", "5"), ("4 dice lid-off", ""), ("2 dice", "2"), ("8 dice lid-off", "6"),
        ("12 dice lid-off", "7"), ("7 dice lid-on", "3"), ("9 dice", "4")]),
    *(("", n, "under", t) for n, t in [  # SPURG: Verdict Rolls, roll under the target number
        ("3d6", "10"), ("3d6", "14"), ("3d6+2", "12"), ("3d6-1", "9"), ("4d6kl3", "8"), ("4d6kh3", "13"),
        ("2d6", "7"), ("3d6", "3"), ("3d6", "18"), ("1d6+2d6", "11"), ("3d6kl2", "6"), ("3d6", "")]),
    *(("", n, "dc", t) for n, t in [  # DnDalike: one d6, two with advantage or disadvantage
        ("1d6", "4"), ("2d6kh1", "4"), ("2d6kl1", "4"), ("1d6+1", "5"), ("2d6kh1+1", "6"), ("2d6kl1-1", "2"),
        ("1d6", "6"), ("2d6kh1", "2"), ("d6!", "7"), ("6d6>=5", "2"), ("4dF", "1"), ("1d100", "50")]),
]

#: What the page shows after an answer: the answer itself, the table's cells (a table holding only the
#: rows in view is scrolled from top to bottom, each row read where it appears), the rows marked as
#: successes, and the chart read back: for each bar, is the point just inside its top (the engine's
#: height, in thousandths of the chart's 160 units; at least 1) filled, by the bars that succeed or by
#: those that miss, and the point just above it not?  The chart's element count and text alternative too.
SHOWN_JS = """(calc, views = null) => {
    const answer = Object.assign({}, calc.last);
    delete answer.ms;
    const svg = calc.result.querySelector("svg.rpg-calculator-chart");
    const paths = svg ? {hit: svg.querySelector("path.rpg-calculator-hit"),
                         miss: svg.querySelector("path.rpg-calculator-bar:not(.rpg-calculator-hit)")} : {};
    const chart = {wrong: [], hits: [], elements: svg ? svg.querySelectorAll("*").length : 0,
                   label: svg ? svg.getAttribute("aria-label") : null};
    if (svg) {
        const {first, heights} = calc.last.chart;
        const bar = svg.viewBox.baseVal.width / first.length, base = 160;
        const filled = (kind, y, i) => paths[kind] !== null && paths[kind].isPointInFill(new DOMPoint(i * bar + bar / 2, y));
        first.forEach((x, i) => {
            const top = base - Math.max(heights[i] / 1000 * base, 1);
            const inside = ["hit", "miss"].filter(kind => filled(kind, top + 0.25, i));
            const above = ["hit", "miss"].some(kind => filled(kind, top - 0.25, i));
            if (inside.length !== 1 || above) chart.wrong.push(x);
            else if (inside[0] === "hit") chart.hits.push(x);
        });
    }
    // a cell cut short shows 16 characters and "…": its whole value is its title
    const whole = td => td.classList.contains("rpg-calculator-cut") ? td.title : td.textContent;
    const wrap = calc.result.querySelector(".rpg-calculator-table-wrap");
    const table = wrap && wrap.querySelector("table");
    let rows = wrap ? Array.from(table.tBodies[0].rows) : [];
    const virtual = wrap !== null && wrap.classList.contains("rpg-calculator-virtual");
    let shownAtOnce = rows.length;
    if (virtual) {  // scroll, reading the rows each view holds by their aria-rowindex: every view, or the
        const seen = new Map();  // ``views`` given (fractions of the way down)
        const read = () => {
            calc.renderRows();  // what the scroll handler does at the next frame
            table.querySelectorAll("tbody tr[aria-rowindex]").forEach(tr => seen.set(Number(tr.getAttribute("aria-rowindex")), tr));
        };
        wrap.style.height = wrap.style.maxHeight = "8000px";  // a tall view: fewer steps to read a long table
        if (views) views.forEach(at => { wrap.scrollTop = at * (wrap.scrollHeight - wrap.clientHeight); read(); });
        else for (let y = 0; ; y += wrap.clientHeight) {
            wrap.scrollTop = y;
            read();
            if (wrap.scrollTop + wrap.clientHeight >= wrap.scrollHeight - 1) break;
        }
        rows = Array.from(seen.keys()).sort((a, b) => a - b).map(k => seen.get(k));
        rows.indexes = Array.from(seen.keys()).sort((a, b) => a - b);
        wrap.style.height = wrap.style.maxHeight = "";
        wrap.scrollTop = 0;
        calc.renderRows();
    }
    const exact = calc.status.querySelector(".rpg-calculator-fraction");
    return {answer, status: calc.status.textContent.replace(exact ? exact.textContent : null, exact ? exact.title : null), error: calc.status.classList.contains("rpg-calculator-error"),
            rows: rows.map(tr => Array.from(tr.cells, whole)), cut_wrong: rows.flatMap(tr => Array.from(tr.cells))
                .filter(td => td.classList.contains("rpg-calculator-cut")
                              && td.textContent !== td.title.slice(0, 16) + "\u2026").length,
            row_indexes: rows.indexes || null, row_count: table ? table.getAttribute("aria-rowcount") : null,
            shown_at_once: shownAtOnce, virtual,
            hit_rows: rows.filter(tr => tr.classList.contains("rpg-calculator-hit")).map(tr => tr.cells[0].textContent),
            chart, folds: (calc.result.querySelector(".rpg-calculator-folds") || {}).textContent || null,
            link: calc.share.href};
}"""
#: Resolve once ``element``'s ``name`` attribute reads ``value``: the calculator sets ``data-answered`` /
#: ``data-rolled`` to a question's number as it shows its answer, and a MutationObserver hears that event
#: (no polling on a timer).
ATTRIBUTE_JS = """const attribute = (element, name, value) => new Promise(resolve => {
        if (element.getAttribute(name) === value) return resolve();
        const observer = new MutationObserver(() => {
            if (element.getAttribute(name) === value) { observer.disconnect(); resolve(); }
        });
        observer.observe(element, {attributes: true, attributeFilter: [name]});
    });"""
#: Fill the form as typing does, press Compute, wait for this question's answer.
ASK_JS = """async ([system, notation, mode, target]) => {
    """ + ATTRIBUTE_JS + """
    const calc = window.rpgCalculators[0];
    const f = calc.form.elements;
    f.system.value = system; f.notation.value = notation; f.mode.value = mode; f.target.value = target;
    f.notation.dispatchEvent(new Event("input", {bubbles: true}));
    const number = calc.asked + 1;
    calc.form.querySelector("button[type=submit]").click();
    await attribute(calc.root, "data-answered", String(number));
    return (%s)(calc);
}""" % SHOWN_JS
#: Press "Show all N rows" under a folded table, wait for the table.
#: ``views``: read only the rows of these views of the table (fractions of the way down), else every row.
SHOW_ALL_JS = """async (views) => {
    """ + ATTRIBUTE_JS + """
    const calc = window.rpgCalculators[0];
    const number = calc.asked + 1;
    calc.result.querySelector("button[data-action=all]").click();
    await attribute(calc.root, "data-answered", String(number));
    return (%s)(calc, views);
}""" % SHOWN_JS
#: Fill the form, press Roll with a given seed (as the button does with a random one), wait for the dice.
ROLL_JS = """async ([system, notation, mode, target, seed]) => {
    """ + ATTRIBUTE_JS + """
    const calc = window.rpgCalculators[0];
    const f = calc.form.elements;
    f.system.value = system; f.notation.value = notation; f.mode.value = mode; f.target.value = target;
    const number = calc.rolls + 1;
    calc.roll(seed);
    await attribute(calc.root, "data-rolled", String(number));
    const rolled = Object.assign({}, calc.lastRoll);
    delete rolled.ms;
    return {rolled, shown: calc.rolled.textContent};
}"""
#: The calculator once it has shown an answer (``answered_as``: its ``number``-th).
ANSWERED = ".rpg-calculator[data-answered]"


def answered_as(number: int) -> str:
    return f".rpg-calculator[data-answered='{number}']"


def engine(system: str, notation: str, mode: str, target: str, every: bool = False) -> dict[str, Any]:
    """What the Python engine answers to the same question, within the page's budget (the worker lowers
    the work budget to ``errors.BROWSER_WORK`` once it has loaded the engine)."""
    from rules.dice import errors

    dc, under = (target, None) if mode == "dc" else (None, target)
    saved, errors.MAX_WORK = errors.MAX_WORK, errors.BROWSER_WORK
    try:
        data: dict[str, Any] = json.loads(answer_json(notation, system, dc or None, under or None, OFFERED,
                                                      every=every, at_most=mode == "under"))
    finally:
        errors.MAX_WORK = saved
    return data


def succeeds(expected: dict[str, Any], low: Any, high: Any) -> bool:
    """Does every outcome from ``low`` to ``high`` meet the answer's target?"""
    target = expected["target"]
    if not target or not isinstance(low, int) or not isinstance(high, int):
        return False
    return low >= target["value"] if target["kind"] == "at least" else high <= target["value"]


def assert_shown(shown: dict[str, Any], expected: dict[str, Any], question: object) -> None:
    """The page shows the engine's answer: its table row by row, its successes marked, its chart bar by bar."""
    assert shown["answer"] == expected, question
    rows = expected["rows"]
    if shown["row_indexes"] is not None:  # a table holding the rows in view: the rows read, each at its place
        rows = [rows[index - 2] for index in shown["row_indexes"]]  # aria-rowindex 2 is the first row
    running = "le" if expected["cumulative"] == "at most" else "ge"  # rolling under: P(<= result)
    assert shown["rows"] == [[str(r["outcome"]), r["p"], r["percent"], r[f"p_{running}"], r[f"percent_{running}"]]
                             for r in rows], question
    assert shown["cut_wrong"] == 0, question
    assert shown["hit_rows"] == [str(r["outcome"]) for r in rows
                                 if succeeds(expected, r.get("from", r["outcome"]), r.get("to", r["outcome"]))]
    chart = expected["chart"]
    assert shown["chart"]["wrong"] == [], question
    assert shown["chart"]["hits"] == [x for x, y in zip(chart["first"], chart["last"]) if succeeds(expected, x, y)]
    assert shown["chart"]["elements"] <= 3 + 13 + 1, question  # two paths and a few labels, whatever the length


@dataclass
class Session:
    tab: Any
    log: Any  # conftest.PageLog
    site: Any  # conftest.SiteServer

    def ask(self, system: str, notation: str, mode: str = "dc", target: str = "") -> dict[str, Any]:
        result: dict[str, Any] = self.tab.evaluate(ASK_JS, [system, notation, mode, target])
        return result


SHARED = "#dice=Agility+2+%E2%80%BA+Athletics+1&system=nemron&dc=7"


@pytest.fixture(scope="module")
def session(module_page: tuple[Any, Any], site: Any) -> Session:
    """The manual's calculator opened from a share link: Pyodide's one cold start of this module."""
    if not (site.root / "_static" / "rpg" / "pyodide" / "pyodide.mjs").is_file():
        pytest.fail("the site has no vendored Pyodide: run `python3 dev.py test` (it runs "
                    "`rpg pyodide .cache/pyodide` first) or `rpg pyodide .cache/pyodide`, then build", pytrace=False)
    tab, log = module_page
    tab.goto(site.url + PAGE + SHARED)
    # Pyodide's cold start takes seconds: a wait polling at every frame would redraw the tab the whole time
    tab.wait_for_selector(ANSWERED, state="attached", timeout=180_000)
    return Session(tab, log, site)


def test_opening_a_share_link_shows_its_answer(session):
    shown = session.tab.evaluate("(() => { const a = Object.assign({}, window.rpgCalculators[0].last); "
                                 "delete a.ms; return a; })()")
    assert shown == engine("nemron", "Agility 2 › Athletics 1", "dc", "7")
    fields = session.tab.evaluate("Array.from(window.rpgCalculators[0].form.elements, e => e.value)")
    assert fields[:4] == ["Agility 2 › Athletics 1", "nemron", "dc", "7"]


def test_the_calculator_answers_what_the_python_engine_answers_across_the_five_systems(session):
    assert len(QUESTIONS) >= 50
    for question in QUESTIONS:
        shown = session.ask(*question)
        expected = engine(*question)
        assert "error" not in expected, question
        assert_shown(shown, expected, question)
        assert f"Mean {expected['mean_text']}, standard deviation {expected['sd_text']}." in shown["status"]
        if expected["target"]:
            assert shown["status"].endswith(f"= {expected['target']['percent']}, exactly {expected['target']['p']}")


@pytest.mark.parametrize(("notation", "mode", "target"), [("100d6", "dc", "360"), ("50d20", "under", "500"),
                                                        ("1d10000", "dc", "5000")])
def test_a_long_distribution_folds_its_tails_and_show_all_gives_every_row(session, notation, mode, target):
    shown = session.ask("", notation, mode, target)
    folded = engine("", notation, mode, target)
    assert folded["folded"] and len(folded["rows"]) <= 122 and not shown["virtual"]
    assert_shown(shown, folded, notation)
    kept = len(folded["rows"]) - 2
    assert shown["folds"].startswith(f"{kept} of {folded['outcomes']} results have rows of their own")
    assert shown["folds"].endswith(f"Show all {folded['outcomes']} rows")
    # every row of 100d6 and 50d20, read view by view; of 1d10000's 10,000, the top, the middle and the end
    views = [0, 0.5, 1] if notation == "1d10000" else None
    every = session.tab.evaluate(SHOW_ALL_JS, views)
    expected = engine("", notation, mode, target, every=True)
    assert len(expected["rows"]) == expected["outcomes"] and not expected["folded"]
    assert_shown(every, expected, notation)
    # a real table of every row, holding the rows in view: each row read where it is, and in its place
    assert every["virtual"] and every["row_count"] == str(expected["outcomes"] + 1)
    region = session.tab.evaluate("(w => [w.getAttribute('role'), w.getAttribute('aria-label'), w.tabIndex])"
                                  "(document.querySelector('.rpg-calculator-virtual'))")
    assert region == ["region", f"Every result of {notation}, {expected['outcomes']} rows", 0]  # keyboard-scrollable
    indexes = every["row_indexes"]
    if views is None:
        assert indexes == list(range(2, expected["outcomes"] + 2))
    else:  # the first rows, the last rows, and rows around the middle, where the DC of 5000 is
        assert indexes[0] == 2 and indexes[-1] == expected["outcomes"] + 1 and 5001 in indexes
        assert every["hit_rows"] and "5000" in every["hit_rows"] and "4999" not in every["hit_rows"]
    assert every["shown_at_once"] < 100  # the rows in view and some around them, not thousands
    assert every["folds"] is None and every["link"] == shown["link"]


def test_a_chart_of_thousands_of_outcomes_sums_runs_of_them_into_each_bar_and_says_so(session):
    shown = session.ask("", "1d10000", "dc", "5000")
    chart = engine("", "1d10000", "dc", "5000")["chart"]
    assert len(chart["first"]) <= 300 and chart["size"] == 34
    assert shown["chart"]["label"] == ("Chart of P(= result) for each result of 1d10000, from 5 to 9996; each bar sums "
                                       "the chances of 34 results in a row (the last bar 30); the table below lists "
                                       "the chances")
    # the bar holding 4999 and 5000 straddles the DC: only the bars whose every result succeeds are marked
    assert shown["chart"]["hits"][0] == min(x for x in chart["first"] if x >= 5000)


def test_pointing_at_a_bar_of_the_chart_shows_its_results_and_their_chance(session):
    def point_at(index: int, bars: int) -> str | None:
        box = session.tab.locator(".rpg-calculator-chart").bounding_box()
        assert box is not None
        session.tab.mouse.move(box["x"] + box["width"] * (index + 0.5) / bars, box["y"] + box["height"] / 2)
        text: str | None = session.tab.locator(".rpg-calculator-readout").text_content()
        return text

    session.ask("", "50d20", "dc", "")  # the chart covers more outcomes than have rows of their own
    chart, rows = engine("", "50d20", "dc", "")["chart"], engine("", "50d20", "dc", "")["rows"]
    middle = chart["first"].index(rows[60]["outcome"])
    assert point_at(middle, len(chart["first"])) == f"{rows[60]['outcome']}: {rows[60]['percent']}"
    assert point_at(0, len(chart["first"])) == f"{chart['first'][0]}: {chart['percents'][0]}"  # in the folded tail
    session.ask("", "1d10000", "dc", "")
    chart = engine("", "1d10000", "dc", "")["chart"]
    assert point_at(1, len(chart["first"])) == "39\N{EN DASH}72: 0.3%"  # a bar of 34 results
    session.tab.mouse.move(0, 0)
    assert session.tab.locator(".rpg-calculator-readout").text_content() == ""


def test_a_long_fraction_is_cut_short_and_a_click_or_tap_or_a_copy_gives_it_whole(session):
    session.ask("", "100d6", "dc", "360")
    read = """(cell => ({text: cell.textContent, title: cell.title, whole: cell.classList.contains("rpg-calculator-whole")}))"""
    summary, cell = ".rpg-calculator-status .rpg-calculator-fraction", ".rpg-calculator-table tbody tr:nth-child(2) td"
    exact = engine("", "100d6", "dc", "360")["target"]["p"]  # two numbers of about 78 digits
    assert session.tab.evaluate(f"{read}(document.querySelector({summary!r}))") == {
        "text": exact[:16] + "\N{HORIZONTAL ELLIPSIS}", "title": exact, "whole": False}
    session.tab.click(summary)
    assert session.tab.evaluate(f"{read}(document.querySelector({summary!r}))") == {
        "text": exact, "title": exact, "whole": True}
    session.tab.click(summary)  # and cut short again
    assert session.tab.evaluate(f"{read}(document.querySelector({summary!r}))")["text"] == exact[:16] + "\N{HORIZONTAL ELLIPSIS}"
    row = engine("", "100d6", "dc", "360")["rows"][1]
    copied = session.tab.evaluate("""(selector) => {  // select the row, copy it, read what the clipboard got
        const selection = getSelection(), range = document.createRange();
        range.selectNodeContents(document.querySelector(selector).parentNode);
        selection.removeAllRanges();
        selection.addRange(range);
        let text = null;
        const keep = event => { text = event.clipboardData.getData("text/plain"); };
        document.addEventListener("copy", keep);
        document.execCommand("copy");
        document.removeEventListener("copy", keep);
        selection.removeAllRanges();
        return text;
    }""", cell)
    assert copied is not None and row["p"] in copied and row["p_ge"] in copied and "\N{HORIZONTAL ELLIPSIS}" not in copied


def test_a_roll_shows_the_dice_rpg_roll_shows_with_the_same_seed(session):
    for seed, (system, notation, mode, target) in enumerate(QUESTIONS[::5], start=11):
        shown = session.tab.evaluate(ROLL_JS, [system, notation, mode, target, seed])
        dc, under = (target or None, None) if mode == "dc" else (None, target or None)
        expected = json.loads(roll_json(notation, system, str(seed), dc, under, OFFERED))
        assert shown["rolled"] == expected, (system, notation)
        assert shown["shown"].startswith(f"Rolled {expected['text']}") and f"(seed {seed})" in shown["shown"]


@pytest.mark.parametrize("notation", ["3d0", "1000d1000", "2d6+", "Agility 9 › Athletics 1"])
def test_bad_input_shows_the_engines_own_one_line_message(session, notation):
    system = "nemron" if "Agility" in notation else ""
    shown = session.ask(system, notation)
    message = engine(system, notation, "dc", "")["error"]
    assert shown["error"] and shown["status"] == message and "\n" not in message and "Traceback" not in message
    assert shown["rows"] == []


def test_a_share_link_round_trips(session):
    first = session.ask("heimr", "C+2 P+1", "dc", "7")
    assert parse_qs(urlsplit(first["link"]).fragment) == {"dice": ["C+2 P+1"], "system": ["heimr"], "dc": ["7"]}
    # the address bar holds it too, from the frame after the answer
    session.tab.wait_for_function("link => location.href === link", arg=first["link"])
    second = session.ask("", "3d6", "under", "10")
    # the address takes the second link a frame after its answer: wait for that event, or the tab could
    # still hold the first link when it is pasted, and a link equal to the address is no navigation at all
    session.tab.wait_for_function("link => location.href === link", arg=second["link"])
    answered = session.tab.evaluate("window.rpgCalculators[0].asked")
    session.tab.goto(first["link"])  # pasted into the tab: the same answer again
    session.tab.wait_for_selector(answered_as(answered + 1), state="attached")
    shown = session.tab.evaluate("(() => { const a = Object.assign({}, window.rpgCalculators[0].last); "
                                 "delete a.ms; return a; })()")
    assert shown == first["answer"] == engine("heimr", "C+2 P+1", "dc", "7")


@pytest.mark.parametrize("fragment, asked", [
    ("#dice=3d6&dc=%E0%A4%A", ("", "3d6", "dc", "")),  # the malformed pair is dropped, the rest answered
    ("#%E0%A4%A&dice=2d6", ("", "2d6", "dc", "")),
    ("#dice=1d6&" + "&".join(f"p{n}=1" for n in range(5_000)), None),  # too many pairs: nothing asked
    ("#dice=" + "9" * 100_000, None),  # too long: nothing asked
])
def test_a_hostile_share_link_leaves_the_calculator_working(session, fragment, asked):
    before = session.tab.evaluate("window.rpgCalculators[0].asked")
    session.tab.goto(session.site.url + PAGE + fragment)  # same document: the calculator stays warm
    if asked:
        session.tab.wait_for_selector(answered_as(before + 1), state="attached")
        shown = session.tab.evaluate("(() => { const a = Object.assign({}, window.rpgCalculators[0].last); "
                                     "delete a.ms; return a; })()")
        assert shown == engine(*asked)
    answer = session.ask("nemron", "Agility 2 › Athletics 1", "dc", "7")  # and the controls still answer
    assert answer["answer"] == engine("nemron", "Agility 2 › Athletics 1", "dc", "7")
    assert session.log.exceptions == []


def test_a_share_link_naming_a_system_the_page_does_not_offer_is_refused(session):
    answered = session.tab.evaluate("window.rpgCalculators[0].asked")
    session.tab.goto(session.site.url + PAGE + "#dice=1d6&system=os")
    session.tab.wait_for_selector(answered_as(answered + 1), state="attached")
    status = session.tab.inner_text(".rpg-calculator-status")
    assert status == "this calculator offers no game system 'os' (it offers: nemron, heimr, nugget)"


def test_python_starts_from_the_standard_library_and_the_engine_with_their_bytecode(session):
    """Vendoring compiled the modules Pyodide and the engine import (Node.js): none is compiled at start."""
    if shutil.which("node") is None:
        pytest.skip("no Node.js here: vendoring made no bytecode, the calculator compiles the sources")
    manifest = json.loads((session.site.root / "_static" / "rpg" / "calculator.json").read_text())
    fetched = {path.rsplit("/", 1)[-1] for path, _ in session.site.requests if "/_static/rpg/pyodide/" in path}
    assert manifest.get("stdlib") == "python_stdlib_pyc.zip"
    assert "python_stdlib_pyc.zip" in fetched and "python_stdlib.zip" not in fetched, fetched
    # and the engine's own bytecode, unpacked beside the wheel
    engine = {path.rsplit("/", 1)[-1] for path, _ in session.site.requests if path.endswith(".pyc.zip")}
    assert engine == {manifest["bytecode"]} and manifest["bytecode"] == manifest["wheel"][:-4] + ".pyc.zip"


def test_the_session_loaded_nothing_from_another_host_and_raised_nothing(session):
    assert session.log.external == [] and session.log.exceptions == []
    assert session.site.failures() == []


def shoot(tab: Any, artifacts: Any, name: str, light: str, phone: str) -> float:
    """Screenshots ``name``-light, -dark (at ``light``) and -phone (390 px, at ``phone``); the right edge of
    ``phone`` at that width.  The tab is left light and 1280 px wide."""
    tab.locator(light).scroll_into_view_if_needed()
    tab.screenshot(path=str(artifacts / f"{name}-light.png"))
    tab.emulate_media(color_scheme="dark")
    tab.screenshot(path=str(artifacts / f"{name}-dark.png"))
    tab.set_viewport_size({"width": 390, "height": 844})
    tab.locator(phone).scroll_into_view_if_needed()
    tab.screenshot(path=str(artifacts / f"{name}-phone.png"))
    right: float = tab.evaluate(f"document.querySelector({phone!r}).getBoundingClientRect().right")
    tab.emulate_media(color_scheme="light")
    tab.set_viewport_size({"width": 1280, "height": 900})
    return right


def test_screenshots_in_light_dark_and_phone_width(session, artifacts):
    session.ask("nemron", "1d6 › 1d10 › 1d8", "dc", "7")
    session.tab.evaluate(ROLL_JS, ["nemron", "1d6 › 1d10 › 1d8", "dc", "7", 42])
    assert shoot(session.tab, artifacts, "calculator", ".rpg-calculator", ".rpg-calculator form") <= 390  # it fits


def test_screenshots_of_a_long_distribution_folded_in_light_dark_and_phone_width(session, artifacts):
    session.ask("", "100d6", "dc", "360")
    # the note under the folded table and its button wrap within the phone's width
    assert shoot(session.tab, artifacts, "calculator-long", ".rpg-calculator-result", ".rpg-calculator-folds") <= 390


def test_screenshots_of_every_row_of_a_long_distribution_in_light_dark_and_phone_width(session, artifacts):
    session.ask("", "1d10000", "dc", "5000")
    session.tab.evaluate("""async () => {  // Show all, then the middle of the 10,000 rows, where the successes begin
        """ + ATTRIBUTE_JS + """
        const calc = window.rpgCalculators[0], number = calc.asked + 1;
        calc.result.querySelector("button[data-action=all]").click();
        await attribute(calc.root, "data-answered", String(number));
        const wrap = document.querySelector(".rpg-calculator-virtual");
        wrap.scrollTop = wrap.scrollHeight / 2 - wrap.clientHeight / 2;
        window.rpgCalculators[0].renderRows();
    }""")
    row = session.tab.evaluate("document.querySelector('.rpg-calculator-virtual tbody tr[aria-rowindex]')"
                               ".getAttribute('aria-rowindex')")
    assert 4000 < int(row) < 5000  # the rows in view, not the first ones
    assert shoot(session.tab, artifacts, "calculator-all", ".rpg-calculator-virtual", ".rpg-calculator-virtual") <= 390


def test_without_javascript_the_page_says_what_the_calculator_needs(open_page, site):
    tab = open_page(java_script_enabled=False)
    tab.goto(site.url + "nemron/calculator.html")
    text = tab.inner_text("body")
    assert "This dice calculator needs JavaScript and WebAssembly." in text
    assert "rpg odds" in text
    assert not tab.locator(".rpg-calculator form").is_visible()


def test_the_calculator_starts_once_in_view_says_what_is_loading_and_cancel_stops_it(open_page, page_log, site):
    tab = open_page()
    since = len(site.requests)
    # Python's standard library and its interpreter's WebAssembly are held back by the site's server until
    # the question is cancelled: the calculator is surely still loading Python when it is read and when
    # Cancel is pressed, however fast or slow the machine (and never compiles the interpreter it drops)
    with site.hold("python_stdlib"), site.hold("pyodide.asm.wasm"):
        tab.goto(site.url + "spurg/calculator.html")  # the calculator is in the first screen: it starts unasked
        # waits Playwright repeats on a timer, not at every frame: the page is loading Python meanwhile
        tab.locator(".rpg-calculator-progress", has_text="MB").wait_for(state="visible")
        shown = tab.locator(".rpg-calculator-progress").inner_text()
        total = json.loads((site.root / "_static" / "rpg" / "calculator.json").read_text())["sizes"]["python"]
        assert shown.startswith("Starting the calculator: loading ") and f" of {total / 1e6:.1f} MB" in shown, shown
        assert tab.locator(".rpg-calculator-progress progress").get_attribute("aria-label") == "Starting the calculator"
        assert [path for path, _ in site.requests[since:] if "/_static/rpg/" in path]  # before any click
        # SPURG rolls under its target number, and the page says TN, as the book does
        assert tab.locator(".rpg-calculator-target").inner_text().startswith("TN")
        tab.click(".rpg-calculator button[type=submit]")
        tab.wait_for_selector(".rpg-calculator [data-action=cancel]:visible")
        tab.click(".rpg-calculator [data-action=cancel]")
        tab.wait_for_selector(".rpg-calculator-status:text-is('cancelled')")
        assert tab.locator(".rpg-calculator-status").text_content() == "cancelled"
    assert tab.locator(".rpg-calculator [data-action=cancel]").is_hidden()
    assert tab.locator(".rpg-calculator-progress").is_hidden()
    # the status is read out: nothing around it is marked busy once the question is over
    assert tab.evaluate("document.querySelector('.rpg-calculator-status').closest('[aria-busy=true]')") is None
    assert page_log.exceptions == [] and page_log.external == []


def test_a_question_that_outlasts_the_time_limit_is_stopped_not_waited_for(session):
    """Last in the module: it stops the session's worker (the limit is lowered to make any question too slow)."""
    session.tab.evaluate("window.rpgCalculatorLimits.answer = 1")
    shown = session.ask("", "97d10+89d12")  # asked nowhere else: about 0.2 s of work, far over 1 ms
    assert shown["error"] and shown["status"] == "stopped: no answer within 0.001 s"
    assert session.tab.locator(".rpg-calculator [data-action=cancel]").is_hidden()
