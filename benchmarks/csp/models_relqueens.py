"""relqueens' models of the CSP problems, through its public API only (``from relqueens import``).

A model builds the goals (the encoding) and returns a thunk that runs them.
Some models use the general CLP(FD) API of issue 11, by its fixed names:
``abs`` of an expression (all-interval), ``fd.label(..., minimize=/maximize=)``
(Golomb, knapsack, TSP), ``fd.scalar_product`` (knapsack), ``fd.circuit`` and
``fd.element`` (TSP). On a checkout without one of them, building the goals
raises ``AttributeError`` or ``TypeError``, which :func:`unavailable` turns
into the name of what is missing: the row reads "not available yet", never a
result.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import pairwise

from relqueens import fd, queenso, run, var, vars

from .problems import Problem, frenicle_pairs, magic_lines, sudoku_units


def unavailable(exc: Exception) -> str | None:
    """The relqueens API an encoding asked for and did not find, if that is what ``exc`` says."""
    if isinstance(exc, AttributeError) and exc.obj is fd:
        return f"fd.{exc.name}"
    if isinstance(exc, TypeError):
        text = str(exc)
        keyword = re.search(r"(\w+)\(\) got an unexpected keyword argument '(\w+)'", text)
        if keyword:
            return f"fd.{keyword[1]}({keyword[2]}=...)"
        if text.startswith("bad operand type for abs()"):
            return "abs() of an FD expression"
    return None


def _answers(problem: Problem, q, goals: list) -> Callable:
    """The thunk that runs ``goals`` and shapes the answers for ``q`` as ``problem.kind`` asks.

    For ``minimize``/``maximize``, ``q`` is ``[objective, solution]`` and the
    labeling goal optimises, so the first answer is the proved optimum.
    """

    def solve():
        found = run(0 if problem.kind == "all" else 1, q, *goals)
        if problem.kind == "all":
            return [list(a) for a in found]
        if not found:
            return None
        return list(found[0]) if problem.kind == "first" else [found[0][0], list(found[0][1])]

    return solve


def cryptarithm(p: Problem) -> Callable:
    """One linear equation over the letters (place values), all different, no leading zero."""
    d = p.data
    xs = vars(len(d["letters"]))
    return _answers(
        p,
        xs,
        [
            fd.in_(*xs, fd.interval(0, 9)),
            fd.distinct(xs),
            *(xs[i] > 0 for i in d["leading"]),
            fd.dot(d["coeffs"], xs) == 0,
            fd.label(xs, select="ff"),
        ],
    )


def magic(p: Problem) -> Callable:
    """Cells 1..n*n all different, each line summing to the magic constant."""
    n = p.data["n"]
    cells = vars(n * n)
    goals = [
        fd.in_(*cells, fd.interval(1, n * n)),
        fd.distinct(cells),
        *(fd.dot([1] * n, [cells[i] for i in line]) == p.data["total"] for line in magic_lines(n)),
    ]
    if p.data["frenicle"]:
        goals += [cells[a] < cells[b] for a, b in frenicle_pairs(n)]
    return _answers(p, cells, [*goals, fd.label(cells, select="ff")])


def all_interval(p: Problem) -> Callable:
    """The series and its differences, each all different, linked by ``abs(b - a) == d``."""
    n = p.data["n"]
    xs, ds = vars(n), vars(n - 1)
    return _answers(
        p,
        xs,
        [
            fd.in_(*xs, fd.interval(0, n - 1)),
            fd.in_(*ds, fd.interval(1, n - 1)),
            fd.distinct(xs),
            fd.distinct(ds),
            *(abs(b - a) == d for a, b, d in zip(xs, xs[1:], ds)),
            fd.label(xs, select="ff"),
        ],
    )


def langford(p: Problem) -> Callable:
    """The first and second k at x and ``y == x + k + 1``, all 2n different; mirrors broken."""
    n = p.data["n"]
    firsts, seconds = vars(n), vars(n)
    return _answers(
        p,
        firsts,
        [
            *(fd.in_(x, fd.interval(0, 2 * n - 2 - k)) for k, x in enumerate(firsts, 1)),
            fd.in_(*seconds, fd.interval(0, 2 * n - 1)),
            *(y == x + k + 1 for k, (x, y) in enumerate(zip(firsts, seconds), 1)),
            fd.distinct(firsts + seconds),
            firsts[0] <= n - 2,
            fd.label(firsts, select="ff"),
        ],
    )


def sudoku(p: Problem) -> Callable:
    """Cells 1..9, the givens fixed, each row, column and box all different."""
    cells = vars(81)
    return _answers(
        p,
        cells,
        [
            fd.in_(*cells, fd.interval(1, 9)),
            *(fd.eq(c, g) for c, g in zip(cells, p.data["givens"]) if g),
            *(fd.distinct([cells[i] for i in unit]) for unit in sudoku_units()),
            fd.label(cells, select="ff"),
        ],
    )


def golomb(p: Problem) -> Callable:
    """Increasing marks from 0, their differences all different, first gap < last; minimise."""
    m, bound = p.data["marks"], p.data["bound"]
    marks = vars(m)
    pairs = [(i, j) for i in range(m) for j in range(i + 1, m)]
    diffs = dict(zip(pairs, vars(len(pairs))))
    return _answers(
        p,
        [marks[-1], marks],
        [
            fd.in_(*marks, fd.interval(0, bound)),
            fd.in_(*diffs.values(), fd.interval(1, bound)),
            fd.eq(marks[0], 0),
            *(a < b for a, b in pairwise(marks)),
            *(d == marks[j] - marks[i] for (i, j), d in diffs.items()),
            fd.distinct(list(diffs.values())),
            diffs[0, 1] < diffs[m - 2, m - 1],
            fd.label(marks, minimize=marks[-1]),
        ],
    )


def knapsack(p: Problem) -> Callable:
    """0/1 per item, the weights within the capacity; maximise the total value."""
    weights, values = p.data["weights"], p.data["values"]
    take, total = vars(len(weights)), var()
    return _answers(
        p,
        [total, take],
        [
            fd.in_(*take, fd.interval(0, 1)),
            fd.in_(total, fd.interval(0, sum(values))),
            fd.scalar_product(weights, take, "<=", p.data["capacity"]),
            total == fd.dot(values, take),
            fd.label(take, order="down", maximize=total),
        ],
    )


def colouring(p: Problem) -> Callable:
    """A colour per node, different across each edge."""
    xs = vars(p.data["nodes"])
    return _answers(
        p,
        xs,
        [
            fd.in_(*xs, fd.interval(0, p.data["colours"] - 1)),
            *(fd.ne(xs[a], xs[b]) for a, b in p.data["edges"]),
            fd.label(xs, select="ff"),
        ],
    )


def queens(p: Problem) -> Callable:
    """The library's own relation, ``queenso``, labeled leftmost."""
    n = p.data["n"]
    cols = vars(n)
    return _answers(p, cols, [queenso(cols, n), fd.label(cols)])


