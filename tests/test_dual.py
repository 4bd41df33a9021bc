"""Dual branching in the restarts: which member of a permutation takes a value.

The restarts racing a first-fail labeling may branch on a value of a group
that must take every value of its members (:mod:`relqueens.fd.dual`). The
choice of value is checked against counting by hand, and the answers of a
raced labeling over such groups against brute force and the plain labeling:
the same answers, residual domains included, the rest in the labeling's order.
"""

from __future__ import annotations

from contextlib import contextmanager
from itertools import pairwise
from random import Random
from unittest.mock import patch

from hypothesis import event, example, given, settings
from hypothesis import strategies as st
from test_fd_property import OPS, SETTINGS, brute, residual_sets, run, shuffled
from test_restarts import racing_from

from relqueens import fd, vars
from relqueens.fd import dual, labeling, restarts
from relqueens.fd.propagators import BoolSum
from relqueens.fd.restarts import BY_VALUE

# -- the value chosen ----------------------------------------------------------------------


@st.composite
def groups_and_domains(draw):
    """Domains (bitsets) at a fixpoint of value elimination, and one or two groups over them."""
    n = draw(st.integers(2, 6))
    fixed = draw(st.lists(st.integers(0, n - 1), max_size=n - 1, unique=True))
    free = [v for v in range(n) if v not in fixed]
    D = [1 << v for v in fixed]
    while len(D) < n:  # the open members lack the fixed values, as value elimination leaves them
        values = draw(st.sets(st.sampled_from(free), min_size=min(2, len(free)), max_size=6))
        D.append(sum(1 << v for v in values))
    D = shuffled(draw, D)
    groups = [tuple((j, 0) for j in range(n))]  # over 0..n-1: often a permutation
    if draw(st.booleans()):
        members = draw(st.lists(st.integers(0, n - 1), min_size=2, max_size=n, unique=True))
        groups.append(tuple((j, draw(st.integers(0, 2))) for j in members))
    return D, shuffled(draw, groups), draw(st.integers(1, 10)), draw(st.integers(0, 2**32))


def by_hand(D, group):
    """``None`` unless ``group`` is a permutation; else the open values and their candidates."""
    values = [{v + s for v in range(D[j].bit_length()) if D[j] >> v & 1} for j, s in group]
    if len(set().union(*values)) != len(group):
        return None
    fixed = {next(iter(vs)) for vs in values if len(vs) == 1}
    opens = set().union(*(vs for vs in values if len(vs) > 1)) - fixed
    return {v: sum(v in vs for vs in values if len(vs) > 1) for v in opens}


@SETTINGS
@given(groups_and_domains())
def test_the_value_branched_on_has_the_fewest_candidates(model):
    D, groups, below, seed = model
    counts = [c for c in (by_hand(D, g) for g in groups) if c is not None]
    eligible = [n for c in counts for n in c.values() if n < below and n <= dual.LEVELS]
    got = dual.narrowest_value(D, groups, below, Random(seed))
    event("by value" if got else "by variable")
    if not eligible:
        assert got is None
        return
    assert got is not None
    fewest = min(eligible)
    # the branches: every open member of one permutation that can take one value, as its own bit
    assert len(got) == fewest
    chosen = {(j, bit) for j, bit in got}
    matches = []
    for g in groups:
        c = by_hand(D, g)
        for v, k in (c or {}).items():
            if k == fewest:
                branch = {(j, 1 << (v - s)) for j, s in g if v >= s and D[j] >> (v - s) & 1}
                matches.append(branch)
    assert chosen in matches


@st.composite
def large_groups(draw):
    """A permutation of 16 to 24 members where one value has one candidate fewer than members
    (a count of 15 to 23: from 16 on, past the four bits counted), the others 1 to 4 candidates."""
    n = draw(st.integers(16, 24))
    D = [1] * n  # value 0: every member's but one
    D[draw(st.integers(0, n - 1))] = 0
    for v in range(1, n):
        for j in draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=4, unique=True)):
            D[j] |= 1 << v
    D = [d if d & (d - 1) else d | 1 << draw(st.integers(1, n - 1)) for d in D]  # all open
    return (
        D,
        [tuple((j, 0) for j in range(n))],
        draw(st.integers(1, 10)),
        draw(st.integers(0, 2**32)),
    )


