"""Each propagator: narrowing, failure and entailment."""

import itertools
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from relqueens import eq, fd, run, run_all, vars
from relqueens.fd import Domain, interval, labeling
from relqueens.fd.arith import AtLeastApart, ReifiedBound
from relqueens.fd.propagators import (
    BoolLinear,
    BoolSum,
    EqOffset,
    LeOffset,
    Linear,
    Times,
)


def bits(*values, off=0):
    """Bitset of ``values`` at offset ``off``."""
    out = 0
    for v in values:
        out |= 1 << (v - off)
    return out


def dom(D, off, i):
    return set(Domain(D[i], off[i]))


def rng(lo, hi, off):
    return bits(*range(lo, hi + 1), off=off)


# -- direct propagator calls ----------------------------------------------------


def test_eq_offset_narrows_both_sides():
    off = [0, -3]
    D = [rng(0, 9, 0), rng(-3, 2, -3)]  # x in 0..9, y in -3..2
    q = set()
    assert EqOffset(0, 1, 4).propagate(D, off, q, 0)  # x == y + 4
    assert dom(D, off, 0) == set(range(1, 7))
    assert dom(D, off, 1) == set(range(-3, 3))
    assert q == {0}


def test_eq_offset_fails_on_disjoint_domains():
    off = [0, 0]
    D = [rng(0, 2, 0), rng(5, 6, 0)]
    assert not EqOffset(0, 1, 0).propagate(D, off, set(), 0)


def test_le_offset_bounds():
    off = [0, 0]
    D = [rng(0, 9, 0), rng(0, 9, 0)]
    q = set()
    assert LeOffset(0, 1, -3).propagate(D, off, q, 0)  # x <= y - 3
    assert dom(D, off, 0) == set(range(7))
    assert dom(D, off, 1) == set(range(3, 10))
    assert q == {0, 1}


def test_le_offset_fails_and_is_entailed():
    off = [0, 0]
    assert not LeOffset(0, 1, 0).propagate([bits(5), bits(1, 2)], off, set(), 0)
    D = [bits(1), bits(7)]
    q = set()
    assert LeOffset(0, 1, 0).propagate(D, off, q, 0)
    assert q == set() and [bits(1), bits(7)] == D


def test_linear_eq_bounds():
    # x + y - 10 == 0 with x in 0..9, y in 0..4  ->  x in 6..9
    off = [0, 0]
    D = [rng(0, 9, 0), rng(0, 4, 0)]
    assert Linear(((0, 1), (1, 1)), -10, "==").propagate(D, off, set(), 0)
    assert dom(D, off, 0) == set(range(6, 10))
    assert dom(D, off, 1) == set(range(1, 5))


def test_linear_le_with_negative_coefficients():
    # 2x - 3y + 1 <= 0, x in -5..5, y in 0..2  ->  x <= 2 (y = 2 gives 2x <= 5)
    off = [-5, 0]
    D = [rng(-5, 5, -5), rng(0, 2, 0)]
    assert Linear(((0, 2), (1, -3)), 1, "<=").propagate(D, off, set(), 0)
    assert max(dom(D, off, 0)) == 2
    assert min(dom(D, off, 1)) == 0  # x = -5 allows y = 0


def test_linear_fails_and_is_entailed():
    off = [0, 0]
    assert not Linear(((0, 1), (1, 1)), -100, "==").propagate(
        [rng(0, 9, 0), rng(0, 9, 0)], off, set(), 0
    )
    D = [bits(3), bits(4)]
    assert Linear(((0, 1), (1, 1)), -7, "==").propagate(D, off, set(), 0)
    assert not Linear(((0, 1), (1, 1)), -7, "!=").propagate([bits(3), bits(4)], off, set(), 0)


def test_linear_not_equal_prunes_last_open_variable():
    off = [0, 0]
    D = [bits(3), rng(0, 9, 0)]
    assert Linear(((0, 2), (1, 1)), -10, "!=").propagate(D, off, set(), 0)  # 2x + y != 10
    assert 4 not in dom(D, off, 1) and len(dom(D, off, 1)) == 9


def test_times_bounds_with_negatives():
    off = [-3, -3, -9]
    D = [rng(-3, 3, -3), rng(-3, 3, -3), rng(-9, 9, -9)]
    z = 2
    D[z] = bits(6, off=-9)  # z == 6
    assert Times(0, 1, 2).propagate(D, off, set(), 0)
    assert 0 not in dom(D, off, 0) and 0 not in dom(D, off, 1)
    assert dom(D, off, 0) <= {-3, -2, -1, 1, 2, 3}


def test_times_fails_and_checks_when_fixed():
    off = [0, 0, 0]
    assert not Times(0, 1, 2).propagate([bits(2), bits(3), bits(5)], off, set(), 0)
    assert Times(0, 1, 2).propagate([bits(2), bits(3), bits(6)], off, set(), 0)


# -- through the public API ------------------------------------------------------------

x, y, z = vars(3)


