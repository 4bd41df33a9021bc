"""Reference N-queens solvers in plain Python (no kanren), to check the relational answers.

From the core.logic seed: :func:`quality`, :func:`valid_solution`,
:func:`solve_backtrack`, :func:`find_all_solutions`, :func:`solve_hill_climbing`;
for huge boards, :func:`solve_min_conflicts`.
From the ML seed: the search tree :func:`queen_tree` (``Branch`` and
``Solution`` nodes) and the lazy stream :func:`gen_all`. And the symmetry
tools: :func:`symmetries`, :func:`canonical`, :func:`fundamental_solutions`.

A board is a sequence of columns, one per row (row ``i`` holds the queen in
column ``board[i]``), columns 0-based as in the Clojure seed.

>>> len(find_all_solutions(8)), len(fundamental_solutions(8))
(92, 12)
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property

Board = tuple[int, ...]


def check_n(n: object) -> int:
    """Return ``n`` if it is a usable board size, else raise naming the problem.

    >>> check_n(8)
    8
    """
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"the board size n must be an integer, got {n!r}")
    if n < 0:
        raise ValueError(f"the board size n cannot be negative, got {n}")
    return n


def _board(board: Sequence[int]) -> Board:
    b = tuple(board)
    n = len(b)
    for row, col in enumerate(b):
        if isinstance(col, bool) or not isinstance(col, int) or not 0 <= col < n:
            raise ValueError(f"row {row} of the board holds {col!r}, not a column 0..{n - 1}")
    return b


def quality(board: Sequence[int]) -> int:
    """The number of pairs of queens that attack each other.

    As in the seed, rows differ by construction; unlike the seed, a shared
    column counts as an attack too, so boards that are not permutations are
    judged correctly.

    >>> quality([0, 1, 2, 3, 4, 5, 6, 7]), quality([0, 4, 7, 5, 2, 6, 1, 3]), quality([0, 0])
    (28, 0, 1)
    """
    b = _board(board)
    n = len(b)
    return sum(
        1
        for r1 in range(n)
        for r2 in range(r1 + 1, n)
        if b[r1] == b[r2] or abs(b[r1] - b[r2]) == r2 - r1
    )


def valid_solution(board: Sequence[int]) -> bool:
    """True when no two queens attack each other.

    >>> valid_solution([1, 3, 0, 2])
    True
    """
    return quality(board) == 0


def _safe(board: Sequence[int], col: int) -> bool:
    """Whether a queen in the next row, at ``col``, is attacked by none on ``board``."""
    row = len(board)
    return all(c != col and abs(c - col) != row - r for r, c in enumerate(board))


def solve_backtrack(n: int) -> Board | None:
    """The first solution in lexicographic order, by backtracking (or ``None``).

    >>> solve_backtrack(8)
    (0, 4, 7, 5, 2, 6, 1, 3)
    """
    return next(_place(check_n(n), ()), None)


def _place(n: int, board: Board) -> Iterator[Board]:
    if len(board) == n:
        yield board
        return
    for col in range(n):
        if _safe(board, col):
            yield from _place(n, board + (col,))


def find_all_solutions(n: int) -> list[Board]:
    """Every solution, in lexicographic order, by backtracking.

    >>> find_all_solutions(4)
    [(1, 3, 0, 2), (2, 0, 3, 1)]
    """
    return list(_place(check_n(n), ()))


def solve_hill_climbing(
    n: int, max_restarts: int = 100, max_steps: int = 1000, seed: int | None = None
) -> Board | None:
    """Steepest-descent hill climbing over permutations, with random restarts.

    Each step swaps the two rows that lower :func:`quality` most; a climb ends
    at a solution, a local minimum, or after ``max_steps``. Reproducible for a
    given ``seed``. Returns ``None`` if no restart reaches a solution.

    >>> valid_solution(solve_hill_climbing(8, seed=1))
    True
    """
    check_n(n)
    for name, value in (("max_restarts", max_restarts), ("max_steps", max_steps)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{name} must be a non-negative integer, got {value!r}")
    rng = random.Random(seed)
    for _ in range(max_restarts):
        config = list(range(n))
        rng.shuffle(config)
        score = quality(config)
        for _ in range(max_steps):
            if score == 0:
                break
            best = None
            for i in range(n):
                for j in range(i + 1, n):
                    config[i], config[j] = config[j], config[i]
                    q = quality(config)
                    if q < score and (best is None or q < best[0]):
                        best = (q, i, j)
                    config[i], config[j] = config[j], config[i]
            if best is None:
                break
            score, i, j = best
            config[i], config[j] = config[j], config[i]
        if score == 0:
            return tuple(config)
    return None


def solve_min_conflicts(
    n: int, max_steps: int | None = None, seed: int | None = None, max_restarts: int = 50
) -> Board | None:
    """One solution by min-conflicts local search over permutations (fast for huge n).

    Start from a permutation built greedily (each row takes a random free
    column whose diagonals are still free, when one is found in a few tries);
    then, while queens attack, swap an attacked queen with a random partner
    when that removes attacks (and, now and then, when it keeps their number,
    to leave plateaus). Diagonal occupancy is kept in counters,
    so a step costs O(1); 100,000 queens take seconds. After ``max_steps``
    swaps (default ``100 * n``) it restarts, at most ``max_restarts`` times,
    then returns ``None``. Reproducible for a given ``seed``.

    >>> valid_solution(solve_min_conflicts(200, seed=1))
    True
    """
    check_n(n)
    rng = random.Random(seed)
    max_steps = 100 * n + 100 if max_steps is None else max_steps
    for _ in range(max_restarts):
        board = _climb(n, rng, max_steps)
        if board is not None:
            return board
    return None


def _climb(n: int, rng: random.Random, max_steps: int) -> Board | None:
    q, d1, d2 = _greedy_permutation(n, rng)

    def attacks(r: int, c: int) -> int:
        return d1[r + c] + d2[r - c + n - 1] - 2

    def swap(i: int, j: int) -> None:
        for r in (i, j):
            _move(d1, d2, n, r, q[r], -1)
        q[i], q[j] = q[j], q[i]
        for r in (i, j):
            _move(d1, d2, n, r, q[r], 1)

    bad = [r for r in range(n) if attacks(r, q[r])]
    for _ in range(max_steps):
        while bad and not attacks(bad[-1], q[bad[-1]]):
            bad.pop()
        if not bad:
            return tuple(q)
        i, j = bad[rng.randrange(len(bad))], rng.randrange(n)
        if i == j:
            continue
        before = attacks(i, q[i]) + attacks(j, q[j])
        swap(i, j)
        after = attacks(i, q[i]) + attacks(j, q[j])
        if after < before or (after == before and rng.random() < 0.05):
            bad.extend(r for r in (i, j) if attacks(r, q[r]))
        else:
            swap(i, j)
    return None


def _move(d1: list[int], d2: list[int], n: int, r: int, c: int, delta: int) -> None:
    d1[r + c] += delta
    d2[r - c + n - 1] += delta


def _greedy_permutation(n: int, rng: random.Random) -> tuple[list[int], list[int], list[int]]:
    free = list(range(n))
    rng.shuffle(free)
    q = [0] * n
    d1, d2 = [0] * (2 * n - 1), [0] * (2 * n - 1)
    for r in range(n):
        k = len(free) - 1
        for _ in range(min(len(free), 20)):
            t = rng.randrange(len(free))
            if not d1[r + free[t]] and not d2[r - free[t] + n - 1]:
                k = t
                break
        free[k], free[-1] = free[-1], free[k]
        c = free.pop()
        q[r] = c
        _move(d1, d2, n, r, c, 1)
    return q, d1, d2


# -- the ML seed's search tree and lazy stream --------------------------------


@dataclass(frozen=True)
class Solution:
    """A leaf of the search tree: a full board."""

    board: Board


@dataclass(frozen=True)
class Branch:
    """A partial board and the subtrees of its safe extensions (computed when asked for)."""

    board: Board
    n: int

    @cached_property
    def children(self) -> tuple[Branch | Solution, ...]:
        """One subtree per column where the next queen is safe, leftmost first."""
        return tuple(
            queen_tree(self.n, self.board + (col,))
            for col in range(self.n)
            if _safe(self.board, col)
        )


def queen_tree(n: int, board: Sequence[int] = ()) -> Branch | Solution:
    """The search tree rooted at ``board`` (the ML seed's ``queenTreeGen``).

    Unlike the ML seed, boards grow at the end (row order) and columns are
    0-based; children are built lazily.

    >>> [c.board for c in queen_tree(4).children]
    [(0,), (1,), (2,), (3,)]
    """
    check_n(n)
    board = tuple(board)
    return Solution(board) if len(board) == n else Branch(board, n)


def gen_all(tree: Branch | Solution | int) -> Iterator[Board]:
    """The lazy stream of the solutions in a tree, depth first (the ML seed's ``genAll``).

    Given an ``int`` n, streams the solutions of ``queen_tree(n)``.

    >>> next(gen_all(8))
    (0, 4, 7, 5, 2, 6, 1, 3)
    """
    stack = [queen_tree(tree) if isinstance(tree, int) else tree]
    while stack:
        node = stack.pop()
        if isinstance(node, Solution):
            yield node.board
        else:
            stack.extend(reversed(node.children))


# -- symmetry --------------------------------------------------------------------


def symmetries(board: Sequence[int]) -> list[Board]:
    """The 8 images of a permutation board under the symmetries of the square.

    In order: identity, mirror left-right, mirror top-bottom, rotate 180,
    transpose, anti-transpose, rotate 90, rotate 270.

    >>> symmetries([1, 3, 0, 2])[1]
    (2, 0, 3, 1)
    """
    q = _board(board)
    n = len(q)
    if sorted(q) != list(range(n)):
        raise ValueError(f"symmetries are defined here for permutation boards, got {list(q)}")
    p = [0] * n
    for r, c in enumerate(q):
        p[c] = r
    m = n - 1
    return [
        q,
        tuple(m - c for c in q),
        tuple(q[m - r] for r in range(n)),
        tuple(m - q[m - r] for r in range(n)),
        tuple(p),
        tuple(m - p[m - r] for r in range(n)),
        tuple(m - p[r] for r in range(n)),
        tuple(p[m - r] for r in range(n)),
    ]


def canonical(board: Sequence[int]) -> Board:
    """The representative of a board's symmetry class: the lexicographically least image.

    >>> canonical([2, 0, 3, 1])
    (1, 3, 0, 2)
    """
    return min(symmetries(board))


def fundamental_solutions(n: int) -> list[Board]:
    """One solution per symmetry class (its canonical form), sorted.

    >>> fundamental_solutions(6)
    [(1, 3, 5, 0, 2, 4)]
    """
    return sorted({canonical(b) for b in find_all_solutions(n)})
