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


def test_a_template_given_as_text_is_compiled_once_per_text_and_settings(compiles):
    """A theme's static templates (``basic.css.jinja``...) are rendered from their text at every build."""
    cache = SharedTemplateCode()
    first, second = Environment(bytecode_cache=cache), Environment(bytecode_cache=cache)
    assert cache.from_string(first, "a {{ x }}").render(x=1) == cache.from_string(second, "a {{ x }}").render(x=1)
    assert cache.from_string(first, "a {{ x }}").render(x="<") == first.from_string("a {{ x }}").render(x="<")
    assert compiles == ["None", "None"]  # the cache's one compile, then from_string's own
    assert cache.from_string(first, "b {{ x }}").render(x=1) == "b 1"  # another text: compiled
    escaped = cache.from_string(Environment(bytecode_cache=cache, autoescape=True), "a {{ x }}").render(x="<")
    assert escaped == "a &lt;" and len(compiles) == 4  # other settings: compiled, never shared
