"""N-queens as relations: three facts about a solution, and symmetry breaking as a fourth.

A board is a list of ``n`` logic variables, one per row; the value of row
``i``'s variable is the column of its queen (0-based, as in the core.logic
seed). :func:`queenso` states the seed's three facts:

1. each queen stands on a column ``0..n-1``;
2. the columns are distinct (rows are, by construction);
3. no two queens share a diagonal.

Any variable can be pinned (``eq``) or queried, before or after these goals.

>>> from relqueens import run, vars
>>> cols = vars(8)
>>> run(1, cols, queenso(cols, 8))
([0, 4, 7, 5, 2, 6, 1, 3],)
>>> len(queens(8)), len(queens(8, symmetry=True)), len(queens(8, pins=["a1"]))
(92, 12, 4)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations, islice
from typing import Any

from . import fd
from .fd.answers import run
from .fd.labeling import check_options
from .fd.post import PermLeader
from .fd.terms import vars
from .fd.trace import SearchTrace
from .logic import eq, isvar, lall
from .logic.goals import GoalLike
from .reference import check_n
from .squares import Pins, pins_of

MODELS = ("pairwise", "compact")


def _board_terms(board: Any, n: int) -> tuple[list[Any], list[GoalLike]]:
    """``(terms, goals)``: the board as a list of n terms, unifying a lone variable with one."""
    if isvar(board):
        cols = vars(n)
        return cols, [eq(board, cols)]
    cols = list(board)
    if len(cols) != n:
        raise ValueError(f"the board has {len(cols)} rows but n is {n}")
    return cols, []


def queenso(board: Any, n: int, *, model: str = "pairwise") -> GoalLike:
    """The relation "``board`` is a solution of the n-queens problem".

    ``board`` is a list of n terms (logic variables or columns) or a single
    logic variable. ``model="pairwise"`` states the diagonals pair by pair as
    the seed does (``cj != ci + d``, ``ci != cj + d``); ``model="compact"``
    states them as two ``distinct`` constraints over ``q[i] + i`` and
    ``q[i] - i``. Both give the same answers.

    >>> from relqueens import run_all, var
    >>> q = var()
    >>> run_all(q, queenso(q, 4, model="compact"))
    ([1, 3, 0, 2], [2, 0, 3, 1])
    """
    check_n(n)
    if model not in MODELS:
        raise ValueError(f"unknown queens model {model!r}; choose one of {', '.join(MODELS)}")
    cols, goals = _board_terms(board, n)
    if n:
        goals.append(fd.in_(*cols, fd.interval(0, n - 1)))
    goals.append(fd.distinct(cols))
    if model == "compact":
        goals.append(fd.distinct([fd.lin(c) + i for i, c in enumerate(cols)]))
        goals.append(fd.distinct([fd.lin(c) - i for i, c in enumerate(cols)]))
    else:
        for i, j in combinations(range(n), 2):
            ci, cj, d = cols[i], cols[j], j - i
            goals += [fd.lin(cj) != fd.lin(ci) + d, fd.lin(ci) != fd.lin(cj) + d]
    return lall(goals)


def symmetry_breako(board: Sequence[Any], n: int) -> GoalLike:
    """Keep only the lexicographically least board of each symmetry class (lex-leader).

    For each of the 7 non-identity symmetries σ of the square, ``board <=lex
    σ(board)``. Reflections and the half turn are linear in the columns; the
    transposes and quarter turns need the inverse permutation ``p``
    (``board[r] == c`` iff ``p[c] == r``). It is the same as
    ``fd.inverse(board, p)`` with ``fd.lex_leader(board, images)``, posted as
    one propagator that reads ``p`` off the board's domains instead of
    keeping ``n`` more variables.

    >>> from relqueens import run_all, vars
    >>> cols = vars(8)
    >>> len(run_all(cols, queenso(cols, 8), symmetry_breako(cols, 8)))
    12
    """
    q = list(board)
    if len(q) != n:
        raise ValueError(f"the board has {len(q)} rows but n is {n}")
    if n < 2:
        return lall()
    m = n - 1
    images = [  # (kind, index, coefficient, constant): a * q[index] + c, or a * p[index] + c
        [("x", r, -1, m) for r in range(n)],  # mirror left-right
        [("x", m - r, 1, 0) for r in range(n)],  # mirror top-bottom
        [("x", m - r, -1, m) for r in range(n)],  # half turn
        [("inv", r, 1, 0) for r in range(n)],  # transpose
        [("inv", m - r, -1, m) for r in range(n)],  # anti-transpose
        [("inv", r, -1, m) for r in range(n)],  # quarter turn
        [("inv", m - r, 1, 0) for r in range(n)],  # three quarter turns
    ]
    return PermLeader(tuple(q), tuple(tuple(image) for image in images))


def _pin_goals(cols: list[Any], pins: Pins, n: int) -> list[GoalLike]:
    return [eq(cols[row], col) for row, col in sorted(pins_of(pins, n).items())]


def _checked(limit: object) -> int | None:
    if limit is None:
        return None
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
        raise ValueError(f"limit must be None or a non-negative integer, got {limit!r}")
    return limit


def resolve_auto(n: int, model: str, select: str, order: str) -> tuple[str, str, str]:
    """Replace ``"auto"`` options by the choice for this n (see :func:`iter_queens`).

    >>> resolve_auto(8, "auto", "auto", "auto"), resolve_auto(500, "auto", "auto", "down")
    (('pairwise', 'leftmost', 'up'), ('compact', 'ff', 'down'))
    """
    small = n <= 16
    if model == "auto":
        model = "pairwise" if n <= 100 else "compact"
    if select == "auto":
        select = "leftmost" if small else "ff"
    if order == "auto":
        order = "up" if small else "mid"
    return model, select, order


def iter_queens(
    n: int,
    *,
    pins: Pins = None,
    symmetry: bool = False,
    model: str = "auto",
    select: str = "auto",
    order: str = "auto",
    trace: SearchTrace | None = None,
) -> Iterator[tuple[int, ...]]:
    """Lazily the solutions of n-queens, as tuples of columns.

    ``pins`` places queens in advance: ``{row: column}`` or squares such as
    ``["a1", "c5"]``. Contradictory pins give no solutions; malformed ones
    raise :class:`relqueens.squares.PinError`. With ``symmetry=True`` only
    the canonical (lexicographically least) board of each symmetry class
    remains; with pins too, those canonical boards that satisfy the pins.
    ``select``/``order`` choose the labeling strategy, and a ``trace``
    records the search (see ``fd.label``). ``"auto"`` (the default) means
    the seed's pairwise model with ``leftmost``/``up`` labeling up to
    n = 16 — boards in lexicographic order — and beyond, first-fail with
    middle-out values (and, past n = 100, the compact model), which finds
    boards of hundreds of queens in a fraction of a second where
    lexicographic search would not finish.

    >>> next(iter_queens(8, pins={0: 1}))
    (1, 3, 5, 7, 2, 0, 6, 4)
    """
    check_n(n)
    if trace is not None and not isinstance(trace, SearchTrace):
        raise TypeError(f"trace must be a SearchTrace or None, got {trace!r}")
    model, select, order = resolve_auto(n, model, select, order)
    check_options(select, order)
    cols = vars(n)
    goals = [queenso(cols, n, model=model), *_pin_goals(cols, pins, n)]
    if symmetry:
        goals.append(symmetry_breako(cols, n))
    # one branch per column whatever the selection: a stepped trace's nodes are columns
    goals.append(fd.label(cols, select=select, order=order, branching="enum", trace=trace))
    return (tuple(b) for b in run(None, cols, *goals))


def queens(n: int, *, limit: int | None = None, **options: Any) -> tuple[tuple[int, ...], ...]:
    """The solutions of n-queens (at most ``limit``), as a tuple of column tuples.

    Takes the options of :func:`iter_queens`.

    >>> queens(6)
    ((1, 3, 5, 0, 2, 4), (2, 5, 1, 4, 0, 3), (3, 0, 4, 1, 5, 2), (4, 2, 0, 5, 3, 1))
    """
    limit = _checked(limit)
    return tuple(islice(iter_queens(n, **options), limit))


def possible_columns(n: int, row: int, *, pins: Pins = None) -> tuple[int, ...]:
    """The columns row ``row`` takes over all solutions (that satisfy the pins).

    One query, answered by the relation: ``row``'s variable is enumerated and
    the others are only checked for a completion.

    >>> possible_columns(8, 3, pins=["a1"])
    (2, 5, 7)
    """
    check_n(n)
    if isinstance(row, bool) or not isinstance(row, int) or not 0 <= row < n:
        raise ValueError(f"row must be an integer in 0..{n - 1}, got {row!r}")
    cols = vars(n)
    return tuple(sorted(run(0, cols[row], queenso(cols, n), *_pin_goals(cols, pins, n))))


def complete(
    partial: Sequence[int | None], *, limit: int | None = None
) -> tuple[tuple[int, ...], ...]:
    """The solutions that extend a partial board (``None`` marks an empty row).

    >>> complete([0, 4, 7, None, None, None, None, None])
    ((0, 4, 7, 5, 2, 6, 1, 3),)
    """
    n = len(partial)
    pins = {row: col for row, col in enumerate(partial) if col is not None}
    return queens(n, pins=pins, limit=limit)
