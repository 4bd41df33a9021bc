"""Dichotomic probes: branch and bound on a schedule looks for its bound by halving.

Branch and bound improves its best solution one step at a time, each time
searching under the bound it has, in the labeling's order. On a schedule
(tasks on resources, a makespan minimised) labeled by start times that
order is far from a good schedule: la01, a 10 x 5 job shop, found no
solution in a minute with ``ff``. A probe asks instead for a solution whose
objective lies in the better half of what is still open, ``lo..t`` with
``t`` halfway to the best found, and dives for it the way schedulers
build one (*schedule or postpone*: the task that can start earliest starts
then, or waits until its earliest start moves), restarting with budgets
that grow as Luby's sequence and random ties:

* it finds one: the best so far improves, by up to half the range;
* propagation refutes the target before any choice: no solution is that
  good, and ``lo`` rises to ``t + 1``, a proved bound that branch and bound
  uses as well (postponing is a heuristic, so a dive that finds nothing
  proves nothing);
* it runs out of nodes: nothing is learnt, and the next probe aims higher.

Halving stalls a few steps above the optimum: la02 reached 660 (the
optimum is 655) and no dive from the root found better in a minute. So a
round goes on with *neighbourhoods* of the best schedule (large
neighbourhood search, by precedences): a random share of the tasks is set
free, the others keep their order on each resource, and short dives look
for a better schedule among those. la02 then takes a few seconds.

A round ends when the range is closed, or every target left ran out of
nodes and the neighbourhoods (from the second round on: at the root the
complete search gets its chance first) had a probe's nodes. Branch and bound
runs one round first, then, after a round that improved the best, another
at its next node; otherwise a round with twice the nodes each time it has
itself spent as many as the last round did. It still proves the optimum,
by its complete search under the bound: the probes only hand it a better
bound, sooner.

On unary resources (every task of a machine apart from the others) the
search is *ranking* as well (:mod:`relqueens.fd.ranking`), complete, so
that a probe that runs out of orders refutes its target: a probe with a
target first dives, a quarter as many nodes again as it may rank (a dive
schedules a task a node, where ranking takes about a fixpoint a task to
reach its first schedule: la01's optimum, 666, in 200 nodes instead of
3,000), then ranks from the root, trying first the order of the best
schedule (solution-guided). A round also takes the next nodes of one ranking under
the best, resumed where it stopped, round after round: when it has
searched every order, the best found is optimal. That proves what
labeling start times does not (la04: 590, in a few hundred nodes), so the
rounds follow each other at once, without the labeling's nodes in between.

After halving, a job shop's orders are walked by tabu search
(:mod:`relqueens.fd.tabu`), whose better schedules propagation checks.

Each round begins by *shaving* the tasks' starts at the root, the objective
better than the best (:mod:`relqueens.fd.shaving`), within the round's
nodes: a task left with no start proves the best optimal, and the shaved
domains become the root that the probes with a target and the ranking
under the best search from.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import pairwise
from random import Random
from typing import TYPE_CHECKING, Literal

from ..logic.limits import current_budget
from .dives import Allowance, Search, Spent, luby
from .domain import Dom
from .propagators import LeOffset, fixed, fixpoint, high, keep_ge, keep_le, low
from .ranking import Ordered, Resource, ranking
from .scheduling import CumulativeProp
from .shaving import Trials, shave
from .store import FDStore
from .tabu import STALL, TURN, Shop, Walk

if TYPE_CHECKING:
    from .store import Model

PROBE_NODES = 64
"""A probe's nodes in the first round, beside four for each variable labeled."""


SHARE = 0.3
"""The share of the tasks the first neighbourhood of the best schedule sets free (see
:meth:`Probes.neighbourhood`)."""

SHAKES = 4
"""A round's walk stops after as many shakes' moves without a better schedule (:data:`STALL`
each): on la16, la18, la20 and abz6 (10 x 10) 78 s in all where it stopped after one, 62 s."""


SHAVING = 4
"""A round shaves the root with this many times a probe's nodes: a shave to the end is the proof
of abz6 (10 x 10, 943; about 2,000 tests, where a round's probe has 944 nodes), 7.2 s to 3.7 s;
la20 10.8 s to 5.3 s."""

