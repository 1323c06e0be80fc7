"""node:odds stays within bounds: a roll too large to compute, or to show whole, is a located warning."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any


def test_odds_too_large_to_compute_or_to_show_whole_warn_on_their_line(
        build: Callable[..., Any], warning_text: Callable[[Any], str], tmp_path: Path) -> None:
    (tmp_path / "conf.py").write_text("extensions = ['sphinx_rpg']\n")
    (tmp_path / "index.rst").write_text(
        "Odds\n====\n\n"
        ".. node:odds:: 1000d10000\n\n"             # line 4: refused before any work
        ".. node:odds:: 100d100\n\n"                # line 6: computed, but 9,901 results to show
        ".. node:odds:: 100d100\n   :dc: 5000-5002\n\n"  # a range of it is fine
        ".. node:odds:: (1d6+2)*2\n")
    app = build(tmp_path)
    warnings = warning_text(app)
    assert "index.rst:4:" in warnings and "needs about" in warnings and "roll it instead" in warnings
    assert "index.rst:6:" in warnings and "9,901 results, more than 1000 rows" in warnings
    assert warnings.count("[node.table]") == 2
    html = (Path(app.outdir) / "index.html").read_text()
    assert "(1d6+2)*2" in html and html.count('<table class="rpg-computed') == 2
