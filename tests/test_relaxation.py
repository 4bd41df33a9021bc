"""Relaxations for branch and bound: exact bounds and sound pruning, checked by brute force."""

import itertools
import random
from math import inf
from operator import mul

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fd_property import is_single_cycle

from relqueens import fd, run, var, vars
from relqueens.fd import relaxation
from relqueens.fd.choices import ChoiceTable
from relqueens.fd.frontier import best_point
from relqueens.fd.knapsack import NONE, TableBound, _program, _reaching, exact
from relqueens.fd.relaxation import (
    AssignmentBound,
    KnapsackBound,
    LagrangianBound,
    OneTreeBound,
    hungarian,
)

EXAMPLES = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def bitset(lo, hi):
    return ((1 << (hi - lo + 1)) - 1), lo


@st.composite
def knapsacks(draw):
    n = draw(st.integers(1, 4))
    bounds = [sorted(draw(st.lists(st.integers(-3, 3), min_size=2, max_size=2))) for _ in range(n)]
    cost = {i: draw(st.integers(-5, 5)) for i in range(n) if draw(st.booleans())}
    weight = {i: draw(st.integers(-4, 4).filter(bool)) for i in range(n) if draw(st.booleans())}
    return bounds, cost, weight, draw(st.integers(-8, 8)), draw(st.integers(-20, 20))


def bounds_and_keeps(r, D, off, points, values, target) -> bool:
    """``r``'s bound is below every point's value, and its pruning keeps the points within ``target``.

    ``False`` when ``r`` finds the node infeasible (then there must be no point).
    """
    least = r.bound(D, off)
    if least is None:
        assert points == []
        return False
    assert all(v >= least for v in values)
    queue: set = set()
    kept = r.prune(D, off, target, queue)
    for p, v in zip(points, values):
        if v <= target:
            assert kept and all(D[i] >> (x - off[i]) & 1 for i, x in enumerate(p)), (p, v)
    return True


@EXAMPLES
@given(knapsacks())
def test_knapsack_bound_is_below_every_solution_and_pruning_keeps_those_within_target(case):
    bounds, cost, weight, b, target = case
    D, off = zip(*(bitset(lo, hi) for lo, hi in bounds))
    D, off = list(D), list(off)
    points = [
        p
        for p in itertools.product(*(range(lo, hi + 1) for lo, hi in bounds))
        if sum(a * p[i] for i, a in weight.items()) <= b
    ]
    values = [sum(c * p[i] for i, c in cost.items()) for p in points]
    bounds_and_keeps(KnapsackBound(cost, weight, b), D, off, points, values, target)


@st.composite
def tabled_knapsacks(draw):
    """Root domains with holes, 1-3 constraints over them, a node's narrower domains, a target."""
    n = draw(st.integers(1, 4))
    off = [draw(st.integers(-2, 1)) for _ in range(n)]
    root = [draw(st.integers(1, 15)) for _ in range(n)]
    node = [d & draw(st.integers(0, 15)) or d & -d for d in root]
    cost = {i: draw(st.integers(-5, 5)) for i in range(n) if draw(st.integers(0, 3))}
    rows = [
        (
            {i: draw(st.integers(-4, 6).filter(bool)) for i in range(n) if draw(st.integers(0, 3))},
            draw(st.integers(-4, 14)),
            draw(st.integers(0, 2)) == 0,  # an equality
        )
        for _ in range(draw(st.integers(1, 3)))
    ]
    return off, root, node, cost, rows, draw(st.integers(-25, 15))


def halves(cost, weight, b, equal):
    """A constraint's knapsacks: itself, or an equality's ``<=`` half and its mirrored ``>=`` half."""
    half = KnapsackBound(cost, weight, b, equal=equal)
    if not equal:
        return [half]
    return [half, KnapsackBound(cost, {i: -a for i, a in weight.items()}, -b, mirror=half)]


@EXAMPLES
@given(tabled_knapsacks())
def test_table_bound_is_below_every_solution_at_a_node_and_pruning_keeps_those_within_target(case):
    off, root, node, cost, rows, target = case
    relaxed = [half for row in rows for half in halves(cost, *row)]
    points = [
        p
        for p in itertools.product(
            *([o + k for k in range(4) if d >> k & 1] for d, o in zip(node, off))
        )
        if all(
            (s == b if equal else s <= b)
            for weight, b, equal in rows
            for s in [sum(a * p[i] for i, a in weight.items())]
        )
    ]
    values = [sum(c * p[i] for i, c in cost.items()) for p in points]
    for r in exact(relaxed, root, off, integral_lp=False):
        if not isinstance(r, TableBound):
            continue
        D = node[:]
        if not bounds_and_keeps(r, D, off, points, values, target):
            continue
        guess = [r.solution(i) for i in range(len(D))]
        assert all(g is None or root[i] >> (g - off[i]) & 1 for i, g in enumerate(guess))


@st.composite
def item_scans(draw):
    """A table after one item, that item over a run of values (perhaps with holes), a room, a need."""
    width = draw(st.integers(1, 160))
    entry = st.sampled_from([NONE, -7, 0, 3]) | st.integers(-60, 60)
    after = draw(st.lists(entry, min_size=width, max_size=width))
    count = draw(st.integers(1, 150))
    o, low_bit = draw(st.integers(-5, 5)), draw(st.integers(0, 3))
    d = ((1 << count) - 1) << low_bit
    if draw(st.booleans()):  # holes: scanned value by value
        d &= draw(st.integers(1, (1 << (count + low_bit)) - 1)) or d
    sign = draw(st.sampled_from([1, -1]))
    lo, hi = o + (d & -d).bit_length() - 1, o + d.bit_length() - 1
    start = lo - draw(st.integers(0, 3)) if sign > 0 else hi + draw(st.integers(0, 3))
    item = (0, start, sign, draw(st.integers(1, 9)), draw(st.integers(-4, 4)), ())
    return d, o, item, after, draw(st.integers(0, 400)), width - 1, draw(st.integers(-80, 80))


@EXAMPLES
@given(item_scans())
def test_an_item_keeps_the_values_whose_step_leaves_the_rest_enough_to_gain(case):
    d, o, (_, start, sign, w, gain, _), after, room, top, need = case
    expected = 0
    for k in range(d.bit_length()):
        y = sign * (o + k - start)
        if d >> k & 1 and w * y <= room and gain * y + after[min(room - w * y, top)] >= need:
            expected |= 1 << k
    assert _reaching(*case) == expected


@st.composite
def item_rows(draw):
    """Items with steps 0..m (many may be taken as often as they fit), a width, an equality or not."""
    items = []
    for k in range(draw(st.integers(1, 3))):
        w, gain, m = draw(st.integers(1, 12)), draw(st.integers(-5, 5)), draw(st.integers(0, 39))
        items.append((k, 0, 1, w, gain, tuple(range(m + 1))))
    return items, draw(st.integers(1, 120)), draw(st.booleans())


@EXAMPLES
@given(item_rows())
def test_the_table_is_the_best_gain_of_the_items_after_each_position_in_each_room(case):
    items, width, equal = case
    tables = _program(items, width, equal)
    best = [0] + [NONE if equal else 0] * (width - 1)
    for n in range(len(items) - 1, -1, -1):  # the dynamic program, cell by cell
        _, _, _, w, gain, steps = items[n]
        best = [max(gain * y + best[r - w * y] for y in steps if w * y <= r) for r in range(width)]
        assert tables[n] == best


