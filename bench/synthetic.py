#!/usr/bin/env python3
"""A synthetic rulebook at scale, written in several flavours over the same content.

    python bench/synthetic.py OUT [--pages 500] [--nodes 10000] [--refs 50000] [--seed 1]

One seeded content model (N pages, M node definitions, R references from random pages to random
nodes) is rendered as one Sphinx project per flavour under ``OUT/<flavour>/``:

``plain``
    Plain Sphinx: each node is a section with a label and one general-index entry (exactly what
    ``node:def`` adds: one ``single`` entry per node), and every reference is a ``:ref:``.
``rpg``
    sphinx_rpg: ``node:def`` (``:uid:``, ``:type:``) and ``:node:ref:``; no registry bound.
``rpg-bound``
    ``rpg`` plus ``rpg_registries`` naming a generated engine module (``bench_registry.py``, M nodes).
``plain-listings``
    ``plain`` plus catalogue pages: one hand-written ``list-table`` per namespace (every node once).
``rpg-listings``
    ``rpg-bound`` plus the same catalogue as ``node:list`` listings filtered by namespace.
``needs``
    sphinx-needs, the peer: a ``need`` object per node (``:id:``, types as ``:tags:``) and a ``:need:``
    role per reference.
``needs-listings``
    ``needs`` plus the same catalogue as ``needtable`` tables filtered by a category tag: the peer of
    ``rpg-listings``.

``rpg-listing-pages`` / ``plain-listing-pages``
    ``rpg-bound`` / ``plain`` where every page also lists its own nodes (``node:list`` filtered by
    ``docname``; a hand-written ``list-table`` in plain Sphinx): a listing on every page.

The same seed and sizes always give byte-identical files.  ``OUT/manifest.json`` records the
parameters, the flavours and the page the benchmark edits for incremental builds; :func:`edited_pages`
makes each kind of edit (``EDITS``) from the same content model, so every flavour gets the same edit.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path

FLAVOURS = ("plain", "rpg", "rpg-bound", "plain-listings", "rpg-listings", "needs", "needs-listings",
            "plain-listing-pages", "rpg-listing-pages", "plain-exit", "rpg-bound-exit")
#: The plain-Sphinx project each flavour is compared with (same content, no extension).
BASELINE = {"plain": "plain", "rpg": "plain", "rpg-bound": "plain", "needs": "plain",
            "plain-listings": "plain-listings", "rpg-listings": "plain-listings",
            "needs-listings": "plain-listings", "plain-listing-pages": "plain-listing-pages",
            "rpg-listing-pages": "plain-listing-pages", "plain-exit": "plain-exit",
            "rpg-bound-exit": "plain-exit"}
#: The edits an incremental build follows (``edited_pages``).
EDITS = ("append", "insert-top", "rename", "move", "delete")
#: Flavours whose nodes are bound to the generated registry (no ``:type:`` on the page).
BOUND = ("rpg-bound", "rpg-listings", "rpg-listing-pages", "rpg-bound-exit")
#: Flavours whose conf.py freezes what is left for the collector when Python exits (one line any
#: project may add): the exit saving, on both sides of the comparison alike.  sphinx_rpg itself
#: changes no process state (see the manual's "Big books").
EXIT_FROZEN = ("plain-exit", "rpg-bound-exit")
#: The sphinx-needs project each sphinx_rpg flavour is compared with.
PEER = {"rpg": "needs", "rpg-bound": "needs", "rpg-listings": "needs-listings"}
DEFAULTS = {"pages": 500, "nodes": 10_000, "refs": 50_000, "seed": 1}
CATEGORIES = 20
TYPES = {"A": "Attribute", "S": "Skill", "AB": "Ability", "E": "Effect", "T": "Trait", "R": "Resource"}
REGISTRY_MODULE = "bench_registry"

_ONSETS = ("b", "br", "c", "d", "dr", "f", "g", "gr", "h", "k", "l", "m", "n", "p", "r", "s", "st", "t",
           "th", "v", "w", "z")
_VOWELS = ("a", "e", "i", "o", "u", "ae", "ai", "ou")
_CODAS = ("", "", "n", "r", "l", "s", "th", "k", "m", "nd")
_WORDS = ("the", "a", "roll", "pool", "die", "dice", "rank", "turn", "round", "scene", "target", "bonus",
          "penalty", "spend", "gain", "lose", "point", "points", "check", "test", "against", "when", "each",
          "every", "ally", "foe", "until", "end", "of", "your", "next", "action", "reaction", "once",
          "per", "and", "or", "with", "highest", "lowest", "keep", "add", "half", "rounded", "down")


def _word(rng: random.Random) -> str:
    return "".join(rng.choice(_ONSETS) + rng.choice(_VOWELS) + rng.choice(_CODAS)
                   for _ in range(rng.choice((1, 2, 2, 3)))).capitalize()


def _sentence(rng: random.Random, words: int) -> str:
    text = " ".join(rng.choice(_WORDS) for _ in range(words))
    return text[0].upper() + text[1:] + "."


@dataclass
class NodeSpec:
    index: int
    uid: str
    need_id: str
    label: str
    name: str
    types: tuple[str, ...]
    category: int
    page: int
    summary: str
    body: str
    refs: list[int] = field(default_factory=list)  # targets referred to from this node's body

    @property
    def title(self) -> str:  # what rpg_ref_format / rpg_heading_format render by default
        return f"{self.name} ({','.join(self.types)})"

    @property
    def type_names(self) -> tuple[str, ...]:
        return tuple(TYPES[t] for t in self.types)

    @property
    def namespace(self) -> str:
        return self.uid.rpartition(".")[0]


@dataclass
class PageSpec:
    index: int
    title: str
    intro: str
    nodes: list[int] = field(default_factory=list)
    refs: list[int] = field(default_factory=list)  # page-level references (pages without nodes)

    @property
    def docname(self) -> str:
        return f"pages/p{self.index:05d}"


@dataclass
class Content:
    pages: list[PageSpec]
    nodes: list[NodeSpec]
    refs: int
    seed: int

    @property
    def edit_page(self) -> PageSpec:
        return self.pages[len(self.pages) // 2]


def make_content(pages: int = DEFAULTS["pages"], nodes: int = DEFAULTS["nodes"], refs: int = DEFAULTS["refs"],
                 seed: int = DEFAULTS["seed"]) -> Content:
    """The seeded content model every flavour renders."""
    if pages < 1 or nodes < 1 or refs < 0:
        raise ValueError("need at least one page and one node, and no negative reference count")
    rng = random.Random(seed)
    width = max(5, len(str(nodes - 1)))
    page_specs = [PageSpec(p, f"Chapter {p}: {_word(rng)} and {_word(rng)}", _sentence(rng, 14))
                  for p in range(pages)]
    node_specs: list[NodeSpec] = []
    for i in range(nodes):
        category = i % CATEGORIES
        number = f"{i:0{width}d}"
        types = tuple(rng.sample(tuple(TYPES), rng.choice((1, 1, 2))))
        node = NodeSpec(index=i, uid=f"Bench.Cat{category:02d}.Node{number}", need_id=f"N_{number}",
                        label=f"bench-cat{category:02d}-node{number}", name=f"{_word(rng)} {_word(rng)} {i}",
                        types=types, category=category, page=(i * pages) // nodes,
                        summary=_sentence(rng, 8), body=_sentence(rng, 16))
        node_specs.append(node)
        page_specs[node.page].nodes.append(i)
    for _ in range(refs):
        target = rng.randrange(nodes)
        page = page_specs[rng.randrange(pages)]
        if page.nodes:
            node_specs[rng.choice(page.nodes)].refs.append(target)
        else:
            page.refs.append(target)
    return Content(page_specs, node_specs, refs, seed)


# -- rendering ------------------------------------------------------------------------------------
def _heading(text: str, char: str) -> str:
    return f"{text}\n{char * len(text)}\n"


def _ref(flavour: str, node: NodeSpec) -> str:
    if flavour.startswith("plain"):
        return f":ref:`{node.label}`"
    if flavour.startswith("needs"):
        return f":need:`{node.need_id}`"
    return f":node:ref:`{node.uid}`"


def _refs_paragraph(flavour: str, content: Content, targets: list[int], indent: str) -> str:
    if not targets:
        return ""
    links = ", ".join(_ref(flavour, content.nodes[t]) for t in targets)
    return f"{indent}See {links}.\n\n"


def _node(flavour: str, content: Content, node: NodeSpec) -> str:
    refs = _refs_paragraph(flavour, content, node.refs, "   ")
    if flavour.startswith("plain"):
        index = f".. index:: single: {node.title}"
        return (f"{index}\n\n.. _{node.label}:\n\n{_heading(node.title, '-')}\n"
                f"{node.body}\n\n{_refs_paragraph(flavour, content, node.refs, '')}")
    if flavour.startswith("needs"):
        tags = [*node.types, *([f"cat{node.category:02d}"] if flavour == "needs-listings" else [])]
        return (f".. need:: {node.name}\n   :id: {node.need_id}\n   :tags: {', '.join(tags)}\n\n"
                f"   {node.body}\n\n{refs}")
    typ = "" if flavour in BOUND else f"   :type: {','.join(node.types)}\n"
    return f".. node:def:: {node.name}\n   :uid: {node.uid}\n{typ}\n   {node.body}\n\n{refs}"


def render_page(flavour: str, content: Content, page: PageSpec) -> str:
    parts = [_heading(page.title, "="), "\n", page.intro, "\n\n", _refs_paragraph(flavour, content, page.refs, "")]
    parts += [_node(flavour, content, content.nodes[i]) for i in page.nodes]
    if flavour.endswith("listing-pages"):
        parts.append(_page_listing(flavour, content, page))
    return "".join(parts)


def _page_listing(flavour: str, content: Content, page: PageSpec) -> str:
    title = _heading(f"Nodes of chapter {page.index}", "-")
    if flavour.startswith("rpg"):
        return f"{title}\n.. node:list::\n   :filter: docname == \"{page.docname}\"\n   :columns: name, types\n"
    members = sorted((content.nodes[i] for i in page.nodes), key=lambda n: (n.name.lower(), n.uid))
    if not members:
        return f"{title}\nNo nodes match.\n"
    rows = "".join(f"   * - :ref:`{n.label}`\n     - {', '.join(n.type_names)}\n" for n in members)
    return f"{title}\n.. list-table::\n   :header-rows: 1\n\n   * - Node\n     - Type\n{rows}"


def edited_pages(flavour: str, content: Content, kind: str, serial: int) -> dict[str, str]:
    """The pages (docname -> new text) after one edit of ``content.edit_page``; the model is untouched.

    ``append`` adds a paragraph at the end; ``insert-top`` one under the title (every node moves down);
    ``rename`` renames the page's first node; ``move`` moves it to the end of the next page; ``delete``
    removes the page's last node (references to it then dangle, in every flavour alike).
    """
    page = content.edit_page
    if kind not in EDITS:
        raise ValueError(f"unknown edit {kind!r}; choose from {', '.join(EDITS)}")
    paragraph = f"Edited for incremental build {serial}: a new paragraph of prose."
    if kind == "append":
        return {page.docname: render_page(flavour, content, page) + f"\n{paragraph}\n"}
    if kind == "insert-top":
        edited = replace(page, intro=f"{paragraph}\n\n{page.intro}")
        return {page.docname: render_page(flavour, content, edited)}
    if not page.nodes:
        raise ValueError(f"the edit page {page.docname} has no node to {kind}")
    first = page.nodes[0]
    if kind == "rename":
        nodes = list(content.nodes)
        nodes[first] = replace(nodes[first], name=f"{nodes[first].name} renamed {serial}")
        return {page.docname: render_page(flavour, replace(content, nodes=nodes), page)}
    if kind == "delete":
        return {page.docname: render_page(flavour, content, replace(page, nodes=page.nodes[:-1]))}
    following = content.pages[(page.index + 1) % len(content.pages)]
    return {page.docname: render_page(flavour, content, replace(page, nodes=page.nodes[1:])),
            following.docname: render_page(flavour, content, replace(following, nodes=[*following.nodes, first]))}


def _catalogue(flavour: str, content: Content, category: int) -> str:
    namespace = f"Bench.Cat{category:02d}"
    title = _heading(f"Catalogue: {namespace}", "=")
    if flavour == "rpg-listings":
        return (f"{title}\n.. node:list::\n   :filter: namespace == \"{namespace}\"\n"
                "   :columns: name, types, summary\n")
    if flavour == "needs-listings":
        return (f"{title}\n.. needtable::\n   :filter: \"cat{category:02d}\" in tags\n"
                "   :columns: id, title, tags\n   :style: table\n")
    members = sorted((n for n in content.nodes if n.category == category), key=lambda n: (n.name.lower(), n.uid))
    rows = "".join(f"   * - :ref:`{n.label}`\n     - {', '.join(n.type_names)}\n     - {n.summary}\n"
                   for n in members)
    return (f"{title}\n.. list-table::\n   :header-rows: 1\n   :widths: 1 1 3\n\n"
            f"   * - Node\n     - Type\n     - Summary\n{rows}")


def _registry_module(content: Content) -> str:
    rows = "\n".join(f"    ({n.uid!r}, {n.name!r}, {','.join(n.types)!r}, {n.summary!r})," for n in content.nodes)
    return ('"""The engine side of the synthetic rulebook: one rule object per node (generated)."""\n\n'
            "from rules.nodes import Registry\n\n"
            f"REGISTRY = Registry(\"bench\", title=\"Synthetic rulebook\", node_types={TYPES!r})\n\n"
            f"NODES = [\n{rows}\n]\n\n"
            "for _uid, _name, _types, _summary in NODES:\n"
            "    REGISTRY.define(_uid, _name, _types, summary=_summary)\n")


def _conf(flavour: str) -> str:
    lines = ["# Generated by bench/synthetic.py", "import os", "import sys", "",
             "sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))",
             f'project = "Synthetic rulebook ({flavour})"', 'exclude_patterns = ["_build"]',
             "# alabaster's default navigation.html renders the whole global toctree into every page's",
             "# sidebar: O(pages x sections) in Sphinx itself, the same for every flavour, so it would",
             "# swamp what the benchmark compares (and make the 4x size quadratic). Local contents only.",
             'html_sidebars = {"**": ["localtoc.html", "relations.html", "searchbox.html"]}']
    if flavour.startswith("rpg"):
        lines.append('extensions = ["sphinx_rpg"]')
        if flavour in BOUND:
            lines.append(f'rpg_registries = ["{REGISTRY_MODULE}:REGISTRY"]')
    elif flavour.startswith("needs"):
        lines += ['extensions = ["sphinx_needs"]',
                  'needs_types = [{"directive": "need", "title": "Node", "prefix": "N_", '
                  '"color": "#BFD8D2", "style": "node"}]']
    else:
        lines.append("extensions = []")
    if flavour in EXIT_FROZEN:
        lines += ["import atexit, gc  # the project's own choice: skip the collector's walk at exit",
                  "atexit.register(gc.freeze)"]
    return "\n".join(lines) + "\n"


def write_flavour(flavour: str, content: Content, root: Path) -> Path:
    """Write one flavour's Sphinx project into ``root`` (emptied first)."""
    if flavour not in FLAVOURS:
        raise ValueError(f"unknown flavour {flavour!r}; choose from {', '.join(FLAVOURS)}")
    if root.exists():
        shutil.rmtree(root)
    (root / "pages").mkdir(parents=True)
    (root / "conf.py").write_text(_conf(flavour), encoding="utf-8")
    entries = [p.docname for p in content.pages]
    if flavour.endswith("listings"):
        (root / "catalogue").mkdir()
        for category in range(CATEGORIES):
            name = f"catalogue/c{category:02d}"
            (root / f"{name}.rst").write_text(_catalogue(flavour, content, category), encoding="utf-8")
            entries.append(name)
    toctree = "".join(f"   {name}\n" for name in entries)
    (root / "index.rst").write_text(f"{_heading('Synthetic rulebook', '=')}\n"
                                    f".. toctree::\n   :maxdepth: 1\n\n{toctree}", encoding="utf-8")
    for page in content.pages:
        (root / f"{page.docname}.rst").write_text(render_page(flavour, content, page), encoding="utf-8")
    if flavour in BOUND:
        (root / f"{REGISTRY_MODULE}.py").write_text(_registry_module(content), encoding="utf-8")
    return root


