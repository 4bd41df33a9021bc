"""The Reasoned Schemer (2nd ed.), chapters 1-5, and the microKanren paper's tests.

Each test ports runnable examples of the book (frame numbers in the comments,
e.g. ``1.58``) or of Hemann & Friedman's "microKanren: A Minimal Functional
Core for Relational Programming" to relqueens.  The queries and their answers
are the book's; the Python is ours.  Frame numbers are pointers for the
reader and may be off by a frame or two.

Conventions of the port:

* TRS symbols are Python strings, ``#t``/``#f`` are ``True``/``False``,
  ``#s``/``#u`` are the goals ``succeed``/``fail``.
* A proper list is a Python list; a dotted (improper) list is built with
  ``cons``: ``(a b . x)`` is ``cons('a', 'b', x)``.
* ``run*`` is ``run_all`` (or ``run(0, ...)``); ``(run* (x y) ...)`` uses a
  tuple ``(x, y)`` so every answer is a tuple.
* Answers with fresh variables are compared after ``canonical``, which names
  them ``'_0'``, ``'_1'``, ... in reading order, as the book prints them.
* The book's answer order comes from its interleaving search.  Where that
  order depends on interleaving details the answers are compared as
  multisets (``same``); where only the first n answers of an infinite
  relation are asked for, only what any fair search must give is asserted.
* Where kanren (the PyPI ``miniKanren`` distribution) can answer the same
  finite, shallow query, its answers are computed too and must agree.
"""

from cons import car, cdr, cons
from cons.core import ConsPair
from kanren import conde as kconde
from kanren import eq as keq
from kanren import lall as klall
from kanren import lany as klany
from kanren import run as krun
from kanren import var as kvar
from kanren.constraints import neq as kneq
from kanren.core import fail as kfail
from kanren.core import succeed as ksucceed
from kanren.goals import appendo as kappendo
from kanren.goals import conso as kconso
from kanren.goals import heado as kheado
from kanren.goals import membero as kmembero
from kanren.goals import nullo as knullo
from kanren.goals import rembero as krembero
from kanren.goals import tailo as ktailo
from unification import isvar

from relqueens import (
    appendo,
    canonical,
    conde,
    conj,
    conso,
    eq,
    fail,
    fresh,
    heado,
    lall,
    lany,
    membero,
    neq,
    nullo,
    relation,
    rembero,
    run,
    run_all,
    succeed,
    tailo,
    var,
    vars,
)

CAKE = ["cake", "&", "ice", "d", "t"]


# --------------------------------------------------------------------------
# helpers


def names(answers):
    """Each answer with its fresh variables renamed '_0', '_1', ... (TRS style)."""
    return tuple(canonical(a) for a in answers)


def knorm(term):
    """canonical() for kanren's answers, written independently of relqueens."""
    table = {}

    def walk(t):
        if isvar(t):
            if t not in table:
                table[t] = f"_{len(table)}"
            return table[t]
        if isinstance(t, list):
            return [walk(e) for e in t]
        if isinstance(t, tuple):
            return tuple(walk(e) for e in t)
        if isinstance(t, ConsPair):
            head = walk(car(t))  # the car is read before the cdr
            return cons(head, walk(cdr(t)))
        return t

    return walk(term)


def knames(answers):
    return tuple(knorm(a) for a in answers)


def bag(answers):
    """The answers as a multiset, comparable whatever their types."""
    return sorted(map(repr, answers))


def same(answers, expected):
    """Equal as multisets (for answers whose order depends on interleaving)."""
    return bag(answers) == bag(expected)


def agrees_with_kanren(ours, theirs):
    return bag(names(ours)) == bag(knames(theirs))


def klazy(build):
    """A kanren goal built only when run: kanren has no inverse-eta delay of its own."""

    def goal(S):
        yield from build()(S)

    return goal


# --------------------------------------------------------------------------
# relations the book defines (TRS's defrel is @relation)


@relation
def teacupo(t):  # 1.82
    return lany(eq("tea", t), eq("cup", t))


@relation
def pairo(p):  # 2.39
    return fresh(lambda a, d: conso(a, d, p))


@relation
def singletono(l):  # 2.52 (simplified form)
    return fresh(lambda a: eq([a], l))


@relation
def listo(l):  # 3.6
    return conde([nullo(l)], [fresh(lambda d: [tailo(d, l), listo(d)])])


@relation
def lolo(l):  # 3.17
    return conde(
        [nullo(l)],
        [fresh(lambda a: [heado(a, l), listo(a)]), fresh(lambda d: [tailo(d, l), lolo(d)])],
    )


@relation
def loso(l):  # 3.31
    return conde(
        [nullo(l)],
        [fresh(lambda a: [heado(a, l), singletono(a)]), fresh(lambda d: [tailo(d, l), loso(d)])],
    )


@relation
def proper_membero(x, l):  # 3.79
    return conde(
        [heado(x, l), fresh(lambda d: [tailo(d, l), listo(d)])],
        [fresh(lambda d: [tailo(d, l), proper_membero(x, d)])],
    )


@relation
def trs_appendo(l, t, out):  # 4.?, the final (terminating) appendo
    return conde(
        [nullo(l), eq(t, out)],
        [fresh(lambda a, d, res: [conso(a, d, l), conso(a, res, out), trs_appendo(d, t, res)])],
    )


@relation
def swappendo(l, t, out):  # trs_appendo with its conde lines swapped
    return conde(
        [fresh(lambda a, d, res: [conso(a, d, l), conso(a, res, out), swappendo(d, t, res)])],
        [nullo(l), eq(t, out)],
    )


@relation
def unwrapo(x, out):  # 4.47
    return conde([fresh(lambda a: [heado(a, x), unwrapo(a, out)])], [eq(x, out)])


@relation
def memo(x, l, out):  # 5.4 (simplified)
    return conde([heado(x, l), eq(l, out)], [fresh(lambda d: [tailo(d, l), memo(x, d, out)])])


@relation
def trs_rembero(x, l, out):  # 5.25 (simplified): no =/=, so "not removing" is an answer
    return conde(
        [nullo(l), eq([], out)],
        [conso(x, out, l)],
        [fresh(lambda a, d, res: [conso(a, d, l), conso(a, res, out), trs_rembero(x, d, res)])],
    )


