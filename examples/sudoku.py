"""A 9x9 Sudoku, from a string of 81 characters, solved with the FD layer.

Run it: ``python examples/sudoku.py [PUZZLE]`` (digits for givens, ``.`` or
``0`` for blanks; whitespace is ignored).
"""

import sys

from relqueens import eq, fd, run, vars

PUZZLE = (
    "53..7...."
    "6..195..."
    ".98....6."
    "8...6...3"
    "4..8.3..1"
    "7...2...6"
    ".6....28."
    "...419..5"
    "....8..79"
)


def parse(text: str) -> list[int | None]:
    """81 cells, row by row; ``None`` for a blank. Raises ``ValueError`` for a bad string."""
    cells = [ch for ch in text if not ch.isspace()]
    if len(cells) != 81:
        raise ValueError(f"a Sudoku has 81 cells, this string has {len(cells)}")
    bad = sorted({ch for ch in cells if ch not in "0123456789."})
    if bad:
        raise ValueError(f"cells are digits, '.' or '0'; found {', '.join(map(repr, bad))}")
    return [None if ch in ".0" else int(ch) for ch in cells]


def solve(text: str, limit: int = 2) -> tuple:
    """Up to ``limit`` solutions (two, to tell a unique puzzle from an ambiguous one)."""
    givens = parse(text)
    cells = vars(81)
    rows = [cells[r * 9:(r + 1) * 9] for r in range(9)]
    cols = [cells[c::9] for c in range(9)]
    boxes = [[cells[(br + r) * 9 + bc + c] for r in range(3) for c in range(3)]
             for br in (0, 3, 6) for bc in (0, 3, 6)]
    return run(
        limit,
        cells,
        fd.in_(*cells, fd.interval(1, 9)),
        *(fd.distinct(unit) for unit in rows + cols + boxes),
        *(eq(cell, v) for cell, v in zip(cells, givens) if v is not None),
        fd.label(cells, select="ff"),
    )


def grid(values: list[int]) -> str:
    lines = []
    for r in range(9):
        row = values[r * 9:(r + 1) * 9]
        lines.append(" ".join("".join(map(str, row[c:c + 3])) for c in (0, 3, 6)))
        if r in (2, 5):
            lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    try:
        solutions = solve(sys.argv[1] if len(sys.argv) > 1 else PUZZLE)
    except ValueError as e:
        sys.exit(f"sudoku: {e}")
    if not solutions:
        print("no solution")
    else:
        print(grid(solutions[0]))
        print("unique" if len(solutions) == 1 else "not unique: it has more than one solution")
