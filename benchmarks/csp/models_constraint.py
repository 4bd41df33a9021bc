"""python-constraint's models of the CSP problems (``pip install python-constraint2``).

The models state relqueens' constraints with the library's own
(``AllDifferentConstraint``, ``ExactSumConstraint``/``MaxSumConstraint`` with
multipliers) and plain functions for the rest (``FunctionConstraint``); the
search is the library's default solver. It has no optimisation, so a
``minimize``/``maximize`` problem is solved again, each time bounded to beat
the best objective so far (that of the last solution, by the problem's own
objective function), until no solution is left: the last one found is the
optimum, proved. It has no circuit constraint: no TSP model.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise

from constraint import (
    AllDifferentConstraint,
    ExactSumConstraint,
    FunctionConstraint,
    MaxSumConstraint,
    MinSumConstraint,
)
from constraint import Problem as CSP

from .problems import Problem, frenicle_pairs, magic_lines, sudoku_units


def _names(prefix: str, count: int) -> list[str]:
    return [f"{prefix}{i}" for i in range(count)]


def _less(a: int, b: int) -> bool:
    return a < b


def _answers(problem: Problem, csp: CSP, shown: list[str]) -> Callable:
    """The thunk that solves ``csp`` and gives ``shown``'s values as ``problem.kind`` asks."""

    def solve():
        if problem.kind == "all":
            return [[s[v] for v in shown] for s in csp.getSolutions()]
        found = csp.getSolution()
        return None if found is None else [found[v] for v in shown]

    return solve


def _optimised(build: Callable) -> Callable:
    """A model for an optimisation problem from ``build(problem, best)``.

    ``build`` returns ``(csp, shown)`` whose solutions beat objective ``best``
    (any solution when ``best`` is ``None``); the thunk solves again with the
    best found so far until no solution is left.
    """

    def model(problem: Problem) -> Callable:
        def solve():
            best = None
            while True:
                csp, shown = build(problem, None if best is None else best[0])
                found = csp.getSolution()
                if found is None:
                    return best
                solution = [found[v] for v in shown]
                best = [problem.objective(problem.data, solution), solution]

        return solve

    return model


def cryptarithm(p: Problem) -> Callable:
    d, csp = p.data, CSP()
    xs = _names("x", len(d["letters"]))
    for i, x in enumerate(xs):
        csp.addVariable(x, range(1 if i in d["leading"] else 0, 10))
    csp.addConstraint(AllDifferentConstraint(), xs)
    csp.addConstraint(ExactSumConstraint(0, d["coeffs"]), xs)
    return _answers(p, csp, xs)


def magic(p: Problem) -> Callable:
    n, csp = p.data["n"], CSP()
    cells = _names("x", n * n)
    csp.addVariables(cells, range(1, n * n + 1))
    csp.addConstraint(AllDifferentConstraint(), cells)
    for line in magic_lines(n):
        csp.addConstraint(ExactSumConstraint(p.data["total"]), [cells[i] for i in line])
    if p.data["frenicle"]:
        for a, b in frenicle_pairs(n):
            csp.addConstraint(_less, [cells[a], cells[b]])
    return _answers(p, csp, cells)


def all_interval(p: Problem) -> Callable:
    n, csp = p.data["n"], CSP()
    xs, ds = _names("x", n), _names("d", n - 1)
    csp.addVariables(xs, range(n))
    csp.addVariables(ds, range(1, n))
    csp.addConstraint(AllDifferentConstraint(), xs)
    csp.addConstraint(AllDifferentConstraint(), ds)
    for a, b, d in zip(xs, xs[1:], ds):
        csp.addConstraint(FunctionConstraint(lambda a, b, d: abs(b - a) == d), [a, b, d])
    return _answers(p, csp, xs)


