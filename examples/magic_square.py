"""The 3x3 magic square: 1..9, every row, column and diagonal summing to 15.

Run it: ``python examples/magic_square.py``
"""

from relqueens import fd, run_all, vars


def magic_squares(n: int = 3) -> tuple:
    """Every n x n magic square of 1..n*n (8 for n = 3: one up to symmetry)."""
    cells = vars(n * n)
    total = n * (n * n + 1) // 2
    rows = [cells[r * n : (r + 1) * n] for r in range(n)]
    lines = rows + [list(col) for col in zip(*rows)]
    lines += [[rows[i][i] for i in range(n)], [rows[i][n - 1 - i] for i in range(n)]]
    return run_all(
        cells,
        fd.in_(*cells, fd.interval(1, n * n)),
        fd.distinct(cells),
        *(fd.dot([1] * n, line) == total for line in lines),
    )


if __name__ == "__main__":
    squares = magic_squares()
    for row in range(3):
        print(" ".join(str(v) for v in squares[0][row * 3 : row * 3 + 3]))
    print(f"{len(squares)} magic squares of order 3")
