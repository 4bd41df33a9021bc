"""Helpers for tests that read a search trace."""


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
