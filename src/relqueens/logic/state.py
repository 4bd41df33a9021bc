"""States, substitutions and unification.

A state is kanren's ``ConstrainedState``: a substitution (``data``, a dict
from logic variables to terms) and the constraint stores that watch it. Our
:class:`State` copies itself in one step (kanren's copies key by key), and our
unification extends a substitution *in place*: the search copies a state only
where a branch forks, so a conjunction of a hundred thousand ``eq`` goals
costs linear time and memory, not quadratic.

Unification follows kanren's rules (lists unify with lists, tuples with
tuples, ``cons`` pairs with either, anything else by ``==``) and adds the
occurs check of The Reasoned Schemer, so ``x == [x]`` fails instead of
building a cyclic term. Splitting a Python list with ``cons`` yields a
:class:`Tail`, a view of the list from some position on, so walking down a
list of ``n`` items costs ``O(n)``, not ``O(n**2)`` copies.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from itertools import islice
from typing import Any, Literal, TypeAlias, final

from cons.core import ConsPair, _car, _cdr
from kanren.constraints import ConstrainedState
from unification import unify as kanren_unify
from unification.core import _reify, _unify
from unification.variable import LVarType

Subst: TypeAlias = "dict[Any, Any]"
"""A substitution: logic variables to terms (any Python values, inspected at run time)."""


def isvar(term: object) -> bool:
    """True for a logic variable (a fast, exact check on the metaclass).

    >>> from unification import var
    >>> isvar(var()), isvar(3)
    (True, False)
    """
    return type(type(term)) is LVarType


def walk(term: Any, s: Mapping[Any, Any]) -> Any:
    """Follow variable bindings in substitution ``s`` until a value or a free variable.

    >>> from unification import var
    >>> x, y = var(), var()
    >>> walk(x, {x: y, y: 3})
    3
    """
    while type(type(term)) is LVarType:  # isvar, inlined: the hottest loop of posting
        nxt = s.get(term, term)
        if nxt is term:
            return term
        term = nxt
    return term


class State(ConstrainedState):
    """A kanren ``ConstrainedState`` that copies in one step.

    ``refs`` counts the pending pieces of search work that hold the state
    (see :func:`relqueens.logic.search.solve`).

    >>> S = State()
    >>> S.copy() is not S, S.data
    (True, {})
    """

    def __init__(
        self, data: Subst | None = None, constraints: dict[Any, Any] | None = None
    ) -> None:
        self.data = {} if data is None else data
        self.constraints = {} if constraints is None else constraints
        self.refs = 1

    def copy(self, data: Subst | None = None) -> State:
        new = State.__new__(State)
        new.data = self.data.copy() if data is None else data
        stores = self.constraints
        new.constraints = {k: c.copy() for k, c in stores.items()} if stores else {}
        new.refs = 1
        return new


def as_state(S: object) -> State:
    """``S`` as a :class:`State`: kanren's states and plain dicts are adopted (copied)."""
    if type(S) is State:
        return S
    if isinstance(S, ConstrainedState):
        return State(dict(S.data), {k: c.copy() for k, c in S.constraints.items()})
    if isinstance(S, Mapping):
        return State(dict(S))
    raise TypeError(f"a goal was given {S!r}, which is not a state (a substitution)")


@final
class Tail:
    """The items of a list or tuple from position ``start`` on: ``seq[start:]`` without the copy.

    It unifies, reifies and compares like the slice it stands for.

    >>> Tail([1, 2, 3], 1) == [2, 3], Tail((1, 2, 3), 2).materialize()
    (True, (3,))
    """

    __slots__ = ("ground", "seq", "start")

    def __init__(
        self, seq: list[Any] | tuple[Any, ...], start: int, ground: bool | None = None
    ) -> None:
        self.seq, self.start = seq, start
        self.ground = ground

    def materialize(self) -> list[Any] | tuple[Any, ...]:
        """The slice this tail stands for."""
        return self.seq[self.start :]

    def is_ground(self) -> bool:
        """True when no item is a logic variable (computed once per list, then inherited)."""
        if self.ground is None:
            self.ground = ground_sequence(self.seq)
        return self.ground

    def __len__(self) -> int:
        return len(self.seq) - self.start

    def __iter__(self) -> Iterator[Any]:
        return islice(self.seq, self.start, None)

    def __eq__(self, other: object) -> bool:
        if type(other) is Tail:
            other = other.materialize()
        return self.materialize() == other

    def __hash__(self) -> int:
        return hash(self.materialize())

    def __repr__(self) -> str:
        return repr(self.materialize())