def test_ne_offset_forward_checks():
    (r,) = run(0, y, fd.in_(x, y, interval(0, 5)), y != x + 2, eq(x, 1), residual=True)
    assert r.domains[y] == interval(0, 5).remove(3)


def test_ne_fails_when_equal():
    assert run_all(x, fd.in_(x, y, interval(0, 5)), fd.ne(x, y), eq(x, 2), eq(y, 2)) == ()


def test_distinct_forward_checking_and_pigeonhole_by_search():
    a, b, c = vars(3)
    assert run_all((a, b, c), fd.in_(a, b, c, interval(0, 1)), fd.distinct([a, b, c])) == ()
    (r,) = run(
        0, (b, c), fd.in_(a, b, c, interval(0, 2)), fd.distinct([a, b, c]), eq(a, 0), residual=True
    )
    assert r.domains[b] == interval(1, 2) and r.domains[c] == interval(1, 2)


def test_distinct_with_offsets_and_constants():
    a, b = vars(2)
    sols = run_all((a, b), fd.in_(a, b, interval(0, 3)), fd.distinct([a, b + 1, 2]))
    assert set(sols) == {(p, q) for p in range(4) for q in range(4) if len({p, q + 1, 2}) == 3}
    assert run_all(a, fd.in_(a, interval(0, 3)), fd.distinct([a, 1, 1])) == ()
    assert run_all(a, fd.in_(a, interval(0, 3)), fd.distinct([a, a])) == ()
    assert run_all(a, fd.in_(a, interval(0, 1)), fd.distinct([a, a + 1])) == (0, 1)


def test_singleton_binds_the_variable():
    # propagation fixes y, and the binding is visible to plain kanren goals
    from relqueens import membero

    sols = run_all(y, fd.in_(x, y, interval(0, 3)), y == x + 3, membero(y, [3, 4]))
    assert sols == (3,)
    (r,) = run(0, (x, y), fd.in_(x, y, interval(0, 3)), y == x + 3, residual=True)
    assert r.term == (0, 3) and r.domains == {} and r.constraints == ()


def test_entailed_constraints_leave_the_residual():
    (r,) = run(0, (x, y), fd.in_(x, y, interval(0, 3)), x < y, eq(x, 0), residual=True)
    assert r.domains == {y: interval(1, 3)}
    assert r.constraints == ()


def test_residual_shows_open_constraints():
    (r,) = run(0, (x, y), fd.in_(x, y, interval(0, 3)), y != x + 1, residual=True)
    assert r.domains == {x: interval(0, 3), y: interval(0, 3)}
    assert [repr(c) for c in r.constraints] in ([f"{y} != {x} + 1"], [f"{x} != {y} - 1"])
    assert "where" in repr(r)


def test_plus_and_times_solve():
    assert run_all((x, y), fd.in_(x, y, interval(0, 5)), fd.plus(x, y, 7), x < y) == (
        (2, 5),
        (3, 4),
    )
    sols = run_all(
        (x, y, z),
        fd.in_(x, y, interval(-2, 2)),
        fd.in_(z, interval(-4, 4)),
        fd.times(x, y, z),
        z < -2,
    )
    assert set(sols) == {(a, b, a * b) for a in range(-2, 3) for b in range(-2, 3) if a * b < -2}


def test_times_with_constant_factor_is_linear():
    assert run_all(y, fd.in_(y, interval(-9, 9)), fd.times(3, y, 6)) == (2,)
    assert run_all(y, fd.in_(y, interval(-9, 9)), fd.times(y, 3, 7)) == ()


def test_sum_le_and_eq():
    a, b, c = vars(3)
    sols = run_all((a, b, c), fd.in_(a, b, c, interval(0, 3)), fd.dot([1, 2, 3], [a, b, c]) <= 2)
    assert set(sols) == {(0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0)}
    assert len(run_all((a, b, c), fd.in_(a, b, c, interval(0, 9)), a + b + c == 27)) == 1


@pytest.mark.parametrize(
    "rel, expected",
    [
        (lambda: x < 2, {0, 1}),
        (lambda: x <= 2, {0, 1, 2}),
        (lambda: x > 2, {3}),
        (lambda: x >= 2, {2, 3}),
        (lambda: x + 0 == 2, {2}),
        (lambda: x + 0 != 2, {0, 1, 3}),
        (lambda: 2 * x + 1 <= 4, {0, 1}),
        (lambda: -2 * x <= -3, {2, 3}),
        (lambda: 3 * x == 7, set()),
        (lambda: 3 * x != 7, {0, 1, 2, 3}),
    ],
)
def test_unary_relations(rel, expected):
    assert set(run_all(x, fd.in_(x, interval(0, 3)), rel())) == expected


