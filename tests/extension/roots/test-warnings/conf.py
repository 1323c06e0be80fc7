extensions = ["sphinx_rpg"]
project = "warnings"
