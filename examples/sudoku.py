"""A 9x9 Sudoku, from a string of 81 characters, solved with the FD layer.

Run it: ``python examples/sudoku.py [PUZZLE]`` (digits for givens, ``.`` or
``0`` for blanks; whitespace is ignored). ``--step FILE`` writes a page that
replays the search step by step, each cell's candidates shrinking, coloured by
the row, column or box that ruled them out; without a PUZZLE it replays
``TRICKY`` (the default puzzle is solved by propagation alone, with no search).
"""

import argparse
from pathlib import Path

from relqueens import SearchTrace, eq, fd, run, vars
from relqueens.stepper import Grid, stepper_html

PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


TRICKY = "..9748...7.........2.1.9.....7...24..64.1.59..98...3.....8.3.2.........6...2759.."


def parse(text: str) -> list[int | None]:
    """81 cells, row by row; ``None`` for a blank. Raises ``ValueError`` for a bad string."""
    cells = [ch for ch in text if not ch.isspace()]
    if len(cells) != 81:
        raise ValueError(f"a Sudoku has 81 cells, this string has {len(cells)}")
    bad = sorted({ch for ch in cells if ch not in "0123456789."})
    if bad:
        raise ValueError(f"cells are digits, '.' or '0'; found {', '.join(map(repr, bad))}")
    return [None if ch in ".0" else int(ch) for ch in cells]


def solve(
    text: str, limit: int = 2, trace: SearchTrace | None = None, units: dict | None = None
) -> tuple:
    """Up to ``limit`` solutions (two, to tell a unique puzzle from an ambiguous one).

    A ``trace`` records the search; ``units``, when given, is filled with
    ``{constraint: "row" / "column" / "box"}`` and ``"cells"``, the 81 variables.
    """
    givens = parse(text)
    cells = vars(81)
    rows = [cells[r * 9 : (r + 1) * 9] for r in range(9)]
    cols = [cells[c::9] for c in range(9)]
    boxes = [
        [cells[(br + r) * 9 + bc + c] for r in range(3) for c in range(3)]
        for br in (0, 3, 6)
        for bc in (0, 3, 6)
    ]
    distinct = {
        fd.distinct(unit): kind
        for kind, group in (("row", rows), ("column", cols), ("box", boxes))
        for unit in group
    }
    if units is not None:
        units.update(distinct, cells=cells)
    return run(
        limit,
        cells,
        fd.in_(*cells, fd.interval(1, 9)),
        *distinct,
        *(eq(cell, v) for cell, v in zip(cells, givens) if v is not None),
        fd.label(cells, select="ff", trace=trace),
    )


def step_page(text: str) -> str:
    """The stepper page of the search for ``text``'s solutions (and the proof there is no other)."""
    trace, units = SearchTrace(), {}
    solve(text, trace=trace, units=units)
    if not trace.nodes:
        raise ValueError("propagation alone solves this puzzle: there is no search to step through")
    shown = [cell if given is None else given for cell, given in zip(units["cells"], parse(text))]
    grid = Grid(
        [shown[r * 9 : (r + 1) * 9] for r in range(9)], values=range(1, 10), kind=units.get, box=3
    )
    return stepper_html(trace, layout=grid, title="Sudoku, step by step")


def grid(values: list[int]) -> str:
    lines = []
    for r in range(9):
        row = values[r * 9 : (r + 1) * 9]
        lines.append(" ".join("".join(map(str, row[c : c + 3])) for c in (0, 3, 6)))
        if r in (2, 5):
            lines.append("")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description="Solve a Sudoku with relqueens' FD layer.")
    parser.add_argument(
        "puzzle", nargs="?", help="81 characters: digits for givens, '.' or '0' for blanks"
    )
    parser.add_argument(
        "--step", metavar="FILE", help="write a page that replays the search step by step"
    )
    args = parser.parse_args()
    try:
        if args.step:
            Path(args.step).write_text(step_page(args.puzzle or TRICKY), encoding="utf-8")
            print(f"wrote {args.step}")
            return
        solutions = solve(args.puzzle or PUZZLE)
    except (ValueError, OSError) as e:
        parser.exit(2, f"sudoku: {e}\n")
    if not solutions:
        print("no solution")
    else:
        print(grid(solutions[0]))
        print("unique" if len(solutions) == 1 else "not unique: it has more than one solution")


if __name__ == "__main__":
    main()
