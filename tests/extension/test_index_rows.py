"""A node index page patched row by row is the page its template renders whole, or is not patched.

``index_rows`` learns each row's markup only by rendering the template, so these tests give it a
small template of their own: its rows begin with the same characters as the text after the table,
so that every row's markup is found a few characters late, as with Sphinx's ``domainindex.html``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from sphinx_rpg.index_rows import patch

Entry = tuple[str, str]


def render(content: Sequence[tuple[str, Sequence[Any]]]) -> str:
    jump = " | ".join(f'<a href="#cap-{group}">{group}</a>' for group, _ in content)
    body = "".join(f'\n  <tr class="cap" id="cap-{group}"><td>{group}</td></tr>'
                   + "".join(f'\n  <tr><td><a href="{page}.html#{name}">{name}</a></td></tr>' for name, page in rows)
                   for group, rows in content)
    return f"<html><div>{jump}</div>\n  <table>{body}\n  </table>\n</html>"


def _book() -> list[tuple[str, list[Entry]]]:
    return [("A", [("alpha", "p1"), ("apple", "p2"), ("axe", "p3")]),
            ("B", [("bat", "p1"), ("bee", "p2")]),
            ("C", [("cat", "p3"), ("cow", "p1"), ("crab", "p2")])]


def _patched(old: list[tuple[str, list[Entry]]], new: list[tuple[str, list[Entry]]]) -> str | None:
    return patch(render(old), old, new, render)


def test_a_renamed_row_is_replaced_where_it_stands():
    old = _book()
    new = _book()
    new[0] = ("A", [("alpha", "p1"), ("apricot", "p2"), ("axe", "p3")])
    assert _patched(old, new) == render(new)


def test_a_renamed_row_that_sorts_elsewhere_moves_within_its_group():
    old, new = _book(), _book()
    new[2] = ("C", [("cow", "p1"), ("crab", "p2"), ("cub", "p3")])
    assert _patched(old, new) == render(new)


def test_a_deleted_first_row_goes_and_its_successor_stays():
    old, new = _book(), _book()
    new[1] = ("B", [("bee", "p2")])
    assert _patched(old, new) == render(new)


def test_a_row_shown_in_two_groups_is_replaced_in_both():
    old = [("E", [("ant", "p1"), ("elk", "p2")]), ("R", [("elk", "p2"), ("rat", "p3")])]
    new = [("E", [("ant", "p1"), ("elk", "p9")]), ("R", [("elk", "p9"), ("rat", "p3")])]
    assert _patched(old, new) == render(new)


def test_a_page_whose_groups_change_is_not_patched():
    old, new = _book(), _book()
    new.append(("D", [("dog", "p1")]))
    assert _patched(old, new) is None


def test_a_group_whose_every_row_changed_is_not_patched():
    old, new = _book(), _book()
    new[1] = ("B", [("bear", "p4"), ("bison", "p5")])
    assert _patched(old, new) is None


def test_a_page_that_is_not_the_old_entries_rendering_is_not_patched():
    old, new = _book(), _book()
    new[0] = ("A", [("alpha", "p1"), ("apricot", "p2"), ("axe", "p3")])
    edited_by_hand = render(old).replace('"p2.html#apple"', '"p7.html#apple"')
    assert patch(edited_by_hand, old, new, render) is None


def test_random_edits_patch_to_the_page_rendered_whole_or_not_at_all():
    chance = random.Random(7)
    patched = 0
    for _ in range(300):
        old = [(group, sorted({(group.lower() + chance.choice("aeiou") * chance.randint(1, 3),
                                f"p{chance.randint(1, 4)}") for _ in range(chance.randint(1, 6))}))
               for group in "ABCD"]
        new = [(group, list(rows)) for group, rows in old]
        for _ in range(chance.randint(1, 3)):
            group, rows = new[chance.randrange(len(new))]
            if rows and chance.random() < 0.5:
                rows.pop(chance.randrange(len(rows)))
            else:
                rows.append((group.lower() + "z" * chance.randint(1, 4), f"p{chance.randint(1, 4)}"))
            rows.sort()
        result = _patched(old, new)
        if result is not None:
            patched += 1
            assert result == render(new)
    assert patched > 100, "most small edits are patched"


def test_rows_that_depend_on_their_place_are_not_patched():
    """A theme that numbers its rows (or alternates their colours) shifts every row after a change."""
    def numbered(content: Sequence[tuple[str, Sequence[Any]]]) -> str:
        return render([(group, [(f"{number}. {name}", page) for number, (name, page) in enumerate(rows)])
                       for group, rows in content])

    old, new = _book(), _book()
    new[0] = ("A", [("apple", "p2"), ("axe", "p3")])
    assert patch(numbered(old), old, new, numbered) is None
