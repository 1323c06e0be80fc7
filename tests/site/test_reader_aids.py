"""Reader aids and the two editions, as readers meet them in headless Chromium.

The designer edition is the site the test command builds (``site``); the player edition is the same
source built with ``-D rpg_edition=player`` (``player_site``).  Screenshots of the Nemron Energy page
in both editions, at desktop and phone width, are saved to ``tests/site/_artifacts/``.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from collections.abc import Iterator
from typing import Any
from urllib.parse import urljoin, urlsplit

import pytest

from rules.systems import installed_systems
from tests.site.pages import one_page_per_kind, read_page, site_path

ENERGY_PAGE = "nemron/energy.html"
ENERGY_UID = "Generic.Trait.Energy"
PHONE = {"width": 390, "height": 844}
#: A dotted engine path such as rules.nugget or rules.nemron.energy.Energy (the web site rules.nemron.org
#: is prose, not a path; "rules." ending a sentence is no path either).
ENGINE_PATH = re.compile(r"\brules(?:\.[A-Za-z_]\w*)+")


def engine_paths(text: str) -> list[str]:
    return [path for path in ENGINE_PATH.findall(text) if not path.endswith(".org")]
MAIN_TEXT_JS = "document.querySelector('[role=main]').innerText"


@pytest.fixture(scope="module")
def player_site(site: Any, built_player: Path) -> Iterator[Any]:
    """The player edition served like the designer one (the same server class, another root)."""
    server = type(site)(built_player)
    try:
        yield server
    finally:
        server.close()


def assert_clean(page_log: Any, server: Any, since: int) -> None:
    """No uncaught JavaScript exception, no request the server failed (external requests: test_browser)."""
    assert page_log.exceptions == [], "uncaught JavaScript exceptions"
    assert server.failures(since) == [], "requests the site could not answer"


def code_on_page(text: str) -> dict[str, bool]:
    return {"doctest prompt": ">>>" in text, "traceback": "Traceback (most recent call last)" in text,
            "engine path": bool(engine_paths(text))}


def test_designer_pages_show_worked_examples_tracebacks_and_engine_paths(page, page_log, site):
    since = len(site.requests)
    page.goto(urljoin(site.url, ENERGY_PAGE))
    assert code_on_page(page.evaluate(MAIN_TEXT_JS)) == {"doctest prompt": True, "traceback": True,
                                                         "engine path": True}
    # long example lines wrap inside the page instead of running off its right edge
    overflowing = page.evaluate("""[...document.querySelectorAll("[role=main] pre")]
        .filter(pre => pre.scrollWidth > pre.clientWidth + 1).map(pre => pre.textContent.slice(0, 60))""")
    assert overflowing == [], "example blocks cut off at the right edge"
    assert_clean(page_log, site, since)


def test_player_pages_show_no_worked_example_code_traceback_or_engine_path(page, page_log, player_site):
    """The Nemron book as the browser shows it: one page of every kind (``pages.one_page_per_kind``: what
    its scripts add to the text is the same on every page of a kind) and the Energy page.  Every page
    of every book is read from its HTML by the next test."""
    since = len(player_site.requests)
    book = {path: read_page(player_site.root, path) for path in player_site.pages() if path.startswith("nemron/")}
    assert ENERGY_PAGE in book and "nemron/reference.html" not in book
    for path in sorted({*one_page_per_kind(player_site.root, book), ENERGY_PAGE}):
        page.goto(urljoin(player_site.url, path))
        text = page.evaluate(MAIN_TEXT_JS)
        assert code_on_page(text) == {"doctest prompt": False, "traceback": False, "engine path": False}, path
        if path == ENERGY_PAGE:
            assert "Energy (E,R)" in text and "Formula" in text  # the node and its computed facts stay
    assert_clean(page_log, player_site, since)


BOOKS = tuple(name for name, path in installed_systems().items() if path.startswith("rules."))  # the bundled games


def page_text(path: Path) -> str:
    """What a page shows as text: tags, scripts and styles removed."""
    markup = re.sub(r"(?is)<(script|style)\b.*?</\1>", " ", path.read_text(encoding="utf-8"))
    return html.unescape(re.sub(r"<[^>]+>", " ", markup))


def test_no_player_page_of_any_rulebook_prints_example_code_or_engine_paths(built_player):
    """Every page of every book, read from disk (the browser test above shows one page of each kind of one book)."""
    pages = [path for book in BOOKS for path in sorted((built_player / book).glob("*.html"))]
    assert len(pages) > 40 and not any(path.name == "reference.html" for path in pages)
    leaks = {str(path.relative_to(built_player)): found for path in pages
             if any((found := code_on_page(page_text(path))).values())}
    assert leaks == {}


def formulas_of(markup: str) -> list[str]:
    """The markup of each typeset formula of a page (its span with the spans nested in it)."""
    found = []
    for start in (m.start() for m in re.finditer(r'<span class="rpg-formula">', markup)):
        depth, position = 0, start
        for tag in re.finditer(r"<(/?)span\b[^>]*>", markup[start:]):
            depth += -1 if tag.group(1) else 1
            if depth == 0:
                position = start + tag.end()
                break
        found.append(markup[start:position])
    return found


def test_a_formula_on_a_player_page_reads_with_the_book_s_symbols_and_the_nodes_names(built_player):
    """No formula shows the engine's ``*``, ``floor(`` or an identifier (``base_potential``): the names
    are the nodes' names (linked), a parameter that is no node is in words."""
    pages = [path for book in BOOKS for path in sorted((built_player / book).glob("*.html"))]
    engine = {}
    for path in pages:
        for formula in formulas_of(path.read_text(encoding="utf-8")):
            text = html.unescape(re.sub(r"<[^>]+>", "", formula))
            if re.search(r"[*_]|floor\(|ceil\(", text):
                engine.setdefault(str(path.relative_to(built_player)), []).append(text)
    assert engine == {}
    potential = next(f for f in formulas_of((built_player / "heimr" / "abilities.html").read_text(encoding="utf-8"))
                     if "trained potential" in f)
    assert html.unescape(re.sub(r"<[^>]+>", "", potential)) == "Base potential + trained potential"
    assert 'href="#Heimr.Rule.BasePotential"' in potential


