"""Checks on the plain values rules take, shared by every game system."""

from __future__ import annotations

from typing import TypeGuard


def is_whole(value: object) -> TypeGuard[int]:
    """An ``int`` that is not a ``bool``: ``True`` is a yes, never a rank, a count or a die face.

    A ``TypeGuard`` (not ``TypeIs``): a ``False`` answer does not mean "not an ``int``", since ``True``
    is one, so the type checker narrows only where the answer is ``True``.
    """
    return isinstance(value, int) and not isinstance(value, bool)