@relation
def surpriseo(s):  # 5.41
    return trs_rembero(s, ["a", "b", "c"], ["a", "b", "c"])


@relation
def alwayso():  # 6.1, used below to test fairness
    return conde([succeed], [alwayso()])


@relation
def nevero():  # 6.14
    return nevero()


# the same relations for kanren, for cross-checks of finite queries


def k_teacupo(t):
    return klany(keq("tea", t), keq("cup", t))


def k_memo(x, l, out):
    def build():
        d = kvar()
        return kconde([kheado(x, l), keq(l, out)], [ktailo(d, l), k_memo(x, d, out)])

    return klazy(build)


def k_trs_rembero(x, l, out):
    def build():
        a, d, res = kvar(), kvar(), kvar()
        return kconde(
            [knullo(l), keq([], out)],
            [kconso(x, out, l)],
            [kconso(a, d, l), kconso(a, res, out), k_trs_rembero(x, d, res)],
        )

    return klazy(build)


def k_unwrapo(x, out):
    def build():
        a = kvar()
        return kconde([kheado(a, x), k_unwrapo(a, out)], [keq(x, out)])

    return klazy(build)


def k_trs_appendo(l, t, out):
    def build():
        a, d, res = kvar(), kvar(), kvar()
        return kconde(
            [knullo(l), keq(t, out)],
            [kconso(a, d, l), kconso(a, res, out), k_trs_appendo(d, t, res)],
        )

    return klazy(build)


# --------------------------------------------------------------------------
# Chapter 1: Playthings


def test_ch1_succeed_fail_and_eq():
    q = var()
    assert run_all(q, fail) == ()  # 1.7
    assert run_all(q, eq("pea", "pod")) == ()  # 1.10
    assert run_all(q, eq(q, "pea")) == ("pea",)  # 1.11
    assert run_all(q, eq("pea", q)) == ("pea",)  # 1.12
    assert names(run_all(q, succeed)) == ("_0",)  # 1.14
    assert isvar(run_all(q, succeed)[0])  # q is still fresh, not some value
    assert names(run_all(q, eq("pea", "pea"))) == ("_0",)  # 1.17
    assert names(run_all(q, eq(q, q))) == ("_0",)  # 1.18
    assert run(0, q, eq(q, "pea")) == run_all(q, eq(q, "pea"))


def test_ch1_fresh():
    q = var()
    assert run_all(q, fresh(lambda x: eq("pea", q))) == ("pea",)  # 1.19
    assert names(run_all(q, fresh(lambda x: eq("pea", x)))) == ("_0",)  # 1.22
    assert names(run_all(q, fresh(lambda x: eq([x], q)))) == (["_0"],)  # 1.23
    assert names(run_all(q, fresh(lambda x: eq(x, q)))) == ("_0",)  # 1.27
    # a body given as a list is a conjunction
    assert run_all(q, fresh(lambda x: [eq("pea", x), eq(x, q)])) == ("pea",)
    # a fresh variable shadows an outer one of the same name
    x = var()
    assert names(run_all(x, fresh(lambda x: eq("pea", x)))) == ("_0",)


def test_ch1_nested_lists_unify():
    q = var()
    assert names(run_all(q, eq([[["pea"]], "pod"], [[["pea"]], "pod"]))) == ("_0",)  # 1.28
    assert run_all(q, eq([[["pea"]], "pod"], [[["pea"]], q])) == ("pod",)  # 1.29
    assert run_all(q, eq([[[q]], "pod"], [[["pea"]], "pod"])) == ("pea",)  # 1.30
    assert names(run_all(q, fresh(lambda x: eq([[[q]], "pod"], [[[x]], "pod"])))) == ("_0",)  # 1.31
    assert run_all(q, fresh(lambda x: eq([[[q]], x], [[[x]], "pod"]))) == ("pod",)  # 1.32


def test_ch1_reified_names_follow_reading_order():
    q = var()
    assert names(run_all(q, fresh(lambda x: eq([x, x], q)))) == (["_0", "_0"],)  # 1.33
    assert names(run_all(q, fresh(lambda x, y: eq([q, y], [[x, y], x])))) == (["_0", "_0"],)  # 1.34
    assert names(run_all(q, fresh(lambda x, y: eq([x, y], q)))) == (["_0", "_1"],)  # 1.37
    s = var()
    assert names(run_all(s, fresh(lambda t, u: eq([t, u], s)))) == (["_0", "_1"],)  # 1.38
    assert names(run_all(q, fresh(lambda x, y: eq([x, y, x], q)))) == (["_0", "_1", "_0"],)  # 1.39
    # numbering restarts at _0 in every answer, and follows reading order
    x, y = vars(2)
    got = names(run_all(q, lany(eq(q, [x, y]), eq(q, [y, x]))))
    assert got == (["_0", "_1"], ["_0", "_1"])  # 1.59


def test_ch1_conjunction():
    q = var()
    assert names(run_all(q, conj(succeed, succeed))) == ("_0",)  # 1.50
    assert run_all(q, conj(succeed, eq("corn", q))) == ("corn",)  # 1.51
    assert run_all(q, conj(fail, eq("corn", q))) == ()  # 1.52
    assert run_all(q, conj(eq("corn", q), eq("meal", q))) == ()  # 1.53
    assert run_all(q, conj(eq("corn", q), eq("corn", q))) == ("corn",)  # 1.54
    assert run_all(q, lall(eq("corn", q), eq("meal", q))) == ()
    assert run_all(q, lall(eq("corn", q), eq("corn", q))) == ("corn",)


def test_ch1_disjunction_keeps_line_order():
    q, x = vars(2)
    assert run_all(q, lany(fail, fail)) == ()  # 1.55
    assert run_all(q, lany(eq("olive", q), fail)) == ("olive",)  # 1.56
    assert run_all(q, lany(fail, eq("oil", q))) == ("oil",)  # 1.57
    assert run_all(q, lany(eq("olive", q), eq("oil", q))) == ("olive", "oil")  # 1.58
    assert run_all(x, lany(eq("oil", x), eq("olive", x))) == ("oil", "olive")  # 1.61
    assert run_all(x, lany(conj(eq("olive", x), fail), eq("oil", x))) == ("oil",)  # 1.62
    assert run_all(x, lany(conj(eq("olive", x), succeed), eq("oil", x))) == ("olive", "oil")  # 1.63
    assert run_all(x, lany(eq("oil", x), conj(eq("olive", x), succeed))) == ("oil", "olive")  # 1.64
    assert run_all(q, lany()) == ()  # the empty disjunction fails


