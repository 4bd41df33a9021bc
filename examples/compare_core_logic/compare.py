"""relqueens beside the Clojure original: solution sets, counts, answer order, time.

Run it: ``python examples/compare_core_logic/compare.py [N ...]`` (default 4..10).

The Python side always runs. The Clojure side runs where both are found:

* a ``clojure`` command (Debian: ``apt-get install clojure``), and
* core.logic's sources or jar, named by ``CORE_LOGIC_CLASSPATH`` (for example
  ``/path/to/core.logic/src/main/clojure`` from a clone of
  github.com/clojure/core.logic, or the path of ``core.logic-1.x.jar``).

Where they are not, it says so and exits 0 after the Python side.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from relqueens import queenso, run_all, vars

HERE = Path(__file__).resolve().parent


def relqueens_side(n: int, repeats: int = 3) -> tuple[list[tuple[int, ...]], float]:
    """All solutions of the seed's pairwise model through the public API, and the median time."""
    times, sols = [], []
    for _ in range(repeats):
        cols = vars(n)
        start = time.perf_counter()
        sols = run_all(cols, queenso(cols, n))
        times.append(time.perf_counter() - start)
    return [tuple(s) for s in sols], statistics.median(times)


def clojure_command() -> list[str] | None:
    """The command that runs a script with core.logic on the classpath, or ``None``."""
    classpath = os.environ.get("CORE_LOGIC_CLASSPATH")
    clojure = shutil.which("clojure")
    if not (classpath and clojure):
        return None
    jars = [str(p) for p in sorted(Path("/usr/share/java").glob("clojure*.jar"))]
    if shutil.which("java") and jars:  # Debian's layout: run clojure.main with java directly
        return ["java", "-cp", os.pathsep.join([classpath, *jars]), "clojure.main"]
    return [clojure, "-Scp", classpath, "-M"]


def clojure_side(command: list[str], sizes: list[int]) -> dict[int, tuple[list, float]]:
    """Run the seed's program for each n; parse counts, solutions (in run* order) and times."""
    out = subprocess.run(
        [*command, str(HERE / "eight_queens.clj"), *map(str, sizes)],
        capture_output=True,
        text=True,
        check=True,
        timeout=3600,
    ).stdout
    result: dict[int, tuple[list, float]] = {}
    for line in out.splitlines():
        parts = line.split()
        if parts[:1] == ["n"]:
            result[int(parts[1])] = ([], float(parts[5]))
        elif parts[:1] == ["sol"]:
            result[int(parts[1])][0].append(tuple(int(v) for v in parts[2:]))
    return result


def main(argv: list[str]) -> int:
    sizes = [int(a) for a in argv] or list(range(4, 11))
    ours = {n: relqueens_side(n) for n in sizes}
    command = clojure_command()
    theirs = clojure_side(command, sizes) if command else {}
    if not command:
        print(
            "core.logic side skipped: set CORE_LOGIC_CLASSPATH and install clojure to run it "
            "(see this script's docstring)\n"
        )
    print(
        f"{'n':>3} {'relqueens':>10} {'s':>9} {'core.logic':>11} {'s':>9} {'same set':>9} "
        f"{'first 5 same order':>19} {'speed-up':>9}"
    )
    for n in sizes:
        sols, secs = ours[n]
        line = f"{n:>3} {len(sols):>10} {secs:>9.4f}"
        if n in theirs:
            csols, csecs = theirs[n]
            same = set(sols) == set(csols) and len(csols) == len(set(csols))
            order = sols[:5] == csols[:5]
            line += (
                f" {len(csols):>11} {csecs:>9.4f} {same!s:>9} {order!s:>19} {csecs / secs:>8.0f}x"
            )
        print(line)
    for n in sizes:
        if n in theirs and theirs[n][0][:5] != ours[n][0][:5]:
            print(
                f"\nn = {n}, first answers: relqueens {ours[n][0][:3]}, core.logic {theirs[n][0][:3]}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
