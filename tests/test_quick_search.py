"""A labeling's quick search: ``Label.QUICK`` nodes before any analysis at its root.

A tree that ends within them pays for no analysis (the equalities combined, the implied
constraints, the relaxations of an objective over several rows); one that does not goes on
with them, its answers given once each (those of the quick search skipped after).
"""

import itertools
from operator import mul

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from relqueens import fd, run, vars
from relqueens.fd import labeling

EXAMPLES = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def spied(monkeypatch, name):
    """Count the calls of ``labeling.<name>`` (a list that grows by one a call)."""
    calls, real = [], getattr(labeling, name)

    def spy(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(labeling, name, spy)
    return calls


def send_more():
    letters = vars(8)
    s, e, n, d, m, o, r, y = letters
    goals = [
        fd.in_(*letters, fd.interval(0, 9)),
        fd.distinct(letters),
        s > 0,
        m > 0,
        fd.dot([1000, 100, 10, 1, 1000, 100, 10, 1], [s, e, n, d, m, o, r, e])
        == fd.dot([10000, 1000, 100, 10, 1], [m, o, n, e, y]),
    ]
    return letters, goals


def magic_square():
    cells = vars(9)
    lines = [cells[0:3], cells[3:6], cells[6:9], cells[0::3], cells[1::3], cells[2::3]]
    lines += [cells[0::4], cells[2:7:2]]
    goals = [fd.in_(*cells, fd.interval(1, 9)), fd.distinct(cells)]
    goals += [fd.sum(line, "==", 15) for line in lines]
    return cells, goals


def test_a_tree_within_the_quick_nodes_combines_no_equalities(monkeypatch):
    """SEND+MORE searches 4 nodes: its one solution, and the equalities are not combined."""
    calls = spied(monkeypatch, "fixed_by_equalities")
    letters, goals = send_more()
    found = run(0, tuple(letters), *goals, fd.label(letters, select="ff"))
    assert found == ((9, 5, 6, 7, 1, 0, 8, 2),)
    assert not calls


def test_a_tree_past_the_quick_nodes_combines_them_and_gives_each_answer_once(monkeypatch):
    """The 3 x 3 magic squares (51 nodes alone): the equalities are combined once the quick
    search runs out, and the 8 squares come once each, those it found first not again."""
    calls = spied(monkeypatch, "fixed_by_equalities")
    cells, goals = magic_square()
    found = run(0, tuple(cells), *goals, fd.label(cells))
    assert len(found) == len(set(found)) == 8 and calls
    monkeypatch.setattr(labeling.Label, "QUICK", 0)
    assert sorted(run(0, tuple(cells), *goals, fd.label(cells))) == sorted(found)


def golomb(marks, top):
    xs = vars(marks)
    pairs = list(itertools.combinations(xs, 2))
    diffs = vars(len(pairs))
    goals = [fd.in_(*xs, *diffs, fd.interval(0, top)), fd.eq(xs[0], 0), fd.all_distinct(diffs)]
    goals += [d == b - a for d, (a, b) in zip(diffs, pairs)]
    goals += [a < b for a, b in itertools.pairwise(xs)]
    return xs, goals


def test_branch_and_bound_over_several_rows_proves_a_small_optimum_without_relaxations(
    monkeypatch,
):
    """A Golomb ruler of 4 marks (rows over its differences) is proved within the quick nodes:
    no relaxation is found; a knapsack of 8 items (past ``QUICK_LEAVES``), one row, finds its LP
    at once."""
    calls = spied(monkeypatch, "relaxations")
    xs, goals = golomb(4, 12)
    assert run(1, xs[-1], *goals, fd.label(xs, minimize=xs[-1])) == (6,)
    assert not calls
    items = vars(8)
    weights, values = [12, 7, 11, 8, 9, 6, 10, 5], [24, 13, 23, 15, 16, 11, 19, 8]
    knapsack = [fd.in_(*items, fd.interval(0, 1)), fd.scalar_product(weights, items, "<=", 30)]
    value = fd.dot(values, items)
    best = max(
        sum(map(mul, values, p))
        for p in itertools.product((0, 1), repeat=8)
        if sum(map(mul, weights, p)) <= 30
    )
    assert run(1, value, *knapsack, fd.label(items, maximize=value)) == (best,)
    assert calls


@st.composite
def equal_models(draw):
    """``(n, k, rows, groups, apart)``: ``n`` variables over ``0..k``, linear equalities
    ``(coefficients, total)``, ``distinct`` groups (some a permutation of ``0..k``: their sums
    combine with the rows, and fix variables) and pairs kept apart."""
    k = draw(st.sampled_from([2, 3]))
    n = draw(st.integers(5, 6))
    group = st.lists(st.integers(0, n - 1), min_size=2, max_size=k + 1, unique=True)
    groups = draw(st.lists(group, max_size=2))
    rows = []
    for _ in range(draw(st.integers(0, 2))):
        coefficients = [draw(st.integers(-2, 2)) for _ in range(n)]
        point = [draw(st.integers(0, k)) for _ in range(n)]  # a row some point meets
        rows.append((coefficients, sum(map(mul, coefficients, point))))
    apart = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=3))
    return n, k, rows, groups, [(a, b) for a, b in apart if a != b]


