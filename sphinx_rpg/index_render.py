"""The node index pages' table, made in Python instead of by the theme's template loop.

A node index lists every node (``node-types`` once per type): about 27,000 rows in a book of 10,000
nodes.  A theme's ``domainindex.html`` renders each row through Jinja's sandbox and passes every
piece of it up through the nested blocks of the page layout; whenever a node changes, the two pages
took longer than all the pages the edit rewrote.  For the templates whose markup is known here
(Sphinx's basic theme, which alabaster and most themes inherit, and Furo's), the block that holds the
table is made as one string, byte for byte what the template makes, and the page is rendered by a
template that extends the theme's own ``domainindex.html`` with that block filled in: the page
around it (head, navigation, footer) is still the theme's.  A ``domainindex.html`` of any other
source (another theme, a project's own, a Sphinx that changed it) renders as before; so does an
index with entry kinds these renderers do not draw (sub-entries).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import Any

from markupsafe import escape

#: The theme's template's source digest -> (the block the table lives in, the renderer's name).
KNOWN_TEMPLATES = {
    # sphinx/themes/basic/domainindex.html (Sphinx 9.0)
    "ca9ce10c4f0eba9592fe81d0d3a8ecb5186e883aadc50cc05d7290fbfb767e31": ("body", "basic"),
    # furo/theme/furo/domainindex.html (Furo 2025.12)
    "80cdeb273c00f8be4a1b485a6b658f73304f3e539c10fd07c38fe26b2908e9c5": ("content", "furo"),
}
#: The page template that fills each kind of block (sphinx_rpg/templates).
WRAPPERS = {"body": "rpg-domainindex-body.html", "content": "rpg-domainindex-content.html"}

Entry = Sequence[Any]  # (name, subtype, docname, anchor, extra, qualifier, description)


def _e(value: Any) -> str:
    """Jinja's ``|e`` (markupsafe's ``escape``), by ``str.replace``: markupsafe makes an object per call."""
    if not isinstance(value, str) or hasattr(value, "__html__"):
        return str(escape(value))
    return (value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace("'", "&#39;").replace('"', "&#34;"))


def _link(entry: Entry, url: Callable[[str], str], indent: str) -> str | None:
    """The row's middle cells, the same markup in both templates but for the indent; None for a sub-entry."""
    name, subtype, page, anchor, extra, qualifier, _ = entry
    if subtype != 0:
        return None
    code = f'<code class="xref">{_e(name)}</code>'
    cell = f'\n{indent}<a href="{_e(url(page))}#{anchor}">{code}</a>' if page else f"\n{indent}{code}"
    return (cell + (f" <em>({_e(extra)})</em>" if extra else "") + "</td><td>"
            + (f"<strong>{_e(qualifier)}:</strong>" if qualifier else ""))


def render_basic(title: str, content: Sequence[tuple[str, Sequence[Entry]]],
                 url: Callable[[str], str]) -> str | None:
    """What ``{% block body %}`` of Sphinx's basic ``domainindex.html`` makes."""
    parts = [f'\n\n   <h1>{title}</h1>\n\n   <div class="modindex-jumpbox">']
    for number, (letter, _) in enumerate(content):
        parts.append(f'\n   <a href="#cap-{letter}"><strong>{letter}</strong></a>'
                     + ("" if number == len(content) - 1 else " | "))
    parts.append('\n   </div>\n\n   <table class="indextable modindextable">')
    for letter, entries in content:
        parts.append(f'\n     <tr class="pcap"><td></td><td>&#160;</td><td></td></tr>\n     <tr class="cap" '
                     f'id="cap-{letter}"><td></td><td>\n       <strong>{letter}</strong></td><td></td></tr>')
        for entry in entries:
            middle = _link(entry, url, "       ")
            if middle is None:
                return None
            parts.append(f"\n     <tr>\n       <td></td>\n       <td>{middle}\n       "
                         f"<em>{_e(entry[6])}</em></td></tr>")
    parts.append("\n   </table>\n\n")
    return "".join(parts)


def render_furo(title: str, content: Sequence[tuple[str, Sequence[Entry]]],
                url: Callable[[str], str]) -> str | None:
    """What ``{% block content %}`` of Furo's ``domainindex.html`` makes."""
    jump = " | ".join(f'<a href="#cap-{letter}"><strong>{letter}</strong></a>' for letter, _ in content)
    parts = [f'\n<section class="domainindex-section">\n  <h1>{title}</h1>\n  <div class="domainindex-jumpbox">'
             f'{jump}</div>\n</section>\n<table class="domainindex-table">']
    for letter, entries in content:
        parts.append(f'\n  <tr class="pcap">\n    <td></td><td>&#160;</td><td></td>\n  </tr>\n  <tr class="cap" '
                     f'id="cap-{letter}">\n    <td></td><td><strong>{letter}</strong></td><td></td>\n  </tr>')
        for entry in entries:
            middle = _link(entry, url, "        ")
            if middle is None:
                return None
            parts.append(f"\n  <tr>\n    <td></td>\n    <td>{middle}\n    <em>{_e(entry[6])}</em></td>\n  </tr>")
    parts.append("\n</table>\n")
    return "".join(parts)


RENDERERS: dict[str, Callable[[str, Sequence[tuple[str, Sequence[Entry]]], Callable[[str], str]], str | None]] = {
    "basic": render_basic, "furo": render_furo}


def template_kind(builder: Any) -> tuple[str, str] | None:
    """(block, renderer) for the builder's ``domainindex.html``, or None when its source is unknown here."""
    cached: tuple[str, str] | bool | None = getattr(builder, "_rpg_index_template", False)
    if cached is None or isinstance(cached, tuple):
        return cached
    kind: tuple[str, str] | None = None
    templates = getattr(builder, "templates", None)
    try:
        source = templates.get_source(templates.environment, "domainindex.html")[0]  # type: ignore[union-attr]
        kind = KNOWN_TEMPLATES.get(hashlib.sha256(source.encode("utf-8")).hexdigest())
    except Exception:  # another template bridge, or no such template: the theme renders the page
        kind = None
    builder._rpg_index_template = kind
    return kind


def fast_template(app: Any, context: dict[str, Any]) -> str | None:
    """``html-page-context`` for a node index page: fill the table's block here and name the wrapper."""
    kind = template_kind(app.builder)
    pathto = context.get("pathto")
    if kind is None or not callable(pathto):
        return None
    block, renderer = kind
    urls: dict[str, str] = {}

    def url(page: str) -> str:
        found = urls.get(page)
        if found is None:
            found = urls[page] = str(pathto(page))
        return found

    made = RENDERERS[renderer](str(context.get("indextitle", "")), context.get("content", []), url)
    if made is None:
        return None
    context["rpg_index_block"] = made
    return WRAPPERS[block]
