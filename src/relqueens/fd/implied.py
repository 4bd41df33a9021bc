"""Implied constraints found in a model before labeling: unary resources, ``all_distinct``
groups, bin loads and the places of a sequence stated piece by piece.

A job shop is often written one pair of tasks at a time, ``(s1 + d1 <= s2) |
(s2 + d2 <= s1)``. Each pair propagates only when one order becomes
impossible; the tasks of one machine together allow much more (edge
finding: a task that cannot end before the others all end goes after all
of them). :func:`implied_resources` finds the tasks that are pairwise
disjoint by such disjunctions (each posted as one
:class:`~relqueens.fd.scheduling.EitherOrder`, or stated by reified
precedences ``b <=> x + d <= y`` and a sum ``b1 + b2 >= 1`` or ``== 1`` over
the two orders, or ``fd.implies(fd.eq(b1, 0), ...)`` of the other, or by the two
sides of a 0/1 variable, ``fd.implies(b, x + d <= y)`` and ``fd.implies(fd.eq(b,
0), y + e <= x)``, as CP-SAT's ``OnlyEnforceIf(b)`` and ``OnlyEnforceIf(b.Not())``
state it: ft06 so stated, over a minute to 0.05 s), and two
tasks of a ``cumulative`` too tall to run side by side (of one resource or
of several: a project's tasks that share no resource but each exclude the
other on one), and groups them into cliques, each a
:class:`~relqueens.fd.scheduling.CumulativeProp` of limit 1, posted as
implied (it shows in no residual). A random project of 20 tasks on two
resources: over 40 s to 0.08 s; of 16: over 40 s to 5.6 s. Pairs whose
separation depends on the task next (a setup time, ``x + d_x + s_xy <= y``)
make each task as long as its least separation, and the resource keeps the
others as gaps: a task then lasts until the nearest task that may still
follow it, and a ranking keeps each pair's own separation (one machine with
setup times by distance, 10 jobs: 42 s to 0.6 s).

A graph colouring or a pigeonhole is often written one edge at a time, ``x
!= y``: value elimination only acts once a variable is fixed, where the
variables of a clique together allow no more values than they have among
them (ten pigeons in nine holes). :func:`implied_distinct` groups the
variables pairwise different into cliques of four or more, each with about
as many values as members (:attr:`~relqueens.fd.propagators.Pigeonhole.SLACK`
to spare) a :class:`~relqueens.fd.propagators.Pigeonhole`, implied, as
``fd.distinct`` gets (ten pigeons: 1.5 s to 0.001 s). A group with more
values to spare, a clique or a ``distinct``, gets its pigeonhole later, from
branch and bound, once a bound leaves it none (:func:`loose_groups`,
:func:`bound_pigeonholes`).

A bin packing is often written by the bin of each item, its loads by
reified tests, ``sum(w_i * (bin_i == b)) <= cap_b`` for each bin ``b``: each
load is bounded alone, and no one sees that the items' total must fit in the
bins they may still go to. :func:`implied_loads` finds the items whose every
bin has such a row and adds :class:`Loads`, which fails once the bins left
hold less than the items weigh (Martello and Toth's first bound, ``L1``): a
bin packing of 14 items is proved to need 6 bins at the root, where the
search took 0.4 s.

A sequence is often written cell by cell through ``element``, ``X[p] == k``:
two numbers cannot share a cell, yet nothing says the places are all
different, nor that a cell must be some index's place. :func:`implied_indices`
finds the indices kept apart and gives each clique of them, about as many
as their cells, a :class:`~relqueens.fd.propagators.Pigeonhole`, implied: a
cell only one index can still reach is its place (Langford's L(2, 7) by
cells, leftmost: 6.8 s to 0.022 s). Implications ``p == i ==> X[i + s] ==
v``, one for each value of ``p``, place ``v`` the same way, the cells
numbered as the model numbers its variables, or the other way round (a
sequence whose cells get their domains together; L(2, 8) so, all by cells,
leftmost: over 60 s to 0.26 s).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations
from typing import TypeAlias, TypeVar

from .arith import Reified, ReifiedValue
from .domain import DENSE, Dom, Domain
from .globals import (
    AllDistinctProp,
    CardinalityFlow,
    CardinalityProp,
    ElementValueProp,
    bit_values,
    count_sums,
)
from .implications import ValueImplication
from .post import Constraint, Posting
from .propagators import (
    BoolCount,
    LeOffset,
    Linear,
    Pigeonhole,
    Propagator,
    aligned,
    aligned_union,
    high,
    low,
    narrow,
    spread,
)
from .relaxation import linear_rows
from .scheduling import CumulativeProp, EitherOrder
from .store import Model

Task = tuple[int, int]
"""``(start index, duration)``."""
Place = tuple[int, int, int]
"""``(p, s, v)``: the cell at ``p + s`` of a list holds ``v``."""
Shifts = tuple[tuple[int, int], ...]
"""A group's terms as :func:`~relqueens.fd.propagators.aligned` gives them: ``(x, shift)``."""
_N = TypeVar("_N", int, Task)


