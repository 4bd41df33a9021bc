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

MAX_WIDTH = 1 << 24
"""The widest span (max - min + 1) a domain may have: 16,777,216 values."""


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
        if bits:
            low = (bits & -bits).bit_length() - 1
            bits >>= low
            lo += low
        else:
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

    def intersect(self, other: Domain) -> Domain:
        """The values in both domains."""
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

    def __repr__(self) -> str:
        runs = list(self.runs())
        if len(runs) == 1 and runs[0][1] > runs[0][0]:
            return f"{{{runs[0][0]}..{runs[0][1]}}}"
        if all(hi - lo < 2 for lo, hi in runs):
            return "{" + ", ".join(str(v) for v in self) + "}"
        return "{" + ", ".join(str(lo) if lo == hi else f"{lo}..{hi}" for lo, hi in runs) + "}"


def interval(lo: int, hi: int) -> Domain:
    """The domain ``lo..hi``, both ends included (core.logic's ``fd/interval``).

    >>> interval(-2, 2)
    {-2..2}
    """
    lo, hi = as_int(lo, "interval's lower bound"), as_int(hi, "interval's upper bound")
    if lo > hi:
        raise ValueError(f"interval({lo}, {hi}) is empty: the lower bound exceeds the upper")
    _check_width(lo, hi)
    return Domain((1 << (hi - lo + 1)) - 1, lo)


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
