"""Relaxations: bounds on a linear objective for branch and bound, and the values they rule out.

Propagation sees one constraint at a time; an objective summed over many
variables is then bounded only by the sum of their separate bounds. A
relaxation drops some of the problem to solve the rest exactly:

* :class:`KnapsackBound`: one linear constraint ``sum(a_i x_i) <= b`` with the
  variables' bounds, their integrality dropped (the LP relaxation, a
  continuous knapsack, solved greedily by gain per unit of the constraint:
  Dantzig's bound). Where the domains are small, :func:`~relqueens.fd.knapsack.exact`
  replaces it by the integer knapsack, solved by dynamic programming
  (:class:`~relqueens.fd.knapsack.TableBound`).
* :class:`AssignmentBound`: terms ``c_t * y_t`` with ``y_t = row_t[s_t]``
  (``element``) and the ``s_t`` all different (``all_distinct``, ``distinct``,
  ``circuit``): the cheapest assignment of distinct values (the Hungarian
  method), subtours allowed. Its reduced costs then remove each value that
  cannot lead below the best objective found so far.

Both are exact in integers and are sound for any domains; :func:`relaxations`
picks, for an objective variable, the ones that bound it more tightly than
propagation already does at the root. Every bound is on the objective to be
*minimised* (a maximised objective is negated).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, TypeAlias

from .domain import Dom
from .knapsack import TableBound, exact
from .propagators import EqOffset, Linear, high, keep_ge, keep_le, low, narrow

if TYPE_CHECKING:
    from .store import Model

INFEASIBLE = None
"""What :meth:`bound` returns when no assignment of the domains satisfies the relaxation."""


class KnapsackBound:
    """The least ``sum(c_i x_i)`` over real ``x`` within the bounds, with ``sum(a_i x_i) <= b``.

    Each variable starts at its end that uses least of the constraint (``lo``
    if ``a_i > 0``, else ``hi``); moving it gains ``-c_i`` per ``|a_i|`` used,
    and the LP moves the best ratios first, the last one partly (the
    *critical* one). After :meth:`bound`, :meth:`prune` removes the values
    that the LP's reduced costs put above a target.

    >>> kb = KnapsackBound({0: -3, 1: -2}, {0: 2, 1: 2}, 3)   # max 3x + 2y, 2x + 2y <= 3
    >>> kb.bound([0b11, 0b11], [0, 0])                        # x = 1, y = 1/2: -4 rounded up
    -4
    >>> queue = set(); kb.prune(D := [0b11, 0b11], [0, 0], -4, queue), D   # reach -4: x must be 1
    (True, [2, 3])
    """

    __slots__ = ("b", "cost", "items", "lp", "order", "still", "weight")

    def __init__(self, cost: dict[int, int], weight: dict[int, int], b: int) -> None:
        self.cost, self.weight, self.b = cost, weight, b
        items: list[tuple[Fraction, int, int, int]]
        still: list[tuple[Fraction, int, int, int]]
        items, still = [], []
        for i, a in weight.items():
            gain = -cost.get(i, 0) if a > 0 else cost.get(i, 0)
            (items if gain > 0 else still).append((Fraction(gain, abs(a)), i, gain, abs(a)))
        items.sort(key=lambda item: item[0], reverse=True)
        self.items = [(i, gain, w) for _, i, gain, w in items]
        self.order = {i: k for k, (i, _, _) in enumerate(self.items)}
        self.still = [(i, gain, w) for _, i, gain, w in still]
        self.lp: (
            tuple[()] | tuple[int | float, int | float, int, int, int, list[Dom], list[int]]
        ) = ()

    def bound(self, D: list[Dom], off: list[int]) -> int | float | None:
        """The LP optimum rounded up, :data:`INFEASIBLE` (``None``) if the bounds break the
        constraint, ``-inf`` if a bound is infinite."""
        total: int | float
        room: int | float
        total, room = 0, self.b
        weight = self.weight
        for i, c in self.cost.items():
            lo, hi = low(D[i], off[i]), high(D[i], off[i])
            a = weight.get(i)
            if a is None:
                total += c * lo if c > 0 else c * hi
            else:
                start = lo if a > 0 else hi
                total += c * start
                room -= a * start
        for i, a in weight.items():
            if i not in self.cost:
                room -= a * (low(D[i], off[i]) if a > 0 else high(D[i], off[i]))
        if type(total) is float or type(room) is float:
            self.lp = ()
            return float("-inf")
        if room < 0:
            return INFEASIBLE
        for k, (i, gain, w) in enumerate(self.items):
            span = high(D[i], off[i]) - low(D[i], off[i])
            if w * span > room:
                self.lp = (total, room, gain, w, k, D, off)
                return total - (gain * room) // w
            room -= w * span
            total -= gain * span
        self.lp = (total, 0, 0, 1, len(self.items), D, off)
        return total

    def solution(self, i: int) -> int | None:
        """The value of ``x_i`` in the last LP solution, rounded down if fractional (or ``None``)."""
        if not self.lp or i not in self.weight:
            return None
        k, D, off = self.lp[4], self.lp[5], self.lp[6]
        at = self.order.get(i, len(self.items))
        if at == k:  # the critical variable: the whole units of its move
            step = self.lp[1] // self.lp[3]  # room // weight
            return low(D[i], off[i]) + step if self.weight[i] > 0 else high(D[i], off[i]) - step  # type: ignore[return-value]  # finite: the LP ran
        up = (self.weight[i] > 0) == (at < k)
        return high(D[i], off[i]) if up else low(D[i], off[i])  # type: ignore[return-value]  # as above

    def prune(self, D: list[Dom], off: list[int], target: int, queue: set[int]) -> bool:
        """Narrow each variable to the moves from its LP value that keep the bound within ``target``.

        Moving ``x_i`` by ``t`` from where the LP puts it raises the LP
        optimum by at least ``t`` times its reduced cost ``|g_i - g_c w_i / w_c|``
        (``c``: the critical variable; ``0`` when every move fits).
        """
        if not self.lp:
            return True
        total, room, gc, wc, k = self.lp[:5]
        slack = wc * (target - total) + gc * room  # wc * (target - LP optimum)
        if slack < 0:
            return False
        weight = self.weight
        moves = [(i, gain, w, n < k) for n, (i, gain, w) in enumerate(self.items) if n != k]
        moves += [(i, gain, w, False) for i, gain, w in self.still]
        for i, gain, w, moved in moves:
            cost = abs(gain * wc - gc * w)
            if cost:
                up = (weight[i] > 0) != moved  # the LP value is the low end: moves go up
                if not _within(D, off, i, slack // cost, up, queue):
                    return False
        for i, c in self.cost.items():
            if (
                i not in weight
                and c
                and not _within(D, off, i, slack // (wc * abs(c)), c > 0, queue)
            ):
                return False
        return True


def _within(
    D: list[Dom], off: list[int], i: int, most: int | float, up: bool, queue: set[int]
) -> bool:
    """Keep ``D[i]`` within ``most`` of its low end (``up``) or of its high end."""
    d, o = D[i], off[i]
    return narrow(
        D, queue, i, keep_le(d, o, low(d, o) + most) if up else keep_ge(d, o, high(d, o) - most)
    )


class AssignmentBound:
    """The least ``sum(c_t * row_t[s_t])`` over distinct values ``s_t``, plus the other terms' least.

    ``rows`` holds ``(c_t, s_t, xs_t)``: index variable ``s_t`` picks
    ``xs_t[s_t]`` (variables, often fixed to constants); ``rest`` the other
    terms ``{x: c}`` of the objective.

    >>> ab = AssignmentBound([(1, 0, (2, 3)), (1, 1, (4, 5))], {})
    >>> ab.bound([0b11, 0b11, 1, 1, 1, 1], [0, 0, 5, 9, 7, 1])   # s0 = 0, s1 = 1: 5 + 1
    6
    """

    __slots__ = ("duals", "rest", "rows")

    def __init__(self, rows: list[tuple[int, int, tuple[int, ...]]], rest: dict[int, int]) -> None:
        self.rows, self.rest = rows, rest
        self.duals: (
            tuple[
                list[dict[int, int | float]],
                list[int | float],
                dict[int, int | float],
                int | float,
                dict[int, int],
            ]
            | None
        ) = None

    def _costs(
        self, D: list[Dom], off: list[int]
    ) -> tuple[list[dict[int, int | float]], int | float]:
        costs: list[dict[int, int | float]]
        base: int | float
        row: dict[int, int | float]
        d: int
        costs, base = [], 0
        for c, s, xs in self.rows:
            o, d, row = off[s], D[s], {}
            while d:
                bit = d & -d
                k = o + bit.bit_length() - 1
                x = xs[k]
                row[k] = c * low(D[x], off[x]) if c > 0 else c * high(D[x], off[x])
                d ^= bit
            costs.append(row)
        for x, c in self.rest.items():
            base += c * low(D[x], off[x]) if c > 0 else c * high(D[x], off[x])
        return costs, base

    def bound(self, D: list[Dom], off: list[int]) -> int | float | None:
        """The optimum of the assignment, or :data:`INFEASIBLE` (``None``); keeps the duals for :meth:`prune`."""
        costs, base = self._costs(D, off)
        result = hungarian(costs)
        if result is None:
            self.duals = None
            return INFEASIBLE
        value, u, v, chosen = result
        index = {s: k for (_, s, _), k in zip(self.rows, chosen)}
        self.duals = (costs, u, v, base + value, index)
        return base + value

    def solution(self, i: int) -> int | None:
        """The value of index variable ``i`` in the last cheapest assignment (or ``None``)."""
        if self.duals is None:
            return None
        return self.duals[4].get(i)

    def prune(self, D: list[Dom], off: list[int], target: int, queue: set[int]) -> bool:
        """Remove the values whose reduced cost takes the bound above ``target``."""
        if self.duals is None:
            return True
        costs, u, v, least, _ = self.duals
        excess = target - least
        if excess < 0:
            return False
        d: int
        for t, (_, s, _) in enumerate(self.rows):
            o, d, ut = off[s], D[s], u[t]
            drop = 0
            for k, c in costs[t].items():
                if c - ut - v[k] > excess:
                    drop |= 1 << (k - o)
            if drop:
                d &= ~drop
                if not d:
                    return False
                D[s] = d
                queue.add(s)
        return True


def hungarian(
    costs: list[dict[int, int | float]],
) -> tuple[int | float, list[int | float], dict[int, int | float], list[int]] | None:
    """The cheapest assignment of distinct columns to rows (``costs[r][col]``; absent: forbidden).

    Returns ``(total, u, v, chosen)``: the column ``chosen`` for each row and
    dual potentials with ``cost - u[r] - v[col] >= 0`` wherever a cost is
    given, ``v[col] <= 0``, and equality on the assignment (so ``total + cost
    - u[r] - v[col]`` bounds every assignment that gives ``col`` to ``r``);
    ``None`` when no assignment exists. The shortest augmenting path method,
    O(rows² × columns).

    >>> hungarian([{0: 4, 1: 1}, {0: 2, 1: 3}])[0]
    3
    >>> hungarian([{0: 1}, {0: 2}]) is None
    True
    """
    columns = sorted({k for row in costs for k in row})
    n, m = len(costs), len(columns)
    if m < n:
        return None
    rows = [[row.get(k) for k in columns] for row in costs]
    inf = float("inf")
    u: list[int | float]
    v: list[int | float]
    u, v = [0] * (n + 1), [0] * (m + 1)
    owner, way = [0] * (m + 1), [0] * (m + 1)  # column -> row (1-based; 0: free)
    for r in range(1, n + 1):
        owner[0], j0 = r, 0
        least, used = [inf] * (m + 1), [False] * (m + 1)
        while True:
            used[j0] = True
            i0 = owner[j0]
            row, ui = rows[i0 - 1], u[i0]
            delta, j1 = inf, 0
            for j in range(1, m + 1):
                if not used[j]:
                    c = row[j - 1]
                    if c is not None:
                        cur = c - ui - v[j]
                        if cur < least[j]:
                            least[j], way[j] = cur, j0
                    if least[j] < delta:
                        delta, j1 = least[j], j
            if delta == inf:
                return None
            for j in range(m + 1):
                if used[j]:
                    u[owner[j]] += delta
                    v[j] -= delta
                else:
                    least[j] -= delta
            j0 = j1
            if owner[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            owner[j0] = owner[j1]
            j0 = j1
    chosen = [0] * n
    for j in range(1, m + 1):
        if owner[j]:
            chosen[owner[j] - 1] = columns[j - 1]
    total = sum(costs[r][k] for r, k in enumerate(chosen))
    return total, u[1:], dict(zip(columns, v[1:])), chosen


def _linear(model: Model) -> list[Linear]:
    return [e[1] for e in model.props if e[0] == "prop" and type(e[1]) is Linear]


def objective_form(model: Model, j: int) -> tuple[dict[int, int], int, Linear | None]:
    """Variable ``j`` as ``sum(c_i x_i) + k`` by its largest defining linear equality (or itself).

    A copy ``j == y + c`` (``EqOffset``) is followed to ``y`` first.
    """
    shift = 0
    for e in model.props:
        p = e[1]
        if e[0] == "prop" and type(p) is EqOffset and j in p.vars:
            j, shift = (p.y, p.c) if p.x == j else (p.x, -p.c)
            break
    best: Linear | None = None
    for p in _linear(model):
        if p.op == "==" and len(p.terms) > 2:
            a = dict(p.terms).get(j)
            if a in (1, -1) and (best is None or len(p.terms) > len(best.terms)):
                best = p
    if best is None:
        return {j: 1}, shift, None
    a = dict(best.terms)[j]
    return {i: -a * c for i, c in best.terms if i != j}, shift - a * best.k, best


def _distinct_groups(model: Model) -> list[frozenset[int]]:
    """The variable sets known to take distinct values: ``distinct``, ``all_distinct``, ``circuit``."""
    from .globals import AllDistinctProp, CircuitProp

    groups = []
    for e in model.props:
        if e[0] == "distinct" and all(c == 0 for _, c in e[1]):
            groups.append(frozenset(i for i, _ in e[1]))
        elif e[0] == "prop" and type(e[1]) in (AllDistinctProp, CircuitProp):
            groups.append(frozenset(e[1].vars))
    return groups


def _assignment(model: Model, cost: dict[int, int]) -> AssignmentBound | None:
    """The assignment relaxation of the terms defined by ``element`` over one distinct group."""
    from .globals import ElementProp

    defined: dict[int, ElementProp] = {}
    for e in model.props:
        p = e[1]
        if e[0] == "prop" and type(p) is ElementProp and p.v in cost and p.v not in defined:
            defined[p.v] = p
    best: list[tuple[int, ElementProp]] = []
    for group in _distinct_groups(model):
        rows = [(v, p) for v, p in defined.items() if p.i in group]
        if len(rows) > len(best) and len({p.i for _, p in rows}) == len(rows):
            best = rows
    if len(best) < 2:
        return None
    covered = {v for v, _ in best}
    rest = {x: c for x, c in cost.items() if x not in covered}
    return AssignmentBound([(cost[v], p.i, p.xs) for v, p in best], rest)


Relaxation: TypeAlias = "TableBound | KnapsackBound | AssignmentBound"


def relaxations(
    model: Model, j: int, sense: str, D: list[Dom], off: list[int]
) -> tuple[int, list[Relaxation]] | None:
    """The relaxations that bound objective variable ``j`` better than ``D`` does: ``(const, them)``.

    The objective, minimised (negated if ``sense`` is ``"max"``), is ``const``
    plus what each relaxation bounds; ``None`` when one proves ``D`` infeasible.
    """
    form, k, defining = objective_form(model, j)
    sign = 1 if sense == "min" else -1
    cost, const = {i: sign * c for i, c in form.items()}, sign * k
    if len(cost) < 2:
        return const, []
    knapsacks: list[KnapsackBound] = []
    for p in _linear(model):
        if p is not defining and p.op in ("<=", "==") and sum(i in cost for i in p.vars) >= 2:
            weight = dict(p.terms)  # sum(a x) + k <= 0
            knapsacks.append(KnapsackBound(cost, weight, -p.k))
            if p.op == "==":
                knapsacks.append(KnapsackBound(cost, {i: -a for i, a in weight.items()}, p.k))
    found: list[Relaxation] = [*exact(knapsacks, D, off)]
    assignment = _assignment(model, cost)
    if assignment is not None:
        found.append(assignment)
    now = low(D[j], off[j]) if sense == "min" else -high(D[j], off[j])
    useful = []
    for r in found:
        b = r.bound(D, off)
        if b is INFEASIBLE:
            return None
        if const + b > now:
            useful.append(r)
    return const, useful
