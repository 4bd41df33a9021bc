"""The FD constraint store that lives inside kanren's ``ConstrainedState``.

A store is three things:

* a :class:`Model` — the FD variables and the propagators attached to them,
  indexed by variable number. Models grow by appending to a log and are
  shared between states: a store that is behind the model's head (because a
  sibling branch posted more) replays the log up to its own version before it
  is used, so branches never see each other's constraints and posting stays
  linear in the number of constraints;
* ``D``, the list of domain bitsets, copied per state (kanren's issue #12);
* ``pending``, constraints that wait for one of their variables to get a
  domain (so constraints may be posted before ``fd.in_``).

kanren calls :meth:`FDStore.post_unify_check` after every unification: the
store finds the variables the unification bound (the new keys of the
substitution), checks and fixes their domains, propagates, and binds every
variable that propagation fixed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import islice
from typing import TYPE_CHECKING, Any, TypeVar

from kanren.constraints import ConstraintStore
from unification import Var

from ..logic.state import State, Subst, as_state, isvar, walk
from .domain import Dom, Domain, Wide, as_domain, shown
from .propagators import DEFER, QUEUE, EqOffset, Gathered, Lined, Propagator, Scanned

if TYPE_CHECKING:
    from .post import Constraint
    from .propagators import Hot, Wakes, Woken
    from .terms import Relation

Entry = tuple[Any, ...]
"""A model log entry: ``("var", vs, offset, private)`` (variables ``vs``, numbered in order),
``("alias", v, i)``, ``("rebase", i, offset)``, ``("ne", x, y, c, source)``, ``("distinct",
members, source, free)`` (value elimination among the ``free`` members: the others were fixed
when it was posted) or ``("prop", propagator)``."""
Row = tuple["Sequence[tuple[int, int]] | Lined", int]
"""A value elimination row ``(members, ci)`` (see :class:`Model`)."""


def is_int(value: object) -> bool:
    """True for an ``int`` that is not a ``bool``."""
    return isinstance(value, int) and not isinstance(value, bool)


_P = TypeVar("_P", bound=Propagator)


class Model:
    """FD variables and propagators, built from an append-only log.

    Value elimination is indexed for the hot loop. ``masks[i]`` maps each
    variable ``j`` that a pairwise ``!=`` or a ``distinct`` group of up to
    ``EXPAND`` terms (``TIE`` if their values do not line up) ties to ``i``
    to a bitset ``t``: when ``i`` is fixed at
    bit ``b`` of its domain, the bits ``(t << b) >> reach[i]`` leave ``D[j]``
    (all of ``j``'s constraints with ``i`` in one step); ``cuts[i][b]`` keeps
    those bits per ``j``, once worked out twice (``once[i]``: the bits
    worked out once; up to ``CACHE`` entries in all).
    ``links[i]`` counts the ties (each other member of each group). ``rows[i]`` lists
    ``(members, ci)`` for the rest: when ``i`` is fixed to ``a``, bit
    ``a + ci - k`` leaves ``D[j]`` for each other member ``(j, k)`` (``k``
    folds in ``j``'s offset). A larger ``distinct`` group whose members'
    values line up (no offsets, one domain base) is one shared
    :class:`~relqueens.fd.propagators.Lined` row: bit ``a + ci`` leaves each
    other member; other large groups are one shared row each, and ties whose
    offsets lie more than ``SPAN`` apart are pairs in a row of their own.
    ``plain[i]``: ``i`` has no rows and no propagators but fix-woken and slow ones.
    ``supportwatch[x]`` lists ``(b, j, p, prop)``: ``prop`` wakes when ``x``
    has lost bit ``b`` while ``j`` still has bit ``p`` (a value's support, see
    :meth:`~relqueens.fd.propagators.Propagator.supports`; those a
    propagator's ``scan`` takes are checked together instead, by one
    :class:`~relqueens.fd.propagators.Scanned` in ``watch[x]``); ``eager[x]``
    says whether any change of ``x`` wakes something (``watch`` or
    ``supportwatch``: :data:`~relqueens.fd.propagators.QUEUE`), so value elimination
    queues it, or only slow propagators that do (``DEFER``: value elimination wakes them
    without queueing ``x``). ``by_type`` lists the
    propagators of each class in posting order, for posting rules that look
    for earlier constraints of a kind (see :meth:`posted`); ``defined[x]``
    is ``(y, c)`` for the last ``x == y + c`` posted.
    """

    __slots__ = (
        "analyses",
        "boundwatch",
        "by_type",
        "cached",
        "cuts",
        "defined",
        "degrees",
        "eager",
        "far",
        "fixwatch",
        "gathered",
        "groups",
        "hot",
        "index",
        "links",
        "log",
        "masks",
        "off",
        "once",
        "plain",
        "private",
        "props",
        "reach",
        "rows",
        "slowwatch",
        "supportwatch",
        "vars",
        "watch",
    )
    EXPAND = 32
    TIE = 128
    SPAN = 256
    CACHE = 250_000

    def __init__(self) -> None:
        self.log: list[Entry] = []
        self.vars: list[Var] = []
        self.index: dict[Var, int] = {}
        self.off: list[int] = []
        self.masks: list[dict[int, int]] = []
        self.reach: list[int] = []
        self.cuts: list[dict[int, list[tuple[int, int]]]] = []
        self.cached = 0
        self.once: list[set[int]] = []
        self.links: list[int] = []
        self.plain: list[bool] = []
        self.far: dict[int, list[tuple[int, int]]] = {}
        self.rows: list[list[Row]] = []
        self.watch: list[list[Propagator]] = []
        self.fixwatch: list[list[Propagator]] = []
        self.boundwatch: list[list[Propagator]] = []
        self.slowwatch: list[list[Propagator]] = []
        self.supportwatch: list[list[tuple[int, int, int, Propagator]]] = []
        self.eager: list[int] = []
        self.props: list[Entry] = []
        self.by_type: dict[type, list[Propagator]] = {}
        self.defined: dict[int, tuple[int, int]] = {}
        self.private: set[int] = set()
        self.groups: set[frozenset[tuple[int, int]]] = set()
        self.gathered: dict[tuple[int, type[Gathered]], Gathered] = {}
        """The :class:`~relqueens.fd.propagators.Gathered` propagators by variable and kind."""
        self.degrees: list[int] | None = None
        """Each variable's degree, for ``ffc`` (worked out when first asked, forgotten by any entry)."""
        self.analyses: dict[tuple[Any, ...], Any] = {}
        """What the analyses when a labeling starts found (:func:`~relqueens.fd.labeling.creeping`,
        :func:`~relqueens.fd.labeling.with_equalities`), by analysis, the log's length and the
        domains: one query's answers ask again and again."""
        self.hot = self.lists(
            self.watch, self.fixwatch, self.boundwatch, self.slowwatch, self.supportwatch
        )

    def posted(self, kind: type[_P]) -> list[_P]:
        """The propagators of class ``kind`` (exactly, not its subclasses), in posting order."""
        return self.by_type.get(kind, [])  # type: ignore[return-value]  # filed by their class

    @classmethod
    def replay(cls, log: list[Entry]) -> Model:
        """A fresh model holding the effect of ``log``."""
        model = cls()
        for entry in log:
            model.apply(entry)
        return model

    def apply(self, entry: Entry) -> None:
        """Record ``entry`` in the log and index it."""
        self.log.append(entry)
        self.degrees = None
        kind = entry[0]
        off = self.off
        if kind == "prop":  # the most common, then "ne" and "var"
            p = entry[1]
            if p.on_fix:
                lists = self.fixwatch
            elif p.slow:
                lists = self.slowwatch
            else:
                lists = self.boundwatch if p.on_bounds else self.watch
            vs, first = set(p.vars), p.vars[0]
            if p.gather is None and not p.supported:  # the common case: each variable wakes it
                for i in vs:
                    lists[i].append(p)
            else:
                for i in vs:
                    if p.gather is not None and i == first:
                        group = self.gathered.get((i, p.gather))
                        if group is None:
                            group = self.gathered[i, p.gather] = p.gather(i)
                            lists[i].append(group)
                        group.members.append(p)
                    elif not p.supported or i == first:
                        lists[i].append(p)
            if lists is self.watch:
                for i in vs:
                    self.eager[i] = QUEUE
            elif lists is self.slowwatch and not (p.queued_only or p.on_bounds):
                for i in vs:
                    self.eager[i] = self.eager[i] or DEFER
            if lists is self.watch or lists is self.boundwatch:
                for i in vs:
                    self.plain[i] = False
            for x, b, j, pos in p.supports(off):
                if p.scan is None or not self.scanned(x, p.scan).take(b, j, pos, p):
                    self.supportwatch[x].append((b, j, pos, p))
                self.eager[x] = QUEUE
                self.plain[x] = False
            self.props.append(entry)
            self.by_type.setdefault(type(p), []).append(p)
            if type(p) is EqOffset:
                self.defined[p.x] = (p.y, p.c)
        elif kind == "ne":  # x != y + c
            _, x, y, c, _source = entry
            self.pair(x, y, off[x] - off[y] - c)
            self.props.append(entry)
        elif kind == "var":  # variables of one offset, numbered in order
            _, vs, o, private = entry
            first, n = len(self.vars), len(vs)
            numbers = range(first, first + n)
            if private:
                self.private.update(numbers)
            self.index.update(zip(vs, numbers))
            self.vars.extend(vs)
            off.extend([o] * n)
            self.reach.extend([0] * n)
            self.links.extend([0] * n)
            self.plain.extend([True] * n)
            self.eager.extend([0] * n)
            self.masks.extend([{} for _ in numbers])
            self.cuts.extend([{} for _ in numbers])
            self.once.extend([set() for _ in numbers])
            per_var: tuple[list[list[Any]], ...] = (
                self.rows,
                self.watch,
                self.fixwatch,
                self.boundwatch,
                self.slowwatch,
                self.supportwatch,
            )
            for each in per_var:
                each.extend([[] for _ in numbers])
        elif kind == "distinct":
            _, stated, _source, members = entry
            key = frozenset(stated)
            if key in self.groups:
                return  # the same group again (e.g. a permutation stated twice): nothing new
            self.groups.add(key)
            k = None  # the open members' common base, if their values line up
            if members:
                j0, c0 = members[0]
                k = c0 + off[j0]
                for j, cj in members:  # a loop, not a set: most groups are small
                    if cj + off[j] != k:
                        k = None
                        break
            if k is not None and len(members) <= self.EXPAND:  # one bit from each other member
                self.line(members, [j for j, _ in members], k)
            elif k is None and len(members) <= self.TIE:
                for i, ci in members:
                    self.tie(i, [(j, cj - ci + off[j]) for j, cj in members])
            elif k is not None:  # the values line up: one bit per member
                lined = Lined(j for j, _ in members)
                for i, ci in members:
                    self.rows[i].append((lined, ci - k))
                    self.plain[i] = False
            else:
                shifted = tuple((j, cj + off[j]) for j, cj in members)
                for i, ci in members:
                    self.rows[i].append((shifted, ci))
                    self.plain[i] = False
            if len(stated) > len(members):  # the members fixed when it was posted: ties (ffc)
                for i, _ in members:
                    self.links[i] += len(stated) - len(members)
            self.props.append(entry)
        elif kind == "alias":
            _, v, i = entry
            self.index[v] = i
        else:  # "rebase": a Wide variable's domain is a bitset from now on
            _, i, o = entry
            off[i] = o

    def scanned(self, x: int, kind: type[Scanned]) -> Scanned:
        """The :class:`~relqueens.fd.propagators.Scanned` of ``kind`` on ``x`` (made and put in ``watch[x]`` if new)."""
        group = self.gathered.get((x, kind))
        if group is None:
            group = self.gathered[x, kind] = kind(x)
            self.watch[x].append(group)
        return group  # type: ignore[return-value]  # filed under its kind

    def lists(
        self,
        watch: Wakes,
        fixwatch: Wakes,
        boundwatch: Wakes,
        slowwatch: Wakes,
        supportwatch: Sequence[Sequence[tuple[int, int, int, Woken]]],
        plain: list[bool] | None = None,
    ) -> Hot:
        """What :func:`~relqueens.fd.propagators.fixpoint` reads, in one tuple (its lists grow
        in place), with these wake lists (the model's own, a trace's watched ones, or a
        neighbourhood's with precedences added) and ``plain`` flags (default: the model's)."""
        return (
            self.off,
            self.rows,
            self.masks,
            self.cuts,
            self.plain if plain is None else plain,
            self.eager,
            watch,
            fixwatch,
            boundwatch,
            slowwatch,
            supportwatch,
        )

    def cut(self, i: int, b: int) -> list[tuple[int, int]]:
        """``(j, bits)`` for each ``j`` that loses ``bits`` when ``i`` is fixed at bit ``b``.

        Kept from the second time it is asked for (up to ``CACHE`` entries in
        all): most values of a Sudoku are fixed once.
        """
        r, masks = self.reach[i], self.masks[i]
        cut = [(j, m) for j, t in masks.items() if (m := (t << b) >> r)]
        if b not in self.once[i]:
            self.once[i].add(b)
        elif self.cached < self.CACHE:
            self.cached += len(cut) + 1
            self.cuts[i][b] = cut
        return cut

    def line(self, members: Sequence[tuple[int, int]], js: list[int], k: int) -> None:
        """:meth:`tie` each ``x_i + c_i`` of ``members`` to each other ``j`` of ``js``, whose values
        line up with it (``off[j]`` is ``k`` for each, ``off[i] + c_i - k`` shifts): one bit each (fast)."""
        n = len(js) - 1
        off, reach, links, cuts, span = self.off, self.reach, self.links, self.cuts, self.SPAN
        for i, ci in members:
            r = off[i] + ci - k
            if not -span <= r <= span:
                self.tie(i, [(j, off[i] - r) for j in js])
                continue
            links[i] += n
            if r + reach[i] < 0:
                self.grow(i, r)
            bit = 1 << (r + reach[i])
            masks = self.masks[i]
            if masks:
                for j in js:  # a plain loop: faster than update(zip(...)) at every size measured
                    if j in masks:
                        masks[j] |= bit
                    else:
                        masks[j] = bit
            else:
                masks = self.masks[i] = dict.fromkeys(js, bit)
            del masks[i]  # among js: not tied to itself
            if cuts[i]:
                cuts[i] = {}

    def pair(self, x: int, y: int, r: int) -> None:
        """Tie ``x`` and ``y`` to each other alone (``x != y + c``, ``r`` its ``off[x] - off[y] - c``): fast."""
        if x == y or not -self.SPAN <= r <= self.SPAN:
            self.tie(x, ((y, self.off[x] - r),))
            self.tie(y, ((x, self.off[y] + r),))
            return
        links, reach, cuts = self.links, self.reach, self.cuts
        for i, j, b in ((x, y, r), (y, x, -r)):
            links[i] += 1
            if b + reach[i] < 0:
                self.grow(i, b)
            masks = self.masks[i]
            masks[j] = masks.get(j, 0) | 1 << (b + reach[i])
            if cuts[i]:
                cuts[i] = {}

    def grow(self, i: int, r: int) -> None:
        """Shift ``i``'s masks up so that bit ``r`` fits (doubling: few shifts when ties come one by one)."""
        reach = self.reach[i]
        if r + reach < 0:
            grow = max(-r, 2 * reach) - reach
            masks = self.masks[i]
            for x in masks:
                masks[x] <<= grow
            self.reach[i] = reach + grow

    def tie(self, i: int, ties: Iterable[tuple[int, int]]) -> None:
        """Once ``i`` is fixed to ``a``, ``D[j]`` loses bit ``a - k``, for each ``(j, k)`` (see :class:`Model`)."""
        oi, span = self.off[i], self.SPAN
        near: list[tuple[int, int]] = []
        far: list[tuple[int, int]] = []  # a mask this wide would cost every fix of i
        for j, k in ties:
            if j != i:  # x != x + c: posting decided it
                (near if -span <= oi - k <= span else far).append((j, k))
        self.links[i] += len(near) + len(far)
        if far:
            if i not in self.far:
                self.far[i] = []
                self.rows[i].append((self.far[i], 0))
                self.plain[i] = False
            self.far[i] += far
        if near:
            self.grow(i, oi - max(k for _, k in near))  # the lowest bit j loses must fit
            masks, shift = self.masks[i], oi + self.reach[i]
            for j, k in near:
                masks[j] = masks.get(j, 0) | 1 << (shift - k)
            if self.cuts[i]:
                self.cuts[i] = {}


class FDStore(ConstraintStore):
    """kanren constraint store holding FD domains and propagators."""

    __slots__ = ("D", "model", "pending", "pre_len", "version")
    op_str = "fd"

    def __init__(
        self,
        model: Model | None = None,
        version: int = 0,
        D: list[Dom] | None = None,
        pending: dict[Var, tuple[Constraint | Relation, ...]] | None = None,
    ) -> None:
        self.lvar_constraints = {}
        self.model = Model() if model is None else model
        self.version = version
        self.D: list[Dom] = [] if D is None else D
        self.pending: dict[Var, tuple[Constraint | Relation, ...]] = (
            {} if pending is None else pending
        )
        self.pre_len: int | None = None

    def copy(self) -> FDStore:
        new = FDStore(self.model, self.version, self.D[:], self.pending)
        new.pre_len = self.pre_len
        return new

    # -- the model -------------------------------------------------------
    def current(self) -> Model:
        """The model as of this store's version (replayed if a sibling moved on)."""
        m = self.model
        if len(m.log) != self.version:
            m = self.model = Model.replay(m.log[: self.version])
        return m

    def record(self, entry: Entry) -> None:
        """Append ``entry`` to this store's model."""
        m = self.current()
        m.apply(entry)
        self.version = len(m.log)

    def register(self, v: Var, bits: Dom, o: int, private: bool = False) -> int:
        """Make ``v`` an FD variable with domain bitset ``bits`` at offset ``o``.

        A ``private`` variable (a propagator's state, a constant's stand-in) is
        never labeled, bound or shown.
        """
        return self.register_all((v,), bits, o, private)

    def register_all(self, vs: Sequence[Var], bits: Dom, o: int, private: bool = False) -> int:
        """:meth:`register` each of ``vs`` (distinct variables), all with domain ``bits`` at offset
        ``o``, in one log entry; the index of the first."""
        self.record(("var", tuple(vs), o, private))
        first = len(self.D)
        self.D.extend([bits] * len(vs))
        return first

    def index_of(self, v: Var) -> int | None:
        """The index of FD variable ``v`` (``None`` if it has no domain here)."""
        return self.current().index.get(v)

    def domain(self, v: Var) -> Domain | Wide | None:
        """The current domain of ``v``, or ``None`` if it has none."""
        i = self.index_of(v)
        return None if i is None else shown(self.D[i], self.model.off[i])

    # -- kanren's hooks --------------------------------------------------
    def pre_unify_check(self, lvar_map: Subst, lvar: Any = None, value: Any = None) -> bool:
        self.pre_len = len(lvar_map)
        return True

    def post_unify_check(
        self, lvar_map: Subst, lvar: Any = None, value: Any = None, old_state: State | None = None
    ) -> bool:
        n0, self.pre_len = self.pre_len, None
        if n0 is None or len(lvar_map) <= n0:
            return True
        from .post import Posting

        keys = list(islice(reversed(lvar_map), len(lvar_map) - n0))
        extra = False
        while keys:
            posting = Posting(self, lvar_map)
            if not posting.bound(keys):
                return False
            keys = []
            for v, val in posting.bindings:
                w = walk(v, lvar_map)
                if isvar(w):
                    lvar_map[w] = val
                    old_state.data[w] = val  # type: ignore[union-attr]  # kanren passes the state
                    keys.append(w)
                    extra = True
                elif w != val:
                    return False
        if not extra:
            return True
        # Propagation fixed more variables and bound them: the other stores
        # must see those bindings too.
        return all(
            store.post_unify_check(lvar_map, None, None, old_state)
            for store in old_state.constraints.values()  # type: ignore[union-attr]  # as above
            if store is not self
        )

    def take_disequality(self, S: State, ext: Subst) -> bool | None:
        """Post the disequality ``ext`` (one binding) as FD ``!=`` if it is between FD terms.

        ``None`` if it is not this store's to keep (the term store keeps it).
        """
        if len(ext) != 1:
            return None
        ((v, t),) = ext.items()
        t = walk(t, S.data)
        i, j = self.index_of(v), self.index_of(t) if isvar(t) else None
        if i is None and j is None:
            return None
        other = t if i is not None else v
        if not (isvar(other) or is_int(other)):
            return True  # an FD variable is never equal to a non-integer
        if isvar(other) and (i is None or j is None):
            return None  # the other side has no domain (yet)
        from .post import post_into
        from .terms import Relation

        return post_into(S, (Relation("!=", v, t),))

    # -- display and comparison ------------------------------------------
    def __contains__(self, lvar: object) -> bool:
        return self.index_of(lvar) is not None

    def constraints_str(self, lvar: Var) -> str:
        d = self.domain(lvar)
        return "" if d is None else f"in {d}"

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is FDStore
            and self.D == other.D
            and self.model.log[: self.version] == other.model.log[: other.version]
            and self.pending == other.pending
        )

    __hash__ = None  # type: ignore[assignment]  # mutable, so unhashable

    def __repr__(self) -> str:
        m = self.current()
        doms = ", ".join(f"{v} in {as_domain(d, o)}" for v, d, o in zip(m.vars, self.D, m.off))
        return f"FDStore({doms})"


def fd_state(S: object = None) -> State:
    """A new state like ``S`` (copied, or empty) that has an :class:`FDStore`."""
    S = State() if S is None else as_state(S).copy()
    if FDStore not in S.constraints:
        S.constraints[FDStore] = FDStore()
    return S


def owned_store(S: State) -> FDStore:
    """The FD store of state ``S`` (which the caller owns), made if it has none."""
    store = S.constraints.get(FDStore)
    if store is None:
        store = S.constraints[FDStore] = FDStore()
    return store


def store_of(S: object) -> FDStore | None:
    """The FD store of state ``S``, if it has one."""
    constraints: dict[Any, Any] | None = getattr(S, "constraints", None)
    return None if constraints is None else constraints.get(FDStore)


def alias(store: FDStore, i: int, target: Var, queue: set[int]) -> bool:
    """FD variable ``i`` was bound to the free variable ``target``: carry its domain over;
    ``False`` if the two were kept apart (``x != y``, or both in a ``distinct`` group), which
    propagation alone would leave to a labeling (and a residual answer would hide)."""
    j = store.index_of(target)
    if j is None:
        store.record(("alias", target, i))
    elif j != i:
        if apart(store.current(), store.D, i, j):
            return False
        store.record(("prop", EqOffset(i, j, 0, source=(store.model.vars[i], target))))
        queue.update((i, j))
    return True


def apart(model: Model, D: list[Dom], i: int, j: int) -> bool:
    """Whether ``model`` rules out ``x_i == x_j`` by a constraint between the two alone: a
    ``!=`` (over bitsets or bounds), a ``distinct`` group that holds both with one offset, or
    ``x_i + c op x_j`` (``x_i < x_j``, ``x_i == x_j + 1``), which bounds reasoning over wide
    domains would refute only a value at a time: a row or a sum ``!=`` of
    :meth:`~relqueens.fd.propagators.Propagator.relaxed` in domains ``D`` whose terms cancel once
    ``x_i == x_j``, with a constant that fails."""
    for entry in model.props:
        if entry[0] == "ne":
            _, x, y, c, _source = entry
            if c == 0 and {x, y} == {i, j}:
                return True
        elif entry[0] == "distinct":
            terms = set(entry[1])
            if any((j, c) in terms for x, c in terms if x == i):
                return True
        elif i in (p := entry[1]).vars and j in p.vars:
            rows, differ = p.relaxed(D, model.off)  # sum(a_v * x_v) + k <= 0, and != 0
            pair = {i, j}
            if any(k > 0 and _cancel(a, pair) for a, k in rows) or any(
                k == 0 and _cancel(a, pair) for a, k in differ
            ):
                return True
    return False


def _cancel(a: dict[int, int], pair: set[int]) -> bool:
    """Whether the terms ``a`` cancel once the two variables of ``pair`` are one."""
    i, j = pair
    return a.keys() <= pair and a.get(i, 0) + a.get(j, 0) == 0
