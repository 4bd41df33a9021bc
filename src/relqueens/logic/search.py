"""Goals as values, and the interleaving search that runs them.

A goal is anything kanren accepts: a function from a state to an iterable
of states. relqueens' own goals are small records (a conjunction, a
disjunction, a relation call, a unification, ...) that say *what* they are
through ``search_kind``; :func:`solve` runs them without recursion, so no
depth of conjunction, disjunction or relation calls reaches Python's stack.

The search order is microKanren's (and The Reasoned Schemer's):

* a conjunction runs its goals left to right on each state;
* a disjunction tries its branches left to right, depth first, as long as
  none of them makes a *relation call* (a goal made by :func:`relation`, or
  ``Zzz``): a call suspends its branch, which goes to the back of a queue,
  and the next branch (or the oldest suspended one) runs. Every branch gets
  its turn, so an answer is found after finitely many steps whenever one
  exists, however many branches run forever — the disjunction is *fair*;
* a conjunction is not fair in the same sense: ``run(1, q, alwayso(), fail)``
  runs forever, as in every miniKanren;
* goals from outside (kanren's own relations, or any function of a state)
  are asked for one state per turn, and suspend between states;
* FD labeling is a finite search and runs depth first, one pass per
  labeling.

States are copied only where branches that share one both extend it (copy
on write): a goal that extends a state it alone holds extends it in place.
"""

from __future__ import annotations

import dis
import sys
from collections import deque
from collections.abc import Callable, Iterator
from types import GeneratorType
from typing import TYPE_CHECKING, Any, TypeAlias

from .limits import current_budget
from .state import State, as_state

if TYPE_CHECKING:
    from types import FrameType

FOREIGN, STEP, CONJ, DISJ, LAZY, CALL, FRESH, DYNAMIC, STATES, SCHEDULE = range(10)
"""What a goal is, for :func:`solve` (a goal's ``search_kind``):

- ``STEP``: ``goal.step(S) -> bool`` extends the state ``S`` it owns, in place;
- ``CONJ``/``DISJ``: ``goal.goals``, a tuple; ``LAZY``: a disjunction over the
  iterator ``goal.alternatives()``;
- ``CALL``: a relation call, ``goal.expand()`` builds its body (a suspension
  point); ``FRESH``: the same without suspending; ``DYNAMIC``:
  ``goal.expand(S)`` builds a goal from the state;
- ``STATES``: ``goal.states(S)``, a finite iterator of new states (labeling),
  searched depth first;
- ``SCHEDULE``: ``goal.schedule(S, k, search)`` takes the thread over (its
  state ``S`` and the rest of its goals ``k``) and hands the work it makes to
  the :class:`Search` (tabling);
- ``FOREIGN``: any other callable ``S -> iterable of states``.
"""

_RUN, _RESUME, _PULL, _MORE = range(4)
SHARED = 1 << 62
"""The ``refs`` of a state the search does not own: it is copied before any change."""

Cont: TypeAlias = "tuple[Any, Cont] | None"
"""A continuation: the goals still to run on a thread, as a linked list ``(goal, rest)``."""
Work: TypeAlias = "tuple[int, Any, Any]"
"""A piece of work in :func:`solve`'s queues: a tag, then a state or an iterator, then a
continuation or a tuple that holds one (what each holds depends on the tag)."""


class Goal:
    """Base of relqueens' goals: calling one with a state gives its states, as kanren expects.

    >>> from relqueens import eq, var
    >>> x = var()
    >>> [S.data[x] for S in eq(x, 1)({})]
    [1]
    """

    __slots__ = ()
    search_kind = FOREIGN

    def __call__(self, S: Any) -> Iterator[State]:
        return Stream(self, S)


class Handoff:
    """A goal that a foreign generator delegates to (``yield from goal(S)``), handed to the search.

    The search runs the goal itself, sending its states where the
    generator's would have gone, so a relation written as a generator in
    kanren's style recurses without nesting Python frames.
    """

    __slots__ = ("goal", "state")

    def __init__(self, goal: Any, state: Any) -> None:
        self.goal, self.state = goal, state


_SEND = dis.opmap.get("SEND")
# the frames of the foreign generators the searches are resuming, innermost last
_driving: list[FrameType | None] = []
_SPENT: Iterator[Any] = iter(())


class Stream:
    """The states of a goal on a state, as an iterator (what calling a goal returns).

    Iterated by anyone, it runs the search. Delegated to by a foreign
    generator that the search itself is resuming (``yield from``), it
    hands the goal over instead (:class:`Handoff`), so the search runs it
    without nesting.
    """

    __slots__ = ("goal", "it", "state")
    it: Iterator[Any] | None

    def __init__(self, goal: Any, state: Any) -> None:
        self.goal, self.state, self.it = goal, state, None

    def __iter__(self) -> Stream:
        return self

    def __next__(self) -> Any:
        it = self.it
        if it is None:
            if _delegated_by_driven_frame():
                self.it = _SPENT
                return Handoff(self.goal, self.state)
            it = self.it = solve(self.goal, as_state(self.state))
        return next(it)


