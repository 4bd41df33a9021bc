"""Shaving against brute force: it keeps every solution's values, and fails only without one.

Random small schedules (2-4 tasks on one machine, precedences, an end each
task must meet) are posted, shaved, and compared with every assignment a
Python loop accepts; shaving is also checked to narrow what propagation
alone leaves, on a schedule where it must.
"""

from __future__ import annotations

from itertools import product

from hypothesis import given
from hypothesis import strategies as st
from test_fd_property import SETTINGS

from relqueens import fd, vars
from relqueens.fd.domain import Domain
from relqueens.fd.post import post_into
from relqueens.fd.propagators import fixpoint
from relqueens.fd.shaving import Trials, shave
from relqueens.fd.store import store_of
from relqueens.logic import State


@st.composite
def schedules(draw):
    """``(durations, windows, before)``: each window is a start's values in 0..7, an interval or
    (a third of the time) a set with holes."""
    n = draw(st.integers(2, 4))
    durations = [draw(st.integers(1, 3)) for _ in range(n)]
    windows = []
    for _ in range(n):
        if draw(st.integers(0, 2)):
            lo, hi = sorted(draw(st.lists(st.integers(0, 7), min_size=2, max_size=2)))
            windows.append(list(range(lo, hi + 1)))
        else:
            windows.append(sorted(draw(st.sets(st.integers(0, 7), min_size=1))))
    before = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=2))
    return durations, windows, [(a, b) for a, b in before if a != b]


def posted(durations, windows, before):
    """The schedule's start variables, domains and model after posting."""
    xs = vars(len(durations))
    goals = [fd.in_(x, fd.domain(*values)) for x, values in zip(xs, windows, strict=True)]
    goals.append(fd.disjunctive(xs, durations))
    goals += [xs[a] + durations[a] <= xs[b] for a, b in before]
    S = State()
    if not post_into(S, goals):
        return None
    store = store_of(S)
    return [store.index_of(x) for x in xs], store.D[:], store.current()


def solutions(durations, windows, before):
    n = len(durations)
    for starts in product(*windows):
        apart = all(
            starts[a] + durations[a] <= starts[b] or starts[b] + durations[b] <= starts[a]
            for a in range(n)
            for b in range(a + 1, n)
        )
        if apart and all(starts[a] + durations[a] <= starts[b] for a, b in before):
            yield starts


@given(schedules(), st.integers(1, 6))
@SETTINGS
def test_shaving_keeps_every_solution_and_fails_only_without_one(schedule, limit):
    durations, windows, before = schedule
    found = list(solutions(durations, windows, before))
    at = posted(durations, windows, before)
    if at is None:  # propagation alone refuted it
        assert not found
        return
    idxs, D, model = at
    for trials in (None, Trials(limit)):  # to the end, and stopped after a few tests
        D1 = D[:]
        if not shave(D1, model, idxs, trials):
            assert not found
            continue
        for starts in found:
            for i, s in zip(idxs, starts, strict=True):
                assert s in Domain(D1[i], model.off[i])
        if trials is None:  # shaved to the end: each bound propagates
            for i in idxs:
                values = list(Domain(D1[i], model.off[i]))
                for v in (values[0], values[-1]):
                    D2 = D1[:]
                    D2[i] = 1 << (v - model.off[i])
                    assert fixpoint(D2, {i}, model)
        if trials is not None:
            assert trials.used <= limit + 4  # a bound's halving already begun finishes (0..7)


def test_shaving_narrows_what_propagation_leaves():
    """Four tasks on a machine: propagation leaves the last in 4..6, but if it starts at 4 the
    other three (4 units of work) must fit in 1..3."""
    at = posted([2, 1, 1, 1], [range(1, 5), range(1, 5), range(2, 5), range(4, 7)], [])
    assert at is not None
    (*_, last), D, model = at
    assert list(Domain(D[last], model.off[last])) == [4, 5, 6]
    assert shave(D, model, [last])
    assert list(Domain(D[last], model.off[last])) == [5, 6]
