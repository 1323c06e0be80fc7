extensions = ["sphinx_rpg"]
project = "basic"
