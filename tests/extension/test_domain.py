"""The ``node`` domain as a rulebook author meets it: headings, contents, references and warnings."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from sphinx.util.inventory import InventoryFile

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def html(app, docname: str) -> str:
    return (Path(app.outdir) / f"{docname}.html").read_text(encoding="utf-8")


def node_warnings(app) -> list[tuple[int | None, str, str]]:
    """(line, subtype, message) of every node.* warning."""
    found = []
    for line in re.sub(r"\x1b\[[0-9;]*m", "", app.warning.getvalue()).splitlines():
        match = re.search(r"(?:\.rst|\.md):(\d+): WARNING: (.*) \[node\.(\w+)\]$", line) or \
            re.search(r"WARNING: (.*) \[node\.(\w+)\]$", line)
        if match and len(match.groups()) == 3:
            found.append((int(match.group(1)), match.group(3), match.group(2)))
        elif match:
            found.append((None, match.group(2), match.group(1)))
    return found


def test_node_def_renders_a_heading_with_its_types_and_a_permalink(built):
    app = built("basic")
    page = html(app, "rules")
    assert re.search(r'<section class="rpg-node rpg-type-E rpg-type-R" id="Generic.Trait.Energy">\s*'
                     r'<span id="generic-trait-energy"></span><h3>Energy \(E,R\)'
                     r'<a class="headerlink" href="#Generic.Trait.Energy"', page)


def test_node_heading_is_in_the_page_contents_nested_under_its_section(built):
    app = built("basic")
    toc = app.env.tocs["rules"]
    traits = toc[0][1][0]  # Rules > Traits
    assert traits.astext().startswith("Traits")
    energy = traits[1][0]
    assert energy.astext() == "Energy (E,R)"
    assert energy[0][0]["anchorname"] == "#Generic.Trait.Energy"


def test_no_contents_entry_keeps_the_node_out_of_the_contents_but_linkable(built):
    app = built("basic")
    assert "Health" not in app.env.tocs["rules"].astext()
    assert ('id="Generic.Attribute.HP"><span id="generic-attribute-hp"></span>Health (E,R)'
            '<a class="headerlink"') in html(app, "rules")
    assert app.env.get_domain("node").record("Generic.Attribute.HP") is not None


def test_type_lists_ignore_spaces(built):
    app = built("basic")
    domain = app.env.get_domain("node")
    assert domain.record("Generic.Trait.Energy").types == ("E", "R")
    assert domain.record("Generic.Attribute.HP").types == ("E", "R")


def test_no_index_renders_the_node_but_records_nothing(built):
    app = built("basic")
    assert "Scratch Note (T)" in html(app, "rules")
    assert app.env.get_domain("node").record("Generic.Scratch.Note") is None


def test_bare_reference_renders_title_and_types_across_pages(built):
    app = built("basic")
    page = html(app, "refs")
    assert re.search(r'<a class="reference internal" href="rules.html#Generic.Trait.Energy"[^>]*>'
                     r'<span class="[^"]*rpg-node-ref[^"]*">Energy \(E,R\)</span></a>', page)


def test_explicit_title_is_kept(built):
    app = built("basic")
    assert re.search(r'href="rules.html#Generic.Trait.Energy"[^>]*><span [^>]*>the energy pool</span></a>',
                     html(app, "refs"))


def test_bang_reference_renders_the_title_without_a_link(built):
    app = built("basic")
    page = html(app, "refs")
    assert re.search(r'unlinked <span class="[^"]*">Health \(E,R\)</span>', page)
    assert 'href="rules.html#Generic.Attribute.HP"' not in page


def test_any_role_resolves_nodes(built):
    app = built("basic")
    assert re.search(r'any-role <a class="reference internal" href="rules.html#Generic.Trait.Energy"',
                     html(app, "refs"))


@pytest.mark.sphinx("html", testroot="basic", freshenv=True, confoverrides={"rpg_ref_format": "{name} [{type_names}]",
                                                              "rpg_heading_format": "{name}"})
def test_reference_and_heading_formats_are_configurable(app):
    app.build()
    assert "Energy [Effect, Resource]</span></a>" in html(app, "refs")
    assert "<h3>Energy<a" in html(app, "rules")


def test_objects_inventory_lists_every_indexed_node(built):
    app = built("basic")
    with open(Path(app.outdir) / "objects.inv", "rb") as stream:
        inventory = InventoryFile.load(stream, "", lambda *parts: "/".join(parts))
    entry = inventory["node:node"]["Generic.Trait.Energy"]
    # the inventory (and the search index) use the lowercase alias id: see NodeRecord.search_anchor
    assert (entry.uri, entry.display_name) == ("rules.html#generic-trait-energy", "Energy (E,R)")
    assert "Generic.Scratch.Note" not in inventory["node:node"]


def test_node_indices_group_by_type_and_namespace(built):
    app = built("basic")
    by_type = html(app, "node-types")
    by_namespace = html(app, "node-namespaces")
    assert "Effect" in by_type and "Resource" in by_type and "Energy (E,R)" in by_type
    assert "Generic.Trait" in by_namespace and "Generic.Attribute" in by_namespace


def test_general_index_has_one_entry_per_node(built):
    app = built("basic")
    index = html(app, "genindex")
    assert index.count("Energy (E,R)") == 1 and "rules.html#Generic.Trait.Energy" in index
    assert "Scratch Note" not in index  # :no-index:


def test_a_clean_book_builds_without_warnings(built):
    app = built("basic")
    assert app.warning.getvalue() == ""


@pytest.mark.sphinx("html", testroot="warnings", freshenv=True)
def test_every_malformed_node_gives_a_located_typed_warning(app):
    app.build()
    warnings = node_warnings(app)
    expected = {
        (8, "uid"),  # no :uid:
        (11, "uid"),  # ill-formed uid
        (15, "type"),  # unknown code Q
        (19, "type"),  # no :type: and no rule
        (26, "ref"),  # dangling reference, reported without nitpicky mode
        (28, "type"),  # empty code in E,,R
        (32, "type"),  # a blank :type: on an unbound node
        (4, "duplicate"),  # other.rst:4 duplicates index.rst:22
    }
    assert {(line, subtype) for line, subtype, _ in warnings} == expected
    duplicate = next(message for _, subtype, message in warnings if subtype == "duplicate")
    assert "Test.Dup.Twice" in duplicate and "index.rst:22" in duplicate
    assert "Traceback" not in app.warning.getvalue()


@pytest.mark.sphinx("html", testroot="warnings", freshenv=True, confoverrides={"suppress_warnings": ["node.type", "node.ref"]})
def test_suppress_warnings_silences_a_subtype(app):
    app.build()
    subtypes = {subtype for _, subtype, _ in node_warnings(app)}
    assert subtypes == {"uid", "duplicate"}


@pytest.mark.sphinx("html", testroot="basic", freshenv=True, confoverrides={"rpg_ref_format": "{nmae} ({types})"})
def test_a_typo_in_the_reference_format_is_reported_once(app):
    app.build()
    warnings = [w for w in node_warnings(app) if w[1] == "option"]
    assert len(warnings) == 1 and "unknown field {nmae}" in warnings[0][2]
    assert "Energy (E,R)</span></a>" in html(app, "refs")  # the default format is used


@pytest.mark.sphinx("html", testroot="warnings", freshenv=True, confoverrides={"suppress_warnings": ["node"]})
def test_suppress_warnings_silences_every_node_warning(app):
    app.build()
    assert node_warnings(app) == []


@pytest.mark.sphinx("html", testroot="myst", freshenv=True)
def test_myst_pages_use_the_same_directive_and_roles(app):
    app.build()
    assert app.warning.getvalue() == ""
    rules = html(app, "rules")
    assert re.search(r'id="Generic.Trait.Energy">\s*<span id="generic-trait-energy"></span><h3>Energy \(E,R\)',
                     rules)
    index = html(app, "index")
    assert re.search(r'href="rules.html#Generic.Trait.Energy"[^>]*><span [^>]*>Energy \(E,R\)</span>', index)
    assert re.search(r'href="rules.html#Generic.Trait.Energy"[^>]*><span [^>]*>the pool</span>', index)
    paragraph = re.search(r"<p>A bare ref.*?</p>", index, re.S).group(0)
    assert paragraph.count('href="rules.html#Generic.Trait.Energy"') == 3  # the [](#uid) link too


@pytest.mark.sphinx("html", testroot="basic", freshenv=True)
def test_the_environment_keeps_one_string_per_uid_however_many_pages_refer_to_it(app):
    """Interned uids: a big book's environment pickles each uid once, not once per reference."""
    app.build()
    domain = app.env.get_domain("node")
    referenced = [uid for uids in domain.data["references"].values() for uid in uids]
    assert referenced
    for uid in referenced:
        record = domain.record(uid)
        if record is not None:
            assert uid is record.uid


