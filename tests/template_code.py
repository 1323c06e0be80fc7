"""Compiled Jinja templates shared by every Sphinx application a test process makes.

Each Sphinx application makes a Jinja environment of its own and compiles the theme's templates again
(layout.html, page.html and what they include: about a third of the CPU of a small test build).  The
tests make hundreds of small applications from the same few template files, so they lend every one
of them one Jinja bytecode cache (Jinja's own mechanism, made for this): a template is compiled once
per process and loaded from its code afterwards.  Jinja checks the template's source against the
code's checksum, so an edited template is compiled again; the key also holds every environment
setting that changes the compiled code, so environments set up differently never share code.

The static files a theme renders as it copies them (``basic.css.jinja``, ``documentation_options.js.jinja``,
alabaster's ``alabaster.css_t``) are templates too, compiled from their text at every HTML build by
``BuiltinTemplateLoader.render_string`` through ``Environment.from_string``, which no bytecode cache serves:
their code is kept the same way, keyed by the text itself and the same settings.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import CodeType
from typing import Any

from jinja2 import BytecodeCache, Environment, Template
from jinja2.bccache import Bucket

#: Environment settings that the compiled code of a template depends on.
_CODE_SETTINGS = ("block_start_string", "block_end_string", "variable_start_string", "variable_end_string",
                  "comment_start_string", "comment_end_string", "line_statement_prefix", "line_comment_prefix",
                  "trim_blocks", "lstrip_blocks", "newline_sequence", "keep_trailing_newline", "optimized",
                  "finalize", "autoescape", "is_async")


class SharedTemplateCode(BytecodeCache):
    """An in-memory Jinja bytecode cache keyed by template, file and the environment's code settings."""

    def __init__(self) -> None:
        self.code: dict[str, bytes] = {}
        #: compiled code of templates given as text (``from_string``), by settings and text
        self.texts: dict[str, CodeType] = {}

    @staticmethod
    def settings_key(environment: Environment) -> str:
        """What of ``environment`` its compiled code depends on, as a digest."""
        settings = [type(environment).__qualname__, sorted(environment.extensions),
                    *(repr(getattr(environment, setting, None)) for setting in _CODE_SETTINGS)]
        return hashlib.sha256(repr(settings).encode()).hexdigest()

    def get_bucket(self, environment: Environment, name: str, filename: str | None, source: str) -> Bucket:
        return super().get_bucket(environment, self.settings_key(environment) + "|" + name, filename, source)

    def from_string(self, environment: Environment, source: str) -> Template:
        """``environment.from_string(source)``, its code compiled once per text and settings."""
        key = self.settings_key(environment) + "|text|" + hashlib.sha256(source.encode()).hexdigest()
        code = self.texts.get(key)
        if code is None:
            code = self.texts[key] = environment.compile(source)
        return environment.template_class.from_code(environment, code, environment.make_globals(None), None)

    def load_bytecode(self, bucket: Bucket) -> None:
        code = self.code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.code[bucket.key] = bucket.bytecode_to_string()

    def clear(self) -> None:
        self.code.clear()
        self.texts.clear()


@contextmanager
def shared_template_code() -> Iterator[SharedTemplateCode]:
    """While open, every Sphinx template environment made in this process uses one shared cache."""
    from sphinx.jinja2glue import BuiltinTemplateLoader

    cache = SharedTemplateCode()
    original: Callable[..., None] = BuiltinTemplateLoader.init
    original_render_string: Callable[..., str] = BuiltinTemplateLoader.render_string

    def init(self: BuiltinTemplateLoader, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        self.environment.bytecode_cache = cache

    def render_string(self: BuiltinTemplateLoader, source: str, context: dict[str, Any]) -> str:
        return cache.from_string(self.environment, source).render(context)

    BuiltinTemplateLoader.init = init  # type: ignore[method-assign]
    BuiltinTemplateLoader.render_string = render_string  # type: ignore[method-assign]
    try:
        yield cache
    finally:
        BuiltinTemplateLoader.init = original  # type: ignore[method-assign]
        BuiltinTemplateLoader.render_string = original_render_string  # type: ignore[method-assign]
