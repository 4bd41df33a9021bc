"""run/run_all conventions, laziness, goal order, labeling options, scale."""

import itertools
import random

import pytest

from relqueens import (
    DomainError,
    Residual,
    conde,
    eq,
    fd,
    lall,
    membero,
    neq,
    run,
    run_all,
    var,
    vars,
)
from relqueens.fd import interval


def queens_goals(n):
    cols = vars(n)
    goals = [fd.in_(*cols, interval(0, n - 1)), fd.distinct(cols)]
    for i, j in itertools.combinations(range(n), 2):
        goals += [cols[j] != cols[i] + (j - i), cols[i] != cols[j] + (j - i)]
    return cols, goals


def test_run_conventions():
    x = var()
    goal = fd.in_(x, interval(0, 4))
    assert run(0, x, goal) == (0, 1, 2, 3, 4)
    assert run(2, x, goal) == (0, 1)
    assert run(9, x, goal) == (0, 1, 2, 3, 4)
    lazy = run(None, x, goal)
    assert next(lazy) == 0 and list(lazy) == [1, 2, 3, 4]
    assert run_all(x, goal) == run(0, x, goal)


def test_plain_kanren_goals_still_work():
    x, y = var(), var()
    assert run_all(x, membero(x, [1, 2, 3])) == (1, 2, 3)
    assert run_all((x, y), eq((x, 2), (1, y))) == ((1, 2),)
    assert run_all(x, conde([eq(x, 1)], [eq(x, 2)])) == (1, 2)
    unbound = run_all(x, eq(y, 1))
    assert len(unbound) == 1 and unbound[0] is x


def test_first_answer_is_lazy():
    """The first board of 14,200 comes without computing the rest."""
    cols, goals = queens_goals(12)
    seen = []

    def spy(S):
        seen.append(1)
        yield S

    answers = run(None, cols, *goals, fd.label(cols), spy)
    first = next(answers)
    assert sorted(first) == list(range(12))
    assert len(seen) == 1
    next(answers)
    assert len(seen) == 2


def test_queens_eight_counts_in_any_goal_order():
    cols, goals = queens_goals(8)
    assert len(run_all(cols, *goals)) == 92
    rng = random.Random(1)
    for _ in range(5):
        shuffled = goals + [eq(cols[0], 0)]
        rng.shuffle(shuffled)
        sols = run_all(cols, *shuffled)
        assert len(sols) == 4 and all(s[0] == 0 for s in sols)


def test_pin_by_unifying_the_whole_list():
    cols, goals = queens_goals(8)
    board = [0, var(), var(), var(), var(), var(), var(), var()]
    assert len(run_all(cols, eq(cols, board), *goals)) == 4
    assert len(run_all(cols, *goals, eq(cols, board))) == 4


def test_pin_outside_domain_and_non_integer_fail_logically():
    x = var()
    assert run_all(x, fd.in_(x, interval(0, 3)), eq(x, 7)) == ()
    assert run_all(x, eq(x, 7), fd.in_(x, interval(0, 3))) == ()
    assert run_all(x, fd.in_(x, interval(0, 3)), eq(x, "a")) == ()
    assert run_all(x, eq(x, "a"), fd.in_(x, interval(0, 3))) == ()
    assert run_all(x, eq(x, True), fd.in_(x, interval(0, 3))) == ()


def test_aliasing_fd_variables():
    x, y, z = vars(3)
    assert run_all((x, y), fd.in_(x, interval(0, 5)), fd.in_(y, interval(3, 9)), eq(x, y)) == (
        (3, 3),
        (4, 4),
        (5, 5),
    )
    # x bound to a variable with no domain: the domain follows the binding
    assert run_all(z, fd.in_(x, interval(0, 2)), eq(x, z), z > 0) == (1, 2)
    assert run_all(z, eq(x, z), z > 0, fd.in_(x, interval(0, 2))) == (1, 2)


def test_neq_does_not_leak_between_branches():
    x = var()
    goal = conde([neq(x, 1)], [eq(x, 1)])
    assert sorted(run_all(x, fd.in_(x, interval(0, 2)), goal)) == [0, 1, 2]


