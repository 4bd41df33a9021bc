"""Fact tables: ``Relation``, ``fact`` and ``facts``, with an index on every argument position.

The names and the calling convention are kanren's: ``parent = Relation()``,
``facts(parent, ("Homer", "Bart"), ...)``, and ``parent(x, "Bart")`` is a
goal. A call looks up only the rows that can match: among its arguments that
are known (ground), it reads the smallest index bucket, and an FD variable
with a domain keeps only the rows whose value is in the domain (read
through a constraint store's ``domain(var)``, so this module needs nothing
of the FD layer). One matching row extends the state in place; several are
tried depth first, as a finite disjunction.

>>> from relqueens import run, var
>>> parent = Relation("parent")
>>> facts(parent, ("Homer", "Bart"), ("Homer", "Lisa"), ("Abe", "Homer"))
>>> x = var()
>>> run(0, x, parent("Homer", x))
('Bart', 'Lisa')
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import count
from typing import Any, TypeAlias

from unification.variable import LVarType

from .goals import Eq, fail
from .reify import reify
from .search import DYNAMIC, SCHEDULE, STEP, Cont, Goal, Search
from .state import State, has_var, isvar, unify_state

_NAMES = count()

Row: TypeAlias = "tuple[Any, ...]"
"""A row of a relation: its values (and a call's arguments, an answer of a table)."""
Places: TypeAlias = "list[tuple[int, Any]]"
"""``(position, variable)`` pairs: where a call's free variables stand among its arguments."""


class Relation:
    """A relation given by facts (rows of values), indexed on every argument position.

    Rows hold numbers, strings and (nested) tuples of them; all rows of a
    relation have one length, its arity, set by the first row. A row added
    twice is kept once.

    >>> edge = Relation("edge")
    >>> facts(edge, (1, 2), (2, 3))
    >>> len(edge), edge.arity, edge(1, 2)
    (2, 2, edge(1, 2))
    """

    def __init__(self, name: str | None = None) -> None:
        self.name = name if name else f"_{next(_NAMES)}"
        self.rows: list[Row] = []
        self.arity: int | None = None
        self.index: list[dict[Any, list[Row]]] = []
        self._seen: set[Row] = set()

    def add_fact(self, *values: Any) -> None:
        """Add one row (kanren's ``add_fact``)."""
        self.add_facts([values])

    def add_facts(self, rows: Iterable[Iterable[Any]]) -> None:
        """Add rows, each a tuple or list of values: all of them, or none if one is bad."""
        arity = self.arity
        checked = []
        for row in rows:
            if isinstance(row, (str, bytes)) or not isinstance(row, Iterable):
                raise TypeError(f"{self.name}: a row is a tuple of values, got {row!r}")
            row = tuple(row)
            if arity is None:
                arity = len(row)
            elif len(row) != arity:
                raise ValueError(
                    f"{self.name}: the row {row!r} has {len(row)} values, but the rows of "
                    f"{self.name} have {arity}"
                )
            for v in row:
                _check_value(v, row, self.name)
            checked.append(row)
        if self.arity is None and arity is not None:
            self.arity = arity
            self.index = [{} for _ in range(arity)]
        seen, index = self._seen, self.index
        for row in checked:
            if row not in seen:
                seen.add(row)
                self.rows.append(row)
                for bucket, v in zip(index, row):
                    bucket.setdefault(v, []).append(row)

    def __call__(self, *args: Any) -> FactGoal:
        if self.arity is not None and len(args) != self.arity:
            raise TypeError(
                f"{self.name} takes {self.arity} arguments (its rows have {self.arity} values), "
                f"got {len(args)}"
            )
        return FactGoal(self, args)

    def __len__(self) -> int:
        return len(self.rows)

    def __repr__(self) -> str:
        return f"Relation({self.name!r}, {len(self.rows)} rows)"

    def matching(self, keys: list[tuple[int, Any]], free: Places, S: State) -> Sequence[Row]:
        """The rows whose values are ``keys`` (``(position, value)`` pairs) and in the domains of ``free`` FD variables."""
        rows: Sequence[Row]
        if not keys:
            rows = self.rows
        elif len(keys) == 1:
            p, v = keys[0]
            rows = self.index[p].get(v, ())
        else:
            index = self.index
            rows = min((index[p].get(v, ()) for p, v in keys), key=len)
            rows = [r for r in rows if all(r[p] == v for p, v in keys)]
        if S.constraints and free and rows:
            rows = self._in_domains(rows, free, S, not keys)
        return rows

    def _in_domains(self, rows: Sequence[Row], free: Places, S: State, scan: bool) -> Sequence[Row]:
        """``rows`` less those whose value for an FD variable is outside its domain."""
        for store in S.constraints.values():
            domain_of = getattr(store, "domain", None)
            if not callable(domain_of):
                continue
            for p, v in free:
                dom = domain_of(v)
                if dom is None:
                    continue
                bucket = self.index[p]
                size = _size(dom)
                if scan and size is not None and size < len(bucket):
                    rows = [r for value in dom for r in bucket.get(value, ())]
                else:
                    rows = [r for r in rows if r[p] in dom]
                scan = False
        return rows


def _hashable(value: Any, p: int, name: str) -> Any:
    try:
        hash(value)
    except TypeError:
        raise TypeError(
            f"{name}: argument {p} is {value!r}, which is unhashable; rows hold numbers, "
            "strings and tuples"
        ) from None
    return value


def _size(dom: Any) -> int | None:
    try:
        return len(dom)
    except TypeError:  # an infinite domain
        return None


def _check_value(v: Any, row: Row, name: str) -> None:
    tv = type(v)
    if tv is int or tv is str:
        return
    if tv is tuple:
        for x in v:
            _check_value(x, row, name)
        return
    if isvar(v):
        raise TypeError(f"{name}: the row {row!r} holds the logic variable {v}; rows hold values")
    try:
        hash(v)
    except TypeError:
        raise TypeError(
            f"{name}: the row {row!r} holds {v!r}, which is unhashable ({tv.__name__}); rows hold "
            "numbers, strings and tuples"
        ) from None


class FactGoal(Goal):
    """``relation(*args)``: the arguments unify with one of the relation's rows."""

    __slots__ = ("args", "relation")
    search_kind = DYNAMIC

    def __init__(self, relation: Relation, args: Row) -> None:
        self.relation, self.args = relation, args

    def expand(self, S: State) -> Goal:
        rel = self.relation
        if len(self.args) != rel.arity:
            if rel.arity is None:
                return fail  # no facts yet
            raise TypeError(
                f"{rel.name} takes {rel.arity} arguments (its rows have {rel.arity} values), "
                f"got {len(self.args)}"
            )
        s = S.data
        keys: list[tuple[int, Any]]
        places: Places
        rows: Sequence[Row]
        keys, places = [], []
        simple = (
            True  # whether a match only binds free variables (none repeats, no structure holds one)
        )
        for p, a in enumerate(self.args):
            while type(type(a)) is LVarType:  # walk(a, s), inline: this loop is the hot one
                b = s.get(a, a)
                if b is a:
                    break
                a = b
            ta = type(a)
            if ta is int or ta is str:
                keys.append((p, a))
            elif type(ta) is LVarType:
                if places and a in [v for _, v in places]:
                    simple = False
                places.append((p, a))
            else:
                value = reify(a, s)
                if has_var(value):
                    simple = False
                else:
                    keys.append((p, _hashable(value, p, rel.name)))
        if len(keys) == 1 and not S.constraints:  # the usual case, without the call
            p, value = keys[0]
            rows = rel.index[p].get(value, ())
        else:
            rows = rel.matching(keys, places, S)
        if not rows:
            return fail
        if len(rows) > 1:
            return Rows(self.args, rows, places if simple else None)
        if not simple:
            return Eq(self.args, rows[0])
        row = rows[0]
        return Bind(tuple([v for _, v in places]), tuple([row[p] for p, _ in places]))

    def take_rows(self, S: State, places: Places, rows: Sequence[Row], k: Cont) -> bool:
        """Join: each row (binding ``places`` in ``S``) extended by this goal's matching rows, handed on.

        The goal after this one must take rows too (a table's recording);
        ``False``, with nothing done, when it cannot, or when this goal's
        arguments are not simple (a structure, a repeated variable, no known
        value to look up, a row's value that is not a plain key).
        """
        take = None if k is None else getattr(k[0], "take_rows", None)
        rel = self.relation
        if take is None or len(self.args) != rel.arity or not rows:
            return False
        s = S.data
        keys: list[tuple[int, Any]]
        from_row: list[tuple[int, int]]
        out: Places
        keys, from_row, out = (
            [],
            [],
            [],
        )  # (position, value), (position, place in a row), (position, var)
        for i, a in enumerate(self.args):
            while type(type(a)) is LVarType:  # walk(a, s), inline
                b = s.get(a, a)
                if b is a:
                    break
                a = b
            if type(a) is int or type(a) is str:
                keys.append((i, a))
            elif type(type(a)) is not LVarType:
                return False
            else:
                at = next((p for p, v in places if v is a), None)
                if at is not None:
                    from_row.append((i, at))
                elif any(v is a for _, v in out):
                    return False
                else:
                    out.append((i, a))
        if not keys and not from_row:
            return False
        index, width = rel.index, len(rows[0])
        joined = []
        for row in rows:
            found = keys + [(i, row[at]) for i, at in from_row]
            for _, value in found:
                if type(value) is not int and type(value) is not str and not _plain(value):
                    return False
            (i, value), rest = found[0], found[1:]
            for match in index[i].get(value, ()):
                if all(match[j] == v for j, v in rest):
                    joined.append(row + match)
        return take(S, places + [(width + i, v) for i, v in out], joined, k[1])  # type: ignore[index, no-any-return]  # k is not None: take is k[0]'s take_rows (a bool)

    def __repr__(self) -> str:
        return f"{self.relation.name}{self.args!r}"


def _plain(value: Any) -> bool:
    """Whether ``value`` can be looked up in an index: hashable, and holding no variable."""
    try:
        hash(value)
    except TypeError:
        return False
    return not has_var(value)


class Bind(Goal):
    """Free variables ``vars`` take ``values`` (ground): unification, less the search for what to bind."""

    __slots__ = ("values", "vars")
    search_kind = STEP

    def __init__(self, vars: Row, values: Row) -> None:
        self.vars, self.values = vars, values

    def step(self, S: State) -> bool:
        if S.constraints:
            return unify_state(self.vars, self.values, S)
        d = S.data
        for v, x in zip(self.vars, self.values):
            d[v] = x
        return True


class Rows(Goal):
    """``args`` unify with one of ``rows``: each row's state in turn, depth first (run by the search).

    Every row is known to agree with the ground parts of ``args`` (an index
    found it, or it answers this call pattern), so a row only binds the free
    variables at ``places`` (:func:`free_places`), or, when ``places`` is
    ``None``, unifies.
    """

    __slots__ = ("args", "places", "rows")
    search_kind = SCHEDULE

    def __init__(self, args: Row, rows: Sequence[Row], places: Places | None) -> None:
        self.args, self.rows, self.places = args, rows, places

    def schedule(self, S: State, k: Cont, search: Search) -> None:
        """Try the rows depth first; or, when the goals left can take rows (fact goals, then a
        table's recording of answers), hand them over without making a state per row."""
        if k is not None and self.places is not None and not S.constraints:
            take = getattr(k[0], "take_rows", None)
            if take is not None and take(S, self.places, self.rows, k[1]):
                S.refs -= 1
                return
        search.each(self.states(S), S, k)

    def states(self, S: State) -> Iterator[State]:
        """The states extending ``S`` (left as it is), one a row."""
        args, places = self.args, self.places
        if places is None:
            for row in self.rows:
                S2 = S.copy()
                if unify_state(args, row, S2):
                    yield S2
        elif S.constraints:
            free = tuple([v for _, v in places])
            for row in self.rows:
                S2 = S.copy()
                if unify_state(free, tuple([row[p] for p, _ in places]), S2):
                    yield S2
        else:
            s, new = S.data, State.__new__
            for row in self.rows:
                d = s.copy()
                for p, v in places:
                    d[v] = row[p]
                S2 = new(State)
                S2.data, S2.constraints, S2.refs = d, {}, 1
                yield S2


def free_places(args: Row) -> Places | None:
    """``(position, variable)`` for the free variables among ``args`` (walked), when binding them is all a match does.

    ``None`` when it is not: a variable repeats, or an argument is a
    structure holding variables.

    >>> from unification import var
    >>> x, y = var(), var()
    >>> free_places((x, 1, y)) == [(0, x), (2, y)], free_places((x, x)), free_places(((x, 1),))
    (True, None, None)
    """
    places: Places = []
    for p, a in enumerate(args):
        if isvar(a):
            places.append((p, a))
        elif type(a) is not int and type(a) is not str and has_var(a):
            return None
    if len(places) > 1 and len({v for _, v in places}) < len(places):
        return None
    return places


def fact(relation: Relation, *values: Any) -> None:
    """Add the row ``values`` to ``relation`` (kanren's ``fact``).

    >>> r = Relation("r")
    >>> fact(r, 1, "one")
    >>> r.rows
    [(1, 'one')]
    """
    relation.add_fact(*values)


def facts(relation: Relation, *rows: Iterable[Any]) -> None:
    """Add rows to ``relation``, each a tuple or list of values (kanren's ``facts``).

    >>> r = Relation("r")
    >>> facts(r, (1, 2), [2, 3])
    >>> facts(r, *[(i, i + 1) for i in range(3, 6)])
    >>> len(r)
    5
    """
    relation.add_facts(rows)
