"""Running goals: conjunction, ``run``/``run_all``, and residual answers.

``run`` mirrors kanren's and core.logic's ``run``: goals are conjoined,
answers are ``q`` reified. As in core.logic, FD variables still open when the
goals are done are labeled before reification, so answers are ground:

* the FD variables reachable from ``q`` are enumerated leftmost first (in the
  order they appear in ``q``), values ascending — one answer per assignment;
* other FD variables still open are only checked for a solution (one
  witness), so they neither multiply nor invent answers.

With ``residual=True`` nothing is labeled: each answer is a :class:`Residual`
carrying the open domains and constraints, as SWI-Prolog's toplevel prints
``X in 0..7``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from typing import Any

from kanren import eq as _kanren_eq
from kanren.constraints import ConstrainedState
from kanren.constraints import neq as _kanren_neq
from unification import reify as _reify

from .fd.domain import Domain
from .fd.errors import DomainError
from .fd.labeling import free_vars, search, solved_state
from .fd.post import Distinct, is_constraint, post_goal
from .fd.propagators import EqOffset, LeOffset, Linear, Times
from .fd.store import FDStore, fd_state, store_of, walk
from .fd.terms import Lin, Product, Relation, isvar, lin
from .fd.trace import SearchTrace

Goal = Callable[[Any], Iterator]


def succeed(S) -> Iterator:
    """The goal that always succeeds once."""
    yield S


def fail(S) -> Iterator:
    """The goal that never succeeds."""
    return iter(())


def _prepare(goals: tuple) -> list[Goal]:
    """Validate goals and batch runs of consecutive FD constraints into one posting."""
    if len(goals) == 1 and not callable(goals[0]) and isinstance(goals[0], Iterable):
        goals = tuple(goals[0])
    out: list[Goal] = []
    batch: list = []
    for k, g in enumerate(goals):
        if isinstance(g, bool):
            raise TypeError(
                f"goal {k} is {g}, a Python bool, not a goal: `x != y` or `x == 5` with a bare "
                "variable compares the Python objects; write fd.ne(x, y) or fd.eq(x, 5) "
                "(or eq(x, 5) to unify)"
            )
        if not callable(g):
            raise TypeError(f"goal {k} is not a goal: {g!r} ({type(g).__name__})")
        if is_constraint(g):
            batch.append(g)
            continue
        if batch:
            out.append(batch[0] if len(batch) == 1 else post_goal(batch))
            batch = []
        out.append(g)
    if batch:
        out.append(batch[0] if len(batch) == 1 else post_goal(batch))
    return out


def lall(*goals: Goal | Iterable[Goal]) -> Goal:
    """The conjunction of goals, searched depth first without recursion.

    Unlike kanren's ``lall``, any number of goals can be conjoined (no
    nested streams, no ``RecursionError``), and consecutive FD constraints
    are posted as one batch.

    >>> from relqueens import run_all, var, eq, membero
    >>> x = var()
    >>> run_all(x, lall(membero(x, [1, 2, 3]), membero(x, [2, 3, 4])))
    (2, 3)
    """
    gs = _prepare(goals)
    if not gs:
        return succeed
    if len(gs) == 1:
        return gs[0]
    n = len(gs)

    def lall_goal(S) -> Iterator:
        stack = [iter((S,))]
        while stack:
            s = next(stack[-1], None)
            if s is None:
                stack.pop()
            elif len(stack) > n:
                yield s
            else:
                stack.append(iter(gs[len(stack) - 1](s)))

    return lall_goal


conj = lall


def eq(u: Any, v: Any) -> Goal:
    """Unify ``u`` and ``v`` (kanren's ``eq``); FD expressions are refused.

    >>> from relqueens import run_all, var
    >>> x = var()
    >>> run_all(x, eq(x, 3))
    (3,)
    """
    for t in (u, v):
        if isinstance(t, (Lin, Product, Relation)):
            raise TypeError(
                f"eq unifies terms, and {t} is an FD expression; for arithmetic write "
                "fd.eq(a, b) or a relation such as x == y + 1"
            )
    return _kanren_eq(u, v)


def neq(u: Any, v: Any) -> Goal:
    """Disequality of terms (kanren's ``neq``), on a copy of the state.

    kanren's ``neq`` adds to the store of the state it is given; copying
    first keeps sibling branches apart.
    """
    goal = _kanren_neq(u, v)

    def neq_goal(S) -> Iterator:
        return goal(S.copy() if isinstance(S, ConstrainedState) else S)

    return neq_goal


class Residual:
    """An answer whose FD variables are left open: the term, domains and constraints.

    >>> from relqueens import run, vars, fd
    >>> x, y = vars(2, prefix="v")
    >>> r, = run(0, [x, y], fd.in_(x, y, fd.interval(0, 3)), x < y, residual=True)
    >>> r.domains[x], r.domains[y]
    ({0..2}, {1..3})
    """

    __slots__ = ("constraints", "domains", "term")

    def __init__(self, term: Any, domains: dict, constraints: tuple) -> None:
        self.term, self.domains, self.constraints = term, domains, constraints

    def __repr__(self) -> str:
        parts = [f"{v} in {d}" for v, d in self.domains.items()] + [repr(c) for c in self.constraints]
        return repr(self.term) if not parts else f"{self.term!r} where {', '.join(parts)}"


def reify(term: Any, s) -> Any:
    """``term`` with its variables replaced by their values in substitution ``s``.

    Lists, tuples and variables are handled here, quickly; anything else is
    left to ``unification.reify``.
    """
    t = type(term)
    if t is list or t is tuple:
        return t([reify(x, s) for x in term])
    if isvar(term):
        w = walk(term, s)
        return w if w is term or type(w) is int else reify(w, s)
    if t is int or t is str:
        return term
    return _reify(term, s)


def _data(S):
    return S.data if isinstance(S, ConstrainedState) else S


def _term_vars(term: Any) -> Iterator:
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


def _check_pending(store: FDStore) -> None:
    for v, constraints in store.pending.items():
        raise DomainError(
            f"{v} appears in {constraints[0]!r} but has no domain; give it one with fd.in_"
        )


def _labeled(q: Any, S, trace=None) -> Iterator:
    s, store = _data(S), store_of(S)
    term = reify(q, s)
    if store is None:
        yield term
        return
    _check_pending(store)
    D = store.D
    idx = store.current().index
    found = (idx.get(v) for v in _term_vars(term))
    shown = list(dict.fromkeys(i for i in found if i is not None and D[i] & (D[i] - 1)))
    skip = set(shown) | store.model.private
    hidden = [i for i, d in enumerate(D) if d & (d - 1) and i not in skip]
    if not shown and not hidden:
        yield term
        return
    free = free_vars(S, store)
    for Dn in search(D, store, shown + hidden, exists_from=len(shown), trace=trace):
        S2 = solved_state(S, store, Dn, free)
        if S2 is not False:
            yield reify(q, S2.data)


def _residual(q: Any, S) -> Residual:
    s, store = _data(S), store_of(S)
    term = reify(q, s)
    if store is None:
        return Residual(term, {}, ())
    m, D = store.current(), store.D

    def term_of(i: int):
        d = D[i]
        return walk(m.vars[i], s) if d & (d - 1) else m.off[i] + d.bit_length() - 1

    def is_open(indices) -> bool:
        return any(D[i] & (D[i] - 1) for i in indices)

    domains = {}
    for i in range(len(D)):
        if D[i] & (D[i] - 1):
            domains.setdefault(term_of(i), Domain(D[i], m.off[i]))
    found: list = []
    for entry in m.props:
        kind = entry[0]
        if kind == "ne":
            _, x, y, c, _src = entry
            shifted = Domain(D[y], m.off[y] + c) & Domain(D[x], m.off[x])
            if is_open((x, y)) and shifted:
                found.append(Relation("!=", term_of(x), lin(term_of(y)) + c))
        elif kind == "distinct":
            members = entry[1]
            if is_open(i for i, _ in members):
                found.append(Distinct(tuple(lin(term_of(i)) + c for i, c in members)))
        elif not entry[1].entailed(D, m.off):
            rel = _describe(entry[1], term_of)
            if not isinstance(rel, Relation) or rel.kind == "times" or (rel.lhs - rel.rhs).terms:
                found.append(rel)  # (not x == x)
    for constraints in store.pending.values():
        found.extend(constraints)
    return Residual(term, domains, tuple(found))


def _describe(p, term_of):
    """The relation a propagator enforces, in terms of the open variables."""
    if isinstance(p, EqOffset):
        return Relation("==", term_of(p.x), lin(term_of(p.y)) + p.c)
    if isinstance(p, LeOffset):
        return Relation("<=", term_of(p.x), lin(term_of(p.y)) + p.c)
    if isinstance(p, Times):
        return Relation("==", lin(term_of(p.x)) * lin(term_of(p.y)), term_of(p.z))
    if not isinstance(p, Linear):
        return p.source  # lex_le, inverse: shown as posted
    total = sum((lin(term_of(i)) * a for i, a in p.terms), lin(0))
    return Relation(p.op, total, -p.k)


def _check_n(n: object) -> None:
    if n is None:
        return
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"run's n must be None (lazy), 0 (all) or a positive integer, got {n!r}")
    if n < 0:
        raise ValueError(f"run's n must be None (lazy), 0 (all) or a positive integer, got {n}")


def run(
    n: int | None, q: Any, *goals: Goal, residual: bool = False, trace: SearchTrace | None = None
) -> tuple | Iterator:
    """Run goals and return up to ``n`` reified answers for ``q``.

    ``n=0`` returns all answers as a tuple, ``n=None`` a lazy iterator (the
    first answer comes without computing the rest), ``n>0`` at most ``n``.
    A :class:`~relqueens.fd.trace.SearchTrace` given as ``trace`` records the
    search of the final labeling.

    >>> from relqueens import var, fd
    >>> x = var()
    >>> run(2, x, fd.in_(x, fd.interval(0, 9)))
    (0, 1)
    """
    _check_n(n)
    goal = lall(*goals)

    def answers() -> Iterator:
        S0 = fd_state({})
        for S in goal(S0):
            if residual:
                yield _residual(q, S)
            else:
                yield from _labeled(q, S, trace)

    if n is None:
        return answers()
    if n == 0:
        return tuple(answers())
    return tuple(islice(answers(), n))


def run_all(q: Any, *goals: Goal, residual: bool = False, trace: SearchTrace | None = None) -> tuple:
    """All answers for ``q`` (core.logic's ``run*``): ``run(0, q, *goals)``.

    >>> from relqueens import var, membero
    >>> x = var()
    >>> run_all(x, membero(x, [1, 2]))
    (1, 2)
    """
    return run(0, q, *goals, residual=residual, trace=trace)


__all__ = [
    "Residual",
    "conj",
    "eq",
    "fail",
    "lall",
    "neq",
    "run",
    "run_all",
    "succeed",
]
