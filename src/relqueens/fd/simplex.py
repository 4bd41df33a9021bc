"""A linear program's prices by the dual simplex method, warm-started from node to node.

The program is ``min c x`` subject to ``A x <= b`` and ``lo <= x <= hi``,
every bound finite: the LP relaxation of a branch-and-bound node, whose
bounds are the node's domains. A slack per row makes the rows equalities;
a *basis* is one column per row, and every other column sits at one of its
bounds. The method keeps the basis *dual feasible* (no nonbasic column's
reduced cost asks it to move) and pivots until the basic values are within
their bounds. Narrowing bounds leaves a basis dual feasible, so the basis a
node ends with is where the next node starts, and a few pivots usually
finish it: this is what makes an LP at every node affordable.

Floating point, a dense basis inverse (the rows are few): nothing here is
trusted. The caller turns the prices into an exact bound
(:class:`~relqueens.fd.relaxation.LagrangianBound`), sound for any prices.

>>> lp = DualSimplex({0: -3, 1: -2}, [({0: 2, 1: 2}, 3), ({0: 3, 1: 1}, 3)])
>>> lp.solve([0, 0], [1, 1])                        # max 3x + 2y: x = 3/4, y = 3/4
True
>>> [round(p, 3) for p in lp.prices], [round(v, 3) for v in lp.values]
([0.75, 0.5], [0.75, 0.75])
"""

from __future__ import annotations

from collections.abc import Iterable
from operator import mul
from typing import TypeVar

_N = TypeVar("_N", int, float)

EPS = 1e-9
"""The floating point tolerance: primal values within this of a bound are within it, pivots
smaller than it are refused, and an LP value within it of an integer is that integer."""
REFRESH = 32
"""The reduced costs are kept from solve to solve (they depend on the basis alone), and
computed afresh from the basis every this many solves, against rounding drift."""


def combined(base: list[_N], weights: list[_N], rows: list[list[_N]]) -> list[_N]:
    """``base`` plus ``sum(weights[k] * rows[k])``, entry by entry (rows of one length)."""
    for f, row in zip(weights, rows):
        if f:
            base = [b + f * a for b, a in zip(base, row)]
    return base


