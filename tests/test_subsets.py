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
    """``(terms, k, D, off, total)``: ``sum(a_j x_j) + k == 0`` over 0/1 variables (bitsets 1:
    just 0, 2: just 1, 3: open, at offset 0), each in one term (posting merges repeats), and now
    and then a total ``+-t`` (its position among the terms) over a bitset at an offset."""
    n = draw(st.integers(2, 7))
    D = [draw(st.sampled_from([3, 3, 3, 1, 2])) for _ in range(n)]
    off = [0] * n
    chosen = draw(st.lists(st.integers(0, n - 1), min_size=2, max_size=n, unique=True))
    terms = [(j, draw(COEFFICIENTS)) for j in chosen]
    total = None
    if draw(st.booleans()):
        D.append(draw(st.integers(1, (1 << 12) - 1)))
        off.append(draw(st.integers(-8, 8)))
        total = draw(st.integers(0, len(terms)))
        terms.insert(total, (n, draw(st.sampled_from([1, -1]))))
    k = draw(st.integers(-sum(abs(a) for _, a in terms) - 2, 2))
    return tuple(terms), k, D, off, total


def supported(terms, k, D, off):
    """The bitsets brute force leaves: each value kept that some solution takes, or None."""
    bits = [[p for p in range(d.bit_length()) if d >> p & 1] for d in D]
    kept = [0] * len(D)
    for ps in itertools.product(*bits):
        if sum(a * (off[j] + ps[j]) for j, a in terms) + k == 0:
            for j, p in enumerate(ps):
                kept[j] |= 1 << p
    inside = {j for j, _ in terms}
    return None if not any(kept) else [kept[j] if j in inside else D[j] for j in range(len(D))]


LIMITS = [
    (subsets.REACH, subsets.DENSE),
    (0, subsets.DENSE),
    (4, subsets.DENSE),
    (subsets.REACH, 0),
]
"""``(REACH, DENSE)``: as they are, tables cut short, sums taken as dense past 0 (a table made
only for as many open terms as its bits, plus :data:`~relqueens.fd.subsets.SPARE`, 0 here)."""


@SETTINGS
@given(equations(), st.sampled_from(LIMITS))
def test_the_propagator_keeps_exactly_the_supported_values(equation, limits):
    """Within the table, the values kept are those some solution takes, and a failure is an
    equation without one; past it (``REACH`` lowered, or sums taken as dense), nothing
    supported is lost."""
    terms, k, D, off, total = equation
    expected, narrowed, queue = supported(terms, k, D, off), list(D), set()
    reach, dense = limits
    with (
        mock.patch.object(subsets, "REACH", reach),
        mock.patch.object(subsets, "DENSE", dense),
        mock.patch.object(subsets, "SPARE", 0 if dense == 0 else subsets.SPARE),
    ):
        ok = SubsetSum(terms, k, total=total).propagate(narrowed, off, queue, 0)
    if not ok:
        assert expected is None
        return
    changed = {j for j, (before, after) in enumerate(zip(D, narrowed)) if before != after}
    assert changed <= queue
    if expected is None:
        return  # within bounds but no subset: only the rows' other propagators may see it
    assert all(e & ~d == 0 for e, d in zip(expected, narrowed)), "a supported value lost"
    if limits == LIMITS[0]:
        assert narrowed == expected


def test_a_total_whose_tables_narrow_nothing_is_skipped_and_then_tabled_again():
    """With a total (an objective, a load), after tables that narrowed nothing the next calls are
    skipped (1, then 3, ...); a table that narrows brings the skips back to none."""
    D, off = [3, 3, 3, (1 << 10) - 1], [0, 0, 0, 0]  # 3 x + 5 y + 6 z == t, t in 0..9
    p = SubsetSum(((0, 3), (1, 5), (2, 6), (3, -1)), 0, total=3)
    assert p.propagate(D, off, set(), 0) and D[3] == 0b1101101001  # 0, 3, 5, 6, 8, 9
    assert p.propagate(D, off, set(), 0) and (p.idle, p.skip) == (1, 1)  # nothing more
    D[0] = 1  # x = 0: t in {0, 5, 6} now, but this call is skipped
    assert p.propagate(D, off, set(), 0) and D[3] == 0b1101101001 and p.skip == 0
    assert p.propagate(D, off, set(), 0) and D[3] == 0b1100001 and p.idle == 0


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


def test_a_target_nearer_the_sum_of_the_sizes_is_tabled_by_the_terms_left_off():
    """``x + 4 y + 9 z + 16 w == 26``: the terms on add 26, past a table of 16 bits; the terms
    left off add 30 - 26 = 4, within it: ``y`` alone is off."""
    D = [3, 3, 3, 3]
    with mock.patch.object(subsets, "REACH", 16):
        assert SubsetSum(((0, 1), (1, 4), (2, 9), (3, 16)), -26).propagate(D, [0] * 4, set(), 0)
    assert D == [2, 1, 2, 2]


@pytest.mark.parametrize(("hundreds", "tabled"), [(22, True), (40, False)])
def test_a_table_is_made_while_the_open_terms_are_few_for_its_sums(hundreds, tabled):
    """``100 (x_1 + ... + x_n) + y == 50 n`` (n even): ``y`` must be 0. Past :data:`DENSE`, with
    more open terms than the target's bits plus :data:`SPARE` (41 > 11 + 12, not 23), the
    subsets are many, the sums they leave out few, and the table is not made."""
    terms = tuple((j, 100) for j in range(hundreds)) + ((hundreds, 1),)
    D = [3] * (hundreds + 1)
    SubsetSum(terms, -50 * hundreds).propagate(D, [0] * len(D), set(), 0)
    assert (D[hundreds] == 1) is tabled


def test_a_row_skips_calls_only_after_many_tables_that_narrow_nothing():
    """``x + 2 y + 3 z + 4 w == 5`` (1 + 4 or 2 + 3): no table narrows it. Past
    :data:`PATIENCE` such tables in a row, each further one skips calls (1, 3, 7, ...)."""
    D, p = [3] * 4, SubsetSum(((0, 1), (1, 2), (2, 3), (3, 4)), -5)
    for _ in range(subsets.PATIENCE):
        assert p.propagate(D, [0] * 4, set(), 0) and p.skip == 0
    assert p.propagate(D, [0] * 4, set(), 0) and (p.idle, p.skip) == (subsets.PATIENCE + 1, 1)
    D[0] = 1  # x = 0: y + z, both 1, but this call is skipped
    assert p.propagate(D, [0] * 4, set(), 0) and D == [1, 3, 3, 3]
    assert p.propagate(D, [0] * 4, set(), 0) and D == [1, 2, 2, 1] and p.idle == 0
