"""Non-linear arithmetic over domains kept as bounds (more than 2**24 values): SWI clpfd's answers."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from relqueens import fd, run, run_all, vars
from relqueens.fd import interval, labeling
from relqueens.fd.terms import BINARY

x, y = vars(2)
W = interval(-(10**12), 10**12)


@pytest.mark.parametrize(
    "goals, k, expected",
    [
        # a fixed argument gives its value: labeling checks the relation (3, 4, 5 were answers)
        ((fd.in_(x, interval(0, 10**8)), x % 10 == 3), 3, (3, 13, 23)),
        ((fd.in_(x, W), x % 1000 == 5), 2, (-(10**12) + 5, -(10**12) + 1005)),
        # the argument is narrowed from the result
        ((fd.in_(x, W), x // 1000 == 5), 3, (5000, 5001, 5002)),
        ((fd.in_(x, W), x // -1000 == 5), 1, (-5999,)),
        ((fd.in_(x, W), x**3 == -(10**18)), 0, (-(10**6),)),
        # and a gap inside the bounds is passed by halving the domain, not value by value
        ((fd.in_(x, W), x**2 == 10**20), 0, (-(10**10), 10**10)),
        ((fd.in_(x, interval(-(10**15), 10**15)), abs(x) >= 10**15), 0, (-(10**15), 10**15)),
    ],
)
def test_wide_arithmetic_matches_swi(goals, k, expected):
    assert run(k, x, *goals) == expected


def test_a_product_of_wide_variables_finds_its_two_answers():
    assert run(0, (x, y), fd.in_(x, y, W), x * y == 10**24) == (
        (-(10**12), -(10**12)),
        (10**12, 10**12),
    )


def test_wide_labeling_keeps_the_value_order():
    up = run(3, (x, y), fd.in_(x, y, W), x + y == 3)
    assert [a for a, _ in up] == [-(10**12) + 3, -(10**12) + 4, -(10**12) + 5]
    down = run(3, (x, y), fd.in_(x, y, W), x + y == 3, fd.label([x, y], order="down"))
    assert [a for a, _ in down] == [10**12, 10**12 - 1, 10**12 - 2]


def test_branch_and_bound_over_wide_domains_is_quick():
    goals = fd.in_(x, y, W), x + y == 4, x - y >= 0, fd.minimize(x - y, [x, y])
    assert run(1, (x, y), *goals, timeout=30) == ((2, 2),)


def test_products_without_domains_are_bounded_as_in_swi():
    assert run(0, x, x * x == 49) == (-7, 7)
    assert run(0, x, x**2 == 49) == (-7, 7)
    assert run(0, x, x // 3 == 2) == (6, 7, 8)
    assert len(run(0, (x, y), x * y == 12, x >= 1, y >= 1)) == 6


def test_a_huge_exponent_answers_without_computing_the_huge_powers():
    e = 2**70
    assert run(0, x, x**e == 1) == (-1, 1)
    assert run(0, x, fd.in_(x, interval(-5, 5)), x ** (e + 1) == -1) == (-1,)
    z = vars(1)[0]
    small = interval(0, 10**100)
    assert run(0, (x, z), fd.in_(x, interval(0, 5)), fd.in_(z, small), x**e == z) == (
        (0, 0),
        (1, 1),
    )
    assert run(0, x, fd.in_(x, interval(2, 5)), x**e < 5) == ()
    assert run(0, x, fd.in_(x, W), x**e <= 10**9) == (-1, 0, 1)


def test_a_power_too_large_to_compute_is_a_clear_error():
    z = vars(1)[0]
    with pytest.raises(OverflowError, match=r"more than .* bits; bound the power"):
        run(1, x, fd.in_(x, interval(2, 5)), x ** (2**70) > 5)
    with pytest.raises(OverflowError, match=r"3 \*\* 1180591620717411303424 has more than"):
        fd.lin(3) ** (2**70)
    with pytest.raises(fd.DomainError, match="infinite"):
        run(1, (x, z), fd.in_(x, interval(2, 5)), x ** (2**70) == z)


@pytest.mark.parametrize("branching", ["enum", "step", "bisect"])
def test_a_quotient_or_remainder_by_a_constant_narrows_a_wide_variable(branching):
    lab = fd.label([x], branching=branching)
    assert run(3, x, fd.in_(x, W), fd.trunc_div(x, 7) == 1, lab, timeout=20) == (7, 8, 9)
    assert run(3, x, fd.in_(x, W), fd.trunc_div(x, -3) == 5, lab, timeout=20) == (-17, -16, -15)
    # rem takes the sign of x: the negative half is passed at once, even value by value
    assert run(3, x, fd.in_(x, W), fd.rem(x, 7) == 1, lab, timeout=20) == (1, 8, 15)
    (r,) = run(0, x, fd.in_(x, W), fd.trunc_div(x, 3) == 5, residual=True)
    assert r.domains[x] == interval(15, 17)


@given(
    st.sampled_from(["mod", "rem"]),
    st.integers(-40, 40).filter(bool),
    st.integers(-3000, 0),
    st.integers(1100, 3000),
    st.sets(st.integers(-40, 40), min_size=1, max_size=6),
)
@settings(max_examples=150, deadline=None)
def test_a_remainder_by_a_constant_keeps_the_congruent_values_of_a_large_bitset(
    kind, m, lo, hi, zs
):
    """Over more than Function.LIMIT values, ``x % m == z`` keeps only x congruent to a z (mod m)."""
    z = vars(1)[0]
    goals = [
        fd.in_(x, interval(lo, hi)),
        fd.in_(z, fd.domain(*zs)),
        (x % m if kind == "mod" else fd.rem(x, m)) == z,
    ]
    expected = tuple(v for v in range(lo, hi + 1) if BINARY[kind](v, m) in zs)
    assert run_all(x, *goals, fd.label([x], branching="enum")) == expected
    for r in run(0, x, *goals, residual=True):  # x fixed by propagation has no domain left
        assert all(any((v - r0) % m == 0 for r0 in zs) for v in r.domains.get(x, ()))


def test_a_disequality_posted_before_a_wide_domain_propagates_once_it_comes():
    """``w != K*a`` posted before ``w`` has a domain waits for one; a Wide domain now wakes it
    (it waited to the end and was reported as needing a bitset), in every goal order."""
    from itertools import permutations

    k = 10**11
    a, w = vars(2)
    goals = [
        fd.in_(a, fd.interval(-4, 2)),
        fd.ne(w, k * a),
        fd.in_(w, fd.interval(-2 * 10**12, 2 * 10**12)),
        w == k * a + 2,
    ]
    want = tuple((v, k * v + 2) for v in range(-4, 3))
    for order in permutations(goals):
        assert run(0, (a, w), *order) == want
    b = vars(1)[0]
    goals = [
        fd.in_(a, fd.interval(0, 3)),
        fd.ne(w, b + 1),
        fd.in_(w, b, fd.interval(0, 10**9)),
        fd.eq(w, a),
    ]
    for order in permutations(goals):
        assert len(run(1, (a, w, b), *order)) == 1


def few_fixpoints(monkeypatch, most=10_000):
    """Make the labeling's fixpoints fail a test once there have been more than ``most``
    (a search that tries an objective's values one by one, across its gaps)."""
    calls = []
    real = labeling.fixpoint

    def counted(*args, **kwargs):
        calls.append(1)
        if len(calls) > most:
            raise AssertionError("the objective's values are tried one by one")
        return real(*args, **kwargs)

    monkeypatch.setattr(labeling, "fixpoint", counted)


def test_all_answers_of_an_objective_kept_as_bounds_pass_the_gaps_between_its_values(
    monkeypatch,
):
    """``10**7 * x0 + x2`` minimised, every answer: after the optimum, the objective's next
    values are those propagation allows, each found at once (one fixpoint a value), not tried
    one by one across the gaps of ten million (89 s)."""
    few_fixpoints(monkeypatch)
    x0, x1, x2 = vars(3)
    goals = [fd.in_(x0, x1, x2, fd.interval(0, 4)), fd.eq(x0 + x1, 3)]
    found = run(0, (x0, x1, x2), *goals, fd.label([x0, x1, x2], minimize=10**7 * x0 + x2))
    expected = [(a, 3 - a, c) for a in range(4) for c in range(5)]
    assert list(found) == expected
    maximised = run(0, (x0, x1, x2), *goals, fd.label([x0, x1, x2], maximize=10**7 * x0 + x2))
    assert list(maximised) == expected[::-1]


def test_all_answers_of_an_objective_made_a_bitset_pass_the_gaps_between_its_values(
    monkeypatch,
):
    """``100001 * x`` maximised, ``x`` in four values, labeled middle out: the objective is a
    bitset of some 500,000 values, and after the optimum its next values are those propagation
    allows, not each of its bits in turn (11.6 s for 288 answers of such a model)."""
    few_fixpoints(monkeypatch)
    x, y = vars(2)
    goals = [fd.in_(x, fd.domain(-2, 0, 1, 3)), fd.in_(y, fd.interval(0, 2))]
    found = run(0, (x, y), *goals, fd.label([x, y], order="mid", maximize=100001 * x))
    assert sorted(found) == [(a, b) for a in (-2, 0, 1, 3) for b in range(3)]
    assert [a for a, _ in found] == sorted((a for a, _ in found), reverse=True)
