"""Term disequality, ``neq`` (The Reasoned Schemer's ``=/=``).

``neq(u, v)`` holds as long as ``u`` and ``v`` cannot be made equal. It is
kept as the small substitution that *would* make them equal: for
``neq([x, y], [0, 1])`` that is ``{x: 0, y: 1}``, a disjunction — ``x != 0``
*or* ``y != 1`` — not kanren's conjunction. The constraint is woken only when
one of its variables is bound, and then either holds for good (dropped),
fails, or shrinks.

A disequality between one variable and an integer or another variable that
has a finite domain is handed to the store that owns the domain (the FD
layer), which propagates it and respects it while labeling.

>>> from relqueens import run, var, eq, membero
>>> x, y = var(), var()
>>> run(0, y, neq([x, y], [0, 1]), eq(x, 0), membero(y, [0, 1, 2]))
(0, 2)
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import islice
from typing import Any, TypeAlias

from kanren.constraints import ConstraintStore

from .goals import GoalLike
from .search import STEP, Goal
from .state import State, Subst, extension, isvar, walk

Pairs: TypeAlias = "tuple[tuple[Any, Any], ...]"
"""A disequality: ``((var, term), ...)``, the bindings that must not all hold."""


def _variables(term: Any, s: Subst, found: list[Any]) -> None:
    stack = [term]
    while stack:
        t = walk(stack.pop(), s)
        if isvar(t):
            found.append(t)
        elif isinstance(t, (list, tuple)):
            stack.extend(t)


class DisequalityStore(ConstraintStore):
    """The disequalities of a state, each filed under the variables that can wake it."""

    __slots__ = ("seen", "watch")
    op_str = "=/="

    def __init__(self, watch: dict[Any, tuple[Pairs, ...]] | None = None, seen: int = 0) -> None:
        self.lvar_constraints = {}
        self.watch = {} if watch is None else watch
        self.seen = seen

    def copy(self) -> DisequalityStore:
        return DisequalityStore(dict(self.watch), self.seen)

    def add(self, pairs: Pairs, s: Subst) -> bool:  # type: ignore[override]  # kanren's add(lvar, constraint) does not fit
        """Post ``pairs`` (``((var, term), ...)``) as one disequality; ``False`` if it fails now."""
        if not pairs:
            return False
        us, vs = zip(*pairs)
        ext = extension(us, vs, s)
        if ext is False:
            return True
        if not ext:
            return False
        c = tuple(ext.items())
        found: list[Any] = []
        for v, t in c:
            found.append(v)
            _variables(t, s, found)
        for v in dict.fromkeys(found):
            self.watch[v] = self.watch.get(v, ()) + (c,)
        return True

    def pre_unify_check(self, lvar_map: Subst, lvar: Any = None, value: Any = None) -> bool:
        return True

    def post_unify_check(
        self, lvar_map: Subst, lvar: Any = None, value: Any = None, old_state: State | None = None
    ) -> bool:
        n = len(lvar_map)
        if n <= self.seen or not self.watch:
            self.seen = n
            return True
        new = list(islice(reversed(lvar_map), n - self.seen))
        self.seen = n
        woken: dict[int, Pairs] = {}
        for v in new:
            for c in self.watch.pop(v, ()):
                woken[id(c)] = c
        return all(self.add(c, lvar_map) for c in woken.values())

    def pending(self, s: Subst) -> list[Pairs]:
        """The disequalities still open under ``s``, each as ``((var, term), ...)``."""
        seen: dict[int, Pairs] = {}
        for cs in self.watch.values():
            for c in cs:
                seen[id(c)] = c
        return [c for c in seen.values() if extension(*zip(*c), s) not in (False, {})]  # type: ignore[call-arg, arg-type]  # zip(*c): the two sides

    def __eq__(self, other: object) -> bool:
        return type(other) is DisequalityStore and self.watch == other.watch

    __hash__ = None  # type: ignore[assignment]  # mutable, so unhashable

    def __repr__(self) -> str:
        return f"DisequalityStore({self.watch})"


class Neq(Goal):
    """``u`` and ``v`` never become equal."""

    __slots__ = ("u", "v")
    search_kind = STEP

    def __init__(self, u: Any, v: Any) -> None:
        self.u, self.v = u, v

    def step(self, S: State) -> bool:
        ext = extension(self.u, self.v, S.data)
        if ext is False:
            return True
        if not ext:
            return False
        for other in S.constraints.values():
            take: Callable[[State, Subst], bool | None] | None = getattr(
                other, "take_disequality", None
            )
            if take is not None:
                taken = take(S, ext)
                if taken is not None:
                    return taken
        store: DisequalityStore | None = S.constraints.get(DisequalityStore)
        if store is None:
            store = S.constraints[DisequalityStore] = DisequalityStore(seen=len(S.data))
        return store.add(tuple(ext.items()), S.data)

    def __repr__(self) -> str:
        return f"neq({self.u!r}, {self.v!r})"


def neq(u: Any, v: Any) -> GoalLike:
    """``u`` and ``v`` are different terms, now and after any later binding.

    An FD expression on either side makes it the FD constraint ``u != v``.

    >>> from relqueens import run, var, eq
    >>> x = var()
    >>> run(0, x, neq(x, 1), eq(x, 1)), run(0, x, eq(x, 2), neq(x, 1))
    ((), (2,))
    """
    for a, b in ((u, v), (v, u)):
        make: Callable[[Any], GoalLike] | None = getattr(a, "disequality", None)
        if make is not None:
            return make(b)
    return Neq(u, v)
