"""What a model's linear equalities say together, though none says it alone.

A magic square whose sum is a variable ``S`` has ``2n + 2`` lines, each
``sum(line) == S``, and its cells a permutation of ``1..n²``. Each line
alone bounds ``S`` loosely; the rows together hold every cell once, so ``n *
S`` is the sum of all the values, and ``S`` is fixed (5×5: 12 s of search
to 0.05 s). :func:`fixed_by_equalities` combines by Gauss-Jordan
elimination, in integers, the equalities posted (:class:`Linear` ``==``
rows and ``x == y + c``) and the sums of the ``distinct`` groups whose
terms have exactly as many values as there are terms (a permutation: the
sum of its values), and of the cliques an implied pigeonhole keeps apart
(:func:`distinct_groups`). Of the reduced echelon form:

* a row of one term fixes its variable (a variable is fixed by the
  equalities exactly when its unit row lies in the space they span);
* a row whose terms' common divisor does not divide its right-hand side has
  no integer point, and fails;
* a row whose terms share a coefficient over variables of one group is
  posted as a sum of distinct values, unless one is posted already: a row
  not posted, or posted as a plain sum (``sum(line) == S`` while ``S`` was
  open).

Langford's pairs are the example of the last two: ``n`` numbers, each at
positions ``p`` and ``p + k + 1`` of a permutation of ``0..2n-1``, give
``2 sum(p) == n (2n - 1) - sum(k + 1)``. It is odd when ``n`` is 1 or 2
modulo 4 (no pairing exists: refuted at once), and otherwise a sum over the
first positions that makes a search by ``leftmost`` find L(2, 16) in 0.002 s
instead of 0.8 s. Stated as offsets, ``distinct(p + [p[k] + k + 2 ...])``,
the positions are one permutation that holds each variable twice: its sum
alone says as much (0.64 s to 1.7 ms; L(2, 24) over 30 s to 9 ms), where
the sum of a permutation that holds each variable once, with no equality
posted, is left to the group. Models of more than :data:`ROWS` equalities
are left alone (their elimination would cost more than it saves).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import gcd

from .domain import DENSE, Dom, Domain
from .post import Constraint, Posting, distinct_in
from .propagators import (
    DistinctSum,
    EqOffset,
    Linear,
    Pigeonhole,
    aligned,
    aligned_union,
    low,
    spread,
)
from .propagators import fixed as fixed_domain
from .store import Model

ROWS = 64
"""The most equalities eliminated (beyond, none are)."""

Row = dict[int, int]
"""A row ``sum(a * x_i) == b``: ``{i: a}``, with ``b`` at :data:`RHS`."""

RHS = -1
"""The key of a row's right-hand side (no variable has a negative index)."""


class CombinedSum(DistinctSum):
    """A sum over distinct values that equalities combined imply (:func:`fixed_by_equalities`),
    slow: it runs once the cheap propagators are done (counting Langford's L(2, 11) by ``ff``,
    8.3 s woken with them, 5.4 s so, 4.1 s without it; L(2, 16) by ``leftmost``, first: 0.002 s
    either way, 0.8 s without it)."""

    __slots__ = ()
    slow = True


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class FixedByEqualities(Constraint):
    """``a * x_i == b`` for each ``(i, a, b)`` that :func:`fixed_by_equalities` found, and the
    sums over distinct values it found (``(terms, b)``: ``sum(a * x) == b``), implied."""

    fixed: tuple[tuple[int, int, int], ...] | None
    """``None``: the equalities contradict each other."""
    sums: tuple[tuple[tuple[tuple[int, int], ...], int], ...] = ()
    name = "fixed_by_equalities"

    def post_on(self, posting: Posting) -> bool:
        if self.fixed is None or not all(posting.unary(i, a, -b, "==") for i, a, b in self.fixed):
            return False
        off = posting.store.current().off
        return all(
            posting.attach(CombinedSum(terms, -b, "==", off, self, True)) for terms, b in self.sums
        )