def _precedences(model: Model) -> dict[int, tuple[int, int, int]]:
    """Each 0/1 variable that reifies ``x + d <= y``: ``b -> (x, y, d)``."""
    found = {}
    for p in model.posted(Reified):
        if p.op == "<=" and len(p.yes.terms) == 2:
            (i, a), (j, c) = p.yes.terms
            if (a, c) == (1, -1):
                found[p.b] = (i, j, p.yes.k)
            elif (a, c) == (-1, 1):
                found[p.b] = (j, i, p.yes.k)
    return found


def _either(p: Propagator) -> tuple[int, int] | None:
    """``(b1, b2)`` if ``p`` says ``b1 + b2 >= 1`` or ``b1 + b2 == 1``."""
    if not isinstance(p, Linear) or len(p.terms) != 2:  # a Linear, or a BoolSum: the same sum
        return None
    (i, a), (j, c) = p.terms
    if p.op == "<=" and a == c == -1 and p.k == 1:
        return i, j
    if p.op == "==" and a == c and (a, p.k) in ((1, -1), (-1, 1)):
        return i, j
    return None


def disjoint_pairs(pairs: list[tuple[int, int, int, int]]) -> dict[Task, set[Task]]:
    """The tasks no two of which may overlap, as a graph: task -> the tasks disjoint from it,
    from ``(x, dx, y, dy)`` pairs (``x + dx <= y`` or ``y + dy <= x``).

    A start whose pairs give it different durations (a setup time that
    depends on the task next, ``x + d + s_xy <= y``) is one task of its
    least duration: a relaxation, since each of its pairs holds it apart
    for at least that long.
    """
    pairs = [(x, dx, y, dy) for x, dx, y, dy in pairs if x != y and dx > 0 and dy > 0]
    least: dict[int, int] = {}
    for x, dx, y, dy in pairs:
        least[x] = min(least.get(x, dx), dx)
        least[y] = min(least.get(y, dy), dy)
    graph: dict[Task, set[Task]] = {}
    for x, _, y, _ in pairs:
        graph.setdefault((x, least[x]), set()).add((y, least[y]))
        graph.setdefault((y, least[y]), set()).add((x, least[x]))
    return graph


TALL_TASKS = 128
"""The most tasks of a ``cumulative`` whose pairs are looked at for those too tall together."""


def _too_tall(model: Model) -> Iterator[tuple[int, int, int, int]]:
    """``(x, dx, y, dy)`` for each two tasks of a ``cumulative`` (not already unary) whose heights
    together pass its limit: they cannot overlap either."""
    for p in model.posted(CumulativeProp):
        if p.implied or p.busy is not None:
            continue
        tasks = [(x, d, h) for x, d, h in zip(p.vars, p.dur, p.height, strict=True) if d and h]
        if len(tasks) > TALL_TASKS:
            continue  # its pairs cost n^2: its tallest apart are a unary resource already
        for k, (x, dx, hx) in enumerate(tasks):
            for y, dy, hy in tasks[k + 1 :]:
                if hx + hy > p.limit:
                    yield x, dx, y, dy


def _either_orders(model: Model, D: list[Dom]) -> Iterator[tuple[int, int, int, int]]:
    """``(x, dx, y, dy)`` for each constraint ``x + dx <= y or y + dy <= x`` of ``model``
    (domains ``D``)."""
    for either in model.posted(EitherOrder):
        yield either.x, either.a, either.y, either.b
    prec = _precedences(model)
    if not prec:
        return
    pairs = [pair for entry in model.props if entry[0] == "prop" and (pair := _either(entry[1]))]
    # b implies one order, not b the other: b + c >= 1 (b one of them, or a third 0/1 variable)
    implying: dict[tuple[int, int], list[int]] = {}  # a literal -> the orders it implies
    literals = _literals(model, D)
    for b in prec:  # each order implies itself, and is implied by what its flag stands for
        for lit in {(b, 1), literals.get(b, (b, 1))}:
            implying.setdefault(lit, []).append(b)
    for p in model.posted(LeOffset):  # p.x implies p.y, an order
        if p.c == 0 and p.y in prec and (premise := literals.get(p.x)) is not None:
            implying.setdefault(premise, []).append(p.y)
    for (v, value), orders in implying.items():
        if value == 1:
            pairs += [(b, c) for b in orders for c in implying.get((v, 0), ())]
    for b, c in pairs:
        if b in prec and c in prec:
            (x, y, dx), (y2, x2, dy) = prec[b], prec[c]
            if (x, y) == (x2, y2):
                yield x, dx, y, dy


