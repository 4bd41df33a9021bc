"""A record of labeling's search: one node per choice, what propagation did and why, how it ended.

Pass a :class:`SearchTrace` as ``trace=`` to ``fd.label``, ``run`` or
``queens`` and it fills in as the search runs (lazily, as answers are taken).

>>> from relqueens import queens
>>> t = SearchTrace()
>>> len(queens(4, trace=t)), t.counts()
(2, {'nodes': 8, 'failures': 4, 'solutions': 2})

Each choice also records which constraint removed which values
(:attr:`Node.pruned`), and for a dead end the variable whose domain emptied:

>>> from relqueens import fd, run_all, var
>>> x, y, z = var("x"), var("y"), var("z")
>>> t = SearchTrace()
>>> run_all((x, y, z), fd.in_(x, y, z, fd.interval(0, 2)), fd.distinct([x, y]), z == x + 1,
...         fd.label([x, y, z], trace=t))[0]
(0, 1, 1)
>>> first = t.nodes[1]                    # x = 0: z loses 2 and y loses 0, each for a reason
>>> first.var is x, first.value, first.pruned[z], first.pruned[y]
(True, 0, {2: ~z == ~x + 1}, {0: distinct([~x, ~y])})
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape
from typing import TYPE_CHECKING, Any, TypeAlias

from .domain import Dom, Domain, Wide, as_domain

if TYPE_CHECKING:
    from .propagators import Propagator
    from .store import Model

Narrowed: TypeAlias = "dict[Any, tuple[Domain | Wide | None, Domain | Wide]]"
"""``{var: (before, after)}``: the domains a choice's propagation narrowed (the root: ``(None, domain)``)."""
Removal: TypeAlias = "tuple[int | None, int, object]"
"""A watched propagator's log entry: ``(variable index, bits removed, cause)`` (``None``: it failed)."""

BRANCH, FAILED, SOLUTION = "branch", "failed", "solution"


@dataclass
class Node:
    """One node of the search tree.

    The root (``var is None``) holds the domains labeling started from; every
    other node is the choice ``var = value`` made under ``parent``, with the
    domains of the *other* variables that propagation then ``narrowed``
    (``{var: (before, after)}``), and its ``status``: ``branch``, ``failed``
    or ``solution``.

    ``pruned`` says why: ``{var: {value: constraint}}`` for each value that
    propagation removed from a (bitset) domain, with the constraint that
    removed it (as posted: a :class:`~relqueens.fd.Relation`, a ``Distinct``,
    ...; ``None`` if no constraint could be named). A failed node names the
    variable whose domain emptied in ``emptied`` (its last values are in
    ``pruned`` too) when one can be named, and the constraint that found the
    conflict in ``conflict``.
    """

    id: int
    parent: int | None
    var: Any
    value: int | Domain | Wide | None
    narrowed: Narrowed = field(default_factory=dict)
    status: str = BRANCH
    children: list[int] = field(default_factory=list)
    pruned: dict[Any, dict[int, object]] = field(default_factory=dict)
    emptied: Any = None
    conflict: Any = None


class _Watched:
    """A propagator that reports what each of its calls removes to a trace's log (all else is the propagator's)."""

    __slots__ = ("log", "p")

    def __init__(self, p: Propagator, log: list[Removal]) -> None:
        self.p, self.log = p, log

    def __getattr__(self, name: str) -> Any:
        return getattr(self.p, name)

    def propagate(self, D: list[Dom], off: list[int], queue: set[int], i: int) -> bool:
        before = D[:]
        ok = self.p.propagate(D, off, queue, i)
        source = getattr(self.p, "source", None)
        cause = self.p if source is None else source
        self.log.extend(
            (j, b & ~D[j], self._cause(j, cause))
            for j, b in enumerate(before)
            if type(b) is int and b != D[j]
        )
        if not ok:
            self.log.append((None, 0, cause))
        return ok

    def _cause(self, j: int, cause: object) -> object:
        """What narrowed ``j``: ``cause``, or for propagators gathered as one (with no source of
        their own) the first of them on ``j``, as posted."""
        members = getattr(self.p, "members", None) if cause is self.p else None
        found = next((m.source for m in members or () if j in m.vars), None)
        return cause if found is None else found


