"""The player's books on paper: the LaTeX sources of the player edition read as a printed book.

No TeX run here (``python3 dev.py pdf`` typesets them, outside the test command): the checks read the
``.tex`` files the LaTeX builder writes from the player edition's doctrees, one per rulebook.  Each
interactive element has its print form, and nothing on paper names the engine, shows a worked
example's code, speaks to a screen or shows the markup it was written in.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sphinx_rpg.editions import ENGINE_WORD

DOCS = Path(__file__).resolve().parents[2] / "docs"
#: Each printed rulebook: its LaTeX file and the folder of its pages (the manual is a designer's book).
RULEBOOKS = {"nemron.tex": "nemron", "heimr.tex": "heimr", "nugget.tex": "nugget", "spurg.tex": "spurg",
             "dndalike.tex": "dndalike"}


@pytest.fixture(scope="module")
def player_latex(built_player, tmp_path_factory) -> Path:
    """The player edition's LaTeX sources, written with warnings as errors from a copy of the doctrees
    the player edition's HTML build read (no page is read twice); a fresh build without them."""
    outdir = tmp_path_factory.mktemp("player-latex")
    doctrees = tmp_path_factory.mktemp("player-latex-doctrees") / "doctrees"
    prebuilt = os.environ.get("SPHINX_RPG_SITE_PLAYER")
    read = Path(prebuilt).parent / "test-player-doctrees" if prebuilt else None
    if read is not None and (read / "environment.pickle").exists():
        shutil.copytree(read, doctrees)
    result = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "latex",
                             "-D", "rpg_edition=player", "-d", str(doctrees), str(DOCS), str(outdir)],
                            capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, f"the player edition's LaTeX build warned or failed:\n{result.stderr[-4000:]}"
    return outdir


#: LaTeX that prints nothing a reader reads: labels, link targets, index entries, comments.
_UNPRINTED = re.compile(r"\\label\{\\detokenize\{[^{}]*\}\}|\\hyperref\[\\detokenize\{[^{}]*\}\]"
                        r"|\\index\{[^{}]*\}|\\sphinxstepscope|^%.*$|\\detokenize\{[^{}]*\}", re.M)
#: babel's switch for pdfLaTeX at the start of the body (``\string=``): settings, not words.
_BABEL = re.compile(r"\\ifdefined\\shorthandoff.*?\n\\fi\n", re.S)
#: A TikZ picture: drawing commands, not words (its box names are checked by the graph test).
_FIGURE = re.compile(r"\\begin\{tikzpicture\}.*?\\end\{tikzpicture\}", re.S)
_MATH = re.compile(r"\\\(.*?\\\)|\\\[.*?\\\]", re.S)
_CODE = re.compile(r"\\sphinxcode\{\\sphinxupquote\{((?:[^{}]|\{[^{}]*\})*)\}\}")


def printed(tex: str) -> str:
    """The words of a book's LaTeX body as they print: no preamble, labels or link targets; maths kept
    apart (a formula is the rule's own notation); ``\\sphinxhyphen{}`` and the like back to characters."""
    body = tex.split(r"\begin{document}", 1)[-1]
    body = _MATH.sub(" ", _UNPRINTED.sub(" ", _FIGURE.sub(" ", _BABEL.sub(" ", body))))
    body = body.replace(r"\sphinxhyphen{}", "-").replace(r"\textquotesingle{}", "'").replace(r"\_", "_")
    return body


def code_spans(tex: str) -> list[str]:
    """What the book prints in a code font (``literal`` text)."""
    return [span.replace(r"\_", "_").replace(r"\sphinxhyphen{}", "-") for span in _CODE.findall(printed(tex))]


def book_sources(book: str) -> str:
    """Every page source of a book that the player edition prints (its engine reference page aside)."""
    return "\n".join(path.read_text(encoding="utf-8") for path in sorted((DOCS / book).glob("*.rst"))
                     if path.name != "reference.rst")


@pytest.fixture(scope="module")
def books(player_latex) -> dict[str, str]:
    return {name: (player_latex / name).read_text(encoding="utf-8") for name in RULEBOOKS}


# -- nothing on paper names the engine or shows how the book was written -----------------------------------
def test_a_player_book_prints_no_engine_switch_call_or_module_path(books):
    found = {name: sorted({m.group(0) for m in ENGINE_WORD.finditer(printed(tex))}) for name, tex in books.items()}
    assert not any(found.values()), found


def test_a_player_book_prints_no_engine_name_in_code_type(books):
    """A snake_case name in code type (``max_rerolls``) is the engine's word for a rule, not the book's."""
    found = {name: sorted({span for span in code_spans(tex) if re.search(r"\b[a-z]+_[a-z_]+\b|\brpg\b|\.py\b", span)})
             for name, tex in books.items()}
    assert not any(found.values()), found


def test_a_player_book_prints_no_worked_example_code(books):
    for name, tex in books.items():
        assert ">>>" not in tex and r"\begin{sphinxVerbatim}" not in tex, name


def test_a_player_book_prints_no_markup(books):
    """No role or directive printed as text, no uid spelled out where a name belongs."""
    for name, tex in books.items():
        text = printed(tex)
        assert not re.search(r":node:|\.\. node|node:def|``", text), name
        uids = sorted(set(re.findall(r"\b(?:Generic|Heimr|Nugget|Spurg|Dndalike)\.[A-Z]\w*\.\w+", text)))
        assert not uids, (name, uids)


