"""``cumulative`` and ``disjunctive`` against brute force, and their propagation rules.

The property tests draw 1-5 tasks with small start domains, durations and
heights, post the goals in a random order (the resource before or after the
domains, pins anywhere), and compare ``run``'s answers with every assignment
a Python loop accepts. A unary family (heights 1, limit 1) exercises edge
finding, the others time-tabling.
"""

from __future__ import annotations

import re
from itertools import combinations, product
from random import Random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from test_fd_property import (
    SETTINGS,
    agrees_with_brute_force,
    base_model,
    common_items,
    run,
    shuffled,
)

from relqueens import fd, lall, var, vars
from relqueens.fd import lin
from relqueens.fd.domain import Wide
from relqueens.fd.errors import DomainError
from relqueens.fd.scheduling import (
    Apart,
    edge_find,
    lifted,
    not_first,
    overloaded,
    precedences,
    tallest_apart,
    time_table,
    unsettled,
)
from relqueens.fd.trace import SearchTrace


def fits(tasks, limit, starts):
    """True when the tasks at ``starts`` never use more than ``limit`` at once."""
    times = {s for s in starts} | {s + d for s, (d, _) in zip(starts, tasks, strict=True)}
    for t in times:
        use = sum(h for s, (d, h) in zip(starts, tasks, strict=True) if s <= t < s + d)
        if use > limit:
            return False
    return True


@st.composite
def resource_models(draw, unary=False):
    n, domains, pins = draw(base_model(n_min=1, n_max=5, lo=0, hi=6, max_size=5))
    if unary:
        tasks = [(draw(st.integers(1, 3)), 1) for _ in range(n)]
        limit = 1
    else:
        tasks = [(draw(st.integers(0, 3)), draw(st.integers(0, 3))) for _ in range(n)]
        limit = draw(st.integers(0, 4))
    order = draw(st.sampled_from(["none", "none", "lt"]))
    items = [*common_items(domains, pins), ("resource", tasks, limit, unary)]
    if order == "lt" and n > 1:
        items.append(("lt", 0, n - 1))
    return n, domains, shuffled(draw, items)


def build_resource(item, vs):
    if item[0] == "lt":
        _, i, j = item
        return vs[i] < vs[j], lambda a: a[i] < a[j]
    _, tasks, limit, unary = item
    if unary:
        goal = fd.disjunctive(vs, [d for d, _ in tasks])
    else:
        goal = fd.cumulative([(v, d, h) for v, (d, h) in zip(vs, tasks, strict=True)], limit)
    return goal, lambda a: fits(tasks, limit, a)


@SETTINGS
@given(resource_models())
def test_cumulative_equals_brute_force(model):
    agrees_with_brute_force(model, build_resource)


@SETTINGS
@given(resource_models(unary=True))
def test_disjunctive_equals_brute_force(model):
    agrees_with_brute_force(model, build_resource)


def windows(latest, longest, most):
    """Up to ``most`` tasks as ``(est, lct, dur)`` lists: starts within 0..``latest``, durations 1..``longest``."""
    task = st.tuples(st.integers(0, latest), st.integers(0, latest), st.integers(1, longest))
    return st.lists(task, min_size=1, max_size=most).map(
        lambda tasks: (
            [min(a, b) for a, b, _ in tasks],
            [max(a, b) + d for a, b, d in tasks],
            [d for *_, d in tasks],
        )
    )


@SETTINGS
@given(windows(8, 3, 5))
def test_unary_rules_keep_every_schedule(tasks):
    """Edge finding and the pairwise rule never cut a start some schedule uses (nor miss a failure)."""
    est, lct, dur = tasks
    lst = [c - d for c, d in zip(lct, dur, strict=True)]
    schedules = [
        starts
        for starts in _products([range(e, s + 1) for e, s in zip(est, lst, strict=True)])
        if fits([(d, 1) for d in dur], 1, starts)
    ]
    for rule in (edge_find, precedences, not_first):
        new = rule(est, lct, dur)
        if not schedules:
            continue  # a rule may or may not see the failure; it must not invent schedules
        assert new is not None, f"{rule.__name__} failed where a schedule exists"
        for starts in schedules:
            assert all(s >= e for s, e in zip(starts, new, strict=True)), rule.__name__


