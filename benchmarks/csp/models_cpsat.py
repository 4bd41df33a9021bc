"""OR-tools CP-SAT's models of the CSP problems (``pip install ortools``).

The models state the same constraints as relqueens' in CP-SAT's own terms
(``add_all_different``, ``add_abs_equality``, ``add_circuit`` over arc
literals, ``minimize``/``maximize``); the search is CP-SAT's default. The
solver runs on one worker thread, so its CPU time compares with the
single-threaded contenders'. Counting uses ``enumerate_all_solutions``.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise

from ortools.sat.python import cp_model

from .problems import Problem, frenicle_pairs, magic_lines, sudoku_units


class _Collector(cp_model.CpSolverSolutionCallback):
    """Keeps the values of ``shown`` at each solution."""

    def __init__(self, shown: list) -> None:
        super().__init__()
        self.shown, self.solutions = shown, []

    def on_solution_callback(self) -> None:
        self.solutions.append([self.value(x) for x in self.shown])


def _answers(problem: Problem, model: cp_model.CpModel, shown: list) -> Callable:
    """The thunk that solves ``model`` and gives ``shown``'s values as ``problem.kind`` asks.

    For ``minimize``/``maximize`` the model carries the objective; the answer
    is ``None`` unless CP-SAT proves its solution optimal.
    """

    def solve():
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        if problem.kind == "all":
            collect = _Collector(shown)
            solver.parameters.enumerate_all_solutions = True
            solver.solve(model, collect)
            return collect.solutions
        status = solver.solve(model)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return None
        solution = [solver.value(x) for x in shown]
        if problem.kind == "first":
            return solution
        return [round(solver.objective_value), solution] if status == cp_model.OPTIMAL else None

    return solve


def _ints(model: cp_model.CpModel, count: int, lo: int, hi: int) -> list:
    return [model.new_int_var(lo, hi, f"x{i}") for i in range(count)]


def cryptarithm(p: Problem) -> Callable:
    d, model = p.data, cp_model.CpModel()
    xs = _ints(model, len(d["letters"]), 0, 9)
    model.add_all_different(xs)
    for i in d["leading"]:
        model.add(xs[i] > 0)
    model.add(sum(c * x for c, x in zip(d["coeffs"], xs)) == 0)
    return _answers(p, model, xs)


def magic(p: Problem) -> Callable:
    n, model = p.data["n"], cp_model.CpModel()
    cells = _ints(model, n * n, 1, n * n)
    model.add_all_different(cells)
    for line in magic_lines(n):
        model.add(sum(cells[i] for i in line) == p.data["total"])
    if p.data["frenicle"]:
        for a, b in frenicle_pairs(n):
            model.add(cells[a] < cells[b])
    return _answers(p, model, cells)


def all_interval(p: Problem) -> Callable:
    n, model = p.data["n"], cp_model.CpModel()
    xs, ds = _ints(model, n, 0, n - 1), _ints(model, n - 1, 1, n - 1)
    model.add_all_different(xs)
    model.add_all_different(ds)
    for a, b, d in zip(xs, xs[1:], ds):
        model.add_abs_equality(d, b - a)
    return _answers(p, model, xs)


def langford(p: Problem) -> Callable:
    n, model = p.data["n"], cp_model.CpModel()
    firsts = [model.new_int_var(0, 2 * n - 2 - k, f"p{k}") for k in range(1, n + 1)]
    seconds = _ints(model, n, 0, 2 * n - 1)
    for k, (x, y) in enumerate(zip(firsts, seconds), 1):
        model.add(y == x + k + 1)
    model.add_all_different(firsts + seconds)
    model.add(firsts[0] <= n - 2)
    return _answers(p, model, firsts)


def sudoku(p: Problem) -> Callable:
    model = cp_model.CpModel()
    cells = _ints(model, 81, 1, 9)
    for c, g in zip(cells, p.data["givens"]):
        if g:
            model.add(c == g)
    for unit in sudoku_units():
        model.add_all_different([cells[i] for i in unit])
    return _answers(p, model, cells)


def golomb(p: Problem) -> Callable:
    m, bound, model = p.data["marks"], p.data["bound"], cp_model.CpModel()
    marks = _ints(model, m, 0, bound)
    pairs = [(i, j) for i in range(m) for j in range(i + 1, m)]
    diffs = {(i, j): model.new_int_var(1, bound, f"d{i}_{j}") for i, j in pairs}
    model.add(marks[0] == 0)
    for a, b in pairwise(marks):
        model.add(a < b)
    for (i, j), d in diffs.items():
        model.add(d == marks[j] - marks[i])
    model.add_all_different(list(diffs.values()))
    model.add(diffs[0, 1] < diffs[m - 2, m - 1])
    model.minimize(marks[-1])
    return _answers(p, model, marks)


def knapsack(p: Problem) -> Callable:
    d, model = p.data, cp_model.CpModel()
    take = [model.new_bool_var(f"t{i}") for i in range(len(d["weights"]))]
    model.add(sum(w * t for w, t in zip(d["weights"], take)) <= d["capacity"])
    model.maximize(sum(v * t for v, t in zip(d["values"], take)))
    return _answers(p, model, take)


def colouring(p: Problem) -> Callable:
    model = cp_model.CpModel()
    xs = _ints(model, p.data["nodes"], 0, p.data["colours"] - 1)
    for a, b in p.data["edges"]:
        model.add(xs[a] != xs[b])
    return _answers(p, model, xs)


def queens(p: Problem) -> Callable:
    n, model = p.data["n"], cp_model.CpModel()
    cols = _ints(model, n, 0, n - 1)
    model.add_all_different(cols)
    model.add_all_different([c + r for r, c in enumerate(cols)])
    model.add_all_different([c - r for r, c in enumerate(cols)])
    return _answers(p, model, cols)


def tsp(p: Problem) -> Callable:
    """An arc literal per pair of cities, ``add_circuit`` over them; successors read off arcs."""
    dist, model = p.data["dist"], cp_model.CpModel()
    n = len(dist)
    arcs = {(i, j): model.new_bool_var(f"a{i}_{j}") for i in range(n) for j in range(n) if i != j}
    model.add_circuit([(i, j, lit) for (i, j), lit in arcs.items()])
    succ = _ints(model, n, 0, n - 1)
    for i, s in enumerate(succ):
        model.add(s == sum(j * lit for (a, j), lit in arcs.items() if a == i))
    model.minimize(sum(dist[i][j] * lit for (i, j), lit in arcs.items()))
    return _answers(p, model, succ)


def jobshop(p: Problem) -> Callable:
    """Each job's operations in order, ``add_no_overlap`` of fixed-size intervals per machine."""
    jobs, model = p.data["jobs"], cp_model.CpModel()
    ops = [(j, m, d) for j, job in enumerate(jobs) for m, d in job]
    horizon = sum(d for *_, d in ops)
    starts = _ints(model, len(ops), 0, horizon)
    end = model.new_int_var(0, horizon, "end")
    for i, (j, _, d) in enumerate(ops):
        last = i + 1 == len(ops) or ops[i + 1][0] != j
        model.add(starts[i] + d <= (end if last else starts[i + 1]))
    for machine in sorted({m for _, m, _ in ops}):
        model.add_no_overlap(
            [
                model.new_fixed_size_interval_var(starts[i], d, f"op{i}")
                for i, (_, m, d) in enumerate(ops)
                if m == machine
            ]
        )
    model.minimize(end)
    return _answers(p, model, starts)


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