def test_ch1_nested_disjunction_1_65():
    x = var()
    goal = lany(
        conj(eq("virgin", x), fail),
        lany(eq("olive", x), lany(succeed, eq("oil", x))),
    )
    assert names(run_all(x, goal)) == ("olive", "_0", "oil")
    kx = kvar()
    kgoal = klany(
        klall(keq("virgin", kx), kfail),
        klany(keq("olive", kx), klany(ksucceed, keq("oil", kx))),
    )
    assert agrees_with_kanren(run_all(x, goal), krun(0, kx, kgoal))


def test_ch1_conjunction_is_associative_1_67():
    r = var()
    right = fresh(
        lambda x: fresh(lambda y: conj(eq("split", x), conj(eq("pea", y), eq([x, y], r))))
    )
    left = fresh(lambda x: fresh(lambda y: conj(conj(eq("split", x), eq("pea", y)), eq([x, y], r))))
    flat = fresh(lambda x, y: [eq("split", x), eq("pea", y), eq([x, y], r)])
    assert run_all(r, right) == (["split", "pea"],)
    assert run_all(r, left) == (["split", "pea"],)
    assert run_all(r, flat) == (["split", "pea"],)


def test_ch1_run_over_several_variables():
    r, x, y = vars(3)
    goal = conj(conj(eq("split", x), eq("pea", y)), eq([x, y], r))
    assert run_all((r, x, y), goal) == ((["split", "pea"], "split", "pea"),)  # 1.72
    assert run_all((x, y), conj(eq("split", x), eq("pea", y))) == (("split", "pea"),)  # 1.75
    # several goals after the query variable are conjoined
    assert run_all((x, y), eq("split", x), eq("pea", y)) == (("split", "pea"),)  # 1.81
    assert run_all([x, y], eq("split", x), eq("pea", y)) == (["split", "pea"],)


def test_ch1_split_pea_red_bean():
    x, y, z, r = vars(4)
    soups = lany(conj(eq("split", x), eq("pea", y)), conj(eq("red", x), eq("bean", y)))
    assert run_all((x, y), soups) == (("split", "pea"), ("red", "bean"))  # 1.76
    got = run_all(
        r,
        fresh(
            lambda x, y: [
                lany(conj(eq("split", x), eq("pea", y)), conj(eq("red", x), eq("bean", y))),
                eq([x, y, "soup"], r),
            ]
        ),
    )
    assert got == (["split", "pea", "soup"], ["red", "bean", "soup"])  # 1.77, 1.78
    assert run_all((x, y, z), soups, eq("soup", z)) == (
        ("split", "pea", "soup"),
        ("red", "bean", "soup"),
    )  # 1.80


def test_ch1_teacupo():
    x, y = vars(2)
    assert run_all(x, teacupo(x)) == ("tea", "cup")  # 1.83
    got = run_all((x, y), lany(conj(teacupo(x), eq(True, y)), conj(eq(False, x), eq(True, y))))
    assert same(got, [(False, True), ("tea", True), ("cup", True)])  # 1.84
    both = run_all((x, y), teacupo(x), teacupo(y))
    assert same(both, [("tea", "tea"), ("tea", "cup"), ("cup", "tea"), ("cup", "cup")])  # 1.85
    twice = run_all((x, y), teacupo(x), teacupo(x))
    assert same(names(twice), [("tea", "_0"), ("cup", "_0")])  # 1.86
    mixed = run_all((x, y), lany(conj(teacupo(x), teacupo(x)), conj(eq(False, x), teacupo(y))))
    assert same(
        names(mixed), [(False, "tea"), (False, "cup"), ("tea", "_0"), ("cup", "_0")]
    )  # 1.87
    kx, ky = kvar(), kvar()
    kmixed = krun(
        0,
        (kx, ky),
        klany(klall(k_teacupo(kx), k_teacupo(kx)), klall(keq(False, kx), k_teacupo(ky))),
    )
    assert agrees_with_kanren(mixed, kmixed)


def test_ch1_conde():
    x, y = vars(2)
    split_or_red = conde([eq("split", x), eq("pea", y)], [eq("red", x), eq("bean", y)])
    assert run_all((x, y), split_or_red) == (("split", "pea"), ("red", "bean"))  # 1.88
    assert run_all(x, conde([eq("olive", x), fail], [eq("oil", x)])) == ("oil",)  # 1.89
    lentil = conde([fresh(lambda z: eq("lentil", z))], [eq(x, y)])
    assert names(run_all((x, y), lentil)) == (("_0", "_1"), ("_0", "_0"))  # 1.90
    three = conde(
        [eq("split", x), eq("pea", y)],
        [eq("red", x), eq("bean", y)],
        [eq("green", x), eq("lentil", y)],
    )
    assert run_all((x, y), three) == (
        ("split", "pea"),
        ("red", "bean"),
        ("green", "lentil"),
    )  # 1.91
    # the law of swapping conde lines: the same values, perhaps in another order
    swapped = conde([eq("red", x), eq("bean", y)], [eq("split", x), eq("pea", y)])
    assert same(run_all((x, y), swapped), run_all((x, y), split_or_red))
    kx, ky = kvar(), kvar()
    klentil = kconde([klazy(lambda: keq("lentil", kvar()))], [keq(kx, ky)])
    assert agrees_with_kanren(run_all((x, y), lentil), krun(0, (kx, ky), klentil))


# --------------------------------------------------------------------------
# Chapter 2: Teaching Old Toys New Tricks (caro is heado(a, p), cdro is tailo(d, p))


def test_ch2_caro():
    q, r = vars(2)
    assert run_all(q, heado(q, ["a", "c", "o", "r", "n"])) == ("a",)  # 2.3
    assert names(run_all(q, heado("a", ["a", "c", "o", "r", "n"]))) == ("_0",)  # 2.4
    assert run_all(r, fresh(lambda x, y: [heado(x, [r, y]), eq("pear", x)])) == ("pear",)  # 2.5
    got = run_all(
        r,
        fresh(
            lambda x, y: [
                heado(x, ["grape", "raisin", "pear"]),
                heado(y, [["a"], ["b"], ["c"]]),
                eq(cons(x, y), r),
            ]
        ),
    )
    assert got == (["grape", "a"],)  # 2.8
    kr, kx, ky = kvar(), kvar(), kvar()
    kgot = krun(
        0,
        kr,
        kheado(kx, ["grape", "raisin", "pear"]),
        kheado(ky, [["a"], ["b"], ["c"]]),
        keq(cons(kx, ky), kr),
    )
    assert agrees_with_kanren(got, kgot)


