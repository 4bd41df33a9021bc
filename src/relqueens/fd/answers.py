"""Answers with FD variables: labeled (ground) or residual, and the ``run`` that gives them.

``run`` mirrors kanren's and core.logic's ``run``: goals are conjoined,
answers are ``q`` reified. As in core.logic, FD variables still open when the
goals are done are labeled before reification, so answers are ground:

* the FD variables reachable from ``q`` are enumerated leftmost first (in the
  order they appear in ``q``), values ascending — one answer per assignment;
* other FD variables still open are only checked for a solution (one
  witness, which must satisfy every other constraint of the state too), so
  they neither multiply nor invent answers.

With ``residual=True`` nothing is labeled: each answer is a :class:`Residual`
carrying the open domains and constraints, as SWI-Prolog's toplevel prints
``X in 0..7``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import fields
from functools import partial
from html import escape
from typing import Any

from ..logic.disequality import DisequalityStore, neq
from ..logic.goals import GoalLike, eq
from ..logic.reify import reify
from ..logic.run import run as logic_run
from ..logic.state import State, isvar, walk
from ..logic.tabling import Tabled
from .arith import AbsDifference, Function, Reified, ReifiedBound, ReifiedValue
from .domain import MAX_WIDTH, Domain, Wide, shown
from .errors import DomainError
from .evaluate import evaluate  # noqa: F401  # teaches reify FD expressions
from .labeling import Solutions, SolvedState, check_finite, creeping, search, with_equalities
from .post import Constraint, Distinct, repeats
from .propagators import (
    DifferenceOf,
    EqOffset,
    LeOffset,
    LexLe,
    Linear,
    Propagator,
    Times,
    fixed,
    low,
)
from .store import FDStore, store_of
from .terms import Aux, Lin, Relation, aux, lin
from .trace import SearchTrace


class Residual:
    """An answer whose FD variables are left open: the term, domains and constraints.

    >>> from relqueens import run, vars, fd
    >>> x, y = vars(2, prefix="v")
    >>> r, = run(0, [x, y], fd.in_(x, y, fd.interval(0, 3)), x < y, residual=True)
    >>> r.domains[x], r.domains[y]
    ({0..2}, {1..3})
    >>> r._repr_html_().count("<tr>")  # in Jupyter: a table of the domains, then the constraints
    3
    """

    __slots__ = ("constraints", "domains", "term")

    def __init__(
        self, term: Any, domains: dict[Any, Domain | Wide], constraints: tuple[object, ...]
    ) -> None:
        self.term, self.domains, self.constraints = term, domains, constraints

    def __repr__(self) -> str:
        parts = [f"{v} in {d}" for v, d in self.domains.items()] + [
            repr(c) for c in self.constraints
        ]
        return repr(self.term) if not parts else f"{self.term!r} where {', '.join(parts)}"

    def _repr_html_(self) -> str:
        """The answer, its open variables' domains as a table, and the constraints left, for Jupyter."""
        rows = "".join(
            f"<tr><td><code>{escape(str(v))}</code></td><td><code>{escape(repr(d))}</code></td></tr>"
            for v, d in self.domains.items()
        )
        table = f"<table><tr><th>variable</th><th>domain</th></tr>{rows}</table>" if rows else ""
        left = "".join(f"<li><code>{escape(repr(c))}</code></li>" for c in self.constraints)
        return (
            f"<div><p>answer <code>{escape(repr(self.term))}</code></p>{table}"
            f"{f'<p>constraints left</p><ul>{left}</ul>' if left else ''}</div>"
        )


def _term_vars(term: Any) -> Iterator[Any]:
    """The logic variables of a reified term, in reading order."""
    stack = [term]
    while stack:
        t = stack.pop()
        if isvar(t):
            yield t
        elif isinstance(t, (list, tuple)):
            stack.extend(reversed(t))
        elif isinstance(t, dict):
            stack.extend(reversed(list(t.values())))
        elif hasattr(t, "car") and hasattr(t, "cdr"):
            stack.extend((t.cdr, t.car))
        elif isinstance(t, Lin):  # an expression's open variables are shown
            stack.extend(reversed(list(t.terms)))
        elif isinstance(t, Relation):
            stack.extend((t.rhs, t.lhs))
        elif type(t) is Aux:
            stack.extend(reversed(t.args))
        elif isinstance(t, Constraint):  # a global shown as posted: its fields with variables
            named = [f.name for f in fields(t) if f.name not in t.constants]  # type: ignore[arg-type]  # records are dataclasses
            stack.extend(getattr(t, name) for name in reversed(named))


def _check_pending(store: FDStore) -> None:
    for v, constraints in store.pending.items():
        d = store.domain(v)
        if d is not None:  # a Wide domain: too many values for this constraint's bitsets
            raise DomainError(
                f"{v} appears in {constraints[0]!r}, which needs a domain of at most "
                f"{MAX_WIDTH:,} values, but its domain is {d!r}; narrow it with fd.in_"
            )
        raise DomainError(
            f"{v} appears in {constraints[0]!r} but has no domain; give it one with fd.in_"
        )


