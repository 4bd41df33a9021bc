"""Indices of ``element`` constraints kept apart: an implied ``all_distinct``, checked by brute force."""

import itertools
from unittest import mock

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from test_equalities import posted
from test_fd_property import assert_same_answers, run, shuffled

from relqueens import SearchTrace, fd, var, vars
from relqueens.fd.implied import ImpliedIndices, implied_indices
from relqueens.fd.labeling import Label
from relqueens.fd.post import post_into
from relqueens.fd.propagators import Pigeonhole
from relqueens.fd.store import store_of
from relqueens.logic.state import State

EXAMPLES = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def placements(draw):
    """Cells over small domains, and fixed values placed among them, true at a point drawn
    within the domains (now and then a value off): by ``element`` at a variable, or at
    another defined as one plus a shift (``q == p + k``), or by implications ``p == i ==> X[i
    + k] == v`` for each cell; now and then ``p != q + d``."""
    m = draw(st.integers(3, 6))
    cell = [draw(st.integers(1, 3)) for _ in range(m)]
    at = [draw(st.integers(0, m - 1)) for _ in range(draw(st.integers(2, 4)))]
    cells = [draw(st.sets(st.integers(1, 3), max_size=2)) | {v} for v in cell]
    indices = [draw(st.sets(st.integers(0, m - 1), max_size=m - 1)) | {p} for p in at]
    places = []  # (index variable, shift, value, by implications)
    for _ in range(draw(st.integers(max(3, m - 1), m + 2))):
        k = draw(st.integers(0, len(at) - 1))
        shift = draw(st.sampled_from([0, 0, *(s for s in (1, 2, -1) if 0 <= at[k] + s < m)]))
        value = draw(st.sampled_from([cell[at[k] + shift]] * 12 + [1, 2, 3]))
        places.append((k, shift, value, draw(st.booleans())))
    k = st.integers(0, len(at) - 1)
    pairs = st.tuples(k, k, st.sampled_from([0, 1, -1]))
    return m, cells, indices, places, draw(st.lists(pairs, max_size=3))


def built(model, xs, ps):
    """The goals of a ``placements`` model and, for each, a check of ``(cells, indices)``: the
    cells' domains first."""
    m, cells, indices, places, unequal = model
    items = [(fd.in_(x, fd.domain(*d)), lambda c, p: True) for x, d in zip(xs, cells)]
    items += [(fd.in_(p, fd.domain(*d)), lambda c, p: True) for p, d in zip(ps, indices)]
    for k, shift, value, by_implications in places:
        if by_implications:  # p == i ==> X[i + shift] == v
            within = fd.in_(ps[k], fd.interval(-shift, m - 1 - shift))
            items.append((within, lambda c, p, k=k, s=shift: 0 <= p[k] + s < m))
            for i in range(max(0, -shift), min(m, m - shift)):
                items.append(
                    (
                        fd.implies(fd.eq(ps[k], i), fd.eq(xs[i + shift], value)),
                        lambda c, p, k=k, s=shift, v=value, i=i: p[k] != i or c[i + s] == v,
                    )
                )
            continue
        index = ps[k]
        if shift:
            index = var()
            items.append((index == ps[k] + shift, lambda c, p: True))
        items.append(
            (
                fd.element(index, xs, value),
                lambda c, p, k=k, s=shift, v=value: 0 <= p[k] + s < m and c[p[k] + s] == v,
            )
        )
    for a, b, d in unequal:
        items.append((fd.ne(ps[a], ps[b] + d), lambda c, p, a=a, b=b, d=d: p[a] != p[b] + d))
    return items