def preview_state(page: Any) -> dict[str, Any] | None:
    return page.evaluate("""(() => {
        const tip = document.getElementById("rpg-preview");
        if (!tip || tip.hidden) return null;
        const box = tip.getBoundingClientRect();
        return {text: tip.innerText, width: box.width, height: box.height, role: tip.getAttribute("role")};
    })()""")


def energy_ref(page: Any) -> Any:
    return page.locator(f"a.reference:has(span.rpg-node-ref)[href$='#{ENERGY_UID}']").first


def test_hovering_a_node_reference_previews_its_title_types_and_first_sentence(page, page_log, site, artifacts):
    since = len(site.requests)
    page.goto(urljoin(site.url, "nemron/index.html"))
    assert preview_state(page) is None
    energy_ref(page).hover()
    page.wait_for_function("document.getElementById('rpg-preview') && !document.getElementById('rpg-preview').hidden")
    shown = preview_state(page)
    assert shown is not None and shown["role"] == "tooltip" and shown["width"] > 50
    lines = shown["text"].splitlines()
    assert lines[:2] == ["Energy (E,R)", "Effect, Resource"]
    assert lines[2].startswith("Every character has it") and lines[2].endswith((".", "\u2026"))
    page.screenshot(path=artifacts / "preview-hover.png")
    page.mouse.move(5, 5)
    page.wait_for_function("document.getElementById('rpg-preview').hidden")
    assert_clean(page_log, site, since)


def test_the_preview_stays_while_the_pointer_moves_from_the_link_onto_it(page, page_log, site):
    """WCAG 1.4.13 (content on hover): the reader can move the pointer onto what the hover showed."""
    since = len(site.requests)
    page.goto(urljoin(site.url, "nemron/index.html"))
    link = energy_ref(page)
    link.hover()
    page.wait_for_function("document.getElementById('rpg-preview') && !document.getElementById('rpg-preview').hidden")
    near, tip = link.bounding_box(), page.locator("#rpg-preview").bounding_box()
    x = near["x"] + min(near["width"], tip["width"]) / 2
    page.mouse.move(x, near["y"] + near["height"] - 1)
    page.mouse.move(x, tip["y"] + tip["height"] / 2, steps=8)  # across the gap, onto the preview
    assert page.locator("#rpg-preview").is_visible()
    page.mouse.move(5, 5)
    page.wait_for_function("document.getElementById('rpg-preview').hidden")
    assert_clean(page_log, site, since)


