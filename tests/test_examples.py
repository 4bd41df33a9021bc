import runpy
import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_send_more_money_is_unique_and_adds_up():
    mod = runpy.run_path(str(EXAMPLES / "send_more_money.py"))
    (digits,) = mod["send_more_money"]()
    s, e, n, d, m, o, r, y = digits
    num = lambda *ds: int("".join(map(str, ds)))
    assert num(s, e, n, d) + num(m, o, r, e) == num(m, o, n, e, y)
    assert len(set(digits)) == 8 and s and m


def test_send_more_money_script_prints_the_sum():
    out = subprocess.run(
        [sys.executable, str(EXAMPLES / "send_more_money.py")], capture_output=True, text=True, check=True
    ).stdout
    assert "  9567\n+ 1085\n------\n 10652" in out
    assert "1 solution(s)" in out
