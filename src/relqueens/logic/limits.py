"""Limits on a query: a time limit and a node limit, ending in :class:`SearchLimit`.

``run(..., timeout=seconds, max_nodes=n)`` sets a :class:`Budget` for the
time the query's search runs; the search (and FD labeling) spends it, one
node a step. When it runs out, ``run`` raises :class:`SearchLimit`, which
carries the answers found before.

>>> from relqueens import run, var, relation, conde, eq, fresh
>>> @relation
... def nato(n):
...     return conde([eq(n, 0)], [fresh(lambda m: [eq(n, ("s", m)), nato(m)])])
>>> q = var()
>>> try:
...     run(0, q, nato(q), max_nodes=50)
... except SearchLimit as e:
...     print(len(e.answers) > 0, e.reason)
True node limit (50)
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Any, TypeVar

_T = TypeVar("_T")


class SearchLimit(Exception):
    """A query ran out of time or nodes; ``answers`` holds what it found before, ``reason`` says which.

    ``best`` is the answer of the best solution that an optimisation
    (``fd.label(..., minimize=...)``) had found when the limit struck, not
    proved optimal, or ``None``.
    """

    def __init__(self, reason: str, answers: tuple[Any, ...], best: Any = None) -> None:
        found = "" if best is None else ", and the best solution so far in .best"
        super().__init__(f"the search stopped: {reason}, after {len(answers)} answer(s){found}")
        self.reason, self.answers, self.best = reason, answers, best


class Exhausted(Exception):
    """Raised inside the search when its budget runs out (``run`` turns it into :class:`SearchLimit`)."""


class Budget:
    """How much search a query may do: a deadline (monotonic seconds) and a node count."""

    __slots__ = ("deadline", "max_nodes", "nodes", "spent", "timeout")

    GRACE = (10_000, 1.0)
    """Nodes and seconds left to carry an optimisation's best solution through the goals after it."""

    def __init__(self, timeout: float | None = None, max_nodes: int | None = None) -> None:
        if timeout is not None and (
            isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0
        ):
            raise ValueError(f"timeout must be a positive number of seconds, got {timeout!r}")
        if max_nodes is not None and (
            isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes <= 0
        ):
            raise ValueError(f"max_nodes must be a positive integer, got {max_nodes!r}")
        self.timeout, self.max_nodes, self.nodes = timeout, max_nodes, 0
        self.spent: str | None = None
        self.deadline = None if timeout is None else time.monotonic() + timeout

    def tick(self) -> None:
        """Spend one node; raise :class:`Exhausted` when the budget is gone."""
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise Exhausted(self.spent or f"node limit ({self.max_nodes})")
        if not self.nodes & 63:
            self.check_clock()

    def check_clock(self) -> None:
        """Raise :class:`Exhausted` if the deadline has passed (also from long work inside one node)."""
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise Exhausted(self.spent or f"time limit ({self.timeout} s)")

    def grace(self, reason: str) -> None:
        """The budget ran out (``reason``) with a best solution in hand: a little more, to finish it."""
        nodes, seconds = self.GRACE
        self.spent = reason
        self.max_nodes = self.nodes + nodes
        if self.deadline is not None:
            self.deadline = time.monotonic() + seconds


_BUDGET: ContextVar[Budget | None] = ContextVar("relqueens_budget", default=None)


def current_budget() -> Budget | None:
    """The budget of the query being searched, if it has one."""
    return _BUDGET.get()


def limited(answers: Iterator[_T], budget: Budget) -> Iterator[_T]:
    """``answers``, searched within ``budget``: :class:`SearchLimit` (with the answers so far) when it runs out."""
    found: list[_T] = []
    while True:
        token = _BUDGET.set(budget)
        try:
            answer = next(answers)
        except StopIteration:
            return
        except Exhausted as e:
            raise SearchLimit(str(e), tuple(found)) from None
        finally:
            _BUDGET.reset(token)
        if budget.spent is not None:  # an optimisation's best so far, yielded after the limit
            raise SearchLimit(budget.spent, tuple(found), best=answer)
        found.append(answer)
        yield answer
