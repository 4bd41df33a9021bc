"""The general CLP(FD) layer against brute force: random small models, one test per family.

Each property test draws a model of 1-5 variables with small domains, posts
its goals in a random order (constraints before or after ``fd.in_``, pins by
``eq`` or ``fd.eq`` anywhere), and compares the answers of ``run`` with the
assignments a Python loop over every combination of values accepts: the same
set, and no answer twice. The fixed tests at the end are classic puzzles
whose answers are known (and, where cheap, recounted by brute force here),
and the minimal forms of failures the properties found.

A query that runs past ``QUERY_SECONDS`` fails (a propagation loop must not
hang the suite). ``--hypothesis-show-statistics`` shows how many examples
had no, one or several solutions.
"""

from __future__ import annotations

import itertools
import operator
import signal
from collections import Counter
from unittest import mock

import pytest
from hypothesis import HealthCheck, currently_in_test_context, event, example, given, settings
from hypothesis import strategies as st

from relqueens import SearchLimit, conde, conj, eq, fd, vars
from relqueens import run as engine_run
from relqueens.fd import labeling
from relqueens.fd.arith import Function
from relqueens.fd.evaluate import COMPARE, evaluate, truth
from relqueens.fd.implied import cliques
from relqueens.fd.labeling import Label

SETTINGS = settings(
    max_examples=300, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)

QUERY_SECONDS = 20  # generous: a loaded CI machine must not turn a slow query into a "hang"
"""Most queries here need milliseconds; one that runs this long has hung (and fails). A goal
order a strategy draws may generate and test: five unit tasks labeled, makespan minimised,
before their resource is posted, tries all 34,375 assignments, each posting the resource
(4 s, and past 5 s on a loaded machine)."""


class QueryHung(AssertionError):
    pass


def run(*args, **options):
    """``relqueens.run``; a query that runs past ``QUERY_SECONDS`` fails instead of hanging.

    The alarm repeats every 0.1 s until the query is over: an exception raised
    where Python ignores it (in a generator being closed) does not stop it.
    """
    armed = [True]

    def expire(signum, frame):
        if armed[0]:
            raise QueryHung(
                f"the query did not finish within {QUERY_SECONDS} s (propagation loops?)"
            )

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, QUERY_SECONDS, 0.1)
    hung = False
    try:
        return engine_run(*args, **options)
    except QueryHung:
        armed[0], hung = False, True
    finally:
        while True:
            try:
                armed[0] = False
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, previous)
                break
            except QueryHung:  # the alarm went off on the way out
                continue
    if hung:  # raised afresh: the interrupted traceback can be one pytest cannot print
        raise QueryHung(f"the query did not finish within {QUERY_SECONDS} s (propagation loops?)")


OPS = COMPARE  # Python's comparison operators, by name
OP_NAMES = list(OPS)
RELATE = {"==": fd.eq, "!=": fd.ne, "<": fd.lt, "<=": fd.le, ">": fd.gt, ">=": fd.ge}


# -- shared machinery ---------------------------------------------------------------


@st.composite
def base_model(draw, n_min=2, n_max=4, lo=-3, hi=3, max_size=5):
    """``(n, domains, pins)``: variable count, a value set per variable, pins.

    A pin is ``(i, value, how)`` (``x == value``) or ``(i, ("var", j), how)`` (``x == y``), with
    ``how`` "eq" (unification) or "fd" (``fd.eq``); most pinned values lie in the domain.
    """
    n = draw(st.integers(n_min, n_max))
    domains = [draw(st.sets(st.integers(lo, hi), min_size=1, max_size=max_size)) for _ in range(n)]
    pins = []
    for _ in range(draw(st.integers(0, 2))):
        i = draw(st.integers(0, n - 1))
        inside = st.sampled_from(sorted(domains[i]))
        other = st.integers(0, n - 1).map(lambda j: ("var", j))
        value = draw(st.one_of(inside, inside, inside, st.integers(lo - 1, hi + 1), other))
        pins.append((i, value, draw(st.sampled_from(["eq", "fd"]))))
    return n, domains, pins


def shuffled(draw, items):
    """``items`` in an order drawn by hypothesis."""
    return [items[k] for k in draw(st.permutations(range(len(items))))]


def common_items(domains, pins, omit=()):
    """The ``in`` and ``pin`` items of a model (no ``fd.in_`` for the variables in ``omit``)."""
    items = [("in", i, vals) for i, vals in enumerate(domains) if i not in omit]
    items += [("pin", i, c, how) for i, c, how in pins]
    return items


def build_common(item, vs):
    """Goal and check for an ``in`` or ``pin`` item (``None`` for other kinds)."""
    if item[0] == "in":
        _, i, vals = item
        return fd.in_(vs[i], fd.domain(*sorted(vals))), lambda a: a[i] in vals
    if item[0] == "pin":
        _, i, c, how = item
        if isinstance(c, tuple):  # x == y
            j = c[1]
            return (eq if how == "eq" else fd.eq)(vs[i], vs[j]), lambda a: a[i] == a[j]
        return (eq if how == "eq" else fd.eq)(vs[i], c), lambda a: a[i] == c
    return None


def brute(candidates, checks):
    """Every assignment (a tuple of values) that passes all checks; a division by 0 fails."""

    def ok(a):
        try:
            return all(c(a) for c in checks)
        except ZeroDivisionError:
            return False

    return [a for a in itertools.product(*(sorted(c) for c in candidates)) if ok(a)]


def assert_same_answers(got, expected):
    """``got`` holds no answer twice and is, as a set, ``expected``."""
    if currently_in_test_context():  # see --hypothesis-show-statistics
        event(
            f"solutions: {'none' if not expected else 'one' if len(expected) == 1 else 'several'}"
        )
    dupes = [a for a, k in Counter(got).items() if k > 1]
    assert not dupes, f"answers given more than once: {dupes}"
    missing = set(expected) - set(got)
    extra = set(got) - set(expected)
    assert not missing and not extra, f"missing {sorted(missing)}, wrong {sorted(extra)}"


def solve(model_items, build, n, candidates):
    """Build the goals (in order), run the query and brute force: ``(answers, expected)``."""
    vs = vars(n)
    built = [build_common(item, vs) or build(item, vs) for item in model_items]
    goals = [g for g, _ in built]
    expected = brute(candidates, [c for _, c in built])
    got = run(0, tuple(vs), *goals)
    return got, expected


def agrees_with_brute_force(model, build):
    """``run``'s answers to ``model`` (``n, domains, items``) are the assignments brute force accepts."""
    n, domains, items = model
    got, expected = solve(items, build, n, candidates_of(domains))
    assert_same_answers(got, expected)


def agrees_where_implied(model, build):
    """As :func:`agrees_with_brute_force`, for a model (``n, domains, omit, implied, items``)
    whose variables in ``omit`` have no domain but the values in ``implied``."""
    n, domains, omit, implied, items = model
    got, expected = solve(items, build, n, candidates_of(domains, omit, implied))
    assert_same_answers(got, expected)


def goals_of(model_items, build, vs):
    """Just the goals of ``model_items``, in order, over the variables ``vs``."""
    return [(build_common(item, vs) or build(item, vs))[0] for item in model_items]


def candidates_of(domains, omit=(), implied=()):
    return [set(implied) if i in omit else set(d) for i, d in enumerate(domains)]


# -- 1. all_distinct ----------------------------------------------------------------------


@st.composite
def distinct_models(draw):
    n, domains, pins = draw(base_model(lo=-2, hi=3, max_size=4))
    # now and then values far apart (sparse bitsets): the model scaled
    scale = draw(st.sampled_from([1, 1, 1, 100_003]))
    domains = [{v * scale for v in d} for d in domains]
    pins = [(i, c * scale if isinstance(c, int) else c, how) for i, c, how in pins]
    offsets = st.sampled_from([0, 0, 0, -1, 1, 2]).map(lambda c: c * scale)
    # different variables (x or x + c), now and then with a constant or a repeated variable
    terms = [
        ("v", i, draw(offsets))
        for i in draw(st.lists(st.integers(0, n - 1), min_size=2, max_size=4, unique=True))
    ]
    extra = draw(st.sampled_from(["none", "none", "none", "const", "repeat"]))
    if extra == "const":
        terms.append(("c", draw(st.integers(-2, 3)) * scale))
    elif extra == "repeat":  # never distinct with the same offset; with another, two views of x
        terms.append(("v", draw(st.sampled_from(terms))[1], draw(offsets)))
    repeated = len({t[1] for t in terms if t[0] == "v"}) < sum(t[0] == "v" for t in terms)
    terms = shuffled(draw, terms)
    extra = draw(
        st.lists(
            st.tuples(
                st.integers(0, n - 1),
                st.sampled_from(OP_NAMES),
                st.integers(0, n - 1),
                st.integers(-2, 2).map(lambda c: c * scale),
            ),
            max_size=1,
        )
    )
    items = common_items(domains, pins) + [("alldiff", terms)] + [("rel",) + e for e in extra]
    aliased = any(isinstance(c, tuple) for _, c, _ in pins)
    return n, domains, shuffled(draw, items), bool(extra) or aliased or repeated


def term_of(t, vs):
    """Term ``("v", i)`` or ``("v", i, c)`` (``x_i + c``) as an expression, ``("c", k)`` as ``k``."""
    if t[0] != "v":
        return t[1]
    c = t[2] if len(t) > 2 else 0
    return vs[t[1]] + c if c else vs[t[1]]


def value_of(t, a):
    return a[t[1]] + (t[2] if len(t) > 2 else 0) if t[0] == "v" else t[1]


def build_distinct(kind):
    def build(item, vs):
        if item[0] == "rel":
            _, i, op, j, c = item
            return RELATE[op](vs[i], vs[j] + c), lambda a: OPS[op](a[i], a[j] + c)
        _, terms = item
        goal = (fd.all_distinct if kind == "all" else fd.distinct)([term_of(t, vs) for t in terms])
        return goal, lambda a: len({value_of(t, a) for t in terms}) == len(terms)

    return build


def residual_sets(answer, n):
    """The values each of ``n`` query positions may still take in a residual answer."""
    out = []
    for k in range(n):
        t = answer.term[k]
        out.append({t} if isinstance(t, int) else set(answer.domains[t]))
    return out


@SETTINGS
@given(distinct_models())
def test_all_distinct_equals_brute_force_and_distinct(model):
    n, domains, items, has_extra = model
    cands = candidates_of(domains)
    got_all, expected = solve(items, build_distinct("all"), n, cands)
    assert_same_answers(got_all, expected)
    got_cheap, expected_cheap = solve(items, build_distinct("cheap"), n, cands)
    assert_same_answers(got_cheap, expected_cheap)
    assert sorted(got_all) == sorted(got_cheap)

    vs, ws = vars(n), vars(n)
    res_all = run(0, tuple(vs), *goals_of(items, build_distinct("all"), vs), residual=True)
    res_cheap = run(0, tuple(ws), *goals_of(items, build_distinct("cheap"), ws), residual=True)
    # no disjunctions: at most one residual answer each; Régin keeps no more than value elimination
    assert len(res_all) <= 1 and len(res_cheap) <= 1
    assert len(res_all) <= len(res_cheap)
    if res_all:
        wide = residual_sets(res_cheap[0], n)
        for k, narrow in enumerate(residual_sets(res_all[0], n)):
            assert narrow <= wide[k], (
                f"position {k}: all_distinct keeps {narrow}, distinct {wide[k]}"
            )
    if not has_extra:
        # all_distinct alone (with domains and pins, no other relation, no x == y) is domain
        # consistent: exactly the values some solution uses survive
        if not expected:
            assert res_all == (), f"all_distinct left {res_all} though there is no solution"
        else:
            assert len(res_all) == 1, "all_distinct failed though there is a solution"
            supported = [{a[k] for a in expected} for k in range(n)]
            assert residual_sets(res_all[0], n) == supported


# -- 2. element ---------------------------------------------------------------------------


@st.composite
def element_models(draw):
    n, domains, pins = draw(base_model(n_min=1, n_max=4, lo=-1, hi=4, max_size=4))
    var_or_int = lambda lo, hi: st.one_of(
        st.integers(0, n - 1).map(lambda i: ("v", i)), st.integers(lo, hi).map(lambda c: ("c", c))
    )
    xs = draw(st.lists(var_or_int(-1, 4), min_size=1, max_size=4))
    a_var = st.integers(0, n - 1).map(lambda i: ("v", i))
    index = draw(st.one_of(a_var, a_var, a_var, st.integers(-1, len(xs)).map(lambda c: ("c", c))))
    value = draw(
        st.one_of(a_var, var_or_int(-1, 4), st.just(index))
    )  # the index itself now and then
    # index and value variables not in the list need no fd.in_: element gives them their domain
    in_list = {t[1] for t in xs if t[0] == "v"}
    free = {t[1] for t in (index, value) if t[0] == "v" and t[1] not in in_list}
    omit = {i for i in free if draw(st.booleans())}
    items = common_items(domains, pins, omit) + [("element", index, xs, value)]
    return n, domains, omit, shuffled(draw, items)


