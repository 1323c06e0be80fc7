"""Every worked example of the Nemron pages runs here too.

``docs/conftest.py`` is meant to run them, but at the time of writing its Sybil resolves its ``path``
against ``sphinx_rpg/`` and collects no pages.  Until that is fixed this test runs each Nemron page's
examples with the same parser, in one namespace per page (it skips itself once the site-wide
collector covers ``docs/``).
"""

from pathlib import Path

import pytest

from sphinx_rpg.sybil import rulebook_sybil

DOCS = Path(__file__).resolve().parents[2] / "docs"
PAGES = sorted((DOCS / "nemron").glob("*.rst"))


def _site_collector_covers_docs() -> bool:
    probe = rulebook_sybil(conf_py=DOCS / "conf.py")
    return Path(probe.path).resolve() in (DOCS, *DOCS.parents)


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_book_examples_run(page):
    if _site_collector_covers_docs():
        pytest.skip("docs/conftest.py already runs this page")
    document = rulebook_sybil(conf_py=DOCS / "conf.py").parse(page)
    for example in document:
        example.evaluate()
