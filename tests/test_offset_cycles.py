"""Offsets between variables that no values satisfy fail at once, over domains of any width.

``x < y`` then ``x = y`` (a unification) made ``x < x``, which bounds reasoning
refuted a value at a time: over ``-10**6..10**6`` 6.6 s, over ``+-10**9``
hours. So did a cycle, ``x < y, y < x`` or ``x < y, y < z, z = x`` (SWI's
clpfd loops on these too). Without domains, ``x != y`` then ``y = x`` raised
``DomainError`` for ``x`` where there is no answer.
"""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_fd_property import run, shuffled  # the guarded run: QueryHung past 5 s

from relqueens import eq, fd, vars

WIDTHS = {"bitset": 5, "wide": 10**9}


def _unified(x, y):
    return {
        "x < y": [x < y],
        "x == y + 1": [x == y + 1],
        "x + 2 <= y + 1": [x + 2 <= y + 1],
        "3x + 1 <= 3y": [3 * x + 1 <= 3 * y],
        "x != y": [fd.ne(x, y)],
    }


@pytest.mark.parametrize("first", [True, False])
@pytest.mark.parametrize("width", [*WIDTHS, None])
@pytest.mark.parametrize("name", list(_unified(*vars(2))))
def test_an_offset_then_a_unification_fails_at_once(name, width, first):
    """Each relation ruled out by ``x = y``, before or after it, with domains or without."""
    x, y = vars(2)
    goals = [*_unified(x, y)[name], eq(y, x)]
    if width is not None:
        goals.append(fd.in_(x, y, fd.interval(-WIDTHS[width], WIDTHS[width])))
    if not first:
        goals.reverse()
    start = time.process_time()
    assert run(0, (x, y), *goals) == ()
    assert time.process_time() - start < 0.5


@pytest.mark.parametrize("width", list(WIDTHS))
def test_an_offset_that_holds_for_equals_keeps_them(width):
    """``x <= y``, ``x + 1 <= y + 1`` and ``x != y + 1`` hold once ``x = y``: the answers stay."""
    x, y = vars(2)
    n = WIDTHS[width]
    for rel in (x <= y, x + 1 <= y + 1, fd.ne(x, y + 1)):
        answers = run(2, (x, y), fd.in_(x, y, fd.interval(-n, n)), rel, eq(x, y))
        assert answers == ((-n, -n), (-n + 1, -n + 1))
    assert run(0, (x, y), fd.ne(x, y + 1), eq(y, x)) == ((x, x),)  # no domain: x stays free


@pytest.mark.parametrize("width", list(WIDTHS))
def test_a_cycle_of_offsets_below_zero_fails_at_once(width):
    """Cycles whose offsets sum below 0 have no answer; one summing to 0 or more has."""
    x, y, z = vars(3)
    n = WIDTHS[width]
    dom = fd.in_(x, y, z, fd.interval(-n, n))
    start = time.process_time()
    assert run(0, (x, y), dom, x < y, y < x) == ()
    assert run(0, (x, y, z), dom, x < y, y < z, eq(z, x)) == ()
    assert run(0, (x, y, z), dom, x + 2 <= y, y <= z + 1, x >= z) == ()
    assert run(0, (x, y, z), dom, x == y + 1, y == z + 1, z == x + 1) == ()
    assert time.process_time() - start < 1
    answers = run(1, (x, y, z), dom, x + 2 <= y, y <= z + 2, x >= z)  # sums to 0: x == z
    assert answers == ((-n, -n + 2, -n),)


@st.composite
def systems(draw):
    """Up to four variables, offsets ``x_i + c op x_j`` and unifications, in any order."""
    n = draw(st.integers(2, 4))
    index = st.integers(0, n - 1)
    offsets = st.tuples(
        st.just("offset"), index, index, st.integers(-3, 3), st.sampled_from(["<", "<=", "=="])
    )
    unify = st.tuples(st.just("unify"), index, index)
    items = draw(st.lists(st.one_of(offsets, offsets, unify), min_size=1, max_size=6))
    return n, shuffled(draw, [("in",), *items])


def _goals(system, vs, n):
    _, items = system
    goals = []
    for item in items:
        if item[0] == "in":
            goals.append(fd.in_(*vs, fd.interval(-n, n)))
        elif item[0] == "unify":
            goals.append(eq(vs[item[1]], vs[item[2]]))
        else:
            _, i, j, c, op = item
            a, b = vs[i] + c, vs[j]
            goals.append(a < b if op == "<" else a <= b if op == "<=" else a == b)
    return goals


def _holds(system, answer):
    _, items = system
    for item in items:
        if item[0] == "unify" and answer[item[1]] != answer[item[2]]:
            return False
        if item[0] == "offset":
            _, i, j, c, op = item
            a, b = answer[i] + c, answer[j]
            if not (a < b if op == "<" else a <= b if op == "<=" else a == b):
                return False
    return True


@settings(max_examples=300, deadline=None)
@given(systems())
def test_offsets_over_wide_domains_agree_with_small_ones(system):
    """Over ``+-10**9`` a system has an answer exactly when it has one over ``-20..20`` (offsets
    of at most 3 between four variables span at most 9 values, and shifting every value keeps
    an answer): the wide query finds it (or fails) at once, and its answer holds."""
    k = system[0]
    small, wide = vars(k), vars(k)
    expected = run(1, tuple(small), *_goals(system, small, 20))
    start = time.process_time()
    got = run(1, tuple(wide), *_goals(system, wide, 10**9))
    assert time.process_time() - start < 1
    assert bool(got) == bool(expected)
    if got:
        assert _holds(system, got[0])
