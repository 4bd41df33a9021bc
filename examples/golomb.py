"""Optimal Golomb rulers: m marks, no two pairs of them the same distance apart, as short as can be.

Run it: ``python examples/golomb.py [M ...]`` (M = 4 5 6 7 8 by default;
m = 9 takes a few seconds, m = 10 about 20).

The marks are ``0 = x[0] < x[1] < ... < x[m-1]``, the m(m-1)/2 distances
``x[j] - x[i]`` are all different, and ``fd.minimize(x[m-1], ...)`` finds the
shortest such ruler by branch and bound: ``run(1, ...)`` answers only once
the search has shown that no shorter ruler exists, so the length printed is
proved optimal (CSPLib problem 006).

Besides the definition, the model has the usual helpers (they prune, they
exclude no ruler except mirror images):

- a distance spanning ``k`` gaps is at least ``1 + 2 + ... + k``, being a sum
  of ``k`` different distances, and at most the length minus the least sum
  of the other ``m - 1 - k`` gaps;
- the mirror image of a ruler is a ruler, so the first gap is kept shorter
  than the last.

The distances are kept different with ``fd.distinct`` (value elimination).
``fd.all_distinct`` prunes a little more but costs far more here: proving
m = 8 took 3.5 s with it against 0.45 s with ``fd.distinct``.
"""

import argparse
from itertools import combinations

from relqueens import fd, run, vars

#: the most marks accepted (m = 11 already takes minutes)
MAX_MARKS = 16


def golomb(m: int) -> list[int]:
    """The marks of an optimal Golomb ruler with ``m`` marks (the first found, proved shortest).

    >>> golomb(5)
    [0, 1, 4, 9, 11]
    """
    if not 1 <= m <= MAX_MARKS:
        raise ValueError(f"m must be between 1 and {MAX_MARKS}, got {m}")
    longest = 2 ** (m - 1) - 1  # marks 0, 1, 3, 7, ..., 2**(m-1) - 1 make a Golomb ruler
    xs = vars(m)
    pairs = list(combinations(range(m), 2))
    dist = dict(zip(pairs, vars(len(pairs))))
    goals = [
        fd.in_(*xs, fd.interval(0, longest)),
        fd.eq(xs[0], 0),
        *(xs[i] < xs[i + 1] for i in range(m - 1)),
        *(dist[i, j] == xs[j] - xs[i] for i, j in pairs),
        fd.distinct(list(dist.values())),
        # redundant bounds: k = j - i gaps are k different distances
        *(dist[i, j] >= (j - i) * (j - i + 1) // 2 for i, j in pairs),
        *(dist[i, j] <= xs[-1] - (m - 1 - (j - i)) * (m - (j - i)) // 2 for i, j in pairs),
    ]
    if m >= 3:
        goals.append(dist[0, 1] < dist[m - 2, m - 1])  # one of each mirror pair
    (marks,) = run(1, xs, *goals, fd.minimize(xs[-1], xs))
    return marks


def distances(marks: list[int]) -> list[int]:
    """Every distance between two marks, ascending."""
    return sorted(b - a for a, b in combinations(marks, 2))


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2
        self.exit(2, f"{self.prog}: error: {message}\n")


def _marks(text: str) -> int:
    try:
        m = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"M must be an integer, got {text!r}") from None
    if not 1 <= m <= MAX_MARKS:
        raise argparse.ArgumentTypeError(f"M must be between 1 and {MAX_MARKS}, got {m}")
    return m


def main(argv=None) -> None:
    parser = _Parser(prog="golomb.py", description="Optimal Golomb rulers with M marks.")
    parser.add_argument(
        "m", nargs="*", type=_marks, metavar="M", help="number of marks (default 4 5 6 7 8)"
    )
    args = parser.parse_args(argv)
    for m in args.m or [4, 5, 6, 7, 8]:
        marks = golomb(m)
        marks_word = "mark" if m == 1 else "marks"
        print(f"{m} {marks_word}: {' '.join(map(str, marks))}")
        print(f"  length {marks[-1]}, optimal: no Golomb ruler with {m} {marks_word} is shorter")
        print(f"  distances: {' '.join(map(str, distances(marks))) or '(none)'}")


if __name__ == "__main__":
    main()
