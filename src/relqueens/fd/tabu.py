"""Tabu search on the orders of unary resources: good schedules, fast, for branch and bound to prove.

On a job shop of ten machines, la16 (10 x 10), the probes' neighbourhoods
(:mod:`relqueens.fd.probing`) stall at a schedule of 979 where the optimum
is 945: each neighbourhood costs a search with propagation, and 979 is a
deep local optimum for them. Once the best schedule is good, shaving and
the ranking prove it optimal sooner. So where every task labeled is on
a unary resource and the objective is the end of a precedence graph (a
makespan: ``end >= start + duration`` for the last tasks), a tabu search
walks the tasks' orders, without propagation (Taillard's):

* a schedule is the earliest one its orders and the precedences allow
  (longest paths in the graph, from the tasks' earliest starts);
* a move swaps two tasks next to each other on a resource and on a
  critical path (the only swaps that may shorten it): by turns from shake
  to shake, any two of a block (a run of the path on one resource), or
  only a block's first two and last two (Nowicki and Smutnicki's); each
  move is estimated in constant time from the paths' heads and tails;
* the best move is taken unless it undoes a recent one (*tabu*, for a
  random number of moves), but for one better than the best found; after
  :data:`STALL` moves without a better one, the walk starts again from
  the best, shaken by a few random swaps.

A better schedule it finds is handed to propagation, which checks it
against every constraint (the walk knows only the precedences and the
earliest starts) before branch and bound records it: the walk makes the
bound better, never an answer wrong.
"""

from __future__ import annotations

from itertools import pairwise
from random import Random
from typing import TYPE_CHECKING

from .domain import Dom
from .propagators import EqOffset, LeOffset, low

if TYPE_CHECKING:
    from .ranking import Resource
    from .store import Model

STALL = 1000
"""Moves without a better schedule before the walk starts again from the best."""

KICK = 5
"""Random swaps that shake the best schedule when the walk starts again from it."""

TURN = 4
"""Moves a turn of the walk: about the time of a node of the probes' search."""

TENURE = (8, 14)
"""How many moves a swap stays tabu (drawn at random in this range)."""

NONE = -(1 << 62)
"""The tail of a node with no path to the objective."""


