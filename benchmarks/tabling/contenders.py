"""The contenders of the tabling suite: relqueens (left- and right-recursive), plain Python, pyDatalog, SWI-Prolog.

A model takes the problem and its facts, loads the facts (not timed) and
returns the query as a thunk, timed by the worker; SWI-Prolog's thunk
returns the CPU seconds Prolog measured around its query (``Timed``).
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..csp.contenders import Timed
from .problems import Problem, bfs_closure, fixpoint_closure, join

Model = Callable[[Problem, list], Callable]


def relqueens_left(problem: Problem, data: list) -> Callable:
    return _relqueens(problem, data, left=True)


def relqueens_right(problem: Problem, data: list) -> Callable:
    return _relqueens(problem, data, left=False)


def _relqueens(problem: Problem, data: list, left: bool) -> Callable:
    from relqueens import Relation, conde, facts, fresh, run, tabled, vars

    edge = Relation("edge")
    facts(edge, *data)
    x, y, z = vars(3)
    if problem.kind == "join":
        return lambda: run(0, (x, z), edge(x, y), edge(y, z))

    @tabled
    def patho(a, b):
        if left:
            return conde([edge(a, b)], [fresh(lambda c: [patho(a, c), edge(c, b)])])
        return conde([edge(a, b)], [fresh(lambda c: [edge(a, c), patho(c, b)])])

    return lambda: run(0, (x, y), patho(x, y))


def python_plain(problem: Problem, data: list) -> Callable:
    return lambda: (bfs_closure if problem.kind == "closure" else join)(data)


def python_fixpoint(problem: Problem, data: list) -> Callable:
    return lambda: fixpoint_closure(data)


def pydatalog(problem: Problem, data: list) -> Callable:
    from pyDatalog import pyDatalog

    pyDatalog.create_terms("X, Y, Z, edge, path, grandparent")
    for a, b in data:
        pyDatalog.assert_fact("edge", a, b)
    if problem.kind == "closure":
        pyDatalog.load("path(X, Y) <= edge(X, Y)\npath(X, Y) <= path(X, Z) & edge(Z, Y)")
        return lambda: pyDatalog.ask("path(X, Y)").answers
    pyDatalog.load("grandparent(X, Z) <= edge(X, Y) & edge(Y, Z)")
    return lambda: pyDatalog.ask("grandparent(X, Z)").answers


SWI_RULES = {
    "closure": ":- table path/2.\npath(X, Y) :- edge(X, Y).\npath(X, Y) :- path(X, Z), edge(Z, Y).\n"
    "query(X, Y) :- path(X, Y).\n",
    "join": "query(X, Z) :- edge(X, Y), edge(Y, Z).\n",
}
SWI_MAIN = """
main :-
    statistics(cputime, T0),
    findall([X, Y], query(X, Y), Answers),
    statistics(cputime, T1),
    T is T1 - T0,
    format("~w~n~w~n", [T, Answers]).
"""


def swi_prolog(problem: Problem, data: list) -> Callable:
    """SWI-Prolog: the facts and rules consulted from a file; ``main`` times the query (tabled for closure)."""
    program = ":- dynamic edge/2.\n" + "".join(f"edge({a}, {b}).\n" for a, b in data)
    program += SWI_RULES[problem.kind] + SWI_MAIN

    def solve() -> Timed:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "query.pl"
            path.write_text(program)
            done = subprocess.run(
                ["swipl", "-q", "-g", "main", "-t", "halt", str(path)],
                capture_output=True,
                text=True,
                check=True,
            )
        seconds, answers = done.stdout.split("\n", 1)
        return Timed([tuple(a) for a in json.loads(answers)], float(seconds))

    return solve


@dataclass(frozen=True)
class Contender:
    """A way to answer the queries: its models by problem kind, and what it needs installed."""

    name: str
    models: dict[str, Model]
    needs: str = ""
    install: str = ""

    def missing(self) -> str | None:
        """Why this contender cannot run here (with the command that fixes it), or ``None``."""
        if not self.needs:
            return None
        kind, what = self.needs.split(":", 1)
        found = shutil.which(what) if kind == "command" else importlib.util.find_spec(what)
        return None if found else f"not installed ({self.install})"


BOTH = ("closure", "join")
CONTENDERS = {
    c.name: c
    for c in (
        Contender("relqueens", dict.fromkeys(BOTH, relqueens_left)),
        Contender("relqueens-right", {"closure": relqueens_right}),
        Contender("python", dict.fromkeys(BOTH, python_plain)),
        Contender("python-fixpoint", {"closure": python_fixpoint}),
        Contender(
            "pydatalog", dict.fromkeys(BOTH, pydatalog), "module:pyDatalog", "pip install pyDatalog"
        ),
        Contender(
            "swi-prolog",
            dict.fromkeys(BOTH, swi_prolog),
            "command:swipl",
            "apt-get install -y swi-prolog-nox",
        ),
    )
}
"""Every contender, in the report's column order; ``relqueens`` is the left-recursive closure."""
