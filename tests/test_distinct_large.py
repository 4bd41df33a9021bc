"""Value elimination in ``distinct`` groups too large to expand into pairs, checked by brute force."""

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from relqueens import eq, fd, run_all, vars
from relqueens.fd.store import Model

EXAMPLES = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def large_groups(draw):
    """More members than ``Model.EXPAND`` over a few values each, -1 among them (so their
    bitsets line up), all but a few pinned once the group is posted; or, with an offset
    (their values no longer line up), just past ``Model.EXPAND`` (tied pairwise) or more
    than ``Model.TIE`` (a shared row)."""
    shifted = draw(st.booleans())
    big = Model.TIE if shifted and draw(st.booleans()) else Model.EXPAND
    n = big + draw(st.integers(1, 4))
    width = n + draw(st.integers(0, 3))
    pins = draw(st.permutations(range(width)))[:n]
    doms = [{-1, v, *draw(st.sets(st.integers(-1, width), max_size=2))} for v in pins]
    open_ = draw(st.sets(st.integers(0, n - 1), min_size=1, max_size=4))
    offsets = [0] * n
    if shifted:
        offsets[draw(st.integers(0, n - 1))] = draw(st.sampled_from([-1, 1]))
    return doms, [None if i in open_ else v for i, v in enumerate(pins)], offsets


@EXAMPLES
@given(large_groups())
def test_a_large_distinct_group_equals_brute_force(case):
    doms, pins, offsets = case
    xs = vars(len(doms))
    goals = [fd.in_(x, fd.domain(*sorted(d))) for x, d in zip(xs, doms)]
    goals.append(fd.distinct([x + c for x, c in zip(xs, offsets)]))
    goals += [eq(x, v) for x, v in zip(xs, pins) if v is not None]  # fixed after the group
    candidates = [sorted(d) if v is None else [v] for d, v in zip(doms, pins)]
    expected = {
        p
        for p in itertools.product(*candidates)
        if len({v + c for v, c in zip(p, offsets)}) == len(p)
    }
    got = run_all(tuple(xs), *goals)
    assert len(got) == len(expected) and set(got) == expected


@st.composite
def defined_members(draw):
    """A group over terms some of which an equality ``y == x + k`` defines, posted in any order."""
    n = draw(st.integers(2, 5))
    doms = [draw(st.sets(st.integers(-2, 4), min_size=1, max_size=4)) for _ in range(n)]
    defs = [
        (y, x, draw(st.integers(-2, 2)))
        for y in range(1, n)
        if draw(st.booleans())
        for x in [draw(st.integers(0, y - 1))]
    ]
    terms = [(i, draw(st.sampled_from([0, 0, 1, -1]))) for i in draw(st.permutations(range(n)))]
    terms = terms[: draw(st.integers(2, n))]
    return doms, defs, terms, draw(st.randoms())


@EXAMPLES
@given(defined_members(), st.sampled_from([fd.all_distinct, fd.distinct]))
def test_distinct_over_variables_defined_by_equalities_equals_brute_force(case, group):
    doms, defs, terms, rnd = case
    xs = vars(len(doms))
    goals = [fd.in_(x, fd.domain(*sorted(d))) for x, d in zip(xs, doms)]
    goals += [fd.eq(xs[y], xs[x] + k) for y, x, k in defs]
    rnd.shuffle(goals)
    goals.insert(rnd.randint(0, len(goals)), group([xs[i] + c for i, c in terms]))
    expected = {
        p
        for p in itertools.product(*(sorted(d) for d in doms))
        if all(p[y] == p[x] + k for y, x, k in defs)
        and len({p[i] + c for i, c in terms}) == len(terms)
    }
    got = run_all(tuple(xs), *goals)
    assert len(got) == len(expected) and set(got) == expected
