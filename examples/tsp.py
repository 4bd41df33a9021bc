"""A travelling salesman: the shortest round trip through eight European cities.

Run it: ``python examples/tsp.py [K] [--random N [--seed S]]`` (K: the first
K cities of the table, 8 by default; ``--random N``: N random cities on a
100 x 100 grid instead).

``succ[i]`` is the city visited after city ``i``; ``fd.circuit(succ)`` makes
the visits one round trip through every city, ``fd.element(succ[i],
DIST[i], leg[i])`` says that leg ``i`` costs the distance from ``i`` to its
successor, and ``fd.minimize`` of the sum of the legs finds the shortest trip
by branch and bound, so ``run(1, ...)`` is a proved optimum.
"""

import argparse
import math
import random

from relqueens import fd, run, vars

CITIES = ["Amsterdam", "Berlin", "Brussels", "Copenhagen", "London", "Paris", "Prague", "Vienna"]

#: great-circle distances in km, rounded (symmetric; the model does not need it to be)
DIST = [
    [0, 576, 173, 621, 358, 430, 711, 935],
    [576, 0, 650, 356, 931, 877, 281, 523],
    [173, 650, 0, 765, 321, 264, 719, 915],
    [621, 356, 765, 0, 956, 1027, 635, 870],
    [358, 931, 321, 956, 0, 343, 1035, 1235],
    [430, 877, 264, 1027, 343, 0, 883, 1033],
    [711, 281, 719, 635, 1035, 883, 0, 251],
    [935, 523, 915, 870, 1235, 1033, 251, 0],
]


def shortest_tour(dist: list[list[int]] = DIST) -> tuple[list[int], int]:
    """``(tour, length)``: a shortest round trip, as the cities in visiting order from city 0.

    >>> shortest_tour([[0, 1, 9, 1], [1, 0, 1, 9], [9, 1, 0, 1], [1, 9, 1, 0]])
    ([0, 1, 2, 3], 4)
    """
    n = len(dist)
    succ, leg = vars(n), vars(n)
    (best,) = run(
        1,
        succ,
        fd.circuit(succ),
        *(fd.element(succ[i], dist[i], leg[i]) for i in range(n)),
        fd.minimize(fd.dot([1] * n, leg), succ),  # the sum of the legs
    )
    tour = [0]
    while len(tour) < n:
        tour.append(best[tour[-1]])
    return tour, sum(dist[a][b] for a, b in zip(tour, tour[1:] + tour[:1]))


def random_cities(n: int, seed: int) -> tuple[list[str], list[list[int]]]:
    """``n`` cities at random points of a 100 x 100 grid, and their rounded distances."""
    rng = random.Random(seed)
    points = [(rng.randint(0, 100), rng.randint(0, 100)) for _ in range(n)]
    names = [f"({x}, {y})" for x, y in points]
    return names, [[round(math.dist(p, q)) for q in points] for p in points]


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2
        self.exit(2, f"{self.prog}: error: {message}\n")


def _int_at_least(low: int, name: str):
    def parse(text: str) -> int:
        try:
            k = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be an integer, got {text!r}") from None
        if k < low:
            raise argparse.ArgumentTypeError(f"{name} must be at least {low}, got {k}")
        return k

    return parse


def main(argv=None) -> None:
    parser = _Parser(prog="tsp.py", description="The shortest round trip through the cities.")
    parser.add_argument(
        "k",
        nargs="?",
        type=_int_at_least(1, "K"),
        metavar="K",
        help=f"use the first K of the {len(CITIES)} cities (default all)",
    )
    parser.add_argument(
        "--random",
        type=_int_at_least(1, "N"),
        metavar="N",
        help="N random cities instead (a dozen take a few seconds)",
    )
    parser.add_argument(
        "--seed", type=_int_at_least(0, "the seed"), default=1, help="for --random (default 1)"
    )
    args = parser.parse_args(argv)
    if args.random is not None:
        if args.k is not None:
            parser.error("give K or --random N, not both")
        names, dist, unit = *random_cities(args.random, args.seed), ""
    else:
        k = len(CITIES) if args.k is None else args.k
        if k > len(CITIES):
            parser.error(f"argument K: the table has {len(CITIES)} cities, got {k}")
        names, dist, unit = CITIES[:k], [row[:k] for row in DIST[:k]], " km"
    tour, length = shortest_tour(dist)
    print(
        f"the shortest round trip through {len(names)} {'city' if len(names) == 1 else 'cities'}:"
    )
    for a, b in zip(tour, tour[1:] + tour[:1]):
        print(f"  {names[a]:>12} -> {names[b]:<12} {dist[a][b]:>5}{unit}")
    print(f"{' -> '.join(names[c] for c in tour + tour[:1])}: {length}{unit}")


if __name__ == "__main__":
    main()
