"""The CSP benchmark suite runs (quick: three small problems, peers optional, no timing checked)."""

import csv
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from relqueens import fd, var

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def csp(monkeypatch):
    """A function importing ``benchmarks.csp.<name>`` (the suite lives at the repository's root)."""
    monkeypatch.syspath_prepend(str(ROOT))
    return lambda name: importlib.import_module(f"benchmarks.csp.{name}")


def test_quick_csp_suite_checks_every_relqueens_answer(tmp_path, csp):
    quick = csp("problems").QUICK
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks", "--suite", "csp", "--quick", "--out", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    for name in quick:
        assert name in done.stdout
    rows = list(csv.DictReader((tmp_path / "csp.csv").open()))
    mine = [r for r in rows if r["contender"] == "relqueens"]
    assert {r["problem"] for r in mine} == set(quick)
    for r in mine:
        assert r["status"] in ("ok", "not-available"), r
        assert r["status"] != "ok" or r["valid"] == "True", r
    assert all(r["valid"] == "True" for r in rows if r["status"] == "ok")


def test_missing_relqueens_api_is_named(csp):
    unavailable = csp("models_relqueens").unavailable
    with pytest.raises(AttributeError) as missing:
        fd.no_such_constraint  # noqa: B018
    assert unavailable(missing.value) == "fd.no_such_constraint"
    with pytest.raises(TypeError) as keyword:
        fd.label([var()], no_such_option=1)
    assert unavailable(keyword.value) == "fd.label(no_such_option=...)"
    assert unavailable(TypeError("some other mistake")) is None


def test_verifiers_reject_wrong_answers(csp):
    problems = csp("problems").PROBLEMS
    send = problems["send-more-money"]
    right = [9, 5, 6, 7, 1, 0, 8, 2]
    assert send.check([right]) == (True, "1", "")
    assert not send.check([right, right])[0]  # a duplicate
    assert not send.check([[9, 5, 6, 7, 1, 0, 8, 3]])[0]
    golomb = problems["golomb-6"]
    assert golomb.check([17, [0, 1, 4, 10, 12, 17]])[0]
    assert not golomb.check([18, [0, 1, 4, 10, 12, 18]])[0]  # valid ruler, not optimal
    assert not golomb.check([17, [0, 1, 4, 10, 13, 17]])[0]  # 13 - 10 == 4 - 1
