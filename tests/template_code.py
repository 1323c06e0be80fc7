"""Compiled Jinja templates shared by every Sphinx application a test process makes.

Each Sphinx application makes a Jinja environment of its own and compiles the theme's templates again
(layout.html, page.html and what they include: about a third of the CPU of a small test build).  The
tests make hundreds of small applications from the same few template files, so they lend every one
of them one Jinja bytecode cache (Jinja's own mechanism, made for this): a template is compiled once
per process and loaded from its code afterwards.  Jinja checks the template's source against the
code's checksum, so an edited template is compiled again; the key also holds every environment
setting that changes the compiled code, so environments set up differently never share code.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from jinja2 import BytecodeCache, Environment
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

    def get_bucket(self, environment: Environment, name: str, filename: str | None, source: str) -> Bucket:
        settings = [type(environment).__qualname__, sorted(environment.extensions),
                    *(repr(getattr(environment, setting, None)) for setting in _CODE_SETTINGS)]
        keyed = hashlib.sha256(repr(settings).encode()).hexdigest() + "|" + name
        return super().get_bucket(environment, keyed, filename, source)

    def load_bytecode(self, bucket: Bucket) -> None:
        code = self.code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.code[bucket.key] = bucket.bytecode_to_string()

    def clear(self) -> None:
        self.code.clear()


@contextmanager
def shared_template_code() -> Iterator[SharedTemplateCode]:
    """While open, every Sphinx template environment made in this process uses one shared cache."""
    from sphinx.jinja2glue import BuiltinTemplateLoader

    cache = SharedTemplateCode()
    original: Callable[..., None] = BuiltinTemplateLoader.init

    def init(self: BuiltinTemplateLoader, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        self.environment.bytecode_cache = cache

    BuiltinTemplateLoader.init = init  # type: ignore[method-assign]
    try:
        yield cache
    finally:
        BuiltinTemplateLoader.init = original  # type: ignore[method-assign]
