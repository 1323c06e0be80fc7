"""Random edits to a small rulebook, each followed by an incremental build and a clean build of the
same sources; the two must publish the same thing.

Compared after every edit: nodes.json, the hover previews, objects.inv, the two node index pages,
and every page's node links (each link's target and text, each ``:node:value:``).  The edits cover
every way the extension tracks a page's inputs: definitions added, removed, renamed, retyped or
moved between pages, refs of every kind (``:node:ref:``, ``:any:``, MyST links, dangling ones),
listings, included files, ``only`` blocks, registry type labels and values.  Used by the test suite
(a few cycles, fixed seed) and by ``bench/edit_fuzz.py`` (the long run).
"""

from __future__ import annotations

import random
import re
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Union

from tests.adversarial.harness import Build, build

PAGES = ("alpha", "beta", "gamma")
MYST_PAGE = "delta"
UIDS = [f"Fz.{group}.{name}" for group in ("Trait", "Skill") for name in ("Aa", "Bb", "Cc", "Dd", "Ee")]
BOUND = UIDS[:4]  # the registry binds these (with values), so their pages depend on the rules module
NAMES = ("Fire", "Frost", "Stone", "Wind", "Shade", "Glow")
FILTERS = ('type == "E"', 'uid ^= "Fz.Skill."', 'name ~= "o"', "")
REF_KINDS = ("ref", "ref-titled", "ref-nolink", "any", "value")


@dataclass
class Definition:
    uid: str
    name: str
    type: str
    only: str = ""  # "", "html" or "latex": the only block around it


#: A page item: a definition, or (kind, target) for refs, listings ("list", filter) and the include.
Item = Union[Definition, tuple[str, str]]


@dataclass
class Book:
    """The model the files are rendered from."""

    pages: dict[str, list[Item]] = field(default_factory=dict)  # page -> items, in order
    included: list[Definition] = field(default_factory=list)  # part.inc, included by alpha
    myst_links: list[str] = field(default_factory=list)
    labels: dict[str, str] = field(default_factory=lambda: {"E": "Effect", "R": "Resource"})
    values: dict[str, int] = field(default_factory=lambda: {uid: 1 for uid in BOUND})

    def definitions(self) -> list[Definition]:
        found = [i for items in self.pages.values() for i in items if isinstance(i, Definition)]
        return found + self.included


def render_definition(d: Definition) -> str:
    text = f".. node:def:: {d.name}\n   :uid: {d.uid}\n   :type: {d.type}\n\n   About {d.name}.\n"
    if d.only:
        text = f".. only:: {d.only}\n\n" + "".join(f"   {line}\n" if line else "\n" for line in text.splitlines())
    return text + "\n"


def render_item(item: Item) -> str:
    if isinstance(item, Definition):
        return render_definition(item)
    kind, target = item
    if kind == "ref":
        return f"See :node:ref:`{target}`.\n\n"
    if kind == "ref-titled":
        return f"See :node:ref:`that one <{target}>`.\n\n"
    if kind == "ref-nolink":
        return f"See :node:ref:`!{target}`.\n\n"
    if kind == "any":
        return f"See :any:`{target}`.\n\n"
    if kind == "value":
        return f"Worth :node:value:`{target}:level`.\n\n"
    if kind == "list":
        return f".. node:list::\n   :filter: {target}\n   :columns: name, types, uid\n\n"
    if kind == "include":
        return ".. include:: part.inc\n\n"
    raise ValueError(kind)


