"""Linear equalities combined: the values they fix together, checked by rank and by brute force."""

import itertools
import operator
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from test_fd_property import all_interval, assert_same_answers, run, shuffled

from relqueens import fd, vars
from relqueens.fd import labeling
from relqueens.fd.domain import as_domain
from relqueens.fd.equalities import distinct_groups, fixed_by_equalities
from relqueens.fd.post import post_into
from relqueens.fd.propagators import fixed, low
from relqueens.fd.store import store_of
from relqueens.logic.state import State

EXAMPLES = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def systems(draw, wide=False):
    """Variables with small domains (or, ``wide``, -30..30 but in a group), two to four equalities
    ``sum(a x) == b`` true at a point drawn within them (now and then off by some), perhaps
    ``x == y + c``, and perhaps a ``distinct`` group of terms ``x + c`` with as many values as
    members, or one more."""
    n = draw(st.integers(3, 6) if wide else st.integers(2, 5))
    small = st.sets(st.integers(-2, 5), min_size=1, max_size=6)
    domains = [set(range(-30, 31)) if wide else draw(small) for _ in range(n)]
    point = [draw(st.sampled_from(sorted(d))) for d in domains]
    group = None
    if draw(st.booleans()):
        members = draw(st.lists(st.integers(0, n - 1), min_size=2, max_size=n, unique=True))
        size = len(members) + draw(st.sampled_from([0, 0, 1]))  # a permutation, or a value spare
        values = draw(
            st.permutations(sorted(draw(st.sets(st.integers(-2, 5), min_size=size, max_size=size))))
        )
        group = [(i, draw(st.sampled_from([0, 0, 1, -1]))) for i in members]  # terms x_i + c_i
        for (i, c), v in zip(group, values):
            domains[i], point[i] = {u - c for u in values}, v - c
    off = st.sampled_from([0] * 12 + [1, -2])
    coefficient = st.sampled_from([-3, -2, -1, 1, 2, 3])
    shared = {
        i: draw(coefficient) for i in draw(st.sets(st.integers(0, n - 1), min_size=2, max_size=3))
    }
    equalities = []
    for _ in range(draw(st.integers(2, 4))):  # some share terms: their differences fix others
        terms = dict(shared) if draw(st.integers(0, 3)) else {}
        for i in draw(st.lists(st.integers(0, n - 1), max_size=1 if terms else 4, unique=True)):
            terms[i] = draw(coefficient)
        if terms:
            terms = list(terms.items())
            equalities.append((terms, sum(a * point[i] for i, a in terms) + draw(off)))
    offset = None
    if draw(st.booleans()):
        x, y = draw(st.lists(st.integers(0, n - 1), min_size=2, max_size=2, unique=True))
        offset = (x, y, point[x] - point[y] + draw(off))
    return n, domains, group, equalities, offset


def goals_of(system, vs):
    """The goals and, for brute force, the checks of ``system``."""
    _, domains, group, equalities, offset = system
    built = [
        (fd.in_(v, fd.domain(*sorted(d))), lambda a, i=i, d=d: a[i] in d)
        for i, (v, d) in enumerate(zip(vs, domains))
    ]
    for terms, b in equalities:
        expr = fd.dot([a for _, a in terms], [vs[i] for i, _ in terms])
        built.append((expr == b, lambda a, t=terms, b=b: sum(c * a[i] for i, c in t) == b))
    if offset is not None:
        x, y, c = offset
        built.append((vs[x] == vs[y] + c, lambda a: a[x] == a[y] + c))
    if group is not None:
        built.append(
            (
                fd.distinct([vs[i] + c for i, c in group]),
                lambda a: len({a[i] + c for i, c in group}) == len(group),
            )
        )
    return built


