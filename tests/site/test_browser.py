"""The built site as readers meet it: headless Chromium over the site served on 127.0.0.1.

The site is built once per session from the working tree (``conftest.built_site``), served by a
``ThreadingHTTPServer`` and opened in the system's Chromium driven by Playwright (``conftest.page``).
Every page visited must load without an uncaught JavaScript exception, without a request the server
cannot answer and without a request to any other host.

Without Chromium the tests skip on a developer machine and fail when ``$CI`` is set (``.ci/run``
installs it).
"""

from __future__ import annotations

import json
import struct
import urllib.request
import zlib
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urljoin, urlsplit

import pytest

from tests.site.pages import elements

try:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
except ImportError:  # the browser fixtures skip (or fail under $CI) and say why
    PlaywrightTimeout = TimeoutError  # type: ignore[misc,assignment]

NEMRON = "nemron/index.html"
ENERGY_UID = "Generic.Trait.Energy"
HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}

#: Every ``:node:ref:`` link of the page: ``a.reference`` around a ``span.rpg-node-ref``.
NODE_REFS_JS = """[...document.querySelectorAll("a.reference")]
    .filter(a => a.querySelector("span.rpg-node-ref"))
    .map(a => ({href: a.href, title: a.title, text: a.textContent.trim()}))"""

#: What the page shows at its URL's anchor: the element, its heading (without the pilcrow), where it is.
ANCHOR_TARGET_JS = """(() => {
    const id = decodeURIComponent(location.hash.slice(1));
    const el = document.getElementById(id);
    if (!el) return {href: location.href, id, found: false};
    const heading = el.querySelector(":scope > h1, :scope > h2, :scope > h3, :scope > h4, :scope > h5, :scope > h6");
    let text = null;
    if (heading) {
        const copy = heading.cloneNode(true);
        copy.querySelectorAll(".headerlink").forEach(e => e.remove());
        text = copy.textContent.trim();
    }
    const box = el.getBoundingClientRect();
    return {href: location.href, id, found: true, tag: el.tagName.toLowerCase(), classes: [...el.classList],
            heading: text, top: box.top, viewport: window.innerHeight};
})()"""


def without_hash(url: str) -> str:
    return url.split("#", 1)[0]


def assert_clean(page_log, site, since: int) -> None:
    """No uncaught JavaScript exception, no external request, no request the server failed since ``since``."""
    assert page_log.exceptions == [], "uncaught JavaScript exceptions"
    assert page_log.external == [], "requests to hosts other than the site's own"
    assert site.failures(since) == [], "requests the site could not answer"


def node_refs(page) -> list[dict]:
    refs = page.evaluate(NODE_REFS_JS)
    assert refs, f"no :node:ref: link (a.reference > span.rpg-node-ref) on {page.evaluate('location.href')}"
    return refs


def nav_links_to(page, url: str) -> list[str]:
    """Texts of the page's navigation links (sidebar, nav, toctree) that lead to ``url`` (with anchor)."""
    return page.evaluate(f"""[...document.querySelectorAll(
            ".sphinxsidebar a, .sidebar-tree a, .toc-tree a, nav a, [role=navigation] a, .toctree-wrapper a, .contents a")]
        .filter(a => !a.classList.contains("headerlink") && a.href === {json.dumps(url)})
        .map(a => a.textContent.trim())""")


@dataclass
class RefVisit:
    """One ``:node:ref:`` of the Nemron front page, clicked, and the page it landed on."""

    ref: dict  # href, title, text
    target: dict  # ANCHOR_TARGET_JS where the click landed
    toc_titles: list[str]  # the landed page's navigation links to the node's #anchor


@dataclass
class RefTour:
    visits: list[RefVisit]
    log: Any  # conftest.PageLog of the whole tour
    failures: list[tuple[str, int]]  # requests the site could not answer during the tour


