"""Eliminations: short equations implied by a model's linear equations, checked exactly and by brute force."""

from unittest import mock

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from test_equalities import posted, rank
from test_fd_property import run
from test_residues import assert_answers_as_brute_force, built, equations

from relqueens import fd, vars
from relqueens.fd.eliminations import LEAST, TERMS, ImpliedSum, implied_equations
from relqueens.fd.labeling import Label, degree
from relqueens.fd.post import post_into
from relqueens.fd.propagators import fixed, low
from relqueens.fd.store import store_of
from relqueens.logic.state import State

EXAMPLES = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def systems():
    """Four to seven variables and two to four equations over them (some of their coefficients
    0), small coefficients: :func:`test_residues.equations`."""
    return equations((4, 7), 6, (2, 4), st.sampled_from([1, 1, 1, -1, 2, 0, 0]), (1,))


@EXAMPLES
@given(systems())
def test_each_implied_equation_is_short_new_and_a_combination_of_the_stated_ones(model):
    """Each equation found has three to four terms, is none of those stated, and adds nothing to
    their span (with its constant) and the values of the variables fixed: whatever satisfies
    them satisfies it."""
    n, _, rows, _ = model
    vs = vars(n)
    S = State()
    if not post_into(S, [g for g, _ in built(model, vs)]):
        return
    store = store_of(S)
    index = {store.index_of(v): k for k, v in enumerate(vs)}
    stated = [[*a, -b] for a, b in rows]
    for i, k in index.items():  # a variable fixed by propagation: its value
        if fixed(store.D[i]):
            stated.append([int(j == k) for j in range(n)] + [-low(store.D[i], store.model.off[i])])
    found = implied_equations(store.current(), store.D)
    event(f"implied equations: {len(found.equations) if found else 0}")
    for terms, k in found.equations if found else ():
        assert LEAST <= len(terms) <= TERMS
        row = [0] * (n + 1)
        for i, a in terms:
            row[index[i]] = a
        row[n] = k
        assert rank(stated + [row]) == rank(stated)
        assert rank([row]) == 1 and all(rank([row, s]) == 2 for s in stated if any(s))


@EXAMPLES
@given(systems(), st.data())
def test_systems_with_their_implied_equations_answer_as_brute_force(model, data):
    """Every answer, once, in any goal order, whether the first search (without the implied
    equations) ends before its nodes run out or not."""
    assert_answers_as_brute_force(model, data)


def pandiagonal(n, total):
    """An ``n x n`` square's cells, all different, each row, column and broken diagonal summing to ``total``."""
    cells = vars(n * n)
    rows = [cells[r * n : (r + 1) * n] for r in range(n)]
    lines = rows + [list(c) for c in zip(*rows)]
    lines += [[rows[i][(i + k) % n] for i in range(n)] for k in range(n)]
    lines += [[rows[i][(k - i) % n] for i in range(n)] for k in range(n)]
    goals = [fd.in_(*cells, fd.interval(1, n * n)), fd.all_distinct(cells)]
    return cells, goals + [fd.sum(line, "==", total) for line in lines]


def test_a_pandiagonal_squares_lines_imply_equations_of_four_cells():
    """The twenty lines of a 5 x 5 pandiagonal square cancel down to equations ``a + b == c + d``
    (all 100 there are), posted once per branch."""
    _, goals = pandiagonal(5, 65)
    model, D = posted(*goals)
    found = implied_equations(model, D)
    assert found is not None and len(found.equations) == 100
    assert all(sorted(a for _, a in t) == [-1, -1, 1, 1] and k == 0 for t, k in found.equations)
    S = State()
    assert post_into(S, [*goals, found])
    assert len(store_of(S).current().posted(ImpliedSum)) == 100
    assert implied_equations(store_of(S).current(), store_of(S).D) is None


