"""A link cannot break a page: whatever address a reader is sent, every control still works.

Each interactive page kind (tables a reader may vary, a character sheet) is opened with malformed,
oversized and hostile addresses, both by a fresh load and by a same-document navigation; then each
control is used.  The calculator's own case is in ``test_calculator.py`` (it needs its warm Pyodide tab).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from tests.site.pages import ids_of
from tests.site.test_sheets import FILL_JS, engine_values, open_sheet, random_values

#: The manual's page with two :vary: tables (a broken first one took the second's controls with it).
ODDS_PAGES = ["manual/executable.html"]

#: (case, fragment builder from the first box's id): what anyone could send in a link.
HOSTILE = [
    ("malformed-escape", lambda box: f"#{box}?dice=%E0%A4%A"),
    ("malformed-prefix", lambda box: "#%E0%A4%A?dice=2"),
    ("lone-percent", lambda box: "#%"),
    ("oversized", lambda box: f"#{box}?dice=" + "9" * 100_000),
    ("thousands-of-pairs", lambda box: f"#{box}?" + "&".join(f"p{n}=1" for n in range(5_000))),
    ("markup", lambda box: f"#{box}?%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E=%3Cscript%3Ealert(1)%3C/script%3E"),
    ("no-break-space-and-controls", lambda box: f"#{box}?dice=%C2%A0%00%0A"),
]

#: Each box: controls shown, and changing its first select repaints its table.
USE_CONTROLS_JS = """() => [...document.querySelectorAll('.rpg-odds-vary')].map(box => {
    const form = box.querySelector('form.rpg-odds-controls'), select = form.querySelector('select');
    const before = box.querySelector('table').textContent;
    select.selectedIndex = (select.selectedIndex + 1) % select.options.length;
    select.dispatchEvent(new Event('change', {bubbles: true}));
    return {id: box.id, shown: !form.hidden && form.offsetParent !== null,
            repainted: box.querySelector('table').textContent !== before};
})"""


def assert_every_control_works(page: Any, box_ids: list[str]) -> None:
    used = page.evaluate(USE_CONTROLS_JS)
    assert [box["id"] for box in used] == box_ids
    assert all(box["shown"] and box["repainted"] for box in used), used
    last = box_ids[-1]  # the address takes the last choice: the script is alive after the link
    page.wait_for_function(f"location.hash.startsWith('#{last}?')")


@pytest.mark.parametrize("path", ODDS_PAGES)
@pytest.mark.parametrize("name, fragment", HOSTILE, ids=[c[0] for c in HOSTILE])
def test_a_hostile_link_leaves_every_odds_control_working(site, page, page_log, path, name, fragment):
    """The link loaded afresh, its controls used (the address then holds their choice), then the same
    link followed in that document (a same-document navigation): one page load for both.  The boxes'
    ids come from the page's HTML (``pages.ids_of``); the page must show the same boxes."""
    url = site.url + path
    box_ids = ids_of(site.root, path, "rpg-odds-vary")
    assert box_ids, f"{url} has no table a reader may vary"
    hostile = fragment(box_ids[0])
    page.goto(url + hostile)  # a fresh load of the link
    assert_every_control_works(page, box_ids)
    page.goto(url + hostile)  # same document: only the fragment changes (the controls moved it on)
    assert_every_control_works(page, box_ids)
    assert page_log.exceptions == []


SHEET_HOSTILE = [
    ("malformed-escape", "#sheet=nemron&Agility=%E0%A4%A"),
    ("huge-number", "#sheet=nemron&Agility=" + "9" * 400),
    ("oversized", "#sheet=nemron&x=" + "a" * 100_000),
    ("markup", "#sheet=%3Cscript%3Ealert(1)%3C%2Fscript%3E&%3Cb%3E=1"),
]


@pytest.mark.parametrize("name, fragment", SHEET_HOSTILE, ids=[c[0] for c in SHEET_HOSTILE])
def test_a_hostile_link_leaves_the_sheet_working(site, page, page_log, name, fragment):
    data = open_sheet(page, site, "nemron", fragment)
    values = random_values(data, random.Random(name))
    shown = page.evaluate(f"({FILL_JS})({json.dumps(values)})")
    assert shown == engine_values(data, "nemron", values)
    assert page_log.exceptions == []
