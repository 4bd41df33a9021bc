"""Lex-leader frontiers share words: any split of the chains over words gives the same answers."""

import itertools
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from relqueens import eq, fd, queens, run_all, vars
from relqueens.fd import propagators
from relqueens.reference import fundamental_solutions

TERM = st.tuples(st.integers(0, 3), st.sampled_from([1, -1]), st.integers(-2, 2))


@st.composite
def leaders(draw):
    """Domains for 4 variables, a lex-leader over terms of them, pins, and a word size."""
    domains = [draw(st.sets(st.integers(-3, 3), min_size=1, max_size=5)) for _ in range(4)]
    n = draw(st.integers(1, 3))
    xs = draw(st.lists(TERM, min_size=n, max_size=n))
    images = draw(st.lists(st.lists(TERM, min_size=n, max_size=n), min_size=1, max_size=6))
    pins = draw(st.lists(st.tuples(st.integers(0, 3), st.integers(-3, 3)), max_size=2))
    word = draw(st.sampled_from([1, 2 * (n + 2), 3 * (n + 2) + 1, 512]))
    order = draw(st.permutations(range(len(pins) + 2)))
    return domains, xs, images, pins, word, order


def value(a, t):
    i, k, c = t
    return k * a[i] + c


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(leaders())
def test_lex_leader_equals_brute_force_however_its_chains_share_words(case):
    domains, xs, images, pins, word, order = case
    vs = vars(4)
    term = lambda t: vs[t[0]] * t[1] + t[2]
    goals = [
        fd.in_(*vs[:1], fd.domain(*domains[0])),
        fd.lex_leader([term(t) for t in xs], [[term(t) for t in ys] for ys in images]),
        *(eq(vs[i], v) for i, v in pins),
    ]
    goals = [goals[k] for k in order] + [
        fd.in_(v, fd.domain(*d)) for v, d in zip(vs[1:], domains[1:])
    ]
    expected = sorted(
        a
        for a in itertools.product(*(sorted(d) for d in domains))
        if all(a[i] == v for i, v in pins)
        and all([value(a, t) for t in xs] <= [value(a, t) for t in ys] for ys in images)
    )
    with mock.patch.object(propagators, "LEX_WORD", word):
        assert sorted(run_all(tuple(vs), *goals)) == expected


@pytest.mark.parametrize("word", [1, 20, 35])
@pytest.mark.parametrize("n", [5, 6, 8])
def test_queens_symmetry_classes_do_not_depend_on_the_word_size(n, word):
    with mock.patch.object(propagators, "LEX_WORD", word):
        assert propagators.lex_words(n, 7) > 1  # the seven chains span several words
        assert sorted(queens(n, symmetry=True)) == fundamental_solutions(n)
        assert sorted(queens(n, symmetry=True, select="ff")) == fundamental_solutions(n)
