"""The knapsack relaxation solved exactly in integers, by dynamic programming over the room left.

:class:`~relqueens.fd.relaxation.KnapsackBound` drops integrality, and on
items whose gain is close to their weight (a strongly correlated knapsack)
its bound stays far above every integer solution, so branch and bound
visits exponentially many nodes. :class:`TableBound` keeps integrality: for
one constraint ``sum(a_i x_i) <= b`` over variables with small domains it
tabulates, once, the best gain of each suffix of the variables (in index
order) for every room left, Trick's dynamic program for the knapsack
constraint. At a node the variables fixed so far set the room and the
bound is one look-up; values of the first open variable that cannot reach
the target are removed, and so on along the variables that fixes.

An equality ``sum(a_i x_i) == b`` is tabulated as such: ``tables[k][r]``
is then the best gain of the items from ``k`` on that use *exactly* room
``r`` (``-inf`` where none does), a far tighter bound wherever the
coefficients leave gaps (coin change: the fewest coins that make an amount
exactly is the table's answer at the root).

With several constraints (where some variable's domain is unbounded, so
that the LP over them all,
:class:`~relqueens.fd.relaxation.LagrangianBound`, does not apply), each
table prices the others in (a Lagrangian relaxation): ``lam * (sum(a'_i
x_i) - b')`` is added to the cost, which never raises it where ``sum(a'_i
x_i) <= b'`` holds, so the bound stays sound for every ``lam >= 0``;
:func:`exact` picks ``lam`` (in steps of ``1/SCALE``) to make the root's
bound as tight as it can.
"""

from __future__ import annotations

from itertools import accumulate, count, repeat
from operator import add, ge, sub
from typing import TYPE_CHECKING

from .propagators import high, low, narrow

if TYPE_CHECKING:
    from .domain import Dom
    from .relaxation import KnapsackBound

CELLS = 2_500_000
"""The most cells (room values times values tried) one table may have."""
BUDGET = 2_500_000
"""The most cells :func:`exact` fills in all, the multipliers' search included."""
RESIDUES = 8
"""An item as many times as fits, of at most this weight, is tabulated room class by room class
(modulo its weight); heavier ones, by runs of its weight."""
WIDE = 64
"""Items with at least this many values left in a run are scanned by slices of the table."""
SCALE = 16
"""Multipliers are multiples of ``1 / SCALE``; costs are scaled by it."""

Item = tuple[int, int, int, int, int, tuple[int, ...]]
"""``(i, start, sign, w, gain, steps)``: ``x_i = start + sign * y`` for ``y`` in ``steps``, using ``w * y`` of the room and gaining ``gain * y``."""