def langford(p: Problem) -> Callable:
    n, csp = p.data["n"], CSP()
    firsts, seconds = _names("p", n), _names("q", n)
    for k, (x, y) in enumerate(zip(firsts, seconds), 1):
        csp.addVariable(x, range((n - 2 if k == 1 else 2 * n - 2 - k) + 1))
        csp.addVariable(y, range(2 * n))
        csp.addConstraint(FunctionConstraint(lambda x, y, gap=k + 1: y == x + gap), [x, y])
    csp.addConstraint(AllDifferentConstraint(), firsts + seconds)
    return _answers(p, csp, firsts)


def sudoku(p: Problem) -> Callable:
    csp = CSP()
    cells = _names("x", 81)
    for c, g in zip(cells, p.data["givens"]):
        csp.addVariable(c, [g] if g else range(1, 10))
    for unit in sudoku_units():
        csp.addConstraint(AllDifferentConstraint(), [cells[i] for i in unit])
    return _answers(p, csp, cells)


def golomb(p: Problem, shorter_than: int | None) -> tuple[CSP, list[str]]:
    m, csp = p.data["marks"], CSP()
    top = p.data["bound"] if shorter_than is None else shorter_than - 1
    marks = _names("m", m)
    diffs = {(i, j): f"d{i}_{j}" for i in range(m) for j in range(i + 1, m)}
    csp.addVariable(marks[0], [0])
    csp.addVariables(marks[1:], range(1, top + 1))
    csp.addVariables(list(diffs.values()), range(1, top + 1))
    for a, b in pairwise(marks):
        csp.addConstraint(_less, [a, b])
    for (i, j), d in diffs.items():
        csp.addConstraint(FunctionConstraint(lambda a, b, d: d == b - a), [marks[i], marks[j], d])
    csp.addConstraint(AllDifferentConstraint(), list(diffs.values()))
    csp.addConstraint(_less, [diffs[0, 1], diffs[m - 2, m - 1]])
    return csp, marks


def knapsack(p: Problem, better_than: int | None) -> tuple[CSP, list[str]]:
    d, csp = p.data, CSP()
    take = _names("t", len(d["weights"]))
    csp.addVariables(take, [1, 0])
    csp.addConstraint(MaxSumConstraint(d["capacity"], d["weights"]), take)
    if better_than is not None:
        csp.addConstraint(MinSumConstraint(better_than + 1, d["values"]), take)
    return csp, take


def colouring(p: Problem) -> Callable:
    csp = CSP()
    xs = _names("x", p.data["nodes"])
    csp.addVariables(xs, range(p.data["colours"]))
    for a, b in p.data["edges"]:
        csp.addConstraint(AllDifferentConstraint(), [xs[a], xs[b]])
    return _answers(p, csp, xs)


def queens(p: Problem) -> Callable:
    """relqueens' ``queenso``: all different, and no two on a diagonal."""
    n, csp = p.data["n"], CSP()
    cols = _names("c", n)
    csp.addVariables(cols, range(n))
    csp.addConstraint(AllDifferentConstraint(), cols)
    for i in range(n):
        for j in range(i + 1, n):
            apart = FunctionConstraint(lambda a, b, d=j - i: abs(a - b) != d)
            csp.addConstraint(apart, [cols[i], cols[j]])
    return _answers(p, csp, cols)


MODELS: dict[str, Callable] = {
    "cryptarithm": cryptarithm,
    "magic": magic,
    "all-interval": all_interval,
    "langford": langford,
    "sudoku": sudoku,
    "golomb": _optimised(golomb),
    "knapsack": _optimised(knapsack),
    "colouring": colouring,
    "queens": queens,
}
"""Each family's model: ``model(problem)`` encodes, and returns the thunk that solves."""

NO_MODEL: dict[str, str] = {
    "tsp": "python-constraint has no circuit constraint (and no optimisation)",
    "jobshop": "python-constraint has no scheduling constraint (and no optimisation)",
}
"""Families this contender cannot state, and why."""