def build_element(item, vs):
    _, index, xs, value = item

    def check(a):
        k = value_of(index, a)
        return 0 <= k < len(xs) and value_of(xs[k], a) == value_of(value, a)

    return fd.element(term_of(index, vs), [term_of(t, vs) for t in xs], term_of(value, vs)), check


@SETTINGS
@given(element_models())
def test_element_equals_brute_force(model):
    n, domains, omit, items = model
    got, expected = solve(items, build_element, n, candidates_of(domains, omit, range(-2, 6)))
    assert_same_answers(got, expected)


@st.composite
def shared_element_models(draw):
    """Several elements over one list, most with a constant value (a channelling: support wake-ups)."""
    n, domains, pins = draw(base_model(n_min=2, n_max=4, lo=-1, hi=3, max_size=4))
    xs = draw(
        st.lists(
            st.one_of(st.integers(0, n - 1).map(lambda i: ("v", i)), st.just(("c", 1))),
            min_size=1,
            max_size=4,
        )
    )
    elements = [
        (
            "element",
            ("v", draw(st.integers(0, n - 1))),
            xs,
            draw(
                st.one_of(
                    st.integers(-1, 3).map(lambda c: ("c", c)),
                    st.integers(-1, 3).map(lambda c: ("c", c)),
                    st.integers(0, n - 1).map(lambda i: ("v", i)),
                )
            ),
        )
        for _ in range(draw(st.integers(2, 3)))
    ]
    return n, domains, shuffled(draw, common_items(domains, pins) + elements)


@SETTINGS
@given(shared_element_models())
def test_elements_over_one_list_equal_brute_force(model):
    agrees_with_brute_force(model, build_element)
    n, _, items = model
    vs = vars(n)
    residual = run(0, tuple(vs), *goals_of(items, build_element, vs), residual=True)
    if len(residual) == 1:  # propagation left each index only positions whose cell has the value
        left = residual_sets(residual[0], n)
        for _, (_, i), xs, (kind, c) in (t for t in items if t[0] == "element"):
            if kind == "c":
                for k in left[i]:
                    assert c in (left[xs[k][1]] if xs[k][0] == "v" else {xs[k][1]}), (i, k, c)


# -- 3. global_cardinality -----------------------------------------------------------------


@st.composite
def gcc_models(draw):
    n, domains, pins = draw(base_model(n_min=1, n_max=5, lo=-1, hi=3, max_size=5))
    idx = st.integers(0, n - 1)
    xs = draw(st.lists(idx, min_size=1, max_size=4))
    keys = draw(st.lists(st.integers(-1, 3), min_size=1, max_size=3, unique=True))
    hidden = [draw(st.sampled_from(keys)) for _ in xs]  # integer counts mostly fit some assignment
    counts = []
    for k in keys:
        how = draw(st.sampled_from(["fits", "fits", "variable", "any"]))
        if how == "fits":
            counts.append((k, ("c", hidden.count(k))))
        elif how == "variable":
            counts.append((k, ("v", draw(idx))))
        else:
            counts.append((k, ("c", draw(st.integers(0, 4)))))
    used = set(xs) | {c[1] for _, c in counts if c[0] == "v"}
    omit = {i for i in used if draw(st.booleans())}
    items = common_items(domains, pins, omit) + [("gcc", xs, counts)]
    implied = set(keys) | set(range(len(xs) + 1))
    return n, domains, omit, implied, shuffled(draw, items)


def build_gcc(item, vs):
    _, xs, counts = item

    def check(a):
        values = [a[i] for i in xs]
        return all(v in dict(counts) for v in values) and all(
            values.count(k) == value_of(c, a) for k, c in counts
        )

    return fd.global_cardinality([vs[i] for i in xs], {k: term_of(c, vs) for k, c in counts}), check


@SETTINGS
@given(gcc_models())
def test_global_cardinality_equals_brute_force(model):
    agrees_where_implied(model, build_gcc)


@st.composite
def gcc_permutation_models(draw):
    """``global_cardinality`` with counts of 0 or 1 (a permutation of the values counted once,
    as a Sudoku unit): constants, or count variables pinned to 0 or 1 before or after."""
    n, domains, pins = draw(base_model(n_min=2, n_max=5, lo=-1, hi=3, max_size=5))
    xs = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=4, unique=True))
    keys = draw(st.lists(st.integers(-1, 3), min_size=len(xs), max_size=5, unique=True))
    ones = set(draw(st.permutations(keys))[: len(xs) + draw(st.sampled_from([0, 0, 0, -1, 1]))])
    counts = [(k, ("c", int(k in ones))) for k in keys]
    items = common_items(domains, pins)
    if draw(st.booleans()):  # one count a variable, pinned by another goal
        i = draw(st.integers(0, n - 1))
        k = draw(st.sampled_from(keys))
        counts = [(key, ("v", i) if key == k else c) for key, c in counts]
        items.append(("pin", i, int(k in ones), draw(st.sampled_from(["eq", "fd"]))))
    items.append(("gcc", xs, counts))
    implied = set(keys) | set(range(len(xs) + 1))
    return n, domains, (), implied, shuffled(draw, items)


@SETTINGS
@given(gcc_permutation_models())
def test_global_cardinality_of_a_permutation_equals_brute_force(model):
    agrees_where_implied(model, build_gcc)


# -- 3b. fd.count ---------------------------------------------------------------------------


@st.composite
def count_models(draw):
    """Counts of terms (variables, ``x + k``, constants) equal to a value, compared with a term.

    The value is mostly a constant (one counting propagator), now and then a
    variable (reified equalities); the compared term may be one of the counted
    variables (a magic sequence's ``count(xs, i) == xs[i]``); some items add
    two counts; a variable only ever compared by ``==`` may go without ``fd.in_``.
    """
    n, domains, pins = draw(base_model(n_min=1, n_max=4, lo=-1, hi=3, max_size=4))
    idx = st.integers(0, n - 1)
    a_var = idx.map(lambda i: ("v", i))
    const = st.integers(-1, 3).map(lambda c: ("c", c))
    term = st.one_of(a_var, a_var, st.tuples(st.just("off"), idx, st.integers(-1, 1)), const)
    count = st.tuples(st.lists(term, min_size=1, max_size=4), st.one_of(const, const, a_var))
    items = []
    for _ in range(draw(st.integers(1, 2))):
        counts = draw(st.lists(count, min_size=1, max_size=2))
        op = draw(st.sampled_from(["==", "==", *OP_NAMES]))
        items.append(
            ("count", counts, op, draw(st.one_of(a_var, st.integers(0, 4).map(lambda c: ("c", c)))))
        )
    used = Counter(
        t[1]
        for _, counts, _, rhs in items
        for terms, value in counts
        for t in (*terms, value, rhs)
        if t[0] != "c"
    )
    used.update(i for i, c, _ in pins if isinstance(c, tuple))
    used.update(c[1] for _, c, _ in pins if isinstance(c, tuple))
    free = {rhs[1] for _, _, op, rhs in items if op == "==" and rhs[0] == "v" and used[rhs[1]] == 1}
    omit = {i for i in free if draw(st.booleans())}
    return n, domains, omit, shuffled(draw, common_items(domains, pins, omit) + items)


def count_term(t, vs):
    return vs[t[1]] + t[2] if t[0] == "off" else term_of(t, vs)


def count_value(t, a):
    return a[t[1]] + t[2] if t[0] == "off" else value_of(t, a)


def build_count(item, vs):
    _, counts, op, rhs = item
    total = fd.lin(0)
    for terms, value in counts:
        total = total + fd.count([count_term(t, vs) for t in terms], term_of(value, vs))

    def check(a):
        got = sum(
            sum(count_value(t, a) == value_of(value, a) for t in terms) for terms, value in counts
        )
        return OPS[op](got, value_of(rhs, a))

    return OPS[op](total, term_of(rhs, vs)), check


@SETTINGS
@given(count_models())
def test_count_equals_brute_force(model):
    n, domains, omit, items = model
    got, expected = solve(items, build_count, n, candidates_of(domains, omit, range(0, 9)))
    assert_same_answers(got, expected)


@st.composite
def value_count_models(draw):
    """Counts of values among ``xs``, one count per value of some set (mostly every value the
    ``xs`` may take: then the counts are one ``global_cardinality``), stated by ``fd.count``
    or by reified equalities ``b == (x == c)`` summed (several on each ``x``), the counts
    being variables (often the counted ones, as in a magic series) or constants."""
    n, domains, pins = draw(base_model(n_min=2, n_max=4, lo=0, hi=3, max_size=4))
    xs = draw(st.lists(st.integers(0, n - 1), min_size=2, max_size=4, unique=True))
    values = sorted(set().union(*(domains[i] for i in xs)))
    if draw(st.booleans()):  # not every value counted
        values = draw(st.lists(st.sampled_from(values), min_size=1, unique=True))
    how = draw(st.sampled_from(["count", "reified"]))
    counts = [
        (
            "vcount",
            how,
            tuple(xs),
            c,
            draw(
                st.one_of(
                    st.integers(0, n - 1).map(lambda i: ("v", i)),
                    st.integers(0, 3).map(lambda k: ("c", k)),
                )
            ),
        )
        for c in values
    ]
    return n, domains, shuffled(draw, common_items(domains, pins) + counts)


def build_value_count(item, vs):
    _, how, xs, c, target = item
    counted = [vs[i] for i in xs]
    if how == "count":
        goal = fd.count(counted, c) == term_of(target, vs)
    else:
        bs = vars(len(xs))
        goal = conj(
            *(b == fd.eq(x, c) for b, x in zip(bs, counted)), fd.sum(bs, "==", term_of(target, vs))
        )
    return goal, lambda a: sum(a[i] == c for i in xs) == value_of(target, a)


@SETTINGS
@given(value_count_models())
def test_counts_of_every_value_equal_brute_force(model):
    """Counts that cover every value gain a flow (``fd.count``), reified equalities on one
    variable are woken as one when it is fixed: neither changes an answer."""
    agrees_with_brute_force(model, build_value_count)


@st.composite
def nearly_counted_models(draw):
    """Counts of all but one value of those four to six variables may take (as a magic
    series over ``0..n``, its top value never counted), by ``fd.count`` or by reified tests
    summed, the counts mostly the variables counted; and a labeling by ``leftmost`` or ``ff``,
    after the domains, maybe before some counts: the counts and a hidden one for the value
    left make one ``global_cardinality`` when the labeling starts (``implied_counts``)."""
    n = draw(st.integers(4, 6))
    domains = [
        set(range(draw(st.integers(0, 1)), draw(st.integers(n - 2, n)) + 1)) for _ in range(n)
    ]
    values = sorted(set().union(*domains))
    left_out = draw(st.sampled_from([values[-1], values[-1], draw(st.sampled_from(values))]))
    how = draw(st.sampled_from(["count", "reified"]))
    var = st.integers(0, n - 1).map(lambda i: ("v", i))
    series = {c: ("v", c) for c in values if c < n}
    counts = [
        (
            "vcount",
            how,
            tuple(range(n)),
            c,
            series.get(c, ("c", 0)) if draw(st.booleans()) else draw(var),
        )
        for c in values
        if c != left_out
    ]
    items = shuffled(draw, common_items(domains, []) + counts)
    after = 1 + max(k for k, item in enumerate(items) if item[0] == "in")  # each has a domain
    at = draw(st.integers(after, len(items)))  # maybe before some counts
    items.insert(at, ("label", draw(st.sampled_from(["leftmost", "ff"]))))
    return n, [set(d) for d in domains], items


def with_label(build):
    """``build``, and for a ``("label", select)`` item a labeling of every variable."""

    def built(item, vs):
        if item[0] == "label":
            return fd.label(list(vs), select=item[1]), lambda a: True
        return build(item, vs)

    return built


def labeled_first(model, select):
    """``model`` (``n, domains, items``) with the domains first, then a labeling by ``select``:
    each item after it is posted over constants."""
    n, domains, items = model
    ins = [item for item in items if item[0] == "in"]
    rest = [item for item in items if item[0] != "in"]
    return n, domains, [*ins, ("label", select), *rest]


build_nearly_counted = with_label(build_value_count)


@SETTINGS
@given(nearly_counted_models())
def test_counts_of_all_but_a_few_values_equal_brute_force(model):
    """(A labeling of few combinations searches before any analysis: here none is few.)"""
    with mock.patch.object(labeling, "FEW", 0):
        agrees_with_brute_force(model, build_nearly_counted)