class TableBound:
    """The least ``sum(c_i x_i)`` over integer ``x`` in the root domains with ``sum(a_i x_i) <= b``.

    Each variable of the constraint is an item moved ``y >= 0`` steps from
    its end that uses least of the constraint; ``tables[k][r]`` is the most
    the items from position ``k`` on gain within room ``r`` (their values at
    the root: a relaxation of any node's). At a node, with ``k`` the first
    open item, the bound is what the fixed items cost less ``tables[k]`` at
    the room they leave; a fixed item after ``k`` is counted as fixed *and*
    may move again in the table, which only relaxes. Costs are kept
    multiplied by ``scale``.

    >>> from relqueens.fd.relaxation import KnapsackBound
    >>> [tb] = exact([KnapsackBound({0: -3, 1: -2}, {0: 2, 1: 2}, 3)], [0b11, 0b11], [0, 0])
    >>> tb.bound([0b11, 0b11], [0, 0])     # max 3x + 2y, 2x + 2y <= 3: x = 1 (the LP says 4)
    -3
    >>> queue = set(); tb.prune(D := [0b11, 0b11], [0, 0], -3, queue), D   # reach -3: x = 1, y = 0
    (True, [2, 1])
    """

    __slots__ = (
        "base",
        "items",
        "last",
        "path",
        "position",
        "rest",
        "room",
        "scale",
        "tables",
        "top",
    )

    def __init__(
        self,
        items: list[Item],
        room: int,
        base: int,
        rest: dict[int, int],
        scale: int,
        width: int,
        equal: bool = False,
    ) -> None:
        self.items, self.room, self.base, self.rest, self.scale = items, room, base, rest, scale
        self.tables = _program(items, width, equal)
        self.top = width - 1  # every room from here on gains as much (an equality's: the room)
        self.position = {item[0]: k for k, item in enumerate(items)}
        # the last node's first open item, room left and (scaled) cost of its fixed items:
        self.last: tuple[int, int, int | float] | None = None
        self.path: list[int] | None = None

    def bound(
        self, D: list[Dom], off: list[int], cap: int | float = float("inf")
    ) -> int | float | None:
        """The least cost at this node, ``None`` if the fixed items overfill the room, ``-inf`` if unbounded (exact: no use for a ``cap``)."""
        cost: int | float = self.base
        for x, c in self.rest.items():
            cost += c * low(D[x], off[x]) if c > 0 else c * high(D[x], off[x])
        room, k = self.room, len(self.items)
        for n, (i, start, sign, w, gain, _) in enumerate(self.items):
            d = D[i]
            if d & (d - 1):
                k = min(k, n)
                continue
            y = sign * (off[i] + d.bit_length() - 1 - start)
            room -= w * y
            cost -= gain * y
        self.path = None
        if room < 0:
            self.last = None
            return None
        most = self.tables[k][min(room, self.top)]
        if most == NONE:  # an equality no completion fills exactly
            self.last = None
            return None
        self.last = (k, room, cost)
        least = cost - most
        return least if type(least) is float else -(-least // self.scale)

    def _completion(self) -> list[int]:
        """The steps of the open items in a best completion of the last node (from its first open item)."""
        if self.path is None:
            k, room, _ = self.last  # type: ignore[misc]  # bound ran and found room
            self.path, tables, top = [], self.tables, self.top
            for n in range(k, len(self.items)):
                _, _, sign, w, gain, steps = self.items[n]
                after = tables[n + 1]
                if len(steps) >= WIDE and len(steps) == steps[0] + steps[-1] + 1:  # 0..m
                    made = _gains(after, top, room, w, gain, 0, len(steps) - 1)
                    most = max(made)  # the first best in the order of steps, as below
                    y = made.index(most) if sign > 0 else len(made) - 1 - made[::-1].index(most)
                else:
                    y = max(
                        (y for y in steps if w * y <= room),
                        key=lambda y: gain * y + after[min(room - w * y, top)],
                    )
                room -= w * y
                self.path.append(y)
        return self.path

    def solution(self, i: int) -> int | None:
        """The value of ``x_i`` in a best completion of the last node's fixed items (or ``None``)."""
        at = self.position.get(i)
        if self.last is None or at is None or at < self.last[0]:
            return None
        _, start, sign, _, _, _ = self.items[at]
        return start + sign * self._completion()[at - self.last[0]]

    def use(self, weight: dict[int, int], D: list[Dom], off: list[int]) -> int | float:
        """``sum(weight[i] x_i)`` at a best point of the last node's relaxation."""
        k = self.last[0] if self.last is not None else len(self.items)
        path = self._completion() if self.last is not None else []
        total: int | float = 0
        for n, (i, start, sign, _, _, _) in enumerate(self.items):
            d = D[i]
            value = off[i] + d.bit_length() - 1 if n < k or not d & (d - 1) else None
            total += weight.get(i, 0) * (start + sign * path[n - k] if value is None else value)
        for x, c in self.rest.items():
            total += weight.get(x, 0) * (low(D[x], off[x]) if c > 0 else high(D[x], off[x]))
        return total

    def prune(self, D: list[Dom], off: list[int], target: int, queue: set[int]) -> bool:
        """Remove the values of the first open item that cannot keep the cost within ``target``;
        go on to the next item while that fixes one."""
        if self.last is None:
            return True
        k, room, cost = self.last
        need = cost - self.scale * target  # the gain still to make
        items, tables, top = self.items, self.tables, self.top
        if tables[k][min(room, top)] < need:
            return False
        for n in range(k, len(items)):
            i, start, sign, w, gain, _ = items[n]
            d, o = D[i], off[i]
            if not d & (d - 1):
                continue  # fixed: counted by bound already
            keep = _reaching(d, o, items[n], tables[n + 1], room, top, need)
            if keep != d and not narrow(D, queue, i, keep):
                return False
            if keep & (keep - 1):
                return True
            y = sign * (o + keep.bit_length() - 1 - start)
            room -= w * y
            need -= gain * y
        return True


def _gains(
    after: list[int | float], top: int, room: int, w: int, gain: int, y0: int, y1: int
) -> list[int | float]:
    """``gain * y + after[min(room - w * y, top)]`` for ``y`` from ``y0`` to ``y1`` while ``w * y``
    fits in ``room``: a step ``y`` of one item and the best of the items after it."""
    y1 = min(y1, room // w)
    if y1 < y0:
        return []
    split = min(max(y0, -(-(room - top) // w)), y1 + 1)  # the first step leaving room <= top
    rooms = after[room - w * split :: -w][: y1 + 1 - split]
    return list(map(add, [after[top]] * (split - y0) + rooms, count(gain * y0, gain)))


def _reaching(
    d: int, o: int, item: Item, after: list[int | float], room: int, top: int, need: int | float
) -> int:
    """The values of ``d`` (offset ``o``) for ``item`` that leave the items after it ``need`` to
    gain within what the room then holds (``after``: their table)."""
    _, start, sign, w, gain, _ = item
    low_bit = (d & -d).bit_length() - 1
    width = d.bit_length() - low_bit
    if width >= WIDE and d >> low_bit == (1 << width) - 1:  # a run of values: by slices
        first = sign * (o + (low_bit if sign > 0 else low_bit + width - 1) - start)
        kept = bytes(
            map(ge, _gains(after, top, room, w, gain, first, first + width - 1), repeat(need))
        )
        if not kept:
            return 0
        if sign > 0:  # step y is value start + y: the first steps are the low bits
            return int(kept[::-1].translate(BITS), 2) << low_bit
        return int(kept.translate(BITS), 2) << (low_bit + width - len(kept))
    keep, rest = 0, d
    while rest:
        bit = rest & -rest
        rest ^= bit
        y = sign * (o + bit.bit_length() - 1 - start)
        if w * y <= room and gain * y + after[min(room - w * y, top)] >= need:
            keep |= bit
    return keep


BITS = bytes.maketrans(b"\x00\x01", b"01")
"""Flags ``0``/``1`` as the digits of a binary number."""

NONE = float("-inf")
"""An equality's table entry where no choice of the items uses exactly that room."""


def _program(items: list[Item], width: int, equal: bool = False) -> list[list[int | float]]:
    """``tables[k][r]``: the most the items from ``k`` on gain within room ``r < width`` (exactly
    ``r`` if ``equal``)."""
    tables: list[list[int | float]] = [[0] + [NONE if equal else 0] * (width - 1)]
    for _, _, _, w, gain, steps in reversed(items):
        after = tables[-1]
        best = after
        if gain > 0 or equal:
            best = after[:]
            if _uncapped(w, steps, width) and w <= RESIDUES:
                for r in range(min(w, width)):  # best[r + j*w] - j*gain: a running maximum
                    best[r::w] = map(
                        add, accumulate(map(sub, after[r::w], count(0, gain)), max), count(0, gain)
                    )
            elif _uncapped(w, steps, width):  # as many steps as fit: each adds to the last
                for at in range(w, width, w):
                    end = min(at + w, width)
                    best[at:end] = map(
                        max, best[at:end], map(add, best[at - w : end - w], repeat(gain))
                    )
            elif len(steps) == max(steps) + 1:  # steps 0..m: as parts 1, 2, 4, ... taken or not
                for y in parts(len(steps) - 1):
                    _take(best, best, w * y, gain * y)
            else:
                for y in steps:
                    _take(best, after, w * y, gain * y)
        tables.append(best)
    tables.reverse()
    return tables


def _take(best: list[int | float], source: list[int | float], shift: int, gain: int) -> None:
    """``best[r] = max(best[r], source[r - shift] + gain)`` for every room ``r``."""
    if 0 < shift < len(best):
        best[shift:] = map(max, best[shift:], map(add, source[:-shift], repeat(gain)))


def _uncapped(w: int, steps: tuple[int, ...], width: int) -> bool:
    """Whether an item may take every step ``0, 1, 2, ...`` that fits in a room below ``width``."""
    most = max(steps)
    return w > 0 and len(steps) == most + 1 and w * (most + 1) >= width


def parts(most: int) -> list[int]:
    """Parts ``1, 2, 4, ...`` and a remainder whose subsets sum to each of ``0..most``."""
    parts, part = [], 1
    while most > 0:
        parts.append(min(part, most))
        most -= parts[-1]
        part *= 2
    return parts


def _cells(shape: Layout) -> int:
    """The cells :func:`_program` fills for ``shape``."""
    items, _, width, _ = shape
    return width * sum(
        1
        if _uncapped(w, steps, width)
        else len(parts(len(steps) - 1))
        if len(steps) == max(steps) + 1
        else len(steps)
        for _, _, _, w, steps in items
    )


Layout = tuple[list[tuple[int, int, int, int, tuple[int, ...]]], int, int, bool]
"""A constraint's items without their gains, ``(i, start, sign, w, steps)``, its room, its
table's width and whether it is an equality."""


def layout(relaxed: KnapsackBound, D: list[Dom], off: list[int]) -> Layout | None:
    """The items of ``relaxed``'s constraint (``None`` if one has no bitset domain or it fails at once)."""
    items = []
    room, most = relaxed.b, 0
    for i in sorted(relaxed.weight):
        a, d, o = relaxed.weight[i], D[i], off[i]
        if type(d) is not int:
            return None
        sign, low_bit, m = (1 if a > 0 else -1), (d & -d).bit_length() - 1, d.bit_length() - 1
        start = o + (low_bit if a > 0 else m)
        if d >> low_bit == (1 << m + 1 - low_bit) - 1:  # a run of values: steps 0..m - low_bit
            steps = tuple(range(m + 1 - low_bit) if a > 0 else range(m - low_bit, -1, -1))
        else:
            steps = tuple(sign * (o + k - start) for k, c in enumerate(bin(d)[:1:-1]) if c == "1")
        room -= a * start
        most += abs(a) * max(steps)
        items.append((i, start, sign, abs(a), steps))
    if relaxed.equal:
        return (items, room, room + 1, True) if 0 <= room <= most else None
    width = min(room, most) + 1
    return (items, room, width, False) if width > 0 else None


def _priced(
    shape: Layout, cost: dict[int, int], priced: list[tuple[int, KnapsackBound]]
) -> TableBound:
    """The table for ``cost`` plus ``lam * (sum(a'_i x_i) - b')`` for each ``(SCALE * lam, a', b')``."""
    scaled = {i: SCALE * c for i, c in cost.items()}
    base = 0
    for lam, other in priced:
        base -= lam * other.b
        for i, a in other.weight.items():
            scaled[i] = scaled.get(i, 0) + lam * a
    items, room, width, equal = shape
    constraint = set()
    full: list[Item] = []
    for i, start, sign, w, steps in items:
        c = scaled.get(i, 0)
        base += c * start
        constraint.add(i)
        full.append((i, start, sign, w, -c * sign, steps))
    rest = {x: c for x, c in scaled.items() if c and x not in constraint}
    return TableBound(full, room, base, rest, SCALE, width, equal)


def _steepest(cost: dict[int, int], weight: dict[int, int]) -> int:
    """A multiplier (times ``SCALE``) past which pricing ``weight`` in cannot help: the largest
    cost per unit of weight, rounded up."""
    ratios = [-(-abs(cost[i]) // abs(a)) for i, a in weight.items() if cost.get(i)]
    return SCALE * max(ratios, default=1)


def _fractional(relaxed: KnapsackBound, D: list[Dom], off: list[int]) -> bool:
    """Whether the LP's best point over ``D`` moves its critical variable part of a step (if
    not, the point is integral and the table's bound there would be the same)."""
    if relaxed.bound(D, off) is None or not relaxed.lp:
        return False
    _, room, _, w, k = relaxed.lp[:5]
    return k < len(relaxed.items) and room % w != 0


def exact(
    relaxed: list[KnapsackBound], D: list[Dom], off: list[int], integral_lp: bool = True
) -> list[TableBound | KnapsackBound]:
    """Each of ``relaxed`` as its dynamic program over the domains ``D``, the others priced in.

    Each multiplier in turn is searched by bisection on the sign of the
    priced constraint's slack at the relaxation's best point (a
    subgradient of the root bound, which is concave in it); only
    constraints over the table's own variables are priced in, and not
    while the best point so far keeps them. A knapsack stays an LP when
    the LP's best point is integral at ``D`` (unless ``integral_lp`` is
    false or it is an equality's half), a variable of its constraint
    has no bitset domain, its table would have more than :data:`CELLS`
    cells or the cells filled would pass :data:`BUDGET`.
    """
    found: list[TableBound | KnapsackBound] = []
    tabled = set()  # the equalities tabulated as such: their mirrored halves add nothing
    budget = BUDGET
    for kb in relaxed:
        if kb.mirror is not None and id(kb.mirror) in tabled:
            continue
        shape = (
            layout(kb, D, off) if kb.equal or not integral_lp or _fractional(kb, D, off) else None
        )
        cells = 0 if shape is None else _cells(shape)
        if shape is None or cells > min(CELLS, budget):
            found.append(kb)
            continue
        budget -= cells
        if kb.equal:
            tabled.add(id(kb))
        priced: list[tuple[int, KnapsackBound]] = []
        best = _priced(shape, kb.cost, priced)
        least = best.bound(D, off)
        for other in relaxed:
            if (
                other is kb
                or least is None  # the constraint fails at once, and the table says so
                or not other.weight.keys() <= kb.weight.keys()
                or best.use(other.weight, D, off) <= other.b
            ):
                continue
            lo, hi = 0, _steepest(kb.cost, other.weight)
            chosen = 0
            while lo < hi and cells <= budget:
                budget -= cells
                mid = (lo + hi) // 2
                tb = _priced(shape, kb.cost, [*priced, (mid, other)])
                value = tb.bound(D, off)
                if value is not None and value > least:
                    best, least, chosen = tb, value, mid
                if tb.use(other.weight, D, off) <= other.b:
                    hi = mid
                else:
                    lo = mid + 1
            if chosen:
                priced.append((chosen, other))
        found.append(best)
    return found
