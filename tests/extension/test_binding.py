"""The executable rulebook: nodes bound to rule objects, facts and values from code, coverage, tables,
listings and nodes.json."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import jsonschema
import pytest

from sphinx_rpg.binding import bind
from sphinx_rpg.export import SCHEMA_PATH

# each build imports the test root's rule module afresh (conftest.py: fresh_registries)
pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning"),
              pytest.mark.usefixtures("fresh_registries")]


def warnings_of(app) -> list[tuple[str, int | None, str]]:
    """(file name, line, subtype) of every node.* warning."""
    found = []
    for line in re.sub(r"\x1b\[[0-9;]*m", "", app.warning.getvalue()).splitlines():
        match = re.search(r"(?:([\w.]+?):(\d+): )?WARNING: .*\[node\.(\w+)\]$", line)
        if match:
            found.append((match.group(1), int(match.group(2)) if match.group(2) else None, match.group(3)))
    return found


def page(app, docname: str) -> str:
    return (Path(app.outdir) / f"{docname}.html").read_text(encoding="utf-8")


def test_a_bound_node_takes_its_type_from_the_rule_object(built):
    app = built("bound")
    assert "<h2>Energy (E,R)" in page(app, "index")
    assert app.env.get_domain("node").record("Bound.Trait.Energy").bound


def test_a_declared_type_that_disagrees_with_the_rule_object_warns(built):
    app = built("bound")
    assert ("index.rst", 13, "type_mismatch") in warnings_of(app)
    assert "<h2>Power (A)" in page(app, "index")  # the engine's type wins


def test_a_formula_quoted_in_running_text_is_typeset_as_its_formula_fact_is(built):
    """``:node:value:`uid:formula``` shows what the Formula fact shows (× for *, fractions drawn), not
    the engine's source text."""
    app = built("bound")
    html = page(app, "index")
    fact = re.search(r'<span class="rpg-formula">.*?</span>(?=</p>)', html).group(0)
    assert f'Maximum energy is <span class="rpg-value">{fact}</span> (base' in html


def test_facts_are_rendered_from_the_rule_object(built):
    app = built("bound")
    html = page(app, "index")
    assert formula_text(html) == ["Control + Sense + Focus + 5"]  # the formula, typeset as HTML text
    assert "Ranks" in html and "0–4" in html  # Power's rank range
    assert "bound_rules.power_die" in html  # link text to the implementation


def formula_text(html: str) -> list[str]:
    """The text of each typeset formula of a page (its spans' text, tags stripped)."""
    found = re.findall(r'<span class="rpg-formula">(.*?)</span>(?=</p>)', html)
    return [re.sub(r"<[^>]+>", "", formula) for formula in found]


def test_a_formula_needs_no_mathjax_in_html(built):
    """Formulas are HTML text: names upright as words, no TeX source, no MathJax script on the page."""
    app = built("bound")
    html = page(app, "index")
    assert '<span class="rpg-var rpg-word">Control</span><span class="rpg-op"> + </span>' in html
    assert r"\(" not in html and r"\mathrm" not in html
    assert "mathjax" not in html.lower()


def test_a_formula_is_typeset_as_latex_maths_in_print(built):
    app = built("bound", "latex")
    tex = next(Path(app.outdir).glob("*.tex")).read_text(encoding="utf-8")
    assert r"\(\text{Control} + \text{Sense} + \text{Focus} + 5\)" in tex
    assert "rpg-formula" not in tex


def test_coverage_reports_unbound_definitions_and_undocumented_rules(built):
    app = built("bound")
    warnings = warnings_of(app)
    assert ("index.rst", 17, "unbound") in warnings  # Bound.Trait.Stray has no rule object
    undocumented = [w for w in warnings if w[2] == "undocumented"]
    assert len(undocumented) == 1 and undocumented[0][0] == "bound_rules.py"
    assert "Bound.Trait.Unwritten" in app.warning.getvalue()


@pytest.mark.sphinx("html", testroot="bound", freshenv=True, confoverrides={"suppress_warnings": ["node.unbound",
                                                                                    "node.undocumented"]})
def test_coverage_warnings_can_be_silenced(app):
    app.build()
    assert not [w for w in warnings_of(app) if w[2] in ("unbound", "undocumented")]


def test_node_value_quotes_the_engine_in_running_text(built):
    app = built("bound")
    html = page(app, "index")
    assert '(base <span class="rpg-value">5</span>)' in html
    value_warnings = [w for w in warnings_of(app) if w[2] == "value"]
    assert [(w[0], w[1]) for w in value_warnings] == [("index.rst", 21), ("index.rst", 21)]


def test_node_table_renders_an_engine_table_with_exact_percentages(built):
    app = built("bound")
    html = page(app, "index")
    assert "<p>Coin flips</p>" in html or "Coin flips" in html
    assert "87.5% (7/8)" in html and "12.5% (1/8)" in html and "<p>100%</p>" in html


def test_node_table_only_shows_tables_a_registry_publishes(built):
    app = built("bound")
    assert ("index.rst", 27, "table") in warnings_of(app)
    assert "no table 'getcwd' is published by 'os'" in app.warning.getvalue()


def test_node_odds_renders_exact_odds_of_dice_notation(built):
    app = built("bound")
    html = page(app, "index")
    # 2d6: P(>=2) = 1, P(>=3) = 35/36, P(>=4) = 33/36
    assert "<p>97.2%</p>" in html and "<p>91.7%</p>" in html


