"""Running the plan: one process per measurement, contenders interleaved round by round."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
from dataclasses import dataclass, field
from typing import TextIO

from .contenders import available


@dataclass
class Plan:
    """For each task, the sizes n to run each contender at."""

    all: dict = field(default_factory=dict)
    first: dict = field(default_factory=dict)
    lazy: dict = field(default_factory=dict)

    def only(self, names: set[str]) -> Plan:
        """The same plan, for the named contenders only."""
        unknown = names - {name for task in (self.all, self.first, self.lazy) for name in task}
        if unknown:
            raise SystemExit(f"unknown contenders: {', '.join(sorted(unknown))}")
        pick = lambda sizes: {k: v for k, v in sizes.items() if k in names}
        return Plan(pick(self.all), pick(self.first), pick(self.lazy))

    def jobs(self) -> list[tuple[str, str, int]]:
        """``(task, contender, n)`` in the order one round runs them: by n, contenders interleaved."""
        out = []
        for task in ("all", "first", "lazy"):
            sizes = getattr(self, task)
            for n in sorted({n for ns in sizes.values() for n in ns}):
                out.extend((task, name, n) for name, ns in sizes.items() if n in ns)
        return out


def run_one(task: str, name: str, n: int, timeout: float) -> dict | None:
    """Measure once in a fresh interpreter; ``None`` if it took longer than ``timeout``."""
    try:
        done = subprocess.run(
            [sys.executable, "-m", "benchmarks.worker", name, task, str(n)],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=True,
        )
    except subprocess.TimeoutExpired:
        return None
    except subprocess.CalledProcessError as e:
        raise RuntimeError(f"{name} {task} n={n} failed:\n{e.stderr}") from e
    return json.loads(done.stdout)


def run_plan(plan: Plan, *, repeat: int, timeout: float, log: TextIO) -> dict:
    """Run every job ``repeat`` times; return ``{(task, name, n): summary}``.

    A contender that times out at some n is not run at larger n of that task.
    """
    runs: dict[tuple, list[dict]] = {}
    stopped: dict[tuple, int] = {}
    skipped = {
        name: why
        for task in ("all", "first", "lazy")
        for name in getattr(plan, task)
        if (why := available(name))
    }
    for name, why in skipped.items():
        log.write(f"skipping {name}: {why}\n")
    for round_no in range(1, repeat + 1):
        log.write(f"round {round_no} of {repeat}\n")
        for task, name, n in plan.jobs():
            if name in skipped or n >= stopped.get((task, name), n + 1):
                continue
            m = run_one(task, name, n, timeout)
            if m is None:
                stopped[(task, name)] = n
                log.write(f"  {task:5} {name:26} n={n:<7} timed out after {timeout:.0f} s\n")
                continue
            runs.setdefault((task, name, n), []).append(m)
            log.write(f"  {task:5} {name:26} n={n:<7} {m['seconds']:9.4f} s  -> {m['result']}\n")
            log.flush()
    results = {}
    for key, ms in runs.items():
        if stopped.get(key[:2], key[2] + 1) <= key[2]:
            continue  # timed out in a later round: no median for this n
        results[key] = {
            "median": statistics.median(m["seconds"] for m in ms),
            "runs": len(ms),
            "result": ms[0]["result"],
            "valid": all(m["valid"] and m["result"] == ms[0]["result"] for m in ms)
            or (key[0] == "first" and all(m["valid"] for m in ms)),
            "maxrss_mb": max(m["maxrss_mb"] for m in ms),
        }
    return results