#: The preview's content as elements: the lead paragraph's formatting survives (em, strong, code).
PREVIEW_PARTS_JS = """() => {
    const tip = document.getElementById("rpg-preview");
    return {title: tip.querySelector(".rpg-preview-title").textContent,
            types: tip.querySelector(".rpg-preview-types").textContent,
            marked: [...tip.querySelectorAll(".rpg-preview-text :is(em, strong, code)")].map(e => e.localName),
            go: tip.querySelector("a.rpg-preview-go")?.href ?? null, role: tip.getAttribute("role")};
}"""


def test_a_first_tap_shows_the_preview_with_a_go_to_link_and_a_second_tap_follows(phone_page, page_log, site,
                                                                                    artifacts):
    since = len(site.requests)
    tab = phone_page
    start = urljoin(site.url, "nemron/index.html")
    tab.goto(start)
    link = energy_ref(tab)
    link.scroll_into_view_if_needed()
    link.tap()
    tab.wait_for_function("document.getElementById('rpg-preview') && !document.getElementById('rpg-preview').hidden")
    assert tab.url == start, "the first tap followed the link instead of showing its preview"
    parts = tab.evaluate(PREVIEW_PARTS_JS)
    assert parts["title"] == "Energy (E,R)" and parts["types"] == "Effect, Resource"
    assert parts["go"] == link.evaluate("a => a.href") and parts["role"] == "group"
    tab.screenshot(path=artifacts / "preview-tap-phone.png")
    link.tap()  # the second tap on the same link follows it
    tab.wait_for_url(urljoin(site.url, ENERGY_PAGE) + "*")
    assert_clean(page_log, site, since)


def test_a_tap_elsewhere_closes_the_preview_and_the_go_to_link_follows(phone_page, page_log, site):
    since = len(site.requests)
    tab = phone_page
    tab.goto(urljoin(site.url, "nemron/index.html"))
    link = energy_ref(tab)
    link.scroll_into_view_if_needed()
    link.tap()
    tab.wait_for_function("document.getElementById('rpg-preview') && !document.getElementById('rpg-preview').hidden")
    tab.locator("[role=main] h1").first.tap()
    tab.wait_for_function("document.getElementById('rpg-preview').hidden")
    link.tap()
    tab.wait_for_function("document.getElementById('rpg-preview') && !document.getElementById('rpg-preview').hidden")
    tab.locator("#rpg-preview a.rpg-preview-go").tap()
    tab.wait_for_url(urljoin(site.url, ENERGY_PAGE) + "*")
    assert_clean(page_log, site, since)


def test_a_preview_shows_the_nodes_first_paragraph_with_its_formatting(built_html):
    """The build writes each node's first paragraph as runs of text, emphasis and code (no HTML)."""
    previews = json.loads((built_html / "rpg-previews.json").read_text(encoding="utf-8"))["nodes"]
    leads = [entry["lead"] for entry in previews.values() if "lead" in entry]
    assert len(leads) > len(previews) / 2
    assert all(isinstance(run, list) and len(run) == 2 and run[0] in ("", "em", "strong", "code")
               for lead in leads for run in lead)
    assert any(run[0] for lead in leads for run in lead), "no preview keeps any emphasis or code"


def test_focusing_a_node_reference_with_the_keyboard_shows_its_preview(page, page_log, site):
    since = len(site.requests)
    page.goto(urljoin(site.url, "nemron/index.html"))
    link = energy_ref(page)
    link.focus()
    page.wait_for_function("document.getElementById('rpg-preview') && !document.getElementById('rpg-preview').hidden")
    assert preview_state(page)["text"].startswith("Energy (E,R)")
    assert link.get_attribute("aria-describedby") == "rpg-preview"
    page.keyboard.press("Escape")
    page.wait_for_function("document.getElementById('rpg-preview').hidden")
    assert link.get_attribute("aria-describedby") is None
    page.keyboard.press("Tab")  # moving on to the next link previews that one (or nothing, if it is no node)
    assert_clean(page_log, site, since)


