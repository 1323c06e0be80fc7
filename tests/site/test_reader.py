"""The site as its readers meet it: offline, typeset, navigable, in dark mode and on a phone.

Every page of the built site is read from its HTML (``conftest.site_html``), and one page of every kind
is loaded in the browser (``conftest.site_tour``); the other tests open the pages
a reader would look at, in the colour scheme or on the screen they check, and save screenshots to
tests/site/_artifacts/ (light.png, dark.png, phone.png) for a person to look at.
"""

from __future__ import annotations

import io
from urllib.parse import urljoin

import pytest

from tests.site.conftest import NOT_LOOPBACK
from tests.site.pages import elements, kind, one_page_per_kind, read_page

CHAPTER = "nemron/energy.html"  # a chapter page of the Nemron book
BOOK = "nemron/index.html"
CHART_PAGE = "spurg/verdict.html"  # computed odds with a chart
FACTS_PAGE = "spurg/characters.html"  # a node whose formula has a fraction: floor((AGI + VIT) / 2)

#: What holds the site navigation: Furo's sidebar tree; alabaster, PyData and Book have their own (and
#: PyData's ``nav.bd-links``).
NAV_CLASSES = {"sidebar-tree", "sphinxsidebar", "bd-sidebar-primary"}


def test_no_page_of_the_site_requests_anything_from_another_host(site_html, site_tour):
    """Offline, behind a firewall, in an EPUB reader: no CDN script, font or style sheet is needed.

    Every page's HTML (and the style sheets it links) names no resource on another host; the tour's
    pages, one of each kind, request none in the browser either (a script's own requests)."""
    assert len(site_html) > 20, "the site has almost no pages: was it built?"
    from_html = {path: [url for url in page.loads if NOT_LOOPBACK.match(url)] for path, page in site_html.items()}
    assert {path: urls for path, urls in from_html.items() if urls} == {}
    assert {path: visit.external for path, visit in site_tour.items() if visit.external} == {}


def test_every_page_of_the_site_loads_cleanly(site_html, site_tour):
    """Every script, style sheet, image and font a page's HTML loads is in the site; the tour's pages,
    one of each kind, raise no JavaScript exception and request nothing the site lacks."""
    assert {path: page.missing for path, page in site_html.items() if page.missing} == {}
    assert {path: visit.exceptions for path, visit in site_tour.items() if visit.exceptions} == {}
    assert {path: visit.failures for path, visit in site_tour.items() if visit.failures} == {}


def test_the_tour_loads_one_page_of_every_kind(site, site_html, site_tour):
    """The browser tour covers every kind of page the HTML shows, the widgets the site's scripts drive
    among them (a kind function that lumped every page together would tour one page)."""
    kinds = {kind(site.root, page) for page in site_html.values()}
    assert {kind(site.root, site_html[path]) for path in site_tour} == kinds
    widgets = {token for _, _, tokens in kinds for token in tokens}
    assert {"rpg-calculator", "rpg-sheet", "rpg-odds-controls", "rpg-node-ref"} <= widgets
    assert len(site_tour) < len(site_html) / 4, "almost every page is a kind of its own"


@pytest.mark.parametrize("tex", [r"\(", r"\)", r"\mathrm", r"\frac", r"\left"])
def test_no_page_shows_raw_tex(site_html, site_tour, tex):
    """Formulas are typeset as text, not left as TeX source for a MathJax that never loads: in every
    page's HTML, and in what the scripts of the tour's pages write.

    Code is left out: the manual quotes ``Formula.latex()``'s output in a worked example.
    """
    assert [path for path, page in site_html.items() if tex in page.prose] == []
    assert [path for path, visit in site_tour.items() if tex in visit.prose] == []


def test_the_html_reader_finds_what_the_whole_site_tests_forbid(tmp_path):
    """The reader behind those tests can fail: a resource of another host (in the HTML, in a style sheet it
    links, in one that sheet imports), a missing image and font, TeX in prose (not in code) are found."""
    (tmp_path / "fonts").mkdir()
    (tmp_path / "fonts" / "here.woff2").write_bytes(b"")
    (tmp_path / "site.css").write_text('@import "more.css";\n/* url(gone.png) */\n'
                                       "@font-face { src: url(fonts/here.woff2), url('fonts/gone.woff2'); }")
    (tmp_path / "more.css").write_text("@import url(https://fonts.example.org/a.css);")
    (tmp_path / "page.html").write_text(
        '<html><head><title>\\frac</title><link rel="stylesheet" href="site.css"><link rel="next" href="x.html">'
        '<script src="https://cdn.example.org/furo.js"></script></head><body><p>Take \\(x\\) dice</p>'
        '<pre>\\mathrm{pre}</pre><p><code>\\left</code></p><img src="gone.png" alt="">'
        '<img srcset="//img.example.net/a.png 2x" alt=""><a href="https://example.org/">a link</a></body></html>')
    page = read_page(tmp_path, "page.html")
    assert [url for url in page.loads if NOT_LOOPBACK.match(url)] == [
        "https://cdn.example.org/furo.js", "http://img.example.net/a.png", "https://fonts.example.org/a.css"]
    assert sorted(page.missing) == ["http://127.0.0.1/fonts/gone.woff2", "http://127.0.0.1/gone.png"]
    assert "\\(x\\)" in page.prose and not any(tex in page.prose for tex in ("\\frac", "\\mathrm", "\\left"))


