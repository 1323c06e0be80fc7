"""The benchmark's smoke test: every synthetic flavour builds without a warning and renders alike.

Run on demand, before a benchmark run, never by the test command (it takes about half a minute and
needs sphinx-needs: ``pip install -e .[bench]``)::

    .venv/bin/python -m pytest bench/test_smoke.py -q

Small (6 pages, 30 nodes, 60 references) and untimed: bench/build.py measures, this only checks that
what it measures builds.  Each flavour builds with ``-W`` in its own process (sphinx-needs and
sphinx_rpg register docutils nodes globally), all at once.  The generator's own fast checks are
tests/bench/test_synthetic.py.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent
SIZE = {"pages": 6, "nodes": 30, "refs": 60, "seed": 3}


def _load_synthetic():
    spec = importlib.util.spec_from_file_location("bench_synthetic", BENCH / "synthetic.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


synthetic = _load_synthetic()
HAVE_NEEDS = importlib.util.find_spec("sphinx_needs") is not None


@pytest.fixture(scope="module")
def books(tmp_path_factory):
    """Every flavour generated and built once, concurrently: flavour -> (source, html, stderr, status)."""
    root = tmp_path_factory.mktemp("synthetic")
    flavours = tuple(f for f in synthetic.FLAVOURS if not f.startswith("needs") or HAVE_NEEDS)
    synthetic.generate(root / "src", flavours=flavours, **SIZE)
    children = {}
    for flavour in flavours:
        command = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                   str(root / "src" / flavour), str(root / "html" / flavour)]
        children[flavour] = subprocess.Popen(command, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                             text=True)
    results = {}
    for flavour, child in children.items():
        _, stderr = child.communicate(timeout=120)
        results[flavour] = (root / "src" / flavour, root / "html" / flavour, stderr, child.returncode)
    return results


@pytest.mark.parametrize("flavour", synthetic.FLAVOURS)
def test_flavour_builds_without_warnings(books, flavour):
    if flavour.startswith("needs") and not HAVE_NEEDS:
        pytest.skip("sphinx-needs is not installed (pip install -e .[bench]); the needs flavours are not built")
    _, html, stderr, status = books[flavour]
    assert status == 0 and not stderr.strip(), stderr
    page = synthetic.make_content(**SIZE).edit_page
    assert (html / f"{page.docname}.html").exists()


def test_links_resolve_to_the_same_titles_in_plain_and_rpg(books):
    """A bare :node:ref: and a :ref: to the section label render the same text."""
    def link_texts(flavour: str) -> list[str]:
        html = books[flavour][1] / "pages"
        text = "".join(p.read_text() for p in sorted(html.glob("*.html")))
        # the "Referenced by" lines under rpg nodes link pages, not nodes; plain Sphinx has none
        text = re.sub(r'(?s)<p class="rpg-backlinks[^"]*">.*?</p>', "", text)
        return sorted(re.findall(r'<a class="reference internal"[^>]*>.*?<span[^>]*>([^<]*)</span>', text))
    assert link_texts("plain") == link_texts("rpg") == link_texts("rpg-bound")
    assert len(link_texts("rpg")) == SIZE["refs"]


@pytest.mark.parametrize("flavour", [f for f in synthetic.FLAVOURS if f.endswith("listings")])
def test_every_listing_flavour_catalogues_every_node(books, flavour):
    if flavour not in books:
        pytest.skip("sphinx-needs is not installed")
    html = "".join(p.read_text() for p in sorted((books[flavour][1] / "catalogue").glob("*.html")))
    missing = [n.name for n in synthetic.make_content(**SIZE).nodes if n.name not in html]
    assert not missing