class _WatchedModel:
    """A model as ``fixpoint`` sees it, with every propagator watched; all else is the model's own.

    ``elim[j]`` lists ``(members, cj, constraint)`` for each value-elimination
    constraint on ``j`` (a ``!=`` or a ``distinct``: the terms ``x_i + c_i`` of
    ``members`` differ), which removes ``a + c_i - cj`` from ``j`` when member
    ``i`` is fixed to ``a``.
    """

    def __init__(self, model: Model, log: list[Removal]) -> None:
        self.model = model
        wrapped: dict[int, _Watched] = {}

        def watched(lists: list[list[Propagator]]) -> list[list[_Watched]]:
            return [[wrapped.setdefault(id(p), _Watched(p, log)) for p in ps] for ps in lists]

        self.watch, self.fixwatch = watched(model.watch), watched(model.fixwatch)
        self.boundwatch, self.slowwatch = watched(model.boundwatch), watched(model.slowwatch)
        self.supportwatch = [
            [(b, j, pos, wrapped.setdefault(id(p), _Watched(p, log))) for b, j, pos, p in ps]
            for ps in model.supportwatch
        ]
        self.hot = model.lists(
            self.watch, self.fixwatch, self.boundwatch, self.slowwatch, self.supportwatch
        )
        self.elim: list[list[tuple[Sequence[tuple[int, int]], int, object]]] = [
            [] for _ in model.vars
        ]
        for entry in model.props:
            if entry[0] == "ne":  # x != y + c: the terms x + 0 and y + c differ
                _, x, y, c, source = entry
                members: tuple[tuple[int, int], ...] = ((x, 0), (y, c))
            elif entry[0] == "distinct":
                _, members, source, _free = entry
            else:
                continue
            for j, cj in members:
                self.elim[j].append((members, cj, source))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.model, name)

    def eliminated_by(self, D: list[Dom], j: int, value: int) -> tuple[bool, object]:
        """``(True, constraint)`` if a member fixed in ``D`` rules ``value`` out of ``j`` by value elimination."""
        off = self.model.off
        for members, cj, source in self.elim[j]:
            for i, ci in members:
                d = D[i]
                if (
                    i != j
                    and type(d) is int
                    and not d & (d - 1)
                    and off[i] + d.bit_length() - 1 + ci - cj == value
                ):
                    return True, source
        return False, None


