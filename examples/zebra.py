"""The zebra puzzle, mixing FD constraints with kanren relations.

Run it: ``python examples/zebra.py``

Each attribute (a colour, a nationality, ...) is an FD variable: the number
(1..5) of the house that has it. "Next to" is a kanren ``conde`` of two FD
relations; the question "who owns the zebra?" is answered by ``membero``
over (name, house) pairs, unifying the zebra's house with a nationality's.
"""

from relqueens import conde, eq, fd, membero, run_all, var, vars

CATEGORIES = {
    "colour": ["red", "green", "ivory", "yellow", "blue"],
    "nationality": ["Englishman", "Spaniard", "Ukrainian", "Norwegian", "Japanese"],
    "drink": ["coffee", "tea", "milk", "orange juice", "water"],
    "smoke": ["Old Gold", "Kools", "Chesterfields", "Lucky Strike", "Parliaments"],
    "pet": ["dog", "snails", "fox", "horse", "zebra"],
}


def next_to(a, b):
    """The relation "house ``a`` is next to house ``b``"."""
    return conde([a == b + 1], [a == b - 1])


def zebra() -> tuple:
    """``(who drinks water, who owns the zebra)`` for every solution."""
    h = {name: v for names in CATEGORIES.values() for name, v in zip(names, vars(5))}
    water, zebra_owner = var(), var()
    people = [(name, h[name]) for name in CATEGORIES["nationality"]]
    return run_all(
        (water, zebra_owner),
        fd.in_(*h.values(), fd.interval(1, 5)),
        *(fd.distinct([h[name] for name in names]) for names in CATEGORIES.values()),
        fd.eq(h["Englishman"], h["red"]),
        fd.eq(h["Spaniard"], h["dog"]),
        fd.eq(h["coffee"], h["green"]),
        fd.eq(h["Ukrainian"], h["tea"]),
        h["green"] == h["ivory"] + 1,
        fd.eq(h["Old Gold"], h["snails"]),
        fd.eq(h["Kools"], h["yellow"]),
        fd.eq(h["milk"], 3),
        eq(h["Norwegian"], 1),
        next_to(h["Chesterfields"], h["fox"]),
        next_to(h["Kools"], h["horse"]),
        fd.eq(h["Lucky Strike"], h["orange juice"]),
        fd.eq(h["Japanese"], h["Parliaments"]),
        next_to(h["Norwegian"], h["blue"]),
        membero((water, h["water"]), people),
        membero((zebra_owner, h["zebra"]), people),
    )


if __name__ == "__main__":
    for drinks_water, owns_zebra in zebra():
        print(f"The {drinks_water} drinks water; the {owns_zebra} owns the zebra.")