def test_a_nodes_backlinks_lead_to_pages_that_refer_to_it(page, page_log, site):
    """Every page listed under the Energy node's "Referenced by" has a node reference to it (read from
    each page's HTML), and a click on the list leads there (the first link, in the browser)."""
    since = len(site.requests)
    page.goto(urljoin(site.url, ENERGY_PAGE))
    links = page.evaluate(f"""[...document.getElementById({json.dumps(ENERGY_UID)})
        .querySelectorAll(":scope > p.rpg-backlinks a")].map(a => a.href)""")
    assert len(links) >= 3, f"the Energy node lists too few referring pages: {links}"
    node = f"{ENERGY_PAGE}#{ENERGY_UID}"
    for href in links:
        refs = read_page(site.root, site_path(href).split("#")[0]).node_refs
        assert node in map(site_path, refs), f"{href} is listed under 'Referenced by' but has no link to the Energy node"
    page.locator(f"#{re.escape(ENERGY_UID)} > p.rpg-backlinks a[href]").first.click()
    page.wait_for_url(links[0])
    refs = page.evaluate("""[...document.querySelectorAll("a.reference")]
        .filter(a => a.querySelector("span.rpg-node-ref")).map(a => a.href)""")
    assert urljoin(site.url, node) in refs
    assert_clean(page_log, site, since)


def without_query(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}{parts.path}"


@pytest.mark.parametrize("edition", ["designer", "player"])
@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_a_screenshot_of_the_energy_page_is_saved(edition, width, page, page_log, site, player_site, artifacts):
    server = site if edition == "designer" else player_site
    since = len(server.requests)
    tab = page  # the shared tab (light), at phone width for the phone picture: no context of its own
    if width == "phone":
        tab.set_viewport_size(PHONE)
    tab.goto(urljoin(server.url, ENERGY_PAGE))
    path = artifacts / f"energy-{edition}-{width}.png"
    tab.screenshot(path=path, full_page=True)
    assert path.stat().st_size > 20_000, f"{path} is nearly empty"
    # nothing sticks out sideways: the page is as wide as the screen
    assert tab.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    assert_clean(page_log, server, since)


# -- the front page: the rulebooks first, each with its three doors ----------------------------------------
#: Each book's front-page card: its index page and its three doors (make a character, a turn or a fight,
#: the core roll), as the pages of that book.
BOOK_DOORS = {
    "nemron": ("characters", "combat", "checks"),
    "heimr": ("characters", "combat", "challenge"),
    "nugget": ("characters", "combat", "rolls"),
    "spurg": ("characters", "combat", "verdict"),
    "dndalike": ("characters", "combat", "core"),
}
FRONT_CARDS_JS = """[...document.querySelectorAll(".rpg-book")].map(card => ({
    links: [...card.querySelectorAll("a[href]")].map(a => ({href: a.getAttribute("href"), text: a.textContent.trim()})),
    bottom: card.getBoundingClientRect().bottom + window.scrollY,
    blurb: (b => b && b.checkVisibility() && b.getBoundingClientRect().height > 0 ? b.textContent.trim() : "")(
        card.querySelector(".rpg-book-blurb"))}))"""
MANUAL_TOP_JS = """(() => { const a = [...document.querySelectorAll("[role=main] a[href]")]
    .find(a => a.getAttribute("href") === "manual/index.html");
    return a ? a.getBoundingClientRect().top + window.scrollY : null; })()"""


