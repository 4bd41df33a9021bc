"""Counting all boards past one core: partition by pinning, on any executor, resumable.

Every consistent placement of the first ``k`` rows is one sub-problem: the
same relational query, ``queenso`` with those rows pinned, counted on its own.
Sub-problems go to a :class:`concurrent.futures.Executor` — in-process by
default, a process pool, or a Dask cluster's ``client.get_executor()`` — and
each finished count can be recorded in a checkpoint (SQLite), so a run that
is killed finishes later without recounting.

With ``mirror=True`` only first-row columns left of the middle are counted,
twice (a board and its left-right mirror image are different boards), plus
the middle column once for odd n: half the work, the same total.

>>> count(8).total, count(8, split_rows=2, mirror=True).total
(92, 92)
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from . import fd
from .fd.answers import run
from .fd.store import fd_state
from .fd.terms import vars
from .logic import eq, lall
from .queens import queenso
from .reference import check_n

Prefix = tuple[int, ...]


class CountError(RuntimeError):
    """Sub-problems failed after their retries; the others were counted (and checkpointed)."""


class CheckpointError(ValueError):
    """A checkpoint file that does not belong to this count (other arguments) or is unreadable."""


def prefixes(n: int, k: int) -> list[Prefix]:
    """Every placement of ``k`` mutually non-attacking queens in the first ``k`` rows.

    Found relationally: the three facts, stated for the first k rows only.

    >>> prefixes(4, 1), len(prefixes(8, 2))
    ([(0,), (1,), (2,), (3,)], 42)
    """
    cols = vars(k)
    goals = [fd.in_(*cols, fd.interval(0, n - 1)), fd.distinct(cols)] if k else []
    goals += [c for i in range(k) for j in range(i + 1, k)
              for c in (cols[j] != cols[i] + (j - i), cols[i] != cols[j] + (j - i))]
    return [tuple(p) for p in run(0, cols, *goals)]


def weight(prefix: Prefix, n: int, mirror: bool) -> int:
    """How many times a sub-problem counts: 1, or with ``mirror`` 2 left of the middle, 0 right of it."""
    if not mirror:
        return 1
    first = prefix[0]
    if 2 * first + 1 < n:
        return 2
    return 1 if 2 * first + 1 == n else 0


def count_subproblem(n: int, prefix: Prefix) -> int:
    """The number of solutions whose first rows are ``prefix``: the relation with those rows pinned.

    The three facts are posted once per process and board size; each
    sub-problem pins its rows on that (persistent) state and labels the rest,
    so a sub-problem costs its search, not a fresh model.
    """
    cols, state = _posted(n)
    goal = lall(*(eq(cols[r], c) for r, c in enumerate(prefix)), fd.label(cols))
    return sum(1 for _ in goal(state))


@lru_cache(maxsize=8)
def _posted(n: int) -> tuple[list, object]:
    """The board's variables and the state with ``queenso`` posted (computed once per n)."""
    cols = vars(n)
    start = fd_state({})
    return cols, next(iter(queenso(cols, n)(start)))


class InlineExecutor(Executor):
    """Runs each task at once, in this process (the default executor)."""

    def submit(self, fn: Callable, /, *args, **kwargs) -> Future:
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as e:
            if isinstance(e, KeyboardInterrupt):
                raise
            future.set_exception(e)
        return future


class Checkpoint:
    """Finished sub-problems in an SQLite file, each committed as it completes."""

    def __init__(self, path: str | Path, params: dict) -> None:
        self.path = Path(path)
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None)
            self.db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)")
            self.db.execute("CREATE TABLE IF NOT EXISTS done (prefix TEXT PRIMARY KEY, count INTEGER)")
            stored = dict(self.db.execute("SELECT key, value FROM meta"))
        except sqlite3.DatabaseError as e:
            raise CheckpointError(f"{self.path} is not a relqueens checkpoint: {e}") from None
        wanted = {k: str(v) for k, v in params.items()}
        if not stored:
            self.db.executemany("INSERT INTO meta VALUES (?, ?)", wanted.items())
        elif stored != wanted:
            theirs = ", ".join(f"{k}={v}" for k, v in sorted(stored.items()))
            raise CheckpointError(
                f"{self.path} was written for a different count ({theirs}); use another file, "
                "or the same arguments"
            )

    def done(self) -> dict[Prefix, int]:
        rows = self.db.execute("SELECT prefix, count FROM done")
        return {tuple(int(v) for v in p.split(",") if v): c for p, c in rows}

    def record(self, prefix: Prefix, value: int) -> None:
        self.db.execute("INSERT OR REPLACE INTO done VALUES (?, ?)", (",".join(map(str, prefix)), value))

    def close(self) -> None:
        self.db.close()


