"""A warning about a role names the line that holds it, not the first line of its paragraph."""

from __future__ import annotations

import re

import pytest

from sphinx_rpg.lines import find_line

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

PAGE = """\
Lines
=====

.. node:def:: Energy
   :uid: G.T.Energy
   :type: E

   The first line of a paragraph,
   the second with :node:ref:`G.T.Missing`,
   the third with :node:ref:`G.T.Energy` and again :node:ref:`G.T.Missing`.

A paragraph that starts here
and holds :node:value:`G.T.Energy:nokey` on its second line
and :node:ref:`G.T.Elsewhere` on its third.
"""


def warning_lines(app) -> dict[int, str]:
    text = re.sub(r"\x1b\[[0-9;]*m", "", app.warning.getvalue())
    return {int(m.group(1)): m.group(2) for m in re.finditer(r"index\.rst:(\d+): WARNING: (.*)", text)}


def test_each_bad_reference_is_reported_on_its_own_line(make_app, tmp_path):
    (tmp_path / "conf.py").write_text("extensions = ['sphinx_rpg']\n")
    (tmp_path / "index.rst").write_text(PAGE)
    app = make_app("html", srcdir=tmp_path)
    app.build()
    lines = warning_lines(app)
    assert "'G.T.Missing'" in lines[9] and "'G.T.Missing'" in lines[10]  # the second use: its own line
    assert ":node:value:" in lines[13] and "'G.T.Elsewhere'" in lines[14]
    assert set(lines) == {9, 10, 13, 14}


def test_the_nth_use_of_the_same_text_finds_the_nth_match():
    lines = ("a :x:`1`", "b", "c :x:`1` :x:`1`")
    assert [find_line(lines, 1, ":x:`1`", n) for n in (1, 2, 3, 4)] == [1, 3, 3, None]


def test_text_not_in_the_source_keeps_the_paragraph_line(make_app, tmp_path):
    (tmp_path / "conf.py").write_text(
        "extensions = ['sphinx_rpg']\n"
        "def rewrite(app, docname, source):\n"
        "    source[0] = source[0].replace('WHERE', ':node:ref:`G.T.Gone`')\n"
        "def setup(app):\n"
        "    app.connect('source-read', rewrite)\n")
    (tmp_path / "index.rst").write_text("Title\n=====\n\nFirst line\nthen WHERE.\n")
    app = make_app("html", srcdir=tmp_path)
    app.build()
    assert "'G.T.Gone'" in warning_lines(app)[4]