class SearchTrace:
    """The nodes of one or more labeling searches, in the order they were visited.

    In Jupyter it shows its counts and its first choices as tables:

    >>> from relqueens import queens
    >>> t = SearchTrace()
    >>> _ = queens(4, trace=t)
    >>> t, t._repr_html_().count("<tr>")
    (SearchTrace(nodes=8, failures=4, solutions=2), 12)
    """

    def __init__(self) -> None:
        self.nodes: list[Node] = []
        self.given: dict[Any, int] = {}
        """The labeled variables bound to values before the search, for the next root: it shows
        each, unless an FD variable of its own, with its value as its domain."""
        self._log: list[Removal] = []
        self._views: dict[int, tuple[Model, int, _WatchedModel]] = {}

    def root(self, variables: list[Any], D: list[Dom], off: list[int]) -> int:
        """Record a search starting from domains ``D``; return the root's id."""
        node = Node(len(self.nodes), None, None, None)
        node.narrowed = {v: (None, as_domain(d, o)) for v, d, o in zip(variables, D, off)}
        given, self.given = self.given, {}
        for v, value in given.items():
            node.narrowed.setdefault(v, (None, as_domain(1, value)))
        self.nodes.append(node)
        return node.id

    def choice(
        self,
        parent: int,
        var: Any,
        value: int | Domain | Wide,
        narrowed: Narrowed,
        status: str,
    ) -> int:
        """Record the choice ``var = value`` under node ``parent``; return its id."""
        node = Node(len(self.nodes), parent, var, value, narrowed, status)
        self.nodes.append(node)
        self.nodes[parent].children.append(node.id)
        return node.id

    def watching(self, model: Model) -> _WatchedModel:
        """``model`` for ``fixpoint`` to run on while this trace listens: its propagators log their removals.

        The search passes this instead of the model for the fixpoint after
        each choice, then :meth:`explain` turns the log into the node's causes.
        """
        # A model grown in place since its view was made (an answer posted more) gets a new view.
        seen = self._views.get(id(model))
        if seen is None or seen[0] is not model or seen[1] != len(model.log):
            seen = self._views[id(model)] = (model, len(model.log), _WatchedModel(model, self._log))
        return seen[2]

    def explain(self, node_id: int, model: Model, before: list[Dom], after: list[Dom]) -> None:
        """Fill in ``pruned``, ``emptied`` and ``conflict`` of a node: propagation took ``before`` to ``after``.

        What a watched propagator removed is its own; every other removal was
        value elimination, credited to a ``!=`` or ``distinct`` with a member
        fixed in ``after`` that rules the value out (domains only shrink, so
        the member that did it is still fixed).
        """
        view, node = self.watching(model), self.nodes[node_id]
        vars_, off, private = model.vars, model.off, model.private
        chosen = model.index.get(node.var)
        gone = [0] * len(after)
        for j, bits, cause in self._log:
            if j is None:
                node.conflict = cause
            elif j not in private:
                gone[j] |= bits
                for value in Domain(bits, off[j]):
                    node.pruned.setdefault(vars_[j], {})[value] = cause
        self._log.clear()
        for j, (b, a) in enumerate(zip(before, after)):
            if j != chosen and j not in private and type(b) is int and b != a:
                for value in Domain(b & ~a & ~gone[j], off[j]):
                    node.pruned.setdefault(vars_[j], {})[value] = view.eliminated_by(
                        after, j, value
                    )[1]
        if node.status == FAILED and node.conflict is None:
            self._find_emptied(node, view, after, chosen)

    @staticmethod
    def _find_emptied(node: Node, view: _WatchedModel, D: list[Dom], chosen: int | None) -> None:
        """Name the variable value elimination emptied: every value it has left is ruled out by a fixed member.

        The chosen variable is named last: when its value and another's clash,
        the other is the one the choice left without a value.
        """
        model = view.model
        for j in sorted(range(len(D)), key=lambda j: j == chosen):
            d = D[j]
            if j in model.private or type(d) is not int:
                continue
            why = [view.eliminated_by(D, j, value) for value in Domain(d, model.off[j])]
            if all(found for found, _ in why):
                node.emptied, node.conflict = model.vars[j], why[-1][1]
                last = node.pruned.setdefault(node.emptied, {})
                last.update(
                    (value, cause) for value, (_, cause) in zip(Domain(d, model.off[j]), why)
                )
                return

    def counts(self) -> dict[str, int]:
        """How many choice nodes were visited, how many failed, how many were solutions."""
        choices = [n for n in self.nodes if n.parent is not None]
        return {
            "nodes": len(choices),
            "failures": sum(n.status == FAILED for n in choices),
            "solutions": sum(n.status == SOLUTION for n in self.nodes),
        }

    def roots(self) -> list[Node]:
        """The root node of each search recorded."""
        return [n for n in self.nodes if n.parent is None]

    def __repr__(self) -> str:
        return f"SearchTrace({', '.join(f'{k}={v}' for k, v in self.counts().items())})"

    def _repr_html_(self) -> str:
        c = self.counts()
        rows = "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in c.items())
        shown = [n for n in self.nodes if n.parent is not None][:12]
        steps = "".join(
            f"<tr><td>{n.id}</td><td>{escape(f'{n.var} = {n.value}')}</td><td>{n.status}</td>"
            f"<td>{sum(len(v) for v in n.pruned.values())}</td></tr>"
            for n in shown
        )
        more = len(self.nodes) - len(self.roots()) - len(shown)
        tail = f"<p>... and {more} more choices</p>" if more > 0 else ""
        return (
            f"<div><b>SearchTrace</b>: {len(self.roots())} search(es)<table>{rows}</table>"
            "<table><tr><th>node</th><th>choice</th><th>status</th><th>values pruned</th></tr>"
            f"{steps}</table>{tail}</div>"
        )
