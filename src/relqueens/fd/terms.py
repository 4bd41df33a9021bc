"""Arithmetic terms over logic variables: the syntax of FD constraints.

``relqueens.var()`` makes logic variables that add, subtract and multiply
into linear expressions; comparing an expression makes a :class:`Relation`,
which is itself a goal. So the seed's ``(fd/eq (!= cj (+ ci d)))`` is
``cj != ci + d`` in Python.

>>> x, y = var("x"), var("y")
>>> y != x + 2
~y != ~x + 2
>>> 2 * x - y <= 3
2*~x - ~y <= 3

A bare variable compared for (in)equality with another variable or an
integer is a Python comparison of objects (``x != y`` is ``True``, ``x == 5``
is ``False``), so write ``fd.ne(x, y)`` / ``fd.eq(x, 5)`` (or unify with
``eq(x, 5)``) for those; ``<``, ``<=``, ``>``, ``>=`` and any comparison
with an expression (``x == y + 1``) work.
"""

from __future__ import annotations

from typing import Any

from unification import Var

from ..logic.goals import Fresh
from ..logic.search import STEP
from ..logic.state import isvar
from .domain import as_int

OPS = ("==", "!=", "<", "<=", ">", ">=")
_FLIP = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}


class LVar(Var):
    """A kanren logic variable that also forms arithmetic expressions.

    It is a kanren variable in every respect: it unifies like any
    ``unification.Var``, and hashes and compares equal to kanren's variables
    of the same name (``Var`` and the ``ConstrainedVar`` kanren's goals
    reify to), so bindings and constraints filed under one are found under
    the other. ``+``, ``-``, ``*`` and the order comparisons build FD
    expressions and relations.

    >>> from kanren.constraints import ConstrainedVar
    >>> from relqueens.logic import State
    >>> x = var("same")
    >>> x == Var("same"), hash(x) == hash(ConstrainedVar(x, State()))
    (True, True)
    """

    __slots__ = ()

    def __new__(cls, token: Any = None, prefix: str = "") -> LVar:
        if token is None:
            token = f"{prefix}_{Var._id}"
            Var._id += 1
        obj = Var._refs.get(token)
        if obj is None:
            obj = object.__new__(cls)
            obj.token = token
            Var._refs[token] = obj
        return obj

    def __add__(self, other: object) -> Lin:
        return lin(self) + other

    __radd__ = __add__

    def __sub__(self, other: object) -> Lin:
        return lin(self) - other

    def __rsub__(self, other: object) -> Lin:
        return lin(other) - lin(self)

    def __mul__(self, other: object) -> Lin | Product:
        return lin(self) * other

    __rmul__ = __mul__

    def __neg__(self) -> Lin:
        return -lin(self)

    def __pos__(self) -> Lin:
        return lin(self)

    def __lt__(self, other: object) -> Relation:
        return Relation("<", lin(self), other)

    def __le__(self, other: object) -> Relation:
        return Relation("<=", lin(self), other)

    def __gt__(self, other: object) -> Relation:
        return Relation(">", lin(self), other)

    def __ge__(self, other: object) -> Relation:
        return Relation(">=", lin(self), other)

    def __eq__(self, other: object) -> bool:  # type: ignore[override]
        if isinstance(other, Var):
            return self.token == other.token
        return NotImplemented

    def __hash__(self) -> int:
        return hash((Var, self.token))


def var(token: Any = None, prefix: str = "") -> LVar:
    """A fresh logic variable (named by ``token`` if given).

    >>> var("q")
    ~q
    """
    return LVar(token, prefix)


def vars(n: int, prefix: str = "") -> list[LVar]:
    """``n`` fresh logic variables.

    >>> len(vars(3))
    3
    """
    n = as_int(n, "the number of variables")
    if n < 0:
        raise ValueError(f"cannot make {n} variables")
    return [LVar(prefix=prefix) for _ in range(n)]