def test_hidden_fd_variables_are_checked_not_enumerated():
    q, h1, h2, h3 = vars(4)
    # h1..h3 distinct in 0..1 is unsatisfiable, though propagation alone cannot tell
    hidden = [fd.in_(h1, h2, h3, interval(0, 1)), fd.distinct([h1, h2, h3])]
    assert run_all(q, fd.in_(q, interval(0, 2)), *hidden) == ()
    # satisfiable hidden variables neither multiply nor hide answers
    free = [fd.in_(h1, h2, interval(0, 5))]
    assert run_all(q, fd.in_(q, interval(0, 2)), *free) == (0, 1, 2)


def test_label_strategies_give_the_same_set():
    cols, goals = queens_goals(6)
    base = set(map(tuple, run_all(cols, *goals)))
    assert len(base) == 4
    for select in ("leftmost", "ff", "ffc", "min", "max"):
        for order in ("up", "down", "mid"):
            sols = run_all(cols, *goals, fd.label(cols, select=select, order=order))
            assert len(sols) == 4 and set(map(tuple, sols)) == base, (select, order)


def test_label_order_down_and_leftmost_default_order():
    x, y = vars(2)
    goals = [fd.in_(x, y, interval(0, 2)), x < y]
    assert run_all((x, y), *goals) == ((0, 1), (0, 2), (1, 2))
    assert run_all((x, y), *goals, fd.label([x, y], order="down")) == ((1, 2), (0, 2), (0, 1))
    assert run_all((y, x), *goals) == ((1, 0), (2, 0), (2, 1))


def test_label_ff_picks_the_smallest_domain_first():
    x, y = vars(2)
    seen = []

    def spy(S):
        seen.append((S.data.get(x), S.data.get(y)))
        yield S

    goals = [fd.in_(x, interval(0, 9)), fd.in_(y, interval(0, 1))]
    run_all((x, y), *goals, fd.label([x, y], select="ff"), spy)
    assert [b for _, b in seen[:10]] == [0] * 10


def test_residual_mode():
    x, y = vars(2)
    answers = run(0, (x, y), fd.in_(x, y, interval(0, 7)), x < y, residual=True)
    assert len(answers) == 1 and isinstance(answers[0], Residual)
    r = answers[0]
    assert r.term == (x, y)
    assert r.domains == {x: interval(0, 6), y: interval(1, 7)}
    assert len(r.constraints) == 1
    # a residual constraint is a goal: posting it with a pin finishes the job
    assert run_all((x, y), fd.in_(x, y, r.domains[x] | r.domains[y]), *r.constraints, eq(x, 6)) == (
        (6, 7),
    )


def test_residual_lists_pending_constraints():
    x, y = vars(2)
    (r,) = run(0, x, fd.in_(x, interval(0, 3)), fd.ne(x, y), residual=True)
    assert any(repr(c) == f"{x} != {y}" for c in r.constraints)
    # as in SWI, an order constraint gives a variable without a domain the bounds it implies
    (r,) = run(0, x, fd.in_(x, interval(0, 3)), x < y, residual=True)
    assert r.domains[y] == interval(1, fd.sup) and len(r.constraints) == 1


def test_tens_of_thousands_of_constraints_post_without_recursion():
    cols, goals = queens_goals(200)
    goals += [fd.ne(cols[i], cols[j]) for i, j in itertools.combinations(range(200), 2)]
    assert len(goals) > 59_000
    (sol,) = run(1, cols, *goals, fd.label(cols, select="ff", order="mid"))
    assert sorted(sol) == list(range(200))
    # kanren-style nesting of the same goals also works
    (sol2,) = run(
        1, cols, lall(lall(goals[:2]), lall(goals[2:])), fd.label(cols, select="ff", order="mid")
    )
    assert sol2 == sol


def test_constraints_posted_before_domains():
    cols, goals = queens_goals(6)
    reordered = goals[2:] + goals[:2]
    assert len(run_all(cols, *reordered)) == 4


def test_derived_domain_from_equality():
    x, y = vars(2)
    assert run_all(x, fd.in_(y, interval(0, 2)), x + 1 == y) == (-1, 0, 1)


