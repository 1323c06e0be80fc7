"""Every reader: WCAG 2.2 AA in headless Chromium, by axe-core and by the checks axe cannot make.

axe-core (vendored from the npm registry, ``tests/site/axe.py``) audits one page of every kind the
extension makes, in both editions and both colour schemes, with the reader aids open (controls shown,
a preview up).  What the extension owns is every element inside one of its own (an ``rpg-`` class or
id): there the audit must find nothing.  The theme's own markup (Furo's navigation, search box, footer)
and Sphinx's are out of this test's scope: what axe finds there is listed in the failure message of
nothing and asserted on nowhere, and said so here.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import pytest

from tests.site.axe import axe_script

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
    "node index": "node-nodes.html",
    "search results": "search.html?q=dodge",
    "manual page": "manual/markup.html",
    "changes": "changes.html",
}
#: WCAG 2.0-2.2, levels A and AA: the rules axe files under these tags.
WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]

#: Run axe, then keep the violations whose elements sit inside the extension's markup.
AUDIT_JS = """async (tags) => {
    const result = await axe.run(document, {runOnly: {type: "tag", values: tags}, resultTypes: ["violations"]});
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
    return found;
}"""


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


@pytest.fixture(scope="module")
def audits(page: Any, site: Any, player_server: Any) -> dict[tuple[str, str, str], dict[str, list[str]]]:
    """axe's findings for every page kind x edition x colour scheme, in one tab."""
    source = axe_script()
    found: dict[tuple[str, str, str], dict[str, list[str]]] = {}
    for edition, server in (("designer", site), ("player", player_server)):
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            for kind, path in PAGE_KINDS.items():
                page.goto(urljoin(server.url, path))
                if path.startswith("search.html"):
                    page.wait_for_function("document.querySelector('#search-results p.search-summary')")
                page.add_script_tag(content=source)
                open_aids(page)
                found[(edition, scheme, kind)] = page.evaluate(AUDIT_JS, WCAG_AA)
    return found


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


def test_every_page_kind_was_audited_in_both_editions_and_schemes(audits):
    assert len(audits) == 2 * 2 * len(PAGE_KINDS)