def fixed_by_equalities(model: Model, D: list[Dom]) -> FixedByEqualities | None:
    """What the equalities of ``model`` fix together, of the variables open in domains ``D``
    (``None``: nothing; too few equalities to combine, or too many).

    >>> from relqueens.fd.store import Model
    >>> m = Model()
    >>> for v in "xyz":
    ...     m.apply(("var", (v,), 0, False))
    >>> for terms, k in ((((0, 1), (1, 1)), -3), (((1, 1), (2, -1)), 0), (((0, 1), (2, 1)), -3)):
    ...     m.apply(("prop", Linear(terms, k, "==")))
    >>> fixed_by_equalities(m, [0b1111] * 3) is None     # x + y == 3, y == z, x + z == 3
    True
    >>> m.apply(("prop", Linear(((0, 1), (1, -1)), 1, "==")))      # and x - y == -1: x is 1
    >>> fixed_by_equalities(m, [0b1111] * 3).fixed
    ((0, 1, 1), (1, 1, 2), (2, 1, 2))
    >>> m.apply(("prop", Linear(((2, 1),), -3, "==")))               # and z == 3: none
    >>> fixed_by_equalities(m, [0b1111] * 3).fixed is None
    True
    """
    off, rows, implied, plain = model.off, list[Row](), list[Row](), list[Row]()
    distinct_sums = list[Row]()  # the rows posted as sums of distinct values
    for e in model.props:
        if e[0] != "prop":
            continue
        p = e[1]
        if isinstance(p, Linear) and p.op == "==":
            row = row_of(p.terms, -p.k, D, off)
            (implied if p.implied else rows).append(row)
            if type(p) is Linear:  # not a sum of distinct values
                plain.append(row)
            elif isinstance(p, DistinctSum):
                distinct_sums.append(row)
        elif type(p) is EqOffset:  # x == y + c
            rows.append(row_of(((p.x, 1), (p.y, -1)), p.c, D, off))
    groups = distinct_groups(model)
    if not rows and not any(len({i for i, _ in g}) < len(g) for g in groups):
        return None  # no equality, and no group holds a variable twice (x and x + k)
    rows, implied = ([r for r in found if len(r) > 1 or r[RHS]] for found in (rows, implied))
    posted = len(rows)  # the rows before are posted; the permutations' sums are not
    rows += _permutation_sums(groups, model.off, D)
    if not rows or len(rows) > ROWS or (len(rows) < 2 and posted):
        return None  # (one permutation's sum alone: where it holds a variable twice)
    pivoted = reduced(rows)
    solved = None if pivoted is None else [row for _, row in pivoted]
    if solved is None or any(
        row[RHS] % gcd(*(a for i, a in row.items() if i != RHS)) for row in solved
    ):
        return FixedByEqualities(None)  # no point, or no integer point (2 x + 4 y == 3)
    fixed = tuple(
        (i, a, row[RHS]) if a > 0 else (i, -a, -row[RHS])
        for row in solved
        if len(row) == 2
        for i, a in row.items()
        if i != RHS and not fixed_domain(D[i])
    )
    # the sums of distinct values posted before; a plain row that is one (``sum(p) == s``, ``s``
    # fixed since) still gets one
    stated = {key(row) for row in (*distinct_sums, *implied) if len(row) > 1}
    values = {i: b // a for i, a, b in fixed if b % a == 0}
    sums = []  # of the reduced rows, and of the plain sums posted, by the values fixed now
    for row in (*solved, *(_without(r, values) for r in plain)):
        terms = tuple((i, a) for i, a in row.items() if i != RHS)
        if (
            len(terms) > 1
            and (row_key := key(row)) not in stated
            and any(distinct_in(terms, g) for g in groups)
        ):
            sums.append((terms, row[RHS]))
            stated.add(row_key)
    return FixedByEqualities(fixed, tuple(sums)) if fixed or sums else None


def _without(row: Row, values: dict[int, int]) -> Row:
    """``row`` with the variables of ``values`` replaced by them (moved right)."""
    out = {i: a for i, a in row.items() if i not in values}
    out[RHS] = row[RHS] - sum(a * values[i] for i, a in row.items() if i in values)
    return out


def key(row: Row) -> frozenset[tuple[int, int]]:
    """``row`` in lowest terms, up to its sign (its least variable's coefficient made positive):
    which rows are the same equality."""
    first = row[min(row.keys() - {RHS}, default=RHS)]
    g = gcd(*row.values()) * (1 if first > 0 else -1)
    return frozenset((i, a // g) for i, a in row.items())


def row_of(terms: tuple[tuple[int, int], ...], rhs: int, D: list[Dom], off: list[int]) -> Row:
    """``sum(a * x_i) == rhs`` over ``terms`` ``(i, a)``, the fixed variables' values moved right."""
    row: Row = {}
    for i, a in terms:
        d = D[i]
        if fixed_domain(d):
            rhs -= a * int(low(d, off[i]))  # a fixed value: an int
        else:
            row[i] = row.get(i, 0) + a
    row[RHS] = rhs
    return row


def distinct_groups(model: Model) -> list[frozenset[tuple[int, int]]]:
    """The ``distinct`` groups of ``model``, and the cliques of a pigeonhole within none of them:
    places kept apart by ``element`` or implications (Langford's positions stated cell by cell,
    see :func:`~relqueens.fd.implied.implied_indices`), variables pairwise ``!=``. (A group's
    own pigeonhole holds its members open when it was posted: within the group, left out.)"""
    groups, off = list(model.groups), model.off
    held = [frozenset(i for i, _ in g) for g in groups]
    for p in model.posted(Pigeonhole):
        if not any(p.members <= h for h in held):
            held.append(p.members)
            groups.append(frozenset((x, s - off[x]) for x, s in p.shifts))  # one base: apart alike
    return groups


def _permutation_sums(
    groups: list[frozenset[tuple[int, int]]], off: list[int], D: list[Dom]
) -> list[Row]:
    """``sum(x_i + c_i) == sum of the values`` for each of the ``distinct`` ``groups`` whose
    members (bitset domains) have among them as many values as there are members."""
    rows = []
    for group in groups:
        if spread(group, off) > DENSE:
            continue  # values far apart: far more of them than members
        union = aligned_union(D, aligned(tuple(group), off))
        if union is None or union.bit_count() != len(group):
            continue
        total = sum(Domain(union, min(off[i] + c for i, c in group)))  # its values, bit by bit
        rows.append(
            row_of(tuple((i, 1) for i, _ in group), total - sum(c for _, c in group), D, off)
        )
    return rows


def reduced(rows: list[Row]) -> list[tuple[int, Row]] | None:
    """The nonzero rows of the reduced echelon form of ``rows``, each with its pivot (each in
    lowest terms, its pivot in no other row), or ``None`` if they contradict each other (``0 ==
    b``, ``b != 0``)."""
    done: list[tuple[int, Row]] = []  # (pivot, row)
    for row in rows:
        for pivot, by in done:  # eliminate the pivots found so far
            row = _eliminate(row, by, pivot)
        pivot = next((i for i in row if i != RHS), RHS)
        if pivot == RHS:
            if row.get(RHS):
                return None
            continue
        done = [(p, _eliminate(other, row, pivot)) for p, other in done]  # and this one before
        done.append((pivot, row))
    return done


def _eliminate(row: Row, by: Row, pivot: int) -> Row:
    """``row`` without a ``pivot`` term, by ``by`` (which has one), in lowest terms."""
    f = row.get(pivot)
    if not f:
        return row
    a = by[pivot]
    out = {i: v * a for i, v in row.items()}
    for i, v in by.items():
        w = out.get(i, 0) - f * v
        if w or i == RHS:  # a row keeps its right-hand side, 0 or not
            out[i] = w
        else:
            del out[i]
    g = 0
    for v in out.values():
        g = gcd(g, v)
    return {i: v // g for i, v in out.items()} if g > 1 else out
