import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
extensions = ["sphinx_rpg", "sphinx_design"]  # listing.rst has node:cards
project = "bound"
rpg_registries = ["bound_rules:REGISTRY"]
