"""Sums over distinct variables (:class:`~relqueens.fd.propagators.DistinctSum`): one call against the rule it states.

The propagator reads the sums of the smallest and the largest ranks of the
union of the open domains off tables of bit windows (a loop when the window
holds too few bits); these tests take values far apart (unions wider than a
window, sparse ones) and members at different offsets, and check one call
against the rule computed plainly from value sets, and whole models against
brute force in any goal order.
"""

from __future__ import annotations

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from relqueens import fd, run, vars
from relqueens.fd import Domain
from relqueens.fd.propagators import DistinctSum, _highest, _lowest, _mirror

SETTINGS = settings(
    max_examples=300, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)

values = st.integers(-12, 40)


@SETTINGS
@given(st.sets(st.integers(0, 70), min_size=1, max_size=12), st.data())
def test_lowest_and_highest_ranks_are_sums_of_sorted_ranks(positions, data):
    union = sum(1 << p for p in positions)
    ranks = sorted(p + 1 for p in positions)
    m = data.draw(st.integers(1, len(ranks)))
    assert _lowest(union, m) == (sum(ranks[:m]), sum(ranks[: m - 1]))
    assert _highest(union, m) == (sum(ranks[-m:]), sum(ranks[len(ranks) - m + 1 :]))


@SETTINGS
@given(st.sets(st.integers(0, 80), max_size=20), st.integers(-5, 120))
def test_mirror_maps_each_position_to_total_minus_it(positions, total):
    mirrored = _mirror(sum(1 << p for p in positions), total)
    assert mirrored == sum(1 << total - p for p in positions if total - p >= 0)


def rule(domains, a, k, op):
    """The domains one call leaves for ``sum(a * x) + k op 0`` over distinct ``x`` (``None``: it fails)."""
    done = sum(min(d) for d in domains if len(d) == 1)
    opens = [d for d in domains if len(d) > 1]
    inf = float("inf")
    if op == "==":
        if k % a:
            return None
        top = bottom = -k // a - done
    elif a > 0:
        top, bottom = -k // a - done, -inf
    else:
        top, bottom = inf, -(k // a) - done
    if not opens:
        return domains if bottom <= 0 <= top else None
    if len(opens) < 3 and top == bottom:
        return exact(domains, top)
    union = sorted(set().union(*opens))
    m = len(opens)
    if len(union) < m:
        return None
    least, most = sum(min(d) for d in opens), sum(max(d) for d in opens)
    if max(least, sum(union[:m])) > top or min(most, sum(union[-m:])) < bottom:
        return None
    fewer, more = sum(union[: m - 1]), sum(union[len(union) - m + 1 :])
    out = []
    for d in domains:
        if len(d) > 1:
            up = top - max(least - min(d), fewer)
            down = bottom - min(most - max(d), more)
            d = {v for v in d if down <= v <= up}
            if not d:
                return None
        out.append(d)
    return out


def exact(domains, total):
    """One or two open domains whose values sum to ``total``: the values with a distinct partner."""
    opens = [i for i, d in enumerate(domains) if len(d) > 1]
    out = list(domains)
    if len(opens) == 1:
        (i,) = opens
        out[i] = domains[i] & {total}
    else:
        i, j = opens
        out[i] = {v for v in domains[i] if total - v in domains[j] and total - v != v}
        out[j] = {v for v in domains[j] if total - v in out[i]}
    return None if not out[i] else out


@st.composite
def one_sum(draw):
    """Domains far apart (at offsets of their own) and a sum over them with coefficient +-1."""
    n = draw(st.integers(2, 6))
    pool = draw(st.lists(values, min_size=n, max_size=14, unique=True))
    domains = [draw(st.sets(st.sampled_from(pool), min_size=1, max_size=6)) for _ in range(n)]
    offsets = [min(d) - draw(st.integers(0, 3)) for d in domains]
    a = draw(st.sampled_from([1, 1, -1]))
    op = draw(st.sampled_from(["==", "==", "<="]))
    k = draw(st.integers(-60, 60))
    return domains, offsets, a, k, op


@SETTINGS
@given(one_sum())
def test_one_call_follows_the_rule(model):
    domains, offsets, a, k, op = model
    terms = tuple((j, a) for j in range(len(domains)))
    D = [sum(1 << v - o for v in d) for d, o in zip(domains, offsets)]
    ok = DistinctSum(terms, k, op, offsets).propagate(D, offsets, set(), 0)
    expected = rule(domains, a, k, op)
    got = [set(Domain(d, o)) for d, o in zip(D, offsets)] if ok else None
    assert got == expected


@st.composite
def distinct_sum_models(draw):
    """A ``distinct`` group and sums over its members with values far apart, goals in any order."""
    n = draw(st.integers(3, 5))
    pool = draw(st.lists(values, min_size=n, max_size=9, unique=True))
    domains = [draw(st.sets(st.sampled_from(pool), min_size=1, max_size=5)) for _ in range(n)]
    items = [("in", i) for i in range(n)] + [("distinct",)]
    for _ in range(draw(st.integers(1, 2))):
        xs = draw(st.lists(st.integers(0, n - 1), min_size=2, max_size=n, unique=True))
        op = draw(st.sampled_from(["==", "==", "<=", ">=", "<", ">", "!="]))
        items.append(("sum", tuple(xs), op, draw(st.integers(-20, 90))))
    order = draw(st.permutations(range(len(items))))
    return domains, [items[i] for i in order]


OPS = {
    "==": lambda s, k: s == k,
    "<=": lambda s, k: s <= k,
    ">=": lambda s, k: s >= k,
    "<": lambda s, k: s < k,
    ">": lambda s, k: s > k,
    "!=": lambda s, k: s != k,
}


@SETTINGS
@given(distinct_sum_models())
def test_models_equal_brute_force(model):
    domains, items = model
    xs = vars(len(domains))
    goals = []
    for item in items:
        if item[0] == "in":
            goals.append(fd.in_(xs[item[1]], fd.domain(*sorted(domains[item[1]]))))
        elif item[0] == "distinct":
            goals.append(fd.distinct(xs))
        else:
            _, members, op, k = item
            goals.append(fd.sum([xs[i] for i in members], op, k))
    got = run(0, tuple(xs), *goals, fd.label(xs))
    expected = [
        assignment
        for assignment in itertools.product(*(sorted(d) for d in domains))
        if len(set(assignment)) == len(assignment)
        and all(
            OPS[item[2]](sum(assignment[i] for i in item[1]), item[3])
            for item in items
            if item[0] == "sum"
        )
    ]
    assert sorted(got) == expected
