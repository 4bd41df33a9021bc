"""Flight routes with cycles: where can one fly, and the cheapest route within a budget.

Run it: ``python examples/flights.py``

``flight(origin, destination, fare)`` is a fact table. The routes go round
in circles (Lisbon - Madrid - Paris - Lisbon, ...), so plain recursion would
never end; ``reacho`` is tabled, so it ends with each city once. A route
with its fare is tabled too, with the budget as an FD bound: the fare of
every route in the table is at most the budget, so, fares being positive,
the table is finite even though the routes can loop.
"""

from relqueens import Relation, conde, conso, eq, facts, fresh, run, tabled, vars

FLIGHTS = [  # (from, to, fare)
    ("LIS", "MAD", 60),
    ("MAD", "LIS", 55),
    ("MAD", "PAR", 90),
    ("PAR", "LIS", 120),
    ("LIS", "PAR", 160),
    ("PAR", "BER", 80),
    ("BER", "WAW", 50),
    ("WAW", "BER", 45),
    ("BER", "HEL", 140),
    ("WAW", "HEL", 70),
    ("HEL", "OSL", 95),
    ("OSL", "BER", 85),
    ("ROM", "MAD", 75),
]

flight = Relation("flight")
facts(flight, *FLIGHTS)


@tabled
def reacho(a, b):
    """There is a flight, or a chain of flights, from ``a`` to ``b``."""
    return conde(
        [fresh(lambda fare: flight(a, b, fare))],
        [fresh(lambda via: [reacho(a, via), reacho(via, b)])],
    )


@tabled
def routeo(a, b, fare, stops, budget):
    """``stops`` (a tuple of cities from ``a`` to ``b``) is a route costing ``fare``, at most ``budget``."""
    return conde(
        [flight(a, b, fare), eq(stops, (a, b)), fare <= budget],
        [
            fresh(
                lambda via, f1, f2, rest: [
                    flight(a, via, f1),
                    routeo(via, b, f2, rest, budget),
                    fare == f1 + f2,
                    fare <= budget,
                    conso(a, rest, stops),
                ]
            )
        ],
    )


def destinations(origin: str) -> list[str]:
    """Every city one can reach from ``origin``, sorted."""
    b = vars(1)[0]
    return sorted(run(0, b, reacho(origin, b)))


def cheapest(origin: str, destination: str, budget: int) -> tuple[int, tuple] | None:
    """The cheapest ``(fare, stops)`` from ``origin`` to ``destination`` within ``budget``, or None."""
    fare, stops = vars(2)
    routes = run(0, (fare, stops), routeo(origin, destination, fare, stops, budget))
    return min(routes, default=None)


if __name__ == "__main__":
    print("from Lisbon:", ", ".join(destinations("LIS")))
    print("from Oslo:", ", ".join(destinations("OSL")))
    print("from Helsinki back to Helsinki:", "HEL" in destinations("HEL"))
    for budget in (300, 400, 500):
        best = cheapest("LIS", "HEL", budget)
        if best is None:
            print(f"Lisbon to Helsinki within {budget}: no route")
        else:
            print(f"Lisbon to Helsinki within {budget}: {best[0]} via {' - '.join(best[1])}")
    fare, stops = vars(2)
    print(
        len(run(0, (fare, stops), routeo("LIS", "HEL", fare, stops, 500))),
        "routes from Lisbon to Helsinki within 500, loops included",
    )
