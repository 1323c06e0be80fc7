"""What a built page's own HTML says, read without a browser: its prose, what it asks the browser to
fetch, and its kind.

Most of what a tour of the site in Chromium checked is written in the HTML itself: the prose a reader
sees (raw TeX left in it), and every script, style sheet, image, frame and font (through the style
sheets) the page loads: whether one comes from another host, whether a local one exists.  Reading it
here costs about twenty milliseconds of CPU a page (a page load in Chromium, ten times that), so
every page of the site is checked, in both respects.

What only a browser sees (a script's uncaught exception, a request a script makes) depends on the
scripts a page loads and on the extension's widgets they act on: ``kind`` names both, read from the
HTML (the ``rpg-`` classes and ids that the page's own scripts mention), so the browser tour loads one
page of each kind, and a page of a new kind is toured without anyone listing it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

#: The site as the static reader addresses it: a loopback origin, like the test server's.
BASE = "http://127.0.0.1/"
#: Elements whose text is code or machinery, not prose (as the browser tour's prose left them out).
NOT_PROSE = {"pre", "code", "script", "style", "template"}
#: ``<link rel>`` values the browser fetches (navigation links such as next, prev, search are not loads).
FETCHED_RELS = {"stylesheet", "icon", "shortcut", "apple-touch-icon", "mask-icon", "preload", "modulepreload",
                "prefetch", "manifest"}
#: Attributes that make the browser fetch a URL, by element.
FETCHED_ATTRIBUTES = {"script": ("src",), "img": ("src", "srcset"), "source": ("src", "srcset"),
                      "video": ("src", "poster"), "audio": ("src",), "track": ("src",), "iframe": ("src",),
                      "embed": ("src",), "object": ("data",), "input": ("src",)}
CSS_URL = re.compile(r"""url\(\s*(['"]?)(?P<url>[^'")]*)\1\s*\)|@import\s+(['"])(?P<imported>[^'"]*)\3""")
RPG_TOKEN = re.compile(r"rpg-[A-Za-z0-9_-]*[A-Za-z0-9]")


def site_pages(root: Path) -> list[str]:
    """The site-relative path of every HTML page of the site built in ``root``, sorted (the pages of
    Sphinx's own folders, ``_static``, ``_sources``..., left out)."""
    return sorted(path.relative_to(root).as_posix() for path in root.rglob("*.html")
                  if not any(part.startswith(("_", ".")) for part in path.relative_to(root).parts))


def css_urls(text: str) -> list[str]:
    """Every ``url(...)`` and ``@import "..."`` of a style sheet (its comments left out)."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return [match.group("url") or match.group("imported") for match in CSS_URL.finditer(text)
            if (match.group("url") or match.group("imported") or "").strip()]


def _srcset(value: str) -> list[str]:
    return [candidate.split()[0] for candidate in value.split(",") if candidate.strip()]


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.in_body = False
        self.hidden = 0  # depth inside NOT_PROSE elements
        self.prose: list[str] = []
        self.loads: list[str] = []
        self.scripts: list[str] = []
        self.inline_scripts: set[str] = set()
        self.tokens: set[str] = set()
        self.links: list[str | None] = []  # the open <a> elements: their href if they are references
        self.node_refs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if tag == "body":
            self.in_body = True
        if tag in NOT_PROSE:
            self.hidden += 1
        if tag == "a":
            self.links.append(values.get("href") if "reference" in values.get("class", "").split() else None)
        if tag == "span" and "rpg-node-ref" in values.get("class", "").split() and self.links and self.links[-1]:
            self.node_refs.append(self.links[-1])
        if tag == "script":
            if values.get("src"):
                self.scripts.append(values["src"])
            else:
                self.inline_scripts.add(values.get("type", "text/javascript"))
        for name in FETCHED_ATTRIBUTES.get(tag, ()) if tag != "input" or values.get("type") == "image" else ():
            if values.get(name):
                self.loads.extend(_srcset(values[name]) if name == "srcset" else [values[name]])
        if tag == "link" and set(values.get("rel", "").lower().split()) & FETCHED_RELS and values.get("href"):
            self.loads.append(values["href"])
        if values.get("style"):
            self.loads.extend(css_urls(values["style"]))
        self.tokens.update(token for token in values.get("class", "").split() if token.startswith("rpg-"))
        if values.get("id", "").startswith("rpg-"):
            self.tokens.add(values["id"])

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag in NOT_PROSE:
            self.hidden -= 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self.links:
            self.links.pop()
        if tag in NOT_PROSE and self.hidden:
            self.hidden -= 1
        if tag == "body":
            self.in_body = False

    def handle_data(self, data: str) -> None:
        if self.in_body and not self.hidden:
            self.prose.append(data)
        if self.hidden and self.lasttag == "style":
            self.loads.extend(css_urls(data))


@dataclass(frozen=True)
class PageHtml:
    """One built page as its HTML says it (URLs resolved against ``BASE`` + its path)."""

    path: str
    prose: str  # the body's text outside pre, code, script, style and template
    loads: tuple[str, ...]  # every URL the page's HTML has the browser fetch, style sheets' own included
    scripts: tuple[str, ...]  # the URLs of its scripts, in order
    inline_scripts: frozenset[str]  # the types of its inline scripts (code, JSON data)
    tokens: frozenset[str]  # every rpg- class and id it has
    node_refs: tuple[str, ...]  # where its node references lead (a.reference around a span.rpg-node-ref)
    missing: tuple[str, ...] = field(default=())  # local loads with no file in the site


def site_path(url: str) -> str:
    """The site-relative path and anchor of a URL of the site (``BASE`` or a server's): ``a/b.html#x``."""
    parts = urlsplit(url)
    return parts.path.lstrip("/") + (f"#{parts.fragment}" if parts.fragment else "")


def local_file(root: Path, url: str) -> Path | None:
    """The file of the site a resolved URL names, or ``None`` for another host or a data:/blob: URL."""
    parts = urlsplit(url)
    if f"{parts.scheme}://{parts.netloc}/" != BASE:
        return None
    return root / unquote(parts.path.lstrip("/"))


@lru_cache(maxsize=None)
def _style_sheet_loads(root: Path, url: str) -> tuple[str, ...]:
    """What a local style sheet loads (fonts, images, the sheets it imports, theirs in turn), resolved."""
    file = local_file(root, url)
    if file is None or not file.is_file():
        return ()
    found: list[str] = []
    for ref in css_urls(file.read_text(encoding="utf-8", errors="replace")):
        absolute = urljoin(url, ref.strip())
        found.append(absolute)
        if absolute.split("?")[0].endswith(".css"):
            found.extend(_style_sheet_loads(root, absolute.split("#")[0]))
    return tuple(found)


def read_page(root: Path, path: str) -> PageHtml:
    """Read the page at ``path`` (site-relative) of the site built in ``root``."""
    reader = _Reader()
    reader.feed((root / path).read_text(encoding="utf-8"))
    reader.close()
    url = urljoin(BASE, path)
    loads = [urljoin(url, ref.strip()) for ref in reader.loads]
    for load in list(loads):
        if load.split("?")[0].split("#")[0].endswith(".css"):
            loads.extend(_style_sheet_loads(root, load.split("#")[0]))
    fetched = [load for load in dict.fromkeys(loads) if not load.startswith(("data:", "blob:", "about:"))]
    missing = []
    for load in fetched:
        file = local_file(root, load.split("#")[0].split("?")[0])
        if file is not None and not file.is_file():
            missing.append(load)
    return PageHtml(path, "".join(reader.prose), tuple(fetched), tuple(urljoin(url, src) for src in reader.scripts),
                    frozenset(reader.inline_scripts), frozenset(reader.tokens),
                    tuple(urljoin(url, href) for href in reader.node_refs), tuple(missing))


@lru_cache(maxsize=None)
def _named_in_script(root: Path, url: str) -> frozenset[str]:
    file = local_file(root, url.split("?")[0].split("#")[0])
    if file is None or not file.is_file():
        return frozenset()
    return frozenset(RPG_TOKEN.findall(file.read_text(encoding="utf-8", errors="replace")))


def kind(root: Path, page: PageHtml) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """What decides what a browser can see go wrong on a page: the scripts it loads (site-relative), the
    types of its inline scripts, and the extension's widgets on it that those scripts act on (its ``rpg-``
    classes and ids that a script of the page mentions)."""
    named = frozenset().union(*(_named_in_script(root, script) for script in page.scripts))
    scripts = tuple(sorted(script.removeprefix(BASE) for script in page.scripts))
    return scripts, tuple(sorted(page.inline_scripts)), tuple(sorted(page.tokens & named))


def one_page_per_kind(root: Path, pages: dict[str, PageHtml]) -> dict[str, list[str]]:
    """The first page (in path order) of each kind, with every page of that kind."""
    kinds: dict[tuple[tuple[str, ...], ...], list[str]] = {}
    for path in sorted(pages):
        kinds.setdefault(kind(root, pages[path]), []).append(path)
    return {paths[0]: paths for paths in kinds.values()}


#: Elements that never hold others (no end tag in HTML).
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
#: What counts as an element's heading: its first child that is one of these (``p.rubric``: a rubric).
HEADINGS = ("h1", "h2", "h3", "h4")


class _Headings(HTMLParser):
    """The heading of each element with an id: the text of its first child ``h1``-``h4`` or ``p.rubric``."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, str | None]] = []  # (tag, id) of the open elements
        self.headings: dict[str, str] = {}
        self.reading: list[tuple[str, int]] = []  # (id, depth of its heading element) being read

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        parent = self.stack[-1][1] if self.stack else None
        is_heading = tag in HEADINGS or (tag == "p" and "rubric" in values.get("class", "").split())
        if is_heading and parent and parent not in self.headings:
            self.headings[parent] = ""
            self.reading.append((parent, len(self.stack)))
        if tag not in VOID:
            self.stack.append((tag, values.get("id") or None))

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self.stack) - 1, -1, -1):  # close up to the matching open element
            if self.stack[depth][0] == tag:
                del self.stack[depth:]
                break
        self.reading = [(anchor, depth) for anchor, depth in self.reading if depth < len(self.stack)]

    def handle_data(self, data: str) -> None:
        for anchor, _ in self.reading:
            self.headings[anchor] += data


def headings(root: Path, path: str) -> dict[str, str]:
    """Each id of the page at ``path`` whose element has a heading, with the heading's text (as the
    browser's ``textContent`` reads it: the permalink sign included)."""
    reader = _Headings()
    reader.feed((root / path).read_text(encoding="utf-8"))
    reader.close()
    return reader.headings


class _Ids(HTMLParser):
    def __init__(self, token: str) -> None:
        super().__init__(convert_charrefs=True)
        self.token = token
        self.ids: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if self.token in values.get("class", "").split() and values.get("id"):
            self.ids.append(values["id"])


def ids_of(root: Path, path: str, token: str) -> list[str]:
    """The ids of the elements of class ``token`` on the page at ``path``, in document order."""
    reader = _Ids(token)
    reader.feed((root / path).read_text(encoding="utf-8"))
    reader.close()
    return reader.ids


@dataclass(eq=False)
class Element:
    """One element of a page as its HTML writes it (no script has run): enough of a DOM for the tests that
    read links and tables, which a browser would only parse the same way."""

    tag: str
    attrs: dict[str, str]
    parent: Element | None
    children: list[Element | str] = field(default_factory=list)

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    def ancestors(self) -> Iterator[Element]:
        parent = self.parent
        while parent is not None:
            yield parent
            parent = parent.parent

    def descendants(self) -> Iterator[Element]:
        """Every element inside this one, in document order."""
        for child in self.children:
            if isinstance(child, Element):
                yield child
                yield from child.descendants()

    def text(self, leaving_out: str = "") -> str:
        """What the browser's ``textContent`` reads: the text of every descendant, in order (without the
        elements of class ``leaving_out``: a heading's permalink sign)."""
        return "".join(child if isinstance(child, str) else child.text(leaving_out) for child in self.children
                       if isinstance(child, str) or not leaving_out or leaving_out not in child.classes)


class _Tree(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.document = Element("#document", {}, None)
        self.open = self.document
        self.elements: list[Element] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, {name: value or "" for name, value in attrs}, self.open)
        self.open.children.append(element)
        self.elements.append(element)
        if tag not in VOID:
            self.open = element

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        # close up to the matching open element (an end tag with none open is ignored, as browsers do)
        for element in (self.open, *self.open.ancestors()):
            if element.tag == tag and element.parent is not None:
                self.open = element.parent
                return

    def handle_data(self, data: str) -> None:
        self.open.children.append(data)


def elements(root: Path, path: str) -> list[Element]:
    """Every element of the page at ``path`` (site-relative), in document order."""
    reader = _Tree()
    reader.feed((root / path).read_text(encoding="utf-8"))
    reader.close()
    return reader.elements