def generate(out: Path, pages: int = DEFAULTS["pages"], nodes: int = DEFAULTS["nodes"],
             refs: int = DEFAULTS["refs"], seed: int = DEFAULTS["seed"],
             flavours: tuple[str, ...] = FLAVOURS) -> dict[str, object]:
    """Write every flavour under ``out`` and ``out/manifest.json``; returns the manifest."""
    content = make_content(pages, nodes, refs, seed)
    out.mkdir(parents=True, exist_ok=True)
    for flavour in flavours:
        write_flavour(flavour, content, out / flavour)
    manifest = {"pages": pages, "nodes": nodes, "refs": refs, "seed": seed, "categories": CATEGORIES,
                "flavours": list(flavours), "baseline": {f: BASELINE[f] for f in flavours},
                "edit_page": f"{content.edit_page.docname}.rst"}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return manifest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="directory to write the flavours into")
    parser.add_argument("--pages", type=int, default=DEFAULTS["pages"])
    parser.add_argument("--nodes", type=int, default=DEFAULTS["nodes"])
    parser.add_argument("--refs", type=int, default=DEFAULTS["refs"])
    parser.add_argument("--seed", type=int, default=DEFAULTS["seed"])
    parser.add_argument("--flavours", default=",".join(FLAVOURS), help="comma-separated subset")
    args = parser.parse_args(argv)
    flavours = tuple(f.strip() for f in args.flavours.split(",") if f.strip())
    manifest = generate(args.out, args.pages, args.nodes, args.refs, args.seed, flavours)
    print(json.dumps(manifest))
    return 0


if __name__ == "__main__":
    sys.exit(main())
