"""Counting by partition: every executor, the mirror, checkpoints, failures, resuming."""

import signal
import sqlite3
import subprocess
import sys
import time
from concurrent.futures import Executor, Future, ProcessPoolExecutor

import pytest

from relqueens.cli import main
from relqueens.count import (
    CheckpointError,
    CountError,
    InlineExecutor,
    count,
    count_subproblem,
    prefixes,
)

A000170 = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680]


@pytest.fixture(scope="module")
def pool():
    with ProcessPoolExecutor(max_workers=2) as executor:
        yield executor


@pytest.fixture(scope="module")
def dask_executor():
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, dashboard_address=":0"
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client.get_executor()


@pytest.mark.parametrize("mirror", [False, True])
def test_in_process_counts(mirror):
    for n in range(1, 12):
        assert count(n, split_rows=min(2, n), mirror=mirror).total == A000170[n - 1], n


@pytest.mark.parametrize("mirror", [False, True])
def test_two_worker_pool_counts(pool, mirror):
    for n in range(1, 12):
        assert (
            count(n, split_rows=min(2, n), executor=pool, mirror=mirror).total == A000170[n - 1]
        ), n


@pytest.mark.parametrize("mirror", [False, True])
def test_dask_local_cluster_counts(dask_executor, mirror):
    for n in range(1, 12):
        assert (
            count(n, split_rows=min(2, n), executor=dask_executor, mirror=mirror).total
            == A000170[n - 1]
        ), n


def test_split_depths_and_mirror_halve_the_work():
    for k in range(5):
        assert count(8, split_rows=k).total == 92
    plain, mirrored = count(10, split_rows=2), count(10, split_rows=2, mirror=True)
    assert plain.total == mirrored.total == 724
    assert mirrored.subproblems * 2 <= plain.subproblems + 10
    assert (
        count(9, split_rows=1, mirror=True).subproblems == 5
    )  # columns 0..3, twice; column 4 once


def test_subproblems_are_the_relation_with_rows_pinned():
    assert prefixes(4, 2) == [(0, 2), (0, 3), (1, 3), (2, 0), (3, 0), (3, 1)]
    assert sum(count_subproblem(6, p) for p in prefixes(6, 2)) == 4


class Flaky(InlineExecutor):
    """Fails chosen sub-problems: the first ``times`` attempts (or always)."""

    def __init__(self, bad, times=1):
        self.bad, self.times, self.attempts = set(bad), times, {}

    def submit(self, fn, /, *args, **kwargs):
        prefix = args[1]
        self.attempts[prefix] = self.attempts.get(prefix, 0) + 1
        if prefix in self.bad and (self.times is None or self.attempts[prefix] <= self.times):
            f = Future()
            f.set_exception(RuntimeError(f"worker crashed on {prefix}"))
            return f
        return super().submit(fn, *args, **kwargs)


def test_a_failed_subproblem_is_retried():
    flaky = Flaky({(0, 2), (3, 1)}, times=2)
    result = count(8, split_rows=2, executor=flaky)
    assert result.total == 92 and result.computed == result.subproblems
    assert flaky.attempts[(0, 2)] == 3


class Batches(Executor):
    """Runs tasks at once and keeps them; the first task holding prefix ``bad`` fails."""

    def __init__(self, bad):
        self.bad, self.tasks, self.failed = bad, [], False

    def submit(self, fn, /, n, work):
        batch = work if isinstance(work, list) else [work]
        self.tasks.append(batch)
        f = Future()
        if self.bad in batch and not self.failed:
            self.failed = True
            f.set_exception(RuntimeError(f"crashed in a batch of {len(batch)}"))
        else:
            f.set_result(fn(n, work))
        return f


def test_a_pool_gets_batches_and_a_failed_batch_is_retried_one_by_one():
    todo = prefixes(12, 3)
    batches = Batches(bad=todo[7])
    result = count(12, split_rows=3, executor=batches, retries=0)
    assert result.total == 14200 and result.computed == len(todo)
    first = batches.tasks[0]
    assert len(first) > 1 and len(batches.tasks) < len(todo)  # fewer tasks than sub-problems
    assert [todo[7]] in batches.tasks  # the failed batch's members went one by one
    assert sum(len(b) for b in batches.tasks) == len(todo) + len(first)


