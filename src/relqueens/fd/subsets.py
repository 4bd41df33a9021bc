"""Subset sums: an equation over 0/1 variables propagated domain consistent, by the sums reachable.

``sum(a_i x_i) + k == 0`` over 0/1 variables asks for a subset of the open
terms whose sizes ``|a_i|`` add up to what the fixed ones leave. Bounds
reasoning (:class:`~relqueens.fd.propagators.BoolLinear`) sees only the
least and the most the open terms can add; the sums between may be
unreachable (sizes 1, 4, 9, 16, ... make few of them). :class:`SubsetSum`
keeps, as bits of one integer, the sums each prefix of the open terms can
make, and from the target down, the sums each suffix can finish: a term can
take a value only if a reachable sum before it, plus what that value adds,
is one the rest can finish (Trick's dynamic program for the knapsack
constraint, in bitsets). Where it makes a table, it is domain consistent
for the one equation. Number partitioning (1..24 into two halves of equal
sums and sums of squares, by 0/1 terms): 76,000 nodes to under 500.

A row with one more term ``+-t`` over a variable (a total: ``t ==
dot(w, take)``) has as its targets the sums ``t``'s values leave, and ``t``
keeps the values whose sums are reached (the same partition with each sum
a variable ``s``, ``s == dot(a, x)`` and ``s == dot(a, 1 - x)``: 1.6 s to
0.06 s).

What a table costs grows with the open terms times its sums, and it pays
where the sums are few: it is made only for sums up to :data:`REACH`, and
past :data:`DENSE` only while the open terms are few for them. After
tables in a row that narrowed nothing (:data:`PATIENCE` of them; for a
total, an objective's or a load's, which seldom has sums left out, one),
calls are skipped, more the longer the row (:data:`IDLE`): the equation's
bounds hold meanwhile, and any change a skipped call would have seen is
seen by the next table made.
"""

from __future__ import annotations

from itertools import compress
from operator import itemgetter
from typing import TYPE_CHECKING

from .propagators import Propagator, _mirror, _rebase

if TYPE_CHECKING:
    from .domain import Dom

REACH = 1 << 15
"""The largest sum (of the open terms' sizes, or of what they must add) tabulated in bits:
beyond it the equation keeps to its bounds."""
DENSE = 1 << 10
"""Past this sum, a table is made only if the open terms are at most :data:`SPARE` more than
its bits: more subsets than that leave few sums up to it unmade, and the table costs."""
SPARE = 12
"""How many more open terms than the bits of the sums (past :data:`DENSE`) a table is made for."""
PATIENCE = 16
"""Tables in a row that narrowed nothing before a row's calls are skipped (a total's: none)."""
IDLE = 64
"""The most calls skipped after a table that narrowed nothing: 1, 3, 7, ... for the first, second,
third such table in a row past :data:`PATIENCE`, up to this; a table that narrows or fails
skips none."""


def _targets(d: int, o: int, sign: int, least: int, sizes: int) -> int:
    """The sums (within ``0..sizes``) the terms on may add, as bits, where a total ``sign * t``
    has bitset ``d`` at offset ``o``: ``on = -least - sign * (o + p)`` for each bit ``p``."""
    if sign < 0:  # on = o + p - least
        return _rebase(d, o, least) & ((2 << sizes) - 1)
    c = -least - o  # on = c - p: the bits from c - sizes up to c
    low = max(c - sizes, 0)
    return _mirror((d >> low) & ((2 << (c - low)) - 1), c - low) if c >= low else 0


def _values(reached: int, o: int, sign: int, least: int) -> int:
    """The total's bitset (offset ``o``) of the values whose sums, bits of ``reached``, are
    made: :func:`_targets` read back."""
    return _rebase(reached, least, o) if sign < 0 else _mirror(reached, -least - o)