class Shop:
    """The precedence graph of a schedule: tasks on unary resources, the precedences, the objective.

    Nodes are the tasks' start variables and the objective ``j``; an arc
    ``x -> y`` of length ``l`` says ``y >= x + l`` (a :class:`LeOffset`
    between them); the resources' orders add an arc from each task to the
    next, its duration long. Use :meth:`of`.
    """

    def __init__(
        self,
        names: list[int],
        release: list[int],
        arcs: list[tuple[int, int, int]],
        resources: list[list[tuple[int, int]]],
    ) -> None:
        n = len(names)
        self.names, self.release = names, release
        self.preds: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        self.succs: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        for x, y, length in arcs:
            self.preds[y].append((x, length))
            self.succs[x].append((y, length))
        self.dur = [0] * n
        self.on = [-1] * n
        """Each node's resource (its index in :attr:`resources`; -1: none)."""
        for k, tasks in enumerate(resources):
            for x, d in tasks:
                self.dur[x], self.on[x] = d, k
        self.resources = [[x for x, _ in tasks] for tasks in resources]
        self.end = n - 1  # the objective: the last node
        self.shift = 0
        """The objective's value less the last node's start (it may be a copy, shifted)."""

    @classmethod
    def of(cls, model: Model, D: list[Dom], unary: list[Resource], j: int) -> Shop | None:
        """The graph of ``model`` at domains ``D`` with resources ``unary`` and objective ``j``,
        or ``None`` when the walk does not apply: a task on two resources, a precedence
        graph with a cycle, or an objective that no task's end reaches."""
        tasks = [x for tasks in unary for x, _ in tasks]
        shift = 0
        for p in model.posted(EqOffset):  # the objective may be a copy of the end: j == y + c
            if j in (p.x, p.y) and p.x != p.y:
                j, shift = (p.y, shift + p.c) if p.x == j else (p.x, shift - p.c)
                break
        if len(set(tasks)) < len(tasks) or j in tasks:
            return None
        names = [*tasks, j]
        node = {x: k for k, x in enumerate(names)}
        off = model.off
        arcs = [
            (node[p.x], node[p.y], -p.c)
            for p in model.posted(LeOffset)
            if p.x in node and p.y in node and p.x != p.y
        ]
        release = [int(low(D[x], off[x])) for x in names]
        shop = cls(names, release, arcs, [[(node[x], d) for x, d in tasks] for tasks in unary])
        if not shop.preds[shop.end] or shop.heads([list(r) for r in shop.resources]) is None:
            return None
        shop.shift = shift
        return shop

    def heads(self, orders: list[list[int]]) -> tuple[list[int], list[int], list[int]] | None:
        """The earliest starts under ``orders`` (one list of nodes per resource), each node's
        predecessor and successor on its resource (-1: none); ``None`` on a cycle."""
        n, preds, succs, dur, release = (
            len(self.names),
            self.preds,
            self.succs,
            self.dur,
            self.release,
        )
        before, after = [-1] * n, [-1] * n
        for order in orders:
            for a, b in pairwise(order):
                before[b], after[a] = a, b
        waiting = [len(preds[i]) + (before[i] >= 0) for i in range(n)]
        queue = [i for i in range(n) if not waiting[i]]
        head = release[:]
        for i in queue:  # grows as nodes come free: a topological order
            h = head[i]
            a = after[i]
            for y, length in (*succs[i], (a, dur[i])) if a >= 0 else succs[i]:
                if h + length > head[y]:
                    head[y] = h + length
                waiting[y] -= 1
                if not waiting[y]:
                    queue.append(y)
        if len(queue) < n:
            return None
        self.order = queue
        return head, before, after

    def tails(self, before: list[int], after: list[int]) -> list[int]:
        """Each node's longest path to the objective (:data:`NONE`: no path), in the order
        :meth:`heads` found."""
        succs, dur = self.succs, self.dur
        tail = [NONE] * len(self.names)
        tail[self.end] = 0
        for i in reversed(self.order):
            t = tail[i]
            for y, length in succs[i]:
                if tail[y] > NONE and tail[y] + length > t:
                    t = tail[y] + length
            a = after[i]
            if a >= 0 and tail[a] > NONE and tail[a] + dur[i] > t:
                t = tail[a] + dur[i]
            tail[i] = t
        return tail

    def critical(self, head: list[int], before: list[int]) -> list[int]:
        """A longest path to the objective, as nodes from the first."""
        path, i = [self.end], self.end
        while True:
            b = before[i]
            if b >= 0 and head[b] + self.dur[b] == head[i]:
                i = b  # along a resource first: its swaps are the moves
            else:
                i = next((x for x, length in self.preds[i] if head[x] + length == head[i]), -1)
                if i < 0:
                    return path[::-1]
            path.append(i)