@SETTINGS
@given(large_groups())
def test_a_value_most_members_can_take_is_never_counted_as_few(model):
    """Counts from 16 on carry out of the counter's four bits: such a value is left out, never
    taken for one of a count of ``count - 16``."""
    test_the_value_branched_on_has_the_fewest_candidates.hypothesis.inner_test(model)


# -- raced labelings over permutations ------------------------------------------------------


@st.composite
def permutation_models(draw):
    """A group of terms over ``0..n-1`` (often a permutation), some of them copies ``y == x + c``.

    The terms are ``x + c`` (``c`` mostly 0); now and then one variable is
    two terms (``x`` and ``x + 1``). Returns ``(n, domains, copies, members,
    labeled, select, kind)``, ``members`` as ``(variable, c)``.
    """
    n = draw(st.integers(2, 5))
    domains = [draw(st.sets(st.integers(0, n - 1), min_size=2, max_size=n)) for _ in range(n)]
    copies = []
    for j in range(1, n):
        if draw(st.integers(0, 2)) == 0:
            copies.append((j, draw(st.integers(0, j - 1)), draw(st.integers(1, 2))))
    some = st.lists(st.integers(0, n - 1), min_size=1, max_size=n, unique=True)
    labeled = draw(st.one_of(st.just(list(range(n))), some))  # by value only if all are labeled
    select = draw(st.sampled_from(BY_VALUE))
    kind = draw(st.sampled_from(["distinct", "all_distinct"]))
    members = [(m, draw(st.sampled_from([0, 0, 0, 0, 1]))) for m in range(n)]
    domains = [{v - c for v in d} for d, (_, c) in zip(domains, members)]  # x + c over 0..n-1
    if draw(st.integers(0, 4)) == 0:  # x and x + 1: two views of one variable
        m, c = draw(st.sampled_from(members))
        members.append((m, 1 - c))
    return n, domains, copies, shuffled(draw, members), labeled, select, kind


def goals(vs, model):
    _, domains, copies, members, labeled, select, kind = model
    gs = [fd.in_(vs[i], fd.domain(*sorted(d))) for i, d in enumerate(domains)]
    gs += [vs[j] == vs[i] + c for j, i, c in copies]
    gs.append(getattr(fd, kind)([vs[m] + c if c else vs[m] for m, c in members]))
    return [*gs, fd.label([vs[i] for i in labeled], select=select)]


def answers(model):
    vs = vars(model[0])
    found = run(None, tuple(vs), *goals(vs, model), residual=True)  # lazy: it races
    return [tuple(frozenset(s) for s in residual_sets(a, model[0])) for a in found]


@contextmanager
def long_dives(on):
    """With ``on``, each turn of restarts gets 10,000 nodes: dives reach their leaves and ends."""
    if not on:
        yield
        return
    turn = restarts.Restarts.turn
    with patch.object(restarts.Restarts, "turn", lambda self, nodes: turn(self, 10_000)):
        yield


@SETTINGS
@given(permutation_models(), st.booleans())
@example(
    (5, [{0, 1, 2}, {0, 1, 2, 3, 4}, {0, 1, 2, 3}, {0, 1}, {0, 1, 2, 3}], [(2, 0, 1), (4, 3, 2)],
     [(m, 0) for m in range(5)], [1], "ff", "distinct"),
    False,
)  # fmt: skip
def test_a_raced_labeling_over_a_permutation_gives_every_answer_once(model, long):
    n, domains, copies, members, labeled, *_ = model
    used = []
    real = dual.dives

    def counted(*args, **kwargs):
        used.append(True)
        return real(*args, **kwargs)

    with racing_from(-100), long_dives(long), patch.object(dual, "dives", counted):
        raced = answers(model)
    event("dual dives" if used else "no dives")
    plain = answers(model)
    assert sorted(raced, key=repr) == sorted(plain, key=repr)
    assert len(set(raced)) == len(raced)
    if raced:
        assert raced[1:] == [a for a in plain if a != raced[0]]
    checks = [lambda a, i=i, d=d: a[i] in d for i, d in enumerate(domains)]
    checks += [lambda a, j=j, i=i, c=c: a[j] == a[i] + c for j, i, c in copies]
    checks.append(lambda a: len({a[m] + c for m, c in members}) == len(members))
    solutions = brute([set(range(-1, n))] * n, checks)
    projected = {tuple(a[i] for i in labeled) for a in solutions}
    got = {tuple(next(iter(a[i])) for i in labeled) for a in raced}
    assert all(len(a[i]) == 1 for a in raced for i in labeled)
    assert projected <= got  # no solution lost
    # an answer whose variables are all fixed is a solution; one with residual domains is
    # conditional (as in SWI): propagation need not see that its constraints have no solution
    # together (x1 = 4 below: x1 + 2 x0 + 2 x3 == 7 makes x1 odd)
    assert all(
        tuple(next(iter(d)) for d in a) in solutions for a in raced if all(len(d) == 1 for d in a)
    )


