"""Near misses: "did you mean" hints for names a reader mistyped (a leaf: the binding, the domain and
the command line ask it without importing the features that use it)."""

from __future__ import annotations

import heapq
import re
from collections.abc import Iterable
from difflib import SequenceMatcher

_NOT_KEY = re.compile(r"[^a-z0-9]")


def did_you_mean(word: str, candidates: Iterable[str], limit: int = 1) -> str:
    """`` (did you mean 'X'?)`` for the nearest candidates, or nothing when none is near."""
    pool = sorted({c for c in candidates if isinstance(c, str)})
    close = close_matches(word, pool, limit, 0.6)
    if not close:  # a uid differs from its neighbours mostly in its last part: compare case-blind too
        folded = {c.lower(): c for c in pool}
        close = [folded[c] for c in close_matches(word.lower(), list(folded), limit, 0.6)]
    if not close:
        return ""
    return f" (did you mean {' or '.join(repr(c) for c in close)}?)"


def close_matches(word: str, possibilities: Iterable[str], n: int = 3, cutoff: float = 0.6) -> list[str]:
    """``difflib.get_close_matches(word, possibilities, n, cutoff)``, the same answer, sooner.

    difflib works out the full similarity of every candidate that passes its two cheap bounds, and
    the uids of one book pass them nearly all (0.3 s for 5,000 uids, once per dangling uid).  Here
    the candidates are taken best bound first, and the search stops when no bound left can reach
    the ``n``-th best similarity found: a candidate's similarity never exceeds its bound.
    """
    if n <= 0:
        raise ValueError(f"n must be > 0: {n!r}")
    if not 0.0 <= cutoff <= 1.0:
        raise ValueError(f"cutoff must be in [0.0, 1.0]: {cutoff!r}")
    matcher = SequenceMatcher()
    matcher.set_seq2(word)
    bounded: list[tuple[float, str]] = []
    for candidate in possibilities:
        matcher.set_seq1(candidate)
        if matcher.real_quick_ratio() >= cutoff:
            bound = matcher.quick_ratio()
            if bound >= cutoff:
                bounded.append((bound, candidate))
    bounded.sort(key=lambda item: item[0], reverse=True)
    best: list[tuple[float, str]] = []  # a heap of the n best (similarity, candidate), worst first
    for bound, candidate in bounded:
        if len(best) == n and bound < best[0][0]:
            break  # neither this bound nor any after it can reach the n-th best similarity
        matcher.set_seq1(candidate)
        score = matcher.ratio()
        if score < cutoff:
            continue
        if len(best) < n:
            heapq.heappush(best, (score, candidate))
        elif (score, candidate) > best[0]:
            heapq.heapreplace(best, (score, candidate))
    return [candidate for _, candidate in sorted(best, reverse=True)]


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


__all__ = ["close_matches", "did_you_mean", "one_edit_apart", "spelling_key"]
