"""Differences: sums of distinct ones (DifferenceSums) and relations between them posted as
variables, checked by brute force."""

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from relqueens import fd, run_all, vars
from relqueens.fd.differences import DifferenceSums
from relqueens.fd.post import post_into
from relqueens.fd.propagators import DifferenceOf, Opposite
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


@pytest.mark.parametrize("flip", [False, True])
def test_a_residual_shows_a_difference_a_hidden_one_also_states_as_posted(flip):
    """``a - b != c - d + 1`` stands for ``a - b`` by a hidden variable; ``e == a - b`` (or
    ``b - a``) beside it shows as posted, not in terms of the hidden one."""
    a, b, c, d, e = vars(5)
    rel = e == (b - a if flip else a - b)
    goals = [fd.in_(a, b, c, d, fd.interval(0, 3)), fd.in_(e, fd.interval(-3, 3))]
    (r,) = run_all([a, b, c, d, e], *goals, a - b != c - d + 1, rel, residual=True)
    assert set(r.domains) == {a, b, c, d, e}  # no hidden variable
    assert len(r.constraints) == 2 and (flip or any(c is rel for c in r.constraints))


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


@EXAMPLES
@given(
    st.integers(1, (1 << 12) - 1),
    st.integers(1, (1 << 12) - 1),
    st.integers(-6, 6) | st.just(-(10**12)),
    st.integers(-6, 6),
    st.integers(-8, 8),
    st.sampled_from([0, 1, -1]),
)
def test_opposite_keeps_exactly_the_values_with_a_partner(dx, dy, ox, oy, c, woken):
    """``x + y == c`` on bitsets, from any domains, whichever side is said to have changed
    (``-1``: neither): each value left on one side has its partner on the other, and a side
    is queued when it lost values (sides far apart: no partners, and no huge bitset)."""
    xs = {ox + b for b in range(12) if dx >> b & 1}
    ys = {oy + b for b in range(12) if dy >> b & 1}
    D, off = [dx, dy], [ox, oy]
    queue: set[int] = set()
    ok = Opposite(0, 1, c).propagate(D, off, queue, woken)
    left_x = {v for v in xs if c - v in ys}
    if not left_x:
        assert not ok
        return
    assert ok
    assert {ox + b for b in range(12) if D[0] >> b & 1} == left_x
    assert {oy + b for b in range(12) if D[1] >> b & 1} == {c - v for v in left_x}
    assert queue == {i for i, was in ((0, xs), (1, ys)) if len(was) != bin(D[i]).count("1")}


def test_a_difference_both_ways_round_keeps_partners_once_a_wide_side_gets_a_bitset():
    """``e`` starts Wide (bounds), its bitset comes when ``d == b - a`` narrows it: then
    it keeps only the values whose opposites ``d`` has (0, 2, 4: not 1, 3)."""
    a, b, d, e = vars(4)
    S = fd_state()
    goals = [fd.in_(a, b, fd.interval(0, 100)), fd.in_(d, fd.domain(0, 2, 4))]
    goals += [fd.in_(e, fd.interval(-(10**12), 10**12)), d == b - a, e == a - b]
    assert post_into(S, goals)
    assert set(store_of(S).domain(e)) == {-4, -2, 0}


def test_differences_both_ways_round_far_apart_have_no_answers_at_once():
    a, b, d, e = vars(4)
    far = 10**12  # both differences far below what a and b leave: no bitset of that width
    goals = [fd.in_(a, fd.interval(far, far + 3)), fd.in_(b, fd.interval(0, 3))]
    goals += [fd.in_(d, e, fd.interval(-far - 3, -far + 3)), d == b - a, e == a - b]
    assert run_all((a, b, d, e), *goals) == ()


@st.composite
def ordered_rulers(draw):
    """Marks with domains, orders ``x_a <= x_b + c`` (``c <= 0``) between some of them,
    differences stated for ordered pairs (a pair now and then both ways round, or every one
    both ways, as in a Golomb ruler over all ordered pairs), their ``distinct``; all in any
    goal order."""
    n = draw(st.integers(2, 4))
    marks = [draw(st.sets(st.integers(0, 9), min_size=1, max_size=6)) for _ in range(n)]
    every = [(a, b) for a in range(n) for b in range(n) if a != b]
    pairs = draw(
        st.just(every) | st.lists(st.sampled_from(every), min_size=2, max_size=6, unique=True)
    )
    orders = draw(
        st.just([(a, a + 1, -1) for a in range(n - 1)])
        | st.lists(
            st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), st.integers(-2, 0)).filter(
                lambda o: o[0] != o[1]
            ),
            max_size=3,
        )
    )
    items = [("in", i) for i in range(n)] + [("def", k) for k in range(len(pairs))]
    items += [("order", o) for o in orders] + [("distinct", None)]
    return marks, pairs, draw(st.permutations(items)), draw(st.sampled_from(["ff", "leftmost"]))


