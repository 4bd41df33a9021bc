"""Labeling: enumerate values for FD variables, propagating after each choice.

The search is a depth-first loop over an explicit stack of domain lists, not
a tower of nested kanren streams: one generator, lazy, with no recursion, so
the first answer comes at once and the ten-thousandth costs no more than the
first. It yields kanren states, so labeling is an ordinary goal.

Variable selection (``select``): ``leftmost``; ``ff`` (first-fail: smallest
domain, ties leftmost); ``ffc`` (smallest domain, ties the most constrained);
``min`` (smallest lower bound); ``max`` (largest upper bound).
Value order (``order``): ``up``, ``down``, or ``mid`` (middle-out: the value nearest the
centre of the domain first, which makes first-fail nearly backtrack-free on N-queens).
Branching (``branching``, SWI's names): ``enum`` (one branch per value), ``step``
(``x = v`` or ``x != v``), ``bisect`` (``x <= m`` or ``x > m`` at the middle ``m``).
By default ``step`` for ``min`` and ``max`` over bitsets, as SWI does: once
``x != v`` raises ``x``'s lower bound, the smallest one is often another
variable's, which the selection picks next (all SO+MANY+...=TESTS by columns,
``min``: 0.35 s by ``enum``, 0.053 s by ``step``), though not always for the
better (all-interval series of 10 notes by ``min``: 0.37 s by ``enum``, 1.8 s
by ``step``, 2.5 times the nodes). ``enum`` for the others, whose choice
seldom moves after ``x != v`` (``ff`` by ``step``: up to 1.5x slower from the
extra fixpoints), and for Wide domains, which ``enum`` halves. A relaxation's
value hint guides branch and bound under ``enum`` only.
Optimisation (``minimize=`` / ``maximize=`` an expression): branch and bound
finds the optimum, then the answers come best first. A dynamic selection that
finds no first solution soon races randomized restarts for it
(:mod:`relqueens.fd.restarts`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from operator import add, itemgetter
from random import Random
from typing import TYPE_CHECKING, Any, Literal, TypeAlias, TypeVar, cast

from ..logic.limits import Exhausted, current_budget
from ..logic.reify import reify
from ..logic.run import ALL_WANTED
from ..logic.search import SHARED, STATES, Goal
from ..logic.state import State, Subst, isvar, walk
from .dives import Selector
from .domain import DENSE, Dom, Wide, as_domain, two_valued
from .eliminations import implied_equations
from .equalities import fixed_by_equalities
from .errors import DomainError
from .implied import (
    CLIQUES,
    ImpliedMatchings,
    bound_pigeonholes,
    decided_relations,
    implied,
    implied_counts,
    loose_groups,
    may_group,
)
from .probing import Probes, scheduling
from .propagators import Scanned, creeps, fixed, fixpoint, high, keep_ge, keep_le, low, quiet
from .relaxation import (
    COUNTED,
    INFEASIBLE,
    LP_BOUNDS,
    Deferred,
    KnapsackBound,
    LagrangianBound,
    Relaxation,
    cost_of,
    counted,
    linear_rows,
    objective_form,
    relaxations,
    row_relaxations,
)
from .residues import residues, tables
from .restarts import RESTARTABLE, Restarts
from .store import FDStore, is_int, store_of
from .terms import Lin, Relation, listed, var
from .trace import BRANCH, FAILED, SOLUTION, Narrowed, SearchTrace

if TYPE_CHECKING:
    from _typeshed import SupportsDunderLT

    from .post import Postable
    from .store import Model

_T = TypeVar("_T")
Path: TypeAlias = "tuple[Path | None, int, Dom, list[Dom] | None, int]"
"""The choices down to a search node (when copies would pass :data:`COPY_LIMIT`): ``(parent, i, bit, copy, depth)``."""

SELECT = ("leftmost", "ff", "ffc", "min", "max")
ORDER = ("up", "down", "mid")
BRANCHING = ("enum", "step", "bisect")
STEP_FIRST = ("min", "max")
"""The selections whose default branching is ``step`` (module docstring)."""


def _centre(d: Dom) -> int | None:
    """The middle bit position of a bitset's range (``mid`` order's first value), else ``None``."""
    return ((d & -d).bit_length() + d.bit_length() - 2) // 2 if type(d) is int else None


def _wide_piece(rest: Wide, first: bool, order: str, branching: str) -> tuple[Wide, Dom]:
    """The next branch's part of a Wide domain ``rest``, and what is left after it (0: nothing).

    ``enum`` splits a Wide domain in halves as ``bisect`` does: the same
    values in the same order, where trying them one by one could take
    10**12 steps to pass a gap that the bounds of a half rule out at once.
    """
    lo, hi = rest.lo, rest.hi
    if not first:
        return rest, 0  # the other half, or every value but the one tried (step)
    if lo == hi or branching == "step":
        one = Wide(hi, hi) if order == "down" else Wide(lo, lo)
        other = Wide(lo, hi - 1) if order == "down" else Wide(lo + 1, hi)
        return one, (other if lo < hi else 0)
    mid = (lo + hi) // 2
    lower, upper = Wide(lo, mid), Wide(mid + 1, hi)
    return (upper, lower) if order == "down" else (lower, upper)


def _meet(a: Dom, b: Dom) -> Dom:
    """The values in both (bitsets of one variable, or Wide domains); 0 when none."""
    if type(a) is int:
        return a & b
    lo, hi = max(a.lo, b.lo), min(a.hi, b.hi)
    return Wide(lo, hi) if lo <= hi else 0


COPY_LIMIT = 1 << 22
"""Up to this many domains in the copies a search path may hold (its depth times the
variables), every search node keeps its own copy of the domains."""


def _stride(D0: list[Dom], idxs: list[int], branching: str) -> int:
    """How many levels apart full copies of the domains ``D0`` are kept, labeling ``idxs``.

    A path is as deep as the variables labeled (``bisect``, and a Wide
    domain under ``enum``: times the halvings of their domains). Where a copy per level would cost more than
    :data:`COPY_LIMIT` domains (gigabytes for 20,000 labeled variables), only
    every ``stride``-th level keeps one, and a node whose copy was given to its
    child rebuilds it, when the search comes back to it, by replaying the
    choices since the last copy. A magic series of 60 by reified counts (3,660
    variables, 60 labeled) keeps every copy: 0.3 % of the budget.
    """
    depth = sum(
        1 if type(D0[i]) is int and branching != "bisect" else _halvings(D0[i]) for i in idxs
    )  # a Wide domain is halved under enum too
    held = depth * len(D0)
    return 1 if held <= COPY_LIMIT else max(2, held // max(COPY_LIMIT, 1))  # 0: tests replay


def _halvings(d: Dom) -> int:
    """How many times ``bisect`` may halve domain ``d`` before it is fixed."""
    width = d.bit_length() - (d & -d).bit_length() if type(d) is int else d.hi - d.lo
    return max(1, int(width).bit_length()) if width != float("inf") else 64


def _guided(guide: Callable[[int], int | None], i: int, rest: int, o: int) -> int:
    """The bit of the value ``guide`` names for variable ``i`` if ``rest`` still has it, else 0."""
    v = guide(i)
    return 0 if v is None or v < o else rest & (1 << (v - o))


def _part(at: int | None, rest: int, o: int, down: bool) -> int:
    """The values of ``rest`` (offset ``o``) from ``at`` up if ``down``, else those below it;
    0 unless ``at`` splits ``rest`` in two."""
    if at is None or at <= o:
        return 0
    upper = rest >> (at - o) << (at - o)
    return (upper if down else rest ^ upper) if 0 < upper < rest else 0


def _rebuild(path: Path | None, D0: list[Dom], model: Model) -> list[Dom]:
    """The domains after the choices of ``path``, replayed from the last copy kept on it."""
    replay = []
    while path is not None and path[3] is None:
        replay.append(path)
        path = path[0]
    D = (D0 if path is None else path[3])[:]  # type: ignore[index]  # the loop stopped at a copy
    for _, i, bit, _, _ in reversed(replay):
        D[i] = bit
        fixpoint(D, {i}, model)
    return D


def _middle(rest: int, centre: int) -> int:
    """The bit of ``rest`` nearest to bit position ``centre`` (ties: the lower)."""
    above = rest >> centre
    hi = (above & -above).bit_length() - 1 + centre if above else None
    below = rest & ((1 << centre) - 1)
    lo = below.bit_length() - 1 if below else None
    if hi is None or (lo is not None and centre - lo <= hi - centre):
        return 1 << lo  # type: ignore[operator]  # rest has a bit: lo or hi is set
    return 1 << hi


def _leftmost(D: list[Dom], idxs: list[int], k0: int, model: Model) -> int:
    for k in range(k0, len(idxs)):
        d = D[idxs[k]]
        if (d & (d - 1)) if type(d) is int else d.lo != d.hi:
            return k
    return -1


def _best(
    key: Callable[[Dom, int, Model], SupportsDunderLT[Any]], rng: Random | None = None
) -> Selector:
    """A selector that picks the open variable with the smallest ``key``, ties leftmost (or at random by ``rng``)."""

    def select(D: list[Dom], idxs: list[int], k0: int, model: Model) -> int:
        best_key: SupportsDunderLT[Any] | None
        best, best_key, ties = -1, None, 0
        for k, i in enumerate(idxs):
            d = D[i]
            if (d & (d - 1)) if type(d) is int else d.lo != d.hi:
                kk = key(d, i, model)
                if best_key is None or kk < best_key:
                    best, best_key, ties = k, kk, 1
                elif rng is not None and kk == best_key:
                    ties += 1
                    if rng.random() * ties < 1:  # each of the tied ones equally likely
                        best = k
        return best

    return select


def _first_fail(draw: Callable[[], float] | None = None) -> Selector:
    """First-fail: the open variable with the fewest values; ties leftmost (two values: at
    once), or, with ``draw`` (a restart's random numbers), at random: the choices of
    ``_best(KEYS["ff"], rng)``, from the same numbers, without a call for each variable's key
    (the restarts' dives select at every node)."""

    def select(D: list[Dom], idxs: list[int], k0: int, model: Model) -> int:
        best, least, ties = -1, 0, 0
        for k, i in enumerate(idxs):
            d = D[i]
            if type(d) is int:
                if not d & (d - 1):
                    continue
                n = d.bit_count()
            elif d.lo == d.hi:
                continue
            else:
                n = d.hi - d.lo + 1
            if best < 0 or n < least:
                if n == 2 and draw is None:
                    return k  # no open variable has fewer
                best, least, ties = k, n, 1
            elif n == least and draw is not None:
                ties += 1
                if draw() * ties < 1:  # each of the tied ones equally likely
                    best = k
        return best

    return select


_ff = _first_fail()


KEYS: dict[str, Callable[[Dom, int, Model], Any]] = {
    "ff": lambda d, i, m: size(d),
    "ffc": lambda d, i, m: (size(d), -degree(m, i)),
    "min": lambda d, i, m: low(d, m.off[i]),
    "max": lambda d, i, m: -high(d, m.off[i]),
}
"""What each dynamic selection minimises (ties: leftmost, or at random in a restart)."""

SELECTORS: dict[str, Selector] = {
    "leftmost": _leftmost,
    "ff": _ff,
    **{name: _best(KEYS[name]) for name in ("ffc", "min", "max")},
}


def _selector(select: str | Selector, D0: list[Dom], idxs: list[int]) -> Selector:
    """The selector named ``select`` (or ``select`` itself). ``ff`` over bitsets of at most two
    values picks as ``leftmost`` does, every open variable having two, so it is ``leftmost``,
    which looks from the last one picked on (``ff`` looks from the first: over the 1,600 0/1
    variables of N-queens 40 as a matrix, 0.39 ms a node)."""
    if not isinstance(select, str):
        return select
    if select == "ff" and two_valued(D0, idxs):
        return _leftmost
    return SELECTORS[select]


def shuffled(select: str, rng: Random) -> Selector:
    """Selection ``select`` (a key of :data:`KEYS`) with its ties broken at random by ``rng``."""
    return _first_fail(rng.random) if select == "ff" else _best(KEYS[select], rng)


def size(d: Dom) -> int:
    """How many values domain ``d`` holds."""
    return d.bit_count() if type(d) is int else d.hi - d.lo + 1


def degree(model: Model, i: int) -> int:
    """How many constraints mention FD variable ``i`` (each other member of its ``distinct``
    groups counts; implied propagators do not: what ``ffc`` picks is the model's, not what
    the labeling found to add)."""
    degrees = model.degrees
    if degrees is None:
        degrees = model.degrees = [_degree(model, j) for j in range(len(model.vars))]
    return degrees[i]


def _degree(model: Model, i: int) -> int:
    return (
        model.links[i]
        + sum(len(members) - 1 for members, _ in model.rows[i] if type(members) is not list)
        + sum(len(p.members) if isinstance(p, Scanned) else 1 for p in model.watch[i])
        + sum(
            not getattr(p, "implied", False)  # a gathered group has none
            for props in (model.fixwatch, model.boundwatch, model.slowwatch)
            for p in props[i]
        )
        + len(model.supportwatch[i])
    )


def check_options(select: str, order: str, branching: str | None = None) -> None:
    """Raise ``ValueError`` for an unknown labeling option (``branching`` ``None``: the default)."""
    if select not in SELECTORS:
        raise ValueError(
            f"unknown variable selection {select!r}; choose one of {', '.join(SELECT)}"
        )
    if order not in ORDER:
        raise ValueError(f"unknown value order {order!r}; choose one of {', '.join(ORDER)}")
    if branching is not None and branching not in BRANCHING:
        raise ValueError(f"unknown branching {branching!r}; choose one of {', '.join(BRANCHING)}")
    if order == "mid" and branching == "bisect":
        raise ValueError(
            "order 'mid' goes with branching 'enum' or 'step'; 'bisect' splits a domain in "
            "halves, the lower one first ('up') or the upper one ('down')"
        )


def _piece(rest: int, centre: int, first: bool, order: str, branching: str) -> int:
    """The part of ``rest`` (values left at a node) that the next branch of ``step`` or ``bisect`` gives its variable."""
    if not rest & (rest - 1):
        return rest  # one value left (branch and bound may narrow a node to one): it is the branch
    if first and branching == "step":
        if order == "mid":
            return _middle(rest, centre)
        return 1 << (rest.bit_length() - 1) if order == "down" else rest & -rest
    if not first:
        return rest  # the other half (bisect), or every value but the one tried (step)
    lo, hi = (rest & -rest).bit_length() - 1, rest.bit_length() - 1
    lower = rest & ((1 << ((lo + hi) // 2 + 1)) - 1)
    return rest ^ lower if order == "down" else lower


def search(
    D0: list[Dom],
    store: FDStore,
    idxs: list[int],
    select: str | Selector = "leftmost",
    order: str = "up",
    exists_from: int | None = None,
    trace: SearchTrace | None = None,
    accept: Callable[[list[Dom]], _T] | None = None,
    branching: str = "enum",
    prune: Callable[[list[Dom]], bool] | None = None,
    guide: Callable[[int], int | None] | None = None,
    pause: Callable[[], bool] | None = None,
    split: Callable[[int], int | None] | None = None,
) -> Iterator[list[Dom] | _T]:
    """Yield every domain list, reachable by labeling ``idxs``, where they are all fixed.

    ``D0`` must be at a fixpoint. With ``exists_from=k`` (leftmost only), the
    variables from position ``k`` on are only checked for one solution each
    time the first ``k`` are fixed, not enumerated. A ``trace`` records
    every node visited. With ``accept``, each solution ``D`` is yielded as
    ``accept(D)`` unless that is ``False``, in which case the search goes on
    as if ``D`` had failed (so an existence check looks for another witness).
    ``prune(D)``, called on a node's domains before each branch, may narrow
    them (and propagate) or return ``False`` to cut the node (branch and bound).
    ``guide(i)`` (``enum`` only) may name the value of variable ``i`` to try
    first at a node (a relaxation's solution), or ``None``; ``split(i)`` (``enum``
    only) may name a value at which a node splits variable ``i``'s domain in two,
    the values from it up and those below, each a branch (the first as ``order``
    says), or ``None`` for a branch per value. ``select`` may be
    a :data:`Selector` itself. When ``pause()``, called before each node,
    says so, ``accept(...)``'s ``False`` is yielded (no solution: a chance for
    the caller to do something else before it asks for more).
    """
    choose = _selector(select, D0, idxs)
    enum, down, mid = branching == "enum", order == "down", order == "mid"
    budget = current_budget()
    model, version = store.current(), store.version
    tid = None if trace is None else trace.root(model.vars, D0, model.off)
    k = choose(D0, idxs, 0, model)
    if k < 0:
        if trace is not None:
            trace.nodes[tid].status = SOLUTION  # type: ignore[index]  # tracing: the root's id
        found = D0 if accept is None else accept(D0)
        if found is not False:
            yield found
        return
    cut = len(idxs) if exists_from is None else exists_from
    stride = _stride(D0, idxs, branching)
    wide = any(type(D0[i]) is not int for i in idxs)  # a Wide variable stays Wide during a search
    if wide and mid:
        i = next(i for i in idxs if type(D0[i]) is not int)
        raise DomainError(
            f"order 'mid' cannot label {model.vars[i]}: its domain {D0[i]} is kept as bounds "
            "(too many values for middle-out order); use 'up' or 'down'"
        )
    # a node: domains, the chosen variable's position, values left, centre (mid order), trace
    # id, path, first?, split in two?
    d = D0[idxs[k]]
    stack = [[D0[:], k, d, _centre(d) if mid else None, tid, None, True, False]]
    bit: Dom
    while stack:
        if budget is not None:
            budget.tick()
        if pause is not None and pause():
            yield cast("_T", False)
            if len(model.log) != version:  # while paused, answers given meanwhile posted more
                model = store.model = type(model).replay(model.log[:version])
        top = stack[-1]
        D, k, rest, centre, parent, path, first, halved = top
        if D is None:
            D = top[0] = _rebuild(path, D0, model)
        i = idxs[k]
        if prune is not None:
            rest = _meet(rest, D[i]) if prune(D) else 0
            if not rest:
                stack.pop()
                continue
        piece_of_wide = wide and type(rest) is not int
        if piece_of_wide:
            bit, rest = _wide_piece(rest, first, order, branching)
        elif not enum:
            bit = _piece(rest, centre, first, order, branching)
        elif halved:
            bit = rest  # the other part
        elif first and split is not None and (bit := _part(split(i), rest, model.off[i], down)):
            top[7] = True
        elif first and guide is not None and (g := _guided(guide, i, rest, model.off[i])):
            bit = g
        elif mid:
            bit = _middle(rest, centre)
        else:
            bit = 1 << (rest.bit_length() - 1) if down else rest & -rest
        if not piece_of_wide:
            rest ^= bit
        if rest:
            top[2], top[6] = rest, False
            if stride == 1:
                D = D[:]
            else:
                top[0] = None  # the child takes these domains; rebuilt on return
        else:
            stack.pop()
        before = None if trace is None else D[:]
        D[i] = bit
        if trace is None:  # asked first for a plain variable: its fixpoint may do nothing
            ok = (model.plain[i] and quiet(D, i, model)) or fixpoint(D, {i}, model)
        else:
            ok = fixpoint(D, {i}, trace.watching(model))
        k = choose(D, idxs, k, model) if ok else -1
        if trace is not None:
            status = FAILED if not ok else BRANCH if k >= 0 else SOLUTION
            value = low(bit, model.off[i]) if fixed(bit) else as_domain(bit, model.off[i])
            tid = trace.choice(parent, model.vars[i], value, _narrowed(before, D, model, i), status)  # type: ignore[arg-type]  # a fixed value is an int; before: a copy
            trace.explain(tid, model, before, D)  # type: ignore[arg-type]  # before: a copy when tracing
        if not ok:
            continue
        if k >= 0:
            if stride > 1:
                depth = 1 if path is None else path[4] + 1
                path = (path, i, bit, D[:] if depth % stride == 0 else None, depth)
            d = D[idxs[k]]
            stack.append([D, k, d, _centre(d) if mid else None, tid, path, True, False])
            continue
        found = D if accept is None else accept(D)
        if found is False:
            continue
        yield found
        if len(model.log) != version:  # the consumer posted more on this model
            model = store.model = type(model).replay(model.log[:version])
        while stack and stack[-1][1] >= cut:
            stack.pop()


def _narrowed(before: list[Dom], after: list[Dom], model: Model, chosen: int) -> Narrowed:
    """``{var: (before, after)}`` for the domains that changed, other than the chosen one's."""
    off = model.off
    return {
        model.vars[j]: (as_domain(b, off[j]), as_domain(a, off[j]))
        for j, (b, a) in enumerate(zip(before, after))
        if b != a and j != chosen
    }


def free_vars(S: State, store: FDStore) -> list[tuple[int, object]]:
    """``(index, variable)`` for each open, non-private FD variable: what a solution binds."""
    m, D, s = store.current(), store.D, S.data
    out: list[tuple[int, object]] = []
    for i, d in enumerate(D):
        if not fixed(d) and i not in m.private:
            w = walk(m.vars[i], s)
            if isvar(w):
                out.append((i, w))
    return out


Plan: TypeAlias = "Callable[[list[Dom]], Any]"
"""What makes a reified term from a solution's domains: its variables' values read from them,
its constants in their places, as its list, tuple or lone item."""


class Solutions:
    """What the solutions of one labeling share: the state searched, its FD store, its free variables.

    ``free`` is :func:`free_vars`'s list; ``plans`` caches, per term
    reified, where its items come from (see :meth:`plan`). ``complete``:
    labeling ``labels`` fixes every FD variable an answer shows, and no
    constraint waits for a domain. ``S`` is marked shared (copied before any
    change): a solution reads its substitution when it is read, which may
    be after the labeling is over and another branch holding ``S`` went on.
    """

    __slots__ = ("S", "complete", "free", "last", "plans", "store")

    def __init__(self, S: State, store: FDStore, labels: list[int]) -> None:
        S.refs = SHARED
        self.S, self.store, self.free = S, store, free_vars(S, store)
        self.plans: dict[int, tuple[Any, Plan | None]] = {}
        self.last: tuple[Any, Plan | None] = (object(), None)
        """The term last planned and its plan."""
        labeled, private = set(labels), store.model.private
        self.complete = not store.pending and all(
            i in labeled or i in private or fixed(d) for i, d in enumerate(store.D)
        )

    def state(self, D: list[Dom]) -> State | Literal[False]:
        """The state with domains ``D`` and the free variables they fixed bound (``False`` if a store objects)."""
        S, store = self.S, self.store
        if len(S.constraints) == 1:  # the FD store alone: binding can wait until it is read
            return SolvedState(self, D)
        new = FDStore(store.model, store.version, D, store.pending)
        data = self.bindings(D)
        others = {k: c.copy() for k, c in S.constraints.items() if k is not FDStore}
        S2 = State(data, {**others, FDStore: new})
        for c in others.values():  # the other kanren stores (e.g. neq's) check the bindings
            if not c.post_unify_check(data, None, None, S2):
                return False
        return S2

    def bindings(self, D: list[Dom]) -> Subst:
        """The substitution searched, with the free variables that ``D`` fixed bound."""
        off = self.store.model.off
        data = dict(self.S.data)
        for i, w in self.free:
            d = D[i]
            if type(d) is int:
                if not d & (d - 1):
                    data[w] = off[i] + d.bit_length() - 1
            elif d.lo == d.hi:
                data[w] = d.lo
        return data

    def plan(self, q: Any) -> Plan | None:
        """Where the items of ``q`` reified come from: free variables' indices and constants.

        ``None`` for a term this does not cover: nested, holding a variable
        that is not free here, or without free variables; or if the
        labeling is not complete.
        """
        if q is self.last[0]:  # the usual case: each solution reifies the same term
            return self.last[1]
        if not self.complete:
            return None
        cached = self.plans.get(id(q))
        if cached is not None and cached[0] is q:
            self.last = cached
            return cached[1]
        term = reify(q, self.S.data)
        t = type(term)
        many = t is list or t is tuple
        where = {w: i for i, w in self.free}
        idxs: list[int] = []
        consts: list[tuple[int, Any]] = []
        plan: Plan | None = None
        for x in term if many else (term,):
            if isvar(x) and x in where:
                idxs.append(where[x])
            elif type(x) is int or type(x) is str:
                consts.append((len(idxs) + len(consts), x))
            else:
                break
        else:
            if idxs:  # else nothing to read from the domains
                plan = self.reader(idxs, t if many else None, consts)
        self.plans[id(q)] = self.last = (q, plan)
        return plan

    def reader(self, idxs: list[int], shape: type | None, consts: list[tuple[int, Any]]) -> Plan:
        """The term of ``shape`` (list, tuple, or ``None``: the lone item) whose items are the
        values of the variables ``idxs`` in a solution's domains, ``consts`` inserted at their
        positions."""
        off, D0 = self.store.model.off, self.store.D
        read: Callable[[list[Dom]], list[int]]
        get = itemgetter(*idxs) if len(idxs) > 1 else lambda D, i=idxs[0]: (D[i],)
        low = [off[i] - 1 for i in idxs]  # a fixed bitset's value: its offset - 1 + its length
        if any(type(D0[i]) is not int for i in idxs):  # a Wide variable stays Wide in a search
            read = lambda D: [
                off[i] + d.bit_length() - 1 if type(d := D[i]) is int else d.lo for i in idxs
            ]
        elif low.count(low[0]) == len(low):  # one offset (one domain for all): one constant
            c, width = low[0], max(D0[i].bit_length() for i in idxs)
            if width <= VALUES:  # each fixed bitset's value looked up (in C, item by item)
                value = {1 << k: c + k + 1 for k in range(width)}.__getitem__
                if shape is tuple and not consts:  # the usual case: one call a solution
                    return lambda D: tuple(map(value, get(D)))
                read = lambda D: list(map(value, get(D)))
            else:
                read = lambda D: [c + d.bit_length() for d in get(D)]
        else:
            read = lambda D: list(map(add, low, map(int.bit_length, get(D))))
        return _shaped(read, shape, consts)


VALUES = 64
"""The widest domains whose fixed bitsets an answer looks up (a table of that many values)."""


def _shaped(
    read: Callable[[list[Dom]], list[int]], shape: type | None, consts: list[tuple[int, Any]]
) -> Plan:
    """``read``'s values as a term of ``shape`` (list, tuple, or ``None``: the lone item), with
    ``consts`` inserted at their positions."""
    if consts:

        def filled(D: list[Dom]) -> list[Any]:
            out: list[Any] = read(D)
            for pos, c in consts:
                out.insert(pos, c)
            return out

        return _shaped(filled, shape, [])
    if shape is list:
        return read
    if shape is tuple:
        return lambda D: tuple(read(D))
    return lambda D: read(D)[0]


class SolvedState(State):
    """A labeling's solution as a state whose free FD variables are bound when its substitution is read.

    Most solutions are only reified: :meth:`answer` reads the values
    straight from the domains, and no substitution is built.
    """

    _data: Subst | None = None
    """The substitution once made (until then, the class's ``None``: one attribute less to set)."""
    _stores: dict[Any, Any] | None = None
    """The stores once made (as above)."""

    def __init__(self, solutions: Solutions, D: list[Dom]) -> None:
        self.solutions, self.D, self.refs = solutions, D, 1

    @property
    def data(self) -> Subst:
        """The substitution, made when first read."""
        if self._data is None:
            self._data = self.solutions.bindings(self.D)
        return self._data

    @data.setter
    def data(self, data: Subst) -> None:
        self._data = data

    @property
    def constraints(self) -> dict[Any, Any]:
        """The stores: the FD store, with domains ``D``, made when first read."""
        if self._stores is None:
            store = self.solutions.store
            self._stores = {FDStore: FDStore(store.model, store.version, self.D, store.pending)}
        return self._stores

    @constraints.setter
    def constraints(self, stores: dict[Any, Any]) -> None:
        self._stores = stores

    def answer(self, q: Any) -> tuple[bool, Any]:
        """``(True, q reified)`` read from the domains, or ``(False, None)`` where that does not apply."""
        plan = self.solutions.plan(q) if self._data is None else None
        if plan is None:
            return False, None
        return True, plan(self.D if self._stores is None else self._stores[FDStore].D)


def check_finite(store: FDStore, i: int, v: object) -> None:
    """Raise :class:`DomainError` if FD variable ``i`` (shown as ``v``) has an infinite domain: it cannot be labeled."""
    d = store.D[i]
    if type(d) is Wide and not d.is_finite():
        raise DomainError(f"cannot label {v}: its domain {d} is infinite (bound it with fd.in_)")


def creeping(store: FDStore, wide: Iterable[int]) -> bool:
    """Whether the linear constraints on the variables ``wide`` (kept as bounds) have no solution
    within the bounds (see :func:`~relqueens.fd.propagators.creeps`): checked when a labeling
    starts on them, which would refute such constraints a value at a time (``x + y < z, z < x +
    y`` over ``+-10**9``: hours)."""
    model, wide = store.current(), tuple(wide)
    if not wide:
        return False
    return analysed(store, ("creeps", wide), lambda: creeps(store.D, model.off, model.hot, wide))


def analysed(store: FDStore, what: tuple[Any, ...], analyse: Callable[[], _T]) -> _T:
    """``analyse()``, kept by the store's model with ``what`` (the analysis and its arguments),
    the log's length and the domains, so the answers of one query analyse once."""
    model = store.current()
    key = (*what, len(model.log), tuple(store.D))
    if key not in model.analyses:
        if len(model.analyses) >= ANALYSES:
            model.analyses.clear()
        model.analyses[key] = analyse()
    return model.analyses[key]  # type: ignore[no-any-return]  # what analyse gave


ANALYSES = 64
"""The results of :func:`analysed` a model keeps (then it forgets them all)."""


def _enumerable(store: FDStore, idxs: list[int]) -> tuple[int, ...]:
    """The variables of ``idxs`` kept as finite bounds, which
    :class:`~relqueens.fd.post.Enumerable` makes bitsets where they fit."""
    D = store.D
    return tuple(i for i in idxs if type(D[i]) is Wide and D[i].is_finite())


FEW = 256
"""A labeling with at most this many combinations of values searches them at once, before any
analysis at its root (the equalities combined by
:func:`~relqueens.fd.equalities.fixed_by_equalities`, residues, implied constraints): those
cost more than such a search. A labeling of some variables only may so leave answers whose
other variables' constraints the equalities would have refuted (residual answers); a full
labeling gives the same answers either way."""


def with_counts(S: State) -> State | None:
    """``S`` with the counts :func:`~relqueens.fd.implied.implied_counts` finds posted together
    (``S`` itself if none), or ``None`` if they fail: done when a labeling starts."""
    store = store_of(S)
    return _with(S, None if store is None else implied_counts(store.current(), store.D))


def with_equalities(S: State, store: FDStore) -> State | None:
    """``S`` with what its linear equalities fix together posted (see
    :func:`~relqueens.fd.equalities.fixed_by_equalities`; ``S`` itself if nothing), or ``None``
    if they have no integer point together: done when a labeling starts, and again once the
    implied constraints are posted (their cliques' sums)."""
    fixes = analysed(store, ("equalities",), lambda: fixed_by_equalities(store.current(), store.D))
    return _with(S, fixes)


def _with(S: State, found: Postable | None) -> State | None:
    """``S`` with ``found`` posted (``S`` itself if ``None``), or ``None`` if it fails."""
    if found is None:
        return S
    from .post import post_into

    S = S.copy()
    return S if post_into(S, [found]) else None


def _fixed(S: State, store: FDStore) -> State | None:
    """``S`` (or a copy) with what its reifications, equalities and counts decide together
    posted (:func:`decided_relations`, :func:`with_equalities`, :func:`with_counts`), or
    ``None`` if they fail: the first of the analyses when a labeling starts."""
    fixed = _with(S, decided_relations(store.current(), store.D))
    fixed = None if fixed is None else with_equalities(fixed, cast("FDStore", store_of(fixed)))
    return None if fixed is None else with_counts(fixed)


def _with_implied(S: State, extra: list[Any]) -> State | None:
    """A copy of ``S`` with the implied constraints ``extra`` posted, and the equalities
    combined again if a clique's sum is among them (a permutation's); ``None`` if they fail."""
    from .post import post_into

    S = S.copy()
    if not post_into(S, extra):
        return None
    if any(type(c) in CLIQUES for c in extra):
        return with_equalities(S, cast("FDStore", store_of(S)))
    return S


def _root_analysed(S: State, store: FDStore) -> State | None:
    """``S`` with what the analyses at branch and bound's root find posted (:func:`_fixed`,
    then the implied constraints but matchings, which refute and there may be solutions), or
    ``None`` if they fail."""
    found = _fixed(S, store)
    if found is None:
        return None
    now = cast("FDStore", store_of(found))
    extra = [c for c in implied(now.current(), now.D) if type(c) is not ImpliedMatchings]
    return _with_implied(found, extra) if extra else found


def _counting(
    S: State, j: int, sense: str, items: list[int]
) -> tuple[State, int, tuple[int, list[Relaxation]], Callable[[int], int | None]] | None:
    """A copy of ``S`` with a hidden variable posted equal to the sum of FD variables ``items``
    (see :func:`~relqueens.fd.relaxation.counted`), its index, the relaxations of objective
    ``j`` with its row, and where a node splits it, where the LP over two rows or more holds it
    (it is then branched on first, see :meth:`~relqueens.fd.relaxation.LagrangianBound.counts`);
    else ``None``."""
    store = cast("FDStore", store_of(S))  # branch and bound posted: there is one
    D, model = store.D, store.current()
    off = model.off
    if sum(high(D[i], off[i]) - low(D[i], off[i]) for i in items) >= DENSE:
        return None  # kept as bounds, not a bitset: it could not be labeled "mid"
    count = var(prefix="count")
    counting = _with(
        S, Relation("==", count, Lin(dict.fromkeys(map(model.vars.__getitem__, items), 1), 0))
    )
    if counting is None:
        return None  # (the search finds that too)
    store = cast("FDStore", store_of(counting))
    model = store.current()
    relaxed = relaxations(model, j, sense, store.D, model.off)
    if relaxed is None:
        return None
    lp = next((r for r in relaxed[1] if type(r) is LagrangianBound), None)
    c = store.index_of(walk(count, counting.data))
    if lp is None or c is None or c not in lp.lp.where:
        return None
    lp.counts(c)
    return counting, c, relaxed, lp.split_at


def _bitsets(store: FDStore, values: list[Any]) -> list[int] | None:
    """The FD indices of the variables among ``values`` (walked), as :func:`open_indices` gives
    them, if they all have bitset domains; else ``None``."""
    index, D = store.current().index, store.D
    idxs, seen = [], set()
    for w in values:
        if isvar(w):
            i = index.get(w)
            if i is None or type(D[i]) is not int:
                return None
            if i not in seen:
                seen.add(i)
                idxs.append(i)
    return idxs


def open_indices(store: FDStore | None, variables: Iterable[Any], s: Subst) -> list[int]:
    """The FD indices of the open variables among ``variables`` (constants skipped).

    Raises :class:`DomainError` for a free variable that has no domain.
    """
    idxs: list[int]
    seen: set[int]
    idxs, seen = [], set()
    for v in variables:
        w = walk(v, s)
        if not isvar(w):
            continue
        i = None if store is None else store.index_of(w)
        if i is None:
            raise DomainError(f"cannot label {v}: it has no domain (give it one with fd.in_)")
        check_finite(store, i, v)  # type: ignore[arg-type]  # i is set: there is a store
        if i not in seen:
            seen.add(i)
            idxs.append(i)
    return idxs


class Label(Goal):
    """Labeling as a goal: one state per assignment of the variables (see :func:`label`)."""

    __slots__ = ("branching", "objective", "order", "select", "trace", "variables")
    search_kind = STATES
    QUICK = 16
    """The nodes a labeling of bitsets searches before any analysis at its root (the
    equalities combined, residues, implied constraints, relaxations of its rows), and branch
    and bound before the relaxations of its objective: a search that ends within them pays
    for none. Not where a relaxation is cheap and may decide at once (:func:`_weighed`,
    :func:`_few_rows`, unless the tree is of :attr:`QUICK_LEAVES` leaves at most), nor in a
    model of over :attr:`QUICK_VARS` variables."""
    QUICK_LEAVES = 64
    """The most combinations of values of the variables given for branch and bound to search
    quickly even where a relaxation is cheap (:func:`_few_rows`; a knapsack of 5 items 0.58
    to 0.46 ms, of 8 items 0.75 to 1.1 ms)."""
    QUICK_TREE = 1024
    """The most combinations of values of the variables given for branch and bound to search a
    sixteenth of them as well before its relaxations (9 items in two rows, each its LP at each
    node: 2.6 to 1.0 ms; SWI 1.9 ms)."""
    QUICK_VARS = 64
    """The most variables a model has for a labeling's quick search (a larger one's nodes cost
    more than its analyses: a 0/1 colouring of 80, first, 7 to 12 ms with it)."""
    ALONE = 500
    """The nodes, beside four for each variable, the labeling may spend without the implied
    constraints before it posts them (:meth:`_alone`; the matchings of crossing ``distinct``
    groups only if it found no solution there; with nothing to post, or while it finds
    solutions often (:attr:`OFTEN`), it goes on). Then its search starts again with them,
    and restarts race it after :data:`~relqueens.fd.restarts.FIRST_NODES` more."""
    OFTEN = 2
    """A first search without the implied constraints that runs out of its nodes having found
    a solution for every :attr:`OFTEN` of them (and :attr:`OFTEN_LEAST` at least) goes on
    where it paused, without them, for as many nodes again, and so on while it finds solutions
    so often: it fails too seldom for them to pay for a search again from the root
    (SEND+MORE=MONEY in base 50, all 861 answers by ``ffc``: 494 in its first 520 nodes,
    after 11 in its quick search's 16; 0.065 to 0.023-0.033 s, SWI 0.06-0.10 s). Once it
    finds fewer, it posts them and searches from the root again: a dense corner of the tree
    costs the nodes of one more turn before a barren rest is searched with them. (At one in
    four, the same by ``min`` and ``down`` went on for three more turns, finding fewer each
    time, and took 0.57 s where posting them after the first took 0.34 s.)"""
    OFTEN_LEAST = 64
    """The fewest solutions a turn of the first search finds for :attr:`OFTEN` to hold (fewer
    say little of the rest of the tree)."""

    def __init__(
        self,
        variables: list[Any],
        select: str,
        order: str,
        trace: SearchTrace | None,
        branching: str | None = None,
        objective: tuple[str, object] | None = None,
    ) -> None:
        self.variables, self.select, self.order, self.trace = variables, select, order, trace
        self.branching, self.objective = branching, objective

    def branching_for(self, D: list[Dom], idxs: list[int]) -> str:
        """The branching the labeling of ``idxs`` from ``D`` takes: the one given, else
        ``step`` for ``min`` and ``max`` over bitsets and ``enum`` otherwise (``enum`` halves
        a Wide domain; stepping value by value could take 10**12 steps to pass a gap)."""
        if self.branching is not None:
            return self.branching
        if self.select in STEP_FIRST and all(type(D[i]) is int for i in idxs):
            return "step"
        return "enum"

    def states(self, S: State) -> Iterator[State]:
        """The states, extending ``S``, where the variables have values (``S`` is not changed)."""
        s = S.data
        values = [walk(v, s) for v in self.variables]
        bound = True  # every variable bound already (propagation solved it): no search
        for w in values:
            if isvar(w):
                bound = False
            elif not is_int(w):
                return
        if bound and self.objective is None:
            yield S.copy()
            return
        store = store_of(S)
        alone = self.objective is None and self.trace is None
        # the equalities combined and the counts joined once the labeling starts, but for a
        # tree of few leaves, searched at once, before any analysis (which costs more: L(2,3)
        # 0.29 to 0.19 ms)
        bitsets = _bitsets(store, values) if alone and store is not None else None
        few = store is not None and bitsets is not None and _leaves(store.D, bitsets, FEW) <= FEW
        idxs = bitsets if few else None
        # and a search of few nodes, before any analysis, pays for none (the zebra puzzle, all
        # solutions: 1.19 to 0.85 ms); the values of its solutions, over its labels
        labels, quick = None, list[dict[int, int | float]]()
        quick_search = first_search = None
        if (
            bitsets
            and store is not None
            and not few
            and len(store.D) <= self.QUICK_VARS
            and not _weighed(store.current())
        ):
            labels, off = bitsets, store.current().off
            # then, if the analyses change nothing and the model implies constraints, it goes
            # on as the first search without them (its ALONE nodes after these); otherwise the
            # rest is searched from the root, its answers skipped
            quick_search = self._alone(S, store, labels, self.QUICK)
            for found in quick_search:
                if found is None:
                    break  # out of nodes: the analyses, then the rest
                yield found[0]
                quick.append({i: low(found[1][i], off[i]) for i in labels})
            else:
                return
        if (
            self.objective is not None
            and store is not None
            and all(type(d) is int for d in store.D)
        ):
            # branch and bound's quick search, too, goes before the analyses (see _best_first)
            yield from self._best_first(S, rooted=False)
            return
        if store is not None and not few:
            fixed = _fixed(S, store)
            if fixed is None:
                return
            if fixed is not S:
                quick_search = None  # the analyses posted: a search from the root, with them
            S, s, store = fixed, fixed.data, store_of(fixed)
            idxs = open_indices(store, self.variables, s)
        if store is not None and idxs and (wide := _enumerable(store, idxs)):
            from .post import Enumerable, post_into

            if creeping(store, wide):
                return

            S = S.copy()
            if not post_into(S, [Enumerable(wide)]):
                return
            s, store, idxs = S.data, store_of(S), None  # propagation may have fixed some
        # the solutions found without the implied constraints (their domains), and their values
        solved: list[list[Dom]] = []
        given: list[dict[int, int | float]] = []
        if store is not None:
            # resources, distinct groups, loads stated piece by piece: propagated as wholes (the
            # groups found once a first search fails: finding them costs a tiny colouring most)
            model, extra = store.current(), None
            # residues and short equations the others imply: found now, posted (the residues
            # tabulated) once a first search without them runs out (never upfront)
            moduli = residues(model, store.D) if alone and not few else []
            equations = implied_equations(model, store.D) if alone and not few else None
            if alone and (
                few or may_group(model) or moduli or equations or (extra := implied(model, store.D))
            ):
                first = open_indices(store, self.variables, s) if idxs is None else idxs
                off = model.off
                first_search = quick_search or self._alone(S, store, first, skip=quick)
                allowed, lately = self._turn(first), 0  # its nodes, and solutions found
                for found in first_search:
                    if found is None:
                        if lately < self.OFTEN_LEAST or lately * self.OFTEN < allowed:
                            break  # out of nodes: the rest with the implied constraints
                        lately = 0  # solutions often: it fails seldom, and goes on
                        continue
                    yield found[0]
                    solved.append(found[1][:])
                    lately += 1
                else:
                    return  # the whole tree searched without them
            if extra is None:
                extra = implied(store.current(), store.D)
            if solved or quick or not alone:  # matchings refute: none where there are solutions
                extra = [c for c in extra if type(c) is not ImpliedMatchings]
            if moduli:
                extra = [*extra, tables(store.current(), store.D, moduli)]
            if equations:
                extra = [*extra, equations]
            if first_search is not None and (solved or quick) and not extra:
                for found in first_search:  # nothing to add: it goes on where it paused
                    if found is not None:
                        yield found[0]
                return
            # values, not domains: a Wide label may have become a bitset
            # (over the quick search's labels, if it ran: they may be more than ``first``)
            given = [*quick, *({i: low(D[i], off[i]) for i in labels or first} for D in solved)]
            if extra:
                posted = _with_implied(S, extra)
                if posted is None:
                    return
                S, s, store = posted, posted.data, store_of(posted)
        if self.objective is not None:
            yield from self._best_first(S)
            return
        idxs = open_indices(store, self.variables, s)
        if store is None:  # no FD store: every variable was bound to an integer
            yield S.copy()
            return
        if given:  # values given that the labels the implied constraints fixed refute skip
            # nothing: labeling some variables, the first search may give values later goals
            # drop (no answer), and skipping them would skip the answer with the fixed labels
            off, D = store.current().off, store.D
            now = {i: low(D[i], off[i]) for i in given[0] if i not in idxs}
            given = [g for g in given if all(g[i] == v for i, v in now.items())]
        skip = [tuple(values[i] for i in idxs) for values in given]
        model = store.current()
        refuting = row_relaxations(model, store.D, model.off) if idxs else (0, [])
        if refuting is None:
            return
        top, bounds = refuting
        nodes = DECIDING + 2 * len(idxs)
        if bounds and not given and _decided(S, idxs, self.order, top, bounds, nodes) is False:
            return
        # (store.current(): the model as of S, posted to in a copy meanwhile)
        prune = Refuting(store.current(), top, bounds) if bounds else None
        yield from self._solutions(S, store, store.D, idxs, prune=prune, skip=skip)

    def _turn(self, idxs: list[int]) -> int:
        """The nodes of one turn of the first search without the implied constraints over
        ``idxs``: :attr:`ALONE`, and four a variable."""
        return self.ALONE + 4 * len(idxs)

    def _alone(
        self,
        S: State,
        store: FDStore,
        idxs: list[int],
        quick: int | None = None,
        skip: list[dict[int, int | float]] | None = None,
    ) -> Iterator[tuple[State, list[Dom]] | None]:
        """The solutions (state and domains) of the labeling without the implied constraints,
        in its order, within :attr:`ALONE` nodes and four a variable (first within ``quick``,
        if given, then those), but those whose values are in ``skip`` (given before); ``None``
        each time the nodes ran out before the whole tree was searched. Asked for more, it
        goes on with the same search, for as many nodes again each time.

        The implied groups, resources and loads prune a search that fails
        much; one that finds its solution soon need not pay for finding and
        posting them (a 5 x 5 queen graph's first colouring: 0.6 ms, and
        1.6 ms with its 55 implied groups), nor one whose whole tree is small
        (all of SEND+MORE stated by pairwise ``!=``: 0.43 to 0.3 ms).
        The labeling then goes on with them, but for these solutions.
        """
        solutions = Solutions(S, store, idxs)
        chunk = self._turn(idxs)
        budgets = [chunk] if quick is None else [quick, chunk]
        left = [budgets.pop(0)]

        def pause() -> bool:
            left[0] -= 1
            return left[0] < 0

        def paired(D: list[Dom]) -> tuple[State, list[Dom]] | Literal[False]:
            state = solutions.state(D)
            return False if state is False else (state, D)

        accept: Callable[[list[Dom]], tuple[State, list[Dom]] | Literal[False]] = paired
        if skip:  # (the values over the labels of the first given, in their order)
            over, off = list(skip[0]), store.current().off
            accept = _skipping(paired, [tuple(v.values()) for v in skip], over, off)
        found = search(
            store.D, store, idxs, self.select, self.order, accept=accept,
            branching=self.branching_for(store.D, idxs),
            pause=pause,
        )  # fmt: skip
        for solution in found:
            if solution is False:
                yield None  # out of nodes; asked for more, the search goes on within the next
                left[0] = budgets.pop(0) if budgets else chunk
                continue
            yield cast("tuple[State, list[Dom]]", solution)

    def _solutions(
        self,
        S: State,
        store: FDStore,
        D0: list[Dom],
        idxs: list[int],
        prune: Callable[[list[Dom]], bool] | None = None,
        trace: SearchTrace | None = None,
        skip: list[tuple[int | float, ...]] | None = None,
    ) -> Iterator[State]:
        """The labeling's solutions from domains ``D0``, but those whose values are in ``skip`` (given before)."""
        if not idxs:
            if not skip:  # the one solution, unless given before
                yield S.copy()
            return
        solutions = Solutions(S, store, idxs)
        trace = self.trace if trace is None else trace
        if trace is not None:  # an eq unified before the constraints: no FD variable
            trace.given = {
                v: w for v in self.variables if isvar(v) and is_int(w := walk(v, S.data))
            }
        accept: Callable[[list[Dom]], State | Literal[False]] = solutions.state
        if skip:
            accept = _skipping(solutions.state, skip, idxs, store.model.off)
        elif (
            trace is None
            and prune is None
            and self.select in RESTARTABLE
            and not ALL_WANTED.get()  # all answers: the whole tree is searched anyway
        ):
            select = self.select
            restarts = Restarts(
                search,
                lambda rng: shuffled(select, rng),
                _selector(select, D0, idxs),
                D0,
                store,
                idxs,
                {"order": self.order, "branching": self.branching_for(D0, idxs)},
                accept,
            )
            yield from restarts.raced(select)
            return
        yield from cast(  # accept gave states; a False one is skipped by the search
            "Iterator[State]",
            search(
                D0,
                store,
                idxs,
                self.select,
                self.order,
                trace=trace,
                accept=accept,
                branching=self.branching_for(D0, idxs),
                prune=prune,
            ),
        )

    def _best_first(self, S: State, rooted: bool = True) -> Iterator[State]:
        """Branch and bound to the optimum, then the solutions objective value by objective value;
        the root's analyses (:func:`_root_analysed`) made before (``rooted``), else once a quick
        search has not proved the optimum, or once the rest is asked for."""
        from .post import Enumerable, post_into

        sense, expr = self.objective  # type: ignore[misc]  # set: there is an objective
        S = S.copy()
        store: FDStore
        store, s = store_of(S), S.data  # type: ignore[assignment]  # None: posted below
        w = walk(expr, s)
        if store is None or not (is_int(w) or (isvar(w) and store.index_of(w) is not None)):
            goal = var(prefix="objective")  # an expression, or a variable with no domain yet
            if not post_into(S, (Relation("==", goal, expr),)):
                return
            store, s = store_of(S), S.data  # type: ignore[assignment]  # post_into made one
            w = walk(goal, s)
        if not rooted and any(type(d) is not int for d in store.D):
            # an objective kept as bounds: analysed at once, as they may make it a bitset (a
            # rebase), where the search and the best found read it as bounds
            analysed = _root_analysed(S, store)
            if analysed is None:
                return
            S, s, store, rooted = analysed, analysed.data, store_of(analysed), True  # type: ignore[assignment]  # posted: one
            w = walk(w, s)
        idxs = open_indices(store, self.variables, s)
        if is_int(w):
            yield from self._solutions(S, store, store.D, idxs)
            return
        if self.order == "mid" and (wide := _enumerable(store, [store.index_of(w)])):  # type: ignore[list-item]  # w has a domain
            if not post_into(S, [Enumerable(wide)]):  # labeled last, middle out: a bitset
                return
            store, s = store_of(S), S.data  # type: ignore[assignment]  # as above
        j: int
        j, model = store.index_of(w), store.current()  # type: ignore[assignment]  # w has a domain
        branching = self.branching_for(store.D, idxs)  # by the variables given, not the objective
        given = len(idxs)  # the variables given come first; the objective (and a count) after
        idxs = idxs + [j] if j not in idxs else idxs
        off = model.off[j]
        best: list[int | float] = []
        incumbent: list[list[Dom]] = []

        def record(D: list[Dom]) -> bool:
            """Keep ``D`` if it is the best so far; whether the search is to hear of it."""
            v = low(D[j], off)
            if not best or (v < best[0] if sense == "min" else v > best[0]):
                best[:], incumbent[:] = [v], [D[:]]
                return probes is None  # a schedule's probes search on their own
            return False  # keep searching, for better

        split = None  # where a node splits a variable's domain in two (the count's)
        const, bounds = 0, list[Relaxation]()
        linear: KnapsackBound | Deferred | LagrangianBound | None = None
        """An LP among the bounds: its optimum, rounded, is tried as a solution at every node."""
        proved = False  # once the optimum is proved, no more guesses are recorded
        probes: Probes | None = None
        loose: list[Any] = []
        select: str | Selector = self.select
        if select in STEP_FIRST:
            select = _given_first(SELECTORS[select], given)

        def ceiling(nd: Dom) -> int | float:
            """The objective's highest value in ``nd``, as the minimised one (``sign *``)."""
            return high(nd, off) if sense == "min" else -low(nd, off)

        def guess(
            D: list[Dom],
            r: KnapsackBound | Deferred | LagrangianBound,
            values: dict[int, int] | None,
            top: int | float,
        ) -> None:
            """Record ``values`` of ``r``'s cost variables (a guess) within ``D`` if they are a
            solution better than ``top`` allows; then the better ones near it, while found."""
            while values is not None and const + cost_of(r.cost, values) <= top:
                placed = _placed(D, values, model, idxs)
                if placed is None:
                    return
                record(placed)
                if type(r) is not LagrangianBound:
                    return
                values, D = r.improved(values), store.D  # a solution: its neighbours, over the root
                top = best[0] - 1 if sense == "min" else -best[0] - 1

        def tighten(D: list[Dom]) -> bool:
            nd = D[j] if probes is None else probes.bound(D[j])
            if best:
                nd = (
                    keep_le(nd, off, best[0] - 1)
                    if sense == "min"
                    else keep_ge(nd, off, best[0] + 1)
                )
            if not nd:
                return False
            queue = {j}
            for r in bounds:  # each bounds sign * objective from below, and prunes under its top
                b = r.bound(D, model.off, ceiling(nd) - const)
                if b is INFEASIBLE:
                    return False
                nd = keep_ge(nd, off, const + b) if sense == "min" else keep_le(nd, off, -const - b)
                if not nd:
                    return False
                top = ceiling(nd)
                if type(top) is int and not r.prune(D, model.off, top - const, queue):
                    return False
            if nd != D[j] or len(queue) > 1:
                D[j] = nd
                if not fixpoint(D, queue, store.current()):  # (later goals may move model on)
                    return False
            if linear is not None and not proved:
                if type(linear) is Deferred:  # the knapsack's optimum over the root, once
                    guess(store.D, linear, linear.found(), ceiling(nd))
                guess(D, linear, linear.rounded(), ceiling(nd))
            return True

        def grown(T: State, over: list[int]) -> None:
            """Go on in ``T``, ``S`` with more posted, the best found so far placed again (and
            propagated) over ``over``, or forgotten if that fails (a solution never does)."""
            nonlocal S, s, store
            S, s, store = T, T.data, store_of(T)  # type: ignore[assignment]  # posted: one
            if incumbent:  # (its values read by the model it was found in)
                values = {i: int(low(incumbent[0][i], model.off[i])) for i in idxs}
                placed = _placed(store.D, values, store.current(), over)
                incumbent[:] = [] if placed is None else [placed]
                if placed is None:
                    best.clear()

        def rooting() -> bool:
            """The root's analyses, deferred (see :meth:`states`); whether they leave it a
            solution."""
            nonlocal rooted, model
            rooted = True
            found = _root_analysed(S, store)
            if found is None:
                return False
            if found is not S:
                grown(found, idxs)
                model = store.current()
            return True

        def relaxed() -> bool:
            """Find the relaxations that bound the objective at the root, and what they decide of
            the search: a count to branch on first, the groups that may get pigeonholes (the
            order: :func:`ordered`); whether none refutes the root."""
            nonlocal model, idxs, split, const, bounds, linear, loose
            if not rooted and not rooting():
                return False
            found = relaxations(model, j, sense, store.D, model.off)
            if found is None:
                return False
            items = counted(found[1])
            counting = None if items is None else _counting(S, j, sense, items)
            if counting is not None:  # a count of the objective's variables, to branch on first
                T, c, found, split = counting
                grown(T, [*idxs, c])
                idxs = [*idxs, c]
            model = store.current()  # (a count posted in a copy and not kept moved the model on)
            const, bounds = found
            linear = next((r for r in bounds if isinstance(r, LP_BOUNDS)), None)
            # none if a domain is kept as bounds: the root's new propagation could make it a
            # bitset (a rebase), where the incumbents, the objective's offset and the search read
            # it as bounds
            loose = loose_groups(model, store.D) if all(type(d) is int for d in store.D) else []
            return True

        # the search first goes alone, bounded by the best found only: one of few nodes proves
        # its optimum before the relaxations would pay (a multiple knapsack of 8 items and 2
        # rows, 1.6 to 0.9 ms; a Golomb ruler of 4 marks 1.2 to 0.7 ms)
        leaves = _leaves(store.D, idxs[:given], self.QUICK_TREE)
        nodes = self.QUICK + (int(leaves) // 16 if leaves <= self.QUICK_TREE else 0)
        schedule = scheduling(model)
        relaxed_first = (
            schedule
            or len(store.D) > self.QUICK_VARS
            or (leaves > self.QUICK_LEAVES and _few_rows(model, j))
        )
        left = [0 if relaxed_first else nodes]

        def ordered() -> None:
            """The labeling's order, the LP's fractional variables first where there is one over
            two rows or more (this order decides only which optimum the search meets first: the
            first answer)."""
            nonlocal select
            if type(linear) is LagrangianBound:
                select = _fractional_first(
                    linear, select if callable(select) else SELECTORS[select]
                )

        def pause() -> bool:
            left[0] -= 1
            return left[0] == 0  # once

        if not left[0]:
            if not relaxed():
                return
            if schedule and Probes.usable(store, j):
                probes = Probes(search, store, idxs, j, sense, best, incumbent, record, tighten)
                loose = []  # (the search reads the objective's bounds as the probes narrow them)
                if select == "leftmost":
                    # the best recorded comes first, whoever found it: this order decides only
                    # which optimum that is, and first fail proves it sooner (an RCPSP of 12
                    # tasks and two cumulative resources: over a minute to 0.15 s)
                    select = "ff"
            ordered()
        prune = tighten
        if probes is not None:  # find the bound by halving, at the root and between the nodes

            def prune(D: list[Dom]) -> bool:
                probes.tick()
                return tighten(D)

        def at_limit(e: Exhausted) -> Iterator[State]:
            """The best solution so far, past the limit ``e``, to be the SearchLimit's best."""
            budget = current_budget()
            if incumbent and budget is not None:
                budget.grace(str(e))
                found = Solutions(S, store, idxs).state(incumbent[0])
                if found is not False:
                    yield found

        def grouped() -> bool:
            """Post the pigeonholes of the ``loose`` groups that the best found leaves no value
            to spare (see :func:`~relqueens.fd.implied.bound_pigeonholes`); whether there were any."""
            nonlocal S, store, loose
            D = store.D[:]
            found = bound_pigeonholes(loose, D) if loose and tighten(D) else None
            if found is None or not post_into(grown := S.copy(), (found,)):
                return False
            S, store = grown, store_of(grown)  # type: ignore[assignment]  # posted: it has one
            loose = [g for g in loose if g not in found.groups]
            return True

        try:
            while True:
                # every solution is recorded and rejected: the search goes on for a better one
                for searched in search(
                    store.D,
                    store,
                    idxs,
                    select,
                    self.order,
                    accept=record,
                    branching=branching,
                    prune=prune,
                    guide=_guide(bounds) if bounds and branching == "enum" else None,
                    pause=pause if left[0] > 0 else None,
                    split=split,
                ):  # a better one: its bound may give groups their pigeonholes
                    if searched is False:  # out of the nodes alone: again, with the relaxations
                        if not relaxed():
                            return
                        ordered()
                        grouped()  # (and the pigeonholes the best found so far gives)
                        break
                    if grouped():
                        break  # then the search starts again from the root, with them
                else:
                    break  # searched through: the best found is optimal
        except Exhausted as e:  # a limit: the best so far goes on, to be the SearchLimit's best
            yield from at_limit(e)
            raise
        if not best:
            return
        optimum = best.pop()  # from here on, tighten bounds by the objective's own domain
        proved = True
        first = None
        # the optimum branch and bound met first: the labeling's order may take long to meet one
        D = store.D[:]
        for i in idxs:
            D[i] = incumbent[0][i]
        if fixpoint(D, set(idxs), store.current()):
            found = Solutions(S, store, idxs).state(D)
            if found is not False:
                yield found
                first = [tuple(low(D[i], model.off[i]) for i in idxs)]
        given = first is not None
        try:
            if not rooted and not rooting():  # the rest: with the analyses, now they may pay
                return
            # lazily: the first value is the optimum, and it may be all that is read
            for v, D in _reachable(store, j, int(optimum), sense):
                D[j] = 1 << (v - off) if type(D[j]) is int else Wide(v, v)
                if fixpoint(D, {j}, store.current()):  # current: answers may have posted
                    for answer in self._solutions(S, store, D, idxs, prune=tighten, skip=first):
                        given = True
                        yield answer
                first = None  # the next values' solutions are all new
        except Exhausted as e:  # a limit before the optimum is met again: the one proved
            if not given:
                yield from at_limit(e)
            raise


def _reachable(store: FDStore, j: int, v: int, sense: str) -> Iterator[tuple[int, list[Dom]]]:
    """The values of objective ``j`` from ``v`` on (up for ``"min"``, down for ``"max"``),
    each the next that propagation allows past the last, with the domains of that propagation
    (``j`` at that value or beyond; the caller's to narrow): a gap between two values is passed
    at once, not value by value (``minimize=10**7 * x + y``, all answers: over a minute to
    1 ms; ``maximize=100001 * x``, ``x`` in four values, 288 answers: 11.6 s to 24 ms)."""
    step = 1 if sense == "min" else -1
    while True:
        D, model = store.D[:], store.current()  # (answers may have posted)
        o = model.off[j]
        D[j] = keep_ge(D[j], o, v) if sense == "min" else keep_le(D[j], o, v)
        if not D[j] or not fixpoint(D, {j}, model):
            return
        v = int(low(D[j], o) if sense == "min" else high(D[j], o))
        yield v, D
        v += step


def _weighed(model: Model) -> bool:
    """Whether ``model`` has two linear rows or more, one of them over
    :data:`~relqueens.fd.relaxation.COUNTED` variables or more, not all of one coefficient:
    the LP of :func:`~relqueens.fd.relaxation.row_relaxations` may decide it at once (a
    knapsack stated as a decision, within 10 nodes), where a quick search would spend its
    nodes first."""
    rows = linear_rows(model)
    return len(rows) > 1 and any(
        len(p.terms) >= COUNTED and len({a for _, a in p.terms}) > 1 for p in rows
    )


def _skipping(
    accept: Callable[[list[Dom]], _T | Literal[False]],
    skip: list[tuple[int | float, ...]],
    over: list[int],
    off: list[int],
) -> Callable[[list[Dom]], _T | Literal[False]]:
    """``accept``, but ``False`` for the solutions whose values over the variables ``over`` are
    in ``skip`` (given before: met once each, and then no more looked for)."""
    seen = set(skip)
    unseen = [len(seen)]

    def skipping(D: list[Dom]) -> _T | Literal[False]:
        if unseen[0] and tuple(low(D[i], off[i]) for i in over) in seen:
            unseen[0] -= 1
            return False
        return accept(D)

    return skipping


def _leaves(D: list[Dom], idxs: list[int], most: int | float = float("inf")) -> int | float:
    """The combinations of values of the bitset domains ``D[i]``, ``i`` in ``idxs``
    (infinite if one is kept as bounds), counted no further once past ``most``."""
    total = 1
    for i in idxs:
        d = D[i]
        if type(d) is not int:
            return float("inf")
        total *= d.bit_count()
        if total > most:
            return total
    return total


def _few_rows(model: Model, j: int) -> bool:
    """Whether ``model`` has at most one linear row but the objective ``j``'s own: their
    relaxations are cheap, and decide at once where they apply (a knapsack's capacity: 24 items
    in 3 nodes; a TSP's tree), where a search alone would spend its quick nodes first (1.0 to
    1.5 ms). An LP over several rows costs more (2 knapsacks of 8 items: 1.6 to 0.9 ms
    without it)."""
    defining = objective_form(model, j)[2]
    return sum(p is not defining and p.op != "!=" for p in linear_rows(model)) <= 1


def _placed(
    D: list[Dom], values: dict[int, int], model: Model, idxs: list[int]
) -> list[Dom] | None:
    """A copy of ``D`` with ``values`` placed and propagated, if that fixes every variable of
    ``idxs`` (a solution); else ``None``."""
    D, off = D[:], model.off
    for i, v in values.items():
        if not fixed(D[i]):
            D[i] = keep_ge(keep_le(D[i], off[i], v), off[i], v)
            if not D[i]:
                return None
    if fixpoint(D, set(values), model) and all(fixed(D[i]) for i in idxs):
        return D
    return None


def _guide(bounds: list[Relaxation]) -> Callable[[int], int | None]:
    """A search's ``guide``: the value of a variable in the first of ``bounds``' solutions
    that has one."""

    def guide(i: int) -> int | None:
        for r in bounds:
            v = r.solution(i)
            if v is not None:
                return v
        return None

    return guide


def _given_first(chosen: Selector, given: int) -> Selector:
    """``chosen`` over the first ``given`` variables (the labeling's), then the others leftmost
    (the objective and a count, which branch and bound adds): by ``min`` or ``max`` the
    objective, of the widest bounds, came first, its values tried one by one (a knapsack of 9
    items minimised, by ``max`` and ``down``: 1,900 nodes and 34 ms; by ``leftmost`` 28)."""

    def select(D: list[Dom], idxs: list[int], k: int, model: Model) -> int:
        found = chosen(D, idxs[:given], k, model)
        return found if found >= 0 else _leftmost(D, idxs, given, model)

    return select


def _fractional_first(lp: LagrangianBound, chosen: Selector) -> Selector:
    """A selector: the first variable ``lp``'s last optimum left fractional, else ``chosen``'s
    choice (from the first variable: those before ``k`` may be open)."""

    def select(D: list[Dom], idxs: list[int], k: int, model: Model) -> int:
        at = lp.fractional(D, idxs)
        return at if at >= 0 else chosen(D, idxs, 0, model)

    return select


def _decided(
    S: State, idxs: list[int], order: str, top: int, bounds: list[Relaxation], nodes: int
) -> bool | None:
    """Whether a labeling of ``idxs`` keeps the sum that ``bounds`` bound (see
    :func:`~relqueens.fd.relaxation.row_relaxations`) within ``top``, decided in ``nodes``
    nodes as branch and bound proves an optimum: a count of the sum's variables split first
    where its costs follow another row's weights (see :func:`~relqueens.fd.relaxation.counted`),
    and after a quarter of them the LP's point, rounded and climbed from (:func:`_climbed`);
    ``None``: not decided so, or not counted.

    A knapsack stated as a decision, whose values are the weights plus 10 (30 items, two
    rows), took 0.7 s to refute a target one over the optimum in the labeling's order, and 4
    to 7 ms so; 60 items, past 20 s. The guess finds a packing that reaches the optimum
    where the search would spend all its nodes (30 items: 20 to 12-19 ms); first, it cost
    the refutations that the search gives at once (80 items, 3 rows: 11 to 61 ms).
    """
    items = counted(bounds)
    if items is None:
        return None
    lp = next(r for r in bounds if type(r) is LagrangianBound)
    base = cast("FDStore", store_of(S))
    model = base.current()
    goal = var(prefix="objective")
    summed = _with(S, Relation("==", goal, Lin({model.vars[i]: a for i, a in lp.cost.items()}, 0)))
    if summed is None:
        return None  # (the labeling finds that too)
    j = cast("FDStore", store_of(summed)).index_of(walk(goal, summed.data))
    counting = None if j is None else _counting(summed, j, "min", items)
    if counting is None:
        return None
    S, c, (const, found), split = counting
    store = cast("FDStore", store_of(S))
    model = store.current()
    counts = next(r for r in found if type(r) is LagrangianBound)
    left = [nodes // 4]  # then a guess climbed from, then the rest
    guessed = False

    def pause() -> bool:
        left[0] -= 1
        return left[0] < 0

    for solved in search(
        store.D, store, [*idxs, c], _fractional_first(counts, SELECTORS["leftmost"]), order,
        accept=lambda D: True, prune=Refuting(model, top - const, found), guide=_guide(found),
        split=split, pause=pause,
    ):  # fmt: skip
        if solved is not False:
            return True
        if guessed:
            return None  # out of nodes
        if _climbed(base, lp, top, idxs):
            return True
        guessed, left[0] = True, nodes - nodes // 4
    return False


def _climbed(store: FDStore, lp: LagrangianBound, top: int, idxs: list[int]) -> bool:
    """Whether ``lp``'s point, rounded and filled, or one its hill climb reaches, keeps its sum
    within ``top`` and is a solution over ``store``'s domains."""
    if not set(idxs) <= lp.cost.keys():
        return False  # a guess places the side's variables alone
    model = store.current()
    values = lp.rounded()
    while values is not None:
        if cost_of(lp.cost, values) <= top and _placed(store.D, values, model, idxs):
            return True
        values = lp.improved(values)
    return False


DECIDING = 16
"""The nodes, beside two for each variable, :func:`_decided` may spend before a labeling with
no objective: refuting a correlated knapsack's target took it 10 to 20 nodes, and finding a
packing that reaches it hundreds (the labeling's own search, cut by the LP, or the guess,
finds it sooner)."""

WAIT = 15
"""The most nodes between two LPs of a labeling with no objective (:class:`Refuting`): an LP
that cuts nothing doubles the wait, one that cuts sets it back to none."""

TRIAL, RARE = 64, 32
"""After :data:`TRIAL` LPs, a labeling with no objective solves no more if fewer than one in
:data:`RARE` cut (:class:`Refuting`): all 141,958 packings of 20 items and two rows worth at
least 90 % of half the values (40 cuts in 19,621 LPs) took 8.8-9.9 s with them to the end,
7.6-8.7 s so, and 6.5-8.8 s with none."""


class Refuting:
    """A search's prune that cuts the nodes where one of ``bounds`` puts its row's sum above
    ``top`` (see :func:`~relqueens.fd.relaxation.row_relaxations`), and narrows the variables
    by the reduced costs where it does not. An LP that cuts nothing is solved again only after
    :data:`WAIT` nodes at most, its last prices bounding those between; one that cuts too
    rarely (:data:`RARE`) is dropped."""

    __slots__ = ("bounds", "cuts", "model", "solved", "top", "wait", "waited")

    def __init__(self, model: Model, top: int, bounds: list[Relaxation]) -> None:
        self.model, self.top, self.bounds = model, top, bounds
        self.wait = self.waited = 0
        """The nodes the LP waits before it is solved again, and those waited."""
        self.solved = self.cuts = 0
        """The LPs solved, and those that cut."""

    def __call__(self, D: list[Dom]) -> bool:
        off, top = self.model.off, self.top
        queue: set[int] = set()
        for r in self.bounds:
            if type(r) is not LagrangianBound:
                b = r.bound(D, off, top)
            elif self.solved >= TRIAL and self.cuts * RARE < self.solved:
                continue  # dropped
            elif self.waited < self.wait:
                self.waited += 1
                b = r.repriced(D, off)
            else:
                b = r.bound(D, off, top)
                cut = b is INFEASIBLE or b > top
                self.solved, self.cuts = self.solved + 1, self.cuts + cut
                self.wait, self.waited = 0 if cut else min(2 * self.wait + 1, WAIT), 0
            if b is INFEASIBLE or b > top or not r.prune(D, off, top, queue):
                return False
        return not queue or fixpoint(D, queue, self.model)


def label(
    variables: Iterable[Any],
    *,
    select: str = "leftmost",
    order: str = "up",
    branching: str | None = None,
    minimize: object = None,
    maximize: object = None,
    trace: SearchTrace | None = None,
) -> Label:
    """A goal that assigns values to ``variables``, one answer per assignment.

    ``select``, ``order`` and ``branching`` choose the strategy (module
    docstring; ``branching`` by default ``step`` for ``min`` and ``max`` over
    bitsets, ``enum`` otherwise). With ``minimize=expr`` (or ``maximize=expr``) the answers
    come best first, so ``run(1, ...)`` is a proved optimum: the one branch
    and bound met first, then the others of that value in the labeling's
    order, and so on value by value. A
    :class:`~relqueens.fd.trace.SearchTrace` given as ``trace`` records the
    search tree.

    >>> from relqueens import run_all, vars, fd
    >>> x, y = vars(2)
    >>> run_all((x, y), fd.in_(x, y, fd.interval(1, 2)), x < y, fd.label([x, y]))
    ((1, 2),)
    >>> run_all((x, y), fd.in_(x, y, fd.interval(0, 3)), x + y == 3, fd.label([x, y], maximize=x - y))
    ((3, 0), (2, 1), (1, 2), (0, 3))
    """
    check_options(select, order, branching)
    variables = list(listed(variables, "label", "variables"))
    for v in variables:
        if not (isvar(v) or is_int(v)):
            raise TypeError(f"label takes logic variables (or integers), got {v!r}")
    objective = None
    if minimize is not None and maximize is not None:
        raise ValueError("label takes minimize= or maximize=, not both")
    for sense, expr in (("min", minimize), ("max", maximize)):
        if expr is not None:
            if not (isvar(expr) or isinstance(expr, (Lin, Relation))):
                raise TypeError(
                    f"{sense}imize takes an FD expression (such as x + 2*y), got {expr!r}"
                )
            objective = (sense, expr)
    return Label(variables, select, order, trace, branching, objective)


def minimize(expr: object, variables: Iterable[Any], **options: Any) -> Label:
    """Label ``variables`` best first by the smallest ``expr``: ``label(variables, minimize=expr)``.

    >>> from relqueens import run, vars, fd
    >>> x, y = vars(2)
    >>> run(1, (x, y), fd.in_(x, y, fd.interval(0, 9)), x + y >= 7, fd.minimize(2 * x + 3 * y, [x, y]))
    ((7, 0),)
    """
    return label(variables, minimize=expr, **options)


def maximize(expr: object, variables: Iterable[Any], **options: Any) -> Label:
    """Label ``variables`` best first by the largest ``expr``: ``label(variables, maximize=expr)``."""
    return label(variables, maximize=expr, **options)
