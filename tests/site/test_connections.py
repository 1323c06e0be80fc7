"""Each book's "How the rules connect" page: the picture's boxes are links that land on their rule."""

from __future__ import annotations

from urllib.parse import unquote, urljoin, urlsplit

import pytest

from tests.site.pages import headings

BOOKS_WITH_CONNECTIONS = ["nemron", "heimr", "nugget", "spurg"]  # the DnDalike's formulas name no node

BOXES_JS = """[...document.querySelectorAll("svg.rpg-graph a")].map(a => ({
    href: new URL(a.getAttribute("href"), location.href).href,
    name: a.querySelector("text").textContent}))"""

@pytest.mark.parametrize("book", BOOKS_WITH_CONNECTIONS)
def test_every_box_of_the_graph_links_to_its_rule(page, page_log, site, book):
    """The boxes are read as the browser draws them; the pages they lead to, from their HTML (the heading
    of the element each anchor names: ``pages.headings``), each page once."""
    page.goto(urljoin(site.url, f"{book}/connections.html"))
    boxes = page.evaluate(BOXES_JS)
    assert len(boxes) >= 3, f"the {book} graph draws almost nothing"
    by_page: dict[str, list[dict]] = {}
    for box in boxes:
        by_page.setdefault(box["href"].split("#")[0], []).append(box)
    for url, targets in by_page.items():
        assert url.startswith(site.url), url
        found = headings(site.root, urlsplit(url).path.lstrip("/"))
        for box in targets:
            heading = found.get(unquote(urlsplit(box["href"]).fragment))
            assert heading is not None and box["name"] in heading, (box, heading)
    assert page_log.exceptions == [] and site.failures() == []


def test_the_heading_reader_finds_an_elements_first_heading_child(tmp_path):
    """What the test above reads the target pages with: a section's heading, a rubric, nothing for an
    element whose heading is not a child of its own."""
    (tmp_path / "p.html").write_text(
        '<section id="a"><h2>Energy<a class="headerlink" href="#a">¶</a></h2><img src="x.png"><p>text</p>'
        '<section id="b"><p class="rubric">Flanked</p></section></section>'
        '<div id="c"><div><h3>not its own</h3></div></div><span id="d">no heading</span>')
    assert headings(tmp_path, "p.html") == {"a": "Energy¶", "b": "Flanked"}


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
