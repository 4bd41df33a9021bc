"""The relational core (relqueens.logic): states, unification, the fair search, neq, resources."""

import tracemalloc

import kanren
import pytest
from cons import cons
from kanren.constraints import neq as kanren_neq
from kanren.core import Zzz as kanren_Zzz
from relations import alwayso, nat, nevero, peano

import relqueens.fd.labeling as labeling
from relqueens import (
    appendo,
    canonical,
    conde,
    eq,
    fd,
    fresh,
    lall,
    lany,
    membero,
    neq,
    queens,
    relation,
    run,
    succeed,
    var,
    vars,
)
from relqueens.logic import State, Tail
from relqueens.logic.state import extension, unify_into

# -- unification ------------------------------------------------------------------


def test_unify_extends_in_place_and_checks_occurs():
    x, y = vars(2)
    s = {}
    assert unify_into((x, [y, 2]), (1, [3, 2]), s) and s == {x: 1, y: 3}
    assert not unify_into(x, (1, x), {})
    assert not unify_into([1], (1,), {})  # a list is not a tuple (kanren's rule)


def test_extension_leaves_the_substitution_alone():
    x, y = vars(2)
    s = {x: 0}
    assert extension([x, y], [0, 1], s) == {y: 1}
    assert extension([x, y], [1, 1], s) is False
    assert extension(x, 0, s) == {}
    assert s == {x: 0}


def test_tail_is_the_rest_of_a_list():
    t = Tail([1, 2, 3], 1)
    assert t == [2, 3] and len(t) == 2 and list(t) == [2, 3]
    q, a, d = vars(3)
    assert run(0, (a, d), eq(cons(a, d), (1, 2, 3))) == ((1, (2, 3)),)
    assert run(0, q, fresh(lambda a, d: [eq(cons(a, d), [1, 2]), eq(q, d)])) == ([2],)


def test_kanren_and_relqueens_variables_are_one():
    x = var("shared-name")
    assert x == kanren.var("shared-name") and hash(x) == hash(kanren.var("shared-name"))
    y = kanren.var()
    assert run(0, y, eq(x, 1), eq(y, x)) == (1,)


def test_consecutive_eqs_unify_as_one_goal_in_the_order_written():
    x, y, z = vars(3)
    goal = lall(eq(x, y), eq(y, z), lall(eq(z, [x, 1])))
    assert type(goal).__name__ == "Eqs"  # nested conjunctions of eqs join too
    assert repr(goal) == f"lall(eq({x!r}, {y!r}), eq({y!r}, {z!r}), eq({z!r}, [{x!r}, 1]))"
    S = State()
    assert not goal.step(S)  # z == [z, 1] fails the occurs check
    S = State()
    assert lall(eq(x, y), eq(y, z)).step(S) and S.data == {x: y, y: z}  # as one eq after the other
    assert run(0, (x, y), eq(x, 1), eq(y, [x, 2])) == ((1, [1, 2]),)
    assert run(0, x, eq(x, 1), eq(x, 2)) == ()


def test_consecutive_eqs_pinning_fd_variables_propagate_once(monkeypatch):
    from relqueens.fd.store import FDStore

    calls = []
    check = FDStore.post_unify_check
    monkeypatch.setattr(
        FDStore, "post_unify_check", lambda self, *a: calls.append(a) or check(self, *a)
    )
    xs = vars(9)
    pins = [eq(x, v) for x, v in zip(xs[:8], range(1, 9))]
    posted = [fd.in_(*xs, fd.interval(1, 9)), fd.distinct(xs), succeed]  # the eqs stay after
    assert run(0, xs, *posted, *pins) == ([*range(1, 9), 9],)
    assert len(calls) == 1  # one check of the eight bindings, not one each
    assert run(0, xs, *posted, *pins, eq(xs[8], 1)) == ()


