"""Reader aids on every node: the type legend, "Referenced by" backlinks, hover-preview data, search rank."""

from __future__ import annotations

import json
import re
import sys
import textwrap
from pathlib import Path

import pytest

from sphinx_rpg.binding import bind
from tests.extension.conftest import build_fresh

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

PAGES = 8  # Sphinx only reads in parallel when more than five documents are outdated

RULES = '''
from rules.nodes import Registry

REGISTRY = Registry("aidgame", title="Aid Game", node_types={"E": "Effect", "RU": "Rule", "Attr": "Attribute"})
REGISTRY.define("Aid.Rule.Pool", "Pool", "RU", summary="The die a node adds, or ``None`` if it adds none.")
'''


@pytest.fixture(autouse=True)
def fresh_binding():
    bind.cache_clear()
    yield
    bind.cache_clear()
    sys.modules.pop("aid_rules", None)


def write_book(root: Path) -> Path:
    """PAGES pages of two nodes each; page n refers to page n+1's first node; page 0 also to page 2's."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "aid_rules.py").write_text(RULES)
    (root / "conf.py").write_text(textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(root)!r})
        extensions = ["sphinx_rpg"]
        project = "aids"
        rpg_registries = ["aid_rules:REGISTRY"]
        suppress_warnings = ["node.unbound"]  # the Book.* nodes are prose only
        """))
    toctree = "\n".join(f"   page{n}" for n in range(PAGES))
    (root / "index.rst").write_text(f"Book\n====\n\n.. toctree::\n\n{toctree}\n\n"
                                    ".. node:legend::\n\n.. node:list::\n   :columns: name, summary\n\n"
                                    ".. node:def:: Pool\n   :uid: Aid.Rule.Pool\n\n   Roll it.\n")
    for n in range(PAGES):
        following = (n + 1) % PAGES
        extra = " and :node:ref:`Book.Page2.Thing0`" if n == 0 else ""
        (root / f"page{n}.rst").write_text(
            f"Page {n}\n=======\n\n"
            f".. node:def:: Thing {n}-0\n   :uid: Book.Page{n}.Thing0\n   :type: E\n\n"
            f"   Thing zero of page {n}. It matters.\n\n"
            f".. node:def:: Thing {n}-1\n   :uid: Book.Page{n}.Thing1\n   :type: E\n\n"
            f"   Thing one refers to its sibling :node:ref:`Book.Page{n}.Thing0`.\n\n"
            f"See :node:ref:`Book.Page{following}.Thing0`{extra}.\n")
    return root


@pytest.fixture(scope="module")
def book_app(tmp_path_factory: pytest.TempPathFactory):
    """The book of ``write_book`` built once (html, a fresh environment, as ``build`` builds it), shared by
    the tests that only read what it made; a test that edits the book or builds it otherwise makes its own."""
    return build_fresh(write_book(tmp_path_factory.mktemp("aids") / "book"), "aid_rules")


def clean(text: str) -> str:
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def backlinks(app, page: str, uid: str) -> list[str]:
    """The pages (hrefs) the "Referenced by" line of node ``uid`` on ``page`` links to."""
    html = (Path(app.outdir) / f"{page}.html").read_text()
    section = html.split(f'id="{uid}"', 1)[1]
    section = re.split(r'<section id=|<div class="toctree', section, maxsplit=1)[0]
    line = re.search(r'<p class="rpg-backlinks[^"]*">(.*?)</p>', section, re.S)
    return re.findall(r'href="([^"]+)"', line.group(1)) if line else []


def test_the_legend_explains_every_type_code_of_the_book_from_its_registry(book_app):
    app = book_app
    html = (Path(app.outdir) / "index.html").read_text()
    legend = html.split('class="rpg-legend', 1)[1].split("</table>", 1)[0]
    assert "Node types of Aid Game" in legend
    rows = re.findall(r'<span class="pre">([^<]+)</span></code></p></td>\s*<td><p>([^<]+)</p>', legend)
    assert rows == [("E", "Effect"), ("RU", "Rule"), ("Attr", "Attribute")]