def langford(n, k=3):
    """L(k, n): positions of each number's copies, ``k`` copies, labeled by the first copies."""
    pos = [vars(k) for _ in range(n)]
    flat = [p for row in pos for p in row]
    gs = [fd.in_(*flat, fd.interval(0, k * n - 1))]
    for v, row in enumerate(pos, start=1):
        gs += [row[c + 1] == row[c] + v + 1 for c in range(k - 1)]
    gs.append(fd.distinct(flat))
    return pos, [*gs, fd.label([row[0] for row in pos], select="ff")]


def test_restarts_by_value_find_langford_triples():
    """L(3, 17) by ff: restarts by variable alone needed over 20,000 nodes; by value, under 10,000."""
    pos, gs = langford(17)
    ((rows),) = run(1, pos, *gs, max_nodes=15_000)
    seq = [0] * 51
    for v, row in enumerate(rows, start=1):
        assert [b - a for a, b in pairwise(row)] == [v + 1, v + 1]
        for p in row:
            seq[p] = v
    assert sorted(seq) == sorted(list(range(1, 18)) * 3)


def test_a_permutation_left_open_is_not_branched_on():
    """p, q, r, not labeled, are a permutation of 0..2 that the ``!=`` rule out unseen by propagation.

    The labeling's answers keep them open (residual); branching on their
    values would refute every one and report no answer at all.
    """

    def query(kind):
        a, b, p, q, r = vs = vars(5)
        gs = [fd.in_(a, b, fd.interval(0, 3)), a != b + 1, fd.in_(p, q, r, fd.interval(0, 2))]
        gs += [getattr(fd, kind)([p, q, r]), fd.ne(r, p + 1), fd.ne(r, q + 1), fd.ne(r, p + 2)]
        gs += [fd.ne(q, r + 2), fd.ne(q, p + 1), fd.ne(p, q + 1)]
        return [
            tuple(frozenset(s) for s in residual_sets(ans, 5))
            for ans in run(None, tuple(vs), *gs, fd.label([a, b], select="ff"), residual=True)
        ]

    for kind in ("distinct", "all_distinct"):
        plain = query(kind)
        with racing_from(-100), long_dives(True):
            raced = query(kind)
        assert len(plain) == 13  # 16 pairs but a == b + 1
        assert sorted(raced, key=repr) == sorted(plain, key=repr)