_CHANGE_MARK = re.compile(r"\\DUrole\{versionmodified\}.*")
#: Words that speak to a screen: a pointer, a control to use, a link to share, something that follows as
#: the reader types ("pick a frame" is a rule of the game, "pick an attribute rank" above a table is not).
SCREEN_WORDS = re.compile(r"\b(?:hover|click|tap|scroll|Share link|drag|as you type|(?-i:Type (?:a|your) )|"
                          r"(?:pick|choose|select) (?:a|an|the) (?:[\w-]+ )?(?:rank|value|number|row|option)s?\b"
                          r"|(?:the )?(?:button|menu|slider)s?\b(?! of))", re.I)


def test_a_player_book_says_nothing_to_a_screen(books):
    """A change mark is left out: it quotes the web page's words as a reader met them."""
    found = {name: sorted({m.group(0) for m in SCREEN_WORDS.finditer(printed(_CHANGE_MARK.sub(" ", tex)))})
             for name, tex in books.items()}
    assert not any(found.values()), found


def test_a_printed_formula_is_set_as_maths_with_the_names_a_reader_knows(books):
    """Every formula on paper is the book's typeset form (× for the engine's ``*``, fraction bars and floor
    brackets for ``/`` and ``floor(``), and no name is an engine identifier (``base_potential``)."""
    for name, tex in books.items():
        formulas = _MATH.findall(tex.split(r"\begin{document}", 1)[-1])
        assert formulas, f"{name} prints no formula"
        for formula in formulas:
            assert "*" not in formula and "floor(" not in formula and r"\_" not in formula, (name, formula)
            assert r"\mathrm{" not in formula, (name, formula)  # names are words in text type: \text{...}


#: A table's first row, from its \begin{savenotes} to the end of that row.
_TABLE_HEAD = re.compile(r"\\begin\{savenotes\}(.*?)\\\\\s*\\sphinxmidrule", re.S)


def test_a_wide_table_prints_in_small_type_with_narrow_gaps(books):
    """A table of 8 columns or more is set in footnote size with 3 pt gaps: at the normal size a
    14-column odds table left header words such as "Progress" sticking out of their cells."""
    wide = 0
    for name, tex in books.items():
        for match in _TABLE_HEAD.finditer(tex):
            columns = match.group(1).count("\\end{varwidth}%\n&") + 1
            if columns >= 8:
                wide += 1
                before = tex[:match.start()].rstrip()
                assert before.endswith(r"\begingroup\footnotesize\setlength{\tabcolsep}{3pt}%"), (name, columns)
    assert wide, "no book prints a wide table: the check checks nothing"


# -- each interactive element has its print form -----------------------------------------------------------
def test_a_vary_table_prints_its_default_and_a_line_saying_where_the_others_are(books):
    for name, book in RULEBOOKS.items():
        varied = len(re.findall(r"^\s*:vary:", book_sources(book), flags=re.M))
        lines = " ".join(books[name].split()).count("Printed here: the table for")
        assert lines == varied, (name, varied, lines)
        assert varied == 0 or "The web edition of this page shows it for every other choice" in " ".join(
            books[name].split())


def test_a_graph_prints_as_a_vector_figure_in_the_printers_ink(books):
    for name, book in RULEBOOKS.items():
        graphs = len(re.findall(r"^\.\. node:graph::", book_sources(book), flags=re.M))
        tex = books[name]
        assert tex.count(r"\begin{tikzpicture}") == graphs, name
        assert "currentColor" not in tex and r"\includegraphics{graph" not in tex, name


def test_a_sheet_prints_blank_boxes_and_no_computed_value(books):
    for name, tex in books.items():
        sheets = [part.split(r"\chapter{", 1)[0].split(r"\section{", 1)[0]
                  for part in tex.split(r"\begin{sphinxuseclass}{rpg-sheet}")[1:]]
        assert sheets, f"{name} prints no sheet"
        for sheet in sheets:
            rows = re.findall(r"\\sphinxcrossref\{.*?\}\}\}\}\s*\\sphinxbeforeendvarwidth\s*\\end\{varwidth\}%\s*"
                              r"&\\begin\{varwidth\}\[t\]\{[^\n]*\}\s*\\sphinxAtStartPar\s*(.*?)\s*\\sphinxbeforeendvarwidth",
                              sheet, re.S)
            assert rows, f"{name}: no value cell found in its sheet"
            assert set(rows) == {r"\fbox{\rule{0pt}{1.2em}\hspace{3.2em}}"}, (name, sorted(set(rows)))


def test_the_calculator_prints_no_page_of_its_own(books):
    """The calculator is a web page: the printed book has no chapter for it, and no page of its own."""
    for name, tex in books.items():
        assert not re.search(r"\\chapter\{Dice calculator\}", tex), name
        assert "Share link" not in tex, name


def test_a_stat_block_prints_its_values_and_its_attacks_odds(books):
    for name, book in RULEBOOKS.items():
        wanted = len(re.findall(r"^\.\. node:statblock::", book_sources(book), flags=re.M))
        blocks = re.findall(r"\\begin\{sphinxuseclass\}\{rpg-statblock\}(.*?)\\end\{sphinxuseclass\}", books[name], re.S)
        assert len(blocks) == wanted > 0, (name, wanted, len(blocks))
        for block in blocks:
            assert re.search(r"\d+\.\d\\%", block), f"{name}: a stat block prints no odds: {block[:300]}"
