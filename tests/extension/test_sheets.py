"""node:sheet: a character sheet laid out from the registry, live in HTML and blank on paper."""

from __future__ import annotations

import importlib.util
import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from rules.formula import Formula
from rules.nodes import Node, Registry
from rules.budgets import CAP, BudgetError, budget_message, budget_of, budget_values, cap_message, cap_values, spent_message
from sphinx_rpg.sheets import _script, budget_messages, build_sheet, evaluate_sheet, show_number

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

RULES = Path(__file__).parent / "roots" / "sheet-rules" / "tiny_sheet_rules.py"
SHEET = """.. node:sheet::
   :system: tinysheet
   :inputs: type == "A"
   :derived: type == "R"
   :caption: Tiny hero
"""
PAGES = {
    "index.rst": "Tiny\n====\n\n.. toctree::\n\n   traits\n   sheet\n",
    "traits.rst": "Traits\n======\n\n" + "".join(
        f".. node:def:: {uid.rpartition('.')[2]}\n   :uid: {uid}\n\n"
        for uid in ("Tiny.Attr.Grit", "Tiny.Attr.Wit", "Tiny.Res.Stamina", "Tiny.Res.Focus", "Tiny.Rule.Pace",
                    "Tiny.Loop.Ebb", "Tiny.Loop.Flow", "Tiny.Rule.Build", "Tiny.Rule.Odd")),
    "sheet.rst": "Sheet\n=====\n\n" + SHEET,
}


def registry() -> Registry:
    spec = importlib.util.spec_from_file_location("tiny_sheet_rules_for_tests", RULES)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    found = module.REGISTRY
    assert isinstance(found, Registry)
    return found


@pytest.fixture
def book(tmp_path) -> Path:
    src = tmp_path / "book"
    src.mkdir()
    (src / "tiny_sheet_rules.py").write_text(RULES.read_text())
    (src / "conf.py").write_text("import sys, pathlib\nsys.path.insert(0, str(pathlib.Path(__file__).parent))\n"
                                 'extensions = ["sphinx_rpg"]\nrpg_registries = ["tiny_sheet_rules:REGISTRY"]\n'
                                 'suppress_warnings = ["node.undocumented"]  # Luck is on no page\n')
    for name, text in PAGES.items():
        (src / name).write_text(text)
    return src



# -- the sheet as data ---------------------------------------------------------------------------------
def test_inputs_are_the_nodes_the_inputs_filter_selects_with_their_rank_bounds():
    sheet = build_sheet(registry(), 'type == "A"', 'type == "R"')
    inputs = [(f.key, f.minimum, f.maximum) for f in sheet.fields if f.kind == "input"]
    assert inputs == [("Tiny.Attr.Grit", 0, 4), ("Tiny.Attr.Wit", 0, 4)]


def test_a_formula_name_that_is_no_field_becomes_a_parameter_labelled_in_words():
    sheet = build_sheet(registry(), 'type == "A"', 'type == "R"')
    assert [(f.key, f.label) for f in sheet.fields if f.kind == "parameter"] == [("$hero_level", "hero level")]



def test_derived_values_are_the_selected_nodes_with_a_formula_each_after_what_it_reads():
    sheet = build_sheet(registry(), 'type == "A"', 'type == "R"')
    derived = [f for f in sheet.fields if f.kind == "derived"]
    assert [f.key for f in derived] == ["Tiny.Res.Stamina", "Tiny.Res.Focus"]  # Luck has no formula
    assert derived[1].variables == {"Stamina": "Tiny.Res.Stamina", "Wit": "Tiny.Attr.Wit"}


def test_a_node_selected_as_input_is_not_also_derived():
    sheet = build_sheet(registry(), 'uid == "Tiny.Res.Stamina"', 'type == "R"')
    assert [(f.key, f.kind) for f in sheet.fields] == [("Tiny.Res.Stamina", "input"), ("Tiny.Attr.Wit", "parameter"),
                                                       ("Tiny.Res.Focus", "derived")]


def test_formulas_that_read_each_other_in_a_circle_are_reported_and_left_off():
    sheet = build_sheet(registry(), "", 'namespace == "Tiny.Loop"')
    assert not [f for f in sheet.fields if f.kind == "derived"]
    assert len(sheet.problems) == 2 and all("circle" in p for p in sheet.problems)


