"""node:odds / node:table with :vary:: every combination computed at build time, the default printed."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rules.dice import parse
from rules.dice.errors import MAX_WORK
from rules.odds import at_least_table
from rules.variations import combinations, parse_vary
from sphinx_rpg.directives.tables import render_cell

BOOK = """Odds
====

.. node:odds:: {n}d6
   :vary: n=1-3 (2)
   :dc: {n}-{n+5}

.. node:odds:: C{c:+} P{p:+}
   :system: heimr
   :vary: c=-1-1, p=0|2
   :dc: 1-12
"""


def _book(root: Path, page: str = BOOK, conf: str = "") -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "conf.py").write_text("extensions = ['sphinx_rpg']\nrpg_registries = ['rules.heimr:REGISTRY']\n"
                                  "rpg_charts = False\nsuppress_warnings = ['node.undocumented']\n" + conf)
    (root / "index.rst").write_text(page)
    return root


def _data(html: str) -> list[dict[str, Any]]:
    found = re.findall(r'<script type="application/json" class="rpg-odds-data">(.*?)</script>', html, re.S)
    return [json.loads(text) for text in found]


def test_every_combination_is_the_engine_s_table_and_the_default_is_printed(
        build: Callable[..., Any], warning_text: Callable[[Any], str], tmp_path: Path) -> None:
    app = build(_book(tmp_path))
    assert warning_text(app) == ""
    html = (Path(app.outdir) / "index.html").read_text()
    first, second = _data(html)
    assert [p["name"] for p in first["params"]] == ["n"] and first["params"][0]["default"] == 1
    for values, number in zip(combinations(parse_vary("n=1-3 (2)")), first["index"]):
        n = values["n"]
        table = at_least_table(parse(f"{n}d6"), range(n, n + 6), f"{n}d6")
        shown = first["tables"][number]
        assert shown["caption"] == f"{n}d6"
        assert shown["rows"] == [[render_cell(v, table.is_probability(c), False) for c, v in zip(table.columns, row)]
                                 for row in table.rows]
    assert len(second["index"]) == 6 and second["params"][0]["values"] == ["-1", "+0", "+1"]
    # the static table is the default combination: 2d6 against DC 2 to 7
    static = html.split('class="rpg-odds-controls"')[1]
    assert "2d6" in static and "58.3%" in static
    assert 'hidden aria-label="Vary this table"' in html and "odds.js" in html


def test_a_page_without_vary_does_not_load_the_script(build: Callable[..., Any], tmp_path: Path) -> None:
    app = build(_book(tmp_path, "Odds\n====\n\n.. node:odds:: 2d6\n"))
    assert "odds.js" not in (Path(app.outdir) / "index.html").read_text()


def test_too_many_combinations_warn_on_their_line_and_print_the_default(
        build: Callable[..., Any], warning_text: Callable[[Any], str], tmp_path: Path) -> None:
    page = "Odds\n====\n\n.. node:odds:: {a}d6+{b}\n   :vary: a=1-5 (3) b=0-4\n"
    app = build(_book(tmp_path, page, "rpg_odds_max_combinations = 24\n"))
    warnings = warning_text(app)
    assert "index.rst:4:" in warnings and "25 combinations, more than rpg_odds_max_combinations = 24" in warnings
    assert "only the default (a=3, b=0) is shown" in warnings and "[node.table]" in warnings
    html = (Path(app.outdir) / "index.html").read_text()
    assert "3d6+0" in html and "rpg-odds-data" not in html


def test_the_work_of_every_combination_together_is_bounded(
        build: Callable[..., Any], warning_text: Callable[[Any], str], tmp_path: Path) -> None:
    # each of these alone is within the engine's budget (rules.dice.errors.MAX_WORK), together they are not
    page = "Odds\n====\n\n.. node:odds:: {n}d100\n   :vary: n=100|120|140|160\n   :dc: 1-3\n"
    warnings = warning_text(build(_book(tmp_path, page)))
    assert "index.rst:4:" in warnings and "the 4 tables need about" in warnings
    assert f"work units together, more than the limit of {MAX_WORK:,}; only the default (n=100)" in warnings


def test_bad_vary_specs_are_located_option_warnings(
        build: Callable[..., Any], warning_text: Callable[[Any], str], tmp_path: Path) -> None:
    page = ("Odds\n====\n\n"
            ".. node:odds:: {n}d6\n   :vary: n=4-1\n\n"                 # line 4: backwards
            ".. node:odds:: {n}d6\n   :vary: n=1-3 (7)\n\n"             # line 7: default not a value
            ".. node:odds:: {m}d6\n   :vary: n=1-3\n\n"                 # line 10: undeclared name
            ".. node:odds:: {n}d6\n   :vary: n=1-3, n=2-4\n\n"          # line 13: declared twice
            ".. node:odds:: {n.__class__}d6\n   :vary: n=1-3\n\n"       # line 16: not a name
            ".. node:odds:: 2d6\n   :vary: n=1-3\n")                    # line 19: unused (but shown)
    app = build(_book(tmp_path, page))
    warnings = warning_text(app)
    for line, text in ((4, "runs backwards"), (7, "the default '7' is not one of its values"),
                       (10, "'m' is not a declared parameter"), (13, "declared twice"),
                       (16, "expected parameter names and whole numbers"), (19, "no text uses n")):
        assert re.search(rf"index\.rst:{line}: WARNING: node:odds: :vary: .*{re.escape(text)}", warnings), (line, warnings)
    assert warnings.count("[node.option]") == 6
    html = (Path(app.outdir) / "index.html").read_text()
    # the five that cannot be read are left out; the one with an unused parameter is still shown
    assert html.count('class="rpg-odds-vary') == 1 and html.count("<table") == 1


def test_a_combination_the_engine_refuses_is_named_and_the_default_stays(
        build: Callable[..., Any], warning_text: Callable[[Any], str], tmp_path: Path) -> None:
    page = "Odds\n====\n\n.. node:odds:: Agility {rank}\n   :system: nemron\n   :vary: rank=2-6 (2)\n   :dc: 1-4\n"
    app = build(_book(tmp_path, page, "rpg_registries = ['rules.nemron:REGISTRY']\n"))
    warnings = warning_text(app)
    assert re.search(r"index\.rst:4: WARNING: node:odds: cannot compute 'Agility \{rank\}' with rank=5: "
                     r"NemronError: .*rank 5 is outside 0-4", warnings)
    html = (Path(app.outdir) / "index.html").read_text()
    assert "Agility 2" in html and "rpg-odds-data" not in html


def test_node_table_varies_its_args(build: Callable[..., Any], warning_text: Callable[[Any], str],
                                    tmp_path: Path) -> None:
    page = ("Odds\n====\n\n.. node:table:: spurg:margin_table\n   :args: tn={skill+modifier}\n"
            "   :vary: skill=10-12 (11), modifier=-1-1 (0)\n")
    app = build(_book(tmp_path, page, "rpg_registries = ['rules.spurg:REGISTRY']\n"))
    assert warning_text(app) == ""
    (data,) = _data((Path(app.outdir) / "index.html").read_text())
    # nine combinations, five distinct target numbers: each table is written once
    assert len(data["index"]) == 9 and len(data["tables"]) == 5
    assert data["tables"][data["index"][4]]["caption"] == "Margins at TN 11"


def test_latex_and_text_builders_get_the_default_table_only(build: Callable[..., Any],
                                                           warning_text: Callable[[Any], str],
                                                           tmp_path: Path) -> None:
    for builder, name in (("latex", "python.tex"), ("text", "index.txt")):
        app = build(_book(tmp_path / builder), builder)
        assert warning_text(app) == ""
        output = next(Path(app.outdir).glob("*.tex")) if builder == "latex" else Path(app.outdir) / name
        text = output.read_text().replace(r"\sphinxhyphen{}", "-")
        assert "2d6" in text and "C+0 P+0" not in text and "C-1 P+0" in text  # each default combination
        assert "rpg-odds-data" not in text and "<select" not in text and "application/json" not in text


def test_an_edit_to_a_page_rewrites_its_own_data_only(build: Callable[..., Any], edit: Callable[..., None],
                                                     tmp_path: Path) -> None:
    root = _book(tmp_path)
    (root / "other.rst").write_text("Other\n=====\n\n.. node:odds:: {n}d4\n   :vary: n=1-2\n")
    (root / "index.rst").write_text(BOOK + "\n.. toctree::\n\n   other\n")
    app = build(root, freshenv=True)
    other = (Path(app.outdir) / "other.html").read_text()
    edit(root / "index.rst", ":vary: n=1-3 (2)", ":vary: n=1-4 (3)")
    app = build(root)
    index = (Path(app.outdir) / "index.html").read_text()
    assert len(_data(index)[0]["index"]) == 4 and _data(index)[0]["params"][0]["default"] == 2
    assert (Path(app.outdir) / "other.html").read_text() == other


def test_a_default_the_engine_refuses_is_one_warning_and_no_table(
        build: Callable[..., Any], warning_text: Callable[[Any], str], tmp_path: Path) -> None:
    page = "Odds\n====\n\n.. node:odds:: Agility {rank}\n   :system: nemron\n   :vary: rank=5-6\n   :dc: 1-4\n"
    app = build(_book(tmp_path, page, "rpg_registries = ['rules.nemron:REGISTRY']\n"))
    warnings = warning_text(app)
    assert warnings.count("[node.table]") == 1 and "with rank=5: NemronError" in warnings
    assert "<table" not in (Path(app.outdir) / "index.html").read_text()


def test_page_text_in_the_data_cannot_close_its_script_element(build: Callable[..., Any], tmp_path: Path) -> None:
    page = "Odds\n====\n\n.. node:odds:: {n}d6\n   :vary: n=1-2\n   :caption: </script><b>{n}</b> & <!--\n"
    app = build(_book(tmp_path, page))
    html = (Path(app.outdir) / "index.html").read_text()
    (data,) = _data(html)
    assert [t["caption"] for t in data["tables"]] == ["</script><b>1</b> & <!--", "</script><b>2</b> & <!--"]
    assert "</script><b>" not in html and "<!--" not in html.split('class="rpg-odds-data"')[1].split("</script>")[0]


def test_a_table_printed_as_text_keeps_each_heading_and_value_on_one_line(
        build: Callable[..., Any], tmp_path: Path) -> None:
    app = build(_book(tmp_path), "text")
    text = (Path(app.outdir) / "index.txt").read_text()
    rows = [line for line in text.splitlines() if line.startswith("|") and "===" not in line]
    heading = [cell.strip() for cell in rows[0].strip("|").split("|")]
    table = at_least_table(parse("2d6"), range(2, 8), "2d6")
    assert heading == list(table.columns)
    first = [cell.strip() for cell in rows[1].strip("|").split("|")]
    assert first == [render_cell(value, table.is_probability(column), False)
                     for column, value in zip(table.columns, table.rows[0])]
