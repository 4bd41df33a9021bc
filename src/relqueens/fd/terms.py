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

Non-linear parts — ``abs(x)``, ``x % 3``, ``x // y``, ``x ** 2``, ``x * y``,
``fd.min_``/``fd.max_`` and relations used as 0/1 terms (``b == (x < y)``) —
are :class:`Aux` atoms inside a linear expression; posting gives each one a
hidden variable and the propagator that defines it.

>>> abs(x - y) + x * y >= 2
abs(~x - ~y) + ~x*~y >= 2

A bare variable compared for (in)equality with another variable or an
integer is a Python comparison of objects (``x != y`` is ``True``, ``x == 5``
is ``False``), so write ``fd.ne(x, y)`` / ``fd.eq(x, 5)`` (or unify with
``eq(x, 5)``) for those; ``<``, ``<=``, ``>``, ``>=`` and any comparison
with an expression (``x == y + 1``) work.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from unification import Var
from unification.variable import LVarType

from ..logic.goals import Fresh
from ..logic.search import STEP
from ..logic.state import State, isvar
from .domain import as_int
from .propagators import POWER_BITS, power

if TYPE_CHECKING:
    from .post import Post

OPS = ("==", "!=", "<", "<=", ">", ">=")
_FLIP = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}


class Arith:
    """The arithmetic and order operators shared by variables, expressions and relations (as 0/1)."""

    __slots__ = ()

    def __add__(self, other: object) -> Lin:
        return lin(self) + other

    __radd__ = __add__

    def __sub__(self, other: object) -> Lin:
        return lin(self) - lin(other)

    def __rsub__(self, other: object) -> Lin:
        return lin(other) - lin(self)

    def __mul__(self, other: object) -> Lin:
        return lin(self) * other

    __rmul__ = __mul__

    def __neg__(self) -> Lin:
        return -lin(self)

    def __pos__(self) -> Lin:
        return lin(self)

    def __abs__(self) -> Lin:
        return aux("abs", self)

    def __mod__(self, other: object) -> Lin:
        return aux("mod", self, other)

    def __rmod__(self, other: object) -> Lin:
        return aux("mod", other, self)

    def __floordiv__(self, other: object) -> Lin:
        return aux("div", self, other)

    def __rfloordiv__(self, other: object) -> Lin:
        return aux("div", other, self)

    def __pow__(self, exponent: object) -> Lin:
        if isinstance(exponent, bool) or not isinstance(exponent, (int, Arith)):
            raise TypeError(
                f"an FD power takes an integer or FD expression as exponent, got {exponent!r}"
            )
        if isinstance(exponent, int) and exponent >= 0:
            return aux("pow", self, exponent)
        return aux("power", self, exponent)  # SWI's X^Y; X^-1 has a value for X = 1 or -1

    def __rpow__(self, base: object) -> Lin:
        if isinstance(base, bool) or not isinstance(base, int):
            raise TypeError(f"an FD power takes an integer or FD expression as base, got {base!r}")
        return aux("power", base, self)

    def __lt__(self, other: object) -> Relation:
        return Relation("<", self, other)

    def __le__(self, other: object) -> Relation:
        return Relation("<=", self, other)

    def __gt__(self, other: object) -> Relation:
        return Relation(">", self, other)

    def __ge__(self, other: object) -> Relation:
        return Relation(">=", self, other)