def test_the_sheet_computes_every_derived_value_with_the_engines_formula():
    rules = registry()
    sheet = build_sheet(rules, 'type == "A"', 'type == "R"')
    values = evaluate_sheet(sheet, rules, {"Tiny.Attr.Grit": 3, "Tiny.Attr.Wit": 2, "$hero_level": 1})
    stamina = rules["Tiny.Res.Stamina"].formula
    assert isinstance(stamina, Formula)
    assert values["Tiny.Res.Stamina"] == stamina(Grit=3, Wit=2, hero_level=1)
    assert values["Tiny.Res.Focus"] == (values["Tiny.Res.Stamina"] + 2) // 2


def test_the_sheet_data_carries_each_formula_as_the_engines_parsed_tree():
    rules = registry()
    data = build_sheet(rules, 'type == "A"', 'type == "R"').data(rules)
    focus = next(f for f in data["fields"] if f["key"] == "Tiny.Res.Focus")
    assert focus["tree"] == Formula("floor((Stamina + Wit) / 2)").tree()
    assert json.loads(json.dumps(data)) == data


def test_values_are_shown_as_whole_numbers_or_exact_fractions():
    assert [show_number(v) for v in (7, -3, Fraction(7, 2), Fraction(-1, 3))] == ["7", "-3", "7/2", "-1/3"]


def test_no_label_can_close_the_data_script_early():
    script = _script(json.dumps({"label": "</script><script>alert(1)</script>"}))
    assert script.count("</script>") == 1 and script.endswith("</script>")


# -- the sheet in the book ---------------------------------------------------------------------------
def test_the_html_sheet_has_a_number_box_per_input_and_an_output_per_derived_value(build, book):
    app = build(book)
    assert app.warning.getvalue() == ""
    html = (Path(app.outdir) / "sheet.html").read_text()
    boxes = re.findall(r'<input type="number" class="rpg-sheet-input"[^>]*data-key="([^"]+)"[^>]*>', html)
    assert boxes == ["Tiny.Attr.Grit", "Tiny.Attr.Wit", "$hero_level"]
    assert re.search(r'data-key="Tiny.Attr.Grit"[^>]*min="0" max="4"', html)
    assert re.findall(r'<output class="rpg-sheet-value"[^>]*data-key="([^"]+)"', html) == [
        "Tiny.Res.Stamina", "Tiny.Res.Focus"]
    data = json.loads(re.search(r'<script type="application/json" class="rpg-sheet-data">(.*?)</script>',
                                html, re.S).group(1))
    assert data["system"] == "tinysheet" and len(data["fields"]) == 5


def test_each_sheet_label_links_to_its_node(build, book):
    app = build(book)
    html = (Path(app.outdir) / "sheet.html").read_text()
    links = set(re.findall(r'<a class="reference internal" href="(traits.html#[^"]+)"', html))
    assert links == {"traits.html#Tiny.Attr.Grit", "traits.html#Tiny.Attr.Wit", "traits.html#Tiny.Res.Stamina",
                     "traits.html#Tiny.Res.Focus"}
    assert re.search(r"<td><p>hero level</p></td>", html)  # a parameter that is no node: a plain label


def test_a_derived_value_s_rule_cell_reads_as_the_book_sets_maths_with_the_fields_names(build, book):
    """The Rule column shows the one typeset form of a formula (× and fraction bars, never the engine's
    ``*`` or ``floor(``), and a parameter that is no node reads as words ("hero level")."""
    app = build(book)
    html = (Path(app.outdir) / "sheet.html").read_text()
    rows = re.findall(r'<tr class="rpg-sheet-derived[^"]*">(.*?)</tr>', html, re.S)
    rules = [re.sub(r"<[^>]+>", "", row.rpartition("<td>")[2]).strip() for row in rows]
    assert rules == ["= Grit + Wit + hero level", "= \N{LEFT FLOOR}Stamina + Wit/2\N{RIGHT FLOOR}"]


def test_only_a_page_with_a_sheet_loads_the_sheet_script(build, book):
    app = build(book)
    out = Path(app.outdir)
    assert "_static/sheet.js" in (out / "sheet.html").read_text()
    assert "sheet.js" not in (out / "traits.html").read_text()
    assert (out / "_static" / "sheet.js").exists()


def test_in_latex_the_sheet_is_a_blank_table_to_fill_by_hand(build, book):
    app = build(book, builder="latex")
    assert app.warning.getvalue() == ""
    tex = next(Path(app.outdir).glob("*.tex")).read_text()
    assert "Grit" in tex and "Focus" in tex
    # the Rule column as the book sets maths (no engine "floor(" or "/"), each name as its field reads
    assert r"= \(\left\lfloor \frac{\text{Stamina} + \text{Wit}}{2} \right\rfloor\)" in tex
    assert "<input" not in tex and "rpg-sheet-data" not in tex


