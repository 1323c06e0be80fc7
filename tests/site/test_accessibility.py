"""Every reader: WCAG 2.2 AA in headless Chromium, checked by axe-core.

axe-core (vendored from the npm registry, ``tests/site/axe.py``) audits one page of every kind the
extension makes in both colour schemes (the kinds the player edition changes in that edition too), with the reader aids open (controls shown
by their scripts, a preview up).  The audit covers the extension's own markup: the elements with an
``rpg-`` class or id and what they hold (node sections, tables, sheets, charts, the calculator...),
the first of each kind on a page (a long page repeats the same markup); there it must find
nothing.  Scoped out, on purpose: the theme's own markup around it (Furo's
navigation, whose captions lack ``aria-level``; its search box; its footer) and Sphinx's.  The light
pages run every WCAG 2.0-2.2 A/AA rule; the dark ones only the rules a colour scheme can change.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import pytest

from tests.site.axe import AXE_VERSION, CACHE, axe_script

#: One page of every kind the extension makes (the designer edition adds its supplement).
PAGE_KINDS = {
    "front page": "index.html",
    "book front page": "nemron/index.html",
    "rules chapter with :vary: odds": "nemron/checks.html",
    "node with facts and backlinks": "nemron/energy.html",
    "static chart": "spurg/verdict.html",
    "character sheet": "heimr/sheet.html",
    "stat blocks": "heimr/statblocks.html",
    "dice calculator": "nemron/calculator.html",
    "connections graph": "heimr/connections.html",
    "reference listing": "nemron/reference.html",
    "tracker": "heimr/tracker.html",
    "node index": "node-types.html",
    "search results": "search.html?q=dodge",
    "manual page": "manual/markup.html",
    "changes": "changes.html",
}
#: Kinds drawn by Sphinx alone (autodoc's listing, the domain index template): no element of the
#: extension's, so axe has nothing of its own to audit there; listed so that the audit notices a change.
SPHINX_MARKUP_ONLY = {"reference listing", "node index"}
#: The page kinds whose markup the player edition changes (examples, engine paths and designer notes
#: dropped, reader-facing words): audited in the player edition too.  The others are the same markup
#: in both editions, so auditing them twice would only double the test's time.
PLAYER_KINDS = ["front page", "book front page", "rules chapter with :vary: odds", "node with facts and backlinks",
                "character sheet", "stat blocks", "tracker", "dice calculator"]
#: WCAG 2.0-2.2, levels A and AA: the rules axe files under these tags.
WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]

#: The rules whose outcome the colour scheme can change: the dark pages are audited for these alone.
COLOUR_RULES = ["color-contrast", "link-in-text-block"]

OURS_JS = """document.querySelector('[class*="rpg-"], [id^="rpg-"]') !== null"""
#: Run axe over the extension's own elements (those with an ``rpg-`` class or id, and what they hold),
#: then sort the violations into the extension's and the rest (what the theme wraps around them).
AUDIT_JS = """async (runOnly) => {
    // the outermost elements of the extension, the first of each kind (a long page repeats the same
    // markup: fifty node sections, a listing's rows); the preview, when it is up, always
    const seen = new Map();
    const mine = [...document.querySelectorAll('[class*="rpg-"], [id^="rpg-"]')]
        .filter(e => !e.parentElement.closest('[class*="rpg-"], [id^="rpg-"]'))
        .filter(e => { const kind = e.localName + "." + e.className; seen.set(kind, (seen.get(kind) || 0) + 1);
                       return seen.get(kind) <= 1 || e.id === "rpg-preview"; });
    if (!mine.length) return {ours: [], theirs: [], audited: 0};
    const result = await axe.run({include: mine}, {runOnly: runOnly, resultTypes: ["violations"]});
    const ours = (target) => {
        const selector = Array.isArray(target) ? target[target.length - 1] : target;
        const element = typeof selector === "string" ? document.querySelector(selector) : null;
        return !!(element && element.closest('[class*="rpg-"], [id^="rpg-"]'));
    };
    const found = {ours: [], theirs: []};
    for (const violation of result.violations) {
        for (const node of violation.nodes) {
            const entry = `${violation.id}: ${node.target.join(" ")} (${node.failureSummary.split("\\n").slice(1, 2).join("").trim()})`;
            (ours(node.target[node.target.length - 1]) ? found.ours : found.theirs).push(entry);
        }
    }
    found.audited = mine.length;
    return found;
}"""


@pytest.fixture(scope="module")
def axe_url(site: Any) -> Iterator[str]:
    """axe-core's script over HTTP from a loopback server of its own.

    A page loads it with a ``<script src>``, as it loads the site's scripts: the browser caches it and its
    compiled code, where a script passed by content (half a megabyte) crossed from Python to the
    browser, and was compiled, again for every page audited.
    """
    axe_script()  # downloaded and checked, once
    server = type(site)(CACHE / AXE_VERSION)
    try:
        yield urljoin(server.url, "axe.min.js")
    finally:
        server.close()


@pytest.fixture(scope="module")
def player_server(site: Any, built_player: Path) -> Iterator[Any]:
    server = type(site)(built_player)
    try:
        yield server
    finally:
        server.close()


def open_aids(tab: Any) -> None:
    """Put the reader aids of the page on screen: a node reference's preview (keyboard focus)."""
    link = tab.locator("[role=main] a.reference:has(span.rpg-node-ref)").first
    if link.count():
        link.focus()
        tab.wait_for_function("document.getElementById('rpg-preview') && !document.getElementById('rpg-preview').hidden")


