"""Finite domains: immutable sets of integers stored as bitsets.

A domain is a Python ``int`` used as a bitset plus the integer its bit 0
stands for, so membership, size, bounds and intersection are a few machine
operations even for thousands of values, and values may be negative.

>>> interval(0, 7)
{0..7}
>>> domain(5, 1, 3) & interval(2, 9)
{3, 5}
>>> interval(-3, 3).remove(0)
{-3..-1, 1..3}
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from html import escape
from typing import Any, TypeAlias, cast, final

MAX_WIDTH = 1 << 24
"""The widest span (max - min + 1) a domain may have: 16,777,216 values."""

DENSE = 1 << 16
"""The most values of an interval a variable keeps as a bitset: a wider one is kept as bounds
(:class:`Wide`, whose propagation costs the same at any width) until it narrows this far or a
constraint that reads values (``distinct``, ``element``, ...) needs it as a bitset."""


def as_int(value: object, what: str) -> int:
    """Return ``value`` as an ``int``, or raise ``TypeError`` naming ``what``.

    ``bool`` is refused: ``True`` is not a column number.

    >>> as_int(3, "bound")
    3
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be an integer, got {value!r} ({type(value).__name__})")
    return int(value)


def _check_width(lo: int, hi: int) -> None:
    if hi - lo + 1 > MAX_WIDTH:
        raise ValueError(
            f"domain {lo}..{hi} spans {hi - lo + 1} values; relqueens domains are bitsets "
            f"and may span at most {MAX_WIDTH}"
        )


@final
class Domain:
    """An immutable finite set of integers.

    Build one with :func:`interval` or :func:`domain`; combine with ``&``
    (intersection), ``|`` (union) and :meth:`remove`.

    >>> d = interval(1, 4)
    >>> 3 in d, len(d), d.min, d.max
    (True, 4, 1, 4)
    >>> list(d.remove(2))
    [1, 3, 4]
    """

    __slots__ = ("bits", "lo")

    bits: int
    lo: int

    def __init__(self, bits: int, lo: int) -> None:
        if bits < 0:
            raise ValueError("a domain bitset cannot be negative")
        if bits and not bits & 1:  # bit 0 set is the lowest already: no copy of a wide bitset
            low = (bits & -bits).bit_length() - 1
            bits >>= low
            lo += low
        elif not bits:
            lo = 0
        object.__setattr__(self, "bits", bits)
        object.__setattr__(self, "lo", lo)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Domain is immutable")

    @property
    def min(self) -> int:
        """The smallest value (``ValueError`` if empty)."""
        if not self.bits:
            raise ValueError("the empty domain has no minimum")
        return self.lo

    @property
    def max(self) -> int:
        """The largest value (``ValueError`` if empty)."""
        if not self.bits:
            raise ValueError("the empty domain has no maximum")
        return self.lo + self.bits.bit_length() - 1

    def __len__(self) -> int:
        return self.bits.bit_count()

    def __bool__(self) -> bool:
        return self.bits != 0

    def __contains__(self, value: object) -> bool:
        if isinstance(value, bool) or not isinstance(value, int):
            return False
        pos = value - self.lo
        return pos >= 0 and (self.bits >> pos) & 1 == 1

    def __iter__(self) -> Iterator[int]:
        bits, lo = self.bits, self.lo
        while bits:
            low = bits & -bits
            yield lo + low.bit_length() - 1
            bits ^= low

    def is_singleton(self) -> bool:
        """True when the domain holds exactly one value."""
        return self.bits != 0 and self.bits & (self.bits - 1) == 0

    def remove(self, value: int) -> Domain:
        """The domain without ``value`` (the same domain if it is absent)."""
        value = as_int(value, "value")
        if value not in self:
            return self
        return Domain(self.bits & ~(1 << (value - self.lo)), self.lo)

    def intersect(self, other: Domain | Wide) -> Domain:
        """The values in both domains."""
        if type(other) is Wide:
            if not self.bits:
                return self
            return self.intersect(bounded(max(self.lo, other.lo), min(self.max, other.hi)))
        if not isinstance(other, Domain):
            raise TypeError(f"can only intersect with a Domain, not {type(other).__name__}")
        lo = max(self.lo, other.lo)
        return Domain((self.bits >> (lo - self.lo)) & (other.bits >> (lo - other.lo)), lo)

    def union(self, other: Domain) -> Domain:
        """The values in either domain."""
        if not isinstance(other, Domain):
            raise TypeError(f"can only unite with a Domain, not {type(other).__name__}")
        if not self.bits:
            return other
        if not other.bits:
            return self
        lo = min(self.lo, other.lo)
        _check_width(lo, max(self.max, other.max))
        return Domain((self.bits << (self.lo - lo)) | (other.bits << (other.lo - lo)), lo)

    def shift(self, offset: int) -> Domain:
        """The domain with ``offset`` added to every value.

        >>> interval(0, 2).shift(-5)
        {-5..-3}
        """
        return Domain(self.bits, self.lo + as_int(offset, "offset"))

    __and__ = intersect
    __or__ = union

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Domain):
            return NotImplemented
        return self.bits == other.bits and self.lo == other.lo

    def __hash__(self) -> int:
        return hash((Domain, self.bits, self.lo))

    def runs(self) -> Iterator[tuple[int, int]]:
        """The maximal intervals ``(lo, hi)`` that make up the domain, ascending.

        >>> list(domain(1, 2, 3, 7).runs())
        [(1, 3), (7, 7)]
        """
        bits, lo = self.bits, self.lo
        while bits:
            start = (bits & -bits).bit_length() - 1
            run = bits >> start
            length = (~run & (run + 1)).bit_length() - 1
            yield lo + start, lo + start + length - 1
            bits &= ~(((1 << length) - 1) << start)

    def _repr_html_(self) -> str:
        """The domain as text, over a strip of its span (a dark cell per value held) when that is short.

        >>> domain(1, 3)._repr_html_().count('class="in"')
        2
        """
        text = f"<code>{escape(repr(self))}</code>"
        if not self.bits or self.max - self.min >= 64:
            return text
        cells = "".join(
            f'<span class="{"in" if v in self else "out"}" title="{v}" style="display:inline-block;width:9px;'
            f'height:9px;margin-right:1px;background:{"#2f6fdf" if v in self else "#e4e4e4"}"></span>'
            for v in range(self.min, self.max + 1)
        )
        return f"{text}<br>{cells}"

    def __repr__(self) -> str:
        runs = list(self.runs())
        if len(runs) == 1 and runs[0][1] > runs[0][0]:
            return f"{{{runs[0][0]}..{runs[0][1]}}}"
        if all(hi - lo < 2 for lo, hi in runs):
            return "{" + ", ".join(str(v) for v in self) + "}"
        return "{" + ", ".join(str(lo) if lo == hi else f"{lo}..{hi}" for lo, hi in runs) + "}"