def test_ch2_cdro():
    q, r, x, l = vars(4)
    acorn = ["a", "c", "o", "r", "n"]
    got = run_all(r, fresh(lambda v: [tailo(v, acorn), fresh(lambda w: [heado(w, v), eq(w, r)])]))
    assert got == ("c",)  # 2.12
    got = run_all(
        r,
        fresh(
            lambda x, y: [
                tailo(x, ["grape", "raisin", "pear"]),
                heado(y, [["a"], ["b"], ["c"]]),
                eq(cons(x, y), r),
            ]
        ),
    )
    assert got == ([["raisin", "pear"], "a"],)  # 2.15
    assert names(run_all(q, tailo(["c", "o", "r", "n"], acorn))) == ("_0",)  # 2.16
    assert run_all(x, tailo([x, "r", "n"], ["c", "o", "r", "n"])) == ("o",)  # 2.17
    got = run_all(l, fresh(lambda x: [tailo(["c", "o", "r", "n"], l), heado(x, l), eq("a", x)]))
    assert got == (acorn,)  # 2.18
    kl, kx = kvar(), kvar()
    kgot = krun(0, kl, ktailo(["c", "o", "r", "n"], kl), kheado(kx, kl), keq("a", kx))
    assert agrees_with_kanren(got, kgot)


def test_ch2_conso_forwards_and_backwards():
    l, x, r = vars(3)
    assert run_all(l, conso(["a", "b", "c"], ["d", "e"], l)) == (
        [["a", "b", "c"], "d", "e"],
    )  # 2.19
    assert run_all(x, conso(x, ["a", "b", "c"], ["d", "a", "b", "c"])) == ("d",)  # 2.20
    got = run_all(r, fresh(lambda x, y, z: [eq(["e", "a", "d", x], r), conso(y, ["a", z, "c"], r)]))
    assert got == (["e", "a", "d", "c"],)  # 2.21
    assert run_all(x, conso(x, ["a", x, "c"], ["d", "a", x, "c"])) == ("d",)  # 2.22
    got = run_all(l, fresh(lambda x: [eq(["d", "a", x, "c"], l), conso(x, ["a", x, "c"], l)]))
    assert got == (["d", "a", "d", "c"],)  # 2.23
    got = run_all(l, fresh(lambda x: [conso(x, ["a", x, "c"], l), eq(["d", "a", x, "c"], l)]))
    assert got == (["d", "a", "d", "c"],)  # 2.24
    kr, ky, kz = kvar(), kvar(), kvar()
    kx = kvar()
    kgot = krun(0, kr, keq(["e", "a", "d", kx], kr), kconso(ky, ["a", kz, "c"], kr))
    assert agrees_with_kanren(
        run_all(r, fresh(lambda x, y, z: [eq(["e", "a", "d", x], r), conso(y, ["a", z, "c"], r)])),
        kgot,
    )


def test_ch2_bonus_bonus():
    l = var()
    got = run_all(
        l,
        fresh(
            lambda d, t, x, y, w: [
                conso(w, ["n", "u", "s"], t),
                tailo(t, l),
                heado(x, l),
                eq("b", x),
                tailo(d, l),
                heado(y, d),
                eq("o", y),
            ]
        ),
    )
    assert got == (["b", "o", "n", "u", "s"],)  # 2.26


def test_ch2_nullo():
    q, x = vars(2)
    assert run_all(q, nullo(["grape", "raisin", "pear"])) == ()  # 2.32
    assert names(run_all(q, nullo([]))) == ("_0",)  # 2.33
    assert run_all(x, nullo(x)) == ([],)  # 2.34
    kx = kvar()
    assert agrees_with_kanren(run_all(x, nullo(x)), krun(0, kx, knullo(kx)))


def test_ch2_dotted_pairs():
    r = var()
    got = names(run_all(r, fresh(lambda x, y: eq(cons(x, cons(y, "salad")), r))))
    assert got == (cons("_0", "_1", "salad"),)  # 2.38
    assert got == (cons("_0", cons("_1", "salad")),)


def test_ch2_pairo():
    q, x, r = vars(3)
    assert names(run_all(q, pairo(cons(q, q)))) == ("_0",)  # 2.40
    assert run_all(q, pairo([])) == ()  # 2.41
    assert run_all(q, pairo("pair")) == ()  # 2.42
    assert names(run_all(x, pairo(x))) == (cons("_0", "_1"),)  # 2.43
    assert names(run_all(r, pairo(cons(r, [])))) == ("_0",)  # 2.44


def test_ch2_singletono():
    q, x = vars(2)
    assert names(run_all(q, singletono(["tofu"]))) == ("_0",)
    assert run_all(q, singletono(["tofu", "fig"])) == ()
    assert run_all(q, singletono([])) == ()
    assert names(run_all(x, singletono(x))) == (["_0"],)
    assert run_all(x, singletono(cons("tofu", x))) == ([],)


# --------------------------------------------------------------------------
# Chapter 3: Seeing Old Friends in New Ways


def test_ch3_listo():
    x = var()
    assert names(run_all(x, listo(["a", "b", x, "d"]))) == ("_0",)  # 3.7
    assert run(1, x, listo(cons("a", "b", "c", x))) == ([],)  # 3.10
    five = names(run(5, x, listo(cons("a", "b", "c", x))))  # 3.14
    assert same(five, [[], ["_0"], ["_0", "_1"], ["_0", "_1", "_2"], ["_0", "_1", "_2", "_3"]])