def test_entailment_of_each_propagator():
    off = [0, 0, 0]
    assert LeOffset(0, 1, 0).entailed([bits(1, 2), bits(2, 5)], off)
    assert not LeOffset(0, 1, 0).entailed([bits(1, 3), bits(2, 5)], off)
    assert Linear(((0, 1), (1, 1)), -9, "<=").entailed([bits(1, 2), bits(3, 4)], off)
    assert not Linear(((0, 1), (1, 1)), -5, "<=").entailed([bits(1, 2), bits(3, 4)], off)
    assert EqOffset(0, 1, 0).entailed([bits(3), bits(3)], off)
    assert not EqOffset(0, 1, 0).entailed([bits(3, 4), bits(3)], off)
    assert Times(0, 1, 2).entailed([bits(2), bits(3), bits(6)], off)
    assert not Times(0, 1, 2).entailed([bits(2), bits(3, 4), bits(6)], off)


def test_lex_le_and_inverse_propagators():
    from relqueens.fd.propagators import Inverse, LexLe

    off = [0, 0, 0, 0, 0]
    lex = LexLe(((0, 1, 0), (1, 1, 0)), [((2, 1, 0), (3, 1, 0))], [4])  # [x0, x1] <=lex [y0, y1]
    D = [bits(2), rng(0, 3, 0), bits(2), bits(1), bits(0)]  # x0 = y0 = 2, y1 = 1; alpha = 0
    q = set()
    assert lex.propagate(D, off, q, 0)
    assert D[4] == bits(1)  # alpha moved past the equal pair
    assert dom(D, off, 1) == {0, 1}  # x1 <= y1
    assert not LexLe(((0, 1, 0),), [((2, -1, 1),)], [4]).propagate(
        [bits(2), 0, bits(2), 0, bits(0)], off, set(), 0
    )
    D = [bits(0), 0, bits(3), 0, bits(0)]
    assert LexLe(((0, 1, 0),), [((2, 1, 0),)], [4]).propagate(D, off, set(), 0)
    assert D[4] == bits(2)  # entailed: alpha jumps past the end
    assert LexLe(((0, 1, 0),), [((2, 1, 0),)], [4]).entailed([bits(1), 0, bits(2), 0, bits(0)], off)
    off = [0, 0, 0, 0]
    # inverse: xs = [0, 1], ys = [2, 3]; xs[0] = 1 fixes ys[1] = 0
    D = [bits(1), rng(0, 1, 0), rng(0, 1, 0), rng(0, 1, 0)]
    q = set()
    p = Inverse((0, 1), (2, 3))
    assert p.propagate(D, off, q, 0)
    assert dom(D, off, 3) == {0} and dom(D, off, 2) == {0, 1} and q == {3}
    D[2] = bits(1)  # ys[0] = 1 would need xs[1] = 0 ... and then xs[0] = 1 needs ys[1] = 0: fine
    assert p.propagate(D, off, q, 2) and dom(D, off, 1) == {0}
    D[3] = bits(1)  # but ys[1] = 1 contradicts xs[0] = 1 -> ys[1] = 0
    assert not p.propagate(D, off, q, 0)


def test_inverse_implies_permutations():
    xs, ys = vars(3), vars(3)
    (r,) = run(0, (xs, ys), fd.inverse(xs, ys), eq(ys[0], 1), eq(ys[1], 2), residual=True)
    assert r.term == ([2, 0, 1], [1, 2, 0])


# -- distinct over exactly as many values as members: the pigeonhole ---------------------------


def test_pigeonhole_gives_a_value_to_the_only_member_that_can_take_it():
    a, b, c = vars(3)
    # value elimination alone leaves a in 0..2; only a can still take 2
    (r,) = run(
        0,
        a,
        fd.in_(a, fd.interval(0, 2)),
        fd.in_(b, c, fd.interval(0, 1)),
        fd.distinct([a, b, c]),
        residual=True,
    )
    assert r.term == 2


def test_pigeonhole_fails_a_value_that_no_member_can_take():
    a, b, c = vars(3)
    goals = [fd.in_(a, b, c, fd.interval(0, 2)), fd.distinct([a, b, c])]
    # dropping 1 from every member leaves three members for two values
    assert run(0, (a, b, c), *goals, fd.ne(a, 1), fd.ne(b, 1), fd.ne(c, 1), fd.label([])) == ()


def test_pigeonhole_with_offsets_as_brute_force():
    import itertools

    xs = vars(4)
    shifts = [0, 1, -1, 2]
    # x_i + shift_i distinct, each x_i + shift_i in 0..3: a permutation of 0..3
    goals = [fd.in_(x, fd.interval(-s, 3 - s)) for x, s in zip(xs, shifts)]
    goals += [
        fd.distinct([x + s for x, s in zip(xs, shifts)]),
        fd.ne(xs[0], 2),
        fd.ne(xs[1] + 1, 3),
    ]
    got = run_all(tuple(xs), *goals)
    expected = [
        tuple(v - s for v, s in zip(p, shifts))
        for p in itertools.permutations(range(4))
        if p[0] != 2 and p[1] != 3
    ]
    assert sorted(got) == sorted(expected)
    rest = (fd.ne(xs[1] + 1, 0), fd.ne(xs[2] - 1, 0), fd.ne(xs[3] + 2, 0))
    (r,) = run(0, tuple(xs), *goals[:-2], *rest, residual=True)
    assert r.term[0] == 0  # only x0 + 0 can take 0


