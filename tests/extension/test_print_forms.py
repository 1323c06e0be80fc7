"""Paper forms of the book's screen-only parts, and the game's own name for the number to reach.

``node:screen`` / ``node:paper`` mark words for one medium; a ``:vary:`` table prints a line saying
which table paper gets; ``node:graph`` prints as a TikZ figure; odds tables name their target column
as the game does (``Registry.target_name``).
"""

from __future__ import annotations

import re
from pathlib import Path
from fractions import Fraction

from rules.odds import at_least_table, at_most_table

PAGE = """Book
====

Each arrow :node:screen:`below` :node:paper:`in the figure` runs from an input.

.. node:screen::

   Pick a rank to see its odds.

.. node:paper::

   The printed table is the one for rank 2.

.. node:odds:: {n}d6
   :vary: n=1-3 (2)
   :dc: 2-4

.. node:graph::
   :system: heimr
"""


def _book(root: Path, page: str = PAGE) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "conf.py").write_text("extensions = ['sphinx_rpg']\nrpg_registries = ['rules.heimr:REGISTRY', "
                                  "'rules.spurg:REGISTRY']\nrpg_charts = False\n"
                                  "suppress_warnings = ['node.undocumented', 'node.ref']\n"
                                  "latex_documents = [('index', 'book.tex', 'Book', 'A', 'manual')]\n")
    (root / "index.rst").write_text(page)
    return root


def test_html_keeps_screen_and_paper_words_each_marked_for_its_medium(build, warning_text, tmp_path: Path) -> None:
    app = build(_book(tmp_path / "src"))
    assert warning_text(app) == ""
    html = (Path(app.outdir) / "index.html").read_text()
    assert re.search(r'<span class="rpg-screen-only">below</span>', html)
    assert re.search(r'<span class="rpg-print-only">in the figure</span>', html)
    assert re.search(r'<div class="rpg-screen-only docutils container">\s*<p>Pick a rank', html)
    assert re.search(r'<div class="rpg-print-only docutils container">\s*<p>The printed table', html)


def test_latex_drops_the_screen_words_and_keeps_the_paper_words(build, warning_text, tmp_path: Path) -> None:
    app = build(_book(tmp_path / "src"), "latex")
    assert warning_text(app) == ""
    tex = (Path(app.outdir) / "book.tex").read_text()
    assert "Pick a rank" not in tex and "below" not in tex.split("Each arrow")[1][:40]
    assert "The printed table is the one for rank 2." in tex and "in the figure" in tex


def test_a_screen_phrase_at_the_end_of_a_sentence_leaves_no_space_before_its_full_stop(
        build, warning_text, tmp_path: Path) -> None:
    page = "Book\n====\n\nThe sheet adds it up :node:screen:`as you type`.  Totals go in the boxes.\n"
    app = build(_book(tmp_path / "src", page), "latex")
    assert warning_text(app) == ""
    tex = " ".join((Path(app.outdir) / "book.tex").read_text().split())
    assert "The sheet adds it up. Totals go in the boxes." in tex and "as you type" not in tex


def test_a_vary_table_says_on_paper_which_table_is_printed_and_where_the_others_are(
        build, warning_text, tmp_path: Path) -> None:
    app = build(_book(tmp_path / "src"), "latex")
    tex = (Path(app.outdir) / "book.tex").read_text()
    assert "Printed here: the table for N 2. The web edition of this page shows it for every other choice " \
           "(N: 1, 2, 3)." in " ".join(tex.split())


def test_a_graph_prints_as_a_tikz_figure_of_black_boxes_and_arrows(build, warning_text, tmp_path: Path) -> None:
    app = build(_book(tmp_path / "src"), "latex")
    assert warning_text(app) == ""
    tex = (Path(app.outdir) / "book.tex").read_text()
    assert r"\usepackage{tikz}" in (Path(app.outdir) / "book.tex").read_text()
    figure = tex.split(r"\begin{figure}[htbp]\centering", 1)[1].split(r"\end{figure}", 1)[0]
    assert r"\begin{tikzpicture}" in figure and r"\caption{How the rules connect}" in figure
    assert figure.count("rectangle") >= 3 and figure.count("controls") >= 2
    assert "currentColor" not in figure and "Heimr." not in figure  # printer's ink; names, not internal ids


def test_the_html_graph_names_its_boxes_without_internal_ids(build, tmp_path: Path) -> None:
    app = build(_book(tmp_path / "src"))
    html = (Path(app.outdir) / "index.html").read_text()
    titles = re.findall(r'<g class="rpg-graph-node"><title>([^<]*)</title>', html)
    assert titles and not [title for title in titles if "Heimr." in title]


def test_odds_tables_head_the_target_column_with_the_games_own_name() -> None:
    assert at_least_table(_Dist(), [1], target_name="TN").columns[0] == "TN"
    assert at_least_table(_Dist(), [1]).columns[0] == "DC"
    assert at_most_table(_Dist(), [1]).columns[0] == "Target"


def test_a_page_of_spurgs_book_heads_its_odds_table_tn(build, warning_text, tmp_path: Path) -> None:
    source = _book(tmp_path / "src", "Book\n====\n\n.. toctree::\n\n   spurg/odds\n")
    (source / "spurg").mkdir()
    (source / "spurg" / "odds.rst").write_text("Odds\n====\n\n.. node:odds:: 3d6\n   :dc: 9-11\n\n"
                                               ".. node:calculator::\n   :under: 10\n")
    app = build(source)
    assert warning_text(app) == ""
    html = (Path(app.outdir) / "spurg" / "odds.html").read_text()
    assert re.search(r"<th class=\"head\"><p>TN</p></th>", html)
    assert '"target_name": "TN"' in html and ">at least (TN)</option>" in html


class _Dist:
    """The least a table needs of a distribution: every chance is one half."""

    def p_ge(self, value: int) -> Fraction:
        return Fraction(1, 2)

    p_le = p_ge

