#!/usr/bin/env python3
"""Listing filters at scale: a listing on every page, answered from the field index or by a full scan.

    python3 bench/filters.py [--scales 0.25,0.5,1,2]

At scale 1 the book has 500 pages and 10,000 nodes (``synthetic.py``'s defaults) and every page lists
its own nodes (``docname == "..."``, the ``rpg-listing-pages`` flavour), plus one namespace listing per
category.  For each scale it times evaluating every listing both ways, with the same results, and
prints seconds and the growth exponent between scales (1 = linear).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sphinx_rpg.filters import FieldIndex, parse_filter, select  # noqa: E402

PAGES, NODES, CATEGORIES = 500, 10_000, 20


def book(scale: float) -> tuple[list[dict[str, object]], list[str]]:
    pages, nodes = max(1, round(PAGES * scale)), max(1, round(NODES * scale))
    records: list[dict[str, object]] = [
        {"uid": f"Bench.Cat{i % CATEGORIES:02d}.Node{i:06d}", "name": f"node {i}", "type": ("E",),
         "type_name": ("Effect",), "namespace": f"Bench.Cat{i % CATEGORIES:02d}",
         "docname": f"pages/p{(i * pages) // nodes:05d}", "summary": "", "bound": "yes"}
        for i in range(nodes)]
    filters = [f'docname == "pages/p{p:05d}"' for p in range(pages)]
    filters += [f'namespace == "Bench.Cat{c:02d}"' for c in range(CATEGORIES)]
    return records, filters


def measure(scale: float) -> tuple[float, float]:
    records, filters = book(scale)
    start = time.perf_counter()
    index = FieldIndex(records)
    indexed = [select(parse_filter(text), records, index) for text in filters]
    indexed_seconds = time.perf_counter() - start
    start = time.perf_counter()
    scanned = []
    for text in filters:
        predicate = parse_filter(text)
        scanned.append([n for n, record in enumerate(records) if predicate(record)])
    scan_seconds = time.perf_counter() - start
    if indexed != scanned:
        raise SystemExit(f"scale {scale}: the index and the scan disagree")
    return indexed_seconds, scan_seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scales", default="0.25,0.5,1,2")
    args = parser.parse_args(argv)
    scales = [float(s) for s in args.scales.split(",")]
    print("| scale | pages | nodes | listings | indexed (s) | growth | full scan (s) | growth |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    previous: tuple[float, float, float] | None = None
    for scale in scales:
        indexed, scan = measure(scale)
        growth = ("", "")
        if previous:
            step = math.log(scale / previous[0])
            growth = (f"{math.log(indexed / previous[1]) / step:.2f}", f"{math.log(scan / previous[2]) / step:.2f}")
        print(f"| {scale:g} | {round(PAGES * scale)} | {round(NODES * scale)} | {round(PAGES * scale) + CATEGORIES} "
              f"| {indexed:.3f} | {growth[0]} | {scan:.2f} | {growth[1]} |")
        previous = (scale, indexed, scan)
    return 0


if __name__ == "__main__":
    sys.exit(main())