def test_a_traced_search_over_a_wide_domain():
    from relqueens import SearchTrace

    x = vars(1)[0]
    t = SearchTrace()
    assert run(2, x, fd.in_(x, fd.interval(0, 10**9)), fd.label([x], trace=t)) == (0, 1)
    assert t.counts()["solutions"] == 2


def test_labeling_variables_bound_to_integers_without_any_domain():
    from relqueens import eq

    x = vars(1)[0]
    assert run(0, x, eq(x, 1), fd.label([x])) == (1,)


def test_bisect_down_under_branch_and_bound_keeps_values_in_their_domains():
    # branch and bound can narrow the branching variable to one value; bisect down took "nothing"
    weights, values, capacity = [6, 3, 6, 3, 5, 7, 5], [1, 9, 5, 6, 2, 6, 1], 17
    take, total = vars(7), vars(1)[0]
    goals = [
        fd.in_(*take, fd.interval(0, 1)),
        fd.in_(total, fd.interval(0, 37)),
        fd.scalar_product(weights, take, "<=", capacity),
        total == fd.dot(values, take),
    ]
    for order, branching in itertools.product(("up", "down", "mid"), ("enum", "step", "bisect")):
        if (order, branching) != ("mid", "bisect"):  # an error (bisect has no middle-out order)
            label = fd.label(take, order=order, branching=branching, maximize=total)
            ((best, chosen),) = run(1, (total, tuple(take)), *goals, label)
            assert set(chosen) <= {0, 1} and best == 22, (order, branching, chosen)
            assert sum(w * t for w, t in zip(weights, chosen)) <= capacity


def test_step_and_bisect_label_a_wide_domain():
    x = vars(1)[0]
    wide = fd.in_(x, fd.interval(-(10**12), 10**12))
    assert run(2, x, wide, fd.label([x], branching="step")) == (-(10**12), -(10**12) + 1)
    assert run(2, x, wide, fd.label([x], branching="bisect", order="down")) == (10**12, 10**12 - 1)
    assert run(1, x, wide, x > 5, fd.label([x], branching="bisect", minimize=x)) == (6,)


def test_fresh_variables_are_kanren_variables_of_their_name():
    """Fresh variables skip kanren's name registry, yet stay equal to Var(name)."""
    import pickle

    from unification import Var

    x = var()
    assert Var(x.token) == x and hash(Var(x.token)) == hash(x)
    assert pickle.loads(pickle.dumps(x)) == x
    assert var("named") is var("named") is Var("named")
    assert run_all(x, eq(Var(x.token), 3)) == (3,)


def test_variables_made_together_are_fresh_like_those_made_one_by_one():
    """vars(n) names its variables in one step: each new, none shared with var() before or after,
    each a kanren variable of its name."""
    from unification import Var

    before, xs, after = var(prefix="p"), vars(3, prefix="p"), var(prefix="p")
    tokens = [v.token for v in (before, *xs, after)]
    assert len(set(tokens)) == 5 and all(t.startswith("p_") for t in tokens)
    assert all(Var(v.token) == v and hash(Var(v.token)) == hash(v) for v in xs)
    assert vars(0) == [] and run_all(tuple(xs), fd.in_(*xs, fd.domain(7))) == ((7, 7, 7),)


def test_constants_and_distinct_terms_are_checked_as_given():
    """lin(5) is the constant 5 (a bool is refused); fd.distinct takes any iterable of terms."""
    from relqueens.fd.terms import lin

    five = lin(5)
    assert five.terms == {} and five.const == 5 and str(five + lin(2)) == "7"
    with pytest.raises(TypeError, match="got True"):
        lin(True)
    a, b = vars(2)
    assert run_all((a, b), fd.in_(a, b, fd.interval(0, 1)), fd.distinct(x for x in (a, b))) == (
        (0, 1),
        (1, 0),
    )
    with pytest.raises(TypeError, match="distinct takes logic variables or integers"):
        fd.distinct([a, 1.5])


