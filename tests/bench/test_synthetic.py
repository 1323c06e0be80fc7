"""The benchmark's synthetic rulebook generator: seeded, and every flavour carries the same content.

Fast and build-free: the generated sources are read, never built.  Building every flavour with ``-W``
(sphinx-needs included) is the benchmark's own smoke test, ``bench/test_smoke.py``, run on demand
(``pip install -e .[bench]``), not in the test command.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
SIZE = {"pages": 6, "nodes": 30, "refs": 60, "seed": 3}


def _load_synthetic() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_synthetic", BENCH / "synthetic.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


synthetic = _load_synthetic()


@pytest.fixture(scope="module")
def sources(tmp_path_factory) -> Path:
    """Every flavour's sources, generated once."""
    root = tmp_path_factory.mktemp("synthetic")
    synthetic.generate(root, flavours=synthetic.FLAVOURS, **SIZE)
    return root


#: (definition, reference) patterns of each markup: a flavour is named after its markup.
MARKUP = {"plain": (r"^\.\. _bench-", r":ref:`"), "rpg": (r"^\.\. node:def::", r":node:ref:`"),
          "needs": (r"^\.\. need::", r":need:`")}


@pytest.mark.parametrize("flavour", synthetic.FLAVOURS)
def test_every_flavour_carries_the_same_definitions_and_references(sources, flavour):
    definition, reference = MARKUP[flavour.split("-")[0]]
    text = "".join(p.read_text() for p in sorted((sources / flavour / "pages").glob("*.rst")))
    assert len(re.findall(definition, text, re.M)) == len(synthetic.make_content(**SIZE).nodes) == SIZE["nodes"]
    # the hand-written per-page listings of plain-listing-pages link every node once more
    listed = SIZE["nodes"] if flavour == "plain-listing-pages" else 0
    assert len(re.findall(reference, text)) == SIZE["refs"] + listed


def test_the_registry_binds_every_node(sources):
    registry = (sources / "rpg-bound" / "bench_registry.py").read_text()
    assert registry.count("'Bench.Cat") == SIZE["nodes"]


def test_generation_is_deterministic(tmp_path):
    first = synthetic.generate(tmp_path / "a", flavours=("plain", "rpg-listings"), **SIZE)
    second = synthetic.generate(tmp_path / "b", flavours=("plain", "rpg-listings"), **SIZE)
    assert first == second
    files = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*") if p.is_file())
    assert files and all((tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes() for f in files)
    other = synthetic.make_content(**{**SIZE, "seed": SIZE["seed"] + 1})
    assert [n.name for n in other.nodes] != [n.name for n in synthetic.make_content(**SIZE).nodes]
