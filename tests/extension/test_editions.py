"""Two editions from one source: ``rpg_edition = "designer"`` prints everything, ``"player"`` what players read."""

from __future__ import annotations

import re
import sys
import textwrap
from pathlib import Path

import pytest

from sphinx_rpg.binding import bind
from sphinx_rpg.sybil import rulebook_sybil

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

RULES = '''
"""A tiny game for the edition tests."""
from rules.nodes import Registry

REGISTRY = Registry("editiongame", title="Edition Game", node_types={"E": "Effect", "R": "Resource"})


class SpendError(ValueError):
    pass


@REGISTRY.rule("Ed.Trait.Energy", "Energy", "E,R", formula="Control + 5")
def spend(have: int, cost: int) -> int:
    """Spend Energy; ``None`` is never returned."""
    if cost > have:
        raise SpendError(f"cannot spend {cost}: only {have} left")
    return have - cost
'''

INDEX = """
Book
====

.. toctree::

   rules

.. node:designer::

   .. toctree::

      reference

.. node:def:: Energy
   :uid: Ed.Trait.Energy

   Energy pays for effort.

   >>> rule(3, 1)
   2
   >>> rule(1, 3)
   Traceback (most recent call last):
   ...
   editions_rules.SpendError: cannot spend 3: only 1 left

   .. node:example:: Spending (constructed)

      A hero with 3 Energy spends 1.

      >>> rule(3, 1)
      2

   .. node:designer::

      Designer note: the cost curve is still being tuned.

      >>> rule(5, 5)
      0

   .. node:player::

      Ask your GM how much Energy your hero starts with.

      >>> rule(2, 2)
      0
"""


@pytest.fixture(autouse=True)
def fresh_binding():
    bind.cache_clear()
    yield
    bind.cache_clear()
    sys.modules.pop("editions_rules", None)


def write_book(root: Path, extra_conf: str = "") -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "editions_rules.py").write_text(RULES)
    (root / "conf.py").write_text(textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(root)!r})
        extensions = ["sphinx_rpg"]
        project = "editions"
        rpg_registries = ["editions_rules:REGISTRY"]
        rpg_designer_pages = ["reference.rst"]
        {extra_conf}
        """))
    (root / "index.rst").write_text(INDEX)
    (root / "rules.rst").write_text("Rules\n=====\n\nSee :node:ref:`Ed.Trait.Energy`.\n")
    (root / "reference.rst").write_text("Engine reference\n================\n\nThe module ``editions_rules``.\n")
    return root


def build(make_app, srcdir: Path, **options):
    app = make_app("html", srcdir=srcdir, **options)
    app.build()
    app.cleanup()
    return app


def body(app, page: str = "index") -> str:
    """The page's main text, tags removed."""
    html = (Path(app.outdir) / f"{page}.html").read_text()
    main = html.split('<div class="body"', 1)[1].split('<div class="sphinxsidebar"', 1)[0]
    return re.sub(r"<[^>]+>", "", main).replace("&gt;", ">")


def warnings_of(app) -> str:
    return re.sub(r"\x1b\[[0-9;]*m", "", app.warning.getvalue())


def test_the_designer_edition_is_the_default_and_prints_examples_engine_paths_and_designer_notes(make_app, tmp_path):
    app = build(make_app, write_book(tmp_path / "book"))
    assert warnings_of(app) == ""
    text = body(app)
    assert ">>> rule(3, 1)" in text and "Traceback (most recent call last)" in text
    assert "editions_rules.spend" in text  # the Rule: fact names the implementation
    assert "Designer note" in text and "Ask your GM" not in text
    assert (Path(app.outdir) / "reference.html").exists()


def test_the_player_edition_drops_example_code_tracebacks_and_engine_paths_but_keeps_the_rules(make_app, tmp_path):
    app = build(make_app, write_book(tmp_path / "book"), confoverrides={"rpg_edition": "player"})
    assert warnings_of(app) == ""
    text = body(app)
    assert ">>>" not in text and "Traceback" not in text and "editions_rules" not in text
    assert "Energy (E,R)" in text and "Energy pays for effort." in text  # heading and prose stay
    assert "Formula:" in text and "Control" in text  # computed facts stay
    assert "A hero with 3 Energy spends 1." in text  # an example's prose stays, its code goes
    assert "Designer note" not in text and "Ask your GM" in text


