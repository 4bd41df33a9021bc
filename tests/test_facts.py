"""Fact tables: kanren's Relation/facts with an index on every argument position, and FD filtering."""

import random

import kanren
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from kanren.facts import Relation as KanrenRelation
from kanren.facts import facts as kanren_facts

from relqueens import Relation, conde, eq, fact, facts, fd, neq, run, var, vars
from relqueens.logic import State


def family(n: int, seed: int = 7) -> list[tuple[int, int]]:
    """``n`` parent facts (parent, child): a random forest, every child with one parent."""
    rng = random.Random(seed)
    return [(rng.randrange(child), child) for child in range(1, n + 1)]


def test_kanren_names_and_calling_convention():
    parent = Relation("parent")
    facts(parent, ("Homer", "Bart"), ("Homer", "Lisa"), ("Abe", "Homer"))
    fact(parent, "Homer", "Maggie")
    x, y = vars(2)
    assert run(0, x, parent("Homer", x)) == ("Bart", "Lisa", "Maggie")
    assert run(0, x, parent(x, "Bart")) == ("Homer",)
    assert run(0, (x, y), parent(x, y), parent(y, "Lisa")) == (("Abe", "Homer"),)
    assert kanren.run(0, x, parent(x, "Homer")) == ("Abe",)  # a goal of kanren's kind too
    assert run(0, x, parent("Marge", x)) == ()


QUERY = st.tuples(*[st.one_of(st.none(), st.integers(0, 3)) for _ in range(3)])


@settings(max_examples=60, deadline=None)
@given(st.sets(st.tuples(*[st.integers(0, 3)] * 3), max_size=25), QUERY, st.booleans())
def test_answers_equal_kanrens(rows, query, repeat):
    ours, theirs = Relation(), KanrenRelation()
    facts(ours, *rows)
    kanren_facts(theirs, *rows)
    vs = vars(3)
    args = [vs[i] if q is None else q for i, q in enumerate(query)]
    if repeat and query[0] is None and query[2] is None:
        args[2] = args[0]  # the same variable twice
    mine = run(0, tuple(args), ours(*args))
    assert len(mine) == len(set(mine))
    assert set(mine) == set(kanren.run(0, tuple(args), theirs(*args)))


def test_the_index_reads_only_matching_rows():
    r = Relation("r")
    facts(r, *[(i % 10, i % 3, i) for i in range(300)])
    S = State()
    assert r.matching([(0, 4)], [], S) == [(4, i % 3, i) for i in range(4, 300, 10)]
    both = r.matching([(0, 4), (1, 2)], [], S)
    assert both == [(4, 2, i) for i in range(14, 300, 30)]
    assert r.matching([(2, 299)], [], S) == [(9, 2, 299)]
    assert r.matching([(0, 11)], [], S) == ()


def test_grandparent_join_over_20000_facts():
    rows = family(20_000)
    parent = Relation("parent")
    facts(parent, *rows)
    children: dict[int, list[int]] = {}
    for p, c in rows:
        children.setdefault(p, []).append(c)
    expected = {(g, c) for g, p in rows for c in children.get(p, ())}
    g, p, c = vars(3)
    found = run(0, (g, c), parent(g, p), parent(p, c))
    assert len(found) == len(expected) and set(found) == expected
    who = rows[-1][0]
    assert set(run(0, g, parent(g, p), parent(p, who))) == {g2 for g2, c2 in expected if c2 == who}
    first = next(run(None, (g, c), parent(g, p), parent(p, c)))
    assert first in expected


def test_rows_of_strings_tuples_and_partly_bound_arguments():
    at = Relation("at")
    facts(at, ("cat", (0, 1)), ("dog", (2, 1)), ("owl", (2, 5)), ("cat", (3, 3)))
    x, y = vars(2)
    assert run(0, x, at(x, (2, y))) == ("dog", "owl")
    assert run(0, y, at("cat", (y, y))) == (3,)
    assert run(0, x, eq(y, 1), at(x, (2, y))) == ("dog",)  # a tuple bound through y: an index key


def test_a_repeated_variable_and_duplicate_rows():
    edge = Relation("edge")
    facts(edge, (1, 1), (1, 2), (2, 2), (1, 2))
    x = var()
    assert len(edge) == 3
    assert run(0, x, edge(x, x)) == (1, 2)


def test_fd_variables_keep_only_rows_in_their_domains():
    square = Relation("square")
    facts(square, *[(i, i * i) for i in range(100)])
    x, y = vars(2)
    assert run(0, y, fd.in_(x, fd.interval(3, 5)), square(x, y)) == (9, 16, 25)
    assert run(0, (x, y), fd.in_(x, y, fd.interval(0, 50)), x + y == 30, square(x, y)) == ((5, 25),)
    assert run(0, x, fd.in_(y, fd.interval(10, 30)), square(x, y)) == (4, 5)
    assert run(0, x, fd.in_(x, fd.interval(0, 9)), neq(x, 2), square(x, 4)) == ()


def test_the_domain_picks_index_buckets_when_no_value_is_known():
    square = Relation("square")
    facts(square, *[(i, i * i) for i in range(1000)])
    x, y = vars(2)
    S = next(iter(fd.in_(x, fd.domain(2, 7))(State())))
    assert square.matching([], [(0, x), (1, y)], S) == [(2, 4), (7, 49)]


def test_fd_constraints_posted_after_the_fact_goal_propagate():
    edge = Relation("edge")
    facts(edge, (1, 5), (2, 7), (3, 4))
    x, y = vars(2)
    assert run(0, (x, y), edge(x, y), fd.in_(x, y, fd.interval(0, 9)), y - x > 3) == (
        (1, 5),
        (2, 7),
    )


def test_facts_added_later_are_seen_by_the_next_query():
    r = Relation("r")
    x = var()
    goal = r(x)
    assert run(0, x, goal) == ()  # no rows yet
    fact(r, 1)
    assert run(0, x, goal) == (1,)


def test_bad_facts_are_named():
    r = Relation("r")
    fact(r, 1, 2)
    with pytest.raises(
        ValueError, match=r"r: the row \(3, 4, 5\) has 3 values, but the rows of r have 2"
    ):
        facts(r, (3, 4), (3, 4, 5))
    assert r.rows == [(1, 2)]  # nothing of a bad batch is added
    with pytest.raises(TypeError, match=r"the row \(1, \[2\]\) holds \[2\], which is unhashable"):
        fact(r, 1, [2])
    with pytest.raises(TypeError, match="holds the logic variable"):
        fact(r, 1, var())
    with pytest.raises(TypeError, match="a row is a tuple of values, got 5"):
        facts(r, 5)


def test_bad_calls_are_named():
    r = Relation("r")
    facts(r, (1, 2))
    with pytest.raises(TypeError, match=r"r takes 2 arguments \(its rows have 2 values\), got 3"):
        r(1, 2, 3)
    early = Relation("early")
    goal = early(var())
    fact(early, 1, 2)
    with pytest.raises(TypeError, match="early takes 2 arguments"):
        run(0, 1, goal)
    with pytest.raises(TypeError, match=r"argument 1 is \[1\], which is unhashable"):
        run(0, 1, r(1, [1]))


def test_fact_goals_in_a_disjunction_and_a_conjunction():
    edge = Relation("edge")
    facts(edge, (1, 2), (2, 3), (3, 1))
    x, y = vars(2)
    q = conde([edge(1, x)], [edge(x, 1)])
    assert set(run(0, x, q)) == {2, 3}
    assert run(0, (x, y), edge(x, y), edge(y, x)) == ()
