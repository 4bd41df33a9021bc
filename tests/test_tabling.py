"""Tabled relations: recursion over cyclic graphs ends, each answer once, in every query mode."""

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from relqueens import (
    Relation,
    conde,
    eq,
    fact,
    facts,
    fd,
    fresh,
    lall,
    neq,
    relation,
    run,
    tabled,
    var,
    vars,
)


def closure(edges) -> set[tuple]:
    """The transitive closure of ``edges``, by a plain fixpoint."""
    pairs = set(edges)
    while True:
        more = {(x, w) for x, y in pairs for z, w in edges if y == z} - pairs
        if not more:
            return pairs
        pairs |= more


def closures(edge):
    """Left- and right-recursive tabled closures of the binary goal ``edge``."""

    @tabled
    def lefto(x, y):
        return conde([edge(x, y)], [fresh(lambda z: [lefto(x, z), edge(z, y)])])

    @tabled
    def righto(x, y):
        return conde([edge(x, y)], [fresh(lambda z: [edge(x, z), righto(z, y)])])

    return lefto, righto


def graph_facts(edges) -> Relation:
    edge = Relation("edge")
    facts(edge, *edges)
    return edge


def ring(n: int) -> list[tuple[int, int]]:
    return [(i, (i + 1) % n) for i in range(n)]


def exactly(answers, expected) -> bool:
    return len(answers) == len(set(answers)) and set(answers) == set(expected)


@pytest.mark.parametrize("direction", [0, 1], ids=["left", "right"])
def test_closure_of_a_strongly_connected_graph_in_every_query_mode(direction):
    n = 30
    patho = closures(graph_facts(ring(n) + [(0, 15), (7, 3)]))[direction]
    x, y = vars(2)
    assert exactly(run(0, (x, y), patho(x, y)), itertools.product(range(n), repeat=2))
    assert exactly(run(0, y, patho(4, y)), range(n))
    assert exactly(run(0, x, patho(x, 4)), range(n))
    assert run(0, x, patho(4, 9)) == (x,) and run(0, x, patho(4, n)) == ()


@st.composite
def graphs(draw):
    """Nodes 0..n-1 (some isolated) and edges among them, self-loops and cycles included."""
    n = draw(st.integers(1, 6))
    pairs = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
    return n, sorted(draw(st.sets(pairs, max_size=12)))