@EXAMPLES
@given(placements(), st.data())
def test_places_kept_apart_answer_as_brute_force(model, data):
    """Every answer, once, in any goal order (now and then the cells' domains first, so that
    the implications' cells are numbered in order or in reverse), whether the first search
    (without the implied pigeonholes) ends before its nodes run out or not."""
    m, cells, indices, *_ = model
    xs, ps = vars(m), vars(len(indices))
    items = built(model, xs, ps)
    numbered = data.draw(st.sampled_from(["in order", "in reverse", "any way"]))
    first = {"in order": items[:m], "in reverse": items[:m][::-1], "any way": []}[numbered]
    goals = [g for g, _ in first + shuffled(data.draw, items[len(first) :])]
    select = data.draw(st.sampled_from(["leftmost", "ff", "min"]))
    labeled = data.draw(st.permutations(list(xs) + list(ps)))
    nodes = data.draw(st.integers(0, 30))
    with mock.patch.object(Label, "ALONE", nodes - 4 * len(labeled)):
        got = run(0, (tuple(xs), tuple(ps)), *goals, fd.label(labeled, select=select))
    expected = [
        (c, p)
        for p in itertools.product(*(sorted(d) for d in indices))
        for c in itertools.product(*(sorted(d) for d in cells))
        if all(check(c, p) for _, check in items)
    ]
    S = State()
    if post_into(S, [g for g, _ in items]):
        found = implied_indices(store_of(S).current(), store_of(S).D)
        posts = found is not None and post_into(S, [found])
        cliques = len(store_of(S).current().posted(Pigeonhole)) if posts else "none posted"
        event(f"implied pigeonholes: {cliques}")
        event(f"lists: {len(found.lists) if found else 0}")
    assert_same_answers(got, expected)


def langford(n):
    """Langford's pairs L(2, n) cell by cell: ``X[p_k] == k == X[q_k]`` with ``q_k == p_k + k + 1``."""
    xs, ps, qs = vars(2 * n), vars(n), vars(n)
    goals = [fd.in_(*xs, fd.interval(1, n))]
    for k, p, q in zip(range(1, n + 1), ps, qs):
        goals += [fd.in_(p, fd.interval(0, 2 * n - 2 - k)), q == p + k + 1]
        goals += [fd.element(p, xs, k), fd.element(q, xs, k)]
    return xs, ps, qs, goals


def test_the_places_of_a_langford_sequence_are_all_different():
    """Two numbers cannot share a cell, and one number's two places are ``k + 1`` apart: all
    2n places (read as ``p_k`` and ``p_k + k + 1``) form one clique, a pigeonhole over as many
    cells."""
    _, ps, _, goals = langford(4)
    model, D = posted(*goals)
    found = implied_indices(model, D)
    assert found is not None and len(found.lists) == 1 and len(found.lists[0]) == 8
    S = State()
    assert post_into(S, [*goals, found])
    (prop,) = store_of(S).current().posted(Pigeonhole)
    assert type(prop.source) is ImpliedIndices
    assert sorted(s for _, s in prop.shifts) == [0, 0, 0, 0, 2, 3, 4, 5]
    assert set(prop.vars) == {store_of(S).index_of(p) for p in ps}  # each q read through its p
    assert implied_indices(store_of(S).current(), store_of(S).D) is None  # once per branch


def test_a_langford_sequence_labeled_cell_by_cell_is_searched_with_its_places_apart():
    """All 52 sequences L(2, 7), cells leftmost: 97,000 nodes without the implied
    ``all_distinct`` (a cell's number leaves its places open), under 2,000 with it."""
    xs, ps, _, goals = langford(7)
    got = run(0, tuple(ps), *goals, fd.label(list(xs) + list(ps)), max_nodes=2000)
    assert len(got) == len(set(got)) == 52
    for answer in got:
        cells = [0] * 14
        for k, p in enumerate(answer, 1):
            assert cells[p] == cells[p + k + 1] == 0
            cells[p] = cells[p + k + 1] = k


def test_a_langford_sequences_places_kept_apart_are_a_permutation_whose_sum_is_combined():
    """L(2, 16) cell by cell, first by ``ff``: the 32 places the implied pigeonhole keeps apart
    fill the 32 cells, so their sum is known, and with ``q_k == p_k + k + 1`` the sum of the
    firsts, a sum of distinct values (the equalities combined again once the implied constraints
    are posted): under 1,000 nodes, where the search took over 100,000 (9 s)."""
    xs, _, _, goals = langford(16)
    (cells,) = run(1, tuple(xs), *goals, fd.label(list(xs), select="ff"), max_nodes=1000)
    for k in range(1, 17):
        p = cells.index(k)
        assert cells[p + k + 1] == k and cells.count(k) == 2


