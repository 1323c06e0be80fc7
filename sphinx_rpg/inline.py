"""Short texts the extension shows outside their page: a summary's inline markup, a node's first sentence.

Summaries come from docstrings, which use reST inline markup (````None````, ``:class:`~x.Y```); a
listing cell or a hover preview shows them as a reader would read them, never as raw markup.
"""

from __future__ import annotations

import json
import re

from docutils import nodes
from sphinx.addnodes import pending_xref

#: ````literal````, ``:role:`target``` or ``:role:`text <target>```, ``*emphasis*``.
_INLINE = re.compile(r"``(?P<literal>.+?)``|(?::[\w.:-]+:)?`(?P<role>[^`]+)`(?!`)|\*(?P<emph>[^*\s][^*]*)\*")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\"'])")
MAX_SENTENCE = 240


def _role_text(text: str) -> str:
    explicit = re.fullmatch(r"(?s)(.*?)\s*<[^<>]+>", text)
    if explicit and explicit.group(1):
        return explicit.group(1)
    text = text.lstrip("!")
    return text.rpartition(".")[2] if text.startswith("~") else text


def inline_nodes(text: str) -> list[nodes.Node]:
    """Docutils nodes for a one-line summary: literals stay code, roles show their text."""
    result: list[nodes.Node] = []
    position = 0
    for match in _INLINE.finditer(text):
        if match.start() > position:
            result.append(nodes.Text(text[position:match.start()]))
        if match.group("literal") is not None:
            result.append(nodes.literal(match.group("literal"), match.group("literal")))
        elif match.group("role") is not None:
            shown = _role_text(match.group("role"))
            result.append(nodes.literal(shown, shown) if match.group(0).startswith(":") else nodes.Text(shown))
        else:
            result.append(nodes.emphasis(match.group("emph"), match.group("emph")))
        position = match.end()
    if position < len(text):
        result.append(nodes.Text(text[position:]))
    return result


def plain_text(text: str) -> str:
    """The summary as plain words, markup removed (for previews and other plain-text places)."""
    return "".join(node.astext() for node in inline_nodes(text))


def shorten(text: str) -> str:
    """The first sentence of ``text`` (at most about ``MAX_SENTENCE`` characters)."""
    text = " ".join(text.split())
    first = _SENTENCE_END.split(text, maxsplit=1)[0]
    if len(first) > MAX_SENTENCE:
        first = first[:MAX_SENTENCE].rsplit(" ", 1)[0] + "\u2026"
    return first


#: The most characters of a node's first paragraph a preview shows (cut at a word, with "…").
MAX_LEAD = 480
#: Inline markup a preview keeps (as its tag); everything else is shown as its text.
_RUN_TAGS = {nodes.emphasis: "em", nodes.strong: "strong", nodes.literal: "code"}


#: A run's white space, folded to one space.
_SPACES = re.compile(r"\s+")
#: ``json.dumps(value, separators=(",", ":"), ensure_ascii=False)``, made once: ``json.dumps`` with
#: arguments makes an encoder per call.  Compact separators keep json on its C encoder (``indent=``
#: falls back to pure Python, about 5x slower).
_JSON = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def compact_json(value: object) -> str:
    """``value`` as compact JSON text, non-ASCII kept: what the pages' data files hold."""
    return _JSON.encode(value)


def _tag(child: nodes.Node) -> str:
    return next((tag for kind, tag in _RUN_TAGS.items() if isinstance(child, kind)), "")


def _runs(paragraph: nodes.Element) -> list[list[str]]:
    """``[[tag, text], ...]`` of a paragraph: its text with emphasis, strong and code marked ("" = plain),
    white space folded to single spaces."""
    runs: list[list[str]] = []
    for child in paragraph.children:
        if (isinstance(child, pending_xref) and child.get("refdomain") == "node" and not child.get("refexplicit")
                and child.get("reftarget")):
            runs.append(["ref", str(child["reftarget"])])  # a node named by its uid: its title once known
            continue
        tag = "" if isinstance(child, nodes.Text) else _tag(child)
        text = _SPACES.sub(" ", child.astext())
        if runs and runs[-1][0] == tag:
            runs[-1][1] += text
        elif text:
            runs.append([tag, text])
    if runs:
        runs[0][1], runs[-1][1] = runs[0][1].lstrip(), runs[-1][1].rstrip()
    return [run for run in runs if run[1]]


def first_paragraph_runs(container: nodes.Element) -> list[list[str]] | None:
    """The node's first paragraph for its preview, formatted: ``[[tag, text], ...]`` (None if it has
    none), at most about ``MAX_LEAD`` characters (cut at a word, with "\u2026"); a ``["ref", uid]``
    run is a node reference that ``entries.preview_entry`` replaces with the node's title."""
    paragraph = next((child for child in container.children if isinstance(child, nodes.paragraph)), None)
    if paragraph is None:
        return None
    kept: list[list[str]] = []
    room = MAX_LEAD
    for tag, text in _runs(paragraph):
        if tag == "ref":  # counted as a short name
            kept.append([tag, text])
            room -= 16
            continue
        if len(text) > room:
            kept.append([tag, text[:room].rsplit(" ", 1)[0].rstrip() + "\u2026"])
            break
        kept.append([tag, text])
        room -= len(text)
    return kept


#: A dotted name in prose (``Nemron.Attribute.Body``): a node's uid, when the book has such a node.
DOTTED = re.compile(r"\b[A-Za-z_]\w*(?:\.\w+)+")
#: What every ``DOTTED`` match holds: a literal-led search, many times faster than ``DOTTED`` over a
#: sentence whose only full stop ends it.
_DOT_WORD = re.compile(r"\.\w")


def dotted_words(text: str) -> list[str]:
    """The dotted names in ``text`` (uids, perhaps), in order."""
    return DOTTED.findall(text) if _DOT_WORD.search(text) is not None else []


def shown_sentence(sentence: str, summary: str) -> str:
    """The sentence a node's preview and search line show: its first sentence, else its summary's."""
    return sentence or shorten(plain_text(summary))


def first_sentence(container: nodes.Element) -> str:
    """The first sentence of a node's own prose: its first paragraph outside facts, examples and sub-nodes."""
    for child in container.children:
        if isinstance(child, nodes.paragraph):
            return shorten(child.astext())
    return ""
