"""Releases: a book compared with the catalogue of its last release, in the page and by ``rpg diff``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from sphinx_rpg.changes import (CatalogueError, catalogue_from_document, compare_nodes, diff_catalogues,
                                load_catalogue)
from sphinx_rpg.cli import main

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

RULES = '''
from rules.formula import Formula
from rules.nodes import Registry

REGISTRY = Registry("tiny", title="Tiny", node_types={"A": "Attribute", "R": "Resource"})
REGISTRY.define("Tiny.Attr.Grit", "Grit", "A", summary="How tough you are.")
REGISTRY.define("Tiny.Res.Stamina", "Stamina", "R", summary="Spent to push on.",
                formula=Formula("Grit + {bonus}"))
'''
CONF = '''
import sys, pathlib
sys.path.insert(0, str(pathlib.Path(__file__).parent))
extensions = ["sphinx_rpg"]
project = "tiny"
release = "{release}"
rpg_registries = ["{module}:REGISTRY"]
{releases}
'''
PAGES = {
    "index.rst": "Tiny\n====\n\n.. toctree::\n\n   traits\n   changes\n",
    "traits.rst": ("Traits\n======\n\n.. node:def:: Grit\n   :uid: Tiny.Attr.Grit\n\n   Roll it to endure.\n\n"
                   ".. node:def:: Stamina\n   :uid: Tiny.Res.Stamina\n\n   It runs out.\n"),
    "changes.rst": "Changes\n=======\n\n.. node:changes::\n",
}


def write_book(root: Path, release: str, bonus: int = 5, releases: str = "") -> Path:
    """The tiny book; its engine module is named after ``bonus`` (a build process imports a module once)."""
    root.mkdir(parents=True, exist_ok=True)
    module = f"tiny_rules_{root.parent.name}_{bonus}"
    (root / f"{module}.py").write_text(RULES.replace("{bonus}", str(bonus)))
    (root / "conf.py").write_text(CONF.format(release=release, releases=releases, module=module))
    for name, text in PAGES.items():
        if not (root / name).exists():
            (root / name).write_text(text)
    return root




@pytest.fixture
def released(build, tmp_path) -> Path:
    """A tiny book built as release 1.0, its nodes.json kept in _releases/, then configured."""
    src = write_book(tmp_path / "book", "1.0")
    (src / "changes.rst").write_text("Changes\n=======\n")
    first = build(src)
    (src / "_releases").mkdir()
    shutil.copy(Path(first.outdir) / "nodes.json", src / "_releases" / "v1.0.json")
    (src / "changes.rst").write_text(PAGES["changes.rst"])
    write_book(src, "1.1", releases='rpg_releases = {"1.0": "_releases/v1.0.json"}')
    return src


def text_of(html: Path) -> str:
    import re
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.read_text()))


def test_an_unchanged_book_has_no_change_marks_and_an_empty_changelog(build, released):
    app = build(released)
    assert app.warning.getvalue() == ""
    assert "since 1.0" not in text_of(Path(app.outdir) / "traits.html")
    assert "No node has changed since 1.0." in text_of(Path(app.outdir) / "changes.html")


def test_a_changed_formula_and_a_new_node_are_marked_and_listed(build, released):
    write_book(released, "1.1", bonus=6, releases='rpg_releases = {"1.0": "_releases/v1.0.json"}')
    traits = released / "traits.rst"
    traits.write_text(traits.read_text() + "\n.. node:def:: Luck\n   :uid: Tiny.Res.Luck\n   :type: R\n\n   Fickle.\n")
    app = build(released)
    page = text_of(Path(app.outdir) / "traits.html")
    assert "Changed since 1.0: formula was Grit + 5, now Grit + 6." in page
    assert "New since 1.0." in page
    assert page.count("since 1.0") == 2  # Grit did not change
    changes = text_of(Path(app.outdir) / "changes.html")
    assert "New since 1.0 (1)" in changes and "Luck (R)" in changes
    assert "Changed since 1.0 (1)" in changes and "formula was Grit + 5, now Grit + 6" in changes


def test_the_changelog_page_follows_an_edit_of_another_page(build, released, touch):
    build(released)
    traits = released / "traits.rst"
    traits.write_text(traits.read_text().replace("Roll it to endure.", "Roll it to endure, or rest."))
    touch(traits)
    app = build(released)
    changes = text_of(Path(app.outdir) / "changes.html")
    assert "Grit (A)" in changes
    assert "the text said \u201cRoll it to endure.\u201d, now \u201cRoll it to endure, or rest.\u201d" in changes


def test_a_text_change_is_marked_with_the_old_and_the_new_words(build, released):
    traits = released / "traits.rst"
    traits.write_text(traits.read_text().replace("Roll it to endure.", "Roll it to endure, or rest."))
    page = text_of(Path(build(released).outdir) / "traits.html")
    assert ("Changed since 1.0: the text said \u201cRoll it to endure.\u201d, now "
            "\u201cRoll it to endure, or rest.\u201d.") in page
    assert page.count("Changed since 1.0") == 1  # Stamina's text is as it was


def test_a_body_rewrapped_or_remarked_up_is_no_change(build, released):
    traits = released / "traits.rst"
    traits.write_text(traits.read_text().replace("Roll it to endure.", "Roll it\n   to **endure**."))
    page = text_of(Path(build(released).outdir) / "traits.html")
    assert "Changed since" not in page


def test_a_release_without_the_text_says_only_that_it_changed(build, released):
    kept = released / "_releases" / "v1.0.json"
    document = json.loads(kept.read_text())
    for entry in document["nodes"]:
        entry.pop("text", None)
    kept.write_text(json.dumps(document))
    traits = released / "traits.rst"
    traits.write_text(traits.read_text().replace("Roll it to endure.", "Roll it to endure, or rest."))
    page = text_of(Path(build(released).outdir) / "traits.html")
    assert "Changed since 1.0: rules text changed." in page


def test_an_unreadable_release_is_a_located_warning(build, released):
    (released / "_releases" / "v1.0.json").write_text("{not json")
    app = build(released)
    warnings = app.warning.getvalue()
    assert "[node.release]" in warnings and "not valid JSON" in warnings
    assert "changes.rst" in warnings  # located at the node:changes directive


def test_rpg_diff_reports_exactly_the_change_between_two_builds(build, released, capsys):
    write_book(released, "1.1", bonus=6, releases='rpg_releases = {"1.0": "_releases/v1.0.json"}')
    app = build(released)
    old, new = released / "_releases" / "v1.0.json", Path(app.outdir) / "nodes.json"
    status = main(["diff", str(old), str(new), "--json"])
    data = json.loads(capsys.readouterr().out)
    assert status == 1 and (data["old"], data["new"]) == ("1.0", "1.1")
    assert [(c["uid"], c["kinds"]) for c in data["changes"]] == [("Tiny.Res.Stamina", ["facts"])]
    assert main(["diff", str(new), str(new)]) == 0
    assert capsys.readouterr().out.strip() == "0 added, 0 removed, 0 changed (1.1 -> 1.1)"


ENTRY = {"uid": "X.A.Grit", "name": "Grit", "title": "Grit (A)", "types": ["A"], "type_names": ["Attribute"],
         "docname": "traits",
         "summary": "", "facts": [], "digest": "aa"}


def catalogue(*entries: dict, version: int = 2):
    return catalogue_from_document({"schema_version": version, "project": "p", "version": "1",
                                    "nodes": list(entries)})


@pytest.mark.parametrize("change, kinds", [
    ({"name": "Toughness"}, ("renamed",)),
    ({"types": ["A", "R"], "type_names": ["Attribute", "Resource"]}, ("retyped",)),
    ({"docname": "other"}, ("moved",)),
    ({"summary": "New words."}, ("summary",)),
    ({"digest": "bb"}, ("text",)),
    ({"name": "Toughness", "docname": "other"}, ("renamed", "moved")),
])
def test_each_kind_of_change_is_named(change, kinds):
    [found] = diff_catalogues(catalogue(ENTRY), catalogue({**ENTRY, **change}))
    assert found.kinds == kinds


def test_a_changed_fact_says_what_it_was_and_what_it_is_now():
    old = {**ENTRY, "facts": [{"label": "Ranks", "text": "1-4"}, {"label": "Formula", "text": "Grit + 5"}]}
    new = {**ENTRY, "facts": [{"label": "Ranks", "text": "0-4"}, {"label": "Formula", "text": "Grit + 5"}]}
    [found] = diff_catalogues(catalogue(old), catalogue(new))
    assert (found.kinds, found.details) == (("facts",), ("ranks were 1-4, now 0-4",))


def test_a_fact_the_old_release_never_recorded_is_not_a_change():
    """A book that learns to print a fact (Ranks: 0-4) has not changed the rule: no mark, on any node."""
    old = catalogue(ENTRY, {**ENTRY, "uid": "X.A.Wit", "name": "Wit"})
    ranks = [{"label": "Ranks", "text": "0-4"}]
    new = catalogue({**ENTRY, "facts": ranks}, {**ENTRY, "uid": "X.A.Wit", "name": "Wit", "facts": ranks})
    assert diff_catalogues(old, new) == []


def test_a_fact_another_book_of_the_old_release_records_is_still_new_to_this_book():
    old = catalogue({**ENTRY, "system": "nemron"},
                    {**ENTRY, "uid": "S.A.Wit", "name": "Wit", "system": "spurg",
                     "facts": [{"label": "Ranks", "text": "1 or more"}]})
    new = catalogue({**ENTRY, "system": "nemron", "facts": [{"label": "Ranks", "text": "0-4"}]},
                    {**ENTRY, "uid": "S.A.Wit", "name": "Wit", "system": "spurg",
                     "facts": [{"label": "Ranks", "text": "1 or more"}]})
    assert diff_catalogues(old, new) == []


def test_a_fact_the_old_release_records_elsewhere_is_a_change_where_it_appears():
    old = catalogue(ENTRY, {**ENTRY, "uid": "X.A.Wit", "name": "Wit", "facts": [{"label": "Ranks", "text": "0-4"}]})
    new = catalogue({**ENTRY, "facts": [{"label": "Ranks", "text": "0-4"}]},
                    {**ENTRY, "uid": "X.A.Wit", "name": "Wit", "facts": [{"label": "Ranks", "text": "0-4"}]})
    [found] = diff_catalogues(old, new)
    assert (found.uid, found.details) == ("X.A.Grit", ("ranks were not set, now 0-4",))


def test_a_type_code_renamed_with_its_meaning_kept_is_no_change():
    old = {**ENTRY, "types": ["rule"], "type_names": ["Rule"]}
    assert diff_catalogues(catalogue(old), catalogue({**old, "types": ["RU"]})) == []
    [found] = diff_catalogues(catalogue(old), catalogue({**old, "types": ["G"], "type_names": ["Gear"]}))
    assert found.details == ("type was Rule, now Gear",)
    unnamed = {**ENTRY, "types": ["rule"], "type_names": []}  # a catalogue that names no types: the codes decide
    [found] = diff_catalogues(catalogue(unnamed), catalogue({**unnamed, "types": ["RU"]}))
    assert found.details == ("type was rule, now RU",)


def test_added_and_removed_nodes_are_named_by_uid():
    other = {**ENTRY, "uid": "X.A.Wit", "name": "Wit"}
    changes = diff_catalogues(catalogue(ENTRY), catalogue(other))
    assert [(c.uid, c.kinds) for c in changes] == [("X.A.Grit", ("removed",)), ("X.A.Wit", ("added",))]


def test_a_schema_1_catalogue_is_read_and_its_text_not_compared():
    old = {k: v for k, v in ENTRY.items() if k != "digest"}
    assert diff_catalogues(catalogue(old, version=1), catalogue({**ENTRY, "digest": "cc"})) == []


@pytest.mark.parametrize("text, problem", [
    ("{not json", "not valid JSON"),
    ('{"schema_version": 9, "nodes": []}', "schema_version 9"),
    ('{"schema_version": 2, "nodes": [{"name": "x"}]}', "node #1 has no text 'uid'"),
    ("[1, 2]", "not a nodes.json document"),
    ("[" * 100_000 + "]" * 100_000, "not valid JSON"),
])
def test_a_bad_catalogue_is_a_one_line_error_naming_the_file(tmp_path, text, problem):
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(CatalogueError, match=problem) as error:
        load_catalogue(path)
    assert str(path) in str(error.value) and "\n" not in str(error.value)


def test_rpg_diff_of_a_missing_file_is_one_line(tmp_path, capsys):
    assert main(["diff", str(tmp_path / "nope.json"), str(tmp_path / "nope.json")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nope.json: cannot read it" in err


def test_a_type_renamed_by_the_book_marks_none_of_its_nodes():
    old = {"name": "Bow", "types": ["gear"], "type_names": ["Equipment"], "docname": "gear"}
    assert compare_nodes(old, {**old, "type_names": ["Gear"]}) == ((), ())  # the label renamed
    assert compare_nodes(old, {**old, "types": ["G"]}) == ((), ())  # the code renamed
    assert compare_nodes(old, {**old, "types": ["weapon"], "type_names": ["Weapon"]}) == (
        ("retyped",), ("type was Equipment, now Weapon",))
    # both renamed, to a type the old release never had: the book renamed its type, no node changed
    known = frozenset({("", "gear"), ("", "Equipment"), ("", "weapon"), ("", "Weapon")})
    assert compare_nodes(old, {**old, "types": ["G"], "type_names": ["Gear"]}, known_types=known) == ((), ())
    assert compare_nodes(old, {**old, "types": ["weapon"], "type_names": ["Weapon"]}, known_types=known)[0] == (
        "retyped",)  # moved to a type the book already had: a change of this node


def test_an_example_moved_into_a_designer_block_is_no_change_of_the_rules_text():
    """Nemron's Energy: 0.1 had its worked example in the node's prose; it now sits in a ``node:designer``
    block (the player edition leaves it out).  The rule did not change, in either edition."""
    from sphinx_rpg.changes import text_change

    old = ("Its full value is Control + Sense + Focus + 5.  A constructed example: Control 2, Sense 1 and "
           "Focus 3.\n\n>>> rule(2, 1, 3)\n11")
    moved = ("Its full value is Control + Sense + Focus + 5.\n\n.. node:designer::\n\n   A constructed example: "
             "Control 2, Sense 1 and Focus 3.\n\n   >>> rule(2, 1, 3)\n   11")
    assert text_change(old, moved) is None
    assert text_change(moved, moved.replace("Focus 3.", "Focus 4.")) is None  # the designers' words alone
    # a real change beside it is marked, the player's words quoted (the example is not in them)
    assert text_change(old, moved.replace("+ 5.", "+ 6.")) == (
        "the text said \u201c+ Focus + 5. A constructed example: Control 2, Sense 1 and Focus 3.\u201d, "
        "now \u201c+ Focus + 6.\u201d")


def test_a_change_in_code_doctests_or_engine_switches_is_no_change_of_the_rules_text():
    from sphinx_rpg.changes import text_change

    old = ('A free action, once per turn (mode="once").\n\n>>> rule(1)\n2\n\n.. code-block:: python\n\n'
           '   rule(2)\n\n.. note:: Decision: rounding down')
    assert text_change(old, old.replace("rule(1)\n2", "rule(1)\n3").replace("rule(2)", "rule(3)")
                       .replace('mode="once"', 'mode="each"')) is None
    assert text_change(old, old.replace("once per turn", "twice per turn")) == (
        "the text said \u201cA free action, once per turn. Decision:\u201d, now "
        "\u201cA free action, twice per turn. Decision:\u201d")
    assert text_change(old, old.replace("rounding down", "rounding up")) == (
        "the text said \u201cturn. Decision: rounding down.\u201d, now \u201cturn. Decision: rounding up.\u201d")


def test_a_sentence_that_names_an_engine_switch_in_running_text_is_no_part_of_a_quote():
    """The player edition drops "(``rounding=...``)" from a sentence; a sentence that names a switch in
    its running text ("... pass ``rounding=...``.") speaks to designers, and a quote of it with the switch
    cut out would read "pass .": it is left out whole, and so is an engine class or identifier."""
    from sphinx_rpg.changes import text_change

    old = ('Averages round down.  Groups who drop the fraction instead (giving 0) pass '
           '``rounding="toward-zero"``.  A tie goes to the attacker.')
    new = 'Averages round down.  Groups who drop the fraction instead get 0 (``rounding="toward-zero"``).'
    said = text_change(old, new)
    assert said is not None and "rounding" not in said and "pass ." not in said and " ." not in said, said
    assert "get 0." in said
    for code in ("``ActionLimits``", "``max_poor``", "``ActionLimits(max_actions=None, later_cap=10)``"):
        quoted = text_change("Ten more points pass a higher limit.", f"Ten more points pass {code}.  It ends.")
        assert quoted is not None and "ActionLimits" not in quoted and "max_" not in quoted, quoted
        assert text_change("The cap rises.", f"The cap rises ({code}).") is None  # the same words for a player


def test_a_notes_title_ends_its_sentence_in_a_quote():
    """A decision note's title has no full stop of its own: quoted, it ends there, and the note's first
    sentence does not run on from it ("... stay exact The source lets")."""
    from sphinx_rpg.changes import text_change

    old = ".. note:: Decision: sixes chain without limit\n\n   The source lets sixes chain forever."
    said = text_change(old, old.replace("The source", "Our source"))
    assert said is not None and "without limit. The source" in said and "without limit. Our source" in said, said


def test_a_quoted_text_names_each_linked_node_in_words():
    """A change mark quotes prose as a reader reads it: a node link as the node's name in words, not the
    uid the source spells out (when nothing better is known, the uid's last part split into words)."""
    from sphinx_rpg.changes import text_change

    said = text_change("The purchase names the turn.",
                       "The purchase names the turn (:node:ref:`Nemron.Rule.TurnEconomy`).")
    assert said is not None and "(Turn Economy)." in said and "TurnEconomy" not in said


def test_a_value_link_is_quoted_as_the_value_the_page_prints():
    """":node:value:`...CharacterCreation:skills`" prints "2" on the page: the quote says "2", not the
    node and key ("Character Creation skills")."""
    from sphinx_rpg.changes import text_change

    def page(role, target):
        return {"Nemron.Rule.CharacterCreation:skills": "2", "Nemron.Resource.Energy": "Energy"}.get(target)

    said = text_change("Take skills.", "Take :node:value:`Nemron.Rule.CharacterCreation:skills` skills at "
                       "rank one, paid in :node:ref:`Nemron.Resource.Energy`.", new_links=page)
    assert said == "the text said \u201cTake skills.\u201d, now \u201cTake 2 skills at rank one, paid in Energy.\u201d"


def test_an_old_text_quotes_a_value_as_its_release_recorded_it():
    """The old side of a quote reads the old catalogue: a value it recorded as a fact (the formula) is
    quoted as it was, not as it is now."""
    from sphinx_rpg.changes import Catalogue, catalogue_links, text_change

    release = Catalogue("v1.json", 2, "1.0", {"Nemron.Trait.Energy": {
        "name": "Energy", "facts": [{"label": "Formula", "text": "Control + 5"}]}})
    said = text_change("Energy is :node:value:`Nemron.Trait.Energy:formula` points.",
                       "Energy is :node:value:`Nemron.Trait.Energy:formula` points at most.",
                       old_links=catalogue_links(release, lambda role, target: "Control + Sense + 5"),
                       new_links=lambda role, target: "Control + Sense + 5")
    assert said == ("the text said \u201cEnergy is Control + 5 points.\u201d, "
                    "now \u201cEnergy is Control + Sense + 5 points at most.\u201d")


def test_a_quote_never_cuts_a_link_in_half():
    """A quote starts a few words before the change; a link of two words is one of them, whole: never
    "... Economy)"."""
    from sphinx_rpg.changes import text_change

    old = "The purchase names the reaction (:node:ref:`Nemron.Rule.TurnEconomy`) that gets it."
    said = text_change(old, old.replace("that gets it.", "that gets it, so nothing is lost."))
    assert said == ("the text said \u201c(Turn Economy) that gets it.\u201d, "
                    "now \u201c(Turn Economy) that gets it, so nothing is lost.\u201d")
    long_old = " ".join(f"word{n}" for n in range(30)) + " (:node:ref:`Nemron.Rule.TurnEconomy`) ends here."
    cut = text_change("Start.", long_old)
    assert cut is not None and "\u2026" in cut and "\u2026 Economy" not in cut and "(Turn Economy)" in cut


def test_a_linked_node_renamed_elsewhere_is_no_change_of_the_linking_text():
    """A link is compared by what it links to: the node it names being renamed marks that node, not every
    text that links to it."""
    from sphinx_rpg.changes import text_change

    body = "Spend :node:ref:`Nemron.Resource.Energy` to react."
    assert text_change(body, body, lambda role, target: "Energy", lambda role, target: "Vigour") is None
    assert text_change(body, body + " ", lambda role, target: "Energy", lambda role, target: "Vigour") is None


def test_words_marked_for_the_screen_or_for_paper_are_no_change_of_the_text():
    """Marking a phrase as the screen's (and adding the paper's words) changes no word a reader meets on
    the page: no change mark."""
    from sphinx_rpg.changes import text_change

    old = "The sheet counts this as you type.\n\nPrint it for a blank copy."
    new = ("The sheet counts this :node:screen:`as you type` :node:paper:`by hand`.\n\n.. node:screen::\n\n"
           "   Print it for a blank copy.")
    assert text_change(old, new) is None
    assert text_change(old, new.replace("as you type", "as you write")) is not None