_GROUND: dict[int, object] = {}
_GROUND_LIMIT = 1 << 17


def _remember_ground(terms: list[Any]) -> None:
    """Note that the lists and tuples ``terms`` hold no variable (a bounded memo that keeps them alive).

    Walking down a term relationally checks the same ground sub-terms again
    and again (the occurs check); the memo keeps that linear.
    """
    if len(_GROUND) + len(terms) > _GROUND_LIMIT:
        _GROUND.clear()
    for t in terms:
        _GROUND[id(t)] = t


def ground_sequence(seq: list[Any] | tuple[Any, ...]) -> bool:
    """True when the list or tuple ``seq`` holds no logic variable (remembered)."""
    return _GROUND.get(id(seq)) is seq or not has_var(seq)


def split(seq: list[Any] | tuple[Any, ...] | Tail) -> tuple[Any, Any] | None:
    """``(first, rest)`` of a non-empty list, tuple or :class:`Tail` (rest as a Tail), else ``None``."""
    if type(seq) is Tail:
        base, start, ground = seq.seq, seq.start, seq.ground
    else:
        base, start, ground = seq, 0, None
    if start >= len(base):
        return None
    rest = Tail(base, start + 1, ground) if start + 1 < len(base) else type(base)()
    return base[start], rest


def has_var(term: object) -> bool:
    """True if ``term`` (not walked) contains a logic variable."""
    return _find(term, None, None)


def _find(term: object, v: object, s: Mapping[Any, Any] | None) -> bool:
    """Whether ``term`` holds variable ``v`` under ``s`` (any variable, when ``s`` is ``None``).

    Lists and tuples found to hold no variable at all are remembered as ground.
    """
    stack: list[Any] = [term]
    compounds: list[Any] = []
    seen_var = False
    while stack:
        t = stack.pop()
        tt = type(t)
        if tt is int or tt is str:
            continue
        if type(tt) is LVarType:
            if s is None:
                return True
            seen_var = True
            t = walk(t, s)
            if t is v or (isvar(t) and t == v):
                return True
            tt = type(t)
            if type(tt) is LVarType:
                continue
        if tt is list or tt is tuple:
            if _GROUND.get(id(t)) is not t:
                compounds.append(t)
                stack.extend(t)
        elif tt is Tail:
            if not t.is_ground():
                stack.extend(t)
        elif issubclass(tt, ConsPair):
            stack.append(t.car)
            stack.append(t.cdr)
        elif isinstance(t, Mapping):
            stack.extend(t.values())
    if not seen_var and compounds:
        _remember_ground(compounds)
    return False


def sequence_type(t: Any) -> type | None:
    """The sequence type ``t`` unifies as (list or tuple, a Tail as its base), else ``None``."""
    tt = type(t)
    if tt is list or tt is tuple:
        return tt
    if tt is Tail:
        return type(t.seq)
    return None


