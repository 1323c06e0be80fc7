"""What changed between two releases of a rulebook: two ``nodes.json`` catalogues compared node by node.

Used by ``rpg diff OLD NEW``, by the ``node:changes`` directive (a changelog page against a released
catalogue kept in the repository) and by the "changed since" marks beside node headings.  Pure data:
no Sphinx import, so tools can use it on catalogues alone.

A catalogue of schema version 1 (no text digests) is still read; its nodes' text is then not compared.
Where both releases keep a node's body (``text``), a change of its text is said in words (the old
passage and the new one); a body only re-wrapped or re-marked-up is no change.  Where the older release
keeps only a digest, "rules text changed" is all that can be said.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sphinx_rpg.engine_words import names_the_engine

#: Schema versions this module reads.
READABLE_VERSIONS = (1, 2)
#: The kinds of change, in the order a report lists them.
KINDS = ("added", "removed", "renamed", "retyped", "moved", "summary", "text", "facts")
#: Largest catalogue file read (a rulebook of 100,000 nodes is about 60 MB).
MAX_CATALOGUE_BYTES = 256 * 1024 * 1024


class CatalogueError(ValueError):
    """A file that is not a readable ``nodes.json``; the message names the file and the problem."""


@dataclass(frozen=True)
class Catalogue:
    """A ``nodes.json`` document: its version label and its nodes by uid."""

    path: str
    schema_version: int
    version: str
    nodes: Mapping[str, Mapping[str, Any]]


@dataclass(frozen=True)
class NodeChange:
    """How one node differs: its kinds of change and a readable line for each."""

    uid: str
    kinds: tuple[str, ...]
    details: tuple[str, ...] = field(default=())
    old: Mapping[str, Any] | None = None
    new: Mapping[str, Any] | None = None

    @property
    def title(self) -> str:
        entry = self.new or self.old or {}
        return str(entry.get("title") or entry.get("name") or self.uid)

    def as_json(self) -> dict[str, Any]:
        return {"uid": self.uid, "kinds": list(self.kinds), "details": list(self.details),
                "title": self.title}


def catalogue_from_document(document: Any, path: str = "<document>") -> Catalogue:
    """Check the shape of a parsed ``nodes.json`` and index its nodes by uid."""
    if not isinstance(document, dict):
        raise CatalogueError(f"{path}: not a nodes.json document (expected a JSON object)")
    version = document.get("schema_version")
    if version not in READABLE_VERSIONS:
        raise CatalogueError(f"{path}: schema_version {version!r} is not one of {READABLE_VERSIONS}")
    entries = document.get("nodes")
    if not isinstance(entries, list):
        raise CatalogueError(f"{path}: 'nodes' must be a list")
    nodes: dict[str, Mapping[str, Any]] = {}
    for position, entry in enumerate(entries):
        if not isinstance(entry, dict) or not isinstance(entry.get("uid"), str):
            raise CatalogueError(f"{path}: node #{position + 1} has no text 'uid'")
        nodes[entry["uid"]] = entry
    label = document.get("version")
    return Catalogue(path, version, label if isinstance(label, str) else "", nodes)


def load_catalogue(path: Path | str) -> Catalogue:
    """Read a ``nodes.json`` file; :class:`CatalogueError` for a missing, huge or malformed file."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_CATALOGUE_BYTES:
            raise CatalogueError(f"{path}: {size} bytes is larger than a catalogue may be "
                                 f"({MAX_CATALOGUE_BYTES} bytes)")
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise CatalogueError(f"{path}: cannot read it ({error.strerror or error})") from None
    except UnicodeDecodeError:
        raise CatalogueError(f"{path}: not UTF-8 text") from None
    try:
        document = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise CatalogueError(f"{path}: not valid JSON ({error})") from None
    return catalogue_from_document(document, str(path))


def _facts(entry: Mapping[str, Any]) -> dict[str, str]:
    facts = entry.get("facts") or []
    return {str(f.get("label")): str(f.get("text")) for f in facts if isinstance(f, dict)}


def _types(entry: Mapping[str, Any]) -> str:
    return ",".join(str(code) for code in entry.get("types") or ())


def _type_names(entry: Mapping[str, Any]) -> str:
    return ", ".join(str(name) for name in entry.get("type_names") or ())


