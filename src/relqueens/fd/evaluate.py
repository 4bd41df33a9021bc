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
from .terms import Aux, Lin, Relation, aux, lin

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


_reify.add((Lin, Mapping), evaluate)
_reify.add((Relation, Mapping), evaluate)
