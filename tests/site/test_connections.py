"""Each book's "How the rules connect" page: the picture's boxes are links that land on their rule."""

from __future__ import annotations

from urllib.parse import urljoin, urlsplit

import pytest

BOOKS_WITH_CONNECTIONS = ["nemron", "heimr", "nugget", "spurg"]  # the DnDalike's formulas name no node

BOXES_JS = """[...document.querySelectorAll("svg.rpg-graph a")].map(a => ({
    href: new URL(a.getAttribute("href"), location.href).href,
    name: a.querySelector("text").textContent}))"""

#: The heading of the element each anchor names (null when there is none).
HEADINGS_JS = """(anchors) => anchors.map(anchor => {
    const el = document.getElementById(anchor);
    const h = el && el.querySelector(":scope > h1, :scope > h2, :scope > h3, :scope > h4, :scope > p.rubric");
    return h ? h.textContent : null;
})"""


@pytest.mark.parametrize("book", BOOKS_WITH_CONNECTIONS)
def test_every_box_of_the_graph_links_to_its_rule(page, page_log, site, book):
    page.goto(urljoin(site.url, f"{book}/connections.html"))
    boxes = page.evaluate(BOXES_JS)
    assert len(boxes) >= 3, f"the {book} graph draws almost nothing"
    by_page: dict[str, list[dict]] = {}  # each page the boxes lead to is loaded once
    for box in boxes:
        by_page.setdefault(box["href"].split("#")[0], []).append(box)
    for url, targets in by_page.items():
        page.goto(url)
        headings = page.evaluate(HEADINGS_JS, [urlsplit(box["href"]).fragment for box in targets])
        for box, heading in zip(targets, headings, strict=True):
            assert heading is not None and box["name"] in heading, (box, heading)
    assert page_log.exceptions == [] and site.failures() == []


def luminance(colour: str) -> float:
    """Relative luminance (WCAG) of a CSS ``rgb(...)``/``rgba(...)`` colour."""
    channels = [float(part) / 255 for part in colour[colour.index("(") + 1:].rstrip(")").split(",")[:3]]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_graph_reads_against_the_page_in_either_colour_scheme(page, site, artifacts, scheme):
    """Boxes, names and arrows take the page's text or link colour: readable on a light or a dark page."""
    page.emulate_media(color_scheme=scheme)  # the shared tab, before the load: the page opens in it
    page.goto(urljoin(site.url, "nugget/connections.html"))
    page.locator("svg.rpg-graph").screenshot(path=str(artifacts / f"graph-{scheme}.png"))
    stroke, text, background = page.evaluate("""(() => {
        const style = e => getComputedStyle(e);
        return [style(document.querySelector("svg.rpg-graph rect")).stroke,
                style(document.querySelector("svg.rpg-graph text")).fill,
                style(document.body).backgroundColor];
    })()""")
    for colour in (stroke, text):
        lighter, darker = sorted((luminance(colour), luminance(background)), reverse=True)
        assert (lighter + 0.05) / (darker + 0.05) >= 3, f"{colour} on {background} is hard to read ({scheme})"
