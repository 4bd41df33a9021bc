"""Linear equalities whose open terms share a factor the rest does not divide fail at once.

``2*y + 2*z + x == 1`` over ``+-10**9``: once ``x`` is labeled even, ``2*y + 2*z`` must be odd,
which bounds reasoning never sees; the labeling tried every ``y``, a value at a time (hung).
``Linear`` (``==``) now checks the gcd of its open coefficients against the rest, and run's own
labeling of what is left open combines the equalities first, as ``fd.label`` does (``x == 2*z``
beside it makes ``2*y + 4*z == 1``: no integer point).
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_fd_property import run  # the guarded run: QueryHung past 5 s

from relqueens import DomainError, fd, vars
from relqueens.fd.domain import Wide
from relqueens.fd.propagators import Linear

WIDE = 10**9


def test_an_equality_with_no_integer_point_fails_over_wide_domains():
    x, y, z = vars(3)
    dom = fd.in_(x, y, z, fd.interval(-WIDE, WIDE))
    assert run(1, (x, y, z), dom, 2 * y + 2 * z == 1) == ()
    assert run(1, (x, y, z), dom, 2 * y + 4 * z == 2 * x + 1) == ()
    assert run(1, (x, y, z), dom, 2 * y + 2 * z + x == 1, x == 2 * z) == ()
    ((a, b, c),) = run(1, (x, y, z), dom, 2 * y + 2 * z + x == 1)  # x odd: an answer
    assert 2 * b + 2 * c + a == 1 and a % 2


def test_an_equality_with_no_integer_point_fails_without_domains():
    x, y = vars(2)
    assert run(0, (x, y), 2 * x + 4 * y == 3, residual=True) == ()
    with pytest.raises(DomainError, match="infinite"):  # x + 2y == 3 holds for infinitely many
        run(1, (x, y), x + 2 * y == 3)


domains = st.sets(st.integers(-3, 3), min_size=1, max_size=7)


@st.composite
def equalities(draw):
    """``sum(a_j * x_j) + k == 0`` over two to four variables with small domains (some fixed),
    bitsets or bounds."""
    n = draw(st.integers(2, 4))
    coefs = [draw(st.integers(-4, 4).filter(bool)) for _ in range(n)]
    doms = [draw(domains) for _ in range(n)]
    wide = [draw(st.booleans()) for _ in range(n)]
    return coefs, draw(st.integers(-9, 9)), doms, wide


@settings(max_examples=400, deadline=None)
@given(equalities())
def test_linear_equality_keeps_every_solution(model):
    """The propagator fails only where brute force finds no solution, and keeps every solution."""
    coefs, k, doms, wide = model
    D, off = [], []
    for vals, as_bounds in zip(doms, wide):
        lo, hi = min(vals), max(vals)
        if as_bounds:
            vals.update(range(lo, hi + 1))
            D.append(Wide(lo, hi))
        else:
            D.append(sum(1 << (v - lo) for v in vals))
        off.append(lo)
    points = [
        p
        for p in itertools.product(*(sorted(v) for v in doms))
        if sum(a * v for a, v in zip(coefs, p)) + k == 0
    ]
    prop = Linear(tuple(enumerate(coefs)), k, "==")
    if not prop.propagate(D, off, set(), 0):
        assert not points
        return
    for p in points:
        for d, o, v in zip(D, off, p):
            assert (v in d) if type(d) is Wide else (d >> (v - o)) & 1