def render(book: Book) -> dict[str, str]:
    """File name -> text."""
    files = {"index.rst": "Fuzz\n====\n\n.. toctree::\n\n" + "".join(f"   {p}\n" for p in (*PAGES, MYST_PAGE)) + "\n"}
    for page, items in book.pages.items():
        files[f"{page}.rst"] = f"{page.title()}\n{'=' * len(page)}\n\n" + "".join(render_item(i) for i in items)
    files["part.inc"] = "".join(render_definition(d) for d in book.included)
    files[f"{MYST_PAGE}.md"] = "# Delta\n\n" + "".join(f"Link [](#{uid}).\n\n" for uid in book.myst_links)
    nodes = "".join(f"REGISTRY.define({uid!r}, {uid.rpartition('.')[2]!r}, 'E', values={{'level': {book.values[uid]}}})\n"
                    for uid in BOUND)
    files["fuzz_rules.py"] = ("from rules.nodes import Registry\n"
                              f"REGISTRY = Registry('fuzz', node_types={book.labels!r})\n" + nodes)
    files["conf.py"] = ("import os, sys\nsys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))\n"
                        "extensions = ['sphinx_rpg', 'myst_parser']\nproject = 'fuzz'\n"
                        "source_suffix = {'.rst': 'restructuredtext', '.md': 'markdown'}\n"
                        "exclude_patterns = ['_build']\nrpg_registries = ['fuzz_rules:REGISTRY']\n"
                        "html_theme = 'rpgtiny'\n"
                        f"html_theme_path = [{str(Path(__file__).parent / 'theme')!r}]\n"
                        "html_copy_source = False\nrpg_charts = False\n")
    return files


def initial_book(rng: random.Random) -> Book:
    book = Book(pages={page: [] for page in PAGES})
    for uid in UIDS[:6]:
        book.pages[rng.choice(PAGES)].append(Definition(uid, rng.choice(NAMES), rng.choice(("E", "R", "E,R"))))
    book.pages["alpha"].append(("include", ""))
    book.included.append(Definition(UIDS[6], "Included", "R"))
    book.pages["beta"].append(("list", FILTERS[0]))
    for kind in REF_KINDS:
        book.pages["gamma"].append((kind, rng.choice(UIDS)))
    book.myst_links = [UIDS[0], UIDS[7]]
    return book


def _free_uid(book: Book, rng: random.Random) -> str | None:
    used = {d.uid for d in book.definitions()}
    free = [uid for uid in UIDS if uid not in used]
    return rng.choice(free) if free else None


def edit(book: Book, rng: random.Random) -> str:
    """Apply one random edit; returns what it did (for the report of a divergence)."""
    definitions = [(page, d) for page, items in book.pages.items() for d in items if isinstance(d, Definition)]
    choice = rng.randrange(14)
    if choice == 0 and (uid := _free_uid(book, rng)):
        page = rng.choice(PAGES)
        book.pages[page].insert(rng.randint(0, len(book.pages[page])), Definition(uid, rng.choice(NAMES), "E"))
        return f"add {uid} to {page}"
    if choice == 1 and definitions:
        page, d = rng.choice(definitions)
        book.pages[page].remove(d)
        return f"remove {d.uid} from {page}"
    if choice == 2 and definitions:
        _, d = rng.choice(definitions)
        d.name = rng.choice([n for n in NAMES if n != d.name])
        return f"rename {d.uid} to {d.name}"
    if choice == 3 and definitions and (uid := _free_uid(book, rng)):
        _, d = rng.choice(definitions)
        old, d.uid = d.uid, uid
        return f"change uid {old} to {uid}"
    if choice == 4 and definitions:
        _, d = rng.choice(definitions)
        d.type = rng.choice([t for t in ("E", "R", "E,R") if t != d.type])
        return f"retype {d.uid} as {d.type}"
    if choice == 5 and definitions:
        page, d = rng.choice(definitions)
        target = rng.choice([p for p in PAGES if p != page])
        book.pages[page].remove(d)
        book.pages[target].append(d)
        return f"move {d.uid} from {page} to {target}"
    if choice == 6:
        page = rng.choice(PAGES)
        kind = rng.choice(REF_KINDS)
        book.pages[page].append((kind, rng.choice(UIDS)))
        return f"add {kind} on {page}"
    if choice == 7:
        page = rng.choice(PAGES)
        refs = [i for i in book.pages[page] if isinstance(i, tuple) and i[0] in REF_KINDS]
        if refs:
            book.pages[page].remove(rng.choice(refs))
            return f"remove a ref from {page}"
    if choice == 8 and definitions:
        _, d = rng.choice(definitions)
        d.only = rng.choice([o for o in ("", "html", "latex") if o != d.only])
        return f"only {d.only or '(none)'} around {d.uid}"
    if choice == 9:
        if book.included and rng.random() < 0.5:
            d = rng.choice(book.included)
            d.name = rng.choice([n for n in NAMES if n != d.name])
            return f"rename included {d.uid}"
        if (uid := _free_uid(book, rng)):
            book.included.append(Definition(uid, rng.choice(NAMES), "R"))
            return f"include {uid}"
    if choice == 10:
        code = rng.choice(("E", "R"))
        book.labels[code] = rng.choice([label for label in (f"{code}-label", f"{code} kind", "Effect", "Resource")
                                         if label != book.labels[code]])
        return f"label {code} as {book.labels[code]}"
    if choice == 11:
        uid = rng.choice(BOUND)
        book.values[uid] += 1
        return f"value of {uid} to {book.values[uid]}"
    if choice == 12:
        if book.myst_links and rng.random() < 0.4:
            book.myst_links.remove(rng.choice(book.myst_links))
            return "remove a MyST link"
        book.myst_links.append(rng.choice(UIDS))
        return "add a MyST link"
    if choice == 13:
        page = rng.choice(PAGES)
        listings = [i for i in book.pages[page] if isinstance(i, tuple) and i[0] == "list"]
        if listings and rng.random() < 0.5:
            book.pages[page].remove(listings[0])
            return f"remove the listing on {page}"
        book.pages[page].append(("list", rng.choice(FILTERS)))
        return f"add a listing on {page}"
    return "no change"