def integer_solvable(rows):
    """Whether ``rows`` (each ``[a_1, ..., a_n, b]``: ``sum(a_j x_j) == b``) have an integer
    solution: column operations of determinant +-1 (Euclid's) make the coefficients lower
    triangular, ``L y == b`` with ``x = U y``, solved row by row in integers."""
    A = [r[:-1] for r in rows]
    n, col, y = len(A[0]) if A else 0, 0, []
    for r, row in enumerate(rows):
        for j in range(col + 1, n):  # gcd of row r's columns col.. into column col
            while A[r][j]:
                q = A[r][col] // A[r][j]
                for t in A:  # column col -= q * column j, then swap them
                    t[col] -= q * t[j]
                    t[col], t[j] = t[j], t[col]
        rest = row[-1] - sum(A[r][j] * y[j] for j in range(col))
        if col < n and A[r][col]:
            if rest % A[r][col]:
                return False
            y.append(rest // A[r][col])
            col += 1
        elif rest:
            return False
    return True


def rank(rows):
    """The rank of ``rows`` (lists of numbers), by plain Gaussian elimination over fractions."""
    rows = [[Fraction(v) for v in r] for r in rows]
    r = 0
    for col in range(len(rows[0]) if rows else 0):
        pivot = next((k for k in range(r, len(rows)) if rows[k][col]), None)
        if pivot is None:
            continue
        rows[r], rows[pivot] = rows[pivot], rows[r]
        for k in range(len(rows)):
            if k != r and rows[k][col]:
                f = rows[k][col] / rows[r][col]
                rows[k] = [a - f * b for a, b in zip(rows[k], rows[r])]
        r += 1
    return r


@EXAMPLES
@given(systems(wide=True))
def test_the_values_fixed_are_those_the_equalities_span_at_the_value_they_imply(system):
    """After posting, a variable left open is fixed by :func:`fixed_by_equalities` exactly when
    its unit row lies in the span of the equalities, the permutation's sum and the values
    propagation fixed (the rank is the same with it), and at the value they imply."""
    n, _, group, equalities, offset = system
    vs = vars(n)
    S = State()
    if not post_into(S, [g for g, _ in goals_of(system, vs)]):
        event("no solution at posting")
        return
    store = store_of(S)
    model, D = store.current(), store.D
    index = [model.index.get(v) for v in vs]
    found = fixed_by_equalities(model, D)
    got = {}
    if found is not None and found.fixed is not None:
        got = {model.vars[i]: Fraction(b, a) for i, a, b in found.fixed}
    event("contradiction" if found is not None and found.fixed is None else f"fixed {len(got)}")

    rows = []
    for terms, b in equalities:
        row = [0] * (n + 1)
        for i, a in terms:
            row[i] += a
        row[n] = b
        rows.append(row)
    if offset is not None:
        x, y, c = offset
        row = [0] * (n + 1)
        row[x], row[y], row[n] = row[x] + 1, row[y] - 1, c
        rows.append(row)
    values = None
    if group is not None:  # the values left to the group's terms after propagation
        values = {v + c for i, c in group for v in as_domain(D[index[i]], model.off[index[i]])}
    if values is not None and len(values) == len(group):  # a permutation's sum
        row = [0] * (n + 1)
        for i, _ in group:
            row[i] = 1
        row[n] = sum(values) - sum(c for _, c in group)
        rows.append(row)
    for i, k in enumerate(index):
        if k is not None and fixed(D[k]):  # a value propagation found: a unit row
            row = [0] * (n + 1)
            row[i], row[n] = 1, low(D[k], model.off[k])
            rows.append(row)
    coefficients = [r[:n] for r in rows]
    spanned = rank(coefficients)
    consistent = rank(rows) == spanned
    if not consistent:
        assert found is not None and found.fixed is None, "the contradiction is found"
        return
    if not integer_solvable(rows):  # a row of the reduced form may show it (2 x == 1), or not:
        return  # the search finds no point either way
    if found is not None and found.fixed is None:  # integer points only where the rows show none
        assert not integer_solvable(rows)
    position = {k: i for i, k in enumerate(index)}
    for terms, b in found.sums if found is not None else ():  # implied, over one group's terms
        event("sums over distinct values")
        row = [0] * (n + 1)
        for k, a in terms:
            row[position[k]] = a
        row[n] = b
        assert rank([*coefficients, row[:n]]) == spanned and rank([*rows, row]) == spanned
        assert len({a for _, a in terms}) == 1  # over one group (as read from its roots)
        assert any({k for k, _ in terms} <= {i for i, _ in g} for g in model.groups)
    for i, k in enumerate(index):
        if k is None or fixed(D[k]):
            continue
        unit = [0] * n
        unit[i] = 1
        assert (vs[i] in got) == (rank([*coefficients, unit]) == spanned), vs[i]
        if vs[i] in got:  # the value the equalities imply: adding it keeps them consistent
            value = got[vs[i]]
            assert rank([*rows, [*unit, value]]) == spanned, (vs[i], value)


@EXAMPLES
@given(systems(), st.data())
def test_systems_of_equalities_answer_as_brute_force(system, data):
    """Every answer, once, in any goal order, labeled by ``ff`` or ``leftmost``."""
    n, domains, *_ = system
    vs = vars(n)
    built = goals_of(system, vs)
    goals = [g for g, _ in shuffled(data.draw, built)]
    select = data.draw(st.sampled_from(["leftmost", "ff"]))
    got = run(0, tuple(vs), *goals, fd.label(list(vs), select=select))
    expected = [
        a
        for a in itertools.product(*(sorted(d) for d in domains))
        if all(check(a) for _, check in built)
    ]
    assert_same_answers(got, expected)


def posted(*goals):
    """The model and domains of a state where ``goals`` (constraints) are posted."""
    S = State()
    assert post_into(S, goals)
    store = store_of(S)
    return store.current(), store.D


def test_a_magic_squares_sum_is_fixed_by_its_lines_over_a_permutation():
    """4 x 4 cells a permutation of 1..16, each line summing to a variable ``S``: the rows hold
    every cell once, so ``4 S == 136``; no line alone fixes ``S``. With ``S`` fixed, each line
    is a sum of distinct values too (as if its total were stated)."""
    n = 4
    cells, (s,) = vars(n * n), vars(1)
    lines = [[r * n + c for c in range(n)] for r in range(n)]
    lines += [[r * n + c for r in range(n)] for c in range(n)]
    lines += [[i * n + i for i in range(n)], [i * n + n - 1 - i for i in range(n)]]
    goals = [
        fd.in_(*cells, fd.interval(1, n * n)),
        fd.in_(s, fd.interval(1, 100)),
        fd.distinct(cells),
        *(fd.dot([1] * n, [cells[i] for i in line]) == s for line in lines),
    ]
    model, D = posted(*goals)
    assert not fixed(D[model.index[s]])
    found = fixed_by_equalities(model, D)
    assert found.fixed == ((model.index[s], 1, 34),)
    at = [model.index[c] for c in cells]  # with s fixed, each line a sum of distinct values
    sums = {tuple(sorted(i for i, _ in terms)): (terms[0][1], b) for terms, b in found.sums}
    assert len(sums) == len(found.sums)  # each once
    assert all(a * 34 == b for line in lines for a, b in [sums[tuple(sorted(at[i] for i in line))]])
    known = D[:]
    known[model.index[s]] = 1 << (34 - model.off[model.index[s]])
    again = fixed_by_equalities(model, known)  # s fixed already: nothing to fix, but the lines
    assert again.fixed == ()  # posted while s was open are sums of distinct values still
    lined = {tuple(sorted(i for i, _ in terms)): (terms[0][1], b) for terms, b in again.sums}
    assert all(
        a * 34 == b for line in lines for a, b in [lined[tuple(sorted(at[i] for i in line))]]
    )
    known[model.index[s]] = 1 << (33 - model.off[model.index[s]])
    assert fixed_by_equalities(model, known).fixed is None  # fixed otherwise: a contradiction
    assert list(run(1, s, *goals, fd.label(cells, select="ff"))) == [34]


@pytest.mark.parametrize("total", ["constant", "free", "fixed", "pinned"])
def test_a_magic_squares_lines_are_sums_of_distinct_values_however_their_total_is_stated(total):
    """5 x 5, first by ``ff``: each line equal to 65, to a variable ``S`` the lines fix, to ``S``
    in ``65..65``, or to ``S`` pinned by ``fd.eq`` after the lines, searches alike (604 nodes, the
    restarts' among them; ``S`` fixed by its domain took 1,568 with restarts after 500 nodes: its
    lines were plain sums, ``S`` a term of each, and the sums of distinct values the equalities
    imply were left out as stated; without those sums, ``S`` pinned takes 821, ``S`` free over
    20,000)."""
    n = 5
    cells, (s,) = vars(n * n), vars(1)
    lines = [[r * n + c for c in range(n)] for r in range(n)]
    lines += [[r * n + c for r in range(n)] for c in range(n)]
    lines += [[i * n + i for i in range(n)], [i * n + n - 1 - i for i in range(n)]]
    side = {"constant": 65, "free": s, "fixed": s, "pinned": s}[total]
    goals = [
        fd.in_(*cells, fd.interval(1, n * n)),
        fd.in_(s, fd.interval(65, 65) if total == "fixed" else fd.interval(1, n**3)),
        fd.all_distinct(cells),
        *(fd.sum([cells[i] for i in line], "==", side) for line in lines),
    ]
    if total == "pinned":
        goals.append(fd.eq(s, 65))
    (square,) = run(1, tuple(cells), *goals, fd.label(cells, select="ff"), max_nodes=700)
    assert sorted(square) == list(range(1, n * n + 1))
    assert all(sum(square[i] for i in line) == 65 for line in lines)


def test_a_groups_own_pigeonhole_over_its_open_members_is_no_group_of_its_own():
    """A Sudoku's units with givens: each unit's pigeonhole holds only the cells open when it was
    posted, a subset of the group; the groups the equalities read are the 27 units, not 27 more
    (twice the permutations' sums, past :data:`ROWS` with a killer Sudoku's cages)."""
    cells = vars(81)
    units = [[r * 9 + c for c in range(9)] for r in range(9)]
    units += [[r * 9 + c for r in range(9)] for c in range(9)]
    units += [
        [(br + r) * 9 + bc + c for r in range(3) for c in range(3)]
        for br in (0, 3, 6)
        for bc in (0, 3, 6)
    ]
    givens = {0: 5, 10: 3, 20: 1, 40: 7, 60: 2, 80: 9}
    model, _ = posted(
        fd.in_(*cells, fd.interval(1, 9)),
        *(fd.eq(cells[i], v) for i, v in givens.items()),
        *(fd.distinct([cells[i] for i in unit]) for unit in units),
    )
    assert len(model.groups) == 27
    assert sorted(map(len, distinct_groups(model))) == [9] * 27


def test_equalities_that_fix_a_value_together_or_contradict_each_other():
    """Each sum alone has values within the bounds; the first two fix ``y`` (their difference),
    a third fixes it again at no integer, or at another value."""
    x, y, z = vars(3)
    goals = [fd.in_(x, y, z, fd.interval(-30, 30)), x + y + z == 4, x + 2 * y + z == 1]
    model, D = posted(*goals)
    assert fixed_by_equalities(model, D).fixed == ((model.index[y], 1, -3),)
    assert len(run(0, (x, y, z), *goals)) == 54  # x + z == 7: x in -23..30
    model, D = posted(*goals, x + 3 * y + z == -1)  # 2 y == -5
    assert fixed_by_equalities(model, D).fixed is None
    assert not run(0, (x, y, z), *goals, x + 3 * y + z == -1)
    model, D = posted(*goals, x + 4 * y + z == 4)  # 3 y == 0
    assert fixed_by_equalities(model, D).fixed is None


def test_rows_whose_right_hand_sides_cancel_are_eliminated_alike():
    """All-interval series of 4 by disjunctions, ``(b - a == d) | (a - b == d)``: the two
    permutations' sums and the reified differences eliminate to rows of right-hand side 0
    (a row once lost its right-hand side there, and the next step raised ``KeyError``)."""
    n = 4
    x, goals = all_interval(n, lambda a, b, e: (b - a == e) | (a - b == e))
    expected = [
        p
        for p in itertools.permutations(range(n))
        if len({abs(b - a) for a, b in itertools.pairwise(p)}) == n - 1
    ]
    assert sorted(run(0, tuple(x), *goals, fd.label(x))) == expected


@pytest.mark.parametrize("offsets", [False, True])
@pytest.mark.parametrize("n", [3, 4, 5, 6, 7, 9, 10])
def test_langfords_pairs_exist_only_where_the_equalities_have_an_integer_point(n, offsets):
    """Each number ``k`` at positions ``p`` and ``p + k + 1`` of ``0..2n-1``, all different: the
    permutation's sum gives ``2 sum(p) == n (2n - 1) - sum(k + 1)``, odd for ``n`` 1 or 2 modulo
    4, where no pairing exists (refuted once the quick search's ``Label.QUICK`` nodes have run
    out, within 10 more; without the sum, L(2,5) takes over 26 and L(2,9) over 10,000); else
    the first pairing is found. The seconds are variables (``s == p + k + 1``) or offset terms
    in the group itself, which then holds each first twice."""
    first = vars(n)
    if offsets:
        second = [p + k + 1 for k, p in enumerate(first, start=1)]
        goals = [fd.in_(*first, fd.interval(0, 2 * n - 1)), *(s <= 2 * n - 1 for s in second)]
        goals.append(fd.all_distinct([*first, *second]))
    else:
        second = vars(n)
        goals = [
            fd.in_(*first, *second, fd.interval(0, 2 * n - 1)),
            fd.all_distinct([*first, *second]),
        ]
        goals += [s == p + k + 1 for k, (p, s) in enumerate(zip(first, second), start=1)]
    refuted = labeling.Label.QUICK + 10
    found = run(
        1,
        tuple(first),
        *goals,
        fd.label(list(first)),
        max_nodes=None if n % 4 in (0, 3) else refuted,
    )
    assert bool(found) == (n % 4 in (0, 3))
    if found:
        (p,) = found
        taken = [q for k, q in enumerate(p, start=1) for q in (q, q + k + 1)]
        assert sorted(taken) == list(range(2 * n))


@st.composite
def pairings(draw):
    """Langford's shape, small: ``2m`` terms all different over ``0..2m-1`` (each domain without up
    to two values; now and then a value missing), paired as ``y == x + c``; so the
    permutation's sum gives a sum over the firsts."""
    m = draw(st.integers(2, 3))
    gaps = [draw(st.integers(1, 3)) for _ in range(m)]
    values = set(range(2 * m))
    if draw(st.integers(0, 4)) == 0:  # now and then a value short: no pairing
        values.discard(draw(st.sampled_from(sorted(values))))
    domains = [
        values - set(draw(st.lists(st.sampled_from(sorted(values)), max_size=2)))
        for _ in range(2 * m)
    ]
    labeled = draw(st.lists(st.integers(0, 2 * m - 1), min_size=1, unique=True))
    return m, gaps, domains, labeled, draw(st.sampled_from(["distinct", "all_distinct"]))


@st.composite
def offset_pairings(draw):
    """Langford's shape stated as offsets: ``m`` variables ``x`` over ``0..2m-1`` (each without
    up to two values; now and then a value missing from all), and one group of ``x`` and ``x +
    c``, which holds each variable twice (now and then one of them once)."""
    m = draw(st.integers(2, 4))
    gaps = [draw(st.integers(1, 3)) for _ in range(m)]
    values = set(range(2 * m))
    if draw(st.integers(0, 4)) == 0:
        values.discard(draw(st.sampled_from(sorted(values))))
    domains = [
        values - set(draw(st.lists(st.sampled_from(sorted(values)), max_size=2))) for _ in range(m)
    ]
    once = draw(st.sets(st.integers(0, m - 1), max_size=1))  # a variable without its second
    return gaps, domains, once, draw(st.sampled_from(["distinct", "all_distinct"]))


def offset_group(xs, domains, gaps, once, kind):
    """The goals of an ``offset_pairings`` model over the first ``len(gaps)`` of ``xs`` (the rest
    outside the group), each with a check of an answer: the domains, and the group of ``x``
    and ``x + c``."""
    inside = len(gaps)
    terms = [*xs[:inside], *(x + c for j, (x, c) in enumerate(zip(xs, gaps)) if j not in once)]
    built = [
        (fd.in_(x, fd.domain(*sorted(d))), lambda a, i=i, d=d: a[i] in d)
        for i, (x, d) in enumerate(zip(xs, domains))
    ]

    def apart(a):
        vals = [*a[:inside], *(v + c for j, (v, c) in enumerate(zip(a, gaps)) if j not in once)]
        return len(vals) == len(set(vals))

    built.append((getattr(fd, kind)(terms), apart))
    return built


def answers_as_brute_force(data, xs, domains, built):
    """``built``'s goals in a random order, labeled by ``leftmost`` or ``ff``: every answer once,
    as brute force over ``domains`` finds them."""
    goals = [g for g, _ in shuffled(data.draw, built)]
    select = data.draw(st.sampled_from(["leftmost", "ff"]))
    got = run(0, tuple(xs), *goals, fd.label(xs, select=select))
    expected = [
        a
        for a in itertools.product(*(sorted(d) for d in domains))
        if all(check(a) for _, check in built)
    ]
    assert_same_answers(got, expected)


@EXAMPLES
@given(offset_pairings(), st.data())
def test_offset_pairings_answer_as_brute_force_with_their_permutations_sum(model, data):
    """A group holding each variable twice (``x``, ``x + c``) and no equality: its sum, when it is
    a permutation, is combined as equalities' are (``2 sum(x)`` fixed: an odd one refutes), in any
    goal order, labeled by ``leftmost`` or ``ff``: every answer once."""
    gaps, domains, once, kind = model
    xs = vars(len(gaps))
    answers_as_brute_force(data, xs, domains, offset_group(xs, domains, gaps, once, kind))


@EXAMPLES
@given(offset_pairings(), st.data())
def test_offset_pairings_answer_as_brute_force_with_a_sum_stated_over_them(model, data):
    """A sum stated over variables a group holds twice (``x`` and ``x + c``) is a sum of distinct
    values (a :class:`DistinctSum`, posted before the group or after it), and one over a variable
    outside the group as well is not; its right-hand side a constant or a variable fixed before
    or after: every answer once, in any goal order, labeled by ``leftmost`` or ``ff``."""
    gaps, domains, once, kind = model
    domains = [*domains, set(range(len(gaps)))]  # and one variable outside the group
    xs = vars(len(domains))
    built = offset_group(xs, domains, gaps, once, kind)
    summed = data.draw(st.lists(st.integers(0, len(xs) - 1), min_size=2, unique=True))
    op = data.draw(st.sampled_from(["==", "<=", ">="]))
    total = data.draw(st.integers(0, 4 * len(gaps)))
    compare = {"==": operator.eq, "<=": operator.le, ">=": operator.ge}[op]
    # the right-hand side a constant, a variable of that one value, or one pinned to it by fd.eq
    # (before the sum or after it: then a plain row whose variable is fixed since)
    side = data.draw(st.sampled_from(["constant", "fixed", "pinned"]))
    (s,) = vars(1)
    if side == "fixed":
        built.append((fd.in_(s, fd.interval(total, total)), lambda a: True))
    elif side == "pinned":
        built.append((fd.in_(s, fd.interval(0, 4 * len(gaps))), lambda a: True))
        built.append((fd.eq(s, total), lambda a: True))
    built.append(
        (
            fd.sum([xs[i] for i in summed], op, total if side == "constant" else s),
            lambda a: compare(sum(a[i] for i in summed), total),
        )
    )
    answers_as_brute_force(data, xs, domains, built)


@pytest.mark.parametrize("sum_first", [False, True])
@pytest.mark.parametrize("side", ["constant", "fixed", "pinned"])
def test_langfords_first_pairing_stated_as_offsets_is_found_soon_with_its_sum_stated_too(
    sum_first, side
):
    """L(2, 16) as offsets, with the sum of its first positions stated by hand (a redundant
    constraint, as a clpfd user adds one), before the ``distinct`` or after it, equal to a
    constant or to a variable of that one value (``s in h..h``; ``fd.eq(s, h)`` after the sum):
    that sum is one of distinct values too, as the one the group implies (12,000 nodes, and
    56,000 through ``s``, when it was taken as a plain sum and the group's own was left out as
    already stated)."""
    n = 16
    first = vars(n)
    goals = [fd.in_(first[k], fd.interval(0, 2 * n - k - 3)) for k in range(n)]
    cells = 2 * n * (2 * n - 1) // 2
    half = (cells - sum(k + 2 for k in range(n))) // 2
    (s,) = vars(1)
    stated = [fd.sum(first, "==", half if side == "constant" else s)]
    if side == "fixed":
        stated.insert(0, fd.in_(s, fd.interval(half, half)))
    elif side == "pinned":
        stated = [fd.in_(s, fd.interval(0, 10**4)), *stated, fd.eq(s, half)]
    group = fd.distinct([*first, *(p + k + 2 for k, p in enumerate(first))])
    goals += [*stated, group] if sum_first else [group, *stated]
    (p,) = run(1, tuple(first), *goals, fd.label(list(first)), max_nodes=100)
    taken = [q for k, q in enumerate(p) for q in (q, q + k + 2)]
    assert sorted(taken) == list(range(2 * n))


def test_langfords_first_pairing_stated_as_offsets_by_leftmost_is_found_soon():
    """L(2, 16) with the seconds as offsets of the firsts in one ``distinct``, labeled leftmost:
    the group's sum fixes ``2 sum(firsts)`` as the equalities' do (57,486 nodes without it)."""
    n = 16
    first = vars(n)
    goals = [fd.in_(first[k], fd.interval(0, 2 * n - k - 3)) for k in range(n)]
    goals.append(fd.distinct([*first, *(p + k + 2 for k, p in enumerate(first))]))
    (p,) = run(1, tuple(first), *goals, fd.label(list(first)), max_nodes=100)
    taken = [q for k, q in enumerate(p) for q in (q, q + k + 2)]
    assert sorted(taken) == list(range(2 * n))


@EXAMPLES
@given(pairings(), st.data())
def test_pairings_answer_as_brute_force_with_their_sums_over_distinct_values(model, data):
    """Every answer once, in any goal order, labeled by ``leftmost`` or ``ff``, with the sum
    over the first terms the equalities imply posted (Langford's pairs: 1,000 times faster)."""
    m, gaps, domains, labeled, kind = model
    xs = vars(2 * m)
    built = [
        (fd.in_(x, fd.domain(*sorted(d))), lambda a, i=i, d=d: a[i] in d)
        for i, (x, d) in enumerate(zip(xs, domains))
    ]
    built += [
        (xs[2 * j + 1] == xs[2 * j] + c, lambda a, j=j, c=c: a[2 * j + 1] == a[2 * j] + c)
        for j, c in enumerate(gaps)
    ]
    built.append((getattr(fd, kind)(xs), lambda a: len(set(a)) == len(a)))
    goals = [g for g, _ in shuffled(data.draw, built)]
    select = data.draw(st.sampled_from(["leftmost", "ff"]))
    got = run(0, tuple(xs), *goals, fd.label([xs[i] for i in labeled], select=select))
    expected = [
        a
        for a in itertools.product(*(sorted(d) for d in domains))
        if all(check(a) for _, check in built)
    ]
    assert_same_answers(got, expected)


def test_langfords_first_pairing_by_leftmost_is_found_soon_with_the_sum_of_its_firsts():
    """L(2, 16) labeled leftmost, first positions: without the implied sum over them the search
    took a second (some 30,000 nodes); with it, a few hundred."""
    n = 16
    first, second = vars(n), vars(n)
    goals = [fd.in_(*first, *second, fd.interval(0, 2 * n - 1)), fd.all_distinct([*first, *second])]
    goals += [s == p + k + 1 for k, (p, s) in enumerate(zip(first, second), start=1)]
    assert run(1, tuple(first), *goals, fd.label(list(first)), max_nodes=500)
    S = State()
    assert post_into(S, goals)
    found = fixed_by_equalities(store_of(S).current(), store_of(S).D)
    assert found.fixed == () and found.sums  # sums over the first positions (or some seconds)
    assert post_into(S, [found])  # posted once: a labeling after it finds nothing new
    assert fixed_by_equalities(store_of(S).current(), store_of(S).D) is None


def langford(n):
    """L(2, n) as the CSP benchmark states it: the firsts, and the seconds ``k + 1`` after."""
    first, second = vars(n), vars(n)
    goals = [
        *(fd.in_(x, fd.interval(0, 2 * n - 2 - k)) for k, x in enumerate(first, 1)),
        fd.in_(*second, fd.interval(0, 2 * n - 1)),
        *(y == x + k + 1 for k, (x, y) in enumerate(zip(first, second), 1)),
        fd.distinct(first + second),
        first[0] <= n - 2,
    ]
    return first, goals


@pytest.mark.parametrize(
    ("n", "few", "nodes"),
    [(3, True, None), (4, True, None), (5, False, labeling.Label.QUICK + 10), (7, False, None)],
)
def test_a_labeling_of_few_combinations_searches_before_combining_the_equalities(
    monkeypatch, n, few, nodes
):
    """Combining the equalities costs more than a search over at most ``FEW`` combinations
    (L(2,3): 0.29 to 0.19 ms); a bigger labeling combines them once its quick search runs out
    (L(2,5), whose permutation sum is odd, is refuted within 10 nodes more)."""
    calls = []

    def counted(model, D):
        calls.append(n)
        return fixed_by_equalities(model, D)

    monkeypatch.setattr(labeling, "fixed_by_equalities", counted)
    first, goals = langford(n)
    got = run(0, tuple(first), *goals, fd.label(first, select="ff"), max_nodes=nodes)
    expected = [
        p
        for p in itertools.product(*(range(2 * n - 1 - k) for k in range(1, n + 1)))
        if p[0] <= n - 2
        and sorted([*p, *(x + k + 1 for k, x in enumerate(p, 1))]) == list(range(2 * n))
    ]
    assert_same_answers(got, expected)
    assert bool(calls) != few


def test_the_answers_of_one_query_combine_its_equalities_once(monkeypatch):
    """``run``'s labeling of what is left open combines the equalities, as ``fd.label`` does;
    200 branches of a ``conde`` over the same model and domains combine them once (each did:
    1.3-1.5x the query's time), and every branch gets the fixed values."""
    from relqueens import conde, eq

    calls = []

    def counted(model, D):
        calls.append(1)
        return fixed_by_equalities(model, D)

    monkeypatch.setattr(labeling, "fixed_by_equalities", counted)
    x, y, z, w = vars(4)
    goals = [fd.in_(x, y, z, fd.interval(0, 5)), x + y == 3, y - z == 0, x + z == 3, x - y == -1]
    answers = run(0, (w, x, y, z), *goals, conde(*([eq(w, i)] for i in range(200))))
    assert answers == tuple((i, 1, 2, 2) for i in range(200))
    assert len(calls) == 1