def test_global_cardinality_is_domain_consistent_by_flow():
    a, b, c, d = vars(4)
    # 1 and 2 at most once each, a and b can only take 1 or 2: they use both, so c, d take 3
    (r,) = run(
        0,
        (a, b, c, d),
        fd.in_(a, b, fd.interval(1, 2)),
        fd.in_(c, d, fd.interval(1, 3)),
        fd.global_cardinality([a, b, c, d], {1: 1, 2: 1, 3: 2}),
        residual=True,
    )
    assert r.term[2:] == (3, 3)
    k = vars(1)[0]
    # 3 needs two takers, only c and d can take it: they do; then a, b share 1 and 2
    (r,) = run(
        0,
        (a, b, c, d, k),
        fd.in_(a, b, c, d, fd.interval(1, 3)),
        fd.ne(a, 3),
        fd.ne(b, 3),
        fd.in_(k, fd.interval(0, 2)),
        fd.global_cardinality([a, b, c, d], {1: k, 2: 1, 3: 2}),
        residual=True,
    )
    assert r.term[2:4] == (3, 3)


def test_cardinality_flow_against_brute_force():
    import itertools
    import random

    from relqueens.fd.globals import _cardinality_flow, _flow_vital

    rng = random.Random(7)
    for _ in range(400):
        n, values = rng.randint(1, 5), list(range(rng.randint(1, 4)))
        doms = [sorted(rng.sample(values, rng.randint(1, len(values)))) for _ in range(n)]
        least = {v: rng.randint(0, 2) for v in values}
        most = {v: least[v] + rng.randint(0, 2) for v in values}
        ok = [
            p
            for p in itertools.product(*doms)
            if all(least[v] <= p.count(v) <= most[v] for v in values)
        ]
        masks = [sum(1 << v for v in d) for d in doms]
        hint = [rng.choice([-1, *values]) for _ in range(n)]  # a stale last flow
        flow = _cardinality_flow(masks, least, most, hint)
        if not ok:
            assert flow is None
            continue
        assert flow is not None and tuple(flow) in set(ok)
        kept = _flow_vital(masks, flow, least, most)
        assert kept == [sum(1 << v for v in {p[k] for p in ok}) for k in range(n)]


@st.composite
def value_graphs(draw):
    """Graphs of up to 12 nodes as successor bitmasks (edges outside ``nodes`` too), and ``nodes``."""
    n = draw(st.integers(1, 12))
    density = draw(st.sampled_from([0.15, 0.3, 0.6]))
    succ = [sum(1 << w for w in range(n + 2) if draw(st.floats(0, 1)) < density) for _ in range(n)]
    nodes = draw(st.integers(1, (1 << n) - 1))
    return succ, nodes


@settings(max_examples=300, deadline=None)
@given(value_graphs())
def test_one_component_is_said_only_of_one_component(case):
    """``_strong`` says "one component" exactly where Tarjan's finds one, but for graphs it
    gives up on after its sweeps (never a "yes" for two)."""
    from relqueens.fd.globals import SWEEPS, _components, _strong

    succ, nodes = case
    comp = _components(succ, nodes)
    one = len({comp[v] for v in range(len(succ)) if nodes >> v & 1}) == 1
    if _strong(succ, nodes):
        assert one
    elif one:  # a path back longer than the sweeps reach
        assert nodes.bit_count() > SWEEPS + 1


def test_one_component_is_found_on_a_cycle_and_refused_on_a_path():
    from relqueens.fd.globals import _strong

    ring = [0b0010, 0b0100, 0b1000, 0b0001]  # 0 -> 1 -> 2 -> 3 -> 0: back within the sweeps
    assert _strong(ring, 0b1111)
    assert not _strong(ring, 0b0111)  # without 3, 2 leads nowhere
    assert not _strong([0b0010, 0b0100, 0b1000, 0b0000], 0b1111)  # forward all, nothing back


def test_a_flag_variable_in_a_connective_stands_for_flag_equal_to_one():
    import itertools

    b, x = vars(2)
    goals = (fd.in_(b, fd.interval(0, 1)), fd.in_(x, fd.interval(0, 3)))
    got = run_all((b, x), *goals, fd.iff(b, x > 1))
    assert got == tuple((int(v > 1), v) for v in range(4))
    got = run_all((b, x), *goals, fd.any_(b, fd.eq(x, 3)))
    expected = [(f, v) for f, v in itertools.product(range(2), range(4)) if f == 1 or v == 3]
    assert sorted(got) == expected


