"""Dice notation: ``d20``, ``3d6``, ``2d6+3``, ``4d6kh3``, ``2d6kl1``, ``6d6>=4`` and ``d6!``.

Grammar (whitespace is allowed between terms and around ``>=``, not inside a die)::

    expr    := [+|-] term ((+|-) term)*
    term    := INT | die [suffix]
    die     := [INT] (d|D) INT
    suffix  := (kh | kl | k) INT | ! | >= INT

``>=`` counts successes; ``6d6>4`` is an error that says so.  A game's own notation (Nemron's pools
``1d6 › 1d8``) is not read here but by the system's registration (``rules.systems``).  Everything is bounded: at most
:data:`MAX_DICE` dice in one expression, :data:`MAX_SIDES` sides on a die, :data:`MAX_CONSTANT` for a
number and :data:`MAX_LENGTH` characters, so no input can make the parser or the engine hang.  Any bad
input raises :class:`NotationError` and nothing else.
"""

from __future__ import annotations

from .errors import DiceError
from .expr import Constant, Dice, DiceExpr, Explode, Keep, SuccessCount, Sum

__all__ = [
    "Constant", "Dice", "DiceExpr", "Explode", "Keep", "MAX_CONSTANT", "MAX_DICE", "MAX_LENGTH",
    "MAX_SIDES", "NotationError", "SuccessCount", "Sum", "parse",
]

MAX_DICE = 1000
MAX_SIDES = 10_000
MAX_CONSTANT = 1_000_000
MAX_LENGTH = 1000


class NotationError(DiceError, ValueError):
    """Bad dice notation: ``.text``, ``.position`` (0-based index), ``.column`` (1-based) and ``.reason``.

    The message reads ``"3d0: at column 3: a die needs at least 1 side"``.
    """

    def __init__(self, text: str, position: int, reason: str):
        self.text = text
        self.position = position
        self.reason = reason
        shown = text if len(text) <= 60 else text[:57] + "..."
        super().__init__(f"{shown}: at column {position + 1}: {reason}")

    @property
    def column(self) -> int:
        return self.position + 1


