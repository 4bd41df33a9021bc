"""Differences: sums of distinct ones (DifferenceSums) and relations between them posted as
variables, checked by brute force."""

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from relqueens import fd, run_all, vars
from relqueens.fd.differences import DifferenceSums
from relqueens.fd.post import post_into
from relqueens.fd.propagators import DifferenceOf
from relqueens.fd.store import fd_state, store_of

EXAMPLES = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def chains(draw):
    """A chain's members' domains (bitsets over -2..5) and the sum's (over -6..17)."""
    k = draw(st.integers(1, 4))
    members = [draw(st.integers(1, 255)) for _ in range(k)]
    return members, draw(st.integers(1, (1 << 24) - 1))


@EXAMPLES
@given(chains())
def test_a_chain_keeps_every_sum_of_different_member_values(case):
    members, total = case
    n = len(members)
    off = [-2] * n + [-6]
    D = [*members, total]  # members 0..n-1, their sum d at n
    steps = tuple((k - 1, k, n if k == n - 1 else -1) for k in range(n))
    before = D[:]
    ok = DifferenceSums((steps,), -2).propagate(D, off, set(), 0)
    values = [[off[i] + b for b in range(24) if before[i] >> b & 1] for i in range(n + 1)]
    sums = [
        (*xs, sum(xs))
        for xs in itertools.product(*values[:n])
        if len(set(xs)) == n and sum(xs) in values[n]
    ]
    for point in sums:
        assert ok and all(D[i] >> (v - off[i]) & 1 for i, v in enumerate(point)), point


@st.composite
def difference_models(draw):
    n = draw(st.integers(2, 4))
    marks = [draw(st.sets(st.integers(-2, 5), min_size=1, max_size=5)) for _ in range(n)]
    pairs = draw(
        st.lists(
            st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).filter(lambda p: p[0] != p[1]),
            min_size=2,
            max_size=5,
            unique=True,
        )
        | st.just(list(itertools.combinations(range(n), 2)))  # a ruler: every chain there is
    )
    diffs = [
        draw(st.sets(st.integers(-3, 7), min_size=1, max_size=8) | st.just(set(range(1, 8))))
        for _ in pairs
    ]
    kind = draw(st.sampled_from(["distinct", "all_distinct"]))
    at = draw(st.integers(0, len(pairs)))  # where the distinct goes among the definitions
    order = draw(st.permutations(range(len(pairs))))
    return marks, pairs, diffs, kind, at, order


@EXAMPLES
@given(difference_models())
def test_distinct_differences_as_brute_force_in_any_goal_order(case):
    marks, pairs, diffs, kind, at, order = case
    xs, ds = vars(len(marks)), vars(len(pairs))
    goals = [fd.in_(x, fd.domain(*sorted(m))) for x, m in zip(xs, marks)]
    goals += [fd.in_(d, fd.domain(*sorted(v))) for d, v in zip(ds, diffs)]
    definitions = [ds[k] == xs[pairs[k][1]] - xs[pairs[k][0]] for k in order]
    distinct = {"distinct": fd.distinct, "all_distinct": fd.all_distinct}[kind](ds)
    goals += [*definitions[:at], distinct, *definitions[at:]]
    got = run_all((*xs, *ds), *goals, fd.label([*xs, *ds]))
    expected = []
    for point in itertools.product(*(sorted(m) for m in marks)):
        gaps = [point[b] - point[a] for a, b in pairs]
        if len(set(gaps)) == len(gaps) and all(g in v for g, v in zip(gaps, diffs)):
            expected.append((*point, *gaps))
    assert sorted(got) == sorted(expected)


def test_a_ruler_gets_its_chains_and_their_sums():
    marks = vars(4)
    ds = {(i, j): v for (i, j), v in zip(itertools.combinations(range(4), 2), vars(6))}
    S = fd_state()
    goals = [fd.in_(*marks, fd.interval(0, 20)), fd.in_(*ds.values(), fd.interval(1, 20))]
    goals += [d == marks[j] - marks[i] for (i, j), d in ds.items()]
    assert post_into(S, [*goals, fd.distinct(list(ds.values()))])
    store = store_of(S)
    sums = [e[1] for e in store.model.props if e[0] == "prop" and type(e[1]) is DifferenceSums]
    assert len(sums) == 1
    whole = store.domain(ds[0, 3])
    assert min(whole) == 1 + 2 + 3  # three different gaps at least