inf = float("-inf")
"""The lower end of an unbounded interval (SWI's ``inf``): ``interval(inf, 0)``."""
sup = float("inf")
"""The upper end of an unbounded interval (SWI's ``sup``): ``interval(0, sup)``."""


@final
class Wide:
    """The integers ``lo..hi`` when there are too many for a bitset (or infinitely many): kept as bounds.

    ``lo`` may be :data:`inf` and ``hi`` :data:`sup`. Propagation on such a
    domain reasons on its bounds only.

    >>> interval(-10**12, 10**12)
    {-1000000000000..1000000000000}
    >>> interval(3, sup), 7 in interval(3, sup)
    ({3..sup}, True)
    """

    __slots__ = ("hi", "lo")

    lo: int | float
    hi: int | float

    def __init__(self, lo: int | float, hi: int | float) -> None:
        object.__setattr__(self, "lo", lo)
        object.__setattr__(self, "hi", hi)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Wide is immutable")

    @property
    def min(self) -> int | float:
        """The smallest value (``inf`` if there is none)."""
        return self.lo

    @property
    def max(self) -> int | float:
        """The largest value (``sup`` if there is none)."""
        return self.hi

    def is_singleton(self) -> bool:
        """True when the domain holds exactly one value."""
        return self.lo == self.hi

    def __bool__(self) -> bool:
        return True  # a Wide domain is never empty

    def is_finite(self) -> bool:
        """True when both bounds are integers."""
        return type(self.lo) is int and type(self.hi) is int

    def __contains__(self, value: object) -> bool:
        if isinstance(value, bool) or not isinstance(value, int):
            return False
        return self.lo <= value <= self.hi

    def __len__(self) -> int:
        if not self.is_finite():
            raise TypeError(f"the domain {self} has infinitely many values")
        return cast(int, self.hi - self.lo + 1)  # is_finite(): both bounds are ints

    def __eq__(self, other: object) -> bool:
        return type(other) is Wide and self.lo == other.lo and self.hi == other.hi

    def __hash__(self) -> int:
        return hash((Wide, self.lo, self.hi))

    def intersect(self, other: Domain | Wide) -> Domain | Wide:
        """The values in both domains."""
        if isinstance(other, Domain):
            return other.intersect(self)
        return bounded(max(self.lo, other.lo), min(self.hi, other.hi))

    __and__ = intersect

    def __repr__(self) -> str:
        lo = "inf" if self.lo == inf else self.lo
        hi = "sup" if self.hi == sup else self.hi
        return f"{{{lo}..{hi}}}"