class DualSimplex:
    """The LP ``min sum(cost_i x_i)`` subject to ``rows`` (``sum(a_i x_i) <= b`` each, ``==`` for
    those numbered in ``equal``) within bounds.

    Variables are the keys of ``cost`` and of the rows, in sorted order;
    :meth:`solve` takes their bounds in that order and leaves the rows'
    prices (one per row: ``lam >= 0``, of either sign for an equality) and
    the variables' values. An equality's slack is fixed at 0 (one row, where
    two ``<=`` halves would make the basis twice as wide).
    """

    __slots__ = (
        "age",
        "at_high",
        "b",
        "basis",
        "binv",
        "c",
        "columns",
        "d",
        "equal",
        "m",
        "n",
        "prices",
        "ray",
        "rows",
        "slack_high",
        "sparse",
        "values",
        "variables",
        "where",
    )

    def __init__(
        self,
        cost: dict[int, int],
        rows: list[tuple[dict[int, int], int]],
        equal: Iterable[int] = (),
    ) -> None:
        self.variables = sorted({*cost, *(i for weight, _ in rows for i in weight)})
        self.where = where = {v: j for j, v in enumerate(self.variables)}
        self.n, self.m = n, m = len(self.variables), len(rows)
        self.rows: list[list[float]] = []
        """Row ``k`` of ``A`` and the slacks' identity, dense: ``n + m`` columns."""
        for k, (weight, _) in enumerate(rows):
            row = [0.0] * (n + m)
            for v, a in weight.items():
                row[where[v]] = float(a)
            row[n + k] = 1.0
            self.rows.append(row)
        self.sparse = [
            [(j, entry) for j, entry in enumerate(row) if entry]
            if 4 * len(weight) < n + m
            else None
            for row, (weight, _) in zip(self.rows, rows, strict=True)
        ]
        """Row ``k``'s nonzero entries ``(j, a)`` where they are few (``None``: the row is dense)."""
        self.columns: list[list[tuple[int, float]]] = [[] for _ in range(n + m)]
        """Column ``j``'s nonzero entries ``(k, a)``."""
        for k, row in enumerate(self.rows):
            for j, entry in enumerate(row):
                if entry:
                    self.columns[j].append((k, entry))
        self.c = [float(cost.get(v, 0)) for v in self.variables] + [0.0] * m
        self.b = [float(b) for _, b in rows]
        self.equal = frozenset(equal)
        """The rows that are equalities."""
        self.slack_high = [0.0 if k in self.equal else float("inf") for k in range(m)]
        self.at_high = [False] * (n + m)
        self.d: list[float] = []
        """The reduced costs of the last basis."""
        self.age = REFRESH
        self._start()
        self.prices: list[float] = [0.0] * m
        self.values: list[float] = []
        self.ray: list[float] | None = None
        """After an infeasible :meth:`solve`: row weights ``mu`` (``>= 0`` but an equality's) for
        which ``mu A x <= mu b`` fails everywhere within the bounds (Farkas' certificate: to be
        checked exactly)."""

    def _start(self) -> None:
        """The slacks' basis: dual feasible for any cost, since every variable is bounded."""
        m = self.m
        self.basis = [self.n + k for k in range(m)]
        self.binv = [[float(r == k) for k in range(m)] for r in range(m)]
        self.age = REFRESH

    def _combine(self, weights: list[float]) -> list[float]:
        """``sum(weights[k] * rows[k])``: a row of ``B^-1 A`` for a row of ``B^-1``, or ``y A``."""
        out = [0.0] * (self.n + self.m)
        for f, row, sparse in zip(weights, self.rows, self.sparse):
            if not f:
                continue
            if sparse is None:
                out = [b + f * a for b, a in zip(out, row)]
            else:
                for j, a in sparse:
                    out[j] += f * a
        return out

    def _duals(self) -> list[float]:
        """``y = c_B B^-1``: the rows' prices at the basis (``<= 0`` at a dual feasible one)."""
        c = self.c
        return combined([0.0] * self.m, [c[j] for j in self.basis], self.binv)

    def solve(self, lo: list[int], hi: list[int], pivots: int = 0) -> bool:
        """Pivot to the optimum within ``lo``/``hi``: ``True`` if reached, ``False`` if infeasible
        or out of pivots (``pivots``; default: ``2 (n + m)``). The prices are dual feasible either way.
        """
        n, m, c, basis, binv = self.n, self.m, self.c, self.basis, self.binv
        if self.age >= REFRESH:
            self.d, self.age = [cj - a for cj, a in zip(c, self._combine(self._duals()))], 0
        d = self.d
        self.age += 1
        if any(d[n + k] < -EPS for k in range(m) if n + k not in basis and k not in self.equal):
            self._start()  # rounding drift: a slack that would rather grow without end
            return self.solve(lo, hi, pivots)
        low = [*map(float, lo), *[0.0] * m]
        high = [*map(float, hi), *self.slack_high]
        free = [j for j in range(n + m) if low[j] != high[j]]
        basic = [False] * (n + m)
        for j in basis:
            basic[j] = True
        at_high = self.at_high
        # each column at the bound its reduced cost asks for (a basic one's flag is not read
        # while it is basic, and is set when it leaves); the slacks and basic columns at 0
        at_high[:n] = [dj < 0 or (dj == 0 and h) for dj, h in zip(d, at_high[:n])]
        x = [h if up else lw for up, lw, h in zip(at_high[:n], low, high)] + [0.0] * m
        for j in basis:
            x[j] = 0.0
        rhs = [
            b - (sum(map(mul, row, x)) if sparse is None else sum(a * x[j] for j, a in sparse))
            for b, row, sparse in zip(self.b, self.rows, self.sparse)
        ]
        xb = [sum(map(mul, row, rhs)) for row in binv]
        solved, self.ray = False, None
        for _ in range(pivots or 2 * (n + m)):
            r, gap = -1, EPS
            for s in range(m):
                j = basis[s]
                miss = max(low[j] - xb[s], xb[s] - high[j])
                if miss > gap:
                    r, gap = s, miss
            if r < 0:
                solved = True
                break
            leave = basis[r]
            below = xb[r] < low[leave]
            alpha = self._combine(binv[r])
            q, best, pivot = -1, float("inf"), 0.0
            for j in free:
                a = alpha[j]
                if not basic[j] and (a > EPS if below == at_high[j] else a < -EPS):
                    ratio = abs(d[j] / a)
                    if ratio < best or (ratio == best and abs(a) > abs(pivot)):
                        q, best, pivot = j, ratio, a
            if q < 0:  # no column can mend row r: the LP is infeasible
                # row r of B^-1 combines the rows into one no point within the bounds meets;
                # its slacks' weights are >= 0 if below (<= 0 if above), up to rounding
                self.ray = [
                    (v if below else -v) if k in self.equal else max(0.0, v if below else -v)
                    for k, v in enumerate(binv[r])
                ]
                break
            theta = d[q] / pivot
            d = [dj - theta * a for dj, a in zip(d, alpha)]  # the leaving column's is -theta
            d[q] = 0.0  # exactly, not up to rounding
            entries = self.columns[q]
            column = [sum(row[k] * a for k, a in entries) for row in binv]
            bound = low[leave] if below else high[leave]
            step = (xb[r] - bound) / pivot
            entering = x[q] + step
            xb = [v - step * f for v, f in zip(xb, column)]
            pivot_row = [v / pivot for v in binv[r]]
            for s in range(m):
                f = column[s]
                if s != r and f:
                    binv[s] = [t - f * p for t, p in zip(binv[s], pivot_row)]
            binv[r] = pivot_row
            basis[r], basic[q], basic[leave] = q, True, False
            x[leave], at_high[leave] = bound, not below
            xb[r] = entering
        self.d = d
        self.prices = [-v if k in self.equal else max(0.0, -v) for k, v in enumerate(self._duals())]
        for s, j in enumerate(basis):
            x[j] = xb[s]
        self.values = x[:n]
        return solved
