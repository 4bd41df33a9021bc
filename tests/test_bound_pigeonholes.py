"""Branch and bound gives a group of different terms its pigeonhole once the bound leaves the
group no value to spare (``implied.loose_groups``, ``implied.bound_pigeonholes``)."""

import random
from itertools import combinations
from unittest import mock

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_fd_property import SETTINGS, brute, build_common, shuffled

from relqueens import fd, run, var, vars
from relqueens.fd import labeling
from relqueens.logic.limits import SearchLimit


def random_graph(nodes, p, seed):
    rng = random.Random(seed)
    return [(a, b) for a in range(nodes) for b in range(a + 1, nodes) if rng.random() < p]


def fewest_colours(nodes, edges, colours, **limits):
    """``(m,)``, the largest colour of a colouring in ``0..colours-1`` that minimises it."""
    xs, m = vars(nodes), var()
    return run(
        1,
        m,
        fd.in_(*xs, fd.interval(0, colours - 1)),
        *(fd.ne(xs[a], xs[b]) for a, b in edges),
        m == fd.max_(*xs),
        fd.label(xs, select="ff", minimize=m),
        **limits,
    )


def without_them():
    """Branch and bound as before: no group gets a pigeonhole on the way."""
    return mock.patch.object(labeling, "loose_groups", lambda model, root: [])


def test_a_colouring_with_colours_to_spare_is_proved_by_its_cliques_once_bound():
    """A random graph of 30 nodes needs 6 colours. Offered 0..9, its cliques have too many
    colours for a pigeonhole at the root; the first colouring found uses 6, and the proof that 5
    do not suffice takes over 10,000 nodes, where the cliques, pigeonholes now, take under 100."""
    edges = random_graph(30, 0.3, 1)
    assert fewest_colours(30, edges, 5) == ()  # 5 colours do not suffice (the largest is 4)
    assert fewest_colours(30, edges, 10, max_nodes=100) == (5,)
    assert fewest_colours(30, edges, 8) == (5,)
    with without_them(), pytest.raises(SearchLimit):
        fewest_colours(30, edges, 10, max_nodes=10_000)


@pytest.mark.parametrize("stated", [True, False], ids=["distinct", "edges"])
def test_a_group_gets_its_pigeonhole_once_bound(stated):
    """Seven terms all different over 0..20 (stated so, or pair by pair): the largest is at
    least 6, proved at once under the bound 5, where value elimination alone labels the
    permutations of six values first."""
    xs, m = vars(7), var()
    apart = [fd.distinct(xs)] if stated else [fd.ne(a, b) for a, b in combinations(xs, 2)]
    goals = [fd.in_(*xs, fd.interval(0, 20)), *apart, m == fd.max_(*xs), fd.label(xs, minimize=m)]
    assert run(1, m, *goals, max_nodes=60) == (6,)
    with without_them(), pytest.raises(SearchLimit):
        run(1, m, *goals, max_nodes=1_000)


def test_the_best_found_by_the_quick_search_gives_a_group_its_pigeonhole_at_once():
    """With two rows beside it, branch and bound searches alone first (``Label.QUICK`` nodes),
    and finds the largest at 6 there; the relaxations found, the group gets its pigeonhole
    then, not at a better bound it will not find (5,000 nodes so)."""
    xs, m = vars(7), var()
    goals = [fd.in_(*xs, fd.interval(0, 20)), fd.distinct(xs), m == fd.max_(*xs)]
    goals += [xs[0] + xs[1] <= 40, xs[2] + xs[3] <= 40, fd.label(xs, minimize=m)]
    assert run(1, m, *goals, max_nodes=labeling.Label.QUICK + 10) == (6,)


@pytest.mark.parametrize("select", ["leftmost", "ff", "ffc"])
@pytest.mark.parametrize("sense", ["minimize", "maximize"])
def test_an_objective_kept_as_bounds_stays_so_while_groups_could_get_pigeonholes(sense, select):
    """An objective over about 90,000 values is kept as bounds: a pigeonhole posted at the root
    could narrow it into a bitset (a rebase) under the search's feet. The groups then get none:
    the best was 89996 and ``run(0)`` gave the incumbent twice (a review's find)."""
    a, b, c, d, e, f, g = xs = vars(7)
    domains = [(0, 1), (0, 1), (0, 2, 3), range(4), range(10), range(10), range(10)]
    sign = 1 if sense == "maximize" else -1
    goals = [
        *(fd.in_(x, fd.domain(*values)) for x, values in zip(xs, domains)),
        *(fd.ne(x, y) for x, y in combinations([a, b, c, d], 2)),  # an implied pigeonhole
        fd.distinct([d, e, f, g]),  # a loose group, crossing it at d
        fd.label(xs, select=select, order="down", **{sense: sign * (30000 * c - fd.max_(e, f, g))}),
    ]

    def value(v):
        return sign * (30000 * v[2] - max(v[4:]))

    expected = set(brute(domains, [lambda v: len(set(v[:4])) == 4, lambda v: len(set(v[3:])) == 4]))
    got = run(0, tuple(xs), *goals)
    assert len(got) == len(set(got)) and set(got) == expected
    values = [value(v) for v in got]
    assert values == sorted(values, reverse=sense == "maximize")
    assert value(run(1, tuple(xs), *goals)[0]) == sign * 89997