def _retyped(old: Mapping[str, Any], new: Mapping[str, Any]) -> str | None:
    """How the node's types changed, or None.  Where both entries name their types, a change of the code
    alone (``rule`` to ``RU``) or of the name alone (the ``gear`` type once called "Equipment", now "Gear")
    is the book renaming a type, not a change of this node: a mark on every node of the type would say
    nothing about any of them.  Only a node whose type is another one is retyped."""
    if old.get("type_names") and new.get("type_names"):
        if _types(old) == _types(new):
            return None
        before, after = _type_names(old), _type_names(new)
    else:
        before, after = _types(old), _types(new)
    return None if before == after else f"type was {before or '(none)'}, now {after or '(none)'}"


def fact_labels(catalogue: Catalogue) -> frozenset[tuple[str, str]]:
    """(system, label) of every fact a release records for at least one node of a book: the facts that
    book knew how to state (SPURG printing ranks says nothing about Nemron's)."""
    return frozenset((str(entry.get("system") or ""), label) for entry in catalogue.nodes.values()
                     for label in _facts(entry))


def type_labels(catalogue: Catalogue) -> frozenset[tuple[str, str]]:
    """(system, code) and (system, name) of every type a release gives at least one node of a book."""
    return frozenset((str(entry.get("system") or ""), str(label)) for entry in catalogue.nodes.values()
                     for label in [*(entry.get("types") or ()), *(entry.get("type_names") or ())])


def _fact_change(label: str, before: str | None, after: str | None) -> str:
    """One fact's change in words, old value and new: "ranks were 1-4, now 0-4"."""
    name = label[:1].lower() + label[1:]
    verb = "were" if name.endswith("s") and not name.endswith("ss") else "was"
    if before is None:
        return f"{name} {verb} not set, now {after}"
    if after is None:
        return f"{name} {verb} {before}, now not set"
    return f"{name} {verb} {before}, now {after}"


#: reST markup a reader never sees: literals, emphasis (roles are read as links: :func:`reader_tokens`).
_MARKUP = re.compile(r"``|\*\*|(?<!\w)\*|\*(?!\w)|`_{0,2}|\|")
#: Words of context kept on each side of a changed passage, and the longest passage quoted (words).
CONTEXT_WORDS = 3
QUOTED_WORDS = 24
#: Changes closer than this many words are one passage; past ``MAX_PASSAGES`` the rest are counted.
JOIN_WORDS = 6
MAX_PASSAGES = 2


#: Directives whose content is prose a player reads (a decision note is a rule); any other directive
#: (code, a table the engine computes, an example, a designer-only block) is left out of the comparison.
PROSE_DIRECTIVES = frozenset({"note", "warning", "tip", "important", "hint", "caution", "attention", "danger",
                              "error", "admonition", "seealso", "node:player", "node:screen"})
_DIRECTIVE = re.compile(r"\.\.\s+([\w:-]+)::")
_OPTION = re.compile(r":[\w-]+:(\s|$)")
#: An engine switch or name outside code type (``mode="reduce"``, ``rules.heimr.effects``).
_ENGINE_NAME = re.compile(r"\b[a-z_]\w*=(?!=)(?:\"[^\"]*\"|'[^']*'|[\w.-]+)|\b(?:rules|sphinx_rpg)\.[\w.]+")
#: Text in code type, ``...``: it names the engine or not (:func:`sphinx_rpg.engine_words.names_the_engine`).
_CODE = re.compile(r"``(.+?)``", re.S)
#: What stands in for an engine name while a paragraph is weighed (a private-use character).
_ENGINE_MARK = "\ue002"
#: A parenthesis (innermost first) and the end of a sentence.
_PARENTHESIS = re.compile(r"\s*\(([^()]*)\)")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def _without_engine(paragraph: str) -> str:
    """A paragraph as the player edition prints it: a parenthesis naming the engine ("get 0
    (``rounding="toward-zero"``)") is left out, and so is a sentence that still names it in running
    text ("... pass ``rounding="toward-zero"``."): that sentence speaks to designers, and cut out of
    it the switch would leave "pass ." behind."""
    marked = _CODE.sub(lambda match: _ENGINE_MARK if names_the_engine(match.group(1)) else match.group(0), paragraph)
    marked = _ENGINE_NAME.sub(_ENGINE_MARK, marked)
    while True:
        shorter = _PARENTHESIS.sub(lambda match: "" if _ENGINE_MARK in match.group(1) else match.group(0), marked)
        if shorter == marked:
            break
        marked = shorter
    return " ".join(sentence for sentence in _SENTENCE_END.split(marked) if _ENGINE_MARK not in sentence)


