"""Restarts: a first solution looked for by randomized restarts, racing the labeling's own search.

A depth-first search that picks variables by a dynamic rule (``ff``,
``ffc``, ``min``, ``max``) can sink its first choices into a subtree
without solutions and spend seconds there, where the same rule with its
ties broken otherwise finds a solution at once: Langford's L(2, 31)
labeled by ``ff`` took 21 s, and 10 ms with random ties restarted.

So once the labeling has spent :data:`FIRST_NODES` (and four a variable)
without a solution, it takes turns with restarts, which get half as many
nodes as it has just spent: searches from the root with random ties, each
stopped after a number of nodes that grows as Luby's sequence, the turns
doubling. Whichever finds a solution first gives
the first answer; the labeling's search then goes on where it was, giving
every other solution in its order (the restarts' one is not given twice).
With ``ff`` or ``ffc`` over a permutation whose members are all labeled
(a ``distinct`` group with as many values as members), the restarts branch
on values as well (:mod:`relqueens.fd.dual`) and get as many nodes as the
labeling; over 0/1 labels in exactly-ones (an exact cover: N-queens or
Langford's pairs as a 0/1 matrix, a 0/1 Sudoku), they branch on the
exactly-ones, get as many nodes too, and the labeling races sooner: after
100 nodes and one for each exactly-one (at most four a variable). A
restart's solution is given as the labeling would reach it: its labels set
again from the root in the labeling's own order.
A restart that runs out of branches before its nodes is a complete search:
there is no solution. A search that finds its first solution soon never
meets a restart, and one whose restarts never win spends at most half as
many nodes again (as many again, by values; the restarts' nodes count
towards ``max_nodes`` too). A query that asks for every answer
(``run(0, ...)``, see :data:`~relqueens.logic.run.ALL_WANTED`) does not race: it
searches the whole tree anyway, and gives its answers in the labeling's order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from operator import itemgetter
from random import Random
from typing import TYPE_CHECKING, Any, Literal

from . import dual
from .dives import Allowance, Search, Selector, Spent, luby
from .domain import Dom
from .propagators import fixpoint
from .store import FDStore

if TYPE_CHECKING:
    from ..logic.state import State

FIRST_NODES = 100
"""The labeling's own nodes, beside four for each variable (or one for each exactly-one the
restarts branch on), before the first restart. At 1,000,
Langford's L(2, 27) by ``ff`` took 0.054 s; 0.036 s at 500, 0.009 s at 100, where L(3, 26)
went 0.64 to 0.05 s and a 6 x 6 magic square's first square 0.18 to 0.07-0.10 s (a 5 x 5's
0.031 to 0.043 s, SWI's 0.59 s); below 100, some got slower by far (L(3, 26) 1.8 s at 1)."""

RESTARTABLE = ("ff", "ffc", "min", "max")
"""The selections whose ties restarts break at random (``leftmost`` has none)."""

BY_VALUE = ("ff", "ffc")
"""The selections whose restarts may branch on a value of a permutation or on an exactly-one
instead (:mod:`relqueens.fd.dual`)."""


class Restarts:
    """Searches from the root with random ties, each within a number of nodes that grows as Luby's sequence.

    ``search`` is the labeling's search function, ``restart(rng)`` makes the
    selector with random ties, ``plain`` is the labeling's own selector,
    ``options`` are the labeling's ``order`` and ``branching``, and
    ``accept`` turns a solution's domains into a state (or ``False``: not an
    answer after all).
    """

    def __init__(
        self,
        search: Search,
        restart: Callable[[Random], Selector],
        plain: Selector,
        D0: list[Dom],
        store: FDStore,
        idxs: list[int],
        options: dict[str, Any],
        accept: Callable[[list[Dom]], State | Literal[False]],
    ) -> None:
        self.search, self.D0, self.store, self.idxs, self.options = search, D0, store, idxs, options
        self.accept = accept
        self.rng = Random(0)  # the same answers every time
        self.select, self.plain = restart(self.rng), plain
        self.duals: dual.Duals | None = (
            None  # what to branch on besides variables, at the first pause
        )
        self.unit = 2 * len(idxs) + 16
        self.count = 0

    def raced(self, select: str) -> Iterator[State]:
        """The answers of the labeling by ``select``, its first raced for with restarts."""
        idxs, accept = self.idxs, self.accept
        by_value = select in BY_VALUE
        # the rows now (they set when the labeling races), the permutations at its first pause;
        # a dive by rows is at most as deep as there are rows: so many nodes for the labeling
        rows = dual.exactly_ones(self.store.current(), self.D0, idxs) if by_value else []
        turn = max(1, FIRST_NODES + (min(len(rows), 4 * len(idxs)) if rows else 4 * len(idxs)))
        due, racing = [turn], [True]

        def pause() -> bool:
            due[0] -= 1
            return racing[0] and due[0] <= 0

        plain = self.search(self.D0, self.store, idxs, select, pause=pause, **self.options)
        seen = None
        for D in plain:
            if D is not False:
                state = accept(D)
                if state is not False:
                    yield state
                    break
                continue
            if self.duals is None:
                groups = dual.permutations(self.store.current(), self.D0, idxs) if by_value else []
                self.duals = dual.Duals(groups, rows)
            # the labeling paused: restarts for half as many nodes (as many, by values)
            found = self.turn(max(1, turn if any(self.duals) else turn // 2))
            if found is None:
                return  # a restart searched the whole tree: no solution
            if found is not False:
                state, seen = found
                yield state
                break
            turn *= 2
            due[0] = turn
        else:
            return
        racing[0] = False
        get = itemgetter(*idxs)
        for D in plain:
            if D is False or (seen is not None and _labels(get(D), len(idxs)) == seen):
                continue
            state = accept(D)
            if state is not False:
                yield state

    def turn(self, nodes: int) -> tuple[State, tuple[Dom, ...]] | Literal[False] | None:
        """Restarts for ``nodes`` nodes: a solution (its state and labels), ``False``, or ``None``: none exists."""
        spent = 0
        while spent < nodes:
            allowance = Allowance(min(luby(self.count) * self.unit, nodes - spent))
            self.count += 1
            try:
                for C in self.dive(allowance.prune):
                    D = self.leaf(C)
                    if D is None:
                        continue
                    state = self.accept(D)
                    if state is not False:
                        return state, tuple(D[i] for i in self.idxs)
                return None  # the whole tree, searched within the nodes: no solution
            except Spent:
                pass
            finally:
                spent += allowance.used
        return False

    def leaf(self, C: list[Dom]) -> list[Dom] | None:
        """The labeling's own leaf for the labels of solution ``C``: each set in the order its
        selector picks them, and propagated (``None``: that order fails; propagation depends on it)."""
        D, model, idxs = self.D0[:], self.store.current(), self.idxs
        k = self.plain(D, idxs, 0, model)
        while k >= 0:
            i = idxs[k]
            D[i] = C[i]
            if not fixpoint(D, {i}, model):
                return None
            k = self.plain(D, idxs, k, model)
        return D

    def dive(self, prune: Callable[[list[Dom]], bool]) -> Iterator[list[Dom]]:
        """One search from the root, by permutations' values or exactly-ones where there are any."""
        if self.duals is not None and any(self.duals):
            model = self.store.current()
            return dual.dives(self.D0, model, self.idxs, self.select, self.duals, self.rng, prune)
        return self.search(self.D0, self.store, self.idxs, self.select, prune=prune, **self.options)


def _labels(values: Any, n: int) -> tuple[Dom, ...]:
    return tuple(values) if n > 1 else (values,)
