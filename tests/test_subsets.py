"""Subset sums (:class:`~relqueens.fd.subsets.SubsetSum`): an equation over 0/1 variables kept
domain consistent by the sums its open terms can reach.

The propagator alone is checked against the supports brute force finds; the
equations as posted, against brute force's answers in any goal order; a
number partition, against the node count bounds reasoning alone needs.
"""

from __future__ import annotations

import itertools
from unittest import mock

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_fd_property import SETTINGS, agrees_with_brute_force, build_sum, common_items, shuffled

from relqueens import SearchLimit, eq, fd, run, vars
from relqueens.fd import subsets
from relqueens.fd.subsets import SubsetSum

COEFFICIENTS = st.integers(-12, 12).filter(bool)


@st.composite
def equations(draw):
    """``(terms, k, D)``: ``sum(a_j x_j) + k == 0`` over 0/1 variables and their bitsets
    (1 is just 0, 2 just 1, 3 open), each variable in one term (posting merges repeats)."""
    n = draw(st.integers(2, 7))
    D = [draw(st.sampled_from([3, 3, 3, 1, 2])) for _ in range(n)]
    chosen = draw(st.lists(st.integers(0, n - 1), min_size=2, max_size=n, unique=True))
    terms = tuple((j, draw(COEFFICIENTS)) for j in chosen)
    k = draw(st.integers(-sum(abs(a) for _, a in terms) - 2, 2))
    return terms, k, D


def supported(terms, k, D):
    """The bitsets brute force leaves: each value kept that some solution takes, or None."""
    bits = [[p for p in range(d.bit_length()) if d >> p & 1] for d in D]
    kept = [0] * len(D)
    for ps in itertools.product(*bits):
        if sum(a * ps[j] for j, a in terms) + k == 0:
            for j, p in enumerate(ps):
                kept[j] |= 1 << p
    inside = {j for j, _ in terms}
    return None if not any(kept) else [kept[j] if j in inside else D[j] for j in range(len(D))]


@SETTINGS
@given(equations(), st.sampled_from([subsets.REACH, 0, 4]))
def test_the_propagator_keeps_exactly_the_supported_values(equation, reach):
    """Within the table, the values kept are those some solution takes, and a failure is an
    equation without one; past it (``REACH`` lowered), nothing supported is lost."""
    terms, k, D = equation
    expected, narrowed, queue = supported(terms, k, D), list(D), set()
    with mock.patch.object(subsets, "REACH", reach):
        ok = SubsetSum(terms, k).propagate(narrowed, [0] * len(D), queue, 0)
    if not ok:
        assert expected is None
        return
    changed = {j for j, (before, after) in enumerate(zip(D, narrowed)) if before != after}
    assert changed <= queue
    if expected is None:
        return  # within bounds but no subset: only the rows' other propagators may see it
    assert all(e & ~d == 0 for e, d in zip(expected, narrowed)), "a supported value lost"
    if reach == subsets.REACH:
        assert narrowed == expected


@st.composite
def subset_sum_models(draw):
    """Equations and now and then a ``<=`` row over 0/1 variables with mixed coefficients, a row
    now and then equal to a total (a variable over a few values), pins anywhere, in any goal
    order: what posting gives a :class:`SubsetSum`."""
    n = draw(st.integers(3, 7))
    domains = [draw(st.sampled_from([{0, 1}, {0, 1}, {0, 1}, {0}, {1}])) for _ in range(n)]
    domains.append(draw(st.sets(st.integers(-15, 15), min_size=1, max_size=6)))  # the total
    pins = [
        (draw(st.integers(0, n - 1)), draw(st.integers(0, 1)), draw(st.sampled_from(["eq", "fd"])))
        for _ in range(draw(st.integers(0, 2)))
    ]
    items = common_items(domains, pins)
    for _ in range(draw(st.integers(1, 3))):
        chosen = draw(st.lists(st.integers(0, n - 1), min_size=2, max_size=n, unique=True))
        pairs = [(draw(COEFFICIENTS), ("v", j)) for j in chosen]
        op = draw(st.sampled_from(["==", "==", "==", "<="]))
        room = sum(abs(a) for a, _ in pairs)
        value = draw(st.sampled_from(["c", "total", "total in the sum"]))
        if value == "total in the sum":  # c * x ... + total == k, or - total
            pairs.append((draw(st.sampled_from([1, -1])), ("v", n)))
        items.append(
            (
                "sp",
                pairs,
                op,
                ("v", n) if value == "total" else ("c", draw(st.integers(-room, room))),
            )
        )
    return n + 1, domains, shuffled(draw, items)


@SETTINGS
@given(subset_sum_models())
def test_equations_over_zero_one_variables_equal_brute_force(model):
    agrees_with_brute_force(model, build_sum)


def partition(n):
    """1..2n into two halves of equal size, sum and sum of squares, by 0/1 terms (1 in the first)."""
    xs = vars(2 * n)
    ones = range(1, 2 * n + 1)
    goals = [
        fd.in_(*xs, fd.interval(0, 1)),
        eq(xs[0], 1),
        fd.sum(xs, "==", n),
        fd.scalar_product(list(ones), xs, "==", sum(ones) // 2),
        fd.scalar_product([v * v for v in ones], xs, "==", sum(v * v for v in ones) // 2),
    ]
    return xs, goals


def test_a_number_partition_is_found_in_few_nodes():
    """1..20: bounds reasoning alone needs 11,950 nodes (it fails at 2,000 with ``REACH`` 0)."""
    xs, goals = partition(10)
    (answer,) = run(1, tuple(xs), *goals, fd.label(xs), max_nodes=2000)
    chosen = [v for v, x in zip(range(1, 21), answer) if x]
    assert len(chosen) == 10 and sum(chosen) == 105 and sum(v * v for v in chosen) == 1435
    with mock.patch.object(subsets, "REACH", 0), pytest.raises(SearchLimit):
        run(1, tuple(xs), *goals, fd.label(xs), max_nodes=2000)
