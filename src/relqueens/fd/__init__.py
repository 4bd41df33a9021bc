"""relqueens.fd — finite-domain constraints over kanren logic variables.

The names follow clojure.core.logic.fd: ``fd.in_`` (``fd/in``),
``fd.interval``, ``fd.domain``, ``fd.distinct``, ``fd.eq``, ``fd.plus``
(``fd/+``), ``fd.times`` (``fd/*``), plus ``fd.ne``/``lt``/``le``/``gt``/``ge``
and ``fd.label``. Every constraint is a goal.

>>> from relqueens import run_all, vars, fd
>>> x, y = vars(2)
>>> run_all([x, y], fd.in_(x, y, fd.interval(0, 3)), y == x + 2)
([0, 2], [1, 3])
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..logic.limits import SearchLimit
from ..logic.state import isvar
from .domain import Domain, Wide, as_int, domain, domain_of, inf, interval, sup
from .errors import DomainError
from .globals import AllDistinct, Circuit, Element, GlobalCardinality, TuplesIn
from .labeling import label, maximize, minimize
from .post import Distinct, InDomain, Inverse, LexLe, LexLeader, Post, post_goal
from .scheduling import Cumulative
from .terms import OPS, Flag, Lin, LVar, Relation, aux, lin, listed
from .trace import Node, SearchTrace

__all__ = [
    "Domain",
    "DomainError",
    "Node",
    "Relation",
    "SearchLimit",
    "SearchTrace",
    "Wide",
    "all_distinct",
    "any_",
    "circuit",
    "count",
    "cumulative",
    "disjunctive",
    "distinct",
    "domain",
    "domain_of",
    "dot",
    "element",
    "eq",
    "ge",
    "global_cardinality",
    "gt",
    "iff",
    "implies",
    "in_",
    "inf",
    "interval",
    "inverse",
    "label",
    "le",
    "lex_le",
    "lex_leader",
    "lin",
    "lt",
    "max_",
    "maximize",
    "min_",
    "minimize",
    "minus",
    "ne",
    "plus",
    "quot",
    "reify",
    "rem",
    "scalar_product",
    "sum",
    "sup",
    "times",
    "trunc_div",
    "tuples_in",
]


def _flatten(args: Iterable[object]) -> list[object]:
    out: list[object] = []
    for a in args:
        if isinstance(a, (list, tuple)):
            out.extend(a)
        else:
            out.append(a)
    return out


def _check_term(t: object, where: str) -> None:
    if isvar(t) or (isinstance(t, int) and not isinstance(t, bool)):
        return
    hint = (
        f"; name the expression by a variable first: v = var(); fd.eq(v, {t}), then pass v"
        if isinstance(t, Lin)
        else ""
    )
    raise TypeError(
        f"{where} takes logic variables or integers, got {t!r} ({type(t).__name__}){hint}"
    )


def in_(*args: object) -> InDomain:
    """Constrain one or more variables to a domain (core.logic's ``fd/in``).

    >>> from relqueens import run_all, var, fd
    >>> x = var()
    >>> run_all(x, fd.in_(x, fd.domain(-1, 4)))
    (-1, 4)
    """
    if len(args) < 2:
        raise TypeError("in_ takes one or more variables followed by a domain")
    *vs, dom = args
    if not isinstance(dom, (Domain, Wide)):
        raise TypeError(
            f"the last argument of in_ must be a domain (fd.interval or fd.domain), got {dom!r}"
        )
    if not dom:
        raise ValueError("in_ was given the empty domain: no value could satisfy it")
    vs = _flatten(vs)
    for v in vs:
        _check_term(v, "in_")
    return InDomain(tuple(vs), dom)


def distinct(terms: Iterable[object]) -> Distinct:
    """All terms take different values (core.logic's ``fd/distinct``).

    Terms are variables, ``x + c`` / ``x - c`` offsets, or integers.

    >>> from relqueens import run_all, vars, fd
    >>> a, b = vars(2)
    >>> run_all((a, b), fd.in_(a, b, fd.interval(0, 1)), fd.distinct([a, b]))
    ((0, 1), (1, 0))
    """
    if isinstance(terms, (Lin, Relation)) or isvar(terms):
        raise TypeError("distinct takes a list of terms, e.g. fd.distinct([x, y, z])")
    out = tuple(terms)
    for t in out:
        if type(t) is LVar:  # the common case, checked inline
            continue
        if isinstance(t, Lin):
            if t.offset_var() is None:
                raise TypeError(f"distinct takes variables, x + c terms or integers, got {t}")
        else:
            _check_term(t, "distinct")
    return Distinct(out)


def eq(*args: object) -> Relation | Post:
    """Post relations (core.logic's ``fd/eq``), or, given two terms, ``a == b``.

    >>> from relqueens import run_all, vars, fd
    >>> ci, cj = vars(2)
    >>> run_all((ci, cj), fd.in_(ci, cj, fd.interval(0, 2)), fd.eq(cj != ci + 1, ci != cj + 1, fd.ne(ci, cj)))
    ((0, 2), (2, 0))
    """
    if len(args) == 2 and not isinstance(args[0], Relation) and not isinstance(args[1], Relation):
        return Relation("==", args[0], args[1])
    if args and all(isinstance(a, Relation) for a in args):
        return args[0] if len(args) == 1 else post_goal(args)  # type: ignore[return-value, arg-type]  # all relations
    raise TypeError(
        f"fd.eq takes relations (fd.eq(x != y + 1, ...)) or two terms (fd.eq(x, y)), got {args!r}"
    )


def _offset_terms(terms: Iterable[object], where: str) -> tuple[object, ...]:
    out = []
    for t in terms:
        if isinstance(t, Lin):
            if len(t.terms) != 1 or abs(next(iter(t.terms.values()))) != 1:
                raise TypeError(f"{where} takes terms x + c or c - x, got {t}")
        else:
            _check_term(t, where)
        out.append(t)
    return tuple(out)


def lex_le(xs: Iterable[object], ys: Iterable[object]) -> LexLe:
    """``xs`` is lexicographically at most ``ys`` (terms ``x``, ``x + c``, ``c - x``).

    The lex-leader constraints of symmetry breaking are made of these.

    >>> from relqueens import run_all, vars, fd
    >>> a, b = vars(2)
    >>> run_all((a, b), fd.in_(a, b, fd.interval(0, 1)), fd.lex_le([a, b], [b, a]))
    ((0, 0), (0, 1), (1, 1))
    """
    xs, ys = _offset_terms(xs, "lex_le"), _offset_terms(ys, "lex_le")
    if len(xs) != len(ys):
        raise ValueError(f"lex_le compares lists of equal length, got {len(xs)} and {len(ys)}")
    return LexLe(xs, ys)


def lex_leader(xs: Iterable[object], images: Iterable[Iterable[object]]) -> LexLeader:
    """``xs`` is lexicographically at most each list in ``images``: ``xs`` leads its class.

    One propagator for all the comparisons (symmetry breaking posts the 7
    images of a board this way).

    >>> from relqueens import run_all, vars, fd
    >>> a, b, c = vars(3)
    >>> sols = run_all((a, b, c), fd.in_(a, b, c, fd.interval(0, 1)), fd.lex_leader([a, b, c], [[c, b, a], [b, c, a]]))
    >>> sols
    ((0, 0, 0), (0, 0, 1), (0, 1, 0), (0, 1, 1), (1, 1, 1))
    """
    xs = _offset_terms(xs, "lex_leader")
    images = tuple(_offset_terms(ys, "lex_leader") for ys in images)
    for ys in images:
        if len(ys) != len(xs):  # type: ignore[arg-type]  # tuples now
            raise ValueError(
                f"lex_leader compares lists of equal length, got {len(xs)} and {len(ys)}"  # type: ignore[arg-type]  # as above
            )
    return LexLeader(xs, images)


def inverse(xs: Iterable[object], ys: Iterable[object]) -> Inverse:
    """``ys`` is the inverse permutation of ``xs`` over ``0..n-1``: ``xs[r] == c`` iff ``ys[c] == r``.

    This is the channeling a board's transpose (and its rotations) needs.

    >>> from relqueens import run_all, vars, fd
    >>> xs, ys = vars(3), vars(3)
    >>> run_all(ys, fd.inverse(xs, ys), fd.eq(xs[0], 1), fd.eq(xs[1], 2))
    ([2, 0, 1],)
    """
    xs, ys = tuple(xs), tuple(ys)
    if len(xs) != len(ys):
        raise ValueError(f"inverse needs lists of equal length, got {len(xs)} and {len(ys)}")
    for t in xs + ys:
        _check_term(t, "inverse")
    return Inverse(xs, ys)


def ne(a: object, b: object) -> Relation:
    """``a != b``. Needed for two bare variables, where ``x != y`` is a Python bool."""
    return Relation("!=", a, b)


def lt(a: object, b: object) -> Relation:
    """``a < b`` (core.logic's ``fd/<``)."""
    return Relation("<", a, b)


def le(a: object, b: object) -> Relation:
    """``a <= b`` (core.logic's ``fd/<=``)."""
    return Relation("<=", a, b)


def gt(a: object, b: object) -> Relation:
    """``a > b`` (core.logic's ``fd/>``)."""
    return Relation(">", a, b)


def ge(a: object, b: object) -> Relation:
    """``a >= b`` (core.logic's ``fd/>=``)."""
    return Relation(">=", a, b)


def plus(x: object, y: object, z: object) -> Relation:
    """``x + y == z`` (core.logic's ``fd/+``).

    >>> from relqueens import run_all, vars, fd
    >>> x, y = vars(2)
    >>> run_all(x, fd.in_(x, y, fd.interval(0, 9)), fd.plus(x, 3, y), fd.eq(y, 5))
    (2,)
    """
    return Relation("==", lin(x) + lin(y), z)


def minus(x: object, y: object, z: object) -> Relation:
    """``x - y == z`` (core.logic's ``fd/-``).

    >>> from relqueens import run_all, vars, fd
    >>> x, y = vars(2)
    >>> run_all(y, fd.in_(x, y, fd.interval(-5, 5)), fd.minus(x, y, 4), fd.eq(x, 1))
    (-3,)
    """
    return Relation("==", lin(x) - lin(y), z)


def quot(x: object, y: object, z: object) -> Relation:
    """``x / y == z`` exactly, i.e. ``y * z == x`` (core.logic's ``fd/quot``).

    >>> from relqueens import run_all, vars, fd
    >>> y, z = vars(2)
    >>> run_all((y, z), fd.in_(y, z, fd.interval(1, 12)), fd.quot(12, y, z), y < z)
    ((1, 12), (2, 6), (3, 4))
    """
    return Relation("==", lin(y) * lin(z), x)


def times(x: object, y: object, z: object) -> Relation:
    """``x * y == z`` (core.logic's ``fd/*``).

    >>> from relqueens import run_all, vars, fd
    >>> x, y = vars(2)
    >>> run_all((x, y), fd.in_(x, y, fd.interval(-3, 3)), fd.times(x, y, -6))
    ((-3, 2), (-2, 3), (2, -3), (3, -2))
    """
    return Relation("==", lin(x) * lin(y), z)


def dot(coeffs: Iterable[int], xs: Iterable[object]) -> Lin:
    """The linear expression ``sum(c * x for c, x in zip(coeffs, xs))``.

    >>> from relqueens import var, fd
    >>> fd.dot([1, 10], [var("a"), var("b")]) == 42
    ~a + 10*~b == 42
    """
    coeffs, xs = list(coeffs), list(xs)
    if len(coeffs) != len(xs):
        raise ValueError(f"dot needs as many coefficients ({len(coeffs)}) as terms ({len(xs)})")
    terms: dict[Any, int] = {}
    const = 0
    for c, x in zip(coeffs, xs):
        if type(c) is not int and (isinstance(c, bool) or not isinstance(c, int)):
            raise TypeError(f"dot takes integer coefficients, got {c!r}")
        if type(x) is LVar:  # the common case: a term of its own
            terms[x] = terms.get(x, 0) + c
            continue
        t = lin(x)
        const += c * t.const
        for v, a in t.terms.items():
            terms[v] = terms.get(v, 0) + c * a
    return Lin(terms, const)


def min_(*terms: object) -> Lin:
    """The least of the terms, as a term (SWI's ``min(X, Y)``; Python's ``min`` would compare).

    >>> from relqueens import run_all, vars, fd
    >>> x, y = vars(2)
    >>> run_all((x, y), fd.in_(x, y, fd.interval(1, 3)), fd.min_(x, y) == 3)
    ((3, 3),)
    """
    return _fold("min", terms)


def max_(*terms: object) -> Lin:
    """The greatest of the terms, as a term (SWI's ``max(X, Y)``).

    >>> from relqueens import run_all, vars, fd
    >>> x, y = vars(2)
    >>> run_all((x, y), fd.in_(x, y, fd.interval(1, 2)), fd.max_(x, y) == 1)
    ((1, 1),)
    """
    return _fold("max", terms)


def rem(x: object, y: object) -> Lin:
    """The remainder of ``x / y`` rounded toward zero, with the sign of ``x`` (SWI's ``X rem Y``).

    ``x % y`` is SWI's ``mod`` (the sign of ``y``); they differ on negatives.

    >>> from relqueens import run_all, vars, fd
    >>> x = vars(1)[0]
    >>> run_all(x, fd.in_(x, fd.interval(-7, 7)), fd.rem(x, 3) == -1)
    (-7, -4, -1)
    """
    return aux("rem", x, y)


def trunc_div(x: object, y: object) -> Lin:
    """``x / y`` rounded toward zero (SWI's ``X // Y``); ``x // y`` rounds down (SWI's ``div``).

    >>> from relqueens import run_all, vars, fd
    >>> x = vars(1)[0]
    >>> run_all(x, fd.in_(x, fd.interval(-9, 9)), fd.trunc_div(x, 4) == -1)
    (-7, -6, -5, -4)
    """
    return aux("tdiv", x, y)


def _fold(kind: str, terms: tuple[object, ...]) -> Lin:
    if not terms:
        raise TypeError(f"{kind}_ takes at least one term")
    result = lin(terms[0])
    for t in map(lin, terms[1:]):
        if t.terms != result.terms or t.const != result.const:  # min(x, x) is x
            result = aux(kind, result, t)
    return result


def _relation(p: object, where: str) -> Relation:
    """``p`` as a relation: a variable is a 0/1 flag standing for ``p == 1`` (as SWI's ``B #==> C``)."""
    if isinstance(p, Relation):
        return p
    if isvar(p):
        return Flag(p)
    hint = (
        ": `x == 1` or `x != y` between bare variables is a Python comparison; "
        "write fd.eq(x, 1) or fd.ne(x, y)"
        if isinstance(p, bool)
        else ""
    )
    raise TypeError(f"{where} takes relations such as x < y (or a 0/1 variable), got {p!r}{hint}")


def reify(rel: Relation, b: object) -> Relation:
    """``b`` is 1 when ``rel`` holds and 0 when it does not (SWI's ``B #<==> Rel``); ``b == rel`` says the same.

    >>> from relqueens import run_all, vars, fd
    >>> x, b = vars(2)
    >>> run_all((x, b), fd.in_(x, fd.interval(0, 2)), fd.reify(x > 0, b))
    ((0, 0), (1, 1), (2, 1))
    """
    return Relation("==", _relation(rel, "reify"), b)


def implies(p: Relation, q: Relation) -> Relation:
    """If ``p`` holds then ``q`` does (SWI's ``#==>``).

    >>> from relqueens import run_all, vars, fd
    >>> x, y = vars(2)
    >>> run_all((x, y), fd.in_(x, y, fd.interval(0, 1)), fd.implies(x > 0, y > 0))
    ((0, 0), (0, 1), (1, 1))
    >>> b = vars(1)[0]  # a 0/1 flag stands for b == 1
    >>> run_all((b, x), fd.in_(b, fd.interval(0, 1)), fd.in_(x, fd.interval(0, 2)), fd.implies(b, x > 1))
    ((0, 0), (0, 1), (0, 2), (1, 2))
    """
    return Relation("<=", _relation(p, "implies"), _relation(q, "implies"))


def iff(p: Relation, q: Relation) -> Relation:
    """``p`` holds exactly when ``q`` does (SWI's ``#<==>``)."""
    return Relation("==", _relation(p, "iff"), _relation(q, "iff"))


def any_(*relations: Relation) -> Relation:
    """At least one of the relations holds (SWI's ``#\\/``; ``p | q`` for two).

    >>> from relqueens import run_all, vars, fd
    >>> x = vars(1)[0]
    >>> run_all(x, fd.in_(x, fd.interval(0, 5)), fd.any_(x < 1, x > 4))
    (0, 5)
    """
    if not relations:
        raise TypeError("any_ takes at least one relation")
    if len(relations) == 2 and all(isinstance(p, Relation) for p in relations):
        return relations[0] | relations[1]
    return Relation(">=", _total(_relation(p, "any_") for p in relations), 1)


def count(terms: Iterable[object], value: object) -> Lin:
    """How many of ``terms`` equal ``value``, as a term: ``fd.count(xs, 3) == k``.

    When ``value`` is an integer once posted and the terms have finite
    domains, one counting propagator keeps the count between the terms fixed
    to the value and those that may take it; otherwise it is the sum of the
    reified equalities ``t == value``.

    >>> from relqueens import run_all, vars, fd
    >>> xs = vars(3)
    >>> len(run_all(xs, fd.in_(*xs, fd.interval(0, 1)), fd.count(xs, 1) == 2))
    3
    """
    terms = listed(terms, "count")
    return aux("count", value, *terms) if terms else lin(0)


def _total(terms: Iterable[object]) -> Lin:
    """The sum of terms (``fd.sum`` is the constraint; this is arithmetic)."""
    total = lin(0)
    for t in terms:
        total = total + lin(t)
    return total


def _op(op: object, where: str) -> str:
    if op not in OPS:
        raise ValueError(f"{where}: unknown comparison {op!r}; use one of {', '.join(OPS)}")
    return op


def sum(terms: Iterable[object], op: str, value: object) -> Relation:
    """``sum(terms)  op  value`` (SWI's ``sum/3``).

    >>> from relqueens import run_all, vars, fd
    >>> xs = vars(3)
    >>> len(run_all(xs, fd.in_(*xs, fd.interval(0, 2)), fd.sum(xs, "==", 6)))
    1
    """
    terms = listed(terms, "sum")
    return Relation(_op(op, "sum"), dot([1] * len(terms), terms), value)


def scalar_product(
    coeffs: Iterable[int], terms: Iterable[object], op: str, value: object
) -> Relation:
    """``sum(c * t for c, t in zip(coeffs, terms))  op  value`` (SWI's ``scalar_product/4``).

    >>> from relqueens import run_all, vars, fd
    >>> a, b = vars(2)
    >>> run_all((a, b), fd.in_(a, b, fd.interval(0, 5)), fd.scalar_product([2, 3], [a, b], "==", 12))
    ((0, 4), (3, 2))
    """
    return Relation(_op(op, "scalar_product"), dot(coeffs, listed(terms, "scalar_product")), value)


def _terms(terms: Iterable[object], where: str) -> tuple[object, ...]:
    out = listed(terms, where)
    for t in out:
        _check_term(t, where)
    return out


def all_distinct(terms: Iterable[object]) -> AllDistinct:
    """All terms differ, with full (domain-consistent) pruning: Régin's matching (SWI's ``all_distinct``).

    ``fd.distinct`` is the cheap one (removes fixed values only); this one
    also sees that ``a, b in 1..2`` leave ``c in 1..3`` only 3.

    >>> from relqueens import run, vars, fd
    >>> a, b, c = vars(3)
    >>> r, = run(0, c, fd.in_(a, b, fd.interval(1, 2)), fd.in_(c, fd.interval(1, 3)), fd.all_distinct([a, b, c]), residual=True)
    >>> r.term
    3
    """
    return AllDistinct(distinct(terms).terms)


def element(index: object, terms: Iterable[object], value: object) -> Element:
    """``terms[index] == value``, 0-based; ``terms`` may hold variables (SWI's ``element/3``, 1-based there).

    >>> from relqueens import run_all, vars, fd
    >>> i, v = vars(2)
    >>> run_all((i, v), fd.element(i, [5, 7, 5], v), v > 5)
    ((1, 7),)
    """
    terms = _terms(terms, "element")
    if not terms:
        raise ValueError("element needs a non-empty list of terms to index")
    _check_term(index, "element")
    _check_term(value, "element")
    return Element(index, terms, value)


def global_cardinality(terms: Iterable[object], counts: dict[int, object]) -> GlobalCardinality:
    """Each value in ``counts`` occurs that many times among ``terms`` (a count may be a variable); no other value occurs.

    >>> from relqueens import run_all, vars, fd
    >>> xs = vars(3)
    >>> len(run_all(xs, fd.global_cardinality(xs, {0: 1, 1: 2})))
    3
    """
    terms = _terms(terms, "global_cardinality")
    if not isinstance(counts, dict) or not counts:
        raise TypeError(f"global_cardinality takes a dict {{value: count}}, got {counts!r}")
    for value, c in counts.items():
        _check_term(value, "global_cardinality (a value)")
        if isvar(value):
            raise TypeError(f"global_cardinality's values are integers, got the variable {value}")
        _check_term(c, "global_cardinality (a count)")
    return GlobalCardinality(terms, tuple(counts.items()))


def tuples_in(tuples: Iterable[Iterable[object]], table: Iterable[Iterable[int]]) -> TuplesIn:
    """Each tuple of terms equals one row of ``table`` (SWI's ``tuples_in/2``).

    >>> from relqueens import run_all, vars, fd
    >>> x, y = vars(2)
    >>> run_all((x, y), fd.tuples_in([(x, y)], [(1, 2), (2, 3), (3, 1)]), x > 1)
    ((2, 3), (3, 1))
    """
    listed = list(table)
    for row in listed:
        if isinstance(row, (int, str, bytes)):
            raise TypeError(
                f"tuples_in's table is a list of rows (tuples of integers), got {row!r}"
            )
    rows = tuple(tuple(row) for row in listed)
    if not rows:
        raise ValueError("tuples_in needs a table with at least one row")
    width = len(rows[0])
    for row in rows:
        if len(row) != width:
            raise ValueError(f"tuples_in's table has rows of mixed length ({width} and {len(row)})")
        for value in row:
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"tuples_in's table holds integers, got {value!r}")
    groups = tuple(_terms(t, "tuples_in") for t in tuples)
    for t in groups:
        if len(t) != width:
            raise ValueError(f"tuples_in: a tuple of {len(t)} terms against rows of {width}")
    return TuplesIn(groups, rows)


def circuit(succ: Iterable[object]) -> Circuit:
    """``succ[i]`` is the node after node ``i`` (0-based) on one cycle through all nodes (SWI's ``circuit/1``).

    >>> from relqueens import run_all, vars, fd
    >>> s = vars(3)
    >>> run_all(s, fd.circuit(s))
    ([1, 2, 0], [2, 0, 1])
    """
    succ = _terms(succ, "circuit")
    if not succ:
        raise ValueError("circuit needs at least one node")
    return Circuit(succ)


def cumulative(tasks: Iterable[Iterable[object]], limit: int = 1) -> Cumulative:
    """Tasks ``(start, duration, height)`` never use more than ``limit`` at once (SWI's ``cumulative/2``).

    Durations and heights are non-negative integers; starts are terms. The
    propagator time-tables and checks overload; on a unary resource it also
    uses edge finding, and elsewhere it posts redundant resources (the
    tallest tasks pairwise apart, lifted heights; see
    :mod:`relqueens.fd.scheduling`).

    >>> from relqueens import run_all, vars, fd
    >>> a, b = vars(2)
    >>> run_all((a, b), fd.in_(a, b, fd.interval(0, 2)), fd.cumulative([(a, 2, 1), (b, 2, 1)]))
    ((0, 2), (2, 0))
    """
    if isinstance(tasks, (Lin, Relation)) or isvar(tasks) or isinstance(tasks, (str, bytes)):
        raise TypeError(
            f"cumulative takes a list of (start, duration, height) tasks, got {tasks!r}"
        )
    starts, durations, heights = [], [], []
    for task in tasks:
        parts = tuple(task)
        if len(parts) != 3:
            raise ValueError(f"cumulative: a task is (start, duration, height), got {parts!r}")
        start, duration, height = parts
        _check_term(start, "cumulative (a start)")
        for value, what in ((duration, "duration"), (height, "height")):
            if as_int(value, f"cumulative's {what}") < 0:
                raise ValueError(f"cumulative's {what} must be at least 0, got {value}")
        starts.append(start)
        durations.append(int(duration))  # type: ignore[call-overload]  # checked by as_int
        heights.append(int(height))  # type: ignore[call-overload]  # checked by as_int
    if as_int(limit, "cumulative's limit") < 0:
        raise ValueError(f"cumulative's limit must be at least 0, got {limit}")
    return Cumulative(tuple(starts), tuple(durations), tuple(heights), limit)


def disjunctive(starts: Iterable[object], durations: Iterable[int]) -> Cumulative:
    """Tasks starting at ``starts`` with ``durations`` never overlap (one machine; SWI: ``cumulative`` with limit 1).

    >>> from relqueens import run_all, vars, fd
    >>> a, b = vars(2)
    >>> run_all((a, b), fd.in_(a, b, fd.interval(0, 4)), fd.disjunctive([a, b], [3, 2]), a < b)
    ((0, 3), (0, 4), (1, 4))
    """
    starts, durations = _terms(starts, "disjunctive"), tuple(durations)
    if len(starts) != len(durations):
        raise ValueError(
            f"disjunctive needs a duration per start, got {len(starts)} and {len(durations)}"
        )
    return cumulative([(s, d, 1) for s, d in zip(starts, durations, strict=True)], 1)
