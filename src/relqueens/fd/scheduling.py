"""Resources: ``cumulative`` (SWI's ``cumulative/2``) and its unary case, ``disjunctive``.

A task is a start variable with a fixed duration and height; the tasks
running at any time may not use more than the resource's limit. The
propagator reasons on bounds (earliest start ``est``, latest start ``lst``):

* **time-tabling**: a task whose ``lst`` is before its earliest end runs
  surely in between (its compulsory part); no task may start where the
  compulsory parts of the others leave it too little room; and the
  **overload check**: the tasks due within a window fit there by their work;
* **redundant resources** a cumulative one implies (:func:`redundant`): its
  tallest tasks that are pairwise apart, a unary resource, and its heights
  lifted by dual feasible functions (of five random projects of 14 tasks on
  two resources that took over 20 s, four prove their optimum in 0.01 to
  0.08 s);
* **unary resources** (every two tasks too tall to overlap), instead: the
  pairwise rule (when ``i`` cannot end before ``j`` must start, ``j`` goes
  first; it subsumes time-tabling there), overload checking and edge
  finding (a task that cannot end before a set of others all end goes
  after all of them) and *not first* (a task that cannot go before the
  tasks due by a time starts after one of them ends), in both directions. Up to :data:`PAIRS` tasks, each
  task gets the pairwise rule against the others as a cheap propagator of
  its own (:class:`Apart`), run at once, before the resource's rules: a
  10 x 10 job shop takes half the time. One propagator a task, woken by its
  own bounds, does what one a pair did with a call a change instead of one
  a pair, the task's bounds read once (random 10 x 10 job shops 10 to 30 %
  faster).

Two tasks stated apart, ``(x + a <= y) | (y + b <= x)``, get one
:class:`EitherOrder`; :mod:`relqueens.fd.implied` gathers such pairs into
unary resources.
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
    last = len(bounds) - 1
    floor = min(est, default=0) - sum(dur) - 1  # below every est - pre
    for n, t in enumerate(bounds):
        work += dur[t]
        L = lct[t]
        if n < last and lct[bounds[n + 1]] == L:
            continue  # omega takes every task ending by L
        room = L - work  # how late omega may start its work (its ect - W) and still fit
        pre = 0
        best = floor  # max(est - pre) over the members so far
        hits = []
        for i in by_est:
            e = est[i]
            if e > L:
                break  # no member starts this late, and ect(omega) <= L cannot move e
            if lct[i] <= L:
                if e - pre > best:
                    best = e - pre
                pre += dur[i]
            elif (best if best > e - pre else e - pre) + dur[i] > room:
                hits.append(i)
        if best > room:
            return None
        for i in hits:
            if work + best > new[i]:
                new[i] = work + best
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
    lst = [c - d for c, d in zip(lct, dur, strict=True)]
    ect = [e + d for e, d in zip(est, dur, strict=True)]
    by_lst = sorted(range(n), key=lst.__getitem__)
    new = est[:]
    top = -1  # the task of the prefix with the latest earliest end; the two latest ends:
    top_end = second_end = min(est, default=0)  # (none ends before every start)
    k = 0
    for i in sorted(range(n), key=ect.__getitem__):
        end = ect[i]
        while k < n and lst[by_lst[k]] < end:  # the tasks i cannot precede
            t = by_lst[k]
            if ect[t] > top_end:
                second_end, top, top_end = top_end, t, ect[t]
            elif ect[t] > second_end:
                second_end = ect[t]
            k += 1
        before = second_end if top == i else top_end
        if before > new[i]:
            if before > lst[i]:
                return None  # nor can it precede i
            new[i] = before
    return new


def not_first(est: list[int], lct: list[int], dur: Sequence[int]) -> list[int]:
    """New earliest starts on a unary resource: a task that cannot go first of a set starts after one of them ends.

    For each bound ``L`` (a latest completion), ``omega`` holds the tasks
    other than ``i`` that must end by ``L``. If ``i`` ran first, they would
    all fit between its earliest end and ``L``; when their work does not,
    some task of ``omega`` ends before ``i`` starts: ``est[i] >= min(ect of
    omega)``. The smallest such ``L`` gives the most. (Mirrored, this is
    *not last*; a start past its latest is left for the caller to see.)

    >>> not_first([0, 1, 1], [10, 4, 5], [3, 2, 2])  # 0 and 2 cannot go before 1
    [3, 1, 3]
    """
    new = est[:]
    by_lct = sorted(range(len(est)), key=lct.__getitem__)
    last = len(by_lct) - 1
    for i, e in enumerate(est):
        end, work = e + dur[i], 0
        least: int | None = None  # omega's least earliest end (None: no member yet)
        for n, j in enumerate(by_lct):
            if j != i:
                work += dur[j]
                ect = est[j] + dur[j]
                if least is None or ect < least:
                    least = ect
            if least is None or (n < last and lct[by_lct[n + 1]] == lct[j]):
                continue  # omega takes every other task ending by this bound
            if end + work > lct[j]:
                if least > new[i]:
                    new[i] = least
                break
    return new


def unary(est: list[int], lct: list[int], dur: Sequence[int]) -> list[int] | None:
    """New earliest starts on a unary resource: :func:`precedences`, :func:`edge_find`, :func:`not_first`."""
    first = precedences(est, lct, dur)
    return None if first is None else sequenced(first, lct, dur)


def sequenced(est: list[int], lct: list[int], dur: Sequence[int]) -> list[int] | None:
    """New earliest starts on a unary resource: :func:`edge_find`, then :func:`not_first`."""
    found = edge_find(est, lct, dur)
    return None if found is None else not_first(found, lct, dur)


def unsettled(est: list[int], lct: list[int], dur: Sequence[int]) -> list[int]:
    """The tasks of a unary resource (durations at least 1) the rules need to see.

    A task is settled when it is fixed and, with the settled ones before it,
    runs in sequence before every other task starts (or, mirrored, after
    every other ends). Settled tasks are at their places and push no other
    task: :func:`precedences` and :func:`edge_find` give the others the same
    bounds without them (:func:`not_first`, sound on any subset of the
    tasks, may give more).

    >>> unsettled([0, 2, 3, 9], [2, 3, 9, 10], [2, 1, 4, 1])
    [2]
    """
    n = len(est)
    live = [True] * n
    by_est = sorted(range(n), key=est.__getitem__)
    for k, t in enumerate(by_est):  # the settled tasks first in time
        if lct[t] - dur[t] != est[t] or (k + 1 < n and lct[t] > est[by_est[k + 1]]):
            break
        live[t] = False
    by_lct = sorted(range(n), key=lct.__getitem__, reverse=True)
    for k, t in enumerate(by_lct):  # the settled tasks last in time
        if lct[t] - dur[t] != est[t] or (k + 1 < n and est[t] < lct[by_lct[k + 1]]):
            break
        live[t] = False
    return [t for t in range(n) if live[t]]


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


def overloaded(
    est: list[int], lst: list[int], dur: Sequence[int], height: Sequence[int], limit: int
) -> bool:
    """True when the tasks due within some window ask more than the resource gives there.

    For each latest end ``b``, the tasks that must run within ``a..b`` (their
    earliest start at least ``a``) need ``limit * (b - a)`` at most: one pass
    over the tasks, latest earliest start first, for each ``b``. Time-tabling
    sees only compulsory parts; this sees the work of tasks that may still
    slide (a makespan under what the work needs fails at once).

    >>> overloaded([0, 0, 0], [1, 1, 1], [2, 2, 2], [3, 2, 2], 4)  # 14 units in 0..3
    True
    >>> overloaded([0, 0, 0], [2, 2, 2], [2, 2, 2], [3, 2, 2], 4)  # in 0..4
    False
    """
    tasks = sorted(
        (t for t in range(len(dur)) if dur[t] and height[t]), key=est.__getitem__, reverse=True
    )
    for b in sorted({lst[t] + dur[t] for t in tasks}):
        work = 0
        for t in tasks:  # latest start first: the window a..b widens
            if lst[t] + dur[t] <= b:
                work += dur[t] * height[t]
                if work > limit * (b - est[t]):
                    return True
    return False


def alone(height: Sequence[int], limit: int, tasks: Sequence[int]) -> bool:
    """True when no two of ``tasks`` fit side by side under ``limit``: a unary resource.

    >>> alone([2, 2, 1], 3, [0, 1]), alone([2, 2, 1], 3, [0, 1, 2])
    (True, False)
    """
    return all(height[a] + height[b] > limit for k, a in enumerate(tasks) for b in tasks[k + 1 :])


def start_bounds(D: list[Dom], off: list[int], xs: Sequence[int]) -> tuple[list[int], list[int]]:
    """The earliest and the latest starts of the variables ``xs``."""
    est, lst = [], []
    for x in xs:
        d = D[x]
        if type(d) is int:  # a bitset: its bounds inline
            o = off[x]
            est.append(o + (d & -d).bit_length() - 1)
            lst.append(o + d.bit_length() - 1)
        else:
            est.append(int(d.lo))
            lst.append(int(d.hi))
    return est, lst


class EitherOrder(Propagator):
    """``x + a <= y`` or ``y + b <= x``: one order once the bounds rule out the other.

    Bounds consistent, as the two reified orders and their sum it stands for
    (with no 0/1 variables to wake): when ``x`` cannot end before ``y`` must
    start, ``y + b <= x`` is enforced, and the other way round; it fails when
    neither order fits.
    """

    __slots__ = ("a", "b", "x", "y")
    on_bounds = True

    def __init__(self, x: int, a: int, y: int, b: int, source: object = None) -> None:
        self.x, self.a, self.y, self.b, self.vars, self.source = x, a, y, b, (x, y), source

    def bounds(self, D: list[Dom], off: list[int]) -> tuple[float, float, float, float]:
        """The bounds of ``x`` and ``y``: ``(low x, high x, low y, high y)``."""
        x, y = self.x, self.y
        dx, dy = D[x], D[y]
        if type(dx) is int and type(dy) is int:  # bitsets: their bounds inline
            ox, oy = off[x], off[y]
            return (
                ox + (dx & -dx).bit_length() - 1,
                ox + dx.bit_length() - 1,
                oy + (dy & -dy).bit_length() - 1,
                oy + dy.bit_length() - 1,
            )
        return low(dx, off[x]), high(dx, off[x]), low(dy, off[y]), high(dy, off[y])

    def propagate(self, D: list[Dom], off: list[int], queue: set[int], i: int) -> bool:
        x, y, a, b = self.x, self.y, self.a, self.b
        dx, dy = D[x], D[y]
        lox: float  # an int, or an infinite bound of a Wide domain (as the others)
        hix: float
        loy: float
        hiy: float
        if type(dx) is int and type(dy) is int:  # bitsets: their bounds inline (most calls)
            ox, oy = off[x], off[y]
            lox, hix = ox + (dx & -dx).bit_length() - 1, ox + dx.bit_length() - 1
            loy, hiy = oy + (dy & -dy).bit_length() - 1, oy + dy.bit_length() - 1
        else:
            lox, hix, loy, hiy = self.bounds(D, off)
        if lox + a > hiy:  # x cannot go first: y + b <= x
            if loy + b > hix:
                return False
            if lox < loy + b and not narrow(D, queue, x, keep_ge(dx, off[x], loy + b)):
                return False
            return hiy + b <= hix or narrow(D, queue, y, keep_le(dy, off[y], hix - b))
        if loy + b > hix:  # y cannot go first: x + a <= y
            if loy < lox + a and not narrow(D, queue, y, keep_ge(dy, off[y], lox + a)):
                return False
            return hix + a <= hiy or narrow(D, queue, x, keep_le(dx, off[x], hiy - a))
        return True

    def entailed(self, D: list[Dom], off: list[int]) -> bool:
        lox, hix, loy, hiy = self.bounds(D, off)
        return hix + self.a <= loy or hiy + self.b <= lox


class Apart(Propagator):
    """A task of a unary ``cumulative`` kept apart from each of the others: the pairwise rule
    as a cheap propagator, woken by the task's own bounds (each other task's bounds wake its
    own ``Apart``, so every pair is checked when either of its tasks moves).

    ``x`` takes ``a``; ``others`` are the other tasks as ``(start, duration)``.
    Implied (residuals show the resource); not an :class:`EitherOrder`, so
    :mod:`relqueens.fd.implied` does not gather it into another resource.
    """

    __slots__ = ("a", "others", "x")
    on_bounds = True
    implied = True

    def __init__(self, x: int, a: int, others: tuple[tuple[int, int], ...], source: object) -> None:
        self.x, self.a, self.others, self.vars, self.source = x, a, others, (x,), source

    def propagate(self, D: list[Dom], off: list[int], queue: set[int], _: int) -> bool:
        x, a = self.x, self.a
        dx, ox = D[x], off[x]
        lox: float
        hix: float
        loy: float
        hiy: float
        if type(dx) is int:
            lox, hix = ox + (dx & -dx).bit_length() - 1, ox + dx.bit_length() - 1
        else:
            lox, hix = low(dx, ox), high(dx, ox)
        for y, b in self.others:
            dy = D[y]
            if type(dy) is int:
                oy = off[y]
                loy, hiy = oy + (dy & -dy).bit_length() - 1, oy + dy.bit_length() - 1
            else:
                loy, hiy = low(dy, off[y]), high(dy, off[y])
            if lox + a > hiy:  # x cannot go first: y + b <= x
                if loy + b > hix:
                    return False
                if lox < loy + b:
                    if not narrow(D, queue, x, keep_ge(D[x], ox, loy + b)):
                        return False
                    lox = loy + b  # at least (a bitset's low may lie above)
                if hiy + b > hix and not narrow(D, queue, y, keep_le(dy, off[y], hix - b)):
                    return False
            elif loy + b > hix:  # y cannot go first: x + a <= y
                if loy < lox + a and not narrow(D, queue, y, keep_ge(dy, off[y], lox + a)):
                    return False
                if hix + a > hiy:
                    if not narrow(D, queue, x, keep_le(D[x], ox, hiy - a)):
                        return False
                    hix = hiy - a  # at most
        return True


PAIRS = 16
"""The most tasks of a unary resource kept apart from the others by an :class:`Apart` each."""

SEEN = 1024
"""How many start bounds a resource remembers its answer for (then it forgets them all)."""


class CumulativeProp(Propagator):
    """Tasks ``(start, duration, height)`` never use more than ``limit`` at once (bounds reasoning)."""

    __slots__ = (
        "busy",
        "busy_dur",
        "dur",
        "followers",
        "gaps",
        "height",
        "implied",
        "limit",
        "rules",
        "seen",
    )
    slow = True  # its rules cost O(n^2): once a round, after the cheap propagators

    def __init__(
        self,
        starts: tuple[int, ...],
        dur: tuple[int, ...],
        height: tuple[int, ...],
        limit: int,
        source: object = None,
        implied: bool = False,
        pairwise: bool = True,
        gaps: dict[tuple[int, int], int] | None = None,
    ) -> None:
        """``pairwise=False``: the pairs of a unary resource are kept apart by constraints of their own.

        ``gaps[x, y]``: how far ``y`` starts after ``x`` at least when ``x`` goes first, where that
        passes ``x``'s duration (a setup time, kept by the pairs' own constraints): a ranking's
        precedences keep it.
        """
        self.implied, self.gaps = implied, gaps or {}
        self.vars, self.dur, self.height, self.limit, self.source = (
            starts,
            dur,
            height,
            limit,
            source,
        )
        busy = [t for t, (d, h) in enumerate(zip(dur, height, strict=True)) if d and h]
        self.busy = tuple(starts[t] for t in busy) if alone(height, limit, busy) else None
        """The start variables of the tasks that take time on a unary resource (``None``: not unary)."""
        self.busy_dur = tuple(dur[t] for t in busy)
        on = self.busy or ()
        self.followers = (
            [
                sorted((self.gaps.get((x, y), d), t) for t, y in enumerate(on) if y != x)
                for x, d in zip(on, self.busy_dur, strict=True)
            ]
            if self.gaps
            else None
        )
        """Per task of a unary resource with gaps: ``(gap, task)`` for each task that may go next,
        least gap first (``None``: no gaps)."""
        self.seen: dict[tuple[int, ...], tuple[list[int], list[int]] | tuple[()]] = {}
        """What :meth:`bounds` gave for recent start bounds (searches meet the same ones again)."""
        self.rules = unary if pairwise else sequenced
        """A unary resource's rules; the pairwise rule is left to the pairs' own constraints if they
        are posted (cheap propagators, run before this one: it would find nothing to do)."""

    def propagate(self, D: list[Dom], off: list[int], queue: set[int], _: int) -> bool:
        xs = self.vars if self.busy is None else self.busy
        est, lst = start_bounds(D, off, xs)  # a unary resource leaves the tasks taking no time
        key = (*est, *lst)
        found = self.seen.get(key)
        if found is None:
            if len(self.seen) >= SEEN:
                self.seen.clear()
            found = self.seen[key] = self.bounds(est, lst)
        if not found:
            return False
        up, down = found
        for x, e, s, lo, hi in zip(xs, est, lst, up, down, strict=True):
            if (lo != e or hi != s) and (
                lo > hi or not narrow(D, queue, x, keep_le(keep_ge(D[x], off[x], lo), off[x], hi))
            ):
                return False
        return True

    def lengths(self, est: list[int], lst: list[int]) -> Sequence[int]:
        """The tasks' durations at these start bounds: on a unary resource with gaps, a task
        lasts until the nearest task that may still follow it."""
        if self.busy is None:
            return self.dur
        if self.followers is None:
            return self.busy_dur
        return [
            next((g for g, t in after if e + g <= lst[t]), d)
            for e, d, after in zip(est, self.busy_dur, self.followers, strict=True)
        ]

    def bounds(self, est: list[int], lst: list[int]) -> tuple[list[int], list[int]] | tuple[()]:
        """The new earliest and latest starts, or ``()`` if the tasks cannot fit."""
        dur = self.lengths(est, lst)
        if self.busy is None:
            if overloaded(est, lst, dur, self.height, self.limit):
                return ()
            up = time_table(est, lst, dur, self.height, self.limit)
            down = time_table(  # the same, with time running backwards: latest ends, negated
                [-s - d for s, d in zip(lst, dur, strict=True)],
                [-e - d for e, d in zip(est, dur, strict=True)],
                dur,
                self.height,
                self.limit,
            )
        else:  # unary: the pairwise rule does what time-tabling would, and edge finding more
            lct = [s + d for s, d in zip(lst, dur, strict=True)]
            live = unsettled(est, lct, dur)
            span = [dur[t] for t in live]
            ends = [lct[t] for t in live]
            new = self.rules([est[t] for t in live], ends, span)
            back = None if new is None else self.rules([-c for c in ends], [-e for e in new], span)
            if new is None or back is None:
                return ()
            up, down = est[:], [-c for c in lct]
            for t, a, b in zip(live, new, back, strict=True):
                up[t], down[t] = a, b
        if up is None or down is None:
            return ()
        return up, [-back - d for back, d in zip(down, dur, strict=True)]

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
        dur, height = self.durations, self.heights
        busy = [t for t, (d, h) in enumerate(zip(dur, height, strict=True)) if d and h]
        unary = alone(height, self.limit, busy)
        pairs = len(busy) <= PAIRS and unary
        if pairs:  # the pairwise rule, a propagator a task: cheap, and at once
            for a in busy:
                others = tuple((xs[b], dur[b]) for b in busy if b != a)
                if not posting.attach(Apart(xs[a], dur[a], others, self)):
                    return False
        resources = [CumulativeProp(tuple(xs), dur, height, self.limit, self, pairwise=not pairs)]
        if not unary:
            resources += redundant(xs, dur, height, self.limit, busy, self)
        return all(posting.attach(p) for p in resources)


def redundant(
    xs: Sequence[int],
    dur: tuple[int, ...],
    height: tuple[int, ...],
    limit: int,
    busy: Sequence[int],
    source: object,
) -> list[CumulativeProp]:
    """Implied resources that a cumulative one of ``busy`` tasks (not unary) holds within it.

    * the tallest tasks no two of which fit side by side, when there are
      three or more, are a unary resource (:func:`tallest_apart`): edge
      finding and *not first* reason on them;
    * the heights lifted by each dual feasible function :func:`lifted` make
      resources whose overload checks see more: on a resource of limit 4,
      tasks of height 3 leave room only to tasks of height 1, and those of
      height 2 run two at a time, so that a project whose work takes 111
      units needs 30 steps, not 28.
    """
    found, kept = [], set()
    for k in range(2, limit // 2 + 1):
        h = lifted(height, limit, k)
        raised = any(limit - k < height[t] < limit for t in busy)  # else it sees less, not more
        if raised and h not in kept and not alone(h, limit, [t for t in busy if h[t]]):
            kept.add(h)
            found.append(CumulativeProp(tuple(xs), dur, h, limit, source, implied=True))
    tall = tallest_apart(height, limit, busy)
    if len(tall) >= 3:
        found.append(
            CumulativeProp(
                tuple(xs[t] for t in tall),
                tuple(dur[t] for t in tall),
                (1,) * len(tall),
                1,
                source,
                implied=True,
            )
        )
    return found


def lifted(height: tuple[int, ...], limit: int, k: int) -> tuple[int, ...]:
    """Heights under the dual feasible function of parameter ``k`` (``1 <= k <= limit / 2``).

    A task taller than ``limit - k`` takes the whole resource (any task
    beside it is lower than ``k``), one lower than ``k`` none, the others
    keep their heights: whatever fits under ``limit`` still does.

    >>> lifted((3, 2, 1), 4, 2)
    (4, 2, 0)
    """
    return tuple(limit if h > limit - k else h if h >= k else 0 for h in height)


def tallest_apart(height: Sequence[int], limit: int, tasks: Sequence[int]) -> list[int]:
    """Of ``tasks``, tallest first, those no two of which fit side by side: a unary resource.

    >>> tallest_apart([3, 2, 3, 1, 2], 4, range(5))
    [0, 2, 1]
    """
    chosen: list[int] = []
    for t in sorted(tasks, key=lambda t: -height[t]):
        if all(height[t] + height[c] > limit for c in chosen):
            chosen.append(t)
    return chosen
