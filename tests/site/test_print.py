"""The site prints: one PDF per rulebook and one for the manual, each with its chapters as chapters.

The LaTeX builder runs over docs/ with warnings as errors.  Cards degrade to plain tables and charts
to their table alone, so ``make latexpdf`` works wherever TeX is installed (TeX itself is not needed
here: the tests check the LaTeX sources).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"
#: Each printed book: its LaTeX file and the folder of its pages.
BOOKS = {"sphinx-rpg-manual.tex": "manual", "nemron.tex": "nemron", "heimr.tex": "heimr",
         "nugget.tex": "nugget", "spurg.tex": "spurg", "dndalike.tex": "dndalike"}


SMART_QUOTES = str.maketrans({"\N{LEFT DOUBLE QUOTATION MARK}": '"', "\N{RIGHT DOUBLE QUOTATION MARK}": '"',
                              "\N{LEFT SINGLE QUOTATION MARK}": "'", "\N{RIGHT SINGLE QUOTATION MARK}": "'"})


def plain(latex: str) -> str:
    """A LaTeX title as text: commands and braces dropped, Sphinx's hyphens and quotes restored."""
    text = latex.replace(r"\sphinxhyphen{}", "-").replace(r"\textquotesingle{}", "'")
    text = re.sub(r"\\[A-Za-z]+\*?", "", text)
    text = re.sub(r"[{}]", "", text).replace(r"\&", "&")
    return text.translate(SMART_QUOTES).strip()  # Sphinx's smartquotes curl the source's quotes


def page_title(path: Path) -> str:
    """The first heading of a page of the book (reStructuredText or MyST Markdown), as plain text."""
    lines = path.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines):
        if line.startswith("# "):
            return re.sub(r"`", "", line[2:]).strip()
        if number + 1 < len(lines) and line.strip() and re.fullmatch(r"([=\-~^*#])\1{2,}", lines[number + 1]) \
                and not re.fullmatch(r"([=\-~^*#])\1{2,}", line):
            return re.sub(r"``|\*", "", line).strip()
    raise AssertionError(f"{path} has no title")


def toctree_entries(book: str) -> list[str]:
    """The pages of a book's index toctree, in order."""
    text = (DOCS / book / "index.rst").read_text(encoding="utf-8")
    block = text.split(".. toctree::", 1)[1]
    entries = []
    for line in block.splitlines()[1:]:
        if line and not line.startswith("   "):
            break
        if line.strip() and not line.strip().startswith(":"):
            entries.append(line.strip())
    return entries


def chapters(tex: str) -> list[str]:
    return [plain(title) for title in re.findall(r"^\\chapter\{(.*)\}$", tex, flags=re.MULTILINE)]


def source(page: str) -> Path:
    return next(path for path in (DOCS / f"{page}.rst", DOCS / f"{page}.md") if path.exists())


@pytest.mark.parametrize("tex_name, book", BOOKS.items())
def test_each_book_is_its_own_pdf_whose_chapters_are_its_toctree(built_latex, tex_name, book):
    """The table of contents of a book's PDF starts with its chapters, in the order of its index."""
    tex = (built_latex / tex_name).read_text(encoding="utf-8")
    expected = [page_title(source(f"{book}/{entry}")) for entry in toctree_entries(book)]
    assert chapters(tex)[:len(expected)] == expected
    assert r"\sphinxtableofcontents" in tex


def test_no_other_tex_file_is_printed(built_latex):
    assert sorted(path.name for path in built_latex.glob("*.tex")) == sorted(BOOKS)


@pytest.mark.parametrize("tex_name", BOOKS)
def test_the_books_print_with_cards_and_charts_degraded(built_latex, tex_name):
    tex = (built_latex / tex_name).read_text(encoding="utf-8")
    assert "sd-card" not in tex and "<svg" not in tex and "rpg-formula" not in tex


def test_a_rulebook_pdf_prints_its_own_nodes_and_its_formulas_as_maths(built_latex):
    tex = (built_latex / "nemron.tex").read_text(encoding="utf-8")
    assert re.search(r"Energy \(E,R\)", tex)
    assert r"\(\text{Control} + \text{Sense} + \text{Focus} + 5\)" in tex
    assert "Heimr Tabletop" not in tex, "another book's pages are in the Nemron PDF"


def test_each_rulebook_pdf_has_its_own_title(built_latex):
    for tex_name, title in {"nemron.tex": "Nemron RPG", "heimr.tex": "Heimr Tabletop RPG Core",
                            "nugget.tex": "NUGGET", "spurg.tex": "SPURG", "dndalike.tex": "The DnDalike"}.items():
        tex = (built_latex / tex_name).read_text(encoding="utf-8")
        assert re.search(r"\\title\{" + re.escape(title), tex), tex_name
