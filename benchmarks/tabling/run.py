"""Running the tabling suite: fresh processes, contenders interleaved by round, a report and a CSV.

:func:`main` is ``python -m benchmarks --suite tabling``; ``--only`` takes
contender and problem names.
"""

from __future__ import annotations

import csv
import sys
from argparse import Namespace
from pathlib import Path
from typing import TextIO

from ..csp.report import outcome_row
from ..csp.run import describe, run_one, summarise
from .contenders import CONTENDERS
from .problems import FULL, PROBLEMS, QUICK

TARGETS = (
    ("python", 20.0, "relqueens / plain-Python BFS, all pairs"),
    ("pydatalog", 1.0, "relqueens / pyDatalog"),
)
"""relqueens' time over a peer's on each closure problem, and the most it may be."""


def run_suite(
    problems: list[str], contenders: list[str], repeat: int, timeout: float, log: TextIO
) -> dict:
    """``{(problem, contender): outcome}`` over ``repeat`` rounds (a pair without a time is not run again)."""
    runs: dict[tuple, list[dict]] = {}
    for round_no in range(1, repeat + 1):
        log.write(f"round {round_no} of {repeat}\n")
        for problem in problems:
            for contender in contenders:
                done = runs.setdefault((problem, contender), [])
                if done and done[0]["status"] != "ok":
                    continue
                done.append(run_one(contender, problem, timeout, "benchmarks.tabling.worker"))
                log.write(f"  {problem:12} {contender:16} {describe(done[-1])}\n")
                log.flush()
    return {key: summarise(ms) for key, ms in runs.items()}


def _cell(outcome: dict | None) -> str:
    if outcome is None:
        return "-"
    if outcome["status"] != "ok":
        return outcome["status"]
    return f"{outcome['median']:.4f}" + ("" if outcome["valid"] else " WRONG")


def ratios(results: dict, problem: str) -> dict[str, float]:
    """relqueens' median over each peer's that answered ``problem`` correctly."""
    mine = results.get((problem, "relqueens"))
    if mine is None or mine["status"] != "ok" or not mine["valid"]:
        return {}
    return {
        peer: mine["median"] / max(r["median"], 1e-9)
        for (p, peer), r in results.items()
        if p == problem and peer != "relqueens" and r["status"] == "ok" and r["valid"]
    }


def print_report(problems: list[str], contenders: list[str], results: dict, out: TextIO) -> bool:
    """The medians, relqueens' ratios, the targets; ``True`` if every answer was right."""
    out.write("\nCPU seconds of the query (facts loaded), median of the rounds\n")
    out.write("problem".ljust(14) + "".join(c.rjust(17) for c in contenders) + "\n")
    for p in problems:
        cells = [_cell(results.get((p, c))) for c in contenders]
        out.write(p.ljust(14) + "".join(c.rjust(17) for c in cells) + "\n")
    for p in problems:
        r = ratios(results, p)
        if r:
            out.write(f"{p}: relqueens / " + ", ".join(f"{k} {v:.2f}" for k, v in r.items()) + "\n")
    out.write("\ntargets (closure problems)\n")
    for p in (p for p in problems if PROBLEMS[p].kind == "closure"):
        r = ratios(results, p)
        for peer, most, text in TARGETS:
            verdict = (
                "not measured"
                if peer not in r
                else f"{r[peer]:.2f}  (<= {most:g})  " + ("met" if r[peer] <= most else "NOT met")
            )
            out.write(f"  {text}, {p}: {verdict}\n")
    right = all(r["valid"] for r in results.values() if r["status"] == "ok")
    out.write(
        "\nverifier: "
        + (
            "every answer set is the expected one, each pair once\n"
            if right
            else "some answer sets are WRONG\n"
        )
    )
    for p in problems:
        out.write(f"  {p}: {PROBLEMS[p].title}\n")
    return right


def write_csv(results: dict, folder: str) -> Path:
    """``tabling.csv`` in ``folder``: one row per problem and contender."""
    path = Path(folder) / "tabling.csv"
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(
            ["problem", "contender", "status", "median_s", "runs", "answers", "valid", "detail"]
        )
        for (problem, contender), r in results.items():
            w.writerow([problem, contender, *outcome_row(r)])
    return path


def main(args: Namespace) -> int:
    """The suite from the parsed command line; exit status 1 if any answer set was wrong."""
    problems, contenders = list(QUICK if args.quick else FULL), list(CONTENDERS)
    if args.only:
        chosen = set(args.only.split(","))
        unknown = chosen - set(PROBLEMS) - set(CONTENDERS)
        if unknown:
            raise SystemExit(f"unknown contenders or problems: {', '.join(sorted(unknown))}")
        contenders = [c for c in contenders if c in chosen] or contenders
        problems = [p for p in PROBLEMS if p in chosen] or problems
    for name in list(contenders):
        why = CONTENDERS[name].missing()
        if why:
            sys.stderr.write(f"skipping {name}: {why}\n")
            contenders.remove(name)
    results = run_suite(problems, contenders, args.repeat, args.timeout, sys.stderr)
    right = print_report(problems, contenders, results, sys.stdout)
    print(f"\nwrote {write_csv(results, args.out)}")
    return 0 if right else 1
