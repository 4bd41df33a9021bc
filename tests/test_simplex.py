"""The dual simplex behind the LP bound: optimal by strong duality, warm-started node to node."""

import itertools

from hypothesis import given
from hypothesis import strategies as st
from test_relaxation import EXAMPLES, bitset, bounds_and_keeps, multiple_knapsack

from relqueens import fd, run
from relqueens.fd.relaxation import KnapsackBound, LagrangianBound
from relqueens.fd.simplex import DualSimplex

TOLERANCE = 1e-6


@st.composite
def programs(draw):
    """An LP ``min c x, A x <= b`` (some rows ``==``) over a box, and 1-4 boxes, each within the
    one before."""
    n = draw(st.integers(1, 8))
    cost = {i: draw(st.integers(-6, 6)) for i in range(n)}
    rows = [
        (
            {i: draw(st.integers(-4, 5).filter(bool)) for i in range(n) if draw(st.booleans())}
            or {0: 1},
            draw(st.integers(-6, 14)),
        )
        for _ in range(draw(st.integers(1, 5)))
    ]
    equal = {k for k in range(len(rows)) if draw(st.integers(0, 3)) == 0}
    box = [sorted(draw(st.lists(st.integers(-3, 3), min_size=2, max_size=2))) for _ in range(n)]
    boxes = [box]
    for _ in range(draw(st.integers(0, 3))):  # a child node: one bound moved in
        box = [b[:] for b in box]
        i = draw(st.integers(0, n - 1))
        lo, hi = box[i]
        v = draw(st.integers(lo, hi))
        box[i] = [v, hi] if draw(st.booleans()) else [lo, v]
        boxes.append(box)
    return cost, rows, equal, boxes


def meets(rows, equal, x, tolerance=0):
    """Whether point ``x`` meets every row (within ``tolerance``)."""
    return all(
        abs(s - b) <= tolerance if k in equal else s <= b + tolerance
        for k, (w, b) in enumerate(rows)
        for s in [sum(a * x[i] for i, a in w.items())]
    )


def dual_value(cost, rows, prices, box):
    """The Lagrangian at ``prices``: a lower bound on the LP for any prices ``>= 0`` (an
    equality's of either sign)."""
    total = -sum(p * b for p, (_, b) in zip(prices, rows))
    for i, (lo, hi) in enumerate(box):
        r = cost.get(i, 0) + sum(p * w.get(i, 0) for p, (w, _) in zip(prices, rows))
        total += min(r * lo, r * hi)
    return total


@EXAMPLES
@given(programs())
def test_each_solve_is_optimal_by_strong_duality_or_refuted_by_its_ray(case):
    cost, rows, equal, boxes = case
    lp = DualSimplex(cost, rows, equal)
    for box in boxes:  # one object: each solve starts from the basis the last one left
        solved = lp.solve([lo for lo, _ in box], [hi for _, hi in box])
        assert all(p >= 0 for k, p in enumerate(lp.prices) if k not in equal)
        if solved:
            x = dict(zip(lp.variables, lp.values))
            assert all(lo - TOLERANCE <= x[i] <= hi + TOLERANCE for i, (lo, hi) in enumerate(box))
            assert meets(rows, equal, x, TOLERANCE)
            primal = sum(c * x[i] for i, c in cost.items())
            assert abs(primal - dual_value(cost, rows, lp.prices, box)) < TOLERANCE
        else:
            assert lp.ray is not None  # these programs are small: never out of pivots
            assert all(m >= 0 for k, m in enumerate(lp.ray) if k not in equal)
            least = sum(
                min(a * lo, a * hi)
                for i, (lo, hi) in enumerate(box)
                for a in [sum(m * w.get(i, 0) for m, (w, _) in zip(lp.ray, rows))]
            )
            assert least > sum(m * b for m, (_, b) in zip(lp.ray, rows)) + TOLERANCE
            points = itertools.product(*(range(lo, hi + 1) for lo, hi in box))
            assert not any(meets(rows, equal, p) for p in points)


@EXAMPLES
@given(programs(), st.integers(-25, 25))
def test_the_lp_bound_warm_started_from_node_to_node_is_below_every_solution(case, target):
    cost, rows, equal, boxes = case
    D, off = zip(*(bitset(lo, hi) for lo, hi in boxes[0]))
    halves = []
    for k, (w, b) in enumerate(rows):
        halves.append(half := KnapsackBound(cost, w, b, equal=k in equal))
        if k in equal:
            halves.append(KnapsackBound(cost, {i: -a for i, a in w.items()}, -b, mirror=half))
    lagrangian = LagrangianBound(halves, list(D), list(off))
    for box in boxes:
        D, off = zip(*(bitset(lo, hi) for lo, hi in box))
        D, off = list(D), list(off)
        points = [
            p
            for p in itertools.product(*(range(lo, hi + 1) for lo, hi in box))
            if meets(rows, equal, p)
        ]
        values = [sum(c * p[i] for i, c in cost.items()) for p in points]
        bounds_and_keeps(lagrangian, D, off, points, values, target)


def test_the_lp_at_every_node_proves_a_multiple_knapsack_in_few_nodes():
    """50 items, 5 constraints (seed 2): 25,774 nodes with the root's multipliers, 976 with the LP's."""
    w, v, cap, xs, goals = multiple_knapsack(2, 50, 5)
    (best,) = run(1, xs, *goals, fd.label(xs, maximize=fd.dot(v, xs)), max_nodes=3_000)
    assert sum(a * b for a, b in zip(v, best)) == 1194  # CP-SAT's optimum
    assert all(sum(a * b for a, b in zip(r, best)) <= c for r, c in zip(w, cap))


def test_a_node_limit_carries_the_best_so_far_and_the_optimum_once_it_is_proved():
    """At every node limit, ``.best`` is a solution no worse than at the limit before; past the
    proof (while the answers are searched again in the labeling's order) it is the optimum."""
    from relqueens.logic.limits import SearchLimit

    w, v, cap, xs, goals = multiple_knapsack(3, 12, 3)
    label = fd.label(xs, maximize=fd.dot(v, xs))
    (optimum,) = run(1, xs, *goals, label)
    worths = []
    for limit in itertools.count(1):
        try:
            run(1, xs, *goals, label, max_nodes=limit)
            break
        except SearchLimit as e:
            if e.best is not None:
                assert all(sum(a * b for a, b in zip(r, e.best)) <= c for r, c in zip(w, cap))
                worths.append(sum(a * b for a, b in zip(v, e.best)))
            else:
                assert not worths  # none found yet
    assert worths == sorted(worths) and worths[-1] == sum(a * b for a, b in zip(v, optimum))