@st.composite
def wide_knapsacks(draw):
    """One constraint over 1-3 variables of 64 to 100 values each (their steps read by slices)."""
    n = draw(st.integers(1, 3))
    off = [draw(st.integers(-50, 0)) for _ in range(n)]
    D = [(1 << draw(st.integers(64, 100))) - 1 for _ in range(n)]
    weight = {i: draw(st.integers(-6, 6).filter(bool)) for i in range(n)}
    cost = {i: draw(st.integers(-5, 5)) for i in range(n)}
    return D, off, weight, cost, draw(st.integers(-200, 300)), draw(st.booleans())


@EXAMPLES
@given(wide_knapsacks())
def test_a_best_completion_over_wide_domains_meets_the_constraint_at_the_tables_bound(case):
    D, off, weight, cost, b, equal = case
    [r] = exact([KnapsackBound(cost, weight, b, equal=equal)], D, off, integral_lp=False)
    least = r.bound(D, off) if isinstance(r, TableBound) else None
    if least is None:  # no integer point: the LP or the table says so
        return
    point = {i: r.solution(i) for i in weight}
    assert all(0 <= point[i] - off[i] < D[i].bit_length() for i in weight)
    used = sum(a * point[i] for i, a in weight.items())
    assert used == b if equal else used <= b
    assert sum(c * point[i] for i, c in cost.items()) == least


@st.composite
def assignments(draw):
    rows = draw(st.integers(1, 4))
    columns = draw(st.integers(rows - 1, 5))
    costs = [
        {k: draw(st.integers(-5, 20)) for k in range(columns) if draw(st.integers(0, 9)) < 7}
        for _ in range(rows)
    ]
    return costs


def brute_assignment(costs, fixed=None):
    found = [
        sum(costs[r][perm[r]] for r in range(len(costs)))
        for perm in itertools.permutations(
            range(max((max(c, default=-1) for c in costs), default=-1) + 1), len(costs)
        )
        if all(perm[r] in costs[r] for r in range(len(costs)))
        and (fixed is None or perm[fixed[0]] == fixed[1])
    ]
    return min(found, default=None)


@EXAMPLES
@given(assignments())
def test_hungarian_is_the_cheapest_assignment_and_its_reduced_costs_bound_each_choice(costs):
    best = brute_assignment(costs)
    result = hungarian(costs)
    if best is None:
        assert result is None
        return
    total, u, v, chosen = result
    assert sum(costs[r][k] for r, k in enumerate(chosen)) == total
    assert total == best == sum(u) + sum(v.values())
    for r, row in enumerate(costs):
        for k, c in row.items():
            reduced = c - u[r] - v[k]
            assert reduced >= 0
            with_it = brute_assignment(costs, (r, k))
            assert with_it is None or with_it >= total + reduced


def test_assignment_bound_prunes_the_values_that_cannot_reach_the_target():
    # s0, s1 distinct in 0..1; s0 = 0 costs 5 (var 2), s0 = 1 costs 9 (3); s1 = 0: 7 (4), s1 = 1: 1 (5)
    ab = AssignmentBound([(1, 0, (2, 3)), (1, 1, (4, 5))], {})
    D, off = [0b11, 0b11, 1, 1, 1, 1], [0, 0, 5, 9, 7, 1]
    assert ab.bound(D, off) == 6
    queue: set = set()
    assert ab.prune(D, off, 11, queue)  # duals u = (5, 1), v = 0: s1 = 0 costs at least 6 + 6
    assert D[:2] == [0b11, 0b10] and queue == {1}
    assert ab.prune(D, off, 9, queue)  # and s0 = 1 at least 6 + 4
    assert D[:2] == [0b01, 0b10]


@st.composite
def tours(draw):
    n = draw(st.integers(3, 6))
    table = [[draw(st.integers(-5, 30)) for _ in range(n)] for _ in range(n)]
    if draw(st.booleans()):  # symmetric distances
        table = [[table[min(i, j)][max(i, j)] for j in range(n)] for i in range(n)]
    succ = [
        draw(st.integers(1, (1 << n) - 1)) if draw(st.integers(0, 3)) else (1 << n) - 1
        for _ in range(n)
    ]
    weights = [draw(st.sampled_from([1, 1, 2, -1, 0])) for _ in range(n)]
    spans = [draw(st.sampled_from([0, 0, 0, 2])) for _ in range(n)]  # element over variables
    pi = [draw(st.integers(-9, 9)) for _ in range(n)]  # an ascent's start, as after other nodes
    extra = draw(st.integers(-2, 3))
    cap = draw(st.one_of(st.just(float("inf")), st.integers(-40, 150)))
    return table, succ, weights, spans, pi, extra, cap, draw(st.integers(-40, 150))


def single_cycle(p):
    seen, at = set(), 0
    while at not in seen:
        seen.add(at)
        at = p[at]
    return len(seen) == len(p)


@EXAMPLES
@given(tours())
def test_one_tree_bound_is_below_every_tour_and_pruning_keeps_the_tours_within_target(case):
    table, succ, weights, spans, pi, extra, cap, target = case
    n = len(table)
    # variables: succ 0..n-1, then cell (t, k) at n + n*t + k (lo..lo+span), then one extra in 0..1
    D = succ + [((1 << (spans[t] + 1)) - 1) for t in range(n) for _ in range(n)] + [0b11]
    off = [0] * n + [table[t][k] for t in range(n) for k in range(n)] + [0]
    rows = {t: (weights[t], tuple(n + n * t + k for k in range(n))) for t in range(n) if weights[t]}
    ob = OneTreeBound(tuple(range(n)), rows, {n + n * n: extra} if extra else {})
    ob.pi = pi

    def cost(p):
        legs = [w * (table[t][p[t]] + (spans[t] if w < 0 else 0)) for t, w in enumerate(weights)]
        return sum(legs) + min(0, extra)

    tours_ = [
        p
        for p in itertools.permutations(range(n))
        if single_cycle(p) and all(succ[t] >> p[t] & 1 for t in range(n))
    ]
    least = ob.bound(D, off, cap)
    if least is None:
        assert tours_ == []
        return
    assert all(cost(p) >= least for p in tours_)
    queue: set = set()
    kept = ob.prune(D, off, target, queue)
    for p in tours_:
        if cost(p) <= target:
            assert kept and all(D[t] >> p[t] & 1 for t in range(n)), (p, cost(p))
    assert ob.solution(0) is None or succ[0] >> ob.solution(0) & 1


# -- end to end: optimisation with the relaxations, against brute force ----------------------


@st.composite
def linear_optimisations(draw):
    n = draw(st.integers(2, 5))
    lows = [draw(st.integers(-1, 1)) for _ in range(n)]
    highs = [lo + draw(st.integers(0, 3)) for lo in lows]
    rows = []
    for _ in range(draw(st.integers(1, 2))):
        coeffs = [draw(st.integers(-2, 6)) for _ in range(n)]  # mostly a knapsack's weights
        rows.append((coeffs, draw(st.sampled_from(["<=", "<=", "=="])), draw(st.integers(-6, 12))))
    values = [draw(st.integers(-5, 9)) for _ in range(n)]
    sense = draw(st.sampled_from(["min", "max"]))
    if draw(st.booleans()):  # a knapsack: what to pack, within a weight, for the most value
        lows, weights = [0] * n, [draw(st.integers(1, 6)) for _ in range(n)]
        highs = [draw(st.integers(1, 2)) for _ in range(n)]
        capacity = sum(w * h for w, h in zip(weights, highs)) // 2
        rows, values, sense = [(weights, "<=", capacity)], [abs(v) for v in values], "max"
    search = {
        "branching": (branching := draw(st.sampled_from(["enum", "step", "bisect"]))),
        "order": draw(st.sampled_from(["up", "down"] + ["mid"] * (branching != "bisect"))),
    }
    return lows, highs, rows, values, sense, draw(st.booleans()), search