class SubsetSum(Propagator):
    """``sum(a_i x_i) + k == 0`` over two or more 0/1 variables (domains 1, 2, 3 at offset 0),
    and maybe one total ``+-t`` over a bitset (``t == dot(w, take)``), domain consistent by
    reachable sums where it makes a table; implied beside the row's
    :class:`~relqueens.fd.propagators.BoolLinear`, and slow (run once the cheap ones are done).

    A term is *on* when it adds its size ``|a|`` to the least the open terms
    can add (``x = 1`` for ``a > 0``, ``x = 0`` for ``a < 0``); what the terms
    on must add is one number, or with a total the set its values leave. Where
    that set lies nearer the sum of all the sizes than 0, the terms left off
    (which add up to the difference) are looked for instead.

    >>> D = [3, 3, 3, 3]                         # x + 4 y + 9 z + 16 w == 13
    >>> SubsetSum(((0, 1), (1, 4), (2, 9), (3, 16)), -13).propagate(D, [0] * 4, set(), 0)
    True
    >>> D                                        # only 4 + 9: x = 0, y = 1, z = 1, w = 0
    [1, 2, 2, 1]
    """

    __slots__ = (
        "bools",
        "domains",
        "idle",
        "k",
        "negative",
        "patience",
        "signed",
        "sizes",
        "skip",
        "total",
    )
    slow = implied = True

    def __init__(
        self,
        terms: tuple[tuple[int, int], ...],
        k: int,
        source: object = None,
        total: int | None = None,
    ) -> None:
        self.k, self.source = k, source
        self.vars = tuple(j for j, _ in terms)
        self.total = None if total is None else terms[total]
        """The term ``(j, +-1)`` over the total, if any."""
        self.bools = tuple(t for n, t in enumerate(terms) if n != total)
        self.domains = itemgetter(*(j for j, _ in self.bools))  # two or more (a row's): a tuple
        self.signed = tuple(a for _, a in self.bools)
        self.negative = tuple(min(a, 0) for _, a in self.bools)
        self.sizes = tuple(abs(a) for _, a in self.bools)
        self.idle = self.skip = 0  # tables in a row that narrowed nothing; calls left to skip
        self.patience = PATIENCE if total is None else 0  # a total: an objective's, a load's

    def start(self, D: list[Dom], off: list[int], queue: set[int]) -> bool:
        return self.propagate(D, off, queue, -1)

    def propagate(self, D: list[Dom], off: list[int], queue: set[int], i: int) -> bool:
        if self.skip:  # tables in a row that narrowed nothing: this call is left to the bounds
            self.skip -= 1
            return True
        found = self.table(D, off, queue)
        if found is None:
            self.idle += 1
            past = min(self.idle - self.patience, IDLE.bit_length())
            self.skip = min((1 << past) - 1, IDLE) if past > 0 else 0
            return True
        self.idle = 0
        return found

    def table(self, D: list[Dom], off: list[int], queue: set[int]) -> bool | None:
        """Keep the supported values; ``False`` if there are none, ``None`` if every value is
        (or no table is made)."""
        domains = self.domains(D)
        opens = list(map((3).__eq__, domains))
        # the sum with every open term at the value that adds less; what the open ones span
        least = self.k + sum(compress(self.signed, map((2).__eq__, domains)))
        least += sum(compress(self.negative, opens))
        sizes = sum(compress(self.sizes, opens))
        t = sign = o = d = 0  # no total: these are not read
        if self.total is None:  # what the terms on must add
            lo = hi = -least
        else:  # on + least + sign * (o + p) == 0 for a bit p of the total's domain
            t, sign = self.total
            d, o = D[t], off[t]
            if type(d) is not int:
                return None  # kept as bounds: the row's bounds keep it
            first, last = (d & -d).bit_length() - 1, d.bit_length() - 1
            lo, hi = (o + first, o + last) if sign < 0 else (-o - last, -o - first)
            lo, hi = max(lo - least, 0), min(hi - least, sizes)
        if lo > hi or hi < 0 or lo > sizes:
            return False
        flip = sizes - lo < hi  # look for the terms left off: the targets nearer 0
        top = (sizes - lo if flip else hi) + 1  # the table's bits
        if top > REACH or (top > DENSE and domains.count(3) > top.bit_length() + SPARE):
            return None  # beyond the table, or its sums dense: the row's bounds keep it
        if self.total is None:
            targets = 1 << (sizes - lo if flip else lo)
        else:
            targets = _targets(d, o, sign, least, sizes)
            if flip:
                targets = _mirror(targets, sizes)
        opened = list(compress(self.bools, opens))
        mask = (1 << top) - 1
        before = [1]  # before[n]: the sums the first n open terms can make, as bits
        reach = 1
        for size in compress(self.sizes, opens):
            reach = (reach | (reach << size)) & mask
            before.append(reach)
        after = reach & targets  # the sums from which the terms after the one at hand reach one
        if not after:
            return False
        narrowed = None
        if self.total is not None:  # its values whose sums are reached
            kept = _values(_mirror(after, sizes) if flip else after, o, sign, least)
            if kept != d:
                D[t] = kept
                queue.add(t)
                narrowed = True
        for n in range(len(opened) - 1, -1, -1):
            j, a = opened[n]
            size = abs(a)
            made = before[n]
            on, off_ = (made << size) & after, made & after
            if not on or not off_:
                on_value = (a > 0) != flip  # the term on (or, flipped, off) adds its size
                keep = on_value if on else not on_value
                D[j] = 2 if keep else 1
                queue.add(j)
                narrowed = True
            after |= after >> size
        return narrowed
