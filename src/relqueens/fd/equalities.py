"""The values that a model's linear equalities fix together, though none fixes them alone.

A magic square whose sum is a variable ``S`` has ``2n + 2`` lines, each
``sum(line) == S``, and its cells a permutation of ``1..n²``. Each line
alone bounds ``S`` loosely; the rows together hold every cell once, so ``n *
S`` is the sum of all the values, and ``S`` is fixed (5×5: 12 s of search
to 0.03 s). :func:`fixed_by_equalities` finds such values by Gauss-Jordan
elimination, in integers, over the equalities posted (:class:`Linear` ``==``
rows and ``x == y + c``) and the sums of the ``distinct`` groups whose
members have exactly as many values as there are members (a permutation: the
sum of its values). A variable is fixed by the equalities exactly when its
unit row lies in the space they span, that is when its own row of the
reduced echelon form has no other term. Models of more than :data:`ROWS`
equalities are left alone (their elimination would cost more than it saves).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import gcd

from .domain import Dom
from .post import Constraint, Posting
from .propagators import EqOffset, Linear, low
from .propagators import fixed as fixed_domain
from .store import Model

ROWS = 64
"""The most equalities eliminated (beyond, none are)."""

Row = dict[int, int]
"""A row ``sum(a * x_i) == b``: ``{i: a}``, with ``b`` at :data:`RHS`."""

RHS = -1
"""The key of a row's right-hand side (no variable has a negative index)."""


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class FixedByEqualities(Constraint):
    """``a * x_i == b`` for each ``(i, a, b)`` that :func:`fixed_by_equalities` found."""

    fixed: tuple[tuple[int, int, int], ...] | None
    """``None``: the equalities contradict each other."""
    name = "fixed_by_equalities"

    def post_on(self, posting: Posting) -> bool:
        return self.fixed is not None and all(
            posting.unary(i, a, -b, "==") for i, a, b in self.fixed
        )


def fixed_by_equalities(model: Model, D: list[Dom]) -> FixedByEqualities | None:
    """What the equalities of ``model`` fix together, of the variables open in domains ``D``
    (``None``: nothing; too few equalities to combine, or too many).

    >>> from relqueens.fd.store import Model
    >>> m = Model()
    >>> for v in "xyz":
    ...     m.apply(("var", v, 0, False))
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
    off, rows = model.off, list[Row]()
    for e in model.props:
        if e[0] != "prop":
            continue
        p = e[1]
        if isinstance(p, Linear) and p.op == "==" and not p.implied:
            rows.append(_row(p.terms, -p.k, D, off))
        elif type(p) is EqOffset:  # x == y + c
            rows.append(_row(((p.x, 1), (p.y, -1)), p.c, D, off))
    if not rows:
        return None
    rows = [r for r in (*rows, *_permutation_sums(model, D)) if len(r) > 1 or r[RHS]]
    if len(rows) < 2 or len(rows) > ROWS:
        return None
    solved = _reduced(rows)
    if solved is None:
        return FixedByEqualities(None)
    fixed = tuple(
        (i, a, row[RHS]) if a > 0 else (i, -a, -row[RHS])
        for row in solved
        if len(row) == 2
        for i, a in row.items()
        if i != RHS and not fixed_domain(D[i])
    )
    return FixedByEqualities(fixed) if fixed else None


def _row(terms: tuple[tuple[int, int], ...], rhs: int, D: list[Dom], off: list[int]) -> Row:
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


def _permutation_sums(model: Model, D: list[Dom]) -> list[Row]:
    """``sum(x_i + c_i) == sum of the values`` for each ``distinct`` group of ``model`` whose
    members (bitset domains) have among them as many values as there are members."""
    off, rows = model.off, []
    for group in model.groups:
        if any(type(D[i]) is not int for i, _ in group):
            continue
        union = 0
        base = min(off[i] + c for i, c in group)
        for i, c in group:
            union |= D[i] << (off[i] + c - base)
        if union.bit_count() != len(group):
            continue
        total = sum(base + k for k in range(union.bit_length()) if union >> k & 1)
        rows.append(_row(tuple((i, 1) for i, _ in group), total - sum(c for _, c in group), D, off))
    return rows


def _reduced(rows: list[Row]) -> list[Row] | None:
    """The nonzero rows of the reduced echelon form of ``rows`` (each in lowest terms, its
    pivot in no other row), or ``None`` if they contradict each other (``0 == b``, ``b != 0``)."""
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
    return [row for _, row in done]


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