def test_an_eq_right_after_constraints_unifies_first_with_the_same_answers():
    x, y = vars(2)
    posted = [fd.in_(x, y, fd.interval(0, 3)), x < y]
    goal = lall(*posted, eq(x, 2))
    assert [type(g).__name__ for g in goal.goals] == ["Eq", "Post"]
    assert run(0, (x, y), goal) == run(0, (x, y), eq(x, 2), *posted) == ((2, 3),)
    assert run(0, (x, y), *posted, eq(x, 3)) == ()
    # not past a goal that may give many states, nor past the labeling, whose order it would change
    for middle in (membero(y, [3, 2]), fd.label([y], order="down")):
        goal = lall(*posted, middle, eq(x, 1))
        assert type(goal.goals[-1]).__name__ == "Eq"
        assert run(0, y, goal) == (3, 2)


def test_a_run_of_constraints_and_eqs_is_its_eqs_unified_then_its_constraints_posted():
    x, y, z = vars(3)
    c1, c2 = fd.in_(x, y, z, fd.interval(0, 3)), x < y
    goal = lall(c1, eq(x, 1), c2, eq(z, 0), membero(y, [2, 3]), eq(y, 3), fd.ne(y, z))
    kinds = [type(g).__name__ for g in goal.goals]
    assert kinds[:2] == ["Eqs", "Post"] and kinds[3:] == ["Eq", "Relation"]
    assert goal.goals[1].constraints == (c1, c2)
    assert run(0, (x, y, z), goal) == ((1, 3, 0),)
    assert run(0, (x, y, z), c1, c2, membero(y, [2, 3]), fd.ne(y, z), eq(x, 1), eq(z, 0)) == (
        (1, 2, 0),
        (1, 3, 0),
    )


def test_a_subclass_of_eq_steps_on_its_own():
    from relqueens.logic.goals import Eq

    seen = []

    class Logged(Eq):
        __slots__ = ()

        def step(self, S):
            seen.append(self)
            return super().step(S)

    x = var()
    goal = lall(eq(x, 1), Logged(x, 1))
    assert type(goal).__name__ == "Conj"
    assert run(0, x, goal) == (1,) and len(seen) == 1


# -- the search -------------------------------------------------------------------


def test_disjunction_is_fair():
    x, y, q = vars(3)
    assert run(1, (x, y), membero(x, [1, 2]), nat(y), eq(x, 2)) == ((2, 0),)
    assert run(5, q, conde([eq(q, False)], [eq(q, True)]), alwayso(), eq(q, True)) == (True,) * 5
    assert run(1, q, conde([nevero()], [eq(q, 1)])) == (1,)
    assert run(3, q, lany(nevero(), alwayso(), nevero())) == (q, q, q)


def test_fair_with_labeling_in_the_conjunction():
    x, y = vars(2)
    goals = (fd.in_(x, fd.interval(0, 1)), fd.label([x]), nat(y), eq(x, 1))
    assert run(1, (x, y), *goals) == ((1, 0),)


def test_run_n_returns_after_n_answers_and_lazy_run_streams():
    q = var()
    assert run(3, q, nat(q)) == (0, peano(1), peano(2))
    stream = run(None, q, nat(q))
    assert [next(stream) for _ in range(4)][-1] == peano(3)


def test_infinite_disjunction_from_an_iterator():
    import itertools

    q = var()
    assert run(4, q, lany(eq(q, i) for i in itertools.count())) == (0, 1, 2, 3)


def test_relations_recurse_deeper_than_pythons_stack():
    q = var()

    @relation
    def counto(n, out):
        return conde(
            [eq(n, 0), eq(out, "done")], [fresh(lambda m: [eq(n, ("s", m)), counto(m, out)])]
        )

    assert run(0, q, counto(peano(20_000), q)) == ("done",)


def kanren_style_counto(n, out):
    """A recursive relation written the way kanren's own are: a generator goal."""

    def goal(S):
        m = var()
        yield from conde(
            [eq(n, 0), eq(out, "done")], [eq(n, ("s", m)), kanren_style_counto(m, out)]
        )(S)

    return goal