def labeled(q: Any, S: State, trace: SearchTrace | None = None) -> Iterable[Any]:
    """The answers ``q`` has in state ``S`` once its open FD variables are labeled (module docstring)."""
    if type(S) is SolvedState:  # a labeling's solution: read from the domains if q is flat
        done, term = S.answer(q)
        if done:
            return (term,)
    store = store_of(S)
    if store is None:
        return (reify(q, S.data),)
    if store.pending:
        if repeats(store, S.data):
            return ()
        _check_pending(store)
    for d in store.D:
        if d & (d - 1) if type(d) is int else d.lo != d.hi:
            return _enumerated(q, S, store, trace)
    return (reify(q, S.data),)  # the usual case after a labeling: nothing left to enumerate


def _enumerated(q: Any, S: State, store: FDStore, trace: SearchTrace | None) -> Iterator[Any]:
    """The answers of :func:`labeled` when some FD variables are still open."""
    fixed = with_equalities(S, store)
    if fixed is None:
        return
    S, store = fixed, store_of(fixed)  # type: ignore[assignment]  # S had a store
    s, D = S.data, store.D
    term = reify(q, s)
    private = store.model.private
    open_ = {
        i
        for i, d in enumerate(D)
        if (d & (d - 1) if type(d) is int else d.lo != d.hi) and i not in private
    }
    if not open_:
        yield term
        return
    idx = store.current().index
    found = (idx.get(v) for v in _term_vars(term))
    shown = list(dict.fromkeys(i for i in found if i in open_))
    hidden = sorted(open_.difference(shown))
    if creeping(store, (i for i in shown + hidden if type(D[i]) is not int)):
        return  # no answer: before an infinite domain is an error (as a residual answer)
    for i in shown + hidden:
        check_finite(store, i, walk(store.model.vars[i], s))
    accept = Solutions(S, store, shown + hidden).state
    for S2 in search(D, store, shown + hidden, exists_from=len(shown), trace=trace, accept=accept):
        yield reify(q, S2.data)  # type: ignore[union-attr]  # accept's State (False is skipped)


Tabled.answers = staticmethod(labeled)  # a tabled relation's answers are labeled as run's are


def _residual_answer(q: Any, S: State) -> tuple[Residual, ...]:
    """The residual answer, none if a ``distinct`` waiting for domains holds a term twice, or
    the linear constraints on variables kept as bounds have no solution (``x < y, y < x``
    without domains: each is ``inf..sup``, which propagation keeps)."""
    store = store_of(S)
    if store is not None and (
        repeats(store, S.data)
        or creeping(store, (i for i, d in enumerate(store.D) if type(d) is Wide and d.lo != d.hi))
    ):
        return ()
    return (residual(q, S),)


def _disequalities(S: State) -> list[GoalLike]:
    store = S.constraints.get(DisequalityStore)
    if store is None:
        return []
    found: list[GoalLike] = []
    for c in store.pending(S.data):
        us, vs = (reify(list(side), S.data) for side in zip(*c))
        found.append(neq(us[0], vs[0]) if len(c) == 1 else neq(us, vs))
    return found


def residual(q: Any, S: State) -> Residual:
    """The answer ``q`` has in state ``S`` with its FD variables left open."""
    s, store = S.data, store_of(S)
    term = reify(q, s)
    if store is None:
        return Residual(term, {}, tuple(_disequalities(S)))
    m, D = store.current(), store.D

    def term_of(i: int) -> Any:
        d = D[i]
        return walk(m.vars[i], s) if not fixed(d) else low(d, m.off[i])

    def is_open(indices: Iterable[int]) -> bool:
        return any(not fixed(D[i]) for i in indices)

    domains: dict[Any, Domain | Wide] = {}
    fronts = {slot for e in m.props if isinstance(e[1], LexLe) for slot, _ in e[1].words}
    for i in range(len(D)):  # a lex-leader's frontier words are its own state, not domains
        if not fixed(D[i]) and i not in fronts:
            domains.setdefault(term_of(i), shown(D[i], m.off[i]))
    found: list[object] = []
    # a hidden difference's terms: a != between differences shows as posted while they are open
    terms_of = {p.w: (p.u, p.v) for p in m.posted(DifferenceOf)}
    for entry in m.props:
        kind = entry[0]
        if kind == "ne":
            _, x, y, c, src = entry
            if src is not None and (x in terms_of or y in terms_of):
                # x - y != z - w, as posted, while a term is open: a value the != took from a
                # hidden difference (the other fixed) shows nowhere else
                if is_open(i for z in (x, y) for i in terms_of.get(z, (z,))):
                    found.append(src)
                continue
            shifted = Domain(D[y], m.off[y] + c) & Domain(D[x], m.off[x])
            if is_open((x, y)) and shifted:
                found.append(Relation("!=", term_of(x), lin(term_of(y)) + c))
        elif kind == "distinct":
            members = entry[1]
            if is_open(i for i, _ in members):
                terms = (term_of(i) + c if fixed(D[i]) else lin(term_of(i)) + c for i, c in members)
                found.append(Distinct(tuple(terms)))  # a fixed member as its value
        elif not entry[1].implied and not entry[1].entailed(D, m.off):
            rel = _describe(entry[1], term_of)
            if not isinstance(rel, Relation) or (rel.lhs - rel.rhs).terms:
                found.append(rel)  # (not x == x)
    for constraints in store.pending.values():
        found.extend(constraints)
    hidden = {m.vars[i] for i in m.private if not fixed(D[i])}
    if hidden:  # a hidden variable only implied constraints hold (a count joined) is not shown
        shown_vars = set(_term_vars(found))
        domains = {v: d for v, d in domains.items() if v not in hidden or v in shown_vars}
    # a constraint shown as posted names its variables as posted: those bound since (to a
    # value, a fixed one's included, or to another variable) are said so (posted back alone,
    # they would have no domain)
    ties = [eq(v, w) for v in dict.fromkeys(_term_vars(found)) if (w := walk(v, s)) is not v]
    return Residual(term, domains, tuple(found + ties + _disequalities(S)))


