"""Bounds over unbounded domains do not creep through huge integers, nor overflow into floats.

Found by ``test_arithmetic_by_bounds_alone_equals_brute_force`` (its 5 s guard
fired once in a full run; 100,000 examples over 340 seeds found four such
models): posted before ``x`` has a domain, ``x ** 2 < x`` gave ``x >= 1``, then
``2``, ``5``, ``26``, ``677``, ... each bound the square of the last, through
integers of up to a million bits (14 to 18 s), or an ``OverflowError`` where a
bound past ``2 ** 1024`` met an infinite one.
"""

from __future__ import annotations

import time
from unittest import mock

import pytest
from test_fd_property import check_arith, run  # the guarded run: QueryHung past 5 s

from relqueens import eq, fd, vars
from relqueens.fd.arith import Function


def _goals(x):
    return {
        "x**2 < x": x**2 < x,
        "abs(x * abs(x)) < x": fd.lin(abs(x * abs(x))) < x,
        "abs(x) * abs(x) < x": abs(x) * abs(x) < x,
        "x * x < x": x * x < x,
        "abs(x)**2 < x": abs(x) ** 2 < x,
    }


@pytest.mark.parametrize("limit", [0, Function.LIMIT])
@pytest.mark.parametrize("name", list(_goals(vars(1)[0])))
def test_bounds_of_a_variable_without_domain_do_not_creep(name, limit):
    """Products and powers of bounds past BOUND_BITS bits stand for infinities: the creep stops."""
    with mock.patch.object(Function, "LIMIT", limit):
        x = vars(1)[0]
        goal = _goals(x)[name]
        start = time.perf_counter()
        assert run(0, x, goal, eq(x, 0)) == ()
        assert run(0, x, goal, fd.in_(x, fd.domain(0, 1))) == ()
        assert run(0, x, fd.in_(x, fd.interval(-3, 3)), goal) == ()
        assert time.perf_counter() - start < 2, "bounds crept through huge integers"


MODELS = [  # the examples hypothesis shrank to
    (
        1,
        [{0, 1}],
        [
            ("arith", ("**", ("v", 0), 2), "<", ("v", 0), False),
            ("pin", 0, 0, "eq"),
            ("pin", 0, 0, "eq"),
            ("in", 0, {0, 1}),
            ("arith", ("v", 0), "==", ("v", 0), False),
        ],
    ),
    (
        1,
        [{0, 1}],
        [
            ("arith", ("abs", ("*", ("v", 0), ("abs", ("v", 0)))), "<", ("v", 0), False),
            ("pin", 0, 0, "eq"),
            ("pin", 0, 0, "eq"),
            ("in", 0, {0, 1}),
            ("arith", ("v", 0), "==", ("v", 0), False),
        ],
    ),
    (  # min(z ** 2) < z
        3,
        [{0, 1}, {0}, {0}],
        [
            ("in", 0, {0, 1}),
            ("arith", ("min", [("**", ("v", 2), 2)]), "<", ("v", 2), False),
            ("pin", 0, 0, "eq"),
            ("in", 2, {0}),
            ("pin", 0, 0, "eq"),
            ("in", 1, {0}),
        ],
    ),
    (  # x ** 2 == min(-(x + 1))
        1,
        [{0}],
        [
            (
                "arith",
                ("**", ("v", 0), 2),
                "==",
                ("min", [("neg", ("+", ("v", 0), ("c", 1)))]),
                False,
            ),
            ("pin", 0, 0, "eq"),
            ("pin", 0, 0, "eq"),
            ("in", 0, {0}),
        ],
    ),
]


@pytest.mark.parametrize("limit", [0, Function.LIMIT])
@pytest.mark.parametrize("model", MODELS)
def test_the_property_examples_that_hung(model, limit):
    with mock.patch.object(Function, "LIMIT", limit):
        check_arith(model)


def test_a_huge_bound_with_an_infinite_one_is_no_overflow_error():
    """A bound past 2 ** 1024 times (Times) or plus (a hidden sum's bounds) an infinite bound
    raised OverflowError: the int was made a float."""
    x, y, z = vars(3)
    big, inf = 10**400, float("inf")
    (r,) = run(
        0,
        z,
        fd.in_(x, fd.interval(big, inf)),
        fd.in_(y, fd.interval(1, inf)),
        fd.eq(z, x * y),
        residual=True,
    )
    assert r.domains[z].min >= big
    (r,) = run(
        0,
        z,
        fd.in_(x, fd.interval(big, inf)),
        fd.in_(y, fd.interval(-inf, 0)),
        fd.eq(z, abs(x + y)),
        residual=True,
    )
    assert r.domains[z].min == 0
