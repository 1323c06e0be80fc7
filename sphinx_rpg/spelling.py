"""Near misses: "did you mean" hints for names a reader mistyped (a leaf: the binding, the domain and
the command line ask it without importing the features that use it)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

_NOT_KEY = re.compile(r"[^a-z0-9]")


def did_you_mean(word: str, candidates: Iterable[str], limit: int = 1) -> str:
    """`` (did you mean 'X'?)`` for the nearest candidates, or nothing when none is near."""
    pool = sorted({c for c in candidates if isinstance(c, str)})
    close = difflib.get_close_matches(word, pool, n=limit, cutoff=0.6)
    if not close:  # a uid differs from its neighbours mostly in its last part: compare case-blind too
        folded = {c.lower(): c for c in pool}
        close = [folded[c] for c in difflib.get_close_matches(word.lower(), list(folded), n=limit, cutoff=0.6)]
    if not close:
        return ""
    return f" (did you mean {' or '.join(repr(c) for c in close)}?)"


def spelling_key(text: str) -> str:
    """A name with case and punctuation dropped: what two spellings of one name share."""
    return _NOT_KEY.sub("", text.lower())


def one_edit_apart(a: str, b: str) -> bool:
    """One letter added, dropped, changed or two swapped; a plural ``s`` is a different word, not a typo."""
    if a == b or len(min(a, b, key=len)) < 2 or a in (b + "s", b + "es") or b in (a + "s", a + "es"):
        return False
    if len(a) == len(b):
        differ = [i for i in range(len(a)) if a[i] != b[i]]
        return len(differ) == 1 or (len(differ) == 2 and differ[1] == differ[0] + 1
                                    and a[differ[0]] == b[differ[1]] and a[differ[1]] == b[differ[0]])
    short, long = sorted((a, b), key=len)
    return len(long) - len(short) == 1 and any(long[:i] + long[i + 1:] == short for i in range(len(long)))


__all__ = ["did_you_mean", "one_edit_apart", "spelling_key"]