def _literals(model: Model, D: list[Dom]) -> dict[int, tuple[int, int]]:
    """``f -> (v, a)`` for each 0/1 variable ``f`` that holds exactly when the 0/1 variable
    ``v`` is ``a``: ``f`` itself (``a`` 1), or the test of a ``v`` it reifies (``f == (v == a)``,
    ``f == (v != 1 - a)``)."""
    off = model.off
    binary = [low(d, o) >= 0 and high(d, o) <= 1 for d, o in zip(D, off, strict=True)]
    found = {f: (f, 1) for f, yes in enumerate(binary) if yes}
    for p in model.posted(ReifiedValue):  # its flag p.b is 0/1
        if binary[p.x] and p.c in (0, 1):
            found[p.b] = (p.x, p.c if p.same else 1 - p.c)
    return found


def cliques(graph: dict[_N, set[_N]], least: int = 3) -> list[list[_N]]:
    """Greedy maximal cliques of ``graph`` covering its edges, of ``least`` tasks or more.

    From each node (most neighbours first), each edge not yet covered grows
    a clique by the common neighbours in order (see :func:`bit_cliques`).

    >>> g = {1: {2, 3}, 2: {1, 3}, 3: {1, 2}, 4: set()}
    >>> cliques(g)
    [[1, 2, 3]]
    """
    nodes = sorted(graph)
    at = {t: k for k, t in enumerate(nodes)}
    adjacent = [sum(1 << at[u] for u in graph[t]) for t in nodes]
    return [[nodes[k] for k in c] for c in bit_cliques(adjacent, least)]


def bit_cliques(adjacent: list[int], least: int = 3) -> list[list[int]]:
    """:func:`cliques` of the graph whose node ``k`` has the neighbours of bitset ``adjacent[k]``.

    The graph is read as bitsets (a node's neighbours, a clique's members and
    what they have in common), so a 7 x 7 queen graph's 476 edges take a
    tenth of a millisecond.

    >>> bit_cliques([0b110, 0b101, 0b011, 0])
    [[0, 1, 2]]
    """
    covered = [0] * len(adjacent)  # per node, the nodes a clique found shares with it
    found: list[list[int]] = []
    by_degree = sorted(
        (k for k, a in enumerate(adjacent) if a), key=lambda k: (-adjacent[k].bit_count(), k)
    )
    for a in by_degree:
        rest = adjacent[a] & ~covered[a]
        while rest:  # a's neighbours u in order, each edge (a, u) not covered yet
            bit = rest & -rest
            clique, common = (1 << a) | bit, adjacent[a] & adjacent[bit.bit_length() - 1]
            grow = common
            while grow:  # the common neighbours in order, each if it meets all taken so far
                w = grow & -grow
                grow ^= w
                if common & w:
                    clique |= w
                    common &= adjacent[w.bit_length() - 1]
            members, left = [], clique
            while left:
                k = (left & -left).bit_length() - 1
                left &= left - 1
                members.append(k)
                covered[k] |= clique
            rest = adjacent[a] & ~covered[a] & -(bit << 1)  # the later ones still uncovered
            if len(members) >= least:
                found.append(members)
    return found


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class ImpliedResources(Constraint):
    """Posts the unary resources :func:`implied_resources` found (by index: the model is this state's)."""

    resources: tuple[tuple[Task, ...], ...]
    pairwise: tuple[bool, ...]
    """Per resource: whether some of its pairs have no constraint of their own keeping them apart
    (two tasks of a ``cumulative`` too tall together), so the resource keeps them apart itself."""
    gaps: tuple[tuple[tuple[int, int], int], ...] = ()
    """``((x, y), a)``: ``x + a <= y`` when ``x`` goes before ``y``, where ``a`` passes ``x``'s
    duration on its resource (a setup time that depends on the task next)."""
    name = "implied_resources"

    def post_on(self, posting: Posting) -> bool:
        D = posting.store.D
        for found, pairwise in zip(self.resources, self.pairwise, strict=True):
            # a start with no bounds yet (its domain unset) stays out: the pairs still hold it
            tasks = [(x, d) for x, d in found if type(D[x]) is int or D[x].is_finite()]
            if len(tasks) < 2:
                continue
            starts = tuple(x for x, _ in tasks)
            durations = tuple(d for _, d in tasks)
            on = set(starts)
            gaps = {pair: a for pair, a in self.gaps if pair[0] in on and pair[1] in on}
            p = CumulativeProp(starts, durations, (1,) * len(tasks), 1, self, True, pairwise, gaps)
            if not posting.attach(p):
                return False
        return True


