"""Faults a hostile or careless user meets (issue 12): limits, dead workers, signals, files, pipes.

Each test runs the real command (``python -m relqueens``) in a subprocess
where the fault needs one: signals, resource limits, closed pipes. Waits poll
with generous deadlines, so a loaded machine slows them down without making
them fail.
"""

import contextlib
import ctypes
import fcntl
import importlib
import io
import json
import os
import pty
import re
import resource
import signal
import sqlite3
import struct
import subprocess
import sys
import termios
import threading
import time
from functools import partial
from pathlib import Path

import pytest

from relqueens import CheckpointError, CountError, count, queens
from relqueens.cli import main
from relqueens.gallery import write_atomically
from relqueens.squares import PinError

counting = importlib.import_module("relqueens.count")  # the module: relqueens.count is the function
COMMAND = [sys.executable, "-m", "relqueens"]
linux = pytest.mark.skipif(
    not os.path.exists("/proc/self/stat"), reason="reads processes from /proc"
)


def relqueens(*argv, **options):
    """Run the command to the end; ``(status, stdout, stderr)``."""
    done = subprocess.run([*COMMAND, *argv], capture_output=True, text=True, timeout=120, **options)
    return done.returncode, done.stdout, done.stderr


def start(*argv, **options):
    options.setdefault("stdout", subprocess.PIPE)
    options.setdefault("stderr", subprocess.PIPE)
    return subprocess.Popen([*COMMAND, *argv], text=True, **options)


def one_line(err):
    return len(err.strip().splitlines()) == 1 and "Traceback" not in err


def poll(condition, timeout=60.0, step=0.02):
    """Wait until ``condition()`` is true (its value), or fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(step)
    raise AssertionError(f"still waiting after {timeout} s")


def living(pid):
    """Whether ``pid`` runs (a zombie waiting to be reaped does not)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def catches(pid, signum):
    """Whether process ``pid`` has a handler for ``signum`` (its SigCgt mask in /proc)."""
    with contextlib.suppress(OSError), open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("SigCgt:"):
                return bool(int(line.split()[1], 16) >> (signum - 1) & 1)
    return False


def children(pid):
    kids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError), open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
                if int(fields[1]) == pid and fields[0] != "Z":
                    kids.append(int(entry))
    return kids


def recorded(path):
    """How many sub-problems a checkpoint holds (0 while it is being created, or torn by a write).

    It reads without taking SQLite's lock: on a disk slow to sync, a count committing a sub-problem
    every few milliseconds held the lock whenever a locking reader looked (CI once never saw three
    before the count ended). A torn read may miscount: the count only tells when to act.
    """
    try:
        uri = f"{Path(path).as_uri()}?mode=ro&immutable=1"
        with contextlib.closing(sqlite3.connect(uri, uri=True)) as db:
            return db.execute("SELECT COUNT(*) FROM done").fetchone()[0]
    except sqlite3.Error:
        return 0


# 1. Bounded sizes; out of memory is one line


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "5000"],
        ["solve", "1000000"],
        ["render", "13", "--html", "x.html", "--limit", "100000"],
        ["count", "100000", "--split", "1"],
        ["check", "20"],
    ],
)
def test_past_a_commands_limit_is_one_line_at_once(argv, tmp_path):
    limit = 3_000_000_000  # the ulimit -v 3000000

    started = time.monotonic()
    status, out, err = relqueens(
        *argv,
        cwd=tmp_path,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit)),
    )
    assert status == 2 and one_line(err) and "at most" in err, err
    assert out == "" and time.monotonic() - started < 30
    assert not (tmp_path / "x.html").exists()


def test_the_pairwise_model_has_its_own_limit(capsys):
    assert main(["solve", "501", "--model", "pairwise"]) == 2
    assert "--model pairwise takes N <= 500" in capsys.readouterr().err


def test_the_largest_sizes_are_taken():
    assert main(["solve", "1000", "--format", "json"], io.StringIO(), io.StringIO()) == 0
    assert main(["solve", "14", "--limit", "1"], io.StringIO(), io.StringIO()) == 0


def test_a_gallery_is_bounded_by_its_squares(tmp_path, capsys):
    assert main(["render", "12", "--html", str(tmp_path / "p.html"), "--force"]) == 2
    assert "at most 13,888 fit" in capsys.readouterr().err
    assert main(["render", "1000", "--html", str(tmp_path / "p.html"), "--limit", "3"]) == 2
    assert "at most 2 boards of 1000x1000" in capsys.readouterr().err
    assert not (tmp_path / "p.html").exists()


