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

import os
import signal
import sqlite3
import threading
import time
from collections.abc import Callable, Collection, Iterator
from concurrent.futures import FIRST_COMPLETED, BrokenExecutor, Executor, Future, wait
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, ParamSpec, TypeVar

from . import fd
from .fd.answers import run
from .fd.store import fd_state
from .fd.terms import vars
from .logic import eq, lall
from .queens import queenso
from .reference import check_n

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing.process import BaseProcess
    from types import TracebackType

    from .fd.terms import LVar
    from .logic import State

Prefix = tuple[int, ...]
_P = ParamSpec("_P")
_T = TypeVar("_T")

MAX_SUBPROBLEMS = 100_000
"""A count splits into at most this many placements of its first rows (pin fewer rows for more)."""
TASKS = 128
"""Sub-problems go to an executor in about this many tasks (a batch each): a task's cost is then
its search, not the round trip to a worker, while batches stay many enough to balance."""


class CountError(RuntimeError):
    """Sub-problems failed after their retries; the others were counted (and checkpointed)."""


class CheckpointError(ValueError):
    """A checkpoint that cannot serve this count: other arguments, not one of relqueens', or unusable."""


def prefixes(n: int, k: int, *, limit: int | None = None) -> list[Prefix]:
    """Every placement of ``k`` mutually non-attacking queens in the first ``k`` rows (at most ``limit``).

    Found relationally: the three facts, stated for the first k rows only.

    >>> prefixes(4, 1), len(prefixes(8, 2)), len(prefixes(8, 2, limit=5))
    ([(0,), (1,), (2,), (3,)], 42, 5)
    """
    cols = vars(k)
    goals = [fd.in_(*cols, fd.interval(0, n - 1)), fd.distinct(cols)] if k else []
    goals += [
        c  # type: ignore[misc]  # LVar != Lin: Lin's reflected __ne__ makes a Relation
        for i in range(k)
        for j in range(i + 1, k)
        for c in (cols[j] != cols[i] + (j - i), cols[i] != cols[j] + (j - i))
    ]
    return [tuple(p) for p in run(limit or 0, cols, *goals)]


def weight(prefix: Prefix, n: int, mirror: bool) -> int:
    """How many times a sub-problem counts: 1, or with ``mirror`` 2 left of the middle, 0 right of it."""
    if not (mirror and prefix):
        return 1
    first = prefix[0]
    if 2 * first + 1 < n:
        return 2
    return 1 if 2 * first + 1 == n else 0


def _at_least(name: str, value: object, least: int) -> int:
    """``value``, if it is an integer of at least ``least``; else an error naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    if value < least:
        raise ValueError(f"{name} must be at least {least}, got {value}")
    return value


def split_depth(n: int, split_rows: int | None = None, mirror: bool = False) -> int:
    """How many rows a count pins: ``split_rows``, checked, or its default (see :func:`count`).

    >>> split_depth(8), split_depth(12), split_depth(8, mirror=True)
    (0, 2, 1)
    """
    check_n(n)
    k = (0 if n < 10 else 2) if split_rows is None else split_rows
    if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= n:
        raise ValueError(f"split_rows must be an integer in 0..{n}, got {split_rows!r}")
    return min(1, n) if mirror and k == 0 else k


def plan(n: int, split_rows: int | None = None, mirror: bool = False) -> list[tuple[Prefix, int]]:
    """The sub-problems of a count and their weights, in order; see :func:`count` for the arguments.

    At most :data:`MAX_SUBPROBLEMS` placements: a deeper split is refused, not enumerated.

    >>> plan(5, split_rows=1, mirror=True)
    [((0,), 2), ((1,), 2), ((2,), 1)]
    """
    k = split_depth(n, split_rows, mirror)
    placements = prefixes(n, k, limit=MAX_SUBPROBLEMS + 1)
    if len(placements) > MAX_SUBPROBLEMS:
        raise ValueError(
            f"pinning {k} rows of {n} makes more than {MAX_SUBPROBLEMS:,} sub-problems; pin fewer rows"
        )
    return [(p, w) for p in placements if (w := weight(p, n, mirror))]


def count_subproblem(n: int, prefix: Prefix) -> int:
    """The number of solutions whose first rows are ``prefix``: the relation with those rows pinned.

    The three facts are posted once per process and board size; each
    sub-problem pins its rows on that (persistent) state and labels the rest,
    so a sub-problem costs its search, not a fresh model.

    >>> count_subproblem(8, (0, 4))
    1
    """
    cols, state = _posted(n)
    goal = lall(*(eq(cols[r], c) for r, c in enumerate(prefix)), fd.label(cols))
    return sum(1 for _ in goal(state))


def count_subproblems(n: int, batch: list[Prefix]) -> list[int]:
    """:func:`count_subproblem` of each prefix of ``batch``: one task for several small ones.

    >>> count_subproblems(8, [(0, 2), (0, 4)])
    [0, 1]
    """
    return [count_subproblem(n, p) for p in batch]


@lru_cache(maxsize=8)
def _posted(n: int) -> tuple[list[LVar], State]:
    """The board's variables and the state with ``queenso`` posted (computed once per n)."""
    cols = vars(n)
    start = fd_state({})
    return cols, next(iter(queenso(cols, n)(start)))


