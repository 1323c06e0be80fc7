"""Opt-in bulk steps pause the garbage collector and always give it back as they found it."""

from __future__ import annotations

import gc
from types import SimpleNamespace

import pytest

from sphinx_rpg.bulk import collector_paused, pausing


def test_the_collector_is_paused_inside_and_resumed_after():
    assert gc.isenabled()
    with collector_paused(True):
        assert not gc.isenabled()
    assert gc.isenabled()


def test_without_the_opt_in_the_collector_is_not_touched():
    with collector_paused(False):
        assert gc.isenabled()
    assert not pausing(SimpleNamespace(rpg_pause_collector=False))
    assert not pausing(SimpleNamespace())
    assert pausing(SimpleNamespace(rpg_pause_collector=True))


@pytest.mark.parametrize("error", [RuntimeError, KeyboardInterrupt])
def test_the_collector_is_resumed_when_the_bulk_step_fails(error):
    with pytest.raises(error), collector_paused(True):
        raise error("a registry module that fails to import")
    assert gc.isenabled()


def test_a_collector_paused_by_someone_else_stays_paused():
    gc.disable()
    try:
        with collector_paused(True):
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
