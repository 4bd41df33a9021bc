"""The propagation stepper: why the trace says values were removed, and the page built from it."""

import json
import re
from itertools import pairwise

import pytest
from traces import domains_after

from relqueens import SearchTrace, fd, queens, run, vars
from relqueens import stepper as stepper_module
from relqueens.cli import main
from relqueens.fd.post import Distinct, PermLeader
from relqueens.fd.terms import Relation
from relqueens.fd.trace import FAILED
from relqueens.reference import queen_tree
from relqueens.stepper import (
    BACK,
    CHOOSE,
    MAX_STEPS,
    PROPAGATE,
    START,
    Grid,
    QueensBoard,
    queens_stepper_html,
    stepper_html,
    steps,
)
from relqueens.treeview import count, ml_shape, queens_trace


def test_every_removal_has_its_constraint():
    t = SearchTrace()
    assert len(queens(6, trace=t)) == 4
    for node in t.nodes[1:]:
        removed = {v: set(before) - set(after) for v, (before, after) in node.narrowed.items()}
        pruned = {v: set(values) for v, values in node.pruned.items()}
        if node.status == FAILED:
            assert node.emptied is not None and node.conflict is not None
            assert set(node.pruned[node.emptied]) >= set(domains_after(t, node)[node.emptied])
            pruned[node.emptied] &= removed.get(node.emptied, set())
            pruned = {v: s for v, s in pruned.items() if s}
        assert pruned == {v: s for v, s in removed.items() if s}
        fixed = {v: min(d) for v, d in domains_after(t, node).items() if len(d) == 1}
        for v, values in node.pruned.items():
            for value, cause in values.items():
                assert isinstance(cause, (Distinct, Relation))
                if isinstance(
                    cause, Distinct
                ):  # a queen stands on that column, or it forced this row
                    assert v in fixed or any(c == value for w, c in fixed.items() if w is not v)


def test_every_kind_of_propagator_is_watched():
    x, y, z = vars(3)
    t = SearchTrace()
    goals = [fd.in_(x, y, z, fd.interval(0, 5)), x + y + z == 7, x < y, fd.all_distinct([x, y, z])]
    assert run(0, [x, y, z], *goals, fd.label([x, y, z], trace=t)) == run(0, [x, y, z], *goals)
    causes = {c for n in t.nodes for values in n.pruned.values() for c in values.values()}
    assert None not in causes and len(causes) >= 2


def test_a_trace_sees_what_an_answer_posted_between_two_labelings():
    """One trace over two labelings: the second searches the model grown in place since the first
    (a new propagator, a new variable), not the watched copy the first one made."""
    x, y, z, w = vars(4)
    goals = [fd.in_(x, y, z, fd.interval(0, 2)), fd.label([x], trace=(t := SearchTrace()))]
    goals += [y < z, fd.ne(y, x), fd.in_(w, fd.interval(0, 2)), y < w, fd.label([y, z, w], trace=t)]
    assert list(run(0, [x, y, z, w], *goals)) == [
        [a, b, c, d]
        for a in range(3)
        for b in range(3)
        for c in range(3)
        for d in range(3)
        if b < c and b != a and b < d
    ]


def test_a_propagator_is_its_own_cause():
    t = SearchTrace()
    assert len(queens(8, symmetry=True, trace=t)) == 12
    causes = {type(c) for n in t.nodes for values in n.pruned.values() for c in values.values()}
    assert causes == {Distinct, Relation, PermLeader}
    assert any(isinstance(n.conflict, PermLeader) for n in t.nodes)


# -- the page ------------------------------------------------------------------------------------


def page_data(page):
    return json.loads(
        re.search(r'<script id="trace-data" type="application/json">(.*?)</script>', page).group(1)
    )


def test_steps_choose_propagate_and_back_up():
    trace, _ = queens_trace(4)
    order = steps(trace)
    assert order[0] == (START, 0)
    for (phase, k), (next_phase, next_k) in pairwise(order):
        if phase == CHOOSE:
            assert (next_phase, next_k) == (PROPAGATE, k)
        if next_phase == BACK:
            assert trace.nodes[k].status in (FAILED, "solution") and phase == PROPAGATE
        if next_phase == CHOOSE:
            assert trace.nodes[next_k].parent == k
    assert sum(p == CHOOSE for p, _ in order) == trace.counts()["nodes"] == 8


def test_eight_queens_page_is_small_and_self_contained():
    page = queens_stepper_html(8)
    assert len(page.encode()) < 2_000_000
    assert "http" not in page.replace("http://www.w3.org/2000/svg", "") and " src=" not in page
    data = page_data(page)
    assert sum(s == CHOOSE for s in data["steps"][::2]) == 636
    assert data["baseline"]["total"] == [2056, 644, 92]


