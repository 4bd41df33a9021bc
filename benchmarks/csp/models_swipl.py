"""SWI-Prolog clpfd's models of the CSP problems (``apt-get install swi-prolog-nox``).

Each model is a generated Prolog program, run as ``swipl`` in a subprocess.
The program times its own goal — posting the constraints and labeling, as
``model/2`` then ``labeling/2`` — between two calls of
``statistics(cputime, T)``, so the time excludes swipl's start and loading
clpfd; it prints that time and the answer (a Prolog list of ints is JSON).
The constraints are those of relqueens' models: ``all_different`` (value
elimination, as relqueens' ``fd.distinct``), ``sum``/``scalar_product``,
``abs``, ``circuit`` and ``element``; optimisation is
``labeling([min(Obj)])``, whose first answer is the optimum.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path

from .contenders import Timed
from .problems import Problem, frenicle_pairs, magic_lines, sudoku_units

GOAL = {
    "all": "answer(As) :- findall(Vs, (model(Vs, _), labeling({opts}, Vs)), As).",
    "first": "answer(Vs) :- model(Vs, _), labeling({opts}, Vs), !.",
    "minimize": "answer([Obj, Vs]) :- model(Vs, Obj), labeling([min(Obj)|{opts}], Vs), !.",
    "maximize": "answer([Obj, Vs]) :- model(Vs, Obj), labeling([max(Obj)|{opts}], Vs), !.",
}
"""The goal each kind of problem asks of ``model(Vs, Obj)``: ``Vs`` a solution, ``Obj`` its cost."""

PROGRAM = """\
:- use_module(library(clpfd)).

model(Vs, {obj}) :-
    {body}.

{goal}

main :-
    statistics(cputime, T0),
    ( answer(A) -> true ; A = null ),
    statistics(cputime, T1),
    T is T1 - T0,
    format("~w~n~w~n", [T, A]).
"""


def _names(prefix: str, count: int) -> list[str]:
    return [f"{prefix}{i}" for i in range(count)]


def _list(items) -> str:
    return "[" + ",".join(map(str, items)) + "]"


def _answers(
    problem: Problem, body: list[str], opts: str = "[]", decode: Callable | None = None
) -> Callable:
    """The thunk that runs the program for ``body`` (which binds ``Vs``, and ``Obj`` if optimising).

    It returns the answer, shaped as ``problem.kind`` asks (solutions passed
    through ``decode`` if given), with the CPU seconds Prolog measured.
    """
    program = PROGRAM.format(
        obj="_" if problem.kind in ("all", "first") else "Obj",
        body=",\n    ".join(body),
        goal=GOAL[problem.kind].format(opts=opts),
    )
    fix = decode or (lambda solution: solution)

    def solve() -> Timed:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / f"{problem.name}.pl"
            path.write_text(program)
            done = subprocess.run(
                ["swipl", "-q", "-g", "main", "-t", "halt", str(path)],
                capture_output=True,
                text=True,
                check=False,
            )
        if done.returncode != 0:
            lines = done.stderr.strip().splitlines() or [f"exit status {done.returncode}"]
            raise RuntimeError(f"swipl failed: {lines[-1]}")
        seconds, answer = done.stdout.split("\n", 1)
        answer = json.loads(answer)
        if answer is not None:
            if problem.kind == "all":
                answer = [fix(s) for s in answer]
            elif problem.kind == "first":
                answer = fix(answer)
            else:
                answer = [answer[0], fix(answer[1])]
        return Timed(answer, float(seconds))

    return solve


def cryptarithm(p: Problem) -> Callable:
    d = p.data
    xs = _names("X", len(d["letters"]))
    return _answers(
        p,
        [
            f"Vs = {_list(xs)}",
            "Vs ins 0..9",
            "all_different(Vs)",
            *(f"{xs[i]} #\\= 0" for i in d["leading"]),
            f"scalar_product({_list(d['coeffs'])}, Vs, #=, 0)",
        ],
        "[ff]",
    )


def magic(p: Problem) -> Callable:
    n = p.data["n"]
    xs = _names("X", n * n)
    body = [
        f"Vs = {_list(xs)}",
        f"Vs ins 1..{n * n}",
        "all_different(Vs)",
        *(f"sum({_list(xs[i] for i in line)}, #=, {p.data['total']})" for line in magic_lines(n)),
    ]
    if p.data["frenicle"]:
        body += [f"{xs[a]} #< {xs[b]}" for a, b in frenicle_pairs(n)]
    return _answers(p, body, "[ff]")


def all_interval(p: Problem) -> Callable:
    n = p.data["n"]
    xs, ds = _names("X", n), _names("D", n - 1)
    return _answers(
        p,
        [
            f"Vs = {_list(xs)}",
            f"Ds = {_list(ds)}",
            f"Vs ins 0..{n - 1}",
            f"Ds ins 1..{n - 1}",
            "all_different(Vs)",
            "all_different(Ds)",
            *(f"abs({b} - {a}) #= {d}" for a, b, d in zip(xs, xs[1:], ds)),
        ],
        "[ff]",
    )


def langford(p: Problem) -> Callable:
    n = p.data["n"]
    firsts, seconds = _names("P", n), _names("Q", n)
    return _answers(
        p,
        [
            f"Vs = {_list(firsts)}",
            *(f"{x} in 0..{2 * n - 2 - k}" for k, x in enumerate(firsts, 1)),
            f"{_list(seconds)} ins 0..{2 * n - 1}",
            *(f"{y} #= {x} + {k + 1}" for k, (x, y) in enumerate(zip(firsts, seconds), 1)),
            f"all_different({_list(firsts + seconds)})",
            f"{firsts[0]} #=< {n - 2}",
        ],
        "[ff]",
    )


def sudoku(p: Problem) -> Callable:
    xs = _names("X", 81)
    return _answers(
        p,
        [
            f"Vs = {_list(xs)}",
            "Vs ins 1..9",
            *(f"{x} #= {g}" for x, g in zip(xs, p.data["givens"]) if g),
            *(f"all_different({_list(xs[i] for i in unit)})" for unit in sudoku_units()),
        ],
        "[ff]",
    )


def golomb(p: Problem) -> Callable:
    m, bound = p.data["marks"], p.data["bound"]
    marks = _names("M", m)
    diffs = {(i, j): f"D{i}_{j}" for i in range(m) for j in range(i + 1, m)}
    return _answers(
        p,
        [
            f"Vs = {_list(marks)}",
            f"Vs ins 0..{bound}",
            f"{_list(diffs.values())} ins 1..{bound}",
            f"{marks[0]} #= 0",
            *(f"{a} #< {b}" for a, b in pairwise(marks)),
            *(f"{d} #= {marks[j]} - {marks[i]}" for (i, j), d in diffs.items()),
            f"all_different({_list(diffs.values())})",
            f"{diffs[0, 1]} #< {diffs[m - 2, m - 1]}",
            f"Obj = {marks[-1]}",
        ],
    )


def knapsack(p: Problem) -> Callable:
    d = p.data
    return _answers(
        p,
        [
            f"length(Vs, {len(d['weights'])})",
            "Vs ins 0..1",
            f"scalar_product({_list(d['weights'])}, Vs, #=<, {d['capacity']})",
            f"scalar_product({_list(d['values'])}, Vs, #=, Obj)",
        ],
        "[down]",
    )


def colouring(p: Problem) -> Callable:
    xs = _names("X", p.data["nodes"])
    return _answers(
        p,
        [
            f"Vs = {_list(xs)}",
            f"Vs ins 0..{p.data['colours'] - 1}",
            *(f"{xs[a]} #\\= {xs[b]}" for a, b in p.data["edges"]),
        ],
        "[ff]",
    )


def queens(p: Problem) -> Callable:
    """relqueens' ``queenso``: all different, ``cj != ci + d`` and ``ci != cj + d`` per pair."""
    n = p.data["n"]
    cols = _names("C", n)
    return _answers(
        p,
        [
            f"Vs = {_list(cols)}",
            f"Vs ins 0..{n - 1}",
            "all_different(Vs)",
            *(
                f"{cols[j]} #\\= {cols[i]} + {j - i}, {cols[i]} #\\= {cols[j]} + {j - i}"
                for i in range(n)
                for j in range(i + 1, n)
            ),
        ],
    )


