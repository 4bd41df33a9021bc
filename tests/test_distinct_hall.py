"""``distinct`` over as many values as members: hidden singles and naked sets, checked by brute force."""

import itertools
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from relqueens import fd, run, run_all, vars
from relqueens.fd.implied import implied_matchings
from relqueens.fd.labeling import Label
from relqueens.fd.post import post_into
from relqueens.fd.propagators import Pigeonhole
from relqueens.fd.store import store_of
from relqueens.logic.limits import SearchLimit
from relqueens.logic.state import State

EXAMPLES = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def values(d):
    return {k for k in range(d.bit_length()) if d >> k & 1}


@st.composite
def tight_groups(draw):
    """Member domains (bitsets at offset 0), shifts onto a common base, and the group's values."""
    n = draw(st.integers(2, 6))
    shifts = [draw(st.integers(0, 2)) for _ in range(n)]
    full = draw(st.sets(st.integers(0, n + 2), min_size=n, max_size=n))
    D: list[int] = []
    for s in shifts:
        mine = [v - s for v in full if v >= s]
        allowed = sum(1 << v for v in mine)
        d = sum(1 << v for v in draw(st.sets(st.sampled_from(mine or [0]), min_size=1)))
        if D and draw(st.booleans()):  # an earlier member's values, where allowed: naked sets
            d = D[draw(st.integers(0, len(D) - 1))] & allowed or d
        D.append(d)
    return D, shifts, sum(1 << v for v in full)


@EXAMPLES
@given(tight_groups())
def test_pigeonhole_to_its_fixpoint_keeps_every_permutation(case):
    D, shifts, full = case
    solutions = [
        p
        for p in itertools.product(*(sorted(values(d)) for d in D))
        if sorted(x + s for x, s in zip(p, shifts)) == sorted(values(full))
    ]
    keeps_every_solution(Pigeonhole(tuple(enumerate(shifts)), hall=True), D, solutions)


def keeps_every_solution(p, D, solutions):
    """Run ``p`` on ``D`` to its fixpoint: it fails only without solutions, and keeps their values."""
    n = len(D)
    queue: set[int] = set(range(n))
    ok = True
    while ok and queue:  # the fixpoint's way: woken again while a member changes
        queue.clear()
        ok = p.propagate(D, [0] * n, queue, 0)
    if not ok:
        assert solutions == []
    else:
        assert all(D[i] >> x & 1 for sol in solutions for i, x in enumerate(sol))


def test_a_naked_pair_takes_its_values_from_the_rest():
    # b and c share {1, 2}: a and d lose them, d is left with 3 and a with 0
    D = [0b0111, 0b0110, 0b0110, 0b1110]
    queue: set[int] = set()
    assert Pigeonhole(tuple((i, 0) for i in range(4)), hall=True).propagate(D, [0] * 4, queue, 0)
    assert D == [0b0001, 0b0110, 0b0110, 0b1000]
    assert queue == {0, 3}


def test_a_naked_triple_takes_its_values_from_the_rest():
    # b, c, d lie within {1, 2, 3} (two share it exactly): a and e lose those values
    D = [0b01111, 0b01110, 0b01110, 0b00110, 0b11110]
    queue: set[int] = set()
    assert Pigeonhole(tuple((i, 0) for i in range(5)), hall=True).propagate(D, [0] * 5, queue, 0)
    assert D[0] == 0b00001 and D[4] == 0b10000


def test_three_members_within_two_values_fail():
    # every value has three takers (no hidden single), but three members share {0, 1}
    D = [0b000011] * 3 + [0b111100] * 3
    assert not Pigeonhole(tuple((i, 0) for i in range(6)), hall=True).propagate(
        D, [0] * 6, set(), 0
    )


def test_a_naked_pair_solves_without_search():
    a, b, c, d = vars(4)
    goals = [
        fd.in_(a, fd.interval(0, 2)),
        fd.in_(b, c, fd.interval(1, 2)),
        fd.in_(d, fd.interval(1, 3)),
        fd.distinct([a, b, c, d]),
    ]
    (r,) = run(0, (a, d), *goals, residual=True)
    assert r.term == (0, 3)


@st.composite
def distinct_models(draw):
    """Variables over 0..m-1 with random holes, and ``distinct`` groups (most of m members, some with an offset)."""
    m = draw(st.integers(2, 4))
    n = draw(st.integers(m, 6))
    doms = [draw(st.sets(st.integers(0, m - 1), min_size=1)) for _ in range(n)]
    groups = []
    for _ in range(draw(st.integers(1, 4))):
        size = draw(st.sampled_from([m, m, m, max(2, m - 1)]))
        members = draw(st.permutations(range(n)))[:size]
        offsets = [draw(st.sampled_from([0, 0, 0, 1])) for _ in members]
        groups.append(list(zip(members, offsets)))
    return doms, groups, draw(st.randoms())


