"""Random small CSPs: ``run_all`` must equal brute force, in any goal order, with pins anywhere."""

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from relqueens import eq, fd, run_all, vars
from relqueens.fd import domain_of
from relqueens.fd.evaluate import COMPARE

OPS = COMPARE  # Python's comparison operators, by name
VALUES = st.integers(-6, 6)


@st.composite
def csps(draw):
    """A list of (goal builder, python predicate) pairs and the variable count."""
    n = draw(st.integers(2, 5))
    items = []  # (make_goal(vs), check(values) or None, domain info)
    domains = []
    for i in range(n):
        vals = draw(st.sets(VALUES, min_size=1, max_size=8))
        domains.append(vals)
        items.append(("in", i, vals))
    extra_in = draw(
        st.lists(st.tuples(st.integers(0, n - 1), st.sets(VALUES, min_size=1)), max_size=2)
    )
    for i, vals in extra_in:
        domains[i] = domains[i] & vals
        items.append(("in", i, vals))
    idx = st.integers(0, n - 1)
    constraint = st.one_of(
        st.tuples(
            st.just("rel"),
            idx,
            st.integers(-3, 3),
            st.sampled_from(list(OPS)),
            idx,
            st.integers(-3, 3),
        ),
        st.tuples(st.just("const"), idx, st.sampled_from(list(OPS)), VALUES),
        st.tuples(
            st.just("distinct"),
            st.lists(st.tuples(idx, st.integers(-2, 2)), min_size=2, max_size=4),
        ),
        st.tuples(st.just("plus"), idx, idx, idx),
        st.tuples(
            st.just("times"),
            idx,
            idx,
            st.one_of(idx.map(lambda i: ("v", i)), VALUES.map(lambda c: ("c", c))),
        ),
        st.tuples(
            st.just("lin"),
            st.lists(st.tuples(st.integers(-3, 3), idx), min_size=1, max_size=4),
            st.sampled_from(["==", "<=", "!=", ">="]),
            st.integers(-8, 8),
        ),
        st.tuples(st.just("pin"), idx, st.integers(-7, 7)),
        st.tuples(
            st.just("lex"),
            st.lists(
                st.tuples(idx, st.sampled_from([1, -1]), st.integers(-2, 2)), min_size=1, max_size=3
            ),
            st.lists(
                st.tuples(idx, st.sampled_from([1, -1]), st.integers(-2, 2)), min_size=3, max_size=3
            ),
        ),
        st.tuples(
            st.just("leader"),
            st.lists(
                st.tuples(idx, st.sampled_from([1, -1]), st.integers(-2, 2)), min_size=2, max_size=2
            ),
            st.lists(
                st.lists(
                    st.tuples(idx, st.sampled_from([1, -1]), st.integers(-2, 2)),
                    min_size=2,
                    max_size=2,
                ),
                min_size=1,
                max_size=3,
            ),
        ),
        st.tuples(
            st.just("inverse"),
            st.lists(idx, min_size=1, max_size=3),
            st.lists(idx, min_size=3, max_size=3),
        ),
        st.tuples(st.just("alias"), idx, idx),
    )
    items += draw(st.lists(constraint, max_size=5))
    order = draw(st.permutations(range(len(items))))
    return n, [items[k] for k in order], domains


def build(item, vs):
    kind = item[0]
    if kind == "in":
        _, i, vals = item
        return fd.in_(vs[i], domain_of(vals)), lambda a: a[i] in vals
    if kind == "rel":
        _, i, ci, op, j, cj = item
        rel = {"==": fd.eq, "!=": fd.ne, "<": fd.lt, "<=": fd.le, ">": fd.gt, ">=": fd.ge}[op]
        return rel(vs[i] + ci, vs[j] + cj), lambda a: OPS[op](a[i] + ci, a[j] + cj)
    if kind == "const":
        _, i, op, c = item
        goal = {"==": fd.eq, "!=": fd.ne, "<": fd.lt, "<=": fd.le, ">": fd.gt, ">=": fd.ge}[op](
            vs[i], c
        )
        return goal, lambda a: OPS[op](a[i], c)
    if kind == "distinct":
        _, terms = item
        goal = fd.distinct([vs[i] + c for i, c in terms])
        return goal, lambda a: len({a[i] + c for i, c in terms}) == len(terms)
    if kind == "plus":
        _, i, j, k = item
        return fd.plus(vs[i], vs[j], vs[k]), lambda a: a[i] + a[j] == a[k]
    if kind == "times":
        _, i, j, (zk, z) = item
        zt = vs[z] if zk == "v" else z
        return fd.times(vs[i], vs[j], zt), lambda a: a[i] * a[j] == (a[z] if zk == "v" else z)
    if kind == "lin":
        _, terms, op, k = item
        expr = fd.dot([c for c, _ in terms], [vs[i] for _, i in terms])
        goal = {"==": expr == k, "<=": expr <= k, "!=": expr != k, ">=": expr >= k}[op]
        return goal, lambda a: OPS[op](sum(c * a[i] for c, i in terms), k)
    if kind == "lex":
        _, xs, ys = item
        ys = ys[: len(xs)]
        term = lambda i, a, c: vs[i] * a + c
        goal = fd.lex_le([term(*t) for t in xs], [term(*t) for t in ys])
        value = lambda a, t: t[1] * a[t[0]] + t[2]
        return goal, lambda a: [value(a, t) for t in xs] <= [value(a, t) for t in ys]
    if kind == "leader":
        _, xs, yss = item
        term = lambda i, a, c: vs[i] * a + c
        value = lambda a, t: t[1] * a[t[0]] + t[2]
        goal = fd.lex_leader([term(*t) for t in xs], [[term(*t) for t in ys] for ys in yss])
        return goal, lambda a: all(
            [value(a, t) for t in xs] <= [value(a, t) for t in ys] for ys in yss
        )
    if kind == "inverse":
        _, xs, ys = item
        ys = ys[: len(xs)]
        m = len(xs)

        def check(a):
            return all(0 <= a[i] < m for i in xs + ys) and all(
                (a[xs[r]] == c) == (a[ys[c]] == r) for r in range(m) for c in range(m)
            )

        return fd.inverse([vs[i] for i in xs], [vs[i] for i in ys]), check
    if kind == "pin":
        _, i, v = item
        return eq(vs[i], v), lambda a: a[i] == v
    _, i, j = item  # alias
    return eq(vs[i], vs[j]), lambda a: a[i] == a[j]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(csps())
def test_run_all_equals_brute_force(csp):
    n, items, domains = csp
    vs = vars(n)
    built = [build(item, vs) for item in items]
    goals = [g for g, _ in built]
    checks = [c for _, c in built]
    expected = sorted(
        a for a in itertools.product(*(sorted(d) for d in domains)) if all(c(a) for c in checks)
    )
    got = run_all(tuple(vs), *goals)
    assert sorted(got) == expected  # sound, complete, and no duplicates
