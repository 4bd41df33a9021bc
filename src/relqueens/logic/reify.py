"""Reification: a term with its variables replaced by their values.

>>> from unification import var
>>> x, y = var(), var()
>>> reify([x, (y, 3)], {x: 1, y: [2]})
[1, ([2], 3)]
>>> canonical([x, y, x])
['_0', '_1', '_0']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cons import cons
from cons.core import ConsPair
from unification import reify as kanren_reify
from unification.variable import LVarType

from .state import Tail, isvar, walk


def reify(term: Any, s: Mapping[Any, Any]) -> Any:
    """``term`` with every bound variable replaced by its value in substitution ``s``.

    Lists, tuples, ``cons`` pairs and variables are handled here without
    recursion along a list's spine; other types (dicts, sets, kanren's
    extensions) are left to kanren's ``reify``.
    """
    t = type(term)
    if t is int or t is str:
        return term
    if isvar(term):
        w = walk(term, s)
        return w if w is term or type(w) is int else reify(w, s)
    if t is list or t is tuple:
        get = s.get
        items = []
        for x in term:  # a variable bound to an integer (an FD answer), inline: the common case
            w = get(x, x) if type(type(x)) is LVarType else x
            items.append(w if type(w) is int else _reify_item(x, s))
        return t(items)
    if t is Tail:
        return reify(term.materialize(), s)
    if issubclass(t, ConsPair):
        return _reify_cons(term, s)
    return kanren_reify(term, s)


def _reify_item(x: Any, s: Mapping[Any, Any]) -> Any:
    """:func:`reify` of one item of a list, with a variable's walk inline (the common case)."""
    if type(type(x)) is LVarType:
        w = x
        while True:
            nxt = s.get(w, w)
            if nxt is w:
                break
            w = nxt
            if type(type(w)) is not LVarType:
                break
        return w if w is x or type(w) is int or type(type(w)) is LVarType else reify(w, s)
    return x if type(x) is int else reify(x, s)


def _reify_cons(pair: ConsPair, s: Mapping[Any, Any]) -> Any:
    """A chain of cons pairs, reified iteratively: a proper list comes back as a list."""
    cars = []
    rest: Any = pair
    while True:
        cars.append(reify(rest.car, s))
        rest = walk(rest.cdr, s)
        if not issubclass(type(rest), ConsPair):
            break
    tail = reify(rest, s)
    if type(tail) is list or type(tail) is tuple:
        return type(tail)(cars) + tail  # type: ignore[operator]  # one sequence type on both sides
    for car in reversed(cars):
        tail = cons(car, tail)
    return tail


def canonical(term: Any) -> Any:
    """``term`` with its free variables named ``'_0'``, ``'_1'``, ... in reading order (as TRS prints them).

    >>> from unification import var
    >>> x, y = var(), var()
    >>> canonical((x, [y, x], 3))
    ('_0', ['_1', '_0'], 3)
    """
    names: dict[Any, str] = {}

    def name(t: Any) -> Any:
        if isvar(t):
            if t not in names:
                names[t] = f"_{len(names)}"
            return names[t]
        tt = type(t)
        if tt is list or tt is tuple:
            return tt([name(x) for x in t])
        if issubclass(tt, ConsPair):
            cars = []
            while issubclass(type(t), ConsPair):
                cars.append(name(t.car))
                t = t.cdr
            tail = name(t)
            for car in reversed(cars):
                tail = cons(car, tail)
            return tail
        if isinstance(t, dict):
            return {k: name(v) for k, v in t.items()}
        return t

    return name(term)
