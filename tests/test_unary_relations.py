"""A relation between one variable and a constant, ``a * x + k op b``, posted at once as a bound
or a value: checked against brute force, the variable on either side, in any goal order."""

from hypothesis import given, settings
from hypothesis import strategies as st

from relqueens import eq, fd, run_all, vars
from relqueens.fd import interval, lin
from relqueens.fd.evaluate import COMPARE as OPS


def relation(op, left, right):
    """``left op right`` as relqueens builds it (``==`` and ``!=`` through ``fd.eq``/``fd.ne``)."""
    if op == "==":
        return fd.eq(left, right)
    if op == "!=":
        return fd.ne(left, right)
    return OPS[op](lin(left), right)


unaries = st.tuples(
    st.sampled_from(sorted(OPS)),
    st.integers(-3, 3).filter(bool),  # a
    st.integers(-4, 4),  # k
    st.integers(-6, 6),  # the constant
    st.booleans(),  # the variable on the left
)


@settings(max_examples=300, deadline=None)
@given(
    lo=st.integers(-4, 2),
    width=st.integers(0, 6),
    wide=st.booleans(),
    rels=st.lists(unaries, min_size=1, max_size=3),
    pin=st.one_of(st.none(), st.integers(-5, 8)),
    alias=st.booleans(),
    order=st.randoms(use_true_random=False),
)
def test_one_variable_against_a_constant(lo, width, wide, rels, pin, alias, order):
    """Each relation on ``x`` over a small interval, or over a wide one (bounds) cut down to it
    by relations posted after; perhaps ``x`` pinned by ``eq`` (bound before or after), or
    unified with ``y`` (also in the domain), the relations then on either."""
    x, y = vars(2)
    hi = lo + width
    goals = []
    for n, (op, a, k, c, left) in enumerate(rels):
        side = a * (y if alias and n % 2 else x) + k
        goals.append(relation(op, side, c) if left else relation(op, lin(c), side))
    if pin is not None:
        goals.append(eq(x, pin))
    if alias:
        goals += [eq(x, y), fd.in_(y, interval(lo, hi))]
    order.shuffle(goals)
    if wide:  # bounds first, the window after: the relations meet a Wide domain
        goals = [fd.in_(x, interval(-(10**7), 10**7)), *goals, x >= lo, x <= hi]
    else:
        goals.insert(order.randrange(len(goals) + 1), fd.in_(x, interval(lo, hi)))
    expected = tuple(
        v
        for v in range(lo, hi + 1)
        if all(
            OPS[op](a * v + k, c) if left else OPS[op](c, a * v + k) for op, a, k, c, left in rels
        )
        and (pin is None or v == pin)
    )
    assert run_all(x, *goals) == expected


def test_a_bound_and_a_value_leave_the_domain_at_once():
    """No search: posting alone narrows ``x`` (``3x + 1 <= 10`` is ``x <= 3``; ``2 != x`` drops 2)."""
    (x,) = vars(1)
    answer = run_all(x, fd.in_(x, interval(0, 9)), 3 * x + 1 <= 10, fd.ne(2, x), residual=True)
    assert str(answer[0]) == str(run_all(x, fd.in_(x, fd.domain(0, 1, 3)), residual=True)[0])