def _ect(tasks, est, dur):
    """Earliest completion of ``tasks`` if they could be interrupted (Jackson's bound), by definition."""
    return max(est[k] + sum(dur[m] for m in tasks if est[m] >= est[k]) for k in tasks)


@SETTINGS
@given(windows(9, 4, 6))
def test_edge_finding_is_the_rule_it_states(tasks):
    """edge_find equals the rule computed from its definition, set by set."""
    est, lct, dur = tasks
    n, new = len(est), est[:]
    for L in sorted(set(lct)):
        omega = [t for t in range(n) if lct[t] <= L]
        if _ect(omega, est, dur) > L:
            assert edge_find(est, lct, dur) is None
            return
        for i in set(range(n)) - set(omega):
            if _ect([*omega, i], est, dur) > L:
                new[i] = max(new[i], _ect(omega, est, dur))
    assert edge_find(est, lct, dur) == new


@SETTINGS
@given(windows(9, 4, 6))
def test_precedences_is_the_rule_it_states(tasks):
    """precedences equals the pairwise rule computed pair by pair."""
    est, lct, dur = tasks
    n, new = len(est), est[:]
    for i in range(n):
        for j in range(n):
            if j != i and lct[j] - dur[j] < est[i] + dur[i]:  # i cannot end before j must start
                if est[j] + dur[j] > lct[i] - dur[i]:
                    assert precedences(est, lct, dur) is None
                    return
                new[i] = max(new[i], est[j] + dur[j])
    assert precedences(est, lct, dur) == new


def _pairwise_fixpoint(starts, dur):
    """The pairwise rule applied pair by pair to sets of starts until nothing changes, or None."""
    starts, n, changed = [set(s) for s in starts], len(starts), True
    while changed:
        changed = False
        for i in range(n):
            for j in range(n):
                si, sj = starts[i], starts[j]
                if j != i and min(si) + dur[i] > max(sj):  # i cannot go first: j goes before i
                    if min(sj) + dur[j] > max(si):
                        return None
                    ni = {v for v in si if v >= min(sj) + dur[j]}
                    nj = {v for v in sj if v <= max(si) - dur[j]}
                    if not ni or not nj:
                        return None
                    if (ni, nj) != (si, sj):
                        starts[i], starts[j], changed = ni, nj, True
    return starts


@st.composite
def start_windows(draw):
    """Up to 6 tasks: each a set of starts (holes and all), a duration, a domain's offset, and
    whether its domain is kept as bounds (``Wide``: the set is then every value in between)."""
    tasks = []
    for _ in range(draw(st.integers(1, 6))):
        starts = draw(st.sets(st.integers(-3, 9), min_size=1, max_size=8))
        wide = draw(st.booleans())
        if wide:
            starts = set(range(min(starts), max(starts) + 1))
        tasks.append((starts, draw(st.integers(1, 4)), min(starts) - draw(st.integers(0, 2)), wide))
    return tasks


def _domain(starts, o, wide):
    return Wide(min(starts), max(starts)) if wide else sum(1 << (v - o) for v in starts)


def _starts(d, o):
    if type(d) is Wide:
        return set(range(d.lo, d.hi + 1))
    return {o + b for b in range(d.bit_length()) if d >> b & 1}