def test_a_flag_variable_is_made_zero_one_as_swi_does():
    b, c, x = vars(3)
    # no domains given: SWI's B #==> C makes both 0..1
    assert sorted(run_all((b, c), fd.implies(b, c))) == [(0, 0), (0, 1), (1, 1)]
    assert run_all((b, c), fd.iff(b, c)) == ((0, 0), (1, 1))
    (r,) = run(0, b, fd.any_(b, x > 1), residual=True)
    assert r.domains[b] == interval(0, 1)
    # a flag pinned outside 0..1, before or after posting, has no answers
    assert run_all(x, fd.in_(x, fd.interval(0, 3)), fd.eq(b, 3), fd.implies(b, x > 1)) == ()
    assert run_all(x, fd.in_(x, fd.interval(0, 3)), fd.implies(b, x > 1), fd.eq(b, 2)) == ()


# -- counting: fd.count of a constant, global_cardinality ------------------------------------


def test_a_residual_answer_shows_an_open_count_and_a_cardinality_with_fixed_counts():
    xs, k = vars(3), vars(1)[0]
    (r,) = run(0, k, fd.in_(*xs, fd.interval(0, 2)), fd.count(xs, 1) == k, residual=True)
    assert r.domains[k] == interval(0, 3)
    assert any("count(" in repr(c) for c in r.constraints)
    # the counts are constants: only the flow propagator is posted, and it is shown
    (r,) = run(
        0,
        xs,
        fd.in_(*xs, fd.interval(1, 2)),
        fd.global_cardinality(xs, {1: 1, 2: 2}),
        residual=True,
    )
    assert [repr(c).split("(")[0] for c in r.constraints] == ["global_cardinality"]


@pytest.mark.parametrize("stated", ["count", "global_cardinality"])
def test_a_magic_series_is_found_in_few_nodes_by_the_sums_its_counts_imply(stated):
    """Counts that cover every value total the variables and weigh to their sum (count_sums):
    a magic series of 20 by ``ff`` within 30 nodes (by the counts alone: 100 and 1,000)."""
    n = 20
    s = vars(n)
    counts = (
        [fd.count(s, i) == s[i] for i in range(n)]
        if stated == "count"
        else [fd.global_cardinality(s, {i: s[i] for i in range(n)})]
    )
    domain = fd.in_(*s, fd.interval(0, n - 1))
    (answer,) = run(1, s, domain, *counts, fd.label(s, select="ff"), max_nodes=30)
    assert all(answer[i] == answer.count(i) for i in range(n))
    # the sums are implied: a residual shows the counts as stated, and no sum
    k = vars(4)
    (r,) = run(
        0,
        k,
        fd.in_(*k, fd.interval(0, 3)),
        *(fd.count(k, i) == k[i] for i in range(4)),
        residual=True,
    )
    assert r.constraints and all("count(" in repr(c) for c in r.constraints)


@pytest.mark.parametrize(("stated", "top"), [("count", 20), ("reified", 19), ("reified", 20)])
def test_a_magic_series_counted_all_but_a_value_or_by_reified_tests_is_found_in_few_nodes(
    stated, top
):
    """Over ``0..20`` the value 20 is never counted, and reified tests summed are counts too:
    when the labeling starts the counts (with a hidden one for 20) become one
    ``global_cardinality``, its flow and its sums (implied_counts). A magic series of 20 by
    ``ff`` within 30 nodes once the quick search's have run out (without them: 1,000)."""
    n = 20
    s = vars(n)
    if stated == "count":
        counts = [fd.count(s, i) == s[i] for i in range(n)]
    else:
        counts = []
        for i in range(n):
            bs = vars(n)
            counts += [fd.in_(*bs, fd.interval(0, 1)), fd.sum(bs, "==", s[i])]
            counts += [b == fd.eq(x, i) for b, x in zip(bs, s)]
    domain = fd.in_(*s, fd.interval(0, top))
    nodes = labeling.Label.QUICK + 30
    (answer,) = run(1, s, domain, *counts, fd.label(s, select="ff"), max_nodes=nodes)
    assert all(answer[i] == answer.count(i) for i in range(n))


def test_the_sums_counts_imply_and_their_hidden_counts_are_not_shown():
    """A residual shows the counts as stated: no sum they imply (short ones too, two counts of
    three variables, or a ``global_cardinality`` of one), and no hidden count of a value left
    uncounted (joined when the labeling starts: ``w`` makes it not few)."""
    x, y, z, a, b, w = vars(6)
    small, counts = fd.in_(x, y, z, fd.interval(0, 1)), fd.in_(a, b, fd.interval(0, 3))
    (r,) = run(0, (x, y, z, a, b), small, counts, fd.count([x, y, z], 0) == a,
               fd.count([x, y, z], 1) == b, residual=True)  # fmt: skip
    assert len(r.constraints) == 2 and all("count(" in repr(c) for c in r.constraints)
    (r,) = run(0, (x, a, b), fd.in_(a, b, fd.interval(0, 1)),
               fd.global_cardinality([x], {0: a, 2: b}), residual=True)  # fmt: skip
    assert [repr(c).split("(")[0] for c in r.constraints] == ["global_cardinality"]
    rs = run(0, (x, y, z, a, w), fd.in_(x, y, z, fd.interval(0, 4)), fd.in_(a, fd.interval(0, 3)),
             fd.in_(w, fd.interval(0, 300)), fd.count([x, y, z], 0) == 0,
             fd.count([x, y, z], 1) == a, fd.count([x, y, z], 2) == 0,
             fd.count([x, y, z], 3) == 0, fd.label([w]), residual=True)  # fmt: skip
    assert len(rs) == 301
    assert all(set(r.domains) == {x, y, z, a} for r in rs)


