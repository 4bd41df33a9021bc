"""Tabled relations: answers memoised per call pattern, so recursion over cyclic data terminates.

``@tabled`` makes a relation whose calls share a *table* per call pattern
(the variant of its arguments: ``patho(1, y)`` and ``patho(1, z)`` are one
pattern, ``patho(x, y)`` another). The first call of a pattern starts a
*producer*, a thread that runs the relation's body on fresh variables and
records each answer in the table, once. Every call of the pattern, the first
included, is a *consumer*: it reads the table's answers in order and, when it
has read them all, parks on the table until a new answer arrives. A
recursive call meets its own table and consumes it instead of running the
body again, so left- and right-recursive closures over cyclic graphs end,
each answer once (linear tabling's worry, re-running the body, never arises).

Completion is the run's fixpoint: when no producer or consumer can make
progress the search runs out of work, every table is complete, and the
consumers still parked are dropped. Tables belong to one search (one
``run``), so no answer outlives the query that found it.

>>> from relqueens import run, var, conde, eq, fresh
>>> EDGES = [(1, 2), (2, 3), (3, 1)]
>>> @tabled
... def patho(x, y):
...     return conde(*([eq((x, y), e)] for e in EDGES),
...                  [fresh(lambda z: [patho(x, z), patho(z, y)])])
>>> y = var()
>>> sorted(run(0, y, patho(1, y)))
[1, 2, 3]
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from cons import cons
from cons.core import ConsPair
from unification.variable import LVarType

from .facts import Places, Row, Rows, free_places
from .goals import Fresh, as_goal
from .reify import reify
from .search import SCHEDULE, Cont, Goal, Search
from .state import State, Tail, isvar, walk


class Hole:
    """A free variable's place in a call pattern or an answer (numbered in reading order)."""

    __slots__ = ("n",)

    def __init__(self, n: int) -> None:
        self.n = n

    def __repr__(self) -> str:
        return f"_{self.n}"


_HOLES: list[Hole] = []


def _hole(n: int) -> Hole:
    while len(_HOLES) <= n:
        _HOLES.append(Hole(len(_HOLES)))
    return _HOLES[n]


def variant_key(terms: Row, s: Mapping[Any, Any], holes: dict[Any, Hole]) -> Row:
    """``terms`` walked in ``s`` as a hashable key: equal for variants, free variables as :class:`Hole`.

    ``holes`` (filled in) maps each free variable to its hole. Lists, tuples
    and cons pairs are tagged with their type, so ``[1]`` and ``(1,)`` differ.

    >>> from unification import var
    >>> x, y = var(), var()
    >>> variant_key((x, [y, x], 3), {y: 2}, {})
    (_0, (<class 'list'>, 2, _0), 3)
    """
    return tuple(_key(t, s, holes) for t in terms)


def _key(t: Any, s: Mapping[Any, Any], holes: dict[Any, Hole]) -> Any:
    t = walk(t, s)
    tt = type(t)
    if tt is int or tt is str:
        return t
    if isvar(t):
        h = holes.get(t)
        if h is None:
            h = holes[t] = _hole(len(holes))
        return h
    if tt is list or tt is tuple:
        return (tt, *(_key(x, s, holes) for x in t))
    if tt is Tail:
        return _key(t.materialize(), s, holes)
    if issubclass(tt, ConsPair):
        cars = []
        while issubclass(type(t), ConsPair):
            cars.append(_key(t.car, s, holes))
            t = walk(t.cdr, s)
        if type(t) in (list, tuple, Tail):  # a proper list, written with cons
            rest = _key(t, s, holes)
            return (rest[0], *cars, *rest[1:])
        return (ConsPair, *cars, _key(t, s, holes))
    try:
        hash(t)
    except TypeError:
        raise TypeError(
            f"{t!r} ({tt.__name__}) is unhashable: a tabled relation's arguments (and a fact "
            "goal's) must be variables, numbers, strings, or lists and tuples of them"
        ) from None
    return t


def build(key: Row, fresh: Sequence[Any]) -> Row:
    """The terms a key stands for, with ``fresh[n]`` in the place of hole ``n`` (inverse of :func:`variant_key`).

    >>> build((Hole(0), (list, 2, Hole(0)), 3), ["v"])
    ('v', [2, 'v'], 3)
    """
    return tuple(_build(k, fresh) for k in key)


def _build(key: Any, fresh: Sequence[Any]) -> Any:
    tk = type(key)
    if tk is Hole:
        return fresh[key.n]
    if tk is not tuple:
        return key
    tag, items = key[0], [_build(x, fresh) for x in key[1:]]
    if tag is ConsPair:
        tail = items.pop()
        for car in reversed(items):
            tail = cons(car, tail)
        return tail
    return tag(items)


