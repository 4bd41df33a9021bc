"""Value elimination by masks (``Model.masks``): every tie of two variables in one step, checked by brute force.

The domains sit at offsets far apart (more than ``Model.SPAN``), so some
ties take the masks and others the rows of far pairs, and a mask's reach
grows when a later tie needs a lower bit.
"""

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from relqueens import eq, fd, run_all, vars
from relqueens.fd.store import Model

EXAMPLES = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
BASES = (-1000, -300, -4, 0, 3, 290, 700)


@st.composite
def tied_models(draw):
    """Up to five variables over a few values near far-apart bases, tied by ``!=`` with
    offsets and by ``distinct`` groups of offset terms; goals in any order, some pins."""
    n = draw(st.integers(2, 5))
    bases = [draw(st.sampled_from(BASES)) for _ in range(n)]
    doms = [
        {b + v for v in draw(st.sets(st.integers(-2, 3), min_size=1, max_size=4))} for b in bases
    ]

    def shift(i, j):  # an offset that lines x_i up with x_j + c, give or take a little
        return bases[i] - bases[j] + draw(st.integers(-3, 3))

    pairs = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).filter(lambda p: p[0] != p[1])
    nes = [(i, j, shift(i, j)) for i, j in draw(st.lists(pairs, max_size=4))]
    groups = []
    for _ in range(draw(st.integers(0, 2))):
        members = draw(st.lists(st.integers(0, n - 1), min_size=2, max_size=n, unique=True))
        groups.append([(i, shift(members[0], i)) for i in members])
    pins = {
        i: draw(st.sampled_from(sorted(doms[i])))
        for i in draw(st.sets(st.integers(0, n - 1), max_size=2))
    }
    return doms, nes, groups, pins, draw(st.randoms())


def satisfied(p, nes, groups, pins):
    return (
        all(p[i] != p[j] + c for i, j, c in nes)
        and all(len({p[i] + c for i, c in g}) == len(g) for g in groups)
        and all(p[i] == v for i, v in pins.items())
    )


@EXAMPLES
@given(tied_models())
def test_ties_far_and_near_equal_brute_force(model):
    doms, nes, groups, pins, rnd = model
    xs = vars(len(doms))
    goals = [fd.in_(x, fd.domain(*sorted(d))) for x, d in zip(xs, doms)]
    goals += [xs[i] != xs[j] + c for i, j, c in nes]
    goals += [fd.distinct([xs[i] + c for i, c in g]) for g in groups]
    goals += [eq(xs[i], v) for i, v in pins.items()]
    rnd.shuffle(goals)
    expected = {p for p in itertools.product(*map(sorted, doms)) if satisfied(p, nes, groups, pins)}
    got = run_all(tuple(xs), *goals)
    assert len(got) == len(expected) and set(got) == expected


def test_a_tie_below_the_reach_shifts_the_masks_already_there():
    x, y, z = vars(3)
    goals = [fd.in_(x, fd.interval(0, 9)), fd.in_(y, z, fd.interval(-5, 9))]
    goals += [x != y + 2, x != z - 4, eq(x, 3)]  # x's ties: bits up, then down
    got = run_all((y, z), *goals, fd.label([y, z]))
    assert (1, 7) not in got and set(got) == {
        (b, c) for b in range(-5, 10) for c in range(-5, 10) if b != 1 and c != 7
    }
    model = Model()
    model.apply(("var", ("x",), 0, False))
    model.apply(("var", ("y",), -5, False))
    model.tie(0, [(1, 10)])  # x at a loses a - 10 from y's bits
    model.tie(0, [(1, -10)])
    assert model.reach[0] == 10 and model.masks[0][1] == (1 | 1 << 20)
    assert list(model.cut(0, 12)) == [(1, 1 << 2 | 1 << 22)] and 12 not in model.cuts[0]
    assert model.cut(0, 12) == [(1, 1 << 2 | 1 << 22)] and 12 in model.cuts[0]  # asked twice: kept
    model.tie(0, [(1, 9)])  # a new tie: the cuts worked out so far go
    assert not model.cuts[0] and model.cut(0, 12) == [(1, 1 << 2 | 1 << 3 | 1 << 22)]
    model.apply(("var", ("z",), 0, False))
    model.line([(2, 0)], [0, 1, 2], -1)  # z at a: x and y lose bit a + 1, z keeps its own
    assert model.masks[2] == {0: 2, 1: 2} and model.links[2] == 2
    assert model.links[0] == 3 and not model.rows[0]
    model.tie(0, [(1, 10 * Model.SPAN)])  # far: a row of pairs
    assert model.links[0] == 4 and model.rows[0] == [([(1, 10 * Model.SPAN)], 0)]
