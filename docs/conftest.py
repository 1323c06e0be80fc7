"""Run every worked example of the site (all rulebooks and the manual) with sphinx-rpg's Sybil parser."""

from pathlib import Path

from sphinx_rpg.sybil import rulebook_sybil

pytest_collect_file = rulebook_sybil(conf_py=Path(__file__).with_name("conf.py"),
                                     excludes=["_build/*"]).pytest()