#: The block that holds words for designers only (examples, notes on the engine).
DESIGNER_BLOCK = "node:designer"


def reader_text(source: str, with_designer_blocks: bool = False) -> str:
    """The prose of a body written in reST, as a reader meets the rules: no code or doctest, no
    directive but the admonitions (their words kept), no literal block, no engine switch or name.
    ``with_designer_blocks``: the words of a ``node:designer`` block kept as well."""
    prose = PROSE_DIRECTIVES | {DESIGNER_BLOCK} if with_designer_blocks else PROSE_DIRECTIVES
    kept: list[str] = []
    skip_below: int | None = None  # leave out the lines indented deeper than this (a block's body)
    doctest = False
    for line in source.splitlines():
        stripped, indent = line.strip(), len(line) - len(line.lstrip())
        if skip_below is not None:
            if not stripped or indent > skip_below:
                continue
            skip_below = None
        if not stripped:
            doctest = False
            kept.append("")
            continue
        if doctest or stripped.startswith(">>>"):
            doctest = True
            continue
        directive = _DIRECTIVE.match(stripped)
        if directive:
            if directive.group(1) in prose:
                title = stripped[directive.end():].strip()  # "Decision: ..." is the note's own title
                # a title ends its sentence: "... stay exact." then "The source lets ...", never run on
                kept.append(title if not title or title.rstrip("*").endswith((".", "!", "?", ":")) else title + ".")
            else:
                skip_below = indent
            continue
        if stripped.startswith(".. ") or _OPTION.match(stripped):
            continue  # a comment, a target, or a directive's option
        if stripped.endswith("::"):
            skip_below = indent  # the literal block that follows
            stripped = stripped[:-1].rstrip(":").rstrip() if stripped != "::" else ""
        kept.append(stripped)
    # a paragraph ending in a colon introduces what was left out above (an example, a table): the player
    # edition drops the two together, so the words of the lead-in are no rule either
    paragraphs = [part for part in re.split(r"\n\s*\n", "\n".join(kept)) if not part.rstrip().endswith(":")]
    return "\n\n".join(_without_engine(paragraph) for paragraph in paragraphs)


#: What a link in a body shows its reader, by role and target: ``("node:ref", "Nemron.Rule.TurnEconomy")``
#: gives the node's name, ``("node:value", "Generic.Rule.CharacterCreation:skills")`` the value the page
#: prints ("2").  ``None``: not known here (the uid's own words stand in).
LinkWords = Callable[[str, str], "str | None"]

_LINK = re.compile(r":(?P<role>[\w:.+-]+):`(?P<body>[^`]*)`")
#: Words for one medium (``sphinx_rpg.media``): a reader on screen reads the screen's words, not paper's.
_MEDIUM = re.compile(r"(\s*):node:(screen|paper):`([^`]*)`")
#: A link's stand-in while the prose around it is split into words (private-use characters, no spaces).
_PLACE = re.compile("\ue000(\\d+)\ue001")


def _link(role: str, body: str, links: LinkWords | None) -> tuple[str, str]:
    """(what the comparison reads, what the quote shows) for one role in a body."""
    titled = re.fullmatch(r"(?s)(.*?)\s*<([^<>]*)>", body)
    if titled and titled.group(1).strip():
        words = " ".join(titled.group(1).split())
        return words, words  # the reader sees the title, whatever it links to
    target = body.lstrip("~!").strip()
    if role not in ("node:ref", "node:value"):
        return target, _role_words(target)
    shown = links(role, target) if links is not None else None
    return f"{role}:{target}", " ".join((shown or _role_words(target)).split())


def reader_tokens(text: str, links: LinkWords | None = None,
                  with_designer_blocks: bool = False) -> list[tuple[str, str]]:
    """The words a reader sees of a body written in reST, as (key, shown) pairs: its prose
    (:func:`reader_text`), no markup characters, each link one word however many words it shows (a quote
    never cuts a link in half).  A link's key is its target, so a node renamed elsewhere changes no text
    here; it shows what the page prints (``links``): a node's name, a value's value."""
    found: list[tuple[str, str]] = []

    def stand_in(match: re.Match[str]) -> str:
        found.append(_link(match.group("role"), match.group("body"), links))
        return f"\ue000{len(found) - 1}\ue001"

    prose = _MEDIUM.sub(lambda m: m.group(1) + m.group(3) if m.group(2) == "screen" else "",
                        # an escaped space prints as nothing
                        reader_text(text, with_designer_blocks).replace("\\ ", ""))
    words = _MARKUP.sub("", _LINK.sub(stand_in, prose)).split()
    return [(_PLACE.sub(lambda m: found[int(m.group(1))][0], word),
             _PLACE.sub(lambda m: found[int(m.group(1))][1], word)) for word in words]


