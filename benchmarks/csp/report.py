"""Reporting the CSP suite: the problems, the medians with relqueens' ratios, notes, the CSV."""

from __future__ import annotations

import csv
import math
from pathlib import Path
from typing import TextIO

from .contenders import CONTENDERS
from .problems import Problem

RATIOS = (("swi-prolog", "rq/SWI"), ("cp-sat", "rq/CP-SAT"))
"""relqueens' time over these peers' (below 1: relqueens is faster)."""

CELL = {"not-available": "n/a yet", "no-model": "no model", "error": "error", "skipped": "not run"}


def cell(outcome: dict | None, timeout: float) -> str:
    """A contender's outcome on a problem, as the table shows it."""
    if outcome is None:
        return "-"
    if outcome["status"] == "ok":
        return f"{outcome['median']:.4f}" + ("" if outcome["valid"] else " WRONG")
    if outcome["status"] == "timeout":
        return f"> {timeout:g} s"
    return CELL[outcome["status"]]


def ratio(mine: dict | None, theirs: dict | None, timeout: float) -> tuple[str, float | None]:
    """relqueens' time over a peer's, as text and number (a bound when one side timed out)."""
    solved = [o is not None and o["status"] == "ok" and o["valid"] for o in (mine, theirs)]
    timed_out = [o is not None and o["status"] == "timeout" for o in (mine, theirs)]
    if all(solved):
        value = mine["median"] / max(theirs["median"], 1e-6)
        return f"{value:.2f}", value
    if timed_out[0] and solved[1]:
        return f"> {timeout / max(theirs['median'], 1e-6):.0f}", None
    if solved[0] and timed_out[1]:
        return f"< {mine['median'] / timeout:.3f}", None
    return "-", None


def _problems_table(problems: list[Problem], out: TextIO) -> None:
    out.write("problems (and what every answer is checked against)\n")
    width = max(len(p.name) for p in problems) + 2
    for p in problems:
        if p.kind == "all":
            known = f"{p.known} solution" + "s" * (p.known != 1)
        else:
            known = "a valid solution" if p.kind == "first" else f"optimum {p.known}"
        out.write(f"  {p.name:{width}} {p.title:58} {known}\n")


def _timing_table(
    problems: list[Problem], contenders: list[str], results: dict, timeout: float, out: TextIO
) -> None:
    """The table of medians, the ratio columns, and each ratio's geometric mean."""
    ratios = [
        (peer, head) for peer, head in RATIOS if peer in contenders and "relqueens" in contenders
    ]
    heads = contenders + [head for _, head in ratios]
    width = max(len(p.name) for p in problems) + 2
    cols = [max(len(h), 10) + 2 for h in heads]
    out.write("\nCPU seconds, median of the rounds\n")
    out.write("problem".ljust(width) + "".join(h.rjust(w) for h, w in zip(heads, cols)) + "\n")
    solved: list[list[float]] = [[] for _ in ratios]
    for p in problems:
        cells = [cell(results.get((p.name, c)), timeout) for c in contenders]
        for k, (peer, _) in enumerate(ratios):
            mine, theirs = results.get((p.name, "relqueens")), results.get((p.name, peer))
            text, value = ratio(mine, theirs, timeout)
            cells.append(text)
            if value is not None:
                solved[k].append(value)
        out.write(p.name.ljust(width) + "".join(c.rjust(w) for c, w in zip(cells, cols)) + "\n")
    for (_, head), values in zip(ratios, solved):
        if values:
            mean = math.exp(sum(map(math.log, values)) / len(values))
            out.write(
                f"geometric mean of {head} over the {len(values)} rows both solved: {mean:.2f}\n"
            )


def _notes(problems: list[Problem], results: dict, out: TextIO) -> None:
    """Rows without a time (grouped by why), and every answer that failed its check."""
    order = {p.name: i for i, p in enumerate(problems)}
    keys = sorted(results, key=lambda k: (order[k[0]], k[1]))
    for status, head in (
        ("not-available", "relqueens rows not available yet"),
        ("no-model", "no model"),
        ("error", "errors"),
        ("skipped", "not run after a timeout"),
    ):
        rows = [(k, results[k]["detail"]) for k in keys if results[k]["status"] == status]
        if rows:
            out.write(f"\n{head}:\n")
            out.writelines(f"  {p} / {c}: {detail}\n" for (p, c), detail in rows)
    wrong = [(k, r) for k in keys if (r := results[k])["status"] == "ok" and not r["valid"]]
    out.write(
        "\nverifier: "
        + (
            "every answer produced passed its check\n"
            if not wrong
            else "answers that FAILED their check:\n"
        )
    )
    out.writelines(f"  {p} / {c}: {r['detail']} (result {r['result']})\n" for (p, c), r in wrong)


def print_report(
    problems: list[Problem],
    contenders: list[str],
    results: dict,
    *,
    absent: dict,
    timeout: float,
    out: TextIO,
) -> None:
    """The problems, the table, the notes, and which solver versions and clocks were measured."""
    _problems_table(problems, out)
    _timing_table(problems, contenders, results, timeout, out)
    out.write(
        f"(> {timeout:g} s: timed out; n/a yet: needs relqueens API not on main yet; "
        "WRONG: failed the verifier;\n rq/X: relqueens' time over X's, below 1 relqueens is "
        "faster, > or < a bound where one side timed out)\n"
    )
    _notes(problems, results, out)
    out.write("\ncontenders:\n")
    for name in contenders:
        c = CONTENDERS[name]
        out.write(f"  {name:18} {c.version()}; clock: {c.clock}\n")
    for name, why in absent.items():
        out.write(f"  {name:18} skipped: {why}\n")
    out.write(
        "  peers: pip install python-constraint2 ortools; apt-get install -y swi-prolog-nox\n"
    )


def write_csv(problems: list[Problem], results: dict, folder: str) -> Path:
    """``csp.csv`` in ``folder``: one row per problem and contender."""
    path = Path(folder) / "csp.csv"
    path.parent.mkdir(parents=True, exist_ok=True)
    by_name = {p.name: p for p in problems}
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(
            [
                "problem",
                "family",
                "kind",
                "known",
                "contender",
                "status",
                "median_s",
                "runs",
                "result",
                "valid",
                "detail",
                "maxrss_mb",
            ]
        )
        for (name, contender), r in results.items():
            p = by_name[name]
            known = "" if p.known is None else p.known
            w.writerow(
                [name, p.family, p.kind, known, contender, *outcome_row(r), r.get("maxrss_mb", "")]
            )
    return path


def outcome_row(r: dict) -> list:
    """A run's outcome as CSV cells: status, median_s, runs, result, valid, detail."""
    median = f"{r['median']:.6f}" if "median" in r else ""
    return [r["status"], median, r["runs"], r.get("result", ""), r.get("valid", ""), r["detail"]]
