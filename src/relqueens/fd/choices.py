"""The multiple-choice knapsack relaxation: one option per index, solved by dynamic programming.

Where ``element`` ties a constraint's terms and an objective's terms to the
same index, ``w_k = W_k[x_k]`` in ``sum(w_k) <= b`` and ``p_k = P_k[x_k]``
in the objective (each value of ``x_k`` an option with a weight and a
profit: a *multiple-choice knapsack*), each index is one *class* of the
relaxation, whatever number of terms it sets. :class:`ChoiceTable`
tabulates, once, the best profit of the classes from ``k`` on for every
room left (their options at the root: a relaxation of any node's); at a
node the classes fixed before the first open one set the room, and the
bound is one look-up. The LP over the same row sees each class through its
convex hull (:func:`~relqueens.fd.relaxation.hulls`) and branches on
fractional choices; the table is integral, and its best completion guides
the labeling to the optimum.

The classes follow their indices' order (the order of the variables'
creation, usually the labeling's): a class fixed after the first open one
chooses again in the table, which only relaxes.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import repeat
from operator import add
from typing import TYPE_CHECKING

from .domain import Domain
from .propagators import high, low, narrow, sum_range

if TYPE_CHECKING:
    from .domain import Dom
    from .propagators import Linear

CELLS = 2_500_000
"""The most cells (room values times options) a table may have."""

Option = tuple[int, int]
"""``(use, gain)``: the room an option takes beyond its class's least, and the cost it saves."""


class ChoiceTable:
    """The least ``sum(c_v v)`` when every class picks one option and their uses fit ``room``.

    ``classes`` are ``(x, {value of x: option})``; ``rest`` the objective's
    other terms, each at the end of its domain its cost favours; ``base``
    the classes' least uses' share of the cost already counted in the
    options. ``tables[k][r]`` is the most the classes from ``k`` on gain
    within room ``r``.

    >>> ct = ChoiceTable([(0, {0: (0, 0), 1: (3, 5), 2: (4, 6)}), (1, {0: (0, 0), 1: (2, 4)})], 5, {})
    >>> ct.bound([0b111, 0b11], [0, 0])                    # 3 + 2 fits: gain 9 (the LP says 9.5)
    -9
    >>> queue = set(); ct.prune(D := [0b111, 0b11], [0, 0], -9, queue), D   # x0 = 1, x1 = 1
    (True, [2, 2])
    """

    __slots__ = ("classes", "covered", "last", "path", "position", "rest", "room", "tables", "top")

    def __init__(
        self,
        classes: list[tuple[int, dict[int, Option]]],
        room: int,
        rest: dict[int, int],
        covered: frozenset[int] = frozenset(),
    ) -> None:
        self.classes, self.room, self.covered = classes, room, covered
        self.rest = tuple(rest.items())
        """``covered``: the variables the classes decide (their indices and the terms they set)."""
        width = _width(classes, room)
        self.top = width - 1
        tables: list[list[int]] = [[0] * width]
        for _, opts in reversed(classes):
            after, best = tables[-1], [NONE] * width
            for u, g in _pareto(opts.values()):
                if u < width:
                    best[u:] = map(max, best[u:], map(add, after[: width - u], repeat(g)))
            tables.append(best)
        tables.reverse()
        self.tables = tables
        self.position = {x: k for k, (x, _) in enumerate(classes)}
        self.last: tuple[int, int, int] | None = None
        """The last node's first open class, room left and cost of the classes fixed before it."""
        self.path: list[int] | None = None

    def bound(
        self, D: list[Dom], off: list[int], cap: int | float = float("inf")
    ) -> int | float | None:
        """The least cost at this node; ``None`` if the fixed classes overfill the room."""
        room, k = self.room, len(self.classes)
        fixed = 0
        for n, (x, opts) in enumerate(self.classes):
            d = D[x]
            if d & (d - 1):
                k = n
                break
            u, g = opts[off[x] + d.bit_length() - 1]
            room -= u
            fixed -= g
        self.path = None
        if room < 0:
            self.last = None
            return None
        self.last = (k, room, fixed)
        return self._rest(D, off) + fixed - self.tables[k][min(room, self.top)]

    def _rest(self, D: list[Dom], off: list[int]) -> int | float:
        """The least the objective's terms outside the classes cost (finite: checked when built)."""
        return sum_range(self.rest, 0, D, off)[0]

    def _completion(self) -> list[int]:
        """The values of the classes from the last node's first open one in a best completion."""
        if self.path is None:
            k, room, _ = self.last  # type: ignore[misc]  # bound ran and found room
            self.path, tables, top = [], self.tables, self.top
            for n in range(k, len(self.classes)):
                after = tables[n + 1]
                v, (u, _) = max(
                    ((v, o) for v, o in self.classes[n][1].items() if o[0] <= room),
                    key=lambda vo: vo[1][1] + after[min(room - vo[1][0], top)],
                )
                room -= u
                self.path.append(v)
        return self.path

    def solution(self, i: int) -> int | None:
        """The value of index ``i`` in a best completion of the last node (or ``None``)."""
        at = self.position.get(i)
        if self.last is None or at is None or at < self.last[0]:
            return None
        return self._completion()[at - self.last[0]]

    def prune(self, D: list[Dom], off: list[int], target: int, queue: set[int]) -> bool:
        """Remove the options of the first open class that cannot keep the cost within
        ``target``; go on to the next class while that fixes one."""
        if self.last is None:
            return True
        k, room, fixed = self.last
        need = self._rest(D, off) + fixed - target  # the gain still to make
        tables, top = self.tables, self.top
        if tables[k][min(room, top)] < need:
            return False
        for n in range(k, len(self.classes)):
            x, opts = self.classes[n]
            d, o = D[x], off[x]
            after = tables[n + 1]
            keep = 0
            for v in Domain(d, o):
                u, g = opts[v]
                if u <= room and g + after[min(room - u, top)] >= need:
                    keep |= 1 << (v - o)
            if keep != d and not narrow(D, queue, x, keep):
                return False
            if keep & (keep - 1):
                return True
            u, g = opts[o + keep.bit_length() - 1]
            room -= u
            need -= g
        return True