def test_a_split_with_too_many_subproblems_is_refused(monkeypatch):
    monkeypatch.setattr(counting, "MAX_SUBPROBLEMS", 10)
    with pytest.raises(ValueError, match="more than 10 sub-problems; pin fewer rows"):
        count(8, split_rows=2)
    assert count(8, split_rows=1).total == 92


@linux
def test_running_out_of_memory_is_one_line_and_status_1():
    """The address space is capped 30 MB above what the imports took; a 1000-queens board needs more."""
    code = (
        "import re, resource, relqueens.cli as cli\n"
        "size = int(re.search(r'VmSize:\\s+(\\d+)', open('/proc/self/status').read()).group(1)) * 1024\n"
        "resource.setrlimit(resource.RLIMIT_AS, (size + 30 * 2**20, resource.RLIM_INFINITY))\n"
        "cli.entry_point()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, "solve", "1000"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 1 and one_line(done.stderr) and "out of memory" in done.stderr


def test_memory_error_anywhere_is_one_line(monkeypatch):
    def greedy(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr("relqueens.cli.iter_queens", greedy)
    out, err = io.StringIO(), io.StringIO()
    assert main(["render", "8", "--html", "x.html"], out, err) == 1
    assert (
        err.getvalue() == "relqueens render: error: out of memory; try a smaller N (or --limit)\n"
    )


def test_all_boards_as_json_are_streamed_and_valid():
    out = io.StringIO()
    assert main(["solve", "8", "--all", "--format", "json"], out, io.StringIO()) == 0
    data = json.loads(out.getvalue())
    assert data["count"] == len(data["solutions"]) == 92
    out = io.StringIO()
    assert main(["solve", "3", "--format", "json"], out, io.StringIO()) == 0
    assert json.loads(out.getvalue())["solutions"] == []


# 2. Workers die with their parent


@linux
def test_killing_the_parent_kills_its_workers_and_frees_the_pipes():
    proc = start("count", "14", "--workers", "2")
    workers = poll(lambda: len(children(proc.pid)) >= 2 and children(proc.pid))
    os.kill(proc.pid, signal.SIGKILL)
    killed = time.monotonic()
    poll(lambda: not any(living(w) for w in workers), timeout=10)
    gone = time.monotonic() - killed
    proc.communicate(timeout=10)  # a reader such as tee sees the end of its input
    assert gone < 5, f"workers outlived their parent by {gone:.2f} s"


@linux
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_while_the_command_starts_is_quiet(signum):
    """The console script catches a stop from its first instant, while relqueens imports."""
    script = os.path.join(os.path.dirname(sys.executable), "relqueens")
    if not os.path.exists(script):
        pytest.skip("the relqueens console script is not installed beside this Python")
    for delay in (0, 0.03, 0.06, 0.1, 0.2):
        proc = subprocess.Popen(
            [script, "solve", "13", "--count"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        # the interpreter's own start-up is Python's: signal once the script catches SIGTERM
        poll(lambda p=proc: catches(p.pid, signal.SIGTERM) or p.poll() is not None, step=0.001)
        time.sleep(delay)
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=60)
        assert "Traceback" not in err, (delay, err)
        assert proc.returncode in (130, -signum), (delay, proc.returncode, err)


@pytest.mark.parametrize(
    "stop",
    [
        lambda proc: proc.send_signal(signal.SIGTERM),
        lambda proc: proc.send_signal(signal.SIGINT),
        lambda proc: os.killpg(proc.pid, signal.SIGINT),  # Ctrl-C on a terminal: the whole group
    ],
    ids=["SIGTERM", "SIGINT", "Ctrl-C"],
)
def test_stopping_the_parent_stops_its_workers(stop):
    proc = start("count", "14", "--workers", "2", start_new_session=True)
    workers = poll(lambda: len(children(proc.pid)) >= 2 and children(proc.pid))
    stop(proc)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and err == "\nrelqueens: interrupted\n"
    poll(lambda: not any(living(w) for w in workers), timeout=10)


@linux
def test_ctrl_c_stops_a_local_dask_cluster_in_one_line(tmp_path):
    pytest.importorskip("distributed")
    ckpt = tmp_path / "c.sqlite"
    proc = start("count", "14", "--dask-local", "--checkpoint", str(ckpt), start_new_session=True)
    poll(lambda: recorded(ckpt) >= 1, timeout=120)  # the cluster is up and counting
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert (
        proc.returncode == 130
        and err
        == f"\nrelqueens: interrupted; finished sub-problems are in {ckpt}: "
        "run the same command to resume\n"
    )


# 3. A dead worker does not sink the run


@linux
@pytest.mark.parametrize("kill", [signal.SIGKILL, signal.SIGTERM])
def test_a_killed_worker_is_replaced_and_the_count_is_exact(tmp_path, kill):
    ckpt = tmp_path / "c.sqlite"
    proc = start(
        "count",
        "14",  # 12 s of work (13 took 2.4 s: a loaded machine's poll once saw it end first)
        "--split",
        "3",
        "--workers",
        "2",
        "--checkpoint",
        str(ckpt),
        "--format",
        "json",
    )

    def working():
        """The pool's workers once three sub-problems are recorded (the pool may be between
        its workers); fails at once if the count ended first."""
        assert proc.poll() is None, "the count ended before a worker could be killed"
        return recorded(ckpt) >= 3 and children(proc.pid)

    victim = poll(working)[0]
    os.kill(proc.pid, signal.SIGSTOP)  # the count cannot end between this look and the kill
    try:
        assert proc.poll() is None, "the count ended before a worker could be killed"
        os.kill(victim, kill)
        poll(lambda: not living(victim))
    finally:
        os.kill(proc.pid, signal.SIGCONT)
    out, err = proc.communicate(timeout=120)
    summary = json.loads(out)
    assert proc.returncode == 0 and "interrupted" not in err and "Traceback" not in err
    assert summary["count"] == 365596 and summary["computed"] == summary["subproblems"]
    assert not living(victim)


@pytest.fixture
def pool_sizes(monkeypatch):
    """The number of workers of each process pool that :class:`WorkerPool` starts."""
    sizes = []
    start_pool = counting.WorkerPool._start

    def spy(self):
        sizes.append(self.workers)
        return start_pool(self)

    monkeypatch.setattr(counting.WorkerPool, "_start", spy)
    return sizes


COUNT_SUBPROBLEM = counting.count_subproblem


def _crash_once(n, prefix, marker):
    """count_subproblem, but the first sub-problem with a queen on a1 kills its worker."""
    if prefix[0] == 0 and not os.path.exists(marker):
        open(marker, "w").close()
        os.kill(os.getpid(), signal.SIGKILL)
    return COUNT_SUBPROBLEM(n, prefix)


def test_a_broken_pool_is_replaced_without_using_retries(tmp_path, monkeypatch, pool_sizes):
    monkeypatch.setattr(
        counting, "count_subproblem", partial(_crash_once, marker=str(tmp_path / "m"))
    )
    result = count(10, split_rows=2, workers=2, retries=0)
    assert result.total == 724 and result.computed == result.subproblems
    assert pool_sizes == [2, 2]  # the first pool broke, a second one finished


def _always_crash(n, prefix):
    os.kill(os.getpid(), signal.SIGKILL)


def test_a_worker_that_always_crashes_ends_in_count_error(monkeypatch, pool_sizes):
    monkeypatch.setattr(counting, "count_subproblem", _always_crash)
    with pytest.raises(CountError, match="8 of 8 sub-problems failed"):
        count(8, split_rows=1, workers=2)
    assert len(pool_sizes) == 11  # the first pool, and 10 replacements


# 4. Files are written whole or not at all


def _file_size_limit(size):
    return lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))


@pytest.mark.parametrize(
    "argv, name",
    [(["render", "8", "--html"], "q.html"), (["tree", "6", "--html"], "t.html")],
)
def test_a_file_size_limit_leaves_the_old_file_intact(tmp_path, argv, name):
    target = tmp_path / name
    assert relqueens(*argv, str(target))[0] == 0
    before = target.read_bytes()
    assert len(before) > 40_000
    status, _, err = relqueens(*argv, str(target), preexec_fn=_file_size_limit(20_000))
    assert status == 2 and one_line(err) and "File too large" in err and name in err
    assert target.read_bytes() == before
    assert os.listdir(tmp_path) == [name]  # no temporary file left behind


def test_an_interrupted_write_leaves_the_old_file_and_no_temporary(tmp_path):
    target = tmp_path / "page.html"
    target.write_text("old")

    def parts():
        yield "new, half"
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_atomically(target, parts())
    assert target.read_text() == "old" and os.listdir(tmp_path) == ["page.html"]
    write_atomically(target, ["new"])
    assert target.read_text() == "new" and os.listdir(tmp_path) == ["page.html"]


def test_a_link_is_followed_and_a_pipe_written_in_place(tmp_path):
    (tmp_path / "real.html").write_text("old")
    (tmp_path / "link.html").symlink_to("real.html")
    write_atomically(tmp_path / "link.html", ["new"])
    assert (tmp_path / "link.html").is_symlink() and (tmp_path / "real.html").read_text() == "new"
    os.mkfifo(tmp_path / "pipe")
    reader = subprocess.Popen(["cat", str(tmp_path / "pipe")], stdout=subprocess.PIPE, text=True)
    write_atomically(tmp_path / "pipe", ["through ", "the pipe"])
    assert reader.communicate(timeout=30)[0] == "through the pipe"
    assert sorted(os.listdir(tmp_path)) == ["link.html", "pipe", "real.html"]


def test_svg_files_are_written_atomically_too(tmp_path):
    status, _, err = relqueens(
        "render", "6", "--svg", str(tmp_path / "s"), preexec_fn=_file_size_limit(2_000)
    )
    assert status == 2 and one_line(err) and "File too large" in err
    assert not [p for p in os.listdir(tmp_path / "s") if p.endswith(".tmp")]


# 5. --force


def test_force_draws_a_large_gallery(tmp_path, capsys):
    assert main(["render", "10", "--html", str(tmp_path / "x.html"), "--force"]) == 0
    assert capsys.readouterr().out == f"wrote {tmp_path / 'x.html'} (724 boards)\n"
    assert (tmp_path / "x.html").read_text().count('<figure class="board"') == 724


# 6. Checkpoints


@pytest.fixture
def permissions(tmp_path):
    """A preexec_fn under which the child respects file modes, even as root; skip where none works."""

    def drop_dac_capabilities():
        libc = ctypes.CDLL(None, use_errno=True)
        for cap in (1, 2):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, from the bounding set
            if libc.prctl(24, cap, 0, 0, 0):  # PR_CAPBSET_DROP
                raise OSError(ctypes.get_errno(), "prctl")

    preexec = drop_dac_capabilities if os.geteuid() == 0 else None
    probe = tmp_path / ".probe"
    probe.touch(mode=0o444)
    try:
        denied = subprocess.run(
            [sys.executable, "-c", f"open({str(probe)!r}, 'w')"],
            preexec_fn=preexec,
            capture_output=True,
        ).returncode
    except subprocess.SubprocessError:
        denied = 0
    probe.unlink()
    if not denied:
        pytest.skip("no way to make a file read-only for the command here")
    return preexec


def _half_done(path):
    """A checkpoint of ``count 9 --split 2`` with some sub-problems left."""
    assert (
        main(
            ["count", "9", "--split", "2", "--checkpoint", str(path)], io.StringIO(), io.StringIO()
        )
        == 0
    )
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        db.execute("DELETE FROM done WHERE rowid % 2 = 0")


def test_a_read_only_checkpoint_with_work_left_is_one_line(tmp_path, permissions):
    ckpt = tmp_path / "ro.sqlite"
    _half_done(ckpt)
    os.chmod(ckpt, 0o444)
    status, _, err = relqueens(
        "count", "9", "--split", "2", "--checkpoint", str(ckpt), preexec_fn=permissions
    )
    assert status == 2 and one_line(err) and "read-only" in err and str(ckpt) in err


def test_a_read_only_finished_checkpoint_still_answers(tmp_path, permissions):
    ckpt = tmp_path / "done.sqlite"
    assert main(["count", "9", "--checkpoint", str(ckpt)], io.StringIO(), io.StringIO()) == 0
    os.chmod(ckpt, 0o444)
    assert relqueens("count", "9", "--checkpoint", str(ckpt), preexec_fn=permissions)[:2] == (
        0,
        "352\n",
    )


def test_a_checkpoint_in_an_unwritable_folder_is_one_line(tmp_path, permissions):
    folder = tmp_path / "locked"
    folder.mkdir()
    _half_done(folder / "old.sqlite")
    os.chmod(folder, 0o555)
    try:
        for name in ("new.sqlite", "old.sqlite"):
            status, _, err = relqueens(
                "count",
                "9",
                "--split",
                "2",
                "--checkpoint",
                str(folder / name),
                preexec_fn=permissions,
            )
            assert status == 2 and one_line(err) and "not a relqueens checkpoint" not in err, err
            assert "folder" in err
    finally:
        os.chmod(folder, 0o755)


def test_a_checkpoint_locked_past_sqlites_wait_is_one_line(tmp_path):
    ckpt = tmp_path / "busy.sqlite"
    _half_done(ckpt)
    with contextlib.closing(sqlite3.connect(ckpt, isolation_level=None)) as holder:
        holder.execute("BEGIN EXCLUSIVE")
        status, _, err = relqueens("count", "9", "--split", "2", "--checkpoint", str(ckpt))
    assert (
        status == 2
        and one_line(err)
        and "locked" in err
        and "not a relqueens checkpoint" not in err
    )


def test_checkpoint_in_a_missing_folder(tmp_path):
    with pytest.raises(CheckpointError, match="does its folder exist"):
        count(8, checkpoint=tmp_path / "no" / "such.sqlite")


@pytest.mark.parametrize(
    "schema",
    [
        ["CREATE TABLE done (x)"],
        ["CREATE TABLE people (name TEXT)", "INSERT INTO people VALUES ('ada')"],
        [
            "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)",
            "CREATE TABLE done (prefix TEXT PRIMARY KEY, count INTEGER)",
            "CREATE TABLE extra (x)",
        ],
    ],
)
def test_an_unrelated_database_is_refused_untouched(tmp_path, schema):
    db_path = tmp_path / "theirs.sqlite"
    with contextlib.closing(sqlite3.connect(db_path)) as db, db:
        for sql in schema:
            db.execute(sql)
    before = (db_path.read_bytes(), db_path.stat().st_mtime_ns)
    status, _, err = relqueens("count", "8", "--checkpoint", str(db_path))
    assert (
        status == 2 and one_line(err) and "not a relqueens checkpoint" in err and "untouched" in err
    )
    assert (db_path.read_bytes(), db_path.stat().st_mtime_ns) == before
    assert sorted(os.listdir(tmp_path)) == ["theirs.sqlite"]


@pytest.mark.parametrize(
    "edit, message",
    [
        ("UPDATE done SET count = -5 WHERE prefix = '1'", "holds -5, not a count"),
        ("UPDATE done SET count = 'many' WHERE prefix = '1'", "holds 'many', not a count"),
        ("UPDATE done SET count = 2.5 WHERE prefix = '1'", "holds 2.5, not a count"),
        ("INSERT INTO done VALUES ('9,9', 3)", "'9,9' is not one of this count's"),
        ("INSERT INTO done VALUES ('x', 3)", "'x' is not one of this count's"),
    ],
)
def test_edited_rows_are_refused(tmp_path, edit, message):
    ckpt = tmp_path / "edited.sqlite"
    assert count(8, split_rows=1, checkpoint=ckpt).total == 92
    with contextlib.closing(sqlite3.connect(ckpt)) as db, db:
        db.execute(edit)
    with pytest.raises(CheckpointError, match=re.escape(message)):
        count(8, split_rows=1, checkpoint=ckpt)


class _DiesWhileWritingMeta(sqlite3.Connection):
    def executemany(self, sql, rows):
        rows = list(rows)
        super().executemany(sql, rows[:1])
        raise KeyboardInterrupt  # killed after the first row of meta


def test_meta_is_written_in_one_transaction(tmp_path, monkeypatch):
    ckpt = tmp_path / "c.sqlite"
    with monkeypatch.context() as m:
        m.setattr(
            counting.sqlite3, "connect", partial(sqlite3.connect, factory=_DiesWhileWritingMeta)
        )
        with pytest.raises(KeyboardInterrupt):
            count(8, split_rows=1, checkpoint=ckpt)
    with contextlib.closing(sqlite3.connect(ckpt)) as db:
        assert (
            db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0] == 0
        )  # nothing half-written
    assert count(8, split_rows=1, checkpoint=ckpt).total == 92