def implied_resources(model: Model, D: list[Dom]) -> ImpliedResources | None:
    """The unary resources implied by pairwise disjunctions in ``model`` (domains ``D``) not
    yet posted (``None``: none)."""
    if any(type(p.source) is ImpliedResources for p in model.posted(CumulativeProp)):
        return None  # found before, on this branch
    orders = list(_either_orders(model, D))
    found = cliques(disjoint_pairs([*orders, *_too_tall(model)]))
    if not found:
        return None
    kept = {frozenset((x, y)) for x, _, y, _ in orders}
    pairwise = tuple(
        any(frozenset((a, b)) not in kept for (a, _), (b, _) in combinations(c, 2)) for c in found
    )
    least = {x: d for c in found for x, d in c}
    gaps: dict[tuple[int, int], int] = {}
    for x, dx, y, dy in orders:
        for a, b, gap in ((x, y, dx), (y, x, dy)):
            if gap > least.get(a, gap):
                gaps[a, b] = max(gaps.get((a, b), gap), gap)
    return ImpliedResources(tuple(tuple(c) for c in found), pairwise, tuple(gaps.items()))


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class ImpliedDistinct(Constraint):
    """Posts the cliques :func:`implied_distinct` found (by index: the model is this state's)."""

    groups: tuple[tuple[int, ...], ...]
    name = "implied_distinct"

    def post_on(self, posting: Posting) -> bool:
        D = posting.store.D
        for group in self.groups:
            members = [(x, 0) for x in group if type(D[x]) is int]  # bitsets, as a Pigeonhole reads
            if len(members) > 2 and not posting.pigeonhole(members, self, members):
                return False  # fewer values than members (with values to spare, none is posted)
        return True


class ImpliedAllDistinct(AllDistinctProp):
    """An :class:`~relqueens.fd.globals.AllDistinctProp` a crossing ``distinct`` group implies
    (left out of residuals and of ``ffc``'s degrees)."""

    __slots__ = ()
    implied = True


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class DecidedRelations(Constraint):
    """The linear relations (``==``, ``<=``) of reifications whose 0/1 is fixed, each posted as
    the plain relation it now is (or its negation): the rows that branch and bound's
    relaxations, the knapsacks and the equalities read."""

    rows: tuple[tuple[tuple[tuple[int, int], ...], int, str], ...]
    name = "decided_relations"

    def post_on(self, posting: Posting) -> bool:
        return all(posting.attach(Linear(terms, k, op, self)) for terms, k, op in self.rows)


def decided_relations(model: Model, D: list[Dom]) -> DecidedRelations | None:
    """The reified linear relations of ``model`` that a fixed 0/1 in ``D`` decides, as rows
    (``None``: none). ``b == (w . x <= C)`` with ``b`` fixed to 1 after it was posted is
    the knapsack row ``w . x <= C``: 20 items, 280 to 1.2 ms.

    >>> from relqueens.fd.store import Model
    >>> m = Model()
    >>> m.apply(("var", ("x", "y", "b"), 0, False))
    >>> m.apply(("prop", Reified(((0, 2), (1, 3)), -6, "<=", 2)))   # b == (2x + 3y <= 6)
    >>> decided_relations(m, [0b1111, 0b1111, 0b11]) is None
    True
    >>> decided_relations(m, [0b1111, 0b1111, 0b10]).rows
    ((((0, 2), (1, 3)), -6, '<='),)
    >>> decided_relations(m, [0b1111, 0b1111, 0b01]).rows      # 2x + 3y > 6: -2x - 3y + 7 <= 0
    ((((0, -2), (1, -3)), 7, '<='),)
    """
    rows = []
    for p in model.posted(Reified):
        db = D[p.b]
        if type(db) is int and db and not db & (db - 1):
            q = p.enforce[model.off[p.b] + db.bit_length() - 1]
            if type(q) is Linear and q.op in ("==", "<="):
                rows.append((q.terms, q.k, q.op))
    return DecidedRelations(tuple(rows)) if rows else None


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class ImpliedMatchings(Constraint):
    """Posts an :class:`ImpliedAllDistinct` over each group :func:`implied_matchings` found."""

    groups: tuple[Shifts, ...]
    name = "implied_matchings"

    def post_on(self, posting: Posting) -> bool:
        off = posting.store.current().off
        return all(  # x + shift - off[x]: the group's values less a common base, as distinct
            posting.attach(ImpliedAllDistinct(tuple((x, s - off[x]) for x, s in shifts), self))
            for shifts in self.groups
        )