def test_the_ultramagic_squares_are_searched_with_their_implied_equations():
    """All 16 5 x 5 pandiagonal squares that are also associative (cells ``i`` and ``24 - i``
    sum to 26), one of each eight symmetric ones (Frenicle's form), by ``ff``: a whole tree of
    under 1,000 nodes (over 8,000 without the implied equations)."""
    cells, goals = pandiagonal(5, 65)
    goals += [cells[i] + cells[24 - i] == 26 for i in range(12)]
    goals += [cells[0] < cells[4], cells[0] < cells[20], cells[0] < cells[24], cells[1] < cells[5]]
    squares = run(0, cells, *goals, fd.label(cells, select="ff"), max_nodes=1000)
    assert len({tuple(s) for s in squares}) == 16
    for square in squares:
        assert sorted(square) == list(range(1, 26))
        rows = [square[r * 5 : (r + 1) * 5] for r in range(5)]
        assert all(sum(rows[i][(i + k) % 5] for i in range(5)) == 65 for k in range(5))
        assert all(sum(rows[i][(k - i) % 5] for i in range(5)) == 65 for k in range(5))
        assert all(sum(r) == 65 for r in rows) and all(sum(c) == 65 for c in zip(*rows))
        assert all(square[i] + square[24 - i] == 26 for i in range(12))


def test_implied_equations_are_shorter_than_the_stated_and_none_of_them():
    """``a + b + c + d == 10`` and ``b + c + d + e == 10`` imply ``a == e``, and with ``2a + 3b
    == 12`` equations of three terms (shorter than four): those only, and not ``2a + 3b ==
    12`` again (one of two terms is left to propagation)."""
    a, b, c, d, e = vars(5)
    goals = [fd.in_(a, b, c, d, e, fd.interval(0, 9)), fd.scalar_product([2, 3], [a, b], "==", 12)]
    goals += [fd.sum([a, b, c, d], "==", 10), fd.sum([b, c, d, e], "==", 10)]
    model, D = posted(*goals)
    assert dict(implied_equations(model, D).equations) == {
        ((0, 1), (2, 3), (3, 3)): -18,  # a + 3c + 3d == 18
        ((1, 1), (2, -2), (3, -2)): 8,  # b - 2c - 2d == -8
        ((2, 3), (3, 3), (4, 1)): -18,  # 3c + 3d + e == 18
    }


def test_values_given_before_the_implied_equations_that_they_refute_skip_nothing():
    """Labeling ``x2`` alone, the first search gives ``x2 == 0``, which the goals after it
    drop (no answer); the implied equations then fix ``x2`` to 3, and the answer is 3 (the 0
    given before is no reason to skip it)."""
    x0, x1, x2, x3, x4 = vars(5)
    goals = [fd.in_(x0, fd.domain(-1, 1)), fd.in_(x1, fd.interval(-2, 3))]
    goals += [fd.in_(x2, fd.domain(0, 1, 3)), fd.in_(x3, fd.domain(-1, 0))]
    goals += [fd.in_(x4, fd.domain(-2, 0))]
    goals += [fd.scalar_product([-1, 2, 1, -1], [x0, x1, x2, x4], "==", 0)]
    goals += [fd.scalar_product([-1, 2, 1, 2], [x0, x1, x3, x4], "==", -4)]
    for nodes in (-3, 100):  # out of nodes after the 0, or not
        with mock.patch.object(Label, "ALONE", nodes):
            assert run(0, x2, *goals, fd.label([x2])) == (3,)


def test_implied_equations_leave_the_variables_degrees_as_stated():
    """``ffc`` breaks ties by the constraints the model states on a variable: the 100 implied
    equations of a pandiagonal square change no degree (by ``ffc``, its first square took
    0.2 s, 1.3 s once they counted)."""
    _, goals = pandiagonal(5, 65)
    model, D = posted(*goals)
    S = State()
    assert post_into(S, [*goals, implied_equations(model, D)])
    implied = store_of(S).current()
    assert implied.posted(ImpliedSum)
    assert [degree(implied, i) for i in range(25)] == [degree(model, i) for i in range(25)]
