"""Tables the extension builds are laid out in characters by the text builder: each column as wide as its cells."""

from __future__ import annotations

from pathlib import Path

import pytest
from docutils import nodes

from sphinx_rpg.columns import fit_columns


@pytest.mark.sphinx("text", testroot="bound", freshenv=True)
def test_a_computed_table_in_plain_text_keeps_each_header_and_value_on_one_line(app):
    """A width of 1 printed "Heads" one letter per line (and hung Sphinx 8.2's text writer)."""
    app.build()
    text = (Path(app.outdir) / "index.txt").read_text()
    assert "| Heads | P(at least) |" in text
    assert "| 1     | 87.5% (7/8) |" in text


def test_a_column_is_as_wide_as_its_longest_cell_up_to_a_limit():
    group = nodes.tgroup(cols=2)
    group += nodes.colspec(colwidth=1)
    group += nodes.colspec(colwidth=1)
    body = nodes.tbody()
    body += nodes.row("", nodes.entry("", nodes.paragraph("", "AB")), nodes.entry("", nodes.paragraph("", "x" * 80)))
    body += nodes.row("", nodes.entry("", nodes.paragraph("", "no spans"), morecols=1))  # spans both: not counted
    group += body
    fit_columns(group, widest=30)
    assert [spec["colwidth"] for spec in group.findall(nodes.colspec)] == [2, 30]
