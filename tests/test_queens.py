"""N-queens as relations, checked against the reference solvers and OEIS."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from relqueens import (
    PinError,
    check,
    complete,
    eq,
    fd,
    iter_queens,
    possible_columns,
    queens,
    queenso,
    run,
    run_all,
    var,
    vars,
)
from relqueens.reference import canonical, find_all_solutions, fundamental_solutions, quality

# OEIS A000170 (all solutions) and A002562 (up to symmetry), n = 1..
A000170 = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724]
A002562 = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92]


@pytest.mark.parametrize("n", range(1, 10))
def test_relational_equals_reference_as_sets(n):
    report = check(n)
    assert report.ok, str(report)
    assert report.relational == report.reference == A000170[n - 1]
    assert report.relational_fundamental == report.reference_fundamental == A002562[n - 1]


@pytest.mark.parametrize("n", range(1, 11))
def test_counts_match_oeis(n):
    assert len(queens(n)) == A000170[n - 1]


@pytest.mark.parametrize("n", range(1, 10))
def test_fundamental_counts_match_oeis(n):
    boards = queens(n, symmetry=True)
    assert len(boards) == A002562[n - 1]
    assert all(canonical(b) == b for b in boards)


@pytest.mark.parametrize("n", range(1, 9))
def test_both_models_agree(n):
    assert set(queens(n, model="compact")) == set(queens(n, model="pairwise"))
    assert set(queens(n, model="compact", symmetry=True)) == set(fundamental_solutions(n))


def test_every_answer_has_quality_zero():
    assert all(quality(b) == 0 for b in queens(8))
    assert queens(0) == ((),)


def test_the_seed_pin_a1_leaves_four():
    boards = queens(8, pins=["a1"])
    assert len(boards) == 4 and all(b[0] == 0 for b in boards)
    assert queens(8, pins={0: 0}) == boards
    assert queens(8, pins="a1") == boards
    assert queens(8, pins=[(0, 0)]) == boards
    assert queens(8, pins=["0:0"]) == boards


def test_any_variable_pinned_in_any_goal_order():
    cols = vars(8)
    expected = {b for b in find_all_solutions(8) if b[5] == 2}
    before = run_all(cols, eq(cols[5], 2), queenso(cols, 8))
    after = run_all(cols, queenso(cols, 8), eq(cols[5], 2))
    assert set(map(tuple, before)) == set(map(tuple, after)) == expected


def test_board_given_as_a_single_variable_or_with_constants():
    q = var()
    assert len(run_all(q, queenso(q, 6))) == 4
    x = var()
    board = [1, x, 5, 0, 2, 4]
    assert run_all(x, queenso(board, 6)) == (3,)


def test_contradictory_and_impossible_pins_give_no_solutions():
    assert queens(8, pins=["a1", "a2"]) == ()  # same column
    assert queens(8, pins=["a1", "b2"]) == ()  # same diagonal
    assert queens(3, pins=["a1"]) == ()


@pytest.mark.parametrize(
    "pins",
    [
        ["i1"],
        ["a9"],
        ["a0"],
        ["a1", "b1"],
        ["1a"],
        [""],
        ["aa1"],
        {8: 0},
        {0: -1},
        {0: "a"},
        [3],
        5,
        ["9:0"],
    ],
)
def test_malformed_pins_raise(pins):
    with pytest.raises(PinError):
        queens(8, pins=pins)


def test_bad_sizes_and_options_raise():
    with pytest.raises(ValueError, match="negative"):
        queens(-1)
    with pytest.raises(TypeError, match="integer"):
        queens(8.0)
    with pytest.raises(ValueError, match="model"):
        queens(4, model="clever")
    with pytest.raises(ValueError, match="limit"):
        queens(4, limit=-2)
    with pytest.raises(ValueError, match="rows but n"):
        queenso(vars(3), 4)
    with pytest.raises(ValueError, match="row must be"):
        possible_columns(8, 8)


def test_query_a_row_and_complete_a_board():
    sols = find_all_solutions(8)
    assert possible_columns(8, 3) == tuple(sorted({b[3] for b in sols}))
    assert possible_columns(8, 3, pins=["a1"]) == tuple(sorted({b[3] for b in sols if b[0] == 0}))
    partial = [0, 4, None, None, None, None, None, None]
    assert set(complete(partial)) == {b for b in sols if b[:2] == (0, 4)}
    assert complete([0, 1, None, None]) == ()


def test_pins_with_symmetry_are_the_canonical_boards_that_satisfy_the_pins():
    for pins in ({0: 0}, {0: 1}, {2: 4}, {0: 2, 1: 0}):
        expected = {b for b in fundamental_solutions(8) if all(b[r] == c for r, c in pins.items())}
        assert set(queens(8, pins=pins, symmetry=True)) == expected


def test_iter_queens_is_lazy_and_limit_works():
    boards = iter_queens(12)
    assert next(boards) == (0, 2, 4, 7, 9, 11, 5, 10, 1, 6, 8, 3)
    assert len(queens(8, limit=5)) == 5
    assert queens(8, limit=5) == queens(8)[:5]


def test_large_board_first_solution_with_first_fail():
    (board,) = queens(100, limit=1, select="ff", order="mid")
    assert quality(board) == 0


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 8).flatmap(
        lambda n: st.tuples(
            st.just(n), st.dictionaries(st.integers(0, n - 1), st.integers(0, n - 1), max_size=3)
        )
    )
)
def test_random_pins_equal_filtered_reference(case):
    n, pins = case
    expected = {b for b in find_all_solutions(n) if all(b[r] == c for r, c in pins.items())}
    assert set(queens(n, pins=pins)) == expected


def test_residual_board_shows_open_domains():
    cols = vars(4)
    (r,) = run(0, cols, queenso(cols, 4), eq(cols[0], 1), residual=True)
    assert r.term == [1, 3, 0, 2]  # propagation alone solves it
    assert r.domains == {}
    cols = vars(8)
    (r,) = run(0, cols, queenso(cols, 8), residual=True)
    assert len(r.domains) == 8 and all(d == fd.interval(0, 7) for d in r.domains.values())


def general_symmetry_breaking(cols, n):
    """The lex-leader constraints stated with the general layer: inverse variables and lex_leader."""
    p = vars(n)
    m = n - 1
    q_, p_ = [fd.lin(t) for t in cols], [fd.lin(t) for t in p]
    images = [
        [m - c for c in q_],
        [q_[m - r] for r in range(n)],
        [m - q_[m - r] for r in range(n)],
        p_,
        [m - p_[m - r] for r in range(n)],
        [m - p_[r] for r in range(n)],
        [p_[m - r] for r in range(n)],
    ]
    return [fd.inverse(cols, p), fd.lex_leader(q_, images)]


@pytest.mark.parametrize("n", range(2, 9))
def test_fused_symmetry_breaking_equals_the_general_statement(n):
    from relqueens import symmetry_breako

    cols = vars(n)
    general = set(map(tuple, run_all(cols, queenso(cols, n), *general_symmetry_breaking(cols, n))))
    cols = vars(n)
    fused = set(map(tuple, run_all(cols, queenso(cols, n), symmetry_breako(cols, n))))
    assert fused == general == set(fundamental_solutions(n))