Dom: TypeAlias = Any
"""A store's domain entry: a bitset (``int``, bit ``p`` for the value ``offset + p``) or a :class:`Wide`.

Typed ``Any``, not ``int | Wide``: the hot loops tell the two apart by
``type(d) is int``, which a type checker cannot narrow in the other branch
(``int`` is not final), and most propagators only ever see bitsets (their
variables are never Wide, an invariant of posting). Each use would need an
ignore; the distinction is kept by the code and its tests instead.
"""


def two_valued(D: list[Dom], idxs: list[int]) -> bool:
    """Whether the domains ``D[i]`` for ``i`` in ``idxs`` are all bitsets of at most two values.

    >>> two_valued([0b11, 0b1, 0b110], [0, 1]), two_valued([0b11, 0b111], [0, 1])
    (True, False)
    """
    return all(type(d) is int and d.bit_count() <= 2 for d in map(D.__getitem__, idxs))


def as_domain(d: Dom, o: int) -> Domain | Wide:
    """A store's domain entry (a bitset at offset ``o``, or a Wide domain) as a domain value."""
    return Domain(d, o) if type(d) is int else d


def shown(d: Dom, o: int) -> Domain | Wide:
    """A store's domain entry as :func:`as_domain` gives it, but bounds kept for speed (up to
    :data:`MAX_WIDTH` values, see :data:`DENSE`) as the interval they stand for, as given."""
    return Domain(d, o) if type(d) is int else bounded(d.lo, d.hi)


def bounded(lo: int | float, hi: int | float, widest: int = MAX_WIDTH) -> Domain | Wide:
    """The integers ``lo..hi``: a bitset up to ``widest`` values, else :class:`Wide` (empty:
    the empty Domain)."""
    if lo > hi:
        return Domain(0, 0)
    if type(lo) is int and type(hi) is int and hi - lo < widest:
        return Domain((1 << (hi - lo + 1)) - 1, lo)
    return Wide(lo, hi)


def span(lo: int | float, hi: int | float) -> Domain | Wide:
    """The integers ``lo..hi`` as a variable keeps them: a bitset up to :data:`DENSE` values,
    else bounds (empty: the empty Domain).

    >>> span(0, 9), type(span(0, 10**6)).__name__
    ({0..9}, 'Wide')
    """
    return bounded(lo, hi, DENSE)


def dense(dom: Domain | Wide) -> Domain | Wide:
    """``dom`` as a variable keeps it: an interval of more than :data:`DENSE` values as bounds.

    >>> dense(interval(0, 9)), type(dense(interval(0, 10**6))).__name__
    ({0..9}, 'Wide')
    """
    if type(dom) is Domain and DENSE < (width := dom.bits.bit_length()) == dom.bits.bit_count():
        return Wide(dom.lo, dom.lo + width - 1)
    return dom


def _bound(value: object, what: str, infinite: float) -> int | float:
    if value == infinite and isinstance(value, float):
        return value
    return as_int(value, what)


def interval(lo: int | float, hi: int | float) -> Domain | Wide:
    """The domain ``lo..hi``, both ends included (core.logic's ``fd/interval``); ``inf``/``sup`` leave an end open.

    >>> interval(-2, 2)
    {-2..2}
    """
    lo, hi = _bound(lo, "interval's lower bound", inf), _bound(hi, "interval's upper bound", sup)
    if lo > hi:
        raise ValueError(f"interval({lo}, {hi}) is empty: the lower bound exceeds the upper")
    return bounded(lo, hi)


def domain(*values: int) -> Domain:
    """The domain holding exactly ``values`` (core.logic's ``fd/domain``).

    >>> domain(1, 3, 5)
    {1, 3, 5}
    """
    return domain_of(values)


def domain_of(values: Iterable[int]) -> Domain:
    """The domain holding the integers of an iterable.

    >>> domain_of(range(0, 10, 3))
    {0, 3, 6, 9}
    """
    ints = [as_int(v, "domain value") for v in values]
    if not ints:
        raise ValueError("a domain needs at least one value: the empty domain has no solutions")
    lo, hi = min(ints), max(ints)
    _check_width(lo, hi)
    bits = 0
    for v in ints:
        bits |= 1 << (v - lo)
    return Domain(bits, lo)