@st.composite
def many_values_models(draw):
    """Up to 30 reified tests ``b == (x == c)`` or ``b == (x != c)`` on each of one or two
    variables (their lost values are then checked as one), the ``b`` sometimes with a domain
    of their own first (an offset below 0), some pinned, some summed; any goal order."""
    n = draw(st.integers(1, 2))
    domains = [
        set(draw(st.lists(st.integers(0, 40), min_size=2, max_size=30, unique=True)))
        for _ in range(n)
    ]
    tests = []  # (x, c, equal, b's own lowest value or None)
    owns = draw(st.booleans())  # some b with a domain of their own
    for i in range(n):
        size = draw(st.integers(16, 30)) if draw(st.booleans()) else draw(st.integers(1, 8))
        for c in draw(st.lists(st.integers(-2, 42), min_size=size, max_size=size, unique=True)):
            own = draw(st.sampled_from([None] * 6 + [0, -1, -2])) if owns else None
            tests.append((i, c, draw(st.booleans()), own))
    items = [("in", i, vals) for i, vals in enumerate(domains)]
    items += [("test", k, t) for k, t in enumerate(tests)]
    pinned = draw(st.lists(st.integers(0, len(tests) - 1), max_size=3, unique=True))
    items += [
        ("bpin", k, draw(st.integers(0, 1)), draw(st.sampled_from(["eq", "fd"]))) for k in pinned
    ]
    if draw(st.booleans()):
        summed = draw(st.lists(st.integers(0, len(tests) - 1), min_size=1, unique=True))
        items.append(("bsum", summed, draw(st.sampled_from(OP_NAMES)), draw(st.integers(0, 4))))
    if n == 2 and draw(st.booleans()):
        items.append(("apart",))
    holes = []  # values x loses (mostly tested ones): their b follow
    for i in range(n):
        tested = sorted(domains[i] & {c for j, c, *_ in tests if j == i}) or sorted(domains[i])
        holes += [("hole", i, v) for v in draw(st.lists(st.sampled_from(tested), max_size=4))]
    if draw(st.booleans()):  # the domains first (so each test is a ReifiedValue), holes last
        return n, domains, tests, items[:n] + shuffled(draw, items[n:]) + holes
    return n, domains, tests, shuffled(draw, items + holes)


@SETTINGS
@given(many_values_models())
def test_many_reified_values_on_a_variable_equal_brute_force(model):
    n, domains, tests, items = model
    xs, bs = vars(n), vars(len(tests))
    goals, checks = [], []  # checks on (x values, b values)
    for item in items:
        kind = item[0]
        if kind == "in":
            goals.append(fd.in_(xs[item[1]], fd.domain(*sorted(item[2]))))
        elif kind == "test":
            k, (i, c, equal, lo) = item[1], item[2]
            if lo is not None:
                goals.append(fd.in_(bs[k], fd.interval(lo, 1)))
            goals.append(bs[k] == (fd.eq if equal else fd.ne)(xs[i], c))
        elif kind == "bpin":
            _, k, v, how = item
            goals.append((eq if how == "eq" else fd.eq)(bs[k], v))
            checks.append(lambda a, b, k=k, v=v: b[k] == v)
        elif kind == "bsum":
            _, summed, op, k = item
            goals.append(fd.sum([bs[j] for j in summed], op, k))
            checks.append(lambda a, b, s=summed, op=op, k=k: OPS[op](sum(b[j] for j in s), k))
        elif kind == "hole":
            _, i, v = item
            goals.append(fd.ne(xs[i], v))
            checks.append(lambda a, b, i=i, v=v: a[i] != v)
        else:
            goals.append(fd.ne(xs[0], xs[1]))
            checks.append(lambda a, b: a[0] != a[1])
    expected = []
    for a in itertools.product(*(sorted(d) for d in domains)):
        b = tuple(int((a[i] == c) == equal) for i, c, equal, _ in tests)
        if all(check(a, b) for check in checks):
            expected.append((*a, *b))
    got = run(0, (*xs, *bs), *goals)
    assert_same_answers(got, expected)
    kinds = [item[0] for item in items]
    domains_first = kinds.index("test") > max(k for k, kind in enumerate(kinds) if kind == "in")
    if domains_first and all(own is None for *_, own in tests):  # each test a ReifiedValue
        for r in run(0, (*xs, *bs), *goals, residual=True):  # domain consistent before labeling
            values = [{t} if isinstance(t, int) else set(r.domains[t]) for t in r.term[:n]]
            for k, (i, c, _, _) in enumerate(tests):
                if c not in values[i] or values[i] == {c}:
                    assert isinstance(r.term[n + k], int), (k, values[i], c)


@st.composite
def boolean_product_models(draw):
    """Products of 0/1 variables (an inner product's terms, as in a block design): ``x * y ==
    z``, or a sum of products compared with a constant; domains {0}, {1} or {0, 1}, pins
    anywhere."""
    n = draw(st.integers(2, 5))
    domains = [draw(st.sampled_from([{0, 1}, {0, 1}, {0, 1}, {0}, {1}])) for _ in range(n)]
    pins = [
        (i, draw(st.integers(0, 1)), draw(st.sampled_from(["eq", "fd"])))
        for i in draw(st.lists(st.integers(0, n - 1), max_size=2, unique=True))
    ]
    pair = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
    items = []
    for _ in range(draw(st.integers(1, 3))):
        if draw(st.booleans()):
            items.append(("product", draw(pair), draw(st.integers(0, n - 1))))
        else:
            items.append(
                (
                    "inner",
                    draw(st.lists(pair, min_size=1, max_size=4)),
                    draw(st.sampled_from(OP_NAMES)),
                    draw(st.integers(0, 3)),
                )
            )
    return n, domains, shuffled(draw, common_items(domains, pins) + items)


def build_boolean_product(item, vs):
    if item[0] == "product":
        _, (i, j), k = item
        return vs[i] * vs[j] == vs[k], lambda a: a[i] * a[j] == a[k]
    _, pairs, op, k = item
    total = sum((vs[i] * vs[j] for i, j in pairs[1:]), vs[pairs[0][0]] * vs[pairs[0][1]])
    return OPS[op](total, k), lambda a: OPS[op](sum(a[i] * a[j] for i, j in pairs), k)


@SETTINGS
@given(boolean_product_models())
def test_products_of_booleans_equal_brute_force(model):
    agrees_with_brute_force(model, build_boolean_product)


@st.composite
def clique_models(draw):
    """Variables pairwise different, edge by edge (a colouring's ``x != y``), with a clique of
    four or five among them (now and then an edge short) and about as many values as its
    members (labeling groups it);
    pins anywhere, then the clique labeled first or not at all (``run`` labels it)."""
    n = draw(st.integers(4, 5))
    k = draw(st.integers(4, n))
    values = st.sets(st.integers(0, k), min_size=k - 2, max_size=k + 1)
    domains = [draw(values) for _ in range(n)]
    pins = [
        (i, draw(st.integers(0, k)), draw(st.sampled_from(["eq", "fd"])))
        for i in draw(st.lists(st.integers(0, n - 1), max_size=2, unique=True))
    ]
    members = draw(st.permutations(range(n)))[:k]
    edges = {(a, b) for a in members for b in members if a < b}
    if draw(st.integers(0, 3)) == 0:  # now and then one edge short of a clique (none to group)
        edges.discard(min(edges))
    edges |= {tuple(sorted(e)) for e in draw(st.lists(st.tuples(*[st.integers(0, n - 1)] * 2)))}
    items = [("ne", a, b, draw(st.booleans())) for a, b in sorted(edges) if a != b]
    label = [("label", members)] if draw(st.booleans()) else []
    return n, domains, shuffled(draw, common_items(domains, pins) + items) + label


def build_clique(item, vs):
    if item[0] == "label":
        return fd.label([vs[i] for i in item[1]]), lambda a: True
    _, a, b, by_relation = item
    goal = vs[a] - vs[b] != 0 if by_relation else fd.ne(vs[a], vs[b])
    return goal, lambda x: x[a] != x[b]


@SETTINGS
@given(clique_models())
def test_cliques_of_pairwise_differences_equal_brute_force(model):
    """Labeling groups a clique of ``!=`` into an implied pigeonhole: no answer changes."""
    agrees_with_brute_force(model, build_clique)


@SETTINGS
@given(
    clique_models(),
    st.sampled_from(["leftmost", "ff", "ffc", "min", "max"]),
    st.sampled_from(["up", "down"]),
    st.integers(-2, 8),
)
def test_a_labeling_that_posts_its_implied_groups_after_a_first_search_gives_each_answer_once(
    model, select, order, nodes
):
    """The labeling looks for a first solution without the implied pigeonholes within ``nodes``
    (none, some or all it needs), then posts them and goes on: the answers are brute force's,
    each once, and the first ones are those ``run(1)`` and ``run(2)`` give."""
    n, domains, items = model
    vs = vars(n)
    built = [build_common(item, vs) or build_clique(item, vs) for item in items]
    goals = [g for g, _ in built] + [fd.label(list(vs), select=select, order=order)]
    with mock.patch.object(Label, "ALONE", nodes - 4 * n):  # n labels or fewer: nodes at most
        got = run(0, tuple(vs), *goals)
        assert run(1, tuple(vs), *goals) == got[:1]
        assert run(2, tuple(vs), *goals) == got[:2]
    assert_same_answers(got, brute(candidates_of(domains), [c for _, c in built]))


@st.composite
def graphs(draw):
    """A graph of up to 14 nodes (some isolated), as ``node -> neighbours``."""
    n = draw(st.integers(0, 14))
    edges = draw(st.sets(st.tuples(st.integers(0, n), st.integers(0, n)), max_size=60))
    graph: dict[int, set[int]] = {v: set() for v in draw(st.sets(st.integers(0, n)))}
    for a, b in edges:
        if a != b:
            graph.setdefault(a, set()).add(b)
            graph.setdefault(b, set()).add(a)
    return graph


@SETTINGS
@given(graphs(), st.integers(2, 4))
def test_cliques_are_the_greedy_cover_of_the_edges(graph, least):
    """``cliques`` (over bitsets) finds what the plain greedy cover does: from each node, most
    neighbours first, each edge not yet covered grows a clique by the common neighbours in
    order; each is a clique, and with ``least`` 2 they cover every edge."""

    def greedy(graph, least):
        found, covered = [], set()
        for t in sorted(graph, key=lambda t: (-len(graph[t]), t)):
            for u in sorted(graph[t]):
                if (t, u) not in covered:
                    clique = [t, u]
                    for w in sorted(graph[t] & graph[u]):
                        if all(w in graph[c] for c in clique):
                            clique.append(w)
                    covered.update((a, b) for a in clique for b in clique)
                    if len(clique) >= least:
                        found.append(sorted(clique))
        return found

    got = cliques(graph, least)
    assert got == greedy(graph, least)
    assert all(b in graph[a] for c in got for a in c for b in c if a != b)
    assert all(len(c) >= least for c in got)
    every = cliques(graph, 2)
    assert all(any(a in c and b in c for c in every) for a in graph for b in graph[a])


@st.composite
def load_models(draw):
    """Items put in bins (a variable each: its bin), each bin's load bounded by reified tests,
    ``sum(w_i * (x_i == b)) <= cap_b`` (a bin packing written bin by bin, which labeling gives an
    implied check of the total); now and then a value with no bin row, pins anywhere, then the
    items labeled first or not at all (``run`` labels them)."""
    n, bins = draw(st.integers(2, 4)), draw(st.integers(2, 3))
    values = st.sets(st.integers(-1, bins), min_size=1, max_size=bins + 1)
    domains = [draw(values) if draw(st.integers(0, 4)) == 0 else set(range(bins)) for _ in range(n)]
    pins = [
        (i, draw(st.integers(-1, bins)), draw(st.sampled_from(["eq", "fd"])))
        for i in draw(st.lists(st.integers(0, n - 1), max_size=1))
    ]
    weights = [draw(st.integers(1, 6)) for _ in range(n)]
    room = sum(weights)  # caps up to the total: now and then just enough
    rows = [
        ("load", b, [w + draw(st.integers(0, 3)) for w in weights], draw(st.integers(0, room)))
        for b in range(bins)
    ]  # an item may weigh more in one bin than in another
    label = [("label", draw(st.permutations(range(n))))] if draw(st.booleans()) else []
    return n, domains, shuffled(draw, common_items(domains, pins) + rows) + label


def build_load(item, vs):
    if item[0] == "label":
        return fd.label([vs[i] for i in item[1]]), lambda a: True
    _, b, weights, cap = item
    tests = vars(len(vs))
    goal = conj(
        fd.in_(*tests, fd.interval(0, 1)),
        *(t == fd.eq(x, b) for t, x in zip(tests, vs)),
        fd.scalar_product(weights, tests, "<=", cap),
    )
    return goal, lambda a: sum(w for w, x in zip(weights, a) if x == b) <= cap


@SETTINGS
@given(load_models())
@example(  # a slack of 1: bin 1 needs 2 of x1 (2) and x2 (1), and takes x1 but may leave x2
    (
        3,
        [{0}, {0, 1}, {0, 1}],
        [
            *(("in", i, d) for i, d in enumerate([{0}, {0, 1}, {0, 1}])),
            *(("load", b, [2, 2, 1], 3) for b in range(2)),
            ("label", [0, 1, 2]),
        ],
    )
)
@example(  # light in bin 0, heavy in bin 1: the total counts each item at its least
    (
        3,
        [{0, 1}] * 3,
        [
            *(("in", i, {0, 1}) for i in range(3)),
            ("load", 0, [1] * 3, 3),
            ("load", 1, [2] * 3, 2),
            ("label", [0, 1, 2]),
        ],
    )
)
def test_bin_loads_by_reified_tests_equal_brute_force(model):
    """Labeling adds the implied check that the bins left hold the items' total: no answer changes."""
    agrees_with_brute_force(model, build_load)


