"""``run``: the answers of a query, as kanren's ``run`` gives them.

This is the plain relational ``run`` (no FD labeling); ``relqueens.run``
builds on it to label the FD variables an answer leaves open.

>>> from relqueens.logic import run, eq, conde, var
>>> q = var()
>>> run(0, q, conde([eq(q, 1)], [eq(q, 2)]))
(1, 2)
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable, Iterator
from contextvars import ContextVar
from itertools import islice
from typing import Any

from .goals import lall
from .limits import Budget, limited
from .reify import reify
from .search import solve
from .state import State


def check_n(n: object) -> None:
    """Raise for a bad ``n``: ``None`` (lazy), ``0`` (all) and positive integers are good."""
    if n is None:
        return
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"run's n must be None (lazy), 0 (all) or a positive integer, got {n!r}")
    if n < 0:
        raise ValueError(f"run's n must be None (lazy), 0 (all) or a positive integer, got {n}")


ALL_WANTED: ContextVar[bool] = ContextVar("relqueens_all_wanted", default=False)
"""True while ``run(0, ...)`` gathers its answers: every answer will be asked for, so a search
need not race for its first one (see :mod:`relqueens.fd.restarts`)."""


def take(n: int | None, answers: Iterator[Any]) -> tuple[Any, ...] | Iterator[Any]:
    """``n`` answers as kanren's ``run`` returns them: all (0), a lazy iterator (None) or up to n.

    The cyclic garbage collector waits while the answers are gathered: it
    would scan the answers kept so far again and again (the 531,444
    4-colourings of a 12-cycle: 2.3 s to 1.8 s). A search leaves no cycles
    node by node (what a query leaves, its model leaves once), so none pile
    up meanwhile. Meanwhile :data:`ALL_WANTED` says whether all are asked for.
    """
    if n is None:
        return answers
    paused = gc.isenabled()
    if paused:
        gc.disable()
    wanted = ALL_WANTED.set(n == 0)
    try:
        return tuple(answers) if n == 0 else tuple(islice(answers, n))
    finally:
        ALL_WANTED.reset(wanted)
        if paused:
            gc.enable()


def states(*goals: Any) -> Iterator[State]:
    """The states in which all ``goals`` hold, from an empty state, lazily."""
    return solve(lall(*goals), State(), shared=False)


def run(
    n: int | None,
    q: Any,
    *goals: Any,
    finish: Callable[[Any, State], Iterable[Any]] | None = None,
    timeout: float | None = None,
    max_nodes: int | None = None,
) -> tuple[Any, ...] | Iterator[Any]:
    """Up to ``n`` answers: ``q`` reified in each state where ``goals`` all hold.

    ``n=0`` returns all answers as a tuple, ``n=None`` a lazy iterator, ``n>0``
    at most ``n``. A query with infinitely many answers never returns from
    ``run(0, ...)``: ask for ``n`` of them, iterate ``run(None, ...)``, or
    give it a ``timeout`` (seconds) or ``max_nodes``, past which
    :class:`~relqueens.logic.limits.SearchLimit` is raised with the answers
    found so far. ``finish(q, state)``, if given, turns each state into
    answers instead of reifying ``q``.
    """
    check_n(n)
    budget = None if timeout is None and max_nodes is None else Budget(timeout, max_nodes)
    found = states(*goals)
    if finish is None:
        answers: Iterator[Any] = (reify(q, S.data) for S in found)
    else:
        answers = (a for S in found for a in finish(q, S))
    if budget is not None:
        answers = limited(answers, budget)
    return take(n, answers)
