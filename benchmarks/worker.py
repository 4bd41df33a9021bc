"""Run one contender on one task for one n, in this process, and print the measurement as JSON.

``python -m benchmarks.worker CONTENDER TASK N`` prints
``{"seconds": ..., "result": ..., "valid": ..., "maxrss_mb": ...}``.
The clock covers the solve only (building the model included), not the
interpreter start or the imports.
"""

from __future__ import annotations

import json
import resource
import sys
import time

from .contenders import CONTENDERS


def non_attacking(board: tuple) -> bool:
    """No two queens share a column or a diagonal (in O(n), for boards of 100,000 queens)."""
    n = len(board)
    return all(
        len(set(values)) == n
        for values in (
            board,
            [r + c for r, c in enumerate(board)],
            [r - c for r, c in enumerate(board)],
        )
    )


def measure(name: str, task: str, n: int) -> dict:
    """Time one run and describe its result."""
    solve = CONTENDERS[name][task]
    import relqueens  # noqa: F401 - imports are not part of the measurement

    start = time.perf_counter()
    result = solve(n)
    seconds = time.perf_counter() - start
    if task == "first":
        valid = bool(result) and len(result) == n and non_attacking(result)
        summary = len(result) if result else 0
    else:
        valid, summary = isinstance(result, int), result
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux
    return {"seconds": seconds, "result": summary, "valid": valid, "maxrss_mb": round(rss, 1)}


def main(argv: list[str]) -> int:
    name, task, n = argv[0], argv[1], int(argv[2])
    print(json.dumps(measure(name, task, n)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
