"""Branch and bound over correlated knapsacks: a count of the items split at the LP's count,
guesses climbed by swaps, and a node split in two anywhere, each checked against brute force."""

import itertools
import random
from operator import mul
from unittest import mock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from relqueens import fd, run, run_all, vars
from relqueens.fd import labeling
from relqueens.fd.relaxation import COUNTED, KnapsackBound, LagrangianBound, counted

EXAMPLES = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def correlated(n, rows, seed, gain):
    """``rows`` random rows of weights 10..100 over ``n`` items, each capacity half its row's
    total, and each item's value ``gain(w)`` of its first weight ``w``."""
    rng = random.Random(seed)
    weights = [[rng.randint(10, 100) for _ in range(n)] for _ in range(rows)]
    return weights, [sum(row) // 2 for row in weights], [gain(w) for w in weights[0]]


def nodes_to_optimum(weights, capacities, values, max_nodes):
    """The optimum that branch and bound proves within ``max_nodes`` (it raises past them)."""
    xs = vars(len(values))
    goals = [fd.in_(*xs, fd.interval(0, 1))]
    goals += [fd.scalar_product(row, xs, "<=", c) for row, c in zip(weights, capacities)]
    objective = fd.dot(values, xs)
    (best,) = run(1, objective, *goals, fd.maximize(objective, xs), max_nodes=max_nodes)
    return best


def test_a_strongly_correlated_knapsack_of_two_rows_branches_on_its_count():
    # 9,144 nodes branching on the items alone; the optimum is checked against CP-SAT's
    weights, capacities, values = correlated(30, 2, 1, lambda w: w + 10)
    assert nodes_to_optimum(weights, capacities, values, max_nodes=100) == 948


def test_a_swap_finds_the_exact_fill_the_search_would_look_for():
    # without the swap, the optimum (CP-SAT's) is met after 886 nodes
    weights, capacities, values = correlated(30, 2, 2, lambda w: w + 10)
    assert nodes_to_optimum(weights, capacities, values, max_nodes=50) == 999


def test_an_inversely_correlated_knapsack_of_three_rows_branches_on_its_count():
    # 80 items, 3 rows: over 20 s before (CP-SAT: 11 s); the optimum is CP-SAT's
    weights, capacities, values = correlated(80, 3, 1, lambda w: max(1, w - 10))
    assert nodes_to_optimum(weights, capacities, values, max_nodes=100) == 1966


def lagrangian_of(costs, rows, n):
    cost = dict(enumerate(costs))
    knapsacks = [KnapsackBound(cost, dict(enumerate(w)), b) for w, b in rows]
    return LagrangianBound(knapsacks, [0b11] * n, [0] * n)


def test_a_count_is_taken_where_costs_follow_one_rows_weights_and_a_constant():
    rng = random.Random(7)
    n = 12
    w0, w1 = [rng.randint(10, 100) for _ in range(n)], [rng.randint(10, 100) for _ in range(n)]
    rows = [(w0, sum(w0) // 2), (w1, sum(w1) // 2)]
    for costs in (
        [-(w + 10) for w in w0],  # strongly correlated, maximised
        [-(w - 10) for w in w1],  # inversely, with the second row
        [-(3 * w + 20 + rng.randint(-2, 2)) for w in w0],  # nearly so: off by a tenth of 20
    ):
        assert counted([lagrangian_of(costs, rows, n)]) == list(range(n))
    for costs in (
        [-w for w in w0],  # the weights themselves: the count adds nothing
        [-rng.randint(10, 100) for _ in range(n)],  # uncorrelated
        [-(w + rng.randint(-10, 10)) for w in w0],  # weakly correlated
        [-(w + 10 + rng.randint(-10, 10)) for w in w0],  # strongly, but off by more than 10 / 4
    ):
        assert counted([lagrangian_of(costs, rows, n)]) is None
    assert counted([]) is None  # no LP over two rows
    few = COUNTED - 1
    assert (
        counted([lagrangian_of([-(w + 10) for w in w0[:few]], [(w0[:few], 100)] * 2, few)]) is None
    )


def test_copies_of_items_are_counted_too():
    # 30 items of 0..3 copies, 2 rows: no optimum in 20 s before; CP-SAT's optimum
    weights, _, values = correlated(30, 2, 1, lambda w: w + 10)
    xs = vars(30)
    goals = [fd.in_(*xs, fd.interval(0, 3))]
    goals += [fd.scalar_product(row, xs, "<=", sum(row) * 3 // 2) for row in weights]
    objective = fd.dot(values, xs)
    (best,) = run(1, objective, *goals, fd.maximize(objective, xs), max_nodes=100)
    assert best == 2864


@st.composite
def correlated_knapsacks(draw):
    """``(weights, capacities, values, sense, copies)``: 8-10 items (0/1, or 8 of 0..2 copies
    each) under 2-3 rows, each value an affine function of the item's weight in one row (a
    count is taken) or not (none is), maximised under ``<=`` rows or minimised over ``>=``
    rows (a covering)."""
    copies = draw(st.sampled_from([1, 1, 2]))
    n = draw(st.integers(COUNTED, 10)) if copies == 1 else COUNTED
    rows = draw(st.integers(2, 3))
    weights = [[draw(st.integers(1, 30)) for _ in range(n)] for _ in range(rows)]
    r = draw(st.integers(0, rows - 1))
    alpha, beta = draw(st.sampled_from([1, 2, -1])), draw(st.sampled_from([5, 12, -5]))
    noise = draw(st.sampled_from([0, 1, 3, 8]))
    values = [alpha * w + beta + draw(st.integers(-noise, noise)) for w in weights[r]]
    sense = draw(st.sampled_from(["max", "min"]))
    capacities = [sum(row) * copies * draw(st.integers(1, 3)) // 4 for row in weights]
    return weights, capacities, values, sense, copies


@EXAMPLES
@given(correlated_knapsacks(), st.randoms(use_true_random=False))
def test_correlated_knapsacks_give_the_best_answers_first_as_brute_force_in_any_goal_order(
    case, rng
):
    """The first answers are the brute force's best three, in order, whichever order the goals
    come in and whatever the labeling's order."""
    weights, capacities, values, sense, copies = case
    n = len(values)
    xs = vars(n)
    op = "<=" if sense == "max" else ">="
    goals = [fd.in_(x, fd.interval(0, copies)) for x in xs]
    goals += [fd.scalar_product(row, xs, op, c) for row, c in zip(weights, capacities)]
    rng.shuffle(goals)
    keyword = "maximize" if sense == "max" else "minimize"
    order = rng.choice(["up", "down"])
    got = run(3, tuple(xs), *goals, fd.label(xs, order=order, **{keyword: fd.dot(values, xs)}))

    def meets(p):
        return all(
            (s <= c if op == "<=" else s >= c)
            for row, c in zip(weights, capacities)
            for s in [sum(map(mul, row, p))]
        )

    points = [p for p in itertools.product(range(copies + 1), repeat=n) if meets(p)]
    worth = sorted((sum(map(mul, values, p)) for p in points), reverse=sense == "max")
    assert all(meets(p) for p in got)
    assert [sum(map(mul, values, p)) for p in got] == worth[:3]


@st.composite
def split_models(draw):
    """Small models (domains, ``!=`` and ``<=`` between pairs, one sum) and a labeling: more
    combinations of values than are enumerated without a search (``FEW``)."""
    n = draw(st.integers(4, 5))
    domains = [draw(st.sets(st.integers(-2, 5), min_size=4, max_size=6)) for _ in range(n)]
    pairs = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=3))
    ops = [draw(st.sampled_from(["!=", "<="])) for _ in pairs]
    total = draw(st.integers(0, 16))
    select = draw(st.sampled_from(["leftmost", "ff", "ffc"]))
    order = draw(st.sampled_from(["up", "down"]))
    return domains, list(zip(pairs, ops)), total, select, order


@EXAMPLES
@given(split_models(), st.randoms(use_true_random=False))
def test_a_node_split_in_two_anywhere_gives_the_answers_of_brute_force(case, rng):
    """Splitting any variable's domain at any value (or not) at each node leaves the answers
    those of the model, each once."""
    domains, relations, total, select, order = case
    xs = vars(len(domains))
    goals = [fd.in_(x, fd.domain(*sorted(d))) for x, d in zip(xs, domains)]
    for (a, b), op in relations:
        goals.append(xs[a] != xs[b] + 1 if op == "!=" else xs[a] <= xs[b])
    goals.append(fd.sum(xs, "<=", total))
    search = labeling.search

    def splitting(*args, **kwargs):
        kwargs["split"] = lambda i: rng.choice([None, rng.randint(-3, 5)])
        return search(*args, **kwargs)

    with mock.patch.object(labeling, "search", splitting):
        got = run_all(tuple(xs), *goals, fd.label(xs, select=select, order=order))
    expected = [
        p
        for p in itertools.product(*(sorted(d) for d in domains))
        if all((p[a] != p[b] + 1 if op == "!=" else p[a] <= p[b]) for (a, b), op in relations)
        and sum(p) <= total
    ]
    assert sorted(got) == sorted(expected)
    assert len(set(got)) == len(got)


def test_a_count_too_wide_for_a_bitset_is_not_taken_so_middle_out_order_still_labels():
    # eight items of 0..9000 copies: their count has 72,001 values, kept as bounds
    xs = vars(8)
    w0, w1 = [12, 15, 20, 22, 25, 28, 30, 33], [7, 9, 11, 5, 8, 10, 6, 4]
    goals = [fd.in_(*xs, fd.interval(0, 9000))]
    goals += [fd.scalar_product(w0, xs, "<=", 400000), fd.scalar_product(w1, xs, "<=", 150000)]
    objective = fd.dot([w + 10 for w in w0], xs)
    best = {
        order: run(1, objective, *goals, fd.label(xs, order=order, maximize=objective))
        for order in ("up", "mid")
    }
    assert best["up"] == best["mid"] == (631720,)


def test_the_count_is_branched_on_first_while_open_and_its_lp_value_fractional():
    rng = random.Random(3)
    w0, w1 = [rng.randint(10, 100) for _ in range(10)], [rng.randint(10, 100) for _ in range(10)]
    lagrangian = lagrangian_of([-(w + 10) for w in w0], [(w0, 200), (w1, 200)], 10)
    lagrangian.counts(4)  # variable 4 stands for the count here
    lagrangian.bound([0b11] * 10, [0] * 10)
    lagrangian.lp.values[lagrangian.lp.where[4]] = 0.5  # as an LP left it, within rounding
    idxs = [9, 4, 0]
    assert lagrangian.split_at(4) == 1 and lagrangian.split_at(0) is None
    assert lagrangian.fractional([0b11] * 10, idxs) == 1
    fixed = [0b11] * 4 + [0b01] + [0b11] * 5  # fixed: an LP's fraction is its rounding error
    assert idxs[lagrangian.fractional(fixed, idxs)] != 4


def test_two_items_swapped_for_two_find_the_fill_one_for_one_does_not():
    # one for one alone meets the optimum (CP-SAT's) after 547 nodes
    weights, capacities, values = correlated(60, 2, 5, lambda w: w + 10)
    assert nodes_to_optimum(weights, capacities, values, max_nodes=50) == 1841