HALVING = 4
"""A round that no longer halves ranks this many times a probe's nodes instead, about what its
halving took: once the walk has found the optimum, halving's probes under it only refute lower
targets, and the ranking under the best is the proof (la19, 10 x 10: 110 s to 29 s; ft10 proved
in 83 s, where it was not in 300 s)."""


class _Found(Exception):
    """A probe found a solution within its target."""


def scheduling(model: Model) -> bool:
    """True when ``model`` has a resource (``cumulative``, ``disjunctive``, or one found in pairs)."""
    return bool(model.posted(CumulativeProp))


class Probes:
    """Dichotomic probes on objective variable ``j`` of a branch and bound.

    The objective is read as ``z = value`` (``sense == "min"``) or ``z =
    -value`` (``"max"``), so that smaller is better. ``best`` is the branch
    and bound's list holding the best value found (empty: none);
    ``record(D)`` records a solution; ``tighten(D)`` is its pruning at a
    node. :attr:`lo` is the proved bound: no solution has ``z < lo``.
    """

    def __init__(
        self,
        search: Search,
        store: FDStore,
        idxs: list[int],
        j: int,
        sense: str,
        best: list[int | float],
        incumbent: list[list[Dom]],
        record: Callable[[list[Dom]], bool],
        tighten: Callable[[list[Dom]], bool],
    ) -> None:
        self.search, self.store, self.idxs, self.j, self.sign = search, store, idxs, j, sense
        self.best, self.incumbent, self.record, self.tighten = best, incumbent, record, tighten
        d, off = store.D[j], store.model.off[j]
        self.lo: int = low(d, off) if sense == "min" else -high(d, off)  # type: ignore[assignment]  # finite: see usable
        resources = store.current().posted(CumulativeProp)
        self.tasks = sorted({x for p in resources for x in p.vars} & set(idxs))
        """The labeled start variables of tasks on resources, which probes schedule."""
        self.resources = [
            [(x, d) for x, d, h in zip(p.vars, p.dur, p.height, strict=True) if d and h]
            for p in resources
        ]
        """Each resource's tasks that take time on it, as ``(start, duration)``."""
        labeled = set(idxs)
        self.unary: list[Resource] = [
            list(zip(p.busy, p.busy_dur, strict=True))
            for p in resources
            if p.busy is not None and all(x in labeled or fixed(store.D[x]) for x in p.busy)
        ]
        """The unary resources' tasks, which :meth:`rank` orders: only resources whose tasks are
        all labeled (an open task may stay open in an answer, where ranking would refute it)."""
        self.gaps = {pair: a for p in resources for pair, a in p.gaps.items()}
        """``x + a <= y`` when ``x`` goes before ``y`` on a resource, where ``a`` passes ``x``'s
        duration there (see :class:`~relqueens.fd.scheduling.CumulativeProp`)."""
        self.ranks_all = {x for r in self.unary for x, _ in r} >= {
            x for tasks in self.resources for x, _ in tasks if x in labeled
        }
        """True when the unary resources hold every labeled task that takes time: the ranking is
        then the better complete search, and rounds follow each other at once (where it leaves
        other tasks to its leaves, back-to-back rounds starved the labeling)."""
        self.root = store.D
        """The root's domains, shaved for ``z`` better than some best (see :meth:`_shave`): every
        better solution is in them, and the probes and the ranking search from them."""
        self.shaved: int | float | None = None
        """The best under which :attr:`root` was shaved to the end without a proof."""
        self.ranks: Iterator[object] | None = None
        """The ranking's nodes (:func:`~relqueens.fd.ranking.ranking`), made at its first turn."""
        self.share = SHARE
        """The share of the tasks a neighbourhood sets free (see :meth:`neighbourhood`)."""
        durations = [d for p in resources for d in p.dur]
        self.spread = sum(durations) / max(len(durations), 1) / 2
        """How far apart two earliest starts may be and still come in either order in a shuffled dive."""
        self.unit = 2 * len(self.tasks) + 16
        """A dive's nodes, times Luby's sequence."""
        self.limit = PROBE_NODES + 4 * len(idxs)
        """Each probe's nodes in the next round (doubling from round to round)."""
        self.rng = Random(0)
        self.walk: Walk | Literal[False] | None = None
        """The tabu search over the unary resources' orders (:mod:`relqueens.fd.tabu`), made at
        its first turn (``False``: the model is not one it walks)."""
        self.rounds = 0
        self.halving = True
        """Whether the rounds halve: once a round's halving finds no better schedule, a complete
        ranking (:attr:`ranks_all`) takes its nodes instead (see :data:`HALVING`)."""
        self.due = 0
        """Branch and bound's nodes until the next round (as many as the last round spent; the
        first round is at its root)."""

    @staticmethod
    def usable(store: FDStore, j: int) -> bool:
        """Whether objective ``j`` has finite bounds (a range to halve)."""
        d, off = store.D[j], store.model.off[j]
        return type(low(d, off)) is int and type(high(d, off)) is int

    def _z(self, v: int | float) -> int:
        return int(v) if self.sign == "min" else -int(v)

    def _within(self, d: Dom, t: int | None) -> Dom:
        """Objective domain ``d`` kept to ``lo <= z <= t`` (``t`` ``None``: no top)."""
        off = self.store.model.off[self.j]
        if self.sign == "min":
            d = keep_ge(d, off, self.lo)
            return d if t is None else keep_le(d, off, t)
        d = keep_le(d, off, -self.lo)
        return d if t is None else keep_ge(d, off, -t)

    def bound(self, d: Dom) -> Dom:
        """Objective domain ``d`` without the values the probes proved unreachable."""
        return self._within(d, None)

    def _refuted(self, t: int) -> None:
        """A search for ``z <= t`` found nothing: no solution has ``z <= t``, or is better than
        the best, which ``tighten`` pruned by (it may have found a better best meanwhile, and
        cut the search there, under ``t``)."""
        top = t + 1 if not self.best else min(t + 1, self._z(self.best[0]))
        self.lo = max(self.lo, top)

    def closed(self) -> bool:
        """True when the probes proved the best found optimal."""
        return bool(self.best) and self.lo >= self._z(self.best[0])

    def probe(self, t: int | None, limit: int) -> str:
        """Look for a solution with ``z <= t`` in ``limit`` nodes: ``found``, ``none`` (proved) or ``spent``.

        On unary resources, with a target, dives take a quarter more nodes first.
        """
        D = self._propagated(t)
        if D is None:
            return "none"  # refuted before any choice: a proof
        model = self.store.current()
        if self.unary and t is not None:
            if self._dives(D[:], model, limit // 4) == "found":
                return "found"
            return self._ranked(D, model, limit)
        return self._dives(D, model, limit)

    def _propagated(self, t: int | None) -> list[Dom] | None:
        """The root's domains with ``z <= t`` (``t`` ``None``: the store's, no target), propagated;
        ``None`` when propagation refutes them."""
        D = (self.store.D if t is None else self.root)[:]
        j = self.j
        D[j] = self._within(D[j], t)
        if not D[j] or not fixpoint(D, {j}, self.store.current()) or not self.tighten(D):
            return None
        return D

    def _dives(self, D: list[Dom], model: Model | Ordered, limit: int) -> str:
        """Dives from ``D`` (propagated by ``model``) in ``limit`` nodes: ``found`` or ``spent``."""

        used, dive = 0, 0
        try:
            while used < limit:  # dives, restarted with their nodes growing as Luby's sequence
                allowance = Allowance(min(luby(dive) * self.unit, limit - used), self.tighten)
                try:
                    for D1 in self._set_times(D, model, allowance.prune, dive > 0):
                        # _first raises at a solution: nothing is yielded, the search runs out
                        next(
                            self.search(
                                D1,
                                self.store,
                                self.idxs,
                                "min",
                                "up",
                                accept=self._first,
                                prune=allowance.prune,
                            ),
                            None,
                        )
                except Spent:
                    pass
                finally:
                    used += allowance.used
                dive += 1
        except _Found:
            return "found"
        finally:
            self.due += used
        return "spent"  # or dives that found nothing: not a proof (postponing is a heuristic)

    def neighbourhood(self, limit: int) -> str:
        """Dives for a schedule better than the best, near it, in ``limit`` nodes.

        A share (:attr:`share`) of the tasks is set free (:meth:`_free`); the
        others keep their order on each resource (a task that ended before
        the next began there still does), and the dives look for a better
        schedule among those. The outcome says how many to free next time:
        ``none`` (no better schedule keeps that order) frees a few more,
        ``spent`` fewer (a spent dive costs more than a refutation). With
        every task free, ``none`` is a proof: nothing is better than the best.
        """
        off, best = self.store.model.off, self.incumbent[0]
        start = {x: low(best[x], off[x]) for tasks in self.resources for x, _ in tasks}
        free = self._free(start)
        top = self._z(self.best[0])
        model, D, queue = self._ordered(start, free, top - 1)
        self.due += 1  # a node, found or not
        budget = current_budget()
        if budget is not None:
            budget.tick()
        if not fixpoint(D, queue, model) or not self.tighten(D):
            if len(free) == len(start):
                self._refuted(top - 1)
            self.share = min(self.share * 1.03, 1.0)
            return "none"
        outcome = self._dives(D, model, limit)
        if outcome == "spent":
            self.share *= 0.9
        return outcome

    def _free(self, start: dict[int, int | float]) -> set[int]:
        """The tasks a neighbourhood sets free, by turns at random: each task with probability
        :attr:`share`, or the tasks that start in a window of time of the best schedule
        (``start``), as many as that share.

        Windows mend a stretch of the schedule at once, where tasks scattered
        at random leave each other little room: la16 (10 x 10) reached its
        optimum, 945, in 39 s where it took 127 s.
        """
        rand = self.rng.random
        if rand() < 0.5:
            return {x for x in start if rand() < self.share}
        order = sorted(start, key=start.__getitem__)
        k = min(len(order), max(1, round(self.share * len(order))))
        i = self.rng.randrange(len(order) - k + 1)
        return set(order[i : i + k])

    def _ordered(
        self, start: dict[int, int | float], free: set[int], t: int
    ) -> tuple[Ordered, list[Dom], set[int]]:
        """The model with the tasks but ``free`` kept in the order of ``start`` on each resource,
        the domains with ``z <= t``, and the variables to propagate."""
        before: list[LeOffset] = []
        for tasks in self.resources:
            kept = sorted((start[x], x, d) for x, d in tasks if x not in free)
            for (sa, a, da), (sb, b, _) in pairwise(kept):
                gap = self.gaps.get((a, b), da)
                if sa + gap <= sb:
                    before.append(LeOffset(a, b, -gap))
        D = self.store.D[:]
        D[self.j] = self._within(D[self.j], t)
        queue = {self.j} | {x for p in before for x in p.vars}
        return Ordered(self.store.current(), before), D, queue

    def _set_times(
        self,
        D0: list[Dom],
        model: Model | Ordered,
        prune: Callable[[list[Dom]], bool],
        shuffled: bool,
    ) -> Iterator[list[Dom]]:
        """Domains with every task started, by *schedule or postpone*, depth first.

        The open task that can start earliest (ties: the least slack) starts
        then, or, on the other branch, is postponed: it is not chosen again
        until propagation moves its earliest start. ``shuffled``: ties at the
        earliest start are broken at random instead.
        """
        off, tasks, budget = model.off, self.tasks, current_budget()
        spread = self.spread if shuffled else 0
        rand = self.rng.random
        stack: list[tuple[list[Dom], dict[int, int | float]]] = [(D0, {})]
        while stack:
            if budget is not None:
                budget.tick()
            D, waiting = stack.pop()
            if not prune(D):
                continue
            pick, key = -1, None
            for i in tasks:
                d = D[i]
                if (not d & (d - 1)) if type(d) is int else d.lo == d.hi:
                    continue
                e = low(d, off[i])
                if waiting.get(i) == e:
                    continue
                k = (e + spread * rand(), high(d, off[i])) if spread else (e, high(d, off[i]))
                if key is None or k < key:
                    pick, key = i, k
            if pick < 0:
                if all(fixed(D[i]) for i in tasks):
                    yield D
                continue  # every open task waits: none can start where it could
            e = low(D[pick], off[pick])
            stack.append((D, {**waiting, pick: e}))
            child = D[:]
            child[pick] = keep_le(child[pick], off[pick], e)
            if fixpoint(child, {pick}, model):
                stack.append((child, waiting))

    def rank(self, limit: int) -> None:
        """The ranking's next ``limit`` nodes: when it ends, the best found is optimal (or there is none)."""
        if self.ranks is None:
            leaf = self._leaf(self.record)
            self.ranks = ranking(
                self.root[:],
                self.store.current(),
                self.unary,
                self.tighten,
                leaf,
                self._guide,
                self.gaps,
            )
        if self._steps(self.ranks, limit):  # every node searched or cut
            d, off = self.store.D[self.j], self.store.model.off[self.j]
            worst = high(d, off) if self.sign == "min" else -low(d, off)
            self.lo = self._z(self.best[0]) if self.best else int(worst) + 1
            self.unary = []

    def _ranked(self, D: list[Dom], model: Model, limit: int) -> str:
        """A ranking of its own from ``D`` in ``limit`` nodes, until a solution: ``found``,
        ``none`` (it searched every order: a proof) or ``spent``."""

        try:
            ended = self._steps(
                ranking(
                    D,
                    model,
                    self.unary,
                    self.tighten,
                    self._leaf(self._first),
                    self._guide,
                    self.gaps,
                ),
                limit,
            )
        except _Found:
            return "found"
        return "none" if ended else "spent"

    def _guide(self, x: int) -> int | float:
        """Task ``x``'s start in the best schedule (0 before there is one)."""
        return low(self.incumbent[0][x], self.store.model.off[x]) if self.incumbent else 0

    def _steps(self, nodes: Iterator[object], limit: int) -> bool:
        """Take up to ``limit`` of ``nodes``: ``True`` if they ran out."""
        budget, used = current_budget(), 0
        try:
            while used < limit:
                if budget is not None:
                    budget.tick()
                used += 1
                if next(nodes, self) is self:
                    return True
            return False
        finally:
            self.due += used

    def _first(self, D: list[Dom]) -> bool:
        """A probe's ``accept``: record the solution ``D``, and stop (raises :class:`_Found`)."""
        self.record(D)
        raise _Found

    def _leaf(self, accept: Callable[[list[Dom]], bool]) -> Callable[[list[Dom]], Iterator[object]]:
        """The search from a node where every resource is ranked, one node a step, ``accept``
        taking its solutions."""
        return lambda D: self.search(
            D,
            self.store,
            self.idxs,
            "min",
            "up",
            accept=accept,
            prune=self.tighten,
            pause=lambda: True,
        )

    def tick(self) -> None:
        """A node of the branch and bound: a round of probes once it has spent as many as the last round."""
        self.due -= 1
        if self.due <= 0:
            self.round()

    def round(self) -> None:
        """A tabu search on the orders (:meth:`_walk`), the root shaved under the best
        (:meth:`_shave`), probes halving the open range until it closes or every target left is
        spent, on unary resources the ranking's next nodes, then neighbourhoods of the best for
        a probe's nodes. Once a round's halving finds no better schedule, a complete ranking
        takes the nodes of the next rounds' halving (:data:`HALVING`). The first round, at the
        root, only halves (a first solution, maybe proved at once), then walks a turn for each
        node that took.

        A round that improved the best is followed by another at the next
        node, and so is every round that ranks; one that found nothing to
        probe waits as many nodes as a probe may take.
        """
        limit, was = self.limit, self.best[:]
        self.due = 0  # the probes add the nodes they spend
        try:
            ranked = limit  # the ranking's nodes
            if self.rounds:  # the walk first: shaving and halving under a better best are cheaper
                self._walk(limit)
                self._shave(SHAVING * limit)
                if self.halving or not self.ranks_all:
                    before = self.best[:]
                    self._halve(limit)
                    self.halving = self.best != before
                else:
                    ranked *= HALVING
            else:  # at the root, a first solution, maybe proved at once; walks as long
                self._halve(limit)
                self._walk(min(limit, self.due))
            if self.unary and not self.closed():
                self.rank(ranked)
            if self.rounds:  # the first round, at the root, leaves the proof its chance
                self._improve(limit)
            self.rounds += 1
        finally:
            if was and self.best != was:
                self.due = 1  # improving: another round at the next node
            elif self.due:
                self.limit *= 2
                if self.unary and self.ranks_all:  # the ranking: a complete search too, the better
                    self.due = 1
            else:
                self.due = limit

    def _shave(self, limit: int) -> None:
        """Shave the tasks' starts at the root (:func:`~relqueens.fd.shaving.shave`), ``z`` better
        than the best, in ``limit`` tests.

        If a task has no start left, the best is optimal. Otherwise the
        shaved domains are the new root: much narrower, they guide the
        probes and the ranking under the best (which starts again from
        them once the shaving ran to its end) to better schedules.
        """
        if not self.best or self.closed() or self.shaved == self.best[0]:
            return
        best = self.best[0]  # tighten may record a better one: the root is shaved under this one
        top = self._z(best) - 1
        D, model = self.root[:], self.store.current()
        D[self.j] = self._within(D[self.j], top)
        trials = Trials(limit)
        refuted = (
            not D[self.j]
            or not fixpoint(D, {self.j}, model)
            or not self.tighten(D)
            or not shave(D, model, self.tasks, trials)
        )
        self.due += trials.used
        if refuted:
            self._refuted(top)
            return
        self.root = D
        if trials.left():
            self.shaved, self.ranks = best, None

    def _walk(self, limit: int) -> None:
        """Tabu search (:mod:`relqueens.fd.tabu`) from the best schedule, up to ``limit`` turns of
        :data:`~relqueens.fd.tabu.TURN` moves, until it stalls (:data:`SHAKES`): where it finds
        a better schedule, propagation checks it and it is recorded.

        Only on a makespan minimised over unary resources that hold every labeled task, with
        no setup times (the walk's schedules know a task's duration, not the gap to the next). la16
        (10 x 10, 945): 65 s to 24 s, its optimum found by the walk and proved by shaving;
        walking before the shaving and the halving (from the second round), 22 s to 11 s.
        """
        if self.walk is None:
            shop = None
            if self.unary and self.ranks_all and self.sign == "min" and not self.gaps:
                shop = Shop.of(self.store.current(), self.store.D, self.unary, self.j)
            self.walk = Walk(shop, Random(0)) if shop else False
        walk = self.walk
        if not walk or not self.best or self.closed():
            return
        off, names = self.store.model.off, walk.shop.names
        if (
            self.best[0] < walk.best_end
        ):  # the probes found better than the walk has: walk from there
            best = self.incumbent[0]
            walk.restart([low(best[x], off[x]) for x in names], int(self.best[0]))
        budget, began = current_budget(), walk.moves
        for _ in range(limit):
            if walk.moves - max(began, walk.improved) > SHAKES * STALL:
                return  # no better schedule in a while: the next round goes on from here
            if budget is not None:
                budget.tick()
            found = walk.run(TURN)
            self.due += 1
            if found is None or found[0] >= self.best[0]:
                continue
            start: dict[int, int | float] = dict(zip(names[:-1], found[1], strict=False))
            rest = {x for tasks in self.resources for x, _ in tasks if x not in start}
            model, D, queue = self._ordered(start, rest, found[0])
            if fixpoint(D, queue, model) and self.tighten(D):
                self._dives(D, model, self.unit)
            if self.closed():
                return

    def _improve(self, limit: int) -> None:
        """Neighbourhoods of the best until it is proved optimal or ``limit`` nodes are spent."""
        until = self.due + limit
        while self.best and not self.closed() and self.due < until:
            self.neighbourhood(self.unit // 2)

    def _halve(self, limit: int) -> None:
        spent = self.lo - 1  # the highest target that ran out of nodes
        while not self.closed():
            if not self.best:
                if self.probe(None, limit) != "found":
                    return  # spent (or none: the branch and bound will find there is no solution)
                continue
            top = self._z(self.best[0]) - 1
            floor = max(self.lo, spent + 1)
            if floor >= top:  # one value left to try: the complete search will, unless
                if self.lo == top and self._propagated(top) is None:  # propagation refutes it
                    self._refuted(top)
                return
            t = (floor + top) // 2
            outcome = self.probe(t, limit)
            if outcome == "none":
                self._refuted(t)
            elif outcome == "spent":
                spent = t