class InlineExecutor(Executor):
    """Runs each task at once, in this process (the default executor)."""

    def submit(self, fn: Callable[_P, _T], /, *args: _P.args, **kwargs: _P.kwargs) -> Future[_T]:
        future: Future[_T] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as e:
            if isinstance(e, KeyboardInterrupt):
                raise
            future.set_exception(e)
        return future


_STOPS = {signal.SIGINT, signal.SIGTERM}


@contextmanager
def _stops_deferred() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM back while workers are forked: each sets its own handlers first."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _worker_started() -> None:
    """In each worker: leave Ctrl-C to the parent, die on SIGTERM, and exit when the parent dies."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPS)
    from multiprocessing import parent_process  # a worker's: not at import (milliseconds)

    parent = parent_process()
    if parent is not None:
        threading.Thread(
            target=_exit_with, args=(parent,), daemon=True, name="parent-watch"
        ).start()


def _exit_with(parent: BaseProcess) -> None:
    """Wait for the parent to die (its sentinel closes, even after kill -9), then exit at once."""
    parent.join()
    os._exit(1)


class WorkerPool(Executor):
    """A local process pool that survives its workers and never outlives its parent.

    Workers ignore Ctrl-C (the parent stops them), die on SIGTERM, and exit
    as soon as the parent process dies, however it dies. A worker that dies
    (killed, out of memory) breaks a :class:`~concurrent.futures.ProcessPoolExecutor`
    for good; this pool starts a new one at the next ``submit``, up to
    ``restarts`` times, and :func:`count` retries the sub-problems the broken
    one held. ``shutdown(cancel_futures=True)`` kills the workers at once.

    >>> with WorkerPool(1) as pool:
    ...     pool.submit(count_subproblem, 6, (1,)).result()
    1
    """

    def __init__(self, workers: int, *, restarts: int = 10) -> None:
        self.workers, self.restarts, self.replaced = _at_least("workers", workers, 1), restarts, 0
        self._pool = self._start()

    def _start(self) -> ProcessPoolExecutor:
        from concurrent.futures import ProcessPoolExecutor  # loads multiprocessing: not at import

        return ProcessPoolExecutor(self.workers, initializer=_worker_started)

    def submit(self, fn: Callable[_P, _T], /, *args: _P.args, **kwargs: _P.kwargs) -> Future[_T]:
        with _stops_deferred():
            try:
                return self._pool.submit(fn, *args, **kwargs)
            except BrokenExecutor:
                if self.replaced >= self.restarts:
                    raise
            self._stop_now()
            self._pool, self.replaced = self._start(), self.replaced + 1
            return self._pool.submit(fn, *args, **kwargs)

    def _stop_now(self) -> None:
        # ProcessPoolExecutor keeps its processes by pid; Python 3.14's terminate_workers() does the same
        for process in list((getattr(self._pool, "_processes", None) or {}).values()):
            process.kill()
        self._pool.shutdown(wait=True, cancel_futures=True)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        if cancel_futures:
            self._stop_now()
        else:
            self._pool.shutdown(wait=wait)

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> Literal[False]:
        self.shutdown(cancel_futures=kind is not None)
        return False


_TABLES = {
    "meta": "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)",
    "done": "CREATE TABLE done (prefix TEXT PRIMARY KEY, count INTEGER)",
}
_SCHEMA = {("table", name, sql) for name, sql in _TABLES.items()} | {
    ("index", f"sqlite_autoindex_{name}_1", None) for name in _TABLES
}
_CAUSES = {  # SQLite's error names, by prefix, as a user can act on them
    "SQLITE_READONLY": "it is read-only (the file, or its folder): make it writable, or use another file",
    "SQLITE_BUSY": "another process holds it locked (is another count running on it?)",
    "SQLITE_LOCKED": "another process holds it locked (is another count running on it?)",
    "SQLITE_CANTOPEN": "cannot open or create it: does its folder exist, and may we write there?",
    "SQLITE_NOTADB": "it is not an SQLite file, so not a relqueens checkpoint",
    "SQLITE_CORRUPT": "the file is damaged: delete it and count again",
    "SQLITE_FULL": "the disk is full",
    "SQLITE_PERM": "permission denied",
}


def _cause(error: sqlite3.Error) -> str:
    name = getattr(error, "sqlite_errorname", None) or ""
    return next((text for key, text in _CAUSES.items() if name.startswith(key)), str(error))


def _parse_prefix(text: Any) -> Prefix | None:
    try:
        return tuple(int(v) for v in text.split(",") if v)
    except (AttributeError, ValueError):
        return None


class Checkpoint:
    """Finished sub-problems in an SQLite file, each committed as it completes.

    A new (or empty) file gets relqueens' two tables and the count's
    parameters in one transaction. Any other SQLite file is refused
    untouched, and so is a checkpoint written for other parameters. Every
    SQLite error becomes a :class:`CheckpointError` naming the file and the
    cause.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     c = Checkpoint(f"{d}/c.sqlite", {"n": 4})
    ...     c.record((1,), 1)
    ...     c.done({(1,), (2,)}), c.close()
    ({(1,): 1}, None)
    """

    def __init__(self, path: str | Path, params: dict[str, object]) -> None:
        self.path = Path(path)
        wanted = {k: str(v) for k, v in params.items()}
        self.db = self._sql(sqlite3.connect, self.path, isolation_level=None)
        try:
            stored = self._sql(self._claim, wanted)
        except CheckpointError:
            self.db.close()
            raise
        if stored != wanted:
            self.db.close()
            theirs = ", ".join(f"{k}={v}" for k, v in sorted(stored.items()))
            raise CheckpointError(
                f"{self.path} was written for a different count ({theirs}); use another file, "
                "or the same arguments"
            )

    def _sql(self, fn: Callable[_P, _T], *args: _P.args, **kwargs: _P.kwargs) -> _T:
        """``fn(*args, **kwargs)``, with SQLite's errors as one :class:`CheckpointError`."""
        try:
            return fn(*args, **kwargs)
        except sqlite3.Error as e:
            raise CheckpointError(f"checkpoint {self.path}: {_cause(e)}") from None

    def _schema(self) -> set[tuple[Any, ...]]:
        return set(self.db.execute("SELECT type, name, sql FROM sqlite_master"))

    def _claim(self, wanted: dict[str, str]) -> dict[str, str]:
        """The stored parameters; a fresh file first gets the tables and ``wanted``, in one transaction."""
        if not self._schema():
            with self.db:
                self.db.execute("BEGIN IMMEDIATE")
                if not self._schema():  # no other count claimed it meanwhile
                    for sql in _TABLES.values():
                        self.db.execute(sql)
                    self.db.executemany("INSERT INTO meta VALUES (?, ?)", wanted.items())
        schema = self._schema()
        if schema != _SCHEMA:
            tables = (
                ", ".join(sorted(name for kind, name, _ in schema if kind == "table")) or "none"
            )
            raise CheckpointError(
                f"{self.path} is an SQLite database but not a relqueens checkpoint (its tables: {tables}); "
                "it was left untouched: name a new file"
            )
        return dict(self.db.execute("SELECT key, value FROM meta"))

    def check_writable(self) -> None:
        """Refuse now, not after the first sub-problem, a checkpoint that cannot record."""

        def probe() -> None:
            with self.db:
                self.db.execute("BEGIN IMMEDIATE")
                self.db.execute("UPDATE meta SET value = value")
                self.db.rollback()

        self._sql(probe)

    def done(self, wanted: Collection[Prefix]) -> dict[Prefix, int]:
        """The recorded counts, each checked: a sub-problem of ``wanted`` and a non-negative integer."""
        finished: dict[Prefix, int] = {}
        for text, value in self._sql(
            lambda: self.db.execute("SELECT prefix, count FROM done").fetchall()
        ):
            prefix = _parse_prefix(text)
            if prefix is None or prefix not in wanted:
                problem = f"sub-problem {text!r} is not one of this count's"
            elif isinstance(value, bool) or not isinstance(value, int) or value < 0:
                problem = f"sub-problem {text!r} holds {value!r}, not a count"
            else:
                finished[prefix] = value
                continue
            raise CheckpointError(
                f"checkpoint {self.path}: {problem}; it was edited or damaged: delete that row (or the file)"
            )
        return finished

    def record(self, prefix: Prefix, value: int) -> None:
        """Commit one finished sub-problem."""
        self._sql(
            self.db.execute,
            "INSERT OR REPLACE INTO done VALUES (?, ?)",
            (",".join(map(str, prefix)), value),
        )

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
    failed: list[Prefix] = field(default_factory=list)


