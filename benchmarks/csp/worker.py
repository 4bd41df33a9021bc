"""Run one contender on one problem, in this process, and print the measurement as JSON.

``python -m benchmarks.csp.worker CONTENDER PROBLEM`` prints one line,
``{"status": ..., "seconds": ..., "result": ..., "valid": ..., "detail": ..., "maxrss_mb": ...}``.
``status`` is ``ok`` (an answer, checked by the problem's verifier),
``not-available`` (the encoding needs relqueens API that has not landed yet;
``detail`` names it) or ``no-model`` (the contender cannot state the
problem). The clock is the contender's (see ``Contender.clock``): building
the model and solving, not the interpreter's start or the imports. Any
other failure is an exception, and a non-zero exit.
"""

from __future__ import annotations

import json
import resource
import sys
import time

from .contenders import CONTENDERS, Timed
from .problems import PROBLEMS


def measure(contender: str, problem: str) -> dict:
    """Encode, solve, check: the measurement of one run."""
    solver, p = CONTENDERS[contender], PROBLEMS[problem]
    models = solver.models()  # the solver's imports are not part of the measurement
    no_model = getattr(models, "NO_MODEL", {})
    if p.family in no_model:
        return {"status": "no-model", "detail": no_model[p.family]}
    start = time.process_time()
    try:
        solve = models.MODELS[p.family](p)
    except (AttributeError, TypeError) as exc:
        missing = solver.unavailable(exc)
        if missing is None:
            raise
        return {"status": "not-available", "detail": f"not available yet: {missing}"}
    answer = solve()
    seconds = time.process_time() - start
    if isinstance(answer, Timed):
        answer, seconds = answer
    valid, result, why = p.check(answer)
    scopes = (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)  # the worker, and swipl
    rss = max(resource.getrusage(scope).ru_maxrss for scope in scopes)
    return {
        "status": "ok",
        "seconds": seconds,
        "result": result,
        "valid": valid,
        "detail": why,
        "maxrss_mb": round(rss / 1024, 1),
    }  # kB on Linux


def main(argv: list[str]) -> int:
    print(json.dumps(measure(argv[0], argv[1])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