@EXAMPLES
@given(ordered_rulers())
def test_differences_both_ways_round_beside_orders_as_brute_force_in_any_goal_order(case):
    marks, pairs, items, select = case
    xs, ds = vars(len(marks)), vars(len(pairs))
    goals = []
    for kind, k in items:
        if kind == "in":
            goals.append(fd.in_(xs[k], fd.domain(*sorted(marks[k]))))
        elif kind == "def":
            a, b = pairs[k]
            goals.append(ds[k] == xs[b] - xs[a])
        elif kind == "order":
            a, b, c = k
            goals.append(xs[a] <= xs[b] + c)
        else:
            goals.append(fd.distinct(ds))
    got = run_all(xs, *goals, fd.label(xs, select=select))
    orders = [k for kind, k in items if kind == "order"]
    expected = []
    for point in itertools.product(*(sorted(m) for m in marks)):
        gaps = [point[b] - point[a] for a, b in pairs]
        if len(set(gaps)) == len(gaps) and all(point[a] <= point[b] + c for a, b, c in orders):
            expected.append(list(point))
    assert sorted(got) == sorted(expected)


def test_a_ruler_whose_distinct_holds_the_second_way_round_alone_gets_its_chains():
    """The negative differences stated first, outside the ``distinct``; the positive ones
    after them (opposites), in it: the chains run over the opposites."""
    n = 5
    marks = vars(n)
    pairs = list(itertools.combinations(range(n), 2))
    below, above = vars(len(pairs)), vars(len(pairs))
    goals = [fd.in_(*marks, fd.interval(0, 15)), fd.eq(marks[0], 0)]
    goals += [d == marks[i] - marks[j] for (i, j), d in zip(pairs, below)]
    goals += [e == marks[j] - marks[i] for (i, j), e in zip(pairs, above)]
    goals += [fd.distinct(above), *(marks[i] < marks[i + 1] for i in range(n - 1))]
    S = fd_state()
    assert post_into(S, goals)
    store = store_of(S)
    assert len(store.model.posted(DifferenceSums)) == 1
    assert [min(store.domain(m)) for m in marks] == [0, 1, 3, 6, 10]


@pytest.mark.parametrize("distinct_first", [False, True])
def test_a_ruler_over_all_ordered_pairs_gets_its_chains_and_their_bounds(distinct_first):
    """Each difference stated both ways round (Kjellerstrand's Golomb ruler): the second way
    is the first's opposite, and the orders ``x_i < x_i+1`` orient the chains, which raise the
    marks as far as the ruler stated pair by pair one way does, the ``distinct`` before or
    after the rest."""
    n = 5
    marks = vars(n)
    ds = {(i, j): d for (i, j), d in zip(itertools.permutations(range(n), 2), vars(n * (n - 1)))}
    goals = [fd.in_(*marks, fd.interval(0, 15)), fd.eq(marks[0], 0)]
    goals += [d == marks[i] - marks[j] for (i, j), d in ds.items()]
    goals += [*(marks[i] < marks[i + 1] for i in range(n - 1))]
    group = fd.distinct(list(ds.values()))
    S = fd_state()
    assert post_into(S, [group, *goals] if distinct_first else [*goals, group])
    store = store_of(S)
    assert len(store.model.posted(Opposite)) == n * (n - 1) // 2
    assert len(store.model.posted(DifferenceSums)) == 1
    assert [min(store.domain(m)) for m in marks] == [0, 1, 3, 6, 10]  # 1, 1 + 2, 1 + 2 + 3, ...
    assert min(store.domain(ds[4, 0])) == 10 and max(store.domain(ds[0, 4])) == -10


@st.composite
def twin_differences(draw):
    """Two differences of the same two marks, ``d1 == x_b - x_a + k1`` and ``d2`` the same or
    the other way round plus ``k2``, over domains of their own, in any goal order."""
    marks = [draw(st.sets(st.integers(0, 4), min_size=1, max_size=4)) for _ in range(2)]
    doms = [draw(st.sets(st.integers(-6, 6), min_size=1, max_size=8)) for _ in range(2)]
    k1 = draw(st.sampled_from([0, 0, 1, -2]))
    flip, k2 = draw(st.booleans()), draw(st.integers(-2, 2))
    return marks, doms, k1, flip, k2, draw(st.permutations(range(6)))


@EXAMPLES
@given(twin_differences())
def test_a_difference_stated_twice_as_brute_force_in_any_goal_order(case):
    marks, doms, k1, flip, k2, order = case
    (a, b), (d1, d2) = vars(2), vars(2)
    goals = [
        fd.in_(a, fd.domain(*sorted(marks[0]))),
        fd.in_(b, fd.domain(*sorted(marks[1]))),
        fd.in_(d1, fd.domain(*sorted(doms[0]))),
        fd.in_(d2, fd.domain(*sorted(doms[1]))),
        d1 == b - a + k1,
        d2 == (a - b if flip else b - a) + k2,
    ]
    got = run_all((a, b, d1, d2), *(goals[i] for i in order), fd.label([a, b, d1, d2]))
    expected = [
        (x, y, y - x + k1, (x - y if flip else y - x) + k2)
        for x in marks[0]
        for y in marks[1]
        if y - x + k1 in doms[0] and (x - y if flip else y - x) + k2 in doms[1]
    ]
    assert sorted(got) == sorted(expected)
