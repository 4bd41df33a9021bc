"""Run the FD engine's common paths a few times at import.

CPython 3.11 specialises a function's bytecode only after several calls, so
the first small query of a process runs two to three times slower than the
next ones (a 7-region map colouring: 0.45 ms cold, 0.15 ms warm). Solving a
handful of tiny models at import (about 22 ms, of an import of about 180 ms)
moves that cost out of the user's first query, much as SWI-Prolog compiles
clpfd when the library loads (a 4x4 Sudoku among them, 3 ms of it: a 4x4
Sudoku's first query 0.44 to 0.39 ms, a 9x9's 1.25 to 1.20 ms). A garbage collection first settles
what the import built (about 6 ms after a bare import; it takes longer in a
process that already holds millions of objects), so the first query does not pay for a
full collection of it (a 60-node colouring's first query: 2.4 ms to 1.7 ms);
the warm-up after it leaves the allocator's memory warm (collecting after
the warm-up made the smallest queries 0.1 ms slower). Set
``RELQUEENS_NO_WARMUP=1`` to skip both.
"""

from __future__ import annotations

import gc
import os
from itertools import pairwise

from ..logic.goals import eq as unify
from . import (
    all_distinct,
    distinct,
    dot,
    in_,
    interval,
    label,
    lin,
    lt,
    ne,
    reify,
    scalar_product,
)
from .answers import run
from .terms import vars

ROUNDS = 8
"""Calls after which CPython 3.11 has specialised a function (its warm-up delay)."""


def warm_up(rounds: int = ROUNDS) -> None:
    """Solve two colourings, a sum puzzle, a 4-queens model, a logic puzzle, a cryptarithm by
    columns, a 4x4 Sudoku, a Golomb ruler and a knapsack ``rounds`` times (the ruler: its
    first query, 3 marks, 0.65 to 0.57 ms).

    >>> warm_up(1)
    """
    for _ in range(rounds):
        xs = vars(5)
        run(
            0,
            xs,
            in_(*xs, interval(0, 2)),
            *(ne(a, b) for a, b in pairwise(xs)),
            ne(xs[0], xs[4]),
            label(xs, select="leftmost"),
        )
        ws = vars(6)  # a wheel and two chords: a clique of four, an implied group
        run(
            0,
            ws,
            in_(*ws, interval(0, 3)),
            *(ne(ws[k], ws[(k + 1) % 5]) for k in range(5)),
            *(ne(w, ws[5]) for w in ws[:5]),
            ne(ws[0], ws[2]),
            ne(ws[0], ws[3]),
            label(ws, select="ff"),
        )
        a, b, c = vars(3)
        run(
            1,
            (a, b, c),
            in_(a, b, c, interval(0, 9)),
            a * 10 + b == c + 40,
            lt(a, b),
            all_distinct((a, b, c)),
            label((a, b, c), select="ff"),
        )
        qs = vars(4)
        run(
            0,
            qs,
            in_(*qs, interval(0, 3)),
            distinct(qs),
            distinct([q + i for i, q in enumerate(qs)]),
            distinct([q - i for i, q in enumerate(qs)]),
            label(qs),
        )
        p, q, r, s, b, c = vars(6)  # a logic puzzle's shapes: offsets, abs, or, reification
        run(
            0,
            (p, q, r, s),
            in_(p, q, r, s, interval(1, 4)),
            distinct((p, q, r, s)),
            lin(r) == s + 1,
            abs(p - q) == 1,
            (lin(q) == r + 1) | (lin(q) == r - 1),
            reify(lin(p) == 2, b),
            reify(lt(s, q), c),
            b + c == 1,
            label((p, q, r, s), select="ff"),
        )
        t, o, g, u, c1, c2 = vars(6)  # TO+GO=OUT by columns: carries, residues, eliminations
        run(
            0,
            (t, o, g, u),
            in_(t, g, o, interval(1, 9)),
            in_(u, interval(0, 9)),
            in_(c1, c2, interval(0, 1)),
            distinct((t, o, g, u)),
            scalar_product((2, -1, -10), (o, u, c1), "==", 0),
            scalar_product((1, 1, 1, -1, -10), (t, g, c1, u, c2), "==", 0),
            scalar_product((1, -1), (c2, o), "==", 0),
            label((t, o, g, u)),
        )
        cells = vars(16)  # a 4x4 Sudoku: givens, crossing groups (value elimination, Hall sets)
        run(
            1,
            cells,
            in_(*cells, interval(1, 4)),
            *(distinct(cells[4 * r : 4 * r + 4]) for r in range(4)),
            *(distinct(cells[c::4]) for c in range(4)),
            *(
                distinct([cells[8 * r + 2 * c + k] for k in (0, 1, 4, 5)])
                for r in (0, 1)
                for c in (0, 1)
            ),
            *(unify(cells[k], v) for k, v in ((0, 1), (6, 2), (9, 3), (15, 4))),  # as users do
            label(cells, select="ff"),
        )
        ms, ds = vars(3), vars(3)  # a Golomb ruler: differences, rows, a minimised mark
        run(
            1,
            ms[2],
            in_(*ms, *ds, interval(0, 6)),
            unify(ms[0], 0),
            lt(ms[0], ms[1]),
            lt(ms[1], ms[2]),
            *(
                lin(d) == b - a
                for d, (a, b) in zip(ds, ((ms[0], ms[1]), (ms[0], ms[2]), (ms[1], ms[2])))
            ),
            all_distinct(ds),
            label(ms, minimize=ms[2]),
        )
        ts = vars(4)  # a knapsack, maximised, its total shown: branch and bound's paths
        total = dot((5, 4, 3, 2), ts)
        run(
            1,
            [total, ts],
            in_(*ts, interval(0, 1)),
            scalar_product((4, 3, 2, 1), ts, "<=", 6),
            label(ts, maximize=total),
        )


def warm_up_at_import() -> None:
    """A garbage collection and :func:`warm_up`, unless the environment sets ``RELQUEENS_NO_WARMUP``."""
    if not os.environ.get("RELQUEENS_NO_WARMUP"):
        gc.collect()
        warm_up()