@SETTINGS
@given(start_windows(), st.data())
def test_apart_reaches_the_pairwise_rules_fixpoint(tasks, data):
    """An ``Apart`` a task, each woken by its own task's bounds, narrows the starts as the
    pairwise rule applied pair by pair until nothing changes (or both fail): from scratch, and
    again after one task's starts are cut and only that task is queued; bitsets with holes and
    offsets, and domains kept as bounds."""
    n, dur = len(tasks), [d for _, d, _, _ in tasks]
    off = [o for _, _, o, _ in tasks]
    props = [
        Apart(i, dur[i], tuple((j, dur[j]) for j in range(n) if j != i), None) for i in range(n)
    ]

    def propagate(D, queue):
        while queue:
            i = queue.pop()
            if not all(D) or not props[i].propagate(D, off, queue, i):
                return None
        return [_starts(d, o) for d, o in zip(D, off)] if all(D) else None

    D = [_domain(starts, o, wide) for starts, _, o, wide in tasks]
    got = propagate(D, set(range(n)))
    assert got == _pairwise_fixpoint([starts for starts, *_ in tasks], dur)
    if got is None:
        return
    k = data.draw(st.integers(0, n - 1))
    values = sorted(got[k])
    lo = data.draw(st.sampled_from(values))
    hi = data.draw(st.sampled_from([v for v in values if v >= lo]))
    got[k] = {v for v in got[k] if lo <= v <= hi}
    D[k] = _domain(got[k], off[k], type(D[k]) is Wide)
    assert propagate(D, {k}) == _pairwise_fixpoint(got, dur)


@SETTINGS
@given(windows(9, 4, 6), st.integers(-20, 0))
def test_not_first_is_the_rule_it_states(tasks, shift):
    """not_first equals the rule computed set by set: for each bound, the other tasks due by it
    (shifted: the rule runs mirrored, on negative times, too)."""
    est, lct, dur = tasks
    est, lct = [e + shift for e in est], [c + shift for c in lct]
    n, new = len(est), est[:]
    for i in range(n):
        for L in sorted(set(lct)):
            omega = [j for j in range(n) if j != i and lct[j] <= L]
            if omega and est[i] + dur[i] + sum(dur[j] for j in omega) > L:
                new[i] = max(new[i], min(est[j] + dur[j] for j in omega))
    assert not_first(est, lct, dur) == new


def fixed_windows(latest, longest, most):
    """Up to ``most`` tasks as ``(est, lct, dur)`` lists, most of them fixed (a window of 0)."""
    task = st.tuples(
        st.integers(0, latest), st.sampled_from([0, 0, 0, 1, 3]), st.integers(1, longest)
    )
    return st.lists(task, min_size=1, max_size=most).map(
        lambda tasks: (
            [a for a, _, _ in tasks],
            [a + w + d for a, w, d in tasks],
            [d for *_, d in tasks],
        )
    )


@SETTINGS
@given(fixed_windows(12, 4, 7))
def test_settled_tasks_change_no_rule(tasks):
    """Without the settled tasks, the rules give the others the same bounds (both ways), and fail alike."""
    est, lct, dur = tasks
    live = unsettled(est, lct, dur)
    settled = [t for t in range(len(est)) if t not in live]
    for rule in (edge_find, precedences):  # (not_first can only gain: a set it sees may skip them)
        for e, c in ((est, lct), ([-x for x in lct], [-x for x in est])):
            full = rule(e, c, dur)
            part = rule([e[t] for t in live], [c[t] for t in live], [dur[t] for t in live])
            if full is None:
                assert part is None, rule.__name__
            else:
                assert part == [full[t] for t in live], rule.__name__
                assert all(full[t] == e[t] for t in settled), rule.__name__


def _products(ranges):
    if not ranges:
        yield ()
        return
    for v in ranges[0]:
        for rest in _products(ranges[1:]):
            yield (v, *rest)


def test_time_table_pushes_past_a_compulsory_part():
    # task 0 (2 long, starting at 1 or 2) surely runs during 2..3; task 1 (3 long) overlaps
    # that if it starts at 1 or 2, so it starts at 3
    assert time_table([1, 1], [2, 9], [2, 3], [1, 1], 1) == [1, 3]


def test_edge_finding_orders_a_task_after_a_set():
    # tasks 0, 1 must both end by 4 in 0..4; task 2 cannot fit before them: it starts at 4
    assert edge_find([0, 0, 0], [4, 4, 10], [2, 2, 3]) == [0, 0, 4]
    assert edge_find([0, 0], [3, 3], [2, 2]) is None  # 4 units of work in 3


