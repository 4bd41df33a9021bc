"""Sums of distinct differences (DifferenceSums): sound bounds, checked by brute force."""

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from relqueens import fd, run_all, vars
from relqueens.fd.differences import DifferenceSums
from relqueens.fd.post import post_into
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