@pytest.fixture(scope="module")
def nemron_ref_tour(shared_tab, site) -> RefTour:
    """Each distinct ``:node:ref:`` of the Nemron front page followed once; the clicks' tests and the
    local-contents test read the same visits.

    The first reference to each page is clicked as a user would (scrolled into view, a real mouse
    click, from the front page); the others to the same page are followed on that page by their
    anchor (the same scroll to it, without loading the front page and that page again)."""
    page = shared_tab.lend()
    log = shared_tab.log  # this tour's own
    since = len(site.requests)
    start = urljoin(site.url, NEMRON)
    page.goto(start)
    visits = []
    by_page: dict[str, list[dict]] = {}
    for href, ref in {ref["href"]: ref for ref in node_refs(page)}.items():  # one visit per distinct target
        by_page.setdefault(without_hash(href), []).append(ref)
    for refs in by_page.values():
        for number, ref in enumerate(refs):
            href = ref["href"]
            if number == 0:
                if page.url != start:
                    page.goto(start)
                link = page.evaluate_handle(f"""[...document.querySelectorAll("a.reference")]
                    .find(a => a.href === {json.dumps(href)} && a.querySelector("span.rpg-node-ref"))""")
                link.as_element().click()
            else:
                page.evaluate("hash => { location.hash = hash; }", urlsplit(href).fragment)
            page.wait_for_url(href)
            try:  # themes may scroll smoothly (Furo): wait for the scroll to end
                page.wait_for_function(f"() => {{ const t = {ANCHOR_TARGET_JS}; return !t.found || "
                                       "(t.top >= -2 && t.top < t.viewport); }")
            except PlaywrightTimeout:
                pass  # the assertions of the tests say what is wrong
            visits.append(RefVisit(ref, page.evaluate(ANCHOR_TARGET_JS), nav_links_to(page, href)))
    return RefTour(visits, log, site.failures(since))


def test_node_refs_of_the_nemron_book_lead_to_their_node_sections(nemron_ref_tour, site):
    """Click each distinct ``:node:ref:`` of the Nemron book's front page; each lands on its node."""
    start = urljoin(site.url, NEMRON)
    hrefs = [visit.ref["href"] for visit in nemron_ref_tour.visits]
    assert hrefs, f"no :node:ref: link (a.reference > span.rpg-node-ref) on {start}"
    assert [href for href in hrefs if without_hash(href) != start], \
        "no :node:ref: on the Nemron front page leads to another page"
    assert any(urlsplit(href).fragment == ENERGY_UID for href in hrefs), "the Energy node is not referenced"
    for visit in nemron_ref_tour.visits:
        href, ref, target = visit.ref["href"], visit.ref, visit.target
        anchor = unquote(urlsplit(href).fragment)
        assert target["href"] == href, f"clicking {ref['text']!r} did not open {href}"
        assert target["found"], f"{without_hash(href)} has no element with id {anchor!r}"
        assert target["tag"] == "section" and "rpg-node" in target["classes"], \
            f"#{anchor} is a <{target['tag']} class={target['classes']}>, not a node section"
        assert target["heading"] == ref["title"], \
            f"#{anchor}: the heading {target['heading']!r} is not the node's title {ref['title']!r}"
        assert -2 <= target["top"] < target["viewport"], f"the browser did not scroll to #{anchor}"
    assert nemron_ref_tour.log.exceptions == [], "uncaught JavaScript exceptions"
    assert nemron_ref_tour.log.external == [], "requests to hosts other than the site's own"
    assert nemron_ref_tour.failures == [], "requests the site could not answer"


def test_a_node_heading_is_in_the_nemron_book_toc(page, page_log, site):
    """Node sections are real sections: Sphinx's table of contents lists them like any heading.

    The Nemron front page's toctree goes two levels deep, so it lists the Energy node (a top-level
    section of its page); deeper nodes (Flanked, inside a subsection of combat.html) are not in it.
    """
    since = len(site.requests)
    page.goto(urljoin(site.url, NEMRON))
    energy = next(ref for ref in node_refs(page) if urlsplit(ref["href"]).fragment == ENERGY_UID)
    assert energy["title"] in nav_links_to(page, energy["href"]), \
        f"the Nemron book's table of contents has no entry {energy['title']!r} for {energy['href']}"
    assert_clean(page_log, site, since)


def test_each_node_heading_is_in_its_own_page_local_toc(nemron_ref_tour):
    assert nemron_ref_tour.visits, "no :node:ref: on the Nemron front page"
    for visit in nemron_ref_tour.visits:  # not the known bug: a real failure
        assert visit.target["found"], f"{visit.ref['href']}: no such anchor"
    missing = [visit.ref["href"] for visit in nemron_ref_tour.visits if visit.ref["title"] not in visit.toc_titles]
    assert missing == [], "pages without a table-of-contents link to their node's #anchor"


SEARCH_RESULTS_JS = """[...document.querySelectorAll("#search-results ul.search li")].map(li => {
    const a = li.querySelector("a");
    return {href: a.href, text: a.textContent.trim()};
})"""


def search(page, site, query: str) -> list[dict]:
    page.goto(urljoin(site.url, f"search.html?q={query}"))
    # Sphinx's search runs in JavaScript: the summary line is written once every result is shown
    page.wait_for_function("document.querySelector('#search-results p.search-summary')?.textContent.trim()")
    return page.evaluate(SEARCH_RESULTS_JS)


@dataclass
class Search:
    results: list[dict]  # SEARCH_RESULTS_JS, in the order shown
    page: Any  # the tab, still on the results
    log: Any  # conftest.PageLog of the search
    failures: list[tuple[str, int]]