def zzz_counto(n, out):
    m = var()
    return conde([eq(n, 0), eq(out, "done")], [eq(n, ("s", m)), kanren_Zzz(zzz_counto, m, out)])


@pytest.mark.parametrize("relation_", [kanren_style_counto, zzz_counto])
def test_generator_relations_in_kanrens_style_do_not_nest(relation_):
    q = var()
    assert run(0, q, relation_(peano(3000), q)) == ("done",)


def test_a_goal_iterated_by_foreign_code_runs_its_own_search():
    x = var()

    def twice(S):
        found = list(membero(x, [1, 2])(S))  # not a delegation: a nested search
        yield from found

    assert run(0, x, twice) == (1, 2)


def test_kanrens_own_goals_run_in_relqueens():
    x, y = vars(2)
    assert run(0, x, kanren.membero(x, [1, 2, 3]), kanren.eq(x, 2)) == (2,)
    assert sorted(run(0, (x, y), kanren.appendo(x, y, [1, 2]))) == [
        ([], [1, 2]),
        ([1], [2]),
        ([1, 2], []),
    ]
    # kanren's neq changes the state it is given: each branch must get its own
    assert run(0, x, conde([kanren_neq(x, 1), eq(x, 2)], [eq(x, 1)])) == (2, 1)


def test_relqueens_goals_run_in_kanren():
    x, y = vars(2)
    assert kanren.run(0, x, membero(x, [1, 2, 3]), neq(x, 2)) == (1, 3)
    assert kanren.run(0, (x, y), appendo(x, y, [1])) == (([], [1]), ([1], []))


def test_branches_do_not_share_constraints():
    x = var()
    assert sorted(run(0, x, conde([neq(x, 1)], [eq(x, 1)]), membero(x, [1, 2]))) == [1, 2]
    assert sorted(run(0, x, fd.in_(x, fd.interval(0, 2)), conde([fd.ne(x, 0)], [eq(x, 0)]))) == [
        0,
        1,
        2,
    ]


# -- disequality ----------------------------------------------------------------------


def test_neq_on_lists_is_a_disjunction():
    x, y = vars(2)
    assert run(0, (x, y), neq([x, y], [0, 1]), membero(x, [0, 1]), membero(y, [0, 1])) == (
        (0, 0),
        (1, 0),
        (1, 1),
    )
    assert run(0, x, neq([x, 1], [0, 2])) == (x,)  # can never be equal: no constraint left


def test_neq_between_variables_woken_by_either_side():
    x, y = vars(2)
    assert run(0, x, neq(x, y), eq(y, 3), eq(x, 3)) == ()
    assert run(0, x, neq(x, y), eq(x, y)) == ()
    assert run(0, x, neq(x, y), eq(y, x)) == ()
    assert run(0, x, neq(x, y), eq(x, 1), eq(y, 2)) == (1,)


def test_neq_respects_fd_domains_and_hidden_variables():
    x, y = vars(2)
    dom = fd.in_(x, fd.interval(0, 2))
    assert run(0, y, dom, neq(x, 0), eq(y, 1)) == (1,)
    assert run(0, y, neq(x, 0), dom, eq(y, 1)) == (1,)
    assert run(0, y, neq(x, 0), neq(x, 1), neq(x, 2), dom, eq(y, 1)) == ()
    assert run(0, x, dom, neq(x, 1)) == (0, 2)
    assert run(0, x, dom, neq(x, "a")) == (0, 1, 2)


def test_neq_with_an_fd_expression_is_fd_ne():
    x = var()
    assert run(0, x, fd.in_(x, fd.interval(0, 2)), neq(x, x + 1)) == (0, 1, 2)
    assert run(0, x, fd.in_(x, fd.interval(0, 2)), neq(x + 1, 2)) == (0, 2)


