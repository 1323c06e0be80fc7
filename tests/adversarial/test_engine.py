"""A broken engine costs the broken part, not the build: every failure inside a rule object, a
registry or its module is a located ``node.*`` warning naming the node (or registry) and the error."""

from __future__ import annotations

import re

import pytest

from tests.adversarial.harness import END, build, write_book

BROKEN_FACTS = [
    ("runtime-error", "raise RuntimeError('facts broke')", "RuntimeError: facts broke"),
    ("sys-exit", "sys.exit(4)", "SystemExit: 4"),
    ("key-error", "raise KeyError('formula')", "KeyError: 'formula'"),
    ("recursion", "return self.facts()", "RecursionError"),
    ("not-iterable", "return 5", "TypeError"),
    ("zero-division", "return (1 / 0,)", "ZeroDivisionError"),
    ("base-exception", "raise BaseException('deep')", "BaseException: deep"),
]


@pytest.mark.parametrize("name, body, fragment", BROKEN_FACTS, ids=[c[0] for c in BROKEN_FACTS])
def test_a_rule_whose_facts_raise_is_shown_without_them(tmp_path, name, body, fragment):
    rules = (f"class Broken(Node):\n    def facts(self):\n        {body}\n"
             "REGISTRY.add(Broken(uid='Adv.Trait.Broken', name='Broken', types=('E',)))\n")
    pages = {"index": ".. node:def:: Broken\n   :uid: Adv.Trait.Broken\n\n"
                      ".. node:def:: Energy\n   :uid: Adv.Trait.Energy\n"}
    result = build(write_book(tmp_path, pages, rules))
    assert result.error is None
    assert result.warned("facts", "'Adv.Trait.Broken'", fragment, at="index.rst:4"), result.warnings
    html = result.page()
    assert "Focus" in html and END in html  # the next node keeps its facts, the page its end
    assert {n["uid"]: n["facts"] for n in result.nodes()}["Adv.Trait.Broken"] == []


BROKEN_VALUES = [
    ("runtime-error", "raise RuntimeError('values broke')", "RuntimeError: values broke"),
    ("sys-exit", "sys.exit(5)", "SystemExit: 5"),
    ("type-error", "raise TypeError('unhashable')", "TypeError: unhashable"),
    ("value-error", "raise ValueError('bad')", "ValueError: bad"),
    ("zero-division", "return 1 / 0", "ZeroDivisionError"),
    ("lookup-error", "raise LookupError('gone')", "LookupError: gone"),
]


@pytest.mark.parametrize("name, body, fragment", BROKEN_VALUES, ids=[c[0] for c in BROKEN_VALUES])
def test_a_values_mapping_that_raises_is_a_value_warning(tmp_path, name, body, fragment):
    rules = (f"class Values(dict):\n    def __contains__(self, key):\n        {body}\n"
             "REGISTRY.define('Adv.Trait.Odd', 'Odd', 'E', values=Values(base=1))\n")
    pages = {"index": "Odd is :node:value:`Adv.Trait.Odd:base` and Energy :node:value:`Adv.Trait.Energy:base`.\n"}
    result = build(write_book(tmp_path, pages, rules))
    assert result.error is None
    assert result.warned("value", "'Adv.Trait.Odd'", fragment, at="index.rst:4"), result.warnings
    assert '<span class="rpg-value">5</span>' in result.page() and END in result.page()


def test_a_value_that_cannot_print_itself_is_a_value_warning(tmp_path):
    rules = ("class Odd:\n    def __str__(self):\n        raise RuntimeError('no text')\n"
             "REGISTRY.define('Adv.Trait.Odd', 'Odd', 'E', values={'base': Odd()})\n")
    result = build(write_book(tmp_path, {"index": "Odd is :node:value:`Adv.Trait.Odd:base`.\n"}, rules))
    assert result.warned("value", "RuntimeError: no text", at="index.rst:4"), result.warnings


#: (case, rule code defining BAD, the fragment the node.registry warning must hold)
BROKEN_REGISTRIES = [
    ("iteration-raises", "class R(Registry):\n    def __iter__(self):\n        raise RuntimeError('no nodes')\n"
                         "BAD = R('bad')\n", "RuntimeError: no nodes"),
    ("iteration-exits", "class R(Registry):\n    def __iter__(self):\n        sys.exit(3)\n"
                        "BAD = R('bad')\n", "SystemExit: 3"),
    ("iteration-fails-midway", "class R(Registry):\n    def __iter__(self):\n"
                               "        yield from REGISTRY\n        raise ValueError('midway')\n"
                               "BAD = R('bad')\n", "ValueError: midway"),
    ("yields-a-string", "class R(Registry):\n    def __iter__(self):\n        return iter(['Adv.Fake'])\n"
                        "BAD = R('bad')\n", "is not a rules.nodes.Node"),
    ("node-types-raise", "class R(Registry):\n    @property\n    def node_types(self):\n"
                         "        raise RuntimeError('no labels')\n    @node_types.setter\n"
                         "    def node_types(self, value):\n        pass\nBAD = R('bad')\n", "RuntimeError: no labels"),
    ("label-not-text", "BAD = Registry('bad', node_types={'E': 42})\n", "is not text"),
    ("code-not-text", "BAD = Registry('bad', node_types={7: 'Seven'})\n", "is not text"),
    ("multi-line-label", "BAD = Registry('bad', node_types={'E': 'Eff\\nect'})\n", "must be one line"),
    ("not-a-registry", "BAD = {'uid': 'x'}\n", "is dict, not a rules.nodes.Registry"),
    ("missing-attribute", "", "is nothing, not a rules.nodes.Registry"),
]


