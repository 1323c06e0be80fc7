"""A rule's first line, as a registry notes it, is the line ``inspect.getsourcelines`` gives."""

from __future__ import annotations

import functools
import importlib
import inspect
import sys

from rules.source_lines import first_line

MODULE = '''
import functools

def plain():
    pass

def deco(thing):
    return thing

@deco
@deco
def decorated():
    pass

def wraps_it(function):
    @functools.wraps(function)
    def wrapper(*args):
        return function(*args)
    return wrapper

@wraps_it
def wrapped():
    pass

class Plain:
    class Inner:
        pass

@deco
class Decorated:
    pass

if True:
    class InIf:
        pass

try:
    class InTry:
        pass
except ImportError:
    class InTry:
        pass

def factory():
    class Local:
        pass
    return Local

Local = factory()
'''


def test_a_rules_first_line_is_inspects_for_functions_wrapped_functions_and_classes_anywhere(tmp_path, monkeypatch):
    (tmp_path / "first_line_sample.py").write_text(MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("first_line_sample")
    try:
        names = ("plain", "decorated", "wrapped", "Plain", "Decorated", "InIf", "InTry", "Local")
        things = [getattr(module, name) for name in names] + [module.Plain.Inner]
        for thing in things:
            assert first_line(thing) == inspect.getsourcelines(thing)[1], thing
        assert first_line(module.Decorated) == MODULE.splitlines().index("@deco", 20) + 1
    finally:
        sys.modules.pop("first_line_sample", None)


def test_a_thing_without_source_has_no_first_line():
    assert first_line(len) is None
    assert first_line(functools.partial(print)) is None

