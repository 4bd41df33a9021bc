"""SEND + MORE = MONEY, stated as relations and solved by relqueens' FD layer.

Run it: ``python examples/send_more_money.py``
"""

from relqueens import fd, run_all, vars
from relqueens.fd import interval


def send_more_money() -> tuple:
    """All assignments of digits to S, E, N, D, M, O, R, Y (one, as it happens)."""
    letters = S, E, N, D, M, O, R, Y = vars(8)
    send = fd.dot([1000, 100, 10, 1], [S, E, N, D])
    more = fd.dot([1000, 100, 10, 1], [M, O, R, E])
    money = fd.dot([10000, 1000, 100, 10, 1], [M, O, N, E, Y])
    return run_all(
        letters,
        fd.in_(*letters, interval(0, 9)),
        fd.distinct(letters),
        S > 0,
        M > 0,
        send + more == money,
    )


def as_sum(digits: list[int]) -> str:
    """The solved sum, laid out as the puzzle is."""
    s, e, n, d, m, o, r, y = digits
    return "\n".join(
        [
            f"  {s}{e}{n}{d}",
            f"+ {m}{o}{r}{e}",
            "------",
            f" {m}{o}{n}{e}{y}",
        ]
    )


if __name__ == "__main__":
    solutions = send_more_money()
    for digits in solutions:
        print(as_sum(digits))
    print(f"{len(solutions)} solution(s)")
