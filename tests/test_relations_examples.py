"""The examples of relational queries over facts: family, flights, colouring, each against plain Python."""

import runpy
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.fixture(scope="module")
def family():
    return runpy.run_path(str(EXAMPLES / "family.py"))


@pytest.fixture(scope="module")
def flights():
    return runpy.run_path(str(EXAMPLES / "flights.py"))


@pytest.fixture(scope="module")
def colouring():
    return runpy.run_path(str(EXAMPLES / "colouring.py"))


def script(name: str) -> str:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / name)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return done.stdout


def test_family_ancestors_are_the_closure_of_parent(family):
    parents = family["PARENTS"]
    closure = set(parents)
    while True:
        more = {(a, d) for a, p in closure for p2, d in parents if p == p2} - closure
        if not more:
            break
        closure |= more
    people = {p for row in parents for p in row}
    for who in people:
        assert family["ancestors"](who) == sorted(a for a, d in closure if d == who)
        assert family["descendants"](who) == sorted(d for a, d in closure if a == who)
    x, y = family["vars"](2)
    pairs = family["run"](0, (x, y), family["ancestoro"](x, y))
    assert len(pairs) == len(closure) == 29 and set(pairs) == closure


def test_family_same_generation(family):
    parents = family["PARENTS"]
    depth = {}
    for _ in parents:  # generations from the roots down (the family is a tree of depth < 11)
        for p, c in parents:
            depth[c] = max(depth.get(c, 0), depth.get(p, 0) + 1)
    people = {p for row in parents for p in row}
    # same-generation as the rule means it: the same person, or children of one generation
    same = {(p, p) for p in people}
    while True:
        more = {(x, y) for px, x in parents for py, y in parents if (px, py) in same} - same
        if not more:
            break
        same |= more
    assert all(depth.get(x, 0) == depth.get(y, 0) for x, y in same)
    x, y = family["vars"](2)
    assert set(family["run"](0, (x, y), family["same_generationo"](x, y))) == same
    assert family["cousins"]("Fabio") == ["Gaia", "Hans", "Ines"]
    assert "Fabio's generation, siblings aside: Gaia, Hans, Ines" in script("family.py")


def routes(flights_table, origin, destination, budget):
    """Every route (fare, stops) within budget, by a depth-first search over paths in Python."""
    found, stack = [], [(origin, 0, (origin,))]
    while stack:
        city, fare, stops = stack.pop()
        for a, b, f in flights_table:
            if a == city and fare + f <= budget:
                stack.append((b, fare + f, stops + (b,)))
                if b == destination:
                    found.append((fare + f, stops + (b,)))
    return found


def test_flights_reachability_over_cycles(flights):
    table = flights["FLIGHTS"]
    cities = {c for a, b, _ in table for c in (a, b)}
    for origin in cities:
        reach, frontier = set(), {origin}
        while frontier:
            frontier = {b for a, b, _ in table if a in frontier} - reach
            reach |= frontier
        assert flights["destinations"](origin) == sorted(reach)


def test_flights_cheapest_route_within_a_budget(flights):
    table = flights["FLIGHTS"]
    fare, stops = flights["vars"](2)
    for origin, destination, budget in [
        ("LIS", "HEL", 500),
        ("LIS", "HEL", 349),
        ("MAD", "WAW", 400),
        ("HEL", "HEL", 600),
        ("ROM", "OSL", 450),
    ]:
        expected = routes(table, origin, destination, budget)
        found = flights["run"](
            0, (fare, stops), flights["routeo"](origin, destination, fare, stops, budget)
        )
        assert len(found) == len(set(found)) and set(found) == set(expected)
        assert flights["cheapest"](origin, destination, budget) == min(expected, default=None)
    assert flights["cheapest"]("LIS", "HEL", 400) == (
        350,
        ("LIS", "MAD", "PAR", "BER", "WAW", "HEL"),
    )
    out = script("flights.py")
    assert "Lisbon to Helsinki within 300: no route" in out
    assert "Lisbon to Helsinki within 400: 350 via LIS - MAD - PAR - BER - WAW - HEL" in out


def test_colouring_reads_its_edges_from_the_facts(colouring):
    regions, borders = colouring["REGIONS"], colouring["BORDERS"]
    index = {r: i for i, r in enumerate(regions)}
    assert colouring["colourings"](2, limit=1) == ()
    found = colouring["colourings"](3)
    every = [()]  # the proper colourings, by backtracking in plain Python
    for r in range(len(regions)):
        earlier = [index[b] for a, b in borders if index[a] == r and index[b] < r] + [
            index[a] for a, b in borders if index[b] == r and index[a] < r
        ]
        every = [c + (k,) for c in every for k in range(3) if all(c[j] != k for j in earlier)]
    assert len(found) == len(set(map(tuple, found))) == len(every) == 1728
    assert {tuple(c) for c in found} == set(every)
    assert colouring["chromatic_number"]() == 3
    assert "3 colours suffice, 2 do not" in script("colouring.py")
