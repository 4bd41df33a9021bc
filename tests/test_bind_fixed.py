"""Variables that posting fixes are bound in the substitution: straight in, or through kanren's
hooks when another store must hear of them (``post.bind_fixed``)."""

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from relqueens import eq, fd, neq, run_all, vars
from relqueens.fd import interval
from relqueens.fd.post import post_into
from relqueens.fd.store import FDStore
from relqueens.logic import State

N = 3

atoms = st.one_of(
    st.tuples(st.just("pin"), st.integers(0, N - 1), st.integers(-1, 3)),
    st.tuples(st.just("neq"), st.integers(0, N - 1), st.integers(-1, 3)),
    st.tuples(st.just("ne"), st.integers(0, N - 1), st.integers(-1, 3)),
    st.tuples(st.just("offset"), st.integers(0, N - 1), st.integers(0, N - 1), st.integers(-2, 2)),
    st.tuples(st.just("sum"), st.integers(0, N - 1), st.integers(0, N - 1), st.integers(0, 5)),
    st.tuples(st.just("distinct"), st.integers(0, N - 1), st.integers(0, N - 1)),
)


def goal(xs, atom):
    kind, *args = atom
    if kind == "pin":
        return eq(xs[args[0]], args[1])
    if kind == "neq":
        return neq(xs[args[0]], args[1])  # kanren's disequality: a store beside the FD one
    if kind == "ne":
        return fd.ne(xs[args[0]], args[1])
    if kind == "offset":
        return xs[args[0]] == xs[args[1]] + args[2]
    if kind == "sum":
        return xs[args[0]] + xs[args[1]] == args[2]
    return fd.distinct([xs[args[0]], xs[args[1]]])


def holds(values, atom):
    kind, *args = atom
    if kind == "pin":
        return values[args[0]] == args[1]
    if kind in ("neq", "ne"):
        return values[args[0]] != args[1]
    if kind == "offset":
        return values[args[0]] == values[args[1]] + args[2]
    if kind == "sum":
        return values[args[0]] + values[args[1]] == args[2]
    return values[args[0]] != values[args[1]]


@settings(max_examples=300, deadline=None)
@given(
    lows=st.lists(st.integers(-1, 2), min_size=N, max_size=N),
    widths=st.lists(st.integers(0, 2), min_size=N, max_size=N),
    model=st.lists(atoms, min_size=1, max_size=5),
    order=st.randoms(use_true_random=False),
)
def test_fixed_variables_are_bound_in_any_goal_order(lows, widths, model, order):
    """Domains of one value, pins and propagation fix variables, constraints posted before a
    domain wait for it, and kanren's ``neq`` makes a second store: the same answers."""
    xs = vars(N)
    goals = [fd.in_(x, interval(lo, lo + w)) for x, lo, w in zip(xs, lows, widths, strict=True)]
    goals += [goal(xs, atom) for atom in model]
    order.shuffle(goals)
    ranges = [range(lo, lo + w + 1) for lo, w in zip(lows, widths, strict=True)]
    expected = {v for v in itertools.product(*ranges) if all(holds(v, a) for a in model)}
    got = [tuple(answer) for answer in run_all(xs, *goals)]
    assert len(got) == len(set(got))
    assert set(got) == expected


def test_posting_binds_what_it_fixes_straight_into_the_substitution():
    x, y = vars(2)
    S = State()
    assert post_into(S, [fd.in_(x, interval(0, 2)), fd.in_(y, interval(3, 3)), x == y - 1])
    assert S.data == {x: 2, y: 3} and list(S.constraints) == [FDStore]


def test_another_store_hears_of_the_bindings_posting_makes():
    """kanren's disequality store holds ``y != 3``: the binding that posting makes fails it."""
    x, y = vars(2)
    assert run_all(x, neq(y, 3), fd.in_(x, interval(0, 2)), fd.in_(y, interval(3, 3))) == ()
    assert run_all(x, neq(y, 4), fd.in_(x, interval(0, 1)), fd.in_(y, interval(3, 3))) == (0, 1)
