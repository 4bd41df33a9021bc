"""Implications between value tests, ``x == a ==> y == b & z == c`` (a sequence stated by
implications, as Langford's pairs often are), and equivalences ``x == a <==> y == b``: each
conclusion one clause between the two variables
(:class:`~relqueens.fd.implications.ValueImplication`; an equivalence two), no 0/1 variable
for any test, domain consistent and with the same answers as brute force in any goal order."""

from itertools import pairwise, permutations, product

from hypothesis import given, settings
from hypothesis import strategies as st
from test_fd_property import run

from relqueens import SearchTrace, conj, eq, fd, var, vars
from relqueens.fd.arith import ReifiedValue
from relqueens.fd.implications import ValueImplication
from relqueens.fd.post import post_into
from relqueens.fd.store import store_of
from relqueens.logic.state import State


def test_implications_between_value_tests_post_clauses_without_flags():
    p, q, x = vars(3)
    S = State()
    goals = [
        fd.in_(p, q, x, fd.interval(0, 3)),
        fd.implies(fd.eq(p, 1), fd.eq(x, 2)),
        fd.implies(fd.eq(q, 1), fd.eq(x, 2) & fd.eq(p, 0)),
    ]
    assert post_into(S, goals)
    model = store_of(S).current()
    assert [kind.__name__ for kind in model.by_type] == ["ValueImplication"]
    clauses = model.posted(ValueImplication)
    assert sorted((c.x, c.pa, c.y, c.pb) for c in clauses) == [
        (0, 1, 2, 2),
        (1, 1, 0, 0),
        (1, 1, 2, 2),
    ]
    want = [
        t
        for t in product(range(4), repeat=3)
        if (t[0] != 1 or t[2] == 2) and (t[1] != 1 or (t[2], t[0]) == (2, 0))
    ]
    assert sorted(run(0, (p, q, x), *goals)) == want


def test_an_equivalence_of_two_value_tests_posts_a_clause_each_way():
    x, y, z = vars(3)
    S = State()
    goals = [fd.in_(x, y, z, fd.interval(0, 3)), fd.iff(fd.eq(x, 1), fd.eq(y, 2))]
    assert post_into(S, [*goals, fd.iff(fd.eq(z, 1), fd.eq(y, 2) & fd.eq(x, 1))])
    model = store_of(S).current()
    clauses = model.posted(ValueImplication)
    assert sorted((c.x, c.pa, c.y, c.pb) for c in clauses) == [(0, 1, 1, 2), (1, 2, 0, 1)]
    assert model.posted(ReifiedValue)  # an equivalence with a conjunction: the general path
    want = [t for t in product(range(4), repeat=2) if (t[0] == 1) == (t[1] == 2)]
    assert sorted(run(0, (x, y), *goals)) == want


def test_a_variable_standing_for_a_test_is_made_0_1_in_any_goal_order():
    """``fd.implies(b, fd.eq(x, 1))`` reads ``b`` as ``b == 1`` with ``b`` in 0..1 (SWI's
    rule), whether or not ``b`` had a wider domain before (found by a fuzzer: ``b`` kept 2
    and 3 when its domain came first)."""
    b, x = vars(2)
    doms = [fd.in_(x, fd.interval(0, 1)), fd.in_(b, fd.interval(0, 3))]
    for rel, want in (
        (fd.implies(b, fd.eq(x, 1)), ((0, 0), (0, 1), (1, 1))),
        (fd.iff(b, fd.eq(x, 1)), ((0, 0), (1, 1))),
    ):
        assert run(0, (b, x), *doms, rel) == run(0, (b, x), rel, *doms) == want
    assert run(0, (x, b), *doms, fd.implies(fd.eq(x, 1), b)) == ((0, 0), (0, 1), (1, 1))
    assert run(0, b, fd.in_(b, fd.interval(4, 4)), fd.implies(b, fd.eq(x, 2))) == ()


def test_an_impossible_premise_or_conclusion_posts_no_clause():
    """A premise outside its variable's domain implies nothing; a conclusion outside takes
    the premise's value away; a variable implying another of its own values loses it."""
    x, y = vars(2)
    S = State()
    goals = [
        fd.in_(x, y, fd.interval(1, 3)),
        fd.implies(fd.eq(x, 7), fd.eq(y, 2)),
        fd.implies(fd.eq(x, 1), fd.eq(y, 0)),
        fd.implies(fd.eq(y, 3), fd.eq(y, 1)),
        fd.implies(fd.eq(y, 2), fd.eq(y, 2)),
    ]
    assert post_into(S, goals)
    assert not store_of(S).current().props
    assert run(0, (x, y), *goals) == tuple((a, b) for a in (2, 3) for b in (1, 2))


