"""Implications between value tests, ``x == a ==> y == b & z == c`` (a sequence stated by
implications, as Langford's pairs often are): a test that several implications share is reified
once and its flag used again, in any goal order, with the same answers as brute force."""

from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st
from test_fd_property import run

from relqueens import conj, eq, fd, var, vars
from relqueens.fd.arith import ReifiedValue
from relqueens.fd.post import post_into
from relqueens.fd.store import store_of
from relqueens.logic.state import State


def test_a_test_two_implications_share_is_reified_once():
    p, q, x = vars(3)
    S = State()
    goals = [
        fd.in_(p, q, x, fd.interval(0, 3)),
        fd.implies(fd.eq(p, 1), fd.eq(x, 2)),
        fd.implies(fd.eq(q, 1), fd.eq(x, 2)),
    ]
    assert post_into(S, goals)
    tests = store_of(S).current().posted(ReifiedValue)
    assert sorted((t.x, t.c) for t in tests) == [(0, 1), (1, 1), (2, 2)]
    assert len(run(0, (p, q, x), *goals)) == 64 - 7 * 3


@st.composite
def implications(draw):
    """2-4 variables over 0..2 (perhaps narrowed), 1-4 implications between tests drawn from a
    few (so that they repeat), in any order, perhaps split into two postings (by a unification
    between them: a later posting finds the tests reified before in the model)."""
    n = draw(st.integers(2, 4))
    domains = [draw(st.sets(st.integers(0, 2), min_size=1, max_size=3)) for _ in range(n)]
    pool = draw(
        st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, 2)), min_size=2, max_size=4)
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
    split = draw(st.integers(0, len(order)))
    return domains, rules, negated, order, split


@settings(max_examples=300, deadline=None)
@given(implications())
def test_implications_between_value_tests_answer_as_brute_force(model):
    domains, rules, negated, order, split = model
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
    got = run(0, tuple(vs), *goals)
    want = [
        t
        for t in product(*(sorted(d) for d in domains))
        if all(t[i] != a or all(t[j] == b for j, b in conclusion) for (i, a), conclusion in rules)
    ]
    assert len(got) == len(set(got))
    assert sorted(got) == want