def tsp(p: Problem) -> Callable:
    """A successor per city in one circuit, each leg's length by ``element``; minimise the sum."""
    dist = p.data["dist"]
    n, longest = len(dist), max(map(max, dist))
    succ, legs, total = vars(n), vars(n), var()
    return _answers(
        p,
        [total, succ],
        [
            fd.in_(*succ, fd.interval(0, n - 1)),
            fd.in_(*legs, fd.interval(0, longest)),
            fd.in_(total, fd.interval(0, n * longest)),
            fd.circuit(succ),
            *(fd.element(s, row, leg) for s, row, leg in zip(succ, dist, legs)),
            total == fd.dot([1] * n, legs),
            fd.label(succ, minimize=total),
        ],
    )


def jobshop(p: Problem) -> Callable:
    """Each job's operations in order, ``fd.disjunctive`` per machine; minimise the last end."""
    jobs = p.data["jobs"]
    ops = [(j, m, d) for j, job in enumerate(jobs) for m, d in job]
    horizon = sum(d for *_, d in ops)
    starts, end = vars(len(ops)), var()
    goals = [fd.in_(*starts, end, fd.interval(0, horizon))]
    for i, (j, _, d) in enumerate(ops):
        last = i + 1 == len(ops) or ops[i + 1][0] != j
        goals.append(starts[i] + d <= (end if last else starts[i + 1]))
    for machine in sorted({m for _, m, _ in ops}):
        on = [i for i, (_, m, _) in enumerate(ops) if m == machine]
        goals.append(fd.disjunctive([starts[i] for i in on], [ops[i][2] for i in on]))
    goals.append(fd.label([*starts, end], minimize=end))
    return _answers(p, [end, starts], goals)


MODELS: dict[str, Callable] = {
    "cryptarithm": cryptarithm,
    "magic": magic,
    "all-interval": all_interval,
    "langford": langford,
    "sudoku": sudoku,
    "golomb": golomb,
    "knapsack": knapsack,
    "colouring": colouring,
    "queens": queens,
    "tsp": tsp,
    "jobshop": jobshop,
}
"""Each family's model: ``model(problem)`` encodes, and returns the thunk that solves."""
