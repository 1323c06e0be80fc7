#!/usr/bin/env python3
"""Add each node's body (``text``) to a released ``nodes.json`` that kept only its digest.

    python3 ci/release_texts.py COMMIT docs/_releases/v0.1/nodes.json

Reads the book's sources as they were at COMMIT (``git show``), finds every ``node:def`` body (reST
directives and MyST fences), and writes ``text`` into the release's entry only where the body's digest
equals the digest the release recorded: a text is never guessed.  Later builds then say what changed in
words ("the text said ..., now ...") instead of "rules text changed".
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REST = re.compile(r"^(?P<indent>\s*)\.\. node:def::")
MYST = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,}|:{3,})\{node:def\}")


def body(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.splitlines()).strip()


def digest(text: str) -> str:
    return hashlib.sha256(body(text).encode("utf-8")).hexdigest()[:16]


def rest_bodies(lines: list[str]) -> list[str]:
    """The content of every ``.. node:def::`` directive: the indented block after its options."""
    found = []
    for number, line in enumerate(lines):
        match = REST.match(line)
        if not match:
            continue
        indent = len(match.group("indent"))
        block: list[str] = []
        for following in lines[number + 1:]:
            if following.strip() and len(following) - len(following.lstrip()) <= indent:
                break
            block.append(following)
        while block and block[0].strip().startswith(":"):
            block.pop(0)  # the options, right below the directive (a body may start with a role)
        margin = min((len(b) - len(b.lstrip()) for b in block if b.strip()), default=0)
        found.append("\n".join(b[margin:] for b in block))
    return found


def myst_bodies(lines: list[str]) -> list[str]:
    found = []
    for number, line in enumerate(lines):
        match = MYST.match(line)
        if not match:
            continue
        fence = match.group("fence")
        block = []
        for following in lines[number + 1:]:
            if following.strip() == fence:
                break
            block.append(following)
        while block and block[0].strip().startswith(":"):
            block.pop(0)
        found.append("\n".join(block))
    return found


def main() -> int:
    commit, path = sys.argv[1], Path(sys.argv[2])
    release = json.loads(path.read_text(encoding="utf-8"))
    listed = subprocess.run(["git", "ls-tree", "-r", "--name-only", commit, "docs"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout.split()
    bodies: dict[str, str] = {}
    for name in listed:
        if not name.endswith((".rst", ".md", ".txt", ".inc")):
            continue
        source = subprocess.run(["git", "show", f"{commit}:{name}"], cwd=ROOT, check=True, capture_output=True,
                                text=True).stdout.splitlines()
        for text in [*rest_bodies(source), *myst_bodies(source)]:
            bodies[digest(text)] = body(text)
    kept = 0
    for entry in release["nodes"]:
        text = bodies.get(entry.get("digest", ""))
        if text is not None:
            entry["text"] = text
            kept += 1
    path.write_text(json.dumps(release, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{kept} of {len(release['nodes'])} nodes: text recovered and checked against the recorded digest")
    return 0


if __name__ == "__main__":
    sys.exit(main())
