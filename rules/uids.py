"""Node uids and the base error about nodes: a leaf, so stat blocks check uids without importing the
node model (which imports them)."""

from __future__ import annotations

import re
from typing import TypeGuard

UID_PATTERN = re.compile(r"[A-Za-z][A-Za-z0-9_-]*(?:\.[A-Za-z][A-Za-z0-9_-]*)*")


class NodeError(ValueError):
    """Base class of every error about nodes and registries."""


def invalid_uid_error(uid: object) -> NodeError:
    return NodeError(f"{uid!r} is not a valid node uid: use dotted identifiers such as 'Generic.Trait.Energy' "
        "(each part starts with a letter; letters, digits, '_' and '-' follow)")


def is_valid_uid(uid: object) -> TypeGuard[str]:
    return isinstance(uid, str) and UID_PATTERN.fullmatch(uid) is not None


def check_uid(uid: object) -> str:
    if not is_valid_uid(uid):
        raise invalid_uid_error(uid)
    return uid
