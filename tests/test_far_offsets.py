"""Sums of three terms over bitsets far from 0 (near 10**12, or its negative): once a term is
fixed, the shifts and mirrors of ``UnitDifference`` span the domains' widths, not their offsets
(a shift by 10**12 bits raised MemoryError), in any goal order."""

from itertools import permutations, product

from hypothesis import given, settings
from hypothesis import strategies as st
from test_fd_property import run

from relqueens import fd, vars

FAR = 10**12


def test_a_sum_far_from_its_total_fails_at_once():
    x, y, z = vars(3)
    goals = [
        fd.in_(x, y, fd.interval(FAR, FAR + 1)),
        fd.in_(z, fd.interval(0, 3)),
        z == x + y,
        fd.eq(y, FAR),
    ]
    for order in permutations(goals):
        assert run(0, (x, y, z), *order) == ()


def test_a_distinct_group_with_a_term_far_away_gets_no_pigeonhole():
    """One term of a group 10**12 above the others: its values are not aligned with theirs (that
    shift raised MemoryError); the answers are brute force's, in any goal order."""
    x, y, z = vars(3)
    goals = [fd.in_(x, y, z, fd.interval(0, 1)), fd.distinct([x, y + FAR, z])]
    expected = {(a, b, c) for a, b, c in product((0, 1), repeat=3) if a != c}
    for order in permutations(goals):
        assert set(run(0, (x, y, z), *order)) == expected


@st.composite
def models(draw):
    """``z == x + y`` or ``z == x - y`` (``x``, ``y`` near ``±base``, ``z`` near the total or
    far from it), perhaps a pin, in any order."""
    base = draw(st.sampled_from([FAR, -FAR, 0]))
    sign = draw(st.sampled_from([1, -1]))
    xs = draw(st.sets(st.integers(0, 4), min_size=1, max_size=3))
    ys = draw(st.sets(st.integers(0, 4), min_size=1, max_size=3))
    near = base + sign * base
    zbase = draw(st.sampled_from([near, near + FAR, near - FAR, 0]))
    zs = draw(st.sets(st.integers(-2, 8), min_size=1, max_size=4))
    domains = [{base + v for v in xs}, {base + v for v in ys}, {zbase + v for v in zs}]
    pin = draw(st.one_of(st.none(), st.tuples(st.integers(0, 1), st.integers(0, 4))))
    order = draw(st.permutations(range(5)))
    return domains, sign, pin, order


@settings(max_examples=300, deadline=None)
@given(models())
def test_sums_far_from_zero_answer_as_brute_force(model):
    domains, sign, pin, order = model
    x, y, z = vs = vars(3)
    goals = [fd.in_(v, fd.domain(*sorted(d))) for v, d in zip(vs, domains)]
    goals.append(z == (x + y if sign == 1 else x - y))
    goals.append(
        fd.eq(vs[pin[0]], min(domains[pin[0]]) + pin[1])
        if pin
        else fd.in_(x, fd.domain(*domains[0]))
    )
    got = run(0, tuple(vs), *(goals[k] for k in order))
    want = [
        t
        for t in product(*(sorted(d) for d in domains))
        if t[2] == t[0] + sign * t[1]
        and (pin is None or t[pin[0]] == min(domains[pin[0]]) + pin[1])
    ]
    assert sorted(map(tuple, got)) == want
