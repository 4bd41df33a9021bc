"""Langford pairs L(2, n): 1, 1, 2, 2, ..., n, n in a row, the two k's with k numbers between them.

Run it: ``python examples/langford.py [N ...]`` (N = 3 4 7 by default; the
count for N = 8 takes well under a second, N = 11 some seconds).

For n = 3: ``3 1 2 1 3 2``, the only one but for its mirror image. The model
is one variable per number, the position of its first copy; the second copy
stands ``k + 1`` further on, and the 2n positions are all different. A
sequence read backwards is another, so the first 1 is kept in the first
half: one sequence of each mirror pair (no sequence is its own mirror image:
its two 1s, one number apart, cannot sit symmetrically about the middle of a
row of even length). Solutions exist only when n is 0 or 3 modulo 4 (CSPLib
problem 024).

The positions are kept different with ``fd.distinct`` (value elimination).
``fd.all_distinct`` saves nodes but costs far more: counting L(2, 8) took
0.7 s with it against 0.03 s with ``fd.distinct``.
"""

import argparse

from relqueens import fd, run, vars


def langford(n: int, limit: int = 0, symmetry: bool = True) -> tuple:
    """Up to ``limit`` (0: all) Langford sequences L(2, n), as lists of 2n numbers.

    With ``symmetry=True`` one of each mirror pair (the one with its first 1
    nearer the start).

    >>> langford(4)
    ([4, 1, 3, 1, 2, 4, 3, 2],)
    """
    first = vars(n)  # first[k - 1]: where the first k stands (0-based)
    second = [f + (k + 1) for k, f in enumerate(first, start=1)]
    goals = [
        fd.in_(*first, fd.interval(0, 2 * n - 1)),
        *(s <= 2 * n - 1 for s in second),
        fd.distinct(first + second),
    ]
    if symmetry:  # the first 1 before the middle (mirrored, it would be after)
        goals.append(first[0] <= n - 2)
    found = run(limit, first, *goals, fd.label(first, select="ff"))
    return tuple(sequence(n, positions) for positions in found)


def sequence(n: int, first: list[int]) -> list[int]:
    """The sequence from the positions of the first copies."""
    seq = [0] * (2 * n)
    for k, p in enumerate(first, start=1):
        seq[p] = seq[p + k + 1] = k
    return seq


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2
        self.exit(2, f"{self.prog}: error: {message}\n")


def _size(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"N must be an integer, got {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"N must be at least 1, got {n}")
    return n


def main(argv=None) -> None:
    parser = _Parser(prog="langford.py", description="Langford pairs L(2, N).")
    parser.add_argument(
        "n", nargs="*", type=_size, metavar="N", help="largest number (default 3 4 7)"
    )
    args = parser.parse_args(argv)
    for n in args.n or [3, 4, 7]:
        found = langford(n)
        if not found:
            print(f"L(2, {n}): none")
            continue
        noun = "sequence" if len(found) == 1 else "sequences"
        print(
            f"L(2, {n}): {len(found)} {noun} up to reversal, "
            f"the first: {' '.join(map(str, found[0]))}"
        )


if __name__ == "__main__":
    main()