def reified(args: Row, S: State) -> Row:
    """``args`` reified in state ``S``: the answer a producer's state gives, when no constraint store has more to say."""
    s = S.data
    out = list(args)
    for i, a in enumerate(args):
        while type(type(a)) is LVarType:  # walk(a, s), inline: this loop is the hot one
            b = s.get(a, a)
            if b is a:
                break
            a = b
        out[i] = a if type(a) is int or type(a) is str else reify(a, s)
    return tuple(out)


class Table:
    """The answers of one call pattern: in order, each once, and the consumers parked on them."""

    __slots__ = ("answers", "keys", "open", "parked", "search")

    def __init__(self, search: Search) -> None:
        self.answers: list[Row | _Open] = []  # ground answers as terms, open ones as _Open
        self.open = False  # whether some answer is open
        self.keys: set[Row] = set()
        self.parked: list[tuple[Consume, State, Cont]] = []  # (consumer, state, continuation)
        self.search = search

    def add(self, term: Row) -> None:
        """Record an answer (the reified arguments) if it is new, and wake the parked consumers."""
        entry: Row | _Open
        key = entry = term
        for a in term:
            if type(a) is not int and type(a) is not str:
                holes: dict[Any, Hole] = {}
                key = variant_key(term, {}, holes)
                if holes:
                    entry = _Open(key, len(holes))
                    self.open = True
                break
        if key in self.keys:
            return
        self.keys.add(key)
        self.answers.append(entry)
        if self.parked:
            later = self.search.later
            for consumer, S, k in self.parked:
                later(S, (consumer, k))
            self.parked.clear()


class _Open:
    """An answer with free variables, kept as its key: each reading gets variables of its own."""

    __slots__ = ("holes", "key")

    def __init__(self, key: Row, holes: int) -> None:
        self.key, self.holes = key, holes

    def term(self) -> Row:
        make = Fresh.make_var
        return build(self.key, [make() for _ in range(self.holes)])


class Consume(Goal):
    """A call's reading of a table: each answer unified with the call's arguments, in order.

    Run by the search (``SCHEDULE``), it hands the answers it has not read
    to a depth-first pass (or, when the goals after it can take rows, joins
    them straight into a table: :meth:`relqueens.logic.facts.Rows.schedule`),
    then parks on the table until a new one comes; if new ones came while it
    read, it takes its turn again instead.
    """

    __slots__ = ("args", "seen", "table")
    search_kind = SCHEDULE

    def __init__(self, table: Table, args: Row) -> None:
        self.table, self.args, self.seen = table, args, 0

    def schedule(self, S: State, k: Cont, search: Search) -> None:
        table = self.table
        n = len(table.answers)
        if self.seen < n:
            s = S.data
            args = tuple([walk(a, s) for a in self.args])
            answers = table.answers[self.seen : n]
            if table.open:
                answers = [a.term() if type(a) is _Open else a for a in answers]
            S.refs += 1  # the reading's reference; the parked consumer keeps the thread's
            Rows(args, answers, free_places(args)).schedule(S, k, search)  # type: ignore[arg-type]  # terms only: an _Open is read as one above
            self.seen = n
        if len(table.answers) > n:  # answers came while it read (taken into this very table)
            search.later(S, (self, k))
        else:
            table.parked.append((self, S, k))


class Record(Goal):
    """The end of a producer's thread: its arguments, as the state has them, become answers."""

    __slots__ = ("args", "table")
    search_kind = SCHEDULE

    def __init__(self, table: Table, args: Row) -> None:
        self.table, self.args = table, args

    def schedule(self, S: State, k: Cont, search: Search) -> None:
        if S.constraints:
            for term in Tabled.answers(self.args, S):
                self.table.add(term)
        else:
            self.table.add(reified(self.args, S))
        S.refs -= 1

    def take_rows(self, S: State, places: Places, rows: Sequence[Row], k: Cont) -> bool:
        """Record the answers of ``S`` extended by each row's bindings at ``places``, if that is simple.

        It is when each argument is known in ``S`` (a number or a string) or is
        one of the variables the rows bind; ``False`` otherwise (nothing done).
        """
        if k is not None:
            return False
        s = S.data
        answer: list[Any]
        slots: list[tuple[int, int]]
        answer, slots = [], []  # the answer, and (index in it, position in a row) to fill
        for a in self.args:
            while type(type(a)) is LVarType:  # walk(a, s), inline
                b = s.get(a, a)
                if b is a:
                    p = next((p for p, v in places if v is a), None)
                    if p is None:
                        return False
                    slots.append((len(answer), p))
                    break
                a = b
            else:
                if type(a) is not int and type(a) is not str:
                    return False
            answer.append(a)
        add = self.table.add
        for row in rows:
            for i, p in slots:
                answer[i] = row[p]
            add(tuple(answer))
        return True