#: What a calculator in view starts fetching: Python (Pyodide) for its worker.
PYTHON = "/_static/rpg/pyodide/"


#: The contrast failures of an earlier release, put back by a style sheet on the page audited in that scheme:
#: the audit must find them (``test_the_audit_finds_a_contrast_failure_planted_in_the_extensions_markup``).
PLANTED = {
    ("nemron/energy.html", "light"): "p.rpg-backlinks { opacity: 0.85; }",  # the 4.48:1 of an earlier release
    ("nemron/calculator.html", "dark"): "div.rpg-calculator button[type=submit] { color: #fff; }",  # 3.05:1
}

Findings = dict[tuple[str, str, str], dict[str, list[str]]]


@pytest.fixture(scope="module")
def audit_run(page: Any, site: Any, player_server: Any, axe_url: str) -> tuple[Findings, Findings]:
    """axe's findings for every page kind x edition x colour scheme, in one tab; then, on the designer
    pages of ``PLANTED``, once their own audits are done, the colour audit again with the failure planted.

    The servers hold Python back during the audit (``SiteServer.hold``): a calculator in view starts
    loading it, and compiling Pyodide's WebAssembly took more CPU than the calculator page's two audits.
    Each audit sees the calculator starting, as a reader does while Python loads (the audits always
    ran before Python was ready)."""
    found: Findings = {}
    planted: Findings = {}
    with site.hold(PYTHON), player_server.hold(PYTHON):
        for edition, server in (("designer", site), ("player", player_server)):
            kinds = PAGE_KINDS if edition == "designer" else {kind: PAGE_KINDS[kind] for kind in PLAYER_KINDS}
            for kind, path in kinds.items():  # each page loaded once, audited in both schemes
                page.emulate_media(color_scheme="light")
                page.goto(urljoin(server.url, path))
                if path.startswith("search.html"):
                    page.wait_for_function("document.querySelector('#search-results p.search-summary')")
                if not page.evaluate(OURS_JS):  # nothing of the extension's on the page: nothing to audit
                    found[(edition, "light", kind)] = found[(edition, "dark", kind)] = {
                        "ours": [], "theirs": [], "unaudited": ["no element of the extension's on the page"]}
                    continue
                page.add_script_tag(url=axe_url)
                open_aids(page)
                found[(edition, "light", kind)] = page.evaluate(AUDIT_JS, {"type": "tag", "values": WCAG_AA})
                page.emulate_media(color_scheme="dark")
                found[(edition, "dark", kind)] = page.evaluate(AUDIT_JS, {"type": "rule", "values": COLOUR_RULES})
                for (where, scheme), style in PLANTED.items():  # last on the page: the planted style stays
                    if edition == "designer" and where == path:
                        page.emulate_media(color_scheme=scheme)
                        page.add_style_tag(content=style)
                        planted[(path, scheme, style)] = page.evaluate(
                            AUDIT_JS, {"type": "rule", "values": COLOUR_RULES})
        page.goto("about:blank")  # the last page's requests end before the held ones are let go
    return found, planted


@pytest.fixture(scope="module")
def audits(audit_run: tuple[Findings, Findings]) -> Findings:
    return audit_run[0]


@pytest.fixture(scope="module")
def page(browser: Any) -> Iterator[Any]:
    """One tab for the whole audit (a module's own: the shared tab is lent test by test)."""
    from tests.site.conftest import PageLog, new_context

    context = new_context(browser, PageLog())
    try:
        yield context.new_page()
    finally:
        context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("edition", ["designer", "player"])
def test_axe_finds_no_wcag_aa_violation_in_the_extensions_markup(audits, edition, scheme):
    ours = {kind: found["ours"] for (e, s, kind), found in audits.items() if (e, s) == (edition, scheme) and found["ours"]}
    assert ours == {}, f"axe-core found WCAG 2.2 AA violations in the extension's markup ({edition}, {scheme})"


def test_every_page_kind_was_audited_in_both_schemes_and_the_player_kinds_in_both_editions(audits):
    """Every kind was loaded in both schemes (and the player kinds in both editions), and axe ran on all
    of them but the kinds drawn by Sphinx's own markup alone, where it has nothing of the extension's
    to look at: a kind whose markup went missing, or one that gains some, fails here."""
    assert len(audits) == 2 * (len(PAGE_KINDS) + len(PLAYER_KINDS))
    assert {kind for (_, _, kind), found in audits.items() if "unaudited" in found} == SPHINX_MARKUP_ONLY


@pytest.mark.parametrize(("path", "scheme"), list(PLANTED))
def test_the_audit_finds_a_contrast_failure_planted_in_the_extensions_markup(audit_run, path, scheme):
    """The audit can fail: the two contrast failures of an earlier release, put back, are found."""
    found = audit_run[1][(path, scheme, PLANTED[(path, scheme)])]
    assert found["ours"] and all(entry.startswith("color-contrast") for entry in found["ours"])