def test_job_shop_3x3_optimum_matches_the_decomposition():
    """A 3x3 job shop: cumulative per machine and the pairwise `or` give the same optimum."""
    jobs = [[(0, 3), (1, 2), (2, 2)], [(0, 2), (2, 1), (1, 4)], [(1, 4), (2, 3)]]
    ops = [(j, k, m, d) for j, job in enumerate(jobs) for k, (m, d) in enumerate(job)]
    horizon = sum(d for *_, d in ops)

    def best(resource):
        s, end = vars(len(ops)), vars(1)[0]
        goals = [fd.in_(*s, end, fd.interval(0, horizon))]
        for i, (j, k, _, d) in enumerate(ops):
            if k + 1 < len(jobs[j]):
                goals.append(s[i] + d <= s[i + 1])
            else:
                goals.append(s[i] + d <= end)
        for m in {m for *_, m, _ in ops}:
            on = [(s[i], d) for i, (*_, mm, d) in enumerate(ops) if mm == m]
            goals += resource(on)
        goals.append(fd.label([*s, end], minimize=end))
        return run(1, end, *goals)

    def pairwise_or(on):
        return [
            (a + da <= b) | (b + db <= a) for k, (a, da) in enumerate(on) for b, db in on[k + 1 :]
        ]

    def unary(on):
        return [fd.disjunctive([a for a, _ in on], [d for _, d in on])]

    assert best(unary) == best(pairwise_or) == (11,)


@pytest.mark.parametrize(
    ("make", "error", "words"),
    [
        (lambda x: fd.cumulative([(x, 2)]), ValueError, "(start, duration, height)"),
        (lambda x: fd.cumulative([(x, -1, 1)]), ValueError, "duration must be at least 0"),
        (lambda x: fd.cumulative([(x, 1, 1.5)]), TypeError, "height must be an integer"),
        (lambda x: fd.cumulative([(x, 1, 1)], limit=-1), ValueError, "limit must be at least 0"),
        (lambda x: fd.cumulative(x), TypeError, "list of (start, duration, height)"),
        (lambda x: fd.disjunctive([x], [1, 2]), ValueError, "a duration per start"),
        (lambda x: fd.cumulative([("a", 1, 1)]), TypeError, "cumulative"),
    ],
)
def test_bad_resources_are_named(make, error, words):
    x = vars(1)[0]
    with pytest.raises(error, match=re.escape(words)):
        make(x)


def test_a_task_taller_than_the_resource_fails_logically():
    x = vars(1)[0]
    assert run(0, x, fd.in_(x, fd.interval(0, 3)), fd.cumulative([(x, 1, 3)], limit=2)) == ()
    assert run(0, x, fd.in_(x, fd.interval(0, 1)), fd.cumulative([(x, 0, 3)], limit=2)) == (0, 1)


# -- implied unary resources: pairwise disjunctions found before labeling ---------------


@st.composite
def pairwise_models(draw):
    """3-4 tasks, every two disjoint by an ``or``, a 0/1 sum or an implication, some pairs left out."""
    n, domains, pins = draw(base_model(n_min=3, n_max=4, lo=0, hi=7, max_size=5))
    durations = [draw(st.integers(1, 3)) for _ in range(n)]
    pairs = [
        (i, j, draw(st.sampled_from(["or", "bool", "implies", "none"])))
        for i in range(n)
        for j in range(i + 1, n)
    ]
    items = [*common_items(domains, pins), *(("pair", i, j, how, durations) for i, j, how in pairs)]
    return n, domains, shuffled(draw, items)


def build_pair(item, vs):
    _, i, j, how, dur = item
    a, b = vs[i], vs[j]
    if how == "or":
        goal = (a + dur[i] <= b) | (b + dur[j] <= a)
    elif how == "bool":
        p, q = vars(2)
        goal = lall(
            fd.in_(p, q, fd.interval(0, 1)),
            p == (a + dur[i] <= b),
            q == (b + dur[j] <= a),
            p + q == 1,
        )
    elif how == "implies":  # SWI's B #<==> (A + Da #=< B), #\ B #==> (B + Db #=< A)
        p = var()
        goal = lall(
            fd.in_(p, fd.interval(0, 1)),
            p == (a + dur[i] <= b),
            fd.implies(fd.eq(p, 0), b + dur[j] <= a),
        )
    else:
        return fd.in_(a, fd.interval(0, 7)), lambda s: True
    return goal, lambda s: s[i] + dur[i] <= s[j] or s[j] + dur[j] <= s[i]


