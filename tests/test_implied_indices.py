"""Indices of ``element`` constraints kept apart: an implied ``all_distinct``, checked by brute force."""

import itertools
from unittest import mock

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from test_equalities import posted
from test_fd_property import assert_same_answers, run, shuffled

from relqueens import fd, var, vars
from relqueens.fd.implied import ImpliedIndices, implied_indices
from relqueens.fd.labeling import Label
from relqueens.fd.post import post_into
from relqueens.fd.propagators import Pigeonhole
from relqueens.fd.store import store_of
from relqueens.logic.state import State

EXAMPLES = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def placements(draw):
    """Cells over small domains, and ``element`` constraints of fixed values over them, true at
    a point drawn within the domains (now and then a value off); each index a variable, or
    another defined as one plus a shift (``q == p + k``); now and then ``p != q + d``."""
    m = draw(st.integers(3, 6))
    cell = [draw(st.integers(1, 3)) for _ in range(m)]
    at = [draw(st.integers(0, m - 1)) for _ in range(draw(st.integers(2, 4)))]
    cells = [draw(st.sets(st.integers(1, 3), max_size=2)) | {v} for v in cell]
    indices = [draw(st.sets(st.integers(0, m - 1), max_size=m - 1)) | {p} for p in at]
    places = []  # (index variable, shift, value)
    for _ in range(draw(st.integers(max(3, m - 1), m + 2))):
        k = draw(st.integers(0, len(at) - 1))
        shift = draw(st.sampled_from([0, 0, *(s for s in (1, 2, -1) if 0 <= at[k] + s < m)]))
        value = draw(st.sampled_from([cell[at[k] + shift]] * 12 + [1, 2, 3]))
        places.append((k, shift, value))
    k = st.integers(0, len(at) - 1)
    pairs = st.tuples(k, k, st.sampled_from([0, 1, -1]))
    return m, cells, indices, places, draw(st.lists(pairs, max_size=3))


def built(model, xs, ps):
    """The goals of a ``placements`` model and, for each, a check of ``(cells, indices)``."""
    m, cells, indices, places, unequal = model
    items = [(fd.in_(x, fd.domain(*d)), lambda c, p: True) for x, d in zip(xs, cells)]
    items += [(fd.in_(p, fd.domain(*d)), lambda c, p: True) for p, d in zip(ps, indices)]
    for k, shift, value in places:
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
def test_elements_with_their_indices_kept_apart_answer_as_brute_force(model, data):
    """Every answer, once, in any goal order, whether the first search (without the implied
    ``all_distinct``) ends before its nodes run out or not."""
    m, cells, indices, *_ = model
    xs, ps = vars(m), vars(len(indices))
    items = built(model, xs, ps)
    goals = [g for g, _ in shuffled(data.draw, items)]
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
        found = implied_indices(store_of(S).current())
        posts = found is not None and post_into(S, [found])
        cliques = len(store_of(S).current().posted(Pigeonhole)) if posts else "none posted"
        event(f"implied pigeonholes: {cliques}")
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
    model, _ = posted(*goals)
    found = implied_indices(model)
    assert found is not None and len(found.lists) == 1 and len(found.lists[0]) == 8
    S = State()
    assert post_into(S, [*goals, found])
    (prop,) = store_of(S).current().posted(Pigeonhole)
    assert type(prop.source) is ImpliedIndices
    assert sorted(s for _, s in prop.shifts) == [0, 0, 0, 0, 2, 3, 4, 5]
    assert set(prop.vars) == {store_of(S).index_of(p) for p in ps}  # each q read through its p
    assert implied_indices(store_of(S).current()) is None  # once per branch


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
