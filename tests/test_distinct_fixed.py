"""``distinct`` and ``all_distinct`` groups with members already fixed when they are posted (a
Sudoku's givens stated as one-value domains): the fixed members' values are taken from the others
and only the open members are watched, in any goal order, with sums over the group beside them."""

from itertools import permutations, product

from hypothesis import given, settings
from hypothesis import strategies as st
from test_fd_property import run

from relqueens import fd, run_all, vars
from relqueens.fd.labeling import degree
from relqueens.fd.post import post_into
from relqueens.fd.store import store_of
from relqueens.logic.state import State


def test_two_fixed_members_with_one_value_fail_without_search():
    x, y, z = vars(3)
    for kind in (fd.distinct, fd.all_distinct):
        goals = [fd.in_(x, y, fd.domain(2)), fd.in_(z, fd.interval(0, 3)), kind([x, y, z])]
        for order in permutations(goals):
            assert run(0, (x, y, z), *order, max_nodes=1) == ()


def test_fixed_members_with_offsets_clash_on_their_values():
    x, y = vars(2)
    for kind in (fd.distinct, fd.all_distinct):
        assert (
            run(0, (x, y), fd.in_(x, fd.domain(3)), fd.in_(y, fd.domain(4)), kind([x + 1, y])) == ()
        )
        assert run(0, (x, y), fd.in_(x, fd.domain(3)), fd.in_(y, fd.domain(4)), kind([x, y])) == (
            (3, 4),
        )


def test_only_the_open_members_are_watched():
    """The group keeps all its members (sums and residuals read them); value elimination
    watches the open ones, which lost the fixed one's value."""
    x, y, z = vars(3)
    S = State()
    assert post_into(
        S, [fd.in_(x, fd.domain(2)), fd.in_(y, z, fd.interval(0, 3)), fd.distinct([x, y, z])]
    )
    store = store_of(S)
    model = store.current()
    ((_, members, _, free),) = [e for e in model.props if e[0] == "distinct"]
    ix, iy, iz = (model.index[v] for v in (x, y, z))
    assert [i for i, _ in members] == [ix, iy, iz] and [i for i, _ in free] == [iy, iz]
    assert not model.masks[ix] and set(model.masks[iy]) == {iz}
    assert degree(model, iy) == degree(model, iz) == 2  # ffc counts the fixed member still
    assert fd.domain(*[v for v in range(4) if v != 2]) == store.domain(y) == store.domain(z)
    (r,) = run(
        0,
        (y, z),
        fd.in_(x, fd.domain(2)),
        fd.in_(y, z, fd.interval(0, 3)),
        fd.distinct([x, y, z]),
        residual=True,
    )
    assert "distinct" in repr(r.constraints) and r.domains[y] == fd.domain(0, 1, 3)


def test_a_4x4_sudoku_with_its_givens_as_domains_has_one_answer():
    givens = "4..2...4.1......"
    cells = vars(16)
    goals = [
        fd.in_(c, fd.domain(int(g)) if g != "." else fd.interval(1, 4))
        for c, g in zip(cells, givens)
    ]
    units = [[4 * r + c for c in range(4)] for r in range(4)]
    units += [[4 * r + c for r in range(4)] for c in range(4)]
    units += [
        [4 * (r0 + r) + c0 + c for r in range(2) for c in range(2)]
        for r0 in (0, 2)
        for c0 in (0, 2)
    ]
    goals += [fd.distinct([cells[i] for i in u]) for u in units]
    (answer,) = run(0, cells, *goals)
    assert all(len({answer[i] for i in u}) == 4 for u in units)
    assert all(g == "." or answer[k] == int(g) for k, g in enumerate(givens))


@st.composite
def models(draw):
    """2-4 variables (domains of 1-3 values, often one), 1-2 groups of terms ``x + c``, perhaps a
    sum of a group's members, perhaps a pin, in a random order."""
    n = draw(st.integers(2, 4))
    domains = [
        draw(st.sets(st.integers(0, 3), min_size=1, max_size=draw(st.sampled_from([1, 1, 3]))))
        for _ in range(n)
    ]
    groups = []
    for _ in range(draw(st.integers(1, 2))):
        members = draw(st.lists(st.integers(0, n - 1), min_size=2, max_size=n, unique=True))
        shifts = [draw(st.sampled_from([0, 0, 1])) for _ in members]
        groups.append((draw(st.sampled_from(["distinct", "all_distinct"])), members, shifts))
    total = draw(st.one_of(st.none(), st.integers(0, 9)))
    pin = draw(st.one_of(st.none(), st.tuples(st.integers(0, n - 1), st.integers(0, 3))))
    order = draw(st.permutations(range(n + len(groups) + 2)))
    return domains, groups, total, pin, order


@settings(max_examples=300, deadline=None)
@given(models())
def test_groups_with_fixed_members_answer_as_brute_force(model):
    domains, groups, total, pin, order = model
    vs = vars(len(domains))
    goals = [fd.in_(v, fd.domain(*sorted(d))) for v, d in zip(vs, domains)]
    for kind, members, shifts in groups:
        goals.append(getattr(fd, kind)([vs[i] + s for i, s in zip(members, shifts)]))
    first = groups[0][1]
    goals.append(
        fd.sum([vs[i] for i in first], "==", total)
        if total is not None
        else fd.in_(vs[0], fd.interval(0, 3))
    )
    goals.append(fd.eq(vs[pin[0]], pin[1]) if pin else fd.in_(vs[-1], fd.interval(0, 3)))
    got = run(0, tuple(vs), *(goals[k] for k in order))
    want = [
        a
        for a in product(*(sorted(d) for d in domains))
        if all(
            len({a[i] + s for i, s in zip(members, shifts)}) == len(members)
            for _, members, shifts in groups
        )
        and (total is None or sum(a[i] for i in first) == total)
        and (pin is None or a[pin[0]] == pin[1])
    ]
    assert len(got) == len(set(got))
    assert set(got) == set(want)


def test_taken_values_leave_terms_far_apart():
    """Terms 10**20 apart (each gets its own mask of the values taken: one bitset over both
    would not fit in memory), and a value taken far from every term's domain (left out)."""
    x, y = vars(2)
    far = 10**20
    goals = [fd.in_(x, y, fd.interval(0, 3)), fd.distinct([x, y + far, 2, far + 1, 10**30])]
    assert set(run_all((x, y), *goals)) == {(a, b) for a in (0, 1, 3) for b in (0, 2, 3)}


def test_a_term_twice_fails_before_another_term_waits_for_its_domain():
    x, z = vars(2)
    assert run_all((x, z), fd.in_(x, fd.interval(0, 2)), fd.distinct([x, x, z])) == ()
    assert run_all((x, z), fd.in_(x, fd.interval(0, 2)), fd.distinct([x + 1, x + 1, z])) == ()