def test_count_bounds_fix_or_clear_the_candidates():
    a, b, c = vars(3)
    dom = fd.in_(a, b, c, fd.interval(0, 2))
    # two of three may be 1 and two must be: both candidates become 1
    assert run(0, (a, b, c), dom, fd.ne(c, 1), fd.count([a, b, c], 1) == 2) == (
        (1, 1, 0),
        (1, 1, 2),
    )
    # a is 1 and at most one is: b and c lose 1 before any labeling
    (r,) = run(0, (b, c), dom, eq(a, 1), fd.count([a, b, c], 1) <= 1, residual=True)
    assert r.domains[b] == r.domains[c] == fd.domain(0, 2)


def test_all_distinct_over_values_far_apart_is_answered_without_wide_bitsets():
    """Terms whose values lie 10**12 apart (ranges, offsets, constants) are numbered, not shifted
    onto one bitset (which ran out of memory)."""
    x, y = vars(2)
    far = 10**12
    pairs = {(a, b) for a in range(3) for b in range(3)}
    assert set(
        run_all(
            (x, y),
            fd.in_(x, fd.interval(far, far + 2)),
            fd.in_(y, fd.interval(0, 2)),
            fd.all_distinct([x, y]),
        )
    ) == {(a + far, b) for a, b in pairs}
    assert (
        set(run_all((x, y), fd.in_(x, y, fd.interval(0, 2)), fd.all_distinct([x, y + far])))
        == pairs
    )
    assert run_all(x, fd.in_(x, fd.interval(0, 2)), fd.all_distinct([x, far, x + far])) == (1, 2)
    assert run_all(
        x, fd.in_(x, fd.interval(0, 2)), fd.all_distinct([y, far, x + far]), eq(y, far + 1)
    ) == (2,)


def test_a_residual_leaves_out_what_the_domains_already_ensure():
    x, b = vars(2)
    dom = fd.in_(x, fd.interval(0, 3))
    for decided in (b == (x > 5), b == fd.eq(x, 7), fd.ne(x + 10, 2), b == fd.ne(x, 9)):
        (r,) = run(0, x, dom, decided, residual=True)
        assert r.constraints == () and r.domains[x] == interval(0, 3), decided
    # not yet ensured: shown
    (r,) = run(
        0,
        x,
        fd.in_(x, fd.interval(0, 9)),
        b == fd.eq(x, 7),
        fd.in_(b, fd.interval(0, 1)),
        residual=True,
    )
    assert r.constraints


def settled(p, D, off):
    """Run ``p`` until it changes nothing: its fixpoint alone (``None`` if it fails)."""
    while True:
        queue = set()
        if not p.propagate(D, off, queue, 0):
            return None
        if not queue:
            return D


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.sampled_from([1, 2, 3, 3]), min_size=2, max_size=7),
    st.data(),
    st.sampled_from(["<=", "=="]),
    st.integers(-12, 12),
)
def test_a_0_1_knapsack_row_narrows_as_the_general_sum_does(domains, data, op, k):
    """:class:`BoolLinear` and :class:`Linear` are both bounds consistent: on 0/1 domains (and
    one other, a total) the same."""
    n = len(domains)
    coefs = data.draw(st.lists(st.integers(-6, 8).filter(bool), min_size=n, max_size=n))
    off = [0] * n
    general = None
    if data.draw(st.booleans()):  # a total over its own interval, somewhere among the terms
        lo, width = data.draw(st.integers(-10, 10)), data.draw(st.integers(0, 12))
        general = data.draw(st.integers(0, n))
        domains.insert(general, (1 << (width + 1)) - 1)
        off.insert(general, lo)
        coefs.insert(general, data.draw(st.sampled_from([1, -1, 2, -3])))
    terms = tuple(enumerate(coefs))
    fast = settled(BoolLinear(terms, k, op, general=general), list(domains), off)
    assert fast == settled(Linear(terms, k, op), list(domains), off)


@st.composite
def far_apart(draw):
    """Two domains with holes at offsets, ``abs(x - y + k) >= m`` spelled one of several ways,
    the goals in any order."""
    doms = [sorted(draw(st.sets(st.integers(-4, 6), min_size=1, max_size=7))) for _ in range(2)]
    k, m = draw(st.integers(-3, 3)), draw(st.integers(-1, 6))
    spelling = draw(st.sampled_from([">=", ">", "<=", "<", "swapped"]))
    return doms, k, m, spelling, draw(st.randoms(use_true_random=False))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(far_apart())