def unify_into(u: Any, v: Any, s: Subst) -> bool:
    """Extend substitution ``s`` in place so that ``u`` and ``v`` are equal; ``False`` if they cannot be.

    On failure ``s`` may hold some of the new bindings: the caller owns it and
    drops it. Constraint stores are not consulted (see :func:`unify_state`).

    >>> from unification import var
    >>> x, y = var(), var()
    >>> s = {}
    >>> unify_into([x, 2], [1, y], s), s == {x: 1, y: 2}
    (True, True)
    >>> unify_into(x, [x], {})
    False
    """
    stack = [(u, v)]
    pop, push = stack.pop, stack.append
    while stack:
        u, v = pop()
        u, v = walk(u, s), walk(v, s)
        if u is v:
            continue
        if isvar(u):
            if isvar(v):
                if u != v:
                    s[u] = v
            elif type(v) is int or type(v) is str or not _find(v, u, s):
                s[u] = v
            else:
                return False
            continue
        if isvar(v):
            if type(u) is int or type(u) is str or not _find(u, v, s):
                s[v] = u
                continue
            return False
        tu, tv = sequence_type(u), sequence_type(v)
        if tu is not None and tu is tv:
            if len(u) != len(v):
                return False
            stack.extend(zip(u, v))
            continue
        if issubclass(type(u), ConsPair) or issubclass(type(v), ConsPair):
            if not _unify_cons(u, v, tu, tv, push):
                return False
            continue
        if tu is not None and tv is not None:
            return False
        if type(u) in _ATOMS or type(v) in _ATOMS:
            if u != v:
                return False
            continue
        if not _unify_other(u, v, s):
            return False
    return True


_ATOMS = frozenset((int, str, float, bool, complex, bytes, type(None)))


def _unify_cons(
    u: Any, v: Any, tu: type | None, tv: type | None, push: Callable[[tuple[Any, Any]], None]
) -> bool:
    """Unify a cons pair with a cons pair, a list, a tuple or a Tail (pushing the parts)."""
    halves = []
    for t, tt in ((u, tu), (v, tv)):
        if issubclass(type(t), ConsPair):
            halves.append((t.car, t.cdr))
        elif tt is not None:
            parts = split(t)
            if parts is None:
                return False
            halves.append(parts)
        else:
            return False
    (a1, d1), (a2, d2) = halves
    push((d1, d2))
    push((a1, a2))
    return True


def _unify_other(u: object, v: object, s: Subst) -> bool:
    """Unify terms of other types (dicts, sets, kanren's extensions) with kanren's rules."""
    n0 = len(s)
    found = kanren_unify(u, v, s)
    if found is False:
        return False
    for key in list(islice(found, n0, None)):
        s[key] = found[key]
    return True


def unify_state(u: object, v: object, S: State) -> bool:
    """Unify ``u`` and ``v`` in state ``S`` (owned by the caller), consulting its constraint stores.

    The stores' kanren hooks run as kanren runs them: ``pre_unify_check``
    before, ``post_unify_check`` after the substitution grew.
    """
    data, stores = S.data, S.constraints
    if not stores:
        return unify_into(u, v, data)
    if not all(c.pre_unify_check(data, u, v) for c in stores.values()):
        return False
    n0 = len(data)
    if not unify_into(u, v, data):
        return False
    if len(data) == n0:
        return True
    return all(c.post_unify_check(data, u, v, S) for c in list(stores.values()))


def extension(u: object, v: object, s: Subst) -> Subst | Literal[False]:
    """The bindings that would make ``u`` and ``v`` equal under ``s`` (``s`` is left as it was).

    ``False`` if they cannot be unified, ``{}`` if they are already equal.

    >>> from unification import var
    >>> x, y = var("x"), var("y")
    >>> extension([x, y], [0, 1], {x: 0})
    {~y: 1}
    """
    n0 = len(s)
    ok = unify_into(u, v, s)
    new = list(islice(s.items(), n0, None)) if len(s) > n0 else ()
    for key, _ in new:
        del s[key]
    return dict(new) if ok else False


# -- Tail as a term of kanren's (foreign goals may meet one in a substitution) ---------------


def _reify_tail(t: Tail, s: Mapping[Any, Any]) -> Any:
    return _reify(t.materialize(), s)


def _unify_tail(u: Any, v: Any, s: Mapping[Any, Any]) -> Any:
    return _unify(
        u.materialize() if type(u) is Tail else u, v.materialize() if type(v) is Tail else v, s
    )


_reify.add((Tail, Mapping), _reify_tail)
for _left, _right in ((Tail, Tail), (Tail, list), (Tail, tuple), (list, Tail), (tuple, Tail)):
    _unify.add((_left, _right, Mapping), _unify_tail)  # cons pairs and variables: kanren's rules
_car.add((Tail,), lambda t: t.seq[t.start])
_cdr.add((Tail,), lambda t: split(t)[1])  # type: ignore[index]  # a Tail is never empty
