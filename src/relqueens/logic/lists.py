"""Relations on lists, with kanren's meaning and names, searched by relqueens.

Each gives the answers of kanren's function of the same name (the same
clauses, so the same answers), but runs in relqueens' fair, stack-free
search: ``membero`` over a list of a hundred thousand items is fine, and an
infinite relation in a conjunction does not starve its siblings.

>>> from relqueens import run, var
>>> x, y = var(), var()
>>> run(0, (x, y), appendo(x, y, [1, 2]))
(([], [1, 2]), ([1], [2]), ([1, 2], []))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import permutations
from operator import length_hint
from typing import Any

from cons import cons
from cons.core import ConsPair
from unification import var

from .disequality import neq
from .goals import Dynamic, GoalLike, conde, eq, fail, lall, lany, relation, succeed
from .reify import reify
from .search import STEP, Goal
from .state import State, has_var, sequence_type, unify_state, walk


def conso(h: Any, t: Any, r: Any) -> Goal:
    """``r`` is the pair of ``h`` and ``t``: ``r == [h, *t]``."""
    return eq(cons(h, t), r)


def heado(head: Any, coll: Any) -> Goal:
    """``head`` is the first item of ``coll`` (The Reasoned Schemer's ``caro``)."""
    return eq(cons(head, var()), coll)


def tailo(tail: Any, coll: Any) -> Goal:
    """``tail`` is ``coll`` without its first item (``cdro``)."""
    return eq(cons(var(), tail), coll)


def _null_type(t: Any) -> type | None:
    """The type of empty sequence ``t`` stands for, if it is a (possibly empty) sequence."""
    kind = sequence_type(t)
    if kind is None and isinstance(t, ConsPair) and not issubclass(type(t), ConsPair):
        return type(t)  # another kind of sequence cons knows (its car/cdr are registered)
    return kind


class Nullo(Goal):
    """Each term is the empty sequence, all of one type (kanren's ``nullo``)."""

    __slots__ = ("args", "default", "refs")
    search_kind = STEP

    def __init__(self, args: tuple[Any, ...], refs: tuple[Any, ...], default: type) -> None:
        self.args, self.refs, self.default = args, refs, default

    def step(self, S: State) -> bool:
        s = S.data
        types = {_null_type(walk(t, s)) for t in self.args + self.refs} - {None}
        if len(types) > 1:
            return False
        null: type = types.pop() if types else self.default  # type: ignore[assignment]  # None was taken out
        return all(unify_state(a, null(), S) for a in self.args)


def nullo(*args: Any, refs: tuple[Any, ...] | None = None, default_ConsNull: type = list) -> Goal:
    """The terms are empty sequences of one type (``list`` unless a term or ``refs`` says otherwise)."""
    return Nullo(args, tuple(refs or ()), default_ConsNull)


@relation
def itero(
    lst: Any, nullo_refs: tuple[Any, ...] | None = None, default_ConsNull: type = list
) -> GoalLike:
    """``lst`` is a proper sequence (kanren's ``itero``, The Reasoned Schemer's ``listo``)."""
    c, d = var(), var()
    return conde(
        [nullo(lst, refs=nullo_refs, default_ConsNull=default_ConsNull)],
        [conso(c, d, lst), itero(d, default_ConsNull=default_ConsNull)],
    )


@relation
def membero(x: Any, coll: Any) -> GoalLike:
    """``x`` is an item of ``coll``.

    >>> from relqueens import run, var
    >>> q = var()
    >>> run(0, q, membero(q, [1, 2, 3]))
    (1, 2, 3)
    """
    a, d = var(), var()
    return lall(conso(a, d, coll), conde([eq(a, x)], [membero(x, d)]))


@relation
def appendo(lst: Any, s: Any, out: Any, default_ConsNull: type = list) -> GoalLike:
    """``out`` is ``lst`` followed by ``s`` (kanren's three clauses, after Byrd's thesis)."""
    a, d, res = var(), var(), var()
    return conde(
        [nullo(s, lst, out, default_ConsNull=default_ConsNull)],
        [
            conso(a, d, out),
            eq(s, out),
            nullo(lst, refs=(s, out), default_ConsNull=default_ConsNull),
        ],
        [
            conso(a, d, lst),
            conso(a, res, out),
            appendo(d, s, res, default_ConsNull=default_ConsNull),
        ],
    )


@relation
def rembero(x: Any, lst: Any, o: Any, default_ConsNull: type = list) -> GoalLike:
    """``o`` is ``lst`` without the first occurrence of ``x``.

    >>> from relqueens import run, var
    >>> q = var()
    >>> run(0, q, rembero(2, [1, 2, 3, 2], q))
    ([1, 3, 2],)
    """
    car, cdr, r = var(), var(), var()
    return conde(
        [nullo(lst, o, default_ConsNull=default_ConsNull)],
        [conso(car, cdr, lst), eq(x, car), eq(cdr, o)],
        [
            conso(car, cdr, lst),
            neq(car, x),
            conso(car, r, o),
            rembero(x, cdr, r, default_ConsNull=default_ConsNull),
        ],
    )


def permuteo(
    a: Any,
    b: Any,
    inner_eq: Any = eq,
    default_ConsNull: type = list,
    no_ident: bool = False,
) -> Goal:
    """``b`` is a permutation of ``a`` (kanren's ``permuteo``, with its options).

    >>> from relqueens import run, var
    >>> x = var()
    >>> run(0, x, permuteo(x, (1, 2)))
    ((1, 2), (2, 1))
    """
    return Dynamic(_permuteo, (a, b, inner_eq, default_ConsNull, no_ident), {})


def _each_permutation(
    seq: Sequence[Any], kind: type, target: Any, inner_eq: Any, skip: bool
) -> GoalLike:
    """Any ordering of ``seq`` (made a ``kind``) equals ``target`` (the first ordering skipped if ``skip``)."""
    perms = permutations(seq)
    if skip:
        next(perms, None)
    return lany(inner_eq(target, kind(p)) for p in perms)


def _permuteo(S: State, a: Any, b: Any, inner_eq: Any, null: type, no_ident: bool) -> GoalLike:
    a_rf, b_rf = reify((a, b), S.data)
    a_len, b_len = length_hint(a_rf, -1), length_hint(b_rf, -1)
    if a_len > 0 and b_len > 0 and a_len != b_len:
        return fail
    if isinstance(a_rf, Sequence):
        kind, skip = type(a_rf), no_ident
        if isinstance(b_rf, Sequence):
            if kind is not type(b_rf) or (no_ident and a_rf == b_rf):
                return fail
            try:
                count_a, count_b = Counter(a_rf), Counter(b_rf)
            except TypeError:
                pass
            else:
                only_a, only_b = count_a - count_b, count_b - count_a
                if not only_a and not only_b:
                    return succeed
                if len(only_a) < len(count_a):  # compare only what differs (kanren's shortcut)
                    a_rf, b_rf, skip = tuple(only_a.elements()), kind(only_b.elements()), False  # type: ignore[call-arg]  # kind: a concrete sequence type
            if inner_eq is eq and not has_var(a_rf) and not has_var(b_rf):
                perms = permutations(a_rf)
                if skip:
                    next(perms, None)
                return succeed if tuple(b_rf) in perms else fail
        return _each_permutation(a_rf, kind, b_rf, inner_eq, skip)
    if isinstance(b_rf, Sequence):
        return _each_permutation(b_rf, type(b_rf), a_rf, inner_eq, no_ident)
    return lall(
        itero(a_rf, nullo_refs=(b_rf,), default_ConsNull=null),
        Dynamic(_all_permutations, (a_rf, b_rf, inner_eq, no_ident), {}),
    )


def _all_permutations(S: State, a: Any, b: Any, inner_eq: Any, no_ident: bool) -> GoalLike:
    a_new = reify(a, S.data)
    return _each_permutation(a_new, type(a_new), b, inner_eq, no_ident)
