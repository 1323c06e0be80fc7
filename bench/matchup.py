"""Encounter odds: how long each system's book matchup takes (as the book asks, then simulated), and
Nemron's and the DnDalike's exact duels by size.

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
    from rules.nugget.matchup import DuelModel as NuggetDuel
    from rules.nugget.matchup import doctor_fighter

    doctors = NuggetDuel(doctor_fighter("Ada", "a"), doctor_fighter("Bea", "b"))
    timed("nugget doctor vs doctor (refused by the budget)", lambda: solve(doctors, ("Ada", "Bea"), "harm"))
    from rules.nemron.matchup import DuelModel, brandon_fighter, raider_fighter

    for hp in (1, 2, 3):
        pair = [dataclasses.replace(f, hp=hp) for f in (brandon_fighter(), raider_fighter())]
        timed(f"nemron exact duel, {hp} HP a limb",
              lambda pair=pair: solve(DuelModel(*pair), ("Brandon", "Raider"), "HP"))
    dndalike_duels()


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
