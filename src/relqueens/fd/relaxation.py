"""Relaxations: bounds on a linear objective for branch and bound, and the values they rule out.

Propagation sees one constraint at a time; an objective summed over many
variables is then bounded only by the sum of their separate bounds. A
relaxation drops some of the problem to solve the rest exactly:

* :class:`KnapsackBound`: one linear constraint ``sum(a_i x_i) <= b`` with the
  variables' bounds, their integrality dropped (the LP relaxation, a
  continuous knapsack, solved greedily by gain per unit of the constraint:
  Dantzig's bound). Where the domains are small, :func:`~relqueens.fd.knapsack.exact`
  adds the integer knapsack, solved by dynamic programming
  (:class:`~relqueens.fd.knapsack.TableBound`): at once for an equality,
  after the LP's first nodes for ``<=`` (:class:`Deferred`), which first
  solves the knapsack at the root over its Pareto frontier
  (:func:`~relqueens.fd.frontier.best_point`: weights in the thousands).
* :class:`LagrangianBound`: two or more such constraints at once (those
  over the objective's variables, or every one reached from them through
  shared variables where they are few), the LP relaxation of them all solved again at every node
  (:class:`~relqueens.fd.simplex.DualSimplex`), its prices turned into an
  exact Lagrangian bound; it replaces the constraints' own bounds. Tests
  ``b_c == (x == c)`` of every value ``c`` of a variable add the row
  ``sum(b_c) == 1`` (:func:`channels`): a bin packing by each item's bin
  gets its bins bounded by the items' total (14 items: over 20 s to 0.012 s).
  Two ``element`` over one index and fixed cells add the facets of the
  hull of their cells' points (:func:`hulls`: a multiple-choice knapsack).
* :class:`~relqueens.fd.choices.ChoiceTable`: a ``<=`` row and the objective
  whose terms ``element`` ties to shared indices (each index picks a weight
  and a profit: a multiple-choice knapsack), solved by dynamic programming
  over the room left, one class per index; where no other row holds its
  variables, it replaces their LP (30 items of 5 options: 0.72-0.88 s to 0.025 s).
* :class:`AssignmentBound`: terms ``c_t * y_t`` with ``y_t = row_t[s_t]``
  (``element``) and the ``s_t`` all different (``all_distinct``, ``distinct``,
  ``circuit``): the cheapest assignment of distinct values (the Hungarian
  method), subtours allowed. Its reduced costs then remove each value that
  cannot lead below the best objective found so far.
* :class:`OneTreeBound`: the same terms over a ``circuit``'s successors, the
  tour as undirected edges: Held and Karp's 1-tree bound (a spanning tree and
  two edges at one node; node penalties, raised by subgradient steps, push
  it towards a tour). No subtours: far tighter on symmetric distances. Its
  marginal costs remove the arcs that cannot lead below the best tour.

The LPs and the assignment are exact, the Lagrangian and the 1-tree bounds for
any prices or penalties; all are integer arithmetic (floating point only
guides the prices) and sound for any domains; :func:`relaxations`
picks, for an objective variable, the ones that bound it more tightly than
propagation already does at the root. Every bound is on the objective to be
*minimised* (a maximised objective is negated).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable
from fractions import Fraction
from itertools import combinations
from math import ceil, floor, gcd
from operator import mul
from typing import TYPE_CHECKING, TypeAlias

from .choices import ChoiceTable, choice_table
from .domain import Dom, Domain
from .frontier import best_point
from .knapsack import TableBound, exact
from .propagators import EqOffset, Linear, fixed, high, keep_ge, keep_le, low, narrow
from .simplex import EPS, DualSimplex, combined

if TYPE_CHECKING:
    from .store import Model

INFEASIBLE = None
"""What :meth:`bound` returns when no assignment of the domains satisfies the relaxation."""

ROUNDS, PATIENCE = 30, 3
"""The 1-tree ascent's most steps per bound, and its steps without progress before it halves its rate."""


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

    __slots__ = ("b", "cost", "equal", "items", "lp", "mirror", "order", "still", "weight")

    def __init__(
        self,
        cost: dict[int, int],
        weight: dict[int, int],
        b: int,
        equal: bool = False,
        mirror: KnapsackBound | None = None,
    ) -> None:
        self.cost, self.weight, self.b = cost, weight, b
        # an equality's ``<=`` half (``equal``; its table may fill the room exactly) and its
        # ``>=`` half, which names the other as its ``mirror``:
        self.equal, self.mirror = equal, mirror
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

    def bound(
        self, D: list[Dom], off: list[int], cap: int | float = float("inf")
    ) -> int | float | None:
        """The LP optimum rounded up, :data:`INFEASIBLE` (``None``) if the bounds break the
        constraint, ``-inf`` if a bound is infinite (exact: no use for a ``cap``)."""
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

    def rounded(self) -> dict[int, int] | None:
        """:meth:`solution` for each of the objective's variables (``None`` if one has none): the
        LP's greedy point, its critical variable rounded down, a guess at a solution."""
        values = {}
        for i in self.cost:
            v = self.solution(i)
            if v is None:
                return None
            values[i] = v
        return values

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


class Deferred:
    """One ``<=`` constraint's exact optimum at the root, its LP at every node, its table later.

    At the first bound, :func:`~relqueens.fd.frontier.best_point` solves
    the knapsack over the root's domains (an expanding core, quick where
    the LP alone would take exponentially many nodes: gains close to the
    weights); its least bounds every node, and its point is tried as a
    solution over the root (:meth:`found`). Where that is no solution of
    the whole model (other constraints), the LP bounds each node with its
    reduced costs; after :data:`DEFERRED` bounds more per variable, or at
    once if the bound at the root is no better than propagation's
    (:meth:`tabled`), the root's domains are narrowed by the LP's reduced
    costs to the values that can beat the best found, and over them
    :func:`~relqueens.fd.knapsack.exact` builds the table, which bounds and
    prunes each node while the search looks no further than then.
    """

    __slots__ = ("cost", "left", "live", "lp", "optimum", "point", "root", "table", "valid")

    def __init__(self, lp: KnapsackBound, D: list[Dom], off: list[int]) -> None:
        self.lp, self.cost, self.root = lp, lp.cost, (D[:], off)
        self.left = 1
        """The bounds left before the next stage (1: at the next)."""
        self.optimum: int | float = float("-inf")
        """The exact least over the root (or more than the target then, when nothing reaches it)."""
        self.point: dict[int, int] | None = None
        """A point of the exact least, until :meth:`found` (``{}``: none, or found)."""
        self.table: TableBound | None = None
        self.valid: int | float = float("inf")
        """The most a target may be for the table to hold."""
        self.live: TableBound | None = None
        """The table, if the last bound read it."""

    def tabled(self, D: list[Dom], off: list[int]) -> int | float | None:
        """Go on to the next stage now; the bound with it."""
        self.left = 1
        return self.bound(D, off)

    def bound(
        self, D: list[Dom], off: list[int], cap: int | float = float("inf")
    ) -> int | float | None:
        """The tightest of the LP's bound, the exact least and the table's (once found)."""
        self.left -= 1
        if not self.left:
            self._next(cap)
        least = self.lp.bound(D, off, cap)
        self.live = None
        if least is INFEASIBLE:
            return least
        least = max(least, self.optimum)
        if self.table is None or cap > self.valid:
            return least
        self.live = self.table
        exact_least = self.table.bound(D, off, cap)
        return INFEASIBLE if exact_least is INFEASIBLE else max(least, exact_least)

    def _next(self, cap: int | float) -> None:
        """The exact least (at the first stage, if the frontier stays small enough), else the
        table, over the root narrowed to the values that may cost at most ``cap``."""
        D, off = self.root
        if type(cap) is int:
            D = D[:]
            if self.lp.bound(D, off) is INFEASIBLE or not self.lp.prune(D, off, cap, set()):
                self.optimum = cap + 1  # the LP proves that no point reaches the target
                return
        if self.point is None:
            self.point = {}
            solved = best_point(self.lp, D, off, cap)
            if solved is not None:
                # the narrowing kept every point within the target: the least over the whole
                # root (or above the target, as there)
                self.optimum, point = solved
                self.point = point or {}
            self.left = max(1, DEFERRED * len(self.lp.weight))
            return
        (built,) = exact([self.lp], D, off)
        if type(built) is TableBound:
            self.table, self.valid = built, cap

    def solution(self, i: int) -> int | None:
        """The table's best completion once built (where it has one), else the LP's point."""
        v = None if self.live is None else self.live.solution(i)
        return self.lp.solution(i) if v is None else v

    def rounded(self) -> dict[int, int] | None:
        """The LP's point (:meth:`KnapsackBound.rounded`): a guess at a solution."""
        return self.lp.rounded()

    def found(self) -> dict[int, int] | None:
        """The exact least's point over the root's domains, once (then ``None``)."""
        if not self.point:
            return None
        point, self.point = self.point, {}
        return point

    def prune(self, D: list[Dom], off: list[int], target: int, queue: set[int]) -> bool:
        """The table's pruning first (it reads the node as its bound saw it), then the LP's
        (which only ever keeps more where the domains moved in since)."""
        return (self.live is None or self.live.prune(D, off, target, queue)) and self.lp.prune(
            D, off, target, queue
        )