@st.composite
def unequal_difference_models(draw):
    """Relations ``x_a - x_b != x_c - x_d + k`` (a term may recur, ``2 * x - y - z``, or cancel),
    now and then every one of a ruler's, beside differences of their terms stated as variables
    (``d == x_a - x_b``, either way round; one ``d`` may define two, which are then equal) they
    may share and plain ``!=``, the domains anywhere among them."""
    n = draw(st.integers(3, 5))
    domains = [draw(st.sets(st.integers(-2, 4), min_size=1, max_size=5)) for _ in range(n)]
    idx = st.integers(0, n - 1)
    shift = st.integers(-2, 2)
    items = draw(
        st.lists(st.tuples(st.just("ne"), idx, idx, idx, idx, shift), min_size=1, max_size=5)
        | st.just(
            [
                ("ne", j, i, l, k, 0)
                for (i, j), (k, l) in itertools.combinations(itertools.combinations(range(n), 2), 2)
            ]
        )
    )
    sides = sorted(  # a difference of theirs, either way round, defined
        {d for _, a, b, c, e, _ in items for d in ((a, b), (b, a), (c, e), (e, c)) if d[0] != d[1]}
    )
    terms = sorted({t for item in items for t in item[1:5]})  # ... or of two of their terms
    pairs = st.sampled_from(sides) if sides else st.nothing()
    pairs |= st.permutations(terms).map(lambda ts: tuple(ts[:2])).filter(lambda p: len(p) == 2)
    items += draw(st.lists(st.tuples(st.just("def"), st.integers(0, 1), pairs), max_size=3))
    _, a, b, c, e, _ = items[0]
    if a != b and c != e and draw(st.booleans()):  # one d for both sides: x_a - x_b == x_c - x_e
        items += [("def", 0, (a, b)), ("def", 0, (c, e))]
    items += draw(st.lists(st.tuples(st.just("apart"), idx, idx), max_size=2))
    select = draw(st.sampled_from(["leftmost", "ff"]))
    ins = [("in", i) for i in range(n)]
    if draw(st.booleans()):  # the domains first, the rest in any order
        return domains, ins + draw(st.permutations(items)), select
    return domains, draw(st.permutations(items + ins)), select


@EXAMPLES
@given(unequal_difference_models())
def test_unequal_differences_as_brute_force_in_any_goal_order(case):
    domains, items, select = case
    xs, ds = vars(len(domains)), vars(2)
    goals, tests = [], []
    for item in items:
        if item[0] == "in":
            goals.append(fd.in_(xs[item[1]], fd.domain(*sorted(domains[item[1]]))))
        elif item[0] == "ne":
            _, a, b, c, d, k = item
            goals.append(xs[a] - xs[b] != xs[c] - xs[d] + k)
            tests.append(lambda v, a=a, b=b, c=c, d=d, k=k: v[a] - v[b] != v[c] - v[d] + k)
        elif item[0] == "def":  # d == x_b - x_c: a difference other relations share (d any value)
            _, d, (b, c) = item
            goals.append(fd.eq(ds[d], xs[b] - xs[c]))
            first = next(i for i in items if i[0] == "def" and i[1] == d)[2]  # d's first one
            tests.append(lambda v, f=first, b=b, c=c: v[f[0]] - v[f[1]] == v[b] - v[c])
        else:
            _, a, b = item
            goals.append(fd.ne(xs[a], xs[b]))
            tests.append(lambda v, a=a, b=b: v[a] != v[b])
    got = run_all(xs, *goals, fd.label(xs, select=select))
    expected = [
        list(point)
        for point in itertools.product(*(sorted(d) for d in domains))
        if all(t(point) for t in tests)
    ]
    assert sorted(got) == sorted(expected)


def test_a_ruler_stated_pair_by_pair_has_one_variable_per_distance():
    marks = vars(5)
    pairs = list(itertools.combinations(range(5), 2))
    S = fd_state()
    goals = [fd.in_(*marks, fd.interval(0, 20))]
    goals += [
        marks[j] - marks[i] != marks[l] - marks[k]
        for (i, j), (k, l) in itertools.combinations(pairs, 2)
    ]
    assert post_into(S, goals)
    model = store_of(S).model
    distances = {(p.u, p.v): p.w for p in model.posted(DifferenceOf)}
    assert sorted(distances) == sorted((j, i) for i, j in pairs)  # x_j - x_i, each once
    assert not any(
        e[0] == "prop" and getattr(e[1], "op", "") == "!=" for e in model.props
    )  # no four-term sum
    ne = {(x, y) for e in model.props if e[0] == "ne" for x, y in [e[1:3]]}
    assert len(ne & {(a, b) for a in distances.values() for b in distances.values()}) == 25


def test_a_residual_shows_a_relation_between_differences_as_posted():
    a, b, c, d = vars(4)
    rel = a - b != c - d + 1
    (r,) = run_all([a, b, c, d], fd.in_(a, b, c, d, fd.interval(0, 3)), rel, residual=True)
    assert r.constraints == (rel,)  # not the hidden differences
    assert set(r.domains) == {a, b, c, d}


def test_a_residual_keeps_a_relation_between_differences_once_one_side_is_fixed():
    """``a - b != c - d`` with ``a``, ``b`` fixed took a value from the hidden ``c - d``; the
    residual still shows the relation (posted again, it has the answers the labeling has)."""
    a, b, c, d = vars(4)
    rel = a - b != c - d
    goals = [fd.in_(a, b, c, d, fd.interval(0, 3)), rel, fd.eq(a, 2), fd.eq(b, 1)]
    (r,) = run_all([a, b, c, d], *goals, residual=True)
    assert rel in r.constraints
    reposted = [fd.in_(v, dom) for v, dom in r.domains.items()] + list(r.constraints)
    labeled = run_all([c, d], *goals, fd.label([c, d]))
    assert sorted(run_all([c, d], *reposted, fd.label([c, d]))) == sorted(labeled)
    assert len(labeled) == 13  # c - d != 1 over 0..3
