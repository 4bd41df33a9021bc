"""``(x + a <= y) | (y + b <= x)`` posted as one ``EitherOrder``, against brute force.

The property test draws 2-4 variables, their domains, pins (values or
``x == y``) and one to three disjunctions of two orders, each order written
one of several ways (``<``, ``<=``, ``>``, ``>=``, either side, offsets of
both signs), the two over the same variables in opposite directions or not
(the same direction, one variable on both sides, one pinned to the other),
posted as ``p | q``, ``fd.any_``, ``(p) + (q) > 0``, or reified (``b == (p |
q)``, ``~(p | q)``), all in a random goal order.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from test_fd_property import SETTINGS, agrees_with_brute_force, base_model, common_items, shuffled

from relqueens import fd, lall, run, var, vars
from relqueens.fd.post import post_into
from relqueens.fd.scheduling import EitherOrder
from relqueens.fd.store import store_of
from relqueens.logic import State

FORMS = ["or", "or", "any", "more", "reified", "not"]


def order(x, k, y, style):
    """``x + k <= y``, written in one of six ways."""
    return [
        lambda: x + k <= y,
        lambda: x + (k - 1) < y,
        lambda: y >= x + k,
        lambda: y > x + (k - 1),
        lambda: x <= y - k,
        lambda: x - y + k <= 0,
    ][style]()


@st.composite
def either_models(draw):
    n, domains, pins = draw(base_model(n_min=2, n_max=4, lo=-3, hi=5, max_size=5))
    idx = st.integers(0, n - 1)
    offset = st.one_of(st.integers(1, 4), st.integers(-3, 4))  # mostly two tasks apart
    style = st.integers(0, 5)
    pairs = [
        (
            "either",
            draw(idx),
            draw(idx),
            draw(offset),
            draw(offset),
            draw(style),
            draw(style),
            draw(st.sampled_from(["opposite", "opposite", "opposite", "same"])),
            draw(st.sampled_from(FORMS)),
        )
        for _ in range(draw(st.integers(1, 3)))
    ]
    return n, domains, shuffled(draw, [*common_items(domains, pins), *pairs])


def build_either(item, vs):
    _, i, j, a, b, sp, sq, direction, form = item
    x, y = vs[i], vs[j]
    p = order(x, a, y, sp)
    q = order(y, b, x, sq) if direction == "opposite" else order(x, b, y, sq)

    def holds(s):
        second = s[j] + b <= s[i] if direction == "opposite" else s[i] + b <= s[j]
        return s[i] + a <= s[j] or second

    if form == "or":
        return p | q, holds
    if form == "any":
        return fd.any_(p, q), holds
    if form == "more":
        return p + q > 0, holds
    if form == "reified":
        t = var()
        return lall(fd.in_(t, fd.interval(0, 1)), t == (p | q), fd.eq(t, 1)), holds
    return ~(p | q), lambda s: not holds(s)


@SETTINGS
@given(either_models())
def test_either_order_equals_brute_force(model):
    agrees_with_brute_force(model, build_either)


def propagators(goals):
    """The propagators posting ``goals`` records (in one state), by class name."""
    S = State()
    assert post_into(S, goals)
    return [type(e[1]).__name__ for e in store_of(S).current().props if e[0] == "prop"]


def test_a_posted_disjunction_is_one_propagator_a_reified_one_is_not():
    x, y, b = vars(3)
    box = fd.in_(x, y, fd.interval(0, 9))
    assert propagators([box, (x + 3 <= y) | (x >= y + 2)]) == ["EitherOrder"]
    assert propagators([box, fd.any_(x <= y, y < x + 1)]) == []  # always true: nothing to post
    assert "EitherOrder" not in propagators([box, b == ((x + 3 <= y) | (x >= y + 2))])
    assert "EitherOrder" not in propagators([box, (x + 3 <= y) | (x + 5 <= y)])  # one direction


def test_one_order_is_enforced_once_the_other_is_impossible():
    p = EitherOrder(0, 3, 1, 2)  # x + 3 <= y or y + 2 <= x
    D, off, queue = [0b1111111111, 0b0000001111], [0, 0], set()  # x in 0..9, y in 0..3
    assert p.propagate(D, off, queue, 0) and not p.entailed(D, off)
    D[0] = 0b1111110000  # x in 4..9: x + 3 <= y no longer fits
    assert p.propagate(D, off, queue, 0)
    assert (D, queue) == ([0b1111110000, 0b1111], set())  # y + 2 <= x holds already
    D[1] = 0b1000  # y == 3: x >= 5
    assert p.propagate(D, off, queue, 1) and D[0] == 0b1111100000 and p.entailed(D, off)
    assert not p.propagate([0b100, 0b100], off, set(), 0)  # x == y == 2: neither order


def test_residual_shows_the_disjunction_until_one_order_is_entailed():
    x, y = vars(2)
    either = (x + 3 <= y) | (y + 2 <= x)
    (open_,) = run(0, [x, y], fd.in_(x, y, fd.interval(0, 9)), either, residual=True)
    assert open_.constraints == (either,)
    (done,) = run(0, [x, y], fd.in_(x, y, fd.interval(0, 9)), either, x >= 8, y <= 2, residual=True)
    assert done.constraints == ()
