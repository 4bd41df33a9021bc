"""Conjunctions, and implications of them, posted part by part: checked by brute force."""

import itertools
import operator

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fd_property import assert_same_answers, run, shuffled

from relqueens import fd, vars
from relqueens.fd.post import post_into
from relqueens.fd.store import store_of
from relqueens.logic.state import State

EXAMPLES = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

OPS = {"<": operator.lt, "<=": operator.le, "==": operator.eq, "!=": operator.ne}


@st.composite
def atoms(draw, n):
    """``x_i op x_j + c`` or ``x_i op c``, as (relation builder, check)."""
    i, j = draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))
    op, c = draw(st.sampled_from(sorted(OPS))), draw(st.integers(-1, 3))
    against = draw(st.booleans()) and i != j

    def build(vs):
        rhs = vs[j] + c if against else c
        return (
            fd.eq(vs[i], rhs)
            if op == "=="
            else fd.ne(vs[i], rhs)
            if op == "!="
            else (vs[i] < rhs if op == "<" else vs[i] <= rhs)
        )

    return build, lambda p: OPS[op](p[i], p[j] + c if against else c)


@st.composite
def formulas(draw, n):
    """A conjunction of two or three atoms (perhaps nested), an implication of one, an
    equivalence with one, or one among alternatives: (builder, check)."""
    parts = draw(st.lists(atoms(n), min_size=2, max_size=3))
    nested = draw(st.booleans())

    def conjunction(vs):
        rels = [b(vs) for b, _ in parts]
        if nested and len(rels) == 3:
            return rels[0] & (rels[1] & rels[2])
        out = rels[0]
        for r in rels[1:]:
            out = out & r
        return out

    def holds(p):
        return all(c(p) for _, c in parts)

    premise_build, premise = draw(atoms(n))
    shape = draw(st.sampled_from(["and", "implies", "iff", "any", "count"]))
    if shape == "and":
        return conjunction, holds
    if shape == "count":  # a count of the parts, the conjunction's form but for its total
        total = draw(st.integers(0, len(parts)))
        return (lambda vs: sum(b(vs) for b, _ in parts) == total), (
            lambda p: sum(c(p) for _, c in parts) == total
        )
    if shape == "implies":
        return (lambda vs: fd.implies(premise_build(vs), conjunction(vs))), (
            lambda p: not premise(p) or holds(p)
        )
    if shape == "iff":
        return (lambda vs: fd.iff(premise_build(vs), conjunction(vs))), (
            lambda p: premise(p) == holds(p)
        )
    return (lambda vs: fd.any_(premise_build(vs), conjunction(vs))), (
        lambda p: premise(p) or holds(p)
    )


@st.composite
def models(draw):
    n = draw(st.integers(2, 4))
    domains = [draw(st.sets(st.integers(0, 3), min_size=1, max_size=4)) for _ in range(n)]
    return n, domains, draw(st.lists(formulas(n), min_size=1, max_size=3))


@EXAMPLES
@given(models(), st.data())
def test_conjunctions_and_their_implications_answer_as_brute_force(model, data):
    """Every answer, once, in any goal order, with or without a labeling."""
    n, domains, formulas_ = model
    vs = vars(n)
    items = [(fd.in_(v, fd.domain(*d)), lambda p: True) for v, d in zip(vs, domains)]
    items += [(build(vs), check) for build, check in formulas_]
    goals = [g for g, _ in shuffled(data.draw, items)]
    if data.draw(st.booleans()):
        goals.append(fd.label(list(vs), select=data.draw(st.sampled_from(["leftmost", "ff"]))))
    got = run(0, tuple(vs), *goals)
    expected = [
        p
        for p in itertools.product(*(sorted(d) for d in domains))
        if all(check(p) for _, check in items)
    ]
    assert_same_answers(got, expected)


def test_an_implied_conjunction_posts_no_term_for_the_conjunction():
    """``p == 0`` implies three cells: a clause for each, no sum standing for the
    conjunction and no 0/1 flag for any test."""
    p, x, y, z = vars(4)
    S = State()
    rel = fd.implies(fd.eq(p, 0), fd.eq(x, 1) & fd.eq(y, 1) & fd.eq(z, 1))
    assert post_into(S, [fd.in_(p, x, y, z, fd.interval(0, 3)), rel])
    model = store_of(S).current()
    assert {kind.__name__: len(ps) for kind, ps in model.by_type.items()} == {"ValueImplication": 3}


def test_flags_negations_and_reifications_of_conjunctions_answer_as_brute_force():
    """A 0/1 flag as premise and as conjunct, a negated conjunction, a reified one: none is
    split but where it is a conjunction or an implication of one, and all answer right."""
    b, x, y, r = vars(4)
    dom = [fd.in_(b, r, fd.interval(0, 1)), fd.in_(x, y, fd.interval(0, 2))]
    cases = [
        (fd.implies(b, fd.eq(x, 1) & fd.eq(y, 2)), lambda b, x, y, r: not b or (x == 1 and y == 2)),
        (fd.implies(x > 0, fd.eq(b, 1) & (y < x)), lambda b, x, y, r: x == 0 or (b == 1 and y < x)),
        (~(fd.eq(x, 1) & fd.eq(y, 1)), lambda b, x, y, r: not (x == 1 and y == 1)),
        (fd.reify(fd.eq(x, 1) & (y > x), r), lambda b, x, y, r: r == (x == 1 and y > x)),
    ]
    for rel, check in cases:
        got = run(0, (b, x, y, r), *dom, rel)
        expected = [
            p for p in itertools.product(range(2), range(3), range(3), range(2)) if check(*p)
        ]
        assert_same_answers(got, expected)


def test_an_implication_between_value_tests_reads_their_constants():
    """``x + 1 == 3`` implies ``y - 1 == 2`` and ``x == 2``: tests of a value posted at once,
    each with its own constant."""
    x, y = vars(2)
    got = run(
        0,
        (x, y),
        fd.in_(x, y, fd.interval(0, 4)),
        fd.implies(x + 1 == 3, (y - 1 == 2) & fd.eq(x, 2)),
    )
    assert sorted(got) == [(a, b) for a in range(5) for b in range(5) if a != 2 or b == 3]
