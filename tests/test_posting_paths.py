"""Posting's fast paths keep what the slow ones did.

Variables that ``fd.in_`` gives their first domain are registered together
(one log entry); a variable's linear expression is made once and shared; a
``distinct`` group's fixed members take their values from the others by one
mask; pairwise ``!=`` tie both variables in one step.
"""

from __future__ import annotations

import itertools

from relqueens import eq, fd, run_all, vars
from relqueens.fd.post import post_into
from relqueens.fd.store import store_of
from relqueens.fd.terms import lin
from relqueens.logic.state import State


def test_fresh_variables_of_one_domain_are_registered_in_one_entry():
    xs = vars(81)
    S = State()
    assert post_into(S, [fd.in_(*xs, fd.interval(1, 9))])
    model = store_of(S).current()
    assert [e[0] for e in model.log] == ["var"] and len(model.log[0][1]) == 81
    assert [model.index[x] for x in xs] == list(range(81))
    assert all(len(each) == 81 for each in (model.masks, model.watch, model.rows, model.off))


def test_a_domain_given_to_repeated_bound_and_known_variables_keeps_each_once():
    x, y, z, w = vars(4)
    got = run_all(
        (x, y, z, w),
        fd.in_(y, fd.interval(2, 3)),
        eq(z, 2),
        fd.in_(x, y, x, z, w, y, fd.interval(1, 3)),  # x twice, y known, z bound, w fresh
        fd.distinct([x, y, w]),
    )
    expected = tuple(
        (a, b, 2, d)
        for a, b, d in itertools.product(range(1, 4), repeat=3)
        if b in (2, 3) and len({a, b, d}) == 3
    )
    assert got == expected
    assert run_all(x, eq(x, 5), fd.in_(x, y, fd.interval(1, 3))) == ()  # a bound value outside
    assert run_all(x, eq(x, "a"), fd.in_(x, y, fd.interval(1, 3))) == ()  # not an integer
    assert run_all(x, eq(x, [1]), fd.in_(y, x, fd.interval(1, 3))) == ()


def test_constraints_waiting_on_variables_wake_when_one_domain_registers_them():
    x, y, z = vars(3)
    got = run_all(
        (x, y, z), fd.ne(x, y), y < z, fd.distinct([x, z]), fd.in_(x, y, z, fd.interval(0, 2))
    )
    expected = tuple(
        t
        for t in itertools.product(range(3), repeat=3)
        if t[0] != t[1] and t[1] < t[2] and t[0] != t[2]
    )
    assert got == expected
    wide = fd.interval(0, 10**9)
    assert run_all((x, y), x + y == 3, fd.in_(x, y, wide)) == ((0, 3), (1, 2), (2, 1), (3, 0))


def test_a_variables_expression_is_made_once_and_never_changed():
    x, y = vars(2)
    one = lin(x)
    assert lin(x) is one and one.terms == {x: 1} and one.const == 0
    for built in (x + 1, x - y, 2 * x, -x, x + x, abs(x), x // 2, fd.ne(x, y), x + 1 <= y):
        assert built is not one
    assert one.terms == {x: 1} and one.const == 0
    assert run_all(x, fd.in_(x, fd.interval(0, 3)), x + x == 4, x != x + 1) == (2,)


def test_taken_values_far_below_and_above_leave_each_term_its_own():
    x, y = vars(2)
    for far in (10**6, 10**20):
        got = run_all((x, y), fd.in_(x, y, fd.interval(0, 3)), fd.distinct([x, y, 1, far, -far, 3]))
        assert got == ((0, 2), (2, 0))
        got = run_all(
            x, fd.in_(x, fd.interval(far, far + 3)), fd.distinct([x, far + 1, 0, far + 2])
        )
        assert got == (far, far + 3)


def test_pairwise_disequalities_far_apart_and_near_agree_with_brute_force():
    x, y, z = vars(3)
    goals = [fd.in_(x, y, z, fd.interval(0, 3)), fd.ne(x, y), x != z + 1, y != z - 2, x != x + 300]
    expected = tuple(
        t
        for t in itertools.product(range(4), repeat=3)
        if t[0] != t[1] and t[0] != t[2] + 1 and t[1] != t[2] - 2
    )
    assert run_all((x, y, z), *goals) == expected
    assert run_all((x, y), fd.in_(x, y, fd.interval(0, 600)), x != y + 300, fd.eq(x, 300)) == tuple(
        (300, v) for v in range(601) if v != 0
    )


def test_a_dot_product_adds_the_coefficients_of_a_variable_given_twice():
    """``fd.dot`` takes a variable's term as it is, a kanren variable's, an integer's or an
    expression's through ``lin``, and adds up the coefficients of one variable (none left at 0)."""
    from kanren import var as kanren_var

    x, y = vars(2)
    k = kanren_var()
    expr = fd.dot([2, -2, 3, 5, 1, 4], [x, x, y, 7, k, y + 1])
    assert expr.terms == {y: 7, k: 1} and expr.const == 39
    assert run_all(
        (x, y), fd.in_(x, y, fd.interval(0, 3)), fd.dot([1, 1, -1], [x, y, x]) == 2
    ) == tuple((a, 2) for a in range(4))