def implied_matchings(model: Model) -> ImpliedMatchings | None:
    """The ``distinct`` groups of about as many values as members that cross another such group
    (a Sudoku's or a Latin square's lines: their pigeonholes look for naked sets), to be
    propagated domain consistent (Régin's matching) once a first search without it runs out;
    ``None``: none, each held by an ``all_distinct`` already, or found before on this branch.

    Value elimination, hidden singles and naked pairs and triples leave Hall sets of four or
    more values unseen: Norvig's Sudoku that has no solution, by ``distinct``, took 3.9 s.
    """
    if model.posted(ImpliedAllDistinct):
        return None
    held = {frozenset(aligned(p.members, model.off)) for p in model.posted(AllDistinctProp)}
    groups = tuple(
        p.shifts for p in model.posted(Pigeonhole) if p.hall and frozenset(p.shifts) not in held
    )
    return ImpliedMatchings(groups) if groups else None


def implied_distinct(model: Model) -> ImpliedDistinct | None:
    """The cliques of four or more variables pairwise ``!=`` in ``model`` not yet grouped
    (``None``: none, or found before on this branch)."""
    if not may_group(model) or any(
        type(p.source) is ImpliedDistinct for p in model.posted(Pigeonhole)
    ):
        return None
    found = _ne_cliques(model)
    return ImpliedDistinct(found) if found else None


def _ne_cliques(model: Model) -> tuple[tuple[int, ...], ...]:
    """The cliques of four or more variables pairwise ``!=`` in ``model`` that no ``distinct``
    group holds."""
    adjacent = [0] * len(model.vars)  # by variable: the others it is != to
    for entry in model.props:
        if entry[0] == "ne" and entry[3] == 0:
            _, x, y, *_ = entry
            if x != y:
                adjacent[x] |= 1 << y
                adjacent[y] |= 1 << x
    stated = [sum(1 << i for i, _ in group) for group in model.groups]
    found = tuple(
        tuple(c)
        for c in bit_cliques(adjacent, least=4)
        if not any(sum(1 << i for i in c) & ~g == 0 for g in stated)
    )
    return found


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Pigeonholes(Constraint):
    """Posts a :class:`~relqueens.fd.propagators.Pigeonhole` for each group of
    :func:`bound_pigeonholes` (by index: the model is this state's)."""

    groups: tuple[Shifts, ...]
    """Each group's terms :func:`~relqueens.fd.propagators.aligned`."""
    name = "pigeonholes"

    def post_on(self, posting: Posting) -> bool:
        return all(posting.add_pigeonhole(shifts, self) for shifts in self.groups)


def loose_groups(model: Model, root: list[Dom]) -> list[Shifts]:
    """The groups of terms pairwise different (``distinct`` groups, cliques of ``x != y``), as
    :func:`~relqueens.fd.propagators.aligned` terms, whose domains ``root`` leave more values to
    spare than a :class:`~relqueens.fd.propagators.Pigeonhole` takes (those within it have one,
    or a stronger propagator, as a ``circuit``'s successors do).

    Branch and bound tightens its bound after the groups were posted: a graph
    of 30 nodes whose colours are ``0..9`` has too many for a pigeonhole on
    its cliques, until the colours left are as many as a clique's nodes
    (:func:`bound_pigeonholes`).
    """
    have = {p.members for p in model.posted(Pigeonhole)}
    groups = [list(g) for g in model.groups]
    if may_group(model):
        groups += [[(x, 0) for x in c] for c in _ne_cliques(model)]
    loose = []
    for members in groups:
        if (
            len(members) < 3
            or frozenset(x for x, _ in members) in have
            or spread(members, model.off) > DENSE
        ):
            continue
        shifts = aligned(members, model.off)
        union = aligned_union(root, shifts)
        if union is not None and union.bit_count() - len(members) > Pigeonhole.SLACK:
            loose.append(shifts)
    return loose


def bound_pigeonholes(groups: list[Shifts], D: list[Dom]) -> Pigeonholes | None:
    """A :class:`~relqueens.fd.propagators.Pigeonhole` for each of the :func:`loose_groups`
    whose domains ``D`` leave no value to spare: a permutation, or too few values (``None``:
    none).

    Not those with a value or two to spare, as at posting: a graph's many
    small cliques would cost each node more than they prune (a 6 x 6 queen
    graph's fewest colours, 0.37 s so, 0.66 s with them).
    """
    found = tuple(
        shifts
        for shifts in groups
        if (union := aligned_union(D, shifts)) is not None and union.bit_count() <= len(shifts)
    )
    return Pigeonholes(found) if found else None