@settings(max_examples=40, deadline=None)
@given(graphs(), st.booleans())
def test_tabled_closure_is_the_fixpoint_in_all_four_modes(graph, as_facts):
    n, edges = graph
    if as_facts:
        edge = graph_facts(edges)
    else:

        def edge(a, b):
            return conde(*([eq((a, b), e)] for e in edges))

    expected = closure(edges)
    x, y = vars(2)
    low = fd.interval(0, n // 2)
    for patho in closures(edge):
        assert exactly(run(0, (x, y), patho(x, y)), expected)
        assert exactly(
            run(0, (x, y), fd.in_(y, low), patho(x, y)), {(a, b) for a, b in expected if b in low}
        )
        assert exactly(
            run(0, (x, y), patho(x, y), x <= n // 2), {(a, b) for a, b in expected if a in low}
        )
        for a in range(n + 1):  # node n is in no edge
            assert exactly(run(0, y, patho(a, y)), {b for s, b in expected if s == a})
            assert exactly(run(0, x, patho(x, a)), {s for s, b in expected if b == a})
            for b in range(n):
                assert len(run(0, 1, patho(a, b))) == ((a, b) in expected)


@settings(max_examples=25, deadline=None)
@given(graphs())
def test_mutual_recursion_even_and_odd_path_lengths(graph):
    n, edges = graph
    edge, node = graph_facts(edges), Relation("node")
    facts(node, *[(i,) for i in range(n)])

    @tabled
    def eveno(x, y):
        return conde([node(x), eq(x, y)], [fresh(lambda z: [edge(x, z), oddo(z, y)])])

    @tabled
    def oddo(x, y):
        return fresh(lambda z: [edge(x, z), eveno(z, y)])

    reach = {(i, 0, i) for i in range(n)}  # (from, parity, to)
    while True:
        more = {(s, 1 - p, b) for s, p, a in reach for a2, b in edges if a == a2} - reach
        if not more:
            break
        reach |= more
    x, y = vars(2)
    assert exactly(run(0, (x, y), eveno(x, y)), {(s, t) for s, p, t in reach if p == 0})
    assert exactly(run(0, (x, y), oddo(x, y)), {(s, t) for s, p, t in reach if p == 1})
    assert exactly(run(0, y, oddo(0, y)), {t for s, p, t in reach if s == 0 and p == 1})


def test_a_partly_bound_structure_argument():
    edge = graph_facts(ring(5))

    @tabled
    def stepso(pair, k):  # pair = (from, to): a path of k steps, k up to 6
        return conde(
            [fresh(lambda a, b: [eq(pair, (a, b)), edge(a, b), eq(k, 1)])],
            [
                fresh(
                    lambda a, b, c, j: [
                        eq(pair, (a, b)),
                        stepso((a, c), j),
                        edge(c, b),
                        fd.in_(j, k, fd.interval(1, 6)),
                        k == j + 1,
                    ]
                )
            ],
        )

    y, k = vars(2)
    assert exactly(run(0, (y, k), stepso((0, y), k)), {((i % 5), i) for i in range(1, 7)})
    assert exactly(run(0, k, stepso((0, 0), k)), {5})
    assert exactly(run(0, k, stepso([0, 0], k)), ())  # a list is not a tuple


def test_an_fd_filter_on_tabled_answers():
    lefto, righto = closures(graph_facts(ring(40)))
    y = var()
    for patho in (lefto, righto):
        assert exactly(run(0, y, patho(3, y), y < 10), range(10))
        assert exactly(run(0, y, fd.in_(y, fd.interval(5, 12)), patho(3, y)), range(5, 13))
        assert exactly(
            run(0, y, fd.in_(y, fd.interval(0, 100)), y % 7 == 0, patho(3, y)), range(0, 40, 7)
        )
        assert exactly(run(0, y, neq(y, 3), patho(3, y), y < 5), {0, 1, 2, 4})


def test_open_fd_variables_in_answers_are_labeled():
    @tabled
    def ordered(x, y):
        return [fd.in_(x, y, fd.interval(0, 3)), x < y]

    x, y = vars(2)
    assert exactly(
        run(0, (x, y), ordered(x, y)), {(a, b) for a in range(4) for b in range(a + 1, 4)}
    )
    assert run(0, y, ordered(2, y)) == (3,)


@tabled
def nato(n):
    """Peano numerals, left-recursively: infinitely many answers."""
    return conde([eq(n, 0)], [fresh(lambda m: [nato(m), eq(n, ("s", m))])])


def test_run_n_and_lazy_run_stream_answers_as_tables_fill():
    q = var()
    assert run(3, q, nato(q)) == (0, ("s", 0), ("s", ("s", 0)))
    lazy = run(None, q, nato(q))
    assert [next(lazy) for _ in range(4)][-1] == ("s", ("s", ("s", 0)))
    lefto, _ = closures(graph_facts(ring(200)))
    x, y = vars(2)
    assert len(set(run(5, (x, y), lefto(x, y)))) == 5


def test_answers_with_variables_are_renamed_apart():
    @tabled
    def sameo(x, y):
        return eq(x, y)

    a, b, c, d = vars(4)
    assert run(0, (a, b), sameo(a, b)) == ((a, a),) or len(run(0, (a, b), sameo(a, b))) == 1
    assert run(0, (b, d), sameo(a, b), sameo(c, d), eq(a, 1), eq(c, 2)) == ((1, 2),)


def test_an_argument_no_row_binds_stays_free_in_the_answers():
    edge = graph_facts([(0, 1), (0, 2), (1, 2)])

    @tabled
    def has_edgeo(x, anything):
        return fresh(lambda z: edge(x, z))

    x, y = vars(2)
    found = run(0, (x, y), has_edgeo(x, y))
    assert len(found) == 2 and {a for a, _ in found} == {0, 1}
    assert all(
        b is not y and type(b) is not int for _, b in found
    )  # a variable of the answer's own
    assert run(0, y, has_edgeo(0, y), eq(y, 5)) == (5,)


def test_a_consumer_reads_the_answers_it_adds_to_its_own_table():
    lefto, _ = closures(graph_facts([(0, 1), (1, 2), (2, 0)]))
    x, y = vars(2)
    assert exactly(run(0, (x, y), lefto(x, y)), itertools.product(range(3), repeat=2))


def test_joins_in_a_tabled_body_fall_back_where_they_must():
    edge = graph_facts([(0, 1), (1, 2), (2, 0), (2, 2)])
    label = Relation("label")
    facts(label, (0, "a"), (1, "b"), (2, ("c", 1)))

    @tabled
    def labelled_stepo(x, name):  # a join (edge, then label) after a recursive call
        return conde(
            [label(x, name)],
            [fresh(lambda z, w: [labelled_stepo(z, w), edge(z, x), label(x, name)])],
        )

    @tabled
    def loopo(x, y):  # a goal after the join that takes no rows: states after all
        return conde([edge(x, y)], [fresh(lambda z: [loopo(x, z), edge(z, z), eq(y, z)])])

    @tabled
    def sameo(x, y):
        return eq(x, y)

    @tabled
    def fromo(x, y):  # answers with variables are no index keys
        return fresh(lambda z: [sameo(z, x), edge(z, y)])

    x, y = vars(2)
    assert exactly(run(0, (x, y), labelled_stepo(x, y)), {(0, "a"), (1, "b"), (2, ("c", 1))})
    assert exactly(run(0, (x, y), loopo(x, y)), {(0, 1), (1, 2), (2, 0), (2, 2)})
    assert exactly(run(0, (x, y), fromo(x, y)), {(0, 1), (1, 2), (2, 0), (2, 2)})


def test_tables_live_for_one_run():
    edge = graph_facts([(0, 1)])
    lefto, _ = closures(edge)
    y = var()
    assert run(0, y, lefto(0, y)) == (1,)
    fact(edge, 1, 2)
    assert set(run(0, y, lefto(0, y))) == {1, 2}


def test_tabled_relations_call_plain_relations_and_each_other():
    edge = graph_facts([(0, 1), (1, 2), (2, 0), (3, 3)])

    @relation
    def hopo(x, y):
        return edge(x, y)

    @tabled
    def reacho(x, y):
        return conde([hopo(x, y)], [fresh(lambda z: [reacho(x, z), reacho(z, y)])])

    @tabled
    def loopo(x):
        return reacho(x, x)

    x = var()
    assert exactly(run(0, x, loopo(x)), {0, 1, 2, 3})
    assert exactly(run(0, x, lall(reacho(3, x))), {3})


def test_keyword_and_default_arguments_are_bound_as_python_binds_them():
    @tabled
    def between(x, lo=0, hi=3):
        return [fd.in_(x, fd.interval(lo, hi))]

    x = var()
    assert run(0, x, between(x)) == (0, 1, 2, 3)
    assert run(0, x, between(x, hi=1)) == (0, 1)
    with pytest.raises(TypeError, match="between: too many positional arguments"):
        between(x, 1, 2, 3)


def test_bad_uses_of_tabled_are_named():
    with pytest.raises(TypeError, match="tabled decorates a relation function"):
        tabled(3)
    with pytest.raises(TypeError, match="tabled decorates a relation function"):
        tabled(eq(var(), 1))  # a goal, not a function making goals

    def generator_goal(S):
        yield S

    with pytest.raises(TypeError, match="generator or coroutine function"):
        tabled(generator_goal)
    with pytest.raises(TypeError, match="is tabled already"):
        tabled(nato)
    with pytest.raises(TypeError, match="keyword-only"):
        tabled(lambda x, *, y: eq(x, y))
    with pytest.raises(TypeError, match="nato: too many positional arguments"):
        nato(1, 2)
    with pytest.raises(TypeError, match=r"\{1: 2\} \(dict\) is unhashable"):
        run(0, 1, nato({1: 2}))
    with pytest.raises(TypeError, match="is not a goal"):
        run(0, 1, tabled(lambda x: 42)(1))