@EXAMPLES
@given(linear_optimisations())
def test_linear_objective_best_first_as_brute_force(case):
    lows, highs, rows, values, sense, through_variable, search = case
    n = len(lows)
    xs = vars(n)
    goals = [fd.in_(x, fd.interval(lo, hi)) for x, lo, hi in zip(xs, lows, highs)]
    goals += [fd.scalar_product(c, xs, op, k) for c, op, k in rows]
    objective = fd.dot(values, xs)
    if through_variable:
        total = var()
        goals.append(total == objective)
        objective = total
    keyword = {"min": "minimize", "max": "maximize"}[sense]
    got = run(0, tuple(xs), *goals, fd.label(xs, **{keyword: objective}, **search))

    def ok(p):
        return all(
            (s <= k if op == "<=" else s == k)
            for c, op, k in rows
            for s in [sum(a * x for a, x in zip(c, p))]
        )

    expected = [
        p for p in itertools.product(*(range(lo, hi + 1) for lo, hi in zip(lows, highs))) if ok(p)
    ]
    assert sorted(got) == sorted(expected)
    worth = [sum(v * x for v, x in zip(values, p)) for p in got]
    assert worth == sorted(worth, reverse=sense == "max")


@st.composite
def multiple_knapsacks(draw):
    n = draw(st.integers(2, 5))
    domains = [draw(st.sets(st.integers(-1, 3), min_size=1, max_size=4)) for _ in range(n)]
    rows = [
        (
            [draw(st.integers(-2, 6)) for _ in range(n)],
            draw(st.sampled_from(["<=", "<=", "=="])),
            draw(st.integers(-2, 12)),
        )
        for _ in range(draw(st.integers(1, 3)))
    ]
    values = [draw(st.integers(-3, 9)) for _ in range(n)]
    order = draw(st.permutations(range(n)))
    return domains, rows, values, order, draw(st.sampled_from(["up", "down"]))


@EXAMPLES
@given(multiple_knapsacks())
def test_several_knapsack_constraints_over_domains_with_holes_best_first_as_brute_force(case):
    best_first_as_brute_force(*case, "max")


def best_first_as_brute_force(domains, rows, values, order, direction, sense):
    """Labeling ``order`` with ``sense`` (``"min"`` / ``"max"``) of ``values . xs`` gives every
    point within ``domains`` that meets ``rows``, best first."""
    xs = vars(len(domains))
    goals = [fd.in_(x, fd.domain(*sorted(d))) for x, d in zip(xs, domains)]
    goals += [fd.scalar_product(c, xs, op, k) for c, op, k in rows]
    keyword = {"min": "minimize", "max": "maximize"}[sense]
    label = fd.label([xs[i] for i in order], order=direction, **{keyword: fd.dot(values, xs)})
    got = run(0, tuple(xs), *goals, label)
    expected = [
        p
        for p in itertools.product(*(sorted(d) for d in domains))
        if all(
            (s == k if op == "==" else s <= k)
            for c, op, k in rows
            for s in [sum(a * x for a, x in zip(c, p))]
        )
    ]
    assert sorted(got) == sorted(expected)
    worth = [sum(v * x for v, x in zip(values, p)) for p in got]
    assert worth == sorted(worth, reverse=sense == "max")


