"""``distinct`` with terms that a unification makes equal fails, domains or not.

``fd.distinct([x, y])`` then ``y = x`` without domains waited on ``x`` before it
looked for a repeated term: the query raised ``DomainError`` ("cannot label"),
and with ``residual=True`` it answered ``(x, x)``, an answer to a query that has
none.
"""

from __future__ import annotations

import itertools
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_fd_property import run, shuffled  # the guarded run: QueryHung past 5 s

from relqueens import eq, fd, vars
from relqueens.fd.post import post_into
from relqueens.fd.store import store_of
from relqueens.logic.state import State

SMALL = range(-2, 3)


@pytest.mark.parametrize("first", [True, False])
@pytest.mark.parametrize("domain", [True, False])
def test_a_term_twice_after_a_unification_fails(first, domain):
    x, y, z = vars(3)
    for terms, make in itertools.product(
        ([x, y], [x + 1, y + 1, z], [x, z, y], [z, x, y], [z, y + 2, 1, x + 2]),
        (fd.distinct, fd.all_distinct),
    ):
        goals = [make(terms), eq(y, x)]
        if domain:
            goals.append(fd.in_(x, y, z, fd.interval(0, 5)))
        if not first:
            goals.reverse()
        assert run(0, (x, y, z), *goals, residual=True) == ()
        assert run(0, (x, y, z), *goals) == ()


def test_terms_a_unification_keeps_apart_stay():
    """``x + 1`` and ``y`` with ``y = x`` differ for every ``x``: the answer keeps ``x`` free."""
    x, y = vars(2)
    answers = run(0, (x, y), fd.distinct([x + 1, y]), eq(y, x), residual=True)
    assert len(answers) == 1 and answers[0].term == (x, x)


def test_a_distinct_waits_on_one_variable_at_a_time_and_is_posted_once():
    """Without domains a ``distinct`` waits on its first variable without one; as its variables
    get domains one by one it moves on, and is posted once (its propagators once) when the last
    one has a domain. The residual shows it once."""
    x, y, z, w = vars(4)
    c = fd.distinct([x, y, z, w])
    (answer,) = run(0, (x, y, z, w), c, residual=True)
    assert answer.constraints == (c,)
    S = State()
    for v, waits in ((x, y), (y, z), (z, w)):
        assert post_into(
            S, [c, fd.in_(v, fd.interval(0, 3))] if v is x else [fd.in_(v, fd.interval(0, 3))]
        )
        assert store_of(S).pending == {waits: (c,)}
    assert post_into(S, [fd.in_(w, fd.interval(0, 3))])
    store = store_of(S)
    assert not store.pending
    assert [e[0] for e in store.current().props] == ["distinct", "prop"]  # a pigeonhole check


@pytest.mark.parametrize("make", [fd.distinct, fd.all_distinct])
def test_a_unification_that_repeats_a_waiting_term_fails_at_once(make):
    """``y = z`` after ``distinct([x, y, z])`` (``x`` without a domain, so it waits on ``x``)
    fails when unified, before the labeling of other variables (found only when each answer was
    read, the search grew tenfold a variable); a member bound to what is not an integer fails
    too, in either order (it raised ``TypeError``, unhashable)."""
    x, y, z = vars(3)
    vs = vars(8)
    start = time.process_time()
    goals = [make([x, y, z]), eq(y, z), fd.in_(*vs, fd.interval(0, 9)), fd.label(list(vs))]
    assert run(1, (x, y, z, *vs), *goals) == ()
    assert time.process_time() - start < 2
    for other in ([1], "a"):
        for goals in ([make([x, y]), eq(y, other)], [eq(y, other), make([x, y])]):
            assert run(0, (x, y), *goals) == ()
            assert run(0, (x, y), *goals, residual=True) == ()


@pytest.mark.parametrize("make", [fd.distinct, fd.all_distinct])
@pytest.mark.parametrize("same", [lambda y: [y, y], lambda y: [y + 1, y + 1]])
def test_a_group_stated_with_a_term_twice_fails_before_it_would_wait(make, same):
    """``all_distinct([x, y, y])`` with ``x`` without a domain fails when posted, as ``distinct``
    does, within a node limit: parked until ``x`` has a domain, it failed only once each answer
    of a labeling elsewhere was read."""
    x, y = vars(2)
    vs = vars(8)
    goals = [make([x, *same(y)]), fd.in_(y, *vs, fd.interval(0, 9)), fd.label(list(vs))]
    assert run(1, (x, y, *vs), *goals, max_nodes=5) == ()