@SETTINGS
@given(pairwise_models())
def test_implied_resources_keep_every_schedule(model):
    agrees_with_brute_force(model, build_pair)


def test_pairwise_disjunctions_are_found_as_one_machine():
    from relqueens.fd.implied import implied_resources
    from relqueens.fd.post import post_into
    from relqueens.fd.store import store_of
    from relqueens.logic import State

    s = vars(4)
    dur = [2, 3, 1, 2]
    goals = [fd.in_(*s, fd.interval(0, 20))]
    goals += [
        (s[i] + dur[i] <= s[j]) | (s[j] + dur[j] <= s[i]) for i in range(3) for j in range(i + 1, 3)
    ]
    goals.append((s[0] + 2 <= s[3]) | (s[3] + 2 <= s[0]))  # task 3 shares a machine with 0 only
    S = State()
    assert post_into(S, goals)
    found = implied_resources(store_of(S).current(), store_of(S).D)
    assert found is not None
    (machine,) = found.resources
    assert sorted(d for _, d in machine) == [1, 2, 3]


def test_a_disjunctives_own_pairs_are_not_another_machine():
    """``disjunctive`` keeps each task apart from the others by a propagator of its own: implied,
    so a residual shows the resource once, and not gathered into a second resource."""
    from relqueens.fd.implied import implied_resources
    from relqueens.fd.post import post_into
    from relqueens.fd.scheduling import Apart, CumulativeProp
    from relqueens.fd.store import store_of
    from relqueens.logic import State

    s = vars(4)
    goals = [fd.in_(*s, fd.interval(0, 12)), fd.disjunctive(s, [3, 2, 2, 1])]
    S = State()
    assert post_into(S, goals)
    model = store_of(S).current()
    assert len(model.posted(Apart)) == 4 and len(model.posted(CumulativeProp)) == 1
    assert implied_resources(model, store_of(S).D) is None
    (answer,) = run(0, tuple(s), *goals, residual=True)
    assert str(answer).count("cumulative(") == 1


def test_pairs_stated_by_implications_are_found_as_one_machine():
    from relqueens.fd.implied import implied_resources
    from relqueens.fd.post import post_into
    from relqueens.fd.store import store_of
    from relqueens.logic import State

    s, dur = vars(3), [2, 3, 1]
    goals = [fd.in_(*s, fd.interval(0, 20))]
    for i, j in [(0, 1), (0, 2), (1, 2)]:
        b = var()
        goals += [
            fd.in_(b, fd.interval(0, 1)),
            b == (s[i] + dur[i] <= s[j]),
            fd.implies(fd.eq(b, 0), s[j] + dur[j] <= s[i]),
        ]
    S = State()
    assert post_into(S, goals)
    found = implied_resources(store_of(S).current(), store_of(S).D)
    assert found is not None and sorted(d for _, d in found.resources[0]) == [1, 2, 3]