def test_a_subproblem_that_keeps_failing_is_reported_and_resuming_finishes_it(tmp_path):
    ckpt = tmp_path / "run.sqlite"
    broken = Flaky({(1, 3)}, times=None)
    with pytest.raises(CountError, match=r"1 of .* sub-problems failed"):
        count(8, split_rows=2, executor=broken, checkpoint=ckpt)
    recorded = sqlite3.connect(ckpt).execute("SELECT COUNT(*) FROM done").fetchone()[0]
    total = len(prefixes(8, 2))
    assert recorded == total - 1
    again = count(8, split_rows=2, checkpoint=ckpt)
    assert again.total == 92
    assert again.resumed == total - 1 and again.computed == 1  # nothing finished is recounted


def test_checkpoint_from_other_arguments_is_refused(tmp_path):
    ckpt = tmp_path / "c.sqlite"
    count(8, split_rows=1, checkpoint=ckpt)
    with pytest.raises(CheckpointError, match="different count"):
        count(8, split_rows=2, checkpoint=ckpt)
    with pytest.raises(CheckpointError, match="different count"):
        count(9, split_rows=1, checkpoint=ckpt)
    junk = tmp_path / "junk.sqlite"
    junk.write_text("not a database at all" * 100)
    with pytest.raises(CheckpointError, match="not a relqueens checkpoint"):
        count(8, checkpoint=junk)
    assert count(8, split_rows=1, checkpoint=ckpt).resumed == 8


def test_bad_arguments_fail_fast():
    with pytest.raises(ValueError, match="split_rows"):
        count(8, split_rows=9)
    with pytest.raises(ValueError, match="split_rows"):
        count(8, split_rows=-1)
    with pytest.raises(ValueError, match="negative"):
        count(-2)
    with pytest.raises(SystemExit) as stop:  # argparse: one line, status 2
        main(["count", "8", "--workers", "0"])
    assert stop.value.code == 2
    assert main(["count", "8", "--split", "9"]) == 2


def test_unreachable_dask_scheduler_is_a_clear_error(capsys):
    pytest.importorskip("distributed")
    start = time.monotonic()
    assert main(["count", "8", "--dask", "tcp://127.0.0.1:1"]) == 2
    assert time.monotonic() - start < 30
    assert "cannot reach the Dask scheduler" in capsys.readouterr().err


def test_cli_count_in_process_pool_and_dask(capsys):
    assert main(["count", "9"]) == 0
    assert main(["count", "9", "--workers", "2", "--mirror"]) == 0
    assert main(["count", "9", "--dask-local", "--workers", "2", "--format", "json"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == out[1] == "352" and '"count": 352' in out[2]


def test_killing_a_run_and_resuming_loses_nothing(tmp_path):
    """SIGTERM midway; the rerun with the same arguments finishes with the exact total."""
    ckpt = tmp_path / "kill.sqlite"
    cmd = [
        sys.executable,
        "-c",
        "from relqueens.cli import entry_point; entry_point()",
        "count",
        "13",
        "--split",
        "3",
        "--checkpoint",
        str(ckpt),
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    recorded = 0
    while time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.2)
        try:
            recorded = sqlite3.connect(ckpt).execute("SELECT COUNT(*) FROM done").fetchone()[0]
        except sqlite3.Error:
            continue
        if recorded >= 20:
            break
    proc.send_signal(signal.SIGSTOP)  # it cannot finish between this look and the SIGTERM
    try:
        assert proc.poll() is None, "the run finished before it could be interrupted"
        proc.send_signal(signal.SIGTERM)  # handled once it runs again
    finally:
        proc.send_signal(signal.SIGCONT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and "resume" in err
    before = sqlite3.connect(ckpt).execute("SELECT COUNT(*) FROM done").fetchone()[0]
    assert before >= recorded
    again = subprocess.run(
        cmd + ["--format", "json"], capture_output=True, text=True, timeout=300, check=True
    )
    import json

    summary = json.loads(again.stdout)
    assert summary["count"] == 73712
    assert summary["resumed"] == before
    assert summary["computed"] == summary["subproblems"] - before


def test_progress_bar_on_a_terminal_shows_at_once_and_ends_full():
    import io

    from relqueens.cli import _CountBar

    class Tty(io.StringIO):
        def isatty(self):
            return True

    tty = Tty()
    bar = _CountBar(tty)
    seen = []
    result = count(8, split_rows=2, progress=lambda *a: (seen.append(tty.getvalue()), bar(*a)))
    bar.close()
    shown = tty.getvalue()
    assert result.total == 92
    assert (
        seen[1].count(f"0/{result.subproblems}") == 1
    )  # the bar was there before the first sub-problem ended
    assert f"{result.subproblems}/{result.subproblems}" in shown and "sub-problems/s" in shown