def test_plain_backtracking_counts_beside_relqueens():
    data = page_data(queens_stepper_html(6))
    assert (
        data["baseline"]["total"] == list(count(ml_shape(queen_tree(6))).values()) == [152, 46, 4]
    )
    solutions = [k for k, status in enumerate(data["nodes"]["status"]) if status == 2]
    assert [data["baseline"]["at"][k][PROPAGATE][2] for k in solutions] == [1, 2, 3, 4]
    seen = [at[phase][0] for at in data["baseline"]["at"] for phase in (CHOOSE, PROPAGATE)]
    assert seen == sorted(seen)  # the same walk through the boards, in order


def test_reasons_are_named_from_the_constraints():
    cols = vars(3)
    board = QueensBoard(cols)
    assert board.kind(fd.distinct(cols)) == "column"
    assert board.kind(fd.lin(cols[2]) != fd.lin(cols[0]) + 2) == "diagonal"  # down and to the right
    assert board.kind(fd.lin(cols[0]) != fd.lin(cols[2]) + 2) == "anti-diagonal"
    assert board.kind(None) == "propagation"
    data = page_data(queens_stepper_html(8, pins=["d4"], symmetry=True))
    assert set(data["kinds"]) >= {"pin", "column", "diagonal", "anti-diagonal", "symmetry"}
    root_reasons = {data["kinds"][k] for k in data["nodes"]["pruned"][0][2::3]}
    assert {"pin", "column", "diagonal", "anti-diagonal"} <= root_reasons


def test_the_step_limit_is_refused_with_the_reason(monkeypatch):
    with pytest.raises(ValueError, match=f"more than {MAX_STEPS:,} steps.*--limit"):
        queens_stepper_html(10)
    assert "the first 5" in queens_stepper_html(10, limit=5)
    trace, _ = queens_trace(6)
    monkeypatch.setattr(stepper_module, "MAX_STEPS", 50)
    with pytest.raises(ValueError, match=r"takes \d+ steps; a stepper page replays at most 50"):
        stepper_html(trace, layout=QueensBoard(vars(6)))


@pytest.mark.parametrize(
    "argv, message",
    [
        (["0"], "at least 1"),
        (["x"], "whole number"),
        (["17"], "1 to 16 rows"),
        (["8"], "more than 100 steps"),
        (["8", "--pin", "z9"], "off the 8x8 board"),
        (["8", "--pin", "a1", "--pin", "b2"], "no search to step through"),
        (["1"], "settle the board"),
        (["8", "--limit", "0"], "at least 1"),
    ],
)
def test_step_command_refuses_bad_input_in_one_line(tmp_path, capsys, monkeypatch, argv, message):
    monkeypatch.setattr(stepper_module, "MAX_STEPS", 100)
    page = tmp_path / "s.html"
    assert _exit(["step", *argv, "--html", str(page)]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
    assert not page.exists()


def _exit(argv):
    try:
        return main(argv)
    except SystemExit as e:  # argparse's errors
        return e.code


def test_grid_view_for_any_trace_and_hostile_names():
    a, b, c = vars(3)
    t = SearchTrace()
    answers = run(
        0,
        [a, b, c],
        fd.in_(a, b, c, fd.interval(1, 3)),
        fd.distinct([a, b, c]),
        fd.label([a, b, c], trace=t),
    )
    assert len(answers) == 6
    page = stepper_html(
        t, layout=Grid([[a, b, c]], kind=lambda con: "</script><b>x</b>"), title="<i>grid</i>"
    )
    assert "</script><b>" not in page and "<i>grid</i>" not in page and "&lt;i&gt;grid" in page
    data = page_data(page)
    assert data["kinds"] == ["</script><b>x</b>"] and data["values"] == [[1, 2, 3]] * 3
    assert page.count('class="cell') == 3
    with pytest.raises(ValueError, match="same length"):
        Grid([[a, b], [c]])
    with pytest.raises(ValueError, match="trace is empty"):
        stepper_html(SearchTrace(), layout=Grid([[a]]))


def test_a_labeled_variable_unified_before_the_constraints_shows_its_value_at_the_root():
    """``eq`` goals after the constraints unify before them (no FD variable then): the trace's
    root holds each labeled variable so bound with its value, so a layout shows the given."""
    from relqueens import eq

    cells = vars(9)
    square = [cells[r * 3 : r * 3 + 3] for r in range(3)]
    groups = [fd.distinct(g) for g in (*square, *(cells[c::3] for c in range(3)))]
    trace = SearchTrace()
    goals = [fd.in_(*cells, fd.interval(1, 3)), *groups, eq(cells[0], 1)]
    assert len(run(0, cells, *goals, fd.label(cells, trace=trace))) == 4
    root = trace.nodes[0]
    assert set(root.narrowed[cells[0]][1]) == {1}
    layout = Grid(square, values=[1, 2, 3])
    before = stepper_module.BEFORE
    assert sorted(layout.start(root)) == [(0, 2, before), (0, 3, before)] + [
        (k, 1, before) for k in (1, 2, 3, 6)
    ]
    assert trace.given == {}  # taken by the root: a search the trace records later starts anew
    again = SearchTrace()
    run(1, cells, *goals, fd.label([7, *cells], trace=again))  # a constant among the labels
    assert 7 not in again.nodes[0].narrowed and set(again.nodes[0].narrowed[cells[0]][1]) == {1}
