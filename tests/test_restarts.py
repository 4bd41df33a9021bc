"""Restarts racing a labeling for its first solution, against brute force and the plain order.

With a dynamic selection (``ff``, ``ffc``, ``min``, ``max``), a labeling
that has not found a solution soon takes turns with randomized restarts.
The property tests start the race at once (no nodes of its own first), so
that small models meet it: the answers must still be every solution once,
and after the first they come in the labeling's own order.
"""

from __future__ import annotations

from contextlib import contextmanager
from random import Random
from unittest.mock import patch

from hypothesis import given, settings
from hypothesis import strategies as st
from test_fd_property import (
    SETTINGS,
    assert_same_answers,
    build_plain,
    candidates_of,
    common_items,
    goals_of,
    place_after_domains,
    plain_models,
    run,
    shuffled,
    solve,
)

from relqueens import conde, eq, fd, queenso, vars
from relqueens.fd import restarts
from relqueens.fd.domain import Wide
from relqueens.fd.labeling import KEYS, _best
from relqueens.fd.labeling import shuffled as shuffled_ties
from relqueens.fd.store import Model


@contextmanager
def racing_from(nodes):
    """The labeling's first pause after ``nodes`` nodes and four a variable (at least one)."""
    with patch.object(restarts, "FIRST_NODES", nodes):
        yield


@st.composite
def labeled_models(draw):
    n, domains, pins, constraints = draw(plain_models(n_min=2, n_max=4))
    select = draw(st.sampled_from(restarts.RESTARTABLE))
    order = draw(st.sampled_from(["up", "down", "mid"]))
    branching = draw(st.sampled_from(["enum", "step"]))
    label = ("label", select, order, branching)
    items = place_after_domains(
        draw, shuffled(draw, common_items(domains, pins) + constraints), label
    )
    return n, domains, items, draw(st.sampled_from([-100, -14, -10]))


def build_labeled(item, vs):
    if item[0] != "label":
        return build_plain(item, vs)
    _, select, order, branching = item
    return fd.label(vs, select=select, order=order, branching=branching), lambda a: True


@SETTINGS
@given(labeled_models())
def test_a_raced_labeling_gives_every_solution_once(model):
    """A lazy stream races (``run(1)`` gives its first answer); ``run(0)`` wants every answer
    and does not: it gives the labeling's own order."""
    n, domains, items, first_nodes = model
    vs = vars(n)
    goals = goals_of(items, build_labeled, vs)
    with racing_from(first_nodes):
        got = tuple(run(None, tuple(vs), *goals))
        first = run(1, tuple(vs), *goals)
        every = run(0, tuple(vs), *goals)
    plain, expected = solve(items, build_labeled, n, candidates_of(domains))
    assert_same_answers(got, expected)
    assert list(got[1:]) == [a for a in plain if a != got[0]][: len(got) - 1]
    assert first == got[:1]
    assert every == plain


def domains(max_size):
    """Lists of bitset domains and Wide ones (as bounds), some fixed."""
    wide = st.tuples(st.integers(-9, 9), st.integers(0, 9)).map(lambda t: Wide(t[0], t[0] + t[1]))
    return st.lists(st.one_of(st.integers(1, 2**9 - 1), wide), max_size=max_size)


@settings(max_examples=300, deadline=None)
@given(
    domains(max_size=10),
    st.sampled_from(sorted(KEYS)),
    st.integers(0, 2**32),
)
def test_shuffled_ties_pick_one_of_the_best(D, select, seed):
    model = Model()
    model.off = [0] * len(D)
    model.degrees = [0] * len(D)
    idxs = list(range(len(D)))
    key = KEYS[select]
    open_ = [k for k, d in enumerate(D) if (d & (d - 1) if type(d) is int else d.lo != d.hi)]
    k = shuffled_ties(select, Random(seed))(D, idxs, 0, model)
    if not open_:
        assert k == -1
    else:
        assert key(D[k], k, model) == min(key(D[j], j, model) for j in open_)


@settings(max_examples=300, deadline=None)
@given(
    domains(max_size=12),
    st.integers(0, 2**32),
    st.integers(1, 3),
)
def test_first_fail_with_random_ties_chooses_as_its_key_does(D, seed, calls):
    """``ff``'s own selector for the restarts makes the choices of the general one over
    :data:`KEYS`, from the same random numbers, call after call."""
    model = Model()
    model.off = [0] * len(D)
    idxs = list(range(len(D)))
    fast, general = shuffled_ties("ff", Random(seed)), _best(KEYS["ff"], Random(seed))
    for _ in range(calls):
        assert fast(D, idxs, 0, model) == general(D, idxs, 0, model)


def langford(n):
    """L(2, n) with both copies' positions labeled first-fail (a heavy-tailed first search)."""
    first, second = vars(n), vars(n)
    goals = [fd.in_(*first, *second, fd.interval(0, 2 * n - 1))]
    goals += [s == f + k + 1 for k, (f, s) in enumerate(zip(first, second), start=1)]
    goals.append(fd.all_distinct(first + second))
    return first, goals + [fd.label(first + second, select="ff")]


def test_restarts_find_a_first_langford_sequence_in_few_nodes():
    """L(2, 31) by ff: the plain search needs over 256,000 nodes, raced under 2,000."""
    first, goals = langford(31)
    ((positions),) = run(1, first, *goals, max_nodes=50_000)
    seq = [0] * 62
    for k, p in enumerate(positions, start=1):
        seq[p] = seq[p + k + 1] = k
    assert sorted(seq) == sorted(list(range(1, 32)) * 2)


def test_no_solution_is_proved_by_a_restart_or_the_search():
    """L(2, 6) has none (n must be 0 or 3 mod 4): racing does not invent one or hang."""
    with racing_from(-100):
        first, goals = langford(6)
        assert tuple(run(None, first, *goals)) == ()  # a lazy stream races (run(0) does not)


def test_goals_after_a_raced_answer_do_not_leak_into_the_labeling():
    """A restart's answer, then a goal posting more in one branch: the other branch sees all 92 boards."""
    cols, (w, u, tag) = vars(8), vars(3)
    with racing_from(-100):
        answers = run(  # a lazy stream: it races (run(0) does not)
            None,
            (tag, tuple(cols)),
            queenso(cols, 8),
            fd.in_(w, u, fd.interval(0, 100)),
            w >= cols[0],
            u <= cols[1],
            fd.label(cols, select="ff", order="down", branching="step"),
            conde([eq(tag, "post"), w < u], [eq(tag, "plain")]),
        )
        answers = list(answers)
    plain = [board for t, board in answers if t == "plain"]
    assert len(plain) == len(set(plain)) == 92