def test_ch3_lolo():
    q, l, x = vars(3)
    assert names(run_all(q, fresh(lambda x, y: lolo([["a", "b"], [x, "c"], ["d", y]])))) == (
        "_0",
    )  # 3.20
    assert run(1, l, lolo(l)) == ([],)  # 3.21
    assert names(run(1, q, fresh(lambda x: lolo(cons(["a", "b"], x))))) == ("_0",)  # 3.22
    assert run(1, x, lolo(cons(["a", "b"], ["c", "d"], x))) == ([],)  # 3.23
    assert run_all(q, lolo([["a"], "b"])) == ()  # "b" is not a list
    # 3.27: the book lists () (()) ((_0)) (() ()) ((_0 _1)); with another fair
    # interleaving only the shallowest answers are certain to be among the five
    five = names(run(5, x, lolo(cons(["a", "b"], ["c", "d"], x))))
    assert len(five) == 5 and len(set(map(repr, five))) == 5
    assert [] in five and [[]] in five
    for answer in five:
        assert isinstance(answer, list) and all(isinstance(e, list) for e in answer)
        assert all(isinstance(v, str) and v.startswith("_") for e in answer for v in e)


def test_ch3_loso():
    z, r, out = vars(3)
    assert run(1, z, loso(cons(["g"], z))) == ([],)  # 3.32
    five = names(run(5, z, loso(cons(["g"], z))))  # 3.36
    assert same(
        five,
        [
            [],
            [["_0"]],
            [["_0"], ["_1"]],
            [["_0"], ["_1"], ["_2"]],
            [["_0"], ["_1"], ["_2"], ["_3"]],
        ],
    )
    four = names(
        run(
            4,
            r,
            fresh(
                lambda w, x, y, z: [
                    loso(cons(["g"], cons("e", w), cons(x, y), z)),
                    eq([w, cons(x, y), z], r),
                ]
            ),
        )
    )  # 3.38
    assert same(
        four,
        [
            [[], ["_0"], []],
            [[], ["_0"], [["_1"]]],
            [[], ["_0"], [["_1"], ["_2"]]],
            [[], ["_0"], [["_1"], ["_2"], ["_3"]]],
        ],
    )
    three = names(
        run(
            3,
            out,
            fresh(
                lambda w, x, y, z: [eq(cons(["g"], cons("e", w), cons(x, y), z), out), loso(out)]
            ),
        )
    )  # 3.42
    assert same(
        three,
        [
            [["g"], ["e"], ["_0"]],
            [["g"], ["e"], ["_0"], ["_1"]],
            [["g"], ["e"], ["_0"], ["_1"], ["_2"]],
        ],
    )


def test_ch3_membero_finite():
    q, x, y = vars(3)
    assert names(run_all(q, membero("olive", ["virgin", "olive", "oil"]))) == ("_0",)  # 3.55
    assert run(1, y, membero(y, ["hummus", "with", "pita"])) == ("hummus",)  # 3.57
    assert run(1, y, membero(y, ["with", "pita"])) == ("with",)  # 3.58
    everything = run_all(y, membero(y, ["hummus", "with", "pita"]))
    assert same(everything, ["hummus", "with", "pita"])  # 3.60
    assert run_all(y, membero(y, [])) == ()  # 3.61
    assert run_all(x, membero("e", ["pasta", x, "fagioli"])) == ("e",)  # 3.64
    assert names(run(1, x, membero("e", ["pasta", "e", x, "fagioli"]))) == ("_0",)  # 3.66
    assert run(1, x, membero("e", ["pasta", x, "e", "fagioli"])) == ("e",)  # 3.67
    two = names(run_all((x, y), membero("e", ["pasta", x, "fagioli", y])))
    assert same(two, [("e", "_0"), ("_0", "e")])  # 3.68
    ky = kvar()
    kall = krun(0, ky, kmembero(ky, ["hummus", "with", "pita"]))
    assert agrees_with_kanren(everything, kall)
    kx, ky = kvar(), kvar()
    assert agrees_with_kanren(
        run_all((x, y), membero("e", ["pasta", x, "fagioli", y])),
        krun(0, (kx, ky), kmembero("e", ["pasta", kx, "fagioli", ky])),
    )


def test_ch3_membero_builds_lists():
    q, l = vars(2)
    got = names(
        run_all(q, fresh(lambda x, y: [eq(["pasta", x, "fagioli", y], q), membero("e", q)]))
    )
    assert same(got, [["pasta", "e", "fagioli", "_0"], ["pasta", "_0", "fagioli", "e"]])  # 3.69
    assert names(run(1, l, membero("tofu", l))) == (cons("tofu", "_0"),)  # 3.70
    five = names(run(5, l, membero("tofu", l)))  # 3.73
    assert same(
        five,
        [
            cons("tofu", "_0"),
            cons("_0", "tofu", "_1"),
            cons("_0", "_1", "tofu", "_2"),
            cons("_0", "_1", "_2", "tofu", "_3"),
            cons("_0", "_1", "_2", "_3", "tofu", "_4"),
        ],
    )


def test_ch3_proper_membero():
    l, q = vars(2)
    twelve = names(run(12, l, proper_membero("tofu", l)))  # 3.80
    assert len(twelve) == 12 and len(set(map(repr, twelve))) == 12
    for answer in twelve:
        assert isinstance(answer, list) and "tofu" in answer  # proper lists only
    for shallow in (["tofu"], ["tofu", "_0"], ["_0", "tofu"]):
        assert shallow in twelve
    assert run_all(q, proper_membero("tofu", cons("tofu", "x"))) == ()  # not a proper list
    # membero itself accepts improper lists
    assert names(run_all(q, membero("tofu", cons("tofu", "x")))) == ("_0",)


# --------------------------------------------------------------------------
# Chapter 4: Double Your Fun


def test_ch4_appendo_forwards():
    x = var()
    assert run_all(x, trs_appendo(["cake"], ["tastes", "yummy"], x)) == (
        ["cake", "tastes", "yummy"],
    )
    got = names(
        run_all(x, fresh(lambda y: trs_appendo(["cake", "&", "ice", y], ["tastes", "yummy"], x)))
    )
    assert got == (["cake", "&", "ice", "_0", "tastes", "yummy"],)
    got = names(run_all(x, fresh(lambda y: trs_appendo(["cake", "&", "ice", "cream"], y, x))))
    assert got == (cons("cake", "&", "ice", "cream", "_0"),)
    got = names(
        run_all(
            x, fresh(lambda z: trs_appendo(["cake", "&", "ice", "cream"], cons("d", "t", z), x))
        )
    )
    assert got == (cons("cake", "&", "ice", "cream", "d", "t", "_0"),)
    kx, ky = kvar(), kvar()
    assert agrees_with_kanren(
        run_all(x, fresh(lambda y: trs_appendo(["cake", "&", "ice", y], ["tastes", "yummy"], x))),
        krun(0, kx, k_trs_appendo(["cake", "&", "ice", ky], ["tastes", "yummy"], kx)),
    )


