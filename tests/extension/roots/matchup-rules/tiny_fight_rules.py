"""A tiny registry for the node:matchup tests: one-hit duellists, a fight that breaks, an unbounded one."""

from fractions import Fraction

from rules.matchup import Matchup, Played
from rules.nodes import Registry

REGISTRY = Registry("tinyfight", title="Tiny fights", node_types={"A": "Attribute"})
#: name -> chance to land the one blow that ends the fight.
AIM = {"ann": Fraction(1, 2), "bob": Fraction(1, 3), "ghost": Fraction(0)}


class OneBlow:
    """Ann swings first each round; a hit ends it.  States: "on", "0" (Ann won), "1" (Bob won)."""

    estimate = 3

    def __init__(self, a: str, b: str, huge: bool = False) -> None:
        self.aim = (AIM[a], AIM[b])
        self.fighters = (a.capitalize(), b.capitalize())
        if huge:
            self.estimate = 10**9

    def start(self):
        return [(Fraction(1), "on")]

    def round(self, state):
        first, second = self.aim
        return [(first, "0"), ((1 - first) * second, "1"), ((1 - first) * (1 - second), "on")]

    def outcome(self, state):
        return None if state == "on" else int(state)

    def left(self, state):
        return (int(state != "1"), int(state != "0"))


@REGISTRY.matchups.publish
def fight(side_a, side_b):
    if "broken" in (*side_a, *side_b):
        raise SystemExit("the fight tried to end the build")
    if "endless" in (*side_a, *side_b):
        def forever(source):
            while True:
                pass

        return Matchup(("Endless", "Bob"), ("Endless", "Bob"), "HP left", forever)
    a, b = side_a[0], side_b[0]
    if a not in AIM or b not in AIM:
        raise KeyError(f"no fighter {a if a not in AIM else b!r}")
    model = OneBlow(a, b, huge="ghost" in (a, b))

    def play(source):
        rounds = 0
        while True:
            rounds += 1
            if model.aim[0] and source.roll(model.aim[0].denominator) <= model.aim[0].numerator:
                return Played(0, rounds, (1, 0))
            if model.aim[1] and source.roll(model.aim[1].denominator) <= model.aim[1].numerator:
                return Played(1, rounds, (0, 1))
            if rounds == 50:
                return Played(2, rounds, (1, 1))

    return Matchup(model.fighters, model.fighters, "HP left", play, model)
