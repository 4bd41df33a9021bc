"""Residues: linear equations read modulo the divisors their coefficients share, checked by brute force."""

import itertools
from unittest import mock

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from test_equalities import posted
from test_fd_property import assert_same_answers, run, shuffled

from relqueens import fd, vars
from relqueens.fd.labeling import Label, _with_implied
from relqueens.fd.post import post_into
from relqueens.fd.residues import _rows, residues, tables
from relqueens.fd.store import store_of
from relqueens.logic.state import State

EXAMPLES = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

COEFFICIENTS = [1, 2, 3, 4, 6, 10, 12, 20, 30, 100, 200, 1000]
"""Coefficients that share divisors (as a cryptarithm's place values do), drawn with a sign."""


@EXAMPLES
@given(
    st.lists(st.integers(-60, 60), min_size=1, max_size=4),
    st.integers(2, 60),
    st.integers(-100, 100),
    st.data(),
)
def test_a_residues_rows_are_the_tuples_whose_sum_is_a_multiple_of_its_modulus(a, m, k, data):
    domains = [data.draw(st.sets(st.integers(-5, 12), min_size=1, max_size=6)) for _ in a]
    D = [sum(1 << v + 5 for v in d) for d in domains]  # bitsets at offset -5
    terms = tuple(enumerate(a))
    got = _rows(terms, m, k, D, [-5] * len(a))
    expected = [
        p
        for p in itertools.product(*(sorted(d) for d in domains))
        if (sum(c * v for c, v in zip(a, p)) + k) % m == 0
    ]
    assert sorted(got) == expected
    assert len(set(got)) == len(got)


SHARING = st.builds(int.__mul__, st.sampled_from(COEFFICIENTS), st.sampled_from([1, -1]))


@st.composite
def equations(draw, sizes=(3, 6), values=9, count=(1, 2), coefficient=SHARING, off=(1, 10)):
    """``sizes`` variables over small domains within ``0..values``, ``count`` equations whose
    coefficients are drawn from ``coefficient`` (by default, ones that share divisors), true at
    a point drawn within the domains (now and then off by one of ``off``), and perhaps the
    variables all different."""
    n = draw(st.integers(*sizes))
    domains = [draw(st.sets(st.integers(0, values), min_size=1, max_size=7)) for _ in range(n)]
    point = [draw(st.sampled_from(sorted(d))) for d in domains]
    rows = []
    for _ in range(draw(st.integers(*count))):
        a = [draw(coefficient) for _ in range(n)]
        b = sum(c * v for c, v in zip(a, point)) + draw(st.sampled_from([0, 0, 0, *off]))
        rows.append((a, b))
    return n, domains, rows, draw(st.booleans())


def built(model, vs):
    """The goals of ``equations``' model and, for each, a check of a candidate tuple."""
    _, domains, rows, different = model
    items = [(fd.in_(v, fd.domain(*d)), lambda p: True) for v, d in zip(vs, domains)]
    for a, b in rows:
        items.append(
            (
                fd.scalar_product(a, vs, "==", b),
                lambda p, a=a, b=b: sum(map(int.__mul__, a, p)) == b,
            )
        )
    if different:
        items.append((fd.all_distinct(vs), lambda p: len(set(p)) == len(p)))
    return items


