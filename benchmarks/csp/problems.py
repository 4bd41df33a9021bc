"""The CSP suite's problems: instances, known answers and plain-Python verifiers.

Each :class:`Problem` is one row of the report. Its ``family`` names the model
every contender writes (one model per family serves each size), and ``data``
is the instance in plain ints and lists, the same for every contender. A
solution is a flat list of ints, laid out as the family says:

* ``cryptarithm`` — one digit per letter, letters in order of first appearance;
* ``magic`` — the n*n cells row by row;
* ``all-interval`` — the series x0 .. x(n-1), a permutation of 0..n-1;
* ``langford`` — for k = 1..n, the position (0-based) of the first k;
* ``sudoku`` — the 81 cells row by row;
* ``golomb`` — the marks, from 0;
* ``knapsack`` — 0/1 per item (taken or not);
* ``colouring`` — a colour (0..k-1) per node;
* ``queens`` — the column of the queen of each row;
* ``tsp`` — the successor of each city (0-based): one cycle through all;
* ``jobshop`` — the start of each operation, job by job, in each job's order.

What a contender answers depends on the ``kind``: ``all`` — the list of every
solution (each must pass the verifier, no two may be equal, and their number
must be ``known``); ``first`` — one solution (or ``None``); ``minimize`` /
``maximize`` — ``[objective, solution]``, where the solution must pass the
verifier, have that objective, and the objective must be the optimum
``known`` (from the literature for Golomb rulers, by dynamic programming here
for the knapsack and the TSP; from the literature for the job shop).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import combinations, pairwise
from pathlib import Path


@dataclass(frozen=True)
class Problem:
    """One row of the report: an instance, what is asked of it, and how answers are checked."""

    name: str
    family: str
    kind: str
    title: str
    data: dict
    valid: Callable[[dict, list], bool] = field(repr=False)
    known: int | None = None
    objective: Callable[[dict, list], int] | None = field(default=None, repr=False)

    def check(self, answer) -> tuple[bool, str, str]:
        """``(valid, result, why)`` for a contender's answer: verdict, summary, what is wrong."""
        if self.kind == "all":
            return self._check_all(answer)
        if self.kind == "first":
            if answer is None:
                return False, "none", "no solution found"
            ok = self._solution_ok(answer)
            return ok, "found", "" if ok else f"fails the verifier: {answer}"
        if answer is None:
            return False, "none", "no solution found"
        value, solution = answer
        if not self._solution_ok(solution):
            return False, str(value), f"fails the verifier: {solution}"
        actual = self.objective(self.data, solution)
        if actual != value:
            return False, str(value), f"reports objective {value}, the solution has {actual}"
        if value != self.known:
            return False, str(value), f"objective {value}, the optimum is {self.known}"
        return True, str(value), ""

    def _check_all(self, answer: list) -> tuple[bool, str, str]:
        wrong = [s for s in answer if not self._solution_ok(s)]
        distinct = len({tuple(s) for s in answer})
        result = str(len(answer))
        if wrong:
            return False, result, f"{len(wrong)} solution(s) fail the verifier, e.g. {wrong[0]}"
        if distinct != len(answer):
            return False, result, f"{len(answer) - distinct} duplicate solution(s)"
        if len(answer) != self.known:
            return False, result, f"{len(answer)} solutions, known: {self.known}"
        return True, result, ""

    def _solution_ok(self, solution) -> bool:
        return (
            isinstance(solution, list)
            and all(isinstance(v, int) and not isinstance(v, bool) for v in solution)
            and self.valid(self.data, solution)
        )


def _is_permutation(values: list, of: range) -> bool:
    return sorted(values) == list(of)


# -- cryptarithms ----------------------------------------------------------------------------


def _cryptarithm_ok(data: dict, digits: list) -> bool:
    letters = data["letters"]
    if len(digits) != len(letters) or len(set(digits)) != len(digits):
        return False
    value = dict(zip(letters, digits))
    words = data["words"] + [data["result"]]
    if any(not 0 <= d <= 9 for d in digits):
        return False
    if any(value[w[0]] == 0 for w in words if len(w) > 1):
        return False

    def number(word: str) -> int:
        return int("".join(str(value[c]) for c in word))

    return sum(number(w) for w in data["words"]) == number(data["result"])