def test_ch4_appendo_with_a_fresh_tail():
    x, y = vars(2)
    assert run(1, x, fresh(lambda y: trs_appendo(cons("cake", "&", "ice", y), ["d", "t"], x))) == (
        ["cake", "&", "ice", "d", "t"],
    )
    five = names(
        run(5, x, fresh(lambda y: trs_appendo(cons("cake", "&", "ice", y), ["d", "t"], x)))
    )
    assert same(
        five,
        [
            ["cake", "&", "ice", "d", "t"],
            ["cake", "&", "ice", "_0", "d", "t"],
            ["cake", "&", "ice", "_0", "_1", "d", "t"],
            ["cake", "&", "ice", "_0", "_1", "_2", "d", "t"],
            ["cake", "&", "ice", "_0", "_1", "_2", "_3", "d", "t"],
        ],
    )
    five = names(
        run(5, y, fresh(lambda x: trs_appendo(cons("cake", "&", "ice", y), ["d", "t"], x)))
    )
    assert same(five, [[], ["_0"], ["_0", "_1"], ["_0", "_1", "_2"], ["_0", "_1", "_2", "_3"]])
    five = names(
        run(5, x, fresh(lambda y: trs_appendo(cons("cake", "&", "ice", y), cons("d", "t", y), x)))
    )
    assert same(
        five,
        [
            ["cake", "&", "ice", "d", "t"],
            ["cake", "&", "ice", "_0", "d", "t", "_0"],
            ["cake", "&", "ice", "_0", "_1", "d", "t", "_0", "_1"],
            ["cake", "&", "ice", "_0", "_1", "_2", "d", "t", "_0", "_1", "_2"],
            ["cake", "&", "ice", "_0", "_1", "_2", "_3", "d", "t", "_0", "_1", "_2", "_3"],
        ],
    )


def test_ch4_appendo_backwards():
    x, y = vars(2)
    prefixes = run(6, x, fresh(lambda y: trs_appendo(x, y, CAKE)))
    assert same(prefixes, [CAKE[:k] for k in range(6)])
    suffixes = run(6, y, fresh(lambda x: trs_appendo(x, y, CAKE)))
    assert same(suffixes, [CAKE[k:] for k in range(6)])
    splits = [(CAKE[:k], CAKE[k:]) for k in range(6)]
    assert same(run(6, (x, y), trs_appendo(x, y, CAKE)), splits)
    # the final appendo terminates: asking for a seventh answer finds none
    assert same(run(7, (x, y), trs_appendo(x, y, CAKE)), splits)
    assert same(run_all((x, y), trs_appendo(x, y, CAKE)), splits)
    kx, ky = kvar(), kvar()
    assert agrees_with_kanren(
        run_all((x, y), trs_appendo(x, y, CAKE)), krun(0, (kx, ky), k_trs_appendo(kx, ky, CAKE))
    )


def test_ch4_appendo_all_fresh():
    x, y, z = vars(3)
    four = names(run(4, (x, y, z), trs_appendo(x, y, z)))
    assert same(
        four,
        [
            ([], "_0", "_0"),
            (["_0"], "_1", cons("_0", "_1")),
            (["_0", "_1"], "_2", cons("_0", "_1", "_2")),
            (["_0", "_1", "_2"], "_3", cons("_0", "_1", "_2", "_3")),
        ],
    )


def test_ch4_library_appendo_backwards():
    x, y = vars(2)
    got = run(6, (x, y), appendo(x, y, [1, 2, 3, 4, 5]))
    splits = [([1, 2, 3, 4, 5][:k], [1, 2, 3, 4, 5][k:]) for k in range(6)]
    assert same(got, splits)
    assert same(run_all((x, y), appendo(x, y, [1, 2, 3, 4, 5])), splits)
    kx, ky = kvar(), kvar()
    assert agrees_with_kanren(
        run_all((x, y), appendo(x, y, [1, 2, 3, 4, 5])),
        krun(0, (kx, ky), kappendo(kx, ky, [1, 2, 3, 4, 5])),
    )


def test_ch4_library_appendo_matches_kanren():
    q, x = vars(2)
    assert run_all(q, appendo([1, 2], [3], q)) == ([1, 2, 3],)
    assert run_all(x, appendo([1], x, [1, 2, 3])) == ([2, 3],)
    assert run_all(x, appendo(x, [3], [1, 2, 3])) == ([1, 2],)
    assert run_all(x, appendo(x, [9], [1, 2, 3])) == ()
    kq, kx, ky = kvar(), kvar(), kvar()
    assert agrees_with_kanren(
        run_all(q, appendo([1, 2], [3], q)), krun(0, kq, kappendo([1, 2], [3], kq))
    )
    assert agrees_with_kanren(
        run_all(x, appendo([1], x, [1, 2, 3])), krun(0, kx, kappendo([1], kx, [1, 2, 3]))
    )
    # a fresh second argument: kanren's appendo has its own (extra) clause for
    # an empty result; relqueens promises kanren's semantics
    ours = run_all(x, fresh(lambda y: appendo(["a"], y, x)))
    theirs = krun(0, kx, kappendo(["a"], ky, kx))
    assert agrees_with_kanren(ours, theirs)