class Lin:
    """A linear expression ``sum(coef * var) + const`` over logic variables.

    >>> lin(var("a")) * 3 + 1
    3*~a + 1
    """

    __slots__ = ("const", "terms")
    term_error = (
        "eq unifies terms, and {} is an FD expression; for arithmetic write "
        "fd.eq(a, b) or a relation such as x == y + 1"
    )

    def __init__(self, terms: dict, const: int = 0) -> None:
        self.terms = {v: c for v, c in terms.items() if c}
        self.const = const

    def __add__(self, other: object) -> Lin:
        o = lin(other)
        terms = dict(self.terms)
        for v, c in o.terms.items():
            terms[v] = terms.get(v, 0) + c
        return Lin(terms, self.const + o.const)

    __radd__ = __add__

    def __neg__(self) -> Lin:
        return Lin({v: -c for v, c in self.terms.items()}, -self.const)

    def __pos__(self) -> Lin:
        return self

    def __sub__(self, other: object) -> Lin:
        return self + -lin(other)

    def __rsub__(self, other: object) -> Lin:
        return lin(other) - self

    def __mul__(self, other: object) -> Lin | Product:
        o = lin(other)
        if not o.terms:
            return Lin({v: c * o.const for v, c in self.terms.items()}, self.const * o.const)
        if not self.terms:
            return o * self.const
        if self.single_var() is not None and o.single_var() is not None:
            return Product(self.single_var(), o.single_var())
        raise TypeError(
            f"unsupported expression ({self}) * ({o}): relqueens multiplies a variable by a "
            "constant, or two bare variables (x * y)"
        )

    __rmul__ = __mul__

    def single_var(self) -> Var | None:
        """The variable if this expression is just ``x``, else ``None``."""
        if self.const == 0 and len(self.terms) == 1:
            ((v, c),) = self.terms.items()
            if c == 1:
                return v
        return None

    def offset_var(self) -> tuple[Var, int] | None:
        """``(x, c)`` if this expression is ``x + c``, else ``None``."""
        if len(self.terms) == 1:
            ((v, c),) = self.terms.items()
            if c == 1:
                return v, self.const
        return None

    def __repr__(self) -> str:
        parts = []
        for v, c in self.terms.items():
            mag = "" if abs(c) == 1 else f"{abs(c)}*"
            sign = "-" if c < 0 else "+"
            parts.append((sign, f"{mag}{v}"))
        if self.const or not parts:
            parts.append(("-" if self.const < 0 else "+", str(abs(self.const))))
        first_sign, first = parts[0]
        text = ("-" if first_sign == "-" else "") + first
        return text + "".join(f" {s} {p}" for s, p in parts[1:])

    def _rel(op: str):
        def compare(self: Lin, other: object) -> Relation:
            return Relation(op, self, other)

        return compare

    __eq__ = _rel("==")  # type: ignore[assignment]
    __ne__ = _rel("!=")  # type: ignore[assignment]
    __lt__ = _rel("<")
    __le__ = _rel("<=")
    __gt__ = _rel(">")
    __ge__ = _rel(">=")
    __hash__ = None  # type: ignore[assignment]
    del _rel

    def __bool__(self) -> bool:
        raise TypeError(f"the expression {self} has no truth value")

    def disequality(self, other: object) -> Relation:
        """``neq(self, other)``: the FD constraint ``self != other``."""
        return Relation("!=", self, other)


class Product:
    """The product ``x * y`` of two variables; only ``x * y == z`` is supported.

    >>> a, b, c = vars(3)
    >>> (a * b == c).kind
    'times'
    """

    __slots__ = ("x", "y")
    term_error = Lin.term_error

    def __init__(self, x: Var, y: Var) -> None:
        self.x, self.y = x, y

    def __repr__(self) -> str:
        return f"{self.x}*{self.y}"

    __eq__ = Lin.__eq__
    __ne__ = Lin.__ne__
    __lt__ = Lin.__lt__
    __le__ = Lin.__le__
    __gt__ = Lin.__gt__
    __ge__ = Lin.__ge__
    __hash__ = None  # type: ignore[assignment]
    __bool__ = Lin.__bool__
    disequality = Lin.disequality