def cryptarithm(words: list[str], result: str) -> Problem:
    """``words[0] + words[1] + ... == result``, distinct digits, no leading zero: all solutions."""
    letters = list(dict.fromkeys("".join(words) + result))
    coeffs = dict.fromkeys(letters, 0)
    for word, sign in [(w, 1) for w in words] + [(result, -1)]:
        for place, c in enumerate(reversed(word)):
            coeffs[c] += sign * 10**place
    data = {
        "words": words,
        "result": result,
        "letters": letters,
        "coeffs": [coeffs[c] for c in letters],
        "leading": sorted({letters.index(w[0]) for w in words + [result] if len(w) > 1}),
    }
    name = "-".join(w.lower() for w in words + [result])
    title = f"{'+'.join(words)}={result} (all: unique)"
    return Problem(name, "cryptarithm", "all", title, data, _cryptarithm_ok, 1)


# -- magic squares ---------------------------------------------------------------------------


def magic_lines(n: int) -> list[list[int]]:
    """The cell indices of the rows, columns and both diagonals of an n x n square."""
    rows = [[r * n + c for c in range(n)] for r in range(n)]
    return (
        rows
        + [list(col) for col in zip(*rows)]
        + [[i * n + i for i in range(n)], [i * n + n - 1 - i for i in range(n)]]
    )


def frenicle_pairs(n: int) -> list[tuple[int, int]]:
    """Cell pairs ``(a, b)``, ``a < b`` in Frénicle's standard form: one square per symmetry class.

    The top-left corner is the smallest corner, and its right neighbour is
    smaller than the cell below it.
    """
    return [(0, n - 1), (0, n * (n - 1)), (0, n * n - 1), (1, n)]


def _magic_ok(data: dict, cells: list) -> bool:
    n = data["n"]
    if not _is_permutation(cells, range(1, n * n + 1)):
        return False
    if any(sum(cells[i] for i in line) != data["total"] for line in magic_lines(n)):
        return False
    return not data["frenicle"] or all(cells[a] < cells[b] for a, b in frenicle_pairs(n))


