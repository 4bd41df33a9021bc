"""Shaving: the bounds of variables tested by propagation.

If propagation from ``x <= v`` fails, no solution has ``x <= v``, and the
lowest value of ``x`` rises past ``v``. A failing ``x <= v`` fails for every
smaller ``v`` too (a smaller domain propagates to less), so halving finds
the largest failing ``v`` between the bounds; the same from above with
``x >= v``. Rounds over the variables repeat until no bound moves: with no
limit on the tests, the domains are then *singleton bounds consistent* for
the propagators.

On schedules this is what propagation alone misses (a task that cannot
start at its earliest start, given every machine's edge finding). Branch
and bound's probes shave the tasks' starts at the root once a round
(:meth:`~relqueens.fd.probing.Probes.round`): that refutes a random
10 x 10 job shop's optimum less one at the root, where the ranking
without it searched 3,000 nodes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..logic.limits import current_budget
from .domain import Dom
from .propagators import fixpoint, high, keep_ge, keep_le, low

if TYPE_CHECKING:
    from .propagators import Network


class Trials:
    """How many fixpoints a shaving may run (``None``: no limit), and how many it ran: its tests
    and the propagation of each bound it moved."""

    __slots__ = ("limit", "used")

    def __init__(self, limit: int | None = None) -> None:
        self.limit, self.used = limit, 0

    def left(self) -> bool:
        """Whether another test may be taken."""
        return self.limit is None or self.used < self.limit


def shave(D: list[Dom], model: Network, xs: Sequence[int], trials: Trials | None = None) -> bool:
    """Narrow the bounds of ``xs`` in ``D`` (at a fixpoint of ``model``) until none fails.

    Returns ``False`` when some variable has no value left. Each test is a
    fixpoint on a copy of ``D``; ``D`` is narrowed in place. With ``trials``,
    shaving stops once it has taken their limit (the domains narrowed so far
    stay narrowed: each step is sound by itself).
    """
    trials = Trials() if trials is None else trials
    moved = True
    while moved:
        moved = False
        for x in xs:
            for below in (True, False):
                if not trials.left():
                    return True
                d = D[x]
                shaved = _shaved(D, model, x, below, trials)
                if not shaved:
                    return False
                if shaved != d:
                    D[x] = shaved
                    trials.used += 1  # a fixpoint too
                    if not fixpoint(D, {x}, model):
                        return False
                    moved = True
    return True


def _shaved(D: list[Dom], model: Network, x: int, below: bool, trials: Trials) -> Dom:
    """``D[x]`` without the values below (``below``) or above its lowest (highest) value
    that does not fail; empty if every value fails."""
    d, o = D[x], model.hot[0][x]
    lo, hi = low(d, o), high(d, o)
    if lo == hi or type(lo) is not int or type(hi) is not int:
        return d  # fixed, or unbounded: nothing to halve

    budget = current_budget()

    def fails(v: int) -> bool:
        """Whether propagation from ``x <= v`` (``x >= v`` from above) fails: a test, a node of
        the query's budget."""
        if budget is not None:
            budget.tick()
        trials.used += 1
        D1 = D[:]
        D1[x] = keep_le(d, o, v) if below else keep_ge(d, o, v)
        return not fixpoint(D1, {x}, model)

    bad, ok = (lo, hi) if below else (hi, lo)
    if not fails(bad):
        return d
    while abs(ok - bad) > 1:  # fails(bad); ok holds the whole domain, at a fixpoint, or more
        mid = (ok + bad) // 2
        bad, ok = (mid, ok) if fails(mid) else (bad, mid)
    return keep_ge(d, o, bad + 1) if below else keep_le(d, o, bad - 1)