# -- 4. tuples_in ---------------------------------------------------------------------------


@st.composite
def table_models(draw):
    n, domains, pins = draw(base_model(n_min=1, n_max=4, lo=-1, hi=3, max_size=4))
    width = draw(st.integers(1, 3))
    table = draw(st.lists(st.tuples(*[st.integers(-1, 3)] * width), min_size=1, max_size=6))
    term = st.one_of(
        st.integers(0, n - 1).map(lambda i: ("v", i)),
        st.integers(0, n - 1).map(lambda i: ("v", i)),
        st.integers(-1, 3).map(lambda c: ("c", c)),
    )
    tuples = draw(st.lists(st.lists(term, min_size=width, max_size=width), min_size=1, max_size=3))
    used = {t[1] for tup in tuples for t in tup if t[0] == "v"}
    omit = {i for i in used if draw(st.booleans())}
    items = common_items(domains, pins, omit) + [("table", tuples, table)]
    implied = {v for row in table for v in row}
    return n, domains, omit, implied, shuffled(draw, items)


def build_table(item, vs):
    _, tuples, table = item
    rows = set(table)
    goal = fd.tuples_in([[term_of(t, vs) for t in tup] for tup in tuples], table)
    return goal, lambda a: all(tuple(value_of(t, a) for t in tup) in rows for tup in tuples)


@SETTINGS
@given(table_models())
def test_tuples_in_equals_brute_force(model):
    agrees_where_implied(model, build_table)


@st.composite
def keyed_table_models(draw):
    """Tables of pairs whose first column holds each key once (within ``0..2 * rows``, a gap or
    two): each tuple is then an ``element`` of the second column by its key, in any order."""
    n, domains, pins = draw(base_model(n_min=1, n_max=4, lo=-1, hi=4, max_size=5))
    keys = draw(st.lists(st.integers(0, 4), min_size=1, max_size=5, unique=True))
    table = [(k, draw(st.integers(-1, 3))) for k in keys]
    term = st.one_of(
        st.integers(0, n - 1).map(lambda i: ("v", i)),
        st.integers(0, n - 1).map(lambda i: ("v", i)),
        st.integers(-1, 4).map(lambda c: ("c", c)),
    )
    tuples = draw(st.lists(st.lists(term, min_size=2, max_size=2), min_size=1, max_size=3))
    used = {t[1] for tup in tuples for t in tup if t[0] == "v"}
    omit = {i for i in used if draw(st.booleans())}
    items = common_items(domains, pins, omit) + [("table", tuples, table)]
    implied = {v for row in table for v in row}
    return n, domains, omit, implied, shuffled(draw, items)


@SETTINGS
@given(keyed_table_models())
def test_tuples_in_by_key_equals_brute_force(model):
    agrees_where_implied(model, build_table)


# -- 5. circuit ---------------------------------------------------------------------------


def is_single_cycle(succ):
    n = len(succ)
    node, seen = 0, set()
    for _ in range(n):
        if not 0 <= node < n or node in seen:
            return False
        seen.add(node)
        node = succ[node]
    return node == 0 and len(seen) == n


@st.composite
def circuit_models(draw):
    n = draw(st.integers(1, 5))
    # domains: all nodes but a few, sometimes with a value out of range; often none at all
    domains = [
        (set(range(n)) - draw(st.sets(st.integers(0, n - 1), max_size=2)))
        | draw(st.sets(st.sampled_from([-1, n]), max_size=1))
        or {n}
        for _ in range(n)
    ]
    omit = {i for i in range(n) if draw(st.sampled_from([True, True, False]))}
    pins = draw(
        st.lists(
            st.tuples(st.integers(0, n - 1), st.integers(-1, n), st.sampled_from(["eq", "fd"])),
            max_size=2,
        )
    )
    nes = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=2))
    items = common_items(domains, pins, omit) + [("circuit",)] + [("ne", i, j) for i, j in nes]
    return n, domains, omit, shuffled(draw, items)


def build_circuit(item, vs):
    if item[0] == "ne":
        _, i, j = item
        return fd.ne(vs[i], vs[j]), lambda a: a[i] != a[j]
    return fd.circuit(vs), is_single_cycle


@SETTINGS
@given(circuit_models())
def test_circuit_equals_single_hamiltonian_cycles(model):
    n, domains, omit, items = model
    got, expected = solve(items, build_circuit, n, candidates_of(domains, omit, range(n)))
    assert_same_answers(got, expected)


def test_circuit_counts_every_cycle_without_domains():
    # (n - 1)! Hamiltonian cycles on n nodes
    for n, count in [(1, 1), (2, 1), (3, 2), (4, 6), (5, 24), (6, 120)]:
        s = vars(n)
        got = run(0, tuple(s), fd.circuit(s))
        assert len(got) == count == len(set(got))
        assert all(is_single_cycle(a) for a in got)


# -- 6. arithmetic inside relations -----------------------------------------------------


def leaf(n):
    """A variable, a constant, or now and then a relation between variables as a 0/1 term."""
    idx = st.integers(0, n - 1)
    return st.one_of(
        idx.map(lambda i: ("v", i)),
        idx.map(lambda i: ("v", i)),
        st.integers(-3, 3).map(lambda c: ("c", c)),
        st.tuples(st.just("rel"), st.sampled_from(OP_NAMES), idx, idx),
    )


def expressions(n, division=True):
    """Expression trees over ``n`` variables: + - * abs min max % // ** (to a constant or a
    variable) scaling, relations as 0/1."""
    small = st.one_of(leaf(n), st.tuples(st.sampled_from(["+", "-"]), leaf(n), leaf(n)))

    def extend(children):
        options = [
            st.tuples(st.sampled_from(["+", "-", "*"]), children, children),
            st.tuples(st.just("abs"), children),
            st.tuples(st.sampled_from(["min", "max"]), st.lists(children, min_size=1, max_size=3)),
            st.tuples(st.just("**"), small, st.integers(0, 3)),
            st.tuples(st.just("neg"), children),
            st.tuples(st.just("scale"), st.integers(-3, 3), children),
        ]
        if division:  # and the other partial function: a negative power of 2 is no integer
            options.append(
                st.tuples(st.sampled_from(["%", "//", "rem", "tdiv"]), children, children)
            )
            exponent = st.tuples(st.just("v"), st.integers(0, n - 1))
            options.append(st.tuples(st.just("**v"), small, exponent))
        return st.one_of(*options)

    return st.recursive(leaf(n), extend, max_leaves=5)


def expr_term(e, vs):
    kind = e[0]
    if kind == "v":
        return vs[e[1]]
    if kind == "c":
        return e[1]
    if kind == "rel":
        _, op, i, j = e
        return RELATE[op](vs[i], vs[j])
    if kind in ("+", "-", "*", "%", "//", "rem", "tdiv"):
        l, r = expr_term(e[1], vs), expr_term(e[2], vs)
        return {
            "+": operator.add,
            "-": operator.sub,
            "*": operator.mul,
            "%": operator.mod,
            "//": operator.floordiv,
            "rem": fd.rem,
            "tdiv": fd.trunc_div,
        }[kind](l, r)
    if kind == "abs":
        return abs(expr_term(e[1], vs))
    if kind in ("min", "max"):
        return (fd.min_ if kind == "min" else fd.max_)(*(expr_term(x, vs) for x in e[1]))
    if kind == "**":
        return expr_term(e[1], vs) ** e[2]
    if kind == "**v":
        return expr_term(e[1], vs) ** expr_term(e[2], vs)
    if kind == "neg":
        return -expr_term(e[1], vs)
    _, c, x = e  # scale
    return c * expr_term(x, vs)


def expr_value(e, a):
    kind = e[0]
    if kind == "v":
        return a[e[1]]
    if kind == "c":
        return e[1]
    if kind == "rel":
        _, op, i, j = e
        return int(OPS[op](a[i], a[j]))
    if kind in ("+", "-", "*", "%", "//", "rem", "tdiv"):
        l, r = expr_value(e[1], a), expr_value(e[2], a)
        return {
            "+": operator.add,
            "-": operator.sub,
            "*": operator.mul,
            "%": operator.mod,
            "//": operator.floordiv,
            "rem": lambda p, q: p - q * int(p / q),  # toward zero, as C (small ints: exact)
            "tdiv": lambda p, q: int(p / q),
        }[kind](l, r)
    if kind == "abs":
        return abs(expr_value(e[1], a))
    if kind in ("min", "max"):
        return (min if kind == "min" else max)(expr_value(x, a) for x in e[1])
    if kind == "**":
        return expr_value(e[1], a) ** e[2]
    if kind == "**v":  # a negative exponent: an integer only for the bases 1 and -1
        base, exponent = expr_value(e[1], a), expr_value(e[2], a)
        if exponent < 0 and abs(base) != 1:
            raise ZeroDivisionError(f"{base} ** {exponent} is not an integer")
        return base ** abs(exponent)
    if kind == "neg":
        return -expr_value(e[1], a)
    _, c, x = e
    return c * expr_value(x, a)


@st.composite
def arith_models(draw):
    n, domains, pins = draw(base_model(n_min=1, n_max=3, lo=-3, hi=3, max_size=5))
    ex = expressions(n)
    idx = st.integers(0, n - 1)
    template = st.tuples(st.just("template"), idx, idx, idx, st.sampled_from(OP_NAMES))
    rel = st.tuples(st.just("arith"), ex, st.sampled_from(OP_NAMES), ex, st.booleans())
    constraints = draw(st.lists(st.one_of(rel, rel, template), min_size=1, max_size=2))
    items = common_items(domains, pins) + constraints
    return n, domains, shuffled(draw, items)


def build_arith(item, vs):
    if item[0] == "template":  # abs(x - y) * 2 + x % 3  op  z
        _, i, j, k, op = item
        lhs = abs(vs[i] - vs[j]) * 2 + vs[i] % 3
        return OPS[op](lhs, vs[k]), lambda a: OPS[op](abs(a[i] - a[j]) * 2 + a[i] % 3, a[k])
    _, lhs, op, rhs, operator_syntax = item
    left, right = expr_term(lhs, vs), expr_term(rhs, vs)
    if operator_syntax:
        goal = OPS[op](fd.lin(left), right)
    else:  # fd.eq(a, b) takes terms: a relation as a 0/1 term goes through fd.lin
        as_term = lambda t: fd.lin(t) if isinstance(t, fd.Relation) else t
        goal = RELATE[op](as_term(left), as_term(right))
    return goal, lambda a: OPS[op](expr_value(lhs, a), expr_value(rhs, a))


@SETTINGS
@given(arith_models())
def test_arithmetic_relations_equal_brute_force(model):
    check_arith(model)


@SETTINGS
@given(arith_models())
def test_arithmetic_by_bounds_alone_equals_brute_force(model):
    """What wide domains get: with ``Function.LIMIT`` 0, abs % // ** min max propagate by bounds."""
    with mock.patch.object(Function, "LIMIT", 0):
        check_arith(model)


@st.composite
def power_models(draw):
    """``b ** e op rhs`` with a variable exponent (``b`` a variable, a constant or a sum), and the
    domains, pins and perhaps another relation, in any order."""
    n, domains, pins = draw(base_model(n_min=2, n_max=3, lo=-3, hi=4, max_size=6))
    idx = st.integers(0, n - 1)
    base = st.one_of(
        st.tuples(st.just("v"), idx),
        st.integers(-3, 3).map(lambda c: ("c", c)),
        st.tuples(st.just("+"), st.tuples(st.just("v"), idx), st.tuples(st.just("v"), idx)),
        st.tuples(  # mostly 2 or more: bounds narrow the exponent and the base
            st.just("+"), st.tuples(st.just("v"), idx), st.integers(2, 4).map(lambda c: ("c", c))
        ),
    )
    power = ("**v", draw(base), ("v", draw(idx)))
    rhs = draw(
        st.one_of(st.tuples(st.just("v"), idx), st.integers(-9, 300).map(lambda c: ("c", c)))
    )
    items = [("arith", power, draw(st.sampled_from(OP_NAMES)), rhs, draw(st.booleans()))]
    first = power[1] if power[1][0] == "v" else power[1][1] if power[1][0] == "+" else None
    if first is not None and draw(st.booleans()):  # bases of 2 or more: bounds narrow y and x
        items.append(("arith", first, ">=", ("c", draw(st.integers(1, 3))), True))
    if draw(st.booleans()):
        items.append(("arith", draw(expressions(n)), draw(st.sampled_from(OP_NAMES)), rhs, True))
    return n, domains, shuffled(draw, common_items(domains, pins) + items)


@SETTINGS
@given(power_models(), st.booleans())
def test_a_power_with_a_variable_exponent_equals_brute_force(model, by_bounds):
    """``x ** y`` (SWI's ``X^Y``): domain consistent over small domains, by bounds (``Function.LIMIT``
    0) over wide ones; a negative exponent has a value only for the bases 1 and -1."""
    with mock.patch.object(Function, "LIMIT", 0 if by_bounds else Function.LIMIT):
        check_arith(model)