_NEGATED = {"==": "!=", "!=": "==", "<=": ">", ">": "<="}


def _describe(p: Propagator, term_of: Callable[[int], Any]) -> object:
    """The relation a propagator enforces, in terms of the open variables (a goal that posts it)."""
    if isinstance(p, EqOffset):
        return Relation("==", term_of(p.x), lin(term_of(p.y)) + p.c)
    if isinstance(p, LeOffset):
        return Relation("<=", term_of(p.x), lin(term_of(p.y)) + p.c)
    if isinstance(p, Times):
        return Relation("==", lin(term_of(p.x)) * lin(term_of(p.y)), term_of(p.z))
    if isinstance(p, AbsDifference):
        difference = lin(term_of(p.x)) - term_of(p.y) + p.k
        return Relation("==", term_of(p.z), aux("abs", difference))
    if isinstance(p, Function):
        args = [term_of(a) for a in p.args] + ([p.exponent] if p.kind == "pow" else [])
        return Relation("==", term_of(p.z), aux(p.kind, *args))
    if isinstance(p, Reified):
        total = sum((lin(term_of(i)) * a for i, a in p.yes.terms), lin(0))
        return _reified(term_of(p.b), p.op, total, -p.yes.k)
    if isinstance(p, ReifiedValue):
        return _reified(term_of(p.b), "==" if p.same else "!=", lin(term_of(p.x)), p.c)
    if isinstance(p, ReifiedBound):
        return _reified(term_of(p.b), "<=" if p.same else ">", lin(term_of(p.x)), p.c)
    if not isinstance(p, Linear):
        return p.source  # lex_le, inverse: shown as posted
    total = sum((lin(term_of(i)) * a for i, a in p.terms), lin(0))
    return Relation(p.op, total, -p.k)


def _reified(b: Any, op: str, lhs: Lin, rhs: int) -> Relation:
    """``b == (lhs op rhs)``; once ``b`` is fixed, the relation (1) or its negation (0)."""
    if b == 1 or b == 0:
        return Relation(op if b == 1 else _NEGATED[op], lhs, rhs)
    return Relation("==", b, Relation(op, lhs, rhs))


def run(
    n: int | None,
    q: Any,
    *goals: GoalLike | Iterable[GoalLike],
    residual: bool = False,
    trace: SearchTrace | None = None,
    timeout: float | None = None,
    max_nodes: int | None = None,
) -> tuple[Any, ...] | Iterator[Any]:
    """Run goals and return up to ``n`` reified answers for ``q``.

    ``n=0`` returns all answers as a tuple, ``n=None`` a lazy iterator (the
    first answer comes without computing the rest), ``n>0`` at most ``n``.
    A query with infinitely many answers never returns from ``run(0, ...)``:
    ask for ``n`` of them, iterate ``run(None, ...)``, or set ``timeout``
    (seconds) or ``max_nodes``, past which :class:`~relqueens.logic.limits.SearchLimit`
    is raised carrying the answers found so far. A
    :class:`~relqueens.fd.trace.SearchTrace` given as ``trace`` records the
    search of the final labeling.

    >>> from relqueens import var, fd
    >>> x = var()
    >>> run(2, x, fd.in_(x, fd.interval(0, 9)))
    (0, 1)
    """
    finish = (
        _residual_answer
        if residual
        else labeled
        if trace is None
        else partial(labeled, trace=trace)
    )
    return logic_run(n, q, *goals, finish=finish, timeout=timeout, max_nodes=max_nodes)


def run_all(
    q: Any,
    *goals: GoalLike | Iterable[GoalLike],
    residual: bool = False,
    trace: SearchTrace | None = None,
    **limits: Any,
) -> tuple[Any, ...]:
    """All answers for ``q`` (core.logic's ``run*``): ``run(0, q, *goals)``.

    >>> from relqueens import var, membero
    >>> x = var()
    >>> run_all(x, membero(x, [1, 2]))
    (1, 2)
    """
    return run(0, q, *goals, residual=residual, trace=trace, **limits)  # type: ignore[return-value]  # n = 0: a tuple