@pytest.fixture(scope="module")
def energy_search(shared_tab, site) -> Search:
    """The site search for "Energy", run once for the tests that read its results (search.html loads the
    whole search index: the costliest page of the site to open)."""
    page = shared_tab.lend()
    since = len(site.requests)
    results = search(page, site, "Energy")
    return Search(results, page, shared_tab.log, site.failures(since))


def test_the_site_search_finds_a_node_by_name(energy_search, site):
    results = energy_search.results
    assert results, "the site search for 'Energy' found nothing"
    energy_page = urljoin(site.url, "nemron/energy.html")
    assert energy_page in {without_hash(result["href"]) for result in results}, \
        f"the search results for 'Energy' do not list {energy_page}: {[r['href'] for r in results]}"
    assert energy_search.log.exceptions == [] and energy_search.log.external == []
    assert energy_search.failures == []


def test_searching_energy_puts_the_energy_node_first(energy_search, page, page_log, site):
    first = energy_search.results[0]["href"]
    parts = urlsplit(first)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == urljoin(site.url, "nemron/energy.html")
    assert unquote(urlsplit(first).fragment) in (ENERGY_UID, "generic-trait-energy"), first
    since = len(site.requests)
    page.goto(first)
    assert page.evaluate("document.getElementById(decodeURIComponent(location.hash.slice(1))).dataset !== undefined")
    assert_clean(page_log, site, since)


def test_every_search_result_for_a_node_links_to_an_existing_anchor(energy_search, page, site):
    results = [r for r in energy_search.results if urlsplit(r["href"]).fragment
               and without_hash(r["href"]) == urljoin(site.url, "nemron/energy.html")]
    if not results:  # not the known bug: a real failure
        pytest.fail("the search for 'Energy' gives no result with an anchor on nemron/energy.html")
    broken = []
    for result in results:
        page.goto(result["href"])
        if not page.evaluate(ANCHOR_TARGET_JS)["found"]:
            broken.append(f"{result['text']!r} -> {result['href']}")
    assert broken == [], "search results whose anchor is not on the page"


def index_rows(site, path: str) -> list[dict]:
    """The rows of a node index page, read from its HTML (Sphinx writes the table; no script changes it):
    each link with the group it is under (the last ``tr.cap`` before it) and its text."""
    group, rows = None, []
    for tr in elements(site.root, path):
        if tr.tag != "tr" or not any(e.tag == "table" and {"indextable", "domainindex-table"} & e.classes
                                     for e in tr.ancestors()):
            continue
        if "cap" in tr.classes:
            group = tr.text().strip()
        rows.extend({"group": group, "href": urljoin(site.url + path, a.attrs["href"]), "text": a.text().strip()}
                    for a in tr.descendants() if a.tag == "a" and "href" in a.attrs)
    return rows


def test_the_node_index_lists_the_node_under_each_of_its_types(site):
    """Read from the HTML of the index and of the node's page: what the browser adds to them (their
    scripts' work, their requests) is checked on one page of each kind (the tour of test_reader.py)."""
    with urllib.request.urlopen(urljoin(site.url, "nodes.json"), timeout=10) as response:
        catalogue = json.loads(response.read())
    energy = next(node for node in catalogue["nodes"] if node["uid"] == ENERGY_UID)
    rows = index_rows(site, "node-types.html")
    assert rows, "node-types.html has no index table (table.indextable or Furo's table.domainindex-table)"
    target = urljoin(site.url, energy["url"])
    groups = sorted(row["group"] for row in rows if row["href"] == target)
    assert groups == sorted(energy["type_names"]), \
        f"node-types.html lists {target} under {groups}, nodes.json says {energy['type_names']}"
    assert {row["text"] for row in rows if row["href"] == target} == {energy["title"]}
    path, _, anchor = energy["url"].partition("#")  # the section the index's link leads to, and its heading
    landed = next((e for e in elements(site.root, path) if e.attrs.get("id") == unquote(anchor)), None)
    assert landed is not None and "rpg-node" in landed.classes, f"{path} has no node section #{anchor}"
    heading = next(child for child in landed.children if not isinstance(child, str) and child.tag in HEADINGS)
    assert heading.text(leaving_out="headerlink").strip() == energy["title"]


