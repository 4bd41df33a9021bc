"""Residuals whose constraints are shown as posted (globals such as ``element``, ``abs(x - y) >=
m``): variables fixed or unified since are said so, and a ``distinct`` group shows a fixed member
as its value; the residual posted back gives the same answers as the query (a fixed variable
named in them had no domain when posted back, and a fixed member crashed the posting)."""

from hypothesis import given, settings
from hypothesis import strategies as st
from test_fd_property import run, shuffled

from relqueens import eq, fd, vars


@st.composite
def models(draw):
    """Four variables over small domains, an ``element`` or an ``abs`` bound, and pins by
    ``fd.eq`` or unifications by ``eq`` (with a variable or a value), in any order."""
    domains = [draw(st.sets(st.integers(0, 4), min_size=1, max_size=4)) for _ in range(4)]
    items = [("in", n) for n in range(4)]
    items.append(
        draw(
            st.one_of(
                st.tuples(st.just("element"), st.integers(-1, 3)),
                st.tuples(st.just("abs"), st.integers(-2, 2), st.integers(1, 3)),
                st.tuples(st.sampled_from(["all_distinct", "distinct", "circuit", "inverse"])),
            )
        )
    )
    ties = st.tuples(
        st.sampled_from(["fd.eq", "eq var", "eq value"]), st.integers(0, 3), st.integers(0, 4)
    )
    items += draw(st.lists(ties, max_size=2))
    return domains, shuffled(draw, items)


def goals_of(model, vs):
    domains, items = model
    w, x, y, z = vs
    goals = []
    for item in items:
        if item[0] == "in":
            goals.append(fd.in_(vs[item[1]], fd.domain(*sorted(domains[item[1]]))))
        elif item[0] == "element":  # w indexes [x, y, constant]; z the value
            goals += [fd.in_(w, fd.interval(0, 2)), fd.element(w, [x, y, item[1]], z)]
        elif item[0] == "abs":
            goals.append(abs(x - y + item[1]) >= item[2])
        elif item[0] == "all_distinct":  # a fixed member is shown as its value
            goals.append(fd.all_distinct(vs))
        elif item[0] == "distinct":
            goals.append(fd.distinct([w, x + 1, y]))
        elif item[0] == "circuit":  # successors 0..3 (a group of values 0..3)
            goals += [fd.in_(*vs, fd.interval(0, 3)), fd.circuit(vs)]
        elif item[0] == "inverse":
            goals += [fd.in_(*vs, fd.interval(0, 1)), fd.inverse([w, x], [y, z])]
        elif item[0] == "fd.eq":
            goals.append(fd.eq(vs[item[1]], item[2]))
        elif item[0] == "eq var":
            goals.append(eq(vs[item[1]], vs[(item[1] + 1 + item[2]) % 4]))
        else:
            goals.append(eq(vs[item[1]], item[2]))
    return goals


@settings(max_examples=300, deadline=None)
@given(models())
def test_a_residual_posted_back_gives_the_same_answers(model):
    vs = vars(4)
    goals = goals_of(model, vs)
    want = sorted(map(tuple, run(0, tuple(vs), *goals)))
    got = []
    for r in run(0, tuple(vs), *goals, residual=True):
        again = [*r.constraints, *(fd.in_(v, d) for v, d in r.domains.items())]
        got += run(0, r.term, *again)
    assert sorted(map(tuple, got)) == want


def test_a_fixed_variable_in_a_global_keeps_its_value():
    """The review's example: ``b`` fixed at 0 inside ``abs(a - b - 1) > 0`` shown as posted."""
    a, b = vars(2)
    goals = [fd.in_(a, fd.domain(0, 2)), fd.in_(b, fd.domain(0)), abs(a - b - 1) > 0]
    (r,) = run(0, (a, b), *goals, residual=True)
    again = [*r.constraints, *(fd.in_(v, d) for v, d in r.domains.items())]
    assert sorted(run(0, r.term, *again)) == [(0, 0), (2, 0)]


def test_two_variables_kept_apart_fail_once_unified():
    """``x != y`` (over bitsets or bounds) or a ``distinct`` group holding both, then ``x = y``:
    no answer, residual or labeled (propagation alone kept ``x`` and ``y`` open, and the residual
    answer showed ``x`` with its domain and without the ``!=``: a fuzzer's find)."""
    x, y, z, p = vars(4)
    wide = [fd.implies(fd.eq(p, 1), fd.eq(x, 0) & fd.eq(y, 0))]  # x, y get inf..sup first
    for apart in (
        [fd.ne(x, y)],
        [fd.distinct([x, y, z])],
        [fd.distinct([x + 1, y + 1])],
        [*wide, fd.ne(x, y)],
    ):
        for residual in (False, True):
            goals = [*apart, eq(x, y), fd.in_(x, y, z, p, fd.interval(1, 3))]
            assert run(0, (x, y, z), *goals, residual=residual) == ()
            goals = [fd.in_(x, y, z, p, fd.interval(1, 3)), *apart, eq(y, x)]
            assert run(0, (x, y, z), *goals, residual=residual) == ()
    near = [fd.in_(x, y, fd.interval(1, 3)), fd.ne(x, y + 1), eq(x, y)]  # x != x + 1 holds
    assert run(0, x, *near) == (1, 2, 3)