@dataclass
class CountResult:
    """The total, and how it was made."""

    n: int
    total: int
    subproblems: int
    computed: int
    resumed: int
    seconds: float
    failed: list = field(default_factory=list)


def count(
    n: int,
    *,
    split_rows: int | None = None,
    executor: Executor | None = None,
    mirror: bool = False,
    checkpoint: str | Path | None = None,
    retries: int = 2,
    progress: Callable[[int, int, float], None] | None = None,
) -> CountResult:
    """Count all solutions of n-queens, split by pinning the first ``split_rows`` rows.

    ``split_rows`` defaults to 0 for n < 10 (one sub-problem) and 2 above.
    ``executor`` is any ``concurrent.futures.Executor`` (default: in process).
    A sub-problem that raises is retried ``retries`` times, then reported in
    :class:`CountError` — never dropped. ``progress(done, total, seconds)`` is
    called as sub-problems finish.

    >>> count(6, split_rows=1).subproblems
    6
    """
    check_n(n)
    k = (0 if n < 10 else 2) if split_rows is None else split_rows
    if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= n:
        raise ValueError(f"split_rows must be an integer in 0..{n}, got {split_rows!r}")
    if mirror and k == 0:
        k = min(1, n)
    if isinstance(retries, bool) or not isinstance(retries, int) or retries < 0:
        raise ValueError(f"retries must be a non-negative integer, got {retries!r}")
    start = time.monotonic()
    todo = [(p, w) for p in prefixes(n, k) if (w := weight(p, n, mirror))]
    store = None if checkpoint is None else Checkpoint(checkpoint, {"n": n, "split_rows": k, "mirror": mirror})
    try:
        finished = store.done() if store else {}
        wanted = dict(todo)
        resumed = {p: c for p, c in finished.items() if p in wanted}
        pending = [(p, w) for p, w in todo if p not in resumed]
        counts = _run(n, pending, executor or InlineExecutor(), retries, store, progress, len(todo), len(resumed), start)
    finally:
        if store:
            store.close()
    failed = [p for p, _ in pending if p not in counts]
    total = sum(w * (resumed[p] if p in resumed else counts.get(p, 0)) for p, w in todo)
    result = CountResult(n, total, len(todo), len(counts), len(resumed), time.monotonic() - start, failed)
    if failed:
        raise CountError(
            f"{len(failed)} of {len(todo)} sub-problems failed after {retries} retries "
            f"(first: rows {failed[0]}): the total is incomplete"
            + ("; the rest are in the checkpoint: run again to finish" if store else "")
        )
    return result


def _run(n, pending, executor, retries, store, progress, total, already, start) -> dict[Prefix, int]:
    """Submit the pending sub-problems (a bounded number in flight), retry failures, record each count."""
    counts: dict[Prefix, int] = {}
    attempts: dict[Prefix, int] = {}
    inflight = 1 if isinstance(executor, InlineExecutor) else 64
    queue = [p for p, _ in reversed(pending)]
    futures: dict[Future, Prefix] = {}
    while queue or futures:
        while queue and len(futures) < inflight:
            p = queue.pop()
            try:
                futures[executor.submit(count_subproblem, n, p)] = p
            except RuntimeError:  # the executor is broken (a dead pool, a closed client)
                queue.clear()
        if not futures:
            break
        done, _ = wait(futures, return_when=FIRST_COMPLETED)
        for f in done:
            p = futures.pop(f)
            try:
                value = f.result()
            except Exception:  # noqa: BLE001 - retried, then reported by the caller
                attempts[p] = attempts.get(p, 0) + 1
                if attempts[p] <= retries:
                    queue.append(p)
                continue
            counts[p] = value
            if store:
                store.record(p, value)
            if progress:
                progress(already + len(counts), total, time.monotonic() - start)
    return counts