def test_a_page_kind_is_its_scripts_and_the_widgets_they_act_on(tmp_path):
    (tmp_path / "widget.js").write_text('document.querySelectorAll(".rpg-sheet").forEach(s => s.dataset.on = 1);')
    (tmp_path / "other.js").write_text("")
    pages = {}
    for name, scripts, markup in [("a", ["widget.js"], '<div class="rpg-sheet rpg-x"></div>'),
                                  ("b", ["widget.js"], '<div class="rpg-sheet"></div><p class="rpg-y"></p>'),
                                  ("c", ["widget.js"], '<p class="rpg-y"></p>'),
                                  ("d", ["widget.js", "other.js"], '<div class="rpg-sheet"></div>')]:
        tags = "".join(f'<script src="{script}"></script>' for script in scripts)
        (tmp_path / f"{name}.html").write_text(f"<html><head>{tags}</head><body>{markup}</body></html>")
        pages[f"{name}.html"] = read_page(tmp_path, f"{name}.html")
    # a and b: the same widget under the same script (classes no script names aside); c: no widget; d: another script
    assert one_page_per_kind(tmp_path, pages) == {"a.html": ["a.html", "b.html"], "c.html": ["c.html"],
                                                  "d.html": ["d.html"]}


def test_a_formula_reads_as_typeset_text(page, page_log, site):
    page.goto(urljoin(site.url, FACTS_PAGE))
    formula = page.locator(".rpg-formula", has=page.locator(".rpg-frac")).first
    fraction = formula.locator(".rpg-frac")
    numerator, denominator = fraction.locator(".rpg-numer"), fraction.locator(".rpg-denom")
    # the engine writes floor((AGI + VIT) / 2); a reader sees the nodes' names over a fraction bar
    assert numerator.inner_text() == "Agility + Vitality" and denominator.inner_text() == "2"
    over, under = numerator.bounding_box(), denominator.bounding_box()
    assert over is not None and under is not None and over["y"] + over["height"] <= under["y"] + 1, \
        "the numerator is not set above the denominator"
    assert formula.locator(".rpg-var").first.evaluate("e => getComputedStyle(e).fontStyle") == "normal", \
        "a name that is a word (Agility) is set upright"
    assert page_log.external == []


def chapter_links(site) -> list[str]:
    """The chapters of the Nemron book, as its index page's table of contents lists them (read from its
    HTML: ``.toctree-wrapper > ul > li > a``, resolved as the browser's ``a.href``)."""
    links = [urljoin(site.url + BOOK, a.attrs.get("href", "")).split("#")[0] for a in elements(site.root, BOOK)
             if a.tag == "a" and a.parent is not None and a.parent.tag == "li" and a.parent.parent is not None
             and a.parent.parent.tag == "ul" and a.parent.parent.parent is not None
             and "toctree-wrapper" in a.parent.parent.parent.classes]
    assert len(links) > 5, f"the Nemron index lists only {links}"
    return links


def test_a_chapter_page_lists_its_sibling_chapters_in_the_sidebar(site):
    """The sidebar is written into each page's HTML by the theme: read there, not in a browser."""
    chapters = chapter_links(site)
    in_sidebar = {urljoin(site.url + CHAPTER, a.attrs.get("href", "")).split("#")[0]
                  for a in elements(site.root, CHAPTER) if a.tag == "a"
                  and any(NAV_CLASSES & e.classes or (e.tag == "nav" and "bd-links" in e.classes) for e in a.ancestors())}
    assert [chapter for chapter in chapters if chapter not in in_sidebar] == []


def test_a_chapter_page_links_to_the_previous_and_the_next_chapter(page, site):
    chapters = chapter_links(site)
    here = chapters.index(urljoin(site.url, CHAPTER))
    page.goto(urljoin(site.url, CHAPTER))
    shown = page.evaluate("""(() => {
        const visible = a => a.offsetParent !== null && a.getBoundingClientRect().width > 0;
        const out = {};
        for (const rel of ["prev", "next"]) {
            const target = document.querySelector(`link[rel=${rel}]`)?.href;
            out[rel] = {target, links: [...document.querySelectorAll("a[href]")]
                .filter(a => a.href === target && visible(a)).map(a => a.textContent.trim())};
        }
        return out;
    })()""")
    assert shown["prev"]["target"] == chapters[here - 1] and shown["next"]["target"] == chapters[here + 1]
    assert shown["prev"]["links"] and shown["next"]["links"], f"no visible previous/next link: {shown}"


def pixel(png: bytes, x: int, y: int) -> tuple[int, int, int]:
    from PIL import Image

    with Image.open(io.BytesIO(png)) as image:
        red, green, blue = image.convert("RGB").getpixel((x, y))
    return red, green, blue


