"""FD expressions in answers: a query's ``x + 1`` comes back as its value.

kanren reifies a query term by type; this module teaches it FD expressions
and relations. Bound variables are replaced by their values and the
arithmetic is done, so an expression whose variables all have values
becomes an ``int`` (a relation a ``bool``), and one with open variables
keeps them (as a residual answer shows it).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from typing import Any

from unification.core import _reify

from ..logic.reify import reify
from ..logic.state import walk
from .terms import Aux, Lin, Relation, aux, constant_value, lin

COMPARE: dict[str, Callable[[int, int], bool]] = {
    # the comparisons by name, as Python's operators
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


def evaluate(term: Lin | Relation, s: Mapping[Any, Any]) -> Any:
    """``term`` under substitution ``s``: its value once every variable has one.

    >>> from relqueens.fd.terms import var
    >>> x, y = var("x"), var("y")
    >>> evaluate(2 * x + abs(y), {x: 3, y: -1}), evaluate(x < y, {x: 1, y: 2})
    (7, True)
    >>> evaluate(x + y + 1, {x: 3})
    ~y + 4
    """
    if isinstance(term, Relation):
        lhs, rhs = _value(term.lhs, s), _value(term.rhs, s)
        if type(lhs) is int and type(rhs) is int:
            return COMPARE[term.op](lhs, rhs)
        return Relation(term.op, lhs, rhs)
    total = lin(term.const)
    for atom, c in term.terms.items():
        total = total + _value(atom, s) * c
    return total.const if not total.terms else total


def _value(part: Any, s: Mapping[Any, Any]) -> Any:
    """A part of an expression (a variable, an :class:`Aux`, an expression) under ``s``."""
    if isinstance(part, (Lin, Relation)):
        value = evaluate(part, s)
        return int(value) if type(value) is bool else value
    if type(part) is Aux:
        args = [_value(a, s) for a in part.args]
        return args[0] if part.kind == "reif" else aux(part.kind, *args)  # reif: 0/1, or open
    return reify(part, s)


def truth(rel: Relation, s: Mapping[Any, Any]) -> bool | None:
    """Whether ``rel`` holds, if each of its variables has an integer value in ``s``
    (``None`` otherwise, or if a part of it has no value, as ``x // 0``).

    A labeling stated before a relation posts it once per combination of
    values, so a relation over constants is checked this way, not built.

    >>> from relqueens.fd.terms import aux, var
    >>> x, y = var("x"), var("y")
    >>> truth(abs(x - y) == 1, {x: 3, y: 2}), truth(aux("count", 2, x, y) >= 1, {x: 1, y: 3})
    (True, False)
    >>> truth(x < y, {x: 3}) is None, truth(x // y == 1, {x: 3, y: 0}) is None
    (True, True)
    """
    for side in (rel.lhs, rel.rhs):  # a free variable outside the non-linear parts: at once
        for atom in side.terms:
            if type(atom) is not Aux and type(walk(atom, s)) is not int:
                return None
    try:
        value = _number(rel, s)
    except (ArithmeticError, ValueError):
        return None  # no value (x // 0, a power past POWER_BITS bits): posted as usual
    return None if value is None else bool(value)


def _number(part: Any, s: Mapping[Any, Any]) -> int | None:
    """The value of ``part`` (a relation: 0 or 1, an expression, an exponent) under ``s``;
    ``None`` if a variable in it has no integer value."""
    if type(part) is Relation:
        lhs = _number(part.lhs, s)
        if lhs is None:
            return None
        rhs = _number(part.rhs, s)
        return None if rhs is None else int(COMPARE[part.op](lhs, rhs))
    if type(part) is not Lin:
        return part if type(part) is int else None
    total = part.const
    for atom, c in part.terms.items():
        if type(atom) is Aux:
            args = []
            for a in atom.args:
                if (v := _number(a, s)) is None:
                    return None
                args.append(v)
            value = args[0] if atom.kind == "reif" else constant_value(atom.kind, args)
        elif type(value := walk(atom, s)) is not int:
            return None
        total += c * value
    return total


_reify.add((Lin, Mapping), evaluate)
_reify.add((Relation, Mapping), evaluate)
