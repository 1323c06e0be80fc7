"""Encounter odds: how long each system's book matchup takes (as the book asks, then simulated), and
Nemron's exact duels by size.

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
             "nugget": (["doctor"], ["thug"]), "spurg": (["duellist"], ["duellist"])}
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


if __name__ == "__main__":
    main()
