"""What the per-system matchup tests share: a stand-in for a model's ``round`` that fails the test if
the fight is explored, so a refusal is shown to come from the price alone."""

from __future__ import annotations

from typing import Any


def never_explored(state: Any) -> Any:
    raise AssertionError(f"the fight was explored (state {state!r}) before it was priced")
