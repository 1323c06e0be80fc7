"""Supplements: a second book that extends a core book through intersphinx and replaces some nodes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

CORE_PAGE = ("Core\n====\n\n.. node:def:: Grit\n   :uid: Core.Attr.Grit\n   :type: A\n\n   Roll it to endure.\n\n"
             ".. node:def:: Wit\n   :uid: Core.Attr.Wit\n   :type: A\n\n   Think fast.\n")
SUPPLEMENT_PAGE = ("Optional rules\n==============\n\n.. node:def:: Grit\n   :uid: Core.Attr.Grit\n   :type: A\n"
                   "   :overrides:\n\n   Roll it twice and keep the better.\n\n"
                   "Read :node:ref:`Core.Attr.Grit` here and :node:ref:`Core.Attr.Wit` in the core.\n")



@pytest.fixture
def core(build, tmp_path) -> Path:
    src = tmp_path / "core"
    src.mkdir()
    (src / "conf.py").write_text('extensions = ["sphinx_rpg"]\nproject = "Core book"\n')
    (src / "index.rst").write_text(CORE_PAGE)
    return Path(build(src).outdir)


def supplement(tmp_path: Path, core: Path, page: str = SUPPLEMENT_PAGE, conf: str = "") -> Path:
    src = tmp_path / "supplement"
    src.mkdir(exist_ok=True)
    (src / "conf.py").write_text(
        'extensions = ["sphinx.ext.intersphinx", "sphinx_rpg"]\nproject = "Optional rules"\n'
        f'intersphinx_mapping = {{"core": ({str(core)!r}, {str(core / "objects.inv")!r})}}\n'
        'rpg_supplement_of = "core"\n' + conf)
    (src / "index.rst").write_text(page)
    return src


def test_an_override_says_what_it_replaces_and_links_the_core_rule(build, tmp_path, core):
    app = build(supplement(tmp_path, core))
    assert app.warning.getvalue() == ""
    html = (Path(app.outdir) / "index.html").read_text()
    assert "Changed by Optional rules:" in html
    assert re.search(rf'href="{re.escape(str(core))}/index.html#core-attr-grit">the core rule</a>\s*in Core book',
                     html)


def test_inside_the_supplement_references_reach_the_replacement_and_the_rest_reach_the_core(build, tmp_path,
                                                                                           core):
    app = build(supplement(tmp_path, core))
    html = (Path(app.outdir) / "index.html").read_text()
    assert re.search(r'<a class="reference internal" href="#Core.Attr.Grit"', html)  # the replacement
    assert re.search(rf'href="{re.escape(str(core))}/index.html#core-attr-wit"', html)  # the core's own


def test_the_catalogue_records_which_book_a_node_overrides(build, tmp_path, core):
    app = build(supplement(tmp_path, core))
    catalogue = json.loads((Path(app.outdir) / "nodes.json").read_text())
    assert [(n["uid"], n.get("overrides")) for n in catalogue["nodes"]] == [("Core.Attr.Grit", "core")]


def test_overriding_a_node_the_core_does_not_define_warns_where_it_stands(build, tmp_path, core):
    page = SUPPLEMENT_PAGE.replace("   :uid: Core.Attr.Grit\n   :type: A\n   :overrides:",
                                   "   :uid: Core.Attr.Grip\n   :type: A\n   :overrides:")
    app = build(supplement(tmp_path, core, page))
    assert re.search(r"index\.rst:\d+: WARNING: node 'Core\.Attr\.Grip' overrides a node that 'core' does not "
                     r"define.*\[node\.override\]", app.warning.getvalue())
    assert "Changed by" not in (Path(app.outdir) / "index.html").read_text()


def test_overriding_from_an_unknown_book_names_the_books_it_knows(build, tmp_path, core):
    page = SUPPLEMENT_PAGE.replace("   :overrides:", "   :overrides: corr")
    app = build(supplement(tmp_path, core, page))
    assert re.search(r"no intersphinx inventory named 'corr' \(known: core\).*\[node\.override\]",
                     app.warning.getvalue())


def test_an_override_without_intersphinx_explains_what_is_missing(build, tmp_path, core):
    src = supplement(tmp_path, core)
    (src / "conf.py").write_text('extensions = ["sphinx_rpg"]\nproject = "Optional rules"\n'
                                 'rpg_supplement_of = "core"\n')
    app = build(src)
    assert "sphinx.ext.intersphinx is not enabled" in app.warning.getvalue()


def test_rpg_check_reports_a_core_node_the_supplement_still_links_after_the_core_removed_it(build, tmp_path,
                                                                                             capsys):
    from sphinx_rpg.cli import main

    core_src = tmp_path / "core-next"
    core_src.mkdir()
    (core_src / "conf.py").write_text('extensions = ["sphinx_rpg"]\nproject = "Core book"\n')
    (core_src / "index.rst").write_text(CORE_PAGE.replace(".. node:def:: Wit\n   :uid: Core.Attr.Wit\n   :type: A\n\n"
                                                          "   Think fast.\n", ""))
    core_next = Path(build(core_src).outdir)  # the next release of the core drops Wit
    src = supplement(tmp_path, core_next)
    status = main(["check", str(src), "--json"])
    problems = json.loads(capsys.readouterr().out)["problems"]
    assert status == 1
    assert [(p["kind"], "Core.Attr.Wit" in p["message"]) for p in problems] == [("node.ref", True)]