@pytest.mark.parametrize("name, code, fragment", BROKEN_REGISTRIES, ids=[c[0] for c in BROKEN_REGISTRIES])
def test_a_broken_registry_is_left_out_with_a_located_warning(tmp_path, name, code, fragment):
    conf = "rpg_registries = rpg_registries + ['{module}:BAD']\n"
    pages = {"index": ".. node:def:: Energy\n   :uid: Adv.Trait.Energy\n"}
    result = build(write_book(tmp_path, pages, code, conf))
    assert result.error is None
    # where the engine raised, the warning stands at the engine's own line and names conf.py's
    assert (result.warned("registry", fragment, at="conf.py:5")
            or any(fragment in line and "conf.py:5)" in line and line.split(": WARNING:")[0].rpartition(":")[0]
                   .endswith(".py") and "advrules_" in line.split(": WARNING:")[0]
                   for line in result.node_warnings("registry"))), result.warnings
    energy = {n["uid"]: n for n in result.nodes()}["Adv.Trait.Energy"]
    assert energy["rule"] is not None and END in result.page()  # the good registry still binds


#: Registry modules that fail while they are imported.
FAILING_MODULES = [
    ("sys-exit-3", "import sys\nsys.exit(3)\n", "SystemExit: 3"),
    ("system-exit-text", "raise SystemExit('bye')\n", "SystemExit: bye"),
    ("base-exception", "class Stop(BaseException): pass\nraise Stop('stop')\n", "Stop: stop"),
    ("syntax-error", "def (:\n", "SyntaxError"),
    ("missing-dependency", "import no_such_module_anywhere\n", "ModuleNotFoundError"),
    ("recursion", "def f(): return f()\nf()\n", "RecursionError"),
]


@pytest.mark.parametrize("name, code, fragment", FAILING_MODULES, ids=[c[0] for c in FAILING_MODULES])
def test_a_registry_module_that_fails_to_import_is_a_located_warning(tmp_path, name, code, fragment):
    module = f"failing_{name.replace('-', '_')}"
    conf = f"rpg_registries = rpg_registries + ['{module}:REGISTRY']\n"
    pages = {"index": ".. node:def:: Energy\n   :uid: Adv.Trait.Energy\n", f"{module}.py": code}
    result = build(write_book(tmp_path, pages, conf=conf))
    assert result.error is None
    # at the module's own file and line (where it failed), naming the conf.py line that asked for it
    lines = [line for line in result.node_warnings("registry") if f"cannot import '{module}'" in line]
    assert len(lines) == 1 and fragment in lines[0] and "conf.py:5)" in lines[0], result.warnings
    assert re.search(rf"{module}\.py:\d+$", lines[0].split(": WARNING:")[0]), lines[0]
    assert END in result.page()


ODD_SETTINGS = [
    ("a-string", "rpg_registries = '{module}:REGISTRY'\n", "is a string"),
    ("a-number-in-the-list", "rpg_registries = rpg_registries + [5]\n", "is not an import path"),
    # a module path without ':NAME' means its REGISTRY, as for `rpg --system` (one loader, one syntax)
    ("module-path", "rpg_registries = rpg_registries + ['just.a.module']\n", "unknown game system 'just.a.module'"),
]


@pytest.mark.parametrize("name, conf, fragment", ODD_SETTINGS, ids=[c[0] for c in ODD_SETTINGS])
def test_odd_registry_settings_give_one_clear_located_warning(tmp_path, name, conf, fragment):
    result = build(write_book(tmp_path, {"index": ".. node:def:: Energy\n   :uid: Adv.Trait.Energy\n"},
                              conf=conf))
    registry_warnings = result.node_warnings("registry")
    assert len(registry_warnings) == 1 and result.warned("registry", fragment), result.warnings
    assert "conf.py:" in registry_warnings[0].split("WARNING")[0]
    assert not [w for w in result.warnings if "has type `str'" in w or "rpg_registries" in w and "node." not in w]
    assert {n["uid"]: n for n in result.nodes()}["Adv.Trait.Energy"]["rule"] is not None


def test_the_deprecated_table_modules_setting_warns_where_it_is_set(tmp_path):
    result = build(write_book(tmp_path, {}, conf="rpg_table_modules = ['rules']\n"))
    assert result.warned("option", "rpg_table_modules is deprecated", at="conf.py:11"), result.warnings


POOL_PARSERS = [
    ("exits", "lambda text: sys.exit(2)", "SystemExit: 2"),
    ("recurses", "_p\ndef _p(text): return _p(text)", "RecursionError"),
    ("raises", "lambda text: 1 / 0", "ZeroDivisionError"),
]


@pytest.mark.parametrize("name, parser, fragment", POOL_PARSERS, ids=[c[0] for c in POOL_PARSERS])
def test_a_failing_pool_notation_is_a_table_warning(tmp_path, name, parser, fragment):
    head, _, tail = parser.partition("\n")
    rules = f"{tail}\nfrom rules.systems import SystemNotation\nREGISTRY.notation = SystemNotation({head}, 'x')\n"
    result = build(write_book(tmp_path, {"index": ".. node:odds:: Agility 2\n   :system: adv\n"}, rules))
    assert result.error is None
    assert result.warned("table", fragment, at="index.rst:4"), result.warnings
    assert END in result.page()