def test_the_player_edition_leaves_out_designer_pages_without_a_warning(make_app, tmp_path):
    app = build(make_app, write_book(tmp_path / "book"), confoverrides={"rpg_edition": "player"})
    assert warnings_of(app) == ""
    assert not (Path(app.outdir) / "reference.html").exists()
    assert "reference.html" not in (Path(app.outdir) / "index.html").read_text()


def test_a_page_written_for_designers_is_not_named_under_a_node_in_the_player_edition(make_app, tmp_path):
    """A player's "Referenced by" line lists the rules that use a node, not the manual pages that show it."""
    src = write_book(tmp_path / "book", extra_conf='rpg_designer_text = ["manual.rst"]')
    (src / "manual.rst").write_text(":orphan:\n\nMarkup manual\n=============\n\nFor example :node:ref:`Ed.Trait.Energy`.\n")

    def referrers(app) -> list[str]:
        line = re.search(r'<p class="rpg-backlinks no-search">(.*?)</p>', (Path(app.outdir) / "index.html").read_text())
        assert line is not None
        return re.findall(r'href="([a-z]+)\.html"', line.group(1))

    assert referrers(build(make_app, src)) == ["manual", "rules"]
    player = build(make_app, src, confoverrides={"rpg_edition": "player"})
    assert warnings_of(player) == ""
    assert referrers(player) == ["rules"]
    assert 'href="index.html#' in (Path(player.outdir) / "manual.html").read_text()  # its link still works


def test_an_unknown_edition_warns_and_builds_the_designer_edition(make_app, tmp_path):
    app = build(make_app, write_book(tmp_path / "book"), confoverrides={"rpg_edition": "players"})
    warnings = warnings_of(app)
    assert re.search(r"rpg_edition = 'players': not one of 'designer', 'player'.*\[node\.option\]", warnings)
    assert len(warnings.strip().splitlines()) == 1
    assert ">>> rule(3, 1)" in body(app)


def test_switching_the_edition_rebuilds_every_page(make_app, tmp_path):
    src = write_book(tmp_path / "book")
    designer = build(make_app, src)
    assert ">>>" in body(designer)
    player = build(make_app, src, confoverrides={"rpg_edition": "player"})
    assert ">>>" not in body(player) and "Ask your GM" in body(player)
    again = build(make_app, src)
    assert ">>>" in body(again) and "Ask your GM" not in body(again)


def test_sybil_runs_every_example_whatever_the_edition_shows(tmp_path, monkeypatch):
    src = write_book(tmp_path / "book")
    monkeypatch.syspath_prepend(str(src))
    page = src / "index.rst"
    examples = list(rulebook_sybil(["editions_rules:REGISTRY"], path=src).parse(page))
    prompts = [number for number, line in enumerate(page.read_text().splitlines(), 1) if ">>>" in line]
    assert len(prompts) == 5  # in the node, in its example box, in the designer block, in the player block
    assert [example.line for example in examples] == prompts
    for example in examples:
        example.evaluate()


# -- one unit: an example and the words that introduce it; engine switches are designer-only -------------
PLAY = """
Play
====

Spending Energy costs what the effort is worth.

A constructed example:

>>> rule(3, 1)
2

A penalty caps the best die (``penalty_mode="cap"``); drama decides nothing by itself
(options ``drama_decides``, ``luck``).
"""

LEFT_BEHIND = """
Rest
====

Resting brings Energy back.  A constructed example:

>>> rule(5, 0)
5

Tables that disagree pass ``greater_survives=False`` to ``Settings(...)``.
"""


def write_play(root: Path, *pages: tuple[str, str], extra_conf: str = "") -> Path:
    src = write_book(root, extra_conf)
    (src / "index.rst").write_text(INDEX.replace("   rules\n", "   rules\n" + "".join(f"   {n}\n" for n, _ in pages)))
    for name, text in pages:
        (src / f"{name}.rst").write_text(text)
    return src


