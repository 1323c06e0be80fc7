"""The engine refuses work it cannot finish instead of hanging, and stays pure Python."""

from __future__ import annotations

import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from rules.dice import ComputationTooLargeError, DiceError, Dist, clear_caches, keep_highest, parse

DICE_DIR = Path(__file__).resolve().parents[2] / "rules" / "dice"


@pytest.mark.parametrize("text", [
    "1000d10000", "1000d10000kh3", "1000d10000kh500", "1000d6kh999", "1000d10000!", "1000d2!",
    "500d6!+500d6!", "999d10000-1d10000",
])
def test_exact_distributions_that_are_too_large_are_refused_at_once(text):
    expr = parse(text)  # the notation itself is within bounds
    with pytest.raises(ComputationTooLargeError) as caught:  # at once: bench/bounds.py times the refusal
        expr.dist()
    assert isinstance(caught.value, DiceError) and isinstance(caught.value, ValueError)
    assert "roll it instead" in str(caught.value)


def test_large_but_feasible_pools_still_compute():
    pool = keep_highest([Dist.die(10000)] * 1000)  # identical dice share one power per outcome
    assert pool.p(10000) == 1 - Fraction(9999, 10000) ** 1000
    assert pool.p_le(5000) == Fraction(1, 2) ** 1000
    assert parse("1000d6>=4").dist().mean() == 500


def test_clearing_the_caches_changes_no_result():
    before = parse("4d6kh3").dist()
    clear_caches()
    assert parse("4d6kh3").dist() == before


def test_the_engine_imports_neither_sphinx_nor_docutils_and_never_evals():
    code = "import sys, rules.dice; print(sorted(m for m in sys.modules if m.split('.')[0] in ('sphinx', 'docutils')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
    for path in DICE_DIR.glob("*.py"):
        source = path.read_text(encoding="utf-8")
        assert not re.search(r"\b(eval|exec)\s*\(", source), path.name
        assert not re.search(r"^\s*(import|from)\s+(sphinx|docutils)", source, re.M), path.name