@pytest.mark.sphinx("html", testroot="basic", freshenv=True)
def test_a_page_s_own_nodes_are_the_winning_records_defined_there(app):
    """What a written page asks of the domain (its own nodes) comes from the per-page index, not a walk of
    the book: the same records as filtering every winning record by page."""
    app.build()
    domain = app.env.get_domain("node")
    pages = {record.docname for record in domain.records()}
    assert pages
    for docname in pages | {"no-such-page"}:
        expected = sorted(record.uid for record in domain.records() if record.docname == docname)
        assert sorted(record.uid for record in domain.records_on(docname)) == expected


def test_a_dangling_uid_is_compared_with_every_uid_once_however_many_pages_link_it(
        write_book, build, warning_text, tmp_path, monkeypatch):
    import sphinx_rpg.domain

    source = write_book(tmp_path / "book")
    for n in range(3):  # three pages link a uid no page defines
        with (source / f"page{n}.rst").open("a") as page:
            page.write("\nAlso :node:ref:`Book.Page1.Thing9` and :node:ref:`Book.Page1.Thing9`.\n")
    compared = []

    def counting(word, candidates, limit=1):
        compared.append(word)
        return sphinx_rpg.spelling.did_you_mean(word, candidates, limit)

    monkeypatch.setattr(sphinx_rpg.domain, "did_you_mean", counting)
    text = warning_text(build(source, "html"))
    hints = re.findall(r"node reference target not found: 'Book\.Page1\.Thing9' \(did you mean '([\w.]+)'\?\)", text)
    assert len(hints) == 6 and len(set(hints)) == 1, hints
    assert compared == ["Book.Page1.Thing9"]