class LVar(Arith, Var):  # type: ignore[misc]  # unification's Var is untyped (Any)
    """A kanren logic variable that also forms arithmetic expressions.

    It is a kanren variable in every respect: it unifies like any
    ``unification.Var``, and hashes and compares equal to kanren's variables
    of the same name (``Var`` and the ``ConstrainedVar`` kanren's goals
    reify to), so bindings and constraints filed under one are found under
    the other. ``+``, ``-``, ``*``, ``//``, ``%``, ``**``, ``abs`` and the
    order comparisons build FD expressions and relations.

    >>> from kanren.constraints import ConstrainedVar
    >>> from relqueens.logic import State
    >>> x = var("same")
    >>> x == Var("same"), hash(x) == hash(ConstrainedVar(x, State()))
    (True, True)
    """

    __slots__ = ("_hash", "_lin")
    _hash: int
    _lin: Lin | None

    def __new__(cls, token: Any = None, prefix: str = "") -> LVar:
        if token is None:  # a fresh name nobody can have asked for: not filed in Var._refs
            token = f"{prefix}_{Var._id}"  # as _fresh names them; inline, as fresh's goals make one
            Var._id += 1
            return cls._make(token)
        obj: LVar | None = Var._refs.get(token)  # a given name is one variable, as Var(token)
        if obj is None:
            obj = Var._refs[token] = cls._make(token)
        return obj

    @classmethod
    def _fresh(cls, n: int, prefix: str) -> list[LVar]:
        """``n`` variables with fresh names (``prefix_0``, ``prefix_1``, ... as kanren numbers them)."""
        first = Var._id
        Var._id = first + n
        make = cls._make
        return [make(f"{prefix}_{k}") for k in range(first, first + n)]

    @classmethod
    def _make(cls, token: Any) -> LVar:
        obj = object.__new__(cls)
        obj.token = token
        obj._hash = hash((Var, token))  # kanren's Var hash, computed once
        obj._lin = None  # lin(obj), made when first asked for
        return obj

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Var):
            return self.token == other.token  # type: ignore[no-any-return]  # Var's token: untyped
        return NotImplemented

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[LVar], tuple[object]]:
        return type(self), (self.token,)  # the hash is made anew where it is unpickled


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
    return LVar._fresh(n, prefix)


AUX_KINDS = (
    "abs",
    "min",
    "max",
    "mod",
    "div",
    "rem",
    "tdiv",
    "pow",
    "power",
    "times",
    "reif",
    "count",
)
DIVIDING = ("mod", "div", "rem", "tdiv")
"""The kinds whose second argument divides: it may not be 0."""


class Aux:
    """A non-linear part of an expression: ``kind`` applied to ``args`` (expressions or ints).

    ``reif`` holds a relation, standing for 1 when it holds and 0 when not;
    ``count`` holds ``(value, *terms)``, the number of terms equal to the
    value. Each one is its own atom (hashed by identity).
    """

    __slots__ = ("args", "kind")

    def __init__(self, kind: str, args: tuple[Any, ...]) -> None:
        self.kind, self.args = kind, args

    def __repr__(self) -> str:
        a = self.args
        if self.kind in ("abs", "min", "max", "rem", "tdiv"):
            return f"{_NAMES.get(self.kind, self.kind)}({', '.join(map(repr, a))})"
        if self.kind == "reif":
            return f"({a[0]!r})"
        if self.kind == "count":
            return f"count([{', '.join(map(repr, a[1:]))}], {a[0]!r})"
        op = {"mod": "%", "div": "//", "pow": "**", "power": "**", "times": "*"}[self.kind]
        return op.join(_operand(x) for x in a)


def _operand(x: object) -> str:
    if isinstance(x, Lin) and (
        len(x.terms) + bool(x.const) > 1 or any(c != 1 for c in x.terms.values())
    ):
        return f"({x!r})"
    return repr(x)


def constant_value(kind: str, values: list[int]) -> int:
    """The value of ``kind`` on constants (an ``OverflowError`` past ``POWER_BITS`` bits)."""
    a = values[0]
    if kind == "abs":
        return abs(a)
    if kind == "count":
        return values[1:].count(a)
    b = values[1]
    if kind == "power" and undefined_power(a, b):
        raise ValueError(f"{a} ** {b} is not an integer")
    if kind == "pow" or kind == "power":
        result = power(a, b) if kind == "pow" else _power_value(a, b)
        if isinstance(result, float):
            raise OverflowError(f"{a} ** {b} has more than {POWER_BITS} bits")
        return result
    if kind in DIVIDING and b == 0:
        raise ZeroDivisionError(f"an FD expression divides by the constant 0 ({_NAMES[kind]})")
    return BINARY[kind](a, b)