# 7. Workers are capped


def test_workers_are_capped_at_the_subproblems_and_warned_above_the_cpus(pool_sizes):
    assert count(8, split_rows=1, workers=500).total == 92
    assert pool_sizes == [8]
    out, err = io.StringIO(), io.StringIO()
    assert main(["count", "8", "--split", "1", "--workers", "500"], out, err) == 0
    assert out.getvalue() == "92\n" and pool_sizes == [8, 8]
    assert err.getvalue().startswith(
        f"relqueens count: warning: 500 workers on {os.cpu_count()} CPUs"
    )


# 8. Pipes


@pytest.mark.parametrize("reader", ["head -1", "true"])
def test_a_reader_that_stops_early_is_quiet(reader):
    line = " ".join(COMMAND)
    done = subprocess.run(
        ["bash", "-c", f"{line} solve 10 --all | {reader}; echo status=${{PIPESTATUS[0]}} >&2"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.stderr == "status=0\n"


def test_a_closed_stdout_is_one_line():
    done = subprocess.run(
        ["bash", "-c", f"{' '.join(COMMAND)} solve 8 >&-"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (
        done.returncode == 2
        and one_line(done.stderr)
        and "standard output is closed" in done.stderr
    )


def test_a_closed_stderr_does_not_matter():
    done = subprocess.run(
        ["bash", "-c", f"{' '.join(COMMAND)} solve 8 --pin z9 2>&-"], capture_output=True, text=True
    )
    assert done.returncode == 2


# 9, 10, 11. Small things


def test_count_zero_with_the_mirror():
    assert count(0, mirror=True).total == 1 and count(1, mirror=True).total == 1
    assert relqueens("count", "0", "--mirror")[:2] == (0, "1\n")


@pytest.mark.parametrize("module", ["relqueens", "relqueens.cli"])
def test_python_dash_m(module):
    done = subprocess.run(
        [sys.executable, "-m", module, "solve", "8"], capture_output=True, text=True, timeout=60
    )
    assert (
        done.returncode == 0
        and done.stdout.startswith("# 1: [0, 4, 7, 5, 2, 6, 1, 3]")
        and done.stderr == ""
    )


@linux
def test_the_count_bar_shows_at_once_on_a_terminal():
    """count 30's first sub-problem takes ages: the bar is there before it ends."""
    leader, follower = pty.openpty()
    fcntl.ioctl(
        follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0)
    )  # a terminal's size
    proc = start("count", "30", stderr=follower)
    os.close(follower)
    seen = []

    def read():
        with contextlib.suppress(OSError):
            while chunk := os.read(leader, 1024):
                seen.append(chunk.decode(errors="replace"))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        poll(lambda: "0/812" in "".join(seen), timeout=30)
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=30)
        os.close(leader)
    assert proc.returncode == 130


def test_words_agree_with_numbers(tmp_path, capsys):
    assert (
        main(["render", "1", "--html", str(tmp_path / "one.html"), "--svg", str(tmp_path / "s")])
        == 0
    )
    assert capsys.readouterr().out.splitlines() == [
        f"wrote {tmp_path / 'one.html'} (1 board)",
        f"wrote 1 SVG file into {tmp_path / 's'}",
    ]
    assert main(["render", "8", "--html", str(tmp_path / "all.html"), "--limit", "92"]) == 0
    assert "92 solutions" in (tmp_path / "all.html").read_text()
    assert main(["render", "8", "--html", str(tmp_path / "some.html"), "--limit", "91"]) == 0
    assert "91 shown" in (tmp_path / "some.html").read_text()
    assert main(["solve", "8", "--limit", "92"]) == 0
    assert capsys.readouterr().out.endswith("\n92 solutions\n")
    assert main(["solve", "1"]) == 0
    assert capsys.readouterr().out.endswith("\n1 solution\n")


@pytest.mark.parametrize(
    "call, error, name",
    [
        (lambda: count(8, executor="x"), TypeError, "executor"),
        (lambda: count(8, workers="x"), TypeError, "workers"),
        (lambda: count(8, workers=0), ValueError, "workers"),
        (lambda: count(8, progress=3), TypeError, "progress"),
        (lambda: count(8, checkpoint=5), TypeError, "checkpoint"),
        (lambda: queens(8, trace="x"), TypeError, "trace"),
        (lambda: queens(8, pins=b"a1"), PinError, "pins .* got b'a1'"),
    ],
)
def test_bad_parameters_are_named(call, error, name):
    with pytest.raises(error, match=name):
        call()
