"""A 4x4 magic square: 1..16, every row, column and diagonal summing to 34.

Run it: ``python examples/magic_square_4.py [N] [--all-symmetries] [--count]``
(N = 4 by default, 1 to 5; ``--count`` counts the squares of order N, for
N = 4 in about 3 s).

The cells are all different (``fd.all_distinct``) and each line is an
``fd.sum``. A square turned or mirrored is another magic square, so by
default one square of each eight is kept, the one in Frénicle's standard
form: its top-left corner is the least of the four corners, and the cell
right of it is less than the cell below it. There are 880 squares of order 4
in that form, 7040 in all.

Counting visits some 50,000 nodes, and there ``fd.distinct`` (value
elimination) is the better choice: ``fd.all_distinct`` saves a few percent
of the nodes but its matching, computed afresh each time it wakes, made the
count of 880 take 44 s against 3.4 s (``count_squares`` passes
``fd.distinct``).
"""

import argparse

from relqueens import fd, run, vars

#: the largest order accepted: order 6 did not finish in minutes with this model
MAX_ORDER = 5


def magic_squares(
    n: int = 4, limit: int = 1, symmetry: bool = True, distinct=fd.all_distinct
) -> tuple:
    """Up to ``limit`` (0: all) magic squares of order ``n``, each a list of n*n cells row by row.

    >>> magic_squares(3)
    ([2, 7, 6, 9, 5, 1, 4, 3, 8],)
    """
    cells = vars(n * n)
    total = n * (n * n + 1) // 2
    rows = [cells[r * n : (r + 1) * n] for r in range(n)]
    lines = rows + [list(col) for col in zip(*rows)]
    lines += [[rows[i][i] for i in range(n)], [rows[i][n - 1 - i] for i in range(n)]]
    goals = [
        fd.in_(*cells, fd.interval(1, n * n)),
        distinct(cells),
        *(fd.sum(line, "==", total) for line in lines),
    ]
    if symmetry and n >= 2:
        top_left = rows[0][0]
        goals += [
            top_left < rows[0][-1],
            top_left < rows[-1][0],
            top_left < rows[-1][-1],
            rows[0][1] < rows[1][0],
        ]
    return run(limit, cells, *goals, fd.label(cells, select="ff"))


def count_squares(n: int = 4, symmetry: bool = True) -> int:
    """How many magic squares of order ``n`` (in standard form, unless ``symmetry=False``)."""
    return len(magic_squares(n, limit=0, symmetry=symmetry, distinct=fd.distinct))


def grid(cells: list[int]) -> str:
    n = round(len(cells) ** 0.5)
    width = len(str(n * n))
    return "\n".join(
        " ".join(f"{v:>{width}}" for v in cells[r * n : (r + 1) * n]) for r in range(n)
    )


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2
        self.exit(2, f"{self.prog}: error: {message}\n")


def _order(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"N must be an integer, got {text!r}") from None
    if not 1 <= n <= MAX_ORDER:
        raise argparse.ArgumentTypeError(f"N must be between 1 and {MAX_ORDER}, got {n}")
    return n


def main(argv=None) -> None:
    parser = _Parser(prog="magic_square_4.py", description="A magic square of order N.")
    parser.add_argument(
        "n", nargs="?", type=_order, default=4, metavar="N", help="the order (default 4)"
    )
    parser.add_argument(
        "--all-symmetries",
        action="store_true",
        help="do not break symmetry (the first square found, any orientation)",
    )
    parser.add_argument("--count", action="store_true", help="also count the squares")
    args = parser.parse_args(argv)
    n, symmetry = args.n, not args.all_symmetries
    found = magic_squares(n, symmetry=symmetry)
    if not found:
        print(f"no magic square of order {n}")
    else:
        print(f"a magic square of order {n}, every line summing to {n * (n * n + 1) // 2}:")
        print(grid(found[0]))
    if args.count:
        form = "in standard form" if symmetry else "counting turns and mirror images"
        count = count_squares(n, symmetry)
        print(f"{count} magic square{'' if count == 1 else 's'} of order {n} {form}")


if __name__ == "__main__":
    main()