def test_listings_are_filtered_and_link_to_their_nodes(built):
    app = built("bound")
    html = page(app, "listing")
    table = html[html.index('<table class="rpg-listing'):]
    table = table[:table.index("</table>")]
    assert "Energy (E,R)" in table and "Fuel for abilities." in table and "Power" not in table
    assert 'href="index.html#Bound.Trait.Energy"' in table
    assert "No nodes match." in html


def test_card_grid_uses_sphinx_design_cards_in_html(built):
    app = built("bound")
    html = page(app, "listing")
    cards = html[html.index("rpg-cards"):]
    assert "sd-card" in cards and 'href="index.html#Bound.Attribute.Power"' in cards
    assert 'href="index.html#Bound.Trait.Energy"' in cards  # type R


def test_card_grid_without_sphinx_design_is_a_table_and_says_so(built):
    app = built("bound", extensions=["sphinx_rpg"])
    html = page(app, "listing")
    assert "sd-card" not in html and "sphinx_design" not in app.extensions  # not loaded behind the book's back
    assert html.count('<table class="rpg-listing') == 3 and 'href="index.html#Bound.Attribute.Power"' in html
    assert ("listing.rst", 9, "markup") in warnings_of(app)
    assert "node:cards: cards need 'sphinx_design' in extensions; shown as a table" in app.warning.getvalue()


def test_a_book_without_sphinx_design_gets_none_of_its_files_or_links(built):
    app = built("bound", extensions=["sphinx_rpg"])
    static = {path.name for path in (Path(app.outdir) / "_static").iterdir()}
    assert "sphinx_rpg.css" in static and not static & {"sphinx-design.min.css", "design-tabs.js"}
    assert "sphinx-design" not in page(app, "index") and "design-tabs" not in page(app, "index")


def test_card_grid_falls_back_to_a_plain_table_in_latex(built):
    app = built("bound", "latex")
    tex = (Path(app.outdir) / "bound.tex").read_text()
    assert "sd-card" not in tex and "Power (A)" in tex


def test_nodes_json_is_written_and_matches_its_schema(built):
    app = built("bound")
    document = json.loads((Path(app.outdir) / "nodes.json").read_text())
    jsonschema.validate(document, json.loads(SCHEMA_PATH.read_text()))
    energy = next(n for n in document["nodes"] if n["uid"] == "Bound.Trait.Energy")
    assert energy["url"] == "index.html#Bound.Trait.Energy"
    assert energy["system"] == "boundgame" and energy["rule"] == "bound_rules"
    assert {"label": "Formula", "text": "Control + Sense + Focus + 5",
            "latex": r"\mathrm{Control} + \mathrm{Sense} + \mathrm{Focus} + 5"} in energy["facts"]


@pytest.mark.sphinx("nodes_json", testroot="bound", freshenv=True)
def test_the_nodes_json_builder_writes_only_the_catalogue(app):
    app.build()
    assert sorted(p.name for p in Path(app.outdir).iterdir()) == ["nodes.json"]


def _edit_and_rebuild(app, build, edit, filename: str, old: str, new: str):
    """Build, edit one file of the project (as a user would, later in time), and build again."""
    app.build()
    app.cleanup()
    edit(Path(app.srcdir) / filename, old, new)
    bind.cache_clear()  # a new sphinx-build process imports the rule module afresh
    sys.modules.pop("bound_rules", None)
    return build(Path(app.srcdir))


@pytest.mark.sphinx("html", testroot="bound", freshenv=True, srcdir="bound-module-edit")
def test_editing_a_rule_module_rebuilds_the_pages_that_use_it(app, build, edit):
    again = _edit_and_rebuild(app, build, edit, "bound_rules.py", 'values={"base": 5}', 'values={"base": 7}')
    assert "1 changed" in again.status.getvalue()  # the page was re-read because its rule changed
    assert '(base <span class="rpg-value">7</span>)' in page(again, "index")


@pytest.mark.sphinx("html", testroot="bound", freshenv=True, srcdir="bound-rename")
def test_listings_follow_a_node_renamed_on_another_page(app, build, edit):
    again = _edit_and_rebuild(app, build, edit, "index.rst", ".. node:def:: Energy\n", ".. node:def:: Vigour\n")
    listing = page(again, "listing")
    assert "Vigour (E,R)" in listing and "Energy (E,R)" not in listing


@pytest.mark.sphinx("html", testroot="bound", freshenv=True)
def test_captioned_listings_and_named_examples_build_cleanly(app, warning_text):
    app.build()
    text = warning_text(app)
    assert "listing.rst" not in text  # no "IDs not assigned", no option glued into a title
    html = page(app, "listing")
    assert "Traits of the bound game" in html
    assert '<div class="rpg-example extra admonition" id="named-example">' in html
    assert "<p class=\"admonition-title\">Example: Named box</p>" in html


def test_code_columns_render_verbatim_without_typographic_quotes(make_app, tmp_path):
    (tmp_path / "conf.py").write_text("extensions = ['sphinx_rpg']\n")
    (tmp_path / "index.rst").write_text("Settings\n========\n\n.. node:table:: sphinx_rpg:config_table\n")
    app = make_app("html", srcdir=tmp_path)
    app.build()
    html = (Path(app.outdir) / "index.html").read_text()
    assert "<span class=\"pre\">'{name}</span> <span class=\"pre\">({types})'</span>" in html
    assert "\u2018{name}" not in html