@pytest.mark.parametrize("edition", ["designer", "player"])
def test_the_front_page_shows_every_rulebook_with_its_three_doors_in_a_phones_first_screen(
        edition, page, page_log, site, player_site, artifacts):
    server = site if edition == "designer" else player_site
    since = len(server.requests)
    tab = page  # the shared tab (light) at a phone's width: no context of its own
    tab.set_viewport_size(PHONE)
    tab.goto(server.url)
    cards = tab.evaluate(FRONT_CARDS_JS)
    books = {card["links"][0]["href"].split("/")[0]: card for card in cards}
    assert list(books) == list(BOOK_DOORS), "the front page lists the rulebooks first, each in a card of its own"
    for book, doors in BOOK_DOORS.items():
        hrefs = [link["href"] for link in books[book]["links"]]
        assert hrefs == [f"{book}/index.html", *(f"{book}/{door}.html" for door in doors)], book
        assert [link["text"] for link in books[book]["links"][1:]] == [
            "Make a character", "A turn, a fight", "The core roll"]
    assert max(card["bottom"] for card in cards) <= PHONE["height"], "a book falls below the phone's first screen"
    assert all(card["blurb"] for card in cards), "each book says in a line what it is, on a phone too"
    manual = tab.evaluate(MANUAL_TOP_JS)
    assert manual is not None and manual > max(card["bottom"] for card in cards), "the manual comes after the books"
    tab.screenshot(path=artifacts / f"front-{edition}-phone.png")
    assert_clean(page_log, server, since)


# -- search: one result per node, naming its book ---------------------------------------------------------
SEARCH_LINES_JS = """[...document.querySelectorAll("#search-results ul.search > li")].map(li => ({
    href: li.querySelector("a").href, node: li.classList.contains("rpg-search-node"),
    text: li.innerText.replace(/\\s+/g, " ").trim()}))"""


def test_searching_dodge_shows_each_books_dodge_once_and_first_naming_its_book(page, page_log, site):
    since = len(site.requests)
    page.goto(urljoin(site.url, "search.html?q=dodge"))
    page.wait_for_function("document.querySelector('#search-results p.search-summary')?.textContent.trim()")
    results = page.evaluate(SEARCH_LINES_JS)
    nodes = [result for result in results if result["node"] and result["text"].startswith("Dodge \u2014")]
    assert [without_query(r["href"]).removeprefix(site.url) for r in nodes] == ["dndalike/combat.html",
                                                                               "heimr/defence.html"] or \
        [without_query(r["href"]).removeprefix(site.url) for r in nodes] == ["heimr/defence.html",
                                                                            "dndalike/combat.html"], results
    assert results[:2] == nodes, "the two Dodge nodes come before any page that merely mentions dodging"
    books = sorted(result["text"] for result in nodes)
    assert books[0].startswith("Dodge \u2014 DnDalike (rules v0.1), ") and books[0].find(", in Combat") > 0, books
    assert books[1].startswith("Dodge \u2014 Heimr Tabletop RPG Core, ") and books[1].find(", in Defence") > 0, books
    # a page's result names its book too: five books have a page called Combat
    combat = [r for r in results[2:] if without_query(r["href"]) == urljoin(site.url, "dndalike/combat.html")]
    assert combat and all(r["text"].startswith("Combat \u2014 DnDalike (rules v0.1)") for r in combat), combat
    summary = page.evaluate("document.querySelector('#search-results p.search-summary').textContent")
    assert f"found {len(results)} pages" in summary, summary
    assert_clean(page_log, site, since)


# -- change marks: one per real change, old and new value in words ----------------------------------------
NEMRON_ATTRIBUTES = ("Power", "Agility", "Constitution", "Intellect", "Awareness", "Willpower", "Control", "Sense",
                     "Focus")


def test_every_text_change_mark_says_what_the_text_said_and_says_now(built_html):
    """The 0.1 release keeps each node's text: no mark falls back to "rules text changed"."""
    marked = [path.name for path in built_html.rglob("*.html") if "rules text changed" in path.read_text()]
    assert not marked, marked
    energy = (built_html / "nemron/energy.html").read_text()
    assert "Changed since 0.1: </span>the text said \u201c" in energy


def test_nemron_attributes_are_not_marked_changed_for_ranks_the_old_release_never_printed(built_html):
    """0.1 printed no ranks for any Nemron node (the rule was 0-4 then too): printing them is no change."""
    page = (built_html / "nemron/characters.html").read_text()
    for name in NEMRON_ATTRIBUTES:
        section = page.split(f'id="Generic.Attribute.{name}"', 1)[1].split("<section", 1)[0]
        assert "Changed since" not in section, f"{name} is marked changed: {section[:600]}"
    power = page.split('id="Generic.Attribute.Power"', 1)[1].split("<section", 1)[0]
    assert "Ranks" in power  # the ranks are printed all the same