def assert_answers_as_brute_force(model, data):
    """An ``equations`` model's answers, in a goal order drawn by ``data``, by a labeling (of
    some of the variables: ``run`` labels the others after it) whose first search (without
    the implied constraints) may end before its nodes run out or not, are brute force's; the
    goals and checks are returned."""
    n, domains, *_ = model
    vs = vars(n)
    items = built(model, vs)
    goals = [g for g, _ in shuffled(data.draw, items)]
    select = data.draw(st.sampled_from(["leftmost", "ff", "min"]))
    nodes = data.draw(st.integers(0, 30))
    labeled = data.draw(st.sampled_from([vs, vs, data.draw(st.permutations(vs))[: n // 2 + 1]]))
    with mock.patch.object(Label, "ALONE", nodes - 4 * n):
        got = run(0, tuple(vs), *goals, fd.label(list(labeled), select=select))
    expected = [
        p
        for p in itertools.product(*(sorted(d) for d in domains))
        if all(check(p) for _, check in items)
    ]
    assert_same_answers(got, expected)
    return items


@EXAMPLES
@given(equations(), st.data())
def test_equations_with_their_residues_tabulated_answer_as_brute_force(model, data):
    """Every answer, once, in any goal order, whether the first search (without the tables)
    ends before its nodes run out or not."""
    items = assert_answers_as_brute_force(model, data)
    S = State()
    if post_into(S, [g for g, _ in items]):
        store = store_of(S)
        event(f"residues: {'some' if residues(store.current(), store.D) else 'none'}")


@EXAMPLES
@given(equations(), st.data())
def test_a_first_search_going_on_without_its_residues_answers_as_brute_force(model, data):
    """A first search that pauses having found a solution goes on without the tables here
    (:attr:`Label.OFTEN` met by one answer), for as many nodes again, and so on: every answer
    once, as brute force has them (in whatever order: one that finds none posts them and
    starts again, and ``ff`` may then pick otherwise)."""
    n, domains, *_ = model
    vs = vars(n)
    items = built(model, vs)
    goals = [g for g, _ in shuffled(data.draw, items)]
    goals.append(fd.label(vs, select=data.draw(st.sampled_from(["leftmost", "ff", "min"]))))
    nodes = data.draw(st.integers(0, 30))
    with (
        mock.patch.object(Label, "OFTEN", 10**9),
        mock.patch.object(Label, "OFTEN_LEAST", 1),
        mock.patch.object(Label, "ALONE", nodes - 4 * n),
    ):
        got = run(0, tuple(vs), *goals)
    expected = [
        p
        for p in itertools.product(*(sorted(d) for d in domains))
        if all(check(p) for _, check in items)
    ]
    assert_same_answers(got, expected)


def donald(*extra):
    """DONALD + GERALD = ROBERT as one equation over the letters D O N A L G E R B T."""
    letters = tuple(vars(10))
    coefficients = [100002, 0, 1000, 200, 20, 100000, 9900, -99010, -1000, -1]
    goals = [fd.in_(*letters, fd.interval(0, 9)), fd.all_distinct(letters)]
    goals += [letters[i] >= 1 for i in (0, 5, 7)]
    goals.append(fd.scalar_product(coefficients, letters, "==", 0))
    return letters, goals


def test_a_cryptarithms_last_columns_are_tabulated_by_their_residue():
    """At the root, modulo 200 the equation leaves T, D, R, L and E (the last two columns and
    the hundreds' parity): a table of their 320 value tuples, which implies those modulo 10
    (``2 D == T``), 20 and 100."""
    _, goals = donald()
    model, D = posted(*goals)
    found = residues(model, D)
    assert [(sorted(i for i, _ in terms), m) for terms, m, _ in found] == [([0, 4, 6, 7, 9], 200)]
    ((xs, rows),) = tables(model, D, found).tables
    assert len(rows) == 320
    value = dict(zip(xs, zip(*rows)))
    assert all((2 * d - t) % 10 == 0 for d, t in zip(value[0], value[9]))


def test_a_cryptarithm_by_one_equation_is_searched_with_its_residues():
    """DONALD + GERALD = ROBERT, all solutions by ``leftmost``: 8,086 nodes by bounds on the
    equation alone; with the table, the first search's nodes and a few hundred more."""
    letters, goals = donald()
    assert run(0, letters, *goals, fd.label(letters), max_nodes=2000) == (
        (5, 2, 6, 4, 8, 1, 9, 7, 3, 0),
    )


def test_residue_tables_are_posted_once_per_branch():
    """Two labelings, each posting the tables at once: the second finds them posted."""
    letters, goals = donald()
    with mock.patch.object(Label, "ALONE", -40):
        (answer,) = run(0, letters, *goals, fd.label(list(letters[:5])), fd.label(letters))
    assert answer == (5, 2, 6, 4, 8, 1, 9, 7, 3, 0)
    model, D = posted(*goals)
    assert residues(model, D)
    assert not residues(*posted(*goals, tables(model, D, residues(model, D))))


@EXAMPLES
@given(
    st.lists(st.sampled_from([-5, -3, -2, -1, 1, 2, 3, 4, 10]), min_size=3, max_size=3),
    st.integers(-20, 20),
    st.lists(st.sets(st.integers(-3, 8), min_size=1, max_size=6), min_size=3, max_size=3),
    st.data(),
)
def test_three_term_equalities_tabulated_answer_as_brute_force(a, k, domains, data):
    """``a x + b y + c z + k == 0`` over small domains (tabulated when two of them have few
    value pairs and none is fixed), with an ``element`` on ``z`` perhaps: every answer, once."""
    vs = vars(3)
    items = [(fd.in_(v, fd.domain(*d)), lambda p: True) for v, d in zip(vs, domains)]
    items.append(
        (fd.scalar_product(a, vs, "==", -k), lambda p: sum(map(int.__mul__, a, p)) + k == 0)
    )
    if data.draw(st.booleans()):
        table = data.draw(st.lists(st.integers(0, 3), min_size=12, max_size=12))
        index, w = vars(2)
        items.append((index == vs[2] + 3, lambda p: True))
        items.append((fd.element(index, table, w), lambda p: 0 <= p[2] + 3 < 12))
    goals = [g for g, _ in shuffled(data.draw, items)]
    got = run(
        0,
        tuple(vs),
        *goals,
        fd.label(list(vs), select=data.draw(st.sampled_from(["leftmost", "ff"]))),
    )
    expected = [
        p
        for p in itertools.product(*(sorted(d) for d in domains))
        if all(check(p) for _, check in items)
    ]
    assert_same_answers(got, expected)


def test_an_index_into_a_table_is_tabulated_with_the_values_its_terms_reach():
    """``i == 10 a + b`` with ``a``, ``b`` in 0..2: its table gives ``i`` 0..2, 10..12 and
    20..22 (bounds alone keep 0..22); with ``b`` fixed, only what ``a`` still reaches."""
    a, b, i = vars(3)
    goals = [fd.in_(a, b, fd.interval(0, 2)), fd.in_(i, fd.interval(0, 99)), i == 10 * a + b]
    model, D = posted(*goals)
    ((xs, rows),) = tables(model, D, residues(model, D)).tables
    column = xs.index(model.index[i])
    assert sorted(row[column] for row in rows) == [0, 1, 2, 10, 11, 12, 20, 21, 22]
    with mock.patch.object(Label, "ALONE", -12):  # the table at once
        assert run(0, i, *goals, fd.eq(b, 1), fd.label([a, b, i])) == (1, 11, 21)


def test_a_coefficient_met_twice_is_a_modulus_and_each_equation_keeps_its_own_tables():
    """``x + y + 10 a + 10 b == 25``: modulo 10, ``x + y == 5``; beside it, ``x + 2 y + z + 100 c
    + 200 d == 1012`` keeps its own (``x``, ``y``, ``z`` modulo 100), which does not imply the
    first."""
    x, y, z, a, b, c, d = vars(7)
    goals = [fd.in_(x, y, z, a, b, c, d, fd.interval(0, 9)), x + y + 10 * a + 10 * b == 25]
    model, D = posted(*goals)
    found = [(sorted(i for i, _ in t), m) for t, m, _ in residues(model, D)]
    assert found == [(sorted([model.index[x], model.index[y]]), 10)]
    model, D = posted(*goals, x + 2 * y + z + 100 * c + 200 * d == 1012)
    assert sorted((len(t), m) for t, m, _ in residues(model, D)) == [(2, 10), (3, 100)]


def test_solutions_given_before_are_skipped_by_value_when_a_wide_label_becomes_a_bitset():
    """The residue table of ``x + y + 10 a + 20 b == 25`` leaves ``x`` 4 or 5, so ``W == M x``
    narrows ``W`` from a wide domain to one kept as a bitset: the solutions of the first
    search, which labeled it wide, are still skipped once each (none given twice)."""
    M = 1 << 22
    x, y, a, b, W = vars(5)
    pads = vars(3)
    goals = [
        fd.in_(x, fd.interval(0, 9)),
        fd.in_(y, fd.interval(0, 1)),
        fd.in_(a, b, *pads, fd.interval(0, 9)),
        fd.in_(W, fd.interval(0, 10**12)),
        x + y + 10 * a + 20 * b == 25,
        M * x == W,
    ]
    got = run(0, (x, y, a, b, W, *pads), *goals, fd.label([x, y, a, b, *pads, W]))
    expected = [
        (xv, yv, av, bv, M * xv, *p)
        for xv, yv, av, bv in itertools.product(range(10), range(2), range(10), range(10))
        if xv + yv + 10 * av + 20 * bv == 25
        for p in itertools.product(range(10), repeat=3)
    ]
    assert_same_answers(got, expected)


def test_a_residue_a_wide_carry_mends_is_not_tabulated():
    """``S + c_in == 10 c_out + 20 d`` read modulo 10 leaves ``S`` and ``c_in``; a carry in of
    0..39 (forty words) mends any residue several ways, so no table (its rows would tie
    little); with a carry in of 0..1 the table stays."""
    s, c_in, c_out, d = vars(4)
    for wide, expected in ((39, []), (1, [10])):
        goals = [fd.in_(s, fd.interval(0, 9)), fd.in_(c_in, fd.interval(0, wide))]
        goals += [fd.in_(c_out, d, fd.interval(0, 4))]
        goals.append(fd.scalar_product([1, 1, -10, -20], [s, c_in, c_out, d], "==", 0))
        model, D = posted(*goals)
        assert [m for _, m, _ in residues(model, D)] == expected


def send_more_money_in_base(b):
    """SEND + MORE = MONEY in base ``b``: the letters, and the goals labeling them all by ``ffc``."""
    letters = s, e, n, d, m, o, r, y = vars(8)
    goals = [fd.in_(*letters, fd.interval(0, b - 1)), fd.distinct(letters), s > 0, m > 0]
    goals.append(
        b**3 * s + b**2 * e + b * n + d + b**3 * m + b**2 * o + b * r + e
        == b**4 * m + b**3 * o + b**2 * n + b * e + y
    )
    return letters, [*goals, fd.label(list(letters), select="ffc")]


def test_a_first_search_finding_solutions_often_goes_on_without_its_residues():
    """All of SEND + MORE = MONEY in base 50 (861): the first search finds a solution almost
    at each of its nodes, and goes on where it paused without the residue table of the last
    column (searching again from the root with it took three times as long). The answers are
    those of a first search that never pauses, in its order, and those with the table."""
    letters, goals = send_more_money_in_base(50)
    with mock.patch("relqueens.fd.labeling.tables", wraps=tables) as tabulated:
        got = run(0, letters, *goals)
    assert tabulated.call_count == 0
    with mock.patch.object(Label, "ALONE", 10**9):
        assert run(0, letters, *goals) == got
    with (
        mock.patch.object(Label, "OFTEN", 0),
        mock.patch("relqueens.fd.labeling.tables", wraps=tables) as tabulated,
    ):
        again = run(0, letters, *goals)
    assert tabulated.call_count == 1
    assert again == got
    assert len(got) == 861
    for s, e, n, d, m, o, r, y in got:
        assert len({s, e, n, d, m, o, r, y}) == 8 and s and m
        assert (s + m) * 50**3 + (e + o) * 50**2 + (n + r) * 50 + d + e == (
            m * 50**4 + o * 50**3 + n * 50**2 + e * 50 + y
        )


def test_a_first_search_with_few_solutions_posts_its_residues_however_dense():
    """The same within 40 nodes: a solution at almost each of them, but fewer than
    :attr:`Label.OFTEN_LEAST` say little of the rest of the tree; the table is posted and the
    search starts again from the root, the answers the same."""
    letters, goals = send_more_money_in_base(50)
    with (
        mock.patch.object(Label, "ALONE", 40 - 4 * 8),
        mock.patch("relqueens.fd.labeling.tables", wraps=tables) as tabulated,
    ):
        got = run(0, letters, *goals)
        assert tabulated.call_count == 1
        with mock.patch.object(Label, "OFTEN_LEAST", 1):
            assert run(0, letters, *goals) == got
        assert tabulated.call_count == 1  # one answer enough: it went on, with no table
    with mock.patch.object(Label, "ALONE", 10**9):
        assert run(0, letters, *goals) == got


def test_a_dense_corner_then_a_barren_rest_gets_the_implied_group_after_one_more_turn():
    """``p`` labeled first: ``p = 0`` leaves six pairwise ``!=`` variables their six values
    (720 answers, found often), ``p > 0`` takes a value from all of them and frees two more,
    a barren rest that only the implied group (six in five values) refutes at once. The first
    search goes on while it finds solutions often, then posts the group: once, the answers
    those of a search that never pauses."""
    p, w1, w2, *xs = vars(9)
    goals = [fd.in_(p, fd.interval(0, 6)), fd.in_(*xs, fd.interval(0, 5))]
    goals += [fd.in_(w1, w2, fd.interval(0, 9)), w1 <= 9 * p, w2 <= 9 * p]
    goals += [fd.ne(a, b) for a, b in itertools.combinations(xs, 2)]
    goals += [fd.ne(x, p - 1) for x in xs]
    q = (p, w1, w2, *xs)
    with mock.patch("relqueens.fd.labeling._with_implied", wraps=_with_implied) as posted_now:
        got = run(0, q, *goals, fd.label(list(q)))
    assert posted_now.call_count == 1
    assert len(got) == 720 and all(a[:3] == (0, 0, 0) for a in got)
    with mock.patch.object(Label, "ALONE", 10**9):
        assert run(0, q, *goals, fd.label(list(q))) == got
