"""Opt-in: the garbage collector rests during the extension's own bulk steps, and only during them.

Importing a registry of thousands of nodes, reading and writing the catalogue and making
``nodes.json`` and the previews allocate tens of thousands of small objects while the build's
environment fills the heap, and CPython's collector then walks the whole heap again and again.
With ``rpg_pause_collector = True`` each of those steps runs with the collector disabled; the
``with`` block gives it back on every way out of the step (an exception, ``KeyboardInterrupt``),
so nothing outlives the step and a collector someone else turned off stays off.  Off by default:
the collector is process-wide state, and an extension hosted in a language server, a notebook
or a test run has no business changing it unasked (see the manual's "Big books").
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


def pausing(config: object) -> bool:
    """Whether the project opted in (``rpg_pause_collector``)."""
    return getattr(config, "rpg_pause_collector", False) is True


@contextmanager
def collector_paused(enabled: bool) -> Iterator[None]:
    """The collector disabled inside the block when ``enabled`` and it was on; as it was afterwards."""
    if not enabled or not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