def _power_value(p: int, q: int) -> int:
    """``p ** q`` for ``q >= 0``, or ``p`` 1 or -1 (:func:`undefined_power` is false).

    Past ``POWER_BITS`` bits it is an infinity of its sign, as :func:`power`
    gives it: the propagators read that as beyond every bound.
    """
    return power(p, q) if q >= 0 else p**-q  # type: ignore[return-value]  # inf past POWER_BITS


def undefined_power(p: int, q: int) -> bool:
    """Whether ``p ** q`` has no integer value: a negative exponent, unless ``p`` is 1 or -1.

    >>> undefined_power(2, -1), undefined_power(-1, -3), undefined_power(0, 0)
    (True, False, False)
    """
    return q < 0 and abs(p) != 1


def truncated(p: int, q: int) -> int:
    """``p / q`` rounded toward zero (SWI's ``//``).

    >>> truncated(-7, 2), -7 // 2
    (-3, -4)
    """
    d = abs(p) // abs(q)
    return d if (p < 0) == (q < 0) else -d


BINARY: dict[str, Callable[[int, int], int]] = {
    "min": min,
    "max": max,
    "mod": lambda p, q: p % q,
    "div": lambda p, q: p // q,
    "rem": lambda p, q: p - q * truncated(p, q),
    "tdiv": truncated,
    "times": lambda p, q: p * q,
    "power": _power_value,
}
"""The two-argument kinds' values on integers."""

_NAMES = {"mod": "%", "div": "//", "rem": "rem", "tdiv": "trunc_div"}


def aux(kind: str, *args: object) -> Lin:
    """The expression ``kind(*args)``: an :class:`Aux` atom, or its value when the arguments are constants.

    >>> aux("abs", -3), aux("mod", var("x"), 3)
    (3, ~x%3)
    """
    if kind == "reif":
        return Lin({Aux(kind, args): 1})
    if kind == "pow":
        base, exponent = lin(args[0]), args[1]
        operands: tuple[Any, ...] = (base, exponent)
        constants: list[Any] | None = [base.const, exponent] if not base.terms else None
    else:
        operands = tuple(lin(a) for a in args)
        constants = [o.const for o in operands] if not any(o.terms for o in operands) else None
    if constants is not None:
        return Lin({}, constant_value(kind, constants))
    if kind in DIVIDING and not operands[1].terms and operands[1].const == 0:
        raise ZeroDivisionError(
            f"an FD expression divides by the constant 0: {operands[0]} {_NAMES[kind]} 0"
        )
    return Lin({Aux(kind, operands): 1})


