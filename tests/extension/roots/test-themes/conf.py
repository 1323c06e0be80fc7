import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
extensions = ["sphinx_rpg"]
project = "themes"
rpg_registries = ["theme_rules:REGISTRY"]
