"""Resources: ``cumulative`` (SWI's ``cumulative/2``) and its unary case, ``disjunctive``.

A task is a start variable with a fixed duration and height; the tasks
running at any time may not use more than the resource's limit. The
propagator reasons on bounds (earliest start ``est``, latest start ``lst``):

* **time-tabling**: a task whose ``lst`` is before its earliest end runs
  surely in between (its compulsory part); no task may start where the
  compulsory parts of the others leave it too little room;
* **unary resources** (every two tasks too tall to overlap), instead: the
  pairwise rule (when ``i`` cannot end before ``j`` must start, ``j`` goes
  first; it subsumes time-tabling there), overload checking and edge
  finding (a task that cannot end before a set of others all end goes
  after all of them), in both directions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from .domain import Dom
from .post import Constraint, Posting
from .propagators import Propagator, high, keep_ge, keep_le, low, narrow


def edge_find(est: list[int], lct: list[int], dur: Sequence[int]) -> list[int] | None:
    """New earliest starts on a unary resource by overload checking and edge finding.

    ``None`` when the tasks cannot all fit. For each bound ``L`` (a task's
    latest completion), ``omega`` holds the tasks that must end by ``L``; a
    task ``i`` outside it that cannot end by ``L`` together with ``omega``
    must come after all of ``omega``: ``est[i] >= ect(omega)``.

    With ``W`` the work of ``omega`` and ``pre`` the work of its members
    before a task (by earliest start), ``ect(omega) = W + max(est - pre)``
    over the members, and adding ``i`` raises it above ``L`` exactly when
    ``W + max(est - pre over the members before i) + dur[i] > L`` or ``est[i]
    + dur[i] + W - pre[i] > L``: one pass over the tasks for each ``L``.

    >>> edge_find([0, 0, 0], [4, 4, 10], [2, 2, 3])
    [0, 0, 4]
    """
    by_est = sorted(range(len(est)), key=est.__getitem__)
    new = est[:]
    work = 0
    bounds = sorted(range(len(est)), key=lct.__getitem__)
    for n, t in enumerate(bounds):
        work += dur[t]
        L = lct[t]
        if n + 1 < len(bounds) and lct[bounds[n + 1]] == L:
            continue  # omega takes every task ending by L
        pre = 0
        best: int | None = None  # max(est - pre) over the members so far
        hits = []
        for i in by_est:
            if lct[i] <= L:
                value = est[i] - pre
                if best is None or value > best:
                    best = value
                pre += dur[i]
            elif est[i] + dur[i] + work - pre > L or (
                best is not None and work + best + dur[i] > L
            ):
                hits.append(i)
        ect = work + best  # type: ignore[operator]  # omega holds task t at least
        if ect > L:
            return None
        for i in hits:
            if ect > new[i]:
                new[i] = ect
    return new


def precedences(est: list[int], lct: list[int], dur: Sequence[int]) -> list[int] | None:
    """New earliest starts on a unary resource from pairs: if ``i`` cannot end before ``j`` must start, ``j`` goes first.

    ``j`` then ends before ``i`` starts, and must be able to (else ``None``).
    Over the tasks sorted by latest start, the ``j`` that ``i`` cannot precede
    are a prefix, so one running maximum of earliest ends serves every ``i``.

    >>> precedences([0, 1], [8, 4], [3, 2])
    [3, 1]
    """
    n = len(est)
    lst = [lct[t] - dur[t] for t in range(n)]
    by_lst = sorted(range(n), key=lst.__getitem__)
    ect = [est[t] + dur[t] for t in range(n)]
    new = est[:]
    top: int | None = None  # the two tasks of the prefix with the latest earliest ends
    second: int | None = None
    k = 0
    for i in sorted(range(n), key=ect.__getitem__):
        while k < n and lst[by_lst[k]] < ect[i]:  # the tasks i cannot precede
            t = by_lst[k]
            if top is None or ect[t] > ect[top]:
                top, second = t, top
            elif second is None or ect[t] > ect[second]:
                second = t
            k += 1
        before = second if top == i else top
        if before is not None:
            if ect[before] > lst[i]:
                return None  # nor can it precede i
            new[i] = max(new[i], ect[before])
    return new


def unary(est: list[int], lct: list[int], dur: Sequence[int]) -> list[int] | None:
    """New earliest starts on a unary resource: :func:`precedences`, then :func:`edge_find`."""
    first = precedences(est, lct, dur)
    return None if first is None else edge_find(first, lct, dur)


def time_table(
    est: list[int], lst: list[int], dur: Sequence[int], height: Sequence[int], limit: int
) -> list[int] | None:
    """New earliest starts from the other tasks' compulsory parts (``None``: over the limit).

    >>> time_table([0, 0], [0, 9], [4, 3], [1, 1], 1)
    [0, 4]
    """
    events: dict[int, int] = {}
    for t, d in enumerate(dur):
        if lst[t] < est[t] + d and height[t]:
            events[lst[t]] = events.get(lst[t], 0) + height[t]
            events[est[t] + d] = events.get(est[t] + d, 0) - height[t]
    if not events:
        return est[:]
    times = sorted(events)
    profile = []  # (from, to, load) with load > 0
    load = 0
    for a, b in pairwise(times):
        load += events[a]
        if load > limit:
            return None
        if load:
            profile.append((a, b, load))
    new = est[:]
    for t, d in enumerate(dur):
        h = height[t]
        if not h or not d:
            continue
        start = est[t]
        own_from, own_to = lst[t], est[t] + d  # t's own compulsory part (maybe empty)
        for a, b, use in profile:
            if b <= start:
                continue
            if a >= start + d:
                break
            mine = h if own_from < own_to and own_from < b and a < own_to else 0
            if use - mine + h > limit:
                start = b
        if start > lst[t]:
            return None
        new[t] = start
    return new


class CumulativeProp(Propagator):
    """Tasks ``(start, duration, height)`` never use more than ``limit`` at once (bounds reasoning)."""

    __slots__ = ("busy", "busy_dur", "dur", "height", "implied", "limit")
    slow = True  # its rules cost O(n^2): once a round, after the cheap propagators

    def __init__(
        self,
        starts: tuple[int, ...],
        dur: tuple[int, ...],
        height: tuple[int, ...],
        limit: int,
        source: object = None,
        implied: bool = False,
    ) -> None:
        self.implied = implied
        self.vars, self.dur, self.height, self.limit, self.source = (
            starts,
            dur,
            height,
            limit,
            source,
        )
        busy = [t for t, (d, h) in enumerate(zip(dur, height, strict=True)) if d and h]
        unary = all(
            height[a] + height[b] > limit for k, a in enumerate(busy) for b in busy[k + 1 :]
        )
        self.busy = tuple(busy) if unary else None
        """The tasks that take time on a unary resource (``None``: not unary)."""
        self.busy_dur = [dur[t] for t in busy]

    def propagate(self, D: list[Dom], off: list[int], queue: set[int], _: int) -> bool:
        xs, dur = self.vars, self.dur
        est = [int(low(D[x], off[x])) for x in xs]
        lct = [int(high(D[x], off[x])) + d for x, d in zip(xs, dur, strict=True)]
        if self.busy is None:
            up = time_table(
                est, [c - d for c, d in zip(lct, dur, strict=True)], dur, self.height, self.limit
            )
            down = time_table(  # the same, with time running backwards
                [-c for c in lct],
                [-e - d for e, d in zip(est, dur, strict=True)],
                dur,
                self.height,
                self.limit,
            )
        else:  # unary: the pairwise rule does what time-tabling would, and edge finding more
            busy, bd = self.busy, self.busy_dur
            up, down = est, [-c for c in lct]
            b_up = unary([est[t] for t in busy], [lct[t] for t in busy], bd)
            b_down = unary([down[t] for t in busy], [-est[t] for t in busy], bd)
            if b_up is None or b_down is None:
                return False
            for k, t in enumerate(busy):
                up[t], down[t] = b_up[k], b_down[k]
        if up is None or down is None:
            return False
        for k, x in enumerate(xs):
            lo, hi = up[k], -down[k] - dur[k]
            if lo > hi or not narrow(D, queue, x, keep_le(keep_ge(D[x], off[x], lo), off[x], hi)):
                return False
        return True

    def entailed(self, D: list[Dom], off: list[int]) -> bool:
        return False


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Cumulative(Constraint):
    """Tasks ``(start, duration, height)`` never use more than ``limit`` at once."""

    starts: tuple[Any, ...]
    durations: tuple[int, ...]
    heights: tuple[int, ...]
    limit: int
    name = "cumulative"

    def post_on(self, posting: Posting) -> bool:
        if any(h > self.limit and d for d, h in zip(self.durations, self.heights, strict=True)):
            return False  # a task taller than the resource, for a while
        xs = posting.indices(self.starts, self)
        if type(xs) is bool:
            return xs
        return posting.attach(
            CumulativeProp(tuple(xs), self.durations, self.heights, self.limit, self)
        )
