"""Encounter odds: how long each system's book matchup takes (as the book asks, then simulated), how
soon each system refuses a duel too large to solve exactly, and Nemron's and the DnDalike's exact
duels by size.

    .venv/bin/python bench/matchup.py

Prints CPU seconds (``time.process_time``) per answer.  Figures depend on the machine and its load:
compare runs made one after the other, not with numbers from another day.
"""

from __future__ import annotations

import dataclasses
import importlib
import time

from rules.matchup import MatchupTooLargeError, answer, solve


def timed(label: str, run):  # type: ignore[no-untyped-def]
    started = time.process_time()
    try:
        result = run()
    except MatchupTooLargeError as error:
        print(f"{label}: refused after {time.process_time() - started:.2f} s ({error})")
        return None
    print(f"{label}: {time.process_time() - started:.2f} s, {result.method()}, "
          f"side A {float(result.wins[0]):.4f}, {float(result.mean_rounds):.2f} rounds")
    return result


def main() -> None:
    books = {"nemron": (["brandon"], ["raider"]), "heimr": (["shieldmaiden"], ["shieldmaiden"]),
             "nugget": (["doctor"], ["thug"]), "spurg": (["duellist"], ["duellist"]), "dndalike": (["orc"], ["orc"])}
    total = time.process_time()
    for system, sides in books.items():
        fight = importlib.import_module(f"rules.{system}").REGISTRY.matchups.build(*sides)
        timed(f"{system} book matchup", lambda fight=fight: answer(fight))
    print(f"every book matchup: {time.process_time() - total:.2f} s")
    for system, sides in books.items():  # what the same fights cost played through the trackers
        fight = importlib.import_module(f"rules.{system}").REGISTRY.matchups.build(*sides)
        timed(f"{system} book matchup, simulated", lambda fight=fight: answer(fight, exact=False))
    refusals()
    from rules.nemron.matchup import DuelModel, brandon_fighter, raider_fighter

    for hp in (1, 2, 3):
        pair = [dataclasses.replace(f, hp=hp) for f in (brandon_fighter(), raider_fighter())]
        timed(f"nemron exact duel, {hp} HP a limb",
              lambda pair=pair: solve(DuelModel(*pair), ("Brandon", "Raider"), "HP"))
    dndalike_duels()


def refusals() -> None:
    """Each system's too-large duel, refused by its price (the model's bound on its states) before
    any exploring: the book's own stat blocks where one is too large, else fighters of 500 HP."""
    for system, sides in {"nemron": (["brandon"], ["raider"]), "nugget": (["doctor"], ["doctor"]),
                          "dndalike": (["georgia"], ["orc"])}.items():
        fight = importlib.import_module(f"rules.{system}").REGISTRY.matchups.build(*sides)
        timed(f"{system} {sides[0][0]} vs {sides[1][0]} (refused by its price)",
              lambda fight=fight: answer(fight, exact=True))
    from rules.heimr.matchup import DuelModel as HeimrDuel
    from rules.heimr.matchup import shieldmaiden_fighter
    from rules.spurg.matchup import DuelModel as SpurgDuel
    from rules.spurg.matchup import duellist_fighter

    maidens = shieldmaiden_fighter("A"), shieldmaiden_fighter("B")
    duellists = duellist_fighter("A", "a"), duellist_fighter("B", "b")
    for fighter in maidens:
        fighter.hp = 500
    for duellist in duellists:
        duellist.vitality = 500
    timed("heimr shieldmaidens of 500 HP (refused by its price)", lambda: solve(HeimrDuel(*maidens), ("A", "B"), "HP"))
    timed("spurg duellists of Vitality 500 (refused by its price)",
          lambda: solve(SpurgDuel(*duellists), ("A", "B"), "HP"))


def dndalike_duels() -> None:
    """A normal character (secret damage) against the lesser orc, by health, and Georgia herself."""
    from rules.dndalike.characters import Character, Stats
    from rules.dndalike.matchup import DuelModel, Fighter, georgia_fighter, orc_fighter

    for constitution in (3, 5, 8, 15):  # a first-level wizard: health 2, 3, 4, 5
        wizard = Fighter("Wizard", Character(Stats(10, 10, constitution, 10, 10, 10), ("Wizard",), "Nothing"))
        timed(f"dndalike exact duel, a wizard of health {wizard.character.health} against the orc",
              lambda wizard=wizard: solve(DuelModel(wizard, orc_fighter()), ("Wizard", "Orc"), "wounds"))
    timed("dndalike exact duel, Georgia (health 9) against the orc",
          lambda: solve(DuelModel(georgia_fighter(), orc_fighter()), ("Georgia", "Orc"), "wounds"))


if __name__ == "__main__":
    main()
