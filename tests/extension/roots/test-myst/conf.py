extensions = ["myst_parser", "sphinx_rpg"]
project = "myst"
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
