"""The gallery of classic constraint problems in examples/, each answer judged independently.

Every example is run twice: its function imported (with ``runpy``) and judged
against brute force or a plain backtracking search written here, and its
script run as a user runs it, judged by what it prints.
"""

import doctest
import importlib.util
import random
import re
import runpy
import subprocess
import sys
from itertools import combinations, pairwise, permutations, product
from pathlib import Path

import pytest

from relqueens import fd

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
GALLERY = ["all_interval", "golomb", "jobshop", "knapsack", "magic_square_4", "langford", "tsp"]


def load(name: str) -> dict:
    return runpy.run_path(str(EXAMPLES / f"{name}.py"))


def script(name: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(EXAMPLES / f"{name}.py"), *args],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )


def output(name: str, *args: str) -> str:
    done = script(name, *args)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    return done.stdout


def assert_bad_input(name: str, *args: str, says: str) -> None:
    """The script refuses the input: exit status 2 and one line on stderr, naming the problem."""
    done = script(name, *args)
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert "error" in lines[0] and says in lines[0], lines[0]


def numbers(text: str) -> list[int]:
    return [int(t) for t in re.findall(r"-?\d+", text)]


@pytest.mark.parametrize("name", GALLERY)
def test_docstring_examples(name):
    spec = importlib.util.spec_from_file_location(f"gallery_{name}", EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    result = doctest.testmod(module)
    assert result.failed == 0
    assert result.attempted >= 1


# --- all-interval series ------------------------------------------------------------------------


def is_all_interval(series, n) -> bool:
    return sorted(series) == list(range(n)) and sorted(
        abs(b - a) for a, b in pairwise(series)
    ) == list(range(1, n))


def all_interval_brute(n: int) -> set:
    return {p for p in permutations(range(n)) if is_all_interval(p, n)}


def classes(found: set, n: int) -> set:
    """One representative (the least) of each class under reversal and complement."""

    def images(s):
        c = tuple(n - 1 - v for v in s)
        return [s, s[::-1], c, c[::-1]]

    return {min(images(s)) for s in found}


def test_all_interval_finds_every_series():
    mod = load("all_interval")
    counts = {}
    for n in range(1, 9):
        expected = all_interval_brute(n)
        found = mod["all_interval"](n)
        assert len(found) == len(set(map(tuple, found)))
        assert set(map(tuple, found)) == expected
        counts[n] = len(found)
        reps = set(map(tuple, mod["all_interval"](n, symmetry=True)))
        assert reps <= expected
        assert len(reps) == len(classes(expected, n))
        assert classes(reps, n) == classes(expected, n)  # one per class, every class
    assert counts == {1: 1, 2: 2, 3: 4, 4: 4, 5: 8, 6: 24, 7: 32, 8: 40}
    (first,) = mod["all_interval"](20, limit=1)
    assert is_all_interval(first, 20)
    assert mod["intervals"]([0, 3, 1, 2]) == [3, 2, 1]


def test_all_interval_script():
    out = output("all_interval", "8", "--count")
    series_line, intervals_line = (
        line for line in out.splitlines() if line.startswith(("series", "intervals"))
    )
    series, gaps = numbers(series_line), numbers(intervals_line)
    assert is_all_interval(series, 8)
    assert gaps == [abs(b - a) for a, b in pairwise(series)]
    assert "40 series of length 8 in all, 10 up to reversal and complement" in out
    series = numbers(
        next(line for line in output("all_interval").splitlines() if line.startswith("series"))
    )
    assert len(series) == 12 and is_all_interval(series, 12)
    assert_bad_input("all_interval", "-3", says="at least 1")
    assert_bad_input("all_interval", "2.5", says="integer")
    assert_bad_input("all_interval", "ten", says="integer")


# --- Golomb rulers ------------------------------------------------------------------------------

KNOWN_GOLOMB = {1: 0, 2: 1, 3: 3, 4: 6, 5: 11, 6: 17, 7: 25, 8: 34}


def is_golomb(marks) -> bool:
    gaps = [b - a for a, b in combinations(marks, 2)]
    return marks[0] == 0 and list(marks) == sorted(set(marks)) and len(gaps) == len(set(gaps))


def golomb_exists(m: int, length: int) -> bool:
    """Is there a Golomb ruler with m marks no longer than ``length``? Plain backtracking."""
    if m <= 1:
        return length >= 0
    marks, used = [0], set()

    def extend() -> bool:
        if len(marks) == m:
            return True
        for x in range(marks[-1] + 1, length + 1 - (m - 1 - len(marks))):
            new = [x - a for a in marks]
            if len(set(new)) == len(new) and not used.intersection(new):
                used.update(new)
                marks.append(x)
                if extend():
                    return True
                marks.pop()
                used.difference_update(new)
        return False

    return extend()


def test_golomb_rulers_are_optimal():
    golomb = load("golomb")["golomb"]
    for m in range(1, 9):
        marks = golomb(m)
        assert len(marks) == m and is_golomb(marks), marks
        length = marks[-1]
        assert length == KNOWN_GOLOMB[m]
        assert not golomb_exists(m, length - 1)  # optimal: nothing shorter, by a search of our own
    assert golomb_exists(8, 34)


def test_golomb_script():
    out = output("golomb")
    rulers = [
        numbers(line.split(":", 1)[1]) for line in out.splitlines() if re.match(r"\d+ marks:", line)
    ]
    assert [len(r) for r in rulers] == [4, 5, 6, 7, 8]
    assert [r[-1] for r in rulers] == [6, 11, 17, 25, 34]
    assert all(is_golomb(r) for r in rulers)
    assert out.count("optimal: no Golomb ruler with") == 5
    assert "length 34, optimal" in out
    distances = [numbers(line) for line in out.splitlines() if line.strip().startswith("distances")]
    assert distances == [sorted(b - a for a, b in combinations(r, 2)) for r in rulers]
    assert numbers(output("golomb", "3").splitlines()[0]) == [3, 0, 1, 3]
    assert_bad_input("golomb", "0", says="between 1 and")
    assert_bad_input("golomb", "4", "x", says="integer")


# --- knapsack -----------------------------------------------------------------------------------


def best_value(items, capacity: int) -> int:
    """The optimum by dynamic programming over capacities."""
    best = [0] * (capacity + 1)
    for _, w, v in items:
        for c in range(capacity, w - 1, -1):
            best[c] = max(best[c], best[c - w] + v)
    return best[capacity]


def test_knapsack_is_optimal():
    mod = load("knapsack")
    items = mod["ITEMS"]
    assert 15 <= len(items) <= 20
    for capacity in (0, 7, 100, 200, mod["CAPACITY"], 400, 591, 1000):
        taken = mod["pack"](items, capacity)
        assert len(taken) == len(items) and set(taken) <= {0, 1}
        assert sum(w for (_, w, _), t in zip(items, taken) if t) <= capacity
        assert sum(v for (_, _, v), t in zip(items, taken) if t) == best_value(items, capacity)
        assert_worth(mod["pack"], items, capacity)
    rng = random.Random(7)
    for _ in range(10):
        small = [
            (str(i), rng.randint(1, 40), rng.randint(0, 60)) for i in range(rng.randint(1, 12))
        ]
        capacity = rng.randint(0, sum(w for _, w, _ in small))
        taken = mod["pack"](small, capacity)
        assert sum(w for (_, w, _), t in zip(small, taken) if t) <= capacity
        assert sum(v for (_, _, v), t in zip(small, taken) if t) == best_value(small, capacity)
        assert_worth(mod["pack"], small, capacity)


def assert_worth(pack, items, capacity: int) -> None:
    """``pack(..., at_least=v)`` finds a packing within ``capacity`` worth ``v`` for ``v`` up to
    the best value, the first in the labeling's order (items packed first), and none past it."""
    best = best_value(items, capacity)
    for at_least in {0, best // 2, best - 1, best} - {-1}:
        taken = pack(items, capacity, at_least=at_least)
        assert sum(w for (_, w, _), t in zip(items, taken) if t) <= capacity
        assert sum(v for (_, _, v), t in zip(items, taken) if t) >= at_least
        if len(items) <= 12:  # the greatest packing worth it, in lexicographic order, is first
            assert tuple(taken) == max(
                p
                for p in product((0, 1), repeat=len(items))
                if sum(w for (_, w, _), t in zip(items, p) if t) <= capacity
                and sum(v for (_, _, v), t in zip(items, p) if t) >= at_least
            )
    assert pack(items, capacity, at_least=best + 1) is None


def test_knapsack_script():
    items = {name: (w, v) for name, w, v in load("knapsack")["ITEMS"]}
    for args, capacity in (((), 300), (("--capacity", "120"), 120)):
        out = output("knapsack", *args)
        packed = [
            line.split("  weight")[0].strip() for line in out.splitlines() if "  weight " in line
        ]
        assert packed and set(packed) <= set(items)
        weight = sum(items[p][0] for p in packed)
        value = sum(items[p][1] for p in packed)
        assert weight <= capacity
        assert value == best_value([(n, *items[n]) for n in items], capacity)
        assert (
            f"{len(packed)} of {len(items)} items, weight {weight} of {capacity}, value {value}"
            in out
        )
    assert "value 755" in output("knapsack")
    out = output("knapsack", "--at-least", "700")
    assert 700 <= numbers(out.splitlines()[-1])[-1] <= 755
    assert output("knapsack", "--at-least", "756") == "no packing within 300 is worth 756\n"
    assert_bad_input("knapsack", "--capacity", "-1", says="negative")
    assert_bad_input("knapsack", "--capacity", "heavy", says="integer")
    assert_bad_input("knapsack", "--at-least", "-5", says="negative")
    assert_bad_input("knapsack", "--at-least", "lots", says="integer")


# --- magic squares ------------------------------------------------------------------------------


def is_magic(cells, n) -> bool:
    rows = [cells[r * n : (r + 1) * n] for r in range(n)]
    total = n * (n * n + 1) // 2
    lines = rows + [list(c) for c in zip(*rows)]
    lines += [[rows[i][i] for i in range(n)], [rows[i][n - 1 - i] for i in range(n)]]
    return sorted(cells) == list(range(1, n * n + 1)) and all(sum(line) == total for line in lines)


def standard_form(cells, n) -> bool:
    corners = [cells[0], cells[n - 1], cells[n * (n - 1)], cells[n * n - 1]]
    return cells[0] == min(corners) and cells[1] < cells[n]


def test_magic_squares():
    mod = load("magic_square_4")
    (square,) = mod["magic_squares"]()
    assert len(square) == 16 and is_magic(square, 4) and standard_form(square, 4)
    (free,) = mod["magic_squares"](4, symmetry=False)
    assert is_magic(free, 4)
    brute3 = {p for p in permutations(range(1, 10)) if is_magic(list(p), 3)}
    assert len(brute3) == 8
    assert set(map(tuple, mod["magic_squares"](3, limit=0, symmetry=False))) == brute3
    assert set(map(tuple, mod["magic_squares"](3, limit=0))) == {
        s for s in brute3 if standard_form(s, 3)
    }
    assert mod["magic_squares"](2, limit=0, symmetry=False) == ()
    all4 = mod["magic_squares"](4, limit=0, distinct=fd.distinct)
    assert len(all4) == 880  # Frénicle (1693): 880 squares of order 4 in standard form
    assert len(set(map(tuple, all4))) == 880
    assert all(is_magic(s, 4) and standard_form(s, 4) for s in all4)
    assert mod["count_squares"](3, symmetry=False) == 8


def test_magic_square_script():
    out = output("magic_square_4")
    assert "every line summing to 34" in out
    grid = [numbers(line) for line in out.splitlines()[1:5]]
    assert all(len(row) == 4 for row in grid)
    cells = [v for row in grid for v in row]
    assert is_magic(cells, 4) and standard_form(cells, 4)
    assert "1 magic square of order 3 in standard form" in output("magic_square_4", "3", "--count")
    assert "8 magic squares of order 3 counting turns" in output(
        "magic_square_4", "3", "--count", "--all-symmetries"
    )
    assert "no magic square of order 2" in output("magic_square_4", "2")
    assert_bad_input("magic_square_4", "6", says="between 1 and 5")
    assert_bad_input("magic_square_4", "four", says="integer")


# --- Langford pairs -----------------------------------------------------------------------------


def langford_brute(n: int) -> set:
    """Every L(2, n) sequence, by placing n, n-1, ..., 1 in turn."""
    out, seq = set(), [0] * (2 * n)

    def place(k):
        if k == 0:
            out.add(tuple(seq))
            return
        for p in range(2 * n - k - 1):
            if seq[p] == 0 and seq[p + k + 1] == 0:
                seq[p] = seq[p + k + 1] = k
                place(k - 1)
                seq[p] = seq[p + k + 1] = 0

    place(n)
    return out


def is_langford(seq, n) -> bool:
    return sorted(seq) == sorted(list(range(1, n + 1)) * 2) and all(
        seq.index(k) + k + 1 == len(seq) - 1 - seq[::-1].index(k) for k in range(1, n + 1)
    )


def test_langford_counts():
    langford = load("langford")["langford"]
    for n in range(1, 9):
        expected = langford_brute(n)
        everything = set(map(tuple, langford(n, symmetry=False)))
        assert everything == expected
        halves = set(map(tuple, langford(n)))
        assert len(halves) * 2 == len(expected)
        assert {s[::-1] for s in halves} | halves == expected  # one of each mirror pair
    assert [len(langford(n)) for n in (3, 4, 7)] == [1, 1, 26]
    assert len(langford(8)) == 150


def test_langford_script():
    out = output("langford")
    lines = out.splitlines()
    assert [line.split(":")[0] for line in lines] == ["L(2, 3)", "L(2, 4)", "L(2, 7)"]
    assert "L(2, 3): 1 sequence up to reversal, the first: 3 1 2 1 3 2" in out
    assert "L(2, 7): 26 sequences up to reversal" in out
    for line, n in zip(lines, (3, 4, 7)):
        assert is_langford(numbers(line.split("first:")[1]), n)
    assert output("langford", "5", "6").splitlines() == ["L(2, 5): none", "L(2, 6): none"]
    assert_bad_input("langford", "-1", says="at least 1")
    assert_bad_input("langford", "3.5", says="integer")


# --- travelling salesman ------------------------------------------------------------------------


def tour_length(dist, tour) -> int:
    return sum(dist[a][b] for a, b in zip(tour, tour[1:] + tour[:1]))


def shortest_by_brute_force(dist) -> int:
    n = len(dist)
    return min(tour_length(dist, [0, *p]) for p in permutations(range(1, n)))


def test_tsp_is_optimal():
    mod = load("tsp")
    dist = mod["DIST"]
    assert len(dist) == 8 and all(len(row) == 8 for row in dist)
    for k in (1, 2, 3, 5, 8):
        sub = [row[:k] for row in dist[:k]]
        tour, length = mod["shortest_tour"](sub)
        assert sorted(tour) == list(range(k)) and tour[0] == 0
        assert length == tour_length(sub, tour) == shortest_by_brute_force(sub)
    rng = random.Random(11)
    for n in (4, 6, 7):  # asymmetric distances: the direction matters
        d = [[0 if i == j else rng.randint(1, 99) for j in range(n)] for i in range(n)]
        tour, length = mod["shortest_tour"](d)
        assert sorted(tour) == list(range(n))
        assert length == tour_length(d, tour) == shortest_by_brute_force(d)


def test_tsp_script():
    mod = load("tsp")
    out = output("tsp")
    total = out.splitlines()[-1]
    names = total.split(":")[0].split(" -> ")
    assert names[0] == names[-1] == "Amsterdam" and sorted(names[:-1]) == sorted(mod["CITIES"])
    index = {c: i for i, c in enumerate(mod["CITIES"])}
    tour = [index[c] for c in names[:-1]]
    assert numbers(total.split(":")[1]) == [tour_length(mod["DIST"], tour)]
    assert tour_length(mod["DIST"], tour) == shortest_by_brute_force(mod["DIST"]) == 3379
    assert total.endswith(": 3379 km")
    legs = [numbers(line.split("->")[1])[-1] for line in out.splitlines()[1:-1]]
    assert len(legs) == 8 and sum(legs) == 3379
    names, dist = mod["random_cities"](7, 3)
    last = output("tsp", "--random", "7", "--seed", "3").splitlines()[-1]
    assert int(last.rsplit(":", 1)[1]) == shortest_by_brute_force(dist)
    assert_bad_input("tsp", "9", says="8 cities")
    assert_bad_input("tsp", "0", says="at least 1")
    assert_bad_input("tsp", "--random", "x", says="integer")
    assert_bad_input("tsp", "3", "--random", "4", says="not both")
    assert len(output("tsp", "4").splitlines()) == 1 + 4 + 1  # the heading, four legs, the trip


# --- job shop -----------------------------------------------------------------------------------


def makespan_of(jobs, starts):
    """The schedule's makespan, after checking it: job order kept, one operation per machine."""
    for job, row in zip(jobs, starts, strict=True):
        for (_, d), s, nxt in zip(job, row, row[1:], strict=False):
            assert s + d <= nxt
    ops = [(m, s, d) for job, row in zip(jobs, starts, strict=True) for (m, d), s in zip(job, row)]
    for (m1, s1, d1), (m2, s2, d2) in combinations(ops, 2):
        assert m1 != m2 or s1 + d1 <= s2 or s2 + d2 <= s1
    return max(s + d for _, s, d in ops)


def shortest_by_orders(jobs) -> int:
    """The optimum over every order of the operations on each machine (earliest starts)."""
    ops = [(j, k, m, d) for j, job in enumerate(jobs) for k, (m, d) in enumerate(job)]
    machines = sorted({m for *_, m, _ in ops})
    best = None
    for orders in product(*(permutations([o for o in ops if o[2] == m]) for m in machines)):
        before = {o: [] for o in ops}
        for j, job in enumerate(jobs):
            for k in range(1, len(job)):
                before[(j, k, *job[k])].append((j, k - 1, *job[k - 1]))
        for order in orders:
            for a, b in pairwise(order):
                before[b].append(a)
        start, settled = {}, True
        for _ in range(len(ops) + 1):
            settled = True
            for o in ops:
                s = max((start.get(p, 0) + p[3] for p in before[o]), default=0)
                if start.get(o) != s:
                    start[o], settled = s, False
            if settled:
                break
        if settled:  # else the orders make a cycle: no schedule
            span = max(start[o] + o[3] for o in ops)
            best = span if best is None else min(best, span)
    return best


def test_jobshop_is_optimal():
    mod = load("jobshop")
    rng = random.Random(5)
    for jobs_n, machines_n in ((2, 2), (3, 2), (3, 3), (2, 3)):
        for _ in range(3):
            jobs = []
            for _ in range(jobs_n):
                order = rng.sample(range(machines_n), machines_n)
                jobs.append([(m, rng.randint(1, 4)) for m in order])
            for pairs in (False, True):
                span, starts = mod["schedule"](jobs, pairs)
                assert span == makespan_of(jobs, starts) == shortest_by_orders(jobs)


def test_jobshop_script():
    mod = load("jobshop")
    for args in ((), ("--pairs",)):
        out = output("jobshop", *args).splitlines()
        assert out[0] == "ft06: shortest schedule 55 time units (jobs 0-5)"
        rows = [line.split(": ")[1] for line in out[1:]]
        assert len(rows) == 6 and all(len(r) == 55 for r in rows)
        for j, job in enumerate(mod["FT06"]):  # each job's time on each machine, as printed
            for m, d in job:
                assert rows[m].count(str(j)) == d