@st.composite
def implications(draw):
    """2-4 variables over 0..2 (perhaps narrowed), 1-4 implications between tests drawn from a
    few (so that they repeat), in any order, perhaps split into two postings (by a unification
    between them: a later posting adds clauses to the model's)."""
    n = draw(st.integers(2, 4))
    domains = [draw(st.sets(st.integers(0, 2), min_size=1, max_size=3)) for _ in range(n)]
    pool = draw(  # values outside every domain too
        st.lists(st.tuples(st.integers(0, n - 1), st.integers(-1, 3)), min_size=2, max_size=4)
    )
    rules = draw(
        st.lists(
            st.tuples(
                st.sampled_from(pool), st.lists(st.sampled_from(pool), min_size=1, max_size=2)
            ),
            min_size=1,
            max_size=4,
        )
    )
    negated = draw(
        st.lists(st.sampled_from(pool), max_size=2)
    )  # b == (x != a): not a flag of x == a
    order = draw(st.permutations(range(n + len(rules) + len(negated))))
    if draw(st.booleans()):  # the domains first: each implication posts clauses
        order = sorted(order, key=lambda k: k >= n)
    split = draw(st.integers(0, len(order)))
    concluded = [test for _, conclusion in rules for test in conclusion]
    holes = draw(st.lists(st.sampled_from(concluded), max_size=2))  # y != b, posted last
    return domains, rules, negated, order, split, holes


@settings(max_examples=300, deadline=None)
@given(implications())
def test_implications_between_value_tests_answer_as_brute_force(model):
    domains, rules, negated, order, split, holes = model
    vs, z = vars(len(domains)), var()
    goals = [fd.in_(v, fd.domain(*sorted(d))) for v, d in zip(vs, domains)]
    for (i, a), conclusion in rules:
        rel = fd.eq(vs[conclusion[0][0]], conclusion[0][1])
        for j, b in conclusion[1:]:
            rel = rel & fd.eq(vs[j], b)
        goals.append(fd.implies(fd.eq(vs[i], a), rel))
    for i, a in negated:
        flag = var()
        goals.append(conj(fd.in_(flag, fd.interval(0, 1)), fd.reify(fd.ne(vs[i], a), flag)))
    goals = [goals[k] for k in order]
    goals.insert(split, eq(z, 1))
    goals += [fd.ne(vs[i], a) for i, a in holes]  # values lost after the clauses were posted
    got = run(0, tuple(vs), *goals)
    want = [
        t
        for t in product(*(sorted(d) for d in domains))
        if all(t[i] != a or all(t[j] == b for j, b in conclusion) for (i, a), conclusion in rules)
        and all(t[i] != a for i, a in holes)
    ]
    assert len(got) == len(set(got))
    assert sorted(got) == want
    later = [order.index(k) >= split for k in range(len(order))]  # after the unification
    if any(later[: len(domains)]) and not all(later[len(domains) :]):
        return  # a domain after the unification: a test without it takes the general path
    for r in run(0, tuple(vs), *goals, residual=True):  # each clause domain consistent
        values = [{t} if isinstance(t, int) else set(r.domains[t]) for t in r.term]
        for (i, a), conclusion in rules:
            for j, b in conclusion:
                assert values[i] != {a} or values[j] == {b}, (i, a, j, b, values)
                assert b in values[j] or a not in values[i], (i, a, j, b, values)


def test_a_conjunction_posts_its_domains_first():
    """Where the domains of a conjunction are stated does not change how its constraints are
    propagated: ``d == abs(y - x)`` stated first is one domain-consistent propagator over
    bitsets, as stated after the domains (all-interval series of 8 notes by ``ff``: the same
    tree; before, it took hidden variables over ``inf..sup`` and twice the nodes)."""
    trees, kinds = set(), ["Pigeonhole", "AbsDifference"]  # the notes a permutation
    for first in (True, False):
        xs, ds = vars(8), vars(7)
        domains = [fd.in_(*xs, fd.interval(0, 7)), fd.in_(*ds, fd.interval(1, 7))]
        rest = [
            fd.distinct(xs),
            fd.distinct(ds),
            *(d == abs(y - x) for d, x, y in zip(ds, xs, xs[1:])),
        ]
        goals = [*domains, *rest] if first else [*rest, *domains]
        S = State()
        assert post_into(S, goals)
        assert [kind.__name__ for kind in store_of(S).current().by_type] == kinds
        trace = SearchTrace()
        got = run(0, tuple(xs), *goals, fd.label(xs, select="ff", trace=trace))
        series = [
            p for p in permutations(range(8)) if len({abs(b - a) for a, b in pairwise(p)}) == 7
        ]
        assert sorted(got) == series  # 40
        trees.add(repr((sorted(got), trace.counts())))
    assert len(trees) == 1