def reader_words(text: str, links: LinkWords | None = None) -> list[str]:
    """The words a reader sees of a body written in reST (:func:`reader_tokens`), as shown."""
    return [shown for _, shown in reader_tokens(text, links)]


_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def _role_words(target: str) -> str:
    """A role's target as words: a node's uid as its name, split where the case changes ("TurnEconomy":
    "Turn Economy"), a field after it named too ("Nemron.Resource.Energy:cost": "Energy cost")."""
    if "." not in target or " " in target:
        return target
    name, _, field = target.rpartition(".")[2].partition(":")
    words = _CAMEL.sub(" ", name)
    return f"{words} {field}" if field else words


def catalogue_links(catalogue: Catalogue, fallback: LinkWords | None = None) -> LinkWords:
    """What a link showed in a release: a node's name from its catalogue; a value from the entry's
    ``values`` or the fact of that name (``formula``: the Formula fact).  What the catalogue does not
    record is asked of ``fallback`` (a build: what the page prints now)."""

    def words(role: str, target: str) -> str | None:
        uid, _, key = target.partition(":")
        entry = catalogue.nodes.get(uid)
        if entry is not None and role == "node:ref" and entry.get("name"):
            return str(entry["name"])
        if entry is not None and role == "node:value":
            values = entry.get("values")
            if isinstance(values, Mapping) and key in values:
                return str(values[key])
            facts = {label.lower(): text for label, text in _facts(entry).items()}
            if key.lower() in facts:
                return facts[key.lower()]
            if key == "name" and entry.get("name"):
                return str(entry["name"])
        return fallback(role, target) if fallback is not None else None

    return words


def _quoted(words: list[str]) -> str:
    if len(words) > QUOTED_WORDS:
        half = QUOTED_WORDS // 2
        words = [*words[:half], "\u2026", *words[-half:]]
    return "\u201c" + " ".join(words) + "\u201d" if words else "nothing"


def text_change(old: str, new: str, old_links: LinkWords | None = None,
                new_links: LinkWords | None = None) -> str | None:
    """A text change in words: each changed passage, old and new, with a few words around it so a reader
    finds it ("the text said \u201cRanks: 1-4.\u201d, now \u201cRanks: 0-4.\u201d"); None when the words a reader
    sees are the same (re-wrapped lines, changed markup), and when the only difference is words moved into
    or out of a ``node:designer`` block (an example that was prose and is now kept for designers is no
    change of a rule, in either edition).  ``old_links``/``new_links``: what each side's links showed
    (:data:`LinkWords`)."""
    from difflib import SequenceMatcher  # imported here: the calculator's engine never loads it

    def with_designer_blocks(text: str, links: LinkWords | None) -> list[str]:
        return [key for key, _ in reader_tokens(text, links, with_designer_blocks=True)]

    if with_designer_blocks(old, old_links) == with_designer_blocks(new, new_links):
        return None
    old_tokens, new_tokens = reader_tokens(old, old_links), reader_tokens(new, new_links)
    before, after = [key for key, _ in old_tokens], [key for key, _ in new_tokens]
    if before == after:
        return None
    shown_before, shown_after = [shown for _, shown in old_tokens], [shown for _, shown in new_tokens]
    passages: list[list[int]] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, before, after, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        if passages and i1 - passages[-1][1] < JOIN_WORDS:
            passages[-1][1], passages[-1][3] = i2, j2
        else:
            passages.append([i1, i2, j1, j2])
    said = []
    for i1, i2, j1, j2 in passages[:MAX_PASSAGES]:
        lead = min(CONTEXT_WORDS, i1, j1)
        tail = min(CONTEXT_WORDS, len(before) - i2, len(after) - j2)
        said.append(f"the text said {_quoted(shown_before[i1 - lead:i2 + tail])}, "
                    f"now {_quoted(shown_after[j1 - lead:j2 + tail])}")
    more = len(passages) - MAX_PASSAGES
    if more > 0:
        said.append(f"{more} more passage{'s' if more > 1 else ''} reworded")
    return "; ".join(said)


