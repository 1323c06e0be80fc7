"""Dice notation: ``d20``, ``3d6+2``, ``4d6kh3``, ``4d6dl1``, ``4dF``, ``d%``, ``2d6r1``, ``(1d6+2)*2``...

Grammar (whitespace is allowed between terms and around operators, not inside a die)::

    expr    := [+|-] product ((+|-) product)*
    product := factor ('*' factor)*                  at most one factor may hold dice
    factor  := INT | '(' expr ')' | die [suffix]
    die     := [INT] (d|D) (INT | %)  |  [INT] (d|D) (F|f)                 d% is d100, dF a fudge die
    suffix  := (kh | kl | k | dh | dl) INT | ! | >= INT | (r | rr) (INT | < INT | > INT)

``>=`` counts successes; ``6d6>4`` is an error that says so.  A game's own notation (Nemron's pools
``1d6 › 1d8``) is not read here but by the system's registration (``rules.systems``).  ``4d6dl1`` (drop the lowest) is
the same roll as ``4d6kh3`` and is written back that way; ``r`` rerolls once, ``rr`` until the face
stands (see :class:`Reroll`);
``*`` multiplies by a whole number, and parentheses group (``-(1d6+2)`` is ``-1d6-2``).
Everything is bounded: at most :data:`MAX_DICE` dice in one expression, :data:`MAX_SIDES` sides on a
die, :data:`MAX_CONSTANT` for a number (and a product of numbers), :data:`MAX_NESTING` levels of
parentheses and :data:`MAX_LENGTH` characters, both as typed and as written back by ``str()``, so
``parse(str(e)) == e`` for every expression ``parse`` returns and no input can make the parser or the
engine hang.  Any bad input raises :class:`NotationError` and nothing else.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

from .errors import DiceError
from .expr import Constant, Dice, DiceExpr, Explode, Fudge, Keep, Reroll, Scale, SuccessCount, Sum

__all__ = [
    "Constant", "Dice", "DiceExpr", "Explode", "Fudge", "Keep", "MAX_CONSTANT", "MAX_DICE",
    "MAX_LENGTH", "MAX_NESTING", "MAX_SIDES", "NotationError", "Reroll", "Scale",
    "SuccessCount", "Sum", "parse",
]

MAX_DICE = 1000
MAX_SIDES = 10_000
MAX_CONSTANT = 1_000_000
MAX_LENGTH = 1000
MAX_NESTING = 20


class NotationError(DiceError, ValueError):
    """Bad dice notation: ``.text``, ``.position`` (0-based index), ``.column`` (1-based) and ``.reason``.

    The message reads ``"3d0: at column 3: a die needs at least 1 side"``.
    """

    def __init__(self, text: str, position: int, reason: str):
        self.text = text
        self.position = position
        self.reason = reason
        shown = one_line(text if len(text) <= 60 else text[:57] + "...")
        super().__init__(f"{shown}: at column {position + 1}: {one_line(reason)}")

    @property
    def column(self) -> int:
        return self.position + 1


def one_line(text: str) -> str:
    """``text`` with every character that is not printable (a newline, a tab, a no-break space, a
    control character) written as its escape, so that a message is one line whatever was typed."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)


#: The typographic minus (U+2212), read as ``-``.
MINUS = "\N{MINUS SIGN}"
#: Signs that compare a total with a target: not notation (a page's ``:dc:``, ``rpg odds --dc``).
COMPARISONS = (">", "<", "=", "\N{GREATER-THAN OR EQUAL TO}", "\N{LESS-THAN OR EQUAL TO}")
#: Where a target goes instead (named by the messages about ``1d20+5 >= 15``).
TARGET_HINT = ("a total against a target is not part of dice notation: give the target separately, "
               "':dc: {n}' on a page or '--dc {n}' with rpg odds (':under:' / '--under' for at most)")


#: ``3d6``, ``d20``: plain dice, read directly (anything else, or out of bounds, goes to the parser).
_SIMPLE = re.compile(r"\s*([0-9]{1,4})?[dD]([0-9]{1,5})\s*")
#: A die after ``>``: ``1d6 > 1d8`` is a pool of a game's own notation, not a success count.
_POOL_NEXT = re.compile(r"\s*[0-9]*[dD][0-9]")


#: How many parsed expressions :func:`parse` keeps by their text.
PARSED_KEPT = 1024


