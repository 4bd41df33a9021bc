"""The benchmarks: ``python -m benchmarks [--suite queens|csp|tabling] [--quick] [--repeat R] [--out DIR]``.

The default suite, ``queens``, is described here; ``--suite csp`` runs
classic constraint problems against python-constraint, OR-tools CP-SAT and
SWI-Prolog (``benchmarks.csp``; it writes ``csp.csv`` and no plots, and its
``--only`` also takes problem names); ``--suite tabling`` runs recursive
queries over facts against plain Python, pyDatalog and SWI-Prolog's tabling
(``benchmarks.tabling``; it writes ``tabling.csv``).

Every measurement runs in a fresh process (``benchmarks.worker``), and the
contenders are interleaved round by round, so drift on the machine spreads
over all of them. Prints a table of medians and the performance targets as
ratios, writes ``benchmark.csv`` and, where matplotlib is installed, the
plots ``performance-all.png`` and ``performance-first.png`` into ``--out``.
``--quick`` runs small sizes once, in seconds: it checks that the suite
works and asserts no timing.
"""

from __future__ import annotations

import argparse
import sys

from .csp.run import main as csp_main
from .report import plot, print_report, targets, write_csv
from .runner import Plan, run_plan
from .tabling.run import main as tabling_main

FULL = Plan(
    all={
        "relqueens": range(4, 13),
        "relqueens-compact": range(4, 13),
        "relqueens-ff": range(4, 13),
        "relqueens-symmetry": range(4, 13),
        "relqueens-symmetry-ff": range(4, 13),
        "backtracker": range(4, 13),
        "bitboard": range(4, 14),
        "sat": range(4, 12),
        "count-1-worker": (12, 13),
        "count-2-workers": (12, 13),
    },
    first={
        "relqueens-ff-mid": (8, 16, 32, 64, 100, 200, 500, 1000, 2000),
        "relqueens-pairwise-ff-mid": (8, 16, 32, 64, 100, 200, 500),
        "relqueens-leftmost": (8, 12, 16, 20, 24),
        "backtracker": (8, 12, 16, 20, 24),
        "sat": (8, 16, 32, 64, 100, 200),
        "min-conflicts": (8, 16, 32, 64, 100, 200, 500, 1000, 2000, 10_000, 100_000),
    },
    lazy={"relqueens": (12,)},
)

QUICK = Plan(
    all={name: (8,) if name.startswith("count") else (6, 8) for name in FULL.all},
    first={name: (8, 16) for name in FULL.first},
    lazy={"relqueens": (8,)},
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks", description=__doc__.splitlines()[0]
    )
    parser.add_argument(
        "--suite",
        choices=("queens", "csp", "tabling"),
        default="queens",
        help="N-queens (default), classic constraint problems against peers, or "
        "recursive queries over facts (tabling)",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="small sizes (csp: the 3 smallest problems), one round: checks the suite runs",
    )
    parser.add_argument("--repeat", type=int, help="rounds (default 3, or 1 with --quick)")
    parser.add_argument(
        "--timeout",
        type=float,
        help="seconds per run (default 120, or 30 with --quick); queens: before a "
        "contender stops growing n",
    )
    parser.add_argument(
        "--out",
        default="docs",
        help="folder for benchmark.csv and the plots, or csp.csv (default docs)",
    )
    parser.add_argument("--no-plot", action="store_true", help="skip the plots")
    parser.add_argument(
        "--only",
        metavar="NAMES",
        help="run only these contenders (comma-separated; csp: contenders and/or problems)",
    )
    args = parser.parse_args(argv)
    repeat = args.repeat or (1 if args.quick else 3)
    if repeat < 1:
        parser.error("--repeat must be at least 1")
    timeout = args.timeout or (30.0 if args.quick else 120.0)
    if args.suite in ("csp", "tabling"):
        args.repeat, args.timeout = repeat, timeout
        return (csp_main if args.suite == "csp" else tabling_main)(args)
    plan = QUICK if args.quick else FULL
    if args.only:
        plan = plan.only(set(args.only.split(",")))
    results = run_plan(plan, repeat=repeat, timeout=timeout, log=sys.stderr)
    checks = targets(results)
    print_report(results, checks, out=sys.stdout)
    csv_path = write_csv(results, args.out)
    print(f"\nwrote {csv_path}")
    if not args.no_plot:
        for path in plot(results, args.out):
            print(f"wrote {path}")
    return 0 if all(r["valid"] for r in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
