"""The tabling suite: ``python -m benchmarks --suite tabling [--quick] [--repeat R] [--out DIR]``.

Recursive queries over facts (``problems``): the transitive closure of a
cyclic graph (all pairs) and a grandparent join over parent facts. relqueens
answers them with a tabled relation and fact tables; the peers are plain
Python (a breadth-first search from every node, and the semi-naive
fixpoint), pyDatalog and SWI-Prolog's tabling (``contenders``). Each
measurement runs in a fresh process (``worker``) and times the query alone,
the facts already loaded; every answer set is checked against plain
Python's. ``run`` prints the medians with relqueens' ratios and the targets,
and writes ``tabling.csv``.
"""
