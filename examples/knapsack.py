"""The 0/1 knapsack: which things to pack, within a weight limit, for the most value.

Run it: ``python examples/knapsack.py [--capacity WEIGHT] [--at-least VALUE]``
(300 by default, in hundreds of grams, as the weights are).

One 0/1 variable per item says whether it is packed; the weight is
``fd.scalar_product(weights, take, "<=", capacity)`` and
``fd.maximize(value, take)`` finds the best packing by branch and bound, so
``run(1, ...)`` is a proved optimum. With ``--at-least VALUE`` it asks instead
for a packing worth that much, ``fd.scalar_product(values, take, ">=", VALUE)``,
and labels with no objective: the first such packing in the labeling's order,
or none (the LP of both rows refutes what each row alone allows).
"""

import argparse

from relqueens import fd, run, vars

#: (item, weight in hundreds of grams, value)
ITEMS = [
    ("tent", 110, 150),
    ("sleeping bag", 75, 140),
    ("stove", 42, 60),
    ("fuel", 18, 35),
    ("pot", 25, 30),
    ("water filter", 12, 70),
    ("water (2 l)", 100, 130),
    ("map", 3, 50),
    ("compass", 5, 45),
    ("headlamp", 6, 40),
    ("first-aid kit", 20, 75),
    ("rain jacket", 35, 80),
    ("fleece", 40, 55),
    ("camera", 30, 35),
    ("book", 25, 10),
    ("trail mix", 15, 45),
    ("sandwiches", 22, 50),
    ("sunscreen", 8, 30),
]
CAPACITY = 300


def pack(
    items: list = ITEMS, capacity: int = CAPACITY, at_least: int | None = None
) -> list[int] | None:
    """A best packing: 1 for each item taken, 0 for each left behind (in the order of ``items``);
    with ``at_least``, the first packing worth that much (``None`` if there is none).

    >>> pack([("a", 3, 4), ("b", 2, 3), ("c", 2, 3)], 4)
    [0, 1, 1]
    >>> pack([("a", 3, 4), ("b", 2, 3), ("c", 2, 3)], 4, at_least=4)   # a is taken first
    [1, 0, 0]
    >>> pack([("a", 3, 4), ("b", 2, 3), ("c", 2, 3)], 4, at_least=7) is None
    True
    """
    take = vars(len(items))
    weights = [w for _, w, _ in items]
    values = [v for _, _, v in items]
    packing = [fd.in_(*take, fd.interval(0, 1)), fd.scalar_product(weights, take, "<=", capacity)]
    if at_least is None:
        search = fd.maximize(fd.dot(values, take), take, order="down")  # try packing an item first
    else:
        packing.append(fd.scalar_product(values, take, ">=", at_least))
        search = fd.label(take, order="down")
    found = run(1, take, *packing, search)
    return found[0] if found else None


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2
        self.exit(2, f"{self.prog}: error: {message}\n")


def _amount(what: str):
    """An argument type: a whole number, not negative, named ``what`` in its errors."""

    def amount(text: str) -> int:
        try:
            c = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what} must be an integer, got {text!r}") from None
        if c < 0:
            raise argparse.ArgumentTypeError(f"{what} cannot be negative, got {c}")
        return c

    return amount


def main(argv=None) -> None:
    parser = _Parser(prog="knapsack.py", description="Pack the most value within a weight limit.")
    parser.add_argument(
        "--capacity",
        type=_amount("the capacity"),
        default=CAPACITY,
        metavar="WEIGHT",
        help=f"the weight limit, in hundreds of grams (default {CAPACITY})",
    )
    parser.add_argument(
        "--at-least",
        type=_amount("the value"),
        metavar="VALUE",
        help="a packing worth at least VALUE, not the best one (the first found)",
    )
    args = parser.parse_args(argv)
    taken = pack(ITEMS, args.capacity, args.at_least)
    if taken is None:
        print(f"no packing within {args.capacity} is worth {args.at_least}")
        return
    chosen = [item for item, t in zip(ITEMS, taken) if t]
    print(f"packed within {args.capacity} (weight in hundreds of grams):")
    for name, weight, value in chosen:
        print(f"  {name:<15} weight {weight:>4}  value {value:>4}")
    weight = sum(w for _, w, _ in chosen)
    value = sum(v for _, _, v in chosen)
    print(f"{len(chosen)} of {len(ITEMS)} items, weight {weight} of {args.capacity}, value {value}")


if __name__ == "__main__":
    main()