def posed(case):
    """A :func:`distinct_models` case as ``(variables, goals shuffled, brute force's answers, rnd)``."""
    doms, groups, rnd = case
    xs = vars(len(doms))
    goals = [fd.in_(x, fd.domain_of(d)) for x, d in zip(xs, doms)]
    goals += [fd.distinct([xs[i] + k for i, k in g]) for g in groups]
    rnd.shuffle(goals)
    expected = {
        p
        for p in itertools.product(*(sorted(d) for d in doms))
        if all(len({p[i] + k for i, k in g}) == len(g) for g in groups)
    }
    return xs, goals, expected, rnd


@EXAMPLES
@given(distinct_models())
def test_distinct_groups_in_any_goal_order_as_brute_force(case):
    xs, goals, expected, rnd = posed(case)
    got = run_all(tuple(xs), *goals, fd.label(xs, select=rnd.choice(["leftmost", "ff"])))
    assert len(got) == len(expected) and set(got) == expected


@EXAMPLES
@given(
    st.integers(2, 5).flatmap(
        lambda n: st.lists(st.integers(1, (1 << (n + 2)) - 1), min_size=n, max_size=n)
    )
)
def test_pigeonhole_keeps_every_distinct_assignment_whatever_the_values_to_spare(D):
    # members over up to two values more than there are of them, or fewer: it prunes only
    # once the values are just as many (a permutation), and fails when they are fewer
    n = len(D)
    solutions = [p for p in itertools.product(*(sorted(values(d)) for d in D)) if len(set(p)) == n]
    keeps_every_solution(Pigeonhole(tuple((i, 0) for i in range(n)), hall=True), D, solutions)


def test_a_group_posted_before_the_domains_that_make_it_a_permutation_still_finds_hidden_singles():
    # all-interval 11: the differences get their domain 1..10 after `d == abs(x - y)`; the
    # group over them reads 0..10 at posting and becomes a permutation only once propagated
    n = 11
    xs, ds = vars(n), vars(n - 1)
    late = [
        fd.in_(*xs, fd.interval(0, n - 1)),
        fd.distinct(xs),
        *(d == abs(x - y) for d, x, y in zip(ds, xs, xs[1:])),
        fd.in_(*ds, fd.interval(1, n - 1)),
        fd.distinct(ds),
    ]
    # without hidden singles this takes about 100,000 nodes (1 s); with them, a few hundred
    assert run(1, xs, *late, fd.label(xs), max_nodes=5_000) == ([0, 10, 1, 9, 2, 8, 3, 7, 4, 6, 5],)


def test_all_distinct_remembered_results_keep_counts_exact():
    """A search meets the same open domains again in other branches, and ``all_distinct`` reuses
    what it kept there: the 576 Latin squares of order 4, each once, under each selector (a
    result remembered for the wrong domains loses squares)."""
    n = 4
    for select in ("leftmost", "ff", "ffc"):
        X = vars(n * n)
        goals = [fd.in_(*X, fd.interval(1, n))]
        goals += [fd.all_distinct(X[r * n : (r + 1) * n]) for r in range(n)]
        goals += [fd.all_distinct(X[c::n]) for c in range(n)]
        squares = run(0, tuple(X), *goals, fd.label(X, select=select))
        assert len(squares) == len(set(squares)) == 576
        for s in squares:
            rows = [s[r * n : (r + 1) * n] for r in range(n)]
            assert all(sorted(r) == [1, 2, 3, 4] for r in [*rows, *zip(*rows)])


def test_groups_that_cross_look_for_naked_sets():
    """A row and a column sharing a cell both look for naked sets; a group crossing none,
    or stated twice over the same members, does not."""
    from relqueens.fd.post import post_into
    from relqueens.fd.store import FDStore
    from relqueens.logic import State

    a, b, c, d, e, f, g = vars(7)
    S = State()
    domains = fd.in_(a, b, c, d, e, f, g, fd.interval(1, 3))
    assert post_into(S, [domains, fd.distinct([a, b, c]), fd.distinct([c, b, a])])
    assert post_into(S, [fd.distinct([e, f, g])])
    assert [p.hall for p in S.constraints[FDStore].model.posted(Pigeonhole)] == [False] * 3
    assert post_into(S, [fd.distinct([a, d, e])])  # crosses the first two groups, then the third
    assert [p.hall for p in S.constraints[FDStore].model.posted(Pigeonhole)] == [True] * 4


