"""Bulk allocation without full garbage collections.

Loading a registry of thousands of nodes, or building the ``nodes.json`` document, allocates tens of
thousands of small objects while the build environment fills the heap: each allocation burst makes
CPython's collector walk the whole environment again.  In a 10,000-node book that was more than half
of both steps' time (registry import 0.30 s -> 0.12 s, nodes.json 0.31 s -> 0.07 s).  The collector
is paused for those steps only and resumed afterwards, so any cycle they leave is still collected.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
