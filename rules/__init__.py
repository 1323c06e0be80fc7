"""sphinx-rpg's rules engine: exact dice, the generic node model and one package per game system.

Importable without Sphinx: a game master can use it from a script or the ``rpg`` command line.
"""
