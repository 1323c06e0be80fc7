import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
extensions = ["sphinx_rpg"]
project = "bound"
rpg_registries = ["bound_rules:REGISTRY"]