@pytest.mark.parametrize("condition", ["eq", "bare", "ne"])
def test_orders_each_implied_by_one_side_of_a_third_variable_are_one_machine(condition):
    """``B ==> a before b`` and ``not B ==> b before a`` (CP-SAT's ``OnlyEnforceIf(B)`` and
    ``OnlyEnforceIf(B.Not())``): the pairs make a machine, whose edge finding proves a job
    shop's optimum (ft06 by these implications: over a minute before, now under a second)."""
    from relqueens.fd.implied import implied_resources
    from relqueens.fd.post import post_into
    from relqueens.fd.store import store_of
    from relqueens.logic import State

    s, dur = vars(3), [2, 3, 1]
    goals = [fd.in_(*s, fd.interval(0, 20))]
    for i, j in [(0, 1), (0, 2), (1, 2)]:
        b = var()
        yes = {"eq": fd.eq(b, 1), "bare": b, "ne": fd.ne(b, 0)}[condition]
        no = fd.ne(b, 1) if condition == "ne" else fd.eq(b, 0)
        goals += [
            fd.in_(b, fd.interval(0, 1)),
            fd.implies(yes, s[i] + dur[i] <= s[j]),
            fd.implies(no, s[j] + dur[j] <= s[i]),
        ]
    S = State()
    assert post_into(S, goals)
    found = implied_resources(store_of(S).current(), store_of(S).D)
    assert found is not None and sorted(d for _, d in found.resources[0]) == [1, 2, 3]
    (best,) = run(1, tuple(s), *goals, fd.label(s, minimize=s[0] + s[1] + s[2]))
    apart = [(i, j) for i in range(3) for j in range(i + 1, 3)]
    schedules = [
        t
        for t in product(range(21), repeat=3)
        if all(t[i] + dur[i] <= t[j] or t[j] + dur[j] <= t[i] for i, j in apart)
    ]
    assert best in schedules and sum(best) == min(map(sum, schedules)) == 4  # shortest first


def test_a_machine_in_pairs_over_an_unbounded_start_is_a_domain_error():
    """Labeling finds the machine, but a start without bounds is named, not a crash deep inside."""
    s = vars(3)
    pairs = [(a + 1 <= b) | (b + 1 <= a) for i, a in enumerate(s) for b in s[i + 1 :]]
    with pytest.raises(DomainError, match="infinite"):
        run(0, tuple(s), fd.in_(s[0], fd.interval(0, 3)), *pairs, fd.label(s))
    bounded = [fd.in_(s[0], fd.interval(0, 3)), fd.in_(s[1], s[2], fd.interval(0, 2))]
    assert len(run(0, tuple(s), *bounded, *pairs, fd.label(s))) == 6 + 6  # s0 below 3 (3!), or 3


@st.composite
def tall_resource_models(draw):
    """Resources of limit 2..6 whose tasks are mostly tall: unary resources and lifted heights
    within them (:func:`~relqueens.fd.scheduling.redundant`) come into play."""
    n, domains, pins = draw(base_model(n_min=3, n_max=5, lo=0, hi=6, max_size=6))
    limit = draw(st.integers(2, 6))
    tasks = [(draw(st.integers(0, 3)), draw(st.integers(1, limit))) for _ in range(n)]
    items = [*common_items(domains, pins), ("resource", tasks, limit, False)]
    return n, domains, shuffled(draw, items)


@SETTINGS
@given(tall_resource_models())
def test_cumulative_of_tall_tasks_equals_brute_force(model):
    agrees_with_brute_force(model, build_resource)


@st.composite
def project_models(draw):
    """Tasks on two resources, mostly tall, now and then a precedence, then labeled: pairs too
    tall together on either resource make implied unary resources, crossing the two."""
    n, domains, pins = draw(base_model(n_min=3, n_max=5, lo=0, hi=5, max_size=6))
    items = [*common_items(domains, pins)]
    durations = [draw(st.integers(0, 3)) for _ in range(n)]
    for _ in range(2):
        limit = draw(st.integers(2, 5))
        heights = [draw(st.integers(0, limit)) for _ in range(n)]
        items.append(("resource", list(zip(durations, heights, strict=True)), limit, False))
    if draw(st.booleans()):
        items.append(("lt", 0, n - 1))
    order = draw(st.permutations(range(n)))
    return n, domains, [*shuffled(draw, items), ("label", order)]


def build_project(item, vs):
    if item[0] == "label":
        return fd.label([vs[i] for i in item[1]]), lambda a: True
    return build_resource(item, vs)


@SETTINGS
@given(project_models())
def test_projects_on_two_resources_equal_brute_force(model):
    """Labeling groups the tasks pairwise too tall to overlap into implied unary resources."""
    agrees_with_brute_force(model, build_project)


tall_tasks = st.integers(1, 8).flatmap(
    lambda limit: st.tuples(
        st.just(limit),
        st.lists(st.tuples(st.integers(1, 3), st.integers(0, limit)), min_size=1, max_size=5),
    )
)


