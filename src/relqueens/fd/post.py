"""Posting constraints: from relations and constraint records to propagators.

A constraint is a small immutable record (:class:`InDomain`, :class:`Distinct`
or a :class:`~relqueens.fd.terms.Relation`) that is also a goal. Posting
walks its variables in the substitution (so bindings made earlier, in any goal
order, become constants), normalizes it, and records the cheapest propagator
that enforces it. A constraint whose variables have no domain yet waits in
the store's ``pending`` table and is posted again when they get one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, MutableSet, Sequence
from dataclasses import dataclass, fields
from itertools import accumulate
from math import gcd
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

from unification import Var
from unification.variable import LVarType

from ..logic.search import STEP, Goal
from ..logic.state import State, Subst, isvar, unify_state, walk
from .arith import (
    AbsDifference,
    AtLeastApart,
    Function,
    Reified,
    ReifiedBound,
    ReifiedValue,
    function_range,
)
from .differences import difference_sums
from .domain import DENSE, Dom, Domain, Wide, bounded, dense, interval, span
from .evaluate import truth
from .implications import ValueImplication
from .propagators import (
    BoolCount,
    BoolLinear,
    BoolSum,
    DifferenceOf,
    DistinctSum,
    EqOffset,
    LeOffset,
    Linear,
    Opposite,
    Pigeonhole,
    Propagator,
    Times,
    UnitDifference,
    aligned,
    fixpoint,
    high,
    keep_ge,
    keep_le,
    lex_words,
    low,
    spread,
    sum_range,
    without,
)
from .propagators import Inverse as InverseProp
from .propagators import LexLe as LexLeProp
from .store import FDStore, alias, is_int, owned_store
from .subsets import SubsetSum
from .terms import Aux, Flag, Lin, Relation, lin, var

if TYPE_CHECKING:
    from .globals import CardinalityProp


class Constraint(Goal):
    """Base of the constraint records: each is a goal that posts itself."""

    __slots__ = ()
    name = "constraint"
    differ = False
    """Whether the record's ``terms`` (variables, ``x + c``, integers) all differ: checked for a
    repeat while it waits for domains (see :func:`repeats`)."""
    constants: tuple[str, ...] = ()
    """The fields that hold no variables (a table): residuals do not look for variables there."""
    search_kind = STEP
    post_batch: Callable[[tuple[Postable, ...]], Post]  # set below, as for Relation

    def step(self, S: State) -> bool:
        """Post this constraint on state ``S`` (the search's protocol)."""
        return post_into(S, (self,))

    def __repr__(self) -> str:
        args = (getattr(self, f.name) for f in fields(self))  # type: ignore[arg-type]  # records are dataclasses
        return f"{self.name}({', '.join(repr(list(a)) if type(a) is tuple else repr(a) for a in args)})"


_SPLIT = ("==", "<=")
"""The comparisons :meth:`Posting.parts` may split: a conjunction, an implication."""


def _reified(term: object) -> Relation | None:
    """The relation a 0/1 term stands for (``None``: not a relation's term)."""
    if type(term) is Aux and term.kind == "reif":
        rel: Relation = term.args[0]  # a reif's one argument
        return rel
    return None


def _implication(c: Relation, op: str = "<=") -> tuple[Relation, Relation] | None:
    """``(p, q)`` if ``c`` says relation ``p`` implies relation ``q`` (``p <= q`` over their
    0/1 terms; with ``op`` ``==``, that each implies the other), else ``None``."""
    lhs, rhs = c.lhs, c.rhs
    if c.op != op or lhs.const or rhs.const or len(lhs.terms) != 1 or len(rhs.terms) != 1:
        return None
    ((p, a),), ((q, b),) = lhs.terms.items(), rhs.terms.items()
    premise, conclusion = _reified(p), _reified(q)
    if a != 1 or b != 1 or premise is None or conclusion is None:
        return None
    return premise, conclusion


def conjuncts(rel: Relation) -> list[Relation] | None:
    """The relations ``rel`` says all hold, if it is a conjunction (``p & q & ...``: each a
    relation counted once, the count all of them), else ``None``.

    >>> from relqueens import fd, var
    >>> x, y = var("x"), var("y")
    >>> conjuncts((x < y) & (y < 5) & fd.ne(x, 2))
    [~x < ~y, ~y < 5, ~x != 2]
    """
    terms, total = rel.lhs.terms, rel.rhs
    if rel.op != "==" or rel.lhs.const or total.terms or total.const != len(terms):
        return None
    parts = [r for t, a in terms.items() if a == 1 and (r := _reified(t)) is not None]
    if len(parts) != len(terms):
        return None
    return [part for r in parts for part in conjuncts(r) or (r,)]


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class InDomain(Constraint):
    """``vars`` all take values in ``dom`` (core.logic's ``fd/in``)."""

    vars: tuple[Any, ...]
    dom: Domain | Wide
    name = "in_"


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Distinct(Constraint):
    """The terms ``x + c`` (or integers) all take different values."""

    terms: tuple[Any, ...]
    name = "distinct"
    differ = True


def _stored(dom: Domain | Wide) -> tuple[Dom, int]:
    """``dom`` as a store keeps it: a Wide domain itself at offset 0, or a bitset and its offset.

    >>> _stored(interval(3, 5))
    (7, 3)
    """
    return (dom, 0) if type(dom) is Wide else (dom.bits, dom.lo)


def repeated(terms: Iterable[Any], s: Subst) -> bool:
    """Whether two of ``terms`` (variables, ``x + c``, integers) are one in substitution ``s``,
    or one is bound to what is not an integer: a ``distinct`` waiting for domains whose
    variables were unified since it was posted.

    >>> from relqueens import vars
    >>> x, y = vars(2)
    >>> repeated([x + 1, y, 3], {y: x}), repeated([x + 1, y, 3], {x: 2}), repeated([x], {x: []})
    (False, True, True)
    """
    seen = set()
    for term in terms:
        v, k = term.offset_var() if isinstance(term, Lin) else (term, 0)  # type: ignore[misc]  # x + c terms only
        w = walk(v, s)
        if is_int(w):
            key: Any = w + k
        elif isvar(w):
            key = (w, k)
        else:
            return True
        if key in seen:
            return True
        seen.add(key)
    return False


def holds_repeat(c: Postable, s: Subst) -> bool:
    """Whether ``c`` is a record whose terms differ (``distinct``, ``all_distinct``) and holds a
    term twice in substitution ``s`` (see :func:`repeated`)."""
    return c.differ and repeated(c.terms, s) if isinstance(c, Constraint) else False  # type: ignore[attr-defined]  # a record that differs has terms


def repeats(store: FDStore, s: Subst) -> bool:
    """Whether a record waiting in ``store`` for domains holds a term twice in ``s`` (see :func:`holds_repeat`)."""
    return any(holds_repeat(c, s) for constraints in store.pending.values() for c in constraints)


def fd_index(index: dict[Var, int], w: object) -> int | None:
    """The FD index of the walked term ``w`` in ``index``: ``None`` for an integer or any term that
    is not a variable (a list is no key)."""
    return index.get(w) if isvar(w) else None


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class ListPair(Constraint):
    """A constraint between two lists of terms."""

    xs: tuple[Any, ...]
    ys: tuple[Any, ...]


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Enumerable(Constraint):
    """The FD variables ``indices`` (a labeling's) get bitsets where their domains are kept as
    bounds of up to :data:`~relqueens.fd.domain.MAX_WIDTH` values (see
    :data:`~relqueens.fd.domain.DENSE`): they are labeled value by value."""

    indices: tuple[int, ...]
    name = "enumerable"

    def post_on(self, posting: Posting) -> bool:
        for i in self.indices:
            posting.as_bitset(i)
        return True


class LexLe(ListPair):
    """``xs <= ys`` lexicographically (terms ``x``, ``x + c``, ``c - x`` or integers)."""

    __slots__ = ()
    name = "lex_le"


class LexLeader(ListPair):
    """``xs <= ys[k]`` lexicographically for every list ``ys[k]``."""

    __slots__ = ()
    name = "lex_leader"


class Inverse(ListPair):
    """``ys`` is the inverse permutation of ``xs``: ``xs[r] == c`` iff ``ys[c] == r``."""

    __slots__ = ()
    name = "inverse"


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class PermLeader(Constraint):
    """``xs``, a permutation of ``0..n-1``, is lexicographically at most each image.

    An image is a list of terms ``(kind, k, a, c)``: ``a * xs[k] + c`` for kind
    ``"x"``, or ``a * inv[k] + c`` for kind ``"inv"``, where ``inv`` is the
    inverse permutation (``inv[c] == r`` iff ``xs[r] == c``), read off the
    domains of ``xs`` instead of being variables of its own.
    """

    xs: tuple[Any, ...]
    images: tuple[tuple[tuple[str, int, int, int], ...], ...]
    name = "perm_leader"


Postable: TypeAlias = "Constraint | Relation"
"""What a :class:`Posting` posts: a constraint record or a relation."""


def post_into(S: State, constraints: Sequence[Postable]) -> bool:
    """Post ``constraints`` on state ``S`` (owned by the caller), propagate once, bind what got fixed.

    The domains among them are posted first: how a constraint is propagated may depend on its
    variables' domains (a bitset's values, or bounds only), not on where in a conjunction the
    domains were stated (Langford's L(2, 7) by cells, the implications first, labeling the
    cells: 58 s to 0.015 s, as with the domains first).
    """
    posting = Posting(owned_store(S), S.data)
    if len(constraints) > 1:
        constraints = sorted(constraints, key=lambda c: type(c) is not InDomain)  # stable
    for c in constraints:
        if not posting.post(c):
            return False
    return posting.finish() and (not posting.bindings or bind_fixed(S, posting.bindings))


def bind_fixed(S: State, bindings: list[tuple[Var, int]]) -> bool:
    """Bind in ``S`` the free variables propagation fixed (``bindings``).

    With no other store to tell, they go straight into the substitution: the
    FD store's own unification hook would only find them fixed already (the
    constraints waiting on a Wide variable were woken when :meth:`Posting.finish`
    made it a bitset, before the bindings were collected).
    """
    if len(S.constraints) == 1:
        S.data.update(bindings)
        return True
    vs, vals = zip(*bindings)
    return unify_state(vs, vals, S)


class Post(Goal):
    """One goal that posts many constraints and propagates once.

    This is how tens of thousands of constraints are posted without nesting
    goals: ``lall`` and ``run`` group consecutive constraints into one.
    """

    __slots__ = ("constraints",)
    search_kind = STEP
    post_batch: Callable[[tuple[Postable | Post, ...]], Post]  # set below: it joins its neighbours

    def __init__(self, constraints: tuple[Postable, ...]) -> None:
        self.constraints = constraints

    def step(self, S: State) -> bool:
        return post_into(S, self.constraints)

    def __repr__(self) -> str:
        return f"post({', '.join(map(repr, self.constraints))})"


def post_goal(constraints: Iterable[Postable | Post]) -> Post:
    """The goal that posts ``constraints`` together (see :class:`Post`); a :class:`Post` among them gives its own."""
    flat: list[Postable] = []
    for c in constraints:
        if isinstance(c, Post):
            flat.extend(c.constraints)
        else:
            flat.append(c)
    return Post(tuple(flat))


Constraint.post_batch = staticmethod(post_goal)
Relation.post_batch = staticmethod(post_goal)
Post.post_batch = staticmethod(post_goal)


INF = float("inf")
CONGRUENT = 4096
"""The most values a domain may have for posting an equality to sift them by congruence."""
DIFFERENCE = 4096
"""Differences stand as variables (:meth:`Posting.unequal_differences`) over bitsets this wide at most."""
_NORMAL = {  # op -> (negate, add to k, normal op): sum + k  op  0
    "==": (False, 0, "=="),
    "!=": (False, 0, "!="),
    "<=": (False, 0, "<="),
    "<": (False, 1, "<="),
    ">=": (True, 0, "<="),
    ">": (True, 1, "<="),
}

_BETWEEN = {  # x op y between two variables -> (op of binary, swap x and y, c): x op y + c
    "==": ("==", False, 0),
    "!=": ("!=", False, 0),
    "<=": ("<=", False, 0),
    "<": ("<=", False, -1),
    ">=": ("<=", True, 0),
    ">": ("<=", True, -1),
}


class Posting:
    """One round of changes to a store: posts, new bindings, then a fixpoint.

    ``bindings`` lists ``(var, value)`` pairs the caller must add to the
    substitution after :meth:`finish` (variables that became fixed).
    """

    def __init__(self, store: FDStore, s: Subst) -> None:
        self.store, self.s = store, s
        self.queue: set[int] = set()
        self.touched: list[int] = []
        self.reposts: list[Postable] = []
        self.bindings: list[tuple[Var, int]] = []
        self._own_pending = False
        self._absolutes: dict[tuple[int, int, int], int] | None = None
        self._differences: dict[tuple[int, int], tuple[int, int]] | None = None
        self.difference_groups: list[tuple[list[int], Postable]] = []

    # -- pending constraints ------------------------------------------------
    def wait(self, v: Var, constraint: Postable) -> bool:
        """Park ``constraint`` until ``v`` gets a domain or a value; one whose terms differ fails
        instead if it holds a term twice, or one bound to what is not an integer (see
        :func:`repeated`): parked, it would fail only once each answer is read, after a
        search of the other variables."""
        if holds_repeat(constraint, self.s):
            return False
        pending = self._pending()
        pending[v] = pending.get(v, ()) + (constraint,)
        return True

    def wake(self, v: Var) -> None:
        """Schedule the constraints waiting on ``v`` to be posted again."""
        if v in self.store.pending:
            self.reposts.extend(self._pending().pop(v))

    def wake_index(self, i: int) -> None:
        """Schedule the constraints waiting on any variable that is (or is bound to) FD variable ``i``."""
        pending = self.store.pending
        if pending:
            index = self.store.current().index
            for v in [v for v in pending if fd_index(index, walk(v, self.s)) == i]:
                self.wake(v)

    def _pending(self) -> dict[Var, tuple[Postable, ...]]:
        if not self._own_pending:
            self.store.pending = dict(self.store.pending)
            self._own_pending = True
        return self.store.pending

    # -- domains --------------------------------------------------------------
    def restrict(self, v: Var, dom: Domain | Wide) -> bool:
        """Intersect the domain of free variable ``v`` with ``dom`` (registering it)."""
        i = self.store.index_of(v)
        if i is None:
            self.register(v, dom=dom)
            return True
        return self.within(i, dom)

    def register(self, *vs: Var, dom: Domain | Wide) -> None:
        """Give free variables ``vs`` (each once, none with a domain yet) the domain ``dom``."""
        first = self.store.register_all(vs, *_stored(dense(dom)))
        self.queue.update(range(first, first + len(vs)))
        if self.store.pending:
            for v in vs:
                self.wake(v)  # a Wide domain too: a != posted before propagates over bounds

    def set(self, i: int, d: int | Domain | Wide) -> bool:
        """Narrow ``D[i]`` to ``d`` (a bitset at ``i``'s offset, a Wide domain, or a Domain for a Wide variable)."""
        D = self.store.D
        if type(d) is Domain:
            if not d:
                return False
            self.store.record(("rebase", i, d.lo))  # a Wide variable's domain fits a bitset now
            D[i] = d.bits
            self.queue.add(i)
            self.wake_index(i)
            return True
        if d != D[i]:
            if not d:
                return False
            D[i] = d
            self.queue.add(i)
        return True

    def settle(self, i: int) -> bool:
        """Give Wide variable ``i`` a bitset once its bounds are close enough (constraints waiting on it wake).

        Close enough is :data:`~relqueens.fd.domain.DENSE` values, or up to
        :data:`~relqueens.fd.domain.MAX_WIDTH` for a variable a constraint
        waits on (for its values).
        """
        d = self.store.D[i]
        if type(d) is Wide and d.is_finite() and (d.hi - d.lo < DENSE or self.waited_on(i)):
            self.as_bitset(i)
        return True

    def as_bitset(self, i: int) -> bool:
        """Whether FD variable ``i``'s domain is (now) a bitset: a Wide one of up to
        :data:`~relqueens.fd.domain.MAX_WIDTH` values becomes one, for a constraint that reads values."""
        d = self.store.D[i]
        if type(d) is int:
            return True
        bits = bounded(d.lo, d.hi)
        return type(bits) is Domain and self.set(i, bits)

    def waited_on(self, i: int) -> bool:
        """Whether a constraint waits on a variable that is (or is bound to) FD variable ``i``."""
        pending = self.store.pending
        if not pending:
            return False
        index = self.store.current().index
        return any(fd_index(index, walk(v, self.s)) == i for v in pending)

    def bound(self, keys: list[Var]) -> bool:
        """Variables ``keys`` were just bound by a unification: check and propagate."""
        store, s = self.store, self.s
        for w in keys:
            i, val = store.index_of(w), walk(w, s)
            # val may have just got a domain, or a constraint waiting on it hold it twice
            if isvar(val):
                if i is not None and not alias(store, i, val, self.queue):
                    return False
                self.wake(val)
            elif i is not None:
                if not is_int(val):
                    return False
                if type(store.D[i]) is Wide:
                    if val not in store.D[i] or not self.set(i, bounded(val, val)):
                        return False
                else:
                    pos = val - store.model.off[i]
                    if pos < 0 or not (store.D[i] >> pos) & 1:
                        return False
                    self.set(i, 1 << pos)
            self.wake(w)
        if self.store.pending and repeats(self.store, s):
            return False  # a waiting distinct's terms made one (x = y), found before it searches
        return self.finish()

    def finish(self) -> bool:
        """Propagate to a fixpoint, post woken constraints, and collect new bindings."""
        store = self.store
        while True:
            if not fixpoint(store.D, self.queue, store.current(), self.touched):
                return False
            if not all(self.settle(i) for i in self.touched if type(store.D[i]) is Wide):
                return False
            if self.queue:
                continue
            if self.reposts:
                todo, self.reposts = self.reposts, []
                if not all(self.post(c) for c in todo):
                    return False
            elif self.difference_groups:
                if not self.post_difference_sums():
                    return False
            else:
                break
        D, m, s = store.D, store.model, self.s
        seen = set()
        for i in self.touched:
            d = D[i]
            if type(d) is int and not d & (d - 1) and i not in seen:
                seen.add(i)
                w = walk(m.vars[i], s)
                if isvar(w):
                    self.bindings.append((w, m.off[i] + d.bit_length() - 1))
        self.touched = []
        return True

    # -- constraints ----------------------------------------------------------
    def post(self, c: Postable) -> bool:
        """Post one constraint record; ``False`` if it fails at once."""
        if type(c) is Relation:
            return self.post_relation(c)
        if type(c) is Distinct:
            return self.post_distinct(c)
        if type(c) is InDomain:
            return self.post_in(c)
        post_on: Callable[[Posting], bool] | None = getattr(c, "post_on", None)
        if post_on is not None:
            return post_on(self)
        if type(c) is LexLe or type(c) is LexLeader:
            return self.post_lex(c)
        if type(c) is Inverse:
            return self.post_inverse(c)
        if type(c) is PermLeader:
            return self.post_perm_leader(c)
        return self.post_relation(c)  # type: ignore[arg-type]  # every record is handled above

    def post_relation(self, c: Relation) -> bool:
        """Post a comparison; ``x + a op y + b`` between two FD variables and ``a * x + k op c``
        (one variable, a bound or a value) go straight in, and a conjunction (``p & q``), or an
        implication of one, is posted part by part."""
        lhs, rhs = c.lhs, c.rhs
        if len(lhs.terms) == 1 and len(rhs.terms) == 1:  # x + ka op y + kb, the common case
            ((u, a),), ((v, b),) = lhs.terms.items(), rhs.terms.items()
            s = self.s
            if a == 1 and b == 1 and u not in s and v not in s:  # neither bound: at once
                index = self.store.current().index
                x, y = index.get(u), index.get(v)
                if x is not None and y is not None and x != y:
                    op, swap, c0 = _BETWEEN[c.op]
                    shift = rhs.const - lhs.const
                    return (
                        self.binary(y, x, c0 - shift, op, c)
                        if swap
                        else self.binary(x, y, c0 + shift, op, c)
                    )
        elif len(lhs.terms) + len(rhs.terms) == 1:  # a * x + k op c: a bound or a value, at once
            ((u, a),) = (lhs.terms or rhs.terms).items()
            if type(u) is not Aux:  # bound or not: its FD variable (kept equal to its value)
                i = self.store.current().index.get(u)
                if i is not None:
                    negate, extra, op = _NORMAL[c.op]  # lhs - rhs op 0, as post_linear reads it
                    sign = -1 if negate else 1
                    a = a if lhs.terms else -a
                    return self.unary(i, sign * a, sign * (lhs.const - rhs.const) + extra, op)
        if (held := truth(c, self.s)) is not None:  # over constants (a labeling stated first)
            return held
        if c.op in _SPLIT and (posted := self.value_tests(c)) is not None:
            return posted
        if c.op in _SPLIT and (parts := self.parts(c)) is not None:  # after: never two variables
            return all(self.post_relation(part) for part in parts)
        expr = c.lhs - c.rhs
        if c.op != "!=" and len(expr.terms) < len(lhs.terms) + len(rhs.terms):  # x <= x?
            gone = [
                v for v in (*lhs.terms, *rhs.terms) if v not in expr.terms and type(v) is not Aux
            ]
            if not self.integers(gone):
                return False
        if c.op == "!=":
            split = self.abs_difference_ne(c, expr)
            if split is not None:
                return split
        elif c.op != "==":
            either = self.either_order(c, expr) if c.op in (">=", ">") else None
            if either is None:
                either = self.abs_difference_ge(c, expr)
            if either is not None:
                return either
        return self.post_linear(expr, c.op, c)

    def parts(self, c: Relation) -> list[Relation] | None:
        """``c``'s conjuncts, or for ``p <= q`` (``p`` implies ``q``) where ``q`` is a
        conjunction, ``p`` reified once and implying each conjunct: posted apart, no 0/1 term
        stands for the conjunction (where the premise and the conjuncts all test values,
        :meth:`value_tests` posts clauses instead)."""
        if c.op == "==":
            return conjuncts(c)
        implication = _implication(c)
        if implication is None:
            return None
        premise, conclusion = implication
        parts = conjuncts(conclusion)
        if parts is None:
            return None
        flag = self.store.current().vars[self.hidden(0, 1)]
        return [Relation("==", flag, premise), *(Relation("<=", flag, part) for part in parts)]

    def value_tests(self, c: Relation) -> bool | None:
        """``p <= q`` (``p`` implies ``q``) where ``p`` and each conjunct of ``q`` test a
        variable with a bitset domain for a value, ``x == v``: one :meth:`clause` for each
        conjunct, no 0/1 variable for any test; ``p == q`` (each implies the other) of two
        such tests, a clause each way; ``None`` for any other shape (the general path). A
        sequence stated by implications, ``p == i ==> X[i] == k``, posts and propagates
        without reification (Langford's L(2, 12) by cells, first by ``ff``: 0.34 to 0.06 s)."""
        both = _implication(c, "==")
        if both is not None:
            tests = list(both)
        elif (implication := _implication(c)) is not None:
            premise, conclusion = implication
            tests = [premise, *(conjuncts(conclusion) or (conclusion,))]
        else:
            return None
        found = [t for rel in tests if (t := self.value_test(rel)) is not None]
        if len(found) < len(tests):
            return None
        if any(type(rel) is Flag and self.flag(rel, None) is False for rel in tests):
            return False  # a variable standing for a relation is made 0/1 (as SWI)
        if both is not None:  # each clause shows as its implication
            p, q = tests
            return self.clause(*found[0], *found[1], p <= q) and self.clause(
                *found[1], *found[0], q <= p
            )
        premise, first = tests[0], found[0]
        return all(
            self.clause(*first, *test, c if len(tests) == 2 else premise <= rel)
            for test, rel in zip(found[1:], tests[1:], strict=True)
        )

    def clause(self, x: int, a: int, y: int, b: int, source: object) -> bool:
        """Post ``x == a ==> y == b`` (variables with bitset domains) as a
        :class:`~relqueens.fd.implications.ValueImplication`, or at once where one side
        cannot hold."""
        D, off = self.store.D, self.store.model.off
        pa, pb = a - off[x], b - off[y]
        if pa < 0 or not (D[x] >> pa) & 1:
            return True  # x cannot be a: nothing is implied
        if x == y or pb < 0:  # y == b cannot follow unless it is x == a itself
            return (x, pa) == (y, pb) or self.set(x, D[x] ^ (1 << pa))
        return self.attach(ValueImplication(x, pa, y, pb, source))

    def value_test(self, rel: Relation) -> tuple[int, int] | None:
        """``(x, v)`` if ``rel`` is ``x == v``, ``x`` a variable with a bitset domain."""
        lhs, rhs = rel.lhs, rel.rhs
        if rel.op != "==" or rhs.terms or len(lhs.terms) != 1:
            return None
        ((w, a),) = lhs.terms.items()
        u = walk(w, self.s)
        x = self.store.index_of(u) if a == 1 and isvar(u) else None
        if x is None or type(self.store.D[x]) is not int:
            return None
        return x, rhs.const - lhs.const

    def either_order(self, c: Relation, expr: Lin) -> bool | None:
        """``(x + a <= y) | (y + b <= x)`` as one :class:`~relqueens.fd.scheduling.EitherOrder`.

        ``c`` is ``p | q`` (``(p) + (q) >= 1``) posted as a goal, ``p`` and
        ``q`` orders (``<``, ``<=``, ``>``, ``>=``) between the same two
        variables in opposite directions. Nothing else refers to the 0/1
        variables the general path would give ``p`` and ``q``, so one
        propagator does without them. ``None`` for any other shape.
        """
        extra = _NORMAL[c.op][1]  # expr: c.lhs - c.rhs
        if (
            extra - expr.const != 1
            or len(expr.terms) != 2
            or any(_reified(v) is None or a != 1 for v, a in expr.terms.items())
        ):
            return None
        first, second = (self.order(_reified(v)) for v in expr.terms)  # type: ignore[arg-type]  # relations: checked above
        if first is None or second is None or first[:2] != second[1::-1]:
            return None
        for w in first[:2]:
            if self.store.index_of(w) is None:  # SWI's way, as the general path: inf..sup
                self.restrict(w, Wide(-INF, INF))
        index = self.store.current().index
        x, y = index[first[0]], index[first[1]]
        if x == y:
            return None
        from .scheduling import EitherOrder

        a, b = first[2], second[2]
        return a + b <= 1 or self.attach(EitherOrder(x, a, y, b, c))  # a + b <= 1: always true

    def order(self, rel: Relation) -> tuple[Var, Var, int] | None:
        """``(x, y, k)`` when ``rel`` says ``x + k <= y`` of two free variables, else ``None``."""
        negate, extra, op = _NORMAL[rel.op]
        if op != "<=":
            return None
        expr = rel.rhs - rel.lhs if negate else rel.lhs - rel.rhs  # expr + extra <= 0
        if len(expr.terms) != 2:
            return None
        (u, a), (v, b) = sorted(expr.terms.items(), key=lambda t: -t[1])
        if a != 1 or b != -1 or type(u) is Aux or type(v) is Aux:
            return None
        x, y = walk(u, self.s), walk(v, self.s)
        return (x, y, expr.const + extra) if isvar(x) and isvar(y) else None

    def abs_difference_ne(self, c: Relation, expr: Lin) -> bool | None:
        """``abs(x - y + k) != m`` (``m`` a constant) as ``x != y - k + m`` and ``x != y - k - m``.

        Two disequalities that value elimination applies as soon as ``x`` or
        ``y`` is fixed (SWI's ``absdiff_neq``), instead of hidden variables for
        the difference and its absolute value. ``None`` for any other shape.
        """
        found = self.abs_difference(expr)  # expr: c.lhs - c.rhs
        if found is None:
            return None
        i, j, k, a = found
        m = -a * expr.const  # abs(x - y + k) != m
        if m < 0:
            return True
        return self.binary(i, j, m - k, "!=", c) and (m == 0 or self.binary(i, j, -m - k, "!=", c))

    def abs_difference_ge(self, c: Relation, expr: Lin) -> bool | None:
        """``abs(x - y + k) >= m`` (``>``, or the other way round with ``<=``, ``<``) as one
        :class:`~relqueens.fd.arith.AtLeastApart`, over bitsets (SWI's ``absdiff_geq``),
        instead of hidden variables for the difference and its absolute value. ``None`` for
        any other shape."""
        negate, extra, _ = _NORMAL[c.op]
        sign = -1 if negate else 1  # sign * expr + extra <= 0, expr: c.lhs - c.rhs
        found = self.abs_difference(expr)
        if found is None or sign * found[3] != -1:
            return None
        i, j, k, _ = found
        D = self.store.D
        if type(D[i]) is not int or type(D[j]) is not int:
            return None
        m = sign * expr.const + extra  # abs(x - y + k) >= m
        return m <= 0 or self.attach(AtLeastApart(i, j, k, m, c))

    def abs_difference(self, expr: Lin) -> tuple[int, int, int, int] | None:
        """``(i, j, k, a)`` when ``expr`` is ``a * abs(x_i - x_j + k)`` plus a constant, ``a`` 1
        or -1 and ``x_i``, ``x_j`` two FD variables; else ``None``."""
        if len(expr.terms) != 1:
            return None
        ((atom, a),) = expr.terms.items()
        if type(atom) is not Aux or atom.kind != "abs" or a not in (1, -1):
            return None
        found = self.difference(atom.args[0])
        return None if found is None else (*found, a)

    def difference(self, inner: object) -> tuple[int, int, int] | None:
        """``(i, j, k)`` when ``inner`` is ``x_i - x_j + k``, two FD variables; else ``None``."""
        if not isinstance(inner, Lin) or sorted(inner.terms.values()) != [-1, 1]:
            return None
        (x, _), (y, _) = sorted(inner.terms.items(), key=lambda t: -t[1])
        index = self.store.current().index
        i, j = fd_index(index, walk(x, self.s)), fd_index(index, walk(y, self.s))
        if i is None or j is None or i == j:
            return None
        return i, j, inner.const

    def small_difference(
        self, inner: object
    ) -> tuple[tuple[int, int, int], tuple[int | float, int | float]] | None:
        """:meth:`difference` and its bounds, if its two variables are bitsets and its
        absolute value may take up to :attr:`~relqueens.fd.arith.AbsDifference.LIMIT` values."""
        found = self.difference(inner)
        if found is None:
            return None
        i, j, k = found
        D, off = self.store.D, self.store.model.off
        di, dj = D[i], D[j]
        if type(di) is not int or type(dj) is not int:
            return None
        lo = low(di, off[i]) - high(dj, off[j]) + k
        hi = high(di, off[i]) - low(dj, off[j]) + k
        return (found, (lo, hi)) if max(-lo, hi) < AbsDifference.LIMIT else None

    def post_in(self, c: InDomain) -> bool:
        dom, s, index = c.dom, self.s, self.store.current().index
        fresh: dict[Var, None] = {}  # the variables without a domain, in order: registered at once
        for v in c.vars:
            w = s.get(v, v) if s else v  # walk(v, s), its first step inline: most are free
            if w is not v:
                w = walk(w, s)
            if isvar(w):
                i = index.get(w)
                if i is None:
                    fresh[w] = None
                elif not self.within(i, dom):
                    return False
            elif w not in dom:
                return False
        if fresh:
            self.register(*fresh, dom=dom)
        return True

    def post_distinct(self, c: Distinct) -> bool:
        members: list[tuple[int, int]] = []  # (FD index, offset) of each term over a variable
        taken: set[int] = set()
        waits = None  # the first variable without a domain (wait() fails a term twice)
        wide: list[tuple[int, Var]] = []  # members over bounds: bitsets once none waits
        index, D, s = self.store.current().index, self.store.D, self.s
        for term in c.terms:
            if type(term) is Lin:
                v, k = term.offset_var()  # type: ignore[misc]  # distinct() keeps x + c terms only
            else:
                v, k = term, 0
            w = s.get(v, v) if s else v  # walk(v, s), its first step inline: most terms are free
            if w is not v:
                w = walk(w, s)
            if type(type(w)) is LVarType:  # isvar(w), inline
                i = index.get(w)
                if i is None:
                    if waits is None:
                        waits = w
                else:
                    members.append((i, k))
                    if type(D[i]) is Wide:
                        wide.append((i, w))
            elif is_int(w):
                if w + k in taken:
                    return False
                taken.add(w + k)
            else:
                return False
        if waits is not None:
            return self.wait(waits, c)
        for i, w in wide:
            if not self.as_bitset(i):
                return self.wait(w, c)  # too many values for now
        stated, members = members, self.rooted(members)
        kept = self.distinct_group(members, c, taken)
        if kept is None:
            return False
        free = [members[p] for p in kept]
        if len(free) < 2:
            return True
        if not self.pigeonhole(free, c, free if stated is members else [stated[p] for p in kept]):
            return False
        for _, k in free:
            if k:
                return True  # offsets: no differences (see differences())
        return self.differences([i for i, _ in free], c)

    def distinct_group(
        self, members: list[tuple[int, int]], c: Postable, taken: MutableSet[int]
    ) -> list[int] | None:
        """Record ``members`` (rooted, see :meth:`rooted`) as a ``distinct`` group with the values
        ``taken`` by its integer terms; the positions of the members not fixed yet, or ``None``
        if the group fails.

        The open members lose the values taken and those of the fixed members
        (which stay fixed below): the group's value elimination watches the
        open ones only.
        """
        if len(set(members)) < len(members):
            return None  # two terms one equality keeps equal
        D, off = self.store.D, self.store.model.off
        kept = []
        for p, (j, cj) in enumerate(members):
            d = D[j]
            if d & (d - 1):
                kept.append(p)
            elif (value := off[j] + d.bit_length() - 1 + cj) in taken:
                return None
            else:
                taken.add(value)
        if taken and kept and not self.take_values(taken, [members[p] for p in kept]):
            return None
        if len(members) > 1 and not self.group(members, c, [members[p] for p in kept]):
            return None
        return kept

    def take_values(self, taken: MutableSet[int], terms: list[tuple[int, int]]) -> bool:
        """Remove the values ``taken`` from the terms ``x_j + c_j`` (bitset domains), one mask
        each (values outside a domain left out); ``False`` if one is left empty."""
        D, off = self.store.D, self.store.model.off
        low = min(taken)
        near = max(taken) - low <= DENSE  # then one mask, shifted for each term
        values = 0  # bit b: the value low + b
        if near:
            for v in taken:
                values |= 1 << (v - low)
        for j, cj in terms:
            d, base = D[j], off[j] + cj  # bit b of d: the term's value base + b
            if not near:
                mask = sum(1 << (v - base) for v in taken if 0 <= v - base < d.bit_length())
            elif low >= base:
                mask = values << (low - base) if low - base < d.bit_length() else 0
            else:
                mask = values >> (base - low)
            if d & mask and not self.set(j, d & ~mask):
                return False
        return True

    def pigeonhole(
        self, members: list[tuple[int, int]], c: Postable, stated: list[tuple[int, int]]
    ) -> bool:
        """Add :class:`Pigeonhole` to a ``distinct`` group whose members share about as many values.

        Where it crosses another such group, both look for naked sets too.
        The domains are read before propagation, so a group counts as close
        to a permutation with up to :attr:`Pigeonhole.SLACK` values to spare;
        a term's values are those both of its variable as ``stated`` and of
        the root :meth:`rooted` reads it as (a copy ``y == x + 5`` has its own
        domain, and ``x``'s, shifted, may not be narrowed yet, or the other
        way round). Terms whose values lie more than :data:`~relqueens.fd.domain.DENSE` apart
        (offsets far from each other) share too few for one: they get none.
        """
        D, off = self.store.D, self.store.model.off
        shifts = aligned(members, off)
        union = 0
        if stated == members:
            for j, sj in shifts:
                if sj > DENSE:
                    return True
                union |= D[j] << sj
        else:
            if spread((*stated, *members), off) > DENSE:
                return True
            base = min(off[j] + cj for j, cj in (*stated, *members))
            for (j, cj), (r, cr) in zip(stated, members, strict=True):
                union |= (D[j] << (off[j] + cj - base)) & (D[r] << (off[r] + cr - base))
        spare = union.bit_count() - len(members)
        if spare < 0 or spare > Pigeonhole.SLACK:
            return spare > 0
        return self.add_pigeonhole(shifts, c)

    def add_pigeonhole(self, shifts: tuple[tuple[int, int], ...], c: Postable) -> bool:
        """Attach a :class:`Pigeonhole` to the terms :func:`aligned` as ``shifts``, on behalf of ``c``."""
        group = Pigeonhole(shifts, source=c)
        slowwatch = self.store.current().slowwatch
        for j in group.vars:  # naked sets pay where groups cross: a sound strengthening only
            for p in slowwatch[j]:
                if type(p) is Pigeonhole and p.members != group.members:
                    p.hall = group.hall = True
        return self.attach(group)

    def post_linear(self, expr: Lin, op: str, source: Postable) -> bool:
        """Post ``expr op 0``; non-linear atoms get hidden variables and their propagators."""
        negate, extra, op = _NORMAL[op]
        flat = self.indexed(expr)  # the common case: no atom, every variable with a domain
        if flat is None:
            prepared = self.prepared(expr, op, source)
            if type(prepared) is bool:
                return prepared
            flat = prepared
        items, k = flat
        if negate:
            items, k = {i: -a for i, a in items.items()}, -k
        return self.post_flat(items, k + extra, op, source)

    def indexed(self, expr: Lin) -> tuple[dict[int, int], int] | None:
        """``expr`` as ``({index: coefficient}, constant)`` if each of its terms is a value or
        a variable with a domain; else ``None`` (:meth:`prepared` reads it)."""
        index, s = self.store.current().index, self.s
        k, items = expr.const, dict[int, int]()
        for v, a in expr.terms.items():
            w = walk(v, s)
            if type(w) is int:
                k += a * w
                continue
            i = index.get(w) if type(type(w)) is LVarType else None  # (an atom is no variable)
            if i is None:
                return None
            items[i] = items.get(i, 0) + a
        return {i: a for i, a in items.items() if a}, k

    def prepared(self, expr: Lin, op: str, source: Postable) -> tuple[dict[int, int], int] | bool:
        """``expr`` (of ``expr op 0``, ``op`` normal) as :meth:`flatten` gives it, once its
        variables with no domain have one (``inf..sup``, or the bounds of the rest of an
        equality that defines one) and its atoms their variables; or whether the constraint
        is posted already (waiting, or an atom equal to a variable) or fails."""
        missing: list[tuple[Var, int | None]] = []
        self.missing(expr, True, missing)
        missing, cancelled = _uncancelled(missing)
        if op != "!=":
            for w in cancelled:  # x - y once y = x: an integer still (see integers())
                self.restrict(w, Wide(-INF, INF))
        defined = coef = None
        if missing:
            defined, coef = missing[0]
            if op == "!=":
                return self.wait(defined, source)
            if op != "==" or coef not in (1, -1) or len(missing) > 1:
                for w, _ in missing:  # SWI's way: no domain means inf..sup
                    if self.store.index_of(w) is None:
                        self.restrict(w, Wide(-INF, INF))
                defined = coef = None
        if op == "==" and (target := self.target_of(expr)) is not None:
            atom, t = target
            if t is None:  # the variable the atom equals has no domain yet: the atom narrows it
                self.restrict(defined, Wide(-INF, INF))
                t = self.store.index_of(defined)
            return self.atom(atom, t) is not False
        flat = self.flatten(expr, defined)
        if flat is False:
            return False
        items, k = flat
        if defined is not None:
            i = self.define(defined, coef, items, k, source)  # type: ignore[arg-type]  # a top-level term: coef is an int
            if i is None:
                return False
            items[i] = items.get(i, 0) + coef  # type: ignore[operator]  # as above
        return items, k

    def missing(self, expr: Lin, top: bool, found: list[tuple[Var, int | None]]) -> None:
        """Append ``(var, coefficient or None)`` for each free variable of ``expr`` that has no domain."""
        for v, a in expr.terms.items():
            if type(v) is Aux:
                if v.kind == "reif":
                    rel = v.args[0]
                    self.missing(rel.lhs - rel.rhs, False, found)
                else:
                    for arg in v.args:
                        if isinstance(arg, Lin):
                            self.missing(arg, False, found)
                continue
            w = walk(v, self.s)
            if isvar(w) and self.store.index_of(w) is None:
                found.append((w, a if top else None))

    def target_of(self, expr: Lin) -> tuple[Aux, int | None] | None:
        """``(atom, index)`` when ``expr == 0`` just says a non-linear atom equals a variable or a constant."""
        atoms = [(v, a) for v, a in expr.terms.items() if type(v) is Aux]
        if len(atoms) != 1 or atoms[0][1] not in (1, -1):
            return None
        atom, a = atoms[0]
        rest = [(v, c) for v, c in expr.terms.items() if v is not atom]
        if not rest:
            return atom, self.anchor(-a * expr.const)
        if len(rest) == 1 and rest[0][1] == -a and not expr.const:
            w = walk(rest[0][0], self.s)
            if is_int(w):
                return atom, self.anchor(w)
            if isvar(w):
                return atom, self.store.index_of(w)
        return None

    def flatten(self, expr: Lin, skip: Var = None) -> tuple[dict[int, int], int] | Literal[False]:
        """``expr`` as ``({index: coefficient}, constant)``, atoms given their variables; ``False`` if impossible."""
        k = expr.const
        items: dict[int, int] = {}
        for v, a in expr.terms.items():
            if type(v) is Aux:
                i = self.atom(v)
                if i is False:
                    return False
            else:
                w = walk(v, self.s)
                if is_int(w):
                    k += a * w
                    continue
                if not isvar(w):
                    return False
                if w is skip:
                    continue
                i = self.store.index_of(w)  # type: ignore[assignment]  # it has a domain by now (post_linear)
            items[i] = items.get(i, 0) + a
        return {i: a for i, a in items.items() if a}, k

    def bounds(self, items: dict[int, int], k: int) -> tuple[int | float, int | float]:
        """The bounds of ``sum(a * x_i) + k``."""
        # (sum_range never adds a huge int to an infinity: past 2**1024 that overflows)
        return sum_range(tuple(items.items()), k, self.store.D, self.store.model.off)

    def define(self, w: Var, a: int, items: dict[int, int], k: int, source: object) -> int | None:
        """``w`` has no domain and ``a * w + sum(items) + k == 0`` defines it: give it the bounds."""
        lo, hi = self.bounds(items, k)
        if not self.restrict(w, span(-hi, -lo) if a == 1 else span(lo, hi)):
            return None
        return self.store.index_of(w)

    def hidden(self, lo: int | float, hi: int | float) -> int:
        """A fresh hidden FD variable with domain ``lo..hi`` (never labeled or shown)."""
        i = self.store.register(var(prefix="aux"), *_stored(span(lo, hi)), private=True)
        self.queue.add(i)
        return i

    def as_index(self, expr: Lin, source: object) -> int | bool:
        """The index of an FD variable equal to ``expr`` (itself, a constant's anchor, or a new hidden one)."""
        flat = self.flatten(expr)
        if flat is False:
            return False
        items, k = flat
        if not items:
            return self.anchor(k)
        if len(items) == 1 and not k and next(iter(items.values())) == 1:
            return next(iter(items))
        lo, hi = self.bounds(items, k)
        t = self.hidden(lo, hi)
        items[t] = items.get(t, 0) - 1
        return t if self.post_flat(items, k, "==", source) else False

    def atom(self, a: Aux, target: int | None = None) -> int | bool:
        """The index of the variable standing for atom ``a`` (``target`` if given), its propagator posted."""
        if a.kind == "reif":
            return self.reified(a.args[0], target)
        if a.kind == "count":
            return self.counted(a, target)
        if a.kind == "abs" and (small := self.small_difference(a.args[0])) is not None:
            (i, j, k), bounds = small
            key = _abs_key(i, j, k)
            absolutes = self.absolutes()
            if target is None and key in absolutes:
                return absolutes[key]
            z = self.result("abs", [bounds], None, target)
            if z is None or not self.attach(AbsDifference(i, j, k, z, a)):
                return False
            absolutes.setdefault(key, z)
            return z if not self.apart(i, j, -k) or self.never_zero(i, j, k) else False
        exponent = a.args[1] if a.kind == "pow" else None
        xs = [self.as_index(x, a) for x in (a.args[:1] if a.kind == "pow" else a.args)]
        if any(x is False for x in xs):
            return False
        D, off = self.store.D, self.store.model.off
        z = self.result(
            a.kind, [(low(D[x], off[x]), high(D[x], off[x])) for x in xs], exponent, target
        )
        if z is None:
            return False
        if a.kind == "times" and xs[0] == xs[1]:  # x * x: a square, narrowed by its root
            p: Propagator = Function("pow", (xs[0],), z, 2, a)
        elif a.kind == "times":
            p = Times(xs[0], xs[1], z, source=a)
        else:
            p = Function(a.kind, tuple(xs), z, exponent, a)
        return z if self.attach(p) else False

    def never_zero(self, i: int, j: int, k: int) -> bool:
        """``x_i - x_j + k`` is never 0 now: ``abs(x_i - x_j + k)``, if posted, loses 0
        (``False`` if that empties it)."""
        z = self.absolutes().get(_abs_key(i, j, k))
        D, off = self.store.D, self.store.model.off
        return z is None or self.set(z, keep_ge(D[z], off[z], 1))

    def nonzero(self, shift: dict[int, int]) -> bool:
        """Kept apart (a ``distinct`` group), the terms ``x_i + shift[i]`` make each absolute
        difference posted between two of them, ``abs(x_i - x_j + k)`` with
        ``k = shift[i] - shift[j]``, never 0 (see :meth:`never_zero`)."""
        return all(
            self.never_zero(i, j, k)
            for i, j, k in list(self.absolutes())
            if i in shift and j in shift and shift[i] - shift[j] == k
        )

    def apart(self, i: int, j: int, c: int) -> bool:
        """Whether value elimination keeps ``x_i`` from ``x_j + c`` (a ``!=``, a ``distinct``
        group: a tie on bitsets, see :class:`~relqueens.fd.store.Model`)."""
        m = self.store.current()
        q = m.off[i] - m.off[j] - c + m.reach[i]
        return q >= 0 and bool(m.masks[i].get(j, 0) >> q & 1)

    def absolutes(self) -> dict[tuple[int, int, int], int]:
        """The variable standing for each ``abs(x_i - x_j + k)`` posted (by ``(i, j, k)``, ``i < j``).

        One absolute difference stated in several relations is one variable,
        and it loses 0 where its two terms are kept apart (:meth:`nonzero`, as
        the difference or the ``!=`` is posted): an all-interval series stated
        pair by pair, ``abs(a - b) != abs(c - d)`` beside ``a != b``, has its
        intervals' ``!=`` between variables over ``1..n - 1``, which a labeling
        groups into one ``distinct`` (n = 12, first by ``ff``: 0.88 s to 21 ms,
        2,781 to 552 nodes; n = 14: 13 s to 25 ms).
        """
        if self._absolutes is None:
            self._absolutes = {}
            for p in self.store.current().posted(AbsDifference):
                self._absolutes.setdefault(_abs_key(p.x, p.y, p.k), p.z)
        return self._absolutes

    def result(
        self,
        kind: str,
        bounds: list[tuple[int | float, int | float]],
        exponent: int | None,
        target: int | None,
    ) -> int | None:
        """The variable for ``kind`` of arguments within ``bounds``: ``target`` narrowed to the
        range of values, or a new hidden one over it; ``None`` when there is no value."""
        found = function_range(kind, bounds, exponent)
        if found is None:
            return None
        lo, hi = found
        if target is None:
            return self.hidden(lo, hi)
        D, off = self.store.D, self.store.model.off
        narrowed = keep_ge(keep_le(D[target], off[target], hi), off[target], lo)
        return target if self.set(target, narrowed) and self.settle(target) else None

    def counted(self, a: Aux, target: int | None) -> int | bool:
        """The index of the variable counting the terms of ``a`` equal to its value (``target`` if given).

        A constant value over finite domains gets one counting propagator
        (:class:`~relqueens.fd.globals.CardinalityProp` for one value);
        otherwise the count is the sum of the reified equalities.
        """
        from .globals import CardinalityProp

        value, *terms = a.args
        flat = self.flatten(value)
        xs = [self.as_index(t, a) for t in terms]
        if flat is False or any(x is False for x in xs):
            return False
        c = self.hidden(0, len(xs)) if target is None else target
        if not self.within(c, interval(0, len(xs))) or not self.settle(c):
            return False
        D = self.store.D
        if flat[0] or any(type(D[x]) is not int for x in (*xs, c)):
            total = self.flatten(sum((lin(Relation("==", t, value)) for t in terms), lin(0)))
            if total is False:
                return False
            items, k = total
            items[c] = items.get(c, 0) - 1
            return c if self.post_flat(items, k, "==", a) else False
        shown = Relation("==", Lin({a: 1}), self.store.model.vars[c])
        prop = CardinalityProp(tuple(sorted(xs)), ((flat[1], c),), shown)
        return c if self.attach(prop) and self.counted_all(prop) else False

    def counted_all(self, prop: CardinalityProp) -> bool:
        """After ``prop``, one value's count: if the counts of its variables now cover every value
        they may take (a magic series' ``count(xs, i) == xs[i]`` for each ``i``), the counts
        are one ``global_cardinality``: its flow (:class:`~relqueens.fd.globals.CardinalityFlow`)
        and the sums the counts imply (:func:`~relqueens.fd.globals.count_sums`) are posted
        too, implied.
        """
        from .globals import CardinalityFlow, CardinalityProp, bit_values, count_sums

        ((value, _),) = prop.counts
        if len(set(prop.xs)) < len(prop.xs):
            return True  # a variable counted twice: no flow
        counts: dict[int, int] = {}
        for p in self.store.model.posted(CardinalityProp):
            if p.xs == prop.xs and p is not prop:
                counts.update(p.counts)
        if value in counts:
            return True  # a value counted again: the flow, if any, is posted
        counts[value] = prop.counts[0][1]
        D, off = self.store.D, self.store.model.off
        if any(D[x].bit_count() > len(counts) for x in prop.xs):  # counted: bitsets only
            return True  # more values than counts (and no walk over a domain of 2 million)
        taken = {v for x in prop.xs for v in bit_values(D[x], off[x])}
        if value not in taken or not taken <= counts.keys():
            return True  # not yet every value (or this one adds none): counts apart
        flow = CardinalityFlow(prop.xs, tuple(sorted(counts.items())), prop.source, implied=True)
        return self.attach(flow) and count_sums(self, flow.xs, flow.counts, flow.source)

    def reified(self, rel: Relation, target: int | None = None) -> int | bool:
        """The index of a 0/1 variable that is 1 exactly when ``rel`` holds."""
        if type(rel) is Flag:
            return self.flag(rel, target)
        negate, extra, op = _NORMAL[rel.op]
        flat = self.flatten(rel.lhs - rel.rhs)
        if flat is False:
            return False
        items, k = flat
        if negate:
            items, k = {i: -a for i, a in items.items()}, -k
        k += extra
        D, off = self.store.D, self.store.model.off
        if target is None:
            b = self.hidden(0, 1)
        else:
            b = target
            if not self.set(b, keep_ge(keep_le(D[b], off[b], 1), off[b], 0)) or not self.settle(b):
                return False
        if not items:
            truth = {"==": k == 0, "!=": k != 0, "<=": k <= 0}[op]
            return b if self.unary(b, 1, -int(truth), "==") else False
        if len(items) == 1 and op == "<=":  # a * x + k <= 0: x <= -k / a, or x > c
            ((x, a),) = items.items()
            c = -k // a if a > 0 else (k - 1) // -a  # x >= ceil(k / -a), so c = that - 1
            return b if self.attach(ReifiedBound(x, c, b, a > 0, rel)) else False
        if len(items) == 1:
            ((x, a),) = items.items()
            if k % a:  # a * x == -k has no integer solution
                return b if self.unary(b, 1, -int(op == "!="), "==") else False
            if type(D[x]) is int:
                return b if self.attach(ReifiedValue(x, -k // a, b, op == "==", rel)) else False
        return b if self.attach(Reified(tuple(items.items()), k, op, b, rel)) else False

    def flag(self, rel: Flag, target: int | None) -> int | bool:
        """The index of the variable of ``rel`` (a :class:`Flag`), narrowed to 0..1 (equal to ``target`` if given)."""
        b = self.as_index(rel.lhs, rel)
        if b is False or not self.within(b, interval(0, 1)):
            return False
        if target is None or target == b:
            return b
        return b if self.post_flat({b: 1, target: -1}, 0, "==", rel) else False

    def post_flat(self, items: dict[int, int], k: int, op: str, source: object) -> bool:
        """Post ``sum(a * x_i) + k  op  0`` over FD variable indices; a variable fixed by now is a
        constant (it stays so in this store), so ``sum(row) == s`` with ``s in 65..65`` is a row
        over its terms alone, a sum of distinct values as ``sum(row) == 65`` is. A unit
        difference (``x - y - z == k``) keeps its terms: its propagator is domain consistent
        once one is fixed, where ``y + z == x + k`` would keep bounds only."""
        if _unit_difference(op, list(items.values())):
            items = {i: a for i, a in items.items() if a}
        else:
            items, fixed = self.unfixed(items)
            k += fixed
        if not items:
            return {"==": k == 0, "!=": k != 0, "<=": k <= 0}[op]
        if len(items) == 1:
            ((i, a),) = items.items()
            return self.unary(i, a, k, op)
        pairs = list(items.items())
        if len(pairs) == 2 and sorted(a for _, a in pairs) == [-1, 1]:
            (x, _), (y, _) = sorted(pairs, key=lambda t: -t[1])
            return self.binary(x, y, -k, op, source)  # x op y + (-k)
        if op == "==" and not self.congruent(pairs, k):
            return False
        if op == "!=" and (apart := self.unequal_differences(pairs, k, source)) is not None:
            return apart
        p = self.sum_of(tuple(pairs), k, op, source)
        if type(p) is UnitDifference and op == "==":
            return self.unit_difference(p)
        if type(p) is BoolLinear and op == "==" and (total := subset_total(p)) is not False:
            return self.attach(p) and self.attach(SubsetSum(p.terms, k, source, total))
        return self.attach(p)

    def unit_difference(self, p: UnitDifference) -> bool:
        """Post ``p``, ``u == v + w + c``; or, when one of its readings, ``z == x_u - x_y - c``
        (``z`` one of ``v``, ``w`` and ``y`` the other), differences two variables the other
        way round from an earlier relation's ``twin`` (:meth:`differences_posted`), that
        reading as ``z + twin == -c``, domain consistent over two variables.

        A Golomb ruler over all ordered pairs states each difference both ways round: ``e ==
        b - a`` is ``d + e == 0`` beside ``d == a - b``, watching two variables where a second
        unit difference watched three. (The same way round twice stays as stated: a residual
        shows it so.)"""
        found = self.differences_posted()
        for z, y in ((p.v, p.w), (p.w, p.v)):
            key, e = _keyed(p.u, y)
            twin, sign = found.get(key, (z, 0))
            if twin != z and e * sign < 0:  # z == x_u - x_y - c == -twin - c
                return self.attach(Opposite(z, twin, -p.c, p.source))
        _read_differences(found, p)
        return self.attach(p)

    def unfixed(self, items: dict[int, int]) -> tuple[dict[int, int], int]:
        """``items`` without zero coefficients and the variables fixed by now, and the sum of
        those variables' terms (``a * value``)."""
        D, off = self.store.D, self.store.model.off
        kept, k = {}, 0
        for i, a in items.items():
            d = D[i]
            if not a:
                continue
            if type(d) is int:
                if d and not d & (d - 1):
                    k += a * (off[i] + d.bit_length() - 1)
                    continue
            elif d.lo == d.hi:
                k += a * int(d.lo)
                continue
            kept[i] = a
        return kept, k

    def unequal_differences(
        self, terms: list[tuple[int, int]], k: int, source: object
    ) -> bool | None:
        """Post ``x_p + x_q - x_r - x_s + k != 0`` (``p`` may be ``q``, ``r`` may be ``s``) as a
        ``!=`` between two variables standing for differences, ``(x_p - x_r) != (x_s - x_q) - k``
        or ``(x_p - x_s) != (x_r - x_q) - k``, whichever has its two differences of one sign,
        the one with more of them posted before (``None``: not of this shape, no such pairing, or
        domains not small bitsets).

        A difference stated in several relations is one variable (see
        :meth:`difference_of`): a Golomb ruler stated pair by pair,
        ``x[j] - x[i] != x[l] - x[k]``, has its distances pairwise ``!=``,
        propagated by value elimination, where the four-term relations waited
        for three marks (m = 8: 4.9 s to 0.9 s; m = 7: 2,444 nodes to 2,219).
        """
        D = self.store.D
        if sum(abs(a) for _, a in terms) != 4 or any(
            type(D[i]) is not int or D[i].bit_length() > DIFFERENCE for i, _ in terms
        ):
            return None
        pos = [i for i, a in terms if a > 0 for _ in range(a)]
        neg = [i for i, a in terms if a < 0 for _ in range(-a)]
        if len(pos) != 2:
            return None
        (p, q), (r, s) = pos, neg
        found = self.differences_posted()
        usable = []
        for pairing in sorted({((p, r), (s, q)), ((p, s), (r, q))}):
            (one, _), (other, _) = keys = [_keyed(*d) for d in pairing]
            signs = {found[key][1] * e if key in found else e for key, e in keys}
            if len(signs) == 1:
                usable.append((-sum(key in found for key, _ in keys), one, other, signs.pop()))
        if not usable:
            return None
        _, one, other, sign = min(usable)
        z1, z2 = self.difference_of(one, source), self.difference_of(other, source)
        if z1 is False or z2 is False:
            return False
        if z1 == z2:  # one variable defines both (d == x - y, d == a - b): equal differences
            return k != 0
        return self.binary(z1, z2, -sign * k, "!=", source)

    def difference_of(self, key: tuple[int, int], source: object) -> int | Literal[False]:
        """The variable ``z`` posted for the difference ``key`` (``(u, v)``, ``u > v``: ``z ==
        x_u - x_v`` or ``z == x_v - x_u``, see :meth:`differences_posted`), or a new hidden one
        with ``z == x_u - x_v`` (``False``: its posting failed)."""
        found = self.differences_posted()
        if key in found:
            return found[key][0]
        u, v = key
        z = self.hidden(*self.bounds({u: 1, v: -1}, 0))
        found[key] = (z, 1)
        return (
            z if self.attach(DifferenceOf(((u, 1), (v, -1), (z, -1)), 0, "==", source)) else False
        )

    def differences_posted(self) -> dict[tuple[int, int], tuple[int, int]]:
        """By ``(u, v)``, ``u > v``: a variable ``z`` and a sign ``e`` with ``e * z == x_u - x_v``
        posted (a :class:`~relqueens.fd.propagators.UnitDifference` with no constant, or a
        hidden :class:`~relqueens.fd.propagators.DifferenceOf`)."""
        if self._differences is None:
            self._differences = {}
            model = self.store.current()
            for d in model.posted(UnitDifference) + model.posted(DifferenceOf):
                _read_differences(self._differences, d)
        return self._differences

    def congruent(self, terms: list[tuple[int, int]], k: int) -> bool:
        """Narrow each term of ``sum(a * x_i) + k == 0`` to the values that keep ``a * x + k``
        a multiple of the other coefficients' gcd (``2N`` among tens: ``N`` in {0, 5})."""
        coefs = [a for _, a in terms]
        if sum(a in (1, -1) for a in coefs) > 1:
            return True  # the others' gcd is 1 for every term
        before, after = list(accumulate(coefs, gcd)), list(accumulate(reversed(coefs), gcd))
        D, off = self.store.D, self.store.model.off
        for n, (i, a) in enumerate(terms):
            g = gcd(
                before[n - 1] if n else 0, after[len(terms) - n - 2] if n + 1 < len(terms) else 0
            )
            d = D[i]
            if g < 2 or type(d) is not int or d.bit_count() > CONGRUENT:
                continue
            keep, o, rest = 0, off[i], d
            while rest:
                bit = rest & -rest
                rest ^= bit
                if (a * (o + bit.bit_length() - 1) + k) % g == 0:
                    keep |= bit
            if not self.set(i, keep):
                return False
        return True

    def sum_of(self, terms: tuple[tuple[int, int], ...], k: int, op: str, source: object) -> Linear:
        """A :class:`DistinctSum` if ``terms`` share a coefficient and lie in one ``distinct`` group, else a :class:`Linear`."""
        if _unit_difference(op, [a for _, a in terms]):
            return UnitDifference(terms, k, op, source)
        D, off = self.store.D, self.store.model.off
        if op == "==" and len(terms) > 2 and _counts(terms, D, off):
            return BoolCount(terms, k, op, source)
        other = [n for n, (i, _) in enumerate(terms) if not _boolean(D[i], off[i])]
        if op != "!=" and len(terms) - len(other) > 1 and other[1:] == []:
            if other or len({a for _, a in terms}) > 1:  # a knapsack row, or its total
                return BoolLinear(terms, k, op, source, other[0] if other else None)
            return BoolSum(terms, k, op, source)
        if op == "!=" or len({a for _, a in terms}) > 1:
            return Linear(terms, k, op, source)
        if any(distinct_in(terms, g) for g in self.store.current().groups):
            return DistinctSum(terms, k, op, off, source)
        return Linear(terms, k, op, source)

    def unary(self, i: int, a: int, k: int, op: str) -> bool:
        """Post ``a * x_i + k  op  0``."""
        D, o = self.store.D, self.store.model.off[i]
        d = D[i]
        if op == "<=":  # a*x <= -k
            if a > 0:
                return self.set(i, keep_le(d, o, (-k) // a))
            return self.set(i, keep_ge(d, o, -(k // a)))  # x >= ceil(-k / a), a < 0
        if k % a:
            return op == "!="
        if type(d) is Wide:
            v = -k // a
            if op == "==":
                return v in d and self.set(i, bounded(v, v))
            if d.lo < v < d.hi:  # a hole a Wide domain cannot hold: kept by a propagator
                return self.attach(Linear(((i, a),), k, "!=", None))
            return self.set(i, without(d, o, v))
        pos = -k // a - o
        has = pos >= 0 and (d >> pos) & 1
        if op == "==":
            return bool(has) and self.set(i, 1 << pos)
        return self.set(i, d & ~(1 << pos)) if has else True

    def binary(self, x: int, y: int, c: int, op: str, source: object) -> bool:
        """Post ``x op y + c`` between two FD variables."""
        if op == "!=":
            D = self.store.D
            if type(D[x]) is Wide or type(D[y]) is Wide:
                return self.attach(Linear(((x, 1), (y, -1)), -c, "!=", source))
            self.store.record(("ne", x, y, c, source))
            self.queue.update((x, y))
            return not self.absolutes() or self.never_zero(x, y, -c)  # x - y - c != 0
        return self.attach((EqOffset if op == "==" else LeOffset)(x, y, c, source))

    def attach(self, p: Propagator) -> bool:
        """Record a general propagator and schedule it."""
        self.store.record(("prop", p))
        self.queue.update(p.vars)
        return p.start(self.store.D, self.store.model.off, self.queue)

    def indices(
        self, terms: Iterable[Any], c: Postable, implied: Domain | Wide | None = None
    ) -> list[int] | bool:
        """The FD indices of ``terms`` (integers get fixed stand-ins).

        A variable with no domain gets ``implied`` (the values the constraint
        allows); without one, ``c`` waits for the variable's domain and
        ``True`` (posted, for now) is returned. ``False`` if a term is bound
        to something that is not an integer. So a caller returns any ``bool``
        it gets as its own result.
        """
        terms = list(terms)
        if implied is None:  # wait before any domain kept as bounds becomes a bitset
            for t in terms:
                w = walk(t, self.s)
                if isvar(w) and self.store.index_of(w) is None:
                    return self.wait(w, c)
        out = []
        for t in terms:
            w = walk(t, self.s)
            if is_int(w):
                out.append(self.anchor(w))
            elif isvar(w):
                i = self.store.index_of(w)
                if implied is not None and (i is None or type(self.store.D[i]) is Wide):
                    if not self.restrict(w, implied):
                        return False
                    i = self.store.index_of(w)
                if i is None or (type(self.store.D[i]) is Wide and not self.as_bitset(i)):
                    return self.wait(w, c)  # until it has a (finite, bitset) domain
                out.append(i)
            else:
                return False
        return out

    def integers(self, vs: Iterable[Any]) -> bool:
        """Variables ``vs`` cancelled out of a relation other than ``!=`` (``x <= x``, or ``x - y``
        once ``y = x``) are integers still, as in SWI (``X #=< X`` leaves ``X in inf..sup``): one
        without a domain gets ``inf..sup``; ``False`` if one is bound to what is not an integer.

        Not as in SWI: ``!=`` gives no domain (its variables may stay free), and a variable that
        cancels within one side, ``x - x`` or ``0 * x``, is gone before the relation is built.
        """
        for v in vs:
            w = walk(v, self.s)
            if isvar(w):
                self.restrict(w, Wide(-INF, INF))  # (it narrows nothing where there is a domain)
            elif not is_int(w):
                return False
        return True

    def within(self, i: int, dom: Domain | Wide) -> bool:
        """Narrow FD variable ``i`` to the values of ``dom``."""
        o, d = self.store.model.off[i], self.store.D[i]
        if type(d) is not int:
            if type(dom) is Wide:  # bounds: no bitset made to be undone
                lo, hi = max(d.lo, dom.lo), min(d.hi, dom.hi)
                return lo <= hi and self.set(i, Wide(lo, hi)) and self.settle(i)
            return self.set(i, dense(d & dom)) and self.settle(i)
        if type(dom) is Wide:
            return self.set(i, keep_ge(keep_le(d, o, dom.hi), o, dom.lo))
        if dom.lo - o >= d.bit_length():
            return False  # disjoint (and no huge shift for a far-away domain)
        bits = dom.bits << (dom.lo - o) if dom.lo >= o else dom.bits >> (o - dom.lo)
        return self.set(i, d & bits)

    def differences(self, xs: list[int], c: Postable) -> bool:
        """Add :class:`~relqueens.fd.differences.DifferenceSums` if the model defines members of
        the ``distinct`` group ``xs`` as differences, once this round's constraints are all
        posted and propagated (:meth:`finish`): the orders and bounds they set, stated before
        or after it, tell which way round a difference is positive."""
        self.difference_groups.append((xs, c))
        return True

    def post_difference_sums(self) -> bool:
        """Post the :class:`~relqueens.fd.differences.DifferenceSums` of the groups
        :meth:`differences` put aside."""
        todo, self.difference_groups = self.difference_groups, []
        model, D = self.store.current(), self.store.D
        for xs, c in todo:
            sums = difference_sums(model, D, xs, c)
            if sums is not None and not self.attach(sums):
                return False
        return True

    def rooted(self, members: list[tuple[int, int]]) -> list[tuple[int, int]]:
        """``members`` (terms ``x_i + c``) with each variable an earlier ``x == y + k`` defines read as ``y + k + c``.

        Chains are followed to their first variable. A group over the root
        propagates once where it would have waited for the equalities to
        copy every change back and forth (they stay posted and keep the
        copies in step).
        """
        defined = self.store.current().defined
        if not defined:
            return members
        D, out = self.store.D, []
        for i, c in members:
            seen = {i}
            while i in defined and type(D[defined[i][0]]) is int and defined[i][0] not in seen:
                i, k = defined[i]
                seen.add(i)
                c += k
            out.append((i, c))
        return out

    def group(
        self,
        members: list[tuple[int, int]],
        c: Postable,
        free: list[tuple[int, int]] | None = None,
    ) -> bool:
        """Record ``members`` (``(i, c)``: the terms ``x_i + c``) as a ``distinct`` group: value
        elimination among its ``free`` ones (default: all; those left out are fixed, their
        values taken from the others by the caller, see :meth:`distinct_group`).

        The sums posted before over variables of the group get an implied
        :class:`DistinctSum`.
        """
        model = self.store.current()
        free = members if free is None else free
        groups = len(model.groups)
        self.store.record(("distinct", tuple(members), c, tuple(free)))
        known = len(model.groups) == groups  # the same group again: nothing new (see Model.apply)
        if self.absolutes() and not self.nonzero(dict(members)):
            return False
        self.queue.update([i for i, _ in free])
        sums = model.posted(Linear)
        if known or not sums:
            return True
        group = frozenset(members)
        return all(
            self.attach(DistinctSum(p.terms, p.k, p.op, model.off, p.source, True))
            for p in sums
            if p.op != "!=" and distinct_in(p.terms, group)
        )

    def anchor(self, value: int) -> int:
        """A fresh FD variable fixed to ``value``, so a constant can stand as a variable."""
        i = self.store.register(var(prefix="const"), 1, value, private=True)
        self.queue.add(i)
        return i

    def post_lex(self, c: LexLe | LexLeader) -> bool:
        """Post ``lex_le`` (one list on the right) or ``lex_leader`` (several)."""
        images = c.ys if type(c) is LexLeader else (c.ys,)
        sides = []
        for terms in (c.xs, *images):
            side = []
            for t in terms:
                t = lin(t)
                ((v, a),) = t.terms.items() if t.terms else ((None, 1),)
                w = walk(v, self.s) if v is not None else None
                if isvar(w):
                    i = self.store.index_of(w)
                    if i is None or (type(self.store.D[i]) is Wide and not self.as_bitset(i)):
                        return self.wait(w, c)
                    side.append((i, a, t.const))
                elif w is None or is_int(w):
                    side.append((self.anchor(t.const + (a * w if w is not None else 0)), 1, 0))
                else:
                    return False
            sides.append(tuple(side))
        xs, *ys = sides
        return self.attach(LexLeProp(xs, ys, self.fronts(len(xs), len(ys)), source=c))

    def fronts(self, n: int, images: int) -> list[int]:
        """Private slots for the lex frontier words of ``images`` chains of length ``n``."""
        return [
            self.store.register(var(prefix="lex"), 1, 0, private=True)
            for _ in range(lex_words(n, images))
        ]

    def post_inverse(self, c: Inverse) -> bool:
        xs = self.permutation(c.xs, c)
        ys = self.permutation(c.ys, c) if xs is not None else None
        if ys is None:
            return False
        return not xs or self.attach(InverseProp(xs, ys, source=c))

    def permutation(self, terms: tuple[Any, ...], c: Postable) -> tuple[int, ...] | None:
        """Indices of ``terms`` as a permutation of ``0..n-1`` (domains and ``distinct`` posted)."""
        n = len(terms)
        box = interval(0, n - 1) if n else None
        side: list[int] = []
        for t in terms:
            w = walk(t, self.s)
            if isvar(w):
                if not self.restrict(w, box):  # type: ignore[arg-type]  # n > 0: there is a term
                    return None
                side.append(self.store.index_of(w))  # type: ignore[arg-type]  # restricted: it has one
            elif is_int(w) and 0 <= w < n:
                side.append(self.anchor(w))
            else:
                return None
        if len(set(side)) < n:
            return None
        if n > 1 and not self.group([(i, 0) for i in side], c):
            return None
        return tuple(side)

    def post_perm_leader(self, c: PermLeader) -> bool:
        qs = self.permutation(c.xs, c)
        if qs is None:
            return False
        xs = tuple((q, 1, 0) for q in qs)
        images = [
            tuple((qs[k], a, b) if kind == "x" else (-1 - k, a, b) for kind, k, a, b in image)
            for image in c.images
        ]
        return self.attach(
            LexLeProp(xs, images, self.fronts(len(xs), len(images)), source=c, qs=qs)
        )


def _read_differences(found: dict[tuple[int, int], tuple[int, int]], d: UnitDifference) -> None:
    """Add to ``found`` (see :meth:`Posting.differences_posted`) the differences ``d`` defines."""
    if not d.c:  # u == v + w: v is u - w, w is u - v
        for z, y in ((d.v, d.w), (d.w, d.v)):
            key, e = _keyed(d.u, y)
            found.setdefault(key, (z, e))


def _keyed(i: int, j: int) -> tuple[tuple[int, int], int]:
    """Difference ``x_i - x_j`` as a key ``(u, v)`` with ``u > v`` and the sign that reads it so."""
    return ((i, j), 1) if i > j else ((j, i), -1)


def _abs_key(i: int, j: int, k: int) -> tuple[int, int, int]:
    """``abs(x_i - x_j + k)`` as a key ``(u, v, k')``, ``(u, v)`` keyed as a difference
    (:func:`_keyed`; ``abs(x_j - x_i - k)`` is the same)."""
    (u, v), sign = _keyed(i, j)
    return u, v, sign * k


def _uncancelled(
    missing: list[tuple[Var, int | None]],
) -> tuple[list[tuple[Var, int | None]], list[Var]]:
    """The variables with no domain that :meth:`Posting.missing` found, once each with its
    coefficient, less those that cancel out (``x - y`` once ``y`` is bound to ``x``); and those."""
    total: dict[Var, int | None] = {}
    for w, a in missing:
        b = total.get(w, 0)
        total[w] = None if a is None or b is None else a + b
    return [(w, a) for w, a in total.items() if a != 0], [w for w, a in total.items() if a == 0]


def _unit_difference(op: str, coefficients: list[int]) -> bool:
    """Whether ``sum(a * x) + k op 0`` is a unit difference ``x - y - z == k`` (or ``x + y - z``):
    a :class:`UnitDifference`, domain consistent once one term is fixed."""
    return op == "==" and len(coefficients) == 3 and set(coefficients) == {1, -1}


def distinct_in(terms: tuple[tuple[int, int], ...], group: frozenset[tuple[int, int]]) -> bool:
    """Whether ``terms`` share one coefficient and their variables take distinct values by
    ``group`` (its terms ``x + c`` hold each of them with one same ``c``; a variable may be
    there twice, ``x`` and ``x + k``, as Langford's positions are).

    >>> group = frozenset({(0, 0), (1, 0), (0, 2), (1, 3)})      # x, y, x + 2, y + 3
    >>> distinct_in(((0, 1), (1, 1)), group), distinct_in(((0, 1), (1, 2)), group)
    (True, False)
    """
    if len({a for _, a in terms}) != 1:
        return False
    first = terms[0][0]
    return any(all((j, c) in group for j, _ in terms) for i, c in group if i == first)


def subset_total(row: BoolLinear) -> int | Literal[False] | None:
    """The position of a :class:`BoolLinear` row's total among its terms (``None`` if it has
    none), or ``False`` if the total's coefficient is not 1 or -1 (no subset sum for it)."""
    if row.general is None:
        return None
    return row.terms.index(row.general) if row.general[1] in (1, -1) else False


def _boolean(d: Dom, o: int) -> bool:
    """Whether a domain is a 0/1 variable's bitset (offset 0: 1, 2 or 3)."""
    return o == 0 and type(d) is int and d <= 3


def _counts(terms: tuple[tuple[int, int], ...], D: list[Dom], off: list[int]) -> bool:
    """True when ``terms`` are ``a * b`` over 0/1 variables and one ``-a * S``, ``a`` = +-1."""
    up = [i for i, a in terms if a == 1]
    down = [i for i, a in terms if a == -1]
    if len(up) + len(down) != len(terms) or 1 not in (len(up), len(down)):
        return False
    counted = up if len(down) == 1 else down
    return all(_boolean(D[i], off[i]) for i in counted)