def test_an_example_and_the_words_that_introduce_it_leave_the_player_edition_together(make_app, tmp_path):
    src = write_play(tmp_path / "book", ("play", PLAY))
    player = build(make_app, src, confoverrides={"rpg_edition": "player"})
    assert warnings_of(player) == ""
    text = body(player, "play")
    assert "Spending Energy costs" in text and "A constructed example" not in text and ">>>" not in text
    designer = build(make_app, src)
    assert warnings_of(designer) == ""
    assert "A constructed example:" in body(designer, "play")


def test_an_engine_switch_in_parentheses_is_designer_only(make_app, tmp_path):
    src = write_play(tmp_path / "book", ("play", PLAY))
    player = body(build(make_app, src, confoverrides={"rpg_edition": "player"}), "play")
    assert "A penalty caps the best die; drama decides nothing by itself." in " ".join(player.split())
    assert "penalty_mode" not in player and "drama_decides" not in player
    designer = body(build(make_app, src), "play")
    assert 'penalty_mode="cap"' in designer.replace("&quot;", '"') and "drama_decides" in designer


def test_a_lead_in_left_behind_and_an_engine_word_are_located_warnings_in_the_player_edition(make_app, tmp_path):
    src = write_play(tmp_path / "book", ("rest", LEFT_BEHIND))
    warnings = warnings_of(build(make_app, src, confoverrides={"rpg_edition": "player"}))
    lines = warnings.strip().splitlines()
    assert len(lines) == 3, warnings
    assert re.search(r"rest\.rst:5: WARNING: a paragraph ends in ':' with nothing after it: "
                     r"'Resting brings Energy back\.  ?A constructed example:'.*\[node\.edition\]", lines[0]), warnings
    assert re.search(r"rest\.rst:10: WARNING: the player edition names the engine \(greater_survives=F\)"
                     r".*\[node\.edition\]", lines[1]), warnings
    assert re.search(r"rest\.rst:10: WARNING: the player edition names the engine \(Settings\(\)", lines[2]), warnings
    # the designer edition prints the example after its lead-in, and its engine words are for designers
    assert warnings_of(build(make_app, src)) == ""


def test_pages_written_for_designers_are_not_checked(make_app, tmp_path):
    src = write_play(tmp_path / "book", ("rest", LEFT_BEHIND), extra_conf='rpg_designer_text = ["rest.rst"]')
    assert warnings_of(build(make_app, src, confoverrides={"rpg_edition": "player"})) == ""


def test_a_dangling_lead_in_is_reported_in_the_designer_edition_too(make_app, tmp_path):
    src = write_play(tmp_path / "book", ("end", "End\n===\n\nThe examples on this page share these imports:\n"))
    assert "[node.edition]" in warnings_of(build(make_app, src))


def test_a_lead_in_ends_in_a_colon_whatever_inline_markup_carries_its_last_words():
    """The lead-in test reads a paragraph's last visible words, which give the same answer as its whole text."""
    from docutils import nodes

    from sphinx_rpg.player_text import ends_in_colon

    def paragraph(*children: nodes.Node) -> nodes.paragraph:
        return nodes.paragraph("", "", *children)

    cases = [
        paragraph(nodes.Text("Roll these:")),
        paragraph(nodes.Text("Roll "), nodes.strong("", "these:"), nodes.Text("  \n")),
        paragraph(nodes.Text("Roll these:"), nodes.inline("", ""), nodes.Text(" ")),
        paragraph(nodes.Text("Roll: "), nodes.emphasis("", "these")),
        paragraph(nodes.Text("Roll these"), nodes.reference("", "", nodes.inline("", "link:"))),
        paragraph(nodes.Text("   ")),
        paragraph(),
    ]
    for case in cases:
        assert ends_in_colon(case) == case.astext().rstrip().endswith(":"), case.pformat()
    assert [ends_in_colon(case) for case in cases] == [True, True, True, False, True, False, False]