def luminance(rgb: tuple[int, int, int]) -> float:
    return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]


def chart_shot(tab, artifacts, scheme: str) -> tuple[bytes, tuple[int, int, int]]:
    """A screenshot of the first chart in the given colour scheme, and the page's background colour.

    The scheme is switched on the loaded page (the site follows ``prefers-color-scheme`` as it changes),
    so both schemes cost one page load."""
    tab.emulate_media(color_scheme=scheme)
    chart = tab.locator("div.rpg-chart").first
    chart.scroll_into_view_if_needed()
    tab.screenshot(path=artifacts / f"{scheme}.png")
    background = tab.evaluate("""(() => {
        const rgb = getComputedStyle(document.body).backgroundColor.match(/\\d+/g).map(Number);
        return rgb.slice(0, 3);
    })()""")
    return chart.screenshot(), tuple(background)


def test_a_chart_in_dark_mode_is_not_a_white_block(page, site, artifacts):
    """Compare a pixel of the chart's background (its top left corner) with the page's own colour."""
    page.goto(urljoin(site.url, CHART_PAGE))
    dark, dark_page = chart_shot(page, artifacts, "dark")
    light, light_page = chart_shot(page, artifacts, "light")
    assert luminance(dark_page) < 80, f"the page itself is not dark in dark mode: {dark_page}"
    corner = pixel(dark, 2, 2)
    assert abs(luminance(corner) - luminance(dark_page)) < 16, \
        f"the chart's background {corner} is not the dark page's {dark_page}"
    assert luminance(pixel(light, 2, 2)) > 200, "in light mode the chart is on a light background"


def test_a_chart_in_dark_mode_draws_its_axes_in_a_light_colour(page, site):
    page.emulate_media(color_scheme="dark")  # before the load: the page opens dark
    page.goto(urljoin(site.url, CHART_PAGE))
    fill = page.locator("div.rpg-chart svg text").first.evaluate("e => getComputedStyle(e).fill")
    channels = [int(part) for part in fill.strip("rgb()").split(",")[:3]]
    assert luminance((channels[0], channels[1], channels[2])) > 150, f"axis labels drawn in {fill}"


def test_a_phone_shows_the_content_before_the_navigation(phone_page, site, artifacts):
    tab = phone_page
    tab.goto(urljoin(site.url, CHAPTER))
    tab.screenshot(path=artifacts / "phone.png")
    layout = tab.evaluate("""(() => {
        const shown = e => {
            const r = e.getBoundingClientRect();
            return e.offsetParent !== null && r.width > 0 && r.right > 0 && r.left < innerWidth;
        };
        const heading = document.querySelector("article h1, [role=main] h1, .body h1, main h1");
        return {heading: heading && shown(heading) ? heading.getBoundingClientRect().top : null,
                 navTops: [...document.querySelectorAll(".sidebar-tree a, .sphinxsidebar a, .bd-sidebar-primary a")]
                     .filter(shown).map(a => a.getBoundingClientRect().top),
                 height: innerHeight};
    })()""")
    assert layout["heading"] is not None and layout["heading"] < layout["height"], \
        f"the chapter's title is not on the first screen of a phone: {layout}"
    assert all(top > layout["heading"] for top in layout["navTops"]), \
        "navigation links come before the chapter's content on a phone"


def test_a_fact_label_is_never_broken_on_a_phone(phone_page, site):
    """ "Formula:" stays one word on a 390-pixel screen (it broke as "Formul / a:")."""
    tab = phone_page
    tab.goto(urljoin(site.url, FACTS_PAGE))
    lines = tab.evaluate("""[...document.querySelectorAll(".rpg-facts .field-name, dl.rpg-facts > dt")].map(e => {
        const range = document.createRange();
        range.selectNodeContents(e);
        const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
        return [e.textContent.trim(), tops.size];
    })""")
    assert lines, f"{FACTS_PAGE} shows no facts"
    assert [label for label, count in lines if count > 1] == []


def test_a_sheet_s_rule_cell_wraps_its_formula_within_the_column_on_a_phone(phone_page, site):
    """ "= max(1, 4 − Stamina)" wraps at its operators in the narrow Rule column of a phone (it was cut
    off at the cell's edge: an operator never let the line break)."""
    tab = phone_page
    tab.goto(urljoin(site.url, "heimr/sheet.html"))
    cells = tab.evaluate("""[...document.querySelectorAll("table.rpg-sheet-table td:nth-child(3)")]
        .filter(td => td.querySelector(".rpg-formula"))
        .map(td => [td.innerText, td.scrollWidth - td.clientWidth,
                    [...td.querySelectorAll(".rpg-formula *")].some(e => e.getBoundingClientRect().right
                        > td.getBoundingClientRect().right + 1)])""")
    assert cells, "the Heimr sheet shows no formula"
    assert [cell for cell in cells if cell[1] > 1 or cell[2]] == []
