"""Reified linear relations whose 0/1 is fixed once posted: the labeling posts them as the plain
relations they then are (:func:`relqueens.fd.implied.decided_relations`), for branch and bound's
relaxations, the knapsacks and the equalities to read. Checked against brute force on models
with more combinations than a labeling searches before any analysis (:data:`FEW`), and a
knapsack whose capacity is reified against the same knapsack stated plainly."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st
from test_fd_property import SETTINGS, assert_same_answers, brute, run, shuffled

from relqueens import eq, fd, vars
from relqueens.fd.labeling import FEW

OPS = {
    "==": lambda s, c: s == c,
    "!=": lambda s, c: s != c,
    "<=": lambda s, c: s <= c,
    "<": lambda s, c: s < c,
    ">=": lambda s, c: s >= c,
}


@st.composite
def decided_models(draw):
    """Four to five variables over 0..4 (past FEW combinations), one or two reified relations
    ``b == (a . x op c)`` with ``b`` fixed by its domain, by ``eq`` or ``fd.eq``, before or
    after them, and now and then a plain relation; the order of the goals drawn."""
    n = draw(st.integers(4, 5))
    items = [("in", i) for i in range(n)]
    for _ in range(draw(st.integers(1, 2))):
        picked = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n, unique=True))
        terms = tuple((i, draw(st.integers(-3, 3).filter(bool))) for i in picked)
        rel = (terms, draw(st.sampled_from(sorted(OPS))), draw(st.integers(-6, 10)))
        value = draw(st.integers(0, 1))
        how = draw(st.sampled_from(["domain", "eq", "fd.eq"]))
        items.append(("reified", rel, value, how))
    if draw(st.booleans()):
        items.append(("plain", tuple(range(n)), draw(st.integers(4, 12))))
    select = draw(st.sampled_from(["leftmost", "ff"]))
    objective = draw(st.none() | st.lists(st.integers(-4, 4), min_size=n, max_size=n))
    return n, shuffled(draw, items), select, objective


def build(n, items):
    xs, goals, checks = vars(n), [], []
    for item in items:
        if item[0] == "in":
            goals.append(fd.in_(xs[item[1]], fd.interval(0, 4)))
        elif item[0] == "plain":  # the sum at most c
            _, ids, c = item
            goals.append(fd.sum([xs[i] for i in ids], "<=", c))
            checks.append(lambda a, ids=ids, c=c: sum(a[i] for i in ids) <= c)
        else:
            _, (terms, op, c), value, how = item
            (b,) = vars(1)
            s = sum((a * xs[i] for i, a in terms[1:]), terms[0][1] * xs[terms[0][0]])
            rel = {"==": s == c, "!=": s != c, "<=": s <= c, "<": s < c, ">=": s >= c}[op]
            pin = {"domain": fd.in_(b, fd.interval(value, value)), "eq": eq(b, value)}
            pin = pin.get(how, fd.eq(b, value))
            goals += [fd.in_(b, fd.interval(0, 1)), fd.reify(rel, b), pin]
            holds = OPS[op]
            checks.append(
                lambda a, terms=terms, c=c, value=value, holds=holds: (
                    holds(sum(k * a[i] for i, k in terms), c) == bool(value)
                )
            )
    return xs, goals, checks


@SETTINGS
@given(decided_models())
def test_reified_relations_decided_by_a_fixed_flag_equal_brute_force(model):
    n, items, select, objective = model
    assert 5**n > FEW  # the labeling's root analyses run
    xs, goals, checks = build(n, items)
    expected = brute([range(5)] * n, checks)
    if objective is None:
        got = run(0, tuple(xs), *goals, fd.label(xs, select=select))
        assert_same_answers(got, expected)
        return
    cost = sum((k * x for k, x in zip(objective[1:], xs[1:])), objective[0] * xs[0])
    got = run(1, tuple(xs), *goals, fd.label(xs, select=select, minimize=cost))
    if not expected:
        assert got == ()
        return
    (best,) = got
    assert tuple(best) in set(expected)
    value = sum(k * v for k, v in zip(objective, best))
    assert value == min(sum(k * v for k, v in zip(objective, a)) for a in expected)


def knapsack(items, reified):
    rng = random.Random(items)
    weights = [rng.randint(5, 60) for _ in range(items)]
    values = [max(1, w + rng.randint(-4, 12)) for w in weights]
    xs, (b,) = vars(items), vars(1)
    capacity = fd.scalar_product(weights, xs, "<=", sum(weights) // 2)
    goals = [fd.in_(*xs, b, fd.interval(0, 1))]
    goals += [fd.reify(capacity, b), fd.eq(b, 1)] if reified else [capacity]
    total = sum((v * x for v, x in zip(values[1:], xs[1:])), values[0] * xs[0])
    return xs, [*goals, fd.label(xs, order="down", maximize=total)], values


def test_a_knapsack_whose_capacity_is_reified_and_then_fixed_searches_as_the_plain_one():
    """24 items: the capacity reified, its 0/1 fixed to 1 after it, took 15 s (its row was no
    knapsack's for branch and bound); now the plain knapsack's few hundred nodes."""
    best = []
    for reified in (False, True):
        xs, goals, values = knapsack(24, reified)
        ((packing),) = run(1, tuple(xs), *goals, max_nodes=1_000)
        best.append(sum(v * x for v, x in zip(values, packing)))
    assert best[0] == best[1]


def test_branch_and_bound_by_max_or_min_labels_the_objective_last():
    """The objective, whose bounds are the widest, was the first variable ``max`` chose, its
    values tried one by one: a knapsack of 9 items minimised took 1,900 nodes by ``max`` and
    ``down``, 28 by ``leftmost``."""
    weights = ([12, 7, 11, 19, 1, 17, 27, 29, 20], [16, 4, 9, 14, 30, 7, 30, 16, 10])
    values = [39, 23, 4, 32, 21, 17, -2, 24, 24]
    for select in ("max", "min", "leftmost"):
        xs = vars(9)
        goals = [fd.in_(*xs, fd.interval(0, 1))]
        goals += [fd.scalar_product(w, xs, "<=", c) for w, c in zip(weights, (71, 81))]
        goals += [xs[4] <= xs[5], xs[0] <= xs[3], xs[6] + xs[0] <= 1, xs[2] + xs[5] <= 1]
        cost = fd.dot(values, xs)
        label = fd.label(xs, select=select, order="down", minimize=cost)
        ((best),) = run(1, tuple(xs), *goals, label, max_nodes=200)
        assert sum(v * x for v, x in zip(values, best)) == -2