@st.composite
def linked_rows(draw):
    """An objective over a few variables whose bounds come through rows that hold none of them."""
    if draw(st.booleans()):  # a bin packing: items in bins, bins used counted
        items, bins = draw(st.integers(1, 3)), draw(st.integers(1, 3))
        weights, cap = [draw(st.integers(1, 6)) for _ in range(items)], draw(st.integers(4, 8))
        n = items * bins + bins  # x[i][b] item by item, then used[b]
        domains = [{0, 1}] * n
        used = list(range(items * bins, n))
        rows = [
            ([int(j // bins == i) for j in range(items * bins)] + [0] * bins, "==", 1)
            for i in range(items)
        ]
        for b in range(bins):
            load = [weights[j // bins] if j % bins == b else 0 for j in range(items * bins)]
            rows.append((load + [-cap * (u == b) for u in range(bins)], "<=", 0))
        values = [0] * (items * bins) + [draw(st.integers(1, 3)) for _ in range(bins)]
        return domains, rows, values, sorted(range(n), key=lambda j: j in used), "down"
    n = draw(st.integers(3, 5))
    domains = [draw(st.sets(st.integers(-1, 3), min_size=1, max_size=3)) for _ in range(n)]
    costed = draw(st.integers(2, n - 1))  # the objective's variables come first
    rows = [
        (
            [draw(st.integers(-3, 4)) * (j >= costed or draw(st.booleans())) for j in range(n)],
            draw(st.sampled_from(["<=", "<=", "=="])),
            draw(st.integers(-3, 8)),
        )
        for _ in range(draw(st.integers(1, 3)))
    ]
    values = [draw(st.integers(-4, 6)) for _ in range(costed)] + [0] * (n - costed)
    return (
        domains,
        rows,
        values,
        draw(st.permutations(range(n))),
        draw(st.sampled_from(["up", "down"])),
    )


@EXAMPLES
@given(linked_rows())
def test_rows_linked_to_the_objective_through_other_variables_best_first_as_brute_force(case):
    best_first_as_brute_force(*case, "min")


def test_a_bin_packing_has_its_bins_bound_by_the_items_total_at_the_root():
    weights, cap, bins = [60, 58, 58, 51, 46, 41, 40, 38, 34, 26, 23, 18, 17, 14], 100, 6
    x = [vars(bins) for _ in weights]
    used, total = vars(bins), var()
    goals = [fd.in_(*(v for row in x for v in row), *used, fd.interval(0, 1))]
    goals += [fd.sum(row, "==", 1) for row in x]
    goals += [
        fd.scalar_product([*weights, -cap], [*(row[b] for row in x), used[b]], "<=", 0)
        for b in range(bins)
    ]
    goals += [used[b] >= used[b + 1] for b in range(bins - 1)] + [fd.sum(used, "==", total)]
    flat = [v for row in x for v in row]
    label = fd.label(flat + used, order="down", minimize=total)
    (best,) = run(1, total, *goals, label, max_nodes=500)  # the LP over every row: 524 / 100
    assert best == 6


@st.composite
def channelled(draw):
    """Variables ``x`` (a bin packing's bin of each item), rows over reified tests ``x == c`` (for
    every value of ``x``, or some) and over variables ``y`` (the bins used), an objective over
    the ``y`` only, the goals in any order."""
    xs = [sorted(draw(st.sets(st.integers(0, 3), min_size=2, max_size=3))) for _ in range(3)]
    xs = xs[: draw(st.integers(1, 3))]
    ys = [[0, 1]] * draw(st.integers(2, 3))  # an objective of one variable has no LP
    every = [draw(st.booleans()) for _ in xs]
    tests = [(i, c) for i, d in enumerate(xs) for c in d if every[i] or draw(st.booleans())]
    rows = []
    if draw(st.booleans()):  # loads: sum(w_i * (x_i == b)) <= cap * y_b
        weights, cap = [draw(st.integers(1, 4)) for _ in xs], draw(st.integers(2, 6))
        for b in range(len(ys)):
            on = [((i, c), weights[i]) for i, c in tests if c == b]
            rows.append((on, [-cap * (b == k) for k in range(len(ys))], "<=", 0))
    for _ in range(draw(st.integers(0 if rows else 1, 2))):
        on = [(t, draw(st.integers(-2, 4))) for t in tests if draw(st.integers(0, 3))]
        over = [draw(st.integers(-4, 2)) for _ in ys]
        rows.append((on, over, draw(st.sampled_from(["<=", "<=", "=="])), draw(st.integers(-2, 6))))
    values = [draw(st.sampled_from([-2, -1, 1, 2, 3])) for _ in ys]
    sense = draw(st.sampled_from(["minimize", "maximize"]))
    # a cost t[x_0] by element, in the objective (a warehouse's cost of serving a customer)
    table = [draw(st.integers(0, 5)) for _ in range(4)] if draw(st.booleans()) else None
    return xs, ys, rows, values, table, sense, draw(st.randoms(use_true_random=False))


@EXAMPLES
@given(channelled())
def test_rows_over_tests_of_each_value_best_first_as_brute_force(case):
    """The LP takes in ``sum(x == c over every c) == 1`` for a variable whose every value is
    tested, and ``sum(t[c] * (x == c)) == v`` for an ``element`` ``t[x] == v``; where a value
    is not tested, neither: the answers stay brute force's, best first."""
    xdoms, ydoms, rows, values, table, sense, rng = case
    x, y, cost = vars(len(xdoms)), vars(len(ydoms)), var()
    goals = [fd.in_(v, fd.domain(*d)) for v, d in zip([*x, *y], [*xdoms, *ydoms])]
    goals += [
        fd.scalar_product(
            [a for _, a in on] + over, [fd.eq(x[i], c) for (i, c), _ in on] + y, op, k
        )
        for on, over, op, k in rows
    ]
    objective = fd.dot(values, y)
    if table is not None:
        goals.append(fd.element(x[0], table, cost))
        objective = objective + 2 * cost
    rng.shuffle(goals)
    got = run(0, (*x, *y), *goals, fd.label([*x, *y], **{sense: objective}))

    def meets(p):
        px, py = p[: len(x)], p[len(x) :]
        return all(
            (s == k if op == "==" else s <= k)
            for on, over, op, k in rows
            for s in [
                sum(a * (px[i] == c) for (i, c), a in on) + sum(b * v for b, v in zip(over, py))
            ]
        )

    expected = [p for p in itertools.product(*xdoms, *ydoms) if meets(p)]
    assert sorted(got) == sorted(expected)
    worth = [
        sum(v * w for v, w in zip(values, p[len(x) :])) + (2 * table[p[0]] if table else 0)
        for p in got
    ]
    assert worth == sorted(worth, reverse=sense == "maximize")


@st.composite
def choices(draw):
    """Items ``x_i`` each choosing one of a few options, its weight ``s_i[x_i]`` and value
    ``t_i[x_i]`` by ``element`` (a multiple-choice knapsack), rows over weights and values,
    an objective over the values, the goals in any order."""
    n = draw(st.integers(2, 3))
    doms = [sorted(draw(st.sets(st.integers(0, 3), min_size=1, max_size=4))) for _ in range(n)]
    cell = st.integers(-3, 6)
    tables = [([draw(cell) for _ in range(4)], [draw(cell) for _ in range(4)]) for _ in range(n)]
    rows = [
        (
            [draw(st.integers(-2, 3)) for _ in range(n)],
            [draw(st.integers(-2, 2)) for _ in range(n)],
            draw(st.sampled_from(["<=", "<=", "=="])),
            draw(st.integers(-4, 12)),
        )
        for _ in range(draw(st.integers(1, 2)))
    ]
    values = [draw(st.sampled_from([-2, -1, 1, 2, 3])) for _ in range(n)]
    sense = draw(st.sampled_from(["minimize", "maximize"]))
    return doms, tables, rows, values, sense, draw(st.randoms(use_true_random=False))


@EXAMPLES
@given(choices())
def test_two_elements_of_one_index_best_first_as_brute_force(case):
    """The LP takes in the facets of the hull of the points ``(s[c], t[c])`` for ``s[x] == p``
    and ``t[x] == q``: the answers stay brute force's, best first."""
    doms, tables, rows, values, sense, rng = case
    n = len(doms)
    x, w, v = vars(n), vars(n), vars(n)
    goals = [fd.in_(xi, fd.domain(*d)) for xi, d in zip(x, doms)]
    goals += [fd.element(x[i], tables[i][0], w[i]) for i in range(n)]
    goals += [fd.element(x[i], tables[i][1], v[i]) for i in range(n)]
    goals += [fd.scalar_product(a + b, [*w, *v], op, k) for a, b, op, k in rows]
    rng.shuffle(goals)
    got = run(0, tuple(x), *goals, fd.label(x, **{sense: fd.dot(values, v)}))

    def meets(p):
        ws, vs = (
            [tables[i][0][c] for i, c in enumerate(p)],
            [tables[i][1][c] for i, c in enumerate(p)],
        )
        return all(
            (s == k if op == "==" else s <= k)
            for a, b, op, k in rows
            for s in [sum(map(mul, a, ws)) + sum(map(mul, b, vs))]
        )

    expected = [p for p in itertools.product(*doms) if meets(p)]
    assert sorted(got) == sorted(expected)
    worth = [sum(c * tables[i][1][p[i]] for i, c in enumerate(values)) for p in got]
    assert worth == sorted(worth, reverse=sense == "maximize")


def test_a_bin_packing_by_each_items_bin_has_its_bins_bound_by_the_items_total():
    """Loads by reified tests ``bin_i == b``, bins used ``y_b``: the LP knows each item is in
    one bin (``sum(bin_i == b over b) == 1``), so its bound is the items' total over the
    capacity; without that row it is 0 (14 items: over 20 s to 0.012 s)."""
    weights, cap, bins = [60, 58, 58, 51, 46, 41, 40, 38, 34, 26, 23, 18, 17, 14], 100, 7
    where, used = vars(len(weights)), vars(bins)
    goals = [fd.in_(*where, fd.interval(0, bins - 1)), fd.in_(*used, fd.interval(0, 1))]
    goals += [
        fd.scalar_product([*weights, -cap], [*(fd.eq(w, b) for w in where), used[b]], "<=", 0)
        for b in range(bins)
    ]
    label = fd.minimize(fd.dot([1] * bins, used), [*where, *used])
    (best,) = run(1, tuple(used), *goals, label, max_nodes=500)
    assert sum(best) == 6


@st.composite
def routings(draw):
    n = draw(st.integers(2, 5))
    table = [[draw(st.integers(0, 9)) for _ in range(n)] for _ in range(n)]
    if draw(st.booleans()):  # symmetric distances (the 1-tree bound's case)
        table = [[table[min(i, j)][max(i, j)] for j in range(n)] for i in range(n)]
    kind = draw(st.sampled_from(["circuit", "all_distinct", "distinct"]))
    weights = [draw(st.integers(1, 3)) for _ in range(n)]
    extra = draw(st.booleans())
    return table, kind, weights, extra, draw(st.randoms(use_true_random=False))


@EXAMPLES
@given(routings())
def test_element_sum_over_distinct_indices_best_first_as_brute_force(case):
    table, kind, weights, extra, rng = case
    n = len(table)
    succ, legs, other = vars(n), vars(n), var()
    goals = [fd.in_(*succ, fd.interval(0, n - 1)), fd.in_(*legs, fd.interval(0, 9))]
    goals.append(fd.in_(other, fd.interval(0, 2)))
    goals.append(
        {"circuit": fd.circuit, "all_distinct": fd.all_distinct, "distinct": fd.distinct}[kind](
            succ
        )
    )
    goals += [fd.element(s, row, leg) for s, row, leg in zip(succ, table, legs)]
    rng.shuffle(goals)  # in any order
    objective = fd.dot(weights, legs) + (other if extra else 0)
    got = run(0, (*succ, other), *goals, fd.label([*succ, other], minimize=objective))

    expected = [
        (*p, o)
        for p in itertools.permutations(range(n))
        if kind != "circuit" or is_single_cycle(p)
        for o in range(3)
    ]
    assert sorted(got) == sorted(expected)
    cost = [
        sum(w * table[i][p[i]] for i, w in enumerate(weights)) + (p[-1] if extra else 0)
        for p in got
    ]
    assert cost == sorted(cost)


def test_the_fewest_coins_for_an_amount_are_proved_at_the_root_by_the_equality_table():
    """Making an amount exactly: the equality's table is the coin-change dynamic program, so
    its root bound is the optimum (bounds on each constraint alone say 4 coins for 689)."""
    coins = [1, 2, 5, 10, 20, 50, 100, 200]
    for amount in (389, 689, 999):
        fewest = [0] + [amount] * amount  # the textbook dynamic program, to check against
        for r in range(1, amount + 1):
            fewest[r] = 1 + min(fewest[r - c] for c in coins if c <= r)
        xs, count = vars(len(coins)), var()
        goals = [
            *(fd.in_(x, fd.interval(0, amount // c)) for x, c in zip(xs, coins)),
            fd.scalar_product(coins, xs, "==", amount),
            fd.sum(xs, "==", count),
        ]
        [(n, chosen)] = run(1, (count, xs), *goals, fd.label(xs, minimize=count), max_nodes=100)
        assert n == fewest[amount] == sum(chosen)
        assert sum(c * x for c, x in zip(coins, chosen)) == amount


def test_a_strongly_correlated_knapsack_of_100_items_is_solved_by_its_table():
    """Gains = weights + 10 (the LP bound stays above every integer solution): 100 items and
    room 1925 fit a table, which proves the optimum within a few hundred nodes."""
    rng = random.Random(102)
    weights = [rng.randint(10, 60) for _ in range(100)]
    gains = [w + 10 for w in weights]
    room = sum(weights) // 2
    best = [0] * (room + 1)  # the 0/1 knapsack's dynamic program
    for w, g in zip(weights, gains):
        for r in range(room, w - 1, -1):
            best[r] = max(best[r], best[r - w] + g)
    take, total = vars(100), var()
    goals = [
        fd.in_(*take, fd.interval(0, 1)),
        fd.scalar_product(weights, take, "<=", room),
        fd.scalar_product(gains, take, "==", total),
    ]
    [(value, chosen)] = run(
        1, (total, take), *goals, fd.label(take, order="down", maximize=total), max_nodes=2000
    )
    assert value == best[room] == sum(g for g, t in zip(gains, chosen) if t)
    assert sum(w for w, t in zip(weights, chosen) if t) <= room


@st.composite
def priced_knapsacks(draw):
    """A box, an objective and 2-4 linear constraints (``<=``), for the Lagrangian relaxation."""
    n = draw(st.integers(1, 4))
    bounds = [sorted(draw(st.lists(st.integers(-2, 3), min_size=2, max_size=2))) for _ in range(n)]
    cost = {i: draw(st.integers(-6, 6)) for i in range(n)}
    rows = [
        (
            {i: draw(st.integers(-4, 5).filter(bool)) for i in range(n) if draw(st.booleans())}
            or {0: 1},
            draw(st.integers(-6, 12)),
        )
        for _ in range(draw(st.integers(2, 4)))
    ]
    return bounds, cost, rows, draw(st.integers(-25, 25))


@EXAMPLES
@given(priced_knapsacks())
def test_lagrangian_bound_is_below_every_solution_and_pruning_keeps_those_within_target(case):
    bounds, cost, rows, target = case
    D, off = zip(*(bitset(lo, hi) for lo, hi in bounds))
    D, off = list(D), list(off)
    points = [
        p
        for p in itertools.product(*(range(lo, hi + 1) for lo, hi in bounds))
        if all(sum(a * p[i] for i, a in w.items()) <= b for w, b in rows)
    ]
    values = [sum(c * p[i] for i, c in cost.items()) for p in points]
    lagrangian = LagrangianBound([KnapsackBound(cost, w, b) for w, b in rows], D, off)
    bounds_and_keeps(lagrangian, D, off, points, values, target)  # "infeasible": no point


def multiple_knapsack(seed, n, m):
    """``n`` random items (weights 5..40 in each of ``m`` rows, values 10..60), each capacity half
    its row: ``(weights, values, capacities, xs, goals)``, the goals without the labeling."""
    rng = random.Random(seed)
    w = [[rng.randint(5, 40) for _ in range(n)] for _ in range(m)]
    v = [rng.randint(10, 60) for _ in range(n)]
    cap = [sum(r) // 2 for r in w]
    xs = vars(n)
    goals = [fd.in_(*xs, fd.interval(0, 1)), *(fd.dot(r, xs) <= c for r, c in zip(w, cap))]
    return w, v, cap, xs, goals


def test_lagrangian_prices_all_the_constraints_of_a_multiple_knapsack_at_once():
    """50 items, 5 constraints: each knapsack's own table bounds it at 1232 at best, the LP at 1202.6."""
    w, v, cap, xs, goals = multiple_knapsack(4, 50, 5)
    D, off = [0b11] * 50, [0] * 50
    cost = {i: -c for i, c in enumerate(v)}
    kbs = [KnapsackBound(cost, dict(enumerate(r)), c) for r, c in zip(w, cap)]
    assert -LagrangianBound(kbs, D, off).bound(D, off) == 1202
    (best,) = run(1, xs, *goals, fd.label(xs, maximize=fd.dot(v, xs)), max_nodes=60_000)
    assert sum(a * b for a, b in zip(v, best)) == 1191  # CP-SAT's optimum; it took 130,000 nodes


def test_branch_and_bound_branches_on_the_costliest_item_the_lp_leaves_fractional():
    """max 3x + 2y under 2x + 2y <= 3 and 3x + y <= 3: the LP takes x = y = 3/4; listed y
    first, x (the costlier) is chosen; once x is fixed, y; with both fixed, none."""
    cost = {0: -3, 1: -2}
    kbs = [KnapsackBound(cost, {0: 2, 1: 2}, 3), KnapsackBound(cost, {0: 3, 1: 1}, 3)]
    D, off = [0b11, 0b11], [0, 0]
    lp = LagrangianBound(kbs, D, off)
    assert lp.fractional(D, [1, 0]) == 1
    assert lp.fractional([0b01, 0b11], [1, 0]) == 0
    assert lp.fractional([0b01, 0b01], [1, 0]) == -1


@st.composite
def one_knapsack(draw):
    """One ``<=`` constraint over small domains with holes, an objective, a labeling order."""
    n = draw(st.integers(2, 6))
    domains = [draw(st.sets(st.integers(-1, 3), min_size=1, max_size=4)) for _ in range(n)]
    row = [draw(st.integers(-3, 7)) for _ in range(n)]
    values = [draw(st.integers(-3, 9)) for _ in range(n)]
    order = draw(st.permutations(range(n)))
    return domains, row, draw(st.integers(-2, 12)), values, order, draw(st.sampled_from([0, 1]))


@EXAMPLES
@given(one_knapsack())
def test_a_knapsack_whose_table_joins_its_lp_mid_search_answers_as_brute_force(case):
    """The table comes in after ``DEFERRED`` nodes a variable (here 0: from the root, or 1: in the
    middle of the search), and bounds and prunes beside the LP."""
    domains, row, k, values, order, deferred = case
    xs = vars(len(domains))
    goals = [fd.in_(x, fd.domain(*sorted(d))) for x, d in zip(xs, domains)]
    goals.append(fd.scalar_product(row, xs, "<=", k))
    label = fd.label([xs[i] for i in order], maximize=fd.dot(values, xs))
    saved, relaxation.DEFERRED = relaxation.DEFERRED, deferred
    try:
        got = run(0, tuple(xs), *goals, label)
    finally:
        relaxation.DEFERRED = saved
    expected = [
        p
        for p in itertools.product(*(sorted(d) for d in domains))
        if sum(a * x for a, x in zip(row, p)) <= k
    ]
    assert sorted(got) == sorted(expected)
    worth = [sum(v * x for v, x in zip(values, p)) for p in got]
    assert worth == sorted(worth, reverse=True)


@st.composite
def frontier_knapsacks(draw):
    """One ``<=`` row over domains with holes (weights and costs of either sign, some variables
    out of the row or the cost; or a knapsack's: items of 0 or a few copies, positive weights
    and gains), and a target: none, or a value to reach."""
    cap = draw(st.one_of(st.just(inf), st.integers(-40, 30)))
    if draw(st.booleans()):  # a knapsack: the optimum often changes the LP's choice near its break
        n = draw(st.integers(2, 7))
        domains = [[0, *sorted(draw(st.sets(st.integers(1, 6), min_size=1)))] for _ in range(n)]
        weight = {i: draw(st.integers(1, 12)) for i in range(n)}
        cost = {i: -draw(st.integers(1, 12)) for i in range(n)}
        return domains, weight, cost, draw(st.integers(0, 30)), cap
    n = draw(st.integers(1, 6))
    domains = [sorted(draw(st.sets(st.integers(-2, 4), min_size=1, max_size=4))) for _ in range(n)]
    weight = {i: draw(st.integers(-5, 9).filter(bool)) for i in range(n) if draw(st.booleans())}
    cost = {i: draw(st.integers(-7, 7)) for i in range(n) if draw(st.integers(0, 3))}
    if draw(st.booleans()):  # gains proportional to weights (a subset sum): the bounds are tight
        scale = draw(st.sampled_from([1, 2]))
        cost = {i: -scale * a for i, a in weight.items()}
    return domains, weight, cost, draw(st.integers(-10, 20)), cap


@EXAMPLES
@given(frontier_knapsacks())
def test_the_frontiers_best_point_is_the_least_cost_of_the_knapsack_or_none_beats_the_target(case):
    """``best_point`` over the integer points of the domains: the least cost and a point of
    it, ``(cap + 1, None)`` when no point costs at most ``cap``, ``None`` for a cost outside the
    row or a row no point meets at the domains' ends."""
    domains, weight, cost, b, cap = case
    D = [sum(1 << (v + 2) for v in d) for d in domains]
    off = [-2] * len(domains)
    got = best_point(KnapsackBound(cost, weight, b), D, off, cap)
    points = [
        p for p in itertools.product(*domains) if sum(a * p[i] for i, a in weight.items()) <= b
    ]
    if not cost.keys() <= weight.keys() or not points:
        assert got is None or (not points and got == (cap + 1, None))
        return
    assert got is not None
    value = {p: sum(c * p[i] for i, c in cost.items()) for p in points}
    least = min(value.values())
    if least > cap:
        assert got == (cap + 1, None)
        return
    found, point = got
    assert found == least
    full = tuple(point.get(i, domains[i][0]) for i in range(len(domains)))
    assert all(point[i] in domains[i] for i in point)
    assert sum(a * full[i] for i, a in weight.items()) <= b
    assert sum(c * full[i] for i, c in cost.items()) == least


@st.composite
def staged_queries(draw):
    """A knapsack of :func:`frontier_knapsacks`, and nodes (narrower domains) each asked for a
    bound under its own target (by how much it passes the root's least; or none): the first
    near the least or below it, as a search's targets come once it has met a good solution."""
    domains, weight, cost, b, _ = draw(frontier_knapsacks())
    queries = []
    for k in range(draw(st.integers(1, 4))):
        node = [sorted(draw(st.sets(st.sampled_from(d), min_size=1))) for d in domains]
        near = st.integers(-2, 0) if k == 0 else st.one_of(st.just(inf), st.integers(-3, 20))
        queries.append((node, draw(near)))
    return domains, weight, cost, b, queries


@EXAMPLES
@given(staged_queries())
def test_a_deferred_knapsack_bounds_each_node_below_its_points_within_target_through_its_stages(
    case,
):
    """With ``DEFERRED`` 0, the first bound finds the exact least (the frontier's, over the
    root narrowed by that target), the second builds the table (over the root narrowed by its
    target), the next ones read both: at every node whose points reach the target, the bound
    is at most the least of them, and pruning keeps them, whatever the targets before."""
    domains, weight, cost, b, queries = case
    bits = [sum(1 << (v + 2) for v in d) for d in domains]
    off = [-2] * len(domains)
    saved, relaxation.DEFERRED = relaxation.DEFERRED, 0
    try:
        deferred = relaxation.Deferred(KnapsackBound(cost, weight, b), bits, off)
        ask(deferred, domains, weight, cost, b, queries)
    finally:
        relaxation.DEFERRED = saved


def ask(deferred, domains, weight, cost, b, queries):
    """Each query's bound and pruning, checked against the points of its node."""
    off = [-2] * len(domains)
    least_at_root = min(
        (
            sum(c * p[i] for i, c in cost.items())
            for p in itertools.product(*domains)
            if sum(a * p[i] for i, a in weight.items()) <= b
        ),
        default=0,
    )
    for node, near in queries:  # targets near the root's least, or none
        cap = near + least_at_root
        D = [sum(1 << (v + 2) for v in d) for d in node]
        reach = [
            sum(c * p[i] for i, c in cost.items())
            for p in itertools.product(*node)
            if sum(a * p[i] for i, a in weight.items()) <= b
        ]
        reach = [v for v in reach if v <= cap]
        least = deferred.bound(D, off, cap)
        if reach:
            assert least is not None and least <= min(reach), (least, reach)
            if type(cap) is int:
                kept = deferred.prune(D, off, cap, set())
                assert kept and all(
                    D[i] >> (v + 2) & 1
                    for p in itertools.product(*node)
                    for i, v in enumerate(p)
                    if sum(a * p[j] for j, a in weight.items()) <= b
                    and sum(c * p[j] for j, c in cost.items()) <= cap
                )


def test_a_knapsack_table_built_for_one_target_is_not_read_for_a_looser_one():
    """``8 x0 + 2 x1 + 3 x2 <= 8``, the least ``-4 x0 - 7 x2``: the table built under the
    target -23 holds only the values that may reach it (``x2 = 4``), so it would be wrong for
    ``x0 = 0`` under the looser -12 (``x2 = 2`` reaches -14), where the LP bounds alone."""
    domains = [[-1, 0], [1, 2, 3], [0, 1, 2, 4], [-2, 0, 4]]
    off = [-2] * 4

    def bits(ds):
        return [sum(1 << (v + 2) for v in d) for d in ds]

    saved, relaxation.DEFERRED = relaxation.DEFERRED, 0
    try:
        deferred = relaxation.Deferred(
            KnapsackBound({0: -4, 2: -7}, {0: 8, 1: 2, 2: 3}, 8), bits(domains), off
        )
        assert deferred.bound(bits(domains), off) == -24  # the frontier: x0 = -1, x1 = 1, x2 = 4
        assert deferred.point == {0: -1, 1: 1, 2: 4}
        assert deferred.bound(bits(domains), off, -23) == -24
        assert type(deferred.table) is TableBound and deferred.valid == -23
        node = [[0], [1, 2, 3], [0, 1, 2, 4], [-2]]
        assert deferred.bound(bits(node), off, -12) == -14
    finally:
        relaxation.DEFERRED = saved


@st.composite
def side_knapsacks(draw):
    """:func:`one_knapsack`, a side constraint that the knapsack alone does not see (two
    variables apart, or a sum of two capped) and when the search goes on from the LP alone."""
    domains, row, k, values, order, _ = draw(one_knapsack())
    a, b = draw(st.permutations(range(len(domains))))[:2]
    side = draw(st.sampled_from(["apart", "capped", "none"]))
    return domains, row, k, values, order, draw(st.sampled_from([0, 1, 2])), (side, a, b)


@EXAMPLES
@given(side_knapsacks())
def test_a_knapsack_solved_exactly_mid_search_answers_as_brute_force_beside_other_constraints(case):
    """The frontier's exact least joins the LP after ``DEFERRED`` bounds a variable, its point
    is tried over the root (a solution only if the side constraint holds there), the table
    follows; every answer comes, best first, as brute force finds them."""
    domains, row, k, values, order, deferred, (side, a, b) = case
    xs = vars(len(domains))
    goals = [fd.in_(x, fd.domain(*sorted(d))) for x, d in zip(xs, domains)]
    goals.append(fd.scalar_product(row, xs, "<=", k))
    if side == "apart":
        goals.append(fd.ne(xs[a], xs[b]))
    elif side == "capped":
        goals.append(xs[a] + xs[b] <= 1)
    label = fd.label([xs[i] for i in order], maximize=fd.dot(values, xs))
    saved, relaxation.DEFERRED = relaxation.DEFERRED, deferred
    try:
        best = run(1, tuple(xs), *goals, label)
        got = run(0, tuple(xs), *goals, label)
    finally:
        relaxation.DEFERRED = saved

    def holds(p):
        return sum(r * x for r, x in zip(row, p)) <= k and (
            side == "none" or (p[a] != p[b] if side == "apart" else p[a] + p[b] <= 1)
        )

    expected = [p for p in itertools.product(*(sorted(d) for d in domains)) if holds(p)]
    assert sorted(got) == sorted(expected)
    worth = [sum(v * x for v, x in zip(values, p)) for p in got]
    assert worth == sorted(worth, reverse=True)
    assert [sum(v * x for v, x in zip(values, p)) for p in best] == worth[:1]


@pytest.mark.parametrize("kind", ["inverse", "almost"])
def test_a_correlated_knapsack_of_100_items_is_proved_by_its_frontier(kind):
    """Two of Pisinger's classes (gains 1..1000 and weights 100 more; or weights 1..1000 and
    gains 100 more, give or take 2), room half the weights: the LP's bound stays above every
    integer point, and a table would need millions of cells. The frontier's optimum over the
    root is met and proved within a few hundred nodes; in the almost strongly correlated one
    its point is off the node where it is found, and tried over the root (over the node: 10,000
    nodes)."""
    rng = random.Random(1)
    if kind == "inverse":
        gains = [rng.randint(1, 1000) for _ in range(100)]
        weights = [g + 100 for g in gains]
    else:
        weights = [rng.randint(1, 1000) for _ in range(100)]
        gains = [w + 100 + rng.randint(-2, 2) for w in weights]
    room = sum(weights) // 2
    best = [0] * (room + 1)  # the 0/1 knapsack's dynamic program
    for w, g in zip(weights, gains):
        for r in range(room, w - 1, -1):
            best[r] = max(best[r], best[r - w] + g)
    take = vars(100)
    goals = [fd.in_(*take, fd.interval(0, 1)), fd.scalar_product(weights, take, "<=", room)]
    (chosen,) = run(1, tuple(take), *goals, fd.maximize(fd.dot(gains, take), take), max_nodes=600)
    assert sum(g * t for g, t in zip(gains, chosen)) == best[room]
    assert sum(w * t for w, t in zip(weights, chosen)) <= room


def test_a_knapsack_whose_total_is_capped_at_its_lp_bound_is_tabled_at_once():
    """Gains = weights + 10 (30 items): the LP bounds the total by 1005, the optimum is 1003. With
    ``total <= 1005`` stated, the LP alone bounds no better than propagation at the root, so the
    table is built there (the LP alone took over 10 s)."""
    rng = random.Random(1)
    w = [rng.randint(1, 100) for _ in range(30)]
    v = [x + 10 for x in w]
    take, total = vars(30), var()
    goals = [
        fd.in_(*take, fd.interval(0, 1)),
        fd.in_(total, fd.interval(0, 1005)),
        fd.scalar_product(w, take, "<=", sum(w) // 2),
        total == fd.dot(v, take),
    ]
    assert run(1, total, *goals, fd.label(take, order="down", maximize=total), max_nodes=500) == (
        1003,
    )


@st.composite
def choice_tables(draw):
    """Classes with options ``{value: (use, gain)}`` (each with one of use 0), a room, a rest
    term, a node's narrower domains and a target."""
    classes = []
    for x in range(draw(st.integers(1, 4))):
        values = sorted(draw(st.sets(st.integers(0, 3), min_size=1, max_size=4)))
        opts = {c: (draw(st.integers(0, 5)), draw(st.integers(-4, 6))) for c in values}
        free = draw(st.sampled_from(values))
        opts[free] = (0, opts[free][1])
        classes.append((x, opts))
    n = len(classes)
    rest = {n: draw(st.integers(-3, 3).filter(bool))} if draw(st.booleans()) else {}
    root = [sum(1 << c for c in opts) for _, opts in classes] + [0b111]
    node = [d & draw(st.integers(0, 15)) or d & -d for d in root]
    return classes, draw(st.integers(0, 12)), rest, node, draw(st.integers(-20, 8))


@EXAMPLES
@given(choice_tables())
def test_choice_table_bound_is_below_every_choice_at_a_node_and_pruning_keeps_those_within_target(
    case,
):
    """One option per class (the values of its index at the node), the uses within the room:
    the table's bound is below every such choice's cost, and its pruning keeps each choice
    whose cost is within the target."""
    classes, room, rest, D, target = case
    off = [0] * len(D)
    ct = ChoiceTable(classes, room, rest)
    domains = [[c for c in range(4) if D[x] >> c & 1] for x, _ in classes]
    rest_values = [[v for v in range(3) if D[-1] >> v & 1]] if rest else []
    points, values = [], []
    for p in itertools.product(*domains, *rest_values):
        if sum(opts[c][0] for (_, opts), c in zip(classes, p)) <= room:
            gain = sum(opts[c][1] for (_, opts), c in zip(classes, p))
            points.append(p + ((0,) if not rest else ()))
            values.append(-gain + sum(c * p[-1] for c in rest.values()))
    if not rest:  # the rest's variable is not the table's: any of its values stays
        D[-1], points = 1, [p[:-1] + (0,) for p in points]
    bounds_and_keeps(ct, D, off, points, values, target)


@EXAMPLES
@given(choice_tables())
def test_choice_table_bound_is_the_least_cost_once_a_prefix_of_the_classes_is_fixed(case):
    """Every prefix of the classes fixed every way, the others open as at the root: the bound
    is the least cost of a choice that fits (``None`` if none does)."""
    classes, room, _, _, _ = case
    ct = ChoiceTable(classes, room, {})
    root = [sum(1 << c for c in opts) for _, opts in classes]
    for fixed in range(len(classes) + 1):
        for prefix in itertools.product(*(sorted(opts) for _, opts in classes[:fixed])):
            D = [1 << c for c in prefix] + root[fixed:]
            costs = [
                -sum(opts[c][1] for (_, opts), c in zip(classes, p))
                for p in itertools.product(*prefix_or_all(prefix, classes))
                if sum(opts[c][0] for (_, opts), c in zip(classes, p)) <= room
            ]
            assert ct.bound(D, [0] * len(D)) == (min(costs) if costs else None)


def prefix_or_all(prefix, classes):
    """The values each class may take: its fixed one, or any of its options."""
    return [[c] for c in prefix] + [sorted(opts) for _, opts in classes[len(prefix) :]]


@st.composite
def multiple_choices(draw):
    """A multiple-choice knapsack as a user states it: each index ``x_i`` picks a weight and a
    profit by ``element`` (or stands in a row itself), a plain variable beside them, a
    ``<=`` row (two at times), an objective over profits and a term of its own, a labeling
    order, the goals in any order."""
    n = draw(st.integers(1, 3))
    doms = [sorted(draw(st.sets(st.integers(0, 3), min_size=1, max_size=4))) for _ in range(n)]
    cell = st.integers(-2, 6)
    weights = [[draw(cell) for _ in range(4)] for _ in range(n)]
    profits = [[draw(cell) for _ in range(4)] for _ in range(n)]
    rows = [
        (
            [draw(st.integers(-1, 3)) for _ in range(2 * n + 1)],  # weights, indices, the plain one
            draw(st.integers(-2, 14)),
        )
        for _ in range(draw(st.integers(1, 2)))
    ]
    objective = [draw(st.integers(-2, 3)) for _ in range(n + 2)]  # profits, plain, its own
    select = draw(st.sampled_from(["leftmost", "ff", "max"]))
    sense = draw(st.sampled_from(["minimize", "maximize"]))
    return (
        doms,
        weights,
        profits,
        rows,
        objective,
        select,
        sense,
        draw(st.randoms(use_true_random=False)),
    )


@EXAMPLES
@given(multiple_choices())
def test_a_multiple_choice_knapsack_by_element_best_first_as_brute_force(case):
    """The choice table (with the LP, or alone) keeps every answer, best first, whatever the
    labeling's order fixes first."""
    doms, weights, profits, rows, objective, select, sense, rng = case
    n = len(doms)
    x, w, p, plain, own = vars(n), vars(n), vars(n), var(), var()
    goals = [fd.in_(xi, fd.domain(*d)) for xi, d in zip(x, doms)]
    goals += [fd.in_(plain, fd.interval(0, 2)), fd.in_(own, fd.interval(-1, 1))]
    goals += [fd.element(x[i], weights[i], w[i]) for i in range(n)]
    goals += [fd.element(x[i], profits[i], p[i]) for i in range(n)]
    goals += [fd.scalar_product(a, [*w, *x, plain], "<=", k) for a, k in rows]
    rng.shuffle(goals)
    target = fd.dot(objective, [*p, plain, own])
    got = run(
        0, (*x, plain, own), *goals, fd.label([*x, plain, own], select=select, **{sense: target})
    )

    def worth(q):
        return sum(
            c * v for c, v in zip(objective, [*(profits[i][q[i]] for i in range(n)), *q[n:]])
        )

    def meets(q):
        ws = [weights[i][q[i]] for i in range(n)]
        return all(sum(map(mul, a, [*ws, *q])) <= k for a, k in rows)

    expected = [q for q in itertools.product(*doms, range(3), range(-1, 2)) if meets(q)]
    assert sorted(got) == sorted(expected)
    found = [worth(q) for q in got]
    assert found == sorted(found, reverse=sense == "maximize")


def test_a_multiple_choice_knapsack_is_proved_by_its_table_in_few_nodes():
    """30 items of 5 options (weights 1..40, profits 1..60, a third of the heaviest choices'
    weight as room): the table's bound is exact at the root and its completion guides the
    labeling, so the optimum is met and proved in a few hundred nodes (the LP alone took
    thousands)."""
    r = random.Random(1)
    n, k = 30, 5
    W = [[0, *sorted(r.randint(1, 40) for _ in range(k - 1))] for _ in range(n)]
    V = [[0, *sorted(r.randint(1, 60) for _ in range(k - 1))] for _ in range(n)]
    x, w, v = vars(n), vars(n), vars(n)
    goals = [fd.in_(*x, fd.interval(0, k - 1))]
    for i in range(n):
        goals += [fd.element(x[i], W[i], w[i]), fd.element(x[i], V[i], v[i])]
    goals.append(fd.sum(w, "<=", sum(max(row) for row in W) // 3))
    (best,) = run(1, tuple(x), *goals, fd.maximize(fd.dot([1] * n, v), x), max_nodes=400)
    assert sum(V[i][c] for i, c in enumerate(best)) == 828


@st.composite
def filled_knapsacks(draw):
    """Items of ``0..m`` copies under 2-3 ``<=`` rows (weights of either sign, mostly positive), a
    gain each, and a point within the rows: ``(highs, gains, rows, point)``."""
    n = draw(st.integers(1, 6))
    highs = [draw(st.integers(1, 3)) for _ in range(n)]
    gains = [draw(st.integers(-2, 9)) for _ in range(n)]
    rows = [
        (
            {i: draw(st.integers(-2, 9).filter(bool)) for i in range(n)},
            draw(st.integers(0, 20)),
        )
        for _ in range(draw(st.integers(2, 3)))
    ]
    point = [draw(st.integers(0, h)) for h in highs]
    return highs, gains, rows, point


def _meets(rows, point):
    return all(sum(a * point[i] for i, a in w.items()) <= b for w, b in rows)


@EXAMPLES
@given(filled_knapsacks())
def test_a_filled_guess_and_its_better_neighbours_keep_the_rows_and_cost_less(case):
    """A point filled (the rounded LP's guess) stays within the bounds and the rows and costs
    no more; a neighbour the hill climb finds is a point of the rows that costs less."""
    highs, gains, rows, point = case
    n = len(highs)
    cost = {i: -g for i, g in enumerate(gains)}
    D, off = [(1 << h + 1) - 1 for h in highs], [0] * n
    lagrangian = LagrangianBound([KnapsackBound(cost, w, b) for w, b in rows], D, off)
    if not lagrangian.fill or not _meets(rows, point):
        return
    lagrangian.bound(D, off)

    def total(p):
        return sum(c * p[i] for i, c in cost.items())

    start = dict(enumerate(point))
    filled = lagrangian._filled(dict(start), lagrangian.ends)
    assert all(0 <= filled[i] <= highs[i] for i in range(n))
    assert _meets(rows, filled) and total(filled) <= total(start)
    better = lagrangian.improved(dict(start))
    if better is not None:
        assert all(0 <= better[i] <= highs[i] for i in range(n))
        assert _meets(rows, better) and total(better) < total(start)


@EXAMPLES
@given(filled_knapsacks(), st.randoms(use_true_random=False))
def test_multidimensional_knapsacks_maximised_as_brute_force_in_any_goal_order(case, rng):
    """Branch and bound over several rows (guesses filled and climbed) proves the brute-force
    optimum, whichever order the goals come in."""
    highs, gains, rows, _ = case
    xs = vars(len(highs))
    goals = [fd.in_(x, fd.interval(0, h)) for x, h in zip(xs, highs)]
    goals += [fd.dot([w.get(i, 0) for i in range(len(xs))], xs) <= b for w, b in rows]
    rng.shuffle(goals)
    points = [
        p
        for p in itertools.product(*(range(h + 1) for h in highs))
        if _meets(rows, dict(enumerate(p)))
    ]
    expected = max((sum(map(mul, gains, p)) for p in points), default=None)
    found = run(1, xs, *goals, fd.label(xs, maximize=fd.dot(gains, xs)))
    if expected is None:
        assert found == ()
    else:
        (best,) = found
        assert _meets(rows, dict(enumerate(best))) and sum(map(mul, gains, best)) == expected
