"""A family database: parent facts, and the tabled rules ancestor and same-generation.

Run it: ``python examples/family.py``

``parent`` is a fact table, indexed on both positions, so ``parent(x,
"Ada")`` reads one row. ``ancestoro`` is the transitive closure of
``parent``, written left-recursively, the way Datalog writes it: tabling
makes it end. ``same_generationo`` is the textbook same-generation
query: two people are of one generation when their parents are.
"""

from relqueens import Relation, conde, eq, facts, fresh, run, tabled, vars

PARENTS = [  # (parent, child)
    ("Hugo", "Ada"),
    ("Hugo", "Bruno"),
    ("Iris", "Ada"),
    ("Iris", "Bruno"),
    ("Ada", "Carla"),
    ("Ada", "Dario"),
    ("Bruno", "Elsa"),
    ("Carla", "Fabio"),
    ("Elsa", "Gaia"),
    ("Elsa", "Hans"),
    ("Dario", "Ines"),
]

parent = Relation("parent")
facts(parent, *PARENTS)
person = Relation("person")
facts(person, *sorted({(p,) for row in PARENTS for p in row}))


@tabled
def ancestoro(a, d):
    """``a`` is a parent of ``d``, or an ancestor of a parent of ``d``."""
    return conde([parent(a, d)], [fresh(lambda p: [ancestoro(a, p), parent(p, d)])])


@tabled
def same_generationo(x, y):
    """``x`` and ``y`` are of one generation: the same person, or children of one generation."""
    return conde(
        [person(x), eq(x, y)],
        [fresh(lambda px, py: [parent(px, x), same_generationo(px, py), parent(py, y)])],
    )


def ancestors(who: str) -> list[str]:
    """Everyone ``who`` descends from, sorted."""
    a = vars(1)[0]
    return sorted(run(0, a, ancestoro(a, who)))


def descendants(who: str) -> list[str]:
    """Everyone who descends from ``who``, sorted."""
    d = vars(1)[0]
    return sorted(run(0, d, ancestoro(who, d)))


def cousins(who: str) -> list[str]:
    """The others of ``who``'s generation who share no parent with ``who``, sorted."""
    y, p = vars(2)
    same = set(run(0, y, same_generationo(who, y)))
    siblings = set(run(0, y, parent(p, who), parent(p, y)))
    return sorted(same - siblings - {who})


if __name__ == "__main__":
    print("Gaia descends from:", ", ".join(ancestors("Gaia")))
    print("Ada's descendants:", ", ".join(descendants("Ada")))
    print("Fabio's generation, siblings aside:", ", ".join(cousins("Fabio")))
    x, y = vars(2)
    pairs = run(0, (x, y), ancestoro(x, y))
    print(f"{len(pairs)} ancestor pairs in all")
