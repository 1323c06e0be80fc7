"""The tests' shared Jinja code (tests/template_code.py) renders what a fresh compile renders."""

from __future__ import annotations

from typing import Any

import pytest
from jinja2 import DictLoader, Environment

from tests.template_code import SharedTemplateCode


def environment(cache: SharedTemplateCode, source: str, **settings: Any) -> Environment:
    return Environment(loader=DictLoader({"page.html": source}), bytecode_cache=cache, **settings)


@pytest.fixture
def compiles(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the templates Jinja compiles from source from now on."""
    names: list[str] = []
    original = Environment.compile

    def compile(self: Environment, source: Any, name: str | None = None, *args: Any, **kwargs: Any) -> Any:
        names.append(str(name))
        return original(self, source, name, *args, **kwargs)

    monkeypatch.setattr(Environment, "compile", compile)
    return names


def test_a_template_is_compiled_once_for_every_environment_that_loads_it(compiles):
    cache = SharedTemplateCode()
    first, second = (environment(cache, "<p>{{ x }}</p>") for _ in range(2))
    assert first.get_template("page.html").render(x=1) == second.get_template("page.html").render(x=1) == "<p>1</p>"
    assert compiles == ["page.html"]


def test_an_edited_template_is_compiled_again(compiles):
    cache = SharedTemplateCode()
    assert environment(cache, "<p>{{ x }}</p>").get_template("page.html").render(x=1) == "<p>1</p>"
    assert environment(cache, "<b>{{ x }}</b>").get_template("page.html").render(x=1) == "<b>1</b>"
    assert compiles == ["page.html", "page.html"]


def test_environments_that_compile_differently_never_share_code():
    cache = SharedTemplateCode()
    plain = environment(cache, "{{ x }}").get_template("page.html").render(x="<b>")
    escaped = environment(cache, "{{ x }}", autoescape=True).get_template("page.html").render(x="<b>")
    assert (plain, escaped) == ("<b>", "&lt;b&gt;")