def test_warm_up_can_be_switched_off():
    """Importing relqueens solves tiny models first and collects the heap it built (no
    full collection is pending for the first query), unless RELQUEENS_NO_WARMUP is set."""
    import os
    import subprocess
    import sys

    probe = (
        "import gc, sys; seen = []; "
        "sys.setprofile(lambda f, e, a: e == 'call' and f.f_code.co_name == 'warm_up' "
        "and seen.append(1)); import relqueens; sys.setprofile(None); "
        "print(len(seen), gc.get_stats()[2]['collections'] > 0)"
    )
    for env, expect in (({}, "1 True"), ({"RELQUEENS_NO_WARMUP": "1"}, "0")):
        out = subprocess.run(
            [sys.executable, "-c", probe],
            env={**os.environ, **env},
            capture_output=True,
            text=True,
            check=True,
        )
        got = out.stdout.split()
        assert got[: len(expect.split())] == expect.split(), out.stderr  # without: no claim on gc


def test_a_constraint_waiting_on_an_alias_wakes_when_the_domain_arrives():
    """x3 gets inf..sup from x0 < x3, x1 is bound to it, all_distinct waits on x1; x3's
    finite domain must wake it (it used to wake only x3's own waiters: a DomainError)."""
    x0, x1, x3 = vars(3)
    goals = (fd.in_(x0, fd.domain(0)), x0 < x3, eq(x3, x1), fd.all_distinct([x0, x1]))
    assert run_all((x0, x1), *goals, fd.in_(x3, fd.domain(0, 3, 4))) == ((0, 3), (0, 4))