NONE = -(1 << 62)
"""A table entry below every gain (no class lacks an option of use 0, so none is left there)."""


def _width(classes: list[tuple[int, dict[int, Option]]], room: int) -> int:
    """The rooms a table tells apart: up to ``room``, or to the most the classes can use."""
    return min(room, sum(max(u for u, _ in opts.values()) for _, opts in classes)) + 1


def _pareto(options: Iterable[Option]) -> list[Option]:
    """The options no other one beats with less or as much use and more or as much gain."""
    kept: list[Option] = []
    for u, g in sorted(options, key=lambda o: (o[0], -o[1])):
        if not kept or g > kept[-1][1]:
            kept.append((u, g))
    return kept


def choice_table(
    rows: list[Linear],
    cost: dict[int, int],
    tables: dict[int, list[tuple[int, list[int]]]],
    D: list[Dom],
    off: list[int],
) -> tuple[ChoiceTable, Linear] | None:
    """The multiple-choice knapsack of ``cost`` over a ``<=`` row of ``rows`` whose terms and
    the objective's share indices of ``element``s (``tables``: each index's outputs and their
    cells, :func:`~relqueens.fd.relaxation._tables`), and that row; ``None`` if none has
    such a class, a term outside the classes lacks a bitset domain, or the table would have
    more than :data:`CELLS` cells.
    """
    owner: dict[int, tuple[int, list[int]]] = {}  # an output -> its index and its cells
    for x, outputs in tables.items():
        values = list(Domain(D[x], off[x]))
        owner.setdefault(x, (x, values))
        for v, cells in outputs:
            owner.setdefault(v, (x, cells))
    found = None
    for p in rows:
        if p.op != "<=":
            continue
        made = _classes(dict(p.terms), -p.k, cost, owner, tables, D, off)
        if made is not None and (found is None or len(made.classes) > len(found[0].classes)):
            found = (made, p)
    return found


def _classes(
    weight: dict[int, int],
    b: int,
    cost: dict[int, int],
    owner: dict[int, tuple[int, list[int]]],
    tables: dict[int, list[tuple[int, list[int]]]],
    D: list[Dom],
    off: list[int],
) -> ChoiceTable | None:
    """The table of ``sum(weight_v v) <= b`` and ``cost``, if some class holds terms of both."""
    members: dict[int, list[tuple[int, list[int]]]] = {}
    for v in weight.keys() | cost.keys():
        if v in owner:
            x, cells = owner[v]
        elif v in weight:
            d = D[v]
            if type(d) is not int:
                return None
            x, cells = v, list(Domain(d, off[v]))
        else:
            continue  # an objective term alone: the rest
        members.setdefault(x, []).append((v, cells))
    if not any(
        x in tables
        and any(v in weight for v, _ in ms)
        and any(v in cost for v, _ in ms)
        and any(v != x for v, _ in ms)
        for x, ms in members.items()
    ):
        return None  # no index sets terms of both by an element: a plain knapsack's, its table
    classes: list[tuple[int, dict[int, Option]]] = []
    room, size = b, 0
    for x in sorted(members):
        ms = members[x]
        values = list(Domain(D[x], off[x]))
        uses = [sum(weight.get(v, 0) * cells[n] for v, cells in ms) for n in range(len(values))]
        gains = [-sum(cost.get(v, 0) * cells[n] for v, cells in ms) for n in range(len(values))]
        least = min(uses)
        room -= least
        classes.append(
            (x, {c: (u - least, g) for c, u, g in zip(values, uses, gains, strict=True)})
        )
        size += len(values)
    covered = {v for ms in members.values() for v, _ in ms}
    rest = {v: c for v, c in cost.items() if v not in covered}
    if any(type(low(D[v], off[v])) is not int or type(high(D[v], off[v])) is not int for v in rest):
        return None
    if room < 0 or _width(classes, room) * size > CELLS:
        return None
    return ChoiceTable(classes, room, rest, frozenset(covered | members.keys()))
