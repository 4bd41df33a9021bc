"""The propagation stepper: why the trace says values were removed, and the page built from it."""

from relqueens import SearchTrace, queens
from relqueens.fd.post import Distinct, PermLeader
from relqueens.fd.terms import Relation
from relqueens.fd.trace import FAILED


def domains_after(trace, node):
    """Every variable's domain after ``node``'s propagation, rebuilt from the root down."""
    path = []
    while node is not None:
        path.append(node)
        node = None if node.parent is None else trace.nodes[node.parent]
    root, *choices = reversed(path)
    doms = {v: set(after) for v, (_, after) in root.narrowed.items()}
    for n in choices:
        doms[n.var] = {n.value}
        for v, (_, after) in n.narrowed.items():
            doms[v] = set(after)
    return doms


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
                if isinstance(cause, Distinct):  # another queen stands on that column
                    assert any(c == value for w, c in fixed.items() if w is not v)


def test_a_propagator_is_its_own_cause():
    t = SearchTrace()
    assert len(queens(8, symmetry=True, trace=t)) == 12
    causes = {type(c) for n in t.nodes for values in n.pruned.values() for c in values.values()}
    assert causes == {Distinct, Relation, PermLeader}
    assert any(isinstance(n.conflict, PermLeader) for n in t.nodes)