def parse(text: str) -> DiceExpr:
    """Parse dice notation into a :class:`DiceExpr` (raises :class:`NotationError` on bad input).

    Expressions are immutable, so the last :data:`PARSED_KEPT` are kept by their text: a page or a
    calculator asking the same question again gets the same object, already priced."""
    if not isinstance(text, str):
        raise NotationError(repr(text), 0, f"dice notation must be a string, not {type(text).__name__}")
    return _parse(text)


@lru_cache(maxsize=PARSED_KEPT)
def _parse(text: str) -> DiceExpr:
    simple = _SIMPLE.fullmatch(text)
    if simple:  # the commonest question, NdS, without the general parser (the same object it gives)
        count, sides = int(simple[1] or 1), int(simple[2])
        if 1 <= count <= MAX_DICE and 1 <= sides <= MAX_SIDES:
            return Dice.checked(count, sides)
    expr = _Parser(text).parse()
    written = len(str(expr))
    if written > MAX_LENGTH:
        raise NotationError(text, 0, f"written out in full this is {written:,} characters long, and dice "
                                     f"notation is at most {MAX_LENGTH} (write 20d6, not d6+d6+...)")
    return expr


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.i = 0
        self.dice = 0
        self.depth = 0

    # ------------------------------------------------------------------ helpers
    def error(self, reason: str, position: int | None = None) -> NotationError:
        return NotationError(self.text, self.i if position is None else position, reason)

    def peek(self) -> str:
        return self.text[self.i] if self.i < len(self.text) else ""

    def skip_ws(self) -> None:
        """Skip whitespace of any kind (spaces, tabs, newlines, no-break spaces...)."""
        while self.i < len(self.text) and self.text[self.i].isspace():
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
        expr = self.expr()
        if self.peek() == ")":
            raise self.error("unexpected ')': there is no '(' before it")
        if self.peek() in COMPARISONS:
            raise self.error(TARGET_HINT.format(n=self.target_after()))
        if self.peek().isalpha():
            raise self.error(self.word_hint())
        if self.peek():
            raise self.error(f"unexpected {self.peek()!r}: expected +, -, * or the end of the notation")
        return expr

    def target_after(self) -> str:
        """The number after a comparison sign (for the message), or N."""
        j = self.i
        while j < len(self.text) and (self.text[j] in "<>=\u2265\u2264" or self.text[j].isspace()):
            j += 1
        k = j
        while k < len(self.text) and self.text[k] in "0123456789":
            k += 1
        return self.text[j:k] if j < k <= j + 7 else "N"

    def word_hint(self) -> str:
        """The message for a word after the dice: ``d20 adv`` names 2d20kh1."""
        j = self.i
        while j < len(self.text) and self.text[j].isalpha():
            j += 1
        word = self.text[self.i:j].lower()
        if word in ("adv", "advantage", "dis", "disadv", "disadvantage"):
            return ("advantage is written 2d20kh1 (roll two, keep the higher), disadvantage 2d20kl1: "
                    "no word follows the dice")
        return f"unexpected {self.peek()!r}: expected +, -, * or the end of the notation"

    def expr(self) -> DiceExpr:
        """Terms joined by + and -; a parenthesised sum inside is flattened into this one."""
        terms: list[DiceExpr] = []
        signs: list[int] = []
        sign = 1
        if self.peek() in ("+", "-", MINUS):
            sign = 1 if self.peek() == "+" else -1
            self.i += 1
            self.skip_ws()
        while True:
            term = self.product()
            if isinstance(term, Sum):
                terms.extend(term.terms)
                signs.extend(sign * s for s in term.signs)
            else:
                terms.append(term)
                signs.append(sign)
            self.skip_ws()
            ch = self.peek()
            if ch not in ("+", "-", MINUS):
                break
            sign = 1 if ch == "+" else -1
            self.i += 1
            self.skip_ws()
        if len(terms) == 1:
            only = terms[0]
            if signs[0] == 1:
                return only
            if isinstance(only, Constant):
                return Constant(-only.value)
        return Sum(tuple(terms), tuple(signs))

    def product(self) -> DiceExpr:
        """Factors joined by ``*``: numbers multiply together, and at most one factor holds dice."""
        start = self.i
        factor = 1
        dice: DiceExpr | None = None
        while True:
            at = self.i
            item = self.factor()
            if isinstance(item, Constant):
                factor *= item.value
                if abs(factor) > MAX_CONSTANT:
                    raise self.error(f"a product of numbers is at most {MAX_CONSTANT:,}", at)
            elif dice is not None:
                raise self.error("dice can only be multiplied by a number, not by other dice: more dice are "
                                 "written 2d6, a total times a number 1d6*3", at)
            else:
                dice = item
            save = self.i
            self.skip_ws()
            if self.peek() != "*":
                self.i = save
                break
            self.i += 1
            self.skip_ws()
        if dice is None:
            return Constant(factor)
        if factor < 1:
            raise self.error(f"dice can be multiplied by a whole number of at least 1, not {factor}; "
                             f"write a minus sign in front to subtract", start)
        if factor == 1:
            return dice
        if isinstance(dice, Scale):
            factor *= dice.factor
            dice = dice.expr
            if factor > MAX_CONSTANT:
                raise self.error(f"a product of numbers is at most {MAX_CONSTANT:,}", start)
        return Scale(dice, factor)

    def factor(self) -> DiceExpr:
        start = self.i
        ch = self.peek()
        if ch == "(":
            if self.depth >= MAX_NESTING:
                raise self.error(f"parentheses nest at most {MAX_NESTING} deep")
            self.depth += 1
            self.i += 1
            self.skip_ws()
            if self.peek() == ")":
                raise self.error("empty parentheses: expected a die like d6 or a number")
            inner = self.expr()
            self.skip_ws()
            if self.peek() != ")":
                raise self.error(f"expected ')' to close the '(' at column {start + 1}, "
                                 f"found {self.describe()}")
            self.i += 1
            self.depth -= 1
            return inner
        if not ch:
            raise self.error("expected a die like d6 or a number, found the end of the notation")
        if ch not in "0123456789dD":
            raise self.error(f"expected a die like d6, a number or '(', found {ch!r}")
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
        if self.peek() == "%":
            self.i += 1
            self.add_dice(count, start)
            return Dice(count, 100)
        sides = self.number("the number of sides", MAX_SIDES)
        if sides < 1:
            raise self.error("a die needs at least 1 side", sides_at)
        self.add_dice(count, start)
        return Dice(count, sides)

    def after_die(self, start: int, count: int) -> DiceExpr:
        if self.text[self.i + 1:self.i + 2] in ("F", "f"):
            return self.fudge(start, count)
        die = self.die(start, count)
        ch = self.peek()
        if ch in ("k", "K") or self.at_drop():
            return self.keep(die) if ch in ("k", "K") else self.drop(die)
        if ch in ("r", "R"):
            return self.then_keep(die, self.reroll(die))
        if ch == "!":
            if die.sides < 2:
                raise self.error("a d1 cannot explode (it would always show its maximum)")
            self.i += 1
            if self.peek() in COMPARISONS:
                raise self.error(f"exploding on other faces than the highest, or counting the successes of "
                                 f"exploding dice, is not read here: {die}! explodes on {die.sides} only, "
                                 f"and {die}>=N counts the dice showing N or more")
            return self.then_keep(die, Explode(die.count, die.sides))
        if ch in ("d", "D"):
            raise self.error(f"unexpected 'd': to drop the lowest die write dl, as in {die}dl1 (Roll20's "
                             f"{die}d1), or keep the rest: {die}kh{max(die.count - 1, 1)}")
        if ch in ("x", "X"):
            raise self.error(f"exploding dice are written with '!' here: {die}! (Foundry's {die}x); "
                             f"to multiply write '*', as in {die}*2")
        save = self.i
        self.skip_ws()
        if self.text.startswith(">=", self.i) or self.peek() == "\N{GREATER-THAN OR EQUAL TO}":
            self.i += 1 if self.peek() == "\N{GREATER-THAN OR EQUAL TO}" else 2
            self.skip_ws()
            at = self.i
            threshold = self.number("the success threshold", MAX_SIDES)
            if threshold < 1:
                raise self.error("a success threshold is at least 1", at)
            if threshold > die.sides:
                raise self.error(f"a d{die.sides} never shows {threshold}, so no die could succeed; "
                                 f"{die}>=N counts the dice showing N or more, and for the total "
                                 + TARGET_HINT.split(": ", 1)[1].format(n=threshold), at)
            return SuccessCount(die.count, die.sides, threshold)
        if self.peek() == ">" and not _POOL_NEXT.match(self.text, self.i + 1):
            after = self.target_after()
            raise self.error(f"unexpected '>': to count the dice showing {after} or more write "
                             f"{die}>={after} (Roll20 reads {die}>{after} so); for the total against a "
                             f"target, " + TARGET_HINT.split(": ", 1)[1].format(n=after))
        if self.peek() in (">", "\N{SINGLE RIGHT-POINTING ANGLE QUOTATION MARK}"):
            raise self.error(f"unexpected {self.peek()!r}: a keep-highest pool such as Nemron's "
                             "is read with its game system's notation")
        self.i = save
        return die

    def at_drop(self) -> bool:
        return self.peek() in ("d", "D") and self.text[self.i + 1:self.i + 2] in ("h", "H", "l", "L")

    def then_keep(self, die: Dice, whole: Explode | Reroll) -> DiceExpr:
        """``2d10!kh1``, ``4d6r1kh3``: each die exploded or rerolled, then some of them kept."""
        one = replace(whole, count=1)
        ch = self.peek()
        if ch in ("k", "K") or self.at_drop():
            kept = self.keep(die) if ch in ("k", "K") else self.drop(die)
            if kept.keep == kept.count:
                return whole
            return Keep(kept.count, kept.sides, kept.keep, kept.highest, one)
        if ch in ("r", "R", "!"):
            raise self.error(f"one reroll or one explosion per die: {whole} can then only keep or drop "
                             f"(as in {whole}kh1)")
        if ch in ("d", "D", "x", "X"):
            return self.after_modifier(whole)
        return whole

    def after_modifier(self, whole: DiceExpr) -> DiceExpr:
        ch = self.peek()
        if ch in ("d", "D"):
            raise self.error(f"unexpected 'd': to drop the lowest die write dl, as in {whole}dl1")
        raise self.error(f"unexpected {ch!r}: {whole} can be followed by kh, kl, dh or dl, then +, - or *")

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

    def fudge(self, start: int, count: int) -> Fudge:
        if count < 1:
            raise self.error("a roll needs at least 1 die", start)
        if count > MAX_DICE:
            raise self.error(f"too many dice: at most {MAX_DICE:,} in one expression", start)
        self.i += 2  # the d and the F
        self.add_dice(count, start)
        if self.peek() in ("k", "K", "d", "D", "r", "R", "!") or self.text.startswith(">=", self.i):
            raise self.error("fudge dice are summed as they fall: nothing may follow 4dF but +, - or *")
        return Fudge(count)

    def drop(self, die: Dice) -> Keep:
        """``4d6dl1`` drops the lowest die: the same roll as ``4d6kh3`` (and written back so)."""
        lowest = self.text[self.i + 1] in ("l", "L")
        self.i += 2
        at = self.i
        dropped = self.number("how many dice to drop", MAX_DICE)
        if dropped < 1:
            raise self.error("drop at least 1 die", at)
        if dropped >= die.count:
            raise self.error(f"cannot drop {dropped} of {die.count} dice: at least one must be left", at)
        return Keep(die.count, die.sides, die.count - dropped, highest=lowest)

    def reroll(self, die: Dice) -> Reroll:
        """``r1`` rerolls a 1, ``r<3`` a 1 or 2, ``r>5`` a 6 (of a d6), each die at most once (``ro1``,
        Roll20's reroll once, is the same); ``rr1`` rerolls until the face is not a 1."""
        self.i += 1
        until = self.peek() in ("r", "R")
        self.i += until or self.peek() in ("o", "O")  # Roll20's "ro", reroll once, is this "r"
        op = self.peek() if self.peek() in ("<", ">") else ""
        self.i += len(op)
        at = self.i
        face = self.number("the face to reroll", MAX_SIDES)
        low, high = {"": (face, face), "<": (1, face - 1), ">": (face + 1, die.sides)}[op]
        low, high = max(low, 1), min(high, die.sides)
        if (face > die.sides and op != "<") or low > high:
            raise self.error(f"a d{die.sides} never shows {'a face ' + op if op else ''}{face}, "
                             f"so nothing would be rerolled", at)
        if low == 1 and high == die.sides:
            raise self.error(f"every face of a d{die.sides} would be rerolled: the reroll "
                             f"{'would never stop' if until else 'changes nothing'}", at)
        return Reroll(die.count, die.sides, low, high, until)