def count(
    n: int,
    *,
    split_rows: int | None = None,
    executor: Executor | None = None,
    workers: int | None = None,
    mirror: bool = False,
    checkpoint: str | Path | None = None,
    retries: int = 2,
    progress: Callable[[int, int, float], None] | None = None,
) -> CountResult:
    """Count all solutions of n-queens, split by pinning the first ``split_rows`` rows.

    ``split_rows`` defaults to 0 for n < 10 (one sub-problem) and 2 above.
    ``executor`` is any ``concurrent.futures.Executor`` (default: in
    process); or ``workers=W`` runs a :class:`WorkerPool` of W workers (at
    most one per sub-problem), replaced if a worker dies. A sub-problem
    that raises is retried ``retries`` times, then reported in
    :class:`CountError` — never dropped. ``progress(done, total, seconds)``
    is called at the start and as sub-problems finish.

    >>> count(6, split_rows=1).subproblems, count(0, mirror=True).total
    (6, 1)
    """
    k = split_depth(n, split_rows, mirror)
    if executor is not None and not callable(getattr(executor, "submit", None)):
        raise TypeError(f"executor must be a concurrent.futures.Executor, got {executor!r}")
    if workers is not None:
        _at_least("workers", workers, 1)
        if executor is not None:
            raise ValueError("give an executor or a number of workers, not both")
    _at_least("retries", retries, 0)
    if checkpoint is not None and not isinstance(checkpoint, (str, os.PathLike)):
        raise TypeError(f"checkpoint must be a file name, got {checkpoint!r}")
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be a function (done, total, seconds), got {progress!r}")
    start = time.monotonic()
    todo = plan(n, k, mirror)
    store = (
        None
        if checkpoint is None
        else Checkpoint(checkpoint, {"n": n, "split_rows": k, "mirror": mirror})
    )
    try:
        wanted = dict(todo)
        resumed = store.done(wanted) if store else {}
        pending = [(p, w) for p, w in todo if p not in resumed]
        if store and pending:
            store.check_writable()
        if progress:
            progress(len(resumed), len(todo), 0.0)
        with ExitStack() as stack:
            if workers is not None and pending:
                executor = stack.enter_context(WorkerPool(min(workers, len(pending))))
            counts, errors = _run(
                n,
                pending,
                executor or InlineExecutor(),
                retries,
                store,
                progress,
                len(todo),
                len(resumed),
                start,
            )
    finally:
        if store:
            store.close()
    failed = [p for p, _ in pending if p not in counts]
    total = sum(w * (resumed[p] if p in resumed else counts.get(p, 0)) for p, w in todo)
    result = CountResult(
        n, total, len(todo), len(counts), len(resumed), time.monotonic() - start, failed
    )
    if failed:
        why = errors.get(failed[0])
        cause = "" if why is None else f", {type(why).__name__}" + (f": {why}" if str(why) else "")
        raise CountError(
            f"{len(failed)} of {len(todo)} sub-problems failed after {retries} retries "
            f"(first: rows {failed[0]}{cause}): the total is incomplete"
            + ("; the rest are in the checkpoint: run again to finish" if store else "")
        )
    return result


