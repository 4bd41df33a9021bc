"""Map colouring: the states of Australia in three colours, neighbours different.

Run it: ``python examples/australia.py``
"""

from relqueens import fd, run_all, vars

STATES = ["WA", "NT", "SA", "Q", "NSW", "V", "T"]
BORDERS = [
    ("WA", "NT"),
    ("WA", "SA"),
    ("NT", "SA"),
    ("NT", "Q"),
    ("SA", "Q"),
    ("SA", "NSW"),
    ("SA", "V"),
    ("Q", "NSW"),
    ("NSW", "V"),
]
COLOURS = ["red", "green", "blue"]


def colourings() -> tuple:
    """Every colouring, as lists of colour numbers in the order of ``STATES``."""
    colour = dict(zip(STATES, vars(len(STATES))))
    return run_all(
        [colour[s] for s in STATES],
        fd.in_(*colour.values(), fd.interval(0, len(COLOURS) - 1)),
        *(fd.ne(colour[a], colour[b]) for a, b in BORDERS),
    )


if __name__ == "__main__":
    found = colourings()
    for state, c in zip(STATES, found[0]):
        print(f"{state:>4}: {COLOURS[c]}")
    print(f"{len(found)} colourings in all")
