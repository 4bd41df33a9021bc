"""The tabu search over unary resources' orders, against the precedences and brute force.

The walk (:mod:`relqueens.fd.tabu`) knows only the precedences, the
resources and the earliest starts: each schedule it reports must respect
them and be no better than brute force's optimum, and branch and bound with
it must give the answers it gives without the probes, also where the model
has constraints the walk does not see (deadlines, a forbidden start).
"""

from __future__ import annotations

from itertools import pairwise, permutations, product
from pathlib import Path
from random import Random
from unittest.mock import patch

from hypothesis import given
from hypothesis import strategies as st
from test_fd_property import SETTINGS, run

from relqueens import fd, var, vars
from relqueens.fd.tabu import Shop, Walk

FT06 = Path(__file__).resolve().parents[1] / "examples" / "data" / "ft06.txt"
"""Fisher and Thompson's 6 x 6 job shop (optimum 55)."""


@st.composite
def shops(draw):
    """Two to four jobs through two or three machines each (in a random order), durations 1-5."""
    machines = draw(st.integers(2, 3))
    jobs = [
        [(m, draw(st.integers(1, 5))) for m in draw(st.permutations(range(machines)))]
        for _ in range(draw(st.integers(2, 4)))
    ]
    release = [draw(st.integers(0, 3)) for job in jobs for _ in job]
    return jobs, machines, release


def shop_of(jobs, machines, release):
    """The :class:`Shop` of a job shop: a node per operation (job by job), the makespan last."""
    names, arcs, node = [], [], 0
    resources = [[] for _ in range(machines)]
    for job in jobs:
        for k, (m, d) in enumerate(job):
            names.append(node)
            resources[m].append((node, d))
            arcs.append((node, node + 1, d) if k < len(job) - 1 else (node, -1, d))
            node += 1
    end = len(names)
    arcs = [(x, end if y < 0 else y, d) for x, y, d in arcs]
    return Shop([*names, end], [*release, 0], arcs, resources)


def brute_force(jobs, machines, release):
    """The least makespan over every order of every machine (semi-active schedules)."""
    shop = shop_of(jobs, machines, release)
    best = None
    for orders in product(*(permutations(r) for r in shop.resources)):
        state = shop.heads([list(o) for o in orders])
        if state is not None and (best is None or state[0][shop.end] < best):
            best = state[0][shop.end]
    return best


def is_schedule(shop, head):
    """``head`` keeps the precedences, the earliest starts, and one task at a time on each resource."""
    if any(head[y] < head[x] + n for x, ys in enumerate(shop.succs) for y, n in ys):
        return False
    if any(h < r for h, r in zip(head, shop.release, strict=True)):
        return False
    return all(
        head[a] + shop.dur[a] <= head[b]
        for r in shop.resources
        for a, b in pairwise(sorted(r, key=head.__getitem__))
    )


@SETTINGS
@given(shops(), st.integers(0, 3), st.integers(1, 60))
def test_the_walk_reports_schedules_no_better_than_the_optimum(shop_spec, seed, moves):
    """Every schedule the walk reports keeps the precedences, the releases and the resources; it
    is better than the last, and never better than brute force's optimum."""
    shop = shop_of(*shop_spec)
    optimum = brute_force(*shop_spec)
    walk = Walk(shop, Random(seed))
    state = shop.heads(walk.orders)
    assert state is not None
    last = state[0][shop.end]
    for _ in range(5):
        found = walk.run(moves)
        if found is not None:
            end, head = found
            assert is_schedule(shop, head) and head[shop.end] == end
            assert optimum <= end < last
            last = end
    assert walk.best_end == last


def test_the_walk_finds_ft06s_optimum_from_a_poor_start():
    """ft06 (6 x 6, optimum 55) from the schedule job after job on each machine: a few thousand moves."""
    rows = [line.split() for line in FT06.read_text().splitlines() if line.strip()]
    rows = [[int(v) for v in row] for row in rows if not row[0].startswith("#")][1:]
    jobs = [list(zip(row[::2], row[1::2], strict=True)) for row in rows]
    shop = shop_of(jobs, 6, [0] * 36)
    walk = Walk(shop, Random(0))
    found = walk.run(3000)
    assert found is not None and found[0] == 55 and is_schedule(shop, found[1])


@SETTINGS
@given(shops(), st.data())
def test_branch_and_bound_with_the_walk_keeps_the_answers(shop_spec, data):
    """Job shops with deadlines and a forbidden start the walk does not see: the first answers,
    best first, are those of branch and bound without the probes, and each is a schedule."""
    from relqueens.fd import labeling

    jobs, machines, release = shop_spec
    horizon = sum(d for job in jobs for _, d in job) + 3
    start = [vars(len(job)) for job in jobs]
    flat = [s for row in start for s in row]
    end = var()
    deadlines = [data.draw(st.integers(r, horizon)) for r in release]
    goals = [fd.in_(end, fd.interval(0, horizon + 5))]
    goals += [
        fd.in_(s, fd.interval(r, t)) for s, r, t in zip(flat, release, deadlines, strict=True)
    ]
    goals.append(
        fd.ne(flat[data.draw(st.integers(0, len(flat) - 1))], data.draw(st.integers(0, 4)))
    )
    for row, job in zip(start, jobs, strict=True):
        goals += [a + d <= b for (a, b), (_, d) in zip(pairwise(row), job, strict=False)]
        goals.append(row[-1] + job[-1][1] <= end)
    for k in range(machines):
        ops = [(s, d) for row, job in zip(start, jobs) for s, (m, d) in zip(row, job) if m == k]
        goals.append(fd.disjunctive([s for s, _ in ops], [d for _, d in ops]))
    goals.append(fd.label([*flat, end], minimize=end))
    got = run(20, (end, *flat), *goals)
    with patch.object(labeling, "scheduling", lambda model: False):
        expected = run(20, (end, *flat), *goals)
    assert [a[0] for a in got] == [a[0] for a in expected]
    assert len(set(got)) == len(got)
    for a in got:
        starts = iter(a[1:])
        rows = [[next(starts) for _ in job] for job in jobs]
        for row, job in zip(rows, jobs, strict=True):
            assert all(x + d <= y for (x, y), (_, d) in zip(pairwise(row), job, strict=False))
            assert row[-1] + job[-1][1] <= a[0]