class Loads(Propagator):
    """Items ``vars`` (each the bin it goes to) weigh at least ``weights``; bin ``v`` holds at
    most ``cap`` of its row's weights, ``bins[v] = (cap, row)`` (implied).

    The bins the items may still go to must hold their total; what they
    hold beyond it (the slack) bounds how far below its capacity each may
    stay, so a bin whose possible items weigh less than its capacity less
    the slack fails, and an item it cannot do without is put in it
    (Shaw's bin packing propagation, over the loads the rows bound). Bitset
    domains, aligned at value ``base``; a bin with no row is unbounded (no
    check). O(items x bins) a call: slow, once a round.

    >>> bins = {0: (100, (60, 58, 51)), 1: (100, (60, 58, 51))}
    >>> Loads((0, 1, 2), (60, 58, 51), bins, 0).propagate([0b11] * 3, [0] * 3, set(), 0)
    True
    >>> Loads((0, 1, 2), (60, 58, 51), {0: bins[0]}, 0).propagate([0b1] * 3, [0] * 3, set(), 0)
    False
    >>> D = [0b01, 0b11, 0b11]       # 60 in bin 0; 40 and 30 in two bins of 70: slack 10
    >>> bins = {0: (70, (60, 40, 30)), 1: (70, (60, 40, 30))}
    >>> Loads((0, 1, 2), (60, 40, 30), bins, 0).propagate(D, [0] * 3, set(), 0), D
    (True, [1, 2, 2])
    """

    __slots__ = ("base", "bins", "total")
    implied = slow = True

    def __init__(
        self,
        items: tuple[int, ...],
        weights: tuple[int, ...],
        bins: dict[int, tuple[int, tuple[int, ...]]],
        base: int,
    ) -> None:
        self.vars, self.total, self.base, self.source = items, sum(weights), base, None
        self.bins = [bins.get(v) for v in range(base, max(bins) + 1)]
        """Each bin's ``(cap, row)`` from ``base`` on (``None``: no row bounds it)."""

    def propagate(self, D: list[Dom], off: list[int], queue: set[int], i: int) -> bool:
        base, union, aligned = self.base, 0, []
        for x in self.vars:
            d, shift = D[x], off[x] - base
            if type(d) is not int:
                return True
            if shift >= 0:
                d <<= shift
            elif d & ((1 << -shift) - 1):
                return True  # a bin below the rows: unbounded
            else:
                d >>= -shift
            union |= d
            aligned.append(d)
        bins = self.bins
        if union >> len(bins):
            return True  # a bin beyond the rows: unbounded
        room, used, rest = 0, [], union
        while rest:
            low = rest & -rest
            k = low.bit_length() - 1
            row = bins[k]
            if row is None:
                return True
            room += row[0]
            used.append((k, low, *row))
            rest ^= low
        slack = room - self.total
        if slack < 0:
            return False
        for k, bit, cap, weights in used:
            need = cap - slack
            if need <= 0:
                continue
            held = [(a, x, d) for a, x, d in zip(weights, self.vars, aligned) if d & bit]
            most = sum(a for a, _, _ in held)
            if most < need:
                return False
            for a, x, d in held:
                if (
                    most - a < need
                    and d != bit
                    and not narrow(D, queue, x, 1 << (k + base - off[x]))
                ):
                    return False  # x must go to bin k: not if another bin needs it too
        return True


LoadGroup: TypeAlias = (
    "tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, tuple[int, tuple[int, ...]]], ...]]"
)
"""Items, their least weights, and their bins' ``(value, (cap, row weights))``."""


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class ImpliedLoads(Constraint):
    """Posts the :class:`Loads` :func:`implied_loads` found (by index: the model is this state's)."""

    found: tuple[LoadGroup, ...]
    name = "implied_loads"

    def post_on(self, posting: Posting) -> bool:
        for items, weights, bins in self.found:
            loads = Loads(items, weights, dict(bins), min(v for v, _ in bins))
            loads.source = self
            if not posting.attach(loads):
                return False
        return True