@pytest.mark.parametrize(("options", "subtype", "message"), [
    (':system: nosuch\n   :inputs: type == "A"', "node.option", "no bound registry has system 'nosuch'"),
    (':system: tinysheet\n   :inputs: type ==', "node.filter", "node:sheet: filter"),
    (':system: tinysheet\n   :inputs: type == "Z"', "node.option", "select no node"),
    (':system: tinysheet\n   :derived: namespace == "Tiny.Loop"', "node.option", "in a circle"),
    (':system: tinysheet\n   :inputs: type == "A"\n   :budgets: uid == "Tiny.Rule.Pace"', "node.option",
     "Tiny.Rule.Pace is no points budget"),
    (':system: tinysheet\n   :inputs: type == "A"\n   :budgets: uid == "Tiny.Rule.Odd"', "node.option",
     "reads 'Nerve', which is no field of the sheet"),
    (':system: tinysheet\n   :inputs: type == "A"\n   :budgets: uid ==', "node.filter", "node:sheet: filter"),
])
def test_a_bad_sheet_is_a_located_typed_warning(build, book, options, subtype, message):
    (book / "sheet.rst").write_text(f"Sheet\n=====\n\n.. node:sheet::\n   {options}\n")
    app = build(book)
    warnings = app.warning.getvalue()
    assert f"[{subtype}]" in warnings and message in warnings and "sheet.rst:4" in warnings


def test_nodes_json_lists_the_sheet_with_its_fields_bounds_and_formulas_and_matches_its_schema(build, book):
    import jsonschema

    from sphinx_rpg.export import SCHEMA_PATH

    app = build(book)
    document = json.loads((Path(app.outdir) / "nodes.json").read_text())
    jsonschema.Draft202012Validator(json.loads(SCHEMA_PATH.read_text())).validate(document)
    (sheet,) = document["sheets"]
    assert (sheet["url"], sheet["caption"], sheet["system"]) == ("sheet.html", "Tiny hero", "tinysheet")
    grit = next(f for f in sheet["fields"] if f["key"] == "Tiny.Attr.Grit")
    assert (grit["min"], grit["max"]) == (0, 4)
    focus = next(f for f in sheet["fields"] if f["key"] == "Tiny.Res.Focus")
    assert focus["tree"] == Formula("floor((Stamina + Wit) / 2)").tree()


def test_the_schema_refuses_a_sheet_formula_that_is_no_formula_tree():
    import jsonschema

    from sphinx_rpg.export import SCHEMA_PATH

    validator = jsonschema.Draft202012Validator(json.loads(SCHEMA_PATH.read_text()))
    field = {"key": "X", "label": "X", "kind": "derived", "group": "g", "uid": None, "min": None, "max": None,
             "tree": ["call", "eval", ["name", "x"]]}
    document = {"schema_version": 2, "project": "p", "version": "1", "nodes": [],
                "sheets": [{"url": "s.html", "docname": "s", "caption": "", "version": 3, "system": "s",
                            "fields": [field]}]}
    assert not validator.is_valid(document)
    field["tree"] = ["call", "floor", ["name", "x"]]
    assert validator.is_valid(document)


# -- points budgets -----------------------------------------------------------------------------------
BUDGET_SHEET = SHEET.replace("   :caption:", '   :budgets: uid == "Tiny.Rule.Build"\n   :caption:')


def test_a_budget_counts_the_points_the_sheet_spends_by_its_formula():
    rules = registry()
    sheet = build_sheet(rules, 'type == "A"', 'type == "R"', budgets='uid == "Tiny.Rule.Build"')
    (budget,) = sheet.budgets
    assert (budget.budget.total, budget.budget.choices, budget.variables) == (
        6, (4, 6, 8), {"Grit": "Tiny.Attr.Grit", "Wit": "Tiny.Attr.Wit"})
    values = {"Tiny.Attr.Grit": 1, "Tiny.Attr.Wit": 2, "$hero_level": 0}
    assert budget_messages(sheet, rules, values) == {"Tiny.Rule.Build": "5 of 6 points spent"}
    assert budget_messages(sheet, rules, values, {"Tiny.Rule.Build": 4}) == {
        "Tiny.Rule.Build": "5 of 4 points spent: 1 over the budget"}


@pytest.mark.parametrize(("spent", "total", "message"), [
    (7, 10, "7 of 10 points spent"), (10, 10, "10 of 10 points spent"), (-2, 10, "-2 of 10 points spent"),
    (12, 10, "12 of 10 points spent: 2 over the budget"), (Fraction(21, 2), 10, "21/2 of 10 points spent: 1/2 over the budget"),
])
def test_the_budget_line_says_how_much_is_spent_and_how_far_over(spent, total, message):
    assert spent_message(spent, total) == message


