"""Running the CSP suite: each measurement in a fresh process, contenders interleaved by round.

:func:`main` is ``python -m benchmarks --suite csp``; its options are the
queens suite's (see ``benchmarks.__main__``).
"""

from __future__ import annotations

import json
import os
import signal
import statistics
import subprocess
import sys
from argparse import Namespace
from typing import TextIO

from .contenders import CONTENDERS
from .problems import PROBLEMS, QUICK, Problem
from .report import print_report, write_csv

SETTLED = ("not-available", "no-model", "error", "skipped", "timeout")
"""Outcomes that another round would not change: the pair is not run again."""


def run_one(
    contender: str, problem: str, timeout: float, worker: str = "benchmarks.csp.worker"
) -> dict:
    """Measure once in a fresh interpreter: the worker's JSON, or ``timeout`` or ``error``.

    The worker (a module run with ``-m``; the tabling suite has its own) runs
    in a session of its own, so a timeout kills it together with any solver
    process it started (``swipl``).
    """
    proc = subprocess.Popen(
        [sys.executable, "-m", worker, contender, problem],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return {"status": "timeout"}
    if proc.returncode != 0:
        lines = err.strip().splitlines() or [f"exit status {proc.returncode}"]
        return {"status": "error", "detail": lines[-1]}
    return json.loads(out.strip().splitlines()[-1])


def _outgrown(
    problem: Problem, contender: str, problems: list[Problem], runs: dict
) -> Problem | None:
    """An easier problem of the same family and kind on which ``contender`` timed out, if any."""
    for easier in problems[: problems.index(problem)]:
        ms = runs.get((easier.name, contender), [])
        if (easier.family, easier.kind) == (problem.family, problem.kind) and any(
            m["status"] == "timeout" for m in ms
        ):
            return easier
    return None


def summarise(ms: list[dict]) -> dict:
    """One pair's rounds as one outcome: the median of the answered rounds, or why there is none."""
    for status in SETTLED:
        for m in ms:
            if m["status"] == status:
                return {"status": status, "runs": len(ms), "detail": m.get("detail", "")}
    first = ms[0]
    return {
        "status": "ok",
        "median": statistics.median(m["seconds"] for m in ms),
        "runs": len(ms),
        "result": first["result"],
        "valid": all(m["valid"] and m["result"] == first["result"] for m in ms),
        "detail": next((m["detail"] for m in ms if m["detail"]), ""),
        "maxrss_mb": max(m["maxrss_mb"] for m in ms),
    }


def describe(m: dict) -> str:
    """A measurement, for the log."""
    if m["status"] != "ok":
        return f"{m['status']} {m.get('detail', '')}".rstrip()
    verdict = "ok" if m["valid"] else f"WRONG: {m['detail']}"
    return f"{m['seconds']:9.4f} s  -> {m['result']} {verdict}"


def run_suite(
    problems: list[Problem], contenders: list[str], *, repeat: int, timeout: float, log: TextIO
) -> dict:
    """Run every pair ``repeat`` times, round by round; return ``{(problem, contender): outcome}``.

    A pair whose outcome is settled (timed out, not available, ...) is not
    run again, and a contender that timed out on a problem is not run on the
    harder problems of the same family and kind (``skipped``).
    """
    runs: dict[tuple, list[dict]] = {}
    for round_no in range(1, repeat + 1):
        log.write(f"round {round_no} of {repeat}\n")
        for problem in problems:
            for contender in contenders:
                key = (problem.name, contender)
                if any(m["status"] in SETTLED for m in runs.get(key, [])):
                    continue
                easier = _outgrown(problem, contender, problems, runs)
                m = (
                    run_one(contender, problem.name, timeout)
                    if easier is None
                    else {"status": "skipped", "detail": f"not run: timed out on {easier.name}"}
                )
                runs.setdefault(key, []).append(m)
                log.write(f"  {problem.name:22} {contender:18} {describe(m)}\n")
                log.flush()
    return {key: summarise(ms) for key, ms in runs.items()}


def _select(only: str | None, quick: bool) -> tuple[list[Problem], list[str]]:
    """The problems and contenders to run: ``--only`` names either or both; ``--quick``: small."""
    problems = [PROBLEMS[name] for name in QUICK] if quick else list(PROBLEMS.values())
    contenders = list(CONTENDERS)
    if only:
        chosen = set(only.split(","))
        unknown = chosen - set(PROBLEMS) - set(CONTENDERS)
        if unknown:
            raise SystemExit(f"unknown contenders or problems: {', '.join(sorted(unknown))}")
        if chosen & set(CONTENDERS):
            contenders = [c for c in contenders if c in chosen]
        if chosen & set(PROBLEMS):
            problems = [PROBLEMS[name] for name in PROBLEMS if name in chosen]
    return problems, contenders


def main(args: Namespace) -> int:
    """The CSP suite from the parsed command line; exit status 1 if any answer failed its check."""
    problems, names = _select(args.only, args.quick)
    absent = {name: why for name in names if (why := CONTENDERS[name].missing())}
    for name, why in absent.items():
        sys.stderr.write(f"skipping {name}: {why}\n")
    contenders = [name for name in names if name not in absent]
    results = run_suite(
        problems, contenders, repeat=args.repeat, timeout=args.timeout, log=sys.stderr
    )
    print_report(problems, contenders, results, absent=absent, timeout=args.timeout, out=sys.stdout)
    print(f"\nwrote {write_csv(problems, results, args.out)}")
    return 1 if any(r["status"] == "ok" and not r["valid"] for r in results.values()) else 0
