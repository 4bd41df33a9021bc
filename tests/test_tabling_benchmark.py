"""The tabling benchmark suite runs (quick: small problems, peers optional, every answer set checked)."""

import csv
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_quick_tabling_suite_checks_every_answer_set(tmp_path):
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "benchmarks",
            "--suite",
            "tabling",
            "--quick",
            "--out",
            str(tmp_path),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "every answer set is the expected one" in done.stdout
    assert "relqueens / plain-Python BFS, all pairs, closure-50:" in done.stdout
    rows = {
        (r["problem"], r["contender"]): r for r in csv.DictReader((tmp_path / "tabling.csv").open())
    }
    for key in [
        ("closure-50", "relqueens"),
        ("closure-50", "relqueens-right"),
        ("join-2000", "relqueens"),
    ]:
        assert rows[key]["status"] == "ok" and rows[key]["valid"] == "True", rows[key]
    assert rows[("closure-50", "relqueens")]["answers"] == "2500"
    assert rows[("join-2000", "relqueens-right")]["status"] == "no-model"


def test_the_worker_rejects_a_wrong_answer_set(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT))
    from benchmarks.tabling import contenders, worker

    monkeypatch.setitem(
        contenders.CONTENDERS["python"].models,
        "closure",
        lambda problem, data: lambda: data + data[:1],
    )
    m = worker.measure("python", "closure-50")
    assert m["status"] == "ok" and not m["valid"] and "1 duplicates" in m["detail"]