def test_powers_with_a_variable_or_negative_exponent_as_swi_gives_them():
    x, y = vars(2)
    assert run(0, x, fd.in_(x, fd.interval(-3, 3)), y == x**-1, fd.label([x])) == (-1, 1)
    powers = run(
        0, (x, y), fd.in_(x, fd.interval(0, 40)), fd.in_(y, fd.interval(1000, 10**9)), 2**x == y
    )
    assert powers[:2] == ((10, 1024), (11, 2048)) and len(powers) == 20
    base, e = vars(2)
    goals = [fd.in_(base, fd.interval(-10, 10)), fd.in_(e, fd.interval(0, 5)), base**e == 8]
    assert run(0, (base, e), *goals) == ((2, 3), (8, 1))
    assert run(0, e, fd.in_(e, fd.interval(0, 10**6)), 2**e == 2**40) == (40,)  # by bounds


@SETTINGS
@given(arith_models())
def test_residual_answers_post_back_to_the_same_answers(model):
    """A residual's constraints are goals: posted again (with its domains), they give its answers."""
    n, domains, items = model
    vs = vars(n)
    try:
        built = [build_common(item, vs) or build_arith(item, vs) for item in items]
        residuals = run(0, tuple(vs), *(g for g, _ in built), residual=True)
    except ZeroDivisionError:
        return  # a constant 0 divisor: test_arithmetic_relations_equal_brute_force covers it
    expected = brute(candidates_of(domains), [c for _, c in built])
    got = []
    for r in residuals:
        again = [*r.constraints, *(fd.in_(v, d) for v, d in r.domains.items())]
        got += run(0, r.term, *again)
    assert_same_answers(got, expected)


@pytest.mark.parametrize("op", ["<", "<=", ">", ">="])
@pytest.mark.parametrize("pinned_first", [True, False])
def test_residual_of_a_reified_order_of_one_variable_shows_the_reification(op, pinned_first):
    """``b == (x op y)`` with ``y`` pinned is one variable's order (``ReifiedBound``); its
    residual shows ``b == (x op c)``, and posted back it gives the same answers, also with
    ``b`` and ``x`` one variable (hypothesis found the residual showing ``x op y`` alone)."""
    compare = {
        "<": lambda a, c: a < c,
        "<=": lambda a, c: a <= c,
        ">": lambda a, c: a > c,
        ">=": lambda a, c: a >= c,
    }[op]
    for same in (False, True):
        x, y, b = vars(3)
        b = x if same else b
        rel = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}[op](x, y)
        pin = eq(y, 1)
        goals = [fd.in_(x, y, fd.interval(0, 2)), fd.in_(b, fd.interval(0, 1))]
        goals += [pin, b == rel] if pinned_first else [b == rel, pin]
        expected = {
            (v, int(compare(v, 1))) for v in range(3) if not same or v == int(compare(v, 1))
        }
        residuals = run(0, (x, b), *goals, residual=True)
        got = set()
        for r in residuals:
            assert all("==" in repr(c) for c in r.constraints), r
            again = [*r.constraints, *(fd.in_(v, d) for v, d in r.domains.items())]
            got |= set(run(0, r.term, *again))
        assert got == expected


def check_arith(model, build=build_arith):
    n, domains, items = model
    cands = candidates_of(domains)
    try:
        got, expected = solve(items, build, n, cands)
    except ZeroDivisionError:
        # building may refuse only a divisor that is the constant 0 (after folding) ...
        culprits = []
        for it in items:
            if it[0] == "arith":
                try:
                    goals_of([it], build_arith, vars(n))
                except ZeroDivisionError:
                    culprits.append(it)
        assert culprits, "ZeroDivisionError though no expression has a constant zero divisor"
        # ... which indeed leaves every assignment without a value
        for a in itertools.product(*(sorted(c) for c in cands)):
            with pytest.raises(ZeroDivisionError):
                expr_value(culprits[0][1], a), expr_value(culprits[0][3], a)
        return
    assert_same_answers(got, expected)


@SETTINGS
@given(arith_models(), st.sampled_from(["leftmost", "ff"]))
def test_arithmetic_relations_stated_after_a_labeling_equal_brute_force(model, select):
    """A labeling stated first posts each relation over constants: checked, not built."""
    check_arith(labeled_first(model, select), with_label(build_arith))


@SETTINGS
@given(
    st.integers(1, 3).flatmap(
        lambda n: st.tuples(
            expressions(n),
            st.sampled_from(OP_NAMES),
            expressions(n),
            st.lists(st.integers(-3, 3), min_size=n, max_size=n),
        )
    )
)
def test_truth_is_the_value_answers_give(parts):
    """``truth`` (posting, over constants) agrees with ``evaluate`` (answers); ``None`` where a
    variable is open or a part has no value."""
    lhs, op, rhs, values = parts
    vs = vars(len(values))
    s = dict(zip(vs, values))
    try:
        rel = OPS[op](fd.lin(expr_term(lhs, vs)), expr_term(rhs, vs))
    except ZeroDivisionError:  # a constant 0 divisor, refused as the expression is built
        return
    for known in (s, dict(list(s.items())[:-1])):  # every value, or the last one left open
        try:
            value = evaluate(rel, known)  # a relation still, where a variable is open
        except (ArithmeticError, ValueError):
            value = None
        assert truth(rel, known) is (value if type(value) is bool else None)


def test_a_power_past_its_bits_stated_after_a_labeling_is_the_same_error():
    """Over constants a power past ``POWER_BITS`` bits is no value, as when propagated."""
    x, y = vars(2)
    power = fd.lin(x) ** y == fd.lin(2) ** y
    domains = fd.in_(x, fd.interval(2, 3)), fd.in_(y, fd.domain(2**21))
    for goals in ((fd.label([x, y]), power), (power, fd.label([x, y]))):
        with pytest.raises(OverflowError, match="bits"):
            run(0, (x, y), *domains, *goals)