def test_a_legend_naming_an_unknown_system_warns(build, tmp_path):
    src = write_book(tmp_path / "book")
    (src / "index.rst").write_text((src / "index.rst").read_text().replace(".. node:legend::", ".. node:legend:: nemron"))
    app = build(src)
    assert re.search(r"index\.rst:\d+: WARNING: node:legend: no configured registry has the system 'nemron' "
                     r"\(known: aidgame\) \[node\.option\]", clean(app.warning.getvalue()))


def test_a_node_lists_the_other_pages_that_refer_to_it(book_app):
    app = book_app
    assert clean(app.warning.getvalue()) == ""
    assert backlinks(app, "page2", "Book.Page2.Thing0") == ["page0.html", "page1.html"]
    assert backlinks(app, "page1", "Book.Page1.Thing1") == []  # only its own page refers to it


def test_backlinks_are_not_searched_a_page_does_not_match_the_titles_of_pages_referring_to_it(build, tmp_path):
    src = write_book(tmp_path / "book")
    page3 = src / "page3.rst"
    page3.write_text(page3.read_text().replace("Page 3\n=======\n", "Page 3 Quokka\n==============\n"))
    app = build(src)
    outdir = Path(app.outdir)
    assert "Quokka" in (outdir / "page4.html").read_text()  # page 3 refers to page 4's first node
    text = (outdir / "searchindex.js").read_text()
    index = json.loads(text[text.index("(") + 1:text.rindex(")")])
    found = set()
    for key in ("terms", "titleterms"):
        docs = index[key].get("quokka", [])
        found |= {index["docnames"][doc] for doc in (docs if isinstance(docs, list) else [docs])}
    assert "page3" in found and "page4" not in found


def test_a_backlink_is_written_as_the_html_writer_writes_a_link_to_a_page(build, tmp_path):
    """The line is written as HTML directly (cheaper than reference nodes): the same markup and escapes."""
    src = write_book(tmp_path / "book")
    page3 = src / "page3.rst"
    title = 'Q&A <3 "me" @home'
    page3.write_text(page3.read_text().replace("Page 3\n=======\n", f"{title}\n{'=' * len(title)}\n"))
    app = build(src)
    html = (Path(app.outdir) / "page4.html").read_text()
    assert ('<p class="rpg-backlinks no-search"><strong>Referenced by:</strong> <a class="reference internal" '
            'href="page3.html"><span class="doc">Q&amp;A &lt;3 “me” &#64;home</span></a></p>') in html


def test_backlinks_are_the_same_in_a_parallel_build(build, tmp_path, book_app):
    serial = book_app
    parallel = build(write_book(tmp_path / "parallel"), parallel=2)
    assert parallel.parallel == 2
    for page in range(PAGES):
        uid = f"Book.Page{page}.Thing0"
        assert backlinks(parallel, f"page{page}", uid) == backlinks(serial, f"page{page}", uid) != []


def test_backlinks_on_an_unchanged_page_follow_references_added_and_removed_elsewhere(build, tmp_path, touch):
    src = write_book(tmp_path / "book")
    build(src)
    page5 = src / "page5.rst"
    page5.write_text(page5.read_text() + "\nAlso :node:ref:`Book.Page2.Thing1`.\n")
    touch(page5)
    app = build(src, parallel=2)
    assert backlinks(app, "page2", "Book.Page2.Thing1") == ["page5.html"]
    page0 = src / "page0.rst"
    page0.write_text(page0.read_text().replace(" and :node:ref:`Book.Page2.Thing0`", ""))
    touch(page0)
    app = build(src)
    assert backlinks(app, "page2", "Book.Page2.Thing0") == ["page1.html"]
    assert backlinks(app, "page2", "Book.Page2.Thing1") == ["page5.html"]


def test_backlinks_on_an_unchanged_page_follow_a_referring_pages_new_title(build, tmp_path, touch):
    src = write_book(tmp_path / "book")
    build(src)
    page3 = src / "page3.rst"
    page3.write_text(page3.read_text().replace("Page 3\n=======\n", "Page Three Renamed\n==================\n"))
    touch(page3)
    app = build(src)
    assert "Page Three Renamed</span></a>" in (Path(app.outdir) / "page4.html").read_text()  # page 4 was not edited


