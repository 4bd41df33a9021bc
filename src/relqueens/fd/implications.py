"""Implications between value tests, ``x == a  ==>  y == b``, as binary clauses.

``fd.implies(fd.eq(p, i), fd.eq(x, k))`` is how a model channels a position
to the cells it fills (Langford's numbers by cells, a colour to the flag
saying it is used). Posted through reification, each test would get a 0/1
variable and the implication an order between them: three propagators
woken in turn for one value lost. Here one propagator holds the clause
``x != a  or  y == b``, domain consistent, without 0/1 variables: ``x``
fixed to ``a`` fixes ``y`` to ``b``, and ``y`` losing ``b`` takes ``a`` from ``x``.
"""

from __future__ import annotations

from .domain import Dom
from .propagators import Gathered, Propagator


class ValueImplication(Propagator):
    """``x == a  ==>  y == b`` for two variables with bitset domains (``a`` and ``b`` as bits
    ``pa`` and ``pb`` of them, at the offsets the variables had when it was posted: a bitset
    keeps its offset).

    Woken when ``y`` loses ``b`` while ``x`` may still be ``a`` (a value support): ``x``
    loses ``a``; not when ``y`` is fixed (to ``b``: nothing to do; to another value: the
    support). When ``x`` is fixed, the implications on ``x`` are woken as one
    (:class:`FixedPremises`) and those testing its value fix their ``y``.

    >>> D, queue = [0b111, 0b011], set()        # x, y in 0..2, y lost 2: x == 1 ==> y == 2
    >>> ValueImplication(0, 1, 1, 2).propagate(D, [0, 0], queue, 1), bin(D[0])  # x is not 1
    (True, '0b101')
    """

    __slots__ = ("pa", "pb", "x", "y")
    on_fix = supported = True

    def __init__(self, x: int, pa: int, y: int, pb: int, source: object = None) -> None:
        self.x, self.pa, self.y, self.pb, self.source = x, pa, y, pb, source
        self.vars = (x, y)

    def supports(self, off: list[int]) -> tuple[tuple[int, int, int, int], ...]:
        """Wake when ``y`` loses ``b`` while ``x`` still holds ``a``."""
        return ((self.y, self.pb, self.x, self.pa),)

    def start(self, D: list[Dom], off: list[int], queue: set[int]) -> bool:
        return self.propagate(D, off, queue, self.y)

    def propagate(self, D: list[Dom], off: list[int], queue: set[int], i: int) -> bool:
        x = self.x
        dx: int = D[x]  # a bitset (see the class docstring)
        if (D[self.y] >> self.pb) & 1 or not (dx >> self.pa) & 1:
            return True
        dx ^= 1 << self.pa  # y cannot be b: neither can x be a
        if not dx:
            return False
        D[x] = dx
        queue.add(x)
        return True

    def entailed(self, D: list[Dom], off: list[int]) -> bool:
        dx, dy = D[self.x], D[self.y]
        return not (dx >> self.pa) & 1 or dy == 1 << self.pb


class FixedPremises(Gathered):
    """The :class:`ValueImplication` propagators whose premise tests ``x``, woken as one when
    ``x`` is fixed: only those testing its value act (each fixes its ``y``)."""

    __slots__ = ("by_bit", "counted")

    def __init__(self, x: int) -> None:
        super().__init__(x)
        self.by_bit: dict[int, list[tuple[int, int]]] = {}
        """For each bit ``pa`` of ``x`` tested, the ``(y, pb)`` it implies."""
        self.counted = 0
        """How many :attr:`members` :attr:`by_bit` holds (members are only ever added)."""

    members: list[ValueImplication]  # type: ignore[assignment]  # gathered by ValueImplication.gather

    def propagate(self, D: list[Dom], off: list[int], queue: set[int], i: int) -> bool:
        if self.counted != len(self.members):
            for p in self.members[self.counted :]:
                self.by_bit.setdefault(p.pa, []).append((p.y, p.pb))
            self.counted = len(self.members)
        d: int = D[i]  # a bitset, fixed
        for y, pb in self.by_bit.get(d.bit_length() - 1, ()):
            dy: int = D[y]
            if not (dy >> pb) & 1:
                return False
            if dy & (dy - 1):
                D[y] = 1 << pb
                queue.add(y)
        return True


ValueImplication.gather = FixedPremises