class TabledCall(Goal):
    """A call of a tabled relation: it consumes the table of its call pattern (producing it first if new)."""

    __slots__ = ("args", "relation")
    search_kind = SCHEDULE

    def __init__(self, relation: Tabled, args: Row) -> None:
        self.relation, self.args = relation, args

    def schedule(self, S: State, k: Cont, search: Search) -> None:
        tables = search.tables
        if tables is None:
            tables = search.tables = {}
        holes: dict[Any, Hole] = {}
        key = (self.relation, variant_key(self.args, S.data, holes))
        table: Table | None = tables.get(key)
        if table is None:
            table = tables[key] = Table(search)
            make = Fresh.make_var
            args = build(key[1], [make() for _ in range(len(holes))])
            body = as_goal(self.relation.fn(*args), self.relation.fn)
            search.later(State(), (body, (Record(table, args), None)))
        Consume(table, self.args).schedule(S, k, search)

    def __repr__(self) -> str:
        return f"{self.relation.__name__}{self.args!r}"


class Tabled:
    """A tabled relation (made by :func:`tabled`): calling it gives a goal.

    ``answers(args, state)`` turns a producer's state that has constraint
    stores into the answers it records (the arguments reified, by default);
    the FD layer installs its labeling, so a finite-domain variable left open
    in an answer is enumerated, not lost.
    """

    __name__: str
    answers: Callable[[Any, State], Iterable[Row]] = staticmethod(
        lambda args, S: (reified(args, S),)
    )

    def __init__(self, fn: Callable[..., Any]) -> None:
        if isinstance(fn, Tabled):
            raise TypeError(f"{fn.__name__} is tabled already")
        if isinstance(fn, (Goal, type)) or not callable(fn):
            raise TypeError(f"tabled decorates a relation function (arguments -> goal), got {fn!r}")
        if inspect.isgeneratorfunction(fn) or inspect.iscoroutinefunction(fn):
            raise TypeError(
                f"tabled decorates a relation function (arguments -> goal); {fn.__name__} is a "
                "generator or coroutine function (a goal written kanren's way takes a state)"
            )
        try:
            self.signature = inspect.signature(fn)
        except (TypeError, ValueError):
            raise TypeError(f"tabled cannot read the parameters of {fn!r}") from None
        params = self.signature.parameters.values()
        if any(p.kind is p.KEYWORD_ONLY for p in params):
            raise TypeError(
                f"tabled relations take positional arguments; {fn.__name__} has keyword-only ones"
            )
        simple = all(p.kind is p.POSITIONAL_OR_KEYWORD and p.default is p.empty for p in params)
        self.arity = len(self.signature.parameters) if simple else None
        self.fn = fn
        self.__name__ = getattr(fn, "__name__", type(fn).__name__)
        functools.update_wrapper(self, fn)

    def __call__(self, *args: Any, **kwargs: Any) -> TabledCall:
        if kwargs or len(args) != self.arity:
            try:
                bound = self.signature.bind(*args, **kwargs)
            except TypeError as e:
                raise TypeError(f"{self.__name__}: {e}") from None
            bound.apply_defaults()
            args = bound.args
        return TabledCall(self, args)

    def __repr__(self) -> str:
        return f"tabled({self.__name__})"


def tabled(fn: Callable[..., Any]) -> Tabled:
    """Make ``fn`` a tabled relation: answers memoised per call pattern, each answer once.

    ``fn`` takes the relation's arguments and returns its body, a goal (or a
    list of goals) that may call ``fn``'s relation itself, left or right
    recursively, and other tabled relations. Tables live for one ``run``.

    >>> from relqueens import run, vars, conde, eq, fresh
    >>> @tabled
    ... def linko(x, y):
    ...     return conde([eq((x, y), ("a", "b"))], [eq((x, y), ("b", "a"))],
    ...                  [fresh(lambda z: [linko(x, z), linko(z, y)])])
    >>> x, y = vars(2)
    >>> sorted(run(0, (x, y), linko(x, y)))
    [('a', 'a'), ('a', 'b'), ('b', 'a'), ('b', 'b')]
    """
    return Tabled(fn)
