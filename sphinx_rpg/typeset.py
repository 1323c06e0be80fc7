"""Numbers as a reader sees them in typeset text: a negative number with the minus sign (U+2212).

Only what the book prints goes through here: a form's input value, a data attribute, code and the
engine's own strings keep the hyphen-minus a program reads.
"""

from __future__ import annotations

import re

MINUS = "\N{MINUS SIGN}"
#: A hyphen-minus that starts a number: not inside a word, a dice expression ("2d6-1"), a date or a
#: command-line option ("--3"), nor after a closing bracket ("(a)-1", a subtraction).
_NEGATIVE = re.compile(r"(?<![\w.)\]-])-(?=\d)")


def minus_signs(text: str) -> str:
    """``text`` with each negative number's hyphen-minus made a minus sign ("-3 or more", a range from
    "-3" up); "2d6-1" and "well-2-do" stay as they are."""
    return _NEGATIVE.sub(MINUS, text)