def _run(
    n: int,
    pending: list[tuple[Prefix, int]],
    executor: Executor,
    retries: int,
    store: Checkpoint | None,
    progress: Callable[[int, int, float], None] | None,
    total: int,
    already: int,
    start: float,
) -> tuple[dict[Prefix, int], dict[Prefix, BaseException]]:
    """Submit the pending sub-problems in batches (a bounded number in flight), retry failures,
    record each count.

    A batch lost with a broken pool is requeued without using a retry: the
    pool (a :class:`WorkerPool`) bounds how often it is replaced. A batch
    that raises is split into single sub-problems, each then retried on its
    own. Returns the counts, and the last error of each sub-problem that failed.
    """
    counts: dict[Prefix, int] = {}
    attempts: dict[Prefix, int] = {}
    errors: dict[Prefix, BaseException] = {}
    inline = isinstance(executor, InlineExecutor)
    inflight, size = (1, 1) if inline else (64, max(1, -(-len(pending) // TASKS)))
    prefixes = [p for p, _ in pending]
    queue = [prefixes[k : k + size] for k in range(0, len(prefixes), size)][::-1]
    futures: dict[Future[Any], list[Prefix]] = {}  # a count, or a batch's counts
    while queue or futures:
        while queue and len(futures) < inflight:
            batch = queue.pop()
            try:
                futures[
                    executor.submit(count_subproblem, n, batch[0])
                    if len(batch) == 1
                    else executor.submit(count_subproblems, n, batch)
                ] = batch
            except (
                RuntimeError
            ) as e:  # the executor is broken for good (a dead pool, a closed client)
                errors.update(dict.fromkeys([p for b in [batch, *queue] for p in b], e))
                queue.clear()
        if not futures:
            break
        done, _ = wait(futures, return_when=FIRST_COMPLETED)
        for f in done:
            batch = futures.pop(f)
            try:
                result = f.result()
            except BrokenExecutor:
                queue.append(batch)
                continue
            except Exception as e:
                if len(batch) > 1:  # find the one that fails: each on its own
                    queue += [[p] for p in reversed(batch)]
                    continue
                (p,) = batch
                errors[p] = e
                attempts[p] = attempts.get(p, 0) + 1
                if attempts[p] <= retries:
                    queue.append(batch)
                continue
            for p, value in zip(batch, result if isinstance(result, list) else [result]):
                counts[p] = value
                if store:
                    store.record(p, value)
            if progress:
                progress(already + len(counts), total, time.monotonic() - start)
    return counts, errors
