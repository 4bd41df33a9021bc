"""Dual branching: which member of a permutation takes a value, or which term of an exactly-one
is 1, for the restarts' dives.

Where a group of variables must all differ and has just as many values as
members (a permutation), every value is taken by exactly one of them, so a
search may branch on a value instead of a variable: one branch for each
member that can still take it. A value few members can take is a choice as
narrow as a variable with few values, and often narrower: on Langford's
L(3, n), positions covered by few triples are where the search fails first
(exact cover's rule, Knuth's Algorithm X). :func:`dives` is a depth-first
search that at each node takes the narrowest of both: the variable its
selector picks, or the value of a permutation with fewer candidates than
that variable has values (ties among values at random), and tries its
branches in random order: a fixed value order made every dive alike on
Langford's sequences, so restarts found nothing a first dive had not.

A count that exactly one of its 0/1 terms is 1 is such a choice too: one
branch for each open term, set to 1. Over 0/1 labels (every open one has
two values) a dive branches on the open exactly-one with the fewest open
terms while any is left, which is Algorithm X's rule itself on an exact
cover stated as a 0/1 matrix: N-queens 30 so stated, first by ``ff``, went
from 119 s (no solution in its dives by variable) to 0.07 s. It is for the
restarts (:mod:`relqueens.fd.restarts`), which look for any first solution
and leave the labeling's own order to the labeling.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from random import Random
from typing import TYPE_CHECKING, NamedTuple

from ..logic.limits import current_budget
from .dives import Selector
from .domain import Dom, two_valued
from .globals import AllDistinctProp
from .propagators import BoolSum, Pigeonhole, aligned, aligned_union, fixpoint

if TYPE_CHECKING:
    from .store import Model

Group = tuple[tuple[int, int], ...]
"""A group's members as ``(variable, shift)``: the shift aligns its bitset on the group's base."""


class Duals(NamedTuple):
    """What a dive may branch on besides variables: permutations' values and exactly-ones."""

    groups: list[Group]
    rows: list[BoolSum]


LEVELS = 8
"""Values that up to this many members can take are counted (a value more can take is never chosen)."""


def permutations(model: Model, D: list[Dom], idxs: list[int]) -> list[Group]:
    """The all-different groups of ``model`` over as many values as members in ``D``, aligned on
    one base, whose members are all labeled (in ``idxs``); none unless every label is a bitset.

    A member left open by the labeling could stay open at one of its leaves
    (an answer with residual domains), which branching on its values would
    miss.
    """
    if any(type(D[i]) is not int for i in idxs):
        return []
    groups = [p.shifts for p in model.posted(Pigeonhole)]
    groups += [aligned(p.members, model.off) for p in model.posted(AllDistinctProp)]
    labeled = set(idxs)
    return [
        g
        for g in dict.fromkeys(groups)
        if labeled.issuperset(j for j, _ in g) and _spare(D, g) == 0
    ]


def exactly_ones(model: Model, D: list[Dom], idxs: list[int]) -> list[BoolSum]:
    """The counts of ``model`` that exactly one of their 0/1 terms is 1, whose terms are all labeled
    (in ``idxs``); none unless every label is a bitset of at most two values (an exact cover
    stated as 0/1 variables, where a dive takes a row before any variable: Algorithm X's rule)."""
    if not two_valued(D, idxs):
        return []
    labeled = set(idxs)
    return [p for p in model.posted(BoolSum) if p.lo == p.hi == 1 and labeled.issuperset(p.vars)]


def narrowest_row(D: list[Dom], rows: list[BoolSum], rng: Random) -> list[tuple[int, Dom]] | None:
    """The branches ``(variable, 2)`` (the variable is 1) of an open exactly-one with the fewest
    open terms (ties at random), or ``None`` if every one has a term at 1.

    A 0/1 domain is 1 (just 0), 2 (just 1) or 3 (open), as :class:`BoolSum` has them.

    >>> row = BoolSum(((0, 1), (1, 1), (2, 1)), -1, "==")
    >>> narrowest_row([3, 1, 3], [row], Random(0))
    [(0, 2), (2, 2)]
    >>> narrowest_row([1, 2, 1], [row], Random(0)) is None
    True
    """
    fewest, ties = 0, list[tuple[BoolSum, tuple[Dom, ...]]]()
    for row in rows:
        domains = row.domains(D)
        if 2 in domains:
            continue  # one term is 1 already
        count = domains.count(3)
        if not ties or count < fewest:
            fewest, ties = count, [(row, domains)]
        elif count == fewest:
            ties.append((row, domains))
    if not ties:
        return None
    row, domains = ties[rng.randrange(len(ties))] if len(ties) > 1 else ties[0]
    return [(j, 2) for j, d in zip(row.vars, domains) if d == 3]


