"""The benchmark suite runs (quick mode: small sizes, no timing asserted)."""

import csv
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_quick_benchmark_runs_and_cross_checks(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks", "--quick", "--no-plot", "--out", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "cross-check: all contenders agree" in done.stdout
    assert "targets" in done.stdout
    rows = list(csv.DictReader((tmp_path / "benchmark.csv").open()))
    counts = {(r["contender"], int(r["n"])): r["result"] for r in rows if r["task"] == "all"}
    assert counts[("relqueens", 8)] == counts[("backtracker", 8)] == counts[("bitboard", 8)] == "92"
    assert counts[("relqueens-symmetry", 8)] == "12"
    firsts = [r for r in rows if r["task"] == "first"]
    assert firsts and all(r["valid"] == "True" for r in firsts)


def test_worker_measures_one_run():
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.worker", "relqueens", "all", "6"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert '"result": 4' in done.stdout and '"valid": true' in done.stdout