DEFERRED = 2
"""A knapsack's LP bounds alone this many nodes (bounds) per variable of its constraint."""


class LagrangianBound:
    """The least ``sum(c_i x_i)`` within the bounds, every constraint ``sum(a_ki x_i) <= b_k`` priced in.

    For multipliers ``lam_k >= 0`` (of either sign for an equality, whose
    two halves are one row), ``sum(c_i x_i) + sum(lam_k (sum(a_ki x_i)
    - b_k))`` is at most the objective wherever the constraints hold, and its
    least over the bounds takes each variable at the end its *reduced cost*
    ``r_i = c_i + sum(lam_k a_ki)`` favours: a bound in one pass, for all the
    constraints together (a knapsack's own bounds see one each). At each
    node the multipliers are the LP relaxation's prices over the node's
    bounds (:class:`~relqueens.fd.simplex.DualSimplex`, warm-started from the
    last node), so the bound is the LP's (up to the prices' rounding to
    integers over :data:`LAGRANGE_SCALE`), in exact arithmetic whatever the
    floating point LP did. Moving ``x_i`` by ``t`` from its end raises it by
    ``t |r_i|``: :meth:`prune` removes the values that cannot reach a target.

    >>> kbs = [KnapsackBound({0: -3, 1: -2}, {0: 2, 1: 2}, 3), KnapsackBound({0: -3, 1: -2}, {0: 3, 1: 1}, 3)]
    >>> lb = LagrangianBound(kbs, [0b11, 0b11], [0, 0])   # max 3x + 2y: 2x + 2y <= 3, 3x + y <= 3
    >>> lb.bound([0b11, 0b11], [0, 0])                      # the LP's -3.75, rounded up
    -3
    """

    __slots__ = (
        "choices",
        "const",
        "cost",
        "count",
        "ends",
        "fill",
        "ids",
        "infeasible",
        "least",
        "lp",
        "reaching",
        "reduced",
        "root",
        "rounding",
        "row_weights",
        "rows",
        "scaled_cost",
        "solved",
    )

    def __init__(self, knapsacks: list[KnapsackBound], D: list[Dom], off: list[int]) -> None:
        self.cost = knapsacks[0].cost
        self.choices: Choices = {}
        """Variables outside the LP that choose a point of it (see :func:`hulls`)."""
        rows = [kb for kb in knapsacks if kb.mirror is None]  # an equality's halves: one row
        self.rows = [(kb.weight, kb.b) for kb in rows]
        equal = [k for k, kb in enumerate(rows) if kb.equal]
        self.lp = DualSimplex(self.cost, self.rows, equal)
        self.ids = ids = self.lp.variables
        """The variables, in the LP's order: the lists below are aligned with it."""
        self.row_weights = [[w.get(i, 0) for i in ids] for w, _ in self.rows]
        self.scaled_cost = [LAGRANGE_SCALE * self.cost.get(i, 0) for i in ids]
        self.rounding = self._rounding(range(len(self.rows)))
        """Per variable: may it be rounded down (no row's weight is negative), up (none positive)?"""
        self.fill = self._fillable(range(len(self.rows)))
        """The rows within which a rounded point may be filled (:meth:`rounded`) and a solution
        climbed from (:meth:`improved`), if they are ``<=`` rows over the cost's variables
        alone; else ``None``."""
        self.ends: tuple[list[int], list[int]] = ([], [])
        """The bounds of the last LP, in the LP's order."""
        self.root = _ends(ids, D, off)
        """The root's bounds, in the LP's order."""
        self.solved = False
        self.reduced: list[int] = []
        """Each variable's reduced cost, scaled."""
        self.infeasible = False
        self.const = 0
        """The multipliers' constant part, scaled."""
        self.least: int | float = 0
        """The priced objective's least over the last prices' domains, scaled."""
        self.reaching: list[tuple[int, int, int]] = []
        """``(reach, variable, reduced cost)`` of each variable whose reduced cost is not 0,
        the most moving it over the root's span adds to the priced objective first."""
        self.count: int | None = None
        """A variable that counts the objective's (see :func:`counted`): branched on first."""
        self._price(D, off)

    def _rounding(self, kept: Iterable[int]) -> dict[int, tuple[bool, bool]]:
        """Per variable, whether rounding it down, or up, keeps the rows at positions ``kept``
        met: no row's weight on it is negative, or none positive (no equality)."""
        held = [(self.rows[k][0], k in self.lp.equal) for k in kept]
        return {
            i: (
                all(w.get(i, 0) == 0 or (w[i] > 0 and not eq) for w, eq in held),
                all(w.get(i, 0) == 0 or (w[i] < 0 and not eq) for w, eq in held),
            )
            for i in self.ids
        }

    def _fillable(self, kept: Iterable[int]) -> list[int] | None:
        """The positions ``kept`` if their rows are ``<=`` rows over the cost's variables alone,
        else ``None``."""
        kept, cost = list(kept), self.cost
        if any(k in self.lp.equal or not self.rows[k][0].keys() <= cost.keys() for k in kept):
            return None
        return kept

    def counts(self, count: int) -> None:
        """Branch on variable ``count`` first, split at its LP value (see :func:`counted`), and
        fill guesses within the other rows (a guess's count is what its point sums to)."""
        kept = [k for k, (w, _) in enumerate(self.rows) if count not in w]
        self.count, self.fill, self.rounding = count, self._fillable(kept), self._rounding(kept)

    def _price(self, D: list[Dom], off: list[int]) -> None:
        """Multipliers from the LP over the bounds of ``D``, and the reduced costs they give."""
        lp = self.lp
        self.ends = _ends(self.ids, D, off)
        self.solved = lp.solve(*self.ends)
        lam = [round(p * LAGRANGE_SCALE) for p in lp.prices]
        self.reduced = combined(self.scaled_cost, lam, self.row_weights)
        reach = [abs(r) * (h - l) for r, l, h in zip(self.reduced, *self.root)]
        self.reaching = sorted(
            ((m, i, r) for m, i, r in zip(reach, self.ids, self.reduced) if m), reverse=True
        )
        self.const = -sum(m * b for (_, b), m in zip(self.rows, lam))
        self.least = self.const + _least(zip(self.ids, self.reduced), D, off)
        self.infeasible = lp.ray is not None and self._refuted(lp.ray, D, off)

    def _refuted(self, ray: list[float], D: list[Dom], off: list[int]) -> bool:
        """Whether the rows weighted by ``ray`` (scaled to integers) exceed their bound at every
        point within ``D``'s bounds: then no point meets them all."""
        top = max(map(abs, ray))
        if not top:
            return False
        mu = [round(v / top * LAGRANGE_SCALE) for v in ray]
        weights = combined([0] * len(self.ids), mu, self.row_weights)
        return _least(zip(self.ids, weights), D, off) > sum(
            m * b for (_, b), m in zip(self.rows, mu)
        )

    def bound(
        self, D: list[Dom], off: list[int], cap: int | float = float("inf")
    ) -> int | float | None:
        """The priced objective's least at this node's prices, rounded up."""
        self._price(D, off)
        if self.infeasible:
            return INFEASIBLE
        return -(-self.least // LAGRANGE_SCALE)

    def repriced(self, D: list[Dom], off: list[int]) -> int | float:
        """The bound at ``D`` with the prices of the last :meth:`bound` (one that found the LP
        feasible), the LP not solved again: any prices give a bound, and those of a nearby
        node nearly the LP's; :meth:`prune` then reads it."""
        self.least = self.const + _least(zip(self.ids, self.reduced), D, off)
        return -(-self.least // LAGRANGE_SCALE)

    def solution(self, i: int) -> int | None:
        """The value of ``x_i`` in the last LP optimum, rounded to the nearest; for a variable
        outside the LP that chooses a point of it, the choice nearest its optimum (or ``None``)."""
        lp = self.lp
        if not self.solved:
            return None
        if i in lp.where:
            return round(lp.values[lp.where[i]])
        options = self.choices.get(i)
        if options is None or any(v not in lp.where for v, _ in options[0][1]):
            return None
        at = {v: lp.values[lp.where[v]] for v, _ in options[0][1]}
        return min(options, key=lambda o: sum((at[v] - c) ** 2 for v, c in o[1]))[0]

    def fractional(self, D: list[Dom], idxs: list[int]) -> int:
        """The position in ``idxs`` of the open variable the last LP optimum puts between two
        integers whose cost is the largest (ties: the first), or ``-1`` if there is none.

        The costliest such item moves the bound most either way. Against the
        first: a correlated knapsack of 50 items and 5 rows, 1.1 to 0.5 s; on
        23 random correlated ones of 30 to 100 items and 2 to 10 rows, 19
        faster (up to 2.4x) and 4 slower (up to 1.6x).
        """
        lp = self.lp
        best, most = -1, -1
        if self.solved:
            where, values, cost = lp.where, lp.values, self.cost
            count = self.count
            if count is not None and not fixed(D[count]) and self.split_at(count) is not None:
                return idxs.index(count)  # the count first
            for k, i in enumerate(idxs):
                at = where.get(i)
                if at is not None and not fixed(D[i]):
                    x = values[at]
                    if abs(x - round(x)) > EPS and abs(cost.get(i, 0)) > most:
                        best, most = k, abs(cost.get(i, 0))
        return best

    def split_at(self, i: int) -> int | None:
        """Where a node splits variable ``i``'s domain: if ``i`` is the count (see :meth:`counts`)
        and the last LP optimum puts it between two integers, the one above; else ``None``."""
        if i != self.count or not self.solved:
            return None
        x = self.lp.values[self.lp.where[i]]
        return ceil(x) if abs(x - round(x)) > EPS else None

    def rounded(self) -> dict[int, int] | None:
        """The last LP optimum over the objective's variables (``None`` if not solved), rounded
        down where no row's weight is negative, up where none is positive (so the rows stay
        met), else to the nearest: a guess at a solution. Where the rows are ``<=`` over the
        cost's variables alone, the guess is then filled (:meth:`_filled`). A count's row (see
        :meth:`counts`) is left out of both: the count is what the point sums to."""
        if not self.solved:
            return None
        lp, values = self.lp, {}
        for i in self.cost:
            x = lp.values[lp.where[i]]
            down, up = self.rounding[i]
            values[i] = floor(x + EPS) if down else ceil(x - EPS) if up else round(x)
        return self._filled(values, self.ends) if self.fill is not None else values

    def _filled(
        self, values: dict[int, int], ends: tuple[list[int], list[int]], kept: int = -1
    ) -> dict[int, int]:
        """``values`` (changed in place) with each variable (but ``kept``) moved, as far as the
        bounds ``ends`` and the rows' room allow, the way its cost falls: the cheapest moves at
        the last prices (reduced costs) first.

        Rounding a knapsack's LP down leaves room that its best items would fill: a
        multidimensional knapsack's optimum (60 items, 2 rows) found after 2,350 nodes
        was found after 339 with its guesses so filled, and at the root (100 nodes in
        all) with :meth:`improved` too.
        """
        los, his = ends
        where, reduced = self.lp.where, self.reduced
        weights, room = self._room(values)
        if min(room) < 0:
            return values
        moves = []  # (price of a step, variable, position, steps it may take, step)
        for i, c in self.cost.items():
            if c and i != kept:
                p = where[i]
                if c < 0 and (most := his[p] - values[i]) > 0:
                    moves.append((reduced[p], i, p, most, 1))
                elif c > 0 and (most := values[i] - los[p]) > 0:
                    moves.append((-reduced[p], i, p, most, -1))
        moves.sort()
        for _, i, p, most, step in moves:
            for k, row in enumerate(weights):
                use = step * row[p]
                if use > 0 and room[k] < use * most:
                    most = room[k] // use
            if most > 0:
                values[i] += step * most
                for k, row in enumerate(weights):
                    room[k] -= step * most * row[p]
        return values

    def _room(self, values: dict[int, int]) -> tuple[list[list[int]], list[int]]:
        """The weights of the rows filled within (:attr:`fill`), in the LP's order, and the room
        each leaves at the point ``values`` (its variables' values; 0 for the others)."""
        rows = self.fill or ()
        weights = [self.row_weights[k] for k in rows]
        point = [values.get(i, 0) for i in self.ids]
        return weights, [self.rows[k][1] - sum(map(mul, w, point)) for k, w in zip(rows, weights)]

    def improved(self, values: dict[int, int]) -> dict[int, int] | None:
        """A cheaper point than ``values`` (a solution's, filled) within the root's bounds, or
        ``None``: one variable moved a step back against its cost and the rest :meth:`_filled`,
        the cheapest such neighbour taken while one is cheaper, else the cheapest
        :meth:`_swapped` (a hill climb of at most :data:`CLIMBS` steps, each filling once per
        variable: 30-42 ms for 200 items and 5 rows, 27-41 ms without the swaps, and called
        only when a guess is a better solution)."""
        if self.fill is None:
            return None
        cost, los, his = self.cost, *self.root
        where = self.lp.where
        found, least = None, cost_of(cost, values)
        for _ in range(CLIMBS):
            best = None
            for i, c in cost.items():
                back = values[i] + (1 if c > 0 else -1)
                if c and los[where[i]] <= back <= his[where[i]]:
                    point = self._filled({**values, i: back}, self.root, i)
                    if (t := cost_of(cost, point)) < least:
                        best, least = point, t
            if best is None:
                best = self._swapped(values, least)
                if best is None:
                    break
                least = cost_of(cost, best)
            found = values = best
        return found

    def _swapped(self, values: dict[int, int], least: int) -> dict[int, int] | None:
        """The point of ``values`` with one variable a step back against its cost and another a
        step with it (else two and two, up to :data:`PAIRED`: :func:`_swap` with :data:`SCAN`), the cheapest such swap
        that keeps the rows met, then :meth:`_filled`; ``None`` if it is not cheaper than ``least``.

        A knapsack's exact fill is often a swap away, where moving one item back and
        filling again does not reach it: of ten strongly correlated knapsacks of 30
        items and 2 rows, four met their optimum after 45-886 nodes, now at the root
        with one for one; two for two found a 60-item one's at the root, not after 547.
        """
        cost, where, ids = self.cost, self.lp.where, self.ids
        los, his = self.root
        weights, room = self._room(values)
        back: list[Move] = []  # a step against its cost; ahead: with it
        ahead: list[Move] = []
        for i, c in cost.items():
            p = where[i]
            step = 1 if c > 0 else -1  # against its cost
            if c and los[p] <= values[i] + step <= his[p]:
                back.append((c * step, [step * w[p] for w in weights], ((p, step),)))
            if c and los[p] <= values[i] - step <= his[p]:
                ahead.append((-c * step, [-step * w[p] for w in weights], ((p, -step),)))
        steps = _swap(back, ahead, room)
        if steps is None and weights and len(back) * len(ahead) <= PAIRED:
            steps = _swap(_two(back), _two(ahead), room, SCAN)
        if steps is None:
            return None
        swapped = dict(values)
        for p, step in steps:
            swapped[ids[p]] += step
        filled = self._filled(swapped, self.root)
        return filled if cost_of(cost, filled) < least else None

    def prune(self, D: list[Dom], off: list[int], target: int, queue: set[int]) -> bool:
        """Keep each variable within ``slack / |r_i|`` of the end its reduced cost favours
        (the reduced costs and the least of the last :meth:`bound` or :meth:`repriced`: ``D``
        must be its domains, or narrower, where that least is lower than theirs and the
        pruning weaker, still sound)."""
        slack = LAGRANGE_SCALE * target - self.least
        if slack < 0:
            return False
        for reach, i, r in self.reaching:
            if reach <= slack:  # nor any after it: its span would pass its root's
                break
            d = D[i]
            if type(d) is int:
                span = d.bit_length() - (d & -d).bit_length()
            else:
                span = d.hi - d.lo
            most = slack // (r if r > 0 else -r)
            if most < span and not _within(D, off, i, most, r > 0, queue):
                return False
        return True


CLIMBS = 8
"""The most steps of :meth:`LagrangianBound.improved`'s hill climb from one solution."""

Move: TypeAlias = "tuple[int, list[int], tuple[tuple[int, int], ...]]"
"""Steps of variables taken together: the change of cost, the use of each row, and the steps
``(position, step)``."""

SCAN = 10
"""How many moves of two steps :func:`_swap` tries against each other such move, those that
use most of the tightest row's room."""

PAIRED = 2500
"""The most moves one step back times moves one step ahead for which two and two are tried
(50 and 50 items of a knapsack: 2,450 moves of two steps each way)."""


def _two(moves: list[Move]) -> list[Move]:
    """Each two of ``moves`` (one step each, each of its own variable), taken together."""
    return [
        (a[0] + b[0], [x + y for x, y in zip(a[1], b[1], strict=True)], a[2] + b[2])
        for a, b in combinations(moves, 2)
    ]


def _swap(
    back: list[Move], ahead: list[Move], room: list[int], scan: int | None = None
) -> tuple[tuple[int, int], ...] | None:
    """The steps of the cheapest move of ``back`` taken with one of ``ahead`` on other
    variables that together leave every row its ``room``, or ``None`` if none lowers the cost.

    With ``scan``, the cheapest of those tried: against each move of ``back``, the ``scan``
    moves of ``ahead`` that use most of the tightest row within the room it leaves, the
    first that fits and lowers the cost (the moves of two steps are too many to try each
    against each).
    """
    best, change = None, 0
    if scan is None:
        for up, use, steps in back:
            free = [r - u for r, u in zip(room, use, strict=True)]
            for down, more, other in ahead:
                if (
                    up + down < change
                    and other[0][0] != steps[0][0]
                    and all(f >= u for f, u in zip(free, more, strict=True))
                ):
                    best, change = steps + other, up + down
        return best
    tight = min(range(len(room)), key=room.__getitem__)
    ahead = sorted(ahead, key=lambda m: m[1][tight])
    uses = [m[1][tight] for m in ahead]
    for up, use, steps in back:
        free = [r - u for r, u in zip(room, use, strict=True)]
        held = {p for p, _ in steps}
        end = bisect_right(uses, free[tight])
        for down, more, other in reversed(ahead[max(0, end - scan) : end]):
            if (
                up + down < change
                and all(f >= u for f, u in zip(free, more, strict=True))
                and not any(p in held for p, _ in other)
            ):
                best, change = steps + other, up + down
                break
    return best


LAGRANGE_SCALE = 1 << 24
"""The Lagrangian's multipliers are multiples of ``1 / LAGRANGE_SCALE`` (rounding the LP's
prices to them loosens its bound by their error times the rows' spans: little)."""


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
        costs = [_element_costs(c, xs, D[s], off[s], D, off) for c, s, xs in self.rows]
        return costs, _least(self.rest.items(), D, off)

    def bound(
        self, D: list[Dom], off: list[int], cap: int | float = float("inf")
    ) -> int | float | None:
        """The optimum of the assignment, or :data:`INFEASIBLE` (``None``); keeps the duals for
        :meth:`prune` (exact: no use for a ``cap``)."""
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


def _element_costs(
    c: int, xs: tuple[int, ...], d: int, o: int, D: list[Dom], off: list[int]
) -> dict[int, int | float]:
    """For each value ``k`` of index domain ``d`` (offset ``o``), the least of ``c * xs[k]``."""
    row: dict[int, int | float] = {}
    while d:
        bit = d & -d
        k = o + bit.bit_length() - 1
        x = xs[k]
        row[k] = c * low(D[x], off[x]) if c > 0 else c * high(D[x], off[x])
        d ^= bit
    return row


def cost_of(cost: dict[int, int], point: dict[int, int]) -> int:
    """``sum(c_i x_i)`` at ``point`` (its values by variable).

    >>> cost_of({0: -3, 1: 2}, {0: 1, 1: 4})
    5
    """
    return sum(c * point[i] for i, c in cost.items())


def _ends(ids: list[int], D: list[Dom], off: list[int]) -> tuple[list[int], list[int]]:
    """The low ends and the high ends of the domains of ``ids``, finite (bitsets' inline: the LP's
    every node).

    >>> _ends([0, 1], [0b110, 0b1], [0, 5])
    ([1, 5], [2, 5])
    """
    ds, offs = [D[i] for i in ids], [off[i] for i in ids]
    los = [o + (d & -d).bit_length() - 1 if type(d) is int else d.lo for d, o in zip(ds, offs)]
    his = [o + d.bit_length() - 1 if type(d) is int else d.hi for d, o in zip(ds, offs)]
    return los, his


def _least(terms: Iterable[tuple[int, int]], D: list[Dom], off: list[int]) -> int | float:
    """The least of ``sum(c * x)`` over ``terms`` ``(x, c)`` within the domains' bounds."""
    total: int | float = 0
    for x, c in terms:
        if c:
            d = D[x]
            if type(d) is int:  # a bitset: its bounds inline (the LP's every node)
                total += c * (off[x] + ((d & -d).bit_length() if c > 0 else d.bit_length()) - 1)
            else:
                total += c * (d.lo if c > 0 else d.hi)
    return total


OneTree: TypeAlias = "tuple[int | float, list[int], tuple[int, int], list[int]]"
"""A 1-tree: its penalised cost, each node's parent (``-1``: none), node 0's two ends, the degrees."""


def one_tree(w: list[list[int | float]], pi: list[int]) -> OneTree | None:
    """The cheapest 1-tree under edge costs ``w[i][j] + pi[i] + pi[j]`` (``inf``: no edge), or ``None``.

    A spanning tree of nodes ``1..n-1`` (Prim's, from node 1) and node 0's two
    cheapest edges; ``None`` when the others are not connected or node 0 has
    fewer than two edges.

    >>> one_tree([[0, 1, 3], [1, 0, 2], [3, 2, 0]], [0, 0, 0])
    (6, [-1, -1, 1], (1, 2), [2, 2, 2])
    """
    n = len(w)
    inf = float("inf")
    key: list[int | float] = [inf] * n
    parent, degree = [-1] * n, [0] * n
    left = list(range(2, n))
    total: int | float = 0
    u = 1
    while left:
        wu, pu = w[u], pi[u]
        best, at = inf, -1
        for v in left:
            c = wu[v] + pu + pi[v]
            if c < key[v]:
                key[v], parent[v] = c, u
            else:
                c = key[v]
            if c < best:
                best, at = c, v
        if at < 0:
            return None
        total += best
        left.remove(at)
        degree[at] += 1
        degree[parent[at]] += 1
        u = at
    w0, p0 = w[0], pi[0]
    first = second = inf
    ends = [-1, -1]
    for v in range(1, n):
        c = w0[v] + p0 + pi[v]
        if c < second:
            if c < first:
                first, second, ends = c, first, [v, ends[0]]
            else:
                second, ends[1] = c, v
    if second == inf:
        return None
    degree[0] = 2
    degree[ends[0]] += 1
    degree[ends[1]] += 1
    return total + first + second, parent, (ends[0], ends[1]), degree


class OneTreeBound:
    """Held and Karp's 1-tree bound on a tour's cost, ``sum(c_t * xs_t[succ_t])`` under ``circuit``.

    Taken as undirected edges, each at its cheaper arc, a tour is a spanning
    tree of nodes ``1..n-1`` and two edges at node 0: a *1-tree*, so the
    cheapest 1-tree (:func:`one_tree`) bounds it. Node penalties ``pi``
    (Lagrange multipliers of "every node has degree 2") make the cheapest
    1-tree under ``cost_ij + pi_i + pi_j``, less ``2 sum(pi)``, a bound for
    every ``pi``; subgradient steps raise ``pi`` where the tree's degree is
    above 2 and lower it at its leaves, from the last call's best ``pi``. The
    edges of fixed successors are forced in (their cost less a large ``M``,
    added back; sound for any ``M``). An arc ``t -> k`` costs at least the
    bound, plus its excess over its edge, plus the edge's *marginal* cost
    (the 1-tree that takes it, less the dearest edge of the cycle it closes):
    :meth:`prune` removes the arcs that cannot reach a target. Integers
    throughout: the bound is exact arithmetic, whatever ``pi`` is.

    ``rows`` maps node ``t`` to ``(c_t, xs_t)``: ``element(succ[t], xs_t,
    y_t)`` with ``y_t`` in the objective at coefficient ``c_t`` (a node
    without a row costs 0); ``rest`` the objective's other terms ``{x: c}``.

    >>> ring = [[0, 1, 5, 1], [1, 0, 1, 5], [5, 1, 0, 1], [1, 5, 1, 0]]
    >>> rows = {t: (1, tuple(range(4 + 4 * t, 8 + 4 * t))) for t in range(4)}
    >>> D, off = [0b1110, 0b1101, 0b1011, 0b0111] + [1] * 16, [0] * 4 + sum(ring, [])
    >>> OneTreeBound((0, 1, 2, 3), rows, {}).bound(D, off)   # 0 1 2 3 0
    4
    """

    __slots__ = ("last", "node", "pi", "rest", "rows", "succ")

    def __init__(
        self,
        succ: tuple[int, ...],
        rows: dict[int, tuple[int, tuple[int, ...]]],
        rest: dict[int, int],
    ) -> None:
        self.succ, self.rows, self.rest = succ, rows, rest
        self.node = {s: t for t, s in enumerate(succ)}
        self.pi = [0] * len(succ)
        self.last: (
            tuple[int | float, list[dict[int, int]], list[list[int | float]], list[int], OneTree]
            | None
        ) = None

    def _arcs(self, D: list[Dom], off: list[int]) -> tuple[list[dict[int, int]], int] | None:
        """Each node's arc costs ``{k: cost}`` and the rest's least; ``None`` if one is unbounded."""
        n, rows = len(self.succ), self.rows
        arcs: list[dict[int, int]] = []
        for t, s in enumerate(self.succ):
            row, d, o = rows.get(t), D[s], off[s]
            costs = (
                {o + b: 0 for b in range(d.bit_length()) if d >> b & 1}
                if row is None
                else _element_costs(*row, d, o, D, off)
            )
            if any(type(c) is float for c in costs.values()):
                return None
            arcs.append({k: c for k, c in costs.items() if k != t and 0 <= k < n})  # type: ignore[misc]  # no float: checked
        base = _least(self.rest.items(), D, off)
        return None if type(base) is float else (arcs, base)  # type: ignore[return-value]  # an int

    def bound(
        self, D: list[Dom], off: list[int], cap: int | float = float("inf")
    ) -> int | float | None:
        """The best 1-tree bound of the ascent (which stops once above ``cap``), or :data:`INFEASIBLE`."""
        found = self._arcs(D, off)
        if found is None:
            self.last = None
            return float("-inf")
        arcs, base = found
        n = len(arcs)
        if not all(arcs):
            self.last = None
            return INFEASIBLE
        inf = float("inf")
        w: list[list[int | float]] = [[inf] * n for _ in range(n)]
        for t, a in enumerate(arcs):
            wt = w[t]
            for k, c in a.items():
                if c < wt[k]:
                    wt[k] = w[k][t] = c
        pi = self.pi
        span = max(abs(c) for row in w for c in row if c != inf) + max(map(abs, pi)) + 1
        big = 4 * n * span  # M
        forced = {(min(t, k), max(t, k)) for t, a in enumerate(arcs) if len(a) == 1 for k in a}
        for i, j in forced:
            w[i][j] -= big
            w[j][i] = w[i][j]
        best: int | float = float("-inf")
        kept: tuple[list[int], OneTree] | None = None
        rate, stall = 1.0, 0
        for _ in range(ROUNDS):
            tree = one_tree(w, pi)
            if tree is None:
                self.last = None
                return INFEASIBLE
            value = tree[0] + big * len(forced) - 2 * sum(pi) + base
            if value > best:
                best, kept, stall = value, (pi, tree), 0
            else:
                stall += 1
                if stall == PATIENCE:
                    rate, stall = rate / 2, 0
            norm = sum((g - 2) ** 2 for g in tree[3])
            if best > cap or not norm or rate < 1 / 64:
                break
            gap = min(cap, best + abs(best) // 20 + n) - value
            step = max(1, int(rate * gap / norm))
            pi = [p + step * (g - 2) for p, g in zip(pi, tree[3])]
        assert kept is not None  # ROUNDS > 0
        self.pi = kept[0]
        self.last = (best, arcs, w, kept[0], kept[1])
        return best

    def solution(self, i: int) -> int | None:
        """For successor variable ``i``, its node's cheapest neighbour in the last best 1-tree."""
        t = self.node.get(i)
        if t is None or self.last is None:
            return None
        arcs, (_, parent, ends, _) = self.last[1], self.last[4]
        near = [v for v, p in enumerate(parent) if p == t] + [parent[t]]
        near += list(ends) if t == 0 else [0] if t in ends else []
        return min((k for k in near if k in arcs[t]), key=arcs[t].__getitem__, default=None)

    def prune(self, D: list[Dom], off: list[int], target: int, queue: set[int]) -> bool:
        """Remove the arcs whose cost over the last bound takes it above ``target``."""
        if self.last is None:
            return True
        least, arcs, w, pi, (_, parent, ends, _) = self.last
        excess = target - least
        if excess < 0:
            return False
        cost = [[c + pi[i] + pi[j] for j, c in enumerate(row)] for i, row in enumerate(w)]
        dearest = _dearest_on_paths(parent, cost)
        second = max(cost[0][ends[0]], cost[0][ends[1]])
        for t, a in enumerate(arcs):
            s, drop = self.succ[t], 0
            for k, c in a.items():
                if t and k:  # the marginal cost of edge t-k: 0 in the tree
                    extra = cost[t][k] - dearest[t][k]
                else:
                    extra = 0 if t + k in ends else cost[t][k] - second
                back = arcs[k].get(t, c)
                if extra + max(c - back, 0) > excess:
                    drop |= 1 << (k - off[s])
            if drop and not narrow(D, queue, s, D[s] & ~drop):
                return False
        return True


def _dearest_on_paths(parent: list[int], cost: list[list[int | float]]) -> list[list[int | float]]:
    """For nodes ``i, j >= 1`` of a tree (``parent``), the dearest edge cost on its path ``i .. j``."""
    n = len(parent)
    near: list[list[int]] = [[] for _ in range(n)]
    for v, p in enumerate(parent):
        if p >= 0:
            near[v].append(p)
            near[p].append(v)
    unset = float("-inf")
    dearest: list[list[int | float]] = [[unset] * n for _ in range(n)]
    for s in range(1, n):
        row = dearest[s]
        stack = [s]
        while stack:
            u = stack.pop()
            for v in near[u]:
                if v != s and row[v] == unset:
                    row[v] = max(row[u], cost[u][v])
                    stack.append(v)
    return dearest


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


def linear_rows(model: Model) -> list[Linear]:
    """The linear constraints of ``model`` as posted (not implied)."""
    return [
        e[1]
        for e in model.props
        if e[0] == "prop" and isinstance(e[1], Linear) and not e[1].implied
    ]


def _tables(model: Model, D: list[Dom], off: list[int]) -> dict[int, list[tuple[int, list[int]]]]:
    """For each index ``x`` of an ``element`` ``t[x] == v`` whose cells at ``x``'s values are
    fixed: ``(v, [t[c] for each value c of x])``, the values in increasing order."""
    from .globals import ElementProp

    tables: dict[int, list[tuple[int, list[int]]]] = {}
    for e in model.posted(ElementProp):
        d = D[e.i]
        if type(d) is not int or e.v == e.i:
            continue
        cells = [e.xs[c] if 0 <= c < len(e.xs) else -1 for c in Domain(d, off[e.i])]
        if all(k >= 0 and fixed(D[k]) for k in cells):
            tables.setdefault(e.i, []).append((e.v, [int(low(D[k], off[k])) for k in cells]))
    return tables


def channels(
    model: Model, D: list[Dom], off: list[int], tables: dict[int, list[tuple[int, list[int]]]]
) -> list[Linear]:
    """Implied rows, for an LP only, of each variable ``x`` whose every value ``c`` has a test
    ``b_c == (x == c)`` (a bin packing's loads by each item's bin): ``sum(b_c) == 1``, and
    ``sum(t[c] * b_c) == v`` for an ``element`` ``t[x] == v`` of :func:`_tables` (a
    warehouse's cost of serving a customer, its loads by such tests).

    (``sum(c * b_c) == x`` is left out: it ties ``x`` into the LP, whose branching then took
    ``x`` first, and a bin packing of 18 items took 0.03 s to 0.1-1 s.)"""
    from .arith import ReifiedValue

    tests: dict[int, dict[int, int]] = {}
    for p in model.posted(ReifiedValue):
        if p.same == 1:
            tests.setdefault(p.x, {}).setdefault(p.c, p.b)
    found = []
    for x, by_value in tests.items():
        d = D[x]
        if len(by_value) < 2 or type(d) is not int:
            continue
        values = list(Domain(d, off[x]))
        if not all(v in by_value for v in values):
            continue
        found.append(Linear(tuple((by_value[v], 1) for v in values), -1, "=="))
        for v, cells in tables.get(x, ()):
            terms = ((by_value[c], t) for c, t in zip(values, cells, strict=True) if t)
            found.append(Linear(((v, -1), *terms), 0, "=="))
    return found


def _hull(points: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The vertices of the convex hull of ``points``, counterclockwise (Andrew's monotone chain).

    >>> _hull([(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)])
    [(0, 0), (2, 0), (2, 2), (0, 2)]
    """
    pts = sorted(set(points))
    if len(pts) < 3:
        return pts

    def half(seq: list[tuple[int, int]]) -> list[tuple[int, int]]:
        chain: list[tuple[int, int]] = []
        for p in seq:
            while len(chain) >= 2 and (
                (chain[-1][0] - chain[-2][0]) * (p[1] - chain[-2][1])
                - (chain[-1][1] - chain[-2][1]) * (p[0] - chain[-2][0])
                <= 0
            ):
                chain.pop()
            chain.append(p)
        return chain

    return half(pts)[:-1] + half(pts[::-1])[:-1]


Choices = dict[int, list[tuple[int, tuple[tuple[int, int], ...]]]]
"""``x -> [(c, ((v, value of v when x == c), ...)), ...]``: each value of ``x`` as a point."""


def hulls(
    tables: dict[int, list[tuple[int, list[int]]]], D: list[Dom], off: list[int], choices: Choices
) -> list[Linear]:
    """Implied rows, for an LP only, of two ``element`` of :func:`_tables` over one index, ``s[x]
    == p`` and ``t[x] == q``: the facets of the convex hull of the points ``(s[c], t[c])``
    (a multiple-choice knapsack's weight and value of each item's choice). ``choices`` gets
    each value ``c`` of such an ``x`` as its point (the last pair's, if ``x`` has more)."""
    found = []
    for x, outputs in tables.items():
        for (p, s), (q, t) in combinations(outputs, 2):
            corners = _hull(list(zip(s, t)))
            if p == q or len(corners) < 2:
                continue
            values = Domain(D[x], off[x])
            choices[x] = [(c, ((p, a), (q, b))) for c, a, b in zip(values, s, t, strict=True)]
            for (x1, y1), (x2, y2) in zip(corners, corners[1:] + corners[:1]):
                a, b = y2 - y1, x1 - x2  # inside on the left: a * p + b * q + k <= 0
                k = -(a * x1 + b * y1)
                g = gcd(a, b, k) or 1
                terms = tuple((v, c // g) for v, c in ((p, a), (q, b)) if c)
                found.append(Linear(terms, k // g, "<="))
    return found


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
    for p in linear_rows(model):
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
        elif e[0] == "prop" and (
            type(e[1]) is CircuitProp
            or (type(e[1]) is AllDistinctProp and all(c == 0 for _, c in e[1].members))
        ):
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


def _one_tree(model: Model, cost: dict[int, int]) -> OneTreeBound | None:
    """The 1-tree bound of the terms ``element`` defines over a ``circuit``'s successors (3 or more)."""
    from .globals import CircuitProp, ElementProp

    defined: dict[int, ElementProp] = {}
    for e in model.props:
        p = e[1]
        if e[0] == "prop" and type(p) is ElementProp and p.v in cost:
            defined.setdefault(p.i, p)
    best: OneTreeBound | None = None
    for e in model.props:
        p = e[1]
        if e[0] == "prop" and type(p) is CircuitProp and len(set(p.vars)) == len(p.vars) > 2:
            rows = {t: defined[s] for t, s in enumerate(p.vars) if s in defined}
            covered = {q.v for q in rows.values()}
            if len(covered) == len(rows) > (1 if best is None else len(best.rows)):
                rest = {x: c for x, c in cost.items() if x not in covered}
                best = OneTreeBound(p.vars, {t: (cost[q.v], q.xs) for t, q in rows.items()}, rest)
    return best


LINKED_ROWS = 128
"""The most rows the LP takes in when it follows the objective's variables through the model
(a warehouse location of 10 x 30 by reified loads reaches 70: 64 left it blind, over 60 s
to 0.13-0.23 s)."""


def _rows(
    model: Model,
    cost: dict[int, int],
    defining: Linear | None,
    tables: dict[int, list[tuple[int, list[int]]]],
    D: list[Dom],
    off: list[int],
    counts: dict[int, int],
) -> tuple[list[KnapsackBound], LagrangianBound | None]:
    """The ``<=`` and ``==`` rows an LP relaxation of ``cost`` takes, as :func:`_halves`, and
    their LP if it was built to compare them (``None``: not built); ``tables``: the model's
    ``element``s over fixed cells (:func:`_tables`).

    Those with two or more of the objective's variables; or, where the rows
    reached from the objective's variables through shared variables are at
    most :data:`LINKED_ROWS` and their LP bounds the objective tighter at the
    root (:func:`_tighter`), all of them: a bin packing's bins used get
    their bound (the items' total over the capacity) only from the rows
    that put each item in some bin, which hold none of them. An equality
    over a total (``counts``: :func:`occurrences`) outside the objective
    enters as its bounded sides (:func:`_total_sides`), the total left out,
    where it has any: a knapsack's weight stated as a variable, ``w ==
    dot(weights, x), w <= C``, is then a knapsack's row, not an equality's
    (a table over every weight: 30 items of 1..1,000, 102 to 5.4 ms); a
    count posted for branching, with no side, stays.
    """
    rows = []
    for p in linear_rows(model):
        if p is defining or p.op not in ("<=", "=="):
            continue
        t, s = _total(p, counts)
        fit = t >= 0 and t not in cost and _finite(p.vars, D, off)
        sides = _total_sides(p, t, s, D, off) if fit else []
        rows += [Linear(tuple(c.items()), -top, "<=") for c, top in sides] if sides else [p]
    own = [p for p in rows if sum(i in cost for i in p.vars) >= 2]
    choices: Choices = {}
    rows += channels(model, D, off, tables) + hulls(tables, D, off, choices)
    holding: dict[int, list[int]] = {}  # each variable's rows, by position
    for k, p in enumerate(rows):
        for i in p.vars:
            holding.setdefault(i, []).append(k)
    reached, linked, frontier = set(cost), set(), list(cost)
    while frontier:
        for k in holding.get(frontier.pop(), ()):
            if k not in linked:
                linked.add(k)
                if len(linked) > LINKED_ROWS:
                    return _halves(own, cost), None
                fresh = [i for i in rows[k].vars if i not in reached]
                reached.update(fresh)
                frontier += fresh
    if len(linked) == len(own):
        return _halves(own, cost), None
    taken = _halves([rows[k] for k in sorted(linked)], cost)
    lp = _tighter(taken, _halves(own, cost), D, off)
    if lp is None:
        return _halves(own, cost), None
    lp.choices = choices
    return taken, lp


def _halves(rows: list[Linear], cost: dict[int, int]) -> list[KnapsackBound]:
    """Each row as a :class:`KnapsackBound` of ``cost``; an equality as its ``<=`` half and,
    after it, its ``>=`` half (the ``mirror``)."""
    knapsacks = []
    for p in rows:
        weight = dict(p.terms)  # sum(a x) + k <= 0
        half = KnapsackBound(cost, weight, -p.k, equal=p.op == "==")
        knapsacks.append(half)
        if p.op == "==":
            flipped = {i: -a for i, a in weight.items()}
            knapsacks.append(KnapsackBound(cost, flipped, p.k, mirror=half))
    return knapsacks


def _tighter(
    wide: list[KnapsackBound], narrow: list[KnapsackBound], D: list[Dom], off: list[int]
) -> LagrangianBound | None:
    """The LP over the rows of ``wide`` if it bounds the objective above the LP over those of
    ``narrow`` (none: propagation alone) at ``D``, every domain bounded (an LP at every node
    costs more over more rows: it must pay); else ``None``."""
    if not wide or not _bounded(wide, D, off):
        return None
    lp = LagrangianBound(wide, D, off)
    if not narrow:
        return lp  # whether it beats propagation is for the caller to see
    more, less = lp.bound(D, off), LagrangianBound(narrow, D, off).bound(D, off)
    return lp if more is INFEASIBLE or (less is not INFEASIBLE and more > less) else None


def _variables(r: KnapsackBound | Deferred | LagrangianBound) -> set[int]:
    """The variables an LP relaxation reads."""
    if type(r) is LagrangianBound:
        return set(r.ids)
    kb = r.lp if type(r) is Deferred else r
    return kb.weight.keys() | kb.cost.keys()  # type: ignore[union-attr]  # a KnapsackBound


def _bounded(knapsacks: list[KnapsackBound], D: list[Dom], off: list[int]) -> bool:
    """Whether every variable of ``knapsacks`` has finite bounds in ``D`` (an LP needs them)."""
    return all(_finite((*kb.weight, *kb.cost), D, off) for kb in knapsacks)


COUNTED = 8
"""The fewest variables an objective has for :func:`counted` to count them, and a side has
for :func:`row_relaxations` to take it."""


def counted(found: list[Relaxation]) -> list[int] | None:
    """The objective's variables if their sum is where the bound of the LP over two rows or
    more among ``found`` (a :class:`LagrangianBound`) is loose, else ``None``.

    That is where their costs are, nearly, one affine function of their weights in one row,
    ``c_i = alpha a_i + beta`` with ``beta`` not 0 (a strongly or an inversely correlated
    knapsack, of 0/1 items or of copies): the objective is ``alpha`` times the row, which its
    capacity bounds, plus ``beta`` times the count. The LP fills the row with a fraction of
    one more item, and branching on an item barely moves its bound (an item of nearly the
    same ratio takes its place); a count variable split at the LP's count moves it by
    ``beta``. Thirty 0/1 items, two rows: 9,144 nodes to 35; of 0..3 copies each, over 20 s
    to 12 ms. Costs that fit no row this way (uncorrelated, weakly correlated) are left
    alone: there the split costs nodes.

    >>> weight = dict(enumerate(range(12, 32, 2)))            # ten items, weights 12, 14, ..., 30
    >>> cost = {i: -(w + 10) for i, w in weight.items()}       # maximise the weights plus 10 each
    >>> rows = [KnapsackBound(cost, weight, 100), KnapsackBound(cost, dict.fromkeys(weight, 7), 40)]
    >>> counted([LagrangianBound(rows, [0b11] * 10, [0] * 10)])
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
    """
    lp = next((r for r in found if type(r) is LagrangianBound), None)
    if lp is None or len(lp.cost) < COUNTED:
        return None
    cost = lp.cost
    items = list(cost)
    c = [cost[i] for i in items]
    return items if any(_affine([w.get(i, 0) for i in items], c) for w, _ in lp.rows) else None


def _affine(a: list[int], c: list[int]) -> bool:
    """Whether ``c_i = alpha a_i + beta`` (least squares) for ``alpha`` and ``beta`` not 0, each
    ``c_i`` off by at most a quarter of ``beta``."""
    n = len(a)
    ma, mc = sum(a) / n, sum(c) / n
    spread = sum((x - ma) ** 2 for x in a)
    if not spread:
        return False
    alpha = sum((x - ma) * (y - mc) for x, y in zip(a, c, strict=True)) / spread
    beta = mc - alpha * ma
    off_by = max(abs(y - alpha * x - beta) for x, y in zip(a, c, strict=True))
    return abs(alpha) > EPS and abs(beta) > EPS and off_by <= abs(beta) / 4


LP_BOUNDS = (KnapsackBound, Deferred, LagrangianBound)
"""The relaxations with an LP optimum to round (``rounded()``) and a ``cost``."""

Relaxation: TypeAlias = (
    "ChoiceTable | TableBound | KnapsackBound | Deferred | LagrangianBound | AssignmentBound"
    " | OneTreeBound"
)


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
    now = low(D[j], off[j]) if sense == "min" else -high(D[j], off[j])
    useful = _useful(model, cost, const, defining, D, off, now, occurrences(model))
    return None if useful is None else (const, useful)


def _useful(
    model: Model,
    cost: dict[int, int],
    const: int,
    defining: Linear | None,
    D: list[Dom],
    off: list[int],
    now: int | float,
    counts: dict[int, int],
    top: int | float = float("inf"),
) -> list[Relaxation] | None:
    """The relaxations of ``const + sum(cost_i x_i)`` over the model's rows but ``defining``
    that bound it above ``now`` at ``D``; ``None`` when one proves ``D`` infeasible (or
    bounds it above ``top``). ``counts``: :func:`occurrences`."""
    tables = _tables(model, D, off)
    knapsacks, linked = _rows(model, cost, defining, tables, D, off, counts)
    rows = sum(kb.mirror is None for kb in knapsacks)  # an equality's two halves are one row
    found: list[Relaxation]
    if rows > 1 and _bounded(knapsacks, D, off):
        # the LP over every row bounds each row's own LP at every node (measured: and the
        # tables' integral bounds, priced at the root, cost more than they save)
        found = [linked or LagrangianBound(knapsacks, D, off)]
    elif len(knapsacks) == 1 and not knapsacks[0].equal:
        found = [Deferred(knapsacks[0], D, off)]
    else:  # a row over one distinct group (a cryptarithm's letters) keeps its LP: the table
        # would drop the distinctness that decides such a puzzle, and costs more than it saves
        groups = [{i for i, _ in group} for group in model.groups]
        lettered = [kb for kb in knapsacks if any(kb.weight.keys() <= g for g in groups)]
        rest = [kb for kb in knapsacks if not any(kb is other for other in lettered)]
        found = [*exact(rest, D, off), *lettered]
    posted = [p for p in linear_rows(model) if p is not defining]
    choice = choice_table(posted, cost, tables, D, off)
    if choice is not None:
        table, row = choice
        if [p for p in posted if p.op != "!=" and table.covered.intersection(p.vars)] == [row]:
            # no other row holds the table's variables: an LP over them sees less than it does
            found = [
                r
                for r in found
                if not (isinstance(r, LP_BOUNDS) and _variables(r) <= table.covered)
            ]
        found.insert(0, table)
    tour = _one_tree(model, cost)
    if tour is not None:
        found.append(tour)
    assignment = _assignment(model, cost)
    if assignment is not None:
        found.append(assignment)
    useful = []
    for r in found:
        b = r.bound(D, off)
        if type(r) is Deferred and b is not INFEASIBLE and const + b <= now:
            b = r.tabled(D, off)  # the LP alone bounds no better than propagation: its table now
        if b is INFEASIBLE or const + b > top:
            return None
        if const + b > now:
            useful.append(r)
    return useful


def row_relaxations(
    model: Model, D: list[Dom], off: list[int]
) -> tuple[int, list[Relaxation]] | None:
    """Relaxations that refute the nodes where the model's inequalities cannot all hold, for
    a labeling with no objective: ``(top, them)``, each bounding one row's sum, which must
    stay at most ``top``; ``None`` when they prove ``D`` infeasible.

    A knapsack stated as a decision (a value at least ``T``, weights within their
    capacities) has no objective to bound, yet its rows' LP refutes what propagation,
    one row at a time, does not. One of its sides (:func:`_sides`) of at least
    :data:`COUNTED` variables, the one whose coefficients' sign most others' do not
    share (the value's, against the weights'), stands for the objective, the other rows
    for the constraints. No relaxations (``(0, [])`` or ``(top, [])``) where none bounds it
    above propagation at ``D``; where the sides and the ``<=`` rows are all of one sign (a bin packing's or an
    assignment's capacities: 12 items in 4 bins, 4 to 12 ms; their LP seldom cuts); and
    where every side is a count (its ``c_i`` all equal), which propagation bounds well (10
    jobs in 12 slots, each slot's jobs counted, at most 2, in some at least 1: 2.9 to 8.5 ms
    to a first timetable with their LP, and all 1,979 timetables of 8 jobs 36 to 90 ms).
    The one taken is not a count.
    """
    posted = linear_rows(model)
    counts = occurrences(model)
    sides = _sides(posted, D, off, counts) if len(posted) > 1 else []
    signs = [_positive(cost.values()) for cost, _, _ in sides]
    weighed = [k for k, (cost, _, _) in enumerate(sides) if len(set(cost.values())) > 1]
    if not weighed:
        return 0, []  # counts alone: propagation bounds them well
    if len({*signs, *(_positive(a for _, a in p.terms) for p in posted if p.op == "<=")}) < 2:
        return 0, []  # capacities alone (a bin packing's): the LP costs more than it cuts
    cost, top, row = sides[min(weighed, key=lambda k: signs.count(signs[k]))]
    useful = _useful(model, cost, 0, row, D, off, _least(cost.items(), D, off), counts, top)
    return None if useful is None else (top, useful)


def _positive(coefficients: Iterable[int]) -> bool:
    """Whether most of ``coefficients`` are positive."""
    signs = [a > 0 for a in coefficients]
    return sum(signs) * 2 > len(signs)


def _sides(
    posted: list[Linear], D: list[Dom], off: list[int], counts: dict[int, int]
) -> list[tuple[dict[int, int], int, Linear]]:
    """The inequalities ``sum(c_i x_i) <= top`` of at least :data:`COUNTED` variables, every
    domain bounded, among rows ``posted``, as ``(c, top, row)``: each ``<=`` row, and the
    sides of each equality over a total (:func:`_total_sides`); ``counts``:
    :func:`occurrences`."""
    sides = []
    for p in posted:
        if len(p.terms) < COUNTED + (p.op == "==") or not _finite(p.vars, D, off):
            continue
        if p.op == "<=":
            sides.append((dict(p.terms), -p.k, p))
        elif p.op == "==" and (total := _total(p, counts))[0] >= 0:
            sides += [(c, top, p) for c, top in _total_sides(p, *total, D, off)]
    return sides


def occurrences(model: Model) -> dict[int, int]:
    """How many of ``model``'s constraints each variable is in (implied ones left out: they
    restate others)."""
    counts: dict[int, int] = {}
    for e in model.props:
        if e[0] == "prop" and e[1].implied:
            continue
        held = e[1].vars if e[0] == "prop" else e[1:3] if e[0] == "ne" else [j for j, _ in e[3]]
        for i in held:
            counts[i] = counts.get(i, 0) + 1
    return counts


def _total(p: Linear, counts: dict[int, int]) -> tuple[int, int]:
    """``(t, a)`` for a term ``a * t`` of equality ``p`` with ``a`` 1 or -1 over a variable in
    no other constraint (a total: a weight or a value stated as a variable, bounded by its
    domain alone); else ``(-1, 0)``."""
    if p.op != "==":
        return -1, 0
    return next(((i, a) for i, a in p.terms if a in (1, -1) and counts.get(i) == 1), (-1, 0))


def _total_sides(
    p: Linear, t: int, s: int, D: list[Dom], off: list[int]
) -> list[tuple[dict[int, int], int]]:
    """The sides ``sum(c_i x_i) <= top`` of equality ``p``, ``s * t`` one of its terms, that
    the total ``t``'s bounds in ``D`` hold closer than the sum's own bounds do (``t <= C``,
    ``t >= T``), as ``(c, top)``."""
    cost = {i: -a * s for i, a in p.terms if i != t}  # t == sum(cost x) - k s
    negated = {i: -c for i, c in cost.items()}
    most, least = int(high(D[t], off[t])) + p.k * s, int(low(D[t], off[t])) + p.k * s
    sides = []
    if most < -_least(negated.items(), D, off):
        sides.append((cost, most))
    if least > _least(cost.items(), D, off):
        sides.append((negated, -least))
    return sides


def _finite(ids: Iterable[int], D: list[Dom], off: list[int]) -> bool:
    """Whether every variable of ``ids`` has finite bounds in ``D`` (an LP needs them)."""
    return all(type(low(D[i], off[i])) is int and type(high(D[i], off[i])) is int for i in ids)
