"""The shared value checks every system's rules use."""

from __future__ import annotations

import pytest

from rules.values import is_whole


@pytest.mark.parametrize("value", [0, 3, -2, 10**30])
def test_whole_numbers_are_ints(value):
    assert is_whole(value)


@pytest.mark.parametrize("value", [True, False, 3.0, "3", None, 2.5])
def test_a_bool_a_float_or_text_is_not_a_whole_number(value):
    assert not is_whole(value)