def tsp(p: Problem) -> Callable:
    """clpfd's ``circuit`` and ``element`` count from 1: the successors are decoded to 0-based."""
    dist = p.data["dist"]
    n = len(dist)
    succ, legs = _names("S", n), _names("L", n)
    return _answers(
        p,
        [
            f"Vs = {_list(succ)}",
            f"Vs ins 1..{n}",
            "circuit(Vs)",
            *(f"element({s}, {_list(row)}, {leg})" for s, row, leg in zip(succ, dist, legs)),
            f"sum({_list(legs)}, #=, Obj)",
        ],
        decode=lambda solution: [s - 1 for s in solution],
    )


def jobshop(p: Problem) -> Callable:
    """Each job's operations in order, ``cumulative`` with ``limit(1)`` per machine; the makespan a ``max``."""
    jobs = p.data["jobs"]
    ops = [(j, m, d) for j, job in enumerate(jobs) for m, d in job]
    horizon = sum(d for *_, d in ops)
    starts = _names("S", len(ops))
    body = [f"Vs = {_list(starts)}", f"Vs ins 0..{horizon}"]
    ends = []
    for i, (j, _, d) in enumerate(ops):
        if i + 1 == len(ops) or ops[i + 1][0] != j:
            ends.append(f"{starts[i]} + {d}")
        else:
            body.append(f"{starts[i]} + {d} #=< {starts[i + 1]}")
    for machine in sorted({m for _, m, _ in ops}):
        tasks = (
            f"task({starts[i]}, {d}, _, 1, _)" for i, (_, m, d) in enumerate(ops) if m == machine
        )
        body.append(f"cumulative({_list(tasks)}, [limit(1)])")
    makespan = ends[0]
    for e in ends[1:]:
        makespan = f"max({makespan}, {e})"
    body.append(f"Obj #= {makespan}")
    return _answers(p, body)


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
"""Each family's model: ``model(problem)`` writes the program, returns the thunk that runs it."""