def meets(p, rows, groups, apart):
    return (
        all(sum(map(mul, c, p)) == t for c, t in rows)
        and all(len({p[i] for i in g}) == len(g) for g in groups)
        and all(p[a] != p[b] for a, b in apart)
    )


@EXAMPLES
@given(equal_models(), st.sampled_from([0, 1, 3, 16]), st.randoms(use_true_random=False))
def test_every_answer_comes_once_whether_the_quick_search_ends_or_runs_out(model, quick, rng):
    """All answers, as brute force, each once: the quick search's (``quick`` nodes, 0 to
    16), then the rest with the analyses (which may fix variables it labeled), in any goal
    order and labeling."""
    n, k, rows, groups, apart = model
    xs = vars(n)
    goals = [fd.in_(*xs, fd.interval(0, k))]
    goals += [fd.dot(c, xs) == t for c, t in rows]
    goals += [fd.distinct([xs[i] for i in g]) for g in groups]
    goals += [fd.ne(xs[a], xs[b]) for a, b in apart]
    rng.shuffle(goals)
    select, order = rng.choice(["leftmost", "ff", "min", "max"]), rng.choice(["up", "down"])
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(labeling.Label, "QUICK", quick)
        got = run(0, tuple(xs), *goals, fd.label(xs, select=select, order=order))
    expected = [
        p for p in itertools.product(range(k + 1), repeat=n) if meets(p, rows, groups, apart)
    ]
    assert sorted(got) == expected