def test_nodes_json_is_served_and_lists_the_energy_node(page, page_log, site):
    since = len(site.requests)
    page.goto(urljoin(site.url, NEMRON))
    # parsed by the browser (JSON.parse rejects what Python's json accepts, NaN for one)
    document = page.evaluate("fetch('../nodes.json').then(r => r.ok ? r.json() : {status: r.status})")
    assert document.get("schema_version") == 2 and isinstance(document.get("nodes"), list), \
        f"nodes.json is not the node catalogue: {str(document)[:300]}"
    by_uid = {node["uid"]: node for node in document["nodes"]}
    assert ENERGY_UID in by_uid
    assert by_uid[ENERGY_UID]["url"] == f"nemron/energy.html#{ENERGY_UID}"
    with urllib.request.urlopen(urljoin(site.url, "nodes.json"), timeout=10) as response:
        assert response.headers.get_content_type() == "application/json"
        assert json.loads(response.read().decode("utf-8")) == document
    assert_clean(page_log, site, since)


def png_facts(data: bytes) -> tuple[int, int, bytes]:
    """Width, height and the decompressed (filtered) pixel stream of a PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, size = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack("!I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            size = struct.unpack("!II", chunk[:8])
        elif kind == b"IDAT":
            idat += chunk
        elif kind == b"IEND":
            break
        pos += 12 + length
    assert size is not None and idat, "a PNG without IHDR or IDAT"
    return size[0], size[1], zlib.decompress(idat)


def test_a_screenshot_of_the_nemron_book_is_saved(page, page_log, site, artifacts):
    since = len(site.requests)
    page.goto(urljoin(site.url, NEMRON))
    assert page.evaluate("document.title").startswith("Nemron RPG")
    path = artifacts / "nemron.png"
    data = page.screenshot(path=path)
    width, height, pixels = png_facts(path.read_bytes())
    assert data == path.read_bytes()
    assert [width, height] == page.evaluate("[window.innerWidth, window.innerHeight]")
    # a blank page compresses to ~5 kB with 4 distinct byte values; the Nemron page is ~200 kB
    assert len(data) > 50_000, f"{path} is only {len(data)} bytes: a blank page?"
    assert len(set(pixels)) > 64, f"{path} has almost no distinct pixel values: a blank page?"
    assert_clean(page_log, site, since)


@pytest.mark.parametrize("url", ["https://cdn.example.org/furo.js", "http://192.0.2.7/font.woff2",
                                 "http://localhost.example.net/x"])
def test_a_request_to_another_host_is_recorded_and_never_answered(page, page_log, site, url):
    """The fence the other tests rely on: by name or by address, nothing reaches another host."""
    page.goto(urljoin(site.url, NEMRON))
    outcome = page.evaluate("url => fetch(url, {mode: 'no-cors'}).then(() => 'answered', () => 'refused')", url)
    assert outcome == "refused"
    assert page_log.external == [url]


def test_the_tab_lent_to_the_next_test_forgets_what_the_last_one_did(shared_tab, site):
    """``page`` is one tab lent test after test: storage, cookies, media, size and place are as new."""
    tab = shared_tab.lend()
    tab.goto(urljoin(site.url, NEMRON))
    tab.evaluate("localStorage.setItem('left', 'over'); sessionStorage.setItem('left', 'over'); "
                 "document.cookie = 'left=over'")
    tab.emulate_media(media="print", color_scheme="dark")
    tab.set_viewport_size({"width": 390, "height": 844})
    tab = shared_tab.lend()
    tab.goto(urljoin(site.url, NEMRON))
    assert tab.evaluate("""[localStorage.getItem('left'), sessionStorage.getItem('left'), document.cookie,
        matchMedia('print').matches, matchMedia('(prefers-color-scheme: dark)').matches,
        matchMedia('(prefers-reduced-motion: reduce)').matches, innerWidth, innerHeight]""") == \
        [None, None, "", False, False, True, 1280, 900]


def test_chromium_turns_off_every_feature_playwright_turns_off_and_ours(launched_browser):
    """Chromium reads only the last ``--disable-features``: conftest's repeats Playwright's list (its
    ``PLAYWRIGHT_DISABLED``) before its own (``DISABLED_FEATURES``).  A feature Playwright turns off that
    the list lacks is turned off all the same (the browser is started again with it): add it there."""
    from tests.site.conftest import DISABLED_FEATURES, features_lost

    if launched_browser.lost is None:
        pytest.skip("Chromium's command line cannot be read here: it runs with Playwright's own list alone")
    assert launched_browser.lost == set(), \
        f"Playwright turns off {sorted(launched_browser.lost)} too: add them to conftest.PLAYWRIGHT_DISABLED"
    last = [arg for arg in launched_browser.arguments if arg.startswith("--disable-features=")][-1]
    assert set(DISABLED_FEATURES) <= set(last.partition("=")[2].split(","))
    # the check itself can fail: an earlier list's feature missing from the last one is found
    assert features_lost(["chromium", "--disable-features=A,B", "--x", "--disable-features=B,C"]) == {"A"}
    assert features_lost(["chromium", "--disable-features=A"]) == set()