class Lin(Arith):
    """A linear expression ``sum(coef * atom) + const``; atoms are logic variables or :class:`Aux` parts.

    >>> lin(var("a")) * 3 + 1
    3*~a + 1
    """

    __slots__ = ("const", "terms")
    term_error = (
        "eq unifies terms, and {} is an FD expression; for arithmetic write "
        "fd.eq(a, b) or a relation such as x == y + 1"
    )

    def __init__(self, terms: dict[Var | Aux, int], const: int = 0) -> None:
        # a non-linear part stays even at coefficient 0: ``0 * (x % y)`` still needs y != 0
        self.terms = {v: c for v, c in terms.items() if c or type(v) is Aux}
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
        o = lin(other)
        terms = dict(self.terms)
        for v, c in o.terms.items():
            terms[v] = terms.get(v, 0) - c
        return Lin(terms, self.const - o.const)

    def __rsub__(self, other: object) -> Lin:
        return lin(other) - self

    def __mul__(self, other: object) -> Lin:
        o = lin(other)
        if not o.terms:
            return Lin({v: c * o.const for v, c in self.terms.items()}, self.const * o.const)
        if not self.terms:
            return o * self.const
        return aux("times", self, o)

    __rmul__ = __mul__

    def single_var(self) -> Var | None:
        """The variable if this expression is just ``x``, else ``None``."""
        if self.const == 0 and len(self.terms) == 1:
            ((v, c),) = self.terms.items()
            if c == 1 and isvar(v):
                return v
        return None

    def offset_var(self) -> tuple[Var, int] | None:
        """``(x, c)`` if this expression is ``x + c`` for a variable ``x``, else ``None``."""
        if len(self.terms) == 1:
            ((v, c),) = self.terms.items()
            if c == 1 and isvar(v):
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

    def __eq__(self, other: object) -> Relation:  # type: ignore[override]  # == builds a relation (a constraint)
        return Relation("==", self, other)

    def __ne__(self, other: object) -> Relation:  # type: ignore[override]  # != builds a relation (a constraint)
        return Relation("!=", self, other)

    __hash__ = None  # type: ignore[assignment]  # == builds a relation, so unhashable

    def __bool__(self) -> bool:
        raise TypeError(f"the expression {self} has no truth value")

    def disequality(self, other: object) -> Relation:
        """``neq(self, other)``: the FD constraint ``self != other``."""
        return Relation("!=", self, other)


def _one(v: Any) -> Lin:
    """The expression ``1 * v`` (its terms taken as they are)."""
    return _made({v: 1}, 0)


def _made(terms: dict[Var | Aux, int], const: int) -> Lin:
    """The expression ``terms + const``, its terms taken as they are (no zero coefficient)."""
    expr = object.__new__(Lin)
    expr.terms, expr.const = terms, const
    return expr


def lin(term: object) -> Lin:
    """The linear expression for a variable, an integer, an expression or a relation (as 0/1).

    Use it to do arithmetic on plain ``kanren`` variables:

    >>> from kanren import var as kvar
    >>> lin(kvar("k")) + 1
    ~k + 1
    """
    if type(term) is LVar:  # the common case: one expression per variable (never changed)
        one = term._lin
        if one is None:
            one = term._lin = _one(term)
        return one
    if type(type(term)) is LVarType:  # isvar, inline: a kanren variable
        return _one(term)
    if type(term) is int:  # a constant
        return _made({}, term)
    if isinstance(term, Lin):
        return term
    if isinstance(term, Relation):
        return aux("reif", term)
    if isinstance(term, bool) or not isinstance(term, int):
        raise TypeError(
            f"FD terms are logic variables, integers and their sums; got {term!r} "
            f"({type(term).__name__})"
        )
    return _made({}, int(term))