def test_ch4_unwrapo():
    x = var()
    got = run_all(x, unwrapo([[["pizza"]]], x))  # 4.48
    assert same(got, [[[["pizza"]]], [["pizza"]], ["pizza"], "pizza"])
    kx = kvar()
    assert agrees_with_kanren(got, krun(0, kx, k_unwrapo([[["pizza"]]], kx)))
    assert run(1, x, unwrapo(x, "pizza")) == ("pizza",)  # 4.50
    assert run(1, x, unwrapo([[x]], "pizza")) == ("pizza",)  # 4.51
    wrapped_pizza = [
        "pizza",
        cons("pizza", "_0"),
        cons(cons("pizza", "_0"), "_1"),
        cons(cons(cons("pizza", "_0"), "_1"), "_2"),
        cons(cons(cons(cons("pizza", "_0"), "_1"), "_2"), "_3"),
    ]
    assert same(names(run(5, x, unwrapo(x, "pizza"))), wrapped_pizza)  # 4.52
    assert same(
        names(run(5, x, unwrapo(x, [["pizza"]]))),
        [
            [["pizza"]],
            cons([["pizza"]], "_0"),
            cons(cons([["pizza"]], "_0"), "_1"),
            cons(cons(cons([["pizza"]], "_0"), "_1"), "_2"),
            cons(cons(cons(cons([["pizza"]], "_0"), "_1"), "_2"), "_3"),
        ],
    )  # 4.53
    assert same(names(run(5, x, unwrapo([[x]], "pizza"))), wrapped_pizza)  # 4.54


def test_ch4_swappendo():
    x, y, z = vars(3)
    splits = [(CAKE[:k], CAKE[k:]) for k in range(6)]
    assert same(run(6, (x, y), swappendo(x, y, CAKE)), splits)
    assert same(run_all((x, y), swappendo(x, y, CAKE)), run_all((x, y), trs_appendo(x, y, CAKE)))
    # with its recursive line first, swappendo still answers under interleaving
    five = names(run(5, z, fresh(lambda x, y: swappendo(x, y, z))))
    assert same(
        five,
        [
            "_0",
            cons("_0", "_1"),
            cons("_0", "_1", "_2"),
            cons("_0", "_1", "_2", "_3"),
            cons("_0", "_1", "_2", "_3", "_4"),
        ],
    )


# --------------------------------------------------------------------------
# Chapter 5: Members Only


def test_ch5_memo():
    q, out, x = vars(3)
    assert run_all(q, memo("fig", ["pea"], ["pea"])) == ()  # 5.5
    assert run_all(out, memo("fig", ["fig"], out)) == (["fig"],)
    assert run_all(out, memo("fig", ["fig", "pea"], out)) == (["fig", "pea"],)
    assert run_all(x, memo(x, ["fig", "pea"], ["pea", x])) == ()
    assert run_all(x, memo(x, ["fig", "pea"], [x, "pea"])) == ("fig",)
    assert run(1, out, memo("fig", ["fig", "fig", "pea"], out)) == (["fig", "fig", "pea"],)
    salad = ["roll", "okra", "fig", "beet", "fig", "pea"]
    got = run_all(out, memo("fig", salad, out))
    assert same(got, [["fig", "beet", "fig", "pea"], ["fig", "pea"]])
    kout = kvar()
    assert agrees_with_kanren(got, krun(0, kout, k_memo("fig", salad, kout)))
    got = names(run_all(out, fresh(lambda x: memo("fig", ["a", x, "c", "fig", "e"], out))))
    assert same(got, [["fig", "c", "fig", "e"], ["fig", "e"]])
    kx = kvar()
    assert agrees_with_kanren(
        run_all(out, fresh(lambda x: memo("fig", ["a", x, "c", "fig", "e"], out))),
        krun(0, kout, k_memo("fig", ["a", kx, "c", "fig", "e"], kout)),
    )


def test_ch5_memo_into_a_fresh_tail():
    x, y = vars(2)
    five = names(run(5, (x, y), memo("fig", cons("fig", "d", "fig", "e", y), x)))  # 5.19
    assert same(
        five,
        [
            (cons("fig", "d", "fig", "e", "_0"), "_0"),
            (cons("fig", "e", "_0"), "_0"),
            (cons("fig", "_0"), cons("fig", "_0")),
            (cons("fig", "_0"), cons("_1", "fig", "_0")),
            (cons("fig", "_0"), cons("_1", "_2", "fig", "_0")),
        ],
    )


def test_ch5_rembero_without_disequality():
    out, y, z = vars(3)
    assert same(run_all(out, trs_rembero("pea", ["pea"], out)), [[], ["pea"]])  # 5.26
    assert same(
        run_all(out, trs_rembero("pea", ["pea", "pea"], out)), [["pea"], ["pea"], ["pea", "pea"]]
    )  # 5.27
    got = run_all(out, fresh(lambda y, z: trs_rembero(y, ["a", "b", y, "d", z, "e"], out)))  # 5.28
    expected = [
        ["b", "a", "d", "_0", "e"],
        ["a", "b", "d", "_0", "e"],
        ["a", "b", "d", "_0", "e"],
        ["a", "b", "d", "_0", "e"],
        ["a", "b", "_0", "d", "e"],
        ["a", "b", "e", "d", "_0"],
        ["a", "b", "_0", "d", "_1", "e"],
    ]
    assert same(names(got), expected)
    kout, ky, kz = kvar(), kvar(), kvar()
    assert agrees_with_kanren(
        got, krun(0, kout, k_trs_rembero(ky, ["a", "b", ky, "d", kz, "e"], kout))
    )
    got = run_all((y, z), trs_rembero(y, [y, "d", z, "e"], [y, "d", "e"]))  # 5.48
    assert same(names(got), [("d", "d"), ("d", "d"), ("_0", "_0"), ("e", "e")])
    assert agrees_with_kanren(
        got, krun(0, (ky, kz), k_trs_rembero(ky, [ky, "d", kz, "e"], [ky, "d", "e"]))
    )


def test_ch5_rembero_all_fresh():
    y, z, w, out = vars(4)
    # 5.56 asks for five; the first five of this single recursion are certain
    five = names(run(5, (y, z, w, out), trs_rembero(y, cons(z, w), out)))
    assert same(
        five,
        [
            ("_0", "_0", "_1", "_1"),
            ("_0", "_1", [], ["_1"]),
            ("_0", "_1", cons("_0", "_2"), cons("_1", "_2")),
            ("_0", "_1", ["_2"], ["_1", "_2"]),
            ("_0", "_1", cons("_2", "_0", "_3"), cons("_1", "_2", "_3")),
        ],
    )


def test_ch5_surpriseo():
    r = var()
    assert run_all(r, eq("d", r), surpriseo(r)) == ("d",)  # 5.42
    assert names(run_all(r, surpriseo(r))) == ("_0",)  # 5.43
    assert run_all(r, surpriseo(r), eq("b", r)) == ("b",)  # 5.44: the surprise
    assert run_all(r, eq("b", r), surpriseo(r)) == ("b",)  # 5.45