def test_a_restarts_answer_is_the_labelings_own_leaf():
    """A 4x4 Sudoku, four cells labeled: the raced first answer has the residual domains the
    labeling gives the same labels (set in another order, propagation left one cell narrower)."""

    def query():
        cells = vars(16)
        gs = [fd.in_(*cells, fd.interval(1, 4))]
        for i in range(4):
            gs.append(fd.all_distinct(cells[4 * i : 4 * i + 4]))
            gs.append(fd.all_distinct(cells[i::4]))
            r, c = 2 * (i // 2), 2 * (i % 2)
            gs.append(fd.all_distinct([cells[4 * (r + a) + c + b] for a in (0, 1) for b in (0, 1)]))
        labeled = Random(89).sample(cells, 4)
        found = run(None, tuple(cells), *gs, fd.label(labeled, select="ff"), residual=True)
        return [tuple(frozenset(s) for s in residual_sets(ans, 16)) for ans in found]

    plain = query()
    with racing_from(-100), long_dives(True):
        raced = query()
    assert raced[1:] == [a for a in plain if a != raced[0]]
    assert sorted(raced, key=repr) == sorted(plain, key=repr)


# -- exactly-ones: which term of a row over 0/1 variables is its 1 ----------------------------


@st.composite
def rows_and_domains(draw):
    """0/1 domains as :class:`BoolSum` has them (1: just 0, 2: just 1, 3: open) and exactly-ones."""
    n = draw(st.integers(2, 8))
    D = draw(st.lists(st.sampled_from([1, 2, 3, 3, 3]), min_size=n, max_size=n))
    members = st.lists(st.integers(0, n - 1), min_size=2, max_size=n, unique=True)
    rows = [
        BoolSum(tuple((j, 1) for j in m), -1, "==")
        for m in draw(st.lists(members, min_size=1, max_size=5))
    ]
    return D, rows, draw(st.integers(0, 2**32))


@SETTINGS
@given(rows_and_domains())
def test_the_row_branched_on_has_the_fewest_open_terms(model):
    D, rows, seed = model
    open_rows = [[j for j in r.vars if D[j] == 3] for r in rows if all(D[j] != 2 for j in r.vars)]
    got = dual.narrowest_row(D, rows, Random(seed))
    event("by row" if got else "every row has its 1")
    if not open_rows:
        assert got is None
        return
    fewest = min(len(o) for o in open_rows)
    assert got is not None
    # the branches: each open term of one row with the fewest open terms, set to 1 (its bit 2)
    assert all(bit == 2 for _, bit in got)
    assert [j for j, _ in got] in [o for o in open_rows if len(o) == fewest]


@st.composite
def exact_cover_models(draw):
    """``n`` 0/1 variables, exactly-ones and at-most-ones over some of them, and now and then a
    variable of three values, a ``!=`` or a fixed value; labeled by ``ff`` or ``ffc``."""
    n = draw(st.integers(3, 7))
    some = st.lists(st.integers(0, n - 1), min_size=2, max_size=n, unique=True)
    rows = [("==", r) for r in draw(st.lists(some, min_size=1, max_size=4))]
    rows += [("<=", r) for r in draw(st.lists(some, max_size=2))]
    wide = draw(st.sampled_from([None, None, *range(n)]))  # that one in 0..2: no 0/1 count has it
    ne = draw(st.one_of(st.none(), st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))))
    pins = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, 1)), max_size=2))
    everyone = shuffled(draw, list(range(n)))
    labeled = draw(st.sampled_from([everyone, everyone, everyone, draw(some)]))  # rows: all labeled
    select = draw(st.sampled_from(BY_VALUE))
    return n, shuffled(draw, rows), wide, ne, pins, labeled, select


def cover_goals(vs, model):
    _, rows, wide, ne, pins, labeled, select = model
    gs = [fd.in_(v, fd.interval(0, 2 if i == wide else 1)) for i, v in enumerate(vs)]
    gs += [fd.sum([vs[j] for j in r], op, 1) for op, r in rows]
    if ne is not None:
        gs.append(vs[ne[0]] != vs[ne[1]] + 1)
    gs += [fd.eq(vs[i], v) for i, v in pins]
    return [*gs, fd.label([vs[i] for i in labeled], select=select)]


@contextmanager
def no_quick_search():
    """No small tree searched at once, and no quick search, before the labeling may race."""
    with patch.object(labeling, "FEW", 0), patch.object(labeling.Label, "QUICK", 0):
        yield


def cover_answers(model, lazy=True):
    vs = vars(model[0])
    found = run(None if lazy else 0, tuple(vs), *cover_goals(vs, model), residual=True)
    return [tuple(frozenset(s) for s in residual_sets(a, model[0])) for a in found]


