"""All-interval series: the numbers 0..n-1 in an order whose n-1 intervals are all different.

Run it: ``python examples/all_interval.py [N] [--count]`` (N = 12 by default;
``--count`` also counts every series of length N: N = 9 takes 2 s, N = 10 8 s).

A series ``x`` is a permutation of ``0..n-1`` and its intervals
``|x[i+1] - x[i]|`` are a permutation of ``1..n-1`` (CSPLib problem 007;
Schoenberg's twelve-tone rows with all intervals different are the case
n = 12). Both facts are ``fd.all_distinct``; the intervals are ``abs`` terms.

Reversing a series, or mapping each ``v`` to ``n-1-v``, gives another one, so
for n >= 3 the series come in classes of four (for n = 2 reversal and
complement coincide). ``symmetry=True`` keeps one series per class:
``x[0] < x[1]`` (against the complement) and the first interval greater than
the last (against reversal).
"""

import argparse
from itertools import pairwise

from relqueens import fd, run, vars


def all_interval(n: int, limit: int = 0, symmetry: bool = False) -> tuple:
    """Up to ``limit`` (0: all) all-interval series of length ``n``, as lists.

    >>> all_interval(4)
    ([0, 3, 1, 2], [1, 2, 0, 3], [2, 1, 3, 0], [3, 0, 2, 1])
    >>> all_interval(4, symmetry=True)
    ([0, 3, 1, 2],)
    """
    xs, ds = vars(n), vars(n - 1)
    goals = [
        fd.in_(*xs, fd.interval(0, n - 1)),
        fd.all_distinct(xs),
        *(abs(xs[i + 1] - xs[i]) == d for i, d in enumerate(ds)),
        fd.all_distinct(ds),
    ]
    if ds:
        goals.append(fd.in_(*ds, fd.interval(1, n - 1)))
    if symmetry and n >= 2:
        goals.append(xs[0] < xs[1])
    if symmetry and n >= 3:
        goals.append(ds[0] > ds[-1])
    return run(limit, xs, *goals, fd.label(xs, select="ff"))


def intervals(series: list[int]) -> list[int]:
    """The intervals between neighbours: ``|x[i+1] - x[i]|``."""
    return [abs(b - a) for a, b in pairwise(series)]


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
    parser = _Parser(prog="all_interval.py", description="All-interval series of length N.")
    parser.add_argument(
        "n", nargs="?", type=_size, default=12, metavar="N", help="length (default 12)"
    )
    parser.add_argument("--count", action="store_true", help="also count every series of length N")
    args = parser.parse_args(argv)
    n = args.n
    found = all_interval(n, limit=1)
    if not found:
        print(f"no all-interval series of length {n}")
        return
    (series,) = found
    width = len(str(n - 1))
    print(f"an all-interval series of length {n}:")
    print("series:   ", " ".join(f"{v:>{width}}" for v in series))
    # each interval printed between the two numbers it separates
    print(
        "intervals:",
        " " * ((width + 2) // 2) + " ".join(f"{d:>{width}}" for d in intervals(series)),
    )
    if args.count:
        total = len(all_interval(n))
        classes = len(all_interval(n, symmetry=True))
        print(f"{total} series of length {n} in all, {classes} up to reversal and complement")


if __name__ == "__main__":
    main()