def _delegated_by_driven_frame() -> bool:
    """True if the caller of ``Stream.__next__`` is a generator the search resumes, inside ``yield from``."""
    if not _driving or _SEND is None:
        return False
    frame = sys._getframe(2)
    return frame is _driving[-1] and frame.f_code.co_code[frame.f_lasti] == _SEND


class Search:
    """One run of :func:`solve`, as a ``SCHEDULE`` goal sees it: its queues, and room for its goals' data.

    A thread is a state and a continuation ``k``, the goals still to run on
    it as a linked list ``(goal, rest)`` ending in ``None``. ``tables`` is
    ``None`` until a goal keeps something for the length of the search there
    (tabling keeps its tables).
    """

    __slots__ = ("ready", "tables", "waiting")
    tables: dict[Any, Any] | None

    def __init__(self, ready: list[Work], waiting: deque[Work]) -> None:
        self.ready, self.waiting, self.tables = ready, waiting, None

    def later(self, S: State, k: Cont) -> None:
        """Run the thread in turn, after the work already waiting."""
        self.waiting.append((_RUN, S, k))

    def each(self, states: Iterator[State], S: State, k: Cont) -> None:
        """Run ``k`` on each state of ``states``, depth first; the iterator holds one reference to ``S``."""
        self.ready.append((_PULL, states, (S, False, k)))


# S is a State; typed Any because the loop reuses the name for what its work items hold (a
# state, an iterator, an outside goal's item, None)
def solve(goal: Any, S: Any, shared: bool = True) -> Iterator[State]:
    """The states, extending ``S``, in which ``goal`` holds: the search, lazily.

    ``S`` is not changed unless ``shared`` is false (the caller gives it up).
    Each state counts the pieces of pending work that hold it (``refs``); a
    goal that extends a state extends it in place when it is the only
    holder, and a copy otherwise.
    """
    if shared:
        S.refs = SHARED
    budget = current_budget()
    ready: list[Work] = []  # depth-first work: forks and labelings, last in first out
    waiting: deque[Work] = deque()  # suspended work: relation calls and outside goals, in turn
    search: Search | None = None  # made when a SCHEDULE goal first needs it
    ready.append((_RUN, S, (goal, None)))
    while True:
        if ready:
            tag, S, k = item = ready.pop()
        elif waiting:
            tag, S, k = item = waiting.popleft()
        else:
            return
        if budget is not None:
            budget.tick()
        if tag is _RESUME:
            g, k = k
            k = (g.expand(), k)
        elif tag is _PULL:
            it, fair = S, k[1]
            if fair and type(it) is GeneratorType:
                _driving.append(it.gi_frame)
                try:
                    S = next(it, None)
                finally:
                    _driving.pop()
            else:
                S = next(it, None)
            if S is None:
                k[0].refs -= 1  # the state the iterator read
                continue
            k = k[2]
            if fair:
                waiting.append(item)
                if type(S) is Handoff:
                    k = (S.goal, k)
                    S = S.state
                S = as_state(S)
                S.refs = SHARED  # an outside goal may hand out the same state again
            else:
                ready.append(item)
        elif tag is _MORE:
            alternatives, k = k
            g = next(alternatives, None)
            if g is None:
                S.refs -= 1
                continue
            waiting.append(item)
            S.refs += 1
            k = (g, k)
        while k is not None:
            g, k = k
            kind = getattr(g, "search_kind", FOREIGN)
            if kind is STEP:
                if S.refs > 1:
                    S.refs -= 1
                    S = S.copy()
                if not g.step(S):
                    break
            elif kind is CONJ:
                for sub in reversed(g.goals):
                    k = (sub, k)
            elif kind is DISJ:
                goals = g.goals
                if not goals:
                    S.refs -= 1
                    break
                S.refs += len(goals) - 1
                for alt in goals[:0:-1]:
                    ready.append((_RUN, S, (alt, k)))
                k = (goals[0], k)
            elif kind is CALL:
                waiting.append((_RESUME, S, (g, k)))
                break
            elif kind is FRESH:
                k = (g.expand(), k)
            elif kind is DYNAMIC:
                k = (g.expand(S), k)
            elif kind is STATES:
                ready.append((_PULL, g.states(S), (S, False, k)))
                break
            elif kind is LAZY:
                ready.append((_MORE, S, (g.alternatives(), k)))
                break
            elif kind is SCHEDULE:
                if search is None:
                    search = Search(ready, waiting)
                g.schedule(S, k, search)
                break
            else:
                if S.refs > 1:
                    S.refs -= 1
                    S = S.copy()
                ready.append((_PULL, _outside(g, S), (S, True, k)))
                break
        else:
            yield S


def _outside(g: Callable[[State], Any], S: State) -> Iterator[Any]:
    """The states of a goal from outside relqueens (a kanren goal or a plain function)."""
    if not callable(g):
        raise TypeError(f"{g!r} ({type(g).__name__}) is not a goal")
    states = g(S)
    try:
        return iter(states)
    except TypeError:
        raise TypeError(f"the goal {g!r} returned {states!r}, not an iterable of states") from None
