"""Absolute values over bitsets: ``z == abs(x)`` by shifts and mirrors, and ``z == abs(x - y + k)``
in one propagator, keep exactly what a value-by-value filtering keeps; posted in any goal order,
the answers are those of brute force."""

import itertools
from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st
from test_fd_property import run, shuffled

from relqueens import fd, vars
from relqueens.fd.arith import AbsDifference, _abs
from relqueens.fd.post import post_into
from relqueens.fd.store import store_of
from relqueens.logic.state import State

bitsets = st.integers(1, 2**12 - 1)
offsets = st.integers(-16, 8)


def values(d, o):
    return [o + p for p in range(d.bit_length()) if d >> p & 1]


def bits(vs, o):
    return sum(1 << (v - o) for v in set(vs))


@settings(max_examples=500, deadline=None)
@given(
    st.integers(1, 2**20 - 1),
    st.integers(-24, 6),
    bitsets,
    st.integers(-6, 12),
    st.one_of(st.just(0), st.integers(-(10**12), 10**12)),
)
def test_abs_keeps_what_a_value_by_value_filter_keeps(dx, ox, dz, oz, far):
    """Also with ``x`` far from 0 and ``z`` near its magnitudes: shifts span the widths, not
    the offsets (bitsets of 10**12 bits took gigabytes)."""
    ox, oz = ox + far, oz + abs(far)
    D, queue = [dx, dz], set()
    ok = _abs(D, [ox, oz], queue, 0, 1)
    kept = [v for v in values(dx, ox) if abs(v) in values(dz, oz)]
    if not kept:
        assert not ok
        return
    assert ok
    assert (D[0], D[1]) == (bits(kept, ox), bits(map(abs, kept), oz))
    assert queue == {j for j, (before, after) in enumerate(zip((dx, dz), D)) if before != after}


@settings(max_examples=500, deadline=None)
@given(bitsets, offsets, bitsets, offsets, bitsets, offsets, st.integers(-6, 6))
def test_abs_difference_keeps_the_supported_values(dx, ox, dy, oy, dz, oz, k):
    """Domain consistent: each value left is in a triple of values left that satisfies it."""
    D, queue, off = [dx, dy, dz], set(), [ox, oy, oz]
    ok = AbsDifference(0, 1, k, 2).propagate(D, off, queue, 0)
    triples = [
        t
        for t in product(values(dx, ox), values(dy, oy), values(dz, oz))
        if t[2] == abs(t[0] - t[1] + k)
    ]
    if not triples:
        assert not ok
        return
    assert ok
    kept = [bits((t[n] for t in triples), off[n]) for n in range(3)]
    assert kept == D
    assert queue == {j for j in range(3) if D[j] != (dx, dy, dz)[j]}


@st.composite
def abs_models(draw):
    """``z == abs(x - y + k)`` (either way round, or inside a sum) with small domains, perhaps a
    pin, in any goal order."""
    domains = [draw(st.sets(st.integers(-5, 7), min_size=1, max_size=6)) for _ in range(3)]
    k = draw(st.integers(-3, 3))
    shape = draw(st.sampled_from(["z == abs", "abs == z", "sum"]))
    pin = draw(st.one_of(st.none(), st.tuples(st.integers(0, 2), st.integers(-5, 7))))
    items = [("in", n) for n in range(3)] + [("abs",)] + ([("pin", *pin)] if pin else [])
    return domains, k, shape, pin, shuffled(draw, items)


@settings(max_examples=400, deadline=None)
@given(abs_models(), st.sampled_from(["leftmost", "ff", "min"]))
def test_abs_of_a_difference_answers_as_brute_force(model, select):
    domains, k, shape, pin, items = model
    x, y, z = vs = vars(3)
    goals = []
    for item in items:
        if item[0] == "in":
            goals.append(fd.in_(vs[item[1]], fd.domain(*sorted(domains[item[1]]))))
        elif item[0] == "pin":
            goals.append(fd.eq(vs[item[1]], item[2]))
        elif shape == "z == abs":
            goals.append(z == abs(x - y + k))
        elif shape == "abs == z":
            goals.append(abs(x - y + k) == z)
        else:  # an atom inside a sum: a hidden variable for the absolute value
            goals.append(abs(x - y + k) + x == z + x)
    got = run(0, vs, *goals, fd.label(vs, select=select))
    want = [
        t
        for t in product(*(sorted(d) for d in domains))
        if t[2] == abs(t[0] - t[1] + k) and (pin is None or t[pin[0]] == pin[1])
    ]
    assert sorted(map(tuple, got)) == want
    again = []  # a residual's constraints, posted back with its domains, give its answers
    for r in run(0, tuple(vs), *goals, residual=True):
        goals = [*r.constraints, *(fd.in_(v, d) for v, d in r.domains.items())]
        again += run(0, r.term, *goals, fd.label(list(r.domains)))
    assert sorted(map(tuple, again)) == want


