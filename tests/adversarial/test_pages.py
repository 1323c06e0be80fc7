"""Hostile page text: a page can show only published tables, with checked arguments, and cannot stop,
hang or recurse the build.  Every case is a tiny project, or a page of its own in a book whose pages
differ only in their text (one build for a table of cases); each must build with a located warning."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.adversarial.harness import END, Build, build, write_book


def case_page(directive: str) -> str:
    """A page of one case: its directive on line 4 (as in a one-page book's index), the page's end after it."""
    return f"Case\n====\n\n{directive}\n\n{END}\n"


def one_book(root: Path, cases: dict[str, str], conf: str = "") -> Build:
    """One book of a page per case (name -> the case's directive), built once for every case of a table."""
    return build(write_book(root, {name: case_page(text) for name, text in cases.items()}, conf=conf))

#: Import paths page text used to reach (conf.py opens them the old way, with rpg_table_modules).
IMPORT_PATHS = [
    ("runs-a-conf-file", "sphinx_rpg.sybil:registries_from_conf", "conf_py=evil.py"),
    ("exits-through-argparse", "sphinx_rpg.cli:main", ""),
    ("cli-with-arguments", "sphinx_rpg.cli:main", "argv=roll"),
    ("writes-nodes-json", "sphinx_rpg.export:write_nodes_json", ""),
    ("parses-a-range", "sphinx_rpg.directives.tables:parse_range", "text=1-5"),
    ("binds-registries", "sphinx_rpg.binding:bind", "paths=x"),
    ("loads-a-registry", "sphinx_rpg.binding:load_registry", "path=os:environ"),
    ("unpublished-engine-function", "ADV:unpublished", ""),
    ("unpublished-with-arguments", "ADV:unpublished", "n=3"),
    ("record-helper", "ADV:record", "what=pwned"),
    ("registry-class", "rules.nodes:Registry", "system=x"),
    ("node-class", "rules.nodes:Node", "uid=A, name=b, types=E"),
    ("table-class", "rules.tables:Table", ""),
    ("example-table-outside-registry", "rules.tables:example_table", ""),
]


@pytest.fixture(scope="module")
def import_path_book(tmp_path_factory) -> Build:
    """Every import path on a page of its own, in one book whose conf.py opens them the old way."""
    pages = {name: case_page(f".. node:table:: {target}" + (f"\n   :args: {args}" if args else ""))
             for name, target, args in IMPORT_PATHS}
    root = write_book(tmp_path_factory.mktemp("import-paths"), pages,
                      conf="rpg_table_modules = ['sphinx_rpg', 'rules', '{module}']\n")
    module = next(p.stem for p in root.glob("advrules_*.py"))
    for name in pages:  # ADV: the book's own rules module, named once written
        page = root / f"{name}.rst"
        page.write_text(page.read_text().replace("ADV:", f"{module}:"))
    (root / "evil.py").write_text("import pathlib\npathlib.Path(__file__).with_name('CALLS').write_text('ran')\n")
    return build(root)


@pytest.mark.parametrize("name, target, args", IMPORT_PATHS, ids=[c[0] for c in IMPORT_PATHS])
def test_node_table_never_calls_an_import_path(import_path_book, name, target, args):
    result = import_path_book
    assert result.error is None
    assert result.warned("table", "published", at=f"/{name}.rst:4"), result.warnings
    assert result.calls() == [] and END in result.page(name)


#: (case, :args: text, the fragment the warning must hold) against the probe table.
BAD_ARGUMENTS = [
    ("above-the-bound", "n=30000000", "n=30000000: outside 1 to 10"),
    ("below-the-bound", "n=0", "n=0: outside 1 to 10"),
    ("negative", "n=-5", "n=-5: outside 1 to 10"),
    ("huge-digits", "n=" + "9" * 40, "expected a whole number"),
    ("not-a-number", "n=three", "expected a whole number"),
    ("a-fraction", "n=1/2", "expected a whole number"),
    ("a-decimal", "n=2.5", "expected a whole number"),
    ("hexadecimal", "n=0x10", "expected a whole number"),
    ("exponent", "n=1e3", "expected a whole number"),
    ("a-bool-for-an-int", "n=true", "expected a whole number"),
    ("an-int-for-a-bool", "flag=2", "expected true or false"),
    ("unknown-word-for-bool", "flag=maybe", "expected true or false"),
    ("not-a-choice", "mode=sideways", "expected one of on, off"),
    ("choice-wrong-case", "mode=ON", "expected one of on, off"),
    ("text-too-long", "notation=1234567890123", "longer than 8 characters"),
    ("text-not-notation", "notation=os.sys", "not an accepted value"),
    ("text-expression", "notation=1d6*999", "not an accepted value"),
    ("undeclared-name", "levels=30000000", "takes no argument 'levels'"),
    ("dunder-name", "__class__=x", "takes no argument '__class__'"),
    ("keyword-smuggling", "n=2, kwargs=x", "takes no argument 'kwargs'"),
    ("given-twice", "n=2, n=3", "given twice"),
    ("no-equals", "n", "expected name=value"),
    ("no-name", "=3", "expected name=value"),
    ("name-with-dot", "os.path=3", "expected name=value"),
    ("too-long-overall", "n=1, " + "x" * 300, "longer than 200 characters"),
]


@pytest.mark.parametrize("name, args, fragment", BAD_ARGUMENTS, ids=[c[0] for c in BAD_ARGUMENTS])
def test_published_table_arguments_are_checked_before_the_call(refused_book, name, args, fragment):
    result, page = refused_book, f"args-{name}"
    assert result.warned("table", fragment, at=f"/{page}.rst:4"), result.warnings
    assert result.calls() == [], "the engine was called with page text it did not accept"
    assert END in result.page(page)


GOOD_ARGUMENTS = [
    ("defaults", "", "probe 2 False 'on' '1d6'"),
    ("bounds-included", "n=10, flag=yes, mode=off, notation=12d100", "probe 10 True 'off' '12d100'"),
    ("quoted-and-spaced", " n = 1 , notation = '2d6' ", "probe 1 False 'on' '2d6'"),
]


@pytest.fixture(scope="module")
def accepted_book(tmp_path_factory) -> Build:
    """Every accepted argument list on a page of its own, in one book (each page calls the probe once)."""
    return one_book(tmp_path_factory.mktemp("accepted"), {
        f"args-{name}": ".. node:table:: adv:probe" + (f"\n   :args: {args}" if args else "")
        for name, args, _ in GOOD_ARGUMENTS})


@pytest.mark.parametrize("name, args, call", GOOD_ARGUMENTS, ids=[c[0] for c in GOOD_ARGUMENTS])
def test_published_table_receives_converted_arguments(accepted_book, name, args, call):
    result = accepted_book
    # one call a page, so the call this case expects is one of its own page's
    assert call in result.calls() and len(result.calls()) == len(GOOD_ARGUMENTS)
    assert not result.node_warnings("table")


#: (case, extra rule code publishing a table, the fragment the node.table warning must hold)
HOSTILE_TABLES = [
    ("sys-exit", "@REGISTRY.table()\ndef bad():\n    sys.exit(3)\n", "SystemExit: 3"),
    ("system-exit-zero", "@REGISTRY.table()\ndef bad():\n    raise SystemExit(0)\n", "SystemExit: 0"),
    ("base-exception", "class Odd(BaseException): pass\n@REGISTRY.table()\ndef bad():\n    raise Odd('odd')\n",
     "Odd: odd"),
    ("generator-exit", "@REGISTRY.table()\ndef bad():\n    raise GeneratorExit('x')\n", "GeneratorExit"),
    ("unbounded-recursion", "@REGISTRY.table()\ndef bad(n=0):\n    return bad(n + 1)\n", "RecursionError"),
    ("multi-line-message", "@REGISTRY.table()\ndef bad():\n    raise ValueError('one\\ntwo\\nthree')\n",
     "ValueError: one\\ntwo\\nthree"),
    ("escape-sequence-message", "@REGISTRY.table()\ndef bad():\n    raise ValueError('\\x1b[31mred')\n",
     "ValueError: \\x1b[31mred"),
    ("hostile-str", "class E(Exception):\n    def __str__(self):\n        raise RuntimeError('no')\n"
                    "@REGISTRY.table()\ndef bad():\n    raise E()\n", "cannot be printed"),
    ("not-a-table", "@REGISTRY.table()\ndef bad():\n    return 42\n", "returned int"),
    ("too-many-rows", "@REGISTRY.table()\ndef bad():\n    return Table.of(('a',), [(i,) for i in range(5000)])\n",
     "5000 rows"),
    ("memory-error", "@REGISTRY.table()\ndef bad():\n    raise MemoryError('big')\n", "MemoryError: big"),
]


@pytest.mark.parametrize("name, code, fragment", HOSTILE_TABLES, ids=[c[0] for c in HOSTILE_TABLES])
def test_a_failing_published_table_is_a_located_warning(tmp_path, name, code, fragment):
    root = write_book(tmp_path, {"index": ".. node:table:: adv:bad\n\n.. node:table:: adv:probe\n"}, code)
    result = build(root)
    assert result.error is None
    assert result.warned("table", fragment, at="index.rst:4"), result.warnings
    assert all("\x1b" not in w for w in result.warnings)
    assert result.calls() == ["probe 2 False 'on' '1d6'"] and END in result.page()


NAMES = [
    ("unknown-system", "nosuch:probe", "no table 'probe' is published by 'nosuch'"),
    ("unknown-table", "adv:nosuch", "no table 'nosuch' is published by 'adv'"),
    ("path-traversal", "../adv:probe", "is not a published table name"),
    ("lookalike-letter", "adv:pr\u03bfbe", "is not a published table name"),
    ("import-path-hint", "advrules.tables:probe", "an import path"),
    ("trailing-command", "adv:probe;rm", "is not a published table name"),
]


@pytest.mark.parametrize("name, target, fragment", NAMES, ids=[c[0] for c in NAMES])
def test_node_table_names_a_published_table(refused_book, name, target, fragment):
    result, page = refused_book, f"table-{name}"
    assert result.warned("table", fragment, at=f"/{page}.rst:4"), result.warnings
    assert result.calls() == [] and END in result.page(page)


#: Filters that once recursed without bound or ran the parser out of stack.
DEEP_FILTERS = [
    ("400-parentheses", "(" * 400 + "uid == 'a'" + ")" * 400),
    ("500-nots", "not " * 240 + "uid == 'a'"),
    ("mixed-nesting", "(not " * 150 + "uid == 'a'" + ")" * 150),
    ("unbalanced-deep", "(" * 300 + "uid == 'a'"),
    ("33-deep", "(" * 33 + "uid == 'a'" + ")" * 33),
]
#: The directives that take a filter.
FILTERING = ["list", "cards"]


@pytest.mark.parametrize("directive", FILTERING)
@pytest.mark.parametrize("name, text", DEEP_FILTERS, ids=[c[0] for c in DEEP_FILTERS])
def test_a_deeply_nested_filter_is_refused_with_a_warning(refused_book, directive, name, text):
    result, page = refused_book, f"filter-{directive}-{name}"
    assert result.warned("filter", "nest more than 32 deep", at=f"/{page}.rst:4"), result.warnings
    assert END in result.page(page)


#: (case, rule code publishing a stat block ``bad``, the fragment the node.statblock warning must hold)
HOSTILE_STATBLOCKS = [
    ("unbounded-recursion", "@REGISTRY.statblock()\ndef bad(n=0):\n    return bad(n + 1)\n", "RecursionError"),
    ("memory-error", "@REGISTRY.statblock()\ndef bad():\n    raise MemoryError('big')\n", "MemoryError: big"),
    ("not-a-block", "@REGISTRY.statblock()\ndef bad():\n    record('bad')\n    return Table.of(('a',), [(1,)])\n",
     "built Table, not a StatBlock"),
    ("thousands-of-targets", "from rules.dice import Dist\nfrom rules.statblocks import Attack, StatBlock\n"
                             "@REGISTRY.statblock()\ndef bad():\n    return StatBlock('X', 'Y', '', (), (), "
                             "Attack('a', 'Adv.Trait.Energy', 'd6', Dist.die(6), tuple(range(5000))))\n",
     "1 to 12 targets, not 5000"),
    ("odds-of-words", "from rules.dice import Dist\nfrom rules.statblocks import Attack, StatBlock\n"
                      "@REGISTRY.statblock()\ndef bad():\n    return StatBlock('X', 'Y', '', (), (), "
                      "Attack('a', 'Adv.Trait.Energy', 'd6', Dist({'hit': 1, 'miss': 1}), (3,)))\n",
     "TypeError"),
]


@pytest.mark.parametrize("name, code, fragment", HOSTILE_STATBLOCKS, ids=[c[0] for c in HOSTILE_STATBLOCKS])
def test_a_failing_stat_block_is_a_located_warning(tmp_path, name, code, fragment):
    root = write_book(tmp_path, {"index": ".. node:statblock:: adv:bad\n\n.. node:table:: adv:probe\n"}, code)
    result = build(root)
    assert result.error is None
    assert result.warned("statblock", fragment, at="index.rst:4"), result.warnings
    assert result.calls()[-1] == "probe 2 False 'on' '1d6'"  # the page went on past the block
    assert END in result.page()


#: (tests/extension/test_statblocks.py covers unknown systems and blocks, import paths and a builder that exits)
STATBLOCK_NAMES = [
    ("path-traversal", "../adv:probe", "is not a published stat block name"),
    ("trailing-command", "adv:probe;rm", "is not a published stat block name"),
]


@pytest.mark.parametrize("name, target, fragment", STATBLOCK_NAMES, ids=[c[0] for c in STATBLOCK_NAMES])
def test_node_statblock_names_a_published_block(refused_book, name, target, fragment):
    result, page = refused_book, f"block-{name}"
    assert result.warned("statblock", fragment, at=f"/{page}.rst:4"), result.warnings
    assert result.calls() == [] and END in result.page(page)


@pytest.fixture(scope="module")
def refused_book(tmp_path_factory) -> Build:
    """Every refused argument list, table or stat block name and deep filter on a page of its own, in one
    book: none may reach the engine (the probe records each call), so the book's calls are none at all."""
    cases = {f"args-{name}": f".. node:table:: adv:probe\n   :args: {args}" for name, args, _ in BAD_ARGUMENTS}
    cases |= {f"table-{name}": f".. node:table:: {target}" for name, target, _ in NAMES}
    cases |= {f"filter-{directive}-{name}": f".. node:{directive}::\n   :filter: {text}"
              for directive in FILTERING for name, text in DEEP_FILTERS}
    cases |= {f"block-{name}": f".. node:statblock:: {target}" for name, target, _ in STATBLOCK_NAMES}
    return one_book(tmp_path_factory.mktemp("refused"), cases)