@SETTINGS
@given(tall_tasks, st.data())
def test_lifted_heights_keep_every_schedule(resource, data):
    """Whatever fits under the limit with the tasks' heights still fits with them lifted."""
    limit, tasks = resource
    starts = data.draw(st.lists(st.integers(0, 6), min_size=len(tasks), max_size=len(tasks)))
    if not fits(tasks, limit, starts):
        return
    for k in range(1, limit // 2 + 1):
        heights = lifted(tuple(h for _, h in tasks), limit, k)
        assert fits([(d, h) for (d, _), h in zip(tasks, heights, strict=True)], limit, starts)


@SETTINGS
@given(tall_tasks)
def test_tallest_apart_is_a_maximal_set_of_tasks_pairwise_apart(resource):
    limit, tasks = resource
    height = [h for _, h in tasks]
    chosen = tallest_apart(height, limit, range(len(tasks)))
    assert all(height[a] + height[b] > limit for a, b in combinations(chosen, 2))
    rest = set(range(len(tasks))) - set(chosen)
    assert all(any(height[t] + height[c] <= limit for c in chosen) for t in rest)


@SETTINGS
@given(windows(8, 3, 5), st.data())
def test_overload_check_is_the_rule_it_states(tasks, data):
    """overloaded equals the rule over every window, and never fails tasks that have a schedule."""
    est, lct, dur = tasks
    lst = [c - d for c, d in zip(lct, dur, strict=True)]
    limit = data.draw(st.integers(1, 4))
    height = data.draw(st.lists(st.integers(0, limit), min_size=len(dur), max_size=len(dur)))
    n = range(len(dur))
    expected = any(
        sum(dur[t] * height[t] for t in n if est[t] >= a and lct[t] <= b) > limit * (b - a)
        for a in est
        for b in lct
        if a < b
    )
    assert overloaded(est, lst, dur, height, limit) == expected
    if expected:
        starts = _products([range(e, s + 1) for e, s in zip(est, lst, strict=True)])
        assert not any(fits(list(zip(dur, height, strict=True)), limit, s) for s in starts)


TESTS = {  # a condition on B: how to state it, and when it holds
    "B": (lambda b: b, lambda v: v == 1),
    "B == 1": (lambda b: fd.eq(b, 1), lambda v: v == 1),
    "B == 0": (lambda b: fd.eq(b, 0), lambda v: v == 0),
    "B != 0": (lambda b: fd.ne(b, 0), lambda v: v != 0),
    "B != 1": (lambda b: fd.ne(b, 1), lambda v: v != 1),
    "B == 2": (lambda b: fd.eq(b, 2), lambda v: v == 2),
}


class _AsWritten(Random):
    """A goal order that leaves the goals as written (domains first)."""

    def shuffle(self, x: list) -> None:  # type: ignore[override]
        """Keep the order."""


AS_WRITTEN = _AsWritten()


def _machine(goals):
    from relqueens.fd.implied import implied_resources
    from relqueens.fd.post import post_into
    from relqueens.fd.store import store_of
    from relqueens.logic import State

    S = State()
    assert post_into(S, goals)
    return implied_resources(store_of(S).current(), store_of(S).D)


def test_an_order_whose_flag_also_tests_a_variable_is_still_paired_with_its_negation():
    """``b`` reifies an order and also ``B == 1``; ``(b == 0) ==> the other order`` pairs them."""
    s, dur = vars(3), [2, 3, 1]
    goals = [fd.in_(*s, fd.interval(0, 20))]
    for i, j in [(0, 1), (0, 2), (1, 2)]:
        b, B = vars(2)
        goals += [fd.in_(b, B, fd.interval(0, 1)), b == (s[i] + dur[i] <= s[j])]
        goals += [b == fd.eq(B, 1), fd.implies(fd.eq(b, 0), s[j] + dur[j] <= s[i])]
    found = _machine(goals)
    assert found is not None and sorted(d for _, d in found.resources[0]) == [1, 2, 3]


def test_a_flag_at_most_an_order_plus_one_implies_nothing():
    """``f <= r + 1`` over 0/1 variables always holds: not an implication, so no machine (the
    tasks may overlap when ``B`` is 0)."""
    s, dur = vars(3), [2, 3, 1]
    goals = [fd.in_(*s, fd.interval(0, 20))]
    for i, j in [(0, 1), (0, 2), (1, 2)]:
        B, f, r = vars(3)
        goals += [fd.in_(B, f, r, fd.interval(0, 1)), fd.implies(B, s[i] + dur[i] <= s[j])]
        goals += [f == fd.eq(B, 0), r == (s[j] + dur[j] <= s[i]), lin(f) <= r + 1]
    assert _machine(goals) is None
    assert run(1, tuple(s), *goals, fd.eq(s[0], 0), fd.eq(s[1], 0), fd.eq(s[2], 0)) == ((0, 0, 0),)


CONDITIONS = [  # complements over 0..1, then not: alike, one twice, B == 2 (and B over 0..2)
    ("B", "B == 0"),
    ("B == 1", "B == 0"),
    ("B != 0", "B != 1"),
    ("B == 1", "B != 1"),
    ("B == 1", "B != 0"),
    ("B == 0", "B == 0"),
    ("B == 1", "B == 2"),
]


@settings(max_examples=300, deadline=None)
@given(
    durs=st.lists(st.integers(1, 3), min_size=3, max_size=3),
    conditions=st.lists(
        st.tuples(st.sampled_from(CONDITIONS), st.sampled_from([1, 1, 2])).map(
            lambda t: (*t[0], t[1])
        ),
        min_size=3,
        max_size=3,
    ),
    order=st.randoms(use_true_random=False),
)
@example(  # one pair's two tests alike: no complement, whatever the others
    [2, 2, 2], [("B == 1", "B != 0", 1), ("B == 1", "B == 0", 1), ("B", "B == 0", 1)], AS_WRITTEN
)
@example(  # one test twice
    [2, 2, 2], [("B == 0", "B == 0", 1), ("B == 1", "B == 0", 1), ("B", "B == 0", 1)], AS_WRITTEN
)
@example(  # B == 2 leaves the first pair free
    [2, 2, 2], [("B == 1", "B == 0", 2), ("B != 0", "B != 1", 1), ("B", "B == 0", 1)], AS_WRITTEN
)
def test_orders_implied_by_tests_of_a_third_variable_answer_as_brute_force(durs, conditions, order):
    """Each pair of three tasks: ``c1 ==> i before j`` and ``c0 ==> j before i``, the conditions
    tests of a variable ``B`` in ``0..top``: complements (a machine) or not (``B == 1`` and
    ``B != 0`` alike; ``B == 2`` frees the pair). Every schedule within 0..5 and every ``B``
    against brute force, the goals in any order; traced, so the implied machines are posted
    before the search (a first search without them would finish these small trees)."""
    s = vars(3)
    pairs = [(0, 1), (0, 2), (1, 2)]
    bs = vars(3)
    tops = [1 if "B" in (yes, no) else top for yes, no, top in conditions]
    goals = [fd.in_(*s, fd.interval(0, 5))]
    for (i, j), b, (yes, no, _), top in zip(pairs, bs, conditions, tops):
        goals += [
            fd.in_(b, fd.interval(0, top)),
            fd.implies(TESTS[yes][0](b), s[i] + durs[i] <= s[j]),
            fd.implies(TESTS[no][0](b), s[j] + durs[j] <= s[i]),
        ]
    order.shuffle(goals)
    got = run(0, (*s, *bs), *goals, fd.label([*s, *bs], select="ff", trace=SearchTrace()))
    want = []
    for t in product(range(6), repeat=3):
        for bv in product(*(range(top + 1) for top in tops)):
            if all(
                (not TESTS[yes][1](v) or t[i] + durs[i] <= t[j])
                and (not TESTS[no][1](v) or t[j] + durs[j] <= t[i])
                for (i, j), v, (yes, no, _) in zip(pairs, bv, conditions)
            ):
                want.append((*t, *bv))
    assert len(got) == len(set(got))
    assert set(got) == set(want)
