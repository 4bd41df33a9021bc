"""The reference solvers themselves."""

import itertools
import random

import pytest

from relqueens.reference import (
    Branch,
    Solution,
    canonical,
    find_all_solutions,
    fundamental_solutions,
    gen_all,
    quality,
    queen_tree,
    solve_backtrack,
    solve_hill_climbing,
    symmetries,
    valid_solution,
)


def test_quality_examples_from_the_seed():
    assert quality([0, 1, 2, 3, 4, 5, 6, 7]) == 28
    assert quality([0, 4, 7, 5, 2, 6, 1, 3]) == 0
    assert quality([0, 1]) == 1  # the seed's comment says 0; these two queens share a diagonal
    assert quality([0, 2, 1]) == 1
    assert quality([1, 3, 0, 2]) == 0
    assert quality([2, 2, 2]) == 3  # columns count too


def test_quality_rejects_bad_boards():
    with pytest.raises(ValueError, match="row 1"):
        quality([0, 9])
    with pytest.raises(ValueError, match="row 0"):
        quality(["a"])


def test_backtracker():
    assert solve_backtrack(8) == (0, 4, 7, 5, 2, 6, 1, 3)
    assert solve_backtrack(3) is None
    assert [len(find_all_solutions(n)) for n in range(1, 9)] == [1, 0, 0, 2, 10, 4, 40, 92]
    assert find_all_solutions(8) == sorted(find_all_solutions(8))


def test_hill_climbing_is_valid_and_reproducible():
    for seed in range(5):
        board = solve_hill_climbing(8, seed=seed)
        assert board is not None and valid_solution(board)
        assert solve_hill_climbing(8, seed=seed) == board
    assert solve_hill_climbing(3, max_restarts=5, seed=0) is None
    with pytest.raises(ValueError):
        solve_hill_climbing(8, max_restarts=-1)


def test_min_conflicts_for_large_boards():
    from relqueens.reference import solve_min_conflicts

    for n in (1, 4, 5, 8, 50, 500):
        board = solve_min_conflicts(n, seed=n)
        assert board is not None and valid_solution(board)
    assert solve_min_conflicts(3, seed=0, max_restarts=3) is None
    assert solve_min_conflicts(300, seed=7) == solve_min_conflicts(300, seed=7)


def _geometric_images(board):
    """The 8 images computed on coordinates, independently of ``symmetries``."""
    n = len(board)
    m = n - 1
    maps = [
        lambda r, c: (r, c),
        lambda r, c: (r, m - c),
        lambda r, c: (m - r, c),
        lambda r, c: (m - r, m - c),
        lambda r, c: (c, r),
        lambda r, c: (m - c, m - r),
        lambda r, c: (c, m - r),
        lambda r, c: (m - c, r),
    ]
    images = []
    for f in maps:
        out = [None] * n
        for r, c in enumerate(board):
            r2, c2 = f(r, c)
            out[r2] = c2
        images.append(tuple(out))
    return images


def test_symmetries_are_the_eight_maps_of_the_square():
    rng = random.Random(3)
    for _ in range(50):
        board = list(range(7))
        rng.shuffle(board)
        assert set(symmetries(board)) == set(_geometric_images(board))
        assert symmetries(board)[0] == tuple(board)


def test_canonical_and_fundamental():
    assert [len(fundamental_solutions(n)) for n in range(1, 10)] == [1, 0, 0, 1, 2, 1, 6, 12, 46]
    for b in find_all_solutions(6):
        assert canonical(b) in fundamental_solutions(6)
    with pytest.raises(ValueError, match="permutation"):
        symmetries([0, 0])


def test_queen_tree_and_lazy_stream():
    tree = queen_tree(4)
    assert isinstance(tree, Branch) and tree.board == ()
    leaves = []
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, Solution):
            leaves.append(node.board)
        else:
            stack.extend(node.children)
    assert sorted(leaves) == find_all_solutions(4)
    assert list(gen_all(tree)) == find_all_solutions(4)
    assert list(itertools.islice(gen_all(8), 3)) == find_all_solutions(8)[:3]
    assert list(gen_all(queen_tree(8, (0, 4, 7, 5, 2, 6, 1, 3)))) == [(0, 4, 7, 5, 2, 6, 1, 3)]


def test_gen_all_is_lazy():
    stream = gen_all(14)
    first = next(stream)
    assert valid_solution(first) and len(first) == 14