@pytest.mark.parametrize("either_way", [False, True])
def test_a_stated_disequality_keeps_places_apart_only_at_its_own_offset(either_way):
    """``p`` places 1 at cell ``p``, ``q`` at cell ``q + 1``, ``r`` places 2 at ``r``; ``p !=
    q - 1`` (or ``q != p + 1``) does not keep cells ``p`` and ``q + 1`` apart, so ``p == q +
    1`` answers stay."""
    xs, (p, q, r) = vars(3), vars(3)
    goals = [fd.in_(*xs, fd.interval(1, 2)), fd.in_(p, r, fd.interval(0, 2))]
    goals += [fd.in_(q, fd.interval(0, 1)), fd.ne(q, p + 1) if either_way else fd.ne(p, q - 1)]
    goals += [fd.implies(fd.eq(p, i), fd.eq(xs[i], 1)) for i in range(3)]
    goals += [fd.implies(fd.eq(q, i), fd.eq(xs[i + 1], 1)) for i in range(2)]
    goals += [fd.implies(fd.eq(r, i), fd.eq(xs[i], 2)) for i in range(3)]
    with mock.patch.object(Label, "ALONE", -100):  # the implied constraints at once
        got = run(0, (tuple(xs), (p, q, r)), *goals, fd.label([*xs, p, q, r]))
    expected = [
        (c, (a, b, d))
        for c in itertools.product((1, 2), repeat=3)
        for a, b, d in itertools.product(range(3), range(2), range(3))
        if a != b - 1 and c[a] == 1 and c[b + 1] == 1 and c[d] == 2
    ]
    assert any(a == b + 1 for _, (a, b, _) in expected)
    assert_same_answers(got, expected)


def langford_by_implications(n, order="domains", reverse=False):
    """L(2, n) stated by implications, ``p_k == i ==> X[i] == k == X[i + k + 1]``: the cells'
    domain (given ``reverse``d or not), then each position's domain and its implications
    (``order`` "domains"); or the implications first, then the cells' and the positions'
    domains ("cells, positions") or the other way round ("positions, cells")."""
    xs, ps = vars(2 * n), vars(n)
    cells = [fd.in_(*(xs[::-1] if reverse else xs), fd.interval(1, n))]
    places, rules = [], []
    for k, p in enumerate(ps, 1):
        places.append(fd.in_(p, fd.interval(0, 2 * n - 2 - k)))
        rules.append(
            [
                fd.implies(fd.eq(p, i), fd.eq(xs[i], k) & fd.eq(xs[i + k + 1], k))
                for i in range(2 * n - 1 - k)
            ]
        )
    goals = {
        "domains": [*cells, *(g for place, own in zip(places, rules) for g in (place, *own))],
        "cells, positions": [*itertools.chain(*rules), *cells, *places],
        "positions, cells": [*itertools.chain(*rules), *places, *cells],
    }[order]
    return xs, ps, goals


@pytest.mark.parametrize("reverse", [False, True])
def test_a_langford_sequence_by_implications_is_searched_with_its_places_apart(reverse):
    """All 52 sequences L(2, 7) stated by implications, ``p_k == i ==> X[i] == k == X[i + k +
    1]``, cells leftmost: over 100,000 nodes without the implied places (17 answers by then),
    under 2,000 with them, whichever way round the cells get their domains."""
    xs, ps, goals = langford_by_implications(7, reverse=reverse)
    got = run(0, tuple(ps), *goals, fd.label(list(xs) + list(ps)), max_nodes=2000)
    assert len(got) == len(set(got)) == 52
    assert all(
        len({p for k, p in enumerate(a, 1)} | {p + k + 1 for k, p in enumerate(a, 1)}) == 14
        for a in got
    )


def test_implications_posted_before_their_domains_post_the_same_clauses():
    """Implications between value tests stated before their variables' domains in one
    conjunction post the clauses they post after them: the domains go first (L(2, 7) by
    cells, labeling the cells: 58 s to 0.015 s, the same tree, with the implied places the
    labeling finds in the cells' order)."""
    for n, labeled in ((4, "at"), (5, "cells"), (7, "at")):
        trees = {}
        for order in ("domains", "cells, positions", "positions, cells"):
            cells, at, goals = langford_by_implications(n, order)
            S = State()
            assert post_into(S, goals)
            assert [kind.__name__ for kind in store_of(S).current().by_type] == ["ValueImplication"]
            trace = SearchTrace()
            labels = at if labeled == "at" else cells
            got = run(0, tuple(cells), *goals, fd.label(labels, select="ff", trace=trace))
            trees[order] = (sorted(got), trace.counts())
        assert len(set(map(repr, trees.values()))) == 1, trees
        assert len(trees["domains"][0]) == {4: 2, 5: 0, 7: 52}[n]
