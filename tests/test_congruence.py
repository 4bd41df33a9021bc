"""Posting a linear equality sifts each term's values by the other coefficients' gcd, checked by brute force."""

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from relqueens import eq, fd, run, run_all, vars

EXAMPLES = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def equations(draw):
    """``sum(a_i * x_i) == c`` over 2-4 variables, coefficients sharing factors (tens, as a
    cryptarithm's columns), domains with holes and negative values, goals in any order."""
    n = draw(st.integers(2, 4))
    factor = draw(st.sampled_from([2, 3, 10]))
    coefs = [draw(st.integers(-3, 3).filter(bool)) * factor for _ in range(n)]
    coefs[draw(st.integers(0, n - 1))] = draw(st.integers(-7, 7).filter(bool))  # the odd one
    doms = [draw(st.sets(st.integers(-6, 9), min_size=1, max_size=6)) for _ in range(n)]
    total = draw(st.integers(-40, 40))
    pins = {
        i: draw(st.sampled_from(sorted(doms[i])))
        for i in draw(st.sets(st.integers(0, n - 1), max_size=1))
    }
    return coefs, doms, total, pins, draw(st.randoms())


@EXAMPLES
@given(equations())
def test_equalities_with_common_factors_equal_brute_force(case):
    coefs, doms, total, pins, rnd = case
    xs = vars(len(coefs))
    goals = [fd.in_(x, fd.domain(*sorted(d))) for x, d in zip(xs, doms)]
    goals.append(fd.scalar_product(coefs, xs, "==", total))
    goals += [eq(xs[i], v) for i, v in pins.items()]
    rnd.shuffle(goals)
    expected = {
        p
        for p in itertools.product(*map(sorted, doms))
        if sum(a * v for a, v in zip(coefs, p)) == total and all(p[i] == v for i, v in pins.items())
    }
    got = run_all(tuple(xs), *goals)
    assert len(got) == len(expected) and set(got) == expected


def test_twice_a_digit_among_tens_is_0_or_5():
    n, t = vars(2)
    (r,) = run(0, n, fd.in_(n, t, fd.interval(0, 9)), 2 * n + 10 * t == 30, residual=True)
    assert "in {0, 5}" in str(r)  # before any labeling: bounds alone leave n in 0..9