def test_no_answer_before_an_infinite_domain():
    """``x - 1 >= z, fd.eq(x, z)`` without domains: no answer, with or without ``residual`` (the
    labeling checked that the domains are finite before it looked for an answer at all)."""
    x, z = vars(2)
    assert run(0, (x, z), x - 1 >= z, fd.eq(x, z)) == ()
    assert run(0, (x, z), x - 1 >= z, fd.eq(x, z), residual=True) == ()


@pytest.mark.parametrize("make", [fd.distinct, fd.all_distinct])
@pytest.mark.parametrize("order", [(0, 1, 2), (1, 0, 2), (1, 2, 0)])
def test_a_distinct_waiting_makes_no_bitsets(order, make):
    """While a ``distinct`` waits for a variable without a domain, its members over bounds stay
    bounds: ``x < z, z < x`` over ``0..10**6`` fails at once (as bounds creep), where bitsets of
    a million values creep a value at a time."""
    x, y, z = vars(3)
    terms = [(y, x, z)[k] for k in order]
    wide = fd.in_(x, z, fd.interval(0, 10**6))
    start = time.process_time()
    assert run(0, (x, y, z), wide, make(terms), x < z, z < x) == ()
    assert run(0, (x, y, z), wide, make(terms), x < z, z < x, residual=True) == ()
    assert time.process_time() - start < 2


@st.composite
def systems(draw):
    """``distinct`` and ``all_distinct`` over offset terms and integers, unifications and pins,
    with or without a domain, in any order."""
    n = draw(st.integers(2, 4))
    index = st.integers(0, n - 1)
    term = st.one_of(st.tuples(index, st.integers(-1, 1)), st.sampled_from(SMALL))
    groups = st.tuples(
        st.sampled_from(["distinct", "all_distinct"]), st.lists(term, min_size=2, max_size=4)
    )
    unify = st.tuples(st.just("unify"), index, index)
    pin = st.tuples(st.just("pin"), index, st.sampled_from(SMALL))
    items = draw(st.lists(st.one_of(groups, groups, unify, pin), min_size=1, max_size=5))
    if draw(st.booleans()):
        items.append(("in",))
    return n, shuffled(draw, items)


def _goals(items, vs):
    goals = []
    for item in items:
        if item[0] == "in":
            goals.append(fd.in_(*vs, fd.interval(SMALL[0], SMALL[-1])))
        elif item[0] == "unify":
            goals.append(eq(vs[item[1]], vs[item[2]]))
        elif item[0] == "pin":
            goals.append(eq(vs[item[1]], item[2]))
        else:
            make = getattr(fd, item[0])
            goals.append(make([t if type(t) is int else vs[t[0]] + t[1] for t in item[1]]))
    return goals


def _holds(items, a):
    for item in items:
        if item[0] == "unify" and a[item[1]] != a[item[2]]:
            return False
        if item[0] == "pin" and a[item[1]] != item[2]:
            return False
        if item[0] in ("distinct", "all_distinct"):
            values = [t if type(t) is int else a[t[0]] + t[1] for t in item[1]]
            if len(set(values)) < len(values):
                return False
    return True


@settings(max_examples=300, deadline=None)
@given(systems())
def test_distinct_and_unifications_agree_with_brute_force(system):
    """With a domain, the answers are exactly the points that satisfy every item; without one,
    there is an answer (kept residual) exactly when some integers satisfy every item, that is
    when some point of a range as wide as the terms can spread does."""
    n, items = system
    vs = vars(n)
    goals = _goals(items, vs)
    if ("in",) in items:
        expected = {p for p in itertools.product(SMALL, repeat=n) if _holds(items, p)}
        assert set(run(0, tuple(vs), *goals)) == expected
        return
    spread = range(-8, 9)  # four variables, offsets within 1 and integers within 2: room enough
    satisfiable = any(_holds(items, p) for p in itertools.product(spread, repeat=n))
    answers = run(1, tuple(vs), *goals, residual=True)
    assert bool(answers) == satisfiable


@pytest.mark.parametrize("wide", [False, True])
@pytest.mark.parametrize("terms", ["x x", "x y x", "x+1 y x+1"])
def test_a_term_twice_fails_before_the_group_waits_for_domains(terms, wide):
    """distinct with one term twice fails when posted, before it waits for its variables' domains
    (none, or bounds too wide for a bitset): the goal after it (one that never stops) is never
    tried, and no node limit is reached."""
    from relations import nevero

    import relqueens

    x, y = vars(2)
    named = {"x": x, "y": y, "x+1": x + 1}
    group = fd.distinct([named[t] for t in terms.split()])
    domains = [fd.in_(x, y, fd.interval(-(10**12), 10**12))] if wide else []
    assert relqueens.run(0, (x, y), *domains, group, nevero(), max_nodes=10_000) == ()
