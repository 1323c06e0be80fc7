"""Checks on the plain values rules take, shared by every game system."""

from __future__ import annotations


def is_whole(value: object) -> bool:
    """An ``int`` that is not a ``bool``: ``True`` is a yes, never a rank, a count or a die face."""
    return isinstance(value, int) and not isinstance(value, bool)
