"""Answers read straight from a labeling's domains against answers reified from its substitution."""

import itertools

import kanren
import pytest
from cons import cons
from cons.core import ConsPair
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from relqueens import conde, eq, fd, neq, relation, run, run_all, succeed, tabled, var, vars
from relqueens.fd import interval
from relqueens.fd.labeling import SolvedState
from relqueens.logic import isvar


@relation
def later():
    """Succeeds after a relation call, which suspends its branch: other work runs first."""
    return succeed


def test_a_solution_read_late_keeps_the_substitution_it_was_found_in():
    """The other branch, run while a labeling's solutions wait, does not bind their variables."""
    x, z = vars(2)
    found = run_all([x, z], fd.in_(x, interval(0, 1)), conde([fd.label([x]), later()], [eq(z, 1)]))
    assert found[:2] == ([0, 1], [1, 1])
    assert [a[0] for a in found[2:]] == [0, 1] and all(isvar(a[1]) for a in found[2:])


@tabled
def labeled_or_seven(a, b):
    """``a`` in 0..2, labeled (and ``b`` left free), or ``b`` is 7."""
    return conde([fd.in_(a, interval(0, 2)), conde([fd.label([a]), later()], [eq(b, 7)])])


def test_a_tabled_relation_s_labeled_answers_keep_their_substitution():
    x, y = vars(2)
    found = run_all([x, y], labeled_or_seven(x, y))
    assert sorted(a for a, b in found if b == 7) == [0, 1, 2]
    assert sorted(a for a, b in found if isvar(b)) == [0, 1, 2] and len(found) == 6


# -- random queries: answers read from the domains == answers reified == brute force -----------


WIDE = fd.interval(-(10**12), 10**12)
CONSTANTS = [0, 7, "s"]
SHAPES = ["list", "tuple", "single", "nested", "cons", "dict"]


@st.composite
def queries(draw):
    """A labeling query: domains (some Wide, bounded after), constraints and bindings before the
    labeling, the labeling (of some variables, maybe optimising, maybe followed by a second one
    for the rest), goals after it, a query term of some shape; maybe all of it after the
    labeling in one branch of a ``conde`` whose other branch binds a variable of the query.

    Half the queries are plain, as the answers read from the domains need: the labeling
    complete, no other kanren store, no goal after it but a relation call, a flat term.
    """
    plain = draw(st.booleans())
    n = draw(st.integers(2, 4))
    idx = st.integers(0, n - 1)
    domains = [
        (lo, lo + draw(st.integers(plain, 2)), draw(st.sampled_from([False, False, True])))
        for lo in draw(st.lists(st.integers(-2, 1), min_size=n, max_size=n))
    ]
    before = st.one_of(
        st.tuples(st.just("lt"), idx, idx),
        st.tuples(st.just("ne"), idx, idx, st.integers(-1, 1)),
        st.tuples(st.just("alias"), idx, idx),
        st.tuples(st.just("pin"), idx, st.integers(-2, 3)),
        *[] if plain else [st.tuples(st.just("neq"), idx, st.integers(-2, 3))],
    )
    after = st.one_of(
        st.tuples(st.just("lt"), idx, idx),
        st.tuples(st.just("neq"), idx, st.integers(-2, 3)),
        st.tuples(st.just("eq"), idx, idx),
        st.tuples(st.just("conde"), idx, st.integers(-2, 1), st.integers(2, 3)),
        st.tuples(st.just("membero"), idx, st.sets(st.integers(-2, 3), max_size=3)),
        st.tuples(st.just("call")),
    )
    order = draw(st.permutations(range(n)))
    labeling = {
        "labeled": order if plain else order[: draw(st.integers(1, n))],
        "second": not plain and draw(st.booleans()),
        "select": draw(st.sampled_from(["leftmost", "ff", "min", "max"])),
        "branching": (branching := draw(st.sampled_from(["enum", "step", "bisect"]))),
        "order": draw(st.sampled_from(["up", "down"] + ["mid"] * (branching != "bisect"))),
        "objective": draw(
            st.one_of(st.none(), st.tuples(st.sampled_from(["minimize", "maximize"]), idx, idx))
        ),
    }
    variable = idx.map(lambda i: ("v", i))
    constant = st.sampled_from(CONSTANTS).map(lambda c: ("c", c))
    others = st.one_of(st.sampled_from([None, 2.5, True]).map(lambda c: ("c", c)), st.just(("w",)))
    item = (
        st.one_of(variable, variable, constant) if plain else st.one_of(variable, constant, others)
    )
    return (
        n,
        domains,
        draw(st.lists(before, max_size=3)),
        labeling,
        draw(st.lists(st.just(("call",)), max_size=1) if plain else st.lists(after, max_size=2)),
        used(
            draw(st.lists(item, min_size=1, max_size=4)),
            draw(st.sampled_from(["list", "tuple", "single"] if plain else SHAPES)),
        ),
        not plain and draw(st.booleans()),  # in a conde branch
        draw(st.booleans()),  # run lazily
    )


def used(items, shape):
    """``(items, shape)`` with only the items a term of that shape holds."""
    return (
        items[:1] if shape == "single" else [items[0], items[-1]] if shape == "cons" else items
    ), shape


def term(items, shape, value):
    """The query term: ``items`` (through ``value``) in ``shape``."""
    vals = [value(it) for it in items]
    if shape == "single":
        return vals[0]
    if shape == "nested":
        return [vals[0], vals[1:]]
    if shape == "cons":
        return cons(*vals)
    if shape == "dict":
        return dict(enumerate(vals))
    return vals if shape == "list" else tuple(vals)


