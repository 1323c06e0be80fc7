"""Every worked example of the DnDalike pages runs here too.

``docs/conftest.py`` collects the whole site with Sybil; at the time of writing that collector finds
no pages (Sybil resolves its default ``path`` against ``sphinx_rpg/sybil.py``).  Until it does, this
test runs the DnDalike pages' examples with the same parser, and skips itself once the site-wide
collector covers ``docs/``.
"""

from pathlib import Path

import pytest

from sphinx_rpg.sybil import rulebook_sybil

DOCS = Path(__file__).resolve().parents[2] / "docs"
PAGES = sorted((DOCS / "dndalike").glob("*.rst"))


def _site_collector_covers_docs() -> bool:
    probe = rulebook_sybil(conf_py=DOCS / "conf.py")
    return Path(probe.path).resolve() in (DOCS, *DOCS.parents)


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_book_examples_run(page):
    if _site_collector_covers_docs():
        pytest.skip("docs/conftest.py already runs this page")
    sybil = rulebook_sybil(conf_py=DOCS / "conf.py")
    for example in sybil.parse(page):
        example.evaluate()


def test_every_node_has_a_rule_object_and_a_page():
    from rules.dndalike import REGISTRY

    defined = set()
    for page in PAGES:
        defined |= {line.split(":uid:")[1].strip() for line in page.read_text().splitlines() if ":uid:" in line}
    uids = set(REGISTRY.uids())
    assert all(uid.startswith("Dndalike.") for uid in uids)
    assert all(node.implementation is not None for node in REGISTRY)
    assert uids == defined
