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
        [sys.executable, str(EXAMPLES / "send_more_money.py")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "  9567\n+ 1085\n------\n 10652" in out
    assert "1 solution(s)" in out


def run_example(*parts, args=()):
    return subprocess.run(
        [sys.executable, str(EXAMPLES.joinpath(*parts)), *args],
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_eight_queens_core_logic_example():
    out = run_example("eight_queens_core_logic.py").stdout
    assert "[True, True, True, 92]" in out
    assert "with a queen on a1: 4 of 92" in out
    mod = runpy.run_path(str(EXAMPLES / "eight_queens_core_logic.py"))
    assert len(mod["queens_logic"](6)) == 4 and len(mod["queens_pinned"](8)) == 4


def test_eight_queens_ml_example():
    out = run_example("eight_queens_ml.py").stdout
    assert "tree (nodes, solutions): (2057, 92)" in out
    assert "the rest: 89 more, 92 in all" in out
    assert "relationally, lazily: [(0, 4, 7, 5, 2, 6, 1, 3)" in out


def test_sudoku_example():
    done = run_example("sudoku.py")
    assert done.returncode == 0 and "534 678 912" in done.stdout and "unique" in done.stdout
    mod = runpy.run_path(str(EXAMPLES / "sudoku.py"))
    (grid,) = mod["solve"](mod["PUZZLE"], limit=5)
    rows = [grid[r * 9 : (r + 1) * 9] for r in range(9)]
    assert all(sorted(r) == list(range(1, 10)) for r in rows)
    assert all(sorted(c) == list(range(1, 10)) for c in zip(*rows))
    blank = "." * 81
    assert len(mod["solve"](blank, limit=2)) == 2  # an empty grid is not unique
    bad = run_example("sudoku.py", args=["12345"])
    assert bad.returncode != 0 and "81 cells" in bad.stderr


def test_map_colouring_example():
    mod = runpy.run_path(str(EXAMPLES / "australia.py"))
    found = mod["colourings"]()
    assert len(found) == 18
    index = {s: i for i, s in enumerate(mod["STATES"])}
    assert all(c[index[a]] != c[index[b]] for c in found for a, b in mod["BORDERS"])
    assert "18 colourings in all" in run_example("australia.py").stdout


def test_magic_square_example():
    mod = runpy.run_path(str(EXAMPLES / "magic_square.py"))
    squares = mod["magic_squares"]()
    assert len(squares) == 8
    for s in squares:
        rows = [s[0:3], s[3:6], s[6:9]]
        assert all(sum(r) == 15 for r in rows) and all(sum(c) == 15 for c in zip(*rows))
    assert "8 magic squares of order 3" in run_example("magic_square.py").stdout


def test_zebra_example():
    out = run_example("zebra.py").stdout
    assert out.strip() == "The Norwegian drinks water; the Japanese owns the zebra."


def test_compare_core_logic_python_side():
    """Runs both sides where Clojure and core.logic are set up; always the Python side, exit 0."""
    done = run_example("compare_core_logic", "compare.py", args=["4", "5", "6", "8"])
    assert done.returncode == 0, done.stderr
    counts = {
        int(line.split()[0]): int(line.split()[1])
        for line in done.stdout.splitlines()
        if line.strip() and line.split()[0].isdigit()
    }
    assert counts == {4: 2, 5: 10, 6: 4, 8: 92}
    if "skipped" not in done.stdout:  # the Clojure side ran: the sets must agree
        rows = [
            line.split()
            for line in done.stdout.splitlines()
            if line.strip() and line.split()[0].isdigit()
        ]
        assert all(row[5] == "True" for row in rows)
