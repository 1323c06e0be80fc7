"""Run the supplement's worked examples (the same Sybil parser as the core books)."""

from pathlib import Path

from sphinx_rpg.sybil import rulebook_sybil

pytest_collect_file = rulebook_sybil(conf_py=Path(__file__).with_name("conf.py"), excludes=["_build/*"]).pytest()