@EXAMPLES
@given(distinct_models(), st.integers(0, 8))
def test_matchings_implied_after_a_first_search_keep_every_answer(case, nodes):
    """The first search pauses after ``nodes`` nodes: with no solution found, the crossing groups
    get Régin's matchings and the labeling starts again; with some, it goes on where it paused.
    Either way every answer comes once, as brute force has them."""
    xs, goals, expected, rnd = posed(case)
    select = rnd.choice(["leftmost", "ff"])
    with mock.patch.object(Label, "ALONE", nodes - 4 * len(xs)):
        got = run_all(tuple(xs), *goals, fd.label(xs, select=select))
        first = run(1, tuple(xs), *goals, fd.label(xs, select=select))
    assert len(got) == len(expected) and set(got) == expected
    assert set(first) <= expected and len(first) == min(1, len(expected))


NORVIG_IMPOSSIBLE = (
    ".....5.8....6.1.43..........1.5........1.6...3.......553.....61........4........."
)


def sudoku(givens, glob=fd.distinct):
    """A 9x9 Sudoku's cells and goals (``givens`` row by row, ``.`` for a blank)."""
    cells = vars(81)
    rows = [[r * 9 + c for c in range(9)] for r in range(9)]
    boxes = [
        [(r0 + r) * 9 + c0 + c for r in range(3) for c in range(3)]
        for r0 in (0, 3, 6)
        for c0 in (0, 3, 6)
    ]
    goals = [fd.in_(*cells, fd.interval(1, 9))]
    goals += [fd.eq(x, int(g)) for x, g in zip(cells, givens) if g != "."]
    goals += [glob([cells[i] for i in unit]) for unit in (*rows, *zip(*rows), *boxes)]
    return cells, goals


def test_a_sudoku_with_no_solution_is_refuted_by_the_matchings_its_crossing_groups_imply():
    """Norvig's puzzle that has no solution: value elimination, hidden singles and naked sets
    leave it to a search of tens of thousands of nodes; the matchings posted after the first
    search's few hundred refute it within a few thousand (by `leftmost` too)."""
    cells, goals = sudoku(NORVIG_IMPOSSIBLE)
    for select in ("ff", "leftmost"):
        assert run(1, cells, *goals, fd.label(cells, select=select), max_nodes=3000) == ()
    with mock.patch.object(Label, "ALONE", 10**9), pytest.raises(SearchLimit):
        run(1, cells, *goals, fd.label(cells), max_nodes=3000)  # no matchings: out of nodes


def test_a_first_search_that_finds_solutions_goes_on_where_it_paused():
    """All 288 4x4 Sudokus: a first search paused after 20 nodes (solutions found, nothing to
    add) goes on, and gives them in the labeling's order, as one that never pauses does."""
    cells = vars(16)
    units = [[r * 4 + c for c in range(4)] for r in range(4)]
    units += [list(col) for col in zip(*units)]
    units += [
        [(r0 + r) * 4 + c0 + c for r in (0, 1) for c in (0, 1)] for r0 in (0, 2) for c0 in (0, 2)
    ]
    goals = [
        fd.in_(*cells, fd.interval(1, 4)),
        *(fd.distinct([cells[i] for i in u]) for u in units),
    ]
    with mock.patch.object(Label, "ALONE", 20 - 4 * 16):
        paused = run_all(tuple(cells), *goals, fd.label(cells))
    with mock.patch.object(Label, "ALONE", 10**9):
        whole = run_all(tuple(cells), *goals, fd.label(cells))
    assert len(set(paused)) == 288 and paused == whole


def test_a_group_held_by_an_all_distinct_gets_no_matching_and_one_with_other_offsets_does():
    """The rows and columns of a 3x3 Latin square cross: six matchings. A group that an
    ``all_distinct`` over the same terms (or all of them shifted alike) holds gets none; one
    over the same variables with one offset (a different constraint) does not hold it."""
    cells = vars(9)
    lines = [[cells[r * 3 + c] for c in range(3)] for r in range(3)]
    lines += [list(col) for col in zip(*lines)]
    goals = [fd.in_(*cells, fd.interval(0, 2)), *(fd.distinct(line) for line in lines)]
    for extra, expected in (
        ([], 6),
        ([fd.all_distinct(lines[0])], 5),
        ([fd.all_distinct([v + 1 for v in lines[0]])], 5),  # the same terms, all shifted
        ([fd.all_distinct([lines[0][0], lines[0][1] + 1, lines[0][2]])], 6),
    ):
        S = State()
        assert post_into(S, [*goals, *extra])
        found = implied_matchings(store_of(S).current())
        assert found is not None and len(found.groups) == expected