def test_previews_give_each_node_its_title_types_first_sentence_and_first_paragraph(book_app):
    app = book_app
    previews = json.loads((Path(app.outdir) / "rpg-previews.json").read_text())["nodes"]
    assert previews["page3.html#Book.Page3.Thing0"] == {"title": "Thing 3-0 (E)", "types": "Effect",
                                                         "text": "Thing zero of page 3.",
                                                         "lead": [["", "Thing zero of page 3. It matters."]]}
    assert len(previews) == 2 * PAGES + 1
    html = (Path(app.outdir) / "page2.html").read_text()
    assert 'src="_static/sphinx_rpg_previews.js' in html
    # every node link on a page points at a URL the previews know
    for href in re.findall(r'<a class="reference internal" href="([^"]+)"[^>]*><span class="rpg-node-ref', html):
        target = href if href.startswith("page") else "page2.html" + href
        assert target in previews


def test_a_node_definition_is_the_main_index_entry_of_its_name(book_app):
    """A node is the main (bold) entry of its name in the general index, and for the search an important object
    (priority 0): the search page lists it once and first (its index entry stays out of the search index)."""
    app = book_app
    index = (Path(app.outdir) / "searchindex.js").read_text()
    data = json.loads(index[index.index("(") + 1:index.rindex(")")])
    assert "thing 3-0 (e)" not in data["indexentries"]  # the search finds the node as its object, once
    genindex = (Path(app.outdir) / "genindex.html").read_text()
    assert '<a href="page3.html#Book.Page3.Thing0"><strong>Thing 3-0 (E)</strong></a>' in genindex  # main: bold
    objects = [entry for entries in data["objects"].values() for entry in entries]
    assert [entry[2] for entry in objects if entry[3] == "book-page3-thing0"] == [0]  # priority 0: "important"


def search_nodes(app) -> dict:
    """What the search page knows of the nodes (``var RPG_SEARCH = {...};``, see sphinx_rpg/search.py)."""
    html = (Path(app.outdir) / "search.html").read_text()
    files = list((Path(app.outdir) / "_static").glob("sphinx_rpg_search_data.*.js"))
    assert len(files) == 1 and f'src="_static/{files[0].name}?v=' in html  # one file, and the page loads it
    text = files[0].read_text()
    assert text.startswith("var RPG_SEARCH = ") and text.endswith(";\n")
    return json.loads(text[len("var RPG_SEARCH = "):-2])


def test_the_search_page_names_each_nodes_book_type_and_page(book_app):
    app = book_app
    data = search_nodes(app)
    assert len(data["nodes"]) == 2 * PAGES + 1
    name, book, types, page, sentence, anchors = data["nodes"]["Book.Page3.Thing0"]
    assert (name, types, page, sentence) == ("Thing 3-0", "effect", "Page 3", "Thing zero of page 3.")
    assert book == "aids"  # bound by no registry: the project's name
    assert data["nodes"]["Aid.Rule.Pool"][1:3] == ["Aid Game", "rule"]  # bound: the registry's title
    # a reference in the first sentence reads as the node's name, never as its uid
    assert data["nodes"]["Book.Page3.Thing1"][4] == "Thing one refers to its sibling Thing 3-0."
    # every anchor a search result may carry leads back to the node: its own and its lowercase alias
    assert anchors == ["page3#Book.Page3.Thing0", "page3#book-page3-thing0"]
    assert data["pages"]["page3"] == "aids" and data["pages"]["index"] == "Aid Game"  # a page's book: its first node's
    assert "sphinx_rpg_search.js" in (Path(app.outdir) / "search.html").read_text()
    assert "sphinx_rpg_search.js" not in (Path(app.outdir) / "page3.html").read_text()  # the search page only


def test_an_incremental_build_keeps_every_node_findable(build, tmp_path, touch):
    """The nodes are search objects (from the domain, whole on every build), not only index entries."""
    src = write_book(tmp_path / "book")
    build(src)
    page5 = src / "page5.rst"
    page5.write_text(page5.read_text() + "\nOne more sentence.\n")
    touch(page5)
    app = build(src)
    index = (Path(app.outdir) / "searchindex.js").read_text()
    data = json.loads(index[index.index("(") + 1:index.rindex(")")])
    objects = [entry for entries in data["objects"].values() for entry in entries]
    assert len([entry for entry in objects if entry[2] == 0]) == 2 * PAGES + 1
    assert len(search_nodes(app)["nodes"]) == 2 * PAGES + 1