def test_residual_answers_show_open_disequalities():
    x, y = vars(2)
    (r,) = run(0, (x, y), neq([x, y], [0, 1]), residual=True)
    assert "neq" in repr(r) and len(r.constraints) == 1
    assert canonical(r.term) == ("_0", "_1")


# -- resources --------------------------------------------------------------------


def _peak_mb(thunk):
    tracemalloc.start()
    try:
        result = thunk()
        return result, tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()


def test_a_hundred_thousand_eq_goals_take_linear_memory():
    xs = vars(100_000)
    goals = [eq(xs[i], i) for i in range(100_000)]
    answers, peak = _peak_mb(lambda: run(0, xs, *goals))
    assert answers == (list(range(100_000)),)
    assert peak < 1000, peak


def test_twenty_thousand_labeled_variables_take_little_memory():
    xs = vars(20_000)
    answers, peak = _peak_mb(lambda: run(1, xs, fd.in_(*xs, fd.interval(0, 9)), fd.label(xs)))
    assert answers == ([0] * 20_000,)
    assert peak < 1000, peak


def test_rebuilt_domains_give_the_same_search(monkeypatch):
    expected = [queens(n) for n in range(4, 9)] + [queens(8, symmetry=True), queens(8, select="ff")]
    monkeypatch.setattr(labeling, "COPY_LIMIT", 0)  # every search rebuilds domains by replaying
    assert [queens(n) for n in range(4, 9)] + [
        queens(8, symmetry=True),
        queens(8, select="ff"),
    ] == expected


def test_domain_copies_are_kept_per_level_while_the_path_holds_few():
    few, many = (
        [0b11] * 3_660,
        [0b11] * 20_000,
    )  # a magic series of 60 by reified counts; a big label
    assert labeling._stride(few, list(range(60)), "enum") == 1  # every node its own copy
    assert labeling._stride(many, list(range(20_000)), "enum") > 1  # copies every few levels
    assert labeling._stride(few, list(range(60)), "bisect") == 1
    wide = [fd.Wide(0, 10**12)] * 3_660  # bisect halves each about 40 times
    assert (
        labeling._stride(wide, list(range(60)), "bisect")
        > 1
        == labeling._stride(wide, [0], "bisect")
    )


def test_lists_of_ten_thousand():
    big = list(range(10_000))
    x, y, q = vars(3)
    assert run(1, x, membero(x, big), eq(x, 9_999)) == (9_999,)
    assert run(0, q, appendo(big[:5_000], big[5_000:], q)) == (big,)
    assert run(2, (x, y), appendo(x, y, big)) == (([], big), ([0], big[1:]))


# -- errors ------------------------------------------------------------------------


def test_errors_name_the_problem():
    q = var()
    with pytest.raises(TypeError, match="goal 1 is not a goal: 5"):
        run(0, q, eq(q, 1), 5)
    with pytest.raises(TypeError, match="not a goal"):
        lall(eq(q, 1), "x")
    with pytest.raises(TypeError, match="fresh takes a function"):
        fresh(3)
    with pytest.raises(TypeError, match="is not a goal"):
        run(0, q, relation(lambda: 42)())
    with pytest.raises(TypeError, match="conde clause"):
        conde(5)
    with pytest.raises(ValueError, match="positive integer"):
        run(-1, q, eq(q, 1))
    with pytest.raises(TypeError, match="positive integer"):
        run(1.5, q, eq(q, 1))
    with pytest.raises(TypeError, match="FD expression"):
        eq(q, q + 1)
    with pytest.raises(TypeError, match="not an iterable of states"):
        run(0, q, lambda S: 3)


def test_empty_disjunction_fails_and_empty_conjunction_succeeds():
    q = var()
    assert run(0, q, lany()) == () and run(0, q, conde()) == ()
    assert run(0, q, lall()) == (q,)
    assert isinstance(State().copy(), State)
