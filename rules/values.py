"""Checks on the plain values rules take, shared by every game system."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeGuard


def is_whole(value: object) -> TypeGuard[int]:
    """An ``int`` that is not a ``bool``: ``True`` is a yes, never a rank, a count or a die face.

    A ``TypeGuard`` (not ``TypeIs``): a ``False`` answer does not mean "not an ``int``", since ``True``
    is one, so the type checker narrows only where the answer is ``True``.
    """
    return type(value) is int or (isinstance(value, int) and not isinstance(value, bool))


def require_whole(value: object, name: str, *, minimum: int | None = None, maximum: int | None = None,
                  error: Callable[[str], Exception] = ValueError) -> int:
    """``value`` when it is a whole number (:func:`is_whole`) within the bounds; else ``error(message)``.

    Every rule checks its whole-number inputs here, so the message has one shape wherever it is
    raised and names the bad value: ``"rank must be a whole number of at least 0, not -1"``.
    """
    if is_whole(value) and (minimum is None or value >= minimum) and (maximum is None or value <= maximum):
        return value
    bounds = "".join(part for bound, part in ((minimum, f" of at least {minimum}"), (maximum, f" up to {maximum}"))
                     if bound is not None)
    raise error(f"{name} must be a whole number{bounds}, not {value!r}")