def test_a_nodes_types_read_as_words():
    from sphinx_rpg.entries import type_words
    assert [type_words(names) for names in [(), ("Effect",), ("Effect", "Resource"), ("A", "B", "C")]] == [
        "", "effect", "effect and resource", "a, b and c"]


def test_listing_summaries_render_their_docstring_markup(book_app):
    app = book_app
    html = (Path(app.outdir) / "index.html").read_text()
    assert "``None``" not in html
    assert 'or <code class="docutils literal notranslate"><span class="pre">None</span></code> if it adds none' in html


def test_a_pdf_names_a_referring_page_it_leaves_out_by_its_title_without_a_link(build, tmp_path):
    src = write_book(tmp_path / "book")
    conf = src / "conf.py"
    # two PDFs: page 2's nodes are referred to from pages 0 and 1, which only the first PDF holds
    conf.write_text(conf.read_text() + '\nlatex_documents = [("index", "whole.tex", "Whole", "me", "manual"), '
                    '("page2", "two.tex", "Two", "me", "howto")]\n')
    app = build(src, builder="latex")
    assert "Traceback" not in clean(app.warning.getvalue())
    two = (Path(app.outdir) / "two.tex").read_text()
    line = two[two.index("Referenced by:"):][:400]
    assert "Page 0" in line and "Page 1" in line and "page0::doc" not in line


def test_backlinks_are_printed_in_the_pdf_too(build, tmp_path):
    """LaTeX resolves one doctree assembled from every page: each node still finds its own page."""
    app = build(write_book(tmp_path / "book"), builder="latex")
    tex = next(Path(app.outdir).glob("*.tex")).read_text()
    assert tex.count("Referenced by:") == PAGES  # one line under each Thing0 (page 2's lists two pages)
    assert "\\sphinxstylestrong{Referenced by:} {\\hyperref[\\detokenize{page0::doc}]" in tex  # page 1's Thing0


def test_a_preview_paragraph_keeps_emphasis_and_code_and_marks_node_references_and_is_cut_at_a_word():
    from docutils import nodes
    from sphinx.addnodes import pending_xref

    from sphinx_rpg.inline import MAX_LEAD, first_paragraph_runs

    ref = pending_xref("", nodes.inline("Book.Thing", "Book.Thing"), refdomain="node", reftarget="Book.Thing")
    paragraph = nodes.paragraph("", "", nodes.Text("Roll\n"), nodes.emphasis("", "two"), nodes.Text(" dice ("),
                                nodes.literal("", "2d6"), nodes.Text("), then see "), ref, nodes.Text("."))
    assert first_paragraph_runs(nodes.container("", paragraph)) == [
        ["", "Roll "], ["em", "two"], ["", " dice ("], ["code", "2d6"], ["", "), then see "], ["ref", "Book.Thing"],
        ["", "."]]
    long = nodes.paragraph("", "word " * 200)
    runs = first_paragraph_runs(nodes.container("", long))
    assert runs is not None
    assert len(runs[0][1]) <= MAX_LEAD + 1 and runs[0][1].endswith("word\u2026")


@pytest.mark.parametrize("edit, made", [
    (lambda text: text + "\nOne more sentence.\n", False),  # prose only: last build's data is kept
    (lambda text: text.replace("Page 5\n=======\n", "Page Five\n=========\n"), True),  # its page title
    (lambda text: text.replace(".. node:def:: Thing 5-0", ".. node:def:: Thing Five"), True),  # a node's name
])
def test_the_search_data_is_made_again_only_when_a_node_or_a_page_title_changed(edit, made, build, tmp_path,
                                                                                 touch, monkeypatch):
    from sphinx_rpg import search

    src = write_book(tmp_path / "book")
    build(src)
    page5 = src / "page5.rst"
    page5.write_text(edit(page5.read_text()))
    touch(page5)
    calls = []
    real = search.search_data
    monkeypatch.setattr(search, "search_data", lambda app: calls.append(1) or real(app))
    app = build(src)
    assert bool(calls) == made
    clean = build(_copy_edit(src, tmp_path / "clean"))
    assert search_nodes(app) == search_nodes(clean)


def _copy_edit(src: Path, clean: Path) -> Path:
    """The edited book, copied without its build."""
    import shutil

    return Path(shutil.copytree(src, clean, ignore=shutil.ignore_patterns("_build")))