def test_division_by_a_variable_that_may_be_zero():
    x, y, z = vars(3)
    got = run(
        0,
        (x, y, z),
        fd.in_(x, y, fd.interval(-2, 2)),
        fd.eq(z, x // y),
        fd.in_(z, fd.interval(-9, 9)),
    )
    expected = [(a, b, a // b) for a in range(-2, 3) for b in range(-2, 3) if b]
    assert_same_answers(got, expected)
    got = run(0, (x, y), fd.in_(x, fd.interval(-3, 3)), fd.in_(y, fd.domain(0)), fd.eq(x % y, x))
    assert got == ()


# -- 7. reification and connectives --------------------------------------------------------


@st.composite
def reif_models(draw):
    n, domains, pins = draw(base_model(n_min=1, n_max=4, lo=-2, hi=3, max_size=4))
    idx = st.integers(0, n - 1)
    vt = st.one_of(idx.map(lambda i: ("v", i)), st.integers(-2, 3).map(lambda c: ("c", c)))
    cmp_term = st.one_of(
        st.tuples(st.just("off"), idx, st.integers(-2, 2)),
        st.integers(-3, 3).map(lambda c: ("c", c)),
        st.tuples(st.just("absdiff"), idx, idx),
    )
    atom = st.one_of(
        st.tuples(st.just("cmp"), st.sampled_from(OP_NAMES), cmp_term, cmp_term),
        st.tuples(
            st.just("count"),
            st.lists(idx, min_size=1, max_size=3),
            vt,
            st.sampled_from(OP_NAMES),
            vt,
        ),
    )

    def extend(f):
        return st.one_of(
            st.tuples(st.just("not"), f),
            st.tuples(st.sampled_from(["and", "or", "implies", "iff"]), f, f),
            st.tuples(st.just("any"), st.lists(f, min_size=1, max_size=3)),
            st.tuples(st.sampled_from(["beq", "reify"]), f, idx),
            st.tuples(
                st.just("sum"),
                st.lists(f, min_size=1, max_size=3),
                st.sampled_from(OP_NAMES),
                st.integers(0, 3),
            ),
        )

    formula = st.recursive(atom, extend, max_leaves=4)
    top = st.one_of(
        st.tuples(st.just("post"), formula),
        st.tuples(st.sampled_from(["b==", "fd.reify"]), formula, idx),
    )
    items = common_items(domains, pins) + draw(st.lists(top, min_size=1, max_size=2))
    return n, domains, shuffled(draw, items)


def cmp_term_of(t, vs):
    if t[0] == "off":
        return vs[t[1]] + t[2]
    if t[0] == "c":
        return t[1]
    return abs(vs[t[1]] - vs[t[2]])


def cmp_value(t, a):
    if t[0] == "off":
        return a[t[1]] + t[2]
    if t[0] == "c":
        return t[1]
    return abs(a[t[1]] - a[t[2]])


def formula_rel(f, vs):
    kind = f[0]
    if kind == "cmp":
        _, op, l, r = f
        return RELATE[op](cmp_term_of(l, vs), cmp_term_of(r, vs))
    if kind == "count":
        _, xs, v, op, k = f
        return OPS[op](fd.count([vs[i] for i in xs], term_of(v, vs)), term_of(k, vs))
    if kind == "not":
        return ~formula_rel(f[1], vs)
    if kind in ("and", "or", "implies", "iff"):
        p, q = formula_rel(f[1], vs), formula_rel(f[2], vs)
        return {"and": operator.and_, "or": operator.or_, "implies": fd.implies, "iff": fd.iff}[
            kind
        ](p, q)
    if kind == "any":
        return fd.any_(*(formula_rel(g, vs) for g in f[1]))
    if kind == "beq":
        return vs[f[2]] == formula_rel(f[1], vs)
    if kind == "reify":
        return fd.reify(formula_rel(f[1], vs), vs[f[2]])
    _, fs, op, k = f  # sum of relations as 0/1 terms
    total = fd.lin(0)
    for g in fs:
        total = total + formula_rel(g, vs)
    return OPS[op](total, k)


def formula_holds(f, a) -> bool:
    kind = f[0]
    if kind == "cmp":
        _, op, l, r = f
        return OPS[op](cmp_value(l, a), cmp_value(r, a))
    if kind == "count":
        _, xs, v, op, k = f
        return OPS[op](sum(a[i] == value_of(v, a) for i in xs), value_of(k, a))
    if kind == "not":
        return not formula_holds(f[1], a)
    if kind == "and":
        return formula_holds(f[1], a) and formula_holds(f[2], a)
    if kind == "or":
        return formula_holds(f[1], a) or formula_holds(f[2], a)
    if kind == "implies":
        return not formula_holds(f[1], a) or formula_holds(f[2], a)
    if kind == "iff":
        return formula_holds(f[1], a) == formula_holds(f[2], a)
    if kind == "any":
        return any(formula_holds(g, a) for g in f[1])
    if kind in ("beq", "reify"):
        return a[f[2]] == int(formula_holds(f[1], a))
    _, fs, op, k = f
    return OPS[op](sum(formula_holds(g, a) for g in fs), k)


def build_reif(item, vs):
    kind, f = item[0], item[1]
    rel = formula_rel(f, vs)
    if kind == "post":
        return rel, lambda a: formula_holds(f, a)
    b = item[2]
    goal = vs[b] == rel if kind == "b==" else fd.reify(rel, vs[b])
    return goal, lambda a: a[b] == int(formula_holds(f, a))


@SETTINGS
@given(reif_models())
def test_reification_and_connectives_equal_brute_force(model):
    agrees_with_brute_force(model, build_reif)


@SETTINGS
@given(reif_models(), st.sampled_from(["leftmost", "ff"]))
def test_reification_stated_after_a_labeling_equals_brute_force(model, select):
    agrees_with_brute_force(labeled_first(model, select), with_label(build_reif))


def tagged_items(draw, tag, *fields):
    """One to three items ``(tag, *values)``, a value drawn from each of ``fields``."""
    return draw(st.lists(st.tuples(st.just(tag), *fields), min_size=1, max_size=3))


def one_variable_reif_models(draw, tag, hows, coefficients, ops, constants):
    """Reifications ``(tag, how, b, x, a, op, c)`` of ``a * x op c``, with a few plain
    constraints; the domains first (the bitset case) or anywhere."""
    n, domains, pins, constraints = draw(plain_models(n_min=2, n_max=4))
    idx = st.integers(0, n - 1)
    reifs = tagged_items(
        draw, tag, st.sampled_from(hows), idx, idx, st.sampled_from(coefficients), ops, constants
    )
    if draw(st.booleans()):
        rest = shuffled(draw, reifs + constraints + common_items([], pins))
        return n, domains, common_items(domains, []) + rest
    return n, domains, shuffled(draw, reifs + constraints + common_items(domains, pins))


@st.composite
def value_reif_models(draw):
    """Reifications ``b == (a * x == c)`` / ``!=`` of one variable, with a few plain constraints;
    the domains first (the bitset case) or anywhere."""
    return one_variable_reif_models(
        draw,
        "rv",
        ["b==", "fd.reify"],
        [1, 1, 1, -1, 2],
        st.sampled_from(["==", "!="]),
        st.integers(-4, 4),
    )


def build_value_reif(item, vs):
    if item[0] != "rv":
        return build_plain(item, vs)
    _, how, b, x, a, op, c = item
    rel = RELATE[op](a * vs[x], c)
    goal = vs[b] == rel if how == "b==" else fd.reify(rel, vs[b])
    return goal, lambda v: v[b] == int(OPS[op](a * v[x], c))


@SETTINGS
@given(value_reif_models())
def test_reified_comparisons_with_a_value_equal_brute_force(model):
    agrees_with_brute_force(model, build_value_reif)


@st.composite
def bound_reif_models(draw):
    """Reifications ``b == (a * x op c)`` of one variable and an order (``<``, ``<=``, ``>``,
    ``>=``), into a variable, by ``fd.reify`` or as a term of a sum, with a few plain
    constraints; the domains first (the bitset case) or anywhere."""
    return one_variable_reif_models(
        draw,
        "rb",
        ["b==", "fd.reify", "sum"],
        [1, 1, -1, 2, -3],
        st.sampled_from(["<", "<=", ">", ">="]),
        st.integers(-5, 5),
    )


def build_bound_reif(item, vs):
    if item[0] != "rb":
        return build_plain(item, vs)
    _, how, b, x, a, op, c = item
    rel = RELATE[op](a * vs[x], c)
    holds = lambda v: int(OPS[op](a * v[x], c))
    if how == "sum":  # the test as a 0/1 term: b == rel + 0
        return fd.sum([rel], "==", vs[b]), lambda v: v[b] == holds(v)
    goal = vs[b] == rel if how == "b==" else fd.reify(rel, vs[b])
    return goal, lambda v: v[b] == holds(v)


@SETTINGS
@given(bound_reif_models())
def test_reified_orders_with_a_value_equal_brute_force(model):
    agrees_with_brute_force(model, build_bound_reif)


@st.composite
def abs_difference_ne_models(draw):
    """``abs(x - y + k) != m`` (or ``m != abs(...)``), ``x`` and ``y`` possibly one variable,
    with a few plain constraints, in any order."""
    n, domains, pins, constraints = draw(plain_models(n_min=2, n_max=4))
    idx = st.integers(0, n - 1)
    items = tagged_items(
        draw, "absne", idx, idx, st.integers(-2, 2), st.integers(-1, 4), st.booleans()
    )
    return n, domains, shuffled(draw, items + constraints + common_items(domains, pins))


def build_abs_difference_ne(item, vs):
    if item[0] != "absne":
        return build_plain(item, vs)
    _, i, j, k, m, flip = item
    term = abs(vs[i] - vs[j] + k)
    goal = (m != term) if flip else (term != m)
    return goal, lambda a: abs(a[i] - a[j] + k) != m


@SETTINGS
@given(abs_difference_ne_models())
def test_abs_difference_not_equal_equals_brute_force(model):
    agrees_with_brute_force(model, build_abs_difference_ne)


@st.composite
def shared_abs_models(draw):
    """Relations between absolute differences, ``abs(x - y + k) op abs(u - v + m)``, drawn from
    a few differences (so one recurs, either way round: ``abs(y - x - k)``), beside ``!=`` and
    ``distinct`` that keep some of their variables apart (then a difference is never 0), with
    a few plain constraints, in any order: one difference is one hidden variable."""
    n, domains, pins, constraints = draw(plain_models(n_min=2, n_max=4))
    idx = st.integers(0, n - 1)
    pool = draw(st.lists(st.tuples(idx, idx, st.integers(-2, 2)), min_size=1, max_size=3))
    side = st.sampled_from(pool).flatmap(  # abs(y - x - k) is the same, abs(y - x + k) is not
        lambda d: st.sampled_from([d, (d[1], d[0], -d[2]), (d[1], d[0], d[2])])
    )
    items = tagged_items(draw, "absab", side, st.sampled_from(OP_NAMES), side)
    apart = st.sampled_from(pool).flatmap(  # x != y - k: x - y + k is never 0
        lambda d: st.tuples(
            st.just("rel"),
            st.just(d[0]),
            st.just("!="),
            st.just(d[1]),
            st.sampled_from([-d[2], d[2], d[2] + 1]),
        )
    )
    items += draw(st.lists(apart, max_size=3))
    group = st.sampled_from(pool).flatmap(  # distinct([x + s, y]): apart when s is k
        lambda d: st.tuples(
            st.just("dist"), st.just(d[0]), st.sampled_from([d[2], -d[2], d[2] + 1]), st.just(d[1])
        )
    )
    items += draw(st.lists(group, max_size=2))
    return n, domains, shuffled(draw, items + constraints + common_items(domains, pins))


def build_shared_abs(item, vs):
    if item[0] == "dist":
        _, i, s, j = item
        return fd.distinct([vs[i] + s, vs[j]]), lambda a: a[i] + s != a[j]
    if item[0] != "absab":
        return build_plain(item, vs)
    _, (i, j, k), op, (p, q, m) = item
    goal = RELATE[op](abs(vs[i] - vs[j] + k), abs(vs[p] - vs[q] + m))
    return goal, lambda a: OPS[op](abs(a[i] - a[j] + k), abs(a[p] - a[q] + m))


@SETTINGS
@given(shared_abs_models())
def test_shared_absolute_differences_equal_brute_force(model):
    agrees_with_brute_force(model, build_shared_abs)


@st.composite
def either_sign_models(draw):
    """``(p == e) | (p == -e)``, each side written one of three ways, either way round, by ``|``
    or ``fd.any_``, posted or reified into a variable, with a few plain constraints."""
    n, domains, pins, constraints = draw(plain_models(n_min=2, n_max=4))
    idx = st.integers(0, n - 1)
    coef = st.sampled_from([1, 1, -1, 2])
    items = tagged_items(
        draw,
        "sign",
        st.tuples(idx, coef, st.integers(-2, 2)),  # p = a * x + c
        st.tuples(idx, coef, st.integers(-2, 2)),  # e = b * y + k
        st.tuples(st.integers(0, 2), st.integers(0, 2), st.booleans(), st.booleans()),
        st.one_of(st.none(), idx),  # a variable the disjunction is reified into
    )
    return n, domains, shuffled(draw, items + constraints + common_items(domains, pins))


def build_either_sign(item, vs):
    if item[0] != "sign":
        return build_plain(item, vs)
    _, (i, a, c), (j, b, k), (how_p, how_q, swap, by_any), flag = item
    p, e = a * vs[i] + c, b * vs[j] + k
    same = [p == e, e == p, p - e == 0][how_p]
    opposite = [p == -e, -e == p, p + e == 0][how_q]
    if swap:
        same, opposite = opposite, same
    either = fd.any_(same, opposite) if by_any else same | opposite

    def holds(v):
        return abs(a * v[i] + c) == abs(b * v[j] + k)

    if flag is None:
        return either, holds
    return vs[flag] == either, lambda v: v[flag] == int(holds(v))


@SETTINGS
@given(either_sign_models())
def test_either_sign_disjunctions_equal_brute_force(model):
    agrees_with_brute_force(model, build_either_sign)


# -- 8. fd.sum and fd.scalar_product ------------------------------------------------------


@st.composite
def sum_models(draw):
    n, domains, pins = draw(base_model(n_min=2, n_max=4, lo=-2, hi=3, max_size=4))
    idx = st.integers(0, n - 1)
    term = st.one_of(
        idx.map(lambda i: ("v", i)),
        idx.map(lambda i: ("v", i)),
        st.integers(-2, 2).map(lambda c: ("c", c)),
    )
    value = st.one_of(st.integers(-6, 6).map(lambda c: ("c", c)), idx.map(lambda i: ("v", i)))
    sums = st.tuples(
        st.just("sum"), st.lists(term, min_size=1, max_size=4), st.sampled_from(OP_NAMES), value
    )
    products = st.lists(st.tuples(st.integers(-3, 3), term), min_size=1, max_size=4).flatmap(
        lambda pairs: st.tuples(st.just("sp"), st.just(pairs), st.sampled_from(OP_NAMES), value)
    )
    items = common_items(domains, pins) + draw(
        st.lists(st.one_of(sums, products), min_size=1, max_size=2)
    )
    return n, domains, shuffled(draw, items)


def build_sum(item, vs):
    if item[0] == "sum":
        _, terms, op, value = item
        goal = fd.sum([term_of(t, vs) for t in terms], op, term_of(value, vs))
        return goal, lambda a: OPS[op](sum(value_of(t, a) for t in terms), value_of(value, a))
    _, pairs, op, value = item
    goal = fd.scalar_product(
        [c for c, _ in pairs], [term_of(t, vs) for _, t in pairs], op, term_of(value, vs)
    )
    return goal, lambda a: OPS[op](sum(c * value_of(t, a) for c, t in pairs), value_of(value, a))


@SETTINGS
@given(sum_models())
def test_sum_and_scalar_product_equal_brute_force(model):
    agrees_with_brute_force(model, build_sum)


@st.composite
def bool_count_models(draw):
    """A count of 0/1 variables into a variable (``sum(bs) == t + c``, or its negation), some of
    the 0/1 variables reified value tests ``b == (x == v)`` posted with no domain of their own."""
    k, m = draw(st.integers(1, 2)), draw(st.integers(2, 4))
    xs, bs, t = list(range(k)), list(range(k, k + m)), k + m
    domains = [draw(st.sets(st.integers(-2, 3), min_size=1, max_size=4)) for _ in xs]
    domains += [draw(st.sets(st.integers(0, 1), min_size=1)) for _ in bs]
    domains.append(draw(st.sets(st.integers(-2, 5), min_size=1, max_size=5)))
    reified = [b for b in bs if draw(st.booleans())]
    items = [
        ("rv", draw(st.sampled_from(["b==", "fd.reify"])), b, draw(st.sampled_from(xs)), 1)
        + (draw(st.sampled_from(["==", "!="])), draw(st.integers(-2, 3)))
        for b in reified
    ]
    form = draw(st.sampled_from(["sum", "negated"]))
    items.append(("count", form, tuple(bs), t, draw(st.integers(-2, 2))))
    items += common_items(domains, [], omit=reified)
    return t + 1, reified, domains, shuffled(draw, items)


def build_bool_count(item, vs):
    if item[0] != "count":
        return build_value_reif(item, vs)
    _, form, bs, t, c = item
    terms = [vs[b] for b in bs]
    if form == "sum":
        goal = fd.sum(terms, "==", vs[t] + c)
    else:  # t - sum(bs) == c
        goal = fd.scalar_product([-1] * len(bs) + [1], [*terms, vs[t]], "==", c)
    return goal, lambda a: sum(a[b] for b in bs) == (a[t] + c if form == "sum" else a[t] - c)


@SETTINGS
@given(bool_count_models())
def test_counting_zero_one_variables_into_a_variable_equals_brute_force(model):
    n, reified, domains, items = model
    got, expected = solve(items, build_bool_count, n, candidates_of(domains, reified, (0, 1)))
    assert_same_answers(got, expected)


@st.composite
def distinct_sum_models(draw):
    """Sums over the members of a ``distinct`` or ``all_distinct`` group (:class:`DistinctSum`)."""
    n, domains, pins = draw(base_model(n_min=2, n_max=5, lo=-2, hi=4, max_size=5))
    group = draw(st.lists(st.integers(0, n - 1), min_size=2, max_size=n, unique=True))
    kind = draw(st.sampled_from(["distinct", "all_distinct"]))
    shift = draw(st.sampled_from([0, 0, 1, -2]))
    items = common_items(domains, pins) + [("group", kind, group, shift)]
    for _ in range(draw(st.integers(1, 2))):
        pool = draw(st.sampled_from([group, group, group, list(range(n))]))
        xs = draw(st.lists(st.sampled_from(pool), min_size=2, max_size=len(pool), unique=True))
        a = draw(st.sampled_from([1, 1, -1, 2, -3]))
        one = st.just([a] * len(xs))
        coefs = draw(
            st.one_of(
                one, one, one, st.lists(st.integers(-2, 2), min_size=len(xs), max_size=len(xs))
            )
        )
        items.append(("sum", xs, coefs, draw(st.sampled_from(OP_NAMES)), draw(st.integers(-8, 12))))
    return n, domains, shuffled(draw, items)


def build_distinct_sum(item, vs):
    if item[0] == "group":
        _, kind, group, shift = item
        goal = (fd.all_distinct if kind == "all_distinct" else fd.distinct)(
            [vs[i] + shift if shift else vs[i] for i in group]
        )
        return goal, lambda a: len({a[i] for i in group}) == len(group)
    _, xs, coefs, op, k = item
    goal = fd.scalar_product(coefs, [vs[i] for i in xs], op, k)
    return goal, lambda a: OPS[op](sum(c * a[i] for c, i in zip(coefs, xs)), k)


@SETTINGS
@given(distinct_sum_models())
def test_sums_over_distinct_variables_equal_brute_force(model):
    agrees_with_brute_force(model, build_distinct_sum)


@st.composite
def difference_models(draw):
    """``d == x - y`` and the like (:class:`UnitDifference`), beside a distinct group, holes and pins."""
    n, domains, pins = draw(base_model(n_min=3, n_max=5, lo=-2, hi=5, max_size=5))
    items = common_items(domains, pins)
    for _ in range(draw(st.integers(1, 3))):
        xs = draw(st.lists(st.integers(0, n - 1), min_size=3, max_size=3, unique=True))
        signs = draw(st.sampled_from([[1, -1, -1], [1, 1, -1], [-1, 1, -1], [-1, -1, 1]]))
        items.append(("sum", xs, signs, "==", draw(st.integers(-4, 4))))
    if draw(st.booleans()):
        group = draw(st.lists(st.integers(0, n - 1), min_size=2, max_size=n, unique=True))
        items.append(("group", draw(st.sampled_from(["distinct", "all_distinct"])), group, 0))
    return n, domains, shuffled(draw, items)


@SETTINGS
@given(difference_models())
def test_differences_of_three_terms_equal_brute_force(model):
    agrees_with_brute_force(model, build_distinct_sum)


@st.composite
def one_difference(draw):
    """Domains for ``x, y, z`` (one of them a single value), signs and a constant: ``sum +- t + k == 0``."""
    domains = [draw(st.sets(st.integers(-3, 6), min_size=1, max_size=6)) for _ in range(3)]
    pinned = draw(st.integers(0, 2))
    domains[pinned] = {draw(st.sampled_from(sorted(domains[pinned])))}
    signs = draw(st.sampled_from([[1, -1, -1], [1, 1, -1], [-1, 1, -1], [-1, -1, 1]]))
    return domains, signs, draw(st.integers(-4, 4))


@SETTINGS
@given(one_difference())
def test_a_difference_with_one_term_fixed_is_domain_consistent(case):
    """With one of its three terms fixed, :class:`UnitDifference` keeps exactly the supported values."""
    domains, signs, k = case
    vs = vars(3)
    goals = [fd.in_(v, fd.domain(*sorted(d))) for v, d in zip(vs, domains)]
    goals.append(sum((a * v for a, v in zip(signs, vs)), k) == 0)
    solutions = [
        t
        for t in itertools.product(*map(sorted, domains))
        if sum(a * x for a, x in zip(signs, t)) + k == 0
    ]
    res = run(0, tuple(vs), *goals, residual=True)
    if not solutions:
        assert res == ()
        return
    assert len(res) == 1
    assert residual_sets(res[0], 3) == [{t[p] for t in solutions} for p in range(3)]


@SETTINGS
@given(
    st.lists(st.sets(st.integers(-3, 6), min_size=1, max_size=6), min_size=3, max_size=3),
    st.sampled_from(["min", "max"]),
)
def test_min_and_max_keep_exactly_the_supported_values(domains, kind):
    """``z == max(x, y)`` (``min``) over bitsets keeps each value some solution has, no other."""
    x, y, z = vars(3)
    fn = fd.max_ if kind == "max" else fd.min_
    goals = [fd.in_(v, fd.domain(*sorted(d))) for v, d in zip((x, y, z), domains)]
    goals.append(z == fn(x, y))
    pick = max if kind == "max" else min
    solutions = [t for t in itertools.product(*map(sorted, domains)) if pick(t[0], t[1]) == t[2]]
    res = run(0, (x, y, z), *goals, residual=True)
    if not solutions:
        assert res == ()
        return
    assert len(res) == 1
    assert residual_sets(res[0], 3) == [{t[p] for t in solutions} for p in range(3)]


@st.composite
def bool_sum_models(draw, weighted=False):
    """Sums over 0/1 variables beside other relations: one coefficient (:class:`BoolSum`), or
    mixed ones (``weighted``: :class:`BoolLinear`, knapsack rows)."""
    n, domains, pins = draw(base_model(n_min=2, n_max=6, lo=0, hi=1, max_size=2))
    items = []
    for _ in range(draw(st.integers(1, 3))):
        xs = draw(st.lists(st.integers(0, n - 1), min_size=2, max_size=n, unique=True))
        if weighted:
            coefs, k = [draw(st.integers(-5, 7).filter(bool)) for _ in xs], st.integers(-8, 12)
        else:
            coefs, k = [draw(st.sampled_from([1, 1, 1, -1, 2, -3]))] * len(xs), st.integers(-4, 7)
        items.append(("sum", xs, coefs, draw(st.sampled_from(OP_NAMES)), draw(k)))
    if draw(st.booleans()):  # domains first (a sum over variables without one is a Linear)
        return (
            n,
            domains,
            common_items(domains, []) + shuffled(draw, items + common_items([], pins)),
        )
    return n, domains, shuffled(draw, items + common_items(domains, pins))


@SETTINGS
@given(bool_sum_models())
def test_sums_of_0_1_variables_equal_brute_force(model):
    agrees_with_brute_force(model, build_distinct_sum)


@SETTINGS
@given(bool_sum_models(weighted=True))
def test_weighted_sums_of_0_1_variables_equal_brute_force(model):
    agrees_with_brute_force(model, build_distinct_sum)


@st.composite
def watched_bool_sum_models(draw):
    """Overlapping counts over 0/1 variables (exactly/at most/at least ``k`` of them, or not all)."""
    n = draw(st.integers(3, 7))
    lines = []
    for _ in range(draw(st.integers(2, 5))):
        xs = draw(st.lists(st.integers(0, n - 1), min_size=2, max_size=n, unique=True))
        op, k = draw(
            st.sampled_from([("==", 1), ("<=", 1), (">=", 1), ("<=", len(xs) - 1), ("==", 2)])
        )
        lines.append((xs, op, k))
    orders = [draw(st.permutations(range(n))) for _ in range(2)]
    values = [draw(st.sampled_from(["up", "down"])) for _ in range(2)]
    return n, lines, orders, values


@SETTINGS
@given(watched_bool_sum_models())
def test_watched_counts_in_interleaved_searches_equal_brute_force(model):
    """Two labelings in different orders, interleaved by ``conde``, share the counts (and their watches)."""
    n, lines, orders, values = model
    b = vars(n)
    sums = [fd.sum([b[i] for i in xs], op, k) for xs, op, k in lines]
    searches = [
        [fd.label([b[i] for i in order], order=value)] for order, value in zip(orders, values)
    ]
    got = run(0, tuple(b), fd.in_(*b, fd.interval(0, 1)), *sums, conde(*searches))
    expected = [
        a
        for a in itertools.product((0, 1), repeat=n)
        if all(OPS[op](sum(a[i] for i in xs), k) for xs, op, k in lines)
    ]
    assert Counter(got) == Counter(expected * 2)


# -- shared random models for labeling, optimisation and limits ---------------------------


@st.composite
def plain_models(draw, n_min=2, n_max=4):
    """Domains, pins and a few linear, abs and distinct constraints."""
    n, domains, pins = draw(base_model(n_min=n_min, n_max=n_max, lo=-3, hi=3, max_size=5))
    idx = st.integers(0, n - 1)
    constraint = st.one_of(
        st.tuples(st.just("rel"), idx, st.sampled_from(OP_NAMES), idx, st.integers(-2, 2)),
        st.tuples(
            st.just("lin"),
            st.lists(st.tuples(st.integers(-3, 3), idx), min_size=1, max_size=3),
            st.sampled_from(OP_NAMES),
            st.integers(-6, 6),
        ),
        st.tuples(st.just("absd"), idx, idx, st.sampled_from(OP_NAMES), st.integers(0, 4)),
        st.tuples(st.just("distinct"), st.lists(idx, min_size=2, max_size=3, unique=True)),
    )
    constraints = draw(st.lists(constraint, max_size=3))
    return n, domains, pins, constraints


def build_plain(item, vs):
    kind = item[0]
    if kind == "rel":
        _, i, op, j, c = item
        return RELATE[op](vs[i], vs[j] + c), lambda a: OPS[op](a[i], a[j] + c)
    if kind == "lin":
        _, pairs, op, k = item
        goal = OPS[op](fd.dot([c for c, _ in pairs], [vs[i] for _, i in pairs]), k)
        return goal, lambda a: OPS[op](sum(c * a[i] for c, i in pairs), k)
    if kind == "absd":
        _, i, j, op, k = item
        return OPS[op](abs(vs[i] - vs[j]), k), lambda a: OPS[op](abs(a[i] - a[j]), k)
    _, xs = item
    return fd.distinct([vs[i] for i in xs]), lambda a: len({a[i] for i in xs}) == len(xs)


def place_after_domains(draw, items, goal_item):
    """``items`` with ``goal_item`` inserted at a random place after the last ``in`` item."""
    last_in = max((k for k, it in enumerate(items) if it[0] == "in"), default=-1)
    at = draw(st.integers(last_in + 1, len(items)))
    return items[:at] + [goal_item] + items[at:]


# -- 9. optimisation -------------------------------------------------------------------------


@st.composite
def optimisation_models(draw):
    n, domains, pins, constraints = draw(plain_models(n_min=2, n_max=3))
    objective = draw(expressions(n, division=False))
    sense = draw(st.sampled_from(["minimize", "maximize"]))
    label_vars = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n, unique=True))
    shorthand = draw(st.booleans())
    select = draw(st.sampled_from(["leftmost", "ff"]))
    items = shuffled(draw, common_items(domains, pins) + constraints)
    items = place_after_domains(
        draw, items, ("label", label_vars, sense, objective, shorthand, select)
    )
    return n, domains, items, objective, sense


def build_optimise(item, vs):
    if item[0] != "label":
        return build_plain(item, vs)
    _, label_vars, sense, objective, shorthand, select = item
    xs = [vs[i] for i in label_vars]
    obj = expr_term(objective, vs)
    if isinstance(obj, int):
        obj = fd.lin(obj)
    if shorthand:
        goal = (fd.minimize if sense == "minimize" else fd.maximize)(obj, xs, select=select)
    else:
        goal = fd.label(xs, select=select, **{sense: obj})
    return goal, lambda a: True


@SETTINGS
@given(optimisation_models())
def test_optimisation_answers_come_best_first(model):
    n, domains, items, objective, sense = model
    got, expected = solve(items, build_optimise, n, candidates_of(domains))
    assert_same_answers(got, expected)
    values = [expr_value(objective, a) for a in got]
    ordered = sorted(values) if sense == "minimize" else sorted(values, reverse=True)
    assert values == ordered, f"objective values in answer order: {values}"

    vs = vars(n)
    first = run(1, tuple(vs), *goals_of(items, build_optimise, vs))
    if not expected:
        assert first == ()
    else:
        best = (min if sense == "minimize" else max)(expr_value(objective, a) for a in expected)
        assert len(first) == 1 and first[0] in set(expected)
        assert expr_value(objective, first[0]) == best


def test_minimize_shorthand_and_label_agree():
    x, y, z = vars(3)
    goals = (fd.in_(x, y, z, fd.interval(-2, 3)), x + y + z == 2, fd.ne(x, y))
    a = run(0, (x, y, z), *goals, fd.minimize(abs(x - z) * 3 + y, [x, y, z]))
    b = run(0, (x, y, z), *goals, fd.label([x, y, z], minimize=abs(x - z) * 3 + y))
    assert a == b
    assert [abs(p - r) * 3 + q for p, q, r in a] == sorted(abs(p - r) * 3 + q for p, q, r in a)
    assert len(a) == len(
        [t for t in itertools.product(range(-2, 4), repeat=3) if sum(t) == 2 and t[0] != t[1]]
    )


# -- 10. branching strategies ----------------------------------------------------------------


@st.composite
def branching_models(draw):
    n, domains, pins, constraints = draw(plain_models())
    select = draw(st.sampled_from(["leftmost", "ff", "ffc", "min", "max"]))
    branching = draw(st.sampled_from(["enum", "step", "bisect"]))
    order = draw(st.sampled_from(["up", "down"] + ["mid"] * (branching != "bisect")))
    label_vars = draw(
        st.one_of(
            st.just(list(range(n))),
            st.lists(st.integers(0, n - 1), min_size=1, max_size=n, unique=True),
        )
    )
    items = shuffled(draw, common_items(domains, pins) + constraints)
    items = place_after_domains(draw, items, ("label", label_vars, select, order, branching))
    return n, domains, items, (select, order, branching, label_vars)


def build_branching(item, vs):
    if item[0] != "label":
        return build_plain(item, vs)
    _, label_vars, select, order, branching = item
    return (
        fd.label([vs[i] for i in label_vars], select=select, order=order, branching=branching),
        lambda a: True,
    )


@SETTINGS
@given(branching_models())
def test_branching_strategies_equal_brute_force(model):
    n, domains, items, (select, order, _branching, label_vars) = model
    got, expected = solve(items, build_branching, n, candidates_of(domains))
    assert_same_answers(got, expected)
    if select == "leftmost" and label_vars == list(range(n)) and order != "mid":
        # leftmost over the query's variables in order: values ascending (up) or descending (down)
        assert list(got) == sorted(got, reverse=order == "down")


# -- 11. limits ---------------------------------------------------------------------------------


@st.composite
def limit_models(draw):
    n, domains, pins, constraints = draw(plain_models())
    items = shuffled(draw, common_items(domains, pins) + constraints)
    labeling = draw(
        st.one_of(
            st.none(),
            st.tuples(
                st.just("label"),
                st.sampled_from(["leftmost", "ff"]),
                st.sampled_from(["enum", "step", "bisect"]),
            ),
            st.tuples(
                st.just("minimize"),
                st.lists(
                    st.tuples(st.integers(-2, 2), st.integers(0, n - 1)), min_size=1, max_size=3
                ),
            ),
        )
    )
    if labeling is not None:
        items = place_after_domains(draw, items, labeling)
    return n, domains, items, draw(st.integers(1, 60))


def build_limited(item, vs):
    if item[0] == "label":
        _, select, branching = item
        return fd.label(vs, select=select, branching=branching), lambda a: True
    if item[0] == "minimize":
        _, pairs = item
        return (
            fd.minimize(fd.dot([c for c, _ in pairs], [vs[i] for _, i in pairs]), vs),
            lambda a: True,
        )
    return build_plain(item, vs)


@SETTINGS
@given(limit_models())
def test_node_limit_gives_all_answers_or_a_subset(model):
    n, domains, items, max_nodes = model
    got_all, expected = solve(items, build_limited, n, candidates_of(domains))
    assert_same_answers(got_all, expected)
    vs = vars(n)
    goals = goals_of(items, build_limited, vs)
    try:
        got = run(0, tuple(vs), *goals, max_nodes=max_nodes)
    except SearchLimit as e:
        assert "node" in e.reason and str(max_nodes) in e.reason, e.reason
        assert len(e.answers) == len(set(e.answers))
        assert set(e.answers) <= set(expected)
        # the same search, stopped early: what it found is the start of the full answer sequence
        assert list(e.answers) == list(got_all[: len(e.answers)])
        # an optimisation stopped before its optimum gives the best it had: a solution
        if e.best is not None:
            assert any(item[0] == "minimize" for item in items) and not e.answers
            assert e.best in set(expected)
    else:
        assert_same_answers(got, expected)
    # a budget that is never reached changes nothing
    assert run(0, tuple(vs), *goals, max_nodes=10**7) == got_all


# -- fixed puzzles with known answers --------------------------------------------------------


def test_send_more_money_is_unique():
    letters = s, e, n, d, m, o, r, y = vars(8)
    got = run(
        0,
        tuple(letters),
        fd.in_(*letters, fd.interval(0, 9)),
        fd.all_distinct(letters),
        s > 0,
        m > 0,
        fd.scalar_product(
            [1000, 100, 10, 1, 1000, 100, 10, 1, -10000, -1000, -100, -10, -1],
            [s, e, n, d, m, o, r, e, m, o, n, e, y],
            "==",
            0,
        ),
    )
    assert got == ((9, 5, 6, 7, 1, 0, 8, 2),)


def magic_square_goals(cells, k):
    total = k * (k * k + 1) // 2
    rows = [cells[i * k : (i + 1) * k] for i in range(k)]
    goals = [fd.in_(*cells, fd.interval(1, k * k)), fd.all_distinct(cells)]
    goals += [fd.sum(row, "==", total) for row in rows]
    goals += [fd.sum(col, "==", total) for col in zip(*rows)]
    goals += [
        fd.sum([rows[i][i] for i in range(k)], "==", total),
        fd.sum([rows[i][k - 1 - i] for i in range(k)], "==", total),
    ]
    return goals


def test_magic_square_3x3_has_8_solutions():
    cells = vars(9)
    got = run(0, tuple(cells), *magic_square_goals(cells, 3), fd.label(cells, select="ff"))
    assert len(got) == 8 == len(set(got))
    for sq in got:
        rows = [sq[0:3], sq[3:6], sq[6:9]]
        assert sorted(sq) == list(range(1, 10))
        assert all(sum(r) == 15 for r in rows) and all(sum(c) == 15 for c in zip(*rows))
        assert sq[0] + sq[4] + sq[8] == 15 == sq[2] + sq[4] + sq[6]


def test_langford_2_4_has_two_solutions_mirror_images():
    first = vars(
        4
    )  # first[k - 1]: where the first k stands (0-based); the second k stands k + 1 places on
    second = vars(4)
    goals = [fd.in_(*first, *second, fd.interval(0, 7)), fd.all_distinct(first + second)]
    goals += [fd.eq(second[k - 1], first[k - 1] + k + 1) for k in range(1, 5)]
    got = run(0, tuple(first + second), *goals)
    sequences = set()
    for a in got:
        seq = [0] * 8
        for k in range(1, 5):
            seq[a[k - 1]] = seq[a[k + 3]] = k
        sequences.add(tuple(seq))
    assert len(got) == 2
    assert sequences == {(4, 1, 3, 1, 2, 4, 3, 2), (2, 3, 4, 2, 1, 3, 1, 4)}


def all_interval(n, difference):
    """An all-interval series of ``n``: its variables and goals, ``difference(a, b, d)`` the
    relation of two neighbours and their distance."""
    xs, ds = vars(n), vars(n - 1)
    goals = [
        fd.in_(*xs, fd.interval(0, n - 1)),
        fd.in_(*ds, fd.interval(1, n - 1)),
        fd.all_distinct(xs),
        fd.all_distinct(ds),
    ]
    return xs, goals + [difference(a, b, d) for a, b, d in zip(xs, xs[1:], ds)]


def test_all_interval_series_6():
    n = 6
    xs, goals = all_interval(n, lambda a, b, d: fd.eq(d, abs(b - a)))
    got = run(0, tuple(xs), *goals)
    expected = [
        p
        for p in itertools.permutations(range(n))
        if len({abs(p[i + 1] - p[i]) for i in range(n - 1)}) == n - 1
    ]
    assert len(expected) == 24
    assert_same_answers(got, expected)


def test_knapsack_maximise():
    weights, values, capacity = [3, 4, 5, 9, 4], [3, 4, 4, 10, 4], 13
    take = vars(5)
    goals = [fd.in_(*take, fd.interval(0, 2)), fd.scalar_product(weights, take, "<=", capacity)]
    worth = fd.dot(values, take)
    best = max(
        sum(v * t for v, t in zip(values, ts))
        for ts in itertools.product(range(3), repeat=5)
        if sum(w * t for w, t in zip(weights, ts)) <= capacity
    )
    (found,) = run(1, tuple(take), *goals, fd.label(take, maximize=worth))
    assert sum(w * t for w, t in zip(weights, found)) <= capacity
    assert sum(v * t for v, t in zip(values, found)) == best
    (again,) = run(1, tuple(take), *goals, fd.maximize(worth, take, select="ff"))
    assert sum(v * t for v, t in zip(values, again)) == best


def test_tsp_4_nodes_circuit_element_minimise():
    cost = [[0, 3, 9, 4], [2, 0, 6, 8], [7, 5, 0, 1], [6, 9, 3, 0]]
    succ, legs = vars(4), vars(4)
    goals = [fd.circuit(succ), fd.in_(*legs, fd.interval(0, 9))]
    goals += [fd.element(succ[i], cost[i], legs[i]) for i in range(4)]
    tours = {}
    for perm in itertools.permutations(range(1, 4)):
        order = (0, *perm)
        s = [0] * 4
        for a, b in zip(order, order[1:] + (0,)):
            s[a] = b
        tours[tuple(s)] = sum(cost[i][s[i]] for i in range(4))
    best = min(tours.values())
    objective = legs[0] + legs[1] + legs[2] + legs[3]
    (first,) = run(1, tuple(succ), *goals, fd.label(succ, minimize=objective))
    assert tours[first] == best
    everything = run(0, tuple(succ), *goals, fd.minimize(objective, succ))
    assert_same_answers(everything, list(tours))
    assert [tours[s] for s in everything] == sorted(tours.values())


# -- regressions found by the properties above (minimal forms) -------------------------------


def test_element_whose_index_is_also_the_value():
    x, y = vars(2)
    # element(x, [x, -1], x): x = 0 picks xs[0] = x = 0; x = 1 would pick -1
    assert run(0, x, fd.in_(x, fd.domain(0, 1)), fd.element(x, [x, -1], x)) == (0,)
    # element(y, [x, y], y) with x = 2: only y = 1 (picks y itself)
    got = run(
        0, (x, y), fd.in_(x, fd.domain(2)), fd.in_(y, fd.domain(0, 1)), fd.element(y, [x, y], y)
    )
    assert got == ((2, 1),)


def test_tuples_in_with_a_variable_twice_in_one_tuple():
    x = vars(1)[0]
    table = [(0, 1), (2, 0), (2, 2)]  # (x, x) matches only (2, 2)
    assert run(0, x, fd.tuples_in([(x, x)], table)) == (2,)
    assert run(0, x, fd.tuples_in([(x, x)], table), fd.in_(x, fd.interval(0, 2))) == (2,)
    assert run(0, x, fd.in_(x, fd.interval(0, 2)), fd.tuples_in([(x, x)], table)) == (2,)


def test_a_salesman_s_legs_by_tuples_in_are_elements_its_bounds_read():
    """Legs stated as ``tuples_in([[succ_i, leg_i]], [[j, d_ij], ...])`` (each ``j`` once) are
    ``element``s, whose assignment and 1-tree bounds prove the optimum as fast: 10 cities
    within 100 nodes (3,000 as tables)."""
    import random

    r = random.Random(3)
    points = [(r.randint(0, 100), r.randint(0, 100)) for _ in range(10)]
    d = [[abs(a[0] - b[0]) + abs(a[1] - b[1]) for b in points] for a in points]
    optima = []
    for legs_by in ("element", "tuples_in"):
        succ, legs, total = vars(10), vars(10), vars(1)[0]
        goals = [fd.in_(*succ, fd.interval(0, 9)), fd.in_(*legs, fd.interval(0, 200))]
        goals += [fd.in_(total, fd.interval(0, 2000)), fd.circuit(succ)]
        if legs_by == "element":
            goals += [fd.element(s, row, leg) for s, row, leg in zip(succ, d, legs)]
        else:
            goals += [
                fd.tuples_in([[s, leg]], [[j, d[i][j]] for j in range(10) if j != i])
                for i, (s, leg) in enumerate(zip(succ, legs))
            ]
        goals += [fd.sum(legs, "==", total), fd.label(succ, minimize=total)]
        optima.append(run(1, total, *goals, max_nodes=100))
    assert optima[0] == optima[1] == (290,)


def test_constraints_posted_after_an_optimising_label():
    x, y = vars(2)
    # the label goal comes first; a relation with a hidden variable (abs) is posted in each answer
    dom = fd.in_(x, y, fd.domain(0, 1))
    got = run(0, (x, y), dom, fd.label([x], minimize=fd.min_(x, y)), fd.eq(abs(x - y), 0))
    assert got == ((0, 0), (1, 1))
    dom = fd.in_(x, y, fd.interval(0, 2))
    got = run(0, (x, y), dom, fd.ne(x, y), fd.label([x], minimize=x), fd.eq(abs(x - y), 1))
    assert_same_answers(got, [(0, 1), (1, 0), (1, 2), (2, 1)])
    assert [a for a, _ in got] == [0, 1, 1, 2]


def test_a_factor_zero_does_not_hide_a_division_by_zero():
    # "a divisor 0 has no solution": 0 * (x % y) has no value when y = 0, like (x % y) - (x % y)
    x, y = vars(2)
    dom = fd.in_(x, y, fd.interval(-1, 1))
    expected = tuple((a, b) for a in range(-1, 2) for b in range(-1, 2) if b)
    assert run(0, (x, y), dom, fd.eq((x % y) - (x % y), 0)) == expected
    assert run(0, (x, y), dom, fd.eq(0 * (x % y), 0)) == expected


def test_a_labeling_whose_whole_tree_fits_its_first_search_searches_it_once():
    """All of SEND+MORE stated by pairwise ``!=``: the first search, without the implied group
    of eight, ends within its nodes, so the labeling does not search again with the group."""
    letters = vars(8)  # S E N D M O R Y
    goals = [fd.in_(*letters, fd.interval(0, 9)), letters[0] >= 1, letters[4] >= 1]
    goals += [fd.ne(a, b) for a, b in itertools.combinations(letters, 2)]
    goals.append(fd.scalar_product([1000, 91, -90, 1, -9000, -900, 10, -1], letters, "==", 0))
    with mock.patch.object(labeling, "search", wraps=labeling.search) as searches:
        assert run(0, tuple(letters), *goals, fd.label(letters)) == ((9, 5, 6, 7, 1, 0, 8, 2),)
    assert searches.call_count == 1


@pytest.mark.parametrize("allowance", [0, 50, 10**6])
def test_ten_pigeons_edge_by_edge_are_refuted_by_the_implied_group_after_the_first_search(
    allowance,
):
    """The first search without the implied groups spends at most its nodes; then the clique of
    ten ``!=`` over nine values is a pigeonhole, refuted at once (value elimination alone
    would search 9! ways)."""
    xs = vars(10)
    goals = [fd.in_(*xs, fd.interval(1, 9))]
    goals += [fd.ne(a, b) for a, b in itertools.combinations(xs, 2)]
    with mock.patch.object(Label, "ALONE", min(allowance - 40, Label.ALONE)):
        assert run(0, tuple(xs), *goals, fd.label(xs, select="ff"), max_nodes=3000) == ()