@pytest.mark.parametrize(("count", "at_most", "message"), [
    (0, 1, "0 (at most 1)"), (1, 1, "1 (at most 1)"), (2, 1, "2 (at most 1): 1 too many"),
    (Fraction(5, 2), 2, "5/2 (at most 2): 1/2 too many"),
])
def test_a_cap_line_says_the_count_its_limit_and_how_many_too_many(count, at_most, message):
    assert cap_message(count, at_most) == message


def test_a_cap_is_a_budget_of_its_own_kind_worded_as_a_cap():
    node = Node("Tiny.Rule.Poor", "Poor attributes", ("RU",), formula=Formula("min(1, max(0, -Grit))"),
                values=cap_values(1))
    cap = budget_of(node)
    assert cap is not None and (cap.kind, cap.total, cap.choices) == (CAP, 1, (1,))
    assert budget_message(cap, 2) == "2 (at most 1): 1 too many"
    assert budget_message(cap, 1, total=2) == "1 (at most 2)"
    odd = Node("Tiny.Rule.Odd", "Odd", ("RU",), formula=Formula("Grit"),
               values={**cap_values(1), "budget_kind": "ceiling"})
    with pytest.raises(BudgetError, match="Tiny.Rule.Odd: the budget kind 'ceiling'"):
        budget_of(odd)


def test_a_budget_total_must_be_one_of_its_choices():
    with pytest.raises(BudgetError, match="among its choices"):
        budget_values(5, choices=(4, 6))
    assert budget_of(registry()["Tiny.Rule.Pace"]) is None


def test_the_html_sheet_shows_a_live_count_per_budget_with_a_menu_of_totals(build, book):
    (book / "sheet.rst").write_text("Sheet\n=====\n\n" + BUDGET_SHEET)
    app = build(book)
    assert app.warning.getvalue() == ""
    html = (Path(app.outdir) / "sheet.html").read_text()
    assert re.search(r'<output class="rpg-sheet-budget"[^>]*data-budget="Tiny.Rule.Build"', html)
    assert re.findall(r'<option value="(\d+)"( selected)?>', html) == [("4", ""), ("6", " selected"), ("8", "")]
    assert 'href="traits.html#Tiny.Rule.Build"' in html
    data = json.loads(re.search(r'class="rpg-sheet-data">(.*?)</script>', html, re.S).group(1))
    assert data["version"] == 3 and data["budgets"][0]["tree"] == Formula("Grit + Wit * 2").tree()


def test_on_paper_a_budget_is_a_blank_to_fill_with_its_totals(build, book):
    (book / "sheet.rst").write_text("Sheet\n=====\n\n" + BUDGET_SHEET)
    app = build(book, builder="latex")
    tex = next(Path(app.outdir).glob("*.tex")).read_text()
    assert r"of 4 / 6 / 8 points spent (= \(\text{Grit} + \text{Wit} \times 2\))" in tex


def test_nodes_json_carries_the_budgets_and_matches_its_schema(build, book):
    import jsonschema

    from sphinx_rpg.export import SCHEMA_PATH

    (book / "sheet.rst").write_text("Sheet\n=====\n\n" + BUDGET_SHEET)
    app = build(book)
    document = json.loads((Path(app.outdir) / "nodes.json").read_text())
    jsonschema.Draft202012Validator(json.loads(SCHEMA_PATH.read_text())).validate(document)
    (budget,) = document["sheets"][0]["budgets"]
    assert (budget["uid"], budget["total"], budget["choices"], budget["unit"]) == ("Tiny.Rule.Build", 6, [4, 6, 8], "points")


def test_a_new_sheet_starts_a_box_at_its_nodes_start_value_when_it_is_within_bounds():
    from rules.nodes import Ranks, Registry

    rules = Registry("starts", node_types={"A": "Attribute"})
    rules.define("S.A.Ten", "Ten", "A", ranks=Ranks(1), values={"start": 10})
    rules.define("S.A.Far", "Far", "A", ranks=Ranks(0, 4), values={"start": 10})
    rules.define("S.A.None", "None", "A")
    sheet = build_sheet(rules, 'type == "A"', "")
    assert [(f.key, f.start) for f in sheet.fields] == [("S.A.Ten", 10), ("S.A.Far", None), ("S.A.None", None)]
    assert "start" not in sheet.data(rules)["fields"][1]
