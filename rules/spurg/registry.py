"""The SPURG registry every topic module registers its nodes into, and the base of its errors.

It lives in its own module so topic modules can import it without importing the package.
"""

from __future__ import annotations

from rules.nodes import Registry, shared_types

#: SPURG's own node type codes (readable two-letter codes; the book shows them after each name).
NODE_TYPES = {
    **shared_types("RL", "RU", "R"),
    "OC": "Outcome",
    "AS": "Ability Score",
    "EN": "Encumbrance Level",
    "DM": "Damage",
    "CB": "Combat",
}

REGISTRY = Registry("spurg", title="SPURG", node_types=NODE_TYPES, target_name="TN",
                    rolls_under=True)  # the target number, rolled under


class SpurgError(ValueError):
    """Base class of every invalid-input error the SPURG rules raise."""