class Relation(Arith):
    """A comparison between FD expressions; calling it posts it (it is a goal).

    Inside arithmetic a relation is a 0/1 term, 1 when it holds: ``b == (x <
    y)`` reifies it, ``(x < y) + (y < z) == 1`` counts, and ``&``, ``|``, ``~``
    combine relations.

    >>> x = var("x")
    >>> r = x + 1 <= 5
    >>> r.op, r
    ('<=', ~x + 1 <= 5)
    """

    __slots__ = ("lhs", "op", "rhs")
    search_kind = STEP
    term_error = "{} is a constraint (a goal), not a term"
    post_batch: Callable[[tuple[Relation, ...]], Post] = None  # type: ignore[assignment]  # set by fd.post
    """Posts a tuple of constraints as one goal; installed by :mod:`relqueens.fd.post`."""

    def __init__(self, op: str, lhs: object, rhs: object) -> None:
        if op not in OPS:
            raise ValueError(f"unknown comparison {op!r}; use one of {', '.join(OPS)}")
        bare = type(type(lhs)) is LVarType  # a variable on the left: read as written
        lhs, rhs = lin(lhs), lin(rhs)
        if (
            not bare
            and len(rhs.terms) == 1
            and lhs.single_var() is None
            and rhs.single_var() is not None
        ):
            # ``y != x + 2`` reaches us reflected, as ``(x + 2) != y``: read it as written.
            op, lhs, rhs = _FLIP[op], rhs, lhs
        self.op, self.lhs, self.rhs = op, lhs, rhs

    def __repr__(self) -> str:
        return f"{self.lhs} {self.op} {self.rhs}"

    def __eq__(self, other: object) -> Relation:  # type: ignore[override]  # == builds a relation (a constraint)
        return Relation("==", self, other)

    def __ne__(self, other: object) -> Relation:  # type: ignore[override]  # != builds a relation (a constraint)
        return Relation("!=", self, other)

    __hash__ = object.__hash__

    def __and__(self, other: object) -> Relation:
        return Relation("==", lin(self) + lin(other), 2)

    def __or__(self, other: object) -> Relation:
        if isinstance(other, Relation):
            same = either_sign(self, other)
            if same is not None:
                return same
        return Relation(">=", lin(self) + lin(other), 1)

    def __invert__(self) -> Relation:
        return Relation("==", self, 0)

    __rand__ = __and__
    __ror__ = __or__

    def __bool__(self) -> bool:
        raise TypeError(
            f"the constraint {self} has no truth value: use it as a goal, e.g. "
            "run_all(q, ..., constraint); chained comparisons such as 0 <= x < 8 are not "
            "supported (use fd.in_(x, interval(0, 7))), and Python's min/max compare "
            "(use fd.min_/fd.max_)"
        )

    def disequality(self, other: object) -> Relation:
        """``neq(self, other)``: the FD constraint ``self != other`` (as 0/1 terms)."""
        return Relation("!=", self, other)

    def step(self, S: State) -> bool:
        """Post this relation on state ``S`` (the search's protocol)."""
        return self.post_batch((self,)).step(S)

    def __call__(self, state: Any) -> Iterator[State]:
        return self.post_batch((self,))(state)


class Flag(Relation):
    """A variable used as a relation, as in ``fd.implies(b, x > 1)``: ``b == 1``, with ``b`` in 0..1 (as SWI).

    >>> Flag(var("b"))
    ~b == 1
    """

    __slots__ = ()

    def __init__(self, b: object) -> None:
        super().__init__("==", b, 1)


def either_sign(p: Relation, q: Relation) -> Relation | None:
    """``abs(a) == abs(b)`` when ``p | q`` says ``a == b or a == -b``, else ``None``.

    All-interval series state ``d == y - x or d == x - y`` this way; as an
    ``abs`` it propagates through both cases at once, not only once one of
    them is ruled out.

    >>> x, y, d = var("x"), var("y"), var("d")
    >>> either_sign(d == y - x, x - y == d)
    abs(~d) == abs(-~x + ~y)
    """
    if p.op != "==" or q.op != "==":
        return None
    one, other = p.lhs - p.rhs, q.lhs - q.rhs  # a - b and a + b, up to their signs
    total, difference = one + other, other - one
    halves = []
    for e in (total, difference):
        if e.const % 2 or any(c % 2 for c in e.terms.values()):
            return None
        halves.append(Lin({v: c // 2 for v, c in e.terms.items()}, e.const // 2))
    return Relation("==", aux("abs", halves[0]), aux("abs", halves[1]))


Fresh.make_var = LVar  # fresh variables do arithmetic


def listed(terms: Any, where: str, what: str = "terms") -> tuple[Any, ...]:
    """``terms`` as a tuple; one term (or a string) where a list was meant is a clear error.

    >>> listed([1, 2], "sum")
    (1, 2)
    """
    if isinstance(terms, (Lin, Relation, int, str, bytes)) or isvar(terms):
        raise TypeError(f"{where} takes a list of {what}, got {terms!r}")
    return tuple(terms)
