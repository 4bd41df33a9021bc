"""Residues: a linear equation read modulo a number that divides all its coefficients but a few.

``sum(a_i x_i) + k == 0`` holds modulo any ``m``, and modulo an ``m`` that
divides every coefficient but a few it ties those few terms alone: the sum
of a cryptarithm's words, modulo 10, ties the letters of the last column
(DONALD + GERALD = ROBERT: ``2 D == T`` modulo 10), modulo 100 those of the
last two. Bounds reasoning on the whole equation sees neither (a
cryptarithm stated by carries, column by column, says it in so many
words). The moduli tried are the common divisors of two of the
coefficients; for each set of terms one of them leaves, the equation holds
modulo the least common multiple of all that leave those terms or fewer.
Each such set whose values can be listed (:data:`ROWS`) is tabulated and
propagated domain consistent (:class:`ResidueTable`), implied; a set within
another's is left out, the larger table implying it. A labeling posts them
when its first search without them runs out of nodes (not while it finds
solutions often: :attr:`~relqueens.fd.labeling.Label.OFTEN`), as it does the
implied groups (:mod:`~relqueens.fd.implied`). All of DONALD +
GERALD = ROBERT by ``leftmost``: 0.099 to 0.015 s (SWI 0.98 s, CP-SAT 0.008 s);
SATURN + URANUS + NEPTUNE + PLUTO = PLANETS: 1.3 to 0.16 s (SWI 9.4 s, CP-SAT 0.041 s).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise
from math import gcd, lcm, prod

from .domain import Dom, Domain
from .globals import TableProp, row_masks
from .post import Constraint, Posting
from .propagators import Linear, high, low
from .store import Model

Support = tuple[tuple[int, int], ...]
"""The terms ``(index, coefficient)`` a modulus leaves."""

ROWS = 10000
"""The most value tuples a table may be built from (the product of its terms' domain sizes,
but the last's)."""

TERMS = 40
"""Equations with more distinct coefficients are not read (their pairs' divisors cost more
than tables ever save)."""


class ResidueTable(TableProp):
    """A :class:`~relqueens.fd.globals.TableProp` a residue implies (left out of residuals)."""

    __slots__ = ()
    implied = True


def residues(model: Model, D: list[Dom]) -> list[tuple[Support, int, int]]:
    """``(terms, m, k)`` for each set of terms of a posted equation that a modulus ``m`` leaves,
    ``sum(a_i x_i) + k == 0`` modulo ``m``, to tabulate (:func:`tables`): of bitset domains in
    ``D``, whose value tuples are at most :data:`ROWS`, and not within the terms of another
    kept from the same equation (none if posted before on this branch). A three-term equation
    with a coefficient other than 1 or -1 and no term fixed is kept whole (``m`` past any
    value of its sum: an index ``n * a + b`` into ``element``, whose holes bounds leave). The
    terms come fewest values first.

    >>> from relqueens.fd.store import Model
    >>> m = Model()
    >>> for v in "DLRT":
    ...     m.apply(("var", (v,), 0, False))
    >>> m.apply(("prop", Linear(((0, 100002), (1, 20), (2, -99010), (3, -1)), 0, "==")))
    >>> [([i for i, _ in terms], modulus) for terms, modulus, _ in residues(m, [0b11111] * 4)]
    [([0, 3], 10)]
    """
    if any(type(p.source) is ResidueTables for p in model.posted(ResidueTable)):
        return []
    kept: list[tuple[Support, int, int]] = []
    off = model.off
    for p in model.posted(Linear):
        if p.op != "==" or len(p.terms) < 3 or any(type(D[i]) is not int for i, _ in p.terms):
            continue
        found = _left(p.terms)
        if (
            len(p.terms) == 3
            and any(a not in (1, -1) for _, a in p.terms)
            and all(D[i].bit_count() > 1 for i, _ in p.terms)
        ):
            found = [(p.terms, _beyond(p.terms, p.k, D, off)), *found]
        within: list[set[int]] = []  # the terms of those kept from this equation
        for terms, m in found:
            xs = {i for i, _ in terms}
            if any(xs <= other for other in within):
                continue
            terms = tuple(sorted(terms, key=lambda t: D[t[0]].bit_count()))
            if any(gcd(a, m) == 1 and D[i].bit_count() > m for i, a in terms):
                continue  # a term mends any residue, several ways (a carry): the rows say little
            if prod(D[i].bit_count() for i, _ in terms[:-1]) <= ROWS:
                within.append(xs)
                kept.append((terms, m, p.k))
    return kept


def _beyond(terms: Support, k: int, D: list[Dom], off: list[int]) -> int:
    """A modulus greater than twice any value of ``sum(a_i x_i) + k`` within ``D``: modulo it,
    the sum is 0 only where it is 0."""
    top = abs(k) + sum(
        abs(a) * max(abs(low(D[i], off[i])), abs(high(D[i], off[i]))) for i, a in terms
    )
    return 2 * int(top) + 1


_LEFT: dict[Support, list[tuple[Support, int]]] = {}
""":func:`_left`'s results, by equation (cleared past :data:`MEMO` of them)."""

MEMO = 4096


def _left(terms: Support) -> list[tuple[Support, int]]:
    """``(left, m)`` for each set of two or more ``terms`` that a common divisor of two
    coefficients (or one that occurs twice) leaves, ``m`` the least common multiple of all
    that leave those or fewer; most terms first."""
    known = _LEFT.get(terms)
    if known is not None:
        return known
    sizes = sorted(abs(a) for _, a in terms)
    distinct = sorted(set(sizes))
    moduli: set[int] = set()
    if len(distinct) <= TERMS:
        moduli = {gcd(a, b) for k, a in enumerate(distinct) for b in distinct[k + 1 :]}
        moduli |= {a for a, b in pairwise(sizes) if a == b}
    left_by: dict[Support, int] = {}
    for m in moduli - {1}:
        left = tuple((i, a) for i, a in terms if a % m)
        if left and len(left) < len(terms):
            left_by[left] = lcm(left_by.get(left, 1), m)
    found = []
    for left, m in left_by.items():  # a modulus that leaves fewer of these terms holds too
        within = set(left)
        for fewer, m2 in left_by.items():
            if set(fewer) <= within:
                m = lcm(m, m2)
        if len(left) > 1:  # one term alone: narrowed when posted (Posting.congruent)
            found.append((left, m))
    found.sort(key=lambda r: -len(r[0]))
    if len(_LEFT) >= MEMO:
        _LEFT.clear()
    _LEFT[terms] = found
    return found


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class ResidueTables(Constraint):
    """Tables of residues, each its variables and rows (by index), implied."""

    tables: tuple[tuple[tuple[int, ...], tuple[tuple[int, ...], ...]], ...]
    name = "residue_tables"

    def post_on(self, posting: Posting) -> bool:
        return all(  # no row: the equation has no solution modulo m
            rows and posting.attach(ResidueTable(xs, row_masks(rows), self))
            for xs, rows in self.tables
        )


def tables(model: Model, D: list[Dom], found: list[tuple[Support, int, int]]) -> ResidueTables:
    """The residues ``found`` by :func:`residues` as tables of their value tuples within ``D``."""
    off = model.off
    return ResidueTables(
        tuple((tuple(i for i, _ in terms), _rows(terms, m, k, D, off)) for terms, m, k in found)
    )


def _rows(
    terms: Support, m: int, k: int, D: list[Dom], off: list[int]
) -> tuple[tuple[int, ...], ...]:
    """The value tuples of ``terms`` within ``D`` where ``sum(a_i x_i) + k`` is a multiple of ``m``.

    The partial sums modulo ``m`` are grouped by residue, term by term; the
    last term's values are looked up by the residue they must mend.
    """
    partial: dict[int, list[tuple[int, ...]]] = {k % m: [()]}
    for i, a in terms[:-1]:
        grown: dict[int, list[tuple[int, ...]]] = {}
        for v in Domain(D[i], off[i]):
            step = a * v
            for r, heads in partial.items():
                grown.setdefault((r + step) % m, []).extend(h + (v,) for h in heads)
        partial = grown
    i, a = terms[-1]
    mends: dict[int, list[int]] = {}
    for v in Domain(D[i], off[i]):
        mends.setdefault(-a * v % m, []).append(v)
    return tuple(h + (v,) for r, heads in partial.items() for v in mends.get(r, ()) for h in heads)
