"""Relations the core's tests share: Peano numerals, and goals that succeed or fail forever."""

from relqueens import conde, eq, fresh, relation, succeed


@relation
def nat(n):
    """n is a Peano numeral: 0, ('s', 0), ('s', ('s', 0)), ..."""
    return conde([eq(n, 0)], [fresh(lambda m: [eq(n, ("s", m)), nat(m)])])


@relation
def alwayso():
    """Succeeds, again and again, forever."""
    return conde([succeed], [alwayso()])


@relation
def nevero():
    """Never succeeds, and never stops trying."""
    return nevero()


def peano(k: int):
    """The Peano numeral for k: ('s', ... ('s', 0))."""
    t = 0
    for _ in range(k):
        t = ("s", t)
    return t
