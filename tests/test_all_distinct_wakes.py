"""``all_distinct`` stays domain consistent whatever narrows its members.

A member of an ``all_distinct`` group can lose a value to another constraint's
value elimination (a ``!=`` or a ``distinct`` with a variable just fixed)
without being fixed itself. The matching must run again then: at every node
of a search, each value of each member is one some assignment of the whole
group to different values gives it, as Régin's propagation promises (and SWI's
``all_distinct`` gives).
"""

from __future__ import annotations

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from relqueens import SearchTrace, fd, run, vars
from relqueens.fd.post import post_into
from relqueens.fd.propagators import fixpoint
from relqueens.fd.store import store_of
from relqueens.logic.state import State

EXAMPLES = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def values(d: int, o: int = 0) -> set[int]:
    """The values of bitset ``d`` at offset ``o``."""
    return {o + k for k in range(d.bit_length()) if d >> k & 1}


def supported(doms: list[set[int]]) -> list[set[int]]:
    """Per member, the values some all-different assignment of the group gives it (brute force)."""
    kept: list[set[int]] = [set() for _ in doms]
    for p in itertools.product(*(sorted(d) for d in doms)):
        if len(set(p)) == len(p):
            for k, v in enumerate(p):
                kept[k].add(v)
    return kept


@st.composite
def models(draw):
    """Variables over few values, an ``all_distinct`` group, and ``!=``/``distinct`` ties that
    narrow its members by value elimination, in a random goal order."""
    n = draw(st.integers(3, 6))
    top = draw(st.integers(n - 2, n))  # values 0..top: about as many as the variables
    xs = vars(n)
    doms = [draw(st.sets(st.integers(0, top), min_size=1, max_size=top + 1)) for _ in range(n)]
    group = draw(st.lists(st.integers(0, n - 1), min_size=3, max_size=n, unique=True))
    goals = [fd.in_(x, fd.domain(*sorted(d))) for x, d in zip(xs, doms)]
    goals.append(fd.all_distinct([xs[i] for i in group]))
    for _ in range(draw(st.integers(1, 4))):
        tied = draw(st.lists(st.integers(0, n - 1), min_size=2, max_size=3, unique=True))
        if len(tied) == 2 and draw(st.booleans()):
            goals.append(xs[tied[0]] != xs[tied[1]] + draw(st.integers(-1, 1)))
        else:
            goals.append(fd.distinct([xs[i] for i in tied]))
    order = draw(st.permutations(range(len(goals))))
    return xs, group, [goals[k] for k in order]


def choices(D: list[int], idx: list[int]):
    """Each variable of ``idx`` that is open in ``D``, with each of its values (as a bit)."""
    for i in idx:
        d = D[i]
        if d & (d - 1):
            rest = d
            while rest:
                bit = rest & -rest
                rest ^= bit
                yield i, bit


@EXAMPLES
@given(models())
def test_every_choice_leaves_the_group_domain_consistent(case):
    """Fix any variable to any of its values, then any other: once propagated, every member's
    values are supported within the group."""
    xs, group, goals = case
    S = State()
    if not post_into(S, goals):
        return
    store = store_of(S)
    model = store.current()
    idx = [store.index_of(x) for x in xs]

    def consistent(C: list[int]) -> None:
        doms = [values(C[idx[g]], model.off[idx[g]]) for g in group]
        assert doms == supported(doms), doms

    for i, bit in choices(store.D, idx):
        C = store.D[:]
        C[i] = bit
        if not fixpoint(C, {i}, model):
            continue
        consistent(C)
        for j, other in choices(C, idx):
            E = C[:]
            E[j] = other
            if fixpoint(E, {j}, model):
                consistent(E)


def test_a_member_narrowed_by_another_constraint_fixes_the_last_one_without_search():
    """``d = 3`` takes 3 from ``a`` and ``b`` (their ``distinct`` with ``d``): they share 1..2, so
    ``c`` is 3 at once; labeling ``c`` next tries no other value."""
    a, b, c, d = vars(4)
    trace = SearchTrace()
    answers = run(
        1,
        (a, b, c, d),
        fd.in_(a, b, c, fd.interval(1, 3)),
        fd.in_(d, fd.interval(3, 4)),
        fd.all_distinct([a, b, c]),
        fd.distinct([a, d]),
        fd.distinct([b, d]),
        fd.label([d, c, a, b], trace=trace),
    )
    assert answers == ((1, 2, 3, 3),)
    assert [node.var for node in trace.nodes if node.var is not None].count(c) == 0
