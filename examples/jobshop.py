"""A job shop: Fisher and Thompson's 6 x 6 instance (ft06), scheduled as early as it can end.

Run it: ``python examples/jobshop.py [--pairs]``.

Each job visits the six machines in its own order, each operation taking a
fixed time; a machine runs one operation at a time. ``start[j][k]`` is when
job ``j`` begins its ``k``-th operation: each operation starts after the
previous one of its job ends, ``fd.disjunctive`` keeps the operations on a
machine apart, and ``fd.minimize`` of the makespan (the last end) finds the
shortest schedule by branch and bound, proved optimal: 55 time units.
``--pairs`` states each machine pair by pair, ``(s1 + d1 <= s2) | (s2 + d2 <=
s1)``, as SWI-Prolog users often do: labeling finds the machines in the pairs
and propagates them as wholes, so it is as fast.
"""

import argparse
from itertools import combinations
from pathlib import Path

from relqueens import fd, run, var, vars


def read_jobs(path: Path) -> list[list[tuple[int, int]]]:
    """A job shop in the OR-Library's layout: per job, its operations as (machine, duration).

    Lines starting with ``#`` are comments; the first line gives the numbers
    of jobs and machines, each next line a job's machine and duration pairs.
    """
    rows = [line.split() for line in path.read_text().splitlines() if line.strip()]
    rows = [row for row in rows if not row[0].startswith("#")]
    jobs, machines = map(int, rows[0])
    table = [[int(v) for v in row] for row in rows[1 : 1 + jobs]]
    if len(table) != jobs or any(len(row) != 2 * machines for row in table):
        raise ValueError(f"{path}: expected {jobs} jobs of {machines} operations")
    return [list(zip(row[::2], row[1::2], strict=True)) for row in table]


FT06 = read_jobs(Path(__file__).resolve().parent / "data" / "ft06.txt")
"""Fisher and Thompson's 6 x 6 instance: per job, its operations as (machine, duration)."""


def schedule(jobs: list[list[tuple[int, int]]], pairs: bool = False) -> tuple[int, list[list[int]]]:
    """``(makespan, starts)``: a shortest schedule, ``starts[j][k]`` for job ``j``'s ``k``-th operation.

    >>> schedule([[(0, 2), (1, 1)], [(1, 2), (0, 1)]])
    (3, [[0, 2], [0, 2]])
    """
    horizon = sum(d for job in jobs for _, d in job)
    start = [vars(len(job)) for job in jobs]
    end = var()
    goals = [fd.in_(*(s for row in start for s in row), end, fd.interval(0, horizon))]
    for j, job in enumerate(jobs):
        goals += [start[j][k] + job[k][1] <= start[j][k + 1] for k in range(len(job) - 1)]
        goals.append(start[j][-1] + job[-1][1] <= end)
    machines = sorted({m for job in jobs for m, _ in job})
    for m in machines:
        ops = [
            (start[j][k], d)
            for j, job in enumerate(jobs)
            for k, (mm, d) in enumerate(job)
            if mm == m
        ]
        if pairs:
            goals += [(a + da <= b) | (b + db <= a) for (a, da), (b, db) in combinations(ops, 2)]
        else:
            goals.append(fd.disjunctive([s for s, _ in ops], [d for _, d in ops]))
    flat = [s for row in start for s in row]
    goals.append(fd.label([*flat, end], minimize=end))
    ((makespan, starts),) = run(1, (end, start), *goals)
    return makespan, starts


def gantt(jobs: list[list[tuple[int, int]]], starts: list[list[int]], makespan: int) -> str:
    """One line per machine: each time unit shows the job (0-9) it runs, or ``.``."""
    machines = sorted({m for job in jobs for m, _ in job})
    rows = {m: ["."] * makespan for m in machines}
    for j, job in enumerate(jobs):
        for (m, d), s in zip(job, starts[j], strict=True):
            rows[m][s : s + d] = [str(j)] * d
    return "\n".join(f"machine {m}: {''.join(rows[m])}" for m in machines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="jobshop.py", description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", action="store_true", help="state machines pair by pair")
    args = parser.parse_args(argv)
    makespan, starts = schedule(FT06, args.pairs)
    print(f"ft06: shortest schedule {makespan} time units (jobs 0-5)")
    print(gantt(FT06, starts, makespan))


if __name__ == "__main__":
    main()
