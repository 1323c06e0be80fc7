"""Bulk steps pause the garbage collector and always give it back as they found it."""

from __future__ import annotations

import gc

import pytest

from sphinx_rpg.bulk import collector_paused


def test_the_collector_is_paused_inside_and_resumed_after():
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_the_collector_is_resumed_when_the_bulk_step_fails():
    with pytest.raises(RuntimeError), collector_paused():
        raise RuntimeError("a registry module that fails to import")
    assert gc.isenabled()


def test_a_collector_paused_by_someone_else_stays_paused():
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
