"""The relqueens command."""

import contextlib
import io
import json
import os
import shutil
import subprocess
import sys

import pytest

from relqueens.cli import main


def run_cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(argv), out, err)
    except SystemExit as e:  # argparse: --help and usage errors
        code = e.code
    return code, out.getvalue(), err.getvalue()


def test_solve_prints_the_first_board_like_print_board():
    code, out, _ = run_cli("solve", "8")
    assert code == 0
    assert "# 1: [0, 4, 7, 5, 2, 6, 1, 3]\nQ . . . . . . .\n. . . . Q . . .\n" in out
    assert out.rstrip().endswith("1 solution shown")


def test_large_boards_do_not_hang():
    """auto picks first-fail, middle-out (and the compact model) past small n."""
    code, out, _ = run_cli("solve", "300", "--format", "json")
    board = json.loads(out)["solutions"][0]
    assert code == 0 and sorted(board) == list(range(300))
    assert (
        len({r + c for r, c in enumerate(board)})
        == len({r - c for r, c in enumerate(board)})
        == 300
    )


def test_solve_unicode_and_coordinates():
    code, out, _ = run_cli("solve", "4", "--unicode", "--coords")
    assert code == 0 and "1 · ♕ · ·" in out and "  a b c d" in out


def test_solve_all_count_limit():
    code, out, _ = run_cli("solve", "8", "--all")
    assert code == 0 and out.count("# ") == 92 and out.rstrip().endswith("92 solutions")
    assert run_cli("solve", "8", "--count")[1] == "92\n"
    assert run_cli("solve", "8", "--count", "--symmetry")[1] == "12\n"
    assert run_cli("solve", "8", "--limit", "3")[1].count("# ") == 3
    assert run_cli("solve", "3", "--all")[1].rstrip().endswith("no solutions")


def test_solve_json_with_pins():
    code, out, _ = run_cli("solve", "8", "--all", "--pin", "a1", "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["count"] == 4 and data["pins"] == {"0": 0}
    assert all(b[0] == 0 for b in data["solutions"])
    data = json.loads(run_cli("solve", "10", "--count", "--symmetry", "--format", "json")[1])
    assert data == {"n": 10, "pins": {}, "symmetry": True, "count": 92}


def test_check_command():
    code, out, _ = run_cli("check", "6")
    assert code == 0 and "relational 4, reference 4" in out and "agree" in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["solve", "-3"], "negative"),
        (["solve", "eight"], "whole number"),
        (["solve", "8", "--pin", "z9"], "off the 8x8 board"),
        (["solve", "8", "--pin", "a1", "--pin", "b1"], "two queens in row 0"),
        (["solve", "8", "--pin", "queen"], "not a square"),
        (["solve", "8", "--limit", "0"], "at least 1"),
        (["solve", "8", "--all", "--count"], "not allowed with"),
        (["solve", "8", "--select", "random"], "invalid choice"),
        (["check", "-1"], "negative"),
        (["frobnicate"], "invalid choice"),
        ([], "required"),
    ],
)
def test_bad_input_is_one_line_and_status_2(argv, message):
    code, _, err = run_cli(*argv)
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


@pytest.mark.parametrize("argv", [["--help"], ["solve", "--help"], ["check", "--help"]])
def test_help_everywhere(argv):
    code, out, _ = run_cli(*argv)
    assert code == 0 and "usage: relqueens" in out


def test_console_script_end_to_end():
    exe = shutil.which("relqueens", path=os.path.dirname(sys.executable)) or shutil.which(
        "relqueens"
    )
    assert exe, "the relqueens console script is installed with the package"
    ok = subprocess.run([exe, "solve", "6", "--count"], capture_output=True, text=True)
    assert ok.returncode == 0 and ok.stdout == "4\n"
    bad = subprocess.run(
        [exe, "solve", "8", "--pin", "a1", "--pin", "a1", "--pin", "b1"],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr


def test_progress_is_shown_on_a_terminal_only():
    from relqueens.cli import _progress

    class Tty(io.StringIO):
        def isatty(self):
            return True

    tty, pipe = Tty(), io.StringIO()
    assert list(_progress(iter(range(3)), pipe)) == [0, 1, 2] and pipe.getvalue() == ""
    assert list(_progress(iter(range(3)), tty)) == [0, 1, 2]
    assert "found" in tty.getvalue() and "boards" in tty.getvalue()