def implied_loads(model: Model) -> ImpliedLoads | None:
    """The items whose bins each bound their load by a reified row, ``sum(w_i * b_i) <= cap``
    with ``b_i == (x_i == v)``, two bins or more (``None``: none, or found before on this branch)."""
    if model.posted(Loads):
        return None
    tests = _value_tests(model)
    if not tests:
        return None
    groups: dict[frozenset[int], dict[int, tuple[int, dict[int, int]]]] = {}
    for p in linear_rows(model):
        if p.op != "<=" or any(j not in tests or a <= 0 for j, a in p.terms):
            continue
        placed = {tests[j][0]: a for j, a in p.terms}
        values = {tests[j][1] for j, _ in p.terms}
        if len(values) != 1 or len(placed) != len(p.terms):
            continue  # one bin's row, each item once
        (v,) = values
        same = groups.setdefault(frozenset(placed), {})
        if v not in same or -p.k < same[v][0]:
            same[v] = (-p.k, placed)
    found: list[LoadGroup] = []
    for items, bins in groups.items():
        if len(bins) > 1 and len(items) > 1:
            order = tuple(sorted(items))
            weights = tuple(min(placed[x] for _, placed in bins.values()) for x in order)
            rows = tuple(
                (v, (cap, tuple(placed[x] for x in order)))
                for v, (cap, placed) in sorted(bins.items())
            )
            found.append((order, weights, rows))
    return ImpliedLoads(tuple(found)) if found else None


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class ImpliedIndices(Constraint):
    """Posts a :class:`~relqueens.fd.propagators.Pigeonhole` on each clique of the places
    :func:`implied_indices` found kept apart, if they have about as many cells as members (by
    index: the model is this state's)."""

    lists: tuple[tuple[Place, ...], ...]
    """Per list, the places its cells get fixed values at."""
    name = "implied_indices"

    def post_on(self, posting: Posting) -> bool:
        D, model = posting.store.D, posting.store.current()
        off = model.off
        unequal = {e[1:4] for e in model.props if e[0] == "ne"}  # x != y + c
        for places in self.lists:
            terms = posting.rooted([(i, s) for i, s, _ in places])
            adjacent = [0] * len(places)
            for a, b in combinations(range(len(places)), 2):
                (i, s, v), (j, t, w) = places[a], places[b]
                if (
                    v != w  # one cell cannot hold both
                    or (terms[a][0] == terms[b][0] and terms[a][1] != terms[b][1])  # p, p + k
                    or (i, j, t - s) in unequal
                    or (j, i, s - t) in unequal
                    or not Domain(D[i], off[i] + s) & Domain(D[j], off[j] + t)
                ):
                    adjacent[a] |= 1 << b
                    adjacent[b] |= 1 << a
            for clique in bit_cliques(adjacent):
                members = [terms[k] for k in clique]
                if len(set(members)) < len(members) or not posting.pigeonhole(
                    members, self, [places[k][:2] for k in clique]
                ):
                    return False  # one term twice: kept apart from itself
        return True


def implied_indices(model: Model, D: list[Dom]) -> ImpliedIndices | None:
    """The lists whose cells three or more places ``p + s`` get fixed values at (``None``:
    none, or found before on this branch): by ``element``, or by implications (see
    :func:`_implications`).

    A Langford sequence stated cell by cell, ``X[p_k] == k`` and ``X[p_k + k + 1] == k``, never
    says that the positions are all different: two values cannot share a cell, and the two
    places of one value are ``k + 1`` apart. Places of different values, or of one value but
    provably apart (``p`` and ``p + k``, a stated ``!=``, disjoint domains), form cliques.
    A clique of three or more places with about as many cells gets a pigeonhole: a cell
    only one place can still reach is that place's (the constraints already keep the places
    apart once fixed). All of L(2, 7) labeled cell by cell, leftmost: 6.8 s to 0.022 s.
    """
    if any(type(p.source) is ImpliedIndices for p in model.posted(Pigeonhole)):
        return None
    lists: dict[tuple[int, ...], dict[Place, None]] = {}
    for p in model.posted(ElementValueProp):
        lists.setdefault(p.xs, {})[p.i, 0, p.value] = None
    lists[()] = dict.fromkeys(_implications(model, D))
    found = tuple(tuple(places) for places in lists.values() if len(places) > 2)
    return ImpliedIndices(found) if found else None


def _implications(model: Model, D: list[Dom]) -> list[Place]:
    """Places stated by implications ``p == i  ==>  x == v`` (see
    :func:`_value_implications`), one for each value ``i`` of ``p``, the variables ``x`` at
    ``i + s`` in the model's order or in the reverse order (a sequence's cells given their
    domains together, either way): ``(p, s, v)``, its cell the variable numbered ``p + s``,
    or ``-(p + s)`` (whichever order places more)."""
    ways: tuple[dict[Place, set[int]], ...] = ({}, {})  # (p, s, v) -> the values of p seen
    for i, c, x, v in _value_implications(model):
        for way, sign in zip(ways, (1, -1)):
            way.setdefault((i, sign * x - c, v), set()).add(c)
    off = model.off
    placed = [
        [
            place
            for place, seen in way.items()
            if type(D[place[0]]) is int and seen.issuperset(Domain(D[place[0]], off[place[0]]))
        ]
        for way in ways
    ]
    return max(placed, key=len)


def _value_implications(model: Model) -> Iterator[tuple[int, int, int, int]]:
    """``(p, i, x, v)`` for each implication ``p == i  ==>  x == v`` of ``model``: a
    :class:`~relqueens.fd.implications.ValueImplication`, or reified tests, the first's flag
    at most the second's."""
    off = model.off
    for q in model.posted(ValueImplication):
        yield q.x, off[q.x] + q.pa, q.y, off[q.y] + q.pb
    tests = _value_tests(model)
    for p in model.posted(LeOffset):
        if p.c == 0 and p.x in tests and p.y in tests:
            yield *tests[p.x], *tests[p.y]


def _value_tests(model: Model) -> dict[int, tuple[int, int]]:
    """Each 0/1 variable that reifies a test ``x == c``: ``b -> (x, c)``."""
    return {p.b: (p.x, p.c) for p in model.posted(ReifiedValue) if p.same == 1}