class Walk:
    """A tabu search over the orders of :class:`Shop` ``shop``, resumable: :meth:`run` goes on
    from where the last call stopped, or from the schedule :meth:`restart` gave."""

    def __init__(self, shop: Shop, rng: Random) -> None:
        self.shop, self.rng = shop, rng
        self.orders: list[list[int]] = [list(r) for r in shop.resources]
        self.best: list[list[int]] = [o[:] for o in self.orders]
        self.tabu: dict[tuple[int, int], int] = {}
        self.moves = self.last = self.shakes = self.improved = 0
        self.state = shop.heads(self.orders)
        """The current orders' :meth:`Shop.heads` (``None``: restarted, not yet computed)."""
        assert self.state is not None  # Shop.of checked the resources' own orders
        self.best_end = self.state[0][shop.end] + shop.shift

    def restart(self, starts: list[int | float], end: int) -> None:
        """Walk on from the schedule that starts each node at ``starts`` (by the shop's node
        order), whose objective is ``end``: the better ones are reported."""
        self.orders = [sorted(r, key=lambda x: (starts[x], x)) for r in self.shop.resources]
        self.best, self.best_end, self.last = [o[:] for o in self.orders], end, self.moves
        self.state = None
        self.tabu.clear()

    def _better(self, head: list[int]) -> tuple[int, list[int]] | None:
        """``(end, head)`` if the schedule ``head`` of the current orders is the best yet (kept)."""
        end = head[self.shop.end] + self.shop.shift
        if end >= self.best_end:
            return None
        self.best_end, self.best = end, [o[:] for o in self.orders]
        self.last = self.improved = self.moves
        return end, head

    def run(self, moves: int) -> tuple[int, list[int]] | None:
        """Up to ``moves`` moves; the end and the starts of a schedule better than the one the walk
        began from (or was restarted at), or ``None``."""
        shop, rng, tabu = self.shop, self.rng, self.tabu
        dur, preds, succs, release = shop.dur, shop.preds, shop.succs, shop.release
        found = None
        if self.state is None:  # restarted: its earliest schedule may already be better
            self.state = shop.heads(self.orders)
            assert self.state is not None  # a schedule's orders are acyclic
            found = self._better(self.state[0])
        head, before, after = self.state
        for _ in range(moves):
            self.moves += 1
            tail = shop.tails(before, after)
            path = shop.critical(head, before)
            candidates = []
            for u, v in self._moves(path, head, before):
                # Taillard's estimate of the longest path through u and v once v goes first
                a, b = before[u], after[v]
                hv = max(release[v], max((head[x] + n for x, n in preds[v]), default=NONE))
                if a >= 0:
                    hv = max(hv, head[a] + dur[a])
                hu = max(release[u], max((head[x] + n for x, n in preds[u]), default=NONE))
                hu = max(hu, hv + dur[v])
                tu = max((tail[y] + n for y, n in succs[u] if tail[y] > NONE), default=NONE)
                if b >= 0 and tail[b] > NONE:
                    tu = max(tu, tail[b] + dur[u])
                tv = max((tail[y] + n for y, n in succs[v] if tail[y] > NONE), default=NONE)
                tv = max(tv, tu + dur[v]) if tu > NONE else tv
                candidates.append((max(hv + tv, hu + tu), u, v))
            if not candidates:
                break  # one path along no resource: nothing shortens it
            candidates.sort()
            pick = next(
                (
                    (u, v)
                    for e, u, v in candidates
                    if tabu.get((v, u), -1) < self.moves or e + shop.shift < self.best_end
                ),
                None,
            )
            u, v = pick or candidates[rng.randrange(len(candidates))][1:]
            self._swap(u, v)
            tabu[(u, v)] = self.moves + rng.randint(*TENURE)
            state = shop.heads(self.orders)
            if state is None:  # not on a longest path after all: undo
                self._swap(v, u)
                state = shop.heads(self.orders)
                assert state is not None
            head, before, after = state
            better = self._better(head)
            if better is not None:
                found = better
            elif self.moves - self.last > STALL:
                head, before, after = self._shake()
        self.state = head, before, after
        return found

    def _moves(self, path: list[int], head: list[int], before: list[int]) -> list[tuple[int, int]]:
        """The swaps on critical path ``path``: by turns from shake to shake, every two tasks next
        to each other in a block (a run of the path on one resource), or only each block's first
        two and last two (Nowicki and Smutnicki's: no other swap within a block shortens the path,
        but the first block's first two and the last one's last two do not either)."""
        dur = self.shop.dur
        blocks: list[list[int]] = [[path[0]]]
        for u, v in pairwise(path):
            if before[v] == u and head[u] + dur[u] == head[v]:
                blocks[-1].append(v)
            else:
                blocks.append([v])
        blocks = [b for b in blocks if len(b) > 1]
        if self.shakes % 2:
            return [(u, v) for b in blocks for u, v in pairwise(b)]
        moves = set()
        for k, b in enumerate(blocks):
            if k > 0 or len(blocks) == 1:
                moves.add((b[0], b[1]))
            if k < len(blocks) - 1 or len(blocks) == 1:
                moves.add((b[-2], b[-1]))
        return sorted(moves)

    def _swap(self, u: int, v: int) -> None:
        """Swap ``u`` and the task after it on its resource (``v``)."""
        order = self.orders[self.shop.on[u]]
        k = order.index(u)
        order[k], order[k + 1] = v, u

    def _shake(self) -> tuple[list[int], list[int], list[int]]:
        """The best orders with a few random neighbours swapped (kept acyclic); the tabu list cleared."""
        self.orders, self.last = [o[:] for o in self.best], self.moves
        self.shakes += 1
        self.tabu.clear()
        for _ in range(KICK):
            order = self.orders[self.rng.randrange(len(self.orders))]
            if len(order) < 2:
                continue
            k = self.rng.randrange(len(order) - 1)
            order[k], order[k + 1] = order[k + 1], order[k]
            if self.shop.heads(self.orders) is None:
                order[k], order[k + 1] = order[k + 1], order[k]
        state = self.shop.heads(self.orders)
        assert state is not None
        return state