def test_abs_of_a_difference_is_one_propagator():
    """``d == abs(x - y)`` over bitsets posts no hidden difference (one propagator, three
    variables); a wide difference keeps the hidden variables."""
    x, y, d = vars(3)
    S = State()
    assert post_into(S, [fd.in_(x, y, fd.interval(0, 9)), d == abs(x - y)])
    model = store_of(S).current()
    assert [type(e[1]).__name__ for e in model.props if e[0] == "prop"] == ["AbsDifference"]
    assert len(model.vars) == 3
    S = State()
    wide = fd.interval(0, AbsDifference.LIMIT)
    assert post_into(S, [fd.in_(x, y, wide), d == abs(x - y)])
    assert "AbsDifference" not in [type(e[1]).__name__ for e in store_of(S).current().props]
    (answer,) = run(
        1,
        (x, y, d),
        fd.in_(x, y, fd.interval(0, 9)),
        fd.in_(d, fd.interval(4, 5)),
        d == abs(x - y),
        fd.eq(x, 2),
        fd.label([y, d]),
    )
    assert answer == (2, 6, 4)


def test_one_absolute_difference_in_several_relations_is_one_variable_never_0_if_apart():
    """``abs(x - y)`` and ``abs(y - x)`` stated in two relations are one hidden variable, which
    loses 0 once ``x != y`` is posted, before or after; ``abs(y - x + 1)`` is another."""
    x, y, z = vars(3)
    for apart_first in (True, False):
        S = State()
        ne = [fd.ne(x, y)]
        rels = [abs(x - y) != z, z != abs(y - x), abs(y - x + 1) != z]
        assert post_into(
            S, [fd.in_(x, y, z, fd.interval(0, 3)), *(ne + rels if apart_first else rels + ne)]
        )
        store = store_of(S)
        model = store.current()
        made = [p for p in model.posted(AbsDifference)]
        assert len(made) == 2 and len(model.vars) == 5
        (same,) = [p for p in made if p.k == 0]
        assert store.domain(model.vars[same.z]) == fd.interval(1, 3)


def test_an_all_interval_series_stated_pair_by_pair_groups_its_intervals():
    """``abs(a - b) != abs(c - d)`` for every two intervals, the values pairwise ``!=``, in
    either order: the intervals are variables kept apart, never 0, which the labeling groups
    as one ``distinct`` (n = 12 by ``ff``: 552 nodes, 2,781 when each relation had its own)."""
    n = 12
    for values_first in (True, False):
        xs = vars(n)
        ne = [fd.ne(a, b) for a, b in itertools.combinations(xs, 2)]
        steps = list(itertools.pairwise(xs))
        rels = [abs(a - b) != abs(c - d) for (a, b), (c, d) in itertools.combinations(steps, 2)]
        goals = ne + rels if values_first else rels + ne
        (answer,) = run(
            1,
            xs,
            fd.in_(*xs, fd.interval(0, n - 1)),
            *goals,
            fd.label(xs, select="ff"),
            max_nodes=600,
        )
        assert sorted(answer) == list(range(n))
        assert sorted(abs(b - a) for a, b in itertools.pairwise(answer)) == list(range(1, n))


def test_abs_far_from_zero_answers_at_once():
    """``abs`` of a variable near ``10**9`` or ``-10**12`` (the review's reproducers: 1.8 s and
    hundreds of megabytes, then a MemoryError, when the shifts spanned the offsets)."""
    x, z = vars(2)
    for base in (10**9, -(10**12)):
        got = run(0, z, fd.in_(x, fd.interval(base, base + 3)), z == abs(x), fd.label([x]))
        assert got == tuple(abs(v) for v in range(base, base + 4))