def test_abs_difference_at_least_as_brute_force_in_any_goal_order(case):
    """``abs(x - y + k) >= m`` (one propagator over bitsets) keeps exactly the pairs that meet
    it, however it is written and wherever the domains come; alone, the propagator keeps
    exactly the values that have a partner (domain consistent)."""
    (dx, dy), k, m, spelling, rng = case
    x, y = vars(2)
    gap = abs(x - y + k)
    rel = {
        ">=": gap >= m,
        ">": gap > m - 1,
        "<=": m <= gap,
        "<": m - 1 < gap,
        "swapped": abs(y - x - k) >= m,
    }[spelling]
    goals = [fd.in_(x, fd.domain(*dx)), fd.in_(y, fd.domain(*dy)), rel]
    rng.shuffle(goals)
    pairs = [(a, b) for a in dx for b in dy if abs(a - b + k) >= m]
    assert sorted(run_all((x, y), *goals)) == pairs
    if m < 1:
        return  # always true: nothing posted
    off = [dx[0], dy[0]]
    D = [sum(1 << (v - off[0]) for v in dx), sum(1 << (v - off[1]) for v in dy)]
    p, queue = AtLeastApart(0, 1, k, m), {0, 1}
    ok = True
    while ok and queue:  # the propagator to its own fixpoint
        ok = p.propagate(D, off, queue, queue.pop())
    if not pairs:
        assert not ok
        return
    assert ok
    assert list(Domain(D[0], off[0])) == sorted({a for a, _ in pairs})
    assert list(Domain(D[1], off[1])) == sorted({b for _, b in pairs})


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sets(st.integers(-4, 6), min_size=1, max_size=8),
    st.sampled_from([0b01, 0b10, 0b11]),
    st.integers(-5, 7),
    st.booleans(),
)
def test_a_reified_order_with_a_value_is_bounds_consistent(xs, db, c, at_most):
    """``b == (x <= c)`` (or ``x > c``) alone: ``b`` fixed keeps exactly the values of ``x`` on
    its side; ``b`` open is fixed exactly when every value of ``x`` is on one side."""
    off = [min(xs), 0]
    D, queue = [sum(1 << (v - off[0]) for v in xs), db], {0, 1}
    p, ok = ReifiedBound(0, c, 1, at_most), True
    while ok and queue:
        ok = p.propagate(D, off, queue, queue.pop())
    side = {
        True: {v for v in xs if (v <= c) == at_most},
        False: {v for v in xs if (v <= c) != at_most},
    }
    allowed = {b: side[bool(b)] for b in (0, 1) if db >> b & 1}  # b's values, each x's side
    kept = {b: vs for b, vs in allowed.items() if vs}
    if not kept:
        assert not ok
        return
    assert ok
    assert sorted(b for b in (0, 1) if D[1] >> b & 1) == sorted(kept)
    assert set(Domain(D[0], off[0])) == set().union(*kept.values())


@pytest.mark.parametrize("a", [1, -1, 2, -2, 3, -3])
@pytest.mark.parametrize("op", ["<", "<=", ">", ">="])
def test_a_reified_order_of_a_multiple_keeps_exactly_the_values_on_its_side(a, op):
    """``b == (a * x op c)`` for every ``c`` in -7..7, ``x`` in -4..4: the answers, and ``b``
    decided by the bounds of ``x`` alone, are brute force's (the side's bound rounded the
    right way for each sign of ``a``)."""
    compare = {"<": int.__lt__, "<=": int.__le__, ">": int.__gt__, ">=": int.__ge__}[op]
    relate = {"<": fd.lt, "<=": fd.le, ">": fd.gt, ">=": fd.ge}[op]
    for c in range(-7, 8):
        x, b = vars(2)
        goals = [fd.in_(x, interval(-4, 4)), b == relate(a * x, c)]
        expected = [(v, int(compare(a * v, c))) for v in range(-4, 5)]
        assert sorted(run_all((x, b), *goals)) == expected
        for v in range(-4, 5):  # x fixed first: b follows without labeling
            assert run_all(b, eq(x, v), *goals, fd.label([])) == (int(compare(a * v, c)),)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.sets(st.integers(0, 12), min_size=1, max_size=6), min_size=3, max_size=3),
    st.integers(-3, 4),
    st.sampled_from([(0, 1, 2), (0, 0, 1), (0, 1, 0), (0, 0, 0)]),
)
def test_a_product_of_naturals_by_division_narrows_as_the_general_rule(sets, shift, roles):
    """``x * y == z`` over bitsets with ``x``, ``y`` at least 0 (division inline), propagated to
    its fixpoint, leaves what the general rule (corners and quotients, any domains) does,
    whether ``x``, ``y`` and ``z`` are three variables or one shared; and the products that
    remain are brute force's."""
    n = max(roles) + 1
    doms = [sorted(v + (shift if k == 2 else 0) for v in sets[k]) for k in range(n)]
    off = [d[0] for d in doms]

    def fixed_point(run):
        D, queue, ok = (
            [sum(1 << (v - o) for v in d) for d, o in zip(doms, off)],
            set(range(n)),
            True,
        )
        while ok and queue:
            queue.pop()
            ok = run(D, queue)
        return ok and D

    p = Times(*roles)
    fast = fixed_point(lambda D, queue: p.propagate(D, off, queue, 0))
    slow = fixed_point(lambda D, queue: p._general(D, off, queue))
    assert fast == slow
    triples = [
        t
        for t in itertools.product(*(doms[r] for r in roles))
        if t[0] * t[1] == t[2]
        and all(t[a] == t[b] for a in range(3) for b in range(3) if roles[a] == roles[b])
    ]
    if not triples:
        return  # bounds reasoning need not see it
    assert fast
    for t in triples:
        assert all(fast[r] >> (v - off[r]) & 1 for r, v in zip(roles, t))