def write(root: Path, files: dict[str, str]) -> None:
    """Write only what changed (so unchanged pages stay unchanged for the incremental build)."""
    root.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        path = root / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")


_LINK = re.compile(r'<a [^>]*href="([^"]*)"[^>]*>(.*?)</a>|<span class="[^"]*rpg-(?:node-ref|value)[^"]*">(.*?)</span>',
                   re.S)


def snapshot(result: Build) -> dict[str, object]:
    """What must not depend on how the site was built."""
    out = result.outdir
    pages = {}
    for html in sorted(out.glob("*.html")):
        if html.stem == "search":
            continue
        text = html.read_text(encoding="utf-8")
        text = re.sub(r'<meta name="rpg-index-fingerprint"[^>]*>', "", text)
        whole = html.stem.startswith("node-") or html.stem == "genindex"  # the pages kept when unchanged
        pages[html.stem] = text if whole else _LINK.findall(text)
    return {"nodes.json": (out / "nodes.json").read_text(encoding="utf-8"),
            "rpg-previews.json": (out / "rpg-previews.json").read_text(encoding="utf-8"),
            "objects.inv": sorted(result.inventory()), "pages": pages}


def differences(a: dict[str, object], b: dict[str, object]) -> list[str]:
    found = []
    for key in a:
        if key == "pages":
            pa, pb = a[key], b[key]
            assert isinstance(pa, dict) and isinstance(pb, dict)
            for page in sorted(set(pa) | set(pb)):
                if pa.get(page) != pb.get(page):
                    found.append(f"page {page}: incremental {pa.get(page)!r:.300} != clean {pb.get(page)!r:.300}")
        elif a[key] != b[key]:
            found.append(f"{key}: incremental {a[key]!r:.300} != clean {b[key]!r:.300}")
    return found


@dataclass
class Report:
    cycles: int = 0
    diverged: int = 0
    first: list[str] = field(default_factory=list)


def run(root: Path, seed: int, cycles: int, *, progress: bool = False) -> Report:
    """``cycles`` edits; each followed by an incremental build (kept) and a clean one (thrown away)."""
    rng = random.Random(seed)
    book = initial_book(rng)
    source = root / "src"
    write(source, render(book))
    build(source, out="_incremental")
    report = Report()
    for cycle in range(cycles):
        what = [edit(book, rng) for _ in range(rng.randint(1, 3))]
        time.sleep(0.01)  # a later mtime than the last read, whatever the file system's resolution
        write(source, render(book))
        incremental = build(source, fresh=False, out="_incremental")
        shutil.rmtree(source / "_clean", ignore_errors=True)
        clean = build(source, out="_clean")
        found = differences(snapshot(incremental), snapshot(clean))
        report.cycles += 1
        if found:
            report.diverged += 1
            if not report.first:
                report.first = [f"cycle {cycle} after {what}", *found]
            shutil.rmtree(source / "_incremental", ignore_errors=True)  # start the next cycle level
            build(source, out="_incremental")
        if progress and (cycle + 1) % 10 == 0:
            print(f"{cycle + 1} cycles, {report.diverged} diverged", flush=True)
    return report
