"""The problems of the tabling suite, their data and the answers they must give."""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    """A query over facts: ``closure`` (all pairs ``path(x, y)``) or ``join`` (``grandparent(x, z)``)."""

    name: str
    kind: str
    size: int
    title: str

    def facts(self) -> list[tuple[int, int]]:
        """The edges (closure) or the (parent, child) facts (join)."""
        return cyclic_graph(self.size) if self.kind == "closure" else family(self.size)


def cyclic_graph(n: int, seed: int = 13) -> list[tuple[int, int]]:
    """``2n`` edges on nodes ``0..n-1``: a ring (so every node reaches every node) and ``n`` random chords."""
    rng = random.Random(seed)
    edges = {(i, (i + 1) % n) for i in range(n)}
    while len(edges) < 2 * n:
        edges.add((rng.randrange(n), rng.randrange(n)))
    return sorted(edges)


def family(n: int, seed: int = 7) -> list[tuple[int, int]]:
    """``n`` (parent, child) facts: a random forest, each of the children ``1..n`` with one parent below it."""
    rng = random.Random(seed)
    return [(rng.randrange(child), child) for child in range(1, n + 1)]


def successors(pairs: list[tuple[int, int]]) -> dict[int, list[int]]:
    """The lists of successors (or children) of each node."""
    out: dict[int, list[int]] = {}
    for a, b in pairs:
        out.setdefault(a, []).append(b)
    return out


def bfs_closure(edges: list[tuple[int, int]]) -> set[tuple[int, int]]:
    """All pairs ``(x, y)`` with a path from x to y: a breadth-first search from every node."""
    succ = successors(edges)
    pairs = set()
    for source in succ:
        seen = set(succ[source])
        queue = deque(seen)
        while queue:
            for v in succ.get(queue.popleft(), ()):
                if v not in seen:
                    seen.add(v)
                    queue.append(v)
        pairs.update((source, v) for v in seen)
    return pairs


def fixpoint_closure(edges: list[tuple[int, int]]) -> set[tuple[int, int]]:
    """The same pairs as the semi-naive fixpoint computes them: each round joins only the new pairs."""
    succ = successors(edges)
    pairs = set(edges)
    new = pairs
    while new:
        new = {(x, y) for x, z in new for y in succ.get(z, ())} - pairs
        pairs |= new
    return pairs


def join(parents: list[tuple[int, int]]) -> set[tuple[int, int]]:
    """All (grandparent, grandchild) pairs, by a dictionary join."""
    children = successors(parents)
    return {(g, c) for g, p in parents for c in children.get(p, ())}


def expected(problem: Problem) -> set[tuple[int, int]]:
    """The answers every contender must give, as plain Python computes them."""
    data = problem.facts()
    return bfs_closure(data) if problem.kind == "closure" else join(data)


PROBLEMS = {
    p.name: p
    for p in (
        Problem(
            "closure-200", "closure", 200, "path(x, y): 200 nodes, 400 edges, cycles (40,000 pairs)"
        ),
        Problem("join-20000", "join", 20_000, "grandparent(x, z) over 20,000 parent facts"),
        Problem("closure-50", "closure", 50, "path(x, y): 50 nodes, 100 edges (2,500 pairs)"),
        Problem("join-2000", "join", 2_000, "grandparent(x, z) over 2,000 parent facts"),
    )
}
FULL = ("closure-200", "join-20000")
QUICK = ("closure-50", "join-2000")
