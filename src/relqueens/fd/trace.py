"""A record of labeling's search: one node per choice, what propagation did, how it ended.

Pass a :class:`SearchTrace` as ``trace=`` to ``fd.label``, ``run`` or
``queens`` and it fills in as the search runs (lazily, as answers are taken).

>>> from relqueens import queens
>>> t = SearchTrace()
>>> len(queens(4, trace=t)), t.counts()
(2, {'nodes': 8, 'failures': 4, 'solutions': 2})
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .domain import Domain

BRANCH, FAILED, SOLUTION = "branch", "failed", "solution"


@dataclass
class Node:
    """One node of the search tree.

    The root (``var is None``) holds the domains labeling started from; every
    other node is the choice ``var = value`` made under ``parent``, with the
    domains of the *other* variables that propagation then ``narrowed``
    (``{var: (before, after)}``), and its ``status``: ``branch``, ``failed``
    or ``solution``.
    """

    id: int
    parent: int | None
    var: Any
    value: int | None
    narrowed: dict = field(default_factory=dict)
    status: str = BRANCH
    children: list[int] = field(default_factory=list)


class SearchTrace:
    """The nodes of one or more labeling searches, in the order they were visited."""

    def __init__(self) -> None:
        self.nodes: list[Node] = []

    def root(self, variables: list, D: list[int], off: list[int]) -> int:
        """Record a search starting from domains ``D``; return the root's id."""
        node = Node(len(self.nodes), None, None, None)
        node.narrowed = {v: (None, Domain(d, o)) for v, d, o in zip(variables, D, off)}
        self.nodes.append(node)
        return node.id

    def choice(self, parent: int, var: Any, value: int, narrowed: dict, status: str) -> int:
        """Record the choice ``var = value`` under node ``parent``; return its id."""
        node = Node(len(self.nodes), parent, var, value, narrowed, status)
        self.nodes.append(node)
        self.nodes[parent].children.append(node.id)
        return node.id

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
