"""Variable selection: first-fail's own loop picks what the generic smallest-key selector
picks; ``min`` and ``max`` branch by ``step`` unless told, and so pick again after ``x != v``."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from relqueens import fd, run, vars
from relqueens.fd.domain import Wide
from relqueens.fd.labeling import SELECTORS, _best, size
from relqueens.fd.store import Model
from relqueens.fd.trace import SearchTrace

bitsets = st.integers(1, 2**9 - 1)
wides = st.tuples(st.integers(-50, 50), st.integers(0, 12)).map(lambda t: Wide(t[0], t[0] + t[1]))


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(bitsets, wides), max_size=12), st.data())
def test_first_fail_picks_the_smallest_open_domain_leftmost(D, data):
    idxs = data.draw(st.permutations(range(len(D))))
    generic = _best(lambda d, i, m: size(d))
    assert SELECTORS["ff"](D, idxs, 0, Model()) == generic(D, idxs, 0, Model())


@pytest.mark.parametrize(
    "select, branching",
    [("leftmost", "enum"), ("ff", "enum"), ("ffc", "enum"), ("min", "step"), ("max", "step")],
)
def test_the_default_branching_is_step_for_min_and_max_over_bitsets(select, branching):
    x, y = vars(2)
    bitsets, wide = [0b111, 0b110], [0b111, Wide(0, 10**12)]
    assert fd.label([x, y], select=select).branching_for(bitsets, [0, 1]) == branching
    assert fd.label([x, y], select=select).branching_for(wide, [0, 1]) == "enum"
    given = fd.label([x, y], select=select, branching="bisect")
    assert given.branching_for(bitsets, [0, 1]) == given.branching_for(wide, [0, 1]) == "bisect"


def test_min_over_wide_domains_halves_them():
    """The review's reproducer: by ``step`` value by value the search would pass gaps of
    10**11 one value at a time; the default halves the Wide domains (as ``enum`` does)."""
    x, y = vars(2)
    goals = [
        fd.in_(x, y, fd.interval(-(10**12), 10**12)),
        abs(x - y) == 10**11 + 7,
        abs(x + y) == 3 * 10**9 + 1,
    ]
    got = run(1, (x, y), *goals, fd.label([x, y], select="min"), max_nodes=10_000)
    assert got == ((-51_500_000_004, 48_500_000_003),)


def columns(words, result):
    """A cryptarithm stated column by column with carries: the letters, and the goals."""
    letters = list(dict.fromkeys("".join(words) + result))
    x = vars(len(letters))
    at = dict(zip(letters, x))
    leading = {at[w[0]] for w in [*words, result]}
    carry = vars(len(result))
    goals = [
        fd.in_(*[v for v in x if v in leading], fd.interval(1, 9)),
        fd.in_(*[v for v in x if v not in leading], fd.interval(0, 9)),
        fd.in_(carry[0], fd.interval(0, 0)),
        fd.in_(*carry[1:], fd.interval(0, len(words))),
        fd.all_distinct(x),
    ]
    for i in range(len(result)):
        column = [at[w[-1 - i]] for w in words if i < len(w)]
        total = sum(column, carry[i]) - at[result[-1 - i]]
        goals.append(total == (10 * carry[i + 1] if i + 1 < len(result) else 0))
    return x, goals


def test_min_by_step_picks_another_variable_once_x_is_not_v():
    """DONALD+GERALD=ROBERT by columns, all by ``min``: ``step`` moves on to the variable
    whose lower bound is now the smallest (17 nodes), ``enum`` tries every value of the
    first (451)."""
    nodes, answers = {}, {}
    for branching in (None, "enum", "step"):
        x, goals = columns(["DONALD", "GERALD"], "ROBERT")
        trace = SearchTrace()
        answers[branching] = run(
            0, x, *goals, fd.label(x, select="min", branching=branching, trace=trace)
        )
        nodes[branching] = len(trace.nodes)
    assert answers[None] == answers["enum"] == answers["step"] == ([5, 2, 6, 4, 8, 1, 9, 7, 3, 0],)
    assert nodes[None] == nodes["step"] < nodes["enum"] / 10


def test_a_labeling_of_bound_variables_gives_their_values():
    """Propagation bound every label (x by a pin, y through ``y == x + 1``): their one answer;
    with z still open the labeling searches it, in its own order."""
    x, y, z = vars(3)
    goals = [fd.in_(x, y, z, fd.interval(0, 3)), fd.eq(x, 1), y == x + 1]
    assert run(0, (x, y), *goals, fd.label([x, y])) == ((1, 2),)
    down = fd.label([x, y, z], order="down")
    assert run(0, (x, y, z), *goals, down) == tuple((1, 2, c) for c in (3, 2, 1, 0))
    cost = fd.label([x, y], maximize=z)  # an objective still labels z, best first
    assert run(0, (x, y, z), *goals, cost) == ((1, 2, 3), (1, 2, 2), (1, 2, 1), (1, 2, 0))