def test_ch5_library_rembero_removes_the_first_occurrence():
    out, r = vars(2)
    assert run_all(out, rembero("pea", ["pea", "pea"], out)) == (["pea"],)
    assert run_all(out, rembero("b", ["a", "b", "c", "b"], out)) == (["a", "c", "b"],)
    assert run_all(out, rembero("z", ["a", "b"], out)) == (["a", "b"],)
    # with =/= there is no surprise: "b" cannot stay in (a b c)
    assert run_all(r, eq("b", r), rembero(r, ["a", "b", "c"], ["a", "b", "c"])) == ()
    assert run_all(r, eq("d", r), rembero(r, ["a", "b", "c"], ["a", "b", "c"])) == ("d",)
    kout, kr = kvar(), kvar()
    assert agrees_with_kanren(
        run_all(out, rembero("b", ["a", "b", "c", "b"], out)),
        krun(0, kout, krembero("b", ["a", "b", "c", "b"], kout)),
    )
    assert krun(0, kr, keq("b", kr), krembero(kr, ["a", "b", "c"], ["a", "b", "c"])) == ()


def test_neq_with_membero():
    q = var()
    assert same(run_all(q, membero(q, ["a", "b", "c"]), neq(q, "b")), ["a", "c"])
    assert same(run_all(q, neq(q, "b"), membero(q, ["a", "b", "c"])), ["a", "c"])
    assert run_all(q, neq("b", "b")) == ()
    assert names(run_all(q, neq("a", "b"))) == ("_0",)
    kq = kvar()
    assert agrees_with_kanren(
        run_all(q, neq(q, "b"), membero(q, ["a", "b", "c"])),
        krun(0, kq, kneq(kq, "b"), kmembero(kq, ["a", "b", "c"])),
    )


def test_alwayso_and_nevero_under_interleaving():
    q = var()
    assert names(run(3, q, alwayso())) == ("_0", "_0", "_0")
    assert run(5, q, eq("onion", q), alwayso()) == ("onion",) * 5
    assert run(2, q, alwayso(), eq("onion", q)) == ("onion", "onion")
    # a fair disjunction finds the answer beside a goal that never answers
    assert run(1, q, conde([nevero()], [eq("olive", q)])) == ("olive",)
    assert run(1, q, conde([eq("olive", q)], [nevero()])) == ("olive",)


# --------------------------------------------------------------------------
# microKanren paper (Hemann & Friedman): its test queries, through run


@relation
def fives(x):
    return lany(eq(x, 5), fives(x))


@relation
def sixes(x):
    return lany(eq(x, 6), sixes(x))


@relation
def mk_appendo(l, s, out):  # the paper's appendo: unify, then recur
    return conde(
        [eq([], l), eq(s, out)],
        [
            fresh(
                lambda a, d: [
                    eq(cons(a, d), l),
                    fresh(lambda res: [eq(cons(a, res), out), mk_appendo(d, s, res)]),
                ]
            )
        ],
    )


@relation
def mk_appendo2(l, s, out):  # the paper's appendo2: recur before unifying out
    return conde(
        [eq([], l), eq(s, out)],
        [
            fresh(
                lambda a, d: [
                    eq(cons(a, d), l),
                    fresh(lambda res: [mk_appendo2(d, s, res), eq(cons(a, res), out)]),
                ]
            )
        ],
    )


@relation
def relo(x):
    return fresh(lambda x1, x2: [eq(x, cons(x1, x2)), lany(eq(x1, x2), relo(x))])


def test_mk_paper_call_fresh_and_a_and_b():
    q, a, b = vars(3)
    assert run_all(q, eq(q, 5)) == (5,)
    a_and_b = conj(eq(a, 7), lany(eq(b, 5), eq(b, 6)))
    assert run_all((a, b), a_and_b) == ((7, 5), (7, 6))
    assert run(1, (a, b), a_and_b) == ((7, 5),)
    stream = run(None, (a, b), a_and_b)
    assert next(stream) == (7, 5)
    assert next(stream) == (7, 6)
    assert next(stream, "done") == "done"
    ka, kb = kvar(), kvar()
    assert krun(0, (ka, kb), keq(ka, 7), klany(keq(kb, 5), keq(kb, 6))) == run_all((a, b), a_and_b)


def test_mk_paper_who_cares_fives():
    q = var()
    assert run(1, q, fives(q)) == (5,)
    assert run(3, q, fives(q)) == (5, 5, 5)
    stream = run(None, q, fives(q))
    assert [next(stream) for _ in range(4)] == [5, 5, 5, 5]


def test_mk_paper_fives_and_sixes_interleave():
    q = var()
    four = run(4, q, lany(fives(q), sixes(q)))
    assert len(four) == 4 and set(four) == {5, 6}
    four = run(4, q, lany(sixes(q), fives(q)))
    assert len(four) == 4 and set(four) == {5, 6}


def test_mk_paper_ground_appendo():
    q = var()
    assert names(run_all(q, mk_appendo(["a"], ["b"], ["a", "b"]))) == ("_0",)
    assert names(run_all(q, mk_appendo2(["a"], ["b"], ["a", "b"]))) == ("_0",)
    assert run_all(q, mk_appendo(["a"], ["b"], ["b", "a"])) == ()
    assert run_all(q, mk_appendo(["a"], ["b"], q)) == (["a", "b"],)


def call_appendo(rel, q):
    """The paper's call-appendo: q is the list (l s out) of a fresh appendo call."""
    return fresh(lambda l, s, out: [rel(l, s, out), eq([l, s, out], q)])


def test_mk_paper_call_appendo():
    q = var()
    expected = [[[], "_0", "_0"], [["_0"], "_1", cons("_0", "_1")]]
    for rel in (mk_appendo, mk_appendo2):
        assert same(names(run(2, q, call_appendo(rel, q))), expected)


def test_mk_paper_many_non_answers():
    x = var()
    assert run(1, x, lany(relo(cons(5, 6)), eq(x, 3))) == (3,)
    assert run(1, x, lany(eq(x, 3), relo(cons(5, 6)))) == (3,)
    # relo itself does answer when the pair's parts can be equal
    assert names(run(1, x, relo(x))) == (cons("_0", "_0"),)