Counts: TypeAlias = tuple[tuple[int, int], ...]
"""``(value, count variable)`` pairs, by value."""


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class ImpliedCounts(Constraint):
    """Posts, for each list :func:`implied_counts` found, a hidden count of each value left
    uncounted, then the flow of all the counts and the sums they imply (by index: the model
    is this state's)."""

    lists: tuple[tuple[tuple[int, ...], Counts, tuple[int, ...]], ...]
    """Per list: its variables, its counts, the values it may take that none counts."""
    name = "implied_counts"

    def post_on(self, posting: Posting) -> bool:
        for xs, counts, uncounted in self.lists:
            hidden = tuple((v, posting.hidden(0, len(xs))) for v in uncounted)
            if hidden and not posting.attach(CardinalityProp(xs, hidden, self, implied=True)):
                return False
            every = tuple(sorted(counts + hidden))
            flow = CardinalityFlow(xs, every, self, implied=True)
            if not (posting.attach(flow) and count_sums(posting, xs, every, self)):
                return False
        return True


UNCOUNTED = 4
"""A list's counts make one ``global_cardinality`` with at most one value uncounted for each
this many counted (each uncounted value gets a hidden count)."""


def implied_counts(model: Model, D: list[Dom]) -> ImpliedCounts | None:
    """The lists of distinct variables whose values are counted one value at a time, by
    ``fd.count`` or by reified tests summed (``sum(b_x) == c``, ``b_x == (x == v)``), all or
    all but a few of them, and have no flow yet (``None``: none; a list joined before on
    this branch has its flow).

    Counted together, they are a ``global_cardinality``: a magic series over
    ``0..n`` (the value ``n`` never counted), or stated by reified tests,
    gets its flow and its sums (:func:`~relqueens.fd.globals.count_sums`)
    when a labeling starts, before it searches: the counts one by one cost
    too much a node to search without them first (a magic series of 20
    over ``0..20`` by ``ff``: 1.1 s, 20 ms with them). A list whose counts
    cover every value has them from posting already.
    """
    flows = model.posted(CardinalityFlow)
    lists: dict[tuple[int, ...], dict[int, int]] = {}
    for p in model.posted(CardinalityProp):
        if not p.implied:
            for value, c in p.counts:
                lists.setdefault(tuple(sorted(p.xs)), {}).setdefault(value, c)
    sums = model.posted(BoolCount)
    tests = _value_tests(model) if sums else {}
    for q in sums:
        pairs = [tests.get(b) for b in q.counted]
        if q.shift == 0 and None not in pairs and len({v for _, v in pairs}) == 1:  # type: ignore[misc]  # no None
            xs = tuple(sorted(x for x, _ in pairs))  # type: ignore[misc]
            lists.setdefault(xs, {}).setdefault(pairs[0][1], q.total)  # type: ignore[index]
    done = {tuple(sorted(p.xs)) for p in flows}
    found = []
    for xs, counts in lists.items():
        if xs in done or len(counts) < 2 or len(set(xs)) < len(xs):
            continue
        most = len(counts) + len(counts) // UNCOUNTED  # values, counted or not, at most
        if any(type(D[i]) is not int or D[i].bit_count() > most for i in xs) or any(
            type(D[c]) is not int for c in counts.values()
        ):
            continue  # bitsets only, as the flow reads them, and not too many values
        taken = {v for x in xs for v in bit_values(D[x], model.off[x])}
        uncounted = tuple(sorted(taken - counts.keys()))
        if len(uncounted) * UNCOUNTED <= len(counts):
            found.append((xs, tuple(sorted(counts.items())), uncounted))
    return ImpliedCounts(tuple(found)) if found else None


def may_group(model: Model) -> bool:
    """Whether ``model`` has the six ``x != y`` a clique of four needs, at least (cheaply: what
    :func:`implied_distinct` may group)."""
    return sum(1 for e in model.props if e[0] == "ne" and e[3] == 0) >= 6


CLIQUES = (ImpliedDistinct, ImpliedIndices)
"""The implied constraints that add cliques of no group (pigeonholes): the equalities, read again
after them, may find their permutations' sums (see
:func:`~relqueens.fd.equalities.distinct_groups`)."""


def implied(model: Model, D: list[Dom]) -> list[Constraint]:
    """What :func:`implied_resources`, :func:`implied_distinct`, :func:`implied_matchings`,
    :func:`implied_loads` and :func:`implied_indices` find in ``model`` (domains ``D``): the
    resources, ``distinct`` groups, matchings, loads and places kept apart."""
    found = (
        implied_resources(model, D),
        implied_distinct(model),
        implied_matchings(model),
        implied_loads(model),
        implied_indices(model, D),
    )
    return [c for c in found if c is not None]