@st.composite
def packings(draw):
    """``(weights, capacities, values, sense, k)``: 5-7 items of 0..k copies under 2-3 rows,
    the values maximised under ``<=`` rows or minimised over ``>=`` rows."""
    n, rows, k = draw(st.integers(5, 7)), draw(st.integers(2, 3)), draw(st.sampled_from([1, 2]))
    weights = [[draw(st.integers(1, 20)) for _ in range(n)] for _ in range(rows)]
    values = [draw(st.integers(1, 30)) for _ in range(n)]
    capacities = [sum(row) * k * draw(st.integers(1, 3)) // 4 for row in weights]
    return weights, capacities, values, draw(st.sampled_from(["max", "min"])), k


@EXAMPLES
@given(packings(), st.sampled_from([0, 1, 3, 16]), st.randoms(use_true_random=False))
def test_branch_and_bound_gives_the_best_answers_first_whether_the_quick_search_ends_or_not(
    case, quick, rng
):
    """The first three answers are brute force's best three, in order: branch and bound alone
    for ``quick`` nodes, then with the relaxations (its best so far kept), in any goal order
    and labeling."""
    weights, capacities, values, sense, k = case
    n, op = len(values), "<=" if sense == "max" else ">="
    xs = vars(n)
    goals = [fd.in_(*xs, fd.interval(0, k))]
    goals += [fd.scalar_product(row, xs, op, c) for row, c in zip(weights, capacities)]
    rng.shuffle(goals)
    keyword = "maximize" if sense == "max" else "minimize"
    select, order = rng.choice(["leftmost", "ff", "min", "max"]), rng.choice(["up", "down"])
    label = fd.label(xs, select=select, order=order, **{keyword: fd.dot(values, xs)})
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(labeling.Label, "QUICK", quick)
        got = run(3, tuple(xs), *goals, label)

    def fits(p):
        sums = [sum(map(mul, row, p)) for row in weights]
        return all((s <= c if op == "<=" else s >= c) for s, c in zip(sums, capacities))

    points = [p for p in itertools.product(range(k + 1), repeat=n) if fits(p)]
    worth = sorted((sum(map(mul, values, p)) for p in points), reverse=sense == "max")
    assert all(fits(p) for p in got)
    assert [sum(map(mul, values, p)) for p in got] == worth[:3]


def test_a_search_the_analyses_leave_as_it_was_goes_on_where_the_quick_search_paused(
    monkeypatch,
):
    """The Petersen graph's 120 colourings by 3 colours: past the quick nodes, the analyses
    post nothing, and the quick search goes on as the first search (one search, each
    colouring once), not again from the root."""
    calls = spied(monkeypatch, "search")
    edges = [(i, (i + 1) % 5) for i in range(5)] + [(i, i + 5) for i in range(5)]
    edges += [(5 + i, 5 + (i + 2) % 5) for i in range(5)]
    xs = vars(10)
    goals = [fd.in_(*xs, fd.interval(0, 2)), *(fd.ne(xs[a], xs[b]) for a, b in edges)]
    found = run(0, tuple(xs), *goals, fd.label(xs))
    assert len(found) == len(set(found)) == 120 and len(calls) == 1
    assert all(p[a] != p[b] for p in found for a, b in edges)


def test_a_tree_of_few_leaves_gets_a_sixteenth_of_them_before_its_relaxations(monkeypatch):
    """Nine items (512 leaves) under two equalities, maximised: branch and bound alone proves
    the optimum within 40 nodes, fewer than 16 and 512 / 16, and finds no relaxation (an LP at
    each node costs more: the screen's like model, 2.6 ms, against 1.0 ms so)."""
    calls = spied(monkeypatch, "relaxations")
    rows = [([17, 17, 21, 28, 4, 29, 8, 29, 20], 79), ([14, 26, 19, 18, 27, 24, 25, 25, 16], 122)]
    values = [38, 26, 38, 15, 8, 20, 11, 17, 17]
    xs = vars(9)
    goals = [fd.in_(*xs, fd.interval(0, 1)), xs[0] + xs[1] <= 1]
    goals += [fd.scalar_product(c, xs, "==", t) for c, t in rows]
    value = fd.dot(values, xs)
    best = max(
        sum(map(mul, values, p))
        for p in itertools.product((0, 1), repeat=9)
        if p[0] + p[1] <= 1 and all(sum(map(mul, c, p)) == t for c, t in rows)
    )
    assert run(1, value, *goals, fd.label(xs, select="max", maximize=value)) == (best,)
    assert not calls


def test_branch_and_bound_over_more_than_quick_vars_variables_finds_its_relaxations_first(
    monkeypatch,
):
    """A model of 80 variables (over ``QUICK_VARS``) and three rows, minimised: its one search
    has no quick nodes before the relaxations, as a labeling with no objective has none."""
    pauses = []
    real = labeling.search

    def spy(*args, **kwargs):
        pauses.append(kwargs.get("pause") is not None)
        return real(*args, **kwargs)

    monkeypatch.setattr(labeling, "search", spy)
    xs = vars(80)
    goals = [fd.in_(*xs, fd.interval(0, 1)), fd.sum(xs[:40], ">=", 3), fd.sum(xs[40:], ">=", 3)]
    goals.append(fd.sum(xs[::2], "<=", 30))
    cost = fd.dot(list(range(1, 81)), xs)
    assert run(1, cost, *goals, fd.label(xs, minimize=cost)) == (1 + 2 + 3 + 41 + 42 + 43,)
    assert pauses == [False]


def test_branch_and_bound_proved_within_the_quick_nodes_analyses_its_root_only_for_the_rest(
    monkeypatch,
):
    """A Golomb ruler of 3 marks, its last mark minimised: its first answer, the optimum, is
    proved before any analysis of the root (the equalities are not combined, no implied
    constraint is looked for); asking for every answer, the rest come with them."""
    equalities, implied = spied(monkeypatch, "fixed_by_equalities"), spied(monkeypatch, "implied")
    xs, goals = golomb(3, 6)
    assert run(1, tuple(xs), *goals, fd.label(xs, minimize=xs[-1])) == ((0, 1, 3),)
    assert not equalities and not implied
    rulers = run(0, tuple(xs), *goals, fd.label(xs, minimize=xs[-1]))
    assert equalities and implied
    expected = [
        p
        for p in itertools.product(range(7), repeat=3)
        if p[0] == 0 and p[0] < p[1] < p[2] and p[1] != p[2] - p[1]
    ]
    assert sorted(rulers) == expected
    assert [p[-1] for p in rulers] == sorted(p[-1] for p in rulers)


def test_an_objective_with_a_domain_is_labeled_as_itself(monkeypatch):
    """Minimising a variable that has a domain (a label, or a total a row defines) adds no
    hidden objective variable; an expression gets one."""
    made = []
    real = labeling.var

    def spy(*args, **kwargs):
        made.append(kwargs.get("prefix"))
        return real(*args, **kwargs)

    monkeypatch.setattr(labeling, "var", spy)
    xs, total = vars(3), vars(1)[0]
    goals = [fd.in_(*xs, fd.interval(0, 2)), fd.in_(total, fd.interval(0, 9)), fd.distinct(xs)]
    goals.append(total == fd.dot([3, 2, 1], xs))
    assert run(1, tuple(xs), *goals, fd.label(xs, minimize=xs[0])) == ((0, 1, 2),)
    assert run(1, total, *goals, fd.label(xs, minimize=total)) == (4,)
    assert "objective" not in made
    assert run(1, total, *goals, fd.label(xs, maximize=total + xs[0])) == (8,)  # 2, 1, 0
    assert "objective" in made


@st.composite
def objective_models(draw):
    """``(n, k, rows, groups, costs, which)``: ``n`` variables over ``0..k``, rows
    ``(coefficients, op, total)``, ``distinct`` groups, a total's costs, and what is optimised:
    a label (its index), the total (a variable with a domain) or ``None`` (the expression)."""
    k = draw(st.sampled_from([1, 2, 3]))
    n = draw(st.integers(3, 5))
    rows = []
    for _ in range(draw(st.integers(0, 2))):
        coefficients = [draw(st.integers(-2, 3)) for _ in range(n)]
        point = [draw(st.integers(0, k)) for _ in range(n)]
        rows.append(
            (
                coefficients,
                draw(st.sampled_from(["==", "<=", ">="])),
                sum(map(mul, coefficients, point)),
            )
        )
    group = st.lists(st.integers(0, n - 1), min_size=2, max_size=k + 1, unique=True)
    groups = draw(st.lists(group, max_size=2))
    costs = [draw(st.integers(-3, 5)) for _ in range(n)]
    which = draw(st.one_of(st.integers(0, n - 1), st.just("total"), st.none()))
    return n, k, rows, groups, costs, which


@EXAMPLES
@given(
    objective_models(),
    st.sampled_from(["min", "max"]),
    st.sampled_from([0, 1, 3, 16]),
    st.randoms(use_true_random=False),
)
def test_all_answers_of_branch_and_bound_come_once_best_first(model, sense, quick, rng):
    """Every answer, each once and objective value by objective value, as brute force gives
    them, whether the optimum is proved within the quick nodes (the analyses then made for the
    rest only) or not, the objective a label, a total with a domain or an expression, in any
    goal order and labeling."""
    n, k, rows, groups, costs, which = model
    xs, total = vars(n), vars(1)[0]
    lo = sum(min(0, c) * k for c in costs)
    goals = [fd.in_(*xs, fd.interval(0, k)), fd.in_(total, fd.interval(lo, lo + 5 * k * n))]
    goals.append(total == fd.dot(costs, xs))
    goals += [fd.scalar_product(c, xs, op, t) for c, op, t in rows]
    goals += [fd.distinct([xs[i] for i in g]) for g in groups]
    rng.shuffle(goals)
    objective = fd.dot(costs, xs) if which is None else total if which == "total" else xs[which]
    select, order = rng.choice(["leftmost", "ff", "min", "max"]), rng.choice(["up", "down"])
    keyword = "minimize" if sense == "min" else "maximize"
    label = fd.label(xs, select=select, order=order, **{keyword: objective})
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(labeling.Label, "QUICK", quick)
        got = run(0, tuple(xs), *goals, label)
    ops = {"==": int.__eq__, "<=": int.__le__, ">=": int.__ge__}
    expected = [
        p
        for p in itertools.product(range(k + 1), repeat=n)
        if all(ops[op](sum(map(mul, c, p)), t) for c, op, t in rows)
        and all(len({p[i] for i in g}) == len(g) for g in groups)
    ]
    assert sorted(got) == expected
    worth = [sum(map(mul, costs, p)) if which in (None, "total") else p[which] for p in got]
    assert worth == sorted(worth, reverse=sense == "max")


@pytest.mark.parametrize("n", [5, 9])
def test_branch_and_bound_past_the_quick_nodes_analyses_its_root_before_its_relaxations(n):
    """Langford's L(2, n) for ``n`` 1 modulo 4 has no pairing: its permutation's sum is odd.
    Minimising a position, branch and bound refutes it within 10 nodes once the quick search
    has run out, the equalities combined with its relaxations (without them, L(2, 5) takes
    over 26 nodes and L(2, 9) over 10,000)."""
    first, second = vars(n), vars(n)
    goals = [fd.in_(*first, *second, fd.interval(0, 2 * n - 1)), fd.all_distinct(first + second)]
    goals += [s == p + k + 1 for k, (p, s) in enumerate(zip(first, second), start=1)]
    budget = labeling.Label.QUICK + 10
    label = fd.label(first, minimize=first[-1])
    assert run(1, tuple(first), *goals, label, max_nodes=budget) == ()


@pytest.mark.parametrize("sense", ["min", "max"])
def test_an_objective_kept_as_bounds_is_analysed_at_the_root(sense):
    """An objective too wide for a bitset (``100000 * x0`` and the items' values), ``x0`` fixed
    only by the equalities combined: the analyses, which make the objective a bitset, come
    before branch and bound reads its offset, so the optimum comes first and every answer
    once, best first."""
    weights, values = [8, 8, 2, 6, 9, 8, 6, 9, 7, 5], [9, 3, 5, 3, 2, 5, 9, 3, 5, 2]
    xs = vars(12)
    goals = [fd.in_(*xs[:2], fd.interval(0, 4)), fd.in_(*xs[2:], fd.interval(0, 1))]
    goals += [fd.eq(xs[0] + xs[1], 3), fd.eq(xs[0] - xs[1], 1)]
    goals.append(fd.scalar_product(weights, xs[2:], "<=", 34))
    objective = 100000 * xs[0] + fd.dot(values, xs[2:])
    keyword = "minimize" if sense == "min" else "maximize"
    found = run(0, tuple(xs), *goals, fd.label(xs, **{keyword: objective}))
    packings = [
        (2, 1, *p) for p in itertools.product((0, 1), repeat=10) if sum(map(mul, weights, p)) <= 34
    ]
    worth = [100000 * p[0] + sum(map(mul, values, p[2:])) for p in found]
    assert sorted(found) == packings
    assert worth == sorted(worth, reverse=sense == "max")
