"""Dives: searches cut off after a number of nodes, restarted with allowances that grow as Luby's sequence.

Both the probes of branch and bound (:mod:`relqueens.fd.probing`) and the
restarts racing a labeling (:mod:`relqueens.fd.restarts`) run searches
from the root that stop after so many nodes, then start again with another
allowance. :class:`Allowance` is a search's ``prune`` hook that counts the
nodes and raises :class:`Spent` past them; :func:`luby` says how many nodes
the next one gets, in units.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from .domain import Dom

if TYPE_CHECKING:
    from .store import Model

Search = Callable[..., Iterator[Any]]
""":func:`relqueens.fd.labeling.search`, passed in (labeling imports the modules that dive)."""
Selector = Callable[[list[Dom], list[int], int, "Model"], int]
"""Picks the position in ``idxs`` of the next variable to label (-1: all fixed)."""


class Spent(Exception):
    """A dive used up its nodes."""


def luby(i: int) -> int:
    """The ``i``-th term (from 0) of Luby's sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ...

    >>> [luby(i) for i in range(10)]
    [1, 1, 2, 1, 1, 2, 4, 1, 1, 2]
    """
    k = 1
    while (1 << k) - 1 < i + 1:
        k += 1
    while (1 << k) - 1 != i + 1:
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i + 1:
            k += 1
    return 1 << (k - 1)


class Allowance:
    """``nodes`` nodes for one dive: :meth:`prune` counts them, then raises :class:`Spent`.

    ``then(D)``, if given, is the pruning the dive does at each node as well.

    >>> a = Allowance(2)
    >>> a.prune([]), a.prune([]), a.used
    (True, True, 2)
    """

    __slots__ = ("left", "nodes", "then")

    def __init__(self, nodes: int, then: Callable[[list[Dom]], bool] | None = None) -> None:
        self.nodes, self.left, self.then = nodes, nodes, then

    def prune(self, D: list[Dom]) -> bool:
        self.left -= 1
        if self.left < 0:
            raise Spent
        return True if self.then is None else self.then(D)

    @property
    def used(self) -> int:
        """The nodes spent so far."""
        return self.nodes - max(self.left, 0)
