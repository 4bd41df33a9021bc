"""The contenders: each solves one task for one n, and returns a checkable result.

Tasks: ``all`` (count every solution), ``first`` (find one solution),
``lazy`` (enumerate every solution lazily, keeping none: a memory test).
Each contender is a function ``f(n) -> int | tuple``; the worker times it.
"""

from __future__ import annotations

import itertools
import shutil
from collections.abc import Callable


def relqueens_all(
    model: str = "pairwise", select: str = "leftmost", symmetry: bool = False
) -> Callable:
    """``run_all`` of the queens relation through the public API; the count."""

    def count(n: int) -> int:
        from relqueens import fd, queenso, run_all, symmetry_breako, vars

        cols = vars(n)
        goals = [queenso(cols, n, model=model)]
        if symmetry:
            goals.append(symmetry_breako(cols, n))
        goals.append(fd.label(cols, select=select))
        return len(run_all(cols, *goals))

    return count


def relqueens_first(model: str = "compact", select: str = "ff", order: str = "mid") -> Callable:
    """``run(1, ...)`` of the queens relation; the board."""

    def first(n: int) -> tuple:
        from relqueens import fd, queenso, run, vars

        cols = vars(n)
        (board,) = run(
            1, cols, queenso(cols, n, model=model), fd.label(cols, select=select, order=order)
        )
        return tuple(board)

    return first


def relqueens_lazy(n: int) -> int:
    """Enumerate all boards lazily with ``run(None, ...)``, keeping none."""
    from relqueens import queenso, run, vars

    cols = vars(n)
    return sum(1 for _ in run(None, cols, queenso(cols, n)))


def pool_count(workers: int) -> Callable:
    """``relqueens.count`` split by pinning 3 rows, on a local process pool of ``workers``."""

    def counted(n: int) -> int:
        from concurrent.futures import ProcessPoolExecutor

        from relqueens import count

        with ProcessPoolExecutor(max_workers=workers) as pool:
            return count(n, split_rows=3, executor=pool).total

    return counted


def backtracker_all(n: int) -> int:
    """The seed's backtracker, ported to Python (``relqueens.reference``)."""
    from relqueens.reference import find_all_solutions

    return len(find_all_solutions(n))


def backtracker_first(n: int) -> tuple:
    from relqueens.reference import solve_backtrack

    return solve_backtrack(n)


def bitboard_all(n: int) -> int:
    """The classic bitboard counter: the pure-Python limit for counting."""
    full = (1 << n) - 1

    def place(cols: int, d1: int, d2: int) -> int:
        if cols == full:
            return 1
        total = 0
        free = full & ~(cols | d1 | d2)
        while free:
            bit = free & -free
            free ^= bit
            total += place(cols | bit, ((d1 | bit) << 1) & full, (d2 | bit) >> 1)
        return total

    return place(0, 0, 0)


def queens_cnf(n: int) -> list[list[int]]:
    """N-queens as CNF: one queen per row, at most one per row, column and diagonal."""

    def v(r: int, c: int) -> int:
        return r * n + c + 1

    clauses = [[v(r, c) for c in range(n)] for r in range(n)]
    lines = [[(r, c) for c in range(n)] for r in range(n)] + [
        [(r, c) for r in range(n)] for c in range(n)
    ]
    for s in range(2 * n - 1):
        lines.append([(r, s - r) for r in range(n) if 0 <= s - r < n])
        lines.append([(r, r - s + n - 1) for r in range(n) if 0 <= r - s + n - 1 < n])
    for line in lines:
        clauses.extend([-v(*a), -v(*b)] for a, b in itertools.combinations(line, 2))
    return clauses


def sat_all(n: int) -> int:
    """Count with pycosat, which blocks each solution found (optional extra ``sat``)."""
    import pycosat

    return sum(1 for _ in pycosat.itersolve(queens_cnf(n)))


def sat_first(n: int) -> tuple:
    import pycosat

    model = pycosat.solve(queens_cnf(n))
    if model == "UNSAT":
        return ()
    return tuple(c for lit in model if lit > 0 for r, c in [divmod(lit - 1, n)])


def min_conflicts_first(n: int) -> tuple:
    from relqueens.reference import solve_min_conflicts

    return solve_min_conflicts(n, seed=1)


CONTENDERS: dict[str, dict[str, Callable]] = {
    "relqueens": {"all": relqueens_all(), "lazy": relqueens_lazy},
    "relqueens-compact": {"all": relqueens_all("compact")},
    "relqueens-ff": {"all": relqueens_all(select="ff")},
    "relqueens-symmetry": {"all": relqueens_all(symmetry=True)},
    "relqueens-symmetry-ff": {"all": relqueens_all(select="ff", symmetry=True)},
    "relqueens-ff-mid": {"first": relqueens_first("compact")},
    "relqueens-pairwise-ff-mid": {"first": relqueens_first("pairwise")},
    "relqueens-leftmost": {"first": relqueens_first("pairwise", "leftmost", "up")},
    "count-1-worker": {"all": pool_count(1)},
    "count-2-workers": {"all": pool_count(2)},
    "backtracker": {"all": backtracker_all, "first": backtracker_first},
    "bitboard": {"all": bitboard_all},
    "sat": {"all": sat_all, "first": sat_first},
    "min-conflicts": {"first": min_conflicts_first},
}


def available(name: str) -> str | None:
    """Why a contender cannot run here, or ``None`` if it can."""
    if name == "sat":
        try:
            import pycosat  # noqa: F401
        except ImportError:
            return "pycosat is not installed (pip install '.[sat]')"
    return None


def clojure_available() -> bool:
    """Whether a ``clojure`` command is on the PATH (for measuring core.logic itself)."""
    return shutil.which("clojure") is not None
