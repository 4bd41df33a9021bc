"""A linear row returns at once when woken on the domains (and offsets) of its last fixpoint.

A bitset means its values only with its offset, and one row serves every branch that shares
the model's log: a variable kept as bounds (Wide) may become a bitset at another offset in
each branch. Checked by a direct call at two offsets and against brute force on rows over Wide
variables that branches narrow to windows far apart.
"""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st
from test_fd_property import SETTINGS, assert_same_answers, run

from relqueens import conde, fd, vars
from relqueens.fd.propagators import Linear


def test_the_same_bits_at_other_offsets_are_other_values():
    """``x + y - z <= 0`` holds for bits 1, 1, 1 at offset 0 and fails at offset 10."""
    row = Linear(((0, 1), (1, 1), (2, -1)), 0, "<=")
    assert row.propagate([1, 1, 1], [0, 0, 0], set(), 0)
    assert not row.propagate([1, 1, 1], [10, 10, 10], set(), 0)


def test_branches_that_rebase_a_row_s_variables_elsewhere_keep_its_answers():
    """Each branch makes the Wide ``x, y, z`` bitsets at its own offset (10 + 10 <= 10 is false:
    a memo keyed by the bits alone answered (10, 10, 10))."""
    x, y, z = vars(3)
    answers = run(
        0,
        (x, y, z),
        fd.in_(x, y, z, fd.interval(0, 10**6)),
        fd.le(x + y, z),
        conde([fd.in_(x, y, z, fd.interval(0, 0))], [fd.in_(x, y, z, fd.interval(10, 10))]),
        fd.label([x, y, z]),
    )
    assert answers == ((0, 0, 0),)


@st.composite
def rebased_rows(draw):
    """A row ``sum(a * x) op k`` over variables in ``0..10**6`` (Wide), then branches each
    narrowing every variable to a window of one to three values starting where it draws (one
    value most often: a row posted on bits alike in two branches)."""
    n = draw(st.integers(2, 3))
    coefficients = draw(st.lists(st.integers(-3, 3).filter(bool), min_size=n, max_size=n))
    op = draw(st.sampled_from(["==", "<=", ">=", "<"]))
    k = draw(st.integers(-10, 60))
    branches = draw(
        st.lists(
            st.lists(
                st.tuples(st.integers(0, 20), st.sampled_from([0, 0, 1, 2])), min_size=n, max_size=n
            ),
            min_size=2,
            max_size=3,
        )
    )
    return coefficients, op, k, branches, draw(st.sampled_from(["leftmost", "ff"]))


@SETTINGS
@given(rebased_rows())
def test_rows_over_variables_rebased_per_branch_equal_brute_force(model):
    coefficients, op, k, branches, select = model
    xs = vars(len(coefficients))
    total = sum((a * x for a, x in zip(coefficients[1:], xs[1:])), coefficients[0] * xs[0])
    row = {"==": total == k, "<=": total <= k, ">=": total >= k, "<": total < k}[op]
    holds = {
        "==": lambda s: s == k,
        "<=": lambda s: s <= k,
        ">=": lambda s: s >= k,
        "<": lambda s: s < k,
    }[op]
    arms = [[fd.in_(x, fd.interval(lo, lo + w)) for x, (lo, w) in zip(xs, b)] for b in branches]
    got = run(
        0,
        tuple(xs),
        fd.in_(*xs, fd.interval(0, 10**6)),
        row,
        conde(*arms),
        fd.label(xs, select=select),
    )
    expected = set()
    for b in branches:
        for values in itertools.product(*(range(lo, lo + w + 1) for lo, w in b)):
            if holds(sum(a * v for a, v in zip(coefficients, values))):
                expected.add(values)
    assert_same_answers(list(dict.fromkeys(got)), expected)
