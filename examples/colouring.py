"""Graph colouring with its edges read from facts: Canada's provinces and territories.

Run it: ``python examples/colouring.py``

The map is data: ``border`` facts, each border once. ``adjacento`` reads
them both ways round; the colouring gives each region an FD variable and
posts ``!=`` for every pair ``adjacento`` answers. The fewest colours that
work is the map's chromatic number.
"""

from relqueens import Relation, conde, facts, fd, run, vars

REGIONS = ["YT", "NT", "NU", "BC", "AB", "SK", "MB", "ON", "QC", "NB", "NS", "PE", "NL"]
BORDERS = [
    ("YT", "NT"),
    ("YT", "BC"),
    ("NT", "BC"),
    ("NT", "AB"),
    ("NT", "SK"),
    ("NT", "NU"),
    ("NU", "MB"),
    ("BC", "AB"),
    ("AB", "SK"),
    ("SK", "MB"),
    ("MB", "ON"),
    ("ON", "QC"),
    ("QC", "NB"),
    ("QC", "NL"),
    ("NB", "NS"),
]

border = Relation("border")
facts(border, *BORDERS)


def adjacento(a, b):
    """``a`` and ``b`` share a border (the facts hold each border once, in either order)."""
    return conde([border(a, b)], [border(b, a)])


def colourings(k: int, limit: int = 0) -> tuple:
    """Colourings of the map in ``k`` colours (up to ``limit``; 0: all), as colour lists in ``REGIONS`` order."""
    a, b = vars(2)
    neighbours = run(0, (a, b), adjacento(a, b))
    colour = dict(zip(REGIONS, vars(len(REGIONS))))
    return run(
        limit,
        [colour[r] for r in REGIONS],
        fd.in_(*colour.values(), fd.interval(0, k - 1)),
        *(fd.ne(colour[x], colour[y]) for x, y in neighbours if x < y),
    )


def chromatic_number() -> int:
    """The fewest colours with which neighbours differ."""
    k = 1
    while not colourings(k, limit=1):
        k += 1
    return k


if __name__ == "__main__":
    k = chromatic_number()
    print(f"{k} colours suffice, {k - 1} do not")
    names = ["red", "green", "blue", "yellow"]
    (first,) = colourings(k, limit=1)
    print(", ".join(f"{r} {names[c]}" for r, c in zip(REGIONS, first)))
    print(f"{len(colourings(k))} colourings in {k} colours")