def magic(n: int, kind: str, known: int | None = None, frenicle: bool = False) -> Problem:
    """The n x n magic squares of 1..n*n; with ``frenicle``, one per class of the 8 symmetries."""
    data = {"n": n, "total": n * (n * n + 1) // 2, "frenicle": frenicle}
    name = f"magic-{n}" + ("-frenicle" if frenicle else "") + ("-first" if kind == "first" else "")
    title = f"magic square {n}x{n} ({kind}{', Frénicle form' if frenicle else ''})"
    return Problem(name, "magic", kind, title, data, _magic_ok, known)


# -- all-interval series ---------------------------------------------------------------------


def _all_interval_ok(data: dict, xs: list) -> bool:
    n = data["n"]
    return _is_permutation(xs, range(n)) and _is_permutation(
        [abs(b - a) for a, b in pairwise(xs)], range(1, n)
    )


def all_interval(n: int, kind: str, known: int | None = None) -> Problem:
    """A permutation of 0..n-1 whose n-1 successive differences (abs) are all different."""
    what = "all, no symmetry breaking" if kind == "all" else "first"
    title = f"all-interval series n={n} ({what})"
    return Problem(
        f"all-interval-{n}", "all-interval", kind, title, {"n": n}, _all_interval_ok, known
    )


# -- Langford pairs --------------------------------------------------------------------------


def _langford_ok(data: dict, firsts: list) -> bool:
    n = data["n"]
    if len(firsts) != n:
        return False
    places = firsts + [p + i + 2 for i, p in enumerate(firsts)]  # the second k = i + 1
    return _is_permutation(places, range(2 * n)) and firsts[0] <= n - 2


def langford(n: int, known: int) -> Problem:
    """L(2, n): 1,1,...,n,n in a row, the two k's k apart; a sequence and its reverse count once.

    The two k's at positions p and p + k + 1; the reversal maps the first 1 at p
    to 2n - 3 - p, never to p itself, so "the first 1 is left of its mirror
    position" (p <= n - 2) keeps exactly one of each mirror pair.
    """
    title = f"Langford L(2,{n}) (all, mirror pairs once)"
    return Problem(f"langford-{n}", "langford", "all", title, {"n": n}, _langford_ok, known)


# -- Sudoku ----------------------------------------------------------------------------------

INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
"""Arto Inkala's 2012 "world's hardest Sudoku" (a unique solution)."""


def sudoku_units() -> list[list[int]]:
    """The cell indices of the 9 rows, 9 columns and 9 boxes."""
    rows = [[r * 9 + c for c in range(9)] for r in range(9)]
    cols = [[r * 9 + c for r in range(9)] for c in range(9)]
    boxes = [
        [(br + r) * 9 + bc + c for r in range(3) for c in range(3)]
        for br in (0, 3, 6)
        for bc in (0, 3, 6)
    ]
    return rows + cols + boxes


def _sudoku_ok(data: dict, cells: list) -> bool:
    return (
        len(cells) == 81
        and all(g in (0, v) for g, v in zip(data["givens"], cells))
        and all(_is_permutation([cells[i] for i in u], range(1, 10)) for u in sudoku_units())
    )


def sudoku(name: str, title: str, text: str) -> Problem:
    """A 9x9 Sudoku from 81 characters (``.`` blank); all solutions, to prove it unique."""
    givens = [0 if ch == "." else int(ch) for ch in text]
    return Problem(name, "sudoku", "all", title, {"givens": givens}, _sudoku_ok, 1)


# -- Golomb rulers ---------------------------------------------------------------------------


def _golomb_ok(data: dict, marks: list) -> bool:
    diffs = [b - a for a, b in combinations(marks, 2)]
    return (
        len(marks) == data["marks"]
        and marks[0] == 0
        and all(a < b for a, b in pairwise(marks))
        and len(set(diffs)) == len(diffs)
    )


def _last(data: dict, marks: list) -> int:
    return marks[-1]


def golomb(marks: int, optimum: int) -> Problem:
    """The shortest ruler with ``marks`` marks, no two pairs of them the same distance apart.

    ``bound`` is the largest mark any contender's model allows (the search
    has to prove that nothing shorter than the optimum exists below it).
    """
    data = {"marks": marks, "bound": marks * marks}
    title = f"Golomb ruler, {marks} marks (minimise)"
    return Problem(f"golomb-{marks}", "golomb", "minimize", title, data, _golomb_ok, optimum, _last)


# -- knapsack --------------------------------------------------------------------------------


def _knapsack_ok(data: dict, take: list) -> bool:
    return (
        len(take) == len(data["weights"])
        and set(take) <= {0, 1}
        and sum(w * t for w, t in zip(data["weights"], take)) <= data["capacity"]
    )


def _knapsack_value(data: dict, take: list) -> int:
    return sum(v * t for v, t in zip(data["values"], take))


def knapsack_optimum(weights: list[int], values: list[int], capacity: int) -> int:
    """The best value within the capacity, by dynamic programming over the capacity."""
    best = [0] * (capacity + 1)
    for w, v in zip(weights, values):
        for c in range(capacity, w - 1, -1):
            best[c] = max(best[c], best[c - w] + v)
    return best[capacity]


def knapsack(items: int, seed: int) -> Problem:
    """A 0/1 knapsack: random weights 10..60 and values 10..80, capacity half the total weight."""
    rng = random.Random(seed)
    weights = [rng.randint(10, 60) for _ in range(items)]
    values = [rng.randint(10, 80) for _ in range(items)]
    capacity = sum(weights) // 2
    data = {"weights": weights, "values": values, "capacity": capacity}
    title = f"0/1 knapsack, {items} items, seed {seed} (maximise)"
    optimum = knapsack_optimum(weights, values, capacity)
    return Problem(
        f"knapsack-{items}",
        "knapsack",
        "maximize",
        title,
        data,
        _knapsack_ok,
        optimum,
        _knapsack_value,
    )


# -- graph colouring -------------------------------------------------------------------------

PETERSEN = (
    [(i, (i + 1) % 5) for i in range(5)]
    + [(i, i + 5) for i in range(5)]
    + [(5 + i, 5 + (i + 2) % 5) for i in range(5)]
)
"""The Petersen graph: an outer 5-cycle, 5 spokes, an inner pentagram."""

US_BORDERS = """
AL-FL AL-GA AL-MS AL-TN AZ-CA AZ-NM AZ-NV AZ-UT AR-LA AR-MO AR-MS AR-OK AR-TN AR-TX CA-NV CA-OR
CO-KS CO-NE CO-NM CO-OK CO-UT CO-WY CT-MA CT-NY CT-RI DE-MD DE-NJ DE-PA FL-GA GA-NC GA-SC GA-TN
ID-MT ID-NV ID-OR ID-UT ID-WA ID-WY IL-IN IL-IA IL-KY IL-MO IL-WI IN-KY IN-MI IN-OH IA-MN IA-MO
IA-NE IA-SD IA-WI KS-MO KS-NE KS-OK KY-MO KY-OH KY-TN KY-VA KY-WV LA-MS LA-TX ME-NH MD-PA MD-VA
MD-WV MA-NH MA-NY MA-RI MA-VT MI-OH MI-WI MN-ND MN-SD MN-WI MS-TN MO-NE MO-OK MO-TN MT-ND MT-SD
MT-WY NE-SD NE-WY NV-OR NV-UT NH-VT NJ-NY NJ-PA NM-OK NM-TX NY-PA NY-VT NC-SC NC-TN NC-VA ND-SD
OH-PA OH-WV OK-TX OR-WA PA-WV SD-WY TN-VA UT-WY VA-WV
"""
"""Land borders of the 48 contiguous United States (corners such as Four Corners excluded)."""


def us_map() -> tuple[list[str], list[tuple[int, int]]]:
    """The 48 states, sorted, and the borders as pairs of their indices."""
    pairs = [tuple(b.split("-")) for b in US_BORDERS.split()]
    states = sorted({s for p in pairs for s in p})
    return states, [(states.index(a), states.index(b)) for a, b in pairs]


def _colouring_ok(data: dict, colours: list) -> bool:
    return (
        len(colours) == data["nodes"]
        and all(0 <= c < data["colours"] for c in colours)
        and all(colours[a] != colours[b] for a, b in data["edges"])
    )


def colouring(
    name: str,
    title: str,
    nodes: int,
    edges: list,
    colours: int,
    kind: str,
    known: int | None = None,
) -> Problem:
    """Colour the nodes with ``colours`` colours, the ends of every edge different."""
    data = {"nodes": nodes, "edges": [list(e) for e in edges], "colours": colours}
    return Problem(name, "colouring", kind, title, data, _colouring_ok, known)


# -- N-queens --------------------------------------------------------------------------------


def _queens_ok(data: dict, cols: list) -> bool:
    diagonals = ([r + c for r, c in enumerate(cols)], [r - c for r, c in enumerate(cols)])
    return _is_permutation(cols, range(data["n"])) and all(
        len(set(d)) == len(cols) for d in diagonals
    )


def queens(n: int, known: int) -> Problem:
    """Every placement of n non-attacking queens (a sanity row: the suite's first problem)."""
    title = f"N-queens n={n} (all)"
    return Problem(f"queens-{n}", "queens", "all", title, {"n": n}, _queens_ok, known)


# -- travelling salesman ---------------------------------------------------------------------


def _one_cycle(succ: list) -> bool:
    n = len(succ)
    if not _is_permutation(succ, range(n)):
        return False
    seen, city = set(), 0
    while city not in seen:
        seen.add(city)
        city = succ[city]
    return len(seen) == n


def _tsp_ok(data: dict, succ: list) -> bool:
    return len(succ) == len(data["dist"]) and _one_cycle(succ)


def _tour_length(data: dict, succ: list) -> int:
    return sum(data["dist"][i][j] for i, j in enumerate(succ))


def held_karp(dist: list[list[int]]) -> int:
    """The shortest tour through every city, by dynamic programming over subsets (Held-Karp)."""
    n = len(dist)
    best = {(1 << j, j): dist[0][j] for j in range(1, n)}
    for size in range(2, n):
        for subset in combinations(range(1, n), size):
            bits = sum(1 << j for j in subset)
            for j in subset:
                rest = bits & ~(1 << j)
                best[(bits, j)] = min(best[(rest, k)] + dist[k][j] for k in subset if k != j)
    full = sum(1 << j for j in range(1, n))
    return min(best[(full, j)] + dist[j][0] for j in range(1, n))


def tsp(cities: int, seed: int) -> Problem:
    """The shortest round trip through random cities on a 100 x 100 grid (distances rounded)."""
    rng = random.Random(seed)
    points = [(rng.randint(0, 100), rng.randint(0, 100)) for _ in range(cities)]
    dist = [[round(math.dist(p, q)) for q in points] for p in points]
    title = f"TSP, {cities} cities, seed {seed} (minimise)"
    return Problem(
        f"tsp-{cities}",
        "tsp",
        "minimize",
        title,
        {"dist": dist},
        _tsp_ok,
        held_karp(dist),
        _tour_length,
    )


# -- job shop --------------------------------------------------------------------------------

DATA = Path(__file__).resolve().parents[2] / "examples" / "data"
FT06_FILE = DATA / "ft06.txt"
"""Fisher and Thompson's 6 x 6 job shop, in the OR-Library's layout (the example's copy)."""


def read_jobshop(path: Path) -> list[list[tuple[int, int]]]:
    """Per job, its operations as (machine, duration), from an OR-Library file (``#``: comments)."""
    rows = [line.split() for line in path.read_text().splitlines()]
    numbers = [[int(v) for v in row] for row in rows if row and not row[0].startswith("#")]
    jobs = numbers[0][0]
    return [list(zip(row[::2], row[1::2], strict=True)) for row in numbers[1 : 1 + jobs]]


def _operations(data: dict) -> list[tuple[int, int, int, int]]:
    """``(job, step, machine, duration)`` for every operation, job by job."""
    return [(j, k, m, d) for j, job in enumerate(data["jobs"]) for k, (m, d) in enumerate(job)]


def _jobshop_ok(data: dict, starts: list) -> bool:
    ops = _operations(data)
    if len(starts) != len(ops) or any(s < 0 for s in starts):
        return False
    timed = [(*op, s) for op, s in zip(ops, starts)]
    in_order = all(
        a[4] + a[3] <= b[4] for a, b in pairwise(timed) if a[0] == b[0]
    )  # consecutive operations of a job
    apart = all(
        a[4] + a[3] <= b[4] or b[4] + b[3] <= a[4]
        for a, b in combinations(timed, 2)
        if a[2] == b[2]
    )
    return in_order and apart


def _makespan(data: dict, starts: list) -> int:
    return max(s + op[3] for op, s in zip(_operations(data), starts))


def jobshop(name: str, title: str, jobs: list[list[tuple[int, int]]], optimum: int) -> Problem:
    """A job shop: each job's operations in order, one at a time per machine; minimise the last end."""
    data = {"jobs": [[list(op) for op in job] for job in jobs]}
    return Problem(name, "jobshop", "minimize", title, data, _jobshop_ok, optimum, _makespan)


# -- the suite -------------------------------------------------------------------------------


def _problems() -> list[Problem]:
    states, borders = us_map()
    return [
        cryptarithm(["SEND", "MORE"], "MONEY"),
        cryptarithm(["DONALD", "GERALD"], "ROBERT"),
        magic(3, "all", 8),
        magic(4, "first"),
        magic(4, "all", 880, frenicle=True),
        all_interval(8, "all", 40),
        all_interval(10, "first"),
        all_interval(12, "first"),
        langford(7, 26),
        langford(8, 150),
        sudoku("sudoku-inkala", "Sudoku, Inkala's 2012 'hardest' (all: unique)", INKALA),
        golomb(6, 17),
        golomb(7, 25),
        golomb(8, 34),
        golomb(9, 44),
        knapsack(24, seed=11),
        colouring("petersen-3", "Petersen graph, 3 colours (all)", 10, PETERSEN, 3, "all", 120),
        colouring(
            "us-map-4",
            f"US map, {len(states)} states, 4 colours (first)",
            len(states),
            borders,
            4,
            "first",
        ),
        queens(8, 92),
        tsp(10, seed=5),
        tsp(12, seed=5),
        jobshop(
            "jobshop-ft06",
            "job shop ft06, 6 x 6 (minimise the makespan)",
            read_jobshop(FT06_FILE),
            55,
        ),
        *(
            jobshop(
                f"jobshop-{name}",
                f"job shop {name}, 10 x 5 (minimise the makespan)",
                read_jobshop(DATA / f"{name}.txt"),
                optimum,
            )
            for name, optimum in (("la01", 666), ("la02", 655), ("la05", 593))
        ),
    ]


PROBLEMS: dict[str, Problem] = {p.name: p for p in _problems()}
"""Every problem of the suite, in the report's order (within a family, easier first)."""

QUICK = ("send-more-money", "magic-3", "petersen-3")
"""``--quick``: the three smallest problems."""
