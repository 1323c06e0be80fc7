"""The benchmark's synthetic rulebook: every flavour builds without a warning, and generation is seeded.

Small (6 pages, 30 nodes, 60 references) and untimed: bench/build.py measures, this only keeps the
generator honest.  Each flavour builds with ``-W`` in its own process (sphinx-needs and sphinx_rpg
register docutils nodes globally), all at once.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
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
    source, html, stderr, status = books[flavour]
    assert status == 0 and not stderr.strip(), stderr
    page = synthetic.make_content(**SIZE).edit_page
    assert (html / f"{page.docname}.html").exists()


def test_flavours_carry_the_same_definitions_and_references(books):
    content = synthetic.make_content(**SIZE)
    patterns = {"plain": (r"^\.\. _bench-", r":ref:`"), "rpg": (r"^\.\. node:def::", r":node:ref:`"),
                "rpg-bound": (r"^\.\. node:def::", r":node:ref:`"), "needs": (r"^\.\. need::", r":need:`"),
                "needs-listings": (r"^\.\. need::", r":need:`")}
    for flavour, (definition, reference) in patterns.items():
        if flavour not in books:
            continue
        text = "".join(p.read_text() for p in sorted((books[flavour][0] / "pages").glob("*.rst")))
        assert len(re.findall(definition, text, re.M)) == len(content.nodes) == SIZE["nodes"], flavour
        assert len(re.findall(reference, text)) == SIZE["refs"], flavour


def test_links_resolve_to_the_same_titles_in_plain_and_rpg(books):
    """A bare :node:ref: and a :ref: to the section label render the same text.

    (The "Referenced by" lines under rpg nodes link pages, not nodes; plain Sphinx has none.)
    """
    def link_texts(flavour):
        html = books[flavour][1] / "pages"
        text = "".join(p.read_text() for p in sorted(html.glob("*.html")))
        text = re.sub(r'(?s)<p class="rpg-backlinks">.*?</p>', "", text)
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


def test_the_registry_binds_every_node(books):
    registry = (books["rpg-bound"][0] / "bench_registry.py").read_text()
    assert registry.count("'Bench.Cat") == SIZE["nodes"]


def test_generation_is_deterministic(tmp_path):
    first = synthetic.generate(tmp_path / "a", flavours=("plain", "rpg-listings"), **SIZE)
    second = synthetic.generate(tmp_path / "b", flavours=("plain", "rpg-listings"), **SIZE)
    assert first == second
    files = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*") if p.is_file())
    assert files and all((tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes() for f in files)
    other = synthetic.make_content(**{**SIZE, "seed": SIZE["seed"] + 1})
    assert [n.name for n in other.nodes] != [n.name for n in synthetic.make_content(**SIZE).nodes]