def test_a_dangling_uids_hint_is_looked_for_in_its_own_namespace_first(write_book, build, warning_text, tmp_path,
                                                                        monkeypatch):
    """Only the namespace's uids are compared when one of them is near; the whole book's when none is."""
    import sphinx_rpg.domain

    source = write_book(tmp_path / "book")
    with (source / "page0.rst").open("a") as page:
        page.write("\nAlso :node:ref:`Book.Page1.Thing9` and :node:ref:`Book.Pgae1.Thing0`.\n")
    pools = {}

    def recording(word, candidates, limit=1):
        pool = sorted(candidates)
        pools.setdefault(word, []).append(pool)
        return sphinx_rpg.spelling.did_you_mean(word, pool, limit)

    monkeypatch.setattr(sphinx_rpg.domain, "did_you_mean", recording)
    text = warning_text(build(source, "html"))
    assert re.search(r"'Book\.Page1\.Thing9' \(did you mean 'Book\.Page1\.Thing\d'\?\)", text)
    assert re.search(r"'Book\.Pgae1\.Thing0' \(did you mean 'Book\.Page1\.Thing0'\?\)", text)
    (siblings,) = pools["Book.Page1.Thing9"]
    assert siblings and all(uid.startswith("Book.Page1.") for uid in siblings)
    assert len(pools["Book.Pgae1.Thing0"]) == 1  # no sibling at all: the whole book at once
    assert any(not uid.startswith("Book.Page1.") for uid in pools["Book.Pgae1.Thing0"][0])


def test_referrers_looked_up_for_a_few_nodes_are_what_the_references_say(build, write_book, tmp_path):
    """A rebuild asks for the "Referenced by" pages of a few nodes: they are found in one walk of the
    references, without the map of every node's, and are the same pages."""
    from sphinx_rpg.domain import node_domain

    app = build(write_book(tmp_path / "book"))
    domain = node_domain(app.env)
    references = domain.data["references"]
    every = [record.uid for record in domain.records()]
    uids = every[:4]
    domain.note_reference("index", every[-1])  # the references change: the build's map is gone
    domain.look_up_referrers(uids)
    for uid in uids:
        expected = tuple(sorted(doc for doc, targets in references.items() if uid in targets))
        assert expected and domain.referrers(uid) == expected
    assert domain._referrers is None  # noqa: SLF001 (the whole map was not made)
    domain.note_reference("index", uids[0])  # and again: what was looked up is gone
    assert "index" in domain.referrers(uids[0])
