"""Eliminations: short equations that a model's linear equations imply together.

Each line of a 5 x 5 pandiagonal magic square sums to 65: twenty equations
of five terms, none of which says much alone. Combined, they cancel down to
a hundred of four terms, ``a + b == c + d`` (two cells of a row and two of
a broken diagonal balance). Bounds reasoning on each line never finds them;
posted, they prune as soon as three of the four cells are known. The first
square by ``ff``: 3.3 s to 0.23 s.

The equations are brought to reduced row echelon form (in integers, as
:mod:`~relqueens.fd.equalities` does). Any equation they imply is then one
combination of the reduced rows: its coefficient at a pivot column is that
row's weight times the pivot's. So one with at most
:data:`TERMS` terms combines at most that many rows, and the rest of its
terms lie in the columns no row pivots on, all but a few cleared by the
weights. Single rows, pairs, triples and quadruples are tried; each
equation found is posted as :class:`ImpliedSum`, implied. They are found
before a labeling (a few milliseconds) and posted when its first search
without them runs out of nodes (not while it finds solutions often), as the
implied groups are (:mod:`~relqueens.fd.implied`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations

from .domain import Dom
from .equalities import RHS, Row, key, reduced, row_of
from .post import Constraint, Posting
from .propagators import Linear
from .relaxation import linear_rows
from .store import Model

Equation = tuple[tuple[tuple[int, int], ...], int]
"""``(terms, k)``: ``sum(a_i * x_i) + k == 0``, the terms ``(index, a_i)`` by index."""

TERMS = 4
"""The most terms of an implied equation."""

LEAST = 3
"""The fewest terms of an implied equation (one of two terms is left out: in a Golomb ruler's
differences, ``d01 + d19 == 55`` once the ends are fixed, it only woke more often than the
equations it comes from, each of two terms by then)."""

CELLS = 4096
"""Systems with more coefficients (equations times variables) are not reduced."""

WORK = 40000
"""The most columns the sets of reduced rows tried hold together (pairs first, then
triples...; past it, no more are tried)."""


class ImpliedSum(Linear):
    """A :class:`~relqueens.fd.propagators.Linear` ``==`` that other equations imply (left out of residuals)."""

    __slots__ = ()
    implied = True


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class ImpliedEquations(Constraint):
    """The equations :func:`implied_equations` found, each an :class:`ImpliedSum` (by index)."""

    equations: tuple[Equation, ...]
    name = "implied_equations"

    def post_on(self, posting: Posting) -> bool:
        return all(posting.attach(ImpliedSum(t, k, "==", self)) for t, k in self.equations)


def implied_equations(model: Model, D: list[Dom]) -> ImpliedEquations | None:
    """The equations that the posted ones imply within ``D`` (a fixed variable is its
    value), shorter than any posted of three terms or more and of :data:`TERMS` terms at
    most, but those posted (``None``: none, or found before on this branch).

    An equation longer than those it comes from is left out: the sum of two differences,
    ``x2 - x0 == d0 + d1``, would only wake more often than the two do.

    >>> from relqueens import fd, vars
    >>> from relqueens.fd.post import post_into
    >>> from relqueens.fd.store import store_of
    >>> from relqueens.logic.state import State
    >>> a, b, c, d, e, f, g = vars(7)
    >>> S = State()
    >>> post_into(S, [fd.sum([a, b, c, d, e], "==", 20), fd.sum([c, d, e, f, g], "==", 20),
    ...               fd.in_(a, b, c, d, e, f, g, fd.interval(0, 9))])
    True
    >>> store = store_of(S)
    >>> implied_equations(store.current(), store.D).equations  # a + b == f + g
    ((((0, 1), (1, 1), (5, -1), (6, -1)), 0),)
    """
    if model.posted(ImpliedSum):
        return None
    off = model.off
    rows = [row_of(p.terms, -p.k, D, off) for p in linear_rows(model) if p.op == "=="]
    rows = [r for r in rows if len(r) > 2]  # two terms or more
    most = min(TERMS, min((len(r) - 2 for r in rows if len(r) > 3), default=0))
    if len(rows) < 2 or most < LEAST or len(rows) * len({i for r in rows for i in r}) > CELLS:
        return None
    solved = reduced(rows)
    if solved is None:
        return None  # no solution (0 == b): propagation fails on its own
    stated = {key(r) for r in rows}
    found = {k for r in _combinations(solved, most) if (k := key(r)) not in stated}
    if not found:
        return None
    equations = ((tuple(sorted((i, a) for i, a in k if i != RHS)), -dict(k)[RHS]) for k in found)
    return ImpliedEquations(tuple(sorted(equations)))


def _combinations(solved: list[tuple[int, Row]], most: int) -> Iterator[Row]:
    """Combinations of one to ``most`` of the reduced rows ``solved`` (each with its pivot)
    that have :data:`LEAST` to ``most`` terms.

    ``t`` rows combine into so few terms only if their weights clear all but ``most - t`` of
    the columns they hold outside the pivots: so all but that many of those columns are held
    by two of the rows or more, and the weights clear ``t - 1`` of the first ``most`` of them
    (the cofactors of those columns, when they are independent).
    """
    pivots = {p for p, _ in solved} | {RHS}
    free = [{i for i in row if i not in pivots} for _, row in solved]
    rows = [row for _, row in solved]
    for row in rows:
        if LEAST < len(row) <= most + 1:
            yield row
    work = 0
    for t in range(2, most + 1):
        for chosen in combinations(range(len(rows)), t):
            seen, twice = set[int](), set[int]()
            for k in chosen:
                twice |= seen & free[k]
                seen |= free[k]
            work += len(seen) + 1
            if work > WORK:
                return
            if len(seen) - len(twice) > most - t:
                continue  # too many columns held by one row alone, which no weight clears
            columns = sorted(seen)
            for cleared in combinations(columns[:most], t - 1):
                w = _cofactors([[rows[k].get(c, 0) for c in cleared] for k in chosen])
                if all(w):
                    combined = _short(w, [rows[k] for k in chosen], columns, most)
                    work += most
                    if combined is not None:
                        yield combined


def _cofactors(m: list[list[int]]) -> list[int]:
    """Weights, one per row of the ``t x (t - 1)`` matrix ``m``, under which its columns sum to
    zero (all zero if its columns are dependent): the signed minors without each row."""
    return [(-1) ** k * _det(m[:k] + m[k + 1 :]) for k in range(len(m))]


def _det(m: list[list[int]]) -> int:
    """The determinant of a square matrix of at most three rows (``TERMS - 1``)."""
    if len(m) == 1:
        return m[0][0]
    if len(m) == 2:
        return m[0][0] * m[1][1] - m[0][1] * m[1][0]
    (a, b, c), (d, e, f), (g, h, i) = m
    return a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)


def _short(w: list[int], rows: list[Row], columns: list[int], most: int) -> Row | None:
    """The sum of ``rows`` times their weights ``w`` (``columns``: those they hold but their
    pivots), if it has :data:`LEAST` to ``most`` terms (``None``: it has more, found column
    by column)."""
    combined: Row = {}
    for c in columns:
        a = sum(x * row.get(c, 0) for x, row in zip(w, rows))
        if a:
            combined[c] = a
            if len(combined) + len(rows) > most:
                return None
    held = set(columns)
    for x, row in zip(w, rows):  # its pivot (in no other row) and its right-hand side
        for i, a in row.items():
            if i not in held:
                combined[i] = combined.get(i, 0) + x * a
    return combined if len(combined) > LEAST else None