def lin(term: object) -> Lin:
    """The linear expression for a variable, an integer or an expression.

    Use it to do arithmetic on plain ``kanren`` variables:

    >>> from kanren import var as kvar
    >>> lin(kvar("k")) + 1
    ~k + 1
    """
    if isinstance(term, Lin):
        return term
    if isvar(term):
        return Lin({term: 1})
    if isinstance(term, Product):
        raise TypeError(f"unsupported expression: {term} can only stand alone, as in x * y == z")
    if isinstance(term, Relation):
        raise TypeError(f"unsupported expression: a relation ({term}) inside arithmetic")
    if isinstance(term, bool) or not isinstance(term, int):
        raise TypeError(
            f"FD terms are logic variables, integers and their sums; got {term!r} "
            f"({type(term).__name__})"
        )
    return Lin({}, int(term))


class Relation:
    """A comparison between FD expressions; calling it posts it (it is a goal).

    >>> x = var("x")
    >>> r = x + 1 <= 5
    >>> r.op, r.kind
    ('<=', 'linear')
    """

    __slots__ = ("kind", "lhs", "op", "rhs")
    search_kind = STEP
    term_error = "{} is a constraint (a goal), not a term"
    post_batch = None
    """Posts a tuple of constraints as one goal; installed by :mod:`relqueens.fd.post`."""

    def __init__(self, op: str, lhs: object, rhs: object) -> None:
        if op not in OPS:
            raise ValueError(f"unknown comparison {op!r}; use one of {', '.join(OPS)}")
        if isinstance(lhs, Product) or isinstance(rhs, Product):
            prod, other = (lhs, rhs) if isinstance(lhs, Product) else (rhs, lhs)
            if op != "==" or isinstance(other, Product):
                raise TypeError(
                    f"unsupported expression: {lhs} {op} {rhs}; a product of variables "
                    "is supported only as x * y == z"
                )
            other = lin(other)
            if other.terms and other.single_var() is None:
                raise TypeError(
                    f"unsupported expression: {lhs} {op} {rhs}; write x * y == z with z "
                    "a variable or an integer"
                )
            self.op, self.lhs, self.rhs, self.kind = op, prod, other, "times"
            return
        lhs, rhs = lin(lhs), lin(rhs)
        if rhs.single_var() is not None and lhs.single_var() is None:
            # ``y != x + 2`` reaches us reflected, as ``(x + 2) != y``: read it as written.
            op, lhs, rhs = _FLIP[op], rhs, lhs
        self.op, self.lhs, self.rhs, self.kind = op, lhs, rhs, "linear"

    def variables(self) -> list[Var]:
        """The logic variables the relation mentions, in order of appearance."""
        if self.kind == "times":
            found = [self.lhs.x, self.lhs.y, *self.rhs.terms]
        else:
            found = [*self.lhs.terms, *self.rhs.terms]
        return list(dict.fromkeys(found))

    def __repr__(self) -> str:
        return f"{self.lhs} {self.op} {self.rhs}"

    def __bool__(self) -> bool:
        raise TypeError(
            f"the constraint {self} has no truth value: use it as a goal, e.g. "
            "run_all(q, ..., constraint); chained comparisons such as 0 <= x < 8 are not "
            "supported (use fd.in_(x, interval(0, 7)))"
        )

    def step(self, S) -> bool:
        """Post this relation on state ``S`` (the search's protocol)."""
        return self.post_batch((self,)).step(S)

    def __call__(self, state):
        return self.post_batch((self,))(state)


Fresh.make_var = LVar  # fresh variables do arithmetic
