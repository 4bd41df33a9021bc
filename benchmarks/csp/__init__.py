"""The CSP suite: ``python -m benchmarks --suite csp [--quick] [--repeat R] [--timeout T]``.

Classic constraint problems with known answers (``problems``), each stated
by relqueens through its public API and by three optional peers:
python-constraint, OR-tools CP-SAT and SWI-Prolog's clpfd (``models_*``,
``contenders``). Every measurement runs in a fresh process
(``worker``) with a timeout, contenders interleaved round by round; every
answer is checked by a plain-Python verifier against the known count or
optimum. ``run`` prints a table of median CPU seconds with relqueens' ratios
to SWI-Prolog and CP-SAT (``report``) and writes ``csp.csv`` into ``--out``.
"""