def _spare(D: list[Dom], group: Group) -> int:
    union = aligned_union(D, group)
    if union is None:
        return -1  # a wide member: not branched on by value
    return union.bit_count() - len(group)


def narrowest_value(
    D: list[Dom], groups: list[Group], below: int, rng: Random
) -> list[tuple[int, Dom]] | None:
    """The branches ``(variable, bit)`` for a value of a permutation with fewer than ``below`` candidates, or ``None``.

    The value is one with the fewest candidates (ties at random); counts are
    bit-sliced: bits ``c0`` to ``c3`` of a value's count of open members that can take it
    are four bitsets, summed as a ripple-carry adder (``many``: sixteen or more).

    >>> narrowest_value([0b11, 0b11, 0b111], [((0, 0), (1, 0), (2, 0))], 3, Random(0))
    [(2, 4)]
    """
    top = min(below - 1, LEVELS)  # the counts that may still win (fewer than the best so far)
    best: tuple[int, int, Group] | None = None
    for group in groups:
        if top < 1:
            break  # a value of one candidate: none is narrower
        c0 = c1 = c2 = c3 = many = taken = 0
        for j, s in group:
            d = D[j] << s
            if not d & (d - 1):
                taken |= d
                continue
            carry = c0 & d
            c0 ^= d
            d = c1 & carry
            c1 ^= carry
            carry = c2 & d
            c2 ^= d
            many |= c3 & carry
            c3 ^= carry
        some = c0 | c1 | c2 | c3 | many
        if (some | taken).bit_count() != len(group):
            continue  # more values than members (a value may go untaken); fewer: propagation fails it
        some &= ~many & ~taken
        for count in range(1, top + 1):
            few = some
            for bits, on in ((c0, count & 1), (c1, count & 2), (c2, count & 4), (c3, count & 8)):
                few &= bits if on else ~bits
            if few:
                best = (count, _pick(few, rng), group)
                top = count - 1
                break
    if best is None:
        return None
    _, bit, group = best
    return [(j, bit >> s) for j, s in group if (D[j] << s) & bit]


def _pick(bits: int, rng: Random) -> int:
    """One of the set bits of ``bits``, at random."""
    k = rng.randrange(bits.bit_count())
    for _ in range(k):
        bits &= bits - 1
    return bits & -bits


def dives(
    D0: list[Dom],
    model: Model,
    idxs: list[int],
    select: Selector,
    duals: Duals,
    rng: Random,
    prune: Callable[[list[Dom]], bool],
) -> Iterator[list[Dom]]:
    """Depth-first solutions of ``idxs`` from ``D0`` (at a fixpoint), branching on variables,
    values of permutations or exactly-ones (``duals``).

    ``prune(D)`` is called before each branch (it may raise to stop the
    dive); each branch counts as a node of the query's budget.
    """
    budget = current_budget()
    first = _branches(D0, idxs, select, duals, rng, model)
    if first is None:
        yield D0
        return
    stack = [(D0, first)]
    while stack:
        D, branches = stack[-1]
        if not branches or not prune(D):
            stack.pop()
            continue
        if budget is not None:
            budget.tick()
        i, bit = branches.pop()
        C = D[:]
        C[i] = bit
        if not fixpoint(C, {i}, model):
            continue
        below = _branches(C, idxs, select, duals, rng, model)
        if below is None:
            yield C
        else:
            stack.append((C, below))


def _branches(
    D: list[Dom],
    idxs: list[int],
    select: Selector,
    duals: Duals,
    rng: Random,
    model: Model,
) -> list[tuple[int, Dom]] | None:
    """A node's branches in random order, the first last (``None``: every label fixed)."""
    if duals.rows:  # every label 0/1: an open row with fewest open terms, if any is left
        branches = narrowest_row(D, duals.rows, rng)
        if branches is not None:
            rng.shuffle(branches)
            return branches
    k = select(D, idxs, 0, model)
    if k < 0:
        return None
    i = idxs[k]
    d = D[i]
    assert type(d) is int  # dives run over bitsets only
    branches = narrowest_value(D, duals.groups, d.bit_count(), rng)
    if branches is None:
        branches = []
        while d:
            bit = d & -d
            branches.append((i, bit))
            d ^= bit
    rng.shuffle(branches)
    return branches