def test_expressions_in_the_query_come_back_as_values():
    """A query's FD expressions are evaluated, and their variables are labeled as shown ones."""
    x, y = vars(2)
    assert run_all(x + 1, fd.in_(x, interval(0, 2))) == (1, 2, 3)
    pairs = [(a, b) for a in range(3) for b in range(1, 3)]
    got = run_all(
        (x, 2 * x + abs(x - y), x // y, x < y), fd.in_(x, interval(0, 2)), fd.in_(y, interval(1, 2))
    )
    assert got == tuple((a, 2 * a + abs(a - b), a // b, a < b) for a, b in pairs)
    assert run_all(fd.count([x, y], 1), fd.in_(x, y, interval(0, 1))) == (0, 1, 1, 2)
    (r,) = run(1, x + y, fd.in_(x, y, interval(0, 3)), x < y, residual=True)
    assert repr(r.term) == f"{x} + {y}"  # open variables stay in a residual answer
    assert run_all(x * 3 + 1, eq(x, 2)) == (7,)  # no FD store at all


def test_a_domain_too_wide_for_a_constraint_is_named():
    """A global that needs bitsets names the domain it cannot take, not "no domain"."""
    a, b = vars(2)
    wide = fd.in_(a, b, interval(0, 10**9))
    with pytest.raises(DomainError, match=r"at most 16,777,216 values.*\{0\.\.1000000000\}"):
        run(1, (a, b), wide, fd.disjunctive([a, b], [3, 2]))
    with pytest.raises(DomainError, match="has no domain"):
        run(1, (a, b), fd.disjunctive([a, b], [3, 2]))


def test_answers_read_from_the_domains_match_the_substitution(monkeypatch):
    """A labeling's answers, read straight from its domains, are what reifying its substitution gives."""
    from relqueens.fd.labeling import SolvedState

    x, y, z, w, u = vars(5)
    domain = fd.in_(x, y, z, interval(0, 3))
    big = fd.in_(u, interval(-(10**12), 10**12))
    queries = [
        ([x, y, z], [domain, x < y, y < z, fd.label([x, y, z])]),
        ((x, 7, "s", z), [domain, fd.ne(x, z), fd.label([z, x], select="ff")]),
        (x, [domain, fd.label([x], order="down")]),
        ([x, [y, z]], [domain, x < y, fd.label([x, y, z])]),  # nested
        ([x, w], [domain, fd.label([x])]),  # a variable outside the FD store
        ([x, y], [domain, eq(w, y), x < w, fd.label([x])]),  # y left open by the labeling
        ([x, y], [domain, neq(x, 2), fd.label([x, y])]),  # another kanren store
        ([x, y], [domain, fd.label([x, y]), eq(z, x)]),  # a goal after the labeling
        ([u, x], [big, domain, fd.eq(u, x + 5), fd.label([x, u], branching="bisect")]),
    ]
    read, answer = [], SolvedState.answer
    monkeypatch.setattr(
        SolvedState, "answer", lambda self, q: read.append(answer(self, q)) or read[-1]
    )
    fast = [run_all(q, *goals) for q, goals in queries]
    assert any(done for done, _ in read) and not all(done for done, _ in read)
    monkeypatch.setattr(SolvedState, "answer", lambda self, q: (False, None))
    slow = [run_all(q, *goals) for q, goals in queries]
    assert fast == slow
    assert fast[1][0] == (1, 7, "s", 0) and fast[2] == (3, 2, 1, 0) and len(fast[3]) == 24
    assert fast[4][0][1] is w and fast[6] == tuple([a, b] for a in (0, 1, 3) for b in range(4))


def test_an_optimisation_stopped_by_a_limit_gives_its_best_solution_so_far():
    from relqueens import SearchLimit

    marks = vars(7)
    goals = [fd.in_(*marks, fd.interval(0, 40)), fd.eq(marks[0], 0)]
    goals += [a < b for a, b in itertools.pairwise(marks)]
    gaps = []
    for i, a in enumerate(marks):
        for b in marks[i + 1 :]:
            g = vars(1)[0]
            gaps.append(g)
            goals.append(fd.eq(g, b - a))
    goals.append(fd.all_distinct(gaps))
    (optimum,) = run(1, marks[-1], *goals, fd.minimize(marks[-1], marks))
    with pytest.raises(SearchLimit, match="best solution so far") as stopped:
        run(1, marks, *goals, fd.minimize(marks[-1], marks), max_nodes=30)
    best = stopped.value.best
    assert stopped.value.answers == () and len(best) == 7 and best[-1] > optimum
    assert len({b - a for i, a in enumerate(best) for b in best[i + 1 :]}) == 21
    # a goal after the labeling sees it: one that rejects it leaves no best
    with pytest.raises(SearchLimit) as stopped:
        run(1, marks, *goals, fd.minimize(marks[-1], marks), fd.ne(marks[1], best[1]), max_nodes=30)
    assert stopped.value.best is None or stopped.value.best[1] != best[1]
    # a labeling without an objective has no best
    with pytest.raises(SearchLimit) as stopped:
        run(0, marks, *goals, max_nodes=30)
    assert stopped.value.best is None


def test_a_time_limit_stops_a_long_propagation_inside_one_node():
    """``x < y, y <= x ** 2 // (x + 1)`` over 1..10**6 creeps the bounds down by one a step:
    the clock is read there too (linear cycles, ``x < y, y < x``, and those through products,
    quotients and remainders fail at once: a power gives no row to eliminate)."""
    import time

    from relqueens import SearchLimit

    x, y = vars(2)
    start = time.monotonic()
    with pytest.raises(SearchLimit, match="time limit"):
        run(1, x, fd.in_(x, y, interval(1, 10**6)), x < y, y <= (x**2) // (x + 1), timeout=0.5)
    assert time.monotonic() - start < 5


def test_min_and_max_of_one_term_twice_are_that_term():
    x = vars(1)[0]
    assert run_all(x, fd.max_(x, x) == 4) == (4,)
    assert run_all(x, fd.min_(x, x, x + 0) == -2) == (-2,)


def test_constraints_grouped_by_fd_eq_join_their_neighbours_in_one_posting():
    from relqueens.fd.post import Post
    from relqueens.logic.goals import goals_of

    x, y, z = vars(3)
    goals = (fd.in_(x, y, z, fd.interval(0, 3)), fd.eq(x < y, y < z), fd.ne(z, 2))
    (joined,) = goals_of(goals, True)
    assert type(joined) is Post and len(joined.constraints) == 4
    assert run_all((x, y, z), *goals) == ((0, 1, 3), (0, 2, 3), (1, 2, 3))


def test_gathering_answers_pauses_the_garbage_collector_and_restarts_it():
    """``run(0, ...)`` and ``run(n, ...)`` gather their answers with the cyclic collector
    paused, and turn it back on after, even when a goal raises; a collector the caller
    turned off stays off; a lazy run leaves it alone."""
    import gc

    q, seen = var(), []

    def watch(S):
        seen.append(gc.isenabled())
        yield S

    def fail_loudly(S):
        raise RuntimeError("from inside the query")
        yield S

    assert run(0, q, eq(q, 1), watch) == (1,) and seen == [False] and gc.isenabled()
    assert run(1, q, eq(q, 2), watch) == (2,) and seen[-1] is False and gc.isenabled()
    assert next(run(None, q, eq(q, 3), watch)) == 3 and seen[-1] is True
    with pytest.raises(RuntimeError, match="from inside"):
        run(0, q, fail_loudly)
    assert gc.isenabled()
    gc.disable()
    try:
        run(0, q, eq(q, 4), watch)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_answers_after_an_optimum_are_searched_in_the_model_as_of_their_store():
    """Branch and bound over one item, a second labeling after it: the answers after the
    optimum are searched while that labeling posts into copies of the answers' states (the
    model they share moves on), each in the model as of its own store, with no IndexError."""
    values = [20, 29, 18, 18, 18, 34, 24, 26, 20, 33]
    weights = [[5, 9, 4, 4, 4, 12, 7, 8, 5, 12], [1, 5, 9, 5, 8, 6, 2, 2, 7, 7]]
    xs, total = vars(10), var()
    goals = [fd.in_(*xs, interval(0, 1)), fd.in_(total, interval(-2, 240))]
    goals += [total == fd.dot(values, xs)]
    goals += [fd.scalar_product(w, xs, "<=", c) for w, c in zip(weights, (19, 21))]
    first = fd.label([xs[6]], select="ffc", order="mid", branching="step", maximize=total)
    found = run(0, (*xs, total), *goals, first, fd.label(xs))
    packings = [
        p
        for p in itertools.product((0, 1), repeat=10)
        if all(sum(map(int.__mul__, w, p)) <= c for w, c in zip(weights, (19, 21)))
    ]
    assert sorted(a[:-1] for a in found) == packings
    assert all(a[-1] == sum(map(int.__mul__, values, a[:-1])) for a in found)


def test_goals_after_branch_and_bound_over_some_variables_lose_no_answer():
    """Five of nine items labeled by branch and bound, a capacity posted after it and all of
    them labeled then: every packing comes (the answers after the optimum were pruned in a
    model that the goals after moved on, which lost some)."""
    values = [4, 4, 14, 10, 12, 8, 16, 10, 19]
    first, second = [3, 3, 8, 6, 7, 5, 9, 6, 10], [6, 6, 1, 2, 6, 7, 4, 3, 2]
    xs, total = vars(9), var()
    goals = [fd.in_(*xs, interval(0, 1)), fd.in_(total, interval(-3, 98))]
    goals += [total == fd.dot(values, xs), fd.scalar_product(second, xs, "<=", 17)]
    some = [xs[7], xs[2], xs[1], xs[5], xs[6]]
    label = fd.label(some, select="max", maximize=fd.dot(values, xs))
    found = run(0, tuple(xs), *goals, label, fd.scalar_product(first, xs, "<=", 22), fd.label(xs))
    packings = [
        p
        for p in itertools.product((0, 1), repeat=9)
        if sum(map(int.__mul__, first, p)) <= 22 and sum(map(int.__mul__, second, p)) <= 17
    ]
    assert sorted(found) == packings


def test_branch_and_bound_over_some_items_leaves_the_others_open_in_its_answers():
    """Two of ten items labeled, their total maximised, then all labeled: the LP's guess that
    found the best fixed the other items too, but the first answer leaves them open, so every
    packing still comes, each once."""
    values = [10, 16, 22, 20, 22, 22, 10, 9, 8, 2]
    weights = [6, 9, 12, 11, 12, 12, 6, 5, 5, 2]
    xs, total = vars(10), var()
    goals = [fd.in_(*xs, interval(0, 1)), fd.in_(total, interval(0, 142))]
    goals += [total == fd.dot(values, xs), fd.scalar_product(weights, xs, "<=", 27)]
    label = fd.label([total, xs[8], xs[0]], select="min", maximize=total)
    found = run(0, tuple(xs), *goals, label, fd.label(xs))
    packings = [
        p for p in itertools.product((0, 1), repeat=10) if sum(map(int.__mul__, weights, p)) <= 27
    ]
    assert len(found) == len(set(found)) and sorted(found) == packings
    best = max(sum(map(int.__mul__, values, p)) for p in packings)
    assert sum(map(int.__mul__, values, found[0])) == best
