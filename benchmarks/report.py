"""Reporting: the table of medians, the targets as measured ratios, the CSV and the plots."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import TextIO

CORE_LOGIC_PUBLISHED = {8: 0.40, 10: 7.4, 11: 37.5, 12: 198.0}
"""core.logic ``run*`` of the seed's program, warm JVM, median seconds, measured on this
project's 2-core machine (issue "Performance"); used where Clojure is not installed."""


def median(results: dict, task: str, name: str, n: int) -> float | None:
    r = results.get((task, name, n))
    return None if r is None else r["median"]


def _ratio(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None or b == 0 else a / b


def targets(results: dict) -> list[dict]:
    """Each performance target: what was measured, the bound, and whether it holds."""
    out = []

    def add(label: str, value: float | None, bound: float, at_most: bool, unit: str = "") -> None:
        met = None if value is None else (value <= bound if at_most else value >= bound)
        out.append(
            {
                "target": label,
                "value": value,
                "bound": f"{'<=' if at_most else '>='} {bound}{unit}",
                "met": met,
            }
        )

    for n in (10, 11, 12):
        add(
            f"1. relqueens / backtracker, all, n={n}",
            _ratio(
                median(results, "all", "relqueens", n), median(results, "all", "backtracker", n)
            ),
            0.5,
            True,
        )
    add(
        "2. relqueens / bitboard, all, n=12",
        _ratio(median(results, "all", "relqueens", 12), median(results, "all", "bitboard", 12)),
        10,
        True,
    )
    for n in (10, 11):
        add(
            f"3. core.logic (published) / relqueens, all, n={n}",
            _ratio(CORE_LOGIC_PUBLISHED[n], median(results, "all", "relqueens", n)),
            50,
            False,
            "x",
        )
    add(
        "4. first solution, ff, n=100 (s)",
        median(results, "first", "relqueens-ff-mid", 100),
        0.5,
        True,
        " s",
    )
    add(
        "4. first solution, ff, n=1000 (s)",
        median(results, "first", "relqueens-ff-mid", 1000),
        10,
        True,
        " s",
    )
    for n in (10, 11, 12):
        for select, suffix in (("leftmost", ""), ("ff", "-ff")):
            add(
                f"5. all / symmetry classes, {select}, n={n}",
                _ratio(
                    median(results, "all", f"relqueens{suffix}", n),
                    median(results, "all", f"relqueens-symmetry{suffix}", n),
                ),
                3,
                False,
                "x",
            )
    for n in (12, 13):
        add(
            f"7. count, 1 worker / 2 workers, n={n} (speed-up)",
            _ratio(
                median(results, "all", "count-1-worker", n),
                median(results, "all", "count-2-workers", n),
            ),
            1.5,
            False,
            "x",
        )
    lazy = results.get(("lazy", "relqueens", 12))
    add(
        "6. peak RSS, lazy n=12 (MB)", None if lazy is None else lazy["maxrss_mb"], 150, True, " MB"
    )
    return out


def _table(results: dict, task: str, out: TextIO) -> None:
    names = sorted({k[1] for k in results if k[0] == task})
    sizes = sorted({k[2] for k in results if k[0] == task})
    if not names:
        return
    width = max(len(nm) for nm in names) + 2
    out.write(f"\n{task} solutions, median seconds\n")
    out.write("n".rjust(8) + "".join(nm.rjust(width) for nm in names) + "\n")
    for n in sizes:
        cells = []
        for nm in names:
            m = median(results, task, nm, n)
            cells.append(("-" if m is None else f"{m:.4f}").rjust(width))
        out.write(str(n).rjust(8) + "".join(cells) + "\n")


def agreement(results: dict) -> list[str]:
    """Disagreements between contenders' counts at the same n (there should be none)."""
    problems = []
    by_n: dict[int, dict] = {}
    for (t, name, n), r in results.items():
        if t in ("all", "lazy") and "symmetry" not in name:
            by_n.setdefault(n, {})[name] = r["result"]
    for n, counts in sorted(by_n.items()):
        if len(set(counts.values())) > 1:
            problems.append(f"n={n}: counts differ: {counts}")
    problems += [f"{k}: an invalid result" for k, r in results.items() if not r["valid"]]
    return problems


def print_report(results: dict, checks: list[dict], out: TextIO) -> None:
    for task in ("all", "first", "lazy"):
        _table(results, task, out)
    out.write("\ntargets\n")
    for c in checks:
        value = "not measured" if c["value"] is None else f"{c['value']:.3f}"
        verdict = {True: "met", False: "NOT met", None: "-"}[c["met"]]
        out.write(f"  {c['target']:48} {value:>14}  ({c['bound']})  {verdict}\n")
    problems = agreement(results)
    out.write(
        "\ncross-check: "
        + ("all contenders agree\n" if not problems else "\n  " + "\n  ".join(problems) + "\n")
    )


def write_csv(results: dict, folder: str) -> Path:
    path = Path(folder) / "benchmark.csv"
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["task", "contender", "n", "median_s", "runs", "result", "valid", "maxrss_mb"])
        for (task, name, n), r in sorted(results.items()):
            w.writerow(
                [
                    task,
                    name,
                    n,
                    f"{r['median']:.6f}",
                    r["runs"],
                    r["result"],
                    r["valid"],
                    r["maxrss_mb"],
                ]
            )
    return path


def plot(results: dict, folder: str) -> list[Path]:
    """Time against n, log scale, one line per contender; nothing if matplotlib is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed (pip install '.[plot]'): no plots")
        return []
    paths = []
    for task, title in (("all", "all solutions"), ("first", "first solution")):
        names = sorted({k[1] for k in results if k[0] == task})
        if not names:
            continue
        fig, ax = plt.subplots(figsize=(8, 5))
        for name in names:
            pts = sorted(
                (n, r["median"]) for (t, nm, n), r in results.items() if t == task and nm == name
            )
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=name)
        if task == "all":
            pts = sorted(CORE_LOGIC_PUBLISHED.items())
            ax.plot(
                [p[0] for p in pts],
                [p[1] for p in pts],
                "k--",
                marker="x",
                label="core.logic (published)",
            )
        else:
            ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("n")
        ax.set_ylabel("median seconds")
        ax.set_title(f"N-queens, {title}")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
        path = Path(folder) / f"performance-{task}.png"
        fig.tight_layout()
        fig.savefig(path, dpi=100)
        plt.close(fig)
        paths.append(path)
    return paths