def test_a_reified_test_posted_over_bounds_reads_the_bitset_that_comes():
    """``b == (x == 5)`` posted while ``x`` had no domain (bounds, inf..sup; the domain comes
    after a unification, not with it): once ``x`` is a bitset without 5, ``b`` is 0 (and 1
    for ``x != 5``), not only once bounds exclude 5."""
    x, b = vars(2)
    for test, want in ((fd.eq(x, 5), 0), (fd.ne(x, 5), 1)):
        goals = [fd.reify(test, b), eq(var(), 0), fd.in_(x, fd.domain(1, 5, 9)), fd.ne(x, 5)]
        ((_, got),) = (r.term for r in run(0, (x, b), *goals, residual=True))
        assert got == want


def test_a_disjunction_before_the_domain_it_tests_is_decided_by_it():
    """``y == 0 or x == 0``, ``x``'s domain stated after it without 0 and ``y`` given none:
    ``y`` is 0 (a review's fuzzer: it stayed ``inf..sup`` and labeling raised)."""
    x, y = vars(2)
    goals = [fd.ne(x, -1), fd.eq(y, 0) | fd.eq(x, 0), fd.in_(x, fd.domain(-2, -1, 2, 5))]
    assert run(0, (x, y), *goals) == ((-2, 0), (2, 0), (5, 0))


@st.composite
def clause_networks(draw):
    """2-3 variables over 0..3 (two values at least), 1-4 implications or equivalences
    between two of them (values inside the domains mostly), then 1-3 values taken away: the
    clauses' supports and premises at work after posting."""
    n = draw(st.integers(2, 3))
    domains = [draw(st.sets(st.integers(0, 3), min_size=2, max_size=4)) for _ in range(n)]
    pairs = st.permutations(range(n)).map(lambda p: p[:2])
    value = st.one_of(st.integers(0, 3), st.none())  # None: the bare variable, a 0/1 flag
    rule = st.tuples(pairs, value, value, st.booleans())
    rules = draw(st.lists(rule, min_size=1, max_size=4))
    holes = draw(
        st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, 3)), min_size=1, max_size=3)
    )
    return domains, rules, holes


@settings(max_examples=300, deadline=None)
@given(clause_networks())
def test_clauses_stay_domain_consistent_as_values_go(model):
    domains, rules, holes = model
    vs = vars(len(domains))
    goals = [fd.in_(v, fd.domain(*sorted(d))) for v, d in zip(vs, domains)]
    flags = set()  # the variables standing for relations: 0/1 (as SWI)
    for (i, j), a, b, both in rules:
        connect = fd.iff if both else fd.implies
        flags |= {k for k, v in ((i, a), (j, b)) if v is None}
        tests = [vs[k] if v is None else fd.eq(vs[k], v) for k, v in ((i, a), (j, b))]
        goals.append(connect(*tests))
    goals += [fd.ne(vs[i], a) for i, a in holes]
    rules = [(ij, 1 if a is None else a, 1 if b is None else b, both) for ij, a, b, both in rules]
    clauses = [((i, a), (j, b)) for (i, j), a, b, _ in rules]
    clauses += [((j, b), (i, a)) for (i, j), a, b, both in rules if both]
    want = [
        t
        for t in product(*(sorted(d) for d in domains))
        if all(t[i] != a or t[j] == b for (i, a), (j, b) in clauses)
        and all(t[i] != a for i, a in holes)
        and all(t[k] in (0, 1) for k in flags)
    ]
    assert sorted(run(0, tuple(vs), *goals)) == want
    for r in run(0, tuple(vs), *goals, residual=True):
        values = [{t} if isinstance(t, int) else set(r.domains[t]) for t in r.term]
        for (i, a), (j, b) in clauses:
            assert values[i] != {a} or values[j] == {b}, (i, a, j, b, values)
            assert b in values[j] or a not in values[i], (i, a, j, b, values)


def test_a_trace_names_the_implication_that_pruned():
    """A value the clauses on ``x`` take when ``x`` is fixed is credited to the implication as
    posted (not to the group the clauses are woken as), and an equivalence shows as its two
    implications in residual answers."""
    x, y, z = vars(3)
    trace = SearchTrace()
    goals = [
        fd.in_(x, y, z, fd.interval(0, 2)),
        fd.implies(fd.eq(x, 0), fd.eq(y, 1)),
        fd.implies(fd.eq(x, 0), fd.eq(z, 1)),
        fd.ne(y, z),
    ]
    run(0, (x, y, z), *goals, fd.label([x, y, z], trace=trace))
    causes = {
        str(c) for node in trace.nodes for pruned in node.pruned.values() for c in pruned.values()
    }
    assert any("<=" in c for c in causes) and not any("FixedPremises" in c for c in causes)
    (r,) = run(
        0, (x, y), fd.in_(x, y, fd.interval(0, 3)), fd.iff(fd.eq(x, 1), fd.eq(y, 2)), residual=True
    )
    shown = [str(c) for c in r.constraints]
    assert sorted(shown) == sorted(
        [str(fd.eq(x, 1) <= fd.eq(y, 2)), str(fd.eq(y, 2) <= fd.eq(x, 1))]
    )