@settings(SETTINGS, max_examples=1200)  # about a third race by rows: 300 or more do
@given(exact_cover_models(), st.booleans())
def test_a_raced_labeling_over_exactly_ones_gives_every_answer_once(model, long):
    n, rows, wide, ne, pins, labeled, _ = model
    used = []
    real = dual.narrowest_row

    def counted(*args, **kwargs):
        used.append(True)
        return real(*args, **kwargs)

    with no_quick_search():
        with racing_from(-100), long_dives(long), patch.object(dual, "narrowest_row", counted):
            raced = cover_answers(model)
        plain = cover_answers(model)
    event("by rows" if used else "no rows")
    assert sorted(raced, key=repr) == sorted(plain, key=repr)
    assert len(set(raced)) == len(raced)
    if raced:
        assert raced[1:] == [a for a in plain if a != raced[0]]
    checks = [lambda a, i=i: a[i] in ((0, 1, 2) if i == wide else (0, 1)) for i in range(n)]
    checks += [lambda a, op=op, r=r: OPS[op](sum(a[j] for j in r), 1) for op, r in rows]
    if ne is not None:
        checks.append(lambda a: a[ne[0]] != a[ne[1]] + 1)
    checks += [lambda a, i=i, v=v: a[i] == v for i, v in pins]
    solutions = brute([{0, 1, 2}] * n, checks)
    projected = {tuple(a[i] for i in labeled) for a in solutions}
    assert all(len(a[i]) == 1 for a in raced for i in labeled)
    assert projected <= {tuple(next(iter(a[i])) for i in labeled) for a in raced}
    assert all(
        tuple(next(iter(d)) for d in a) in solutions for a in raced if all(len(d) == 1 for d in a)
    )


@SETTINGS
@given(exact_cover_models())
def test_first_fail_over_two_values_picks_as_its_own_rule(model):
    """``ff`` over domains of at most two values is run as ``leftmost`` (every open one ties):
    all answers in the same order as the rule itself gives, looking at every variable."""
    model = (*model[:-1], "ff")
    with patch.object(labeling, "_selector", lambda select, D0, idxs: labeling.SELECTORS[select]):
        rule = cover_answers(model, lazy=False)
    assert cover_answers(model, lazy=False) == rule


def test_restarts_by_rows_solve_queens_as_a_zero_one_matrix():
    """N-queens 30 as a 0/1 matrix (a row and a column: exactly one; a diagonal: at most one),
    first by ``ff``: the restarts branch on the rows and columns with fewest open cells
    (Algorithm X's rule); branching on cells alone, ff had not found one in 3,000,000 nodes."""
    n = 30
    cells = vars(n * n)
    at = [cells[r * n : r * n + n] for r in range(n)]
    gs = [fd.in_(*cells, fd.interval(0, 1))]
    gs += [fd.sum(row, "==", 1) for row in at] + [fd.sum(col, "==", 1) for col in zip(*at)]
    for d in range(-n + 1, n):
        gs.append(fd.sum([at[r][r - d] for r in range(n) if 0 <= r - d < n], "<=", 1))
        gs.append(
            fd.sum([at[r][d + n - 1 - r] for r in range(n) if 0 <= d + n - 1 - r < n], "<=", 1)
        )
    ((board),) = run(1, tuple(cells), *gs, fd.label(cells, select="ff"), max_nodes=20_000)
    queens = [(k // n, k % n) for k, v in enumerate(board) if v == 1]
    assert len(queens) == n
    assert len({r for r, _ in queens}) == len({c for _, c in queens}) == n
    assert len({r - c for r, c in queens}) == len({r + c for r, c in queens}) == n


def test_an_exactly_one_left_open_is_not_branched_on():
    """p, q, r, s, not labeled, are in exactly-ones that have no solution together, unseen by
    propagation or the analyses of linear rows (p = q = r = 1/2, s = 0 solves them): s = 1 leaves
    no 1 among p, q, r, and s = 0 leaves p + q, q + r, p + r each 1. The labeling's answers keep
    them open (residual); branching on those rows would refute every one and report no answer."""

    def query():
        a, b, p, q, r, s = vs = vars(6)
        gs = [fd.in_(a, b, p, q, r, s, fd.interval(0, 1)), a != b + 1]
        gs += [fd.sum(t, "==", 1) for t in ([p, q, s], [q, r, s], [p, r, s])]
        gs.append(fd.sum([p, q, r], ">=", 1))
        found = run(None, tuple(vs), *gs, fd.label([a, b], select="ff"), residual=True)
        return [tuple(frozenset(d) for d in residual_sets(ans, 6)) for ans in found]

    with no_quick_search():
        plain = query()
        with racing_from(-100), long_dives(True):
            raced = query()
    assert len(plain) == 3  # 4 pairs but a == b + 1
    assert sorted(raced, key=repr) == sorted(plain, key=repr)
