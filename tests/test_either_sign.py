"""``p | q`` posted as ``abs(a) == abs(b)`` (``fd.terms.either_sign``) against brute force.

The sides are linear expressions over variables and non-linear atoms (``x % k``, ``x * y``,
``abs(x - y)``, a reified ``x < y``), the atoms shared by both relations or written twice,
and the disjunction is posted, negated, reified, nested, or put under ``fd.implies`` /
``fd.iff`` / ``&``.
"""

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from relqueens import fd, run_all, vars
from relqueens.fd import interval
from relqueens.fd.terms import Relation, either_sign

LO, HI = -2, 2
ATOMS = ["v", "v", "mod", "times", "abs", "lt"]


def atom_of(atom, xs, lt):
    """An atom over ``xs``: values (``lt`` gives 0 or 1) or logic variables (``lt`` a relation)."""
    kind, i, j = atom
    return {
        "v": lambda: xs[i],
        "mod": lambda: xs[i] % (j + 2),
        "times": lambda: xs[i] * xs[j],
        "abs": lambda: abs(xs[i] - xs[j]),
        "lt": lambda: lt(xs[i], xs[j]),
    }[kind]()


def atom_value(atom, a):
    return atom_of(atom, a, lambda u, v: int(u < v))


def atom_term(atom, xs):
    return atom_of(atom, xs, lambda u, v: u < v)


@st.composite
def disjunctions(draw):
    """``(n, atoms, shared, (p, q), wrap, by_any)``: sides as ``(const, [(coef, atom), ...])``."""
    n = draw(st.integers(2, 3))
    idx = st.integers(0, n - 1)
    atoms = draw(st.lists(st.tuples(st.sampled_from(ATOMS), idx, idx), min_size=1, max_size=3))
    side = st.tuples(
        st.integers(-2, 2),
        st.lists(
            st.tuples(st.sampled_from([1, -1, 2, -2, 3]), st.integers(0, len(atoms) - 1)),
            max_size=3,
        ),
    )
    e, f = draw(side), draw(side)
    mirrored = (e, (-f[0], [(-c, k) for c, k in f[1]]))
    pairs = draw(st.sampled_from(["sign", "sign", "other"]))
    p = (e, f)
    q = mirrored if pairs == "sign" else (draw(side), draw(side))
    if draw(st.booleans()):
        q = q[::-1]
    if draw(st.booleans()):
        p, q = q, p
    wrap = draw(
        st.sampled_from(["post", "not", "reify", "implied", "implies", "iff", "or", "and", "count"])
    )
    other = (draw(idx), draw(st.integers(LO, HI)))  # x_i == c, for the wrappers that need one
    return n, atoms, draw(st.booleans()), (p, q), (wrap, other), draw(st.booleans())


def side_value(side, atoms, a):
    const, terms = side
    return const + sum(c * atom_value(atoms[k], a) for c, k in terms)


def side_term(side, made):
    const, terms = side
    return sum((c * made(k) for c, k in terms), fd.terms.lin(const))


@settings(
    max_examples=400, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(disjunctions())
def test_disjunctions_of_equalities_equal_brute_force(case):
    n, atoms, shared, (p, q), (wrap, (k, c)), by_any = case
    xs, (b,) = vars(n), vars(1)
    terms = [atom_term(atom, xs) for atom in atoms]

    def made(i):  # an atom once for both relations, or written anew each time
        return terms[i] if shared else atom_term(atoms[i], xs)

    rp, rq = (Relation("==", side_term(lhs, made), side_term(rhs, made)) for lhs, rhs in (p, q))
    either = fd.any_(rp, rq) if by_any else rp | rq
    r = fd.eq(xs[k], c)
    goal = {
        "post": lambda: either,
        "not": lambda: ~either,
        "reify": lambda: b == either,
        "implied": lambda: fd.implies(r, either),
        "implies": lambda: fd.implies(either, r),
        "iff": lambda: fd.iff(either, r),
        "or": lambda: either | r,
        "and": lambda: either & r,
        "count": lambda: either + r == 1,
    }[wrap]()

    def holds(a, bit):
        e = any(side_value(lhs, atoms, a) == side_value(rhs, atoms, a) for lhs, rhs in (p, q))
        s = a[k] == c
        return {
            "post": e,
            "not": not e,
            "reify": bit == e,
            "implied": not s or e,
            "implies": not e or s,
            "iff": e == s,
            "or": e or s,
            "and": e and s,
            "count": e + s == 1,
        }[wrap]

    got = run_all(
        [*xs, b], fd.in_(*xs, interval(LO, HI)), fd.in_(b, interval(0, 1)), goal, fd.label([*xs, b])
    )
    values = itertools.product(range(LO, HI + 1), repeat=n)
    want = [[*a, bit] for a in values for bit in (0, 1) if holds(a, bit)]
    assert sorted(got) == want


def test_either_sign_is_an_equality_of_absolute_values_or_none():
    """``abs(a) == abs(b)`` when the halves of the sum and difference are whole, else ``None``."""
    x, y = vars(2)
    for p, q in [(fd.eq(x + 1, 2 * y), fd.eq(-2 * y, x + 1)), (fd.eq(x, 1), fd.eq(x, 3))]:
        same = either_sign(p, q)
        assert same.op == "=="
        assert [(a.kind, c) for a, c in same.lhs.terms.items()] == [("abs", 1)]
        assert [a.kind for a in same.rhs.terms] in (["abs"], [])  # abs(-1) is the constant 1
    assert either_sign(fd.eq(x, 0), fd.eq(y, 0)) is None
    assert either_sign(fd.eq(x, y), x <= -y) is None