def compare_nodes(old: Mapping[str, Any], new: Mapping[str, Any],
                  known_facts: frozenset[tuple[str, str]] | None = None,
                  known_types: frozenset[tuple[str, str]] | None = None, old_links: LinkWords | None = None,
                  new_links: LinkWords | None = None) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(kinds, details) of how one node changed; both empty when it did not.

    ``known_facts``: the facts the old release records, by book (:func:`fact_labels`).  A fact the old
    release never recorded for any node of the node's book is one the book has learnt to state since,
    not a change of the rule: it is not compared.  ``None`` compares every fact.

    ``known_types``: the types the old release knows, by book (:func:`type_labels`).  A node now of a type
    that release never had, by code or by name, is taken as the book renaming that type (the ``gear``
    type, "Equipment", became ``G``, "Gear"): one change of the book, not one of each of its nodes.

    ``old_links``/``new_links``: what the links in each release's text showed (:data:`LinkWords`), for
    the quotes of a text change.
    """
    kinds: list[str] = []
    details: list[str] = []
    if old.get("name") != new.get("name"):
        kinds.append("renamed")
        details.append(f"renamed from {old.get('name')!r} to {new.get('name')!r}")
    retyped = _retyped(old, new)
    if retyped and known_types is not None:
        system = str(old.get("system") or new.get("system") or "")
        now = [*(new.get("types") or ()), *(new.get("type_names") or ())]
        if not any((system, str(label)) in known_types for label in now):
            retyped = None
    if retyped:
        kinds.append("retyped")
        details.append(retyped)
    if old.get("docname") != new.get("docname"):
        kinds.append("moved")
        details.append(f"moved from page {old.get('docname')} to {new.get('docname')}")
    if (old.get("summary") or "") != (new.get("summary") or ""):
        kinds.append("summary")
        details.append("summary changed")
    old_text, new_text = old.get("text"), new.get("text")
    if isinstance(old_text, str) and isinstance(new_text, str) and old_text and new_text:
        said = text_change(old_text, new_text, old_links, new_links) if old_text != new_text else None
        if said:
            kinds.append("text")
            details.append(said)
    elif old.get("digest") and new.get("digest") and old["digest"] != new["digest"]:
        kinds.append("text")
        details.append("rules text changed")
    old_facts, new_facts = _facts(old), _facts(new)
    if known_facts is not None:
        system = str(old.get("system") or "")
        old_facts = {label: text for label, text in old_facts.items() if (system, label) in known_facts}
        new_facts = {label: text for label, text in new_facts.items() if (system, label) in known_facts}
    if old_facts != new_facts:
        kinds.append("facts")
        for label in sorted(old_facts.keys() | new_facts.keys()):
            before, after = old_facts.get(label), new_facts.get(label)
            if before != after:
                details.append(_fact_change(label, before, after))
    return tuple(kinds), tuple(details)


def diff_catalogues(old: Catalogue, new: Catalogue, links: LinkWords | None = None) -> list[NodeChange]:
    """Every node added, removed or changed from ``old`` to ``new``, by uid; ``links``: what a link
    shows that neither catalogue records (a build: what its pages print)."""
    changes: list[NodeChange] = []
    known = fact_labels(old)
    old_links, new_links = catalogue_links(old, links), catalogue_links(new, links)
    for uid in sorted(old.nodes.keys() | new.nodes.keys()):
        before, after = old.nodes.get(uid), new.nodes.get(uid)
        if before is None and after is not None:
            changes.append(NodeChange(uid, ("added",), (f"new on page {after.get('docname')}",), None, after))
        elif after is None and before is not None:
            changes.append(NodeChange(uid, ("removed",), (f"was on page {before.get('docname')}",), before, None))
        elif before is not None and after is not None:
            kinds, details = compare_nodes(before, after, known, old_links=old_links,
                                                  new_links=new_links)
            if kinds:
                changes.append(NodeChange(uid, kinds, details, before, after))
    return changes


def report_lines(changes: Iterable[NodeChange]) -> list[str]:
    """One line per changed node, for a terminal: ``+`` added, ``-`` removed, ``~`` changed."""
    marks = {"added": "+", "removed": "-"}
    return [f"{marks.get(change.kinds[0], '~')} {change.uid} ({change.title}): {'; '.join(change.details)}"
            for change in changes]