@st.composite
def colouring_models(draw):
    """Up to five nodes with a clique of three to five among them, as edges or one ``distinct``
    (now and then of terms ``x + c``); colours ``0..k`` with up to five to spare, a node now and
    then with fewer; the largest colour minimised, or the smallest maximised (of all nodes, or
    some), the goals in any order; a node limit that may strike."""
    n = draw(st.integers(3, 5))
    clique = draw(st.permutations(range(n)))[: draw(st.integers(3, n))]
    top = draw(st.integers(len(clique) - 2, min(len(clique) + 4, 11 - n)))  # 8^5 at most
    domains = [
        set(range(top + 1))
        if draw(st.integers(0, 4))
        else draw(st.sets(st.integers(0, top), min_size=1))
        for _ in range(n)
    ]
    edges = set() if draw(st.booleans()) else {(a, b) for a in clique for b in clique if a < b}
    edges |= {(a, b) for a, b in draw(st.lists(st.tuples(*[st.integers(0, n - 1)] * 2))) if a < b}
    items = [("in", i, sorted(d)) for i, d in enumerate(domains)] + [
        ("ne", a, b) for a, b in sorted(edges)
    ]
    if not edges >= {(a, b) for a in clique for b in clique if a < b}:
        shifts = st.integers(-2, 2) if draw(st.integers(0, 2)) == 0 else st.just(0)
        items.append(("distinct", [(i, draw(shifts)) for i in sorted(clique)]))
    counted = (
        list(range(n))
        if draw(st.integers(0, 3))
        else draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n, unique=True))
    )
    items = shuffled(draw, items)
    at = draw(st.integers(0, len(items)))
    sense = draw(st.sampled_from(["minimize", "maximize"]))
    select = draw(st.sampled_from(["leftmost", "ff", "ffc"]))
    limit = draw(st.integers(1, 30))
    return n, domains, [*items[:at], ("objective", counted), *items[at:]], sense, select, limit


@SETTINGS
@given(colouring_models())
def test_the_best_colouring_answers_as_brute_force(model):
    """Every answer once, the best first and then by worse objectives, whatever the goal order;
    under a node limit, the first answer or the best solution found so far."""
    n, domains, items, sense, select, limit = model
    xs, m = vars(n), var()
    extreme = max if sense == "minimize" else min
    goals, checks = [], []
    for item in items:
        if item[0] == "in":
            goal, check = build_common(item, xs)
            goals.append(goal)
            checks.append(check)
        elif item[0] == "ne":
            goals.append(fd.ne(xs[item[1]], xs[item[2]]))
            checks.append(lambda a, i=item[1], j=item[2]: a[i] != a[j])
        elif item[0] == "distinct":
            goals.append(fd.distinct([xs[i] + c for i, c in item[1]]))
            checks.append(lambda a, g=item[1]: len({a[i] + c for i, c in g}) == len(g))
        else:
            counted = item[1]
            goals.append(
                m == (fd.max_ if sense == "minimize" else fd.min_)(*(xs[i] for i in counted))
            )
    goals.append(fd.label(xs, select=select, **{sense: m}))
    expected = set(brute(domains, checks))
    got = run(0, (m, tuple(xs)), *goals)
    assert len(got) == len(set(got)) and {a for _, a in got} == expected
    assert all(v == extreme(a[i] for i in counted) for v, a in got)
    values = [v for v, _ in got]
    assert values == sorted(values, reverse=sense == "maximize")
    assert run(1, (m, tuple(xs)), *goals) == got[:1]
    try:
        assert run(1, (m, tuple(xs)), *goals, max_nodes=limit) == got[:1]
    except SearchLimit as e:
        assert e.best is None or (
            e.best[1] in expected and e.best[0] == extreme(e.best[1][i] for i in counted)
        )
