"""The goal constructors: ``eq``, ``succeed``, ``fail``, ``lall``, ``lany``, ``conde``, ``fresh``, ``relation``.

They build the records of :mod:`relqueens.logic.search`; each is also a
kanren goal (call it with a state).

>>> from relqueens import run, var
>>> x = var()
>>> run(0, x, conde([eq(x, 1)], [eq(x, 2)]))
(1, 2)
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterable, Iterator
from typing import Any, cast

from unification import Var

from .search import CALL, CONJ, DISJ, DYNAMIC, FRESH, LAZY, STEP, Goal
from .state import State, unify_state

GoalLike = Callable[[Any], Iterable[Any]]


class Eq(Goal):
    """``u`` and ``v`` unify (kanren's ``eq``, The Reasoned Schemer's ``==``)."""

    __slots__ = ("u", "v")
    search_kind = STEP
    post_batch: Callable[[tuple[Eq, ...]], Eq] | None  # set below: goals_of joins neighbouring eqs

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.post_batch = None  # a subclass may step otherwise: not joined (unless it says so)

    def __init__(self, u: Any, v: Any) -> None:
        self.u, self.v = u, v

    def step(self, S: State) -> bool:
        return unify_state(self.u, self.v, S)

    def __repr__(self) -> str:
        return f"eq({self.u!r}, {self.v!r})"


class Eqs(Eq):
    """Consecutive ``eq`` goals as one unification of tuples, so constraint stores check the
    new bindings, and propagate, once (a Sudoku's givens: one fixpoint, not one each).

    ``u`` and ``v`` hold the sides last first: :func:`~relqueens.logic.state.unify_into`
    takes the last pair of a tuple first, so the pairs are unified in the order written.
    """

    __slots__ = ()

    def __init__(self, goals: tuple[Eq, ...]) -> None:
        us: list[Any] = []
        vs: list[Any] = []
        for g in reversed(goals):
            if type(g) is Eqs:  # its sides last first already
                us += g.u
                vs += g.v
            else:
                us.append(g.u)
                vs.append(g.v)
        super().__init__(tuple(us), tuple(vs))

    def __repr__(self) -> str:
        eqs = (f"eq({u!r}, {v!r})" for u, v in zip(reversed(self.u), reversed(self.v)))
        return f"lall({', '.join(eqs)})"


Eq.post_batch = Eqs.post_batch = Eqs


class Constant(Goal):
    """The goal that always succeeds (``succeed``) or never does (``fail``)."""

    __slots__ = ("value",)
    search_kind = STEP

    def __init__(self, value: bool) -> None:
        self.value = value

    def step(self, S: State) -> bool:
        return self.value

    def __repr__(self) -> str:
        return "succeed" if self.value else "fail"


succeed = Constant(True)
"""The goal that succeeds once (The Reasoned Schemer's ``#s``)."""
fail = Constant(False)
"""The goal that never succeeds (``#u``)."""


class Conj(Goal):
    """All of ``goals``, left to right."""

    __slots__ = ("goals",)
    search_kind = CONJ

    def __init__(self, goals: tuple[GoalLike, ...]) -> None:
        self.goals = goals


class Disj(Goal):
    """Any of ``goals``, interleaved fairly."""

    __slots__ = ("goals",)
    search_kind = DISJ

    def __init__(self, goals: tuple[GoalLike, ...]) -> None:
        self.goals = goals


class LazyDisj(Goal):
    """Any of the goals an iterator yields (possibly infinitely many), one more per turn."""

    __slots__ = ("source",)
    search_kind = LAZY

    def __init__(self, source: Iterable[GoalLike]) -> None:
        self.source = source

    def alternatives(self) -> Iterator[GoalLike]:
        return iter(self.source)


class Call(Goal):
    """A relation call, run when the search reaches it (an inverse-η delay)."""

    __slots__ = ("args", "fn", "kwargs")
    search_kind = CALL

    def __init__(
        self, fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> None:
        self.fn, self.args, self.kwargs = fn, args, kwargs

    def expand(self) -> GoalLike:
        return as_goal(self.fn(*self.args, **self.kwargs), self.fn)

    def __repr__(self) -> str:
        return f"{getattr(self.fn, '__name__', self.fn)}{self.args!r}"


class Fresh(Call):
    """New variables for a goal's body (The Reasoned Schemer's ``fresh``)."""

    __slots__ = ("arity",)
    search_kind = FRESH
    make_var: Callable[[], Var] = Var
    """The class of fresh variables; the FD layer installs its own, which does arithmetic."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        super().__init__(fn, (), {})
        self.arity = _arity(fn)

    def expand(self) -> GoalLike:
        make = Fresh.make_var
        return as_goal(self.fn(*(make() for _ in range(self.arity))), self.fn)


class Dynamic(Call):
    """A goal built from the state it runs on (used for relations that look at their arguments)."""

    __slots__ = ()
    search_kind = DYNAMIC

    def expand(self, S: State) -> GoalLike:  # type: ignore[override]  # DYNAMIC: the search passes the state
        return as_goal(self.fn(S, *self.args), self.fn)


def _arity(fn: Callable[..., Any]) -> int:
    if not callable(fn):
        raise TypeError(f"fresh takes a function of the new variables, got {fn!r}")
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        raise TypeError(f"fresh cannot tell how many variables {fn!r} takes") from None
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return sum(1 for p in params if p.kind in kinds and p.default is p.empty)


def as_goal(value: GoalLike | list[Any] | tuple[Any, ...], source: object = None) -> GoalLike:
    """``value`` as a goal: a goal stays itself; a list or tuple of goals is their conjunction."""
    if isinstance(value, (list, tuple)):
        return lall(*value)
    if isinstance(value, bool) or not callable(value):
        where = f" (from {getattr(source, '__name__', source)})" if source is not None else ""
        raise TypeError(f"{value!r}{where} is not a goal")
    return value


def goals_of(goals: tuple[Any, ...], batch_posts: bool) -> list[GoalLike]:
    """Validate goals (one iterable of goals may stand for them); for a conjunction, batch FD constraints.

    With ``batch_posts``, a run of consecutive goals that each give at most
    one state and have a ``post_batch`` function (the FD layer's constraints,
    ``eq``) becomes its ``eq`` goals unified as one, then its constraints
    posted as one, propagated once. The answers are the same, in the same
    order (an exception, or a residual constraint's form, may show the other
    order), and constraints posted over values cost less than values checked
    against constraints (see docs/performance.md, session 44).
    """
    if len(goals) == 1 and not callable(goals[0]) and isinstance(goals[0], Iterable):
        goals = tuple(goals[0])
    out: list[GoalLike] = []
    run: dict[Any, list[Any]] = {}  # the run's goals by post_batch, in order
    for k, g in enumerate(goals):
        if g is True or g is False:
            raise TypeError(
                f"goal {k} is {g}, a Python bool, not a goal: `x != y` or `x == 5` "
                "with a bare variable compares the Python objects; write fd.ne(x, y) or "
                "fd.eq(x, 5) (or eq(x, 5) to unify)"
            )
        if not callable(g):
            raise TypeError(f"goal {k} is not a goal: {g!r} ({type(g).__name__})")
        post = getattr(g, "post_batch", None) if batch_posts else None
        if post is not None and getattr(g, "search_kind", None) == STEP:
            batch = run.get(post)
            if batch is None:
                run[post] = [g]
            else:
                batch.append(g)
            continue
        if run:
            _flush(run, out)
        out.append(g)
    if run:
        _flush(run, out)
    return out


def _flush(run: dict[Any, list[Any]], out: list[GoalLike]) -> None:
    """Add a run of batched goals to ``out``, emptying it: its unifications first."""
    eqs = run.pop(Eqs, None)
    for post, batch in ((Eqs, eqs), *run.items()) if eqs else run.items():
        out.append(batch[0] if len(batch) == 1 else post(tuple(batch)))
    run.clear()


def lall(*goals: GoalLike | Iterable[GoalLike]) -> GoalLike:
    """The conjunction of goals (``conj``): all must hold, in any number, without recursion.

    >>> from relqueens import run, var, membero
    >>> x = var()
    >>> run(0, x, lall(membero(x, [1, 2, 3]), membero(x, [2, 3, 4])))
    (2, 3)
    """
    gs = goals_of(goals, True)
    if not gs:
        return succeed
    return gs[0] if len(gs) == 1 else Conj(tuple(gs))


conj = lall


def lany(*goals: GoalLike | Iterable[GoalLike]) -> GoalLike:
    """The disjunction of goals (``disj``), searched fairly; with no goals it fails.

    One iterator of goals may be given instead; it is drawn lazily, so it may
    be infinite.

    >>> from relqueens import run, var
    >>> x = var()
    >>> run(0, x, lany(eq(x, 1), eq(x, 2))), run(0, x, lany())
    ((1, 2), ())
    """
    if len(goals) == 1 and isinstance(goals[0], Iterator):
        return LazyDisj(as_goal(g) for g in goals[0])
    gs = goals_of(goals, False)
    if not gs:
        return fail
    return gs[0] if len(gs) == 1 else Disj(tuple(gs))


disj = lany


def conde(*clauses: Iterable[GoalLike] | GoalLike) -> GoalLike:
    """Any of the clauses; each clause is a list of goals, all of which must hold.

    >>> from relqueens import run, var
    >>> x, y = var(), var()
    >>> run(0, (x, y), conde([eq(x, 1), eq(y, 2)], [eq(x, 3), eq(y, 4)]))
    ((1, 2), (3, 4))
    """
    if len(clauses) == 1 and isinstance(clauses[0], Iterator):
        return LazyDisj(_clause(c) for c in clauses[0])
    return lany(*(_clause(c) for c in clauses))


def _clause(clause: Any) -> GoalLike:
    if callable(clause):
        return cast(GoalLike, clause)
    if isinstance(clause, Iterable) and not isinstance(clause, (str, bytes)):
        return lall(*clause)
    raise TypeError(f"a conde clause is a list of goals, got {clause!r}")


def eq(u: Any, v: Any) -> Eq:
    """Unify ``u`` and ``v`` (kanren's ``eq``); FD expressions are refused.

    >>> from relqueens import run, var
    >>> x = var()
    >>> run(0, x, eq(x, 3)), run(0, x, eq(x, [x]))
    ((3,), ())
    """
    for t in (u, v):
        message = getattr(t, "term_error", None)
        if message is not None:
            raise TypeError(message.format(t))
    return Eq(u, v)


def fresh(body: Callable[..., Any]) -> Fresh:
    """Run ``body`` on new variables, one per parameter (The Reasoned Schemer's ``fresh``).

    ``body`` returns a goal or a list of goals (their conjunction).

    >>> from relqueens import run, var
    >>> q = var()
    >>> run(0, q, fresh(lambda a, d: [eq([a, d], [1, 2]), eq(q, d)]))
    (2,)
    """
    return Fresh(body)


def relation(fn: Callable[..., Any]) -> Callable[..., Call]:
    """Make ``fn`` a relation (The Reasoned Schemer's ``defrel``): calls are delayed until searched.

    So a relation may call itself, and the search interleaves its branches.

    >>> from relqueens import run, var
    >>> @relation
    ... def nato(n):
    ...     return conde([eq(n, 0)], [fresh(lambda m: [eq(n, ("s", m)), nato(m)])])
    >>> q = var()
    >>> run(3, q, nato(q))
    (0, ('s', 0), ('s', ('s', 0)))
    """
    if not callable(fn):
        raise TypeError(f"relation decorates a function, got {fn!r}")

    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> Call:
        return Call(fn, args, kwargs)

    return call


def Zzz(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Call:
    """The goal ``fn(*args, **kwargs)``, built when the search reaches it (kanren's ``Zzz``)."""
    return Call(fn, args, kwargs)