def parse(text: str) -> DiceExpr:
    """Parse dice notation into a :class:`DiceExpr` (raises :class:`NotationError` on bad input)."""
    if not isinstance(text, str):
        raise NotationError(repr(text), 0, f"dice notation must be a string, not {type(text).__name__}")
    return _Parser(text).parse()


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.i = 0
        self.dice = 0

    # ------------------------------------------------------------------ helpers
    def error(self, reason: str, position: int | None = None) -> NotationError:
        return NotationError(self.text, self.i if position is None else position, reason)

    def peek(self) -> str:
        return self.text[self.i] if self.i < len(self.text) else ""

    def skip_ws(self) -> None:
        while self.i < len(self.text) and self.text[self.i] in " \t":
            self.i += 1

    def describe(self) -> str:
        ch = self.peek()
        return "the end of the notation" if not ch else repr(ch)

    def number(self, what: str, limit: int) -> int:
        """Read an unsigned decimal integer (ASCII digits only) no larger than ``limit``."""
        start = self.i
        while self.i < len(self.text) and self.text[self.i] in "0123456789":
            self.i += 1
        digits = self.text[start:self.i]
        if not digits:
            raise self.error(f"expected {what} (a number), found {self.describe()}")
        if len(digits) > len(str(limit)) or int(digits) > limit:
            raise self.error(f"{what} is at most {limit:,}", start)
        return int(digits)

    def add_dice(self, count: int, position: int) -> None:
        self.dice += count
        if self.dice > MAX_DICE:
            raise self.error(f"too many dice: at most {MAX_DICE:,} in one expression", position)

    # ------------------------------------------------------------------ grammar
    def parse(self) -> DiceExpr:
        if len(self.text) > MAX_LENGTH:
            raise self.error(f"dice notation is at most {MAX_LENGTH} characters long", MAX_LENGTH)
        self.skip_ws()
        if not self.peek():
            raise self.error("empty dice notation: expected a die like d20 or a number")
        terms: list[DiceExpr] = []
        signs: list[int] = []
        sign = 1
        if self.peek() in "+-":
            sign = -1 if self.peek() == "-" else 1
            self.i += 1
            self.skip_ws()
        while True:
            terms.append(self.term())
            signs.append(sign)
            self.skip_ws()
            ch = self.peek()
            if not ch:
                break
            if ch not in "+-":
                raise self.error(f"unexpected {ch!r}: expected +, - or the end of the notation")
            sign = -1 if ch == "-" else 1
            self.i += 1
            self.skip_ws()
        if len(terms) == 1:
            only = terms[0]
            if signs[0] == 1:
                return only
            if isinstance(only, Constant):
                return Constant(-only.value)
        return Sum(tuple(terms), tuple(signs))

    def term(self) -> DiceExpr:
        start = self.i
        ch = self.peek()
        if not ch:
            raise self.error("expected a die like d6 or a number, found the end of the notation")
        if ch not in "0123456789dD":
            raise self.error(f"expected a die like d6 or a number, found {ch!r}")
        count = self.number("a number", MAX_CONSTANT) if ch not in "dD" else 1
        if self.peek() not in ("d", "D"):
            return Constant(count)
        return self.after_die(start, count)

    def die(self, start: int, count: int) -> Dice:
        """Having read ``count`` at ``start``, read ``d`` and the sides."""
        if count < 1:
            raise self.error("a roll needs at least 1 die", start)
        if count > MAX_DICE:
            raise self.error(f"too many dice: at most {MAX_DICE:,} in one expression", start)
        self.i += 1  # the d
        sides_at = self.i
        sides = self.number("the number of sides", MAX_SIDES)
        if sides < 1:
            raise self.error("a die needs at least 1 side", sides_at)
        self.add_dice(count, start)
        return Dice(count, sides)

    def after_die(self, start: int, count: int) -> DiceExpr:
        die = self.die(start, count)
        ch = self.peek()
        if ch in ("k", "K"):
            return self.keep(die)
        if ch == "!":
            if die.sides < 2:
                raise self.error("a d1 cannot explode (it would always show its maximum)")
            self.i += 1
            return Explode(die.count, die.sides)
        if ch in ("d", "D"):
            raise self.error("unexpected 'd': a die is written like 3d6")
        save = self.i
        self.skip_ws()
        if self.text.startswith(">=", self.i) or self.peek() == "≥":
            self.i += 1 if self.peek() == "≥" else 2
            self.skip_ws()
            at = self.i
            threshold = self.number("the success threshold", MAX_SIDES)
            if threshold < 1:
                raise self.error("a success threshold is at least 1", at)
            if threshold > die.sides:
                raise self.error(f"a d{die.sides} never shows {threshold}, so nothing could succeed", at)
            return SuccessCount(die.count, die.sides, threshold)
        if self.peek() in (">", "\N{SINGLE RIGHT-POINTING ANGLE QUOTATION MARK}"):
            raise self.error(f"unexpected {self.peek()!r}: to count successes write '>=' as in "
                             f"{die.count}d{die.sides}>=4; a keep-highest pool such as Nemron's "
                             "is read with its game system's notation")
        self.i = save
        return die

    def keep(self, die: Dice) -> Keep:
        self.i += 1
        highest = True
        if self.peek() in ("h", "H", "l", "L"):
            highest = self.peek() in ("h", "H")
            self.i += 1
        kept_at = self.i
        kept = self.number("how many dice to keep", MAX_DICE)
        if kept < 1:
            raise self.error("keep at least 1 die", kept_at)
        if kept > die.count:
            raise self.error(f"cannot keep {kept} of {die.count} dice", kept_at)
        return Keep(die.count, die.sides, kept, highest)
