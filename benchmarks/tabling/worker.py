"""Run one contender on one problem, in this process: ``python -m benchmarks.tabling.worker CONTENDER PROBLEM``.

Prints one line of JSON as the CSP suite's worker does (``status``,
``seconds``, ``result``, ``valid``, ``detail``, ``maxrss_mb``). The clock is
CPU time around the query alone (SWI-Prolog's own, for swipl); the result
is the number of answers, valid when they are the expected pairs, each once.
"""

from __future__ import annotations

import json
import resource
import sys
import time

from ..csp.contenders import Timed
from .contenders import CONTENDERS
from .problems import PROBLEMS, expected


def measure(contender: str, problem: str) -> dict:
    """Load the facts, time the query, check the answers."""
    p = PROBLEMS[problem]
    model = CONTENDERS[contender].models.get(p.kind)
    if model is None:
        return {"status": "no-model", "detail": f"{contender} has no {p.kind} query"}
    query = model(p, p.facts())
    start = time.process_time()
    answers = query()
    seconds = time.process_time() - start
    if isinstance(answers, Timed):
        answers, seconds = answers
    pairs = [tuple(a) for a in answers]
    want = expected(p)
    duplicates = len(pairs) - len(set(pairs))
    valid = duplicates == 0 and set(pairs) == want
    why = "" if valid else f"{duplicates} duplicates, {len(set(pairs) ^ want)} pairs differ"
    rss = max(
        resource.getrusage(s).ru_maxrss for s in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    )
    return {
        "status": "ok",
        "seconds": seconds,
        "result": len(pairs),
        "valid": valid,
        "detail": why,
        "maxrss_mb": round(rss / 1024, 1),
    }


def main(argv: list[str]) -> int:
    print(json.dumps(measure(argv[0], argv[1])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