def canonical(t):
    """An answer with its variables as ``"_"`` and its containers tagged, to compare and sort."""
    if isvar(t):
        return "_"
    if isinstance(t, (list, tuple)):
        return (type(t).__name__, *map(canonical, t))
    if isinstance(t, ConsPair):
        return ("cons", canonical(t.car), canonical(t.cdr))
    if isinstance(t, dict):
        return ("dict", *((k, canonical(v)) for k, v in sorted(t.items())))
    return repr(t)


def build(query):
    """The query's term and goals, and what brute force needs: the checks of the common part
    and of the labeling branch, the indices whose values tell answers apart, the objective."""
    n, domains, before, labeling, after, (items, shape), in_branch, _ = query
    xs, w, z = vars(n), var(), var()
    common, checks, extra = [], [], []
    for i, (lo, hi, wide) in enumerate(domains):
        common += [fd.in_(xs[i], WIDE), xs[i] >= lo, xs[i] <= hi] if wide else []
        common += [] if wide else [fd.in_(xs[i], interval(lo, hi))]
    for kind, i, *rest in before:
        if kind == "lt":
            common.append(xs[i] < xs[rest[0]])
            checks.append(lambda a, i=i, j=rest[0]: a[i] < a[j])
        elif kind == "ne":
            common.append(fd.ne(xs[i], xs[rest[0]] + rest[1]))
            checks.append(lambda a, i=i, j=rest[0], c=rest[1]: a[i] != a[j] + c)
        elif kind == "alias":
            common.append(eq(xs[i], xs[rest[0]]))
            checks.append(lambda a, i=i, j=rest[0]: a[i] == a[j])
        else:
            common.append((eq if kind == "pin" else neq)(xs[i], rest[0]))
            checks.append(lambda a, i=i, c=rest[0], k=kind: (a[i] == c) == (k == "pin"))
    labeled, objective = labeling["labeled"], labeling["objective"]
    options = {k: labeling[k] for k in ("select", "order", "branching")}
    if objective is not None:
        options[objective[0]] = xs[objective[1]] + 2 * xs[objective[2]]
    branch = [fd.label([xs[i] for i in labeled], **options)]
    known = set(labeled)
    if labeling["second"]:
        branch.append(fd.label(xs[::-1]))
        known = set(range(n))
    for kind, *rest in after:
        if kind == "lt":
            branch.append(xs[rest[0]] < xs[rest[1]])
            extra.append(lambda a, i=rest[0], j=rest[1]: a[i] < a[j])
        elif kind == "neq":
            branch.append(neq(xs[rest[0]], rest[1]))
            extra.append(lambda a, i=rest[0], c=rest[1]: a[i] != c)
        elif kind == "eq":
            branch.append(eq(xs[rest[0]], xs[rest[1]]))
            extra.append(lambda a, i=rest[0], j=rest[1]: a[i] == a[j])
        elif kind == "conde":  # the branch taken is told by the value
            i, c1, c2 = rest
            branch.append(conde([eq(xs[i], c1)], [eq(xs[i], c2)]))
            extra.append(lambda a, i=i, c1=c1, c2=c2: a[i] in (c1, c2))
            known.add(i)
        elif kind == "membero":
            i, values = rest
            branch.append(kanren.membero(xs[i], sorted(values)))
            extra.append(lambda a, i=i, values=values: a[i] in values)
            known.add(i)
        else:
            branch.append(later())
    value = {"v": lambda it: xs[it[1]], "c": lambda it: it[1], "w": lambda it: w}
    q = term(items, shape, lambda it: value[it[0]](it))
    known.update(it[1] for it in items if it[0] == "v")
    if in_branch:
        q = [q, z]
        goals = [*common, conde([*branch, later()], [eq(z, 1)])]
    else:
        goals = [*common, *branch]
    return q, goals, checks, extra, sorted(known), objective


def brute_force(query, checks, extra, known, objective):
    """The answers, canonical and sorted: each way the known values can be, with a solution."""
    _, domains, _, _, _, (items, shape), in_branch, _ = query
    solutions = [
        a
        for a in itertools.product(*(range(lo, hi + 1) for lo, hi, _ in domains))
        if all(c(a) for c in checks)
    ]

    def answer(a, z):
        value = {"v": lambda it: a[it[1]], "c": lambda it: it[1], "w": lambda it: var()}
        t = term(items, shape, lambda it: value[it[0]](it))
        return canonical([t, z] if in_branch else t)

    def told(a):
        key = tuple(a[i] for i in known)
        return key if objective is None else (*key, a[objective[1]] + 2 * a[objective[2]])

    found = {told(a): a for a in solutions if all(c(a) for c in extra)}
    answers = [answer(a, var()) for a in found.values()]
    if in_branch:
        shown = [it[1] for it in items if it[0] == "v"]
        answers += [
            answer(a, 1) for a in {tuple(a[i] for i in shown): a for a in solutions}.values()
        ]
    return sorted(answers, key=repr)


def answers_of(query, q, goals):
    found = run(None, q, *goals) if query[-1] else run(0, q, *goals)
    return [canonical(a) for a in found]


@settings(
    max_examples=400, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(queries())
def test_answers_read_from_the_domains_equal_reified_and_brute_force_answers(query):
    q, goals, checks, extra, known, objective = build(query)
    fast = answers_of(query, q, goals)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(SolvedState, "answer", lambda self, q: (False, None))
        slow = answers_of(query, q, goals)
    assert fast == slow
    assert sorted(fast, key=repr) == brute_force(query, checks, extra, known, objective)