@st.composite
def strided_rows(draw):
    """``sum(a_j b_j) + c * t + k op 0`` over 0/1 terms (domains 1, 2 or 3) with coefficients
    that often share a factor, and maybe a general term ``t`` (a bitset at an offset)."""
    n = draw(st.integers(2, 5))
    factor = draw(st.sampled_from([1, 2, 3]))
    coefficients = [factor * draw(st.sampled_from([-3, -2, -1, 1, 2, 3])) for _ in range(n)]
    D = [draw(st.sampled_from([1, 2, 3])) for _ in range(n)]
    off = [0] * n
    terms = list(enumerate(coefficients))
    general = None
    if draw(st.booleans()):
        general = draw(st.integers(0, n))
        lo = draw(st.integers(-3, 3))
        values = draw(st.sets(st.integers(lo, lo + 5), min_size=1))
        terms.insert(general, (n, draw(st.sampled_from([-3, -2, -1, 1, 2, 3, 4]))))
        D.append(sum(1 << (v - lo) for v in values))
        off.append(lo)
    op = draw(st.sampled_from(["==", "<="]))
    return tuple(terms), D, off, draw(st.integers(-12, 12)), op, general


@settings(max_examples=300, deadline=None)
@given(strided_rows())
def test_a_knapsack_row_prunes_no_solution_and_refutes_by_its_open_terms_gcd(row):
    """:class:`BoolLinear` against brute force: a failure leaves no solution, a narrowing keeps
    every one; and an equality whose open terms' coefficients share a factor the rest is not a
    multiple of fails (the sum moves only by multiples of it)."""
    terms, D, off, k, op, general = row
    values = [list(Domain(d, o)) for d, o in zip(D, off)]
    solutions = []
    for point in itertools.product(*values):
        total = sum(a * point[j] for j, a in terms) + k
        if total == 0 or (op == "<=" and total < 0):
            solutions.append(point)
    narrowed = D[:]
    kept = BoolLinear(terms, k, op, general=general).propagate(narrowed, off, set(), 0)
    if not kept:
        assert not solutions
    else:
        for point in solutions:
            assert all((narrowed[j] >> (v - off[j])) & 1 for j, v in enumerate(point))
    rest = k + sum(a * values[j][0] for j, a in terms if len(values[j]) == 1)
    g = math.gcd(*(a for j, a in terms if len(values[j]) > 1))
    if op == "==" and g > 1 and rest % g:
        assert not kept


def _counted(D, p, queue):
    """Run ``p`` alone to its fixpoint from the terms in ``queue``, as :func:`fixpoint` would."""
    while queue:
        j = queue.pop()
        if not p.propagate(D, [0] * len(D), queue, j):
            return False
    return True


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(2, 6).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.sampled_from(["==", "<="]),
            st.integers(0, n),
            st.lists(
                st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, 1)), max_size=n),
                max_size=4,
            ),
        )
    )
)
def test_a_count_of_ones_keeps_every_supported_value_through_branches(case):
    """:class:`BoolSum` (``sum(xs) op k``, its watches kept from branch to branch as the search
    keeps them) leaves just the values some solution takes, and fails where none does."""
    n, op, k, branches = case
    p, root, queue = BoolSum(tuple((j, 1) for j in range(n)), -k, op), [3] * n, set()
    if not (p.start(root, [0] * n, queue) and _counted(root, p, queue)):
        assert op == "==" and k > n  # no count of n terms reaches it
        return
    for fixes in branches:  # each branch starts again from the root: the watches stay as left
        D = list(root)
        for j, v in fixes:
            D[j] &= 1 << v
        if 0 in D:
            continue
        before = list(D)
        ok = _counted(D, p, {j for j, _ in fixes})
        kept = [0] * n
        for xs in itertools.product(*([0, 1] if d == 3 else [d >> 1] for d in before)):
            if (sum(xs) == k) if op == "==" else (sum(xs) <= k):
                for j, x in enumerate(xs):
                    kept[j] |= 1 << x
        if not ok:
            assert not any(kept)
        else:
            assert kept == D
